//! Integration tests of the HTTP/JSON API and gRPC-Web: the real server on
//! 127.0.0.1:0, called over HTTP/1.1 as curl, a web backend or a browser
//! would call it.

use std::time::Duration;

use bytes::Bytes;
use http::{Method, StatusCode, header};
use http_body_util::Full;
use pips::proto;
use pips::server::Config;
use pips::service::keys::StateKeys;
use prost::Message;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::server;
use server::{Answer, TestServer, call, grpc_frame, post_json, send};

const KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

/// Asserts an error answer: its status, and the reason (and field) in its
/// JSON body.
fn assert_refused(answer: &Answer, status: StatusCode, reason: &str, field: Option<&str>) {
    let body = answer.json();
    assert_eq!(answer.status, status, "{body}");
    assert_eq!(
        answer.headers[header::CONTENT_TYPE],
        "application/json",
        "{body}"
    );
    assert_eq!(body["reason"], reason, "{body}");
    assert!(
        body["code"].as_str().is_some_and(|c| !c.is_empty()),
        "{body}"
    );
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    if let Some(field) = field {
        assert_eq!(body["field"], field, "{body}");
    }
}

async fn new_game(server: &TestServer, request: Value) -> Value {
    let answer = post_json(&format!("{}/v1/NewGame", server.url()), request.to_string()).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.json());
    answer.json()
}

