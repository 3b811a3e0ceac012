//! Hostile clients for the soak test's `--attack` modes, each bounded in
//! connections and time and aimed at loopback only, and the well-behaved
//! client whose calls are measured while they run.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use clap::ValueEnum;
use pips::proto::domino_engine_service_client::DominoEngineServiceClient;
use pips::proto::{self, NewGameRequest, PlayRequest};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::task::JoinSet;
use tonic::transport::Channel;

use super::{costly, hostile, seats, tables};

/// One way of misbehaving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Attack {
    /// Requests whose refusal would quote a megabyte of input, on
    /// connections that never read an answer.
    Echo,
    /// HTTP/2 connections with as many calls as they may open, each with a
    /// body that starts and never finishes.
    SlowStreams,
    /// HTTP/1.1 connections that send a header a few bytes at a time.
    Slowloris,
    /// Connections that connect and send nothing (run the server under
    /// `prlimit --nofile=256` to exhaust its descriptors).
    Idle,
    /// HTTP/2 connections, each keeping 100 `Replay` calls of a long
    /// record open and reading none of their answers.
    UnreadReplaysH2,
    /// HTTP/1.1 connections, each sending a `Replay` of a long record as
    /// JSON and never reading the answer.
    UnreadReplaysH1,
    /// `Replay` calls of a long record in a loop, `--attackers` in flight
    /// (over at most 64 connections), every answer read.
    ReplayFlood,
    /// `expert` `SuggestMove` calls with no playout limit in a loop,
    /// `--attackers` in flight (over at most 64 connections).
    SuggestFlood,
    /// Connections to `--metrics-addr` that send half a request and hold it
    /// (run the server under `prlimit --nofile=256`).
    MetricsHold,
    /// As `slow-streams`, while the well-behaved clients speak HTTP/1.1 JSON
    /// and send each request's header and body in separate writes (such a
    /// body is still arriving when the call is admitted).
    WaitingBodies,
    /// Not an attack: `--attackers` callers asking `expert` for moves with
    /// deadlines of 20–150 ms, under the server's cap; every call must be
    /// answered with a move.
    SuggestDeadlines,
    /// `--attackers` connections, each looping one request of about a
    /// megabyte: states padded with moves nobody made (`Play` with an open
    /// token, `View` over gRPC and JSON, an `expert` `SuggestMove`), which
    /// must be refused, and valid `View`s padded to a megabyte, which must
    /// be served.
    HostileStates,
    /// HTTP/2 connections with a flow-control window of 0, each opening
    /// every stream it may for `ListVariants` (gRPC, JSON or Connect GET, a
    /// third each) and reading none of the answers; reconnecting when
    /// closed.
    UnreadSmall,
    /// Not an attack: `--attackers` people at tables of four (the server
    /// keeping tables), each seat watching its table on a connection of
    /// its own and never moving.
    IdleSeats,
    /// As `idle-seats`, each seat watching as a browser does: server-sent
    /// events on an HTTP/1.1 connection of its own.
    IdleSeatsEvents,
    /// HTTP/1.1 clients that send a 2 MB body (over the limit) whole
    /// before reading the answer, as Python's `http.client` does; the 413s
    /// they read are counted.
    OversizeBodies,
    /// `--attackers` tables of two people on one-second turn timers that
    /// nobody answers (the server must keep tables, with creation limits
    /// raised and `--tables-expire-secs` the attack's length), while ten
    /// people at tables of their own see how late their two-second
    /// timers are played.
    TimerFlood,
    /// As behind a proxy the server trusts (start it with
    /// `--trusted-proxies 127.0.0.1`): `--attackers` loops naming four
    /// client addresses, creating tables as fast as they are answered and
    /// watching every seat, while people naming addresses of their own
    /// create tables and watch them.
    ProxyFlood,
    /// `--attackers` addresses each holding 64 watches by server-sent
    /// events (its share), each on a connection of its own, reopened when
    /// ended (run the server under `prlimit --nofile=1024`), while new
    /// clients on new connections call the engine and open tables.
    WatchDescriptors,
    /// `--attackers` addresses creating tables as fast as allowed and
    /// opening them every 5 s (start the server with `--tables-max 500`
    /// and a short `--tables-expire-secs`), while newcomers create tables.
    CapHolding,
    /// People at tables of two, one watching while the other plays; in
    /// the attack, others hold the table's watch link's 32 slots and 32
    /// watches of the mover's own seat link: every move must still reach
    /// the watching seat.
    WatchSlots,
    /// `--attackers` connections opening seats by links that open
    /// nothing, as fast as answered (give `--server-log` the file the
    /// server's log goes to: its growth is measured).
    LogFlood,
}

