//! Points as rewards, for the learning environments (the PettingZoo and
//! OpenSpiel ones in Python, `Batch` here): one rule for all of them.

use pips::rules::{Game, Outcome};
use pyo3::prelude::*;

use crate::game::PyGame;

/// A reward's number type: `f32` for the batched arrays, `f64` for
/// Python's floats (OpenSpiel checks that returns sum to zero within
/// 1e-9, which thirds in `f32` miss).
pub trait Reward: Copy {
    /// The reward `value` (exact for every score a match reaches).
    fn of(value: f64) -> Self;
}

impl Reward for f32 {
    #[allow(clippy::cast_possible_truncation)]
    fn of(value: f64) -> f32 {
        value as f32
    }
}

impl Reward for f64 {
    fn of(value: f64) -> f64 {
        value
    }
}

/// Each seat's reward for its side's `gains` (points per side): its side's
/// gain less the mean of the other sides', negated where the lowest score
/// wins. The rewards of two sides' seats sum to zero.
pub fn zero_sum<R: Reward>(game: &Game, gains: &[i32], rewards: &mut [R]) {
    let sign = if game.rules().lowest_score_wins() {
        -1.0
    } else {
        1.0
    };
    let total: i64 = gains.iter().map(|&g| i64::from(g)).sum();
    let others = (gains.len().max(2) - 1) as f64;
    for (seat, reward) in (0..).zip(rewards.iter_mut()) {
        let own = gains
            .get(usize::from(game.side_of(seat)))
            .map_or(0, |&g| i64::from(g));
        *reward = R::of(sign * (own as f64 - (total - own) as f64 / others));
    }
}

/// Each seat's reward for a finished match: 1 to the winners, `-1 / (sides
/// - 1)` to the others, 0 to all on a draw.
pub fn match_result<R: Reward>(game: &Game, outcome: Outcome, rewards: &mut [R]) {
    let others = (usize::from(game.sides()).max(2) - 1) as f64;
    for (seat, reward) in (0..).zip(rewards.iter_mut()) {
        *reward = R::of(match outcome {
            Outcome::Winner(side) if game.side_of(seat) == side => 1.0,
            Outcome::Winner(_) => -1.0 / others,
            Outcome::Draw => 0.0,
        });
    }
}

/// Each seat's reward for its side's `gains` (points per side, e.g. a
/// hand's): its side's gain less the mean of the other sides', negated
/// where the lowest score wins (zero-sum).
#[pyfunction]
pub fn hand_rewards(game: PyRef<'_, PyGame>, gains: Vec<i32>) -> Vec<f64> {
    let game = game.game();
    let mut rewards = vec![0.0; usize::from(game.players())];
    zero_sum(game, &gains, &mut rewards);
    rewards
}

/// Each seat's reward for the match: 1 to the winners, `-1 / (sides - 1)`
/// to the others, 0 to all on a draw or while it runs.
#[pyfunction]
pub fn match_rewards(game: PyRef<'_, PyGame>) -> Vec<f64> {
    let game = game.game();
    let mut rewards = vec![0.0; usize::from(game.players())];
    if let Some(outcome) = game.outcome() {
        match_result(game, outcome, &mut rewards);
    }
    rewards
}
