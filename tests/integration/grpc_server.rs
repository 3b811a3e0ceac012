//! Integration tests: the real server on 127.0.0.1:0, driven by a gRPC
//! client exactly as a backend or a bot would drive it.

use std::collections::HashSet;

use pips::proto::domino_engine_service_client::DominoEngineServiceClient;
use pips::proto::{self, r#move::Action};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use tonic::Code;
use tonic::transport::Channel;
use tonic_types::StatusExt;

use crate::server;
use server::TestServer;

fn new_game(variant: &str, players: u32, seed: u64) -> proto::NewGameRequest {
    proto::NewGameRequest {
        variant: variant.to_owned(),
        players,
        seed: Some(seed),
        ..Default::default()
    }
}

fn tile_key(tile: &proto::Tile) -> (u32, u32) {
    (tile.a.max(tile.b), tile.a.min(tile.b))
}

/// Every tile a view mentions anywhere.
fn tiles_in_view(view: &proto::ViewResponse) -> HashSet<(u32, u32)> {
    let mut tiles: HashSet<(u32, u32)> = view.hand.iter().map(tile_key).collect();
    tiles.extend(view.required_lead.iter().map(tile_key));
    if let Some(layout) = &view.layout {
        tiles.extend(layout.lead.iter().map(tile_key));
        for placed in layout.left.iter().chain(&layout.right) {
            tiles.insert((
                placed.inner.max(placed.outer),
                placed.inner.min(placed.outer),
            ));
        }
    }
    // The view's history is the current hand's: its plays are on the table.
    for entry in &view.history {
        match &entry.action {
            Some(proto::history_entry::Action::Play(play)) => {
                tiles.extend(play.tile.iter().map(tile_key));
            }
            Some(proto::history_entry::Action::Draw(draw)) => {
                assert!(draw.tile.is_none(), "a view names no drawn tile");
            }
            _ => {}
        }
    }
    for mv in &view.legal_moves {
        if let Some(Action::Play(play)) = &mv.action {
            tiles.extend(play.tile.iter().map(tile_key));
        }
    }
    tiles
}

/// Asks every seat's view and checks it shows its own hand and nothing
/// hidden: no other seat's tile, no boneyard tile.
async fn check_views(client: &mut DominoEngineServiceClient<Channel>, state: &proto::GameState) {
    for seat in 0..state.players {
        let view = client
            .view(proto::ViewRequest {
                state_source: Some(state.clone().into()),
                seat,
            })
            .await
            .expect("view")
            .into_inner();
        let own: Vec<_> = state.hands[seat as usize].tiles.clone();
        assert_eq!(view.hand, own, "seat {seat} sees its own hand");
        let hidden: HashSet<(u32, u32)> = state
            .hands
            .iter()
            .enumerate()
            .filter(|&(s, _)| s != seat as usize)
            .flat_map(|(_, hand)| hand.tiles.iter().map(tile_key))
            .chain(state.boneyard.iter().map(tile_key))
            .collect();
        let leaked: Vec<_> = tiles_in_view(&view)
            .intersection(&hidden)
            .copied()
            .collect();
        assert!(
            leaked.is_empty(),
            "seat {seat} sees hidden tiles {leaked:?}"
        );
        let sizes: Vec<u32> = state.hands.iter().map(|h| h.tiles.len() as u32).collect();
        assert_eq!(view.hand_sizes, sizes);
        assert_eq!(view.boneyard_size as usize, state.boneyard.len());
        assert_eq!(view.scores, state.scores);
    }
}

/// A hand-ending answer shows the hand as it finished: the final table and
/// every seat's tiles, whose pips are the counts given (0-0 counting
/// `double_blank`), and the seat that went out holding none.
fn check_finished_hands(events: &[proto::Event], players: u32, double_blank: u32) {
    use proto::hand_ended::EndedBy;
    for event in events {
        let Some(proto::event::Kind::HandEnded(ended)) = &event.kind else {
            continue;
        };
        let tricks = [
            proto::HandEndReason::Made,
            proto::HandEndReason::Set,
            proto::HandEndReason::AllPassed,
        ]
        .map(|reason| reason as i32);
        if tricks.contains(&ended.reason) {
            // A trick hand shows no table, and no tile left unplayed.
            assert!(ended.layout.is_none() && ended.trains.is_none() && ended.foot.is_none());
            assert!(ended.hands.is_empty() && ended.pips.is_empty());
            assert_eq!(
                matches!(ended.ended_by, Some(EndedBy::Bidder(_))),
                ended.reason != proto::HandEndReason::AllPassed as i32
            );
            continue;
        }
        match (&ended.trains, &ended.foot) {
            (Some(trains), None) => assert!(
                trains.trains.iter().any(|train| !train.tiles.is_empty()),
                "a round ends with tiles on the trains"
            ),
            (None, Some(foot)) => assert!(
                foot.arms.iter().any(|arm| !arm.tiles.is_empty()),
                "a round ends with tiles on the foot"
            ),
            (Some(_), Some(_)) => panic!("a round ends with one table"),
            (None, None) => {
                let layout = ended.layout.as_ref().expect("the final table");
                assert!(layout.lead.is_some(), "a hand ends with tiles down");
            }
        }
        assert_eq!(ended.hands.len(), players as usize);
        let pips: Vec<u32> = ended
            .hands
            .iter()
            .map(|hand| {
                hand.tiles
                    .iter()
                    .map(|t| {
                        if t.a + t.b == 0 {
                            double_blank
                        } else {
                            t.a + t.b
                        }
                    })
                    .sum()
            })
            .collect();
        assert_eq!(pips, ended.pips);
        match ended.ended_by {
            Some(EndedBy::WentOut(seat)) => {
                assert_eq!(ended.reason, proto::HandEndReason::Domino as i32);
                assert!(ended.hands[seat as usize].tiles.is_empty());
            }
            Some(EndedBy::ClosedBy(_)) => {
                assert_eq!(ended.reason, proto::HandEndReason::Closed as i32);
            }
            Some(EndedBy::LastPlacer(_)) | None => {
                assert_eq!(ended.reason, proto::HandEndReason::Blocked as i32);
            }
            Some(EndedBy::Bidder(_)) => panic!("a line game's hand has no bidder"),
        }
    }
}

/// A random legal move; in a trick game's auction a pass three times in
/// four where one is allowed (players who bid whatever comes overbid each
/// other, are set nearly every hand, and a Moon match runs on for ever).
fn pick(legal: &[proto::Move], choices: &mut ChaCha8Rng) -> proto::Move {
    let pass = legal
        .iter()
        .find(|mv| matches!(mv.action, Some(Action::Pass(_))));
    let bids = legal
        .iter()
        .any(|mv| matches!(mv.action, Some(Action::Bid(_))));
    match pass {
        Some(&pass) if bids && choices.random_range(0..4) != 0 => pass,
        _ => legal[choices.random_range(0..legal.len())],
    }
}

/// Plays a whole match through NewGame and Play only, choosing random legal
/// moves, and checks scores, events and views along the way.
async fn play_match(
    client: &mut DominoEngineServiceClient<Channel>,
    variant: &str,
    players: u32,
    seed: u64,
) {
    let mut update: proto::PlayResponse = client
        .new_game(new_game(variant, players, seed))
        .await
        .expect("new game")
        .into_inner()
        .into();
    let mut choices = ChaCha8Rng::seed_from_u64(seed);
    let mut totals = vec![0i32; update.score_change.len()];
    for step in 0.. {
        assert!(step < 20_000, "the match ends");
        let state = update.state.clone().expect("state");
        for (total, change) in totals.iter_mut().zip(&update.score_change) {
            *total += change;
        }
        assert_eq!(state.scores, totals, "scores are the sum of the changes");
        if step % 5 == 0 || update.to_act.is_none() {
            check_views(client, &state).await;
        }
        let double_blank = state
            .rules
            .as_ref()
            .and_then(|rules| rules.double_blank_pips)
            .unwrap_or(0);
        let Some(to_act) = update.to_act else {
            check_finished_hands(&update.events, players, double_blank);
            assert!(update.legal_moves.is_empty());
            assert_eq!(state.phase, proto::Phase::MatchOver as i32);
            let ended = update
                .events
                .iter()
                .any(|e| matches!(e.kind, Some(proto::event::Kind::MatchEnded(_))));
            assert!(ended, "the last update reports the match's end");
            return;
        };
        check_finished_hands(&update.events, players, double_blank);
        assert!(!update.legal_moves.is_empty());
        assert!(update.legal_moves.iter().all(|m| m.seat == to_act));
        let mv = pick(&update.legal_moves, &mut choices);
        update = client
            .play(proto::PlayRequest {
                state_source: Some(state.into()),
                r#move: Some(mv),
                ..Default::default()
            })
            .await
            .expect("a listed move is accepted")
            .into_inner();
    }
}

#[tokio::test]
async fn complete_matches_through_new_game_and_play() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    for (variant, players) in [
        ("muggins", 2),
        ("muggins", 3),
        ("muggins", 4),
        ("draw", 2),
        ("draw", 4),
    ] {
        for seed in 0..3 {
            play_match(&mut client, variant, players, seed).await;
        }
    }
    // Every other preset once, at each of its player counts.
    let variants = client
        .list_variants(proto::ListVariantsRequest {})
        .await
        .expect("list")
        .into_inner()
        .variants;
    for variant in variants
        .iter()
        .filter(|v| v.id != "muggins" && v.id != "draw")
    {
        for &players in &variant.players {
            play_match(&mut client, &variant.id, players, 7).await;
        }
    }
    server.stop().await;
}

