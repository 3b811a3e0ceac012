//! Builds and runs the server on a listener it is given: the engine over
//! gRPC, gRPC-Web and HTTP/JSON on one port (with the OpenAPI document and
//! the playground page), CORS, limits, the gRPC health service, reflection
//! (v1 and v1alpha, so every `grpcurl` version can list and describe with no
//! proto files), request tracing and graceful shutdown. It never binds
//! sockets itself, so tests run the real server on `127.0.0.1:0`.
//!
//! - `listen`: the accept loop (connection cap, where a new connection
//!   takes the place of the one idle longest; back-off when descriptors
//!   run out, graceful shutdown).
//! - [`descriptors`]: the descriptor limit, raised at start, and the
//!   bounds on connections and watches it sets.
//! - `connection`: one connection: HTTP/1.1 and HTTP/2 settings, the
//!   header and idle timeouts.
//! - `guard`: the limits of one call (body arrival, concurrency, timeout,
//!   the answer held until written).
//! - `answers`: the answer budget every unwritten answer byte is held
//!   against, and the eviction of connections that do not read.
//! - `answer_body`: an answer read whole, handed to the connection a
//!   chunk at a time, each holding its part of the budget until written.
//! - `coalescing_stream`: accepted connections as the HTTP stacks see them
//!   (small frames copied into one write).

use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use http::{HeaderName, HeaderValue, Method, header};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tonic::service::Routes;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::proto;

mod answer_body;
mod answers;
mod coalescing_stream;
mod connection;
pub mod descriptors;
mod guard;
mod listen;
pub mod proxies;
pub mod tls;

use crate::service::custody::Custody;
use crate::service::keys::StateKeys;
use crate::service::pool::PoolSize;
use crate::service::{Engine, connect, grpc_unary, http_api};
use answers::AnswerBudget;
use connection::ConnectionLimits;
use guard::Limits;

/// Connections the metrics listener serves at once: a scraper or two and
/// an operator's curl, never enough to take descriptors the API needs.
pub const METRICS_MAX_CONNECTIONS: usize = 8;

/// The share of `max_answer_bytes` one connection may hold.
const ANSWER_SHARES: usize = 8;

/// The services reflection lists besides itself: the ones this server
/// serves (`TableService` where it keeps tables).
const SERVED_SERVICES: &[&str] = &[
    "pips.v1.DominoEngineService",
    "pips.v1.TableService",
    "grpc.health.v1.Health",
];

