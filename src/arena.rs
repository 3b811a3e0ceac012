//! `pips arena`: seeded matches between computer opponents — built-in
//! levels or external bots serving `pips.v1.BotService` — with seats
//! rotated so each side of a pairing sits everywhere equally, and a table
//! of win rates, points, faults and decision latencies.
//!
//! A bot that errors, answers a move that is not legal or runs out of time
//! has that move replaced by a random legal one, and the fault is counted
//! against it. Every match is reproducible from the arena's seed and its
//! index (for built-in levels at a playout budget); `--replays` writes one
//! JSON line per match (its first state and its moves) that `Replay`
//! re-runs exactly.
//!
//! Besides matches, the table counts hands: the share of hands each side
//! won and its points a hand net of the other side's, each with a 95%
//! interval. With `duplicate`, each deal is played at every seating of the
//! pairing (twice, the sides swapped, when two sides play; once per seat
//! when one seat plays several), so that the luck of the deal cancels: the
//! same seed deals the same hands, hand for hand, and the first hand has
//! the same leader.
//!
//! With `review`, every match is reviewed afterwards as `ReviewMatch`
//! reviews it (`bots::review`): each side's decisions valued by the expert
//! from the seat's view, and the table adds each side's accuracy (the mean
//! over matches of its accuracy in a match, with a 95% interval, and the
//! mean points a decision gave up against the best move) and the time a
//! whole match's review took.

use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use base64::Engine as _;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use crate::bots::{self, Budget, Level};
use crate::proto;
use crate::proto::bot_service_client::BotServiceClient;
use crate::rules::presets;
use crate::rules::tricks::options::Scoring;
use crate::rules::{Event, Game, Move, Outcome, Seat, Side};
use crate::service::Engine;
use crate::service::codec::{decode_move, decode_state, encode_move, encode_view};

/// Who plays one side of a pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// A built-in level.
    Level(Level),
    /// A built-in search level at a playout budget of its own
    /// (`expert@10000`) instead of the arena's: to measure a search against
    /// another at a different budget.
    Budgeted(Level, u32),
    /// An external bot at this URL (`http://HOST:PORT`, given as
    /// `grpc://HOST:PORT`).
    External(String),
}

impl Player {
    /// A player from its name: a level's ([`Level::NAMES`]) or
    /// `grpc://HOST:PORT`; a search
    /// level may name its playouts a decision after an `@`
    /// (`expert@10000`).
    ///
    /// # Errors
    /// For any other name, and a budget that is not a positive number or
    /// is given to a level that does not search.
    pub fn parse(name: &str) -> Result<Player, String> {
        if let Some(level) = Level::from_name(name) {
            return Ok(Player::Level(level));
        }
        if let Some((base, budget)) = name.split_once('@')
            && let Some(level) = Level::from_name(base)
        {
            let playouts = budget
                .parse::<u32>()
                .ok()
                .filter(|&p| p > 0)
                .ok_or_else(|| {
                    format!("{name:?}: the playouts after @ are not a positive number")
                })?;
            return if level.searches() {
                Ok(Player::Budgeted(level, playouts))
            } else {
                Err(format!(
                    "{name:?}: {base} does not search, it takes no playouts"
                ))
            };
        }
        match name.strip_prefix("grpc://") {
            Some(address) if !address.is_empty() => {
                Ok(Player::External(format!("http://{address}")))
            }
            _ => {
                let levels: Vec<&str> = Level::NAMES.iter().map(|&(known, _)| known).collect();
                Err(format!(
                    "{name:?} is not a player: {} or grpc://HOST:PORT",
                    levels.join(", ")
                ))
            }
        }
    }

    /// Its own playouts a decision, if it carries a budget.
    #[must_use]
    pub fn playouts(&self) -> Option<u32> {
        match self {
            Player::Budgeted(_, playouts) => Some(*playouts),
            Player::Level(_) | Player::External(_) => None,
        }
    }

    /// Its name, as given.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Player::Level(level) => level.name().to_owned(),
            Player::Budgeted(level, playouts) => format!("{}@{playouts}", level.name()),
            Player::External(url) => url.replacen("http://", "grpc://", 1),
        }
    }
}

