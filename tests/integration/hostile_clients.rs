//! The real server against clients that misbehave on purpose: huge echoed
//! input, bodies that never finish, connections that send nothing or half
//! a header, idle connections. Each attack must cost the server little and
//! leave well-behaved clients served.

use crate::server;

use std::time::Duration;

use bytes::Bytes;
use http::header;
use http_body_util::Full;
use pips::proto;
use pips::server::Config;
use server::{TestServer, grpc_frame, post_json, send, stalled_http2_calls};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Waits at most this long for the server to close a connection: far
/// above the short timeouts the tests configure, so a pass is not a race.
const CLOSE_WITHIN: Duration = Duration::from_secs(15);

/// A server whose connections time out after a second.
async fn impatient_server() -> TestServer {
    TestServer::start_with(Config {
        header_timeout: Duration::from_secs(1),
        idle_timeout: Duration::from_secs(1),
        body_timeout: Duration::from_secs(3),
        ..Config::default()
    })
    .await
}

/// Reads from `stream` until the server closes it; what it sent.
async fn until_closed(stream: &mut TcpStream) -> Vec<u8> {
    let mut received = Vec::new();
    let read = tokio::time::timeout(CLOSE_WITHIN, stream.read_to_end(&mut received)).await;
    assert!(read.is_ok(), "the server kept the connection open");
    received
}

#[tokio::test]
async fn echoed_input_is_quoted_only_in_part() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let variant = "\u{1}".repeat(1_000_000);
    let status = client
        .new_game(proto::NewGameRequest {
            variant: variant.clone(),
            players: 2,
            ..Default::default()
        })
        .await
        .expect_err("no such preset");
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert!(status.message().len() < 1024, "{}", status.message().len());
    assert!(status.details().len() < 2048, "{}", status.details().len());
    assert!(status.message().contains('…'), "{}", status.message());

    // The same over HTTP/JSON and gRPC-Web (HTTP/1.1).
    let url = server.url();
    let body = serde_json::json!({ "variant": "a".repeat(1_000_000), "players": 2 });
    let answer = post_json(&format!("{url}/v1/NewGame"), body.to_string()).await;
    assert_eq!(answer.status, http::StatusCode::BAD_REQUEST);
    assert!(answer.body.len() < 2048, "{}", answer.body.len());
    let unknown_field = format!(r#"{{"{}": 1}}"#, "k".repeat(500_000));
    let answer = post_json(&format!("{url}/v1/NewGame"), unknown_field).await;
    assert_eq!(answer.status, http::StatusCode::BAD_REQUEST);
    assert!(answer.body.len() < 2048, "{}", answer.body.len());
    let request = proto::NewGameRequest {
        variant,
        players: 2,
        ..Default::default()
    };
    let frame = grpc_frame(0, &prost::Message::encode_to_vec(&request));
    let answer = send(
        http::Request::post(format!("{url}/pips.v1.DominoEngineService/NewGame"))
            .header(header::CONTENT_TYPE, "application/grpc-web+proto")
            .body(Full::new(Bytes::from(frame)))
            .expect("request"),
    )
    .await;
    let header_bytes: usize = answer
        .headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len())
        .sum();
    assert!(
        header_bytes + answer.body.len() < 4096,
        "{header_bytes} + {}",
        answer.body.len()
    );
    server.stop().await;
}

#[tokio::test]
async fn bodies_that_never_finish_do_not_starve_other_callers() {
    let server = TestServer::start_with(Config {
        max_concurrent_requests: 4,
        max_streams_per_connection: 16,
        body_timeout: Duration::from_secs(2),
        ..Config::default()
    })
    .await;
    // Two connections, each with as many unfinished calls as it may open:
    // eight times the server's concurrency.
    let _first = stalled_http2_calls(server.addr, 16).await;
    let _second = stalled_http2_calls(server.addr, 16).await;
    let mut client = server.client().await;
    for _ in 0..20 {
        client
            .list_variants(proto::ListVariantsRequest {})
            .await
            .expect("served while the stalled calls wait for their bodies");
    }
    server.stop().await;
}

#[tokio::test]
async fn the_stream_limit_is_advertised() {
    let server = TestServer::start_with(Config {
        max_streams_per_connection: 7,
        ..Config::default()
    })
    .await;
    let tcp = TcpStream::connect(server.addr).await.expect("connect");
    let (_sender, mut connection) = h2::client::handshake(tcp).await.expect("HTTP/2");
    let advertised = tokio::time::timeout(
        CLOSE_WITHIN,
        std::future::poll_fn(|cx| {
            let _ = std::pin::Pin::new(&mut connection).poll(cx);
            match connection.max_concurrent_send_streams() {
                7 => std::task::Poll::Ready(7),
                _ => std::task::Poll::Pending,
            }
        }),
    )
    .await;
    assert_eq!(advertised, Ok(7));
    server.stop().await;
}

#[tokio::test]
async fn connections_that_send_nothing_or_half_a_header_are_closed() {
    let server = impatient_server().await;
    let mut silent = TcpStream::connect(server.addr).await.expect("connect");
    let mut half = TcpStream::connect(server.addr).await.expect("connect");
    half.write_all(b"POST /v1/ListVariants HTTP/1.1\r\nhost: pips\r\ncontent-")
        .await
        .expect("write");
    until_closed(&mut silent).await;
    until_closed(&mut half).await;
    // Meanwhile and afterwards, calls are served.
    let answer = post_json(&format!("{}/v1/ListVariants", server.url()), "{}").await;
    assert_eq!(answer.status, http::StatusCode::OK);
    server.stop().await;
}