/// The reason and field of a refused call.
fn reason_and_field(status: &tonic::Status) -> (String, String) {
    let details = status.get_error_details();
    let info = details.error_info().expect("ErrorInfo detail");
    assert_eq!(info.domain, "pips.v1");
    (
        info.reason.clone(),
        info.metadata.get("field").cloned().unwrap_or_default(),
    )
}

fn assert_refused(
    result: Result<impl std::fmt::Debug, tonic::Status>,
    code: Code,
    reason: &str,
    field: &str,
) {
    let status = result.expect_err("refused");
    assert_eq!(status.code(), code, "{status:?}");
    assert_eq!(
        reason_and_field(&status),
        (reason.to_owned(), field.to_owned()),
        "{status:?}"
    );
    if code == Code::InvalidArgument {
        let details = status.get_error_details();
        let violations = &details
            .bad_request()
            .expect("BadRequest detail")
            .field_violations;
        assert_eq!(violations[0].field, field);
    }
}

#[tokio::test]
async fn errors_name_the_reason_and_the_field() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let update = client
        .new_game(new_game("muggins", 2, 5))
        .await
        .expect("new game")
        .into_inner();
    let state = update.state.clone().expect("state");
    let to_act = update.to_act.expect("to act");
    let legal = update.legal_moves[0];
    let play = |state: proto::GameState, mv: proto::Move| proto::PlayRequest {
        state_source: Some(state.into()),
        r#move: Some(mv),
        ..Default::default()
    };

    // Illegal moves: FAILED_PRECONDITION.
    let mut wrong_seat = legal;
    wrong_seat.seat = 1 - to_act;
    let result = client.play(play(state.clone(), wrong_seat)).await;
    assert_refused(
        result,
        Code::FailedPrecondition,
        "ERROR_REASON_NOT_YOUR_TURN",
        "move.seat",
    );

    let other_hand_tile = state.hands[(1 - to_act) as usize].tiles[0];
    let stolen = proto::Move {
        seat: to_act,
        action: Some(Action::Play(proto::PlayTile {
            tile: Some(other_hand_tile),
            end: proto::End::Unspecified.into(),
            train: None,
            arm: None,
        })),
    };
    let result = client.play(play(state.clone(), stolen)).await;
    assert_refused(
        result,
        Code::FailedPrecondition,
        "ERROR_REASON_TILE_NOT_IN_HAND",
        "move.play.tile",
    );

    let pass = proto::Move {
        seat: to_act,
        action: Some(Action::Pass(proto::Pass {})),
    };
    let result = client.play(play(state.clone(), pass)).await;
    assert_refused(
        result,
        Code::FailedPrecondition,
        "ERROR_REASON_MUST_PLAY_NOT_PASS",
        "move.pass",
    );

    // Malformed requests and inconsistent states: INVALID_ARGUMENT.
    let result = client
        .play(proto::PlayRequest {
            state_source: None,
            r#move: Some(legal),
            ..Default::default()
        })
        .await;
    assert_refused(
        result,
        Code::InvalidArgument,
        "ERROR_REASON_MISSING_FIELD",
        "state",
    );

    let no_action = proto::Move {
        seat: to_act,
        action: None,
    };
    let result = client.play(play(state.clone(), no_action)).await;
    assert_refused(
        result,
        Code::InvalidArgument,
        "ERROR_REASON_MALFORMED_MOVE",
        "move",
    );

    let mut duplicated = state.clone();
    let copied = duplicated.hands[0].tiles[0];
    duplicated.hands[1].tiles.push(copied);
    let seven = duplicated.hands[1].tiles.len() - 1;
    let result = client.play(play(duplicated, legal)).await;
    let field = format!("state.hands[1].tiles[{seven}]");
    assert_refused(
        result,
        Code::InvalidArgument,
        "ERROR_REASON_TILE_DUPLICATED",
        &field,
    );

    type Breakage = fn(&mut proto::GameState);
    let broken: [(Breakage, &str, &str); 4] = [
        (
            |s| s.boneyard.truncate(s.boneyard.len() - 1),
            "ERROR_REASON_TILE_MISSING",
            "state",
        ),
        (
            |s| s.boneyard[0] = proto::Tile { a: 99, b: 1 },
            "ERROR_REASON_INVALID_TILE",
            "state.boneyard[0]",
        ),
        (
            |s| s.to_act = 7,
            "ERROR_REASON_SEAT_OUT_OF_RANGE",
            "state.to_act",
        ),
        (
            |s| s.format_version = 2,
            "ERROR_REASON_UNSUPPORTED_FORMAT_VERSION",
            "state.format_version",
        ),
    ];
    for (break_it, reason, field) in broken {
        let mut bad = state.clone();
        break_it(&mut bad);
        let result = client.play(play(bad, legal)).await;
        assert_refused(result, Code::InvalidArgument, reason, field);
    }
    // A state whose boneyard was deleted: the missing tiles are named,
    // and where they were.
    let mut no_boneyard = state.clone();
    no_boneyard.boneyard.clear();
    let status = client
        .play(play(no_boneyard, legal))
        .await
        .expect_err("refused");
    assert!(
        status
            .message()
            .contains("14 tiles of the set are in no hand")
            && status
                .message()
                .contains("the boneyard holds 0: is it short?"),
        "{}",
        status.message()
    );

    // A layout whose touching halves do not match.
    let led = client
        .play(play(state.clone(), legal))
        .await
        .expect("legal")
        .into_inner();
    let mut bent = led.state.clone().expect("state");
    let lead = bent.layout.as_ref().and_then(|l| l.lead).expect("lead");
    let position = bent
        .boneyard
        .iter()
        .position(|t| t.a != lead.a && t.b != lead.a)
        .expect("a boneyard tile not showing the left end");
    let tile = bent.boneyard.remove(position);
    let layout = bent.layout.as_mut().expect("layout");
    layout.open_ends.clear();
    layout.left.push(proto::PlacedTile {
        inner: tile.a,
        outer: tile.b,
    });
    let result = client.play(play(bent, led.legal_moves[0])).await;
    assert_refused(
        result,
        Code::InvalidArgument,
        "ERROR_REASON_LAYOUT_MISMATCH",
        "state.layout.left[0]",
    );

    // Open ends that do not follow from the tiles.
    let mut ends = led.state.clone().expect("state");
    let layout = ends.layout.as_mut().expect("layout");
    layout.open_ends[0].pips = (layout.open_ends[0].pips + 1) % 7;
    let result = client.play(play(ends, led.legal_moves[0])).await;
    assert_refused(
        result,
        Code::InvalidArgument,
        "ERROR_REASON_OPEN_ENDS_MISMATCH",
        "state.layout.open_ends",
    );

    let result = client
        .view(proto::ViewRequest {
            state_source: Some(state.clone().into()),
            seat: 2,
        })
        .await;
    assert_refused(
        result,
        Code::InvalidArgument,
        "ERROR_REASON_SEAT_OUT_OF_RANGE",
        "seat",
    );

    let result = client.new_game(new_game("chess", 2, 1)).await;
    assert_refused(
        result,
        Code::InvalidArgument,
        "ERROR_REASON_UNKNOWN_VARIANT",
        "variant",
    );
    let result = client.new_game(new_game("muggins", 5, 1)).await;
    assert_refused(
        result,
        Code::InvalidArgument,
        "ERROR_REASON_PLAYERS_NOT_ALLOWED",
        "players",
    );
    let mut house = new_game("muggins", 3, 1);
    house.rules = Some(proto::Rules {
        partnerships: Some(true),
        ..Default::default()
    });
    let result = client.new_game(house).await;
    assert_refused(
        result,
        Code::InvalidArgument,
        "ERROR_REASON_INVALID_RULES",
        "rules.partnerships",
    );

    server.stop().await;
}

