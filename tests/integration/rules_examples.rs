//! The worked numbers and the shared rules of docs/rules.md for
//! `muggins` and `draw`, played through the engine on hand-made positions.

use crate::common;

use common::{Position, blocked_after_six_five, hand_end, points_of, rules, t};
use pips::rules::{End, Event, HandEnd, Move, Outcome, PlayError, ScoreReason};
use pips::service::ApiError;

#[test]
fn muggins_scoring_sequence_of_section_3() {
    // 5-5 (10) → 5-0 on it (10) → 0-0 on the 0 (10) → 5-6 on the 5-5 (0)
    // → 0-4 on the 0-0 (10).
    let mut position = Position::new(
        rules("muggins", 2),
        2,
        vec![
            vec![t(5, 5), t(0, 0), t(4, 0), t(1, 1)],
            vec![t(5, 0), t(6, 5), t(2, 2)],
        ],
    );
    position.hand_number = 1;
    position.required_lead = Some(t(5, 5));
    let mut game = position.game();
    let moves = [
        (Move::play(0, t(5, 5), None), 10, 10),
        (Move::play(1, t(5, 0), Some(End::Left)), 10, 10),
        (Move::play(0, t(0, 0), Some(End::Left)), 10, 10),
        (Move::play(1, t(6, 5), Some(End::Right)), 6, 0),
        (Move::play(0, t(4, 0), Some(End::Left)), 10, 10),
    ];
    for (mv, total, points) in moves {
        let report = game.play(mv).expect("legal");
        assert_eq!(game.ends_total(), total, "after {mv}");
        let scored: i32 = report.score_change.iter().sum();
        assert_eq!(scored, points, "after {mv}");
    }
    assert_eq!(game.scores(), &[30, 10]);
}

#[test]
fn section_3_double_at_an_end_and_two_doubles() {
    // Ends 6-6 and 3 → 15 scores 15.
    let mut game = Position::new(
        rules("muggins", 2),
        2,
        vec![vec![t(6, 6), t(1, 0)], vec![t(2, 2), t(2, 1)]],
    )
    .with_lead(t(6, 3))
    .game();
    let report = game
        .play(Move::play(0, t(6, 6), Some(End::Left)))
        .expect("legal");
    assert_eq!(game.ends_total(), 15);
    assert_eq!(report.score_change, vec![15, 0]);
}

#[test]
fn section_3_openings() {
    for (lead, points) in [(t(5, 5), 10), (t(6, 4), 10), (t(6, 6), 0)] {
        let mut game = Position::new(
            rules("muggins", 2),
            2,
            vec![vec![lead, t(1, 0)], vec![t(2, 2), t(2, 1)]],
        )
        .game();
        let report = game.play(Move::play(0, lead, None)).expect("legal");
        assert_eq!(report.score_change, vec![points, 0], "opening {lead}");
    }
}

#[test]
fn muggins_going_out_rounds_each_opponent_separately() {
    // Three individuals; opponents hold 12 and 12 → 10 + 10 = 20.
    let mut game = Position::new(
        rules("muggins", 3),
        3,
        vec![
            vec![t(6, 1)],
            vec![t(5, 5), t(1, 1)],
            vec![t(4, 4), t(3, 1)],
        ],
    )
    .with_lead(t(6, 6))
    .game();
    let report = game
        .play(Move::play(0, t(6, 1), Some(End::Left)))
        .expect("legal");
    let (end, winner, settlement) = hand_end(&report.events).expect("hand ended");
    assert_eq!(end, HandEnd::Domino(0));
    assert_eq!(winner, Some(0));
    assert_eq!(settlement, vec![20, 0, 0]);
    assert_eq!(
        points_of(&report.events),
        vec![(0, 20, ScoreReason::Domino)]
    );
    // The seat that went out leads the next hand, any tile.
    assert_eq!(game.hand_number(), 3);
    assert_eq!(game.to_act(), 0);
    assert_eq!(game.required_lead(), None);
    assert_eq!(game.layout().len(), 0);
}

#[test]
fn muggins_partner_hand_is_not_counted() {
    let mut game = Position::new(
        rules("muggins", 4),
        4,
        vec![
            vec![t(6, 1)],
            vec![t(5, 5), t(1, 1)], // opponent: 12 → 10
            vec![t(6, 5), t(6, 4)], // partner: not counted
            vec![t(4, 4), t(3, 0)], // opponent: 11 → 10
        ],
    )
    .with_lead(t(6, 6))
    .game();
    let report = game
        .play(Move::play(0, t(6, 1), Some(End::Left)))
        .expect("legal");
    assert_eq!(report.score_change, vec![20, 0]);
}