/// A `NewGame` of `body` refused as a bad request for `reason` at `field`:
/// its message.
async fn new_game_refused(server: &TestServer, body: &str, reason: &str, field: &str) -> String {
    let answer = post_json(&format!("{}/v1/NewGame", server.url()), body.to_owned()).await;
    assert_refused(&answer, StatusCode::BAD_REQUEST, reason, Some(field));
    answer.json()["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Plays random legal moves over JSON until the match ends; checks that
/// the scores are the sum of the score changes and that every answer
/// parses as the proto message.
async fn play_match_over_json(server: &TestServer, variant: &str, seed: u64) -> usize {
    let url = format!("{}/v1/Play", server.url());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut update = new_game(
        server,
        json!({ "variant": variant, "players": 2, "seed": seed.to_string() }),
    )
    .await;
    let mut totals = [0i64; 2];
    for moves in 0..20_000 {
        let typed: proto::PlayResponse =
            serde_json::from_value(update.clone()).expect("a PlayResponse in proto3 JSON");
        for (side, change) in typed.score_change.iter().enumerate() {
            totals[side] += i64::from(*change);
        }
        let state = typed.state.as_ref().expect("state");
        let scores: Vec<i64> = state.scores.iter().map(|s| i64::from(*s)).collect();
        assert_eq!(scores, totals, "scores are the sum of the changes");
        if state.phase == proto::Phase::MatchOver as i32 {
            assert!(typed.legal_moves.is_empty());
            return moves;
        }
        let legal = update["legalMoves"].as_array().expect("legal moves");
        let pick = legal[rng.random_range(0..legal.len())].clone();
        let answer = post_json(
            &url,
            json!({ "state": update["state"], "move": pick }).to_string(),
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.json());
        update = answer.json();
    }
    panic!("the match did not end");
}

#[tokio::test]
async fn every_rpc_over_json() {
    let server = TestServer::start().await;
    let url = server.url();

    // ListVariants, with an empty body and with `{}`.
    for body in ["", "{}"] {
        let answer = post_json(&format!("{url}/v1/ListVariants"), body).await;
        assert_eq!(answer.status, StatusCode::OK);
        let variants = answer.json()["variants"]
            .as_array()
            .expect("variants")
            .len();
        assert_eq!(variants, pips::rules::presets::PRESETS.len());
    }

    // NewGame: the same answer as over gRPC, field for field.
    let update = new_game(
        &server,
        json!({ "variant": "muggins", "players": 2, "seed": "42" }),
    )
    .await;
    assert_eq!(update["state"]["seed"], "42", "64-bit integers are strings");
    let from_json: proto::NewGameResponse = serde_json::from_value(update.clone()).expect("parse");
    let from_grpc = server
        .client()
        .await
        .new_game(proto::NewGameRequest {
            variant: "muggins".to_owned(),
            players: 2,
            seed: Some(42),
            ..Default::default()
        })
        .await
        .expect("gRPC NewGame")
        .into_inner();
    assert_eq!(from_json, from_grpc);

    // LegalMoves and View on that state.
    let state = update["state"].clone();
    let answer = post_json(
        &format!("{url}/v1/LegalMoves"),
        json!({ "state": state }).to_string(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json()["legalMoves"], update["legalMoves"]);
    let to_act = update["toAct"].as_u64().expect("to act");
    let answer = post_json(
        &format!("{url}/v1/View"),
        json!({ "state": state, "seat": to_act }).to_string(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    let view = answer.json();
    assert_eq!(view["hand"], state["hands"][to_act as usize]["tiles"]);
    assert_eq!(view["legalMoves"], update["legalMoves"]);
    assert!(view.get("boneyard").is_none(), "a view hides the boneyard");

    // Play: complete matches.
    for (variant, seed) in [("draw", 1), ("muggins", 2), ("all_fives", 3)] {
        let moves = play_match_over_json(&server, variant, seed).await;
        assert!(moves > 10, "{variant}: {moves} moves");
    }

    // The same deal as an open token (base64): the same moves and events,
    // and the token plays on like the state.
    let tokened = new_game(
        &server,
        json!({ "variant": "muggins", "players": 2, "seed": "42", "asToken": true }),
    )
    .await;
    assert!(tokened.get("state").is_none(), "{tokened}");
    assert_eq!(
        tokened["seatTokens"],
        json!([]),
        "no seat tokens without a key"
    );
    assert_eq!(tokened["legalMoves"], update["legalMoves"]);
    assert_eq!(tokened["events"], update["events"]);
    let pick = update["legalMoves"][0].clone();
    let by_state = post_json(
        &format!("{url}/v1/Play"),
        json!({ "state": state, "move": pick }).to_string(),
    )
    .await;
    let by_token = post_json(
        &format!("{url}/v1/Play"),
        json!({ "stateToken": tokened["stateToken"], "move": pick }).to_string(),
    )
    .await;
    assert_eq!(by_token.status, StatusCode::OK, "{}", by_token.json());
    let (by_state, by_token) = (by_state.json(), by_token.json());
    assert!(
        by_token["stateToken"].is_string(),
        "a token comes back: {by_token}"
    );
    for field in ["events", "scoreChange", "toAct", "legalMoves"] {
        assert_eq!(by_state[field], by_token[field], "{field}");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_partnerships_override_says_what_it_changed() {
    let server = TestServer::start().await;
    let rules_of = |update: &Value| update["state"]["rules"].clone();
    let preset = new_game(&server, json!({ "variant": "dominican", "players": 4 })).await;
    assert_eq!(rules_of(&preset)["countPartner"], true, "{preset}");
    // Without partnerships the preset's credit for the partner's pips
    // cannot apply: the answer's rules show it off.
    let house = json!({ "variant": "dominican", "players": 4, "rules": { "partnerships": false } });
    let update = new_game(&server, house).await;
    assert_eq!(rules_of(&update)["partnerships"], false, "{update}");
    assert_eq!(rules_of(&update)["countPartner"], false, "{update}");
    // Asked for together, they are refused, the message naming both.
    let message = new_game_refused(
        &server,
        r#"{"variant":"dominican","players":4,"rules":{"partnerships":false,"countPartner":true}}"#,
        "ERROR_REASON_INVALID_RULES",
        "rules.count_partner",
    )
    .await;
    assert!(
        message.contains("count_partner true with partnerships false"),
        "{message}"
    );
    server.stop().await;
}

#[tokio::test]
async fn json_refusals_carry_status_reason_and_field() {
    let server = TestServer::start_with(Config {
        max_request_bytes: 4096,
        ..Config::default()
    })
    .await;
    let url = server.url();
    let update = new_game(&server, json!({ "variant": "muggins", "players": 2 })).await;
    let state = update["state"].clone();
    let to_act = update["toAct"].as_u64().expect("to act");

    // 400: unknown fields are named, at any depth.
    let answer = post_json(
        &format!("{url}/v1/NewGame"),
        r#"{"variant":"muggins","players":2,"sede":"1"}"#,
    )
    .await;
    assert_refused(
        &answer,
        StatusCode::BAD_REQUEST,
        "ERROR_REASON_MALFORMED_JSON",
        Some("sede"),
    );
    assert!(
        answer.json()["message"]
            .as_str()
            .unwrap_or_default()
            .contains("unknown field `sede`")
    );
    // 400: an enum typo names the value, the field and the values there
    // are, in the API's words (not serde's "variant", which is a game).
    let message = new_game_refused(
        &server,
        r#"{"variant":"muggins","players":2,"rules":{"draw":"NONE"}}"#,
        "ERROR_REASON_MALFORMED_JSON",
        "rules.draw",
    )
    .await;
    assert!(
        message.starts_with(
            "unknown value `NONE` for `rules.draw`; expected one of `DRAW_RULE_UNTIL_PLAYABLE`, `DRAW_RULE_NONE`, `DRAW_RULE_ONE_THEN_PASS`"
        ),
        "{message}"
    );
    assert!(
        !message.contains("variant") && !message.contains("UNSPECIFIED"),
        "{message}"
    );
    let answer = post_json(
        &format!("{url}/v1/NewGame"),
        r#"{"variant":"muggins","rules":{"handSise":5}}"#,
    )
    .await;
    assert_refused(
        &answer,
        StatusCode::BAD_REQUEST,
        "ERROR_REASON_MALFORMED_JSON",
        Some("rules.handSise"),
    );
    // 400: wrong types, broken JSON, trailing garbage.
    for body in [
        r#"{"players":"two"}"#,
        r#"{"variant":"muggins""#,
        r#"{"variant":"muggins"} {}"#,
        "[1,2]",
    ] {
        let answer = post_json(&format!("{url}/v1/NewGame"), body).await;
        assert_refused(
            &answer,
            StatusCode::BAD_REQUEST,
            "ERROR_REASON_MALFORMED_JSON",
            None,
        );
    }
    // Not JSON at all names no field (not "?").
    new_game_refused(&server, "{not json", "ERROR_REASON_MALFORMED_JSON", "").await;
    // A number the field cannot hold is said so, in the API's words.
    let message = new_game_refused(
        &server,
        r#"{"variant":"muggins","players":2,"rules":{"target":1099511627776}}"#,
        "ERROR_REASON_MALFORMED_JSON",
        "rules.target",
    )
    .await;
    assert!(
        message.starts_with("`rules.target` cannot hold this value")
            && !message.contains("untagged"),
        "{message}"
    );
    // 400: well-formed JSON, refused by the engine, naming the field.
    let answer = post_json(
        &format!("{url}/v1/NewGame"),
        json!({ "variant": "tiddlywinks" }).to_string(),
    )
    .await;
    assert_refused(
        &answer,
        StatusCode::BAD_REQUEST,
        "ERROR_REASON_UNKNOWN_VARIANT",
        Some("variant"),
    );
    let mut broken = state.clone();
    broken["hands"][0]["tiles"][0] = json!({ "a": 9, "b": 9 });
    let answer = post_json(
        &format!("{url}/v1/LegalMoves"),
        json!({ "state": broken }).to_string(),
    )
    .await;
    assert_refused(
        &answer,
        StatusCode::BAD_REQUEST,
        "ERROR_REASON_INVALID_TILE",
        Some("state.hands[0].tiles[0]"),
    );
    let answer = post_json(
        &format!("{url}/v1/Play"),
        json!({ "state": state }).to_string(),
    )
    .await;
    assert_refused(
        &answer,
        StatusCode::BAD_REQUEST,
        "ERROR_REASON_MISSING_FIELD",
        Some("move"),
    );

    // 409: an illegal move.
    let mut wrong_seat = update["legalMoves"][0].clone();
    wrong_seat["seat"] = json!(1 - to_act);
    let answer = post_json(
        &format!("{url}/v1/Play"),
        json!({ "state": state, "move": wrong_seat }).to_string(),
    )
    .await;
    assert_refused(
        &answer,
        StatusCode::CONFLICT,
        "ERROR_REASON_NOT_YOUR_TURN",
        None,
    );
    assert_eq!(answer.json()["code"], "FAILED_PRECONDITION");

    // 404, 405.
    let answer = post_json(&format!("{url}/v1/Resign"), "{}").await;
    assert_refused(
        &answer,
        StatusCode::NOT_FOUND,
        "ERROR_REASON_UNKNOWN_ROUTE",
        None,
    );
    let answer = call(Method::GET, &format!("{url}/no/such/page")).await;
    assert_refused(
        &answer,
        StatusCode::NOT_FOUND,
        "ERROR_REASON_UNKNOWN_ROUTE",
        None,
    );
    let answer = call(Method::GET, &format!("{url}/v1/Play")).await;
    assert_refused(
        &answer,
        StatusCode::METHOD_NOT_ALLOWED,
        "ERROR_REASON_METHOD_NOT_ALLOWED",
        None,
    );
    assert_eq!(answer.headers[header::ALLOW], "POST");
    let answer = call(Method::DELETE, &format!("{url}/openapi.json")).await;
    assert_refused(
        &answer,
        StatusCode::METHOD_NOT_ALLOWED,
        "ERROR_REASON_METHOD_NOT_ALLOWED",
        None,
    );

    // 413: a body above the limit, with or without a length up front.
    let big =
        json!({ "state": state, "move": update["legalMoves"][0], "padding": "x".repeat(8000) });
    let answer = post_json(&format!("{url}/v1/Play"), big.to_string()).await;
    assert_refused(
        &answer,
        StatusCode::PAYLOAD_TOO_LARGE,
        "ERROR_REASON_REQUEST_TOO_LARGE",
        None,
    );

    server.stop().await;
}

#[tokio::test]
async fn json_refusals_of_keyed_states_and_seat_tokens() {
    let server = TestServer::start_with(Config {
        state_keys: Some(StateKeys::from_text(KEY).expect("key")),
        ..Config::default()
    })
    .await;
    let url = server.url();

    // 401: an unsigned state on a keyed server.
    let update = new_game(&server, json!({ "variant": "draw", "players": 2 })).await;
    let mut unsigned = update["state"].clone();
    unsigned
        .as_object_mut()
        .expect("object")
        .remove("tag")
        .expect("a keyed server tags its states");
    let answer = post_json(
        &format!("{url}/v1/LegalMoves"),
        json!({ "state": unsigned }).to_string(),
    )
    .await;
    assert_refused(
        &answer,
        StatusCode::UNAUTHORIZED,
        "ERROR_REASON_STATE_TAG_MISSING",
        None,
    );

    // 403: a seat's token used for another seat.
    let sealed = new_game(
        &server,
        json!({ "variant": "draw", "players": 2, "asToken": true }),
    )
    .await;
    let seat_one = sealed["seatTokens"][1].clone();
    assert!(seat_one.is_string(), "tokens are base64: {sealed}");
    let answer = post_json(
        &format!("{url}/v1/View"),
        json!({ "stateToken": seat_one, "seat": 0 }).to_string(),
    )
    .await;
    assert_refused(
        &answer,
        StatusCode::FORBIDDEN,
        "ERROR_REASON_SEAT_NOT_PERMITTED",
        Some("seat"),
    );
    // The same token for its own seat: served.
    let answer = post_json(
        &format!("{url}/v1/View"),
        json!({ "stateToken": seat_one, "seat": 1 }).to_string(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.json());
    assert_eq!(answer.json()["seat"], 1);

    // 400: a tampered token.
    let answer = post_json(
        &format!("{url}/v1/View"),
        json!({ "stateToken": "AAAA", "seat": 1 }).to_string(),
    )
    .await;
    assert_refused(
        &answer,
        StatusCode::BAD_REQUEST,
        "ERROR_REASON_STATE_TOKEN_INVALID",
        None,
    );
    server.stop().await;
}

/// Opens a connection and sends the head of a JSON call whose body never
/// arrives.
async fn stalled_call(server: &TestServer) -> TcpStream {
    let mut stream = TcpStream::connect(server.addr).await.expect("connect");
    let head = "POST /v1/ListVariants HTTP/1.1\r\nhost: pips\r\n\
                content-type: application/json\r\ncontent-length: 100\r\n\r\n{";
    stream.write_all(head.as_bytes()).await.expect("write");
    stream
}

#[tokio::test]
async fn a_body_that_never_arrives_holds_no_slot_and_times_out() {
    let server = TestServer::start_with(Config {
        max_concurrent_requests: 1,
        body_timeout: Duration::from_millis(1500),
        ..Config::default()
    })
    .await;
    let url = server.url();
    let mut stalled = Vec::new();
    for _ in 0..4 {
        stalled.push(stalled_call(&server).await);
    }
    // Four bodies are arriving, but the one place is free: every call is
    // served.
    for _ in 0..10 {
        let answer = post_json(&format!("{url}/v1/ListVariants"), "{}").await;
        assert_eq!(answer.status, StatusCode::OK);
    }
    // Each stalled call ends at the body timeout with a JSON 408.
    for mut stream in stalled {
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).await.expect("read");
        let raw = String::from_utf8_lossy(&raw);
        assert!(raw.starts_with("HTTP/1.1 408"), "{raw}");
        assert!(
            raw.contains(r#""reason":"ERROR_REASON_BODY_TIMEOUT""#),
            "{raw}"
        );
    }
    server.stop().await;
}

/// Splits a gRPC-Web body into its data message and its trailers.
fn grpc_web_parts(body: &[u8]) -> (Option<Vec<u8>>, String) {
    let (mut message, mut trailers) = (None, String::new());
    let mut rest = body;
    while rest.len() >= 5 {
        let flag = rest[0];
        let len = u32::from_be_bytes([rest[1], rest[2], rest[3], rest[4]]) as usize;
        let payload = &rest[5..5 + len];
        if flag & 0x80 == 0 {
            message = Some(payload.to_vec());
        } else {
            trailers = String::from_utf8_lossy(payload).into_owned();
        }
        rest = &rest[5 + len..];
    }
    assert!(rest.is_empty(), "whole frames");
    (message, trailers)
}

async fn grpc_web_call(server: &TestServer, rpc: &str, request: &impl Message) -> Answer {
    let request = http::Request::post(format!(
        "{}/pips.v1.DominoEngineService/{rpc}",
        server.url()
    ))
    .header(header::CONTENT_TYPE, "application/grpc-web+proto")
    .header("x-grpc-web", "1")
    .body(Full::new(Bytes::from(grpc_frame(
        0,
        &request.encode_to_vec(),
    ))))
    .expect("request");
    send(request).await
}

#[tokio::test]
async fn grpc_web_round_trip() {
    let server = TestServer::start().await;
    let request = proto::NewGameRequest {
        variant: "muggins".to_owned(),
        players: 2,
        seed: Some(5),
        ..Default::default()
    };
    let answer = grpc_web_call(&server, "NewGame", &request).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(
        answer.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap_or_default()
            .starts_with("application/grpc-web"),
    );
    let (message, trailers) = grpc_web_parts(&answer.body);
    assert!(trailers.contains("grpc-status:0"), "{trailers}");
    let update =
        proto::NewGameResponse::decode(message.expect("a message").as_slice()).expect("decode");
    let from_grpc = server
        .client()
        .await
        .new_game(request)
        .await
        .expect("gRPC")
        .into_inner();
    assert_eq!(update, from_grpc);

    // Play the first legal move over gRPC-Web.
    let play = proto::PlayRequest {
        state_source: update.state.clone().map(Into::into),
        r#move: update.legal_moves.first().copied(),
        ..Default::default()
    };
    let answer = grpc_web_call(&server, "Play", &play).await;
    let (message, trailers) = grpc_web_parts(&answer.body);
    assert!(trailers.contains("grpc-status:0"), "{trailers}");
    let next = proto::PlayResponse::decode(message.expect("a message").as_slice()).expect("decode");
    assert_ne!(next.state, update.state);

    // An illegal move: the status and reason arrive as gRPC-Web trailers
    // (or, with no message, as headers).
    let mut wrong = play.clone();
    if let Some(m) = wrong.r#move.as_mut() {
        m.seat = 1 - m.seat;
    }
    let answer = grpc_web_call(&server, "Play", &wrong).await;
    let (_, trailers) = grpc_web_parts(&answer.body);
    let status = answer
        .headers
        .get("grpc-status")
        .and_then(|v| v.to_str().ok())
        .map(|v| format!("grpc-status:{v}"))
        .unwrap_or(trailers.clone());
    assert!(status.contains("grpc-status:9"), "{status} {trailers}");
    let message = answer
        .headers
        .get("grpc-message")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .unwrap_or(trailers);
    assert!(message.contains("ERROR_REASON_NOT_YOUR_TURN"), "{message}");
    server.stop().await;
}

#[tokio::test]
async fn grpc_web_text_round_trip() {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;

    let server = TestServer::start().await;
    let frame = grpc_frame(0, &proto::ListVariantsRequest {}.encode_to_vec());
    let request = http::Request::post(format!(
        "{}/pips.v1.DominoEngineService/ListVariants",
        server.url()
    ))
    .header(header::CONTENT_TYPE, "application/grpc-web-text")
    .header(header::ACCEPT, "application/grpc-web-text")
    .body(Full::new(Bytes::from(STANDARD.encode(frame))))
    .expect("request");
    let answer = send(request).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(
        answer.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap_or_default()
            .starts_with("application/grpc-web-text")
    );
    // The body is base64 text, each chunk (message, trailers) encoded and
    // padded on its own; every 4-character quantum decodes by itself.
    let mut body = Vec::new();
    for quantum in answer.body.chunks(4) {
        body.extend(STANDARD.decode(quantum).expect("base64"));
    }
    let (message, trailers) = grpc_web_parts(&body);
    assert!(trailers.contains("grpc-status:0"), "{trailers}");
    let variants = proto::ListVariantsResponse::decode(message.expect("a message").as_slice())
        .expect("decode");
    assert_eq!(variants, pips::service::engine::list_variants());
    server.stop().await;
}

#[tokio::test]
async fn cors_is_off_unless_origins_are_configured() {
    let preflight = |url: String| {
        http::Request::builder()
            .method(Method::OPTIONS)
            .uri(url)
            .header(header::ORIGIN, "https://app.example")
            .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
            .header(
                header::ACCESS_CONTROL_REQUEST_HEADERS,
                "content-type,x-grpc-web",
            )
            .body(Full::new(Bytes::new()))
            .expect("request")
    };
    let closed = TestServer::start().await;
    let answer = send(preflight(format!("{}/v1/Play", closed.url()))).await;
    assert!(
        !answer
            .headers
            .contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN)
    );
    closed.stop().await;

    let open = TestServer::start_with(Config {
        cors_origins: vec![http::HeaderValue::from_static("https://app.example")],
        ..Config::default()
    })
    .await;
    for path in ["/v1/Play", "/pips.v1.DominoEngineService/Play"] {
        let answer = send(preflight(format!("{}{path}", open.url()))).await;
        assert!(answer.status.is_success(), "{path}: {}", answer.status);
        assert_eq!(
            answer.headers[header::ACCESS_CONTROL_ALLOW_ORIGIN],
            "https://app.example"
        );
    }
    // Another origin is not allowed.
    let mut other = preflight(format!("{}/v1/Play", open.url()));
    other.headers_mut().insert(
        header::ORIGIN,
        http::HeaderValue::from_static("https://evil.example"),
    );
    let answer = send(other).await;
    assert!(
        !answer
            .headers
            .contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN)
    );
    // A real call carries the header and exposes the gRPC status headers.
    let request = http::Request::post(format!("{}/v1/ListVariants", open.url()))
        .header(header::ORIGIN, "https://app.example")
        .body(Full::new(Bytes::new()))
        .expect("request");
    let answer = send(request).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer.headers[header::ACCESS_CONTROL_ALLOW_ORIGIN],
        "https://app.example"
    );
    open.stop().await;
}

/// Every property name in `value`, checked against the OpenAPI schema
/// `schema` (recursively through references and arrays).
fn check_against_schema(document: &Value, schema: &Value, value: &Value, path: &str) {
    let resolve = |schema: &Value| -> Value {
        let mut schema = schema.clone();
        loop {
            if let Some(inner) = schema.get("allOf").and_then(|a| a.get(0)) {
                schema = inner.clone();
            } else if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
                let name = reference.trim_start_matches("#/components/schemas/");
                schema = document["components"]["schemas"][name].clone();
            } else {
                return schema;
            }
        }
    };
    let schema = resolve(schema);
    match value {
        Value::Object(fields) => {
            assert_eq!(schema["type"], "object", "{path}");
            // What the document says is always present is there.
            let required = schema["required"].as_array().cloned().unwrap_or_default();
            let said = schema["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(_, property)| {
                    property["description"]
                        .as_str()
                        .is_some_and(|text| text.ends_with("Always present in answers."))
                })
                .map(|(name, _)| json!(name));
            for name in required.into_iter().chain(said) {
                let name = name.as_str().unwrap_or_default();
                assert!(fields.contains_key(name), "{path}.{name} is always present");
            }
            for (name, field) in fields {
                let property = &schema["properties"][name];
                assert!(!property.is_null(), "{path}.{name} is not in the schema");
                check_against_schema(document, property, field, &format!("{path}.{name}"));
            }
        }
        Value::Array(items) => {
            assert_eq!(schema["type"], "array", "{path}");
            for item in items {
                check_against_schema(document, &schema["items"], item, &format!("{path}[]"));
            }
        }
        Value::String(text) => {
            assert_eq!(schema["type"], "string", "{path}");
            if let Some(names) = schema["enum"].as_array() {
                assert!(names.contains(&json!(text)), "{path}: {text}");
            }
        }
        Value::Number(_) => assert!(
            schema["type"] == "integer" || schema["type"] == "number",
            "{path}"
        ),
        Value::Bool(_) => assert_eq!(schema["type"], "boolean", "{path}"),
        Value::Null => panic!("{path}: null in an answer"),
    }
}

/// Every object of an answer whose keys look like a tile's, a move's or a
/// seat-carrying event's, with the fields that proto3 JSON would drop at 0.
fn assert_zeros_written(value: &Value, path: &str) {
    match value {
        Value::Object(fields) => {
            if fields.contains_key("a") || fields.contains_key("b") {
                assert!(
                    fields.contains_key("a") && fields.contains_key("b"),
                    "{path}: a tile writes both halves: {value}"
                );
            }
            for (name, field) in fields {
                assert_zeros_written(field, &format!("{path}.{name}"));
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                assert_zeros_written(item, &format!("{path}[{i}]"));
            }
        }
        _ => {}
    }
}

/// The keys of a placement that name its place, as `(key, value)`: a
/// move's `play` and its `tilePlayed` event must agree on them.
fn place_of(placement: &Value) -> Vec<(&'static str, Value)> {
    ["end", "train", "arm"]
        .into_iter()
        .filter_map(|key| placement.get(key).map(|value| (key, value.clone())))
        .collect()
}

/// Checks one answer of a game on `table` (`line`, `trains` or `foot`):
/// an `end` only on a line past its lead, and a hand's end naming the
/// family's table alone.
fn assert_places_apply(update: &Value, table: &str) {
    let state = &update["state"];
    // A line's moves name an end except the lead's.
    let past_lead = table == "line" && state["layout"].get("lead").is_some();
    for mv in update["legalMoves"].as_array().expect("legal moves") {
        if let Some(play) = mv.get("play") {
            assert_eq!(play.get("end").is_some(), past_lead, "{mv}");
        }
    }
    if table != "line" {
        for entry in state["history"].as_array().expect("history") {
            assert!(
                entry
                    .get("play")
                    .is_none_or(|play| play.get("end").is_none()),
                "{entry}"
            );
        }
    }
    for event in update["events"].as_array().expect("events") {
        if let Some(played) = event.get("tilePlayed")
            && table != "line"
        {
            assert!(played.get("end").is_none(), "no end off a line: {played}");
        }
        if let Some(ended) = event.get("handEnded") {
            assert_eq!(ended.get("layout").is_some(), table == "line", "{ended}");
            assert_eq!(ended.get("trains").is_some(), table == "trains", "{ended}");
            assert_eq!(ended.get("foot").is_some(), table == "foot", "{ended}");
        }
    }
}

#[tokio::test]
async fn a_place_is_named_alike_in_a_move_and_its_event() {
    let server = TestServer::start().await;
    let url = format!("{}/v1/Play", server.url());
    let (mut new_arms, mut leads, mut hands) = (0, 0, 0);
    for (variant, players, table) in [
        ("chicken_foot", 4, "foot"),
        ("mexican_train", 4, "trains"),
        ("muggins", 2, "line"),
    ] {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut update = new_game(
            &server,
            json!({ "variant": variant, "players": players, "seed": "11" }),
        )
        .await;
        for _ in 0..400 {
            assert_places_apply(&update, table);
            let legal = update["legalMoves"].as_array().expect("legal moves");
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.random_range(0..legal.len())].clone();
            let body = json!({ "state": update["state"], "move": mv }).to_string();
            let answer = post_json(&url, body).await;
            assert_eq!(answer.status, StatusCode::OK, "{}", answer.json());
            update = answer.json();
            let events = update["events"].as_array().expect("events");
            hands += events
                .iter()
                .filter(|e| e.get("handEnded").is_some())
                .count();
            let Some(play) = mv.get("play") else {
                continue;
            };
            let played = events
                .iter()
                .find_map(|event| event.get("tilePlayed"))
                .expect("a placement's event");
            assert_eq!(place_of(played), place_of(play), "{mv} → {played}");
            leads += usize::from(table == "line" && play.get("end").is_none());
            if play["arm"].get("newArm").is_some() {
                new_arms += 1;
                // The arm it started: the last of the foot's arms, unless
                // the placement ended the hand (a new foot is dealt).
                let arms = update["state"]["foot"]["arms"].as_array().map(Vec::len);
                let started = played["startedArm"].as_u64().expect("startedArm");
                if events.iter().all(|e| e.get("handEnded").is_none()) {
                    assert_eq!(Some(started as usize + 1), arms, "{played}");
                }
            } else {
                assert!(played.get("startedArm").is_none(), "{played}");
            }
        }
    }
    assert!(
        new_arms >= 4 && leads >= 1 && hands >= 3,
        "{new_arms} {leads} {hands}"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_trick_games_moves_are_refused_where_tiles_are_placed() {
    let server = TestServer::start().await;
    let url = format!("{}/v1/Play", server.url());
    let moves = [
        (json!({ "bid": { "points": 30 } }), "move.bid"),
        (json!({ "contract": { "trumps": 5 } }), "move.contract"),
        (json!({ "discard": { "a": 6, "b": 4 } }), "move.discard"),
        (json!({ "trick": { "a": 6, "b": 4 } }), "move.trick"),
    ];
    for (variant, players) in [("block", 2), ("mexican_train", 4), ("chicken_foot", 4)] {
        let update = new_game(
            &server,
            json!({ "variant": variant, "players": players, "seed": "5" }),
        )
        .await;
        let seat = update["toAct"].clone();
        for (action, field) in &moves {
            let mut mv = action.clone();
            mv["seat"] = seat.clone();
            let body = json!({ "state": update["state"], "move": mv }).to_string();
            let answer = post_json(&url, body).await;
            assert_refused(
                &answer,
                StatusCode::CONFLICT,
                "ERROR_REASON_NOT_A_MOVE_OF_THIS_GAME",
                Some(field),
            );
            let message = answer.json()["message"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            assert!(message.contains("trick-taking games"), "{message}");
        }
        // A history that holds one is refused as the state it is.
        let mut state = update["state"].clone();
        state["history"] = json!([{ "seat": seat, "bid": { "marks": 1 } }]);
        let legal = update["legalMoves"][0].clone();
        let body = json!({ "state": state, "move": legal }).to_string();
        let answer = post_json(&url, body).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.json());
        assert!(
            answer.json()["field"]
                .as_str()
                .is_some_and(|field| field.starts_with("state.history[0]")),
            "{}",
            answer.json()
        );
    }
    // A bid that names nothing is malformed, at its field.
    let update = new_game(&server, json!({ "variant": "block", "players": 2 })).await;
    let mv = json!({ "seat": update["toAct"], "bid": {} });
    let body = json!({ "state": update["state"], "move": mv }).to_string();
    let answer = post_json(&url, body).await;
    assert_refused(
        &answer,
        StatusCode::BAD_REQUEST,
        "ERROR_REASON_MALFORMED_MOVE",
        Some("move.bid"),
    );
    server.stop().await;
}

#[tokio::test]
async fn answers_write_fields_at_their_default_values() {
    let server = TestServer::start().await;
    // Seed 42 of muggins deals seat 0 a tile with a zero half and seat 0
    // leads some hand; play on until both show up.
    let mut update = new_game(
        &server,
        json!({ "variant": "muggins", "players": 2, "seed": "42" }),
    )
    .await;
    let (mut zero_half, mut seat_zero) = (false, false);
    for _ in 0..200 {
        assert_zeros_written(&update, "answer");
        for mv in update["legalMoves"].as_array().expect("legal moves") {
            assert!(mv["seat"].is_u64(), "a move names its seat: {mv}");
            seat_zero |= mv["seat"] == 0;
            let tile = &mv["play"]["tile"];
            zero_half |= tile["b"] == 0;
        }
        let state = &update["state"];
        for field in [
            "toAct",
            "handLeader",
            "drewThisTurn",
            "history",
            "matchDigest",
        ] {
            assert!(state.get(field).is_some(), "state.{field} is written");
        }
        assert!(update["scoreChange"].is_array() && update["matchDigest"].is_string());
        let Some(mv) = update["legalMoves"].get(0).cloned() else {
            break;
        };
        let body = json!({ "state": update["state"], "move": mv }).to_string();
        let answer = post_json(&format!("{}/v1/Play", server.url()), body).await;
        assert_eq!(answer.status, StatusCode::OK);
        update = answer.json();
    }
    assert!(zero_half && seat_zero, "the answers met zeros");
    // A oneof source: both forms at once is not one request.
    let both = json!({ "state": update["state"], "stateToken": "AAAA" }).to_string();
    let answer = post_json(&format!("{}/v1/LegalMoves", server.url()), both).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.json()["reason"], "ERROR_REASON_MALFORMED_JSON");
    server.stop().await;
}

#[tokio::test]
async fn openapi_document_describes_the_served_routes() {
    let server = TestServer::start().await;
    let url = server.url();
    let answer = call(Method::GET, &format!("{url}/openapi.json")).await;
    assert_eq!(answer.status, StatusCode::OK);
    let document = answer.json();
    assert_eq!(document["openapi"], "3.1.0");
    let paths = document["paths"].as_object().expect("paths");
    assert_eq!(paths.len(), 9);
    for (path, item) in paths {
        // Every documented route is served (an empty body is valid for
        // each: it answers or refuses it, never 404).
        let answer = post_json(&format!("{url}{path}"), "{}").await;
        assert_ne!(answer.status, StatusCode::NOT_FOUND, "{path}");
        // The answers, refusals included, fit the documented schemas.
        let status = answer.status.as_u16().to_string();
        let schema = &item["post"]["responses"][&status]["content"]["application/json"]["schema"];
        assert!(
            !schema.is_null(),
            "{path}: status {status} is not documented"
        );
        check_against_schema(&document, schema, &answer.json(), path);
    }
    // A full answer, with every kind of field, fits its schema too.
    let update = new_game(
        &server,
        json!({ "variant": "all_fives", "players": 4, "seed": "3" }),
    )
    .await;
    let schema =
        &paths["/v1/NewGame"]["post"]["responses"]["200"]["content"]["application/json"]["schema"];
    check_against_schema(&document, schema, &update, "NewGameResponse");
    let variants = post_json(&format!("{url}/v1/ListVariants"), "")
        .await
        .json();
    let schema = &paths["/v1/ListVariants"]["post"]["responses"]["200"]["content"]["application/json"]
        ["schema"];
    check_against_schema(&document, schema, &variants, "ListVariantsResponse");
    server.stop().await;
}

#[tokio::test]
async fn playground_is_served_and_calls_only_the_public_api() {
    let server = TestServer::start().await;
    let answer = call(Method::GET, &server.url()).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(
        answer.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap_or_default()
            .starts_with("text/html")
    );
    let page = String::from_utf8_lossy(&answer.body).into_owned();
    assert!(page.contains("<title>pips</title>"));
    // Its code and styles, each served with its type and a tag, and not
    // sent again to a browser that holds it.
    let mut code = String::new();
    let linked: Vec<&str> = page
        .split("src=\"")
        .skip(1)
        .chain(page.split("rel=\"stylesheet\" href=\"").skip(1))
        .filter_map(|rest| rest.split('"').next())
        .filter(|path| path.starts_with("/web/"))
        .collect();
    assert!(linked.len() >= 10, "{linked:?}");
    for path in linked {
        let file = call(Method::GET, &format!("{}{path}", server.url())).await;
        assert_eq!(file.status, StatusCode::OK, "{path}");
        let kind = file.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap_or_default();
        let wanted = if path.ends_with(".css") {
            "text/css"
        } else {
            "text/javascript"
        };
        assert!(kind.starts_with(wanted), "{path}: {kind}");
        let tag = file.headers[header::ETAG]
            .to_str()
            .expect("a tag")
            .to_owned();
        let again = send(
            http::Request::get(format!("{}{path}", server.url()))
                .header(header::IF_NONE_MATCH, tag)
                .body(Full::new(Bytes::new()))
                .expect("request"),
        )
        .await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{path}");
        code.push_str(&String::from_utf8_lossy(&file.body));
    }
    // Its only calls are `fetch` to /v1/<RpcName>, to a table's watch
    // (server-sent events), to the rule book and to its language
    // catalogs, and every RPC it names is served.
    assert_eq!(code.matches("fetch(").count(), 5);
    assert!(code.contains("fetch(`/v1/${rpc}`"));
    assert!(code.contains("fetch(\"/v1/Watch\""));
    assert!(code.contains("fetch(\"/rules.md\")"));
    assert!(code.contains("fetch(\"/web/i18n/languages.json\")"));
    assert!(code.contains("fetch(`/web/i18n/${code}.json`)"));
    // Every language it lists has its catalog, each naming every game.
    let listed = call(
        Method::GET,
        &format!("{}/web/i18n/languages.json", server.url()),
    )
    .await;
    let languages: Vec<String> = serde_json::from_slice(&listed.body).expect("the languages");
    assert!(languages.len() >= 5, "{languages:?}");
    for rpc in [
        "ListVariants",
        "NewGame",
        "Play",
        "View",
        "SuggestMove",
        "CreateTable",
        "Act",
        "Rematch",
        "Record",
    ] {
        assert!(code.contains(&format!("call(\"{rpc}\"")), "{rpc}");
    }
    // The rule book its rules cards show: a section for every preset.
    let book = call(Method::GET, &format!("{}/rules.md", server.url())).await;
    assert_eq!(book.status, StatusCode::OK);
    assert_eq!(
        book.headers[header::CONTENT_TYPE],
        "text/markdown; charset=utf-8"
    );
    assert_eq!(book.headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    let book = String::from_utf8_lossy(&book.body).into_owned();
    let variants = post_json(&format!("{}/v1/ListVariants", server.url()), "")
        .await
        .json();
    let ids: Vec<&str> = variants["variants"]
        .as_array()
        .expect("variants")
        .iter()
        .map(|v| v["id"].as_str().expect("an id"))
        .collect();
    assert!(ids.len() >= 12, "{ids:?}");
    for id in ids {
        assert!(
            book.lines().any(|line| line == format!("## {id}")),
            "the rule book has no section for {id}"
        );
    }
    // Its icon, at the path it links and where browsers look by default.
    assert!(page.contains(r#"<link rel="icon" href="/favicon.svg""#));
    for path in ["/favicon.svg", "/favicon.ico"] {
        let icon = call(Method::GET, &format!("{}{path}", server.url())).await;
        assert_eq!(icon.status, StatusCode::OK, "{path}");
        assert_eq!(
            icon.headers[header::CONTENT_TYPE],
            "image/svg+xml",
            "{path}"
        );
        assert!(
            String::from_utf8_lossy(&icon.body).starts_with("<svg"),
            "{path}"
        );
    }
    server.stop().await;
}

/// `POST url` with a gRPC-Web body of `content_type`.
async fn grpc_web_post(url: &str, content_type: &str, body: Vec<u8>) -> Answer {
    let request = http::Request::post(url)
        .header(header::CONTENT_TYPE, content_type)
        .body(Full::new(Bytes::from(body)))
        .expect("request");
    send(request).await
}

/// The gRPC status and `ErrorInfo` reason of a gRPC-Web answer, from its
/// headers (a trailers-only answer) or its trailer frame.
fn grpc_web_status(answer: &Answer) -> (String, String) {
    let (_, trailers) = grpc_web_parts(&answer.body);
    let mut fields: Vec<(String, String)> = trailers
        .lines()
        .filter_map(|line| line.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    for (name, value) in &answer.headers {
        fields.push((
            name.as_str().to_owned(),
            value.to_str().unwrap_or_default().to_owned(),
        ));
    }
    let get = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let details = base64::Engine::decode(
        &base64::engine::general_purpose::STANDARD_NO_PAD,
        get("grpc-status-details-bin").trim_end_matches('='),
    )
    .unwrap_or_default();
    let status = tonic::Status::with_details(
        tonic::Code::from_i32(get("grpc-status").parse().unwrap_or(2)),
        "",
        details.into(),
    );
    let reason = tonic_types::StatusExt::get_error_details(&status)
        .error_info()
        .map(|info| info.reason.clone())
        .unwrap_or_default();
    (get("grpc-status"), reason)
}

#[tokio::test]
async fn malformed_protobuf_and_unknown_methods_are_refused_with_a_reason() {
    let server = TestServer::start().await;
    let valid = proto::NewGameRequest {
        variant: "muggins".to_owned(),
        players: 2,
        ..Default::default()
    }
    .encode_to_vec();
    let mut flipped = valid.clone();
    flipped[0] ^= 0x07; // the first tag's wire type
    let mut trailing = valid.clone();
    trailing.extend([0xff, 0xff, 0xff]);
    let url = server.url();
    for payload in [flipped, trailing, vec![0x0a, 0x40, b'x'], vec![0xff; 9]] {
        let answer = grpc_web_post(
            &format!("{url}/pips.v1.DominoEngineService/NewGame"),
            "application/grpc-web+proto",
            grpc_frame(0, &payload),
        )
        .await;
        assert_eq!(
            grpc_web_status(&answer),
            ("3".to_owned(), "ERROR_REASON_MALFORMED_REQUEST".to_owned()),
            "{payload:?}"
        );
    }
    // An unknown service answers gRPC-Web in gRPC-Web, with its reason.
    let answer = grpc_web_post(
        &format!("{url}/pips.v1.Casino/Cheat"),
        "application/grpc-web-text",
        Vec::new(),
    )
    .await;
    assert_eq!(
        answer.headers[header::CONTENT_TYPE],
        "application/grpc-web-text"
    );
    assert_eq!(
        grpc_web_status(&answer),
        ("12".to_owned(), "ERROR_REASON_UNKNOWN_ROUTE".to_owned())
    );
    // An unknown method of the engine: tonic's own UNIMPLEMENTED, in
    // gRPC-Web too.
    let answer = grpc_web_post(
        &format!("{url}/pips.v1.DominoEngineService/Cheat"),
        "application/grpc-web+proto",
        Vec::new(),
    )
    .await;
    assert!(
        answer.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap_or_default()
            .starts_with("application/grpc-web")
    );
    assert_eq!(grpc_web_status(&answer).0, "12");
    server.stop().await;
}
