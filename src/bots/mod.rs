//! Computer opponents over one seat's information ([`View`]): pure
//! functions of what the seat may know and a seed, with no I/O.
//!
//! - [`random`]: a uniform choice among the legal moves.
//! - [`greedy`]: a fixed heuristic of a decent casual player (at a table
//!   with a hub, [`greedy_hub`]'s; at a trick game, [`greedy_tricks`]').
//! - [`expert`]: determinized Monte Carlo search over deals sampled from
//!   the seat's [`Knowledge`](crate::rules::Knowledge), with `greedy`
//!   playouts, aiming at winning the match.
//! - [`tricks_solver`]: the end of a trick hand solved exactly in a
//!   sampled deal (double dummy), for the expert's playouts.
//! - [`line_solver`]: the end of a line hand solved exactly in a sampled
//!   deal once nothing is left to draw, for the expert's playouts.
//! - [`review`]: a match reviewed move by move with the expert's values:
//!   each decision's loss against the best, its grade, each seat's
//!   accuracy.
//!
//! A bot never reads what its seat cannot see: a suggestion depends on the
//! view, the seed and the budget alone.

pub mod expert;
pub mod greedy;
pub mod greedy_hub;
pub mod greedy_tricks;
pub mod line_solver;
pub mod random;
pub mod review;
pub mod tree;
pub mod tricks_solver;

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use crate::rules::options::{Rules, TableKind};
use crate::rules::{Game, Move, Seat, View};

/// How strong a computer opponent is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Level {
    /// Uniform over the legal moves.
    Random,
    /// A fixed heuristic.
    Greedy,
    /// Information-set tree search with `greedy` playouts, moves reaching
    /// the same position merged, every move tried in every sampled deal,
    /// deals weighed (tempered) by the plays they explain.
    Expert,
    /// `Expert` without its tree: each legal move played out on its own
    /// (moves merged, deals weighed untempered), as `expert` played before
    /// the tree;
    /// kept so that the arena can measure the tree (`expert-flat`). Not
    /// offered by `SuggestMove`.
    ExpertFlat,
    /// `ExpertFlat` with playouts alone (no merging, no weighing): what
    /// `expert` played before those, kept so that the arena can measure
    /// them (`expert-playouts`). Not offered by `SuggestMove`.
    ExpertPlayouts,
    /// `Expert` whose playouts play a trick hand's last tricks exactly
    /// (double dummy in each sampled deal) at every trick game, where
    /// `expert` does at Moon alone, and a line hand's last tiles once
    /// nothing is left to draw (`expert-solved`). Not offered by
    /// `SuggestMove`.
    ExpertSolved,
    /// `Expert` whose playouts play every hand to its end with `greedy`,
    /// as it played before the exact endings (`expert-unsolved`).
    /// Not offered by `SuggestMove`.
    ExpertUnsolved,
}

impl Level {
    /// Every level, by the name the arena and the Python package know it by.
    pub const NAMES: [(&'static str, Level); 7] = [
        ("random", Level::Random),
        ("greedy", Level::Greedy),
        ("expert", Level::Expert),
        ("expert-flat", Level::ExpertFlat),
        ("expert-playouts", Level::ExpertPlayouts),
        ("expert-solved", Level::ExpertSolved),
        ("expert-unsolved", Level::ExpertUnsolved),
    ];

    /// The level called `name`, if one is.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Level> {
        Level::NAMES
            .iter()
            .find(|(known, _)| *known == name)
            .map(|&(_, level)| level)
    }

    /// Whether it searches, spending a playout budget.
    #[must_use]
    pub fn searches(self) -> bool {
        matches!(
            self,
            Level::Expert
                | Level::ExpertFlat
                | Level::ExpertPlayouts
                | Level::ExpertSolved
                | Level::ExpertUnsolved
        )
    }

    /// Its name.
    #[must_use]
    pub fn name(self) -> &'static str {
        Level::NAMES
            .iter()
            .find(|(_, level)| *level == self)
            .map_or("?", |&(name, _)| name)
    }
}

/// What a search may spend.
#[derive(Clone, Copy)]
pub struct Budget<'a> {
    /// Playouts at most (each: one sampled deal, one move, played to the
    /// end of the hand), but at least one round: one playout per legal
    /// move.
    pub playouts: u32,
    /// Asked between sampled deals: `true` stops the search with the best
    /// move so far (a deadline, say). The search is reproducible for a
    /// seed and a playout budget only while this never says stop.
    pub stop: &'a dyn Fn() -> bool,
}

impl std::fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget")
            .field("playouts", &self.playouts)
            .finish_non_exhaustive()
    }
}

/// The most playouts a request may ask `expert` for (a time cap bounds
/// the rest).
pub const MAX_PLAYOUTS: u32 = 1_000_000;

/// The default playout budget of `expert` at a line.
pub const DEFAULT_PLAYOUTS: u32 = 5000;

/// The default playout budget of `expert` at a table with a hub (Mexican
/// Train, Chicken Foot), whose playouts run to the end of a round several
/// times as long as a line game's hand: so that a decision takes about as
/// long as at a line.
pub const DEFAULT_HUB_PLAYOUTS: u32 = 1500;

