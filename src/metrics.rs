//! What the process counts, for Prometheus: calls by RPC, protocol and
//! code, their latency, calls in flight, shed calls, refusals by reason,
//! open connections, and the process's CPU, memory and descriptors. One
//! registry per process (as the counters describe the process), encoded
//! in the OpenMetrics text format by `prometheus-client` and served on
//! `--metrics-addr` by [`crate::server::serve_metrics`].
//!
//! Label values come from fixed sets (the known RPCs, four protocols, the
//! gRPC codes, the `ErrorReason` names), so that no client can grow the
//! number of series by calling made-up paths.

use std::sync::LazyLock;
use std::time::Duration;

use axum::Router;
use axum::response::IntoResponse;
use axum::routing::get;
use http::{HeaderValue, header};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::{ConstGauge, Gauge};
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// The labels of a call.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct CallLabels {
    /// The RPC (`Play`, `grpc.health.v1.Health/Check`), `playground`,
    /// `openapi`, or `other` for any path that is none of these.
    pub rpc: &'static str,
    /// `grpc`, `grpc_web`, `connect` or `http`.
    pub protocol: &'static str,
    /// The gRPC code of the answer (`OK`, `INVALID_ARGUMENT`, ...).
    pub code: &'static str,
}

/// The labels of a call's latency.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct LatencyLabels {
    /// As in [`CallLabels`].
    pub rpc: &'static str,
    /// As in [`CallLabels`].
    pub protocol: &'static str,
}

/// The label of a refusal or a shed call: the `ErrorReason` name.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ReasonLabels {
    /// `ERROR_REASON_NOT_YOUR_TURN`, ...
    pub reason: &'static str,
}

/// The process's metrics.
#[derive(Debug)]
pub struct Metrics {
    /// Every family below, for encoding.
    registry: Registry,
    /// Calls answered.
    pub calls: Family<CallLabels, Counter>,
    /// How long calls took, from their arrival to their answer's headers.
    pub latency: Family<LatencyLabels, Histogram, fn() -> Histogram>,
    /// Calls being served now.
    pub in_flight: Gauge,
    /// Calls refused at once because the server was at a limit.
    pub shed: Family<ReasonLabels, Counter>,
    /// Refusals of every kind, by reason.
    pub refusals: Family<ReasonLabels, Counter>,
    /// Connections open now.
    pub connections: Gauge,
    /// Connections closed at once because they held answers they did not
    /// read while the server's answer budget was spent.
    pub evicted: Counter,
    /// How late the sweeper played tables' due turns (a person's timer
    /// run out, a computer seat's move its server left), by kind.
    pub turn_lateness: Family<TurnLabels, Histogram, fn() -> Histogram>,
    /// Watches of tables held now.
    pub watches: Gauge,
    /// Watches the server ended, by why.
    pub watches_ended: Family<EndedLabels, Counter>,
}

/// Why the server ended a watch: `replaced` (its seat opened a newer one
/// with all its slots held), `evicted` (the server's bound, its address
/// holding the most) or `idle`.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct EndedLabels {
    /// `replaced`, `evicted` or `idle`.
    pub reason: &'static str,
}

/// The label of a due turn: `timeout` (a person's timer ran out) or
/// `computer` (a computer seat's move).
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct TurnLabels {
    /// `timeout` or `computer`.
    pub kind: &'static str,
}

/// Lateness buckets, in seconds: 10 ms to a minute.
fn lateness_histogram() -> Histogram {
    Histogram::new([
        0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0,
    ])
}

/// Latency buckets, in seconds: 50 µs to 5 s.
fn latency_histogram() -> Histogram {
    Histogram::new([
        0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
        0.5, 1.0, 2.5, 5.0,
    ])
}