#[tokio::test]
async fn a_train_tables_refusals_name_the_train() {
    use proto::r#move::Action;
    use proto::train_ref::Owner;
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let update = client
        .new_game(new_game("mexican_train", 2, 42))
        .await
        .expect("new game")
        .into_inner();
    let state = update.state.clone().expect("state");
    assert_eq!(state.format_version, 2);
    let to_act = update.to_act.expect("to act");
    // Every first move names a train: the seat's own or the Mexican.
    assert!(update.legal_moves.iter().all(|mv| match &mv.action {
        Some(Action::Play(play)) =>
            matches!(
                play.train.as_ref().and_then(|t| t.owner),
                Some(Owner::Seat(seat)) if seat == to_act
            ) || matches!(
                play.train.as_ref().and_then(|t| t.owner),
                Some(Owner::Mexican(true))
            ),
        _ => true,
    }));
    let Some(Action::Play(first)) = update.legal_moves[0].action else {
        panic!("the starter holds a 12: {:?}", update.legal_moves);
    };
    let on = |owner: Option<Owner>, end: proto::End| proto::Move {
        seat: to_act,
        action: Some(Action::Play(proto::PlayTile {
            tile: first.tile,
            end: end.into(),
            train: owner.map(|owner| proto::TrainRef { owner: Some(owner) }),
            arm: None,
        })),
    };
    let play = |mv: proto::Move| proto::PlayRequest {
        state_source: Some(state.clone().into()),
        r#move: Some(mv),
        ..Default::default()
    };
    let cases = [
        (
            on(Some(Owner::Seat(1 - to_act)), proto::End::Unspecified),
            Code::FailedPrecondition,
            "ERROR_REASON_TRAIN_CLOSED",
            "move.play.train",
        ),
        (
            on(Some(Owner::Seat(5)), proto::End::Unspecified),
            Code::FailedPrecondition,
            "ERROR_REASON_NO_SUCH_TRAIN",
            "move.play.train",
        ),
        (
            on(None, proto::End::Left),
            Code::FailedPrecondition,
            "ERROR_REASON_PLACE_NOT_AT_THIS_TABLE",
            "move.play.train",
        ),
        (
            on(Some(Owner::Seat(9)), proto::End::Unspecified),
            Code::InvalidArgument,
            "ERROR_REASON_SEAT_OUT_OF_RANGE",
            "move.play.train.seat",
        ),
        (
            on(Some(Owner::Mexican(true)), proto::End::Left),
            Code::InvalidArgument,
            "ERROR_REASON_MALFORMED_MOVE",
            "move.play",
        ),
        (
            proto::Move {
                seat: to_act,
                action: Some(Action::EndTurn(proto::EndTurn {})),
            },
            Code::FailedPrecondition,
            "ERROR_REASON_NO_TURN_TO_END",
            "move.end_turn",
        ),
    ];
    for (mv, code, reason, field) in cases {
        assert_refused(client.play(play(mv)).await, code, reason, field);
    }
    // A marker the round's moves never raised.
    let mut raised = state.clone();
    if let Some(trains) = raised.trains.as_mut() {
        trains.trains[0].marker = true;
    }
    let result = client
        .play(proto::PlayRequest {
            state_source: Some(raised.into()),
            r#move: update.legal_moves.first().cloned(),
            ..Default::default()
        })
        .await;
    assert_refused(
        result,
        Code::InvalidArgument,
        "ERROR_REASON_TRAIN_TABLE_MISMATCH",
        "state.trains.trains[0].marker",
    );
    server.stop().await;
}

