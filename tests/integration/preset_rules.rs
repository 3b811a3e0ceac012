//! Hand-made positions that pin each preset's special rules (docs/rules.md:
//! its sections and worked numbers), played through the engine. `muggins` and `draw` have theirs in
//! `rules_examples.rs`.

use crate::common;

use common::{
    Position, blocked_after_six_five, ended_with, hand_end, lead, on, play_all, points_of, rules,
    t, total_change,
};
use pips::rules::presets::preset;
use pips::rules::{
    DrawRule, End, Event, Game, HandEnd, LayoutRule, Move, Outcome, Placed, ScoreReason, SpinnerAt,
};

fn voided(events: &[Event]) -> Vec<(i32, ScoreReason)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::PointsVoided { points, reason, .. } => Some((*points, *reason)),
            _ => None,
        })
        .collect()
}

// ---- jarac ------------------------------------------------------------------

#[test]
fn jarac_section_3_out_scores_zero_and_others_add_their_pips() {
    // Seat 0 goes out; seats holding [6-6][5-4] (21) and [0-0] (0) add 21 and 0.
    let mut game = Position::new(
        rules("jarac", 3),
        3,
        vec![vec![t(6, 1)], vec![t(6, 6), t(5, 4)], vec![t(0, 0)]],
    )
    .with_lead(t(1, 0))
    .game();
    let reports = play_all(&mut game, &[on(0, t(6, 1), End::Left)]);
    assert_eq!(total_change(&reports), vec![0, 21, 0]);
    let (end, winner, settlement) = hand_end(&reports[0].events).expect("hand ended");
    assert_eq!((end, winner), (HandEnd::Domino(0), Some(0)));
    assert_eq!(settlement, vec![0, 21, 0]);
    assert_eq!(
        points_of(&reports[0].events),
        vec![(1, 21, ScoreReason::Penalty)]
    );
}

#[test]
fn jarac_fish_maker_scores_zero_even_with_more_pips() {
    // Seat 0 makes the fish holding 13 pips; seat 1 holds 7 and adds them.
    let (game, report) = blocked_after_six_five("jarac", &[t(4, 4), t(3, 2)], &[t(2, 1), t(4, 0)]);
    assert!(ended_with(std::slice::from_ref(&report), HandEnd::Blocked));
    assert_eq!(game.scores(), &[0, 7]);
    let (_, winner, _) = hand_end(&report.events).expect("hand ended");
    assert_eq!(winner, Some(0), "the fish maker wins the hand");
}

#[test]
fn jarac_match_ends_at_a_hand_end_past_101_and_lowest_wins() {
    let mut game = Position::new(
        rules("jarac", 2),
        2,
        vec![vec![t(6, 1)], vec![t(6, 5), t(1, 1)]],
    )
    .with_lead(t(6, 6))
    .with_scores(vec![50, 95])
    .game();
    play_all(&mut game, &[on(0, t(6, 1), End::Left)]);
    assert_eq!(game.scores(), &[50, 108]);
    assert_eq!(game.outcome(), Some(Outcome::Winner(0)));
}

#[test]
fn jarac_tie_for_lowest_is_a_drawn_match() {
    let mut game = Position::new(
        rules("jarac", 3),
        3,
        vec![vec![t(6, 1)], vec![t(0, 0)], vec![t(6, 5), t(1, 1)]],
    )
    .with_lead(t(6, 6))
    .with_scores(vec![50, 50, 95])
    .game();
    play_all(&mut game, &[on(0, t(6, 1), End::Left)]);
    assert_eq!(game.scores(), &[50, 50, 108]);
    assert_eq!(game.outcome(), Some(Outcome::Draw));
}

#[test]
fn jarac_leads_double_blank_else_highest_double() {
    let jarac = preset("jarac").expect("jarac");
    for seed in 0..20 {
        let (game, _) = Game::new("jarac", jarac.rules(3, None), 3, seed).expect("valid");
        let holder = (0..3).find(|&s| game.hand(s).contains(t(0, 0)));
        let required = game.required_lead().expect("forced lead");
        match holder {
            Some(seat) => assert_eq!((game.to_act(), required), (seat, t(0, 0))),
            None => assert!(
                required.is_double() || game.hand(game.to_act()).iter().all(|x| !x.is_double())
            ),
        }
    }
}

// ---- all_fives ----------------------------------------------------------------