/// The process's metrics, registered on first use.
pub static METRICS: LazyLock<Metrics> = LazyLock::new(|| {
    let mut registry = Registry::default();
    let calls = Family::<CallLabels, Counter>::default();
    let latency = Family::<LatencyLabels, Histogram, fn() -> Histogram>::new_with_constructor(
        latency_histogram,
    );
    let in_flight = Gauge::default();
    let shed = Family::<ReasonLabels, Counter>::default();
    let refusals = Family::<ReasonLabels, Counter>::default();
    let connections = Gauge::default();
    let evicted = Counter::default();
    let turn_lateness = Family::<TurnLabels, Histogram, fn() -> Histogram>::new_with_constructor(
        lateness_histogram,
    );
    registry.register(
        "pips_calls",
        "Calls answered, by RPC, protocol and gRPC code",
        calls.clone(),
    );
    registry.register(
        "pips_call_duration_seconds",
        "Time from a call's arrival to its answer, by RPC and protocol",
        latency.clone(),
    );
    registry.register(
        "pips_calls_in_flight",
        "Calls being served now",
        in_flight.clone(),
    );
    registry.register(
        "pips_calls_shed",
        "Calls refused at once at a concurrency limit, by reason",
        shed.clone(),
    );
    registry.register(
        "pips_refusals",
        "Refused calls, by machine-readable reason",
        refusals.clone(),
    );
    registry.register(
        "pips_connections_open",
        "Connections open now",
        connections.clone(),
    );
    registry.register(
        "pips_connections_evicted",
        "Connections closed at once for holding unread answers while the answer budget was spent",
        evicted.clone(),
    );
    registry.register(
        "pips_table_turn_lateness_seconds",
        "How late tables' due turns were played (a person's timer run out, or a computer seat's \
         move), from when they were due, by kind",
        turn_lateness.clone(),
    );
    let watches = Gauge::default();
    let watches_ended = Family::<EndedLabels, Counter>::default();
    registry.register(
        "pips_table_watches",
        "Watches of tables held now",
        watches.clone(),
    );
    registry.register(
        "pips_table_watches_ended",
        "Watches of tables the server ended, by why: replaced (its seat's newer one), evicted \
         (the server's bound), idle",
        watches_ended.clone(),
    );
    registry.register_collector(Box::new(ProcessCollector));
    Metrics {
        registry,
        calls,
        latency,
        in_flight,
        shed,
        refusals,
        connections,
        evicted,
        turn_lateness,
        watches,
        watches_ended,
    }
});

impl Metrics {
    /// Records an answered call.
    pub fn record_call(&self, labels: CallLabels, took: Duration) {
        self.latency
            .get_or_create(&LatencyLabels {
                rpc: labels.rpc,
                protocol: labels.protocol,
            })
            .observe(took.as_secs_f64());
        self.calls.get_or_create(&labels).inc();
    }

    /// The metrics in the OpenMetrics text format.
    #[must_use]
    pub fn encode(&self) -> String {
        let mut text = String::new();
        if prometheus_client::encoding::text::encode(&mut text, &self.registry).is_err() {
            text.clear();
        }
        text
    }
}

/// The metrics listener's routes: `GET /metrics` (served by
/// [`crate::server::serve_metrics`]).
pub fn router() -> Router {
    Router::new().route(
        "/metrics",
        get(|| async {
            (
                [(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static(
                        "application/openmetrics-text; version=1.0.0; charset=utf-8",
                    ),
                )],
                METRICS.encode(),
            )
                .into_response()
        }),
    )
}

/// The process's own figures, read from `/proc/self` at each scrape (Linux;
/// elsewhere none are reported), under the names every Prometheus client
/// uses.
#[derive(Debug)]
struct ProcessCollector;

/// Clock ticks per second of `/proc/<pid>/stat` (`USER_HZ`, 100 on every
/// Linux architecture pips runs on).
const TICKS_PER_SECOND: f64 = 100.0;

/// The page size `/proc/<pid>/stat` counts resident memory in.
const PAGE_BYTES: u64 = 4096;

/// What `/proc/self` says of the process.
#[derive(Debug, Default, PartialEq)]
struct ProcessFigures {
    cpu_seconds: f64,
    resident_bytes: u64,
    virtual_bytes: u64,
    start_time_seconds: f64,
    open_fds: u64,
    max_fds: u64,
}

