//! Attacks with hostile states and small answers nobody reads: states
//! padded with moves nobody made, requests of a megabyte whose answers are
//! small, small answers left unread on every stream a connection may open,
//! bodies over the limit sent whole before the answer is read, and the
//! scrapes that must get through a metrics listener held open. Each is
//! bounded in connections and time and aimed at loopback only.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use pips::proto::{self, NewGameRequest, PlayRequest, ViewRequest};
use pips::service::Engine;
use prost::Message;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::costly::{Http1, frame};

/// A request an attacker sends, and what the server must answer.
#[derive(Clone)]
pub struct Hostile {
    /// Its path.
    path: &'static str,
    /// Its body: a gRPC frame, or JSON.
    body: Bytes,
    /// Whether it is gRPC (else HTTP/1.1 JSON).
    grpc: bool,
    /// Whether it must be served (a large but valid request), else refused
    /// as a malformed state.
    served: bool,
}

/// How the hostile requests were answered.
#[derive(Default)]
pub struct Answered {
    /// As they must be (refused, or served).
    pub expected: AtomicU64,
    /// Otherwise (or failed).
    pub otherwise: AtomicU64,
}

/// The hostile requests of `--attack hostile-states`, each just under the
/// server's default request limit: a `Play` whose open token holds 450,000
/// passes; a `View` whose readable state holds 1,000 passes (gRPC) and
/// 30,000 (JSON); an `expert` `SuggestMove` on the 1,000-pass state; and a
/// valid `View` padded to a megabyte (JSON whitespace; a protobuf field no
/// message has), which must be served.
pub fn hostile_requests() -> Vec<Hostile> {
    let engine = Engine::default();
    let deal = |as_token| {
        engine
            .new_game(&NewGameRequest {
                variant: "muggins".to_owned(),
                players: 2,
                seed: Some(42),
                as_token,
                ..Default::default()
            })
            .expect("a deal")
    };
    let update = deal(false);
    let seat = update.to_act.unwrap_or(0);
    let state = update.state.clone().unwrap_or_default();
    let padded = |passes: usize| {
        let mut state = state.clone();
        let pass = proto::HistoryEntry {
            seat,
            action: Some(proto::history_entry::Action::Pass(proto::Pass {})),
        };
        state.history.extend(std::iter::repeat_n(pass, passes));
        state
    };
    let token = deal(true).state_token;
    let mut packed = proto::PackedState::decode(token.as_slice()).unwrap_or_default();
    let pass = [2u8 | ((seat as u8) << 2), 0];
    packed.history.extend(pass.iter().cycle().take(900_000));
    let play = PlayRequest {
        state_source: Some(proto::play_request::StateSource::StateToken(
            packed.encode_to_vec(),
        )),
        r#move: update.legal_moves.first().copied(),
        ..Default::default()
    };
    let view = |state: proto::GameState| ViewRequest {
        state_source: Some(proto::view_request::StateSource::State(state)),
        seat,
    };
    let suggest = proto::SuggestMoveRequest {
        state_source: Some(proto::suggest_move_request::StateSource::State(padded(
            1_000,
        ))),
        seat,
        level: proto::BotLevel::Expert as i32,
        ..Default::default()
    };
    let json = |message: &ViewRequest| Bytes::from(serde_json::to_vec(message).unwrap_or_default());
    let valid = view(state.clone());
    let mut padded_json = serde_json::to_vec(&valid).unwrap_or_default();
    padded_json.extend(std::iter::repeat_n(b' ', 1_000_000));
    let mut padded_proto = valid.encode_to_vec();
    prost::encoding::bytes::encode(1000, &vec![b'x'; 1_000_000], &mut padded_proto);
    let grpc = |path, payload: Vec<u8>, served| Hostile {
        path,
        body: frame(&payload),
        grpc: true,
        served,
    };
    vec![
        grpc(
            "/pips.v1.DominoEngineService/Play",
            play.encode_to_vec(),
            false,
        ),
        grpc(
            "/pips.v1.DominoEngineService/View",
            view(padded(1_000)).encode_to_vec(),
            false,
        ),
        Hostile {
            path: "/v1/View",
            body: json(&view(padded(30_000))),
            grpc: false,
            served: false,
        },
        grpc(
            "/pips.v1.DominoEngineService/SuggestMove",
            suggest.encode_to_vec(),
            false,
        ),
        Hostile {
            path: "/v1/View",
            body: Bytes::from(padded_json),
            grpc: false,
            served: true,
        },
        grpc("/pips.v1.DominoEngineService/View", padded_proto, true),
    ]
}