#[test]
fn all_fives_spinner_takes_its_long_sides_before_its_short_ends() {
    let mut game = Position::new(
        rules("all_fives", 2),
        2,
        vec![
            vec![t(5, 5), t(6, 5), t(1, 1)],
            vec![t(5, 0), t(5, 4), t(2, 2)],
        ],
    )
    .game();
    let reports = play_all(&mut game, &[lead(0, t(5, 5)), on(1, t(5, 0), End::Left)]);
    assert_eq!(
        total_change(&reports),
        vec![10, 10],
        "5-5 alone 10; with 5-0, 10 + 0"
    );
    assert_eq!(
        game.legal_moves(),
        vec![on(0, t(6, 5), End::Right)],
        "no short end yet"
    );
    let reports = play_all(&mut game, &[on(0, t(6, 5), End::Right)]);
    assert_eq!(
        total_change(&reports),
        vec![0, 0],
        "0 + 6 once both sides are covered"
    );
    assert_eq!(game.layout().spinner(), Some(SpinnerAt::Lead));
    let moves = game.legal_moves();
    assert!(moves.contains(&on(1, t(5, 4), End::Up)));
    assert!(!moves.iter().any(|m| matches!(
        m.action,
        pips::rules::Action::Play {
            place,
            ..
        } if place.end() == Some(End::Down)
    )));
    let reports = play_all(&mut game, &[on(1, t(5, 4), End::Up)]);
    assert_eq!(total_change(&reports), vec![0, 10], "0 + 6 + 4");
    assert_eq!(
        game.layout().open_end(End::Down),
        Some(5),
        "the second short end opens"
    );
}

#[test]
fn all_fives_going_out_scores_r5_of_the_opponents_total() {
    // Opponents hold 12 and 12: r5(24) = 25 (muggins would give 20).
    let mut game = Position::new(
        rules("all_fives", 3),
        3,
        vec![
            vec![t(6, 1)],
            vec![t(5, 5), t(1, 1)],
            vec![t(4, 4), t(3, 1)],
        ],
    )
    .with_lead(t(6, 3))
    .game();
    let reports = play_all(&mut game, &[on(0, t(6, 1), End::Left)]);
    assert_eq!(total_change(&reports), vec![25, 0, 0]);
    assert_eq!(game.hand_leader(), 1, "the lead rotates to the left");
    assert_eq!(game.required_lead(), None, "a rotated lead may be any tile");
}

#[test]
fn all_fives_first_lead_is_by_lot_and_any_tile() {
    let all_fives = preset("all_fives").expect("all_fives");
    let mut leaders = std::collections::HashSet::new();
    for seed in 0..30 {
        let (game, _) = Game::new("all_fives", all_fives.rules(2, None), 2, seed).expect("valid");
        assert_eq!(game.required_lead(), None);
        assert_eq!(game.legal_moves().len(), 7, "any of the 7 tiles may lead");
        leaders.insert(game.to_act());
    }
    assert_eq!(leaders.len(), 2, "the lot picks either seat");
}

// ---- polish_muggins -------------------------------------------------------------

#[test]
fn polish_muggins_section_3_fifths_and_only_a_double_lead_spins() {
    // Ends 4-4 and 6-6 → 20 → 4 points; those later doubles never spin.
    let mut game = Position::new(
        rules("polish_muggins", 2),
        2,
        vec![vec![t(6, 6), t(1, 0)], vec![t(4, 4), t(2, 1)]],
    )
    .with_lead(t(6, 4))
    .game();
    let reports = play_all(
        &mut game,
        &[on(0, t(6, 6), End::Left), on(1, t(4, 4), End::Right)],
    );
    assert_eq!(game.ends_total(), 20);
    assert_eq!(total_change(&reports), vec![0, 4]);
    assert_eq!(game.layout().spinner(), None);
    assert_eq!(game.open_ends().count(), 2);
}

#[test]
fn polish_muggins_double_lead_opens_four_ways() {
    let mut game = Position::new(
        rules("polish_muggins", 2),
        2,
        vec![
            vec![t(5, 5), t(5, 1), t(6, 6)],
            vec![t(5, 0), t(5, 3), t(4, 4)],
        ],
    )
    .game();
    play_all(
        &mut game,
        &[
            lead(0, t(5, 5)),
            on(1, t(5, 0), End::Left),
            on(0, t(5, 1), End::Right),
        ],
    );
    assert_eq!(game.layout().spinner(), Some(SpinnerAt::Lead));
    assert!(game.legal_moves().contains(&on(1, t(5, 3), End::Up)));
}

#[test]
fn polish_muggins_hand_end_is_r5_of_the_total_divided_by_5() {
    let mut game = Position::new(
        rules("polish_muggins", 2),
        2,
        vec![vec![t(6, 1)], vec![t(5, 5), t(1, 1)]],
    )
    .with_lead(t(6, 3))
    .game();
    let reports = play_all(&mut game, &[on(0, t(6, 1), End::Left)]);
    assert_eq!(total_change(&reports), vec![2, 0], "r5(12) / 5 = 2");
}

