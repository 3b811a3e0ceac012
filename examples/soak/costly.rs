//! Attacks on the calls that cost the server real work (`Replay`,
//! `SuggestMove`), on the metrics listener, and the well-behaved HTTP/1.1
//! client that sends its header and its body in separate writes. Each is
//! bounded in connections and time and aimed at loopback only.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use pips::proto::domino_engine_service_client::DominoEngineServiceClient;
use pips::proto::{self, NewGameRequest, PlayRequest, ReplayRequest, SuggestMoveRequest};
use pips::service::Engine;
use prost::Message;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tonic::transport::Channel;

use super::attacks::Calls;

/// A legal record of about `bytes` bytes: a muggins match to a target no
/// one reaches, played at random from seed 1 until its protobuf encoding
/// (or, with `json`, its JSON) nears `bytes`.
pub fn long_record(json: bool, bytes: usize) -> ReplayRequest {
    let engine = Engine::default();
    let deal = engine
        .new_game(&NewGameRequest {
            variant: "muggins".to_owned(),
            players: 2,
            seed: Some(1),
            rules: Some(proto::Rules {
                target: Some(1_000_000),
                ..Default::default()
            }),
            ..Default::default()
        })
        .expect("a muggins deal");
    let first = deal.state.clone();
    let mut update: proto::PlayResponse = deal.into();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut record = ReplayRequest {
        state_source: first.map(Into::into),
        moves: Vec::new(),
        as_token: false,
        notation: String::new(),
    };
    let budget = bytes;
    let mut size = record.encoded_len();
    let mut per_move = 0usize;
    while size + per_move < budget && !update.legal_moves.is_empty() {
        let mv = update.legal_moves[rng.random_range(0..update.legal_moves.len())];
        per_move = if json {
            serde_json::to_vec(&mv).map_or(80, |v| v.len() + 1)
        } else {
            mv.encoded_len() + 2
        };
        size += per_move;
        record.moves.push(mv);
        update = engine
            .play(&PlayRequest {
                state_source: update.state.clone().map(Into::into),
                r#move: Some(mv),
                ..Default::default()
            })
            .expect("a legal move");
    }
    record
}

/// A gRPC request body: one uncompressed message in its frame.
fn grpc_frame(message: &impl Message) -> Bytes {
    frame(&message.encode_to_vec())
}

/// A gRPC request body: `payload` (a message's bytes, or not) in one
/// uncompressed frame.
pub fn frame(payload: &[u8]) -> Bytes {
    let mut frame = Vec::with_capacity(payload.len() + 5);
    frame.push(0);
    frame.extend(
        u32::try_from(payload.len())
            .unwrap_or(u32::MAX)
            .to_be_bytes(),
    );
    frame.extend(payload);
    Bytes::from(frame)
}

