//! Every rule of the checked constructor `Game::from_setup`, each broken on
//! purpose: the state is refused with the right reason and field.

use pips::rules::presets::preset;
use pips::rules::{Action, Game, HistoryEntry, Move, Outcome, Place, Placed, Setup, Tile};
use pips::service::ApiError;

/// A fresh 2-player muggins state (hand 1, forced lead not yet played).
fn fresh() -> Setup {
    let rules = preset("muggins").expect("muggins").rules(2, None);
    let (game, _) = Game::new("muggins", rules, 2, 21).expect("valid");
    Setup::from(&game)
}

/// The same game after its lead and one more move.
fn underway() -> Setup {
    let rules = preset("muggins").expect("muggins").rules(2, None);
    let (mut game, _) = Game::new("muggins", rules, 2, 21).expect("valid");
    for _ in 0..2 {
        let mv = game.legal_moves()[0];
        game.play(mv).expect("legal");
    }
    Setup::from(&game)
}

/// The reason and the field (relative to the state) a setup is refused for,
/// as the service reports them.
fn refused(setup: Setup) -> (String, String) {
    let error = Game::from_setup(setup).expect_err("refused");
    let api = ApiError::from_setup(&error, "");
    (api.reason.as_str_name().to_owned(), api.field)
}

fn assert_refused(setup: Setup, reason: &str, field: &str) {
    assert_eq!(refused(setup), (reason.to_owned(), field.to_owned()));
}

#[test]
fn reachable_states_are_accepted() {
    assert!(Game::from_setup(fresh()).is_ok());
    assert!(Game::from_setup(underway()).is_ok());
}

#[test]
fn rules_and_players() {
    let mut setup = fresh();
    setup.players = 9;
    assert_refused(setup, "ERROR_REASON_INVALID_RULES", "players");
    let mut setup = fresh();
    setup.rules.hand_size = 0;
    assert_refused(setup, "ERROR_REASON_INVALID_RULES", "rules.hand_size");
    let mut setup = fresh();
    setup.rules.partnerships = true;
    assert_refused(setup, "ERROR_REASON_INVALID_RULES", "rules.partnerships");
}

#[test]
fn counts_of_hands_and_scores() {
    let mut setup = fresh();
    setup.hands.push(Vec::new());
    assert_refused(setup, "ERROR_REASON_INCONSISTENT_STATE", "hands");
    let mut setup = fresh();
    setup.scores.push(0);
    assert_refused(setup, "ERROR_REASON_INCONSISTENT_STATE", "scores");
    let mut setup = fresh();
    setup.scores[1] = -5;
    assert_refused(setup, "ERROR_REASON_INCONSISTENT_STATE", "scores[1]");
    let mut setup = fresh();
    setup.hand_number = 0;
    assert_refused(setup, "ERROR_REASON_INCONSISTENT_STATE", "hand_number");
    let mut setup = fresh();
    setup.hand_number = pips::rules::game::MAX_HANDS + 1;
    assert_refused(setup, "ERROR_REASON_INCONSISTENT_STATE", "hand_number");
}

#[test]
fn every_tile_exactly_once() {
    let mut setup = fresh();
    let copy = setup.hands[0][0];
    setup.hands[1].push(copy);
    assert_refused(setup, "ERROR_REASON_TILE_DUPLICATED", "hands[1].tiles[7]");
    let mut setup = fresh();
    setup.boneyard.pop();
    assert_refused(setup, "ERROR_REASON_TILE_MISSING", "");
    let mut setup = fresh();
    setup.boneyard[3] = Tile::new(9, 9);
    assert_refused(setup, "ERROR_REASON_INVALID_TILE", "boneyard[3]");
    let mut setup = underway();
    let lead = setup.lead.expect("lead");
    setup.boneyard.push(lead);
    assert_refused(setup, "ERROR_REASON_TILE_DUPLICATED", "layout.lead");
}