/// Plays `update`'s legal moves (a double on an arm first, else the first)
/// until `done` holds of its state.
async fn play_foot_until(
    client: &mut DominoEngineServiceClient<Channel>,
    mut update: proto::PlayResponse,
    done: impl Fn(&proto::FootTable) -> bool,
) -> proto::PlayResponse {
    use proto::r#move::Action;
    for _ in 0..500 {
        let state = update.state.clone().expect("state");
        if state.foot.as_ref().is_some_and(&done) {
            return update;
        }
        let double_on_arm = update.legal_moves.iter().find(|mv| {
            matches!(&mv.action, Some(Action::Play(play))
                if play.tile.is_some_and(|t| t.a == t.b)
                    && matches!(play.arm, Some(proto::ArmRef { place: Some(proto::arm_ref::Place::Arm(_)) })))
        });
        let mv = *double_on_arm.unwrap_or(&update.legal_moves[0]);
        update = client
            .play(proto::PlayRequest {
                state_source: Some(state.into()),
                r#move: Some(mv),
                ..Default::default()
            })
            .await
            .expect("a legal move")
            .into_inner();
    }
    panic!("the foot never came to the position wanted");
}

#[tokio::test]
async fn a_chicken_foots_refusals_name_the_arm() {
    use proto::arm_ref::Place;
    use proto::r#move::Action;
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let update: proto::PlayResponse = client
        .new_game(new_game("chicken_foot", 2, 42))
        .await
        .expect("new game")
        .into_inner()
        .into();
    let state = update.state.clone().expect("state");
    assert_eq!(state.format_version, 2);
    // Until the hub has its four arms, every move starts one.
    assert!(update.legal_moves.iter().all(|mv| matches!(&mv.action,
        Some(Action::Play(play)) if play.arm == Some(proto::ArmRef { place: Some(Place::NewArm(true)) }))));
    // Then a chicken foot, and later its toes all placed: the arm it ends
    // is closed.
    let waiting = play_foot_until(&mut client, update, |foot| {
        matches!(
            foot.waiting.as_ref().and_then(|w| w.what),
            Some(proto::foot_waiting::What::ToesOf(_))
        )
    })
    .await;
    let open = play_foot_until(&mut client, waiting.clone(), |foot| {
        foot.waiting.is_none() && foot.arms.iter().any(|arm| arm.foot)
    })
    .await;
    let refused = |update: &proto::PlayResponse, arm: Option<proto::ArmRef>, train: bool| {
        let state = update.state.clone().expect("state");
        let seat = update.to_act.expect("to act");
        let tile = state.hands[seat as usize].tiles[0];
        proto::PlayRequest {
            r#move: Some(proto::Move {
                seat,
                action: Some(Action::Play(proto::PlayTile {
                    tile: Some(tile),
                    end: proto::End::Unspecified.into(),
                    train: train.then_some(proto::TrainRef {
                        owner: Some(proto::train_ref::Owner::Mexican(true)),
                    }),
                    arm,
                })),
            }),
            state_source: Some(state.into()),
            ..Default::default()
        }
    };
    let arm = |place| Some(proto::ArmRef { place: Some(place) });
    let closed = open
        .state
        .as_ref()
        .and_then(|s| s.foot.as_ref())
        .and_then(|foot| foot.arms.iter().position(|arm| arm.foot))
        .expect("an arm ending in a foot");
    let cases = [
        (
            &open,
            arm(Place::Arm(closed as u32)),
            false,
            Code::FailedPrecondition,
            "ERROR_REASON_ARM_CLOSED",
            "move.play.arm",
        ),
        (
            &open,
            arm(Place::Arm(40)),
            false,
            Code::FailedPrecondition,
            "ERROR_REASON_NO_SUCH_ARM",
            "move.play.arm",
        ),
        (
            &open,
            arm(Place::NewArm(true)),
            false,
            Code::FailedPrecondition,
            "ERROR_REASON_NOTHING_WAITS",
            "move.play.arm",
        ),
        (
            &waiting,
            arm(Place::Arm(1)),
            false,
            Code::FailedPrecondition,
            "ERROR_REASON_FOOT_WAITING",
            "move.play.arm",
        ),
        (
            &open,
            None,
            false,
            Code::FailedPrecondition,
            "ERROR_REASON_PLACE_NOT_AT_THIS_TABLE",
            "move.play.arm",
        ),
        (
            &open,
            None,
            true,
            Code::FailedPrecondition,
            "ERROR_REASON_PLACE_NOT_AT_THIS_TABLE",
            "move.play.arm",
        ),
        (
            &open,
            arm(Place::Arm(42)),
            false,
            Code::InvalidArgument,
            "ERROR_REASON_MALFORMED_MOVE",
            "move.play.arm.arm",
        ),
        (
            &open,
            arm(Place::NewArm(false)),
            false,
            Code::InvalidArgument,
            "ERROR_REASON_MALFORMED_MOVE",
            "move.play.arm",
        ),
        (
            &open,
            arm(Place::Arm(0)),
            true,
            Code::InvalidArgument,
            "ERROR_REASON_MALFORMED_MOVE",
            "move.play",
        ),
    ];
    for (update, arm, train, code, reason, field) in cases {
        assert_refused(
            client.play(refused(update, arm, train)).await,
            code,
            reason,
            field,
        );
    }
    // A foot said to wait for nothing, and an arm grown from elsewhere.
    let mut unwaited = waiting.state.clone().expect("state");
    if let Some(foot) = unwaited.foot.as_mut() {
        foot.waiting = None;
    }
    let mut regrown = open.state.clone().expect("state");
    let foot = regrown.foot.as_mut().expect("a foot");
    let toe = foot
        .arms
        .iter()
        .position(|arm| matches!(arm.root, Some(proto::arm::Root::ToeOf(_))))
        .expect("a toe");
    foot.arms[toe].root = Some(proto::arm::Root::Hub(true));
    let faults = [
        (unwaited, "state.foot.waiting".to_owned()),
        (regrown, format!("state.foot.arms[{toe}]")),
    ];
    for (state, field) in faults {
        let result = client
            .view(proto::ViewRequest {
                state_source: Some(state.into()),
                seat: 0,
            })
            .await;
        assert_refused(
            result,
            Code::InvalidArgument,
            "ERROR_REASON_FOOT_TABLE_MISMATCH",
            &field,
        );
    }
    // A line game's move naming an arm.
    let line = client
        .new_game(new_game("muggins", 2, 42))
        .await
        .expect("new game")
        .into_inner();
    let Some(Action::Play(mut lead)) = line.legal_moves[0].action else {
        panic!("muggins starts with a lead");
    };
    lead.arm = arm(Place::NewArm(true));
    let result = client
        .play(proto::PlayRequest {
            state_source: line.state.map(Into::into),
            r#move: Some(proto::Move {
                seat: line.to_act.unwrap_or(0),
                action: Some(Action::Play(lead)),
            }),
            ..Default::default()
        })
        .await;
    assert_refused(
        result,
        Code::FailedPrecondition,
        "ERROR_REASON_PLACE_NOT_AT_THIS_TABLE",
        "move.play.end",
    );
    server.stop().await;
}