// ---- threes -------------------------------------------------------------------

#[test]
fn threes_scores_thirds_of_multiples_of_three() {
    let mut game = Position::new(
        rules("threes", 2),
        2,
        vec![vec![t(6, 3), t(1, 0)], vec![t(3, 3), t(2, 1)]],
    )
    .game();
    let reports = play_all(&mut game, &[lead(0, t(6, 3)), on(1, t(3, 3), End::Right)]);
    assert_eq!(
        total_change(&reports),
        vec![3, 4],
        "9 → 3, then 6 + 6 = 12 → 4"
    );
}

#[test]
fn threes_has_no_spinner() {
    let mut game = Position::new(
        rules("threes", 2),
        2,
        vec![
            vec![t(4, 4), t(4, 2), t(6, 6)],
            vec![t(4, 1), t(4, 3), t(5, 5)],
        ],
    )
    .game();
    play_all(
        &mut game,
        &[
            lead(0, t(4, 4)),
            on(1, t(4, 1), End::Left),
            on(0, t(4, 2), End::Right),
        ],
    );
    assert_eq!(game.layout().spinner(), None);
    assert_eq!(
        game.legal_moves(),
        vec![Move::draw(1)],
        "4-3 fits no end: 1 and 2 show"
    );
}

#[test]
fn threes_hand_end_rounds_to_threes_then_divides() {
    // Opponents hold 7 and 7: total 14 → 15 → 5 points.
    let mut game = Position::new(
        rules("threes", 3),
        3,
        vec![vec![t(6, 1)], vec![t(5, 2)], vec![t(4, 3)]],
    )
    .with_lead(t(6, 4))
    .game();
    let reports = play_all(&mut game, &[on(0, t(6, 1), End::Left)]);
    // The last tile leaves ends 1 and 4 (5, no score under threes).
    assert_eq!(total_change(&reports), vec![5, 0, 0]);
}

// ---- polish_ordinary ------------------------------------------------------------

#[test]
fn polish_ordinary_closing_wins_the_round() {
    // Ends 3 and 5; 5-3 closes and is credited with the opponent's pips.
    let mut position = Position::new(
        rules("polish_ordinary", 2),
        2,
        vec![vec![t(5, 3), t(6, 6)], vec![t(2, 2), t(4, 1)]],
    )
    .with_lead(t(3, 1));
    position.right = vec![Placed { inner: 1, outer: 5 }];
    let mut game = position.game();
    let reports = play_all(&mut game, &[on(0, t(5, 3), End::Left)]);
    assert!(ended_with(&reports, HandEnd::Closed(0)));
    assert_eq!(total_change(&reports), vec![9, 0]);
    assert_eq!(
        points_of(&reports[0].events),
        vec![(0, 9, ScoreReason::Closed)]
    );
}

#[test]
fn polish_ordinary_closing_with_the_last_tile_is_going_out() {
    let mut position = Position::new(
        rules("polish_ordinary", 2),
        2,
        vec![vec![t(5, 3)], vec![t(2, 2), t(4, 1)]],
    )
    .with_lead(t(3, 1));
    position.right = vec![Placed { inner: 1, outer: 5 }];
    let mut game = position.game();
    let reports = play_all(&mut game, &[on(0, t(5, 3), End::Right)]);
    assert!(ended_with(&reports, HandEnd::Domino(0)));
}

#[test]
fn polish_ordinary_blocked_winner_takes_raw_pips_without_subtraction() {
    let (game, report) =
        blocked_after_six_five("polish_ordinary", &[t(2, 1), t(4, 0)], &[t(4, 4), t(3, 2)]);
    assert!(ended_with(std::slice::from_ref(&report), HandEnd::Blocked));
    assert_eq!(game.scores(), &[13, 0]);
}

// ---- matador ------------------------------------------------------------------

#[test]
fn matador_a_blank_end_takes_only_a_matador_which_leaves_it_open() {
    let mut game = Position::new(
        rules("matador", 2),
        2,
        vec![vec![t(4, 3), t(6, 6)], vec![t(2, 2), t(1, 1)]],
    )
    .with_lead(t(5, 0))
    .game();
    assert_eq!(
        game.legal_moves(),
        vec![on(0, t(4, 3), End::Left), on(0, t(4, 3), End::Right)],
        "6-6 needs a 1; the matador goes on either end"
    );
    play_all(&mut game, &[on(0, t(4, 3), End::Right)]);
    assert_eq!(
        game.layout().open_end(End::Right),
        Some(0),
        "the crossed blank stays open"
    );
    // 2-2 touches the 5 (2 + 5 = 7) and shows 2; 1-1 fits nowhere.
    assert_eq!(game.legal_moves(), vec![on(1, t(2, 2), End::Left)]);
    play_all(&mut game, &[on(1, t(2, 2), End::Left)]);
    assert_eq!(game.layout().open_end(End::Left), Some(2));
}

