//! Soak test for untrusted input: many concurrent connections against a
//! running server on loopback, for a bounded time, mixing valid moves with
//! malformed requests and tampered states. It counts wrong answers (a
//! legal move refused, a malformed or tampered request accepted, an
//! unexpected error code) and samples the server's resident memory.
//!
//! ```sh
//! cargo build --release && target/release/pips --addr 127.0.0.1:50051 &
//! cargo run --release --example soak -- --connections 1000 --seconds 60 --server-pid $!
//! ```
//!
//! With `--attack MODE` it runs an attack instead (on the transport:
//! `echo`, `slow-streams`, `slowloris`, `idle`; on the expensive calls:
//! `unread-replays-h2`, `unread-replays-h1`, `replay-flood`,
//! `suggest-flood`, `metrics-hold`, `waiting-bodies`, `suggest-deadlines`;
//! with hostile states and small answers: `hostile-states`,
//! `unread-small`, `oversize-bodies`; and, not an attack, `idle-seats` and
//! `idle-seats-events`: people at tables watching (over gRPC, or by
//! server-sent events) and never moving; each `--attackers` strong) while
//! `--clients` well-behaved clients play, and reports their success rate,
//! median and p99 latency and the server's RSS before, during and after:
//!
//! ```sh
//! cargo run --release --example soak -- --attack slowloris --attackers 1000 \
//!     --seconds 30 --server-pid $!
//! ```
//!
//! Start the server with a state key (`PIPS_STATE_KEY`) to exercise tags:
//! tampered states must then be refused as ERROR_REASON_STATE_TAG_INVALID. With
//! `--tokens` the clients pass state tokens instead of readable states:
//! sealed ones (a key; any altered byte must be refused) or open ones (no
//! key; broken packed states and garbage must be refused).

mod attacks;
mod costly;
mod hostile;
mod seats;
mod tables;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use pips::proto::domino_engine_service_client::DominoEngineServiceClient;
use pips::proto::play_request::StateSource;
use pips::proto::{self, NewGameRequest, PackedState, PlayRequest};
use prost::Message;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use tonic::Code;
use tonic::transport::{Channel, Endpoint};

/// Soak test for a running pips server.
#[derive(Parser, Debug, Clone)]
struct Args {
    /// The server (loopback only).
    #[arg(long, default_value = "127.0.0.1:50051")]
    addr: SocketAddr,
    /// Concurrent connections, one client each.
    #[arg(long, default_value_t = 1000)]
    connections: usize,
    /// How long to run.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// The server's process id, to sample its resident memory.
    #[arg(long)]
    server_pid: Option<u32>,
    /// The server has a state key, so consistent forgeries (a raised score)
    /// must be refused too.
    #[arg(long)]
    keyed: bool,
    /// Pass state tokens (`as_token`) instead of readable states.
    #[arg(long)]
    tokens: bool,
    /// Run this attack (for `--seconds`, after a 5 s baseline and before a
    /// 10 s recovery) instead of the untrusted-input soak.
    #[arg(long, value_enum)]
    attack: Option<attacks::Attack>,
    /// Attacking connections.
    #[arg(long, default_value_t = 400)]
    attackers: usize,
    /// Well-behaved clients measured during an attack, one connection each.
    #[arg(long, default_value_t = 8)]
    clients: usize,
    /// The server's metrics listener (`--metrics-addr`), for
    /// `--attack metrics-hold`.
    #[arg(long)]
    metrics_addr: Option<SocketAddr>,
    /// The preset the suggestion attacks ask `expert` about.
    #[arg(long, default_value = "muggins")]
    suggest_variant: String,
    /// Its seats.
    #[arg(long, default_value_t = 2)]
    suggest_players: u32,
    /// Run the attackers at the clients' priority, sharing the cores with
    /// the server as a local attacker would (by default they run at the
    /// lowest, standing for machines of their own).
    #[arg(long)]
    attackers_share_cores: bool,
    /// The file the server's log goes to, for `--attack log-flood`: how
    /// fast it grows in each phase is printed.
    #[arg(long)]
    server_log: Option<std::path::PathBuf>,
    /// The size of the long record the `Replay` attacks send, in bytes
    /// (default: just under the server's default request limit).
    #[arg(long, default_value_t = 1_000_000)]
    record_bytes: usize,
}

