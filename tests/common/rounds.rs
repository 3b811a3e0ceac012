//! Checks shared by the property tests of the games played in rounds at a
//! hub (the train games and Chicken Foot): what a round's end adds to each
//! seat, and how the match ends.

use pips::rules::{Event, Game, Move, Outcome, Place, Report, Rules, Tile};
use proptest::prelude::*;

/// At each round's end in `report`, every seat's pips and score change are
/// the pips left in its hand (0-0 counting its own worth); how many rounds
/// ended.
pub fn check_round_ends(report: &Report, rules: &Rules, players: u8) -> Result<u32, TestCaseError> {
    let mut ended = 0;
    for event in &report.events {
        let Event::HandEnded { pips, hands, .. } = event else {
            continue;
        };
        ended += 1;
        for seat in 0..players {
            let hand = hands[usize::from(seat)];
            let expected = hand.pips()
                + if hand.contains(Tile::new(0, 0)) {
                    u32::from(rules.double_blank_pips)
                } else {
                    0
                };
            prop_assert_eq!(pips[usize::from(seat)], expected, "seat {} pips", seat);
            prop_assert_eq!(
                report.score_change[usize::from(seat)],
                i32::try_from(expected).unwrap_or(i32::MAX),
                "seat {} score",
                seat
            );
        }
    }
    Ok(ended)
}

/// The match is over after all its rounds, the lowest score winning (a
/// tie for lowest drawn).
pub fn check_lowest_wins(
    game: &Game,
    rules: &Rules,
    rounds_ended: u32,
) -> Result<(), TestCaseError> {
    let Some(outcome) = game.outcome() else {
        return Err(TestCaseError::fail("the match did not end"));
    };
    prop_assert_eq!(rounds_ended, u32::from(rules.rounds));
    let scores = game.scores();
    let lowest = scores.iter().copied().min().unwrap_or(0);
    let at_lowest: Vec<u8> = (0..game.players())
        .filter(|&seat| scores[usize::from(seat)] == lowest)
        .collect();
    match outcome {
        Outcome::Winner(side) => prop_assert_eq!(at_lowest, vec![side]),
        Outcome::Draw => prop_assert!(at_lowest.len() > 1),
    }
    Ok(())
}

/// The seat to act has a move, every listed move is accepted and, given
/// `candidates` (every move anyone could try), exactly the listed ones are.
pub fn check_moves(
    game: &Game,
    legal: &[Move],
    candidates: Option<Vec<Move>>,
) -> Result<(), TestCaseError> {
    prop_assert!(!legal.is_empty(), "the seat to act has no move");
    for &mv in legal {
        prop_assert_eq!(game.check(mv), Ok(()), "{} listed but refused", mv);
    }
    for mv in candidates.unwrap_or_default() {
        prop_assert_eq!(
            game.check(mv).is_ok(),
            legal.contains(&mv),
            "{} accepted and listed disagree",
            mv
        );
    }
    Ok(())
}

/// Every move a seat could try with `places`: each tile it holds at each
/// place, a draw, a pass and an end of turn, for every seat.
pub fn every_seats_tries(game: &Game, places: &[Place]) -> Vec<Move> {
    let mut moves = Vec::new();
    for seat in 0..game.players() {
        for tile in game.hand(seat).iter() {
            for &place in places {
                moves.push(Move::place(seat, tile, place));
            }
        }
        moves.push(Move::draw(seat));
        moves.push(Move::pass(seat));
        moves.push(Move::end_turn(seat));
    }
    moves
}