#[test]
fn muggins_blocked_hand_of_section_3() {
    // Winner 7, loser 13 → r5(13) − r5(7) = 10.
    let (game, report) =
        blocked_after_six_five("muggins", &[t(2, 1), t(4, 0)], &[t(4, 4), t(3, 2)]);
    let (end, winner, settlement) = hand_end(&report.events).expect("blocked");
    assert_eq!(end, HandEnd::Blocked);
    assert_eq!(winner, Some(0));
    assert_eq!(settlement, vec![10, 0]);
    assert_eq!(
        points_of(&report.events),
        vec![(0, 10, ScoreReason::Blocked)]
    );
    // After a blocked hand the lead is forced again: the highest double.
    let required = game.required_lead().expect("forced lead");
    assert!(required.is_double());
    assert!(game.hand(game.to_act()).contains(required));
}

#[test]
fn muggins_blocked_tie_scores_nothing() {
    let (game, report) = blocked_after_six_five("muggins", &[t(2, 1)], &[t(3, 0)]);
    let (end, winner, settlement) = hand_end(&report.events).expect("blocked");
    assert_eq!((end, winner), (HandEnd::Blocked, None));
    assert_eq!(settlement, vec![0, 0]);
    assert_eq!(game.scores(), &[0, 0]);
    assert_eq!(game.outcome(), None);
}

#[test]
fn muggins_match_ends_mid_hand_before_any_settlement() {
    // 245 + 10 for the opening 5-5 reaches 250: the match ends at once.
    let mut game = Position::new(
        rules("muggins", 2),
        2,
        vec![vec![t(5, 5), t(1, 0)], vec![t(2, 2), t(2, 1)]],
    )
    .with_scores(vec![245, 0])
    .game();
    let report = game.play(Move::play(0, t(5, 5), None)).expect("legal");
    assert_eq!(game.outcome(), Some(Outcome::Winner(0)));
    assert_eq!(game.scores(), &[255, 0]);
    assert!(matches!(
        report.events.last(),
        Some(Event::MatchEnded { .. })
    ));
    assert!(game.legal_moves().is_empty());
    assert_eq!(
        game.play(Move::play(1, t(2, 2), Some(End::Left))),
        Err(PlayError::MatchOver)
    );
}

#[test]
fn muggins_last_tile_scores_first_then_settlement_is_skipped_once_over() {
    // Seat 0 plays its last tile 5-0 on the lead 5-5: ends 0 and the
    // crosswise 5-5 (10). The in-play 10 takes 240 to 250, so the match ends
    // there and the hand is never settled.
    let mut game = Position::new(
        rules("muggins", 2),
        2,
        vec![vec![t(5, 0)], vec![t(6, 6), t(6, 2)]],
    )
    .with_lead(t(5, 5))
    .with_scores(vec![240, 0])
    .game();
    let report = game
        .play(Move::play(0, t(5, 0), Some(End::Left)))
        .expect("legal");
    assert_eq!(report.score_change, vec![10, 0]);
    assert!(
        hand_end(&report.events).is_none(),
        "no settlement after the match ended"
    );
    assert_eq!(game.outcome(), Some(Outcome::Winner(0)));
}

#[test]
fn muggins_settlement_can_reach_the_target() {
    let mut game = Position::new(
        rules("muggins", 2),
        2,
        vec![vec![t(6, 1)], vec![t(6, 5), t(1, 1)]],
    )
    .with_lead(t(6, 6))
    .with_scores(vec![240, 0])
    .game();
    let report = game
        .play(Move::play(0, t(6, 1), Some(End::Left)))
        .expect("legal");
    assert_eq!(report.score_change, vec![15, 0]);
    assert_eq!(game.outcome(), Some(Outcome::Winner(0)));
}

#[test]
fn draw_going_out_is_credited_with_raw_pips_and_ends_the_match() {
    let mut game = Position::new(
        rules("draw", 2),
        2,
        vec![vec![t(6, 1)], vec![t(6, 5), t(1, 1)]],
    )
    .with_lead(t(6, 6))
    .game();
    let report = game
        .play(Move::play(0, t(6, 1), Some(End::Left)))
        .expect("legal");
    assert_eq!(report.score_change, vec![13, 0]);
    assert_eq!(game.outcome(), Some(Outcome::Winner(0)));
}

#[test]
fn draw_blocked_winner_gets_opponents_minus_own_raw_pips() {
    let (game, report) = blocked_after_six_five("draw", &[t(2, 1), t(4, 0)], &[t(4, 4), t(3, 2)]);
    assert_eq!(report.score_change, vec![13 - 7, 0]);
    assert_eq!(game.outcome(), Some(Outcome::Winner(0)));
}

#[test]
fn draw_blocked_tie_is_a_drawn_game() {
    let (game, _) = blocked_after_six_five("draw", &[t(2, 1)], &[t(3, 0)]);
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    assert_eq!(game.scores(), &[0, 0]);
}