#[test]
fn layout_connections() {
    let mut setup = underway();
    let placed = setup
        .left
        .pop()
        .or_else(|| setup.right.pop())
        .expect("a placed tile");
    // Put it back turned around so its inner half no longer touches.
    let flipped = Placed {
        inner: placed.outer,
        outer: placed.inner,
    };
    assert!(
        !placed.is_double(),
        "this seed's second tile is no double, so turning it breaks the layout"
    );
    setup.left = vec![flipped];
    setup.right.clear();
    let (reason, field) = refused(setup);
    assert_eq!(reason, "ERROR_REASON_LAYOUT_MISMATCH");
    assert_eq!(field, "layout.left[0]");

    let mut setup = fresh();
    let tile = setup.boneyard.remove(0);
    setup.right.push(Placed {
        inner: tile.high(),
        outer: tile.low(),
    });
    assert_refused(setup, "ERROR_REASON_LAYOUT_MISMATCH", "layout.right");
}

#[test]
fn seats_in_range() {
    let mut setup = fresh();
    setup.to_act = 2;
    assert_refused(setup, "ERROR_REASON_SEAT_OUT_OF_RANGE", "to_act");
    let mut setup = fresh();
    setup.hand_leader = 300;
    assert_refused(setup, "ERROR_REASON_SEAT_OUT_OF_RANGE", "hand_leader");
    let mut setup = underway();
    setup.history[0].mv.seat = 3;
    assert_refused(setup, "ERROR_REASON_SEAT_OUT_OF_RANGE", "history[0].seat");
}

#[test]
fn the_hands_history_plays_and_draws_each_tile_once() {
    let entry = |seat, action, drawn| HistoryEntry {
        mv: Move { seat, action },
        drawn,
    };
    let mut setup = underway();
    let first = setup.history[0];
    setup.history.push(first);
    assert_refused(
        setup,
        "ERROR_REASON_INCONSISTENT_STATE",
        "history[2].play.tile",
    );
    let mut setup = underway();
    let lead = Action::Play {
        tile: Tile::new(7, 7),
        place: Place::LEAD,
    };
    setup.history.push(entry(0, lead, None));
    assert_refused(setup, "ERROR_REASON_INVALID_TILE", "history[2].play.tile");
    // A draw names a tile its drawer holds (or has placed), once; and it
    // must be a draw the seat could make (this seat could place a tile).
    let mut setup = underway();
    let own = setup.hands[0][0];
    let theirs = setup.hands[1][0];
    setup.history.push(entry(0, Action::Draw, Some(own)));
    assert_refused(
        setup.clone(),
        "ERROR_REASON_INCONSISTENT_STATE",
        "history[2]",
    );
    setup.history.push(entry(0, Action::Draw, Some(own)));
    assert_refused(
        setup,
        "ERROR_REASON_INCONSISTENT_STATE",
        "history[3].draw.tile",
    );
    let mut setup = underway();
    setup.history.push(entry(0, Action::Draw, Some(theirs)));
    assert_refused(
        setup,
        "ERROR_REASON_INCONSISTENT_STATE",
        "history[2].draw.tile",
    );
    let mut setup = underway();
    setup
        .history
        .push(entry(0, Action::Draw, Some(Tile::new(9, 0))));
    assert_refused(setup, "ERROR_REASON_INVALID_TILE", "history[2].draw.tile");
    // A draw names its tile: the state's history is the hand's record.
    let mut setup = underway();
    setup.history.push(entry(1, Action::Draw, None));
    assert_refused(
        setup,
        "ERROR_REASON_INCONSISTENT_STATE",
        "history[2].draw.tile",
    );
}

#[test]
fn phase_and_result() {
    let mut setup = fresh();
    setup.outcome = Some(Outcome::Winner(2));
    assert_refused(setup, "ERROR_REASON_INCONSISTENT_STATE", "result.winner");
    let mut setup = fresh();
    setup.scores[0] = 250;
    assert_refused(setup, "ERROR_REASON_INCONSISTENT_STATE", "scores[0]");
    let mut setup = fresh();
    setup.outcome = Some(Outcome::Winner(0));
    setup.scores[0] = 250;
    assert!(
        Game::from_setup(setup).is_ok(),
        "a finished match may be read"
    );
    let mut setup = fresh();
    let hand = std::mem::take(&mut setup.hands[1]);
    setup.boneyard.extend(hand);
    assert_refused(setup, "ERROR_REASON_INCONSISTENT_STATE", "hands[1]");
}

