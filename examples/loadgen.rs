//! Load generator: drives a running pips server over loopback with N
//! concurrent clients, each on its own connection, and reports calls per
//! second and latency percentiles for
//!
//! 1. the baseline: the gRPC health check, an RPC that does no game work;
//! 2. `Play` at full speed: every client plays complete random matches
//!    (`NewGame`, then `Play` with a random legal move until the match ends);
//! 3. `Play` at one position early in a match (`--early-move`, move 10)
//!    and at one late in a match (`--late-move`, move 250 of a muggins 2p
//!    match), every client sending its own position's request again and
//!    again (the server keeps nothing, so each call does the whole work);
//! 4. `Play` paced at half of the peak found in 2.
//!
//! Phases 1 to 3 alternate for `--rounds` rounds and the ratios of 2 to 1
//! and of late to early are reported as medians over the rounds, since a
//! shared machine's speed drifts; phase 4 runs once, at half of the median
//! peak.
//!
//! Phases 2 and 3 run once per state form asked for (`--form`): passing
//! state tokens along (`as_token`; open tokens on a server without a key),
//! and passing the readable `GameState` along.
//!
//! ```sh
//! cargo build --release && target/release/pips &
//! cargo run --release --example loadgen -- --clients 32 --seconds 10
//! ```
//!
//! Every phase is bounded in time and stops by itself.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use clap::{Parser, ValueEnum};
use pips::proto::domino_engine_service_client::DominoEngineServiceClient;
use pips::proto::play_request::StateSource;
use pips::proto::{NewGameRequest, PlayRequest, PlayResponse};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

/// How the clients pass the state from one call to the next.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// State tokens (`as_token`).
    Token,
    /// The readable `GameState`.
    Readable,
    /// Tokens first, then readable states.
    Both,
}

impl Form {
    fn each(self) -> Vec<Form> {
        match self {
            Form::Both => vec![Form::Token, Form::Readable],
            one => vec![one],
        }
    }

    /// The name it is given on the command line.
    fn name(self) -> String {
        self.to_possible_value()
            .map(|value| value.get_name().to_owned())
            .unwrap_or_default()
    }
}

/// Load generator for a running pips server.
#[derive(Parser, Debug, Clone)]
struct Args {
    /// The server to load (loopback only).
    #[arg(long, default_value = "127.0.0.1:50051")]
    addr: SocketAddr,
    /// Concurrent clients, each with its own connection.
    #[arg(long, default_value_t = 32)]
    clients: usize,
    /// Seconds each phase runs.
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// The preset played.
    #[arg(long, default_value = "muggins")]
    variant: String,
    /// Players per match.
    #[arg(long, default_value_t = 2)]
    players: u32,
    /// Rounds of baseline and peak phases (the half-peak phase runs once
    /// per form, at half of the median peak).
    #[arg(long, default_value_t = 3)]
    rounds: u32,
    /// How the state is passed along.
    #[arg(long, value_enum, default_value_t = Form::Both)]
    form: Form,
    /// The server's process id: reports the server's CPU time per call
    /// (from /proc) for each phase.
    #[arg(long)]
    server_pid: Option<u32>,
    /// The move of a match the early position is taken at.
    #[arg(long, default_value_t = 10)]
    early_move: usize,
    /// The move of a match the late position is taken at (matches shorter
    /// than this are skipped).
    #[arg(long, default_value_t = 250)]
    late_move: usize,
}

/// The server's user + system CPU time so far, if it can be read.
fn server_cpu(pid: Option<u32>) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid?)).ok()?;
    // Fields after the parenthesised command name; utime and stime are the
    // 14th and 15th fields of the whole line.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// What one phase measured.
struct Phase {
    name: String,
    calls: usize,
    errors: usize,
    elapsed: Duration,
    latencies: Vec<Duration>,
    server_cpu: Option<Duration>,
}

impl Phase {
    fn rate(&self) -> f64 {
        self.calls as f64 / self.elapsed.as_secs_f64()
    }

    /// The server's CPU time per call, in seconds, if it was measured.
    fn cpu_per_call(&self) -> Option<f64> {
        self.server_cpu
            .map(|cpu| cpu.as_secs_f64() / self.calls.max(1) as f64)
    }

    fn percentile(&self, p: f64) -> Duration {
        let i = ((self.latencies.len() as f64 - 1.0) * p).round() as usize;
        self.latencies.get(i).copied().unwrap_or_default()
    }

    fn print(&self) {
        println!(
            "{:<28} {:>10.0} calls/s  p50 {:>8.3} ms  p99 {:>8.3} ms  p999 {:>8.3} ms  errors {}",
            self.name,
            self.rate(),
            self.percentile(0.50).as_secs_f64() * 1e3,
            self.percentile(0.99).as_secs_f64() * 1e3,
            self.percentile(0.999).as_secs_f64() * 1e3,
            self.errors,
        );
        if let Some(cpu) = self.server_cpu {
            println!(
                "{:<28} server CPU {:.1} µs per call",
                "",
                cpu.as_secs_f64() * 1e6 / self.calls.max(1) as f64
            );
        }
    }
}