/// How the server runs: its state key and its limits. `Config::default()`
/// is what the binary uses without flags.
#[derive(Clone, Debug)]
pub struct Config {
    /// The state key (and the previous one, for rotation); `None` serves
    /// readable, unsigned states.
    pub state_keys: Option<StateKeys>,
    /// The largest request accepted, in bytes (larger: `OUT_OF_RANGE` over
    /// gRPC, 413 over HTTP/JSON).
    pub max_request_bytes: usize,
    /// How long a call's handler may take before it is cancelled
    /// (`DEADLINE_EXCEEDED`, HTTP 504). A gRPC client's own shorter
    /// deadline still applies.
    pub request_timeout: Duration,
    /// How long a request body may take to arrive whole (`ERROR_REASON_BODY_TIMEOUT`,
    /// HTTP 408). A call holds no concurrency slot while its body arrives.
    pub body_timeout: Duration,
    /// Calls served at once across all connections; a call beyond it is
    /// refused at once with `RESOURCE_EXHAUSTED` rather than queued.
    pub max_concurrent_requests: usize,
    /// Calls admitted while their body is still arriving (a body that came
    /// with its headers does not count); beyond it such a call is refused
    /// at once with `RESOURCE_EXHAUSTED`. Bounds what slow senders hold.
    pub max_waiting_bodies: usize,
    /// Streams one HTTP/2 connection may have open at once (advertised as
    /// `SETTINGS_MAX_CONCURRENT_STREAMS`).
    pub max_streams_per_connection: u32,
    /// Connections served at once; at it, a new connection takes the
    /// place of the one idle longest (no call in flight). `None`: from the
    /// process's descriptor limit ([`descriptors::connections_for`]).
    pub max_connections: Option<usize>,
    /// How long a new connection may take to send its first complete
    /// request, and an HTTP/1.1 request its header.
    pub header_timeout: Duration,
    /// How long a connection may stay with no call in flight (an HTTP/1.1
    /// keep-alive connection between requests, an HTTP/2 connection
    /// without streams) before it is closed.
    pub idle_timeout: Duration,
    /// How often an idle HTTP/2 connection is pinged, and how long the
    /// answer may take before the connection is closed.
    pub keepalive_interval: Duration,
    /// See `keepalive_interval`.
    pub keepalive_timeout: Duration,
    /// Origins whose pages may call the JSON API and gRPC-Web from a
    /// browser (`*` for any); empty: same-origin pages only.
    pub cors_origins: Vec<HeaderValue>,
    /// The longest a `SuggestMove` search may take (so that no caller can
    /// pin a core).
    pub max_suggest: Duration,
    /// The longest a streamed review (`StreamReviewMatch`) may go on, each
    /// decision within `max_suggest` (a unary `ReviewMatch` has the
    /// request timeout).
    pub max_review: Duration,
    /// The work pool where searches and long replays run: its threads
    /// (default: one per core) and the calls that may wait for one.
    pub work_pool: PoolSize,
    /// Calls of one connection that may wait for their bodies at once (its
    /// share of `max_waiting_bodies`).
    pub max_waiting_bodies_per_connection: usize,
    /// Bytes of answers that may wait to be written, server-wide (every
    /// answer, whatever its size or protocol); one connection may hold an
    /// eighth of it. An answer beyond the connection's share is refused
    /// with `RESOURCE_EXHAUSTED`; when the server's is spent, the
    /// connection holding the most unread answers is closed.
    pub max_answer_bytes: usize,
    /// TLS for every protocol on the port (see [`tls::config`]); none:
    /// plaintext.
    pub tls: Option<Arc<rustls::ServerConfig>>,
    /// Where `TableService` keeps its tables (`sqlite://file?mode=rwc`,
    /// `sqlite::memory:`, `postgres://…`); none: the server keeps no tables
    /// and refuses their RPCs.
    pub tables_db: Option<String>,
    /// How long a table nobody touches (no move, no open, no page
    /// watching) is kept before it is deleted.
    pub tables_expire_after: Duration,
    /// The limits on tables: created per address, kept, watched (the
    /// server's bound on watches, when not given, from the descriptor
    /// limit: [`descriptors::watches_for`]).
    pub table_limits: crate::tables::limits::TableLimits,
    /// The proxies whose `X-Forwarded-For` names the client (the limits
    /// per client address count it, not the proxy).
    pub trusted_proxies: proxies::TrustedProxies,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            state_keys: None,
            max_request_bytes: 1024 * 1024,
            request_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(10),
            max_concurrent_requests: 512,
            max_waiting_bodies: 1024,
            max_streams_per_connection: 100,
            max_connections: None,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            keepalive_interval: Duration::from_secs(30),
            keepalive_timeout: Duration::from_secs(10),
            cors_origins: Vec::new(),
            max_suggest: crate::service::engine::DEFAULT_SUGGEST_CAP,
            max_review: Duration::from_secs(60),
            work_pool: PoolSize::for_this_machine(),
            max_waiting_bodies_per_connection: 16,
            max_answer_bytes: 64 * 1024 * 1024,
            tls: None,
            tables_db: None,
            tables_expire_after: crate::tables::DEFAULT_EXPIRE_AFTER,
            table_limits: crate::tables::limits::TableLimits::default(),
            trusted_proxies: proxies::TrustedProxies::default(),
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The reflection service could not read a descriptor set.
    #[error("reflection: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    /// The tables' database could not be opened, or its schema brought up
    /// to date: why, with the flag and the fix
    /// ([`crate::tables::database::explain`]).
    #[error("{0}")]
    Tables(String),
}

/// Serves on `listener` until `shutdown` completes, then lets the calls in
/// flight finish (within the request and body timeouts) and returns.
///
/// # Errors
/// When the server cannot be built.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServerError> {
    prepare(config).await?.serve(listener, shutdown).await
}