/// Sends `hostile` in a loop on one connection until `stop`, counting how
/// it was answered.
pub async fn send_hostile(
    addr: SocketAddr,
    hostile: Hostile,
    stop: Instant,
    answered: Arc<Answered>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let count = |expected: bool| {
        let counter = if expected {
            &answered.expected
        } else {
            &answered.otherwise
        };
        counter.fetch_add(1, Ordering::Relaxed);
    };
    if !hostile.grpc {
        let mut http = Http1::new(TcpStream::connect(addr).await?);
        while Instant::now() < stop {
            let (status, _) = http.post(hostile.path, &hostile.body).await?;
            count(if hostile.served {
                status == 200
            } else {
                status == 400
            });
        }
        return Ok(());
    }
    let tcp = TcpStream::connect(addr).await?;
    let (sender, connection) = h2::client::handshake(tcp).await?;
    let driver = tokio::spawn(connection);
    while Instant::now() < stop && !driver.is_finished() {
        let mut sender = sender.clone().ready().await?;
        let request = http::Request::post(format!("http://{addr}{}", hostile.path))
            .header("content-type", "application/grpc")
            .header("te", "trailers")
            .body(())?;
        let (answer, mut body) = sender.send_request(request, false)?;
        let mut sent = 0;
        while sent < hostile.body.len() {
            body.reserve_capacity(hostile.body.len() - sent);
            let Some(room) = std::future::poll_fn(|cx| body.poll_capacity(cx)).await else {
                break;
            };
            let end = (sent + room?).min(hostile.body.len());
            body.send_data(hostile.body.slice(sent..end), end == hostile.body.len())?;
            sent = end;
        }
        let answer = answer.await?;
        // A refusal is trailers-only: its status is in the head.
        let refused = answer
            .headers()
            .get("grpc-status")
            .is_some_and(|s| s != "0");
        let (_, mut incoming) = answer.into_parts();
        while let Some(chunk) = incoming.data().await {
            let _ = incoming.flow_control().release_capacity(chunk?.len());
        }
        let trailers = incoming.trailers().await?;
        let ok = !refused
            && trailers
                .as_ref()
                .and_then(|t| t.get("grpc-status"))
                .is_some_and(|s| s == "0");
        count(if hostile.served { ok } else { refused });
    }
    driver.abort();
    Ok(())
}

/// One HTTP/2 connection that opens every stream it may for
/// `ListVariants` (gRPC, JSON or Connect GET, by `protocol` 0, 1 or 2),
/// with a flow-control window of 0 so that no answer byte can be sent,
/// and holds them until the server closes it or `stop`.
pub async fn unread_small(
    addr: SocketAddr,
    protocol: usize,
    stop: Instant,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let tcp = TcpStream::connect(addr).await?;
    let (sender, connection) = h2::client::Builder::new()
        .initial_window_size(0)
        .handshake(tcp)
        .await?;
    let driver = tokio::spawn(connection);
    let mut heads = Vec::new();
    for _ in 0..100 {
        let Ok(Ok(mut sender)) =
            tokio::time::timeout(Duration::from_millis(500), sender.clone().ready()).await
        else {
            break;
        };
        let (request, body) = match protocol % 3 {
            0 => (
                http::Request::post(format!(
                    "http://{addr}/pips.v1.DominoEngineService/ListVariants"
                ))
                .header("content-type", "application/grpc")
                .header("te", "trailers"),
                Some(frame(&[])),
            ),
            1 => (
                http::Request::post(format!("http://{addr}/v1/ListVariants"))
                    .header("content-type", "application/json"),
                Some(Bytes::from_static(b"{}")),
            ),
            _ => (
                http::Request::get(format!(
                    "http://{addr}/pips.v1.DominoEngineService/ListVariants?encoding=json&message=%7B%7D"
                )),
                None,
            ),
        };
        let (answer, mut outgoing) = sender.send_request(request.body(())?, body.is_none())?;
        if let Some(body) = body {
            outgoing.send_data(body, true)?;
        }
        heads.push(answer);
    }
    // The heads come (headers are not flow-controlled); the bodies stay.
    for head in heads {
        let left = stop.saturating_duration_since(Instant::now());
        if tokio::time::timeout(left, head).await.is_err() {
            break;
        }
    }
    // Held until the server closes the connection, or the attack ends.
    let left = stop.saturating_duration_since(Instant::now());
    let _ = tokio::time::timeout(left, driver).await;
    Ok(())
}

/// A body over the server's limit (2 MB of JSON) sent whole before the
/// answer is read, as Python's `http.client` does, on a new connection
/// each time until `stop`: counts the 413s read and the broken pipes.
pub async fn oversize_whole(
    addr: SocketAddr,
    stop: Instant,
    answered: Arc<Answered>,
) -> std::io::Result<()> {
    let body = format!(r#"{{"variant":"{}"}}"#, "a".repeat(2_000_000));
    let head = format!(
        "POST /v1/NewGame HTTP/1.1\r\nhost: pips\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    while Instant::now() < stop {
        let mut stream = TcpStream::connect(addr).await?;
        let sent = async {
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(body.as_bytes()).await?;
            let mut answer = Vec::new();
            stream.read_to_end(&mut answer).await?;
            Ok::<_, std::io::Error>(answer)
        };
        let read = matches!(
            tokio::time::timeout(Duration::from_secs(10), sent).await,
            Ok(Ok(answer)) if answer.starts_with(b"HTTP/1.1 413")
                && answer.windows(30).any(|w| w == b"ERROR_REASON_REQUEST_TOO_LARGE")
        );
        let counter = if read {
            &answered.expected
        } else {
            &answered.otherwise
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}

/// Scrapes `GET /metrics` every 2 s until `stop`, each with a 2 s
/// timeout, counting those answered.
pub async fn scrape(addr: SocketAddr, stop: Instant, answered: Arc<Answered>) {
    while Instant::now() < stop {
        let attempt = async {
            let mut stream = TcpStream::connect(addr).await?;
            stream
                .write_all(b"GET /metrics HTTP/1.1\r\nhost: pips\r\nconnection: close\r\n\r\n")
                .await?;
            let mut answer = Vec::new();
            stream.read_to_end(&mut answer).await?;
            Ok::<_, std::io::Error>(answer)
        };
        let ok = matches!(
            tokio::time::timeout(Duration::from_secs(2), attempt).await,
            Ok(Ok(answer)) if answer.starts_with(b"HTTP/1.1 200")
        );
        let counter = if ok {
            &answered.expected
        } else {
            &answered.otherwise
        };
        counter.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
}
