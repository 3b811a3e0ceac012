//! Scale-out check: concurrent clients play whole matches through a gRPC
//! load balancer (`--addr`, e.g. nginx in front of several pips replicas
//! sharing one state key), passing sealed state tokens along, and retry a
//! call that fails with UNAVAILABLE (a replica killed, a balancer with no
//! upstream) up to `--attempts` times. It prints the throughput of every
//! `--window` seconds, then the matches completed, the calls retried and
//! the matches lost, and finally checks every finished match's last token
//! on every replica directly (`--replicas`): each must accept it (its tag
//! holds under the shared key) and see the match over.
//!
//! Exits non-zero if a match was lost or a replica refused a token.
//!
//! ```sh
//! cargo run --release --example scaleout -- --addr 127.0.0.1:50100 \
//!     --replicas 127.0.0.1:50101,127.0.0.1:50102,127.0.0.1:50103 --seconds 20
//! ```

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;
use pips::proto::domino_engine_service_client::DominoEngineServiceClient;
use pips::proto::{NewGameRequest, Phase, PlayRequest, PlayResponse, ViewRequest};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use tonic::transport::{Channel, Endpoint};
use tonic::{Code, Status};

/// Clients playing whole matches through a load balancer, with retries.
#[derive(Parser, Debug, Clone)]
struct Args {
    /// The load balancer.
    #[arg(long, default_value = "127.0.0.1:50100")]
    addr: SocketAddr,
    /// The replicas behind it, each asked directly about every finished
    /// match at the end (comma-separated).
    #[arg(long, value_delimiter = ',', required = true)]
    replicas: Vec<SocketAddr>,
    /// Concurrent clients, each with its own connection to the balancer.
    #[arg(long, default_value_t = 8)]
    clients: usize,
    /// Seconds during which clients start new matches (a match under way
    /// when they end is finished).
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// Tries per call when the answer is UNAVAILABLE.
    #[arg(long, default_value_t = 6)]
    attempts: u32,
    /// Seconds per throughput line.
    #[arg(long, default_value_t = 2)]
    window: u64,
    /// The preset played.
    #[arg(long, default_value = "muggins")]
    variant: String,
    /// Seats.
    #[arg(long, default_value_t = 2)]
    players: u32,
    /// Seed of the clients' deals and moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// What every client adds to.
#[derive(Default)]
struct Tally {
    /// Calls answered (retries included).
    calls: AtomicU64,
    /// Calls sent again after UNAVAILABLE.
    retried: AtomicU64,
    /// Matches played to their end.
    completed: AtomicU64,
    /// Matches abandoned: a call failed for good.
    lost: AtomicU64,
}

/// A channel to `addr` (HTTP/2 without TLS).
async fn connect(addr: SocketAddr) -> Result<Channel, tonic::transport::Error> {
    Endpoint::from_shared(format!("http://{addr}"))?
        .tcp_nodelay(true)
        .connect_timeout(Duration::from_secs(2))
        .timeout(Duration::from_secs(5))
        .connect()
        .await
}

/// Runs `call` until it answers something other than UNAVAILABLE, at most
/// `attempts` times, pausing a little longer before each retry.
async fn with_retries<T, F, Fut>(tally: &Tally, attempts: u32, mut call: F) -> Result<T, Status>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, Status>>,
{
    let mut attempt = 1;
    loop {
        let result = call().await;
        tally.calls.fetch_add(1, Ordering::Relaxed);
        match result {
            Err(status) if status.code() == Code::Unavailable && attempt < attempts => {
                tally.retried.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(25 * u64::from(attempt))).await;
                attempt += 1;
            }
            other => return other,
        }
    }
}

