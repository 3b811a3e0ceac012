//! The `expert` level: determinized Monte Carlo search. Deals are sampled
//! one at a time, each consistent with what the seat knows
//! ([`Knowledge::sample`](crate::rules::Knowledge::sample)); in each, moves
//! are played and then the rest of the hand with `greedy` for every seat
//! (one move in ten at random), and the outcome scored as the chance of
//! winning the match from there: 1 or 0 when the match ended, else an
//! estimate from the scores and the distance to the target.
//!
//! At a line, `expert` searches a tree over the moves of the hand that follow
//! ([`tree`](super::tree)), so that its own later moves and the others'
//! replies are chosen by what the playouts say of them, not by `greedy`.
//! Without it (the arena's `expert-flat`) the search is flat: every legal
//! move is played out once in each deal, so that the comparison is not
//! blurred by the deals' luck, and the move with the best mean is played.
//!
//! At Moon a playout plays a hand's last [`SOLVED_TRICKS`] tricks exactly,
//! every hand of the sampled deal known ([`tricks_solver`](super::tricks_solver),
//! [`Settings::solve`]). The arena's `expert-solved` also plays a line
//! hand's last [`LINE_TILES`] tiles exactly once nothing is left to draw
//! ([`line_solver`](super::line_solver), [`Settings::line_tiles`]): measured
//! no better than `greedy`'s endings, `expert` keeps those.
//!
//! Three refinements, each a [`Settings`] field: `expert` merges moves,
//! weighs deals by the square root of their likelihood and looks a reply
//! ahead in its playouts, `expert-flat` merges moves and weighs deals by
//! the likelihood itself, and the arena's `expert-playouts` is the flat
//! search with none, as `expert` was before them:
//!
//! - **Moves that reach the same position are one move.** At a line, a
//!   tile placed on either of two ends showing one number leaves the same
//!   ends to play on (left and right are mirror images, and so are a
//!   spinner's two sides): the moves are merged, searched once, and share
//!   their value, instead of splitting the playouts between them.
//! - **Deals are weighed by the plays they explain.** A sampled deal
//!   counts as much as it makes the other seats' plays of the hand likely,
//!   were they to play mostly as `greedy` does (`likelihood`): a deal in
//!   which a seat passed over a heavy tile it would have shed counts less
//!   than one in which it did not hold it. (Where the hand cannot be
//!   replayed from a deal — after a draw, at a table with a hub — every
//!   deal counts alike.) `expert` counts the square root of that: the
//!   plays of a long hand, each up to `n + 1` times likelier for greedy's
//!   tile of `n`, would otherwise leave a few deals carrying the search.
//! - **Playouts look one reply ahead where the ends score.** The deal is
//!   complete in a playout, so the next seat's tiles are known:
//!   [`greedy::choose_ahead`] weighs a move by the points that seat can
//!   take right after it, and by whether it leaves that seat no tile to
//!   play. `greedy` alone hands the opponent a count it takes at once
//!   (all_fives gained most: docs/bots.md has the figures).

use rand::RngExt;

use crate::rules::options::TableKind;
use crate::rules::{Action, End, Game, Move, Outcome, Side, Tile, View};

use super::line_solver::LineSolver;
use super::tricks_solver::{TrickSolver, tricks_left};
use super::{Budget, MoveValue, Suggestion, greedy};
use crate::rules::tricks::hand::Stage;

/// One move in this many of a playout is random (the others `greedy`).
const EXPLORATION: u32 = 10;

/// Which parts of the search run.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Settings {
    /// Merge the moves that reach the same position.
    pub merge: bool,
    /// How much the others' plays seen this hand count: each sampled deal
    /// weighs its `likelihood` (how likely it makes those plays, were
    /// they to play as `greedy` mostly does) raised to this power. 0
    /// counts every deal alike; 1 weighs by the likelihood itself, under
    /// which a long hand's plays can leave a few deals carrying nearly all
    /// the weight; a power between tempers it.
    pub infer: f64,
    /// At a line, search a tree over the moves that follow
    /// ([`tree`](super::tree)) instead of playing out from each legal move
    /// alone.
    pub tree: bool,
    /// Playouts look one reply ahead where the ends score
    /// ([`greedy::choose_ahead`]) instead of playing `greedy`'s move.
    pub ahead: bool,
    /// At which trick games playouts play the last [`SOLVED_TRICKS`]
    /// tricks of a hand exactly, every hand of the sampled deal known
    /// ([`tricks_solver`](super::tricks_solver)), instead of by `greedy`.
    pub solve: Solve,
    /// At a line, playouts end exactly ([`line_solver`](super::line_solver))
    /// once nothing is left to draw and at most this many tiles are left
    /// in the hands; 0 never.
    pub line_tiles: u8,
}

