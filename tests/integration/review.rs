//! `ReviewMatch` against the real server: a match's decisions valued by
//! the expert from each seat's view, over HTTP/JSON and gRPC, from a state
//! and moves or from the notation; the same request answered the same.

use std::time::Duration;

use http::StatusCode;
use pips::proto;
use pips::proto::domino_engine_service_client::DominoEngineServiceClient;
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

/// A server with search caps `max_suggest` and a streamed review's time
/// `max_review` (the unary calls' timeout as long).
async fn server_with(max_suggest: Duration, max_review: Duration) -> TestServer {
    TestServer::start_with(pips::server::Config {
        max_suggest,
        request_timeout: max_review,
        max_review,
        ..pips::server::Config::default()
    })
    .await
}

/// A server whose searches only their playouts bound, so that a busy
/// machine cannot cut one short and the same request gives the same
/// review.
async fn patient_server(max_review: Duration) -> TestServer {
    server_with(Duration::from_secs(600), max_review).await
}

#[tokio::test]
async fn a_review_values_each_decision_from_its_seat_and_sums_up_each_seat() {
    let server = patient_server(Duration::from_secs(600)).await;
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
    let server = patient_server(Duration::from_secs(600)).await;
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

/// A review request as `StreamReviewMatch` takes it.
fn streamed(request: &proto::ReviewMatchRequest) -> proto::StreamReviewMatchRequest {
    proto::StreamReviewMatchRequest {
        record: request.record.clone(),
        seats: request.seats.clone(),
        playouts: request.playouts,
        seed: request.seed,
    }
}

/// The steps of a streamed review over gRPC, to the stream's end.
async fn grpc_steps(
    client: &mut DominoEngineServiceClient<tonic::transport::Channel>,
    request: &proto::ReviewMatchRequest,
) -> Vec<proto::StreamReviewMatchResponse> {
    let mut stream = client
        .stream_review_match(streamed(request))
        .await
        .expect("a stream")
        .into_inner();
    let mut steps = Vec::new();
    while let Some(step) = stream.message().await.expect("a step") {
        steps.push(step);
    }
    steps
}

/// The steps of a streamed review as the server-sent events' data.
fn events(body: &[u8]) -> Vec<proto::StreamReviewMatchResponse> {
    String::from_utf8_lossy(body)
        .split("\n\n")
        .filter_map(|event| event.strip_prefix("data: "))
        .map(|data| serde_json::from_str(data).expect("a StreamReviewMatchResponse"))
        .collect()
}

/// The steps of a Connect stream's envelopes (JSON), and its end message.
fn envelopes(body: &[u8]) -> (Vec<proto::StreamReviewMatchResponse>, Value) {
    let (mut steps, mut rest) = (Vec::new(), body);
    while rest.len() >= 5 {
        let flags = rest[0];
        let length = u32::from_be_bytes([rest[1], rest[2], rest[3], rest[4]]) as usize;
        let message = &rest[5..5 + length];
        rest = &rest[5 + length..];
        if flags & 0x02 != 0 {
            return (steps, serde_json::from_slice(message).expect("end JSON"));
        }
        steps.push(serde_json::from_slice(message).expect("a StreamReviewMatchResponse"));
    }
    panic!("no end of stream");
}

/// A decision with its figures to nine places (JSON's text of a double
/// reads back within a unit of the last place).
fn rounded(mut reviewed: proto::ReviewedMove) -> proto::ReviewedMove {
    let round = |x: f64| (x * 1e9).round() / 1e9;
    reviewed.played_value = reviewed.played_value.map(round);
    reviewed.best_value = reviewed.best_value.map(round);
    reviewed.loss = round(reviewed.loss);
    reviewed.played_points = reviewed.played_points.map(round);
    reviewed.best_points = reviewed.best_points.map(round);
    reviewed.accuracy = round(reviewed.accuracy);
    reviewed
}

/// A seat's summary with its figures to nine places.
fn rounded_seat(mut seat: proto::SeatReview) -> proto::SeatReview {
    let round = |x: f64| (x * 1e9).round() / 1e9;
    seat.mean_loss = round(seat.mean_loss);
    seat.accuracy = round(seat.accuracy);
    seat.mean_points_loss = round(seat.mean_points_loss);
    seat
}

/// Each decision, then the end, as the unary answer has them.
fn assert_steps_answer(
    steps: &[proto::StreamReviewMatchResponse],
    unary: &proto::ReviewMatchResponse,
) {
    use proto::stream_review_match_response::Step;
    let (last, decisions) = steps.split_last().expect("steps");
    let moves: Vec<proto::ReviewedMove> = decisions
        .iter()
        .map(|step| match &step.step {
            Some(Step::Move(reviewed)) => rounded(reviewed.clone()),
            other => panic!("a decision before the end, not {other:?}"),
        })
        .collect();
    let unary_moves: Vec<_> = unary.moves.iter().cloned().map(rounded).collect();
    assert_eq!(moves, unary_moves);
    match &last.step {
        Some(Step::End(end)) => {
            let seats: Vec<_> = end.seats.iter().cloned().map(rounded_seat).collect();
            let unary_seats: Vec<_> = unary.seats.iter().cloned().map(rounded_seat).collect();
            assert_eq!(seats, unary_seats);
            assert_eq!(end.complete, unary.complete);
        }
        other => panic!("the end last, not {other:?}"),
    }
}

#[tokio::test]
async fn a_streamed_review_sends_each_decision_then_the_end_over_every_protocol() {
    let server = patient_server(Duration::from_secs(600)).await;
    let (first, moves) = a_match("texas42", 4, 3, 20);
    let text = write(&first, 3, &moves).expect("written");
    let request = proto::ReviewMatchRequest {
        record: Some(proto::ReplayRequest {
            notation: text,
            ..Default::default()
        }),
        seats: vec![0, 2],
        playouts: Some(100),
        seed: Some(7),
    };
    let mut client = server.client().await;
    let unary = client
        .review_match(request.clone())
        .await
        .expect("reviewed")
        .into_inner();
    assert!(unary.complete && !unary.moves.is_empty());
    // gRPC: a server stream.
    let steps = grpc_steps(&mut client, &request).await;
    assert_steps_answer(&steps, &unary);
    // HTTP: server-sent events.
    let body = serde_json::to_string(&request).expect("JSON");
    let answer = post_json(
        &format!("{}/v1/StreamReviewMatch", server.url()),
        body.clone(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer.headers[http::header::CONTENT_TYPE],
        "text/event-stream"
    );
    assert_steps_answer(&events(&answer.body), &unary);
    // Connect: envelopes, then the end of the stream.
    let mut enveloped = vec![0u8];
    enveloped.extend((body.len() as u32).to_be_bytes());
    enveloped.extend(body.as_bytes());
    let answer = crate::server::send(
        http::Request::post(format!(
            "{}/pips.v1.DominoEngineService/StreamReviewMatch",
            server.url()
        ))
        .header(http::header::CONTENT_TYPE, "application/connect+json")
        .body(http_body_util::Full::new(bytes::Bytes::from(enveloped)))
        .expect("request"),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    let (steps, end) = envelopes(&answer.body);
    assert_eq!(end, json!({}));
    assert_steps_answer(&steps, &unary);
    // Called as a unary RPC, it says where it is served.
    let unary_connect = post_json(
        &format!(
            "{}/pips.v1.DominoEngineService/StreamReviewMatch",
            server.url()
        ),
        body,
    )
    .await;
    assert_ne!(unary_connect.status, StatusCode::OK);
    assert!(String::from_utf8_lossy(&unary_connect.body).contains("server-sent events"));
    server.stop().await;
}

#[tokio::test]
async fn a_streamed_review_refuses_a_bad_record_and_stops_at_its_time() {
    // Each decision's search at most 50 ms, the whole review 2 s: a whole
    // Texas 42 match, a hundred decisions and more at the largest budget,
    // is cut short, and its end says so. (The 2 s leave the work pool time
    // to start the job on a busy machine.)
    let server = server_with(Duration::from_millis(50), Duration::from_secs(2)).await;
    let (first, moves) = a_match("texas42", 4, 5, 2_000);
    let text = write(&first, 5, &moves).expect("written");
    let mut client = server.client().await;
    let request = proto::ReviewMatchRequest {
        record: Some(proto::ReplayRequest {
            notation: text,
            ..Default::default()
        }),
        playouts: Some(u32::MAX),
        ..Default::default()
    };
    let steps = grpc_steps(&mut client, &request).await;
    let Some(proto::StreamReviewMatchResponse {
        step: Some(proto::stream_review_match_response::Step::End(end)),
    }) = steps.last()
    else {
        panic!("the end last: {steps:?}");
    };
    assert!(!end.complete, "{end:?}");
    assert!(steps.len() - 1 < moves.len());
    // A bad record is refused before the stream begins, on every protocol.
    let refused = client
        .stream_review_match(proto::StreamReviewMatchRequest {
            seats: vec![9],
            ..Default::default()
        })
        .await
        .expect_err("refused");
    assert_eq!(refused.code(), tonic::Code::InvalidArgument);
    let answer = post_json(
        &format!("{}/v1/StreamReviewMatch", server.url()),
        r#"{"record": {"notation": "[Preset \"muggins\"]"}}"#,
    )
    .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.json()["field"], "record.notation");
    server.stop().await;
}