/// Reads the figures of the running process, if `/proc` has them.
fn read_process() -> Option<ProcessFigures> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let boot = std::fs::read_to_string("/proc/stat").ok()?;
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    let open_fds = std::fs::read_dir("/proc/self/fd").map_or(0, |dir| dir.count() as u64);
    let mut figures = parse_stat(&stat, &boot)?;
    figures.open_fds = open_fds;
    figures.max_fds = limits
        .lines()
        .find(|line| line.starts_with("Max open files"))
        .and_then(|line| line.split_whitespace().nth(3))
        .and_then(|soft| soft.parse().ok())
        .unwrap_or(0);
    Some(figures)
}

/// The figures in `/proc/self/stat` (after the command name, which may hold
/// spaces) and the boot time in `/proc/stat`.
fn parse_stat(stat: &str, boot: &str) -> Option<ProcessFigures> {
    let after_name = stat.get(stat.rfind(')')? + 1..)?;
    // Fields from the state (field 3 of stat(5)) on.
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let field = |n: usize| -> Option<u64> { fields.get(n.checked_sub(3)?)?.parse().ok() };
    let boot_time: u64 = boot
        .lines()
        .find_map(|line| line.strip_prefix("btime "))?
        .trim()
        .parse()
        .ok()?;
    let ticks = |n| field(n).map(|t| t as f64 / TICKS_PER_SECOND);
    Some(ProcessFigures {
        cpu_seconds: ticks(14)? + ticks(15)?,
        start_time_seconds: boot_time as f64 + ticks(22)?,
        virtual_bytes: field(23)?,
        resident_bytes: field(24)?.saturating_mul(PAGE_BYTES),
        open_fds: 0,
        max_fds: 0,
    })
}

impl Collector for ProcessCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let Some(figures) = read_process() else {
            return Ok(());
        };
        let cpu = ConstCounter::new(figures.cpu_seconds);
        cpu.encode(encoder.encode_descriptor(
            "process_cpu_seconds",
            "Total user and system CPU time spent in seconds",
            None,
            cpu.metric_type(),
        )?)?;
        let gauges = [
            (
                "process_resident_memory_bytes",
                "Resident memory size in bytes",
                figures.resident_bytes as f64,
            ),
            (
                "process_virtual_memory_bytes",
                "Virtual memory size in bytes",
                figures.virtual_bytes as f64,
            ),
            (
                "process_start_time_seconds",
                "Start time of the process since unix epoch in seconds",
                figures.start_time_seconds,
            ),
            (
                "process_open_fds",
                "Number of open file descriptors",
                figures.open_fds as f64,
            ),
            (
                "process_max_fds",
                "Maximum number of open file descriptors",
                figures.max_fds as f64,
            ),
        ];
        for (name, help, value) in gauges {
            let gauge = ConstGauge::new(value);
            gauge.encode(encoder.encode_descriptor(name, help, None, gauge.metric_type())?)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_are_read_past_a_command_name_with_spaces() {
        let stat = "4242 (pips (test) x) S 1 4242 4242 0 -1 4194560 900 0 0 0 \
                    250 50 0 0 20 0 9 0 1000 123456789 2048 18446744073709551615";
        let boot = "cpu  1 2 3\nbtime 1700000000\nprocesses 5\n";
        let figures = parse_stat(stat, boot).expect("parsed");
        assert_eq!(figures.cpu_seconds, 3.0);
        assert_eq!(figures.start_time_seconds, 1_700_000_010.0);
        assert_eq!(figures.virtual_bytes, 123_456_789);
        assert_eq!(figures.resident_bytes, 2048 * PAGE_BYTES);
        assert_eq!(parse_stat("garbage", boot), None);
        assert_eq!(parse_stat(stat, "no boot time"), None);
    }

    #[test]
    fn the_process_is_described_on_linux() {
        let text = METRICS.encode();
        assert!(text.contains("# TYPE pips_calls_in_flight gauge"), "{text}");
        if std::path::Path::new("/proc/self/stat").exists() {
            assert!(text.contains("process_resident_memory_bytes "), "{text}");
            assert!(text.contains("process_cpu_seconds_total "), "{text}");
        }
    }
}