/// Where a search's playouts play a trick hand's end exactly.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Solve {
    /// Nowhere: `greedy` plays every hand to its end.
    Never,
    /// At Moon, where it was measured to play better (docs/bots.md,
    /// "Exact trick endings"); not at Texas 42, where it was not.
    Moon,
    /// At every trick game.
    Always,
}

impl Solve {
    /// Whether playouts under `rules` solve their hands' ends.
    #[must_use]
    pub fn applies(self, rules: &crate::rules::options::Rules) -> bool {
        let tricks = rules.table == TableKind::Tricks;
        match self {
            Solve::Never => false,
            Solve::Moon => tricks && rules.tricks.is_some_and(|t| t.is_moon()),
            Solve::Always => tricks,
        }
    }
}

/// The tricks left from which a playout plays a trick hand exactly: the
/// double-dummy search of four tricks takes 26 µs a deal on average, of
/// five 142 µs and of all seven 3.3 ms (this 2-core machine, Texas 42),
/// against a few µs for a greedy playout.
pub const SOLVED_TRICKS: u8 = 4;

/// The tiles left in the hands, nothing left to draw, from which
/// `expert-solved`'s playouts play a line hand exactly: a solve takes 2 µs
/// at eight tiles, 4 µs at twelve and 33 µs at sixteen (a `puerto_rican`
/// hand, medians); at twelve, decisions took three times as long as at
/// eight and played no better (docs/bots.md, "Exact line endings").
pub const LINE_TILES: u8 = 8;

/// How a search plays its hands out: [`Settings::ahead`], and the exact
/// solvers its playouts end with, where they apply.
#[derive(Debug)]
pub(super) struct Playouts {
    /// As [`Settings::ahead`].
    ahead: bool,
    /// A trick hand's last [`SOLVED_TRICKS`] tricks ([`Settings::solve`]),
    /// its tables kept from one playout to the next.
    tricks: Option<TrickSolver>,
    /// A line hand's last tiles, and how many ([`Settings::line_tiles`]).
    line: Option<(LineSolver, u8)>,
}

impl Playouts {
    /// The playouts `settings` ask for under `rules`.
    pub(super) fn new(settings: Settings, rules: &crate::rules::options::Rules) -> Playouts {
        Playouts {
            ahead: settings.ahead,
            tricks: settings.solve.applies(rules).then(TrickSolver::new),
            line: (settings.line_tiles > 0 && rules.table == TableKind::Line)
                .then(|| (LineSolver::new(), settings.line_tiles)),
        }
    }
}

impl Settings {
    /// `expert`: merged moves, the tree, deals weighed by the square root
    /// of their likelihood. (Weighed by the likelihood itself, the tree
    /// lost in cuban 4p, where a hand of ten tiles each leaves a few deals
    /// to count: a twentieth of the deals' worth, the median effective
    /// sample size measured; the square root keeps block 4p's gain from
    /// weighing and cuban at par. docs/bots.md has the figures.)
    pub const FULL: Settings = Settings {
        merge: true,
        infer: 0.5,
        tree: true,
        ahead: true,
        solve: Solve::Moon,
        line_tiles: 0,
    };
    /// `expert` with exact endings at every trick game and every line
    /// (`expert-solved`), to measure them by where `expert` has none.
    pub const SOLVED: Settings = Settings {
        solve: Solve::Always,
        line_tiles: LINE_TILES,
        ..Settings::FULL
    };
    /// `expert` with `greedy` endings everywhere (`expert-unsolved`), as
    /// it played before the exact endings, to measure them by.
    pub const UNSOLVED: Settings = Settings {
        solve: Solve::Never,
        line_tiles: 0,
        ..Settings::FULL
    };
    /// `expert` without its tree (`expert-flat`): each legal move played
    /// out on its own.
    pub const FLAT: Settings = Settings {
        merge: true,
        infer: 1.0,
        tree: false,
        ahead: false,
        solve: Solve::Never,
        line_tiles: 0,
    };
    /// Playouts alone, every legal move searched: `expert` before the
    /// refinements, kept for the arena to measure them by.
    pub const PLAYOUTS_ONLY: Settings = Settings {
        merge: false,
        infer: 0.0,
        tree: false,
        ahead: false,
        solve: Solve::Never,
        line_tiles: 0,
    };
}