/// What an arena run plays.
#[derive(Clone, Debug)]
pub struct Arena {
    /// The preset.
    pub variant: String,
    /// Seats per match.
    pub players: u8,
    /// Partnerships (4 seats only), if overriding the preset.
    pub partnerships: Option<bool>,
    /// Matches per pairing.
    pub matches: usize,
    /// The arena's seed: match `i` is dealt and played from it and `i`.
    pub seed: u64,
    /// `expert`'s playouts per decision.
    pub playouts: u32,
    /// An external bot's time per move.
    pub move_time: Duration,
    /// Threads playing matches.
    pub jobs: usize,
    /// Play each deal at every seating of the pairing (see the module's
    /// text); `matches` must then be a multiple of the seatings.
    pub duplicate: bool,
    /// Review every match with the expert at this many playouts a
    /// decision (see the module's text); none: no review.
    pub review: Option<u32>,
}

/// One side's tallies in a pairing.
#[derive(Clone, Debug, Default)]
struct Tally {
    /// Matches its side won.
    wins: usize,
    /// Matches drawn.
    draws: usize,
    /// Its side's final scores, summed.
    points: i64,
    /// Moves replaced because the bot answered an illegal move or failed.
    illegal: usize,
    /// Moves replaced because the bot ran out of time.
    timeouts: usize,
    /// How long each real decision took (a forced move is not timed).
    latencies: Vec<Duration>,
    /// Playouts spent (expert).
    playouts: u64,
    /// Time spent in decisions that used playouts.
    searching: Duration,
    /// Hands played (a match that ends during a hand counts it).
    hands: usize,
    /// Hands its side won, a hand nobody won counting a half.
    hands_won: f64,
    /// Its points a hand net of the other side's (see [`HandTally`]),
    /// summed, and their squares summed, for the interval.
    hand_points: f64,
    hand_points_squared: f64,
    /// Matches in which its side had a graded decision reviewed.
    reviewed: usize,
    /// Its accuracy a reviewed match (0 to 100), summed, and the squares
    /// summed, for the interval.
    accuracy: f64,
    accuracy_squared: f64,
    /// Its graded decisions reviewed, and the winning chance they lost
    /// (percentage points), summed.
    graded: u64,
    loss: f64,
    /// Its graded decisions whose points were valued, and the points
    /// they gave up against the best move, summed.
    pointed: u64,
    points_lost: f64,
    /// How long each whole match's review took (kept on the first side's
    /// tally only: a review is of the match, not of a side).
    review_times: Vec<Duration>,
}

impl Tally {
    /// Adds `other`'s counts to these.
    fn add(&mut self, other: Tally) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.points += other.points;
        self.illegal += other.illegal;
        self.timeouts += other.timeouts;
        self.latencies.extend(other.latencies);
        self.playouts += other.playouts;
        self.searching += other.searching;
        self.hands += other.hands;
        self.hands_won += other.hands_won;
        self.hand_points += other.hand_points;
        self.hand_points_squared += other.hand_points_squared;
        self.reviewed += other.reviewed;
        self.accuracy += other.accuracy;
        self.accuracy_squared += other.accuracy_squared;
        self.graded += other.graded;
        self.loss += other.loss;
        self.pointed += other.pointed;
        self.points_lost += other.points_lost;
        self.review_times.extend(other.review_times);
    }
}

/// One hand's points for the sides of a pairing, as they come.
struct HandTally {
    /// The pairing side (0 or 1) each of the game's sides plays for.
    pairing_side: Vec<usize>,
    /// Points each of the game's sides gained in the hand so far.
    gains: Vec<i32>,
    /// Whether the lowest score wins (penalty points): the net is negated,
    /// so that more is better for every game.
    lowest_wins: bool,
}