/// Tallies shared by every client.
#[derive(Default)]
struct Tally {
    valid: AtomicU64,
    refused_as_expected: AtomicU64,
    shed: AtomicU64,
    wrong: AtomicU64,
}

/// A figure of `/proc/<pid>/status` (`VmRSS:` in KiB, `Threads:`).
fn proc_status(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Resident memory of `pid`, in KiB.
fn rss_kib(pid: u32) -> Option<u64> {
    proc_status(pid, "VmRSS:")
}

/// One way of breaking a valid request that carries a token. A sealed
/// token must refuse any altered byte; an open one is a packed state anyone
/// may rewrite, so it is broken in ways no consistent game allows.
fn break_token(token: &mut Vec<u8>, rng: &mut ChaCha8Rng, keyed: bool) -> &'static str {
    if keyed {
        let at = rng.random_range(0..token.len().max(1));
        if let Some(byte) = token.get_mut(at) {
            *byte ^= 1 << rng.random_range(0..8);
        }
        return "altered sealed token";
    }
    let Ok(mut packed) = PackedState::decode(token.as_slice()) else {
        return "none";
    };
    let how = match rng.random_range(0..4) {
        0 => {
            packed.players = 9;
            "token with 9 players"
        }
        1 => {
            packed.format_version = 7;
            "token in an unknown format"
        }
        2 => {
            packed.boneyard.push(
                packed
                    .hands
                    .first()
                    .and_then(|h| h.first().copied())
                    .unwrap_or(0),
            );
            "token with a tile twice"
        }
        _ => {
            *token = b"garbage".to_vec();
            return "garbage token";
        }
    };
    *token = packed.encode_to_vec();
    how
}

/// One way of breaking a valid request.
fn break_request(request: &mut PlayRequest, rng: &mut ChaCha8Rng, keyed: bool) -> &'static str {
    let state = match request.state_source.as_mut() {
        Some(StateSource::StateToken(token)) => return break_token(token, rng, keyed),
        Some(StateSource::State(state)) => state,
        None => return "none",
    };
    let kinds = if keyed { 0..6 } else { 2..6 };
    match rng.random_range(kinds) {
        0 => {
            // Forge a better hand: take a boneyard or opponent tile.
            let tile = state
                .boneyard
                .first()
                .copied()
                .or_else(|| state.hands.get(1).and_then(|h| h.tiles.first().copied()));
            if let (Some(tile), Some(hand)) = (tile, state.hands.first_mut()) {
                hand.tiles.push(tile);
            }
            "forged hand"
        }
        1 => {
            if let Some(score) = state.scores.first_mut() {
                *score += 40;
            }
            "raised score"
        }
        2 => {
            state.players = 9;
            "players"
        }
        3 => {
            state.format_version = 7;
            "format"
        }
        4 => {
            request.r#move = Some(proto::Move {
                seat: 77,
                action: Some(proto::r#move::Action::Pass(proto::Pass {})),
            });
            "seat"
        }
        _ => {
            request.state_source = None;
            "missing state"
        }
    }
}