#[test]
fn matador_double_blank_crosses_any_end() {
    let game = Position::new(
        rules("matador", 2),
        2,
        vec![vec![t(0, 0), t(6, 6)], vec![t(2, 2), t(1, 1)]],
    )
    .with_lead(t(5, 3))
    .game();
    assert_eq!(
        game.legal_moves(),
        vec![on(0, t(0, 0), End::Left), on(0, t(0, 0), End::Right)]
    );
}

#[test]
fn matador_going_out_credits_raw_pips() {
    let mut game = Position::new(
        rules("matador", 2),
        2,
        vec![vec![t(6, 2)], vec![t(5, 5), t(1, 1)]],
    )
    .with_lead(t(3, 1))
    .game();
    let reports = play_all(&mut game, &[on(0, t(6, 2), End::Right)]);
    assert_eq!(total_change(&reports), vec![12, 0]);
}

// ---- fives_and_threes -------------------------------------------------------------

#[test]
fn fives_and_threes_section_3_overshoot_voids_both() {
    // On 59, a play worth 2 (ends 4 + 2 = 6) plus 1 for going out is 62.
    let mut game = Position::new(
        rules("fives_and_threes", 2),
        2,
        vec![vec![t(2, 1)], vec![t(6, 6), t(5, 5)]],
    )
    .with_lead(t(4, 1))
    .with_scores(vec![59, 0])
    .game();
    let reports = play_all(&mut game, &[on(0, t(2, 1), End::Right)]);
    assert_eq!(game.scores(), &[59, 0]);
    assert_eq!(
        voided(&reports[0].events),
        vec![(2, ScoreReason::Ends), (1, ScoreReason::Domino)]
    );
    assert_eq!(game.outcome(), None);
}

#[test]
fn fives_and_threes_exactly_61_wins() {
    let mut game = Position::new(
        rules("fives_and_threes", 2),
        2,
        vec![vec![t(2, 1), t(6, 6)], vec![t(5, 5), t(3, 0)]],
    )
    .with_lead(t(4, 1))
    .with_scores(vec![59, 0])
    .game();
    play_all(&mut game, &[on(0, t(2, 1), End::Right)]);
    assert_eq!(game.outcome(), Some(Outcome::Winner(0)));
    let mut game = Position::new(
        rules("fives_and_threes", 2),
        2,
        vec![vec![t(2, 1)], vec![t(6, 6), t(5, 5)]],
    )
    .with_lead(t(4, 1))
    .with_scores(vec![58, 0])
    .game();
    play_all(&mut game, &[on(0, t(2, 1), End::Right)]);
    assert_eq!(game.scores(), &[61, 0], "2 + 1 together reach 61 exactly");
    assert_eq!(game.outcome(), Some(Outcome::Winner(0)));
}

#[test]
fn fives_and_threes_knocks_and_a_blocked_hand_scores_nothing() {
    let game = Position::new(
        rules("fives_and_threes", 2),
        2,
        vec![vec![t(1, 0)], vec![t(6, 2), t(2, 1)]],
    )
    .with_lead(t(6, 6))
    .game();
    assert_eq!(game.legal_moves(), vec![Move::pass(0)], "no drawing: knock");
    let (game, report) =
        blocked_after_six_five("fives_and_threes", &[t(2, 1), t(4, 0)], &[t(4, 4), t(3, 2)]);
    assert!(ended_with(std::slice::from_ref(&report), HandEnd::Blocked));
    assert_eq!(game.scores(), &[0, 0]);
}

// ---- block --------------------------------------------------------------------

#[test]
fn block_passes_instead_of_drawing() {
    let game = Position::new(
        rules("block", 2),
        2,
        vec![vec![t(1, 0)], vec![t(6, 2), t(2, 1)]],
    )
    .with_lead(t(6, 6))
    .game();
    assert!(game.boneyard_len() > 0);
    assert_eq!(game.legal_moves(), vec![Move::pass(0)]);
}

#[test]
fn block_blocked_tie_scores_nothing_and_play_goes_on() {
    let (game, report) = blocked_after_six_five("block", &[t(2, 1)], &[t(3, 0)]);
    assert!(ended_with(std::slice::from_ref(&report), HandEnd::Blocked));
    assert_eq!(game.scores(), &[0, 0]);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.hand_number(), 3);
    assert_eq!(game.hand_leader(), 1, "the lead rotates");
    assert_eq!(game.required_lead(), None);
}

