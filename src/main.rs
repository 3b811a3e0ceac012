//! The `pips` binary: reads flags and environment, sets up logging, binds
//! the address and hands over to [`pips::server::run`].

use std::net::SocketAddr;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

/// mimalloc returns freed memory to the operating system within
/// milliseconds, so the server's resident memory falls back to its plateau
/// after a burst of connections (glibc's allocator kept the peak).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Where tables are kept unless a flag says otherwise: a SQLite file in
/// the folder the server runs in, so that the run command plays by link
/// with nothing to install.
const DEFAULT_TABLES_DB: &str = "pips-tables.db";

/// An authoritative dominoes rules engine, served over gRPC.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Cli {
    /// What to do; with none, serve.
    #[command(subcommand)]
    command: Option<Command>,
    /// Address the server listens on; `healthcheck` probes it (`arena` does
    /// not use it).
    #[arg(
        long,
        env = "PIPS_ADDR",
        default_value = "127.0.0.1:50051",
        global = true
    )]
    addr: SocketAddr,
    /// Address to serve Prometheus metrics on (`GET /metrics`, OpenMetrics
    /// text), apart from the API's port; none: no metrics listener.
    #[arg(long, env = "PIPS_METRICS_ADDR")]
    metrics_addr: Option<SocketAddr>,
    /// File holding the state key: 64 hex digits, and optionally a second
    /// line with the previous key (accepted on input, for rotation). With a
    /// key, states are tagged and their seed sealed, and sealed tokens are
    /// available.
    #[arg(long, env = "PIPS_STATE_KEY_FILE")]
    state_key_file: Option<std::path::PathBuf>,
    /// The state key itself (current, then optionally previous, separated by
    /// a comma), instead of a file. Prefer the environment variable: a flag's
    /// value is visible to other users of the machine.
    #[arg(
        long,
        env = "PIPS_STATE_KEY",
        hide_env_values = true,
        conflicts_with = "state_key_file"
    )]
    state_key: Option<String>,
    /// The largest request accepted, in bytes.
    #[arg(long, env = "PIPS_MAX_REQUEST_BYTES", default_value_t = 1024 * 1024)]
    max_request_bytes: usize,
    /// Milliseconds a call's handler may take before it is cancelled.
    #[arg(long, env = "PIPS_REQUEST_TIMEOUT_MS", default_value_t = 5000)]
    request_timeout_ms: u64,
    /// Milliseconds a request body may take to arrive whole (a call holds
    /// no concurrency slot meanwhile).
    #[arg(long, env = "PIPS_BODY_TIMEOUT_MS", default_value_t = 10_000)]
    body_timeout_ms: u64,
    /// Calls served at once; more are refused at once (RESOURCE_EXHAUSTED).
    #[arg(long, env = "PIPS_MAX_CONCURRENT_REQUESTS", default_value_t = 512)]
    max_concurrent_requests: usize,
    /// Calls admitted while their body is still arriving; more are refused
    /// at once (RESOURCE_EXHAUSTED).
    #[arg(long, env = "PIPS_MAX_WAITING_BODIES", default_value_t = 1024)]
    max_waiting_bodies: usize,
    /// Streams one HTTP/2 connection may have open at once.
    #[arg(long, env = "PIPS_MAX_STREAMS_PER_CONNECTION", default_value_t = 100)]
    max_streams_per_connection: u32,
    /// Connections served at once; at it, a new connection takes the
    /// place of the one idle longest (when none is idle, it waits in the
    /// listen backlog). Default: the descriptor limit (raised at start
    /// from the soft to the hard one) less 64.
    #[arg(long, env = "PIPS_MAX_CONNECTIONS")]
    max_connections: Option<usize>,
    /// Seconds a new connection may take to send its first complete
    /// request (and an HTTP/1.1 request its header).
    #[arg(long, env = "PIPS_HEADER_TIMEOUT_SECS", default_value_t = 10)]
    header_timeout_secs: u64,
    /// Seconds a connection may stay with no call in flight before it is
    /// closed.
    #[arg(long, env = "PIPS_IDLE_TIMEOUT_SECS", default_value_t = 60)]
    idle_timeout_secs: u64,
    /// Seconds between HTTP/2 keep-alive pings on idle connections.
    #[arg(long, env = "PIPS_KEEPALIVE_SECS", default_value_t = 30)]
    keepalive_secs: u64,
    /// An origin (`https://app.example`) whose pages may call the JSON API
    /// and gRPC-Web from a browser; repeat the flag (or separate with commas
    /// in the variable) for several, `*` for any. Default: none, so only
    /// pages served by this server (the playground) can call it.
    #[arg(long = "cors-origin", env = "PIPS_CORS_ORIGINS", value_delimiter = ',')]
    cors_origins: Vec<String>,
    /// PEM file of the TLS certificate chain: with `--tls-key`, every
    /// protocol on the port is served over TLS (ALPN h2 and http/1.1).
    #[arg(long, env = "PIPS_TLS_CERT", requires = "tls_key")]
    tls_cert: Option<std::path::PathBuf>,
    /// PEM file of the TLS private key (with `--tls-cert`).
    #[arg(long, env = "PIPS_TLS_KEY", requires = "tls_cert")]
    tls_key: Option<std::path::PathBuf>,
    /// Milliseconds a `SuggestMove` search may take at most (a caller may
    /// ask for less), so that no caller can pin a core.
    #[arg(long, env = "PIPS_MAX_SUGGEST_MS", default_value_t = 200)]
    max_suggest_ms: u64,
    /// Milliseconds a streamed review (`StreamReviewMatch`) may go on at
    /// most, each decision within --max-suggest-ms (a caller may ask for
    /// less with its deadline); a unary `ReviewMatch` has
    /// --request-timeout-ms.
    #[arg(long, env = "PIPS_MAX_REVIEW_MS", default_value_t = 60_000)]
    max_review_ms: u64,
    /// Threads of the work pool where `SuggestMove` searches and long
    /// replays run, below the priority of the threads that serve
    /// connections. Default: one per core.
    #[arg(long, env = "PIPS_WORK_THREADS")]
    work_threads: Option<usize>,
    /// Calls that may wait for a work-pool thread, beyond one running on
    /// each; more are refused at once (RESOURCE_EXHAUSTED,
    /// ERROR_REASON_OVERLOADED). One connection may hold a quarter of the
    /// pool's threads and queue. Default: four per thread.
    #[arg(long, env = "PIPS_WORK_QUEUE")]
    work_queue: Option<usize>,
    /// Calls of one connection that may wait for their bodies at once (its
    /// share of --max-waiting-bodies).
    #[arg(
        long,
        env = "PIPS_MAX_WAITING_BODIES_PER_CONNECTION",
        default_value_t = 16
    )]
    max_waiting_bodies_per_connection: usize,
    /// Bytes of answers (every answer, whatever its size or protocol) that
    /// may wait to be written, server-wide; one connection may hold an
    /// eighth, and an answer beyond its share is refused
    /// (RESOURCE_EXHAUSTED). When the server's is spent, the connection
    /// holding the most unread answers is closed.
    #[arg(long, env = "PIPS_MAX_ANSWER_BYTES", default_value_t = 64 * 1024 * 1024)]
    max_answer_bytes: usize,
    /// Where `TableService` keeps its tables, so that people play each other
    /// by a link: a SQLite file (a path such as `pips-tables.db`, or
    /// `sqlite://pips-tables.db`; created if missing, relative to where the
    /// server runs) or `postgres://user@host/db` (for several servers).
    /// `none`: the server keeps no tables and refuses their calls. The
    /// server binds its port only once the database is usable.
    #[arg(long, env = "PIPS_TABLES_DB", default_value = DEFAULT_TABLES_DB)]
    tables_db: String,
    /// Seconds a table nobody plays at (no person's move, no rematch) is
    /// kept before it is deleted; opening its links or watching it does
    /// not keep it.
    #[arg(long, env = "PIPS_TABLES_EXPIRE_SECS", default_value_t = 24 * 60 * 60,
          value_parser = clap::value_parser!(u64).range(1..))]
    tables_expire_secs: u64,
    /// Tables one client address (IPv6: its /64) may create in a minute on
    /// a server (a burst of as many, then one every 60/n seconds); its
    /// network (IPv4 /24, IPv6 /48) ten times as many, its block (IPv4
    /// /16, IPv6 /32) a hundred times.
    #[arg(long, env = "PIPS_TABLES_PER_MINUTE", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..))]
    tables_per_minute: u32,
    /// Tables kept at once (on a shared database: by all its servers).
    /// At it, a new table takes the place of the table played least
    /// recently of the client keeping the most (when it keeps more than
    /// the creator); the creator is refused only when it keeps as many as
    /// anyone.
    #[arg(long, env = "PIPS_TABLES_MAX", default_value_t = 100_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    tables_max: u64,
    /// Tables one client address (IPv6: its /64) may keep at once; its
    /// network (IPv4 /24, IPv6 /48) ten times as many, its block (IPv4
    /// /16, IPv6 /32) a hundred times (each at most --tables-max).
    #[arg(long, env = "PIPS_TABLES_PER_ADDRESS", default_value_t = 100,
          value_parser = clap::value_parser!(u64).range(1..))]
    tables_per_address: u64,
    /// Watches of tables (live updates) held at once on this server;
    /// not given: three quarters of the connections the descriptor limit
    /// allows, at most 20,000. At it, the address holding the most gives
    /// up its watch idle longest (its client reconnects).
    #[arg(long, env = "PIPS_MAX_WATCHES", value_parser = clap::value_parser!(u64).range(1..))]
    max_watches: Option<u64>,
    /// Watches one client address (IPv6: its /64) may hold at once on this
    /// server.
    #[arg(long, env = "PIPS_WATCHES_PER_ADDRESS", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..))]
    watches_per_address: u64,
    /// Watches of one table's watch link at once on this server (people
    /// watching, not playing; each seat has four of its own besides,
    /// which nobody else's watches take).
    #[arg(long, env = "PIPS_WATCHERS_PER_TABLE", default_value_t = 32,
          value_parser = clap::value_parser!(u64).range(1..))]
    watchers_per_table: u64,
    /// Seconds a watch may send nothing (no move, nobody coming or going)
    /// before it ends; its client reconnects and resumes.
    #[arg(long, env = "PIPS_WATCH_IDLE_SECS", default_value_t = 3600,
          value_parser = clap::value_parser!(u64).range(1..))]
    watch_idle_secs: u64,
    /// Proxies (addresses or ranges, comma-separated: `127.0.0.1`,
    /// `10.0.0.0/8`) whose `X-Forwarded-For` header names the client, so
    /// that the limits per client address count clients behind the load
    /// balancer each on their own. Not given: every call counts as coming
    /// from its connection's address.
    #[arg(long, env = "PIPS_TRUSTED_PROXIES", default_value = "",
          value_parser = pips::server::proxies::TrustedProxies::parse)]
    trusted_proxies: pips::server::proxies::TrustedProxies,
    /// Log line format (the level filter comes from RUST_LOG, default `info`).
    #[arg(long, env = "PIPS_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true)]
    log_format: LogFormat,
}