/// A server ready to serve: what it needs before it takes a connection
/// (the tables' database open and its schema up to date), so that a
/// database that cannot be used is said before the port is bound.
#[derive(Debug)]
pub struct Prepared {
    /// How it serves.
    config: Config,
    /// The engine its RPCs and tables share.
    engine: Engine,
    /// Its tables, when it keeps them.
    tables: Option<Arc<crate::tables::Tables>>,
    /// Connections held at once (from the flag, else the descriptor
    /// limit).
    max_connections: Option<usize>,
}

/// Makes the server `config` describes ready to serve: the engine, and the
/// tables' database opened.
///
/// # Errors
/// [`ServerError::Tables`] when the database cannot be used, saying why
/// and how to fix it.
pub async fn prepare(config: Config) -> Result<Prepared, ServerError> {
    let descriptors = descriptors::limit();
    let max_connections = config
        .max_connections
        .or_else(|| descriptors.map(descriptors::connections_for));
    let max_watches = config
        .table_limits
        .max_watches
        .or_else(|| descriptors.map(descriptors::watches_for))
        .unwrap_or(descriptors::MOST_WATCHES);
    tracing::info!(
        descriptors,
        max_connections,
        max_watches,
        "bounds from the descriptor limit"
    );
    let engine = Engine::new(Custody::new(config.state_keys.clone()))
        .with_suggest_cap(config.max_suggest)
        .with_pool_size(config.work_pool);
    let tables = match &config.tables_db {
        Some(database) => Some(
            crate::tables::Tables::open(
                database,
                engine.clone(),
                config.tables_expire_after,
                config.table_limits,
                crate::tables::watches::WatchLimits::of(&config.table_limits, max_watches),
            )
            .await
            .map_err(|error| {
                ServerError::Tables(crate::tables::database::explain(database, &error))
            })?,
        ),
        None => None,
    };
    Ok(Prepared {
        config,
        engine,
        tables,
        max_connections,
    })
}

impl Prepared {
    /// Serves on `listener` until `shutdown` completes, as [`run`] does.
    ///
    /// # Errors
    /// When the server cannot be built.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send,
    ) -> Result<(), ServerError> {
        serve_until(listener, self, Box::pin(shutdown)).await
    }
}