/// The search (see the module's documentation); `None` when the seat is
/// not to act.
pub fn search<R: RngExt + ?Sized>(
    view: View<'_>,
    rng: &mut R,
    budget: Budget<'_>,
    settings: Settings,
) -> Option<Suggestion> {
    let legal = view.legal_moves();
    let first = *legal.first()?;
    if legal.len() == 1 {
        return Some(Suggestion {
            mv: first,
            values: Vec::new(),
            playouts: 0,
        });
    }
    // At a table with a hub the search stays flat: the tree has been
    // measured at lines only.
    if settings.tree && view.rules().table == TableKind::Line {
        return Some(
            super::tree::search(view, &legal, rng, budget, settings)
                .unwrap_or_else(|| heuristic(view, first)),
        );
    }
    let side = view.side_of(view.seat());
    let knowledge = view.knowledge();
    // The moves searched, and which of them each legal move is.
    let mut searched: Vec<Move> = legal.clone();
    let mut class_of: Vec<usize> = (0..legal.len()).collect();
    let mut totals: Vec<f64> = Vec::new();
    let mut rounds = 0u32;
    let mut weights = 0.0;
    let mut spent = 0u32;
    let mut moves = Vec::new();
    // One game for every playout ([`refill`]), and one set of solvers.
    let mut scratch: Option<Game> = None;
    let mut playouts = Playouts::new(settings, view.rules());
    let mut worths = Vec::new();
    loop {
        let per_round = u32::try_from(searched.len()).unwrap_or(u32::MAX);
        if spent.saturating_add(per_round) > budget.playouts.max(per_round) || (budget.stop)() {
            break;
        }
        let Some(world) = knowledge.sample(rng) else {
            break;
        };
        if rounds == 0 {
            (searched, class_of) = root_moves(&world, &legal, settings);
            totals = vec![0.0; searched.len()];
        }
        let weight = deal_weight(&world, view.seat(), settings, &mut moves);
        weights += weight;
        for (total, &mv) in totals.iter_mut().zip(&searched) {
            let game = refill(&mut scratch, &world);
            game.play_unchecked(mv);
            let hand = game.hand_number();
            playout_values(game, hand, rng, (&mut moves, &mut playouts), &mut worths);
            *total += weight * worths.get(usize::from(side)).copied().unwrap_or(0.0);
        }
        spent = spent.saturating_add(per_round);
        rounds += 1;
    }
    if rounds == 0 {
        return Some(heuristic(view, first));
    }
    let values: Vec<MoveValue> = legal
        .iter()
        .zip(&class_of)
        .map(|(&mv, &class)| MoveValue {
            mv,
            value: totals.get(class).copied().unwrap_or(0.0) / weights.max(f64::MIN_POSITIVE),
            playouts: rounds,
        })
        .collect();
    let best = values
        .iter()
        .fold(None::<&MoveValue>, |best, v| match best {
            Some(b) if b.value >= v.value => Some(b),
            _ => Some(v),
        })
        .map_or(first, |v| v.mv);
    Some(Suggestion {
        mv: best,
        values,
        playouts: spent,
    })
}

/// What a search answers when no deal could be sampled (or there was no
/// time at all): `greedy`'s move (`first`, the first legal move, failing
/// it), no playouts spent.
fn heuristic(view: View<'_>, first: Move) -> Suggestion {
    Suggestion {
        mv: greedy::choose(view, &view.knowledge()).unwrap_or(first),
        values: Vec::new(),
        playouts: 0,
    }
}

/// The moves a search tries at its root in the sampled deal `world`, and
/// which of them each legal move is: [`merge`]'s where moves are merged,
/// else every legal move on its own.
pub(super) fn root_moves(
    world: &Game,
    legal: &[Move],
    settings: Settings,
) -> (Vec<Move>, Vec<usize>) {
    if settings.merge {
        merge(world, legal)
    } else {
        (legal.to_vec(), (0..legal.len()).collect())
    }
}

/// What the sampled deal `world` counts for in `me`'s search: its
/// [`likelihood`] raised to [`Settings::infer`] (1 without replaying the
/// hand where that is 0).
pub(super) fn deal_weight(
    world: &Game,
    me: crate::rules::Seat,
    settings: Settings,
    moves: &mut Vec<Move>,
) -> f64 {
    if settings.infer == 0.0 {
        1.0
    } else {
        likelihood(world, me, moves).powf(settings.infer)
    }
}