#[test]
fn block_blocked_winner_gets_opponents_minus_own_and_targets_follow_sides() {
    let (game, _) = blocked_after_six_five("block", &[t(2, 1), t(4, 0)], &[t(4, 4), t(3, 2)]);
    assert_eq!(game.scores(), &[6, 0]);
    let block = preset("block").expect("block");
    assert_eq!(block.rules(2, None).target, 100);
    assert_eq!(block.rules(4, None).target, 100);
    assert_eq!(block.rules(3, None).target, 61);
    assert_eq!(block.rules(4, Some(false)).target, 61);
}

// ---- sniff --------------------------------------------------------------------

#[test]
fn sniff_section_1_counts() {
    // 4-4 alone = 8; 6-4 → 14; 4-1 → 15 (scores); 4-0 from a short end → 11.
    let mut game = Position::new(
        rules("sniff", 2),
        2,
        vec![
            vec![t(4, 4), t(4, 1), t(1, 1)],
            vec![t(6, 4), t(4, 0), t(2, 2)],
        ],
    )
    .game();
    let totals: Vec<u32> = [
        lead(0, t(4, 4)),
        on(1, t(6, 4), End::Left),
        on(0, t(4, 1), End::Right),
        on(1, t(4, 0), End::Up),
    ]
    .into_iter()
    .map(|mv| {
        play_all(&mut game, &[mv]);
        game.ends_total()
    })
    .collect();
    assert_eq!(totals, vec![8, 14, 15, 11]);
    assert_eq!(game.scores(), &[15, 0]);
}

#[test]
fn sniff_first_double_spins_even_when_played_later() {
    let mut game = Position::new(
        rules("sniff", 2),
        2,
        vec![vec![t(6, 4), t(1, 0)], vec![t(4, 4), t(2, 1)]],
    )
    .game();
    play_all(&mut game, &[lead(0, t(6, 4)), on(1, t(4, 4), End::Right)]);
    assert_eq!(
        game.layout().spinner(),
        Some(SpinnerAt::Arm {
            end: End::Right,
            index: 0
        })
    );
    assert_eq!(
        game.ends_total(),
        14,
        "6 + the short ends 4 + 4; its long side not counted"
    );
}

#[test]
fn sniff_blocked_hand_forces_the_next_lead() {
    let (game, report) = blocked_after_six_five("sniff", &[t(2, 1), t(4, 0)], &[t(4, 4), t(3, 2)]);
    assert!(ended_with(std::slice::from_ref(&report), HandEnd::Blocked));
    assert!(game.required_lead().is_some_and(|tile| tile.is_double()));
}

// ---- seven_rocks ----------------------------------------------------------------

#[test]
fn seven_rocks_deals_every_tile_to_two_partnerships() {
    let rocks = preset("seven_rocks").expect("seven_rocks");
    assert_eq!(rocks.players, 4..=4);
    let (game, _) = Game::new("seven_rocks", rocks.rules(4, None), 4, 9).expect("valid");
    assert_eq!(game.boneyard_len(), 0);
    assert!((0..4).all(|s| game.hand(s).len() == 7));
    assert_eq!(game.sides(), 2);
}

/// Seven Rocks with 6-3 led and seat 0 to go out with 6-1 on the left;
/// seat 2 (its partner) holds 8 pips, seats 1 and 3 hold 12 and 3.
fn seven_rocks_seat_0_to_go_out(scores: Vec<i32>) -> Game {
    Position::new(
        rules("seven_rocks", 4),
        4,
        vec![
            vec![t(6, 1)],
            vec![t(5, 5), t(1, 1)],
            vec![t(4, 4)],
            vec![t(2, 1)],
        ],
    )
    .with_lead(t(6, 3))
    .with_scores(scores)
    .game()
}

#[test]
fn seven_rocks_each_hand_subtracts_every_players_r5_pips() {
    // Seat 0 goes out; seat 2 (partner) holds 8 → 10, seats 1 and 3 hold
    // 12 → 10 and 3 → 5: side 0 loses 10, side 1 loses 15.
    let mut game = seven_rocks_seat_0_to_go_out(vec![20, 5]);
    let reports = play_all(&mut game, &[on(0, t(6, 1), End::Left)]);
    assert_eq!(game.scores(), &[10, -10], "scores may go below 0");
    assert!(
        points_of(&reports[0].events)
            .iter()
            .all(|&(_, p, r)| p < 0 && r == ScoreReason::OwnPips)
    );
}