/// The future the server shuts down on, boxed to one type, so that the
/// server below is compiled once in this crate rather than again for each
/// caller's future (the binary's own build took 25 s with that copy, 8 s
/// without).
type Shutdown<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// [`run`], boxed: the server's whole future is built here, not in its caller.
fn serve_until(
    listener: TcpListener,
    prepared: Prepared,
    shutdown: Shutdown<'_>,
) -> Pin<Box<dyn Future<Output = Result<(), ServerError>> + Send + '_>> {
    Box::pin(async move {
        let Prepared {
            config,
            engine,
            tables,
            max_connections,
        } = prepared;
        let (health, health_service) = tonic_health::server::health_reporter();
        health
            .set_service_status(
                "pips.v1.DominoEngineService",
                tonic_health::ServingStatus::Serving,
            )
            .await;

        let descriptor_sets = [
            proto::FILE_DESCRIPTOR_SET,
            tonic_health::pb::FILE_DESCRIPTOR_SET,
            tonic_types::pb::FILE_DESCRIPTOR_SET,
        ];
        let mut reflection_v1 = tonic_reflection::server::Builder::configure();
        let mut reflection_v1alpha = tonic_reflection::server::Builder::configure();
        for set in descriptor_sets {
            reflection_v1 = reflection_v1.register_encoded_file_descriptor_set(set);
            reflection_v1alpha = reflection_v1alpha.register_encoded_file_descriptor_set(set);
        }
        // Reflection lists the services this server serves, not every service
        // its contract defines: `pips.v1.BotService` is served by bots (and
        // called by `pips arena`), never here. Its messages stay resolvable.
        let keeps_tables = config.tables_db.is_some();
        for name in SERVED_SERVICES {
            if *name == "pips.v1.TableService" && !keeps_tables {
                continue;
            }
            reflection_v1 = reflection_v1.with_service_name(*name);
            reflection_v1alpha = reflection_v1alpha.with_service_name(*name);
        }
        reflection_v1 = reflection_v1.with_service_name("grpc.reflection.v1.ServerReflection");
        reflection_v1alpha =
            reflection_v1alpha.with_service_name("grpc.reflection.v1alpha.ServerReflection");

        if let Ok(addr) = listener.local_addr() {
            tracing::info!(
                %addr,
                signed_states = config.state_keys.is_some(),
                max_request_bytes = config.max_request_bytes,
                max_concurrent_requests = config.max_concurrent_requests,
                max_connections = config.max_connections,
                cors_origins = config.cors_origins.len(),
                "pips is serving (gRPC, gRPC-Web, Connect, HTTP/JSON; playground at /)"
            );
        }
        // When the server shuts down, the tables' watches end first (they
        // would hold their connections open until the drain ran out).
        let closing = tables.clone();
        let shutdown = async move {
            shutdown.await;
            if let Some(tables) = closing {
                tables.close();
            }
        };
        let api = http_api::Api::new(engine.clone(), tables, config.max_request_bytes);
        let mut grpc = Routes::builder();
        grpc.add_service(health_service)
            .add_service(reflection_v1.build_v1()?)
            .add_service(reflection_v1alpha.build_v1alpha()?);
        let limits = Arc::new(Limits {
            max_request_bytes: config.max_request_bytes,
            body_timeout: config.body_timeout,
            waiting: Arc::new(Semaphore::new(config.max_waiting_bodies)),
            request_timeout: config.request_timeout,
            max_review: config.max_review,
            slots: Arc::new(Semaphore::new(config.max_concurrent_requests)),
            answers: AnswerBudget::new(config.max_answer_bytes),
        });
        let answers = Arc::clone(&limits.answers);
        // The engine's RPCs over gRPC are served by the dispatch the JSON API
        // and Connect share (large requests decoded, run and encoded on the
        // work pool); tonic serves health and reflection.
        let mut engine_rpcs = axum::Router::new();
        for (service, rpcs) in http_api::SERVICES {
            for rpc in rpcs {
                let path = format!("/{service}/{rpc}");
                engine_rpcs = engine_rpcs.route(&path, axum::routing::post(grpc_unary::serve));
            }
        }
        let app = grpc
            .routes()
            .into_axum_router()
            .merge(engine_rpcs.with_state(Arc::clone(&api)))
            // gRPC-Web calls become gRPC calls (on the gRPC routes only: the
            // layer refuses other HTTP/1.1 requests).
            .layer(tonic_web::GrpcWebLayer::new())
            .merge(http_api::router(Arc::clone(&api)))
            .fallback(http_api::not_found)
            // Connect calls at the gRPC paths are answered by the same
            // handlers as the JSON API; gRPC and gRPC-Web pass through.
            .layer(axum::middleware::from_fn_with_state(api, connect::serve))
            // Every call runs under the limits (body, concurrency, timeout),
            // whose refusals are answered in the caller's protocol.
            .layer(axum::middleware::from_fn_with_state(limits, guard::guard))
            .layer(tower::util::option_layer(cors_layer(&config.cors_origins)))
            // Behind a trusted proxy, each call's client is the one it names.
            .layer(tower::util::option_layer(
                (!config.trusted_proxies.is_empty()).then(|| {
                    axum::middleware::from_fn_with_state(
                        Arc::new(config.trusted_proxies.clone()),
                        proxies::forwarded,
                    )
                }),
            ));
        let tls = config.tls.clone().map(tokio_rustls::TlsAcceptor::from);
        let how = listen::Listening {
            limits: connection_limits(&config),
            answers,
            // (At the cap the connection idle longest makes way: one
            // holding a watch is never idle, and watches are bounded below
            // the connections, so engine calls, moves and health checks
            // always find room.)
            max_connections,
            tls,
            counted: true,
        };
        // What floods of refusals held back from the log, said once a
        // second.
        let flusher = tokio::spawn(crate::logs::flush_every_second());
        listen::serve(listener, app, how, shutdown).await;
        flusher.abort();
        tracing::info!("pips has shut down");
        Ok(())
    })
}