impl HandTally {
    /// Counts a finished hand won by the game side `winner` (none: a tie)
    /// into `tallies`, and starts the next hand.
    fn finish(&mut self, winner: Option<Side>, tallies: &mut [Tally; 2]) {
        // A side's points: the mean of its game sides' (one seat against
        // several: the several's mean), net of the other side's.
        let mean = |side: usize| {
            let (sum, n) = self
                .gains
                .iter()
                .zip(&self.pairing_side)
                .filter(|&(_, &p)| p == side)
                .fold((0.0, 0.0), |(sum, n), (&gain, _)| {
                    (sum + f64::from(gain), n + 1.0)
                });
            if n > 0.0 { sum / n } else { 0.0 }
        };
        let (first, second) = (mean(0), mean(1));
        let won_by = winner.and_then(|w| self.pairing_side.get(usize::from(w)).copied());
        for (side, tally) in tallies.iter_mut().enumerate() {
            let mut net = if side == 0 {
                first - second
            } else {
                second - first
            };
            if self.lowest_wins {
                net = -net;
            }
            tally.hands += 1;
            tally.hands_won += match won_by {
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            tally.hand_points += net;
            tally.hand_points_squared += net * net;
        }
        self.gains.iter_mut().for_each(|g| *g = 0);
    }
}

/// One match's result, for the tallies and the replay file.
struct Played {
    /// The tallies of this match, by side of the pairing.
    tallies: [Tally; 2],
    /// The replay line.
    line: String,
}

/// How long connecting to an external bot may take before the arena gives
/// up on it.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// A client of the external bot at `url`, connected within
/// [`CONNECT_TIMEOUT`].
async fn connect(url: &str) -> Result<BotServiceClient<tonic::transport::Channel>, String> {
    let endpoint = tonic::transport::Endpoint::from_shared(url.to_owned())
        .map_err(|e| e.to_string())?
        .connect_timeout(CONNECT_TIMEOUT);
    match tokio::time::timeout(CONNECT_TIMEOUT, endpoint.connect()).await {
        Ok(Ok(channel)) => Ok(BotServiceClient::new(channel)),
        Ok(Err(error)) => Err(error.to_string()),
        Err(_) => Err(format!(
            "no connection within {} s",
            CONNECT_TIMEOUT.as_secs()
        )),
    }
}

/// An external bot's connection, for one thread.
struct Remote {
    /// The runtime its calls run on.
    runtime: tokio::runtime::Handle,
    /// The client.
    client: BotServiceClient<tonic::transport::Channel>,
}

impl Arena {
    /// Plays every match of `pairing` and returns the table's text; writes
    /// replay lines to `replays` and shows progress on standard error.
    ///
    /// # Errors
    /// When the first state cannot be dealt, an external bot cannot be
    /// reached or the replay file cannot be written.
    pub fn run(
        &self,
        pairing: &[Player; 2],
        replays: Option<&Mutex<std::fs::File>>,
    ) -> Result<String, String> {
        let seatings = self.seatings()?;
        if self.duplicate && self.matches % seatings != 0 {
            return Err(format!(
                "--duplicate plays each deal {seatings} times: --matches must be a multiple of {seatings}"
            ));
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start a runtime: {e}"))?;
        let progress = indicatif::ProgressBar::new(self.matches as u64);
        progress.set_style(
            indicatif::ProgressStyle::with_template(
                "{prefix} [{bar:30}] {pos}/{len} matches, {elapsed} (eta {eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        progress.set_prefix(format!("{} vs {}", pairing[0].name(), pairing[1].name()));
        let next = AtomicUsize::new(0);
        let totals = Mutex::new([Tally::default(), Tally::default()]);
        let failure = Mutex::new(None::<String>);
        std::thread::scope(|scope| {
            for _ in 0..self.jobs.max(1) {
                scope.spawn(|| {
                    let mut remotes: [Option<Remote>; 2] = [None, None];
                    for (remote, player) in remotes.iter_mut().zip(pairing) {
                        if let Player::External(url) = player {
                            match runtime.block_on(connect(url)) {
                                Ok(client) => {
                                    *remote = Some(Remote {
                                        runtime: runtime.handle().clone(),
                                        client,
                                    });
                                }
                                Err(error) => {
                                    let mut failure = failure
                                        .lock()
                                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                                    *failure = Some(format!("cannot reach {url}: {error}"));
                                    return;
                                }
                            }
                        }
                    }
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= self.matches {
                            break;
                        }
                        match self.play_match(index, seatings, pairing, &mut remotes) {
                            Ok(played) => {
                                if let Some(file) = replays {
                                    let mut file = file
                                        .lock()
                                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                                    if let Err(error) = writeln!(file, "{}", played.line) {
                                        let mut failure = failure
                                            .lock()
                                            .unwrap_or_else(std::sync::PoisonError::into_inner);
                                        *failure = Some(format!("cannot write replays: {error}"));
                                    }
                                }
                                let mut totals = totals
                                    .lock()
                                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                                for (total, tally) in totals.iter_mut().zip(played.tallies) {
                                    total.add(tally);
                                }
                                progress.inc(1);
                            }
                            Err(error) => {
                                let mut failure = failure
                                    .lock()
                                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                                *failure = Some(error);
                                break;
                            }
                        }
                    }
                });
            }
        });
        progress.finish_and_clear();
        if let Some(error) = failure
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
        {
            return Err(error);
        }
        let totals = totals
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Ok(self.table(pairing, totals, seatings))
    }

    /// The seatings of a pairing: two when two sides play (the sides
    /// swapped), one per seat when one seat plays against several.
    fn seatings(&self) -> Result<usize, String> {
        let rules =
            presets::for_table(&self.variant, self.players)?.rules(self.players, self.partnerships);
        Ok(if rules.partnerships || self.players == 2 {
            2
        } else {
            usize::from(self.players)
        })
    }

    /// The side of the pairing (0 or 1) seat `seat` plays for at seating
    /// `seating`: the first player takes one seat (or, with partnerships,
    /// one side), rotating with the seating.
    fn side_of(&self, seating: usize, seat: Seat, partnerships: bool) -> usize {
        let players = usize::from(self.players);
        if partnerships {
            usize::from(usize::from(seat) % 2 != seating % 2)
        } else {
            usize::from(usize::from(seat) != seating % players)
        }
    }

    /// Plays match `index` (of `seatings` seatings a deal).
    fn play_match(
        &self,
        index: usize,
        seatings: usize,
        pairing: &[Player; 2],
        remotes: &mut [Option<Remote>; 2],
    ) -> Result<Played, String> {
        let engine = Engine::default();
        // Without `duplicate` every match is a deal of its own, its seating
        // rotating with it.
        let (deal, seating) = if self.duplicate {
            (index / seatings, index % seatings)
        } else {
            (index, index)
        };
        let mix = |n: usize| self.seed ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let match_seed = mix(deal);
        let first = engine
            .new_game(&proto::NewGameRequest {
                variant: self.variant.clone(),
                players: u32::from(self.players),
                seed: Some(match_seed),
                rules: self.partnerships.map(|p| proto::Rules {
                    partnerships: Some(p),
                    ..Default::default()
                }),
                as_token: false,
            })
            .map_err(|e| format!("{}: {}", e.reason.as_str_name(), e.message))?;
        let state = first.state.ok_or("no state")?;
        let mut game = decode_state(Some(&state), "state").map_err(|e| e.message)?;
        let dealt = self.review.map(|_| game.clone());
        let mut played: Vec<Move> = Vec::new();
        let partnerships = game.rules().partnerships;
        let sides: Vec<usize> = (0..self.players)
            .map(|seat| self.side_of(seating, seat, partnerships))
            .collect();
        let mut hand = HandTally {
            pairing_side: (0..game.sides())
                .map(|side| {
                    (0..self.players)
                        .find(|&seat| game.side_of(seat) == side)
                        .and_then(|seat| sides.get(usize::from(seat)).copied())
                        .unwrap_or(1)
                })
                .collect(),
            gains: vec![0; usize::from(game.sides())],
            lowest_wins: game.rules().lowest_score_wins(),
        };
        let mut rng = ChaCha8Rng::seed_from_u64(mix(index) ^ 0xA5A5);
        let mut tallies = [Tally::default(), Tally::default()];
        let mut moves: Vec<proto::Move> = Vec::new();
        while game.outcome().is_none() {
            let seat = game.to_act();
            let side = sides.get(usize::from(seat)).copied().unwrap_or(0);
            let legal = game.legal_moves();
            let started = Instant::now();
            let chosen = match (&pairing[side], &mut remotes[side]) {
                (Player::Level(level), _) | (Player::Budgeted(level, _), _) => {
                    let view = game.view(seat).ok_or("no such seat")?;
                    let budget = Budget {
                        playouts: pairing[side].playouts().unwrap_or(self.playouts),
                        stop: &|| false,
                    };
                    let suggestion = bots::suggest(view, *level, rng.random(), budget);
                    if let Some(s) = suggestion.as_ref().filter(|s| s.playouts > 0) {
                        tallies[side].playouts += u64::from(s.playouts);
                        tallies[side].searching += started.elapsed();
                    }
                    suggestion.map(|s| s.mv)
                }
                (Player::External(_), Some(remote)) => {
                    self.ask(remote, &game, seat, &legal, &mut tallies[side])
                }
                (Player::External(_), None) => None,
            };
            // Only real decisions are timed: a forced move (one legal
            // move) takes no thought and would pull the median to 0.
            if let Some(tally) = tallies.get_mut(side).filter(|_| legal.len() > 1) {
                tally.latencies.push(started.elapsed());
            }
            let mv = match chosen.filter(|mv| legal.contains(mv)) {
                Some(mv) => mv,
                None => {
                    if !matches!(pairing[side], Player::External(_)) || chosen.is_some() {
                        tallies[side].illegal += 1;
                    }
                    legal[rng.random_range(0..legal.len())]
                }
            };
            let report = game.play(mv).map_err(|e| e.to_string())?;
            moves.push(encode_move(mv));
            played.push(mv);
            for (gain, change) in hand.gains.iter_mut().zip(&report.score_change) {
                *gain += change;
            }
            let ended = report.events.iter().find_map(|event| match event {
                Event::HandEnded { winner, .. } => Some(*winner),
                _ => None,
            });
            match (ended, game.outcome()) {
                (Some(winner), _) => hand.finish(winner, &mut tallies),
                // The match ended during a hand (points scored in play):
                // the match's winner won it.
                (None, Some(Outcome::Winner(winner))) => hand.finish(Some(winner), &mut tallies),
                (None, Some(Outcome::Draw)) => hand.finish(None, &mut tallies),
                (None, None) => {}
            }
        }
        for (seat, &side) in sides.iter().enumerate() {
            let Ok(seat) = Seat::try_from(seat) else {
                continue;
            };
            // Count each side of the pairing once per match.
            if sides.iter().position(|&s| s == side) != Some(usize::from(seat)) {
                continue;
            }
            let game_side = game.side_of(seat);
            let tally = &mut tallies[side];
            tally.points += i64::from(
                game.scores()
                    .get(usize::from(game_side))
                    .copied()
                    .unwrap_or(0),
            );
            match game.outcome() {
                Some(Outcome::Winner(winner)) => {
                    // With one seat against several, any of the others'
                    // sides winning is the second player's win.
                    let won = (0..self.players).any(|s| {
                        sides.get(usize::from(s)) == Some(&side) && game.side_of(s) == winner
                    });
                    tally.wins += usize::from(won);
                }
                Some(Outcome::Draw) | None => tally.draws += 1,
            }
        }
        if let (Some(playouts), Some(dealt)) = (self.review, dealt) {
            review_match(&dealt, &played, &sides, playouts, &mut tallies);
        }
        let line = serde_json::json!({
            "pairing": [pairing[0].name(), pairing[1].name()],
            "match": index,
            "sides": sides,
            "state": state,
            "moves": moves,
            // Base64, as every answer of the API writes bytes (proto3 JSON).
            "matchDigest": base64::engine::general_purpose::STANDARD.encode(game.digest().0),
        })
        .to_string();
        Ok(Played { tallies, line })
    }

    /// Asks an external bot for `seat`'s move; `None` (and a fault counted)
    /// when it fails, times out or answers nothing readable.
    fn ask(
        &self,
        remote: &mut Remote,
        game: &Game,
        seat: Seat,
        legal: &[Move],
        tally: &mut Tally,
    ) -> Option<Move> {
        let view = game.view(seat)?;
        let request = proto::ChooseMoveRequest {
            view: Some(encode_view(view)),
            time_left_ms: u32::try_from(self.move_time.as_millis()).unwrap_or(u32::MAX),
        };
        let call = remote.client.choose_move(request);
        let answer = remote
            .runtime
            .block_on(async { tokio::time::timeout(self.move_time, call).await });
        match answer {
            Err(_) => {
                tally.timeouts += 1;
                None
            }
            Ok(Err(_)) => {
                tally.illegal += 1;
                None
            }
            Ok(Ok(response)) => {
                let mv =
                    decode_move(response.get_ref().r#move.as_ref(), &|| "move".to_owned()).ok();
                if mv.is_none_or(|mv| !legal.contains(&mv)) {
                    tally.illegal += 1;
                    return None;
                }
                mv
            }
        }
    }

    /// The table of a pairing's tallies: a header saying what it rests on,
    /// then a line per player.
    fn table(&self, pairing: &[Player; 2], totals: [Tally; 2], seatings: usize) -> String {
        let mut text = String::new();
        let hands = totals[0].hands;
        let _ = writeln!(
            text,
            "{} {}p{}, {} matches{}, {hands} hands, seed {}{}",
            self.variant,
            self.players,
            match self.partnerships {
                Some(true) => " partnerships",
                Some(false) => " individuals",
                None => "",
            },
            self.matches,
            if self.duplicate {
                format!(
                    " ({} deals, each played {seatings} times: {})",
                    self.matches / seatings,
                    if seatings == 2 {
                        "the sides swapped"
                    } else {
                        "the first player in every seat"
                    }
                )
            } else {
                String::new()
            },
            self.seed,
            if pairing
                .iter()
                .any(|player| matches!(player, Player::Level(level) if level.searches()))
            {
                format!(", expert {} playouts", self.playouts)
            } else {
                String::new()
            }
        );
        // Texas 42 in marks scores marks: the columns say so.
        let marks = presets::for_table(&self.variant, self.players)
            .ok()
            .and_then(|preset| preset.rules(self.players, self.partnerships).tricks)
            .is_some_and(|tricks| !tricks.is_moon() && tricks.scoring == Scoring::Marks);
        let _ = writeln!(
            text,
            "{:<22} {:>7} {:>7} {:>16} {:>9} {:>16} {:>20} {:>8} {:>8} {:>9} {:>9} {:>11}",
            "player",
            "wins",
            "draws",
            "win rate (95%)",
            if marks { "marks" } else { "points" },
            "hands won (95%)",
            if marks {
                "marks/hand (95%)"
            } else {
                "pts/hand (95%)"
            },
            "illegal",
            "timeouts",
            "p50 ms",
            "p99 ms",
            "playouts/s"
        );
        let review = self
            .review
            .map(|playouts| review_table(pairing, &totals, playouts));
        for (player, mut tally) in pairing.iter().zip(totals) {
            let n = self.matches.max(1) as f64;
            let rate = (tally.wins as f64 + 0.5 * tally.draws as f64) / n;
            let (low, high) = wilson(rate, n);
            let hands = tally.hands.max(1) as f64;
            let hand_rate = tally.hands_won / hands;
            let (hand_low, hand_high) = wilson(hand_rate, hands);
            let (mean, half) = mean_interval(tally.hand_points, tally.hand_points_squared, hands);
            tally.latencies.sort_unstable();
            let at = |p: f64| {
                let i = ((tally.latencies.len().saturating_sub(1)) as f64 * p).round() as usize;
                tally
                    .latencies
                    .get(i)
                    .map_or(0.0, |d| d.as_secs_f64() * 1e3)
            };
            let _ = writeln!(
                text,
                "{:<22} {:>7} {:>7} {:>5.1}% ({:>4.1}–{:>4.1}) {:>9.1} {:>5.1}% ({:>4.1}–{:>4.1}) {:>+7.2} ({:>+5.2}..{:>+5.2}) {:>8} {:>8} {:>9.3} {:>9.3} {:>11}",
                player.name(),
                tally.wins,
                tally.draws,
                100.0 * rate,
                100.0 * low,
                100.0 * high,
                tally.points as f64 / n,
                100.0 * hand_rate,
                100.0 * hand_low,
                100.0 * hand_high,
                mean,
                mean - half,
                mean + half,
                tally.illegal,
                tally.timeouts,
                at(0.5),
                at(0.99),
                if tally.playouts == 0 {
                    "-".to_owned()
                } else {
                    format!(
                        "{:.0}",
                        tally.playouts as f64 / tally.searching.as_secs_f64().max(1e-9)
                    )
                },
            );
        }
        text.push_str(&review.unwrap_or_default());
        text
    }
}

/// The review's lines of a pairing's table: the time a whole match's
/// review took, then each player's accuracy and loss.
fn review_table(pairing: &[Player; 2], totals: &[Tally; 2], playouts: u32) -> String {
    let mut text = String::new();
    let mut times = totals[0].review_times.clone();
    times.sort_unstable();
    let at = |p: f64| {
        let i = ((times.len().saturating_sub(1)) as f64 * p).round() as usize;
        times.get(i).map_or(0.0, Duration::as_secs_f64)
    };
    let _ = writeln!(
        text,
        "review: expert {playouts} playouts a decision, every seat; a whole match {:.2} s (p50), {:.2} s (p90), {} matches",
        at(0.5),
        at(0.9),
        times.len()
    );
    let _ = writeln!(
        text,
        "{:<22} {:>22} {:>10} {:>15} {:>15}",
        "player", "accuracy (95%)", "decisions", "loss/decision", "points given"
    );
    for (player, tally) in pairing.iter().zip(totals) {
        let matches = tally.reviewed.max(1) as f64;
        let (mean, half) = mean_interval(tally.accuracy, tally.accuracy_squared, matches);
        let _ = writeln!(
            text,
            "{:<22} {:>6.1} ({:>5.1}–{:>5.1}) {:>10} {:>14.2}% {:>15.3}",
            player.name(),
            mean,
            mean - half,
            mean + half,
            tally.graded,
            tally.loss / (tally.graded.max(1) as f64),
            tally.points_lost / (tally.pointed.max(1) as f64),
        );
    }
    text
}

/// Reviews the match dealt as `dealt` and played with `moves` (every
/// seat's decisions, as `ReviewMatch` does with no seats named), and counts
/// each side's accuracy in it, and the review's time, into `tallies`.
fn review_match(
    dealt: &Game,
    moves: &[Move],
    sides: &[usize],
    playouts: u32,
    tallies: &mut [Tally; 2],
) {
    let seats: Vec<Seat> = (0..dealt.players()).collect();
    let started = Instant::now();
    let reviewed = bots::review::review(dealt, moves, &seats, playouts);
    tallies[0].review_times.push(started.elapsed());
    for (side, tally) in tallies.iter_mut().enumerate() {
        let summary = bots::review::Summary::of(
            reviewed
                .iter()
                .filter(|(_, decision)| sides.get(usize::from(decision.played.seat)) == Some(&side))
                .map(|(_, decision)| decision),
        );
        if summary.graded > 0 {
            tally.reviewed += 1;
            tally.accuracy += summary.accuracy;
            tally.accuracy_squared += summary.accuracy * summary.accuracy;
            tally.graded += u64::from(summary.graded);
            tally.loss += summary.mean_loss * f64::from(summary.graded);
            tally.pointed += u64::from(summary.points_valued);
            tally.points_lost += summary.mean_points_loss * f64::from(summary.points_valued);
        }
    }
}

/// The mean of `n` values from their sum and the sum of their squares,
/// and the half-width of its 95% interval (normal approximation, the
/// sample variance).
fn mean_interval(sum: f64, squares: f64, n: f64) -> (f64, f64) {
    let mean = sum / n;
    if n < 2.0 {
        return (mean, 0.0);
    }
    let variance = ((squares - n * mean * mean) / (n - 1.0)).max(0.0);
    (mean, 1.96 * (variance / n).sqrt())
}

/// The 95% Wilson interval of a rate `p` over `n` trials.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.96f64;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}
