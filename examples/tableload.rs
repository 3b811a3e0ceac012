//! Tables under load: opens `--tables` tables of `--players` people, each
//! seat on a connection of its own watching its table (`Watch`), and plays
//! random legal moves at a set pace (`--pace-ms` between a table's moves);
//! a finished match is followed by a rematch. It prints the moves accepted
//! every `--window` seconds and, at the end, the moves a second sustained
//! after `--warmup` and the time from a move's submission to every other
//! seat of its table having its update (p50, p99, max), with the server's
//! resident memory when `--server-pid` is given.
//!
//! The clients come from many loopback addresses (127.2.x.y, `--tables-per-address`
//! tables each), as many people would, so that the limits per address
//! (tables created a minute, watches held) hold for each as they would.
//!
//! With `--to-end` each table plays its match to the end instead, and the
//! run fails unless every seat saw the same final scores: the check CI
//! runs with two servers behind nginx (moves through `--addr`, each seat
//! watching through `--watch-addrs` in turn).
//!
//! ```sh
//! target/release/pips --tables-db 'sqlite:///tmp/t.db?mode=rwc' &
//! cargo run --release --example tableload -- --tables 1000 --pace-ms 500 --seconds 60
//! ```

use std::collections::HashSet;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use futures_util::StreamExt;
use pips::proto::table_service_client::TableServiceClient;
use pips::proto::{self, Phase};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use tonic::transport::{Channel, Endpoint};