async fn client(channel: Channel, seed: u64, deadline: Instant, tally: Arc<Tally>, args: Args) {
    let keyed = args.keyed;
    let mut engine = DominoEngineServiceClient::new(channel);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    'matches: while Instant::now() < deadline {
        let deal = engine
            .new_game(NewGameRequest {
                variant: "muggins".to_owned(),
                players: rng.random_range(2..5),
                as_token: args.tokens,
                ..Default::default()
            })
            .await;
        let mut update: proto::PlayResponse = match deal {
            Ok(update) => update.into_inner().into(),
            Err(status) if status.code() == Code::ResourceExhausted => {
                tally.shed.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(5)).await;
                continue;
            }
            Err(_) => {
                tally.wrong.fetch_add(1, Ordering::Relaxed);
                continue;
            }
        };
        while Instant::now() < deadline {
            let source = match update.state.clone() {
                Some(state) => state.into(),
                None if !update.state_token.is_empty() => update.state_token.clone().into(),
                None => continue 'matches,
            };
            if update.legal_moves.is_empty() {
                continue 'matches;
            }
            let mv = update.legal_moves[rng.random_range(0..update.legal_moves.len())];
            let valid = PlayRequest {
                state_source: Some(source),
                r#move: Some(mv),
                ..Default::default()
            };
            if rng.random_range(0..3) == 0 {
                let mut broken = valid.clone();
                let how = break_request(&mut broken, &mut rng, keyed);
                match engine.play(broken).await {
                    Ok(_) => {
                        eprintln!("WRONG: a request with a {how} was accepted");
                        tally.wrong.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(status) if status.code() == Code::ResourceExhausted => {
                        tally.shed.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(status)
                        if matches!(
                            status.code(),
                            Code::InvalidArgument
                                | Code::FailedPrecondition
                                | Code::Unauthenticated
                        ) =>
                    {
                        tally.refused_as_expected.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(status) => {
                        eprintln!("WRONG: a {how} gave {status:?}");
                        tally.wrong.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            match engine.play(valid).await {
                Ok(answer) => {
                    tally.valid.fetch_add(1, Ordering::Relaxed);
                    update = answer.into_inner();
                }
                Err(status) if status.code() == Code::ResourceExhausted => {
                    tally.shed.fetch_add(1, Ordering::Relaxed);
                }
                Err(status) => {
                    eprintln!("WRONG: a legal move was refused: {status:?}");
                    tally.wrong.fetch_add(1, Ordering::Relaxed);
                    continue 'matches;
                }
            }
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    if !args.addr.ip().is_loopback() {
        return Err("the soak test only targets loopback addresses".into());
    }
    if let Some(attack) = args.attack {
        return under_attack(attack, &args).await;
    }
    let channels = connect(args.addr, args.connections).await?;
    println!(
        "soak: {} connections open for {} s",
        args.connections, args.seconds
    );
    let tally = Arc::new(Tally::default());
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let tasks: Vec<_> = channels
        .into_iter()
        .enumerate()
        .map(|(i, channel)| {
            tokio::spawn(client(
                channel,
                i as u64,
                deadline,
                tally.clone(),
                args.clone(),
            ))
        })
        .collect();
    let mut samples = Vec::new();
    while Instant::now() < deadline {
        tokio::time::sleep(Duration::from_secs(1)).await;
        if let Some(kib) = args.server_pid.and_then(rss_kib) {
            samples.push(kib);
        }
    }
    for task in tasks {
        let _ = task.await;
    }
    let get = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
    println!(
        "valid moves {}, malformed or tampered refused {}, shed {}, wrong answers {}",
        get(&tally.valid),
        get(&tally.refused_as_expected),
        get(&tally.shed),
        get(&tally.wrong)
    );
    if let (Some(first), Some(min), Some(max), Some(last)) = (
        samples.first(),
        samples.iter().min(),
        samples.iter().max(),
        samples.last(),
    ) {
        println!(
            "server RSS (MiB): first {:.1}, min {:.1}, max {:.1}, last {:.1} over {} samples",
            *first as f64 / 1024.0,
            *min as f64 / 1024.0,
            *max as f64 / 1024.0,
            *last as f64 / 1024.0,
            samples.len()
        );
        let at = |fraction: f64| samples[((samples.len() - 1) as f64 * fraction) as usize];
        println!(
            "server RSS (MiB) at 10%, 25%, 50%, 75%, 100% of the run: {:.1} {:.1} {:.1} {:.1} {:.1}",
            at(0.1) as f64 / 1024.0,
            at(0.25) as f64 / 1024.0,
            at(0.5) as f64 / 1024.0,
            at(0.75) as f64 / 1024.0,
            at(1.0) as f64 / 1024.0
        );
    }
    if get(&tally.wrong) > 0 {
        return Err("wrong answers".into());
    }
    Ok(())
}

/// The phases of an attack run, each with its length.
const PHASES: [(&str, Option<u64>); 3] = [
    ("baseline", Some(5)),
    ("attack", None),
    ("recovery", Some(10)),
];

/// `count` gRPC channels to `addr`, each on its own connection.
async fn connect(addr: SocketAddr, count: usize) -> Result<Vec<Channel>, tonic::transport::Error> {
    let mut channels = Vec::with_capacity(count);
    for _ in 0..count {
        let channel = Endpoint::from_shared(format!("http://{addr}"))?
            .tcp_nodelay(true)
            .connect()
            .await?;
        channels.push(channel);
    }
    Ok(channels)
}

/// Lowers the calling thread's priority to the least (nice 19; Linux
/// niceness is per thread).
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: `setpriority` takes plain integers and touches no memory of
    // ours; `who = 0` names the calling thread.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}

/// The server's RSS (MiB) and thread count now, if its pid is known.
fn server_figures(pid: Option<u32>) -> (f64, f64) {
    let figure = |field, scale: f64| {
        pid.and_then(|pid| proc_status(pid, field))
            .map_or(f64::NAN, |v| v as f64 / scale)
    };
    (figure("VmRSS:", 1024.0), figure("Threads:", 1.0))
}

/// Runs `attack` while well-behaved clients play, phase by phase, and
/// prints what they saw and the server's RSS and threads.
async fn under_attack(
    attack: attacks::Attack,
    args: &Args,
) -> Result<(), Box<dyn std::error::Error>> {
    use attacks::Attack;
    let channels = connect(args.addr, args.clients).await?;
    let split = attack == Attack::WaitingBodies;
    let record = costly::long_record(false, args.record_bytes);
    let json_record = costly::long_record(true, args.record_bytes);
    let suggest = costly::suggestion_state(
        channels[0].clone(),
        &args.suggest_variant,
        args.suggest_players,
    )
    .await?;
    let target = Arc::new(attacks::Target {
        addr: args.addr,
        metrics: args.metrics_addr,
        record: costly::record_bodies(&record, &json_record),
        replay: record,
        suggest,
        deadlines: Arc::new(costly::Deadlines::default()),
        outcomes: Arc::new(costly::Outcomes::default()),
        hostile: if attack == Attack::HostileStates {
            hostile::hostile_requests()
        } else {
            Vec::new()
        },
        answered: Arc::new(hostile::Answered::default()),
        tables: Arc::new(tables::TableCounts::default()),
    });
    let scrapes = Arc::new(hostile::Answered::default());
    println!(
        "attack {attack:?}: {} attackers, {} well-behaved clients ({}); a long record has {} moves \
         ({} bytes as protobuf, {} as JSON)",
        args.attackers,
        args.clients,
        if split {
            "HTTP/1.1 JSON, header and body in separate writes"
        } else {
            "gRPC"
        },
        target.replay.moves.len(),
        target.record.0.len(),
        target.record.1.len(),
    );
    println!(
        "phase      seconds  calls   success  p50 ms  p99 ms  RSS MiB (end; max)  threads (end; max)"
    );
    let mut worst_success = 100.0f64;
    let mut p99s = Vec::new();
    let mut ends = Vec::new();
    let mut attack_max = (f64::NAN, f64::NAN);
    // The attackers run on threads of their own at the lowest priority, so
    // that their own work (encoding requests, decoding megabytes of
    // answers) stands for a machine of their own rather than taking the
    // cores from the server and the measured clients; what they send is
    // unchanged, and how many of their calls were answered is printed.
    let share_cores = args.attackers_share_cores;
    let attack_runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("attacker")
        .on_thread_start(move || {
            if !share_cores {
                lowest_priority();
            }
        })
        .enable_all()
        .build()?;
    let mut table_lines = Vec::new();
    if let (Attack::TimerFlood, Some(metrics)) = (attack, args.metrics_addr) {
        let end = Instant::now() + Duration::from_secs(args.seconds + 15);
        tokio::spawn(tables::timeouts_by_window(metrics, end));
    }
    for (index, (phase, seconds)) in PHASES.into_iter().enumerate() {
        let seconds = seconds.unwrap_or(args.seconds);
        let stop = Instant::now() + Duration::from_secs(seconds);
        let calls = Arc::new(Mutex::new(attacks::Calls::default()));
        // The deadline-bound callers are measured: they run at the
        // clients' priority.
        let runtime = if attack == Attack::SuggestDeadlines {
            tokio::runtime::Handle::current()
        } else {
            attack_runtime.handle().clone()
        };
        let attackers = (phase == "attack").then(|| {
            runtime.spawn(attacks::run(
                attack,
                Arc::clone(&target),
                args.attackers,
                stop,
            ))
        });
        // Under `metrics-hold`, a scraper (at the clients' priority) must
        // get through in every phase.
        // Under `timer-flood`, people at tables of their own see how late
        // their timers are played, in every phase.
        let timers = (attack == Attack::TimerFlood).then(|| {
            let counts = Arc::new(tables::TableCounts::default());
            let phase_no = u8::try_from(index + 1).unwrap_or(1);
            let task = tokio::spawn(tables::late_timers(
                args.addr,
                phase_no,
                10,
                stop,
                Arc::clone(&counts),
            ));
            (task, counts)
        });
        // What people at tables meet, in every phase of a table attack.
        let people = Arc::new(tables::People::default());
        let phase_no = u8::try_from(index + 1).unwrap_or(1);
        let people_task = {
            let (addr, people) = (args.addr, Arc::clone(&people));
            match attack {
                Attack::ProxyFlood => Some(tokio::spawn(tables::people_behind_the_proxy(
                    addr, phase_no, stop, people,
                ))),
                Attack::WatchDescriptors => Some(tokio::spawn(tables::new_connections(
                    addr, phase_no, stop, people,
                ))),
                Attack::CapHolding => Some(tokio::spawn(tables::newcomers(
                    addr, phase_no, stop, people,
                ))),
                Attack::WatchSlots => Some(tokio::spawn(tables::watched_moves(
                    addr,
                    phase_no,
                    phase == "attack",
                    stop,
                    (people, Arc::clone(&target.tables)),
                ))),
                _ => None,
            }
        };
        let log_before = args
            .server_log
            .as_ref()
            .and_then(|path| std::fs::metadata(path).ok())
            .map(|meta| meta.len());
        let played_before = match (attack, args.metrics_addr) {
            (Attack::TimerFlood, Some(metrics)) => tables::timeouts_played(metrics).await,
            _ => None,
        };
        let scraper = match (attack, args.metrics_addr) {
            (Attack::MetricsHold, Some(metrics)) => Some(tokio::spawn(hostile::scrape(
                metrics,
                stop,
                Arc::clone(&scrapes),
            ))),
            _ => None,
        };
        let clients: Vec<_> = channels
            .iter()
            .enumerate()
            .map(|(i, channel)| {
                if split {
                    tokio::spawn(costly::play_well_split(
                        args.addr,
                        i as u64,
                        stop,
                        calls.clone(),
                    ))
                } else {
                    tokio::spawn(attacks::play_well(
                        channel.clone(),
                        i as u64,
                        stop,
                        calls.clone(),
                    ))
                }
            })
            .collect();
        let mut max = (f64::NAN, f64::NAN);
        while Instant::now() < stop {
            tokio::time::sleep(Duration::from_millis(250)).await;
            let (rss, threads) = server_figures(args.server_pid);
            max = (max.0.max(rss), max.1.max(threads));
        }
        for client in clients {
            let _ = client.await;
        }
        if let Some(scraper) = scraper {
            let _ = scraper.await;
        }
        if let Some(task) = people_task {
            let _ = task.await;
            let what = match attack {
                Attack::ProxyFlood => "people behind the proxy (a table created, a seat watched)",
                Attack::WatchDescriptors => {
                    "new clients on new connections (engine calls, tables, watches)"
                }
                Attack::CapHolding => "newcomers creating a table",
                _ => "moves seen by the watching seat within 2 s",
            };
            table_lines.push(format!("{phase}: {}", people.line(what)));
        }
        if let (Some(before), Some(path)) = (log_before, args.server_log.as_ref()) {
            let after = std::fs::metadata(path).map_or(before, |meta| meta.len());
            table_lines.push(format!(
                "{phase}: the server's log grew {:.1} KB a second",
                after.saturating_sub(before) as f64 / 1000.0 / seconds as f64
            ));
        }
        if let Some((task, counts)) = timers {
            let _ = task.await;
            let mut late = counts
                .late
                .lock()
                .map(|late| late.clone())
                .unwrap_or_default();
            late.sort_unstable();
            let at = |fraction: f64| {
                late.get(((late.len().saturating_sub(1)) as f64 * fraction).round() as usize)
                    .map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0)
            };
            let mut line = format!(
                "{phase}: people's 2 s timers played late by p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms ({} timeouts)",
                at(0.5),
                at(0.99),
                at(1.0),
                late.len()
            );
            let played_after = match args.metrics_addr {
                Some(metrics) => tables::timeouts_played(metrics).await,
                None => None,
            };
            if let (Some(before), Some(after)) = (played_before, played_after) {
                let (all, within) = (after.0 - before.0, after.1 - before.1);
                line.push_str(&format!(
                    "; the server played {all:.0} timed-out turns ({:.0} a second), {:.2}% within 1 s of due",
                    all / seconds as f64,
                    100.0 * within / all.max(1.0)
                ));
            }
            table_lines.push(line);
        }
        if let Some(attackers) = attackers {
            let _ = attackers.await;
            attack_max = max;
        }
        let mut calls = std::mem::take(&mut *calls.lock().map_err(|_| "poisoned")?);
        let success = 100.0 * calls.latencies.len() as f64 / calls.total().max(1) as f64;
        if phase != "baseline" {
            worst_success = worst_success.min(success);
        }
        let ms = |d: Option<Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0);
        let (p50, p99) = (ms(calls.percentile(0.5)), ms(calls.percentile(0.99)));
        p99s.push(p99);
        let end = server_figures(args.server_pid);
        ends.push(end);
        if !calls.codes.is_empty() {
            println!(
                "{phase}: failed well-behaved calls by code: {:?}",
                calls.codes
            );
        }
        println!(
            "{phase:<10} {seconds:>7}  {:>6}  {success:>6.2}%  {p50:>6.2}  {p99:>6.2}  {:>7.1}; {:<9.1}  {:>4}; {}",
            calls.total(),
            end.0,
            max.0,
            end.1,
            max.1,
        );
    }
    for line in table_lines {
        println!("{line}");
    }
    let (before, after) = (ends[0], ends[2]);
    println!(
        "server RSS MiB before -> max -> 10 s after: {:.1} -> {:.1} -> {:.1}; \
         threads: {} -> {} -> {}",
        before.0, attack_max.0, after.0, before.1, attack_max.1, after.1
    );
    let ratio = p99s[1] / p99s[0];
    println!(
        "well-behaved p99 under attack: {ratio:.2}x the baseline's (target: at most 3x); \
         worst success {worst_success:.2}% (target: at least 99%)"
    );
    let (answered, refused) = (
        target.outcomes.answered.load(Ordering::Relaxed),
        target.outcomes.refused.load(Ordering::Relaxed),
    );
    if answered + refused > 0 {
        println!("attack calls: {answered} answered, {refused} refused or failed");
    }
    let (made, turned_away) = (
        target.tables.created.load(Ordering::Relaxed),
        target.tables.refused.load(Ordering::Relaxed),
    );
    if made + turned_away > 0 {
        println!(
            "the attack's tables and watches: {made} made, {turned_away} refused or ended (calls, for log-flood)"
        );
    }
    let (expected, otherwise) = (
        target.answered.expected.load(Ordering::Relaxed),
        target.answered.otherwise.load(Ordering::Relaxed),
    );
    match attack {
        Attack::HostileStates => println!(
            "hostile requests: {expected} answered as they must be (refused, or served), \
             {otherwise} otherwise or failed"
        ),
        Attack::OversizeBodies => println!(
            "oversize bodies sent whole: {expected} 413s read, {otherwise} not (a broken pipe, \
             or no answer in 10 s)"
        ),
        _ => {}
    }
    if attack == Attack::MetricsHold {
        let (scraped, missed) = (
            scrapes.expected.load(Ordering::Relaxed),
            scrapes.otherwise.load(Ordering::Relaxed),
        );
        println!("scrapes with a 2 s timeout: {scraped} answered, {missed} not");
    }
    attack_runtime.shutdown_background();
    if attack == Attack::SuggestDeadlines {
        let calls = target.deadlines.calls.load(Ordering::Relaxed);
        let moves = target.deadlines.moves.load(Ordering::Relaxed);
        println!(
            "deadline-bound suggestions: {calls}, answered with a move: {moves} ({:.2}%)",
            100.0 * moves as f64 / calls.max(1) as f64
        );
        if moves < calls {
            return Err("a deadline-bound suggestion came without a move".into());
        }
    }
    if worst_success < 99.0 {
        return Err(
            format!("well-behaved calls succeeded only {worst_success:.2}% of the time").into(),
        );
    }
    Ok(())
}