/// The median of `values` (sorted in place); 0 for none.
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

async fn connect(addr: SocketAddr) -> Result<Channel, tonic::transport::Error> {
    Endpoint::from_shared(format!("http://{addr}"))?
        .tcp_nodelay(true)
        .connect()
        .await
}

/// One client's results: calls, errors and latencies.
type ClientResult = (usize, usize, Vec<Duration>);

/// The baseline: health checks in a closed loop until `deadline`.
async fn health_client(channel: Channel, deadline: Instant) -> ClientResult {
    let mut client = HealthClient::new(channel);
    let (mut calls, mut errors, mut latencies) = (0, 0, Vec::new());
    while Instant::now() < deadline {
        let start = Instant::now();
        let result = client
            .check(HealthCheckRequest {
                service: String::new(),
            })
            .await;
        latencies.push(start.elapsed());
        calls += 1;
        errors += usize::from(result.is_err());
    }
    (calls, errors, latencies)
}

/// Plays random matches until `deadline`, timing every `Play`; with a
/// `pace`, waits so that one call starts every `pace` at most.
async fn play_client(
    channel: Channel,
    args: Args,
    form: Form,
    seed: u64,
    deadline: Instant,
    pace: Option<Duration>,
) -> ClientResult {
    let mut client = DominoEngineServiceClient::new(channel);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut calls, mut errors, mut latencies) = (0, 0, Vec::new());
    let mut next_start = Instant::now();
    'matches: while Instant::now() < deadline {
        let request = NewGameRequest {
            variant: args.variant.clone(),
            players: args.players,
            seed: Some(rng.random()),
            as_token: form == Form::Token,
            ..Default::default()
        };
        let Ok(update) = client.new_game(request).await else {
            errors += 1;
            continue;
        };
        let mut update: PlayResponse = update.into_inner().into();
        loop {
            let source = next_source(&mut update);
            if update.legal_moves.is_empty() || Instant::now() >= deadline {
                continue 'matches;
            }
            let mv = update.legal_moves[rng.random_range(0..update.legal_moves.len())];
            if let Some(pace) = pace {
                tokio::time::sleep_until(next_start.into()).await;
                next_start += pace;
            }
            let start = Instant::now();
            let result = client
                .play(PlayRequest {
                    state_source: source,
                    r#move: Some(mv),
                    ..Default::default()
                })
                .await;
            latencies.push(start.elapsed());
            calls += 1;
            match result {
                Ok(answer) => update = answer.into_inner(),
                Err(_) => {
                    errors += 1;
                    continue 'matches;
                }
            }
        }
    }
    (calls, errors, latencies)
}

/// The state of an answer, taken out to send with the next request.
fn next_source(update: &mut PlayResponse) -> Option<StateSource> {
    match update.state.take() {
        Some(state) => Some(state.into()),
        None => Some(std::mem::take(&mut update.state_token).into()),
    }
}

/// A `Play` request at move `early` and one at move `late` of random
/// matches (from `seed`) played through the server; matches shorter than
/// `late` moves are skipped.
async fn positions(
    channel: Channel,
    args: &Args,
    form: Form,
    seed: u64,
) -> Result<(PlayRequest, PlayRequest), tonic::Status> {
    let mut client = DominoEngineServiceClient::new(channel);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    for _ in 0..1000 {
        let request = NewGameRequest {
            variant: args.variant.clone(),
            players: args.players,
            seed: Some(rng.random()),
            as_token: form == Form::Token,
            ..Default::default()
        };
        let mut update: PlayResponse = client.new_game(request).await?.into_inner().into();
        let mut early = None;
        for played in 0.. {
            if update.legal_moves.is_empty() {
                break;
            }
            let mv = update.legal_moves[rng.random_range(0..update.legal_moves.len())];
            let request = PlayRequest {
                state_source: next_source(&mut update),
                r#move: Some(mv),
                ..Default::default()
            };
            if played == args.early_move {
                early = Some(request.clone());
            }
            if played == args.late_move {
                if let Some(early) = early {
                    return Ok((early, request));
                }
            }
            update = client.play(request).await?.into_inner();
        }
    }
    Err(tonic::Status::not_found(format!(
        "no {} {}p match reached move {}",
        args.variant, args.players, args.late_move
    )))
}

/// Sends `request` again and again until `deadline`.
async fn fixed_client(channel: Channel, request: PlayRequest, deadline: Instant) -> ClientResult {
    let mut client = DominoEngineServiceClient::new(channel);
    let (mut calls, mut errors, mut latencies) = (0, 0, Vec::new());
    while Instant::now() < deadline {
        let start = Instant::now();
        let result = client.play(request.clone()).await;
        latencies.push(start.elapsed());
        calls += 1;
        errors += usize::from(result.is_err());
    }
    (calls, errors, latencies)
}