/// What the attacks aim at, and what they send.
pub struct Target {
    /// The API's address.
    pub addr: SocketAddr,
    /// The metrics listener's address.
    pub metrics: Option<SocketAddr>,
    /// A long legal record, as a gRPC frame and as JSON.
    pub record: (Bytes, Bytes),
    /// The same record as a message.
    pub replay: proto::ReplayRequest,
    /// A state and its seat to act, for suggestions.
    pub suggest: (proto::GameState, u32),
    /// How the deadline-bound suggestions were answered.
    pub deadlines: Arc<costly::Deadlines>,
    /// How the flooding calls were answered.
    pub outcomes: Arc<costly::Outcomes>,
    /// The requests of `hostile-states`.
    pub hostile: Vec<hostile::Hostile>,
    /// How the hostile requests (or the oversize bodies, or the scrapes)
    /// were answered.
    pub answered: Arc<hostile::Answered>,
    /// What the table attacks counted.
    pub tables: Arc<tables::TableCounts>,
}

/// Gives each of `calls` callers one of at most 64 connections to `addr`.
async fn callers(addr: SocketAddr, calls: usize) -> Vec<Channel> {
    let mut channels = Vec::new();
    for _ in 0..calls.min(64) {
        if let Ok(endpoint) = tonic::transport::Endpoint::from_shared(format!("http://{addr}")) {
            if let Ok(channel) = endpoint.tcp_nodelay(true).connect().await {
                channels.push(channel);
            }
        }
    }
    channels
}

/// Runs `attackers` callers of the call-based attacks until `stop`.
async fn run_calls(attack: Attack, target: &Target, attackers: usize, stop: Instant) {
    let channels = callers(target.addr, attackers).await;
    if channels.is_empty() {
        eprintln!("the attack could not connect");
        return;
    }
    let mut tasks = JoinSet::new();
    for i in 0..attackers {
        let channel = channels[i % channels.len()].clone();
        let (state, seat) = target.suggest.clone();
        match attack {
            Attack::ReplayFlood => {
                tasks.spawn(costly::replay_loop(
                    channel,
                    target.replay.clone(),
                    stop,
                    Arc::clone(&target.outcomes),
                ));
            }
            Attack::SuggestFlood => {
                tasks.spawn(costly::suggest_loop(
                    channel,
                    state,
                    seat,
                    stop,
                    Arc::clone(&target.outcomes),
                ));
            }
            _ => {
                tasks.spawn(costly::suggest_with_deadlines(
                    channel,
                    state,
                    seat,
                    i as u64,
                    stop,
                    Arc::clone(&target.deadlines),
                ));
            }
        }
    }
    while tasks.join_next().await.is_some() {}
}

