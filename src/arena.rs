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
use crate::rules::{Game, Move, Outcome, Seat};
use crate::service::Engine;
use crate::service::codec::{decode_move, decode_state, encode_move, encode_view};

/// Who plays one side of a pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// A built-in level.
    Level(Level),
    /// An external bot at this URL (`http://HOST:PORT`, given as
    /// `grpc://HOST:PORT`).
    External(String),
}

impl Player {
    /// A player from its name: `random`, `greedy`, `expert` or
    /// `grpc://HOST:PORT`.
    ///
    /// # Errors
    /// For any other name.
    pub fn parse(name: &str) -> Result<Player, String> {
        match name {
            "random" => Ok(Player::Level(Level::Random)),
            "greedy" => Ok(Player::Level(Level::Greedy)),
            "expert" => Ok(Player::Level(Level::Expert)),
            _ => match name.strip_prefix("grpc://") {
                Some(address) if !address.is_empty() => {
                    Ok(Player::External(format!("http://{address}")))
                }
                _ => Err(format!(
                    "{name:?} is not a player: random, greedy, expert or grpc://HOST:PORT"
                )),
            },
        }
    }

    /// Its name, as given.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Player::Level(Level::Random) => "random".to_owned(),
            Player::Level(Level::Greedy) => "greedy".to_owned(),
            Player::Level(Level::Expert) => "expert".to_owned(),
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
                        match self.play_match(index, pairing, &mut remotes) {
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
                                    total.wins += tally.wins;
                                    total.draws += tally.draws;
                                    total.points += tally.points;
                                    total.illegal += tally.illegal;
                                    total.timeouts += tally.timeouts;
                                    total.latencies.extend(tally.latencies);
                                    total.playouts += tally.playouts;
                                    total.searching += tally.searching;
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
        Ok(self.table(pairing, totals))
    }

    /// The side of the pairing (0 or 1) seat `seat` plays for in match
    /// `index`: the first player takes one seat (or, with partnerships, one
    /// side), rotating with the match.
    fn side_of(&self, index: usize, seat: Seat, partnerships: bool) -> usize {
        let players = usize::from(self.players);
        if partnerships {
            usize::from(usize::from(seat) % 2 != index % 2)
        } else {
            usize::from(usize::from(seat) != index % players)
        }
    }

    /// Plays match `index`.
    fn play_match(
        &self,
        index: usize,
        pairing: &[Player; 2],
        remotes: &mut [Option<Remote>; 2],
    ) -> Result<Played, String> {
        let engine = Engine::default();
        let match_seed = self.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
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
        let partnerships = game.rules().partnerships;
        let sides: Vec<usize> = (0..self.players)
            .map(|seat| self.side_of(index, seat, partnerships))
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(match_seed ^ 0xA5A5);
        let mut tallies = [Tally::default(), Tally::default()];
        let mut moves: Vec<proto::Move> = Vec::new();
        while game.outcome().is_none() {
            let seat = game.to_act();
            let side = sides.get(usize::from(seat)).copied().unwrap_or(0);
            let legal = game.legal_moves();
            let started = Instant::now();
            let chosen = match (&pairing[side], &mut remotes[side]) {
                (Player::Level(level), _) => {
                    let view = game.view(seat).ok_or("no such seat")?;
                    let budget = Budget {
                        playouts: self.playouts,
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
                    if matches!(pairing[side], Player::Level(_)) || chosen.is_some() {
                        tallies[side].illegal += 1;
                    }
                    legal[rng.random_range(0..legal.len())]
                }
            };
            game.play(mv).map_err(|e| e.to_string())?;
            moves.push(encode_move(mv));
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

    /// The table of a pairing's tallies.
    fn table(&self, pairing: &[Player; 2], totals: [Tally; 2]) -> String {
        let mut text = String::new();
        let _ = writeln!(
            text,
            "{} {}p{}, {} matches, seed {}{}",
            self.variant,
            self.players,
            match self.partnerships {
                Some(true) => " partnerships",
                Some(false) => " individuals",
                None => "",
            },
            self.matches,
            self.seed,
            if pairing.contains(&Player::Level(Level::Expert)) {
                format!(", expert {} playouts", self.playouts)
            } else {
                String::new()
            }
        );
        let _ = writeln!(
            text,
            "{:<22} {:>7} {:>7} {:>16} {:>9} {:>8} {:>8} {:>9} {:>9} {:>11}",
            "player",
            "wins",
            "draws",
            "win rate (95%)",
            "points",
            "illegal",
            "timeouts",
            "p50 ms",
            "p99 ms",
            "playouts/s"
        );
        for (player, mut tally) in pairing.iter().zip(totals) {
            let n = self.matches.max(1) as f64;
            let rate = (tally.wins as f64 + 0.5 * tally.draws as f64) / n;
            let (low, high) = wilson(rate, n);
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
                "{:<22} {:>7} {:>7} {:>5.1}% ({:>4.1}–{:>4.1}) {:>9.1} {:>8} {:>8} {:>9.3} {:>9.3} {:>11}",
                player.name(),
                tally.wins,
                tally.draws,
                100.0 * rate,
                100.0 * low,
                100.0 * high,
                tally.points as f64 / n,
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
        text
    }
}

/// The 95% Wilson interval of a rate `p` over `n` trials.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.96f64;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}