#[test]
fn a_blocked_table_in_play_is_refused() {
    // (A position set up by hand: no history, whose moves would not have
    // left these hands.)
    let mut setup = underway();
    setup.history.clear();
    setup.rules.draw = pips::rules::DrawRule::None;
    let ends: Vec<u8> = [setup.left.last(), setup.right.last()]
        .iter()
        .zip([setup.lead.map(|l| l.high()), setup.lead.map(|l| l.low())])
        .map(|(placed, lead_half)| placed.map_or(lead_half.unwrap_or(0), |p| p.outer))
        .collect();
    // Move every tile that fits an open end out of the hands.
    for hand in &mut setup.hands {
        let keep: Vec<Tile> = hand
            .iter()
            .copied()
            .filter(|t| !ends.iter().any(|&e| t.has(e)))
            .collect();
        let moved: Vec<Tile> = hand
            .iter()
            .copied()
            .filter(|t| ends.iter().any(|&e| t.has(e)))
            .collect();
        *hand = keep;
        setup.boneyard.extend(moved);
    }
    assert!(
        setup.hands.iter().all(|hand| !hand.is_empty()),
        "this seed leaves unplayable tiles in both hands"
    );
    assert_refused(setup, "ERROR_REASON_INCONSISTENT_STATE", "layout");
}

#[test]
fn leads() {
    let mut setup = fresh();
    setup.to_act = 1 - setup.to_act;
    assert_refused(setup, "ERROR_REASON_INCONSISTENT_STATE", "to_act");
    let mut setup = fresh();
    setup.required_lead = None;
    assert_refused(setup, "ERROR_REASON_INCONSISTENT_STATE", "required_lead");
    let mut setup = fresh();
    let seat = setup.to_act as usize;
    let other = setup.hands[seat]
        .iter()
        .copied()
        .find(|&t| Some(t) != setup.required_lead)
        .expect("another tile");
    setup.required_lead = Some(other);
    assert_refused(setup, "ERROR_REASON_INCONSISTENT_STATE", "required_lead");
    let mut setup = underway();
    setup.required_lead = setup.hands[0].first().copied();
    assert_refused(setup, "ERROR_REASON_INCONSISTENT_STATE", "required_lead");
}

/// A fresh 2-player game of `variant`, as a setup.
fn fresh_of(variant: &str, players: u8) -> Setup {
    let rules = preset(variant).expect("preset").rules(players, None);
    let (mut game, _) = Game::new(variant, rules, players, 5).expect("valid");
    let mv = game.legal_moves()[0];
    game.play(mv).expect("legal");
    Setup::from(&game)
}

#[test]
fn spinner_and_turn_state() {
    // All fives after its lead; a spinner where none can be is refused.
    let mut setup = fresh_of("all_fives", 2);
    let lead = setup.lead.expect("lead");
    setup.spinner = if lead.is_double() {
        None
    } else {
        Some(pips::rules::SpinnerAt::Lead)
    };
    assert_refused(setup, "ERROR_REASON_LAYOUT_MISMATCH", "layout.spinner");

    let mut setup = fresh_of("threes", 2);
    setup.spinner = Some(pips::rules::SpinnerAt::Lead);
    assert_refused(setup, "ERROR_REASON_LAYOUT_MISMATCH", "layout.spinner");

    let mut setup = fresh_of("muggins", 2);
    setup.drew_this_turn = true;
    assert_refused(setup, "ERROR_REASON_INCONSISTENT_STATE", "drew_this_turn");

    // Subtractive scoring may go below 0; other scoring may not.
    let mut setup = fresh_of("seven_rocks", 4);
    setup.scores = vec![-20, 15];
    assert!(Game::from_setup(setup).is_ok());
}