#[test]
fn seven_rocks_spinner_scores_as_all_fives() {
    let mut game = Position::new(
        rules("seven_rocks", 4),
        4,
        vec![
            vec![t(5, 5), t(1, 0)],
            vec![t(5, 0), t(2, 1)],
            vec![t(6, 6), t(3, 1)],
            vec![t(4, 4), t(4, 1)],
        ],
    )
    .game();
    let reports = play_all(&mut game, &[lead(0, t(5, 5)), on(1, t(5, 0), End::Left)]);
    assert_eq!(total_change(&reports), vec![10, 10]);
    assert_eq!(game.layout().spinner(), Some(SpinnerAt::Lead));
}

// ---- house rules ------------------------------------------------------------------

#[test]
fn one_then_pass_draws_a_single_tile_then_passes() {
    let mut rules = rules("polish_ordinary", 2);
    rules.draw = DrawRule::OneThenPass;
    let mut game = Position::new(rules, 2, vec![vec![t(1, 0)], vec![t(6, 2), t(2, 1)]])
        .with_lead(t(6, 6))
        .game();
    assert_eq!(game.legal_moves(), vec![Move::draw(0)]);
    game.play(Move::draw(0)).expect("one draw");
    assert!(game.drew_this_turn());
    // The boneyard is in tile order, so the tile drawn is 0-0: it fits no 6.
    assert!(game.hand(0).contains(t(0, 0)));
    assert_eq!(game.legal_moves(), vec![Move::pass(0)]);
    assert!(matches!(
        game.check(Move::draw(0)),
        Err(pips::rules::PlayError::CannotDraw { .. })
    ));
    game.play(Move::pass(0)).expect("pass");
    assert!(!game.drew_this_turn());
    assert_eq!(game.to_act(), 1);
}

#[test]
fn unplayable_house_rules_are_refused_naming_the_option() {
    type Breakage = fn(&mut pips::rules::Rules);
    let cases: [(&str, Breakage); 12] = [
        ("partnerships", |r| r.partnerships = true),
        ("hand_size", |r| r.hand_size = 15),
        ("target", |r| r.target = 0),
        ("connect", |r| r.layout = LayoutRule::FirstDoubleSpinner),
        ("closing_wins", |r| r.layout = LayoutRule::Sniff),
        ("count_partner", |r| r.count_partner = true),
        ("capicua_bonus", |r| {
            r.closing_wins = false;
            r.capicua_bonus = 25;
            r.layout = LayoutRule::FirstDoubleSpinner;
        }),
        ("capicua_bonus", |r| r.capicua_bonus = 1_001),
        ("pass_bonus", |r| {
            r.pass_bonus = 25;
            r.match_end = pips::rules::MatchEnd::SingleHand;
            r.target = 0;
        }),
        ("pass_bonus", |r| {
            r.pass_bonus = 25;
            r.settlement = pips::rules::Settlement::PenaltyOwnPips;
            r.match_end = pips::rules::MatchEnd::LoseAtTarget;
        }),
        ("settlement", |r| {
            r.settlement = pips::rules::Settlement::SubtractOwnRounded;
        }),
        ("match_end", |r| {
            r.match_end = pips::rules::MatchEnd::ExactTarget
        }),
    ];
    for (option, break_it) in cases {
        let variant = if option == "connect" {
            "matador"
        } else {
            "polish_ordinary"
        };
        let mut rules = rules(variant, 3);
        break_it(&mut rules);
        let error = Game::new(variant, rules, 3, 1).expect_err("refused");
        assert_eq!(error.option.name(), option, "{error}");
    }
}

// ---- the Latin partnership games ----------------------------------------------------

/// A Latin game's position with 6-6 on the table and `blocker` to play 6-5
/// on the left, after which nobody holds a 5 or a 6: the hand is a
/// tranque. `rest[seat]`: each seat's other tiles; `leader`: the hand's
/// leader.
fn latin_tranque(
    variant: &str,
    blocker: u8,
    leader: u8,
    rest: [Vec<pips::rules::Tile>; 4],
) -> (Game, pips::rules::Report) {
    let hands = rest
        .into_iter()
        .enumerate()
        .map(|(seat, mut tiles)| {
            if seat == usize::from(blocker) {
                tiles.insert(0, t(6, 5));
            }
            tiles
        })
        .collect();
    let mut position = Position::new(rules(variant, 4), 4, hands).with_lead(t(6, 6));
    position.to_act = blocker;
    position.leader = Some(leader);
    let mut game = position.game();
    let report = game.play(on(blocker, t(6, 5), End::Left)).expect("legal");
    assert!(ended_with(std::slice::from_ref(&report), HandEnd::Blocked));
    (game, report)
}