#[tokio::test]
async fn variants_legal_moves_house_rules_and_seeds() {
    let server = TestServer::start().await;
    let mut client = server.client().await;

    let variants = client
        .list_variants(proto::ListVariantsRequest {})
        .await
        .expect("list")
        .into_inner()
        .variants;
    let ids: Vec<&str> = variants.iter().map(|v| v.id.as_str()).collect();
    assert!(ids.contains(&"muggins") && ids.contains(&"draw"), "{ids:?}");
    for variant in &variants {
        assert!(!variant.source.is_empty() && !variant.title.is_empty());
        assert_eq!(variant.defaults.len(), variant.players.len());
        for defaults in &variant.defaults {
            let rules = defaults.rules.as_ref().expect("rules");
            assert!(rules.target.is_some());
            // A trick game's own options, every other one fixed and left
            // out; a placing game's every option.
            if rules.table == Some(proto::TableKind::Tricks as i32) {
                assert!(rules.bidding.is_some() && rules.play_out.is_some());
                assert!(rules.max_pip.is_none() && rules.blocked_own.is_none());
            } else {
                assert!(rules.max_pip.is_some() && rules.blocked_own.is_some());
            }
        }
    }

    let update = client
        .new_game(new_game("muggins", 3, 11))
        .await
        .expect("new game")
        .into_inner();
    let listed = client
        .legal_moves(proto::LegalMovesRequest {
            state_source: update.state.clone().map(Into::into),
        })
        .await
        .expect("legal moves")
        .into_inner();
    assert_eq!(listed.legal_moves, update.legal_moves);
    assert_eq!(listed.seat, update.to_act);

    let again = client
        .new_game(new_game("muggins", 3, 11))
        .await
        .expect("new game")
        .into_inner();
    assert_eq!(
        again.state, update.state,
        "the same seed deals the same game"
    );

    let mut unseeded = new_game("draw", 2, 0);
    unseeded.seed = None;
    let first = client
        .new_game(unseeded.clone())
        .await
        .expect("seeded by the OS")
        .into_inner();
    let second = client
        .new_game(unseeded)
        .await
        .expect("seeded by the OS")
        .into_inner();
    assert_ne!(
        first.state.expect("state").seed,
        second.state.expect("state").seed
    );

    let mut house = new_game("muggins", 4, 3);
    house.rules = Some(proto::Rules {
        partnerships: Some(false),
        target: Some(100),
        ..Default::default()
    });
    let update = client
        .new_game(house)
        .await
        .expect("house rules")
        .into_inner();
    let rules = update.state.expect("state").rules.expect("rules");
    assert_eq!(rules.partnerships, Some(false));
    assert_eq!(rules.target, Some(100));
    assert_eq!(update.score_change.len(), 4, "four individual sides");

    server.stop().await;
}

