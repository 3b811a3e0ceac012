//! The real server on `127.0.0.1:0` for one test, and the plain HTTP/1.1
//! client the JSON and gRPC-Web tests talk to it with.

#![allow(dead_code)]

use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use pips::proto;
use pips::proto::domino_engine_service_client::DominoEngineServiceClient;
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;

/// A server running for one test; `stop` shuts it down and checks that it
/// ran cleanly.
pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<Result<(), pips::server::ServerError>>>,
}

impl TestServer {
    pub async fn start() -> TestServer {
        TestServer::start_with(pips::server::Config::default()).await
    }

    pub async fn start_with(config: pips::server::Config) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(pips::server::run(listener, config, async {
            let _ = stopped.await;
        }));
        TestServer {
            addr,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// A gRPC client on its own connection.
    pub async fn client(&self) -> DominoEngineServiceClient<Channel> {
        DominoEngineServiceClient::connect(format!("http://{}", self.addr))
            .await
            .expect("connect")
    }

    /// `http://127.0.0.1:port`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await
                .expect("server task")
                .expect("server ran cleanly");
        }
    }
}

/// The `ErrorInfo` reason of a status.
pub fn reason(status: &tonic::Status) -> String {
    use tonic_types::StatusExt;
    status
        .get_error_details()
        .error_info()
        .map(|info| info.reason.clone())
        .unwrap_or_default()
}

/// An HTTP/1.1-only client (as curl or a browser's fetch would speak).
pub fn http1_client() -> Client<HttpConnector, Full<Bytes>> {
    Client::builder(TokioExecutor::new()).build_http()
}

/// An answer: status, headers and body.
pub struct Answer {
    pub status: http::StatusCode,
    pub headers: http::HeaderMap,
    pub body: Bytes,
}

impl Answer {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
}

/// Sends `request` over HTTP/1.1 and reads the whole answer.
pub async fn send(request: http::Request<Full<Bytes>>) -> Answer {
    let response = http1_client().request(request).await.expect("HTTP call");
    let (parts, body) = response.into_parts();
    let body = body.collect().await.expect("body").to_bytes();
    Answer {
        status: parts.status,
        headers: parts.headers,
        body,
    }
}

/// `POST url` with a JSON body.
pub async fn post_json(url: &str, body: impl Into<Bytes>) -> Answer {
    let request = http::Request::post(url)
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(Full::new(body.into()))
        .expect("request");
    send(request).await
}

/// `method url` with no body.
pub async fn call(method: http::Method, url: &str) -> Answer {
    let request = http::Request::builder()
        .method(method)
        .uri(url)
        .body(Full::new(Bytes::new()))
        .expect("request");
    send(request).await
}

/// A legal record of `moves` moves: a muggins match to a target no one
/// reaches, played at random from seed 1.
pub fn record(moves: usize) -> proto::ReplayRequest {
    let engine = pips::service::Engine::default();
    let deal = engine
        .new_game(&proto::NewGameRequest {
            variant: "muggins".to_owned(),
            players: 2,
            seed: Some(1),
            rules: Some(proto::Rules {
                target: Some(1_000_000),
                ..Default::default()
            }),
            ..Default::default()
        })
        .expect("a deal");
    let mut request = proto::ReplayRequest {
        state_source: deal.state.clone().map(Into::into),
        ..Default::default()
    };
    let mut update: proto::PlayResponse = deal.into();
    let mut rng = <rand::rngs::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
    while request.moves.len() < moves {
        let mv =
            update.legal_moves[rand::RngExt::random_range(&mut rng, 0..update.legal_moves.len())];
        request.moves.push(mv);
        update = engine
            .play(&proto::PlayRequest {
                state_source: update.state.clone().map(Into::into),
                r#move: Some(mv),
                ..Default::default()
            })
            .expect("legal");
    }
    request
}

/// A state whose seat to act has a real choice, and that seat.
pub async fn a_choice(server: &TestServer) -> (proto::GameState, u32) {
    let mut client = server.client().await;
    let mut update: proto::PlayResponse = client
        .new_game(proto::NewGameRequest {
            variant: "muggins".to_owned(),
            players: 2,
            seed: Some(1),
            ..Default::default()
        })
        .await
        .expect("dealt")
        .into_inner()
        .into();
    while update.legal_moves.len() < 3 {
        update = client
            .play(proto::PlayRequest {
                state_source: update.state.clone().map(Into::into),
                r#move: update.legal_moves.first().copied(),
                ..Default::default()
            })
            .await
            .expect("played")
            .into_inner();
    }
    (update.state.expect("a state"), update.to_act.unwrap_or(0))
}

/// A gRPC (or gRPC-Web) frame: flag, big-endian length, payload.
pub fn grpc_frame(flag: u8, payload: &[u8]) -> Vec<u8> {
    let mut frame = vec![flag];
    frame.extend(u32::try_from(payload.len()).expect("small").to_be_bytes());
    frame.extend(payload);
    frame
}

/// An HTTP/2 connection to `addr`, driven in the background.
pub async fn http2(addr: SocketAddr) -> h2::client::SendRequest<Bytes> {
    http2_watched(addr, 65_535).await.0
}

/// An HTTP/2 connection to `addr`, driven in the background by the task
/// returned (which ends when the connection does); `window`: each
/// stream's flow-control window (0: no answer byte may be sent until the
/// client reads, which it never does).
pub async fn http2_watched(
    addr: SocketAddr,
    window: u32,
) -> (
    h2::client::SendRequest<Bytes>,
    JoinHandle<Result<(), h2::Error>>,
) {
    let tcp = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let (sender, connection) = h2::client::Builder::new()
        .initial_window_size(window)
        .handshake(tcp)
        .await
        .expect("HTTP/2");
    (sender, tokio::spawn(connection))
}

/// Opens an HTTP/2 connection to `addr` with `streams` calls whose bodies
/// start but never finish: its sender, the calls' answers and their bodies
/// (dropping the sender and the bodies ends them).
pub async fn stalled_http2_calls(
    addr: SocketAddr,
    streams: usize,
) -> (
    h2::client::SendRequest<Bytes>,
    Vec<h2::client::ResponseFuture>,
    Vec<h2::SendStream<Bytes>>,
) {
    let sender = http2(addr).await;
    let mut answers = Vec::new();
    let mut bodies = Vec::new();
    for _ in 0..streams {
        let mut sender = sender.clone().ready().await.expect("a stream");
        let request = http::Request::post(format!(
            "http://{addr}/pips.v1.DominoEngineService/ListVariants"
        ))
        .header(http::header::CONTENT_TYPE, "application/grpc")
        .header("te", "trailers")
        .body(())
        .expect("request");
        let (answer, mut body) = sender.send_request(request, false).expect("sent");
        body.send_data(Bytes::from_static(&[0, 0, 0, 0, 9, 1]), false)
            .expect("data");
        answers.push(answer);
        bodies.push(body);
    }
    (sender, answers, bodies)
}

/// The real binary (`pips`), serving tables on `database` at `addr` with
/// `flags` besides; killed with SIGKILL when dropped (if still running).
pub struct Binary(std::process::Child);

impl Binary {
    /// Starts it (it may take a moment to answer).
    pub fn start(addr: SocketAddr, database: &str, flags: &[&str]) -> Binary {
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_pips"))
            .args(["--addr", &addr.to_string(), "--tables-db", database])
            .args(flags)
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the server starts");
        Binary(child)
    }

    /// SIGKILL: no shutdown, nothing flushed.
    pub fn kill(mut self) {
        self.0.kill().expect("killed");
        self.0.wait().expect("reaped");
    }
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