#[test]
fn history_names_the_tiles_on_the_table() {
    // The history plays a tile that is not on the table.
    let mut setup = underway();
    let elsewhere = setup.boneyard[0];
    let last_play = setup
        .history
        .iter_mut()
        .rev()
        .find(|e| matches!(e.mv.action, Action::Play { .. }))
        .expect("a play");
    if let Action::Play { tile, .. } = &mut last_play.mv.action {
        *tile = elsewhere;
    }
    assert_refused(
        setup,
        "ERROR_REASON_INCONSISTENT_STATE",
        "history[1].play.tile",
    );

    // The same tile played twice in one hand.
    let mut setup = underway();
    let first = setup.history[0];
    setup.history.push(first);
    assert_refused(
        setup,
        "ERROR_REASON_INCONSISTENT_STATE",
        "history[2].play.tile",
    );

    // A train table's moves have no place in a line's history: an end of
    // turn, a tile on a train.
    let mut setup = underway();
    setup.history.push(HistoryEntry {
        mv: Move::end_turn(0),
        drawn: None,
    });
    assert_refused(setup, "ERROR_REASON_INCONSISTENT_STATE", "history[2]");
    let mut setup = underway();
    if let Action::Play { place, .. } = &mut setup.history[1].mv.action {
        *place = Place::on_train(pips::rules::TrainId::Mexican);
    }
    assert_refused(setup, "ERROR_REASON_INCONSISTENT_STATE", "history[1]");

    // A state with no history, or part of one (a position set up by hand,
    // and the moves since), is read.
    let mut setup = underway();
    setup.history.clear();
    assert!(Game::from_setup(setup.clone()).is_ok());
    setup.history.truncate(0);
    let mut game = Game::from_setup(setup).expect("valid");
    let mv = game.legal_moves()[0];
    game.play(mv).expect("legal");
    assert!(Game::from_setup(Setup::from(&game)).is_ok());
}

#[test]
fn the_variant_label_is_short_printable_text() {
    for label in ["muggins", "", "Our house rules (v2)"] {
        let mut setup = fresh();
        setup.variant = label.to_owned();
        assert!(Game::from_setup(setup).is_ok(), "{label:?}");
    }
    for label in [
        "x".repeat(65),
        "\u{202e}sniff".to_owned(),
        "a\0b".to_owned(),
        "tab\there".to_owned(),
        "\u{1}".repeat(1_000_000),
    ] {
        let mut setup = fresh();
        setup.variant = label;
        assert_refused(setup, "ERROR_REASON_VARIANT_LABEL_INVALID", "variant");
    }
}

/// A game of `variant` with `players` seats after `moves` of its legal
/// moves (the `pick`th of each, wrapping), or before, if its match ends.
fn played(variant: &str, players: u8, moves: usize, pick: usize) -> Game {
    let rules = preset(variant).expect(variant).rules(players, None);
    let (mut game, _) = Game::new(variant, rules, players, 5).expect("valid");
    for _ in 0..moves {
        let legal = game.legal_moves();
        let Some(&mv) = legal.get(pick % legal.len().max(1)) else {
            break;
        };
        let mut next = game.clone();
        next.play(mv).expect("legal");
        if next.outcome().is_some() || next.hand_number() != game.hand_number() {
            break;
        }
        game = next;
    }
    game
}