#[tokio::test]
async fn health_reports_serving() {
    let server = TestServer::start().await;
    let channel = Channel::from_shared(format!("http://{}", server.addr))
        .expect("uri")
        .connect()
        .await
        .expect("connect");
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
    let response = health
        .check(tonic_health::pb::HealthCheckRequest {
            service: "pips.v1.DominoEngineService".to_owned(),
        })
        .await
        .expect("health")
        .into_inner();
    assert_eq!(
        response.status,
        tonic_health::pb::health_check_response::ServingStatus::Serving as i32
    );
    assert!(matches!(
        pips::server::probe_health(server.addr).await,
        Ok(true)
    ));
    server.stop().await;
}

/// Reflection lists what this server serves, not `pips.v1.BotService`
/// (which bots serve and `pips arena` calls), over both of its versions.
#[tokio::test]
async fn reflection_lists_only_the_services_served() {
    use tonic::codegen::tokio_stream;
    use tonic_reflection::pb::v1::ServerReflectionRequest;
    use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
    use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
    use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;
    let server = TestServer::start().await;
    let channel = Channel::from_shared(server.url())
        .expect("an address")
        .connect()
        .await
        .expect("connect");
    let mut client = ServerReflectionClient::new(channel);
    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut answers = client
        .server_reflection_info(tokio_stream::iter([request]))
        .await
        .expect("reflection")
        .into_inner();
    let answer = answers.message().await.expect("an answer").expect("one");
    let Some(MessageResponse::ListServicesResponse(list)) = answer.message_response else {
        panic!("not a list of services: {answer:?}");
    };
    let mut names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "grpc.health.v1.Health",
            "grpc.reflection.v1.ServerReflection",
            "pips.v1.DominoEngineService"
        ]
    );
}

/// A token cut short, on a server without a state key: it is not a
/// readable token, and the answer says where it broke.
#[tokio::test]
async fn a_token_cut_short_is_named_as_such() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let mut request = new_game("muggins", 2, 5);
    request.as_token = true;
    let token = client
        .new_game(request)
        .await
        .expect("new game")
        .into_inner()
        .state_token;
    let cut = token[..token.len() / 2].to_vec();
    let status = client
        .view(proto::ViewRequest {
            state_source: Some(proto::view_request::StateSource::StateToken(cut)),
            seat: 0,
        })
        .await
        .expect_err("refused");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(
        status.message().contains("not a readable state token: ")
            && status.message().contains("PackedState"),
        "{}",
        status.message()
    );
    assert!(!status.message().contains("sealed"), "{}", status.message());
}