async fn run_phase<F, Fut>(
    name: &str,
    args: &Args,
    client: F,
) -> Result<Phase, tonic::transport::Error>
where
    F: Fn(Channel, usize, Instant) -> Fut,
    Fut: std::future::Future<Output = ClientResult> + Send + 'static,
{
    let mut channels = Vec::with_capacity(args.clients);
    for _ in 0..args.clients {
        channels.push(connect(args.addr).await?);
    }
    let cpu_before = server_cpu(args.server_pid);
    let start = Instant::now();
    let deadline = start + Duration::from_secs(args.seconds);
    let tasks: Vec<_> = channels
        .into_iter()
        .enumerate()
        .map(|(i, channel)| tokio::spawn(client(channel, i, deadline)))
        .collect();
    let mut phase = Phase {
        name: name.to_owned(),
        calls: 0,
        errors: 0,
        elapsed: Duration::ZERO,
        latencies: Vec::new(),
        server_cpu: None,
    };
    for task in tasks {
        if let Ok((calls, errors, latencies)) = task.await {
            phase.calls += calls;
            phase.errors += errors;
            phase.latencies.extend(latencies);
        }
    }
    phase.elapsed = start.elapsed();
    phase.server_cpu = cpu_before
        .zip(server_cpu(args.server_pid))
        .map(|(before, after)| after.saturating_sub(before));
    phase.latencies.sort_unstable();
    Ok(phase)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    if !args.addr.ip().is_loopback() {
        return Err("the load generator only targets loopback addresses".into());
    }
    println!(
        "pips load: {} clients, {} s per phase, {} {}p, server {}",
        args.clients, args.seconds, args.variant, args.players, args.addr
    );
    // Rounds alternate the baseline and each form's peak, so that a noisy
    // machine's slow spells fall on both; ratios are taken within a round.
    let forms = args.form.each();
    let mut peaks: Vec<Vec<f64>> = vec![Vec::new(); forms.len()];
    let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); forms.len()];
    let mut late_ratios: Vec<Vec<f64>> = vec![Vec::new(); forms.len()];
    let mut cpu_ratios: Vec<Vec<f64>> = vec![Vec::new(); forms.len()];
    // Each client's early and late positions, per form.
    let mut fixed: Vec<Vec<(PlayRequest, PlayRequest)>> = Vec::new();
    for &form in &forms {
        let mut each = Vec::with_capacity(args.clients);
        for client in 0..args.clients {
            each.push(positions(connect(args.addr).await?, &args, form, client as u64).await?);
        }
        fixed.push(each);
    }
    for round in 1..=args.rounds {
        let baseline = run_phase(
            &format!("[{round}] health check (baseline)"),
            &args,
            |channel, _, deadline| health_client(channel, deadline),
        )
        .await?;
        baseline.print();
        for (i, &form) in forms.iter().enumerate() {
            let peak = run_phase(
                &format!("[{round}] Play, {} (peak)", form.name()),
                &args,
                |channel, seed, deadline| {
                    play_client(channel, args.clone(), form, seed as u64, deadline, None)
                },
            )
            .await?;
            peak.print();
            peaks[i].push(peak.rate());
            ratios[i].push(peak.rate() / baseline.rate().max(1.0));
            let mut at = Vec::new();
            for (label, late) in [(args.early_move, false), (args.late_move, true)] {
                let requests = &fixed[i];
                let phase = run_phase(
                    &format!("[{round}] Play at move {label}, {}", form.name()),
                    &args,
                    |channel, client, deadline| {
                        let (early, late_request) = requests[client % requests.len()].clone();
                        let request = if late { late_request } else { early };
                        fixed_client(channel, request, deadline)
                    },
                )
                .await?;
                phase.print();
                at.push(phase);
            }
            if let [early, late] = at.as_slice() {
                late_ratios[i].push(late.rate() / early.rate().max(1.0));
                if let (Some(e), Some(l)) = (early.cpu_per_call(), late.cpu_per_call()) {
                    cpu_ratios[i].push(l / e);
                }
            }
        }
    }
    for (i, &form) in forms.iter().enumerate() {
        let half = median(&mut peaks[i]) / 2.0;
        let pace = Duration::from_secs_f64(args.clients as f64 / half.max(1.0));
        let paced = run_phase(
            &format!("Play, {} at {half:.0}/s", form.name()),
            &args,
            |channel, seed, deadline| {
                play_client(
                    channel,
                    args.clone(),
                    form,
                    seed as u64,
                    deadline,
                    Some(pace),
                )
            },
        )
        .await?;
        paced.print();
        let each: Vec<String> = ratios[i]
            .iter()
            .map(|r| format!("{:.0}%", 100.0 * r))
            .collect();
        println!(
            "Play ({}) / baseline throughput: median {:.0}% (rounds: {})",
            form.name(),
            100.0 * median(&mut ratios[i]),
            each.join(", ")
        );
        println!(
            "Play ({}) at move {} / at move {}: calls/s median {:.0}%, server CPU per call median {:.0}%",
            form.name(),
            args.late_move,
            args.early_move,
            100.0 * median(&mut late_ratios[i]),
            100.0 * median(&mut cpu_ratios[i]),
        );
    }
    Ok(())
}