/// Padding a state's history with moves nobody made is refused in every
/// family of game, by readable and packed states alike: a pass appended to
/// a history (the rest of the state unchanged), a history of a thousand
/// passes, and one longer than any hand of the largest set.
#[test]
fn padded_histories_are_refused_in_every_family() {
    use pips::rules::presets::PRESETS;
    use pips::service::codec::{decode_packed, encode_packed};
    for preset in PRESETS {
        for players in preset.players.clone() {
            let id = preset.id;
            for moves in [0, 1, 7, 20] {
                let game = played(id, players, moves, moves);
                let base = Setup::from(&game);
                assert!(Game::from_setup(base.clone()).is_ok(), "{id} {players}p");
                // A pass appended, the seat to act left as it was: refused
                // (an illegal pass where it stands, or the next seat to act).
                let mut setup = base.clone();
                setup.history.push(HistoryEntry {
                    mv: Move::pass(game.to_act()),
                    drawn: None,
                });
                let (reason, field) = refused(setup);
                assert_eq!(reason, "ERROR_REASON_INCONSISTENT_STATE", "{id} {players}p");
                let at = format!("history[{}]", base.history.len());
                assert!(field == at || field == "to_act", "{id} {players}p: {field}");
                // A thousand passes, by the seats in turn: refused at the
                // first that could not have been made, or as more moves
                // than a hand holds.
                let max = pips::rules::game::max_hand_moves(game.rules(), players);
                for count in [1000, max + 1] {
                    let mut setup = base.clone();
                    let seats = (0..players).cycle().skip(usize::from(game.to_act()));
                    setup
                        .history
                        .extend(seats.take(count).map(|seat| HistoryEntry {
                            mv: Move::pass(seat),
                            drawn: None,
                        }));
                    let too_long = setup.history.len() > max;
                    let (reason, field) = refused(setup);
                    assert_eq!(reason, "ERROR_REASON_INCONSISTENT_STATE", "{id} {players}p");
                    if too_long {
                        assert_eq!(field, "history", "{id} {players}p, {count} passes");
                    } else {
                        assert!(field.starts_with("history["), "{id} {players}p: {field}");
                    }
                }
                // The same as a packed state (an open token's body).
                let packed = encode_packed(&game);
                let pass = match game.rules().table {
                    pips::rules::TableKind::Line => vec![2u8 | (game.to_act() << 2), 0],
                    // (A trick game's move: its kind, plus 16 times its seat.)
                    pips::rules::TableKind::Tricks => vec![2u8 | (game.to_act() << 4), 0, 0],
                    _ => vec![2u8 | (game.to_act() << 2), 0, 0],
                };
                for count in [1usize, 1000, 499_000] {
                    let mut broken = packed.clone();
                    broken
                        .history
                        .extend(pass.iter().cycle().take(count * pass.len()));
                    let error = decode_packed(&broken, "state_token").expect_err("padded");
                    assert_eq!(
                        error.reason.as_str_name(),
                        "ERROR_REASON_INCONSISTENT_STATE"
                    );
                    let field = error.field.as_str();
                    assert!(
                        field.starts_with("state_token.history") || field == "state_token.to_act",
                        "{id} {players}p, {count} passes: {field}"
                    );
                }
            }
        }
    }
}

/// A pass where the seat had to draw, and a draw under rules without
/// drawing, are refused where they stand, whatever the rest of the state
/// says.
#[test]
fn a_pass_that_had_to_be_a_draw_is_refused() {
    // Find a turn where the seat to act must draw.
    let rules = preset("draw").expect("draw").rules(2, None);
    let (mut game, _) = Game::new("draw", rules, 2, 3).expect("valid");
    while game.legal_moves() != [Move::draw(game.to_act())] {
        let mv = game.legal_moves()[0];
        game.play(mv).expect("legal");
    }
    // The state as if it had passed: the next seat to act.
    let mut setup = Setup::from(&game);
    let seat = game.to_act();
    let index = setup.history.len();
    setup.history.push(HistoryEntry {
        mv: Move::pass(seat),
        drawn: None,
    });
    setup.to_act = u32::from(1 - seat);
    let error = Game::from_setup(setup.clone()).expect_err("refused");
    assert!(
        matches!(
            error,
            pips::rules::SetupError::HistoryMove {
                index: i,
                error: pips::rules::PlayError::MustDrawNotPass { .. }
            } if i == index
        ),
        "{error:?}"
    );
    assert_refused(
        setup,
        "ERROR_REASON_INCONSISTENT_STATE",
        &format!("history[{index}]"),
    );

    // Block has no drawing: a draw of a tile now held is refused.
    let rules = preset("block").expect("block").rules(2, None);
    let (mut game, _) = Game::new("block", rules, 2, 3).expect("valid");
    for _ in 0..3 {
        let mv = game.legal_moves()[0];
        game.play(mv).expect("legal");
    }
    let mut setup = Setup::from(&game);
    let seat = game.to_act();
    let index = setup.history.len();
    let tile = setup.hands[usize::from(seat)][0];
    setup.history.push(HistoryEntry {
        mv: Move::draw(seat),
        drawn: Some(tile),
    });
    assert_refused(
        setup,
        "ERROR_REASON_INCONSISTENT_STATE",
        &format!("history[{index}]"),
    );
}
