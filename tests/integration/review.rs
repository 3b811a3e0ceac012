//! `ReviewMatch` against the real server: a match's decisions valued by
//! the expert from each seat's view, over HTTP/JSON and gRPC, from a state
//! and moves or from the notation; the same request answered the same.

use std::time::Duration;

use http::StatusCode;
use pips::proto;
use pips::rules::presets::preset;
use pips::rules::{Game, Move};
use pips::service::codec::{encode_move, encode_state};
use pips::service::notation::write;
use serde_json::{Value, json};

use crate::server::{TestServer, post_json};

/// A match of `variant` dealt from `seed`, `count` moves into it: its
/// first state and its moves.
fn a_match(variant: &str, players: u8, seed: u64, count: usize) -> (Game, Vec<Move>) {
    let rules = preset(variant).expect("preset").rules(players, None);
    let (first, _) = Game::new(variant, rules, players, seed).expect("deals");
    let mut game = first.clone();
    let mut moves = Vec::new();
    while game.outcome().is_none() && moves.len() < count {
        let legal = game.legal_moves();
        let mv = legal[(moves.len() * 5) % legal.len()];
        game.play(mv).expect("legal");
        moves.push(mv);
    }
    (first, moves)
}

async fn review(server: &TestServer, body: &Value) -> (StatusCode, Value) {
    let answer = post_json(
        &format!("{}/v1/ReviewMatch", server.url()),
        body.to_string(),
    )
    .await;
    (answer.status, answer.json())
}

#[tokio::test]
async fn a_review_values_each_decision_from_its_seat_and_sums_up_each_seat() {
    // Only the playouts bound each search here, so that a busy machine
    // cannot cut one short and the same request gives the same review.
    let server = TestServer::start_with(pips::server::Config {
        max_suggest: Duration::from_secs(600),
        request_timeout: Duration::from_secs(600),
        ..pips::server::Config::default()
    })
    .await;
    for (variant, players) in [("muggins", 2u8), ("block", 4), ("texas42", 4)] {
        let (first, moves) = a_match(variant, players, 11, 24);
        let state = serde_json::to_value(encode_state(&first)).expect("json");
        let wire: Vec<proto::Move> = moves.iter().map(|&m| encode_move(m)).collect();
        let record = json!({ "state": state, "moves": wire });
        let body = json!({ "record": record, "playouts": 200, "seed": "5" });
        let (status, answer) = review(&server, &body).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let typed: proto::ReviewMatchResponse =
            serde_json::from_value(answer.clone()).expect("a ReviewMatchResponse");
        assert!(typed.complete, "{variant}");
        assert_eq!(typed.moves.len(), moves.len(), "every decision: {variant}");
        for reviewed in &typed.moves {
            assert_eq!(reviewed.played, Some(wire[reviewed.index as usize]));
            assert!(!reviewed.token.is_empty());
            if reviewed.forced {
                assert_eq!(reviewed.grade, proto::MoveGrade::Unspecified as i32);
                assert_eq!(reviewed.played_value, None);
            } else {
                let (best, played) = (
                    reviewed.best_value.expect("valued"),
                    reviewed.played_value.expect("valued"),
                );
                assert!(best >= played, "{variant}: {reviewed:?}");
                assert!((reviewed.loss - (best - played) * 100.0).abs() < 1e-9);
                assert_ne!(reviewed.grade, proto::MoveGrade::Unspecified as i32);
            }
        }
        assert_eq!(typed.seats.len(), usize::from(players));
        let graded: u32 = typed.seats.iter().map(|s| s.graded + s.forced).sum();
        assert_eq!(graded as usize, moves.len());
        // The same request, the same review.
        let (_, again) = review(&server, &body).await;
        assert_eq!(again, answer, "{variant}: deterministic for a seed");
        // One seat's decisions alone.
        let body = json!({ "record": record, "playouts": 200, "seed": "5", "seats": [1] });
        let (_, one) = review(&server, &body).await;
        let one: proto::ReviewMatchResponse = serde_json::from_value(one).expect("typed");
        assert!(one.moves.iter().all(|m| m.seat == 1));
        assert_eq!(one.seats.len(), 1);
    }
    server.stop().await;
}

#[tokio::test]
async fn a_review_reads_the_notation_and_refuses_what_is_no_record() {
    let server = TestServer::start().await;
    let (first, moves) = a_match("all_fives", 2, 4, 12);
    let text = write(&first, 4, &moves).expect("written");
    let (status, answer) = review(
        &server,
        &json!({ "record": { "notation": text }, "playouts": 100 }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["moves"].as_array().map(Vec::len), Some(moves.len()));
    // Over gRPC too.
    let mut client = server.client().await;
    let over_grpc = client
        .review_match(proto::ReviewMatchRequest {
            record: Some(proto::ReplayRequest {
                notation: text.clone(),
                ..Default::default()
            }),
            playouts: Some(100),
            ..Default::default()
        })
        .await
        .expect("reviewed")
        .into_inner();
    assert_eq!(over_grpc.moves.len(), moves.len());
    for (body, field) in [
        (
            json!({ "record": { "notation": text }, "seats": [2] }),
            "seats[0]",
        ),
        (
            json!({ "record": { "notation": "[Preset \"muggins\"]" } }),
            "record.notation",
        ),
        (json!({ "record": {} }), "record.state"),
        (json!({}), "record"),
    ] {
        let (status, error) = review(&server, &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
        assert_eq!(error["field"], field, "{error}");
    }
    server.stop().await;
}