/// Commands besides serving.
#[derive(Subcommand, Debug)]
enum Command {
    /// Serve (the default).
    Serve,
    /// Ask a running server at --addr whether it is serving; exit 0 if so
    /// (for container health checks).
    Healthcheck,
    /// Play seeded matches between computer opponents (built-in levels or
    /// external bots serving pips.v1.BotService) and print a table per
    /// pairing.
    Arena(ArenaArgs),
}

/// `pips arena`'s options.
#[derive(clap::Args, Debug)]
struct ArenaArgs {
    /// The preset played.
    #[arg(long, default_value = "muggins")]
    variant: String,
    /// Seats per match.
    #[arg(long, default_value_t = 2)]
    players: u8,
    /// With 4 seats: partnerships (true) or individuals (false); default:
    /// the preset's.
    #[arg(long)]
    partnerships: Option<bool>,
    /// A pairing, `FIRST:SECOND`, each `random`, `greedy`, `expert`,
    /// `expert-flat` (expert without its tree search), `expert-playouts`
    /// (expert-flat with playouts alone: no merged moves, no weighed deals),
    /// `expert-solved` and `expert-unsolved` (expert with exact endings at
    /// every trick game and line, and at none; expert has them at Moon),
    /// all to measure expert's refinements by, or `grpc://HOST:PORT`; a
    /// searching level may take its own playouts a decision after an `@`
    /// (`expert@10000:expert-playouts@5000`), else --playouts; repeat for
    /// several (default expert:greedy). The first takes one seat (with
    /// partnerships, one side), rotating.
    #[arg(long = "pair")]
    pairs: Vec<String>,
    /// Matches per pairing.
    #[arg(long, default_value_t = 100)]
    matches: usize,
    /// The seed every match is dealt and played from (with its index).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// expert's playouts per decision (default: 5000 at a line, 1500 at a
    /// table with a hub, 2500 at a trick game).
    #[arg(long)]
    playouts: Option<u32>,
    /// Milliseconds an external bot has per move.
    #[arg(long, default_value_t = 1000)]
    move_ms: u64,
    /// Threads playing matches (default: every core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Write one JSON line per match (its first state and its moves, which
    /// `Replay` re-runs exactly) to this file.
    #[arg(long)]
    replays: Option<std::path::PathBuf>,
    /// Duplicate deals: play each deal at every seating of the pairing
    /// (twice, the sides swapped, when two sides play; once per seat when
    /// the first player takes one seat of several), so that the luck of the
    /// deal cancels; --matches must be a multiple of the seatings.
    #[arg(long)]
    duplicate: bool,
    /// Review every match afterwards as `ReviewMatch` does, the expert at
    /// this many playouts a decision, and add each player's accuracy (95%
    /// interval over matches) and the time a whole match's review took.
    #[arg(long, value_name = "PLAYOUTS")]
    review: Option<u32>,
}