/// An HTTP/1.1 request of `header_bytes` of one header and a JSON body of
/// `body_bytes` (an empty object padded with spaces): the server's answer.
async fn http1_call(server: &TestServer, header_bytes: usize, body_bytes: usize) -> String {
    let mut stream = TcpStream::connect(server.addr).await.expect("connect");
    let body = format!("{{{}}}", " ".repeat(body_bytes.saturating_sub(2)));
    let head = format!(
        "POST /v1/ListVariants HTTP/1.1\r\nhost: pips\r\nx-padding: {}\r\n\
         content-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        "p".repeat(header_bytes),
        body.len()
    );
    stream.write_all(head.as_bytes()).await.expect("write");
    stream.write_all(body.as_bytes()).await.expect("write");
    String::from_utf8_lossy(&until_closed(&mut stream).await).into_owned()
}

#[tokio::test]
async fn http1_heads_must_fit_in_8_kib_and_bodies_may_be_larger() {
    let server = TestServer::start().await;
    // A head within 8 KiB, a body of 100 KB: read 8 KiB at a time.
    let answer = http1_call(&server, 7 * 1024, 100_000).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{}", &answer[..80]);
    // A head past it: refused, the connection closed.
    let answer = http1_call(&server, 9 * 1024, 2).await;
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer}");
    // And the server serves on.
    let answer = post_json(&format!("{}/v1/ListVariants", server.url()), "{}").await;
    assert_eq!(answer.status, http::StatusCode::OK);
    server.stop().await;
}

#[tokio::test]
async fn idle_connections_are_closed_but_calls_in_flight_are_not() {
    let server = impatient_server().await;
    // HTTP/1.1 keep-alive: one call, then nothing.
    let mut keep_alive = TcpStream::connect(server.addr).await.expect("connect");
    keep_alive
        .write_all(
            b"POST /v1/ListVariants HTTP/1.1\r\nhost: pips\r\ncontent-length: 2\r\n\
              content-type: application/json\r\n\r\n{}",
        )
        .await
        .expect("write");
    let answer = until_closed(&mut keep_alive).await;
    assert!(
        answer.starts_with(b"HTTP/1.1 200"),
        "answered before closing"
    );

    // HTTP/2 with no streams: the connection ends (GOAWAY).
    let tcp = TcpStream::connect(server.addr).await.expect("connect");
    let (_sender, connection) = h2::client::handshake(tcp).await.expect("HTTP/2");
    let ended = tokio::time::timeout(CLOSE_WITHIN, connection).await;
    assert!(ended.is_ok(), "an idle HTTP/2 connection stays open");

    // A call whose body is still arriving is in flight, not idle: it ends
    // at the body timeout (3 s) with its answer, not at the idle timeout.
    let mut stalled = stalled_call(server.addr).await;
    let answer = until_closed(&mut stalled).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("ERROR_REASON_BODY_TIMEOUT"), "{answer}");
    server.stop().await;
}

/// A connection with a call in flight whose body never finishes arriving.
async fn stalled_call(addr: std::net::SocketAddr) -> TcpStream {
    let mut stalled = TcpStream::connect(addr).await.expect("connect");
    stalled
        .write_all(
            b"POST /v1/ListVariants HTTP/1.1\r\nhost: pips\r\ncontent-length: 9\r\n\
              content-type: application/json\r\n\r\n{",
        )
        .await
        .expect("write");
    stalled
}

#[tokio::test]
async fn at_the_connection_cap_a_new_connection_takes_an_idle_ones_place() {
    let server = TestServer::start_with(Config {
        max_connections: Some(1),
        header_timeout: Duration::from_secs(3),
        body_timeout: Duration::from_secs(3),
        ..Config::default()
    })
    .await;
    // A silent connection takes the one place ...
    let mut silent = TcpStream::connect(server.addr).await.expect("connect");
    tokio::time::sleep(Duration::from_millis(200)).await;
    // ... and a call on a new connection takes it from it at once.
    let url = format!("{}/v1/ListVariants", server.url());
    let answered = tokio::time::timeout(Duration::from_secs(2), post_json(&url, "{}")).await;
    assert!(
        matches!(&answered, Ok(answer) if answer.status == http::StatusCode::OK),
        "a call waited behind an idle connection"
    );
    let closed = tokio::time::timeout(Duration::from_secs(1), until_closed(&mut silent)).await;
    assert!(closed.is_ok(), "the idle connection was closed");
    // A connection with a call in flight (its body still arriving) is
    // not idle: a new one waits for it (until its body timeout).
    let mut stalled = stalled_call(server.addr).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let url = format!("{}/v1/ListVariants", server.url());
    let call = tokio::spawn(async move { post_json(&url, "{}").await.status });
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(!call.is_finished(), "served beyond the connection cap");
    until_closed(&mut stalled).await;
    let status = tokio::time::timeout(CLOSE_WITHIN, call).await;
    assert!(matches!(status, Ok(Ok(http::StatusCode::OK))), "{status:?}");
    server.stop().await;
}