/// Runs `attackers` connections (or, for the call-based attacks, callers)
/// of `attack` against `target` until `stop`.
pub async fn run(attack: Attack, target: Arc<Target>, attackers: usize, stop: Instant) {
    if matches!(
        attack,
        Attack::ReplayFlood | Attack::SuggestFlood | Attack::SuggestDeadlines
    ) {
        return run_calls(attack, &target, attackers, stop).await;
    }
    let counts = Arc::clone(&target.tables);
    match attack {
        Attack::TimerFlood => {
            return tables::timer_flood(target.addr, attackers, stop, counts).await;
        }
        Attack::ProxyFlood => {
            return tables::proxy_flood(target.addr, attackers, stop, counts).await;
        }
        Attack::WatchDescriptors => {
            return tables::watch_descriptors(target.addr, attackers, stop, counts).await;
        }
        Attack::CapHolding => {
            return tables::cap_holding(target.addr, attackers, stop, counts).await;
        }
        Attack::LogFlood => return tables::log_flood(target.addr, attackers, stop, counts).await,
        // (The people at the tables hold the watches in the attack.)
        Attack::WatchSlots => return tokio::time::sleep_until(stop.into()).await,
        _ => {}
    }
    if matches!(attack, Attack::IdleSeats | Attack::IdleSeatsEvents) {
        let events = attack == Attack::IdleSeatsEvents;
        return seats::idle_seats(target.addr, attackers, stop, events).await;
    }
    let mut tasks = JoinSet::new();
    for i in 0..attackers {
        let target = Arc::clone(&target);
        tasks.spawn(async move {
            let addr = target.addr;
            while Instant::now() < stop {
                let held = match attack {
                    Attack::Echo => echo(addr, stop).await.is_ok(),
                    Attack::SlowStreams | Attack::WaitingBodies => {
                        slow_streams(addr, stop).await.is_ok()
                    }
                    Attack::Slowloris => slowloris(addr, stop, i).await.is_ok(),
                    Attack::Idle => idle(addr, stop).await.is_ok(),
                    Attack::UnreadReplaysH2 => {
                        costly::unread_replays_h2(addr, target.record.0.clone(), stop)
                            .await
                            .is_ok()
                    }
                    Attack::UnreadReplaysH1 => {
                        costly::unread_replay_h1(addr, target.record.1.clone(), stop)
                            .await
                            .is_ok()
                    }
                    Attack::MetricsHold => match target.metrics {
                        Some(metrics) => costly::hold_metrics(metrics, stop).await.is_ok(),
                        None => false,
                    },
                    Attack::HostileStates => {
                        let request = target.hostile[i % target.hostile.len()].clone();
                        let answered = Arc::clone(&target.answered);
                        hostile::send_hostile(addr, request, stop, answered)
                            .await
                            .is_ok()
                    }
                    Attack::UnreadSmall => hostile::unread_small(addr, i, stop).await.is_ok(),
                    Attack::OversizeBodies => {
                        hostile::oversize_whole(addr, stop, Arc::clone(&target.answered))
                            .await
                            .is_ok()
                    }
                    Attack::ReplayFlood
                    | Attack::SuggestFlood
                    | Attack::SuggestDeadlines
                    | Attack::IdleSeats
                    | Attack::IdleSeatsEvents
                    | Attack::TimerFlood
                    | Attack::ProxyFlood
                    | Attack::WatchDescriptors
                    | Attack::CapHolding
                    | Attack::WatchSlots
                    | Attack::LogFlood => false,
                };
                if !held {
                    // Refused or reset: try again shortly, as an attacker would.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        });
    }
    while tasks.join_next().await.is_some() {}
}

/// Holds `stream` until the server closes it or `stop`. With `read`,
/// what the server sends is read and dropped; without, it is left unread
/// (the connection is then held until `stop`).
async fn hold(mut stream: TcpStream, stop: Instant, read: bool) -> std::io::Result<()> {
    let mut buffer = [0u8; 4096];
    loop {
        let left = stop.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(());
        }
        let wait = left.min(Duration::from_millis(500));
        match tokio::time::timeout(wait, stream.peek(&mut buffer)).await {
            Ok(Ok(0)) => return Ok(()),
            Ok(Ok(_)) if read => {
                let _ = stream.read(&mut buffer).await?;
            }
            Ok(Ok(_)) => {
                tokio::time::sleep_until(stop.into()).await;
                return Ok(());
            }
            Ok(Err(error)) => return Err(error),
            Err(_) => {}
        }
    }
}

/// A NewGame whose variant is a megabyte long, over HTTP/1.1 JSON, then
/// the connection held without reading the answer.
async fn echo(addr: SocketAddr, stop: Instant) -> std::io::Result<()> {
    let mut stream = TcpStream::connect(addr).await?;
    let body = format!(r#"{{"variant":"{}","players":2}}"#, "a".repeat(1_000_000));
    let head = format!(
        "POST /v1/NewGame HTTP/1.1\r\nhost: pips\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n\r\n",
        body.len()
    );
    // Five requests in a row on the connection, no answer ever read.
    for _ in 0..5 {
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(body.as_bytes()).await?;
    }
    hold(stream, stop, false).await
}

/// An HTTP/2 connection with 100 calls whose bodies never finish, held
/// until the server answers them (at its body timeout) or `stop`.
async fn slow_streams(
    addr: SocketAddr,
    stop: Instant,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let tcp = TcpStream::connect(addr).await?;
    let (sender, connection) = h2::client::handshake(tcp).await?;
    let driver = tokio::spawn(connection);
    let mut answers = Vec::new();
    let mut bodies = Vec::new();
    for _ in 0..100 {
        let Ok(Ok(mut sender)) =
            tokio::time::timeout(Duration::from_secs(1), sender.clone().ready()).await
        else {
            break;
        };
        let request = http::Request::post(format!(
            "http://{addr}/pips.v1.DominoEngineService/ListVariants"
        ))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())?;
        let (answer, mut body) = sender.send_request(request, false)?;
        body.send_data(Bytes::from_static(&[0, 0, 0, 0, 9, 1]), false)?;
        answers.push(answer);
        bodies.push(body);
    }
    for answer in answers {
        let left = stop.saturating_duration_since(Instant::now());
        if tokio::time::timeout(left, answer).await.is_err() {
            break;
        }
    }
    drop(bodies);
    driver.abort();
    Ok(())
}

/// An HTTP/1.1 header sent a few bytes a second, until the server closes
/// the connection or `stop`.
async fn slowloris(addr: SocketAddr, stop: Instant, i: usize) -> std::io::Result<()> {
    let mut stream = TcpStream::connect(addr).await?;
    stream
        .write_all(b"POST /v1/Play HTTP/1.1\r\nhost: pips\r\n")
        .await?;
    let mut n = 0u64;
    while Instant::now() < stop {
        tokio::time::sleep(Duration::from_millis(900 + (i % 200) as u64)).await;
        n += 1;
        stream.write_all(format!("x-{n}: y\r\n").as_bytes()).await?;
    }
    Ok(())
}

/// A connection that sends nothing, held until the server closes it.
async fn idle(addr: SocketAddr, stop: Instant) -> std::io::Result<()> {
    let stream = TcpStream::connect(addr).await?;
    hold(stream, stop, true).await
}

/// What the well-behaved clients saw in one phase.
#[derive(Default)]
pub struct Calls {
    /// Latency of every call that succeeded.
    pub latencies: Vec<Duration>,
    /// Calls that failed (any error).
    pub failed: u64,
    /// The failures over gRPC, by status code.
    pub codes: std::collections::BTreeMap<String, u64>,
}

impl Calls {
    /// Records into `calls` a call started at `started` that succeeded
    /// (`ok`) or failed.
    pub fn record(calls: &Mutex<Calls>, started: Instant, ok: bool) {
        if let Ok(mut calls) = calls.lock() {
            if ok {
                calls.latencies.push(started.elapsed());
            } else {
                calls.failed += 1;
            }
        }
    }

    /// Notes the code of a failed gRPC call.
    pub fn failed_with(calls: &Mutex<Calls>, code: tonic::Code) {
        if let Ok(mut calls) = calls.lock() {
            *calls.codes.entry(format!("{code:?}")).or_insert(0) += 1;
        }
    }

    /// Calls made.
    pub fn total(&self) -> u64 {
        self.latencies.len() as u64 + self.failed
    }

    /// The latency at `fraction` (0.5 for the median), if any call
    /// succeeded.
    pub fn percentile(&mut self, fraction: f64) -> Option<Duration> {
        self.latencies.sort_unstable();
        let last = self.latencies.len().checked_sub(1)?;
        self.latencies
            .get(((last as f64) * fraction).round() as usize)
            .copied()
    }
}

/// A well-behaved client on its own connection: plays muggins matches move
/// by move, recording every call into `calls` until `stop`.
pub async fn play_well(channel: Channel, seed: u64, stop: Instant, calls: Arc<Mutex<Calls>>) {
    let mut engine = DominoEngineServiceClient::new(channel);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let record = |started: Instant, ok: bool| Calls::record(&calls, started, ok);
    while Instant::now() < stop {
        let started = Instant::now();
        let deal = engine
            .new_game(NewGameRequest {
                variant: "muggins".to_owned(),
                players: 2,
                ..Default::default()
            })
            .await;
        record(started, deal.is_ok());
        if let Err(status) = &deal {
            Calls::failed_with(&calls, status.code());
        }
        let Ok(deal) = deal else {
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        let mut update: proto::PlayResponse = deal.into_inner().into();
        while Instant::now() < stop && !update.legal_moves.is_empty() {
            let mv = update.legal_moves[rng.random_range(0..update.legal_moves.len())];
            let started = Instant::now();
            let answer = engine
                .play(PlayRequest {
                    state_source: update.state.clone().map(Into::into),
                    r#move: Some(mv),
                    ..Default::default()
                })
                .await;
            record(started, answer.is_ok());
            if let Err(status) = &answer {
                Calls::failed_with(&calls, status.code());
            }
            match answer {
                Ok(answer) => update = answer.into_inner(),
                Err(_) => break,
            }
        }
    }
}
