//! `Replay`: a record of moves replayed from a state reproduces every
//! answer of playing them one by one (events, score changes, digests and
//! the final state); a record with any move changed does not end on the
//! same digest; the first illegal move is refused by its index. Also over
//! the real server, by gRPC and by `POST /v1/Replay`.

use crate::server;

use pips::proto::{self, ErrorReason};
use pips::rules::presets::PRESETS;
use pips::service::Engine;
use proptest::prelude::*;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use serde_json::json;
use server::{TestServer, post_json};
use tonic::Code;

/// A match played move by move through `engine`: its first state, the
/// moves chosen and every answer.
struct Played {
    first: proto::GameState,
    moves: Vec<proto::Move>,
    answers: Vec<proto::PlayResponse>,
}

/// Plays up to `limit` random legal moves of `variant` from seed `seed`.
fn play(engine: &Engine, variant: &str, players: u32, seed: u64, limit: usize) -> Played {
    let deal = engine
        .new_game(&proto::NewGameRequest {
            variant: variant.to_owned(),
            players,
            seed: Some(seed),
            ..Default::default()
        })
        .expect("deal");
    let first = deal.state.clone().expect("state");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut update: proto::PlayResponse = deal.into();
    let (mut moves, mut answers) = (Vec::new(), Vec::new());
    while moves.len() < limit && !update.legal_moves.is_empty() {
        let mv = update.legal_moves[rng.random_range(0..update.legal_moves.len())];
        update = engine
            .play(&proto::PlayRequest {
                state_source: update.state.take().map(Into::into),
                r#move: Some(mv),
                ..Default::default()
            })
            .expect("a listed move");
        moves.push(mv);
        answers.push(update.clone());
    }
    Played {
        first,
        moves,
        answers,
    }
}

fn replay(
    engine: &Engine,
    state: proto::GameState,
    moves: &[proto::Move],
) -> Result<proto::ReplayResponse, pips::service::error::ApiError> {
    engine.replay(&proto::ReplayRequest {
        state_source: Some(state.into()),
        moves: moves.to_vec(),
        as_token: false,
        notation: String::new(),
    })
}