/// The default playout budget of `expert` at a trick game (Texas 42,
/// Moon), whose playouts run from the auction through the tricks and
/// whose every sampled deal is replayed by the checked constructor: at
/// 5,000 the slowest decisions took over 100 ms (p99 110 ms in texas42
/// 4p, two matches at a time); at 2,500, p99 40 ms one match at a time
/// (docs/bots.md has the figures).
pub const DEFAULT_TRICK_PLAYOUTS: u32 = 2500;

/// The default playout budget of `expert` under `rules`.
#[must_use]
pub fn default_playouts(rules: &Rules) -> u32 {
    match rules.table {
        TableKind::Line => DEFAULT_PLAYOUTS,
        TableKind::Trains | TableKind::ChickenFoot => DEFAULT_HUB_PLAYOUTS,
        TableKind::Tricks => DEFAULT_TRICK_PLAYOUTS,
    }
}

/// A bot's answer.
#[derive(Clone, PartialEq, Debug)]
pub struct Suggestion {
    /// The move to play.
    pub mv: Move,
    /// For `expert`: every legal move with its estimated value (the mean
    /// estimated chance of winning the match after it, 0 to 1) and the
    /// playouts spent on it; empty for the other levels.
    pub values: Vec<MoveValue>,
    /// Playouts spent in all.
    pub playouts: u32,
}

/// One legal move's estimate.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Its mean estimated chance of winning the match, 0 to 1.
    pub value: f64,
    /// Playouts spent through it: one a sampled deal, alike for every
    /// move (merged moves share theirs).
    pub playouts: u32,
}

/// The move `level` suggests for the seat of `view`, from `seed`; `None`
/// when the seat is not to act.
#[must_use]
pub fn suggest(view: View<'_>, level: Level, seed: u64, budget: Budget<'_>) -> Option<Suggestion> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let plain = |mv: Option<Move>| {
        mv.map(|mv| Suggestion {
            mv,
            values: Vec::new(),
            playouts: 0,
        })
    };
    match level {
        Level::Random => plain(random::choose(&view.legal_moves(), &mut rng)),
        Level::Greedy => plain(greedy::choose(view, &view.knowledge())),
        Level::Expert => expert::search(view, &mut rng, budget, expert::Settings::FULL),
        Level::ExpertFlat => expert::search(view, &mut rng, budget, expert::Settings::FLAT),
        Level::ExpertPlayouts => {
            expert::search(view, &mut rng, budget, expert::Settings::PLAYOUTS_ONLY)
        }
        Level::ExpertSolved => expert::search(view, &mut rng, budget, expert::Settings::SOLVED),
        Level::ExpertUnsolved => expert::search(view, &mut rng, budget, expert::Settings::UNSOLVED),
    }
}

/// The search seed of a suggestion asked without one: the match digest's
/// first bytes and the seat, so that a position gets the same answer every
/// time it is asked.
#[must_use]
pub fn default_seed(game: &Game, seat: Seat) -> u64 {
    let digest = game.digest().0;
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(digest.get(..8).unwrap_or(&[0; 8]));
    u64::from_le_bytes(bytes) ^ u64::from(seat)
}

#[cfg(test)]
mod trick_games {
    use super::*;
    use crate::rules::Action;
    use crate::rules::tricks::random_matches::every_combination;

    /// Every level answers a legal move at every kind of decision of a
    /// trick game (bids, contracts, Moon's discard, tricks), whatever the
    /// options: a hand of every combination the rules take, every level
    /// asked at every move.
    #[test]
    fn every_level_answers_a_legal_move_under_every_option_combination() {
        // Decisions asked: bids, contracts, discards, tricks.
        let mut kinds = [0u32; 4];
        for (i, &(options, target)) in every_combination().iter().enumerate() {
            let players = if options.is_moon() { 3 } else { 4 };
            let rules = Rules::tricks(options, target);
            let (mut game, _) = Game::new("t", rules, players, i as u64).expect("valid");
            let first_hand = game.hand_number();
            let mut step = 0;
            while game.outcome().is_none() && game.hand_number() == first_hand && step < 40 {
                let seat = game.to_act();
                let legal = game.legal_moves();
                let view = game.view(seat).expect("seat");
                for level in [Level::Random, Level::Greedy, Level::Expert] {
                    let budget = Budget {
                        playouts: 12,
                        stop: &|| false,
                    };
                    let s = suggest(view, level, i as u64, budget).expect("a move");
                    assert!(legal.contains(&s.mv), "{options:?} {step} {level:?}");
                }
                let kind = match legal.first().map(|mv| mv.action) {
                    Some(Action::Pass | Action::Bid(_)) => 0,
                    Some(Action::Name(_)) => 1,
                    Some(Action::Discard(_)) => 2,
                    _ => 3,
                };
                kinds[kind] += 1;
                // The seat plays greedy's move, so that hands are bid and
                // played as players do.
                let mv = greedy::choose(view, &view.knowledge()).expect("a move");
                game.play(mv).expect("legal");
                step += 1;
            }
        }
        assert!(kinds.iter().all(|&n| n > 0), "{kinds:?}");
    }
}