/// `scratch` holding a copy of `world`: refilled with `clone_from`, so that
/// a search's playouts reuse one game's room instead of allocating.
pub(super) fn refill<'a>(scratch: &'a mut Option<Game>, world: &Game) -> &'a mut Game {
    match scratch {
        Some(game) => {
            game.clone_from(world);
            game
        }
        None => scratch.insert(world.clone()),
    }
}

/// The moves of `legal` that reach different positions in `world` (the
/// first of each kind), and which of them each legal move reaches. Only
/// public facts tell positions apart here (the ends left open and what
/// each counts, the scores), so every sampled deal merges alike.
fn merge(world: &Game, legal: &[Move]) -> (Vec<Move>, Vec<usize>) {
    if world.rules().table != TableKind::Line {
        return (legal.to_vec(), (0..legal.len()).collect());
    }
    let mut searched: Vec<Move> = Vec::new();
    // Each searched move's key; none for a move that places no tile, which
    // is never merged.
    let mut keys: Vec<Option<Vec<i64>>> = Vec::new();
    let mut class_of = Vec::with_capacity(legal.len());
    let mut game = world.clone();
    for &mv in legal {
        let key = match mv.action {
            Action::Play { tile, .. } => {
                game.clone_from(world);
                game.play_unchecked(mv);
                Some(position_key(&game, tile))
            }
            Action::Draw
            | Action::Pass
            | Action::EndTurn
            | Action::Bid(_)
            | Action::Name(_)
            | Action::Discard(_)
            | Action::Trick(_) => None,
        };
        let found = key
            .as_ref()
            .and_then(|key| keys.iter().position(|k| k.as_ref() == Some(key)));
        match found {
            Some(class) => class_of.push(class),
            None => {
                class_of.push(searched.len());
                searched.push(mv);
                keys.push(key);
            }
        }
    }
    (searched, class_of)
}

/// What tells a position after placing `tile` from the others of its
/// decision: the tile, the open ends (each as its kind of arm — the two
/// sides of the line, or a spinner's two sides —, its number and what it
/// counts) in order, the hand number and the scores. (Every move of a
/// decision places one tile, so the layout's size tells none apart.)
fn position_key(game: &Game, tile: Tile) -> Vec<i64> {
    let geometry = game.geometry();
    let layout = game.layout();
    let mut ends: Vec<i64> = game
        .open_ends()
        .map(|(end, pips)| {
            let kind = i64::from(matches!(end, End::Up | End::Down));
            kind << 32 | i64::from(pips) << 16 | i64::from(layout.counts(end, geometry))
        })
        .collect();
    ends.sort_unstable();
    let mut key = vec![i64::from(tile.low()) << 8 | i64::from(tile.high())];
    key.push(i64::from(game.hand_number()));
    key.extend(ends);
    key.extend(game.scores().iter().map(|&s| i64::from(s)));
    key
}

/// How much likelier than chance `greedy`'s play is, for [`likelihood`]:
/// a seat plays greedy's tile with probability `1 - NOISE + NOISE / n` of
/// `n` placements, any other with `NOISE / n`.
const NOISE: f64 = 0.5;

/// How likely the sampled deal `world` makes the plays seen this hand by
/// every seat but `me`, were each to play greedy's tile but for
/// [`NOISE`] (1 where the hand cannot be replayed: after a draw, at a
/// table with a hub). The lead is not weighed (it may have been forced).
fn likelihood(world: &Game, me: crate::rules::Seat, moves: &mut Vec<Move>) -> f64 {
    let Some(mut replay) = world.hand_start() else {
        return 1.0;
    };
    let mut weight = 1.0;
    for (i, entry) in world.history().iter().enumerate() {
        let mv = entry.mv;
        if let (true, Action::Play { tile, .. }) = (i > 0 && mv.seat != me, mv.action) {
            replay.legal_moves_into(moves);
            let plays = moves
                .iter()
                .filter(|m| matches!(m.action, Action::Play { .. }))
                .count();
            if plays > 1 {
                let n = plays as f64;
                let chosen = greedy::choose_in(&replay, moves);
                let greedy_tile = chosen.and_then(|m| match m.action {
                    Action::Play { tile, .. } => Some(tile),
                    _ => None,
                });
                weight *= if greedy_tile == Some(tile) {
                    1.0 - NOISE + NOISE / n
                } else {
                    NOISE / n
                };
            }
        }
        replay.play_unchecked(mv);
    }
    weight
}

