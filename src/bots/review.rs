//! A match reviewed move by move (docs/design/review.md): the expert's
//! value of each move a seat played and of its best move, each from what
//! that seat knew then, the loss between them in the chance of winning the
//! match, a grade, and per seat an accuracy. Pure: a function of the
//! record, the seeds and the budget.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use crate::rules::{Game, Move, Seat, Side};

use super::expert::{Playouts, Settings, deal_weight, playout_values};
use super::{Budget, Level, default_seed, suggest};

/// Deals sampled to value the points of the move played and of the best
/// one (the same deals for both): a few hundred playouts besides the
/// search's thousands.
pub const POINT_DEALS: u32 = 200;

/// How a move is graded, by the winning chance it lost against the best,
/// in percentage points (the thresholds are docs/bots.md's).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Grade {
    /// The move the expert valued highest (or as high).
    Best,
    /// Under 5 points lost.
    Good,
    /// 5 to 10 points lost.
    Inaccuracy,
    /// 10 to 15 points lost.
    Mistake,
    /// 15 points lost or more.
    Blunder,
}

impl Grade {
    /// Every grade, best first.
    pub const ALL: [Grade; 5] = [
        Grade::Best,
        Grade::Good,
        Grade::Inaccuracy,
        Grade::Mistake,
        Grade::Blunder,
    ];

    /// The grade of a move that lost `loss` points of winning chance.
    #[must_use]
    pub fn of(loss: f64) -> Grade {
        match loss {
            l if l <= 0.0 => Grade::Best,
            l if l < 5.0 => Grade::Good,
            l if l < 10.0 => Grade::Inaccuracy,
            l if l < 15.0 => Grade::Mistake,
            _ => Grade::Blunder,
        }
    }
}

/// A move's accuracy, 0 to 100, from the winning chance it lost in
/// percentage points: 103.17 × e^(−0.0435 × loss) − 3.17 (lichess's curve).
#[must_use]
pub fn accuracy(loss: f64) -> f64 {
    (103.17 * (-0.0435 * loss.max(0.0)).exp() - 3.17).clamp(0.0, 100.0)
}

/// One decision of a reviewed seat.
#[derive(Clone, PartialEq, Debug)]
pub struct Decision {
    /// The move played.
    pub played: Move,
    /// Whether it was the only legal move (not graded).
    pub forced: bool,
    /// The move the expert valued highest.
    pub best: Move,
    /// The played move's value: the chance of winning the match after it,
    /// 0 to 1, as the seat could know it (`None` for a forced move, which
    /// is not searched).
    pub played_value: Option<f64>,
    /// The best move's value (`None` for a forced move).
    pub best_value: Option<f64>,
    /// The winning chance lost, in percentage points (0 when best).
    pub loss: f64,
    /// Its grade; `None` for a forced move.
    pub grade: Option<Grade>,
    /// The points (marks, where the game scores marks) the seat's side
    /// could expect to gain in the hand after the move played, net of the
    /// other sides' mean (more is better, also where the lowest score
    /// wins): over deals sampled from what the seat knew, each played out
    /// as the expert plays out (`None` for a forced move, or when the
    /// time ran out first).
    pub played_points: Option<f64>,
    /// The same after the best move.
    pub best_points: Option<f64>,
}

impl Decision {
    /// The points given up against the best move (its expected points less
    /// the played move's): what the loss in winning chance cost in the
    /// hand's points. It may be below 0 where the best move for the match
    /// scores less in the hand.
    #[must_use]
    pub fn points_loss(&self) -> Option<f64> {
        Some(self.best_points? - self.played_points?)
    }
}