/// The preset and player count of case `index`.
fn table(index: usize) -> (&'static str, u32) {
    let preset = &PRESETS[index % PRESETS.len()];
    let players: Vec<u8> = preset.players.clone().collect();
    (
        preset.id,
        u32::from(players[index / PRESETS.len() % players.len()]),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_replay_reproduces_every_answer(index in 0usize..1000, seed in any::<u64>(), from in 0usize..400) {
        let engine = Engine::default();
        let (variant, players) = table(index);
        let played = play(&engine, variant, players, seed, 600);
        let replayed = replay(&engine, played.first.clone(), &played.moves).expect("a legal record");
        prop_assert_eq!(replayed.steps.len(), played.answers.len());
        for (i, (step, answer)) in replayed.steps.iter().zip(&played.answers).enumerate() {
            prop_assert_eq!(&step.events, &answer.events, "events of move {}", i);
            prop_assert_eq!(&step.score_change, &answer.score_change, "score of move {}", i);
            prop_assert_eq!(&step.match_digest, &answer.match_digest, "digest of move {}", i);
        }
        let last = played.answers.last().expect("a move");
        prop_assert_eq!(&replayed.state, &last.state);
        prop_assert_eq!(&replayed.match_digest, &last.match_digest);
        prop_assert_eq!(replayed.to_act, last.to_act);
        prop_assert_eq!(&replayed.legal_moves, &last.legal_moves);
        // From any state of the match, the rest of the record ends there too.
        let from = from % played.moves.len();
        if from > 0 {
            let state = played.answers[from - 1].state.clone().expect("state");
            let rest = replay(&engine, state, &played.moves[from..]).expect("the rest");
            prop_assert_eq!(&rest.state, &last.state);
        }
    }

    #[test]
    fn a_changed_record_does_not_reach_the_same_digest(index in 0usize..1000, seed in any::<u64>(), at in 0usize..400, pick in any::<usize>()) {
        let engine = Engine::default();
        let (variant, players) = table(index);
        let played = play(&engine, variant, players, seed, 300);
        let at = at % played.moves.len();
        let legal_before = if at == 0 {
            engine
                .legal_moves(&proto::LegalMovesRequest {
                    state_source: Some(played.first.clone().into()),
                })
                .expect("legal")
                .legal_moves
        } else {
            played.answers[at - 1].legal_moves.clone()
        };
        let others: Vec<_> = legal_before
            .into_iter()
            .filter(|mv| *mv != played.moves[at])
            .collect();
        prop_assume!(!others.is_empty());
        let mut changed = played.moves.clone();
        changed[at] = others[pick % others.len()];
        let original = &played.answers.last().expect("a move").match_digest;
        match replay(&engine, played.first.clone(), &changed) {
            Ok(replayed) => {
                prop_assert_ne!(&replayed.match_digest, original);
                prop_assert_ne!(&replayed.steps[at].match_digest, &played.answers[at].match_digest);
            }
            // A later move no longer fits: refused by its index.
            Err(error) => {
                prop_assert_eq!(error.code, Code::FailedPrecondition);
                let index: usize = error
                    .field
                    .strip_prefix("moves[")
                    .and_then(|rest| rest.split(']').next())
                    .and_then(|n| n.parse().ok())
                    .expect("a move's index");
                prop_assert!(index > at, "{} at {}", error.field, at);
            }
        }
    }
}

#[test]
fn the_first_illegal_move_is_refused_by_its_index() {
    let engine = Engine::default();
    let played = play(&engine, "muggins", 2, 5, 12);
    let mut moves = played.moves.clone();
    // The sixth move by the wrong seat.
    moves[5].seat = 1 - moves[5].seat;
    let error = replay(&engine, played.first.clone(), &moves).expect_err("refused");
    assert_eq!(
        (error.code, error.reason, error.field.as_str()),
        (
            Code::FailedPrecondition,
            ErrorReason::NotYourTurn,
            "moves[5].seat"
        )
    );
    // A move that names no action is malformed, at its index too.
    let mut moves = played.moves.clone();
    moves[3].action = None;
    let error = replay(&engine, played.first.clone(), &moves).expect_err("refused");
    assert_eq!(
        (error.reason, error.field.as_str()),
        (ErrorReason::MalformedMove, "moves[3]")
    );
    // No moves: the state, as it is.
    let replayed = replay(&engine, played.first.clone(), &[]).expect("nothing to do");
    assert!(replayed.steps.is_empty());
    assert_eq!(replayed.state.as_ref(), Some(&played.first));
    assert_eq!(replayed.match_digest, played.first.match_digest);
}

#[tokio::test]
async fn replay_over_grpc_and_json() {
    let server = TestServer::start().await;
    let engine = Engine::default();
    let played = play(&engine, "all_fives", 2, 11, 40);
    let last = played.answers.last().expect("a move");

    // gRPC, from an open token: answered with a token.
    let mut client = server.client().await;
    let deal = client
        .new_game(proto::NewGameRequest {
            variant: "all_fives".to_owned(),
            players: 2,
            seed: Some(11),
            as_token: true,
            ..Default::default()
        })
        .await
        .expect("deal")
        .into_inner();
    let replayed = client
        .replay(proto::ReplayRequest {
            state_source: Some(deal.state_token.into()),
            moves: played.moves.clone(),
            as_token: false,
            notation: String::new(),
        })
        .await
        .expect("replay")
        .into_inner();
    assert!(replayed.state.is_none() && !replayed.state_token.is_empty());
    assert_eq!(replayed.match_digest, last.match_digest);
    assert_eq!(replayed.legal_moves, last.legal_moves);

    // JSON: the same steps as gRPC.
    let moves: Vec<serde_json::Value> = played
        .moves
        .iter()
        .map(|mv| serde_json::to_value(mv).expect("json"))
        .collect();
    let body = json!({ "state": played.first, "moves": moves }).to_string();
    let answer = post_json(&format!("{}/v1/Replay", server.url()), body).await;
    assert_eq!(answer.status, http::StatusCode::OK, "{}", answer.json());
    let from_json: proto::ReplayResponse = serde_json::from_value(answer.json()).expect("parse");
    assert_eq!(from_json.steps, replayed.steps);
    assert_eq!(from_json.state, last.state);

    // An illegal move over JSON: 409, with the move's index.
    let mut bad = moves.clone();
    let seat = bad[7]["seat"].as_u64().expect("a seat");
    bad[7]["seat"] = json!(1 - seat);
    let body = json!({ "state": played.first, "moves": bad }).to_string();
    let answer = post_json(&format!("{}/v1/Replay", server.url()), body).await;
    assert_eq!(answer.status, http::StatusCode::CONFLICT);
    assert_eq!(answer.json()["field"], "moves[7].seat");
    server.stop().await;
}

#[test]
fn a_seat_token_cannot_replay_but_a_full_token_can() {
    use pips::service::custody::Custody;
    use pips::service::keys::StateKeys;
    let keys = StateKeys::from_text(&"3c".repeat(32)).expect("a key");
    let engine = Engine::new(Custody::new(Some(keys)));
    let deal = engine
        .new_game(&proto::NewGameRequest {
            variant: "muggins".to_owned(),
            players: 2,
            seed: Some(3),
            as_token: true,
            ..Default::default()
        })
        .expect("deal");
    let moves = vec![deal.legal_moves[0]];
    let with = |token: &[u8]| {
        engine.replay(&proto::ReplayRequest {
            state_source: Some(token.to_vec().into()),
            moves: moves.clone(),
            as_token: false,
            notation: String::new(),
        })
    };
    let error = with(&deal.seat_tokens[0]).expect_err("a seat token");
    assert_eq!(
        (error.code, error.reason, error.field.as_str()),
        (
            Code::PermissionDenied,
            ErrorReason::SeatNotPermitted,
            "state_token"
        )
    );
    let replayed = with(&deal.state_token).expect("a full token");
    assert!(replayed.state.is_none() && !replayed.state_token.is_empty());
    assert_eq!(replayed.steps.len(), 1);
    assert_eq!(replayed.match_digest.len(), 32);
    assert_ne!(replayed.match_digest, deal.match_digest);
}
