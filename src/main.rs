//! The `pips` binary: reads flags and environment, sets up logging, binds
//! the address and hands over to [`pips::server::run`].

use std::net::SocketAddr;

use clap::{Parser, Subcommand, ValueEnum};
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

/// An authoritative dominoes rules engine, served over gRPC.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Cli {
    /// What to do; with none, serve.
    #[command(subcommand)]
    command: Option<Command>,
    /// Address to listen on (or, for `healthcheck`, to probe).
    #[arg(
        long,
        env = "PIPS_ADDR",
        default_value = "127.0.0.1:50051",
        global = true
    )]
    addr: SocketAddr,
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
}

/// How log lines are written to standard error.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
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
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match cli.log_format {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs.json().init(),
    }
    let listener = match TcpListener::bind(cli.addr).await {
        Ok(listener) => listener,
        Err(error) => {
            tracing::error!(addr = %cli.addr, %error, "cannot listen");
            return std::process::ExitCode::FAILURE;
        }
    };
    match pips::server::run(listener, shutdown_signal()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "server failed");
            std::process::ExitCode::FAILURE
        }
    }
}
