//! The Connect protocol against the real server: unary calls in JSON and in
//! protobuf, GET with a JSON or base64url message, Connect errors with the
//! same `ErrorInfo` as gRPC and Connect's HTTP statuses, refusals of what
//! the server does not take, and gRPC still answered at the same paths.
//! (The TypeScript client example plays whole matches with connect-es over
//! Connect and gRPC-Web: `scripts/clients-smoke.sh`.)

use base64::Engine as _;
use bytes::Bytes;
use http::{StatusCode, header};
use http_body_util::Full;
use prost::Message as _;
use serde_json::{Value, json};

use pips::proto;

use crate::server;
use server::{Answer, TestServer, send};

/// `POST url` with `content_type` and extra headers.
async fn post(url: &str, content_type: &str, headers: &[(&str, &str)], body: Vec<u8>) -> Answer {
    let mut request = http::Request::post(url).header(header::CONTENT_TYPE, content_type);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    send(request.body(Full::new(Bytes::from(body))).expect("request")).await
}

/// `GET url`.
async fn get(url: &str) -> Answer {
    send(
        http::Request::get(url)
            .body(Full::new(Bytes::new()))
            .expect("request"),
    )
    .await
}

/// The `google.rpc.ErrorInfo` of a Connect error body.
fn error_info(error: &Value) -> tonic_types::pb::ErrorInfo {
    let detail = error["details"]
        .as_array()
        .expect("details")
        .iter()
        .find(|d| d["type"] == "google.rpc.ErrorInfo")
        .unwrap_or_else(|| panic!("no ErrorInfo in {error}"));
    let bytes = base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(detail["value"].as_str().expect("a value"))
        .expect("base64");
    tonic_types::pb::ErrorInfo::decode(&bytes[..]).expect("an ErrorInfo")
}