#[test]
fn latin_games_deal_lead_and_seat_as_their_sections_say() {
    for (variant, max_pip, tiles, out_of_play) in [
        ("puerto_rican", 6, 7, 0),
        ("cuban", 9, 10, 15),
        ("dominican", 6, 7, 0),
    ] {
        let preset = preset(variant).expect("preset");
        assert_eq!(preset.players, 4..=4);
        let rules = preset.rules(4, None);
        assert!(rules.partnerships);
        assert_eq!(rules.max_pip, max_pip);
        for seed in 0..20 {
            let (game, _) = Game::new(variant, rules, 4, seed).expect("valid");
            assert!((0..4).all(|s| game.hand(s).len() == tiles), "{variant}");
            assert_eq!(game.boneyard_len(), out_of_play);
            if variant == "cuban" {
                assert_eq!(game.required_lead(), None, "cuban leads by lot, any tile");
            } else {
                assert_eq!(game.required_lead(), Some(t(6, 6)));
                assert!(game.hand(game.to_act()).contains(t(6, 6)));
            }
        }
    }
}

#[test]
fn puerto_rican_going_out_scores_all_three_other_hands() {
    // Partner 5-4 2-0 (11), opponents 6-6 3-1 (16) and 4-4 0-0 (8): 35.
    let mut game = Position::new(
        rules("puerto_rican", 4),
        4,
        vec![
            vec![t(6, 1)],
            vec![t(6, 6), t(3, 1)],
            vec![t(5, 4), t(2, 0)],
            vec![t(4, 4), t(0, 0)],
        ],
    )
    .with_lead(t(6, 3))
    .game();
    let reports = play_all(&mut game, &[on(0, t(6, 1), End::Left)]);
    assert_eq!(total_change(&reports), vec![35, 0]);
    assert_eq!(
        points_of(&reports[0].events),
        vec![(0, 35, ScoreReason::Domino)]
    );
    assert_eq!((game.hand_leader(), game.required_lead()), (0, None));
}

#[test]
fn puerto_rican_tranque_the_lower_side_scores_both_totals_and_the_blocker_leads() {
    // Side 0+2: 2-2 and 4-3 (11); side 1+3: 4-4 1-1 and 4-1 4-0 (19): 30.
    let rest = || {
        [
            vec![t(2, 2)],
            vec![t(4, 4), t(1, 1)],
            vec![t(4, 3)],
            vec![t(4, 1), t(4, 0)],
        ]
    };
    let (game, report) = latin_tranque("puerto_rican", 0, 3, rest());
    assert_eq!(report.score_change, vec![30, 0]);
    assert_eq!(game.hand_leader(), 0, "the blocker's side won: it leads");
    // The same tranque made by seat 1, whose side lost: seat 2 leads.
    let mut rest = rest();
    rest[0].push(t(1, 0));
    rest[1].retain(|&tile| tile != t(1, 1));
    rest[1].push(t(1, 1));
    let (game, report) = latin_tranque("puerto_rican", 1, 3, rest);
    assert_eq!(report.score_change, vec![31, 0]);
    assert_eq!(
        game.hand_leader(),
        2,
        "the blocker's side lost: the next seat leads"
    );
}

#[test]
fn latin_tied_tranque_scores_nothing_and_the_leader_leads_again() {
    // 12 against 12, blocked by seat 1 in a hand seat 3 led.
    for variant in ["puerto_rican", "cuban", "dominican"] {
        let (game, report) = latin_tranque(
            variant,
            1,
            3,
            [
                vec![t(4, 4)],
                vec![t(3, 1)],
                vec![t(2, 2)],
                vec![t(4, 3), t(1, 0)],
            ],
        );
        assert_eq!(report.score_change, vec![0, 0], "{variant}");
        assert!(
            points_of(&report.events).is_empty(),
            "{variant}: no pase corrido either"
        );
        assert_eq!(game.hand_leader(), 3, "{variant}");
        assert_eq!(game.required_lead(), None, "{variant}");
    }
}

#[test]
fn cuban_credits_only_the_opponents_pips() {
    // Going out: opponents 9-8 1-0 (18) and 7-7 (14) give 32; the partner's
    // 5-4 2-0 do not count.
    let mut game = Position::new(
        rules("cuban", 4),
        4,
        vec![
            vec![t(9, 1)],
            vec![t(9, 8), t(1, 0)],
            vec![t(5, 4), t(2, 0)],
            vec![t(7, 7)],
        ],
    )
    .with_lead(t(9, 9))
    .game();
    let reports = play_all(&mut game, &[on(0, t(9, 1), End::Left)]);
    assert_eq!(total_change(&reports), vec![32, 0]);
    // Tranque: 11 against 19 scores the opponents' 19.
    let (_, report) = latin_tranque(
        "cuban",
        0,
        0,
        [
            vec![t(2, 2)],
            vec![t(4, 4), t(1, 1)],
            vec![t(4, 3)],
            vec![t(4, 1), t(4, 0)],
        ],
    );
    assert_eq!(report.score_change, vec![19, 0]);
}