/// Runs `pips arena`.
fn arena(args: &ArenaArgs) -> Result<(), String> {
    use pips::arena::{Arena, Player};
    let pairs = if args.pairs.is_empty() {
        vec!["expert:greedy".to_owned()]
    } else {
        args.pairs.clone()
    };
    let pairings = pairs
        .iter()
        .map(|pair| {
            let (first, second) = pair
                .split_once(':')
                .filter(|(_, second)| !second.starts_with("//"))
                .or_else(|| {
                    // `grpc://a:1:expert`, `expert:grpc://a:1`: split at the
                    // colon that starts a player's name.
                    ["random", "greedy", "expert", "grpc://"]
                        .iter()
                        .find_map(|name| pair.rfind(&format!(":{name}")))
                        .map(|at| (&pair[..at], &pair[at + 1..]))
                })
                .ok_or_else(|| format!("{pair:?} is not FIRST:SECOND"))?;
            Ok([Player::parse(first)?, Player::parse(second)?])
        })
        .collect::<Result<Vec<_>, String>>()?;
    let replays = args
        .replays
        .as_ref()
        .map(|path| {
            std::fs::File::create(path)
                .map(std::sync::Mutex::new)
                .map_err(|e| format!("{}: {e}", path.display()))
        })
        .transpose()?;
    let arena = Arena {
        variant: args.variant.clone(),
        players: args.players,
        partnerships: args.partnerships,
        matches: args.matches,
        seed: args.seed,
        playouts: match args.playouts {
            Some(playouts) => playouts,
            None => {
                let found = pips::rules::presets::for_table(&args.variant, args.players)?;
                let rules = found.rules(args.players, args.partnerships);
                pips::bots::default_playouts(&rules)
            }
        },
        move_time: Duration::from_millis(args.move_ms),
        jobs: args
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)),
        duplicate: args.duplicate,
        review: args.review,
    };
    for pairing in &pairings {
        println!("{}", arena.run(pairing, replays.as_ref())?);
    }
    Ok(())
}