/// How `config` says connections are served.
fn connection_limits(config: &Config) -> ConnectionLimits {
    ConnectionLimits {
        header_timeout: config.header_timeout,
        idle_timeout: config.idle_timeout,
        max_streams: config.max_streams_per_connection,
        keepalive_interval: config.keepalive_interval,
        keepalive_timeout: config.keepalive_timeout,
        drain: config.request_timeout + config.body_timeout,
        waiting_per_connection: config.max_waiting_bodies_per_connection,
        answer_bytes_per_connection: config.max_answer_bytes / ANSWER_SHARES,
    }
}

/// Serves `GET /metrics` ([`crate::metrics`]) on `listener` until
/// `shutdown` completes, with the API port's connection hygiene (its header
/// and idle timeouts, the back-off when descriptors run out) and at most
/// [`METRICS_MAX_CONNECTIONS`] connections at once (more wait in the listen
/// backlog), so that connections held open there cannot take the
/// descriptors the API needs.
pub async fn serve_metrics(
    listener: TcpListener,
    config: &Config,
    shutdown: impl Future<Output = ()> + Send,
) {
    metrics_until(listener, config, Box::pin(shutdown)).await;
}

/// [`serve_metrics`], boxed as [`serve_until`] is.
fn metrics_until<'a>(
    listener: TcpListener,
    config: &'a Config,
    shutdown: Shutdown<'a>,
) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
    Box::pin(async move {
        let limits = ConnectionLimits {
            max_streams: 4,
            drain: Duration::from_secs(1),
            ..connection_limits(config)
        };
        let how = listen::Listening {
            limits,
            // (Its answers are a scrape's, not held: its budget is its own.)
            answers: AnswerBudget::new(config.max_answer_bytes),
            max_connections: Some(METRICS_MAX_CONNECTIONS),
            tls: None,
            counted: false,
        };
        listen::serve(listener, crate::metrics::router(), how, shutdown).await;
    })
}

/// Cross-origin access for browsers (the JSON API, Connect and gRPC-Web): none
/// unless origins are configured (then no CORS layer runs at all); with
/// origins, those may call with the headers gRPC-Web and JSON clients send
/// and read the gRPC status headers.
fn cors_layer(origins: &[HeaderValue]) -> Option<CorsLayer> {
    if origins.is_empty() {
        return None;
    }
    let allow_origin = if origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(origins.iter().cloned())
    };
    let cors = CorsLayer::new()
        .allow_origin(allow_origin)
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([
            header::CONTENT_TYPE,
            HeaderName::from_static("x-grpc-web"),
            HeaderName::from_static("x-user-agent"),
            HeaderName::from_static("grpc-timeout"),
            HeaderName::from_static("connect-protocol-version"),
            HeaderName::from_static("connect-timeout-ms"),
        ])
        .expose_headers([
            HeaderName::from_static("grpc-status"),
            HeaderName::from_static("grpc-message"),
            HeaderName::from_static("grpc-status-details-bin"),
        ])
        .max_age(Duration::from_secs(600));
    Some(cors)
}

/// Asks the health service at `addr` whether the engine is serving; for
/// container health checks (`pips healthcheck`), where no grpc client tool
/// is installed.
///
/// # Errors
/// When the health service cannot be reached or answers with an error.
pub async fn probe_health(addr: std::net::SocketAddr) -> Result<bool, tonic::Status> {
    use tonic_health::pb::health_check_response::ServingStatus;
    use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};

    let channel = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))
        .map_err(|e| tonic::Status::invalid_argument(e.to_string()))?
        .connect_timeout(std::time::Duration::from_secs(2))
        .timeout(std::time::Duration::from_secs(2))
        .connect()
        .await
        .map_err(|e| tonic::Status::unavailable(e.to_string()))?;
    let response = HealthClient::new(channel)
        .check(HealthCheckRequest {
            service: "pips.v1.DominoEngineService".to_owned(),
        })
        .await?;
    Ok(response.into_inner().status == ServingStatus::Serving as i32)
}