/// A dominican position: 6-6 led, seat 0 to place 6-3 on the left and seat
/// 1 6-5 on the right, so the ends show 3 and 5 for seat 2.
fn dominican_three_five(seat2: Vec<pips::rules::Tile>) -> Game {
    Position::new(
        rules("dominican", 4),
        4,
        vec![
            vec![t(6, 3), t(1, 1)],
            vec![t(6, 5), t(2, 2)],
            seat2,
            vec![t(4, 4), t(0, 0)],
        ],
    )
    .with_lead(t(6, 6))
    .game()
}

#[test]
fn dominican_capicua_scores_its_bonus_before_the_hand() {
    for end in [End::Left, End::Right] {
        let mut game = dominican_three_five(vec![t(5, 3)]);
        let reports = play_all(
            &mut game,
            &[
                on(0, t(6, 3), End::Left),
                on(1, t(6, 5), End::Right),
                on(2, t(5, 3), end),
            ],
        );
        // 25, then every other hand: 1-1, 2-2, 4-4 and 0-0 (14).
        assert_eq!(
            points_of(&reports[2].events),
            vec![(0, 25, ScoreReason::Capicua), (0, 14, ScoreReason::Domino)]
        );
        assert_eq!(game.scores(), &[39, 0]);
    }
}

#[test]
fn a_double_or_a_one_ended_fit_is_no_capicua() {
    // Ends 3 and 5; seat 2 goes out with 5-5 (a double) or 3-0 (one end).
    for last in [t(5, 5), t(3, 0)] {
        let mut game = dominican_three_five(vec![last]);
        let end = if last == t(5, 5) {
            End::Right
        } else {
            End::Left
        };
        let reports = play_all(
            &mut game,
            &[
                on(0, t(6, 3), End::Left),
                on(1, t(6, 5), End::Right),
                on(2, last, end),
            ],
        );
        assert!(
            points_of(&reports[2].events)
                .iter()
                .all(|&(_, _, reason)| reason == ScoreReason::Domino),
            "{last}"
        );
    }
}

#[test]
fn dominican_pase_corrido_scores_once_every_other_seat_has_passed() {
    // Seat 2 places 4-4 on 6-4's 4; nobody else holds a 4 or a 6.
    let mut position = Position::new(
        rules("dominican", 4),
        4,
        vec![
            vec![t(1, 1), t(3, 3)],
            vec![t(0, 0), t(2, 0)],
            vec![t(4, 4), t(4, 1)],
            vec![t(2, 2), t(3, 1)],
        ],
    )
    .with_lead(t(6, 4));
    position.to_act = 2;
    let mut game = position.game();
    let reports = play_all(
        &mut game,
        &[
            on(2, t(4, 4), End::Right),
            Move::pass(3),
            Move::pass(0),
            Move::pass(1),
        ],
    );
    assert!(reports[..3].iter().all(|r| points_of(&r.events).is_empty()));
    assert_eq!(
        points_of(&reports[3].events),
        vec![(0, 25, ScoreReason::PassBonus)]
    );
    assert_eq!(game.to_act(), 2, "the placer plays again");
    // A bonus that reaches the target ends the match at once.
    let mut position = Position::new(
        rules("dominican", 4),
        4,
        vec![
            vec![t(6, 6), t(6, 5)],
            vec![t(0, 0), t(2, 0)],
            vec![t(1, 1), t(3, 3)],
            vec![t(2, 2), t(3, 1)],
        ],
    )
    .with_scores(vec![180, 199]);
    position.hand_number = 3;
    let mut game = position.game();
    play_all(
        &mut game,
        &[
            lead(0, t(6, 6)),
            Move::pass(1),
            Move::pass(2),
            Move::pass(3),
        ],
    );
    assert_eq!(game.scores(), &[205, 199]);
    assert_eq!(game.outcome(), Some(Outcome::Winner(0)));
}

#[test]
fn seven_rocks_a_side_sunk_to_minus_the_target_ends_the_match() {
    // As seven_rocks_each_hand_subtracts_every_players_r5_pips: side 0
    // loses 10 and falls to −255; side 1 loses 15 and leads with −5.
    let mut game = seven_rocks_seat_0_to_go_out(vec![-245, 10]);
    play_all(&mut game, &[on(0, t(6, 1), End::Left)]);
    assert_eq!(game.scores(), &[-255, -5]);
    assert_eq!(game.outcome(), Some(Outcome::Winner(1)));
}