/// How log lines are written to standard error.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// The server's configuration from the flags.
fn server_config(cli: &Cli) -> Result<pips::server::Config, String> {
    let (key_flag, key_text) = match (&cli.state_key_file, &cli.state_key) {
        (Some(path), _) => (
            "--state-key-file",
            Some(std::fs::read_to_string(path).map_err(|e| {
                format!(
                    "--state-key-file {}: cannot read it: {e}. Name a file this server may read, \
                     holding the key (64 hex digits)",
                    path.display()
                )
            })?),
        ),
        (None, Some(text)) => ("--state-key", Some(text.clone())),
        (None, None) => ("--state-key", None),
    };
    let state_keys = key_text
        .map(|text| pips::service::keys::StateKeys::from_text(&text))
        .transpose()
        .map_err(|e| {
            format!(
                "{key_flag}: {e}. Give 64 hex digits (`openssl rand -hex 32` makes one), \
                 optionally a comma and the previous key"
            )
        })?;
    let counts = [
        ("--max-concurrent-requests", cli.max_concurrent_requests),
        ("--max-request-bytes", cli.max_request_bytes),
        ("--max-waiting-bodies", cli.max_waiting_bodies),
        ("--max-connections", cli.max_connections.unwrap_or(1)),
        ("--work-threads", cli.work_threads.unwrap_or(1)),
        (
            "--max-waiting-bodies-per-connection",
            cli.max_waiting_bodies_per_connection,
        ),
        (
            "--max-streams-per-connection",
            usize::try_from(cli.max_streams_per_connection).unwrap_or(1),
        ),
    ];
    if let Some((flag, _)) = counts.iter().find(|(_, value)| *value == 0) {
        return Err(format!("{flag} must be above 0"));
    }
    let tls = match (&cli.tls_cert, &cli.tls_key) {
        (Some(cert), Some(key)) => {
            let read = |flag: &str, path: &std::path::PathBuf| {
                std::fs::read(path).map_err(|e| {
                    format!(
                        "{flag} {}: cannot read it: {e}. Name a PEM file this server may read",
                        path.display()
                    )
                })
            };
            let (cert, key) = (read("--tls-cert", cert)?, read("--tls-key", key)?);
            Some(pips::server::tls::config(&cert, &key).map_err(|e| {
                format!(
                    "--tls-cert, --tls-key: {e}. Give a PEM certificate chain and its private key"
                )
            })?)
        }
        _ => None,
    };
    let mut work_pool = cli.work_threads.map_or_else(
        pips::service::pool::PoolSize::for_this_machine,
        pips::service::pool::PoolSize::with_threads,
    );
    if let Some(queue) = cli.work_queue {
        work_pool.queue = queue;
    }
    let cors_origins = cli
        .cors_origins
        .iter()
        .map(|origin| cors_origin(origin))
        .collect::<Result<_, _>>()?;
    Ok(pips::server::Config {
        cors_origins,
        state_keys,
        max_request_bytes: cli.max_request_bytes,
        request_timeout: Duration::from_millis(cli.request_timeout_ms.max(1)),
        body_timeout: Duration::from_millis(cli.body_timeout_ms.max(1)),
        max_concurrent_requests: cli.max_concurrent_requests,
        max_waiting_bodies: cli.max_waiting_bodies,
        max_streams_per_connection: cli.max_streams_per_connection,
        max_connections: cli.max_connections,
        header_timeout: Duration::from_secs(cli.header_timeout_secs.max(1)),
        idle_timeout: Duration::from_secs(cli.idle_timeout_secs.max(1)),
        keepalive_interval: Duration::from_secs(cli.keepalive_secs.max(1)),
        max_suggest: Duration::from_millis(cli.max_suggest_ms),
        max_review: Duration::from_millis(cli.max_review_ms.max(1)),
        work_pool,
        max_waiting_bodies_per_connection: cli.max_waiting_bodies_per_connection,
        max_answer_bytes: cli.max_answer_bytes,
        tls,
        tables_db: pips::tables::database::address(&cli.tables_db)?,
        tables_expire_after: Duration::from_secs(cli.tables_expire_secs),
        table_limits: pips::tables::limits::TableLimits {
            creations_per_minute: cli.tables_per_minute,
            most_tables: cli.tables_max,
            tables_per_address: cli.tables_per_address,
            watchers_per_table: usize::try_from(cli.watchers_per_table).unwrap_or(usize::MAX),
            watches_per_address: usize::try_from(cli.watches_per_address).unwrap_or(usize::MAX),
            max_watches: cli
                .max_watches
                .map(|most| usize::try_from(most).unwrap_or(usize::MAX)),
            watch_idle: Duration::from_secs(cli.watch_idle_secs),
        },
        trusted_proxies: cli.trusted_proxies.clone(),
        ..pips::server::Config::default()
    })
}