/// One HTTP/2 connection that keeps up to 100 `Replay` calls open and
/// reads none of their answers, until `stop`.
pub async fn unread_replays_h2(
    addr: SocketAddr,
    record: Bytes,
    stop: Instant,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let tcp = TcpStream::connect(addr).await?;
    let (sender, connection) = h2::client::handshake(tcp).await?;
    let driver = tokio::spawn(connection);
    let mut held = tokio::task::JoinSet::new();
    while Instant::now() < stop && !driver.is_finished() {
        // Open as many calls as the connection allows; the server's
        // answers (or refusals) are awaited only for their heads.
        for _ in 0..100 {
            let Ok(Ok(mut sender)) =
                tokio::time::timeout(Duration::from_millis(200), sender.clone().ready()).await
            else {
                break;
            };
            let request =
                http::Request::post(format!("http://{addr}/pips.v1.DominoEngineService/Replay"))
                    .header("content-type", "application/grpc")
                    .header("te", "trailers")
                    .body(())?;
            let (answer, mut body) = sender.send_request(request, false)?;
            body.send_data(record.clone(), true)?;
            held.spawn(async move {
                // The answer's head, then its body held unread.
                let answer = tokio::time::timeout_at(stop.into(), answer).await;
                tokio::time::sleep_until(stop.into()).await;
                drop(answer);
            });
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        while held.try_join_next().is_some() {}
    }
    held.abort_all();
    driver.abort();
    Ok(())
}

/// One HTTP/1.1 connection that sends a `Replay` as JSON and never reads
/// the answer, held until the server closes it or `stop`.
pub async fn unread_replay_h1(
    addr: SocketAddr,
    record: Bytes,
    stop: Instant,
) -> std::io::Result<()> {
    let mut stream = TcpStream::connect(addr).await?;
    let head = format!(
        "POST /v1/Replay HTTP/1.1\r\nhost: pips\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n\r\n",
        record.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(&record).await?;
    // Held, unread, until `stop` or the server closes the connection.
    let mut byte = [0u8; 1];
    loop {
        let left = stop.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(());
        }
        match tokio::time::timeout(left.min(Duration::from_millis(500)), stream.peek(&mut byte))
            .await
        {
            Ok(Ok(0) | Err(_)) => return Ok(()),
            // Data waits for us: leave it unread, but keep watching for
            // the close.
            Ok(Ok(_)) => tokio::time::sleep(Duration::from_millis(500)).await,
            Err(_) => {}
        }
    }
}

/// A gRPC client that may read answers of any size.
pub fn unlimited(channel: Channel) -> DominoEngineServiceClient<Channel> {
    DominoEngineServiceClient::new(channel).max_decoding_message_size(usize::MAX)
}

/// How a flood's calls were answered.
#[derive(Default)]
pub struct Outcomes {
    /// Calls answered.
    pub answered: AtomicU64,
    /// Calls refused or failed.
    pub refused: AtomicU64,
}

impl Outcomes {
    /// Counts `result`; after a refusal, waits 10 ms (an attacker that
    /// retries at once only adds refusals).
    async fn count<T>(&self, result: Result<T, tonic::Status>) {
        if result.is_ok() {
            self.answered.fetch_add(1, Ordering::Relaxed);
        } else {
            self.refused.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// Calls `Replay` with `record` in a loop, reading every answer, until
/// `stop`.
pub async fn replay_loop(
    channel: Channel,
    record: ReplayRequest,
    stop: Instant,
    outcomes: Arc<Outcomes>,
) {
    let mut client = unlimited(channel);
    while Instant::now() < stop {
        outcomes.count(client.replay(record.clone()).await).await;
    }
}

/// A state of `variant` with `players` seats (seed 1) whose seat to act
/// has a real choice (three legal moves or more), and that seat: a search
/// on it runs until its time cap.
pub async fn suggestion_state(
    channel: Channel,
    variant: &str,
    players: u32,
) -> Result<(proto::GameState, u32), tonic::Status> {
    let mut client = DominoEngineServiceClient::new(channel);
    let mut update: proto::PlayResponse = client
        .new_game(NewGameRequest {
            variant: variant.to_owned(),
            players,
            seed: Some(1),
            ..Default::default()
        })
        .await?
        .into_inner()
        .into();
    while update.legal_moves.len() < 3 {
        let Some(&mv) = update.legal_moves.first() else {
            return Err(tonic::Status::internal("the match ended"));
        };
        update = client
            .play(PlayRequest {
                state_source: update.state.clone().map(Into::into),
                r#move: Some(mv),
                ..Default::default()
            })
            .await?
            .into_inner();
    }
    let to_act = update.to_act.unwrap_or(0);
    update
        .state
        .map(|state| (state, to_act))
        .ok_or_else(|| tonic::Status::internal("no state"))
}

/// Asks for `expert`'s move with as many playouts as allowed (so that the
/// time cap stops it) in a loop until `stop`.
pub async fn suggest_loop(
    channel: Channel,
    state: proto::GameState,
    seat: u32,
    stop: Instant,
    outcomes: Arc<Outcomes>,
) {
    let mut client = DominoEngineServiceClient::new(channel);
    let request = SuggestMoveRequest {
        state_source: Some(proto::suggest_move_request::StateSource::State(state)),
        seat,
        level: proto::BotLevel::Expert as i32,
        playouts: Some(1_000_000),
        ..Default::default()
    };
    while Instant::now() < stop {
        outcomes
            .count(client.suggest_move(request.clone()).await)
            .await;
    }
}

/// How deadline-bound suggestions were answered.
#[derive(Default)]
pub struct Deadlines {
    /// Calls made.
    pub calls: AtomicU64,
    /// Calls answered with a move before their deadline.
    pub moves: AtomicU64,
}

/// Asks for `expert`'s move with a deadline of 20–150 ms (under the
/// server's default cap of 200 ms) in a loop until `stop`, counting the
/// answers that came with a move.
pub async fn suggest_with_deadlines(
    channel: Channel,
    state: proto::GameState,
    seat: u32,
    seed: u64,
    stop: Instant,
    tally: Arc<Deadlines>,
) {
    let mut client = DominoEngineServiceClient::new(channel);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while Instant::now() < stop {
        let mut request = tonic::Request::new(SuggestMoveRequest {
            state_source: Some(proto::suggest_move_request::StateSource::State(
                state.clone(),
            )),
            seat,
            level: proto::BotLevel::Expert as i32,
            playouts: Some(1_000_000),
            ..Default::default()
        });
        let deadline = Duration::from_millis(rng.random_range(20..=150));
        request.set_timeout(deadline);
        tally.calls.fetch_add(1, Ordering::Relaxed);
        let started = Instant::now();
        let answer = client.suggest_move(request).await;
        let took = started.elapsed();
        match answer {
            Ok(answer) if answer.get_ref().r#move.is_some() => {
                tally.moves.fetch_add(1, Ordering::Relaxed);
            }
            Ok(_) => eprintln!("a suggestion came without a move"),
            Err(status) => eprintln!(
                "a deadline-bound suggestion failed after {took:?} of its {deadline:?}: {status:?}"
            ),
        }
    }
}

/// A connection to the metrics listener that sends half a request and
/// holds it until the server closes it or `stop`.
pub async fn hold_metrics(addr: SocketAddr, stop: Instant) -> std::io::Result<()> {
    let mut stream = TcpStream::connect(addr).await?;
    stream
        .write_all(b"GET /metrics HTTP/1.1\r\nhost: pi")
        .await?;
    let mut buffer = [0u8; 256];
    loop {
        let left = stop.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(());
        }
        match tokio::time::timeout(left, stream.read(&mut buffer)).await {
            Ok(Ok(0) | Err(_)) | Err(_) => return Ok(()),
            Ok(Ok(_)) => {}
        }
    }
}

/// A well-behaved client over HTTP/1.1 JSON that writes each request's
/// header and body separately (as Python's `http.client` does), on one
/// keep-alive connection: plays muggins matches move by move, recording
/// every call into `calls` until `stop`.
pub async fn play_well_split(addr: SocketAddr, seed: u64, stop: Instant, calls: Arc<Mutex<Calls>>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let record = |started: Instant, ok: bool| Calls::record(&calls, started, ok);
    let mut connection: Option<Http1> = None;
    let mut update: Option<proto::PlayResponse> = None;
    while Instant::now() < stop {
        let (path, body) = match update.as_ref() {
            Some(last) if !last.legal_moves.is_empty() => {
                let mv = last.legal_moves[rng.random_range(0..last.legal_moves.len())];
                let request = PlayRequest {
                    state_source: last.state.clone().map(Into::into),
                    r#move: Some(mv),
                    ..Default::default()
                };
                ("/v1/Play", serde_json::to_vec(&request).unwrap_or_default())
            }
            _ => (
                "/v1/NewGame",
                br#"{"variant":"muggins","players":2}"#.to_vec(),
            ),
        };
        let started = Instant::now();
        if connection.is_none() {
            connection = TcpStream::connect(addr).await.ok().map(Http1::new);
        }
        let answer = match connection.as_mut() {
            Some(http) => http.post(path, &body).await,
            None => Err(std::io::Error::other("cannot connect")),
        };
        match answer {
            Ok((200, body)) => {
                record(started, true);
                update = serde_json::from_slice::<proto::PlayResponse>(&body).ok();
            }
            Ok((status, body)) => {
                eprintln!(
                    "a split-write call was refused: {status} {}",
                    String::from_utf8_lossy(&body[..body.len().min(200)])
                );
                record(started, false);
                update = None;
            }
            Err(error) => {
                eprintln!("a split-write call failed: {error}");
                record(started, false);
                connection = None;
                update = None;
            }
        }
    }
}

/// A minimal HTTP/1.1 keep-alive client: a request's header and body in
/// two writes, the answer read by its `content-length`.
pub struct Http1 {
    stream: TcpStream,
    buffer: Vec<u8>,
}

impl Http1 {
    pub fn new(stream: TcpStream) -> Http1 {
        let _ = stream.set_nodelay(true);
        Http1 {
            stream,
            buffer: Vec::new(),
        }
    }

    pub async fn post(&mut self, path: &str, body: &[u8]) -> std::io::Result<(u16, Vec<u8>)> {
        let head = format!(
            "POST {path} HTTP/1.1\r\nhost: pips\r\ncontent-type: application/json\r\n\
             content-length: {}\r\n\r\n",
            body.len()
        );
        self.stream.write_all(head.as_bytes()).await?;
        // The body a moment later, in its own write.
        tokio::task::yield_now().await;
        self.stream.write_all(body).await?;
        let timeout = Duration::from_secs(10);
        tokio::time::timeout(timeout, self.answer())
            .await
            .map_err(|_| std::io::Error::other("no answer within 10 s"))?
    }

    async fn answer(&mut self) -> std::io::Result<(u16, Vec<u8>)> {
        loop {
            if let Some(end) = find(&self.buffer, b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&self.buffer[..end]).to_ascii_lowercase();
                let status = head
                    .split_whitespace()
                    .nth(1)
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0);
                let length: usize = head
                    .lines()
                    .find_map(|line| line.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(0);
                if self.buffer.len() >= end + 4 + length {
                    let body = self.buffer[end + 4..end + 4 + length].to_vec();
                    self.buffer.drain(..end + 4 + length);
                    return Ok((status, body));
                }
            }
            let mut chunk = [0u8; 16 * 1024];
            let n = self.stream.read(&mut chunk).await?;
            if n == 0 {
                return Err(std::io::Error::other("the server closed the connection"));
            }
            self.buffer.extend_from_slice(&chunk[..n]);
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The record as a gRPC frame and as JSON, for the attacks that send it.
pub fn record_bodies(record: &ReplayRequest, json_record: &ReplayRequest) -> (Bytes, Bytes) {
    (
        grpc_frame(record),
        Bytes::from(serde_json::to_vec(json_record).unwrap_or_default()),
    )
}