#[tokio::test]
async fn connect_unary_json_and_protobuf_play_a_match() {
    let server = TestServer::start().await;
    let base = format!("{}/pips.v1.DominoEngineService", server.url());

    // JSON, with and without the protocol version header.
    let answer = post(
        &format!("{base}/NewGame"),
        "application/json",
        &[("connect-protocol-version", "1")],
        br#"{"variant": "muggins", "players": 2, "seed": "5"}"#.to_vec(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    assert_eq!(answer.headers[header::CONTENT_TYPE], "application/json");
    let started = answer.json();
    let answer = post(
        &format!("{base}/Play"),
        "application/json; charset=utf-8",
        &[],
        json!({ "state": started["state"], "move": started["legalMoves"][0] })
            .to_string()
            .into_bytes(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.json());
    assert!(answer.json()["events"][0]["tilePlayed"].is_object());

    // Protobuf: a whole match, every move the first legal one.
    let request = proto::NewGameRequest {
        variant: "block".into(),
        players: 2,
        seed: Some(9),
        ..Default::default()
    };
    let answer = post(
        &format!("{base}/NewGame"),
        "application/proto",
        &[],
        request.encode_to_vec(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.headers[header::CONTENT_TYPE], "application/proto");
    let mut update = proto::PlayResponse::from(
        proto::NewGameResponse::decode(&answer.body[..]).expect("a NewGameResponse"),
    );
    let mut moves = 0;
    while let Some(next) = update.legal_moves.first().cloned() {
        let request = proto::PlayRequest {
            state_source: update.state.clone().map(Into::into),
            r#move: Some(next),
            ..Default::default()
        };
        let answer = post(
            &format!("{base}/Play"),
            "application/proto",
            &[],
            request.encode_to_vec(),
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK);
        update = proto::PlayResponse::decode(&answer.body[..]).expect("a PlayResponse");
        moves += 1;
        assert!(moves < 5_000, "the match never ended");
    }
    let over = update
        .events
        .iter()
        .any(|e| matches!(e.kind, Some(proto::event::Kind::MatchEnded(_))));
    assert!(over, "the match ended after {moves} moves");
    server.stop().await;
}

#[tokio::test]
async fn connect_get_reads_json_and_base64url_messages() {
    let server = TestServer::start().await;
    let base = format!("{}/pips.v1.DominoEngineService", server.url());
    let message: String =
        form_urlencoded::byte_serialize(br#"{"variant":"all_fives","players":3,"seed":"2"}"#)
            .collect();
    let answer = get(&format!(
        "{base}/NewGame?connect=v1&encoding=json&message={message}"
    ))
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    assert_eq!(answer.json()["state"]["players"], 3);

    let request = proto::ListVariantsRequest {};
    let encoded = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(request.encode_to_vec());
    let answer = get(&format!(
        "{base}/ListVariants?encoding=proto&base64=1&message={encoded}"
    ))
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    let variants = proto::ListVariantsResponse::decode(&answer.body[..]).expect("variants");
    assert_eq!(variants.variants.len(), pips::rules::presets::PRESETS.len());
    server.stop().await;
}

#[tokio::test]
async fn connect_errors_carry_the_reason_field_and_code() {
    let server = TestServer::start().await;
    let base = format!("{}/pips.v1.DominoEngineService", server.url());

    // A malformed request: invalid_argument, 400, with the reason and field.
    let answer = post(
        &format!("{base}/NewGame"),
        "application/json",
        &[],
        br#"{"variant": "nope", "players": 2}"#.to_vec(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    let error = answer.json();
    assert_eq!(error["code"], "invalid_argument");
    let info = error_info(&error);
    assert_eq!(info.reason, "ERROR_REASON_UNKNOWN_VARIANT");
    assert_eq!(info.domain, "pips.v1");
    assert_eq!(info.metadata["field"], "variant");

    // An illegal move: failed_precondition (Connect gives it 400).
    let started = post(
        &format!("{base}/NewGame"),
        "application/json",
        &[],
        br#"{"variant": "muggins", "players": 2, "seed": "5"}"#.to_vec(),
    )
    .await
    .json();
    let wrong_seat = (started["toAct"].as_u64().unwrap_or(0) + 1) % 2;
    let answer = post(
        &format!("{base}/Play"),
        "application/json",
        &[],
        json!({ "state": started["state"], "move": { "seat": wrong_seat, "pass": {} } })
            .to_string()
            .into_bytes(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    let error = answer.json();
    assert_eq!(error["code"], "failed_precondition");
    assert_eq!(error_info(&error).reason, "ERROR_REASON_NOT_YOUR_TURN");

    // Bad protobuf.
    let answer = post(
        &format!("{base}/Play"),
        "application/proto",
        &[],
        vec![0xff, 0xff, 0xff],
    )
    .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        error_info(&answer.json()).reason,
        "ERROR_REASON_MALFORMED_REQUEST"
    );

    // What the server does not take.
    for (content_type, headers, status, code) in [
        (
            "text/plain",
            vec![],
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "invalid_argument",
        ),
        (
            "application/json",
            vec![("connect-protocol-version", "2")],
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "invalid_argument",
        ),
        (
            "application/json",
            vec![("content-encoding", "gzip")],
            StatusCode::NOT_IMPLEMENTED,
            "unimplemented",
        ),
    ] {
        let answer = post(
            &format!("{base}/Play"),
            content_type,
            &headers,
            b"{}".to_vec(),
        )
        .await;
        assert_eq!(answer.status, status, "{content_type} {headers:?}");
        let error = answer.json();
        assert_eq!(error["code"], code);
        assert_eq!(
            error_info(&error).reason,
            "ERROR_REASON_UNSUPPORTED_MEDIA_TYPE"
        );
    }

    // No such RPC: unimplemented, in Connect's form.
    let answer = post(
        &format!("{base}/Cheat"),
        "application/json",
        &[],
        b"{}".to_vec(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::NOT_IMPLEMENTED);
    assert_eq!(answer.json()["code"], "unimplemented");
    assert_eq!(
        error_info(&answer.json()).reason,
        "ERROR_REASON_UNKNOWN_ROUTE"
    );
    server.stop().await;
}

#[tokio::test]
async fn limits_refuse_connect_calls_in_connect_form() {
    let config = pips::server::Config {
        max_request_bytes: 64,
        ..pips::server::Config::default()
    };
    let server = TestServer::start_with(config).await;
    let base = format!("{}/pips.v1.DominoEngineService", server.url());
    let answer = post(
        &format!("{base}/Play"),
        "application/json",
        &[],
        vec![b' '; 10_000],
    )
    .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    let error = answer.json();
    assert_eq!(error["code"], "out_of_range");
    assert_eq!(error_info(&error).reason, "ERROR_REASON_REQUEST_TOO_LARGE");

    // gRPC at the same path is still gRPC.
    let mut client = server.client().await;
    let variants = client
        .list_variants(proto::ListVariantsRequest {})
        .await
        .expect("gRPC still works");
    assert_eq!(
        variants.into_inner().variants.len(),
        pips::rules::presets::PRESETS.len()
    );
    server.stop().await;
}