/// One `--cors-origin`: `*`, or a scheme and host with an optional port
/// and nothing else (the form browsers send in `Origin`).
fn cors_origin(text: &str) -> Result<http::HeaderValue, String> {
    let text = text.trim();
    let bad = || {
        format!(
            "--cors-origin {text:?} is not an origin: give `*` or scheme://host[:port] \
             with no path, such as https://app.example"
        )
    };
    if text != "*" {
        let rest = text
            .strip_prefix("https://")
            .or_else(|| text.strip_prefix("http://"))
            .ok_or_else(bad)?;
        if rest.is_empty() || rest.contains(['/', '?', '#', ' ']) {
            return Err(bad());
        }
    }
    http::HeaderValue::from_str(text).map_err(|_| bad())
}

/// Why the server cannot listen at `addr`, given by `flag`, and the fix.
fn cannot_listen(flag: &str, addr: std::net::SocketAddr, error: &std::io::Error) -> String {
    let fix = match error.kind() {
        std::io::ErrorKind::AddrInUse => {
            "another process listens there: stop it, or give another port"
        }
        std::io::ErrorKind::PermissionDenied => {
            "a port below 1024 needs privileges: give a port of 1024 or above"
        }
        std::io::ErrorKind::AddrNotAvailable => {
            "no interface of this machine has that address: give one it has, or 0.0.0.0"
        }
        _ => "give another address",
    };
    format!("{flag} {addr}: cannot listen: {error}. {fix}")
}