/// Tables of people playing random moves, each seat watching live.
#[derive(Parser, Debug, Clone)]
struct Args {
    /// Where moves (and tables) go.
    #[arg(long, default_value = "127.0.0.1:50051")]
    addr: SocketAddr,
    /// Where the seats watch from, each seat the next of them in turn
    /// (comma-separated; default: `--addr`).
    #[arg(long, value_delimiter = ',')]
    watch_addrs: Vec<SocketAddr>,
    /// Make each table's moves through one of `--watch-addrs` (table by
    /// table in turn) instead of `--addr`: several servers with no
    /// balancer in front.
    #[arg(long)]
    spread_moves: bool,
    /// Tables open at once.
    #[arg(long, default_value_t = 100)]
    tables: usize,
    /// People at each table (every seat a person).
    #[arg(long, default_value_t = 4)]
    players: u32,
    /// The preset played.
    #[arg(long, default_value = "muggins")]
    variant: String,
    /// Milliseconds between two moves at a table (after the first has
    /// reached every seat).
    #[arg(long, default_value_t = 500)]
    pace_ms: u64,
    /// Seconds of play.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Seconds at the start that the figures leave out.
    #[arg(long, default_value_t = 5)]
    warmup: u64,
    /// Seconds per throughput line.
    #[arg(long, default_value_t = 5)]
    window: u64,
    /// Tables made from each client address (the server's default limit
    /// is 10 a minute per address).
    #[arg(long, default_value_t = 8)]
    tables_per_address: usize,
    /// Tables opened a second at the start (each of their seats connecting
    /// and watching), as people arrive.
    #[arg(long, default_value_t = 100)]
    ramp: usize,
    /// Play each table's match to its end, then stop (and check that
    /// every seat saw the same end).
    #[arg(long)]
    to_end: bool,
    /// The server's process id, for its resident memory.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Seed of the moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// What all tables count.
#[derive(Default)]
struct Counts {
    /// Moves accepted.
    moves: AtomicU64,
    /// Moves accepted after the warm-up.
    measured_moves: AtomicU64,
    /// Calls refused or failed.
    errors: AtomicU64,
    /// Matches played to their end.
    matches: AtomicU64,
    /// After the warm-up: from a move's submission to the last other seat
    /// having its update.
    spread: Mutex<Vec<Duration>>,
}

/// The client address of table `index`: loopback, a few tables each.
fn source(args: &Args, index: usize) -> Option<IpAddr> {
    if !args.addr.ip().is_loopback() {
        return None;
    }
    // (127.2.0.1 onwards: 127.2.0.0 is no host's.)
    let k = index / args.tables_per_address.max(1) + 1;
    let [.., high, low] = u32::try_from(k).unwrap_or(1).to_be_bytes();
    Some(IpAddr::V4(Ipv4Addr::new(127, 2, high, low)))
}

async fn connect(
    addr: SocketAddr,
    from: Option<IpAddr>,
) -> Result<Channel, tonic::transport::Error> {
    Endpoint::from_shared(format!("http://{addr}"))?
        .local_address(from)
        .tcp_nodelay(true)
        .connect()
        .await
}

fn view(update: &proto::TableUpdate) -> Option<&proto::ViewResponse> {
    update.view.as_ref()
}

/// One table, from its creation to the end of the run (or of its match).
async fn table(
    args: Arc<Args>,
    index: usize,
    counts: Arc<Counts>,
    start: Instant,
    end: Instant,
) -> Result<(), String> {
    let from = source(&args, index);
    let players = usize::try_from(args.players).map_err(|e| e.to_string())?;
    let mut movers = Vec::with_capacity(players);
    let mut watchers = Vec::with_capacity(players);
    let move_addr = if args.spread_moves && !args.watch_addrs.is_empty() {
        args.watch_addrs[index % args.watch_addrs.len()]
    } else {
        args.addr
    };
    for seat in 0..players {
        let channel = connect(move_addr, from)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        movers.push(TableServiceClient::new(channel));
        let watch_addr = if args.watch_addrs.is_empty() {
            args.addr
        } else {
            args.watch_addrs[(index + seat) % args.watch_addrs.len()]
        };
        let channel = connect(watch_addr, from)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        watchers.push(TableServiceClient::new(channel));
    }
    let person = proto::SeatPlan {
        who: Some(proto::seat_plan::Who::Person(proto::PersonSeat {})),
    };
    let created = movers[0]
        .create_table(proto::CreateTableRequest {
            variant: args.variant.clone(),
            players: args.players,
            rules: None,
            seats: vec![person; players],
            ..Default::default()
        })
        .await
        .map_err(|e| format!("create: {}", e.message()))?
        .into_inner();
    let links: Vec<String> = created.seat_links.iter().map(|l| l.link.clone()).collect();
    let mut streams = Vec::with_capacity(players);
    for (seat, link) in links.iter().enumerate() {
        let stream = watchers[seat]
            .watch(proto::WatchRequest { link: link.clone() })
            .await
            .map_err(|e| format!("watch: {}", e.message()))?
            .into_inner();
        streams.push(stream.map(move |message| (seat, message)).boxed());
    }
    let mut updates = futures_util::stream::select_all(streams);
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed ^ (index as u64).wrapping_mul(0x9e37_79b9));
    // Each seat's latest update; the move in flight (its number, when it
    // was sent, the seats yet to hear of it).
    let mut latest: Vec<Option<proto::TableUpdate>> = vec![None; players];
    let mut pending: Option<(u64, Instant, HashSet<usize>)> = None;
    let mut next_move =
        Instant::now() + Duration::from_millis(rng.random_range(0..args.pace_ms.max(1)));
    let (acted, mut answers) = tokio::sync::mpsc::unbounded_channel::<Result<(), String>>();
    loop {
        // The run's end (with --to-end: ten minutes more for the match).
        let last = if args.to_end {
            end + Duration::from_secs(600)
        } else {
            end
        };
        let now = Instant::now();
        if now >= last {
            return if args.to_end {
                Err("the match did not end in time".into())
            } else {
                Ok(())
            };
        }
        // Whether every seat is at the same number, with nothing in flight.
        let settled = pending.is_none()
            && latest.iter().all(Option::is_some)
            && latest
                .iter()
                .flatten()
                .map(|u| u.number)
                .collect::<HashSet<_>>()
                .len()
                == 1;
        let wake = if settled { next_move.max(now) } else { end };
        tokio::select! {
            update = updates.next() => {
                let Some((seat, message)) = update else { return Err("the watches ended".into()) };
                let update = message
                    .map_err(|e| format!("watch: {}", e.message()))?
                    .update
                    .ok_or("an empty update")?;
                if let Some((number, sent, waiting)) = &mut pending {
                    if update.number > *number {
                        waiting.remove(&seat);
                        if waiting.is_empty() {
                            if *sent >= start + Duration::from_secs(args.warmup) {
                                counts.spread.lock().map_err(|_| "poisoned")?.push(sent.elapsed());
                            }
                            pending = None;
                        }
                    }
                }
                latest[seat] = Some(update);
            }
            () = tokio::time::sleep_until(last.into()) => {}
            answer = answers.recv() => {
                match answer {
                    Some(Ok(())) => {}
                    Some(Err(error)) => {
                        counts.errors.fetch_add(1, Ordering::Relaxed);
                        eprintln!("table {index}: {error}");
                        pending = None;
                    }
                    None => return Err("answers ended".into()),
                }
            }
            () = tokio::time::sleep_until(wake.into()), if settled => {
                let first = latest[0].as_ref().ok_or("no update")?;
                let number = first.number;
                let over = view(first).is_some_and(|v| v.phase == Phase::MatchOver as i32);
                if over {
                    counts.matches.fetch_add(1, Ordering::Relaxed);
                    if args.to_end {
                        let scores: HashSet<Vec<i32>> =
                            latest.iter().flatten().filter_map(view).map(|v| v.scores.clone()).collect();
                        return if scores.len() == 1 { Ok(()) } else { Err(format!("seats disagree: {scores:?}")) };
                    }
                    let mut client = movers[0].clone();
                    let link = links[0].clone();
                    client
                        .rematch(proto::RematchRequest { link, number })
                        .await
                        .map_err(|e| format!("rematch: {}", e.message()))?;
                    next_move = Instant::now() + Duration::from_millis(args.pace_ms);
                    continue;
                }
                let Some(seat) = view(first).and_then(|v| v.to_act) else {
                    return Err("nobody to act".into());
                };
                let seat = usize::try_from(seat).map_err(|e| e.to_string())?;
                let actor = latest.get(seat).and_then(Option::as_ref).and_then(view).ok_or("no such seat")?;
                if actor.legal_moves.is_empty() {
                    return Err("no legal move".into());
                }
                let mv = actor.legal_moves[rng.random_range(0..actor.legal_moves.len())];
                let sent = Instant::now();
                let waiting: HashSet<usize> = (0..players).filter(|s| *s != seat).collect();
                pending = Some((number, sent, waiting));
                next_move = sent + Duration::from_millis(args.pace_ms);
                let mut client = movers[seat].clone();
                let link = links[seat].clone();
                let acted = acted.clone();
                let counts = Arc::clone(&counts);
                let measured = sent >= start + Duration::from_secs(args.warmup);
                tokio::spawn(async move {
                    let answer = client
                        .act(proto::ActRequest { link, number, r#move: Some(mv) })
                        .await
                        .map_err(|e| format!("act: {}", e.message()))
                        .and_then(|a| if a.into_inner().stale { Err("act: stale".into()) } else { Ok(()) });
                    if answer.is_ok() {
                        counts.moves.fetch_add(1, Ordering::Relaxed);
                        if measured {
                            counts.measured_moves.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    let _ = acted.send(answer);
                });
            }
        }
    }
}

/// The resident memory of process `pid`, in MiB.
fn rss_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let at = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[at.min(sorted.len() - 1)].as_secs_f64() * 1e3
}

#[tokio::main]
async fn main() {
    let args = Arc::new(Args::parse());
    let counts = Arc::new(Counts::default());
    let start = Instant::now();
    let end = start + Duration::from_secs(args.seconds);
    let mut tasks = tokio::task::JoinSet::new();
    for index in 0..args.tables {
        if index > 0 && index % args.ramp.max(1) == 0 {
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        tasks.spawn(table(
            Arc::clone(&args),
            index,
            Arc::clone(&counts),
            start,
            end,
        ));
    }
    let reporter = {
        let counts = Arc::clone(&counts);
        let args = Arc::clone(&args);
        tokio::spawn(async move {
            let mut last = 0;
            let mut tick = tokio::time::interval(Duration::from_secs(args.window));
            tick.tick().await;
            loop {
                tick.tick().await;
                let moves = counts.moves.load(Ordering::Relaxed);
                let rss = args
                    .server_pid
                    .and_then(rss_mib)
                    .map(|m| format!("  server RSS {m:.0} MiB"))
                    .unwrap_or_default();
                println!(
                    "{:>5.0} s  {:>7.0} moves/s{rss}",
                    start.elapsed().as_secs_f64(),
                    (moves - last) as f64 / args.window as f64
                );
                last = moves;
            }
        })
    };
    let mut failed = 0;
    while let Some(done) = tasks.join_next().await {
        match done {
            Ok(Ok(())) => {}
            Ok(Err(error)) => {
                failed += 1;
                eprintln!("a table failed: {error}");
            }
            Err(error) => {
                failed += 1;
                eprintln!("a table panicked: {error}");
            }
        }
    }
    reporter.abort();
    let measured = start.elapsed().as_secs_f64().min(args.seconds as f64) - args.warmup as f64;
    let mut spread = counts.spread.lock().map(|s| s.clone()).unwrap_or_default();
    spread.sort();
    println!(
        "tables {}  seats {}  moves {}  matches {}  errors {}  tables failed {failed}",
        args.tables,
        args.tables * args.players as usize,
        counts.moves.load(Ordering::Relaxed),
        counts.matches.load(Ordering::Relaxed),
        counts.errors.load(Ordering::Relaxed),
    );
    if !args.to_end && measured > 0.0 {
        println!(
            "sustained {:.0} moves/s after the warm-up; submission to every other seat: p50 {:.1} ms  p99 {:.1} ms  max {:.1} ms ({} moves)",
            counts.measured_moves.load(Ordering::Relaxed) as f64 / measured,
            percentile(&spread, 0.5),
            percentile(&spread, 0.99),
            percentile(&spread, 1.0),
            spread.len()
        );
    }
    if let Some(rss) = args.server_pid.and_then(rss_mib) {
        println!("server RSS at the end: {rss:.0} MiB");
    }
    if failed > 0 || counts.errors.load(Ordering::Relaxed) > 0 {
        std::process::exit(1);
    }
}