/// Plays `game` to the end of hand `hand` (or of the match) and scores it
/// for every side, into `worths` (indexed by side): `greedy` for every
/// seat but one move in [`EXPLORATION`] at random (one reply ahead as
/// [`Settings::ahead`] says), the exact solvers taking over where
/// `playouts` has them and they reach.
pub(super) fn playout_values<R: RngExt + ?Sized>(
    game: &mut Game,
    hand: u32,
    rng: &mut R,
    (moves, playouts): (&mut Vec<Move>, &mut Playouts),
    worths: &mut Vec<f64>,
) {
    while game.outcome().is_none() && game.hand_number() == hand {
        if let Some((solver, tiles)) = playouts.line.as_mut()
            && LineSolver::reaches(game, *tiles)
        {
            solver.solve(game, worths);
            return;
        }
        if let Some(tile) = playouts
            .tricks
            .as_mut()
            .and_then(|solver| solved(game, solver))
        {
            let seat = game.to_act();
            game.play_unchecked(Move {
                seat,
                action: Action::Trick(tile),
            });
            continue;
        }
        game.legal_moves_into(moves);
        let mv = if rng.random_range(0..EXPLORATION) == 0 {
            super::random::choose(moves, rng)
        } else if playouts.ahead {
            greedy::choose_ahead(game, moves)
        } else {
            greedy::choose_in(game, moves)
        };
        let Some(mv) = mv else { break };
        game.play_unchecked(mv);
    }
    worths.clear();
    worths.extend(outcome_values(game));
}

/// The tile the seat to act plays in a playout once a trick hand has
/// [`SOLVED_TRICKS`] tricks or fewer left: one keeping its side's exact
/// result; `None` elsewhere.
fn solved(game: &Game, solver: &mut TrickSolver) -> Option<Tile> {
    let hand = game.trick_hand()?;
    if hand.stage() != Stage::Playing || tricks_left(hand) > SOLVED_TRICKS {
        return None;
    }
    solver.best(hand)
}

/// What a played-out `game` is worth to each side, in order
/// ([`outcome_value`]).
pub(super) fn outcome_values(game: &Game) -> impl Iterator<Item = f64> + '_ {
    (0..game.sides()).map(|side| outcome_value(game, side))
}

/// What a played-out `game` is worth to `side`: 1 or 0 when the match
/// ended (½ drawn), else [`estimate`].
fn outcome_value(game: &Game, side: Side) -> f64 {
    match game.outcome() {
        Some(Outcome::Winner(winner)) => f64::from(u8::from(winner == side)),
        Some(Outcome::Draw) => 0.5,
        None => estimate(game, side),
    }
}