/// Plays whole matches until `deadline`; the last token of every match it
/// finished.
async fn client(
    channel: Channel,
    args: Args,
    seed: u64,
    deadline: Instant,
    tally: Arc<Tally>,
) -> Vec<Vec<u8>> {
    let engine = DominoEngineServiceClient::new(channel);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut finished = Vec::new();
    'matches: while Instant::now() < deadline {
        let request = NewGameRequest {
            variant: args.variant.clone(),
            players: args.players,
            seed: Some(rng.random()),
            as_token: true,
            ..Default::default()
        };
        let started = with_retries(&tally, args.attempts, || {
            let (mut engine, request) = (engine.clone(), request.clone());
            async move { engine.new_game(request).await }
        })
        .await;
        let Ok(started) = started else {
            tally.lost.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        let mut update: PlayResponse = started.into_inner().into();
        while !update.legal_moves.is_empty() {
            let mv = update.legal_moves[rng.random_range(0..update.legal_moves.len())];
            let request = PlayRequest {
                state_source: Some(std::mem::take(&mut update.state_token).into()),
                r#move: Some(mv),
                as_token: true,
            };
            let answer = with_retries(&tally, args.attempts, || {
                let (mut engine, request) = (engine.clone(), request.clone());
                async move { engine.play(request).await }
            })
            .await;
            match answer {
                Ok(answer) => update = answer.into_inner(),
                Err(status) => {
                    eprintln!("a match was lost: {status}");
                    tally.lost.fetch_add(1, Ordering::Relaxed);
                    continue 'matches;
                }
            }
        }
        tally.completed.fetch_add(1, Ordering::Relaxed);
        finished.push(update.state_token);
    }
    finished
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let tally = Arc::new(Tally::default());
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let mut clients = Vec::new();
    for i in 0..args.clients {
        let channel = connect(args.addr).await?;
        let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
        clients.push(tokio::spawn(client(
            channel,
            args.clone(),
            seed,
            deadline,
            Arc::clone(&tally),
        )));
    }
    // Throughput per window while the clients play.
    let reporter = {
        let tally = Arc::clone(&tally);
        let window = Duration::from_secs(args.window.max(1));
        tokio::spawn(async move {
            let begun = Instant::now();
            let (mut calls, mut retried) = (0, 0);
            while Instant::now() < deadline {
                tokio::time::sleep(window).await;
                let (now_calls, now_retried) = (
                    tally.calls.load(Ordering::Relaxed),
                    tally.retried.load(Ordering::Relaxed),
                );
                let at = begun.elapsed().as_secs_f64();
                println!(
                    "t={at:5.1}s  {:8.0} calls/s  retried {:4}",
                    (now_calls - calls) as f64 / window.as_secs_f64(),
                    now_retried - retried
                );
                (calls, retried) = (now_calls, now_retried);
            }
        })
    };
    let mut tokens = Vec::new();
    for client in clients {
        tokens.extend(client.await?);
    }
    reporter.abort();
    let (completed, retried, lost, calls) = (
        tally.completed.load(Ordering::Relaxed),
        tally.retried.load(Ordering::Relaxed),
        tally.lost.load(Ordering::Relaxed),
        tally.calls.load(Ordering::Relaxed),
    );
    println!("matches completed: {completed}");
    println!("matches lost: {lost}");
    println!("calls: {calls}, retried after UNAVAILABLE: {retried}");

    // Every finished match, asked of every replica directly.
    let mut refused = 0;
    for replica in &args.replicas {
        let mut engine = DominoEngineServiceClient::new(connect(*replica).await?);
        for token in &tokens {
            let view = engine
                .view(ViewRequest {
                    state_source: Some(token.clone().into()),
                    seat: 0,
                })
                .await;
            match view {
                Ok(view) if view.get_ref().phase == Phase::MatchOver as i32 => {}
                Ok(_) => {
                    eprintln!("{replica}: a finished match is not over");
                    refused += 1;
                }
                Err(status) => {
                    eprintln!("{replica} refused a finished match's token: {status}");
                    refused += 1;
                }
            }
        }
    }
    println!(
        "final tokens accepted by every replica: {} of {} ({} replicas)",
        tokens.len() - refused.min(tokens.len()),
        tokens.len(),
        args.replicas.len()
    );
    if lost > 0 || refused > 0 || completed == 0 {
        return Err(format!("{lost} matches lost, {refused} tokens refused").into());
    }
    Ok(())
}