/// Completes on SIGINT (Ctrl-C) or, on Unix, SIGTERM.
async fn shutdown_signal() {
    let interrupt = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
    tracing::info!("shutdown signal received; finishing calls in flight");
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    if let Some(Command::Arena(args)) = cli.command {
        // The arena runs its own threads and runtime, outside this one's.
        let result = std::thread::spawn(move || arena(&args))
            .join()
            .unwrap_or_else(|_| Err("the arena failed".to_owned()));
        return match result {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("arena: {message}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    if let Some(Command::Healthcheck) = cli.command {
        return match pips::server::probe_health(cli.addr).await {
            Ok(true) => std::process::ExitCode::SUCCESS,
            Ok(false) => {
                eprintln!("{} is not serving", cli.addr);
                std::process::ExitCode::FAILURE
            }
            Err(status) => {
                eprintln!("{}: {}", cli.addr, status.message());
                std::process::ExitCode::FAILURE
            }
        };
    }
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // Colours only for a terminal: a log file or a collector gets plain text.
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    match cli.log_format {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs.json().init(),
    }
    // Every connection takes a descriptor: the server may use all the
    // system lets it (the bounds on connections and watches come from it).
    if let Some((before, after)) = pips::server::descriptors::raise() {
        if after > before {
            tracing::info!(before, after, "raised the limit on open descriptors");
        }
    }
    let config = match server_config(&cli) {
        Ok(config) => config,
        Err(message) => {
            tracing::error!("{message}");
            return std::process::ExitCode::FAILURE;
        }
    };
    // The tables' database is opened before the port is bound: one that
    // cannot be used is said at once, and nothing is served meanwhile.
    let metrics_config = config.clone();
    let prepared = match pips::server::prepare(config).await {
        Ok(prepared) => prepared,
        Err(error) => {
            tracing::error!("{error}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let listener = match TcpListener::bind(cli.addr).await {
        Ok(listener) => listener,
        Err(error) => {
            tracing::error!("{}", cannot_listen("--addr", cli.addr, &error));
            return std::process::ExitCode::FAILURE;
        }
    };
    if let Some(addr) = cli.metrics_addr {
        match TcpListener::bind(addr).await {
            Ok(metrics) => {
                tracing::info!(%addr, "metrics at /metrics");
                let config = metrics_config.clone();
                tokio::spawn(async move {
                    pips::server::serve_metrics(metrics, &config, std::future::pending()).await;
                });
            }
            Err(error) => {
                tracing::error!("{}", cannot_listen("--metrics-addr", addr, &error));
                return std::process::ExitCode::FAILURE;
            }
        }
    }
    match prepared.serve(listener, shutdown_signal()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "server failed");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cors_origins_are_checked() {
        for good in ["*", "https://app.example", "http://localhost:8080"] {
            assert!(cors_origin(good).is_ok(), "{good}");
        }
        for bad in [
            "app.example",
            "https://",
            "https://app.example/",
            "https://app.example/path",
            "ftp://app.example",
            "https://a b",
        ] {
            let error = cors_origin(bad).expect_err(bad);
            assert!(error.contains("--cors-origin"), "{error}");
        }
    }

    #[test]
    fn cors_origins_come_from_repeated_flags_or_a_list() {
        let cli = Cli::parse_from([
            "pips",
            "--cors-origin",
            "https://a.example",
            "--cors-origin",
            "https://b.example,https://c.example",
        ]);
        let config = server_config(&cli).expect("valid");
        assert_eq!(config.cors_origins.len(), 3);
        let cli = Cli::parse_from(["pips"]);
        assert!(server_config(&cli).expect("valid").cors_origins.is_empty());
    }

    #[test]
    fn connection_limits_come_from_flags_and_zero_is_refused() {
        let cli = Cli::parse_from([
            "pips",
            "--max-connections",
            "300",
            "--max-streams-per-connection",
            "8",
            "--header-timeout-secs",
            "2",
            "--idle-timeout-secs",
            "30",
            "--body-timeout-ms",
            "1500",
        ]);
        let config = server_config(&cli).expect("valid");
        assert_eq!(config.max_connections, Some(300));
        assert_eq!(config.max_streams_per_connection, 8);
        assert_eq!(config.header_timeout, Duration::from_secs(2));
        assert_eq!(config.idle_timeout, Duration::from_secs(30));
        assert_eq!(config.body_timeout, Duration::from_millis(1500));
        let defaults = server_config(&Cli::parse_from(["pips"])).expect("valid");
        assert_eq!(defaults.max_connections, None);
        for flag in ["--max-connections", "--max-streams-per-connection"] {
            let cli = Cli::parse_from(["pips", flag, "0"]);
            let error = server_config(&cli).expect_err(flag);
            assert!(error.contains(flag), "{error}");
        }
    }
}
