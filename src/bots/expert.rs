//! The `expert` level: determinized Monte Carlo search. Each round samples
//! one complete deal consistent with what the seat knows
//! ([`Knowledge::sample`](crate::rules::Knowledge::sample)), plays every
//! legal move in it and then the rest of the hand with `greedy` for every
//! seat (one move in ten at random), and scores the outcome as the chance
//! of winning the match from there: 1 or 0 when the match ended, else an
//! estimate from the scores and the distance to the target. The move with
//! the best mean is played. Every move is tried in the same deals, so that
//! the comparison is not blurred by the deals' luck.

use rand::RngExt;

use crate::rules::{Game, Move, Outcome, Side, View};

use super::{Budget, MoveValue, Suggestion, greedy};

/// One move in this many of a playout is random (the others `greedy`).
const EXPLORATION: u32 = 10;

/// The search (see the module's documentation); `None` when the seat is
/// not to act.
pub fn search<R: RngExt + ?Sized>(
    view: View<'_>,
    rng: &mut R,
    budget: Budget<'_>,
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
    let side = view.side_of(view.seat());
    let knowledge = view.knowledge();
    let mut totals = vec![0.0; legal.len()];
    let mut rounds = 0u32;
    let per_round = u32::try_from(legal.len()).unwrap_or(u32::MAX);
    let mut moves = Vec::new();
    // One game for every playout, refilled from the sampled deal with
    // `clone_from`, so that playouts reuse its room instead of allocating.
    let mut scratch: Option<Game> = None;
    while (rounds + 1).saturating_mul(per_round) <= budget.playouts.max(per_round)
        && !(budget.stop)()
    {
        let Some(world) = knowledge.sample(rng) else {
            break;
        };
        for (total, &mv) in totals.iter_mut().zip(&legal) {
            let game = match scratch.as_mut() {
                Some(game) => {
                    game.clone_from(&world);
                    game
                }
                None => scratch.insert(world.clone()),
            };
            game.play_unchecked(mv);
            *total += playout(game, side, rng, &mut moves);
        }
        rounds += 1;
    }
    if rounds == 0 {
        // No deal could be sampled (or no time at all): the heuristic.
        let mv = greedy::choose(view, &knowledge).unwrap_or(first);
        return Some(Suggestion {
            mv,
            values: Vec::new(),
            playouts: 0,
        });
    }
    let values: Vec<MoveValue> = legal
        .iter()
        .zip(&totals)
        .map(|(&mv, total)| MoveValue {
            mv,
            value: total / f64::from(rounds),
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
        playouts: rounds * per_round,
    })
}

/// Plays `game` to the end of its hand and scores it for `side`.
fn playout<R: RngExt + ?Sized>(
    game: &mut Game,
    side: Side,
    rng: &mut R,
    moves: &mut Vec<Move>,
) -> f64 {
    let hand = game.hand_number();
    while game.outcome().is_none() && game.hand_number() == hand {
        game.legal_moves_into(moves);
        let mv = if rng.random_range(0..EXPLORATION) == 0 {
            super::random::choose(moves, rng)
        } else {
            greedy::choose_in(game, moves)
        };
        let Some(mv) = mv else { break };
        game.play_unchecked(mv);
    }
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