/// Values the decision of the seat to act in `game`, which played `mv`,
/// from that seat's view with the expert's search (`seed`: its default
/// for the position when `None`) within `budget`. `None` when the match
/// is over or `mv` is not the seat to act's, or not legal.
#[must_use]
pub fn decision(game: &Game, mv: Move, seed: Option<u64>, budget: Budget<'_>) -> Option<Decision> {
    if game.outcome().is_some() || mv.seat != game.to_act() {
        return None;
    }
    let legal = game.legal_moves();
    if legal.len() == 1 {
        return Some(Decision {
            played: mv,
            forced: true,
            best: mv,
            played_value: None,
            best_value: None,
            loss: 0.0,
            grade: None,
            played_points: None,
            best_points: None,
        });
    }
    let view = game.view(mv.seat)?;
    let seed = seed.unwrap_or_else(|| default_seed(game, mv.seat));
    let suggestion = suggest(view, Level::Expert, seed, budget)?;
    let value_of = |m: Move| {
        suggestion
            .values
            .iter()
            .find(|v| v.mv == m)
            .map(|v| v.value)
    };
    let best = suggestion
        .values
        .iter()
        .max_by(|a, b| a.value.total_cmp(&b.value))?;
    let played_value = value_of(mv)?;
    let loss = ((best.value - played_value) * 100.0).max(0.0);
    // (The best move, when it was played, is valued once.)
    let valued: &[Move] = if best.mv == mv { &[mv] } else { &[mv, best.mv] };
    let points = expected_points(game, valued, seed, POINT_DEALS, budget.stop);
    let played_points = points.as_ref().and_then(|p| p.first().copied());
    Some(Decision {
        played: mv,
        forced: false,
        best: best.mv,
        played_value: Some(played_value),
        best_value: Some(best.value),
        loss,
        grade: Some(Grade::of(loss)),
        played_points,
        best_points: points.as_ref().and_then(|p| p.last().copied()),
    })
}

/// The points (or marks) the seat to act in `game` could expect its side
/// to gain in the hand after each of `moves`, net of the other sides'
/// mean (negated where the lowest score wins, so that more is better):
/// over up to `deals` deals sampled from what the seat knows (the same
/// deals for every move, weighed as the expert weighs them), each played
/// out to the hand's end as the expert's playouts play. `None` when no
/// deal could be sampled before `stop`.
fn expected_points(
    game: &Game,
    moves: &[Move],
    seed: u64,
    deals: u32,
    stop: &dyn Fn() -> bool,
) -> Option<Vec<f64>> {
    let seat = game.to_act();
    let view = game.view(seat)?;
    let knowledge = view.knowledge();
    let side = game.side_of(seat);
    let hand = game.hand_number();
    let lowest_wins = game.rules().lowest_score_wins();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x706F_696E_7473);
    let (mut totals, mut weights) = (vec![0.0; moves.len()], 0.0);
    let (mut scratch, mut values) = (Vec::new(), Vec::new());
    // Played to the hand's end for its points: no exact solver (which
    // values a position without playing it).
    let mut playouts = Playouts::new(Settings::UNSOLVED, game.rules());
    for _ in 0..deals {
        if stop() {
            break;
        }
        let Some(world) = knowledge.sample(&mut rng) else {
            break;
        };
        let weight = deal_weight(&world, seat, Settings::FULL, &mut scratch);
        weights += weight;
        // Every move's playout of this deal from the same draws, so that
        // they differ by the moves alone.
        let draws: u64 = rng.random();
        for (total, &mv) in totals.iter_mut().zip(moves) {
            let mut after = world.clone();
            after.play_unchecked(mv);
            playout_values(
                &mut after,
                hand,
                &mut ChaCha8Rng::seed_from_u64(draws),
                (&mut scratch, &mut playouts),
                &mut values,
            );
            *total += weight * net_gain(game.scores(), after.scores(), side, lowest_wins);
        }
    }
    (weights > 0.0).then(|| totals.into_iter().map(|t| t / weights).collect())
}

/// What `side` gained from `before` to `after`, net of the other sides'
/// mean gain; negated where the lowest score wins.
fn net_gain(before: &[i32], after: &[i32], side: Side, lowest_wins: bool) -> f64 {
    let gains: Vec<f64> = after
        .iter()
        .zip(before)
        .map(|(a, b)| f64::from(a - b))
        .collect();
    let own = gains.get(usize::from(side)).copied().unwrap_or(0.0);
    let others: Vec<f64> = gains
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != usize::from(side))
        .map(|(_, &g)| g)
        .collect();
    let mean = if others.is_empty() {
        0.0
    } else {
        others.iter().sum::<f64>() / others.len() as f64
    };
    if lowest_wins { mean - own } else { own - mean }
}

/// What a seat's graded decisions add up to.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Summary {
    /// Decisions graded (forced moves are not).
    pub graded: u32,
    /// Forced moves.
    pub forced: u32,
    /// The mean winning chance lost a graded decision, percentage points.
    pub mean_loss: f64,
    /// The mean accuracy of the graded decisions, 0 to 100.
    pub accuracy: f64,
    /// Decisions of each grade, in [`Grade::ALL`]'s order.
    pub grades: [u32; 5],
    /// Graded decisions whose points were valued.
    pub points_valued: u32,
    /// The mean points given up a graded decision whose points were
    /// valued ([`Decision::points_loss`]); 0 when none was.
    pub mean_points_loss: f64,
}