#[test]
fn draw_doubles_lie_in_line() {
    let game = Position::new(
        rules("draw", 2),
        2,
        vec![vec![t(6, 1)], vec![t(6, 5), t(1, 1)]],
    )
    .with_lead(t(6, 6))
    .game();
    assert_eq!(game.ends_total(), 12);
    assert!(!game.rules().doubles_crosswise());
}

#[test]
fn a_seat_that_cannot_place_must_draw_then_pass_when_the_boneyard_is_empty() {
    let game = Position::new(
        rules("muggins", 2),
        2,
        vec![vec![t(1, 0)], vec![t(2, 2), t(2, 1)]],
    )
    .with_lead(t(6, 6))
    .game();
    assert_eq!(game.legal_moves(), vec![Move::draw(0)]);
    assert_eq!(
        game.check(Move::pass(0)),
        Err(PlayError::MustDrawNotPass { seat: 0 })
    );
    let mut drawn = game.clone();
    drawn.play(Move::draw(0)).expect("legal draw");
    assert_eq!(drawn.to_act(), 0, "the drawer keeps the turn");
    assert_eq!(drawn.hand(0).len(), 2);
}

#[test]
fn illegal_moves_are_refused_with_a_precise_reason() {
    let game = Position::new(
        rules("muggins", 2),
        2,
        vec![vec![t(6, 1), t(2, 0)], vec![t(5, 5), t(2, 1)]],
    )
    .with_lead(t(6, 3))
    .game();
    let cases = [
        (Move::pass(1), "ERROR_REASON_NOT_YOUR_TURN"),
        (Move::pass(5), "ERROR_REASON_SEAT_OUT_OF_RANGE"),
        (
            Move::play(0, t(5, 5), Some(End::Left)),
            "ERROR_REASON_TILE_NOT_IN_HAND",
        ),
        (
            Move::play(0, t(2, 0), Some(End::Left)),
            "ERROR_REASON_DOES_NOT_MATCH_END",
        ),
        (Move::play(0, t(6, 1), None), "ERROR_REASON_END_REQUIRED"),
        (
            Move::play(0, t(7, 1), Some(End::Left)),
            "ERROR_REASON_INVALID_TILE",
        ),
        (Move::draw(0), "ERROR_REASON_MUST_PLAY_NOT_DRAW"),
        (Move::pass(0), "ERROR_REASON_MUST_PLAY_NOT_PASS"),
    ];
    for (mv, reason) in cases {
        let error = game.check(mv).expect_err("illegal");
        assert_eq!(ApiError::from(error).reason.as_str_name(), reason, "{mv}");
        let mut copy = game.clone();
        assert!(copy.play(mv).is_err());
        assert_eq!(copy, game, "a refused move changes nothing");
    }
}

#[test]
fn forced_lead_and_lead_without_end() {
    let mut position = Position::new(
        rules("muggins", 2),
        2,
        vec![vec![t(6, 6), t(1, 0)], vec![t(5, 5), t(2, 1)]],
    );
    position.hand_number = 1;
    position.required_lead = Some(t(6, 6));
    let game = position.game();
    assert_eq!(game.legal_moves(), vec![Move::play(0, t(6, 6), None)]);
    assert_eq!(
        game.check(Move::play(0, t(1, 0), None)),
        Err(PlayError::MustLeadRequiredTile { required: t(6, 6) })
    );
    assert_eq!(
        game.check(Move::play(0, t(6, 6), Some(End::Left))),
        Err(PlayError::LeadHasNoEnd)
    );
}

#[test]
fn a_tile_fitting_both_ends_is_two_moves() {
    // Lead 3-3 alone: both ends show 3, so 6-3 is one move per end.
    let game = Position::new(
        rules("muggins", 2),
        2,
        vec![vec![t(6, 3), t(1, 0)], vec![t(5, 5), t(2, 1)]],
    )
    .with_lead(t(3, 3))
    .game();
    assert_eq!(
        game.legal_moves(),
        vec![
            Move::play(0, t(6, 3), Some(End::Left)),
            Move::play(0, t(6, 3), Some(End::Right)),
        ]
    );
}

#[test]
fn a_match_that_reaches_the_hand_limit_ends_with_the_best_score_winning() {
    // Seat 0 goes out in the last hand allowed and scores r5(13) = 15:
    // from 0-0 the best score wins; from 0-15 the scores tie, a draw.
    for (before, outcome) in [
        (vec![0, 0], Outcome::Winner(0)),
        (vec![0, 15], Outcome::Draw),
    ] {
        let mut position = Position::new(
            rules("muggins", 2),
            2,
            vec![vec![t(6, 1)], vec![t(6, 5), t(1, 1)]],
        )
        .with_lead(t(6, 6))
        .with_scores(before);
        position.hand_number = pips::rules::game::MAX_HANDS;
        let mut game = position.game();
        game.play(Move::play(0, t(6, 1), Some(End::Left)))
            .expect("legal");
        assert_eq!(game.outcome(), Some(outcome));
    }
}