/// The chance that `side` wins the match from `game`'s scores: a logistic
/// of its lead over the best opponent, sharper as the target nears
/// (lowest score best under lose-at-target rules).
#[must_use]
pub fn estimate(game: &Game, side: Side) -> f64 {
    let scores = game.scores();
    let own = scores
        .get(usize::from(side))
        .copied()
        .map_or(0.0, f64::from);
    let others = scores
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != usize::from(side))
        .map(|(_, &score)| f64::from(score));
    let lowest_wins = game.rules().lowest_score_wins();
    let (best_other, highest) = others.fold(
        (if lowest_wins { f64::MAX } else { f64::MIN }, own),
        |(best, high), score| {
            let best = if lowest_wins {
                best.min(score)
            } else {
                best.max(score)
            };
            (best, high.max(score))
        },
    );
    let lead = if lowest_wins {
        best_other - own
    } else {
        own - best_other
    };
    let remaining = (f64::from(game.rules().target) - highest).max(0.0);
    let scale = 5.0 + 0.5 * remaining;
    1.0 / (1.0 + (-lead / scale).exp())
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;

    use super::*;
    use crate::rules::Place;
    use crate::rules::presets::preset;

    /// A fresh match of `variant` at `players` seats from `seed`, `depth`
    /// moves in (each chosen by greedy, as `likelihood` expects).
    fn greedy_game(variant: &str, players: u8, seed: u64, depth: usize) -> Game {
        greedy_record(variant, players, seed, depth).0
    }

    /// [`greedy_game`], and for each of its moves the seat and how many
    /// placements it had.
    fn greedy_record(
        variant: &str,
        players: u8,
        seed: u64,
        depth: usize,
    ) -> (Game, Vec<(u8, usize)>) {
        let rules = preset(variant).expect("preset").rules(players, None);
        let (mut game, _) = Game::new(variant, rules, players, seed).expect("a game");
        let hand = game.hand_number();
        let mut moves = Vec::new();
        let mut record = Vec::new();
        for _ in 0..depth {
            game.legal_moves_into(&mut moves);
            let Some(mv) = greedy::choose_in(&game, &moves) else {
                break;
            };
            let plays = moves
                .iter()
                .filter(|m| matches!(m.action, Action::Play { .. }))
                .count();
            let mut next = game.clone();
            next.play_unchecked(mv);
            if next.outcome().is_some() || next.hand_number() != hand {
                break;
            }
            record.push((mv.seat, plays));
            game = next;
        }
        (game, record)
    }

    /// After a lead of 6-6, a 6 placed on the left or on the right reaches
    /// the same position: one move searched. Different tiles stay apart.
    #[test]
    fn mirror_moves_merge() {
        let rules = preset("block").expect("preset").rules(2, None);
        let (mut game, _) = Game::new("block", rules, 2, 1).expect("a game");
        let six = Tile::new(6, 6);
        // Put the 6-6 and two sixes in the leader's hand, and lead it.
        let seat = game.to_act();
        let mut found = false;
        for seed in 0..500 {
            let (candidate, _) = Game::new("block", rules, 2, seed).expect("a game");
            let leader = candidate.to_act();
            let hand = candidate.hand(leader);
            let sixes = hand
                .iter()
                .filter(|t| t.high() == 6 || t.low() == 6)
                .count();
            let other = 1 - leader;
            let fits = candidate
                .hand(other)
                .iter()
                .filter(|t| (t.high() == 6) != (t.low() == 6))
                .count();
            if hand.contains(six) && sixes >= 1 && fits >= 2 {
                game = candidate;
                found = true;
                break;
            }
        }
        assert!(found, "a deal to test with (seat {seat})");
        let lead = Move::place(game.to_act(), six, Place::LEAD);
        game.play(lead).expect("the lead");
        let legal = game.legal_moves();
        let (searched, class_of) = merge(&game, &legal);
        let tiles: Vec<Tile> = legal
            .iter()
            .filter_map(|m| match m.action {
                Action::Play { tile, .. } => Some(tile),
                _ => None,
            })
            .collect();
        let mut distinct = tiles.clone();
        distinct.sort_by_key(|t| (t.high(), t.low()));
        distinct.dedup();
        assert!(
            tiles.len() >= 2 * distinct.len(),
            "each six fits both sides: {legal:?}"
        );
        assert_eq!(searched.len(), distinct.len(), "{legal:?}");
        for (i, j) in (0..legal.len()).flat_map(|i| (0..legal.len()).map(move |j| (i, j))) {
            assert_eq!(class_of[i] == class_of[j], tiles[i] == tiles[j]);
        }
    }

    /// Where every other seat played greedy's tile, the true deal makes
    /// each of their plays greedy's: its weight is the product of the
    /// greedy factors of their choices (the lead aside). A sampled deal's
    /// weight is never zero and at most 1.
    #[test]
    fn the_true_deal_of_greedy_players_weighs_as_greedy_play() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut moves = Vec::new();
        let mut weighed = 0;
        for seed in 0..40 {
            let (game, record) = greedy_record("block", 4, seed, 9);
            let me = game.to_act();
            let expected: f64 = record
                .iter()
                .enumerate()
                .filter(|&(i, &(seat, plays))| i > 0 && seat != me && plays > 1)
                .map(|(_, &(_, plays))| 1.0 - NOISE + NOISE / plays as f64)
                .product();
            let truth = likelihood(&game, me, &mut moves);
            assert!((truth - expected).abs() < 1e-12, "{truth} {expected}");
            let view = game.view(me).expect("a seat");
            let knowledge = view.knowledge();
            for _ in 0..20 {
                let world = knowledge.sample(&mut rng).expect("a deal");
                let weight = likelihood(&world, me, &mut moves);
                assert!(weight > 0.0 && weight <= 1.0, "{weight}");
                weighed += 1;
            }
        }
        assert!(weighed > 0);
        // No history yet: every deal as likely.
        let fresh = greedy_game("block", 4, 3, 0);
        assert_eq!(likelihood(&fresh, fresh.to_act(), &mut moves), 1.0);
    }
}