impl Summary {
    /// The summary of `decisions`.
    #[must_use]
    pub fn of<'a>(decisions: impl IntoIterator<Item = &'a Decision>) -> Summary {
        let mut summary = Summary::default();
        let (mut loss, mut accurate) = (0.0, 0.0);
        let mut points = 0.0;
        for decision in decisions {
            match decision.grade {
                None => summary.forced += 1,
                Some(grade) => {
                    summary.graded += 1;
                    loss += decision.loss;
                    if let Some(given) = decision.points_loss() {
                        points += given;
                        summary.points_valued += 1;
                    }
                    accurate += accuracy(decision.loss);
                    if let Some(slot) = Grade::ALL
                        .iter()
                        .position(|&g| g == grade)
                        .and_then(|at| summary.grades.get_mut(at))
                    {
                        *slot += 1;
                    }
                }
            }
        }
        if summary.graded > 0 {
            summary.mean_loss = loss / f64::from(summary.graded);
            summary.accuracy = accurate / f64::from(summary.graded);
        }
        if summary.points_valued > 0 {
            summary.mean_points_loss = points / f64::from(summary.points_valued);
        }
        summary
    }
}

/// Reviews the decisions of `seats` in the match dealt as `first` and
/// played with `moves`: each with its index among the moves. Stops at the
/// first move that does not play.
#[must_use]
pub fn review(
    first: &Game,
    moves: &[Move],
    seats: &[Seat],
    playouts: u32,
) -> Vec<(usize, Decision)> {
    let mut game = first.clone();
    let mut reviewed = Vec::new();
    let never = || false;
    for (index, &mv) in moves.iter().enumerate() {
        if seats.contains(&mv.seat) {
            let budget = Budget {
                playouts,
                stop: &never,
            };
            if let Some(decision) = decision(&game, mv, None, budget) {
                reviewed.push((index, decision));
            }
        }
        if game.play(mv).is_err() {
            break;
        }
    }
    reviewed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets::preset;
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;

    fn dealt(variant: &str, players: u8, seed: u64) -> Game {
        let rules = preset(variant).expect("preset").rules(players, None);
        Game::new(variant, rules, players, seed).expect("deals").0
    }

    #[test]
    fn grades_and_accuracy_follow_the_loss() {
        assert_eq!(Grade::of(0.0), Grade::Best);
        assert_eq!(Grade::of(4.9), Grade::Good);
        assert_eq!(Grade::of(5.0), Grade::Inaccuracy);
        assert_eq!(Grade::of(12.0), Grade::Mistake);
        assert_eq!(Grade::of(40.0), Grade::Blunder);
        assert!((accuracy(0.0) - 100.0).abs() < 1e-9);
        assert!((accuracy(10.0) - (103.17 * (-0.435f64).exp() - 3.17)).abs() < 1e-9);
        assert_eq!(accuracy(1_000.0), 0.0);
        assert!(accuracy(5.0) > accuracy(10.0));
    }

    /// Over a match at every family: the best value is never below the
    /// played one, a forced move is not graded, and a move that was the
    /// expert's own is best.
    #[test]
    fn a_review_values_every_decision_and_never_rates_the_played_move_above_the_best() {
        for (variant, players) in [("muggins", 2), ("mexican_train", 3), ("texas42", 4)] {
            let first = dealt(variant, players, 3);
            let mut game = first.clone();
            let mut moves = Vec::new();
            while game.outcome().is_none() && moves.len() < 40 {
                let legal = game.legal_moves();
                let mv = legal[moves.len() % legal.len()];
                game.play(mv).expect("legal");
                moves.push(mv);
            }
            let seats: Vec<Seat> = (0..players).collect();
            let reviewed = review(&first, &moves, &seats, 200);
            assert_eq!(reviewed.len(), moves.len(), "{variant}");
            for (index, decision) in &reviewed {
                assert_eq!(decision.played, moves[*index]);
                if decision.forced {
                    assert_eq!(decision.grade, None);
                } else {
                    let (best, played) = (decision.best_value, decision.played_value);
                    assert!(best.zip(played).is_some_and(|(b, p)| b >= p), "{variant}");
                    assert!(decision.loss >= 0.0);
                    // With no time bound, the points are valued too: the
                    // best move's the played move's when they are one.
                    let given = decision.points_loss().expect("points valued");
                    assert!(given.is_finite(), "{variant}");
                    if decision.best == decision.played {
                        assert!(given.abs() < 1e-9, "{variant}: {decision:?}");
                    }
                }
            }
            let summary = Summary::of(reviewed.iter().map(|(_, d)| d));
            assert_eq!(summary.graded + summary.forced, reviewed.len() as u32);
            assert!((0.0..=100.0).contains(&summary.accuracy));
        }
    }

    /// Where the expert's values of the moves of `game` (its `suggestion`,
    /// from seed 1 within `budget`) lie more than `apart` apart: checks
    /// that the worst move is graded a mistake or a blunder and the best
    /// one best, and says it did.
    fn worst_and_best_graded(
        game: &Game,
        suggestion: &crate::bots::Suggestion,
        apart: f64,
        budget: Budget<'_>,
        what: &str,
    ) -> bool {
        let by_value =
            |a: &&crate::bots::MoveValue, b: &&crate::bots::MoveValue| a.value.total_cmp(&b.value);
        let worst = suggestion.values.iter().min_by(by_value);
        let best = suggestion.values.iter().max_by(by_value);
        let (Some(worst), Some(best)) = (worst, best) else {
            return false;
        };
        if best.value - worst.value <= apart {
            return false;
        }
        let bad = decision(game, worst.mv, Some(1), budget).expect("valued");
        assert!(
            matches!(bad.grade, Some(Grade::Mistake | Grade::Blunder)),
            "{what}: {bad:?}"
        );
        let good = decision(game, best.mv, Some(1), budget).expect("valued");
        assert_eq!(good.grade, Some(Grade::Best), "{what}");
        true
    }

    /// The worst move of a position where the moves differ much is graded
    /// a mistake or a blunder, and the best one best.
    #[test]
    fn the_worst_of_very_different_moves_is_a_mistake_or_a_blunder() {
        let mut found = false;
        'search: for seed in 0..40 {
            let mut game = dealt("all_fives", 2, seed);
            while game.outcome().is_none() {
                let seat = game.to_act();
                let view = game.view(seat).expect("a seat");
                let never = || false;
                let budget = Budget {
                    playouts: 600,
                    stop: &never,
                };
                let suggestion = suggest(view, Level::Expert, 1, budget).expect("a move");
                if worst_and_best_graded(&game, &suggestion, 0.2, budget, &format!("seed {seed}")) {
                    found = true;
                    break 'search;
                }
                game.play(suggestion.mv).expect("legal");
            }
        }
        assert!(found, "a position with very different moves");
    }

    /// `game` with the sides' scores set to `scores` (through its state,
    /// as a client would hand one over).
    fn with_scores(game: &Game, scores: &[i32]) -> Game {
        let mut state = crate::service::codec::encode_state(game);
        state.scores = scores.to_vec();
        crate::service::codec::decode_state(Some(&state), "state").expect("a state")
    }

    /// The share of the deals the seat to act cannot tell from `game`'s
    /// (sampled from what it knows) in which, after `mv`, the next seat
    /// holds a tile that wins the match at once.
    fn gives_the_match_away(game: &Game, mv: Move, samples: u64) -> f64 {
        let view = game.view(game.to_act()).expect("a seat");
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut given = 0;
        for _ in 0..samples {
            let Some(mut world) = view.knowledge().sample(&mut rng) else {
                return 0.0;
            };
            world.play(mv).expect("legal");
            if world.outcome().is_some() {
                return 0.0;
            }
            let other = world.to_act();
            let wins = world.legal_moves().into_iter().any(|reply| {
                let mut after = world.clone();
                after.play(reply).expect("legal");
                after.outcome() == Some(crate::rules::Outcome::Winner(world.side_of(other)))
            });
            given += u64::from(wins);
        }
        given as f64 / samples as f64
    }

    /// A deliberately bad move: at muggins, with both sides five points
    /// from the match and no move of the seat's scoring, the move that opens a scoring end the opponent most
    /// likely holds a tile for (in most deals the seat cannot tell from
    /// this one, the opponent then wins at once), where another move gives
    /// nothing away, is graded a mistake or a blunder, and loses more than
    /// the safe move.
    #[test]
    fn giving_away_a_scoring_end_at_the_match_s_end_is_a_mistake_or_a_blunder() {
        let mut found = 0;
        for seed in 0..60 {
            let mut game = dealt("muggins", 2, seed);
            let target = i32::try_from(game.rules().target).expect("a target");
            for step in 0..(2 + seed % 6) {
                if game.outcome().is_some() || game.hand_number() > 1 {
                    break;
                }
                let legal = game.legal_moves();
                let mv = legal[usize::try_from(step).unwrap_or(0) % legal.len()];
                game.play(mv).expect("legal");
            }
            if game.outcome().is_some() || game.hand_number() > 1 {
                continue;
            }
            // Both sides five points from the match: a scoring end
            // decides it.
            let game = with_scores(&game, &[target - 5, target - 5]);
            let legal = game.legal_moves();
            let wins_at_once = legal.iter().any(|&mv| {
                let mut after = game.clone();
                after.play(mv).expect("legal");
                after.outcome().is_some()
            });
            if wins_at_once {
                continue;
            }
            let shares: Vec<(Move, f64)> = legal
                .iter()
                .map(|&mv| (mv, gives_the_match_away(&game, mv, 60)))
                .collect();
            let worst = shares.iter().max_by(|a, b| a.1.total_cmp(&b.1));
            let safe = shares.iter().find(|(_, share)| *share == 0.0);
            let (Some(&(bad, share)), Some(&(safe, _))) = (worst, safe) else {
                continue;
            };
            if share < 0.6 {
                continue;
            }
            let never = || false;
            let budget = || Budget {
                playouts: 1_000,
                stop: &never,
            };
            let bad = decision(&game, bad, Some(3), budget()).expect("valued");
            let safe = decision(&game, safe, Some(3), budget()).expect("valued");
            assert!(
                matches!(bad.grade, Some(Grade::Mistake | Grade::Blunder)),
                "seed {seed}: gives the match away in {share:.2} of the deals: {bad:?}"
            );
            assert!(safe.loss < bad.loss, "seed {seed}: {safe:?} {bad:?}");
            // In the hand's points too: giving the opponent the match's
            // last points costs points.
            assert!(
                bad.played_points < safe.played_points,
                "seed {seed}: {safe:?} {bad:?}"
            );
            found += 1;
            if found == 3 {
                break;
            }
        }
        assert!(found >= 1, "a position where a move gives the match away");
    }

    /// A deliberately bad move at a trick game: with both sides a mark
    /// from the match, where the partner has led the trick and one of the
    /// seat's moves throws the hand away (the expert's values of its moves
    /// 15 points apart), that move is graded a
    /// mistake or a blunder and the best one best.
    #[test]
    fn throwing_away_the_partner_s_lead_at_texas42_is_a_mistake_or_a_blunder() {
        let mut found = false;
        'search: for seed in 0..40 {
            // Both sides a mark from the match: this hand decides it.
            let target = i32::try_from(dealt("texas42", 4, seed).rules().target).expect("a target");
            let mut game = with_scores(&dealt("texas42", 4, seed), &[target - 1, target - 1]);
            while game.outcome().is_none() && game.hand_number() == 1 {
                let seat = game.to_act();
                let never = || false;
                let budget = Budget {
                    playouts: 600,
                    stop: &never,
                };
                let partner_led = game.trick_hand().is_some_and(|hand| {
                    hand.led().is_some()
                        && hand.trick_leader().is_some_and(|leader| {
                            leader != seat && game.side_of(leader) == game.side_of(seat)
                        })
                });
                let view = game.view(seat).expect("a seat");
                let suggestion = suggest(view, Level::Expert, 1, budget).expect("a move");
                if partner_led
                    && worst_and_best_graded(
                        &game,
                        &suggestion,
                        0.15,
                        budget,
                        &format!("seed {seed}"),
                    )
                {
                    found = true;
                    break 'search;
                }
                game.play(suggestion.mv).expect("legal");
            }
        }
        assert!(
            found,
            "a trick the partner led where a move throws the hand away"
        );
    }

    /// A review never reads what the seat could not see: the same decision
    /// in another deal the seat cannot tell from this one is valued the
    /// same.
    #[test]
    fn a_review_does_not_peek() {
        let mut checked = 0;
        for seed in 0..10 {
            let mut game = dealt("muggins", 2, seed);
            for _ in 0..(seed % 5 + 2) {
                if game.outcome().is_some() {
                    break;
                }
                let mv = game.legal_moves()[0];
                game.play(mv).expect("legal");
            }
            if game.outcome().is_some() || game.legal_moves().len() < 2 {
                continue;
            }
            let seat = game.to_act();
            let view = game.view(seat).expect("a seat");
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let Some(other) = view.knowledge().sample(&mut rng) else {
                continue;
            };
            let mv = game.legal_moves()[1];
            let never = || false;
            let budget = || Budget {
                playouts: 300,
                stop: &never,
            };
            assert_eq!(
                decision(&game, mv, Some(9), budget()),
                decision(&other, mv, Some(9), budget()),
                "seed {seed}"
            );
            checked += 1;
        }
        assert!(checked >= 5, "{checked}");
    }
}
