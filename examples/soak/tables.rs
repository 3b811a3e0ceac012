//! The attacks on tables by link, and what the people at tables see
//! meanwhile: `timer-flood` (tables on one-second turn timers nobody
//! answers, from many addresses), measured by people at tables of their
//! own whose two-second timers run out (how late the computer moved for
//! them) and, with `--metrics-addr`, by the server's own count of how
//! late it played every timed-out turn.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use pips::proto::table_service_client::TableServiceClient;
use pips::proto::{self, seat_plan};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::task::JoinSet;
use tonic::transport::{Channel, Endpoint};

/// What the table attacks and the people at tables counted.
#[derive(Debug, Default)]
pub struct TableCounts {
    /// Tables the attack created.
    pub created: AtomicU64,
    /// Calls of the attack refused (by a limit) or failed.
    pub refused: AtomicU64,
    /// How late each victim's timed-out turn was played, after its timer's
    /// end (from the update that showed the timer to the one that showed
    /// the move).
    pub late: Mutex<Vec<Duration>>,
}

/// A connection to `addr` from `from` (a loopback address of its own).
pub async fn connect_from(addr: SocketAddr, from: IpAddr) -> Option<Channel> {
    Endpoint::from_shared(format!("http://{addr}"))
        .ok()?
        .local_address(Some(from))
        .tcp_nodelay(true)
        .connect()
        .await
        .ok()
}

/// The `n`th loopback address of `group` (127.group.x.y).
pub fn loopback(group: u8, n: usize) -> IpAddr {
    let n = u32::try_from(n % 65_000 + 1).unwrap_or(1);
    let [.., high, low] = n.to_be_bytes();
    IpAddr::V4(Ipv4Addr::new(127, group, high, low))
}

/// A person's seat.
pub fn person() -> proto::SeatPlan {
    proto::SeatPlan {
        who: Some(seat_plan::Who::Person(proto::PersonSeat {})),
    }
}

/// A muggins table of two people, with a turn timer of `seconds` (0:
/// none) after which the computer plays one move for the seat.
pub fn two_people(seconds: u32) -> proto::CreateTableRequest {
    proto::CreateTableRequest {
        variant: "muggins".to_owned(),
        players: 2,
        seats: vec![person(), person()],
        settings: Some(proto::TableSettings {
            turn_seconds: seconds,
            on_timeout: proto::TimeoutRule::OneMove as i32,
        }),
        ..Default::default()
    }
}

/// Now, in unix milliseconds.
fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |now| u64::try_from(now.as_millis()).unwrap_or(0))
}

/// `tables` tables on one-second timers nobody answers, created from
/// 64 addresses (127.5.x.y), 64 at a time; then held until `stop` (the
/// server's timers play on by themselves; start it with
/// `--tables-expire-secs` the attack's length, so that they go with it).
pub async fn timer_flood(addr: SocketAddr, tables: usize, stop: Instant, counts: Arc<TableCounts>) {
    let mut clients = Vec::new();
    for n in 0..64 {
        if let Some(channel) = connect_from(addr, loopback(5, n)).await {
            clients.push(TableServiceClient::new(channel));
        }
    }
    if clients.is_empty() {
        eprintln!("timer-flood: could not connect");
        return;
    }
    let started = Instant::now();
    let mut tasks = JoinSet::new();
    for (index, client) in clients.iter().enumerate() {
        let (mut client, counts) = (client.clone(), Arc::clone(&counts));
        let share = tables / clients.len() + usize::from(index < tables % clients.len());
        tasks.spawn(async move {
            for _ in 0..share {
                if Instant::now() >= stop {
                    return;
                }
                match client.create_table(two_people(1)).await {
                    Ok(_) => counts.created.fetch_add(1, Ordering::Relaxed),
                    Err(_) => counts.refused.fetch_add(1, Ordering::Relaxed),
                };
            }
        });
    }
    while tasks.join_next().await.is_some() {}
    println!(
        "timer-flood: {} tables on 1 s timers created in {:.1} s ({} refused)",
        counts.created.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64(),
        counts.refused.load(Ordering::Relaxed)
    );
    tokio::time::sleep_until(stop.into()).await;
}

/// People at `tables` tables of their own (from 127.6.`phase`.x) whose
/// two-second timers run out, each table watched from one seat until
/// `stop`: how late each timed-out turn was played is added to `counts`.
pub async fn late_timers(
    addr: SocketAddr,
    phase: u8,
    tables: usize,
    stop: Instant,
    counts: Arc<TableCounts>,
) {
    let mut tasks = JoinSet::new();
    for n in 0..tables {
        let counts = Arc::clone(&counts);
        tasks.spawn(async move {
            let from = IpAddr::V4(Ipv4Addr::new(
                127,
                6,
                phase,
                u8::try_from(n + 1).unwrap_or(1),
            ));
            let Some(channel) = connect_from(addr, from).await else {
                return;
            };
            let mut client = TableServiceClient::new(channel);
            let Ok(created) = client.create_table(two_people(2)).await else {
                return;
            };
            let created = created.into_inner();
            let Some(link) = created.seat_links.first().map(|link| link.link.clone()) else {
                return;
            };
            let Ok(watch) = client.watch(proto::WatchRequest { link }).await else {
                return;
            };
            let mut watch = watch.into_inner();
            let mut ends_at = 0u64;
            let mut number = 0u64;
            while let Ok(Ok(Some(message))) =
                tokio::time::timeout_at(stop.into(), watch.message()).await
            {
                let Some(update) = message.update else {
                    continue;
                };
                if update.number > number && ends_at > 0 {
                    let late = now_ms().saturating_sub(ends_at);
                    if let Ok(mut late_ones) = counts.late.lock() {
                        late_ones.push(Duration::from_millis(late));
                    }
                }
                number = number.max(update.number);
                ends_at = update.turn_ends_at_ms;
            }
        });
    }
    while tasks.join_next().await.is_some() {}
}

/// The timed-out turns the server at `metrics` has played so far: how
/// many, and how many within a second of their due time (its
/// `pips_table_turn_lateness_seconds` histogram).
pub async fn timeouts_played(metrics: SocketAddr) -> Option<(f64, f64)> {
    let mut stream = TcpStream::connect(metrics).await.ok()?;
    stream
        .write_all(b"GET /metrics HTTP/1.1\r\nhost: pips\r\nconnection: close\r\n\r\n")
        .await
        .ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.ok()?;
    let figure = |prefix: &str| {
        answer
            .lines()
            .find(|line| line.starts_with(prefix))
            .and_then(|line| line.rsplit(' ').next())
            .and_then(|value| value.parse::<f64>().ok())
    };
    let all = figure("pips_table_turn_lateness_seconds_count{kind=\"timeout\"}").unwrap_or(0.0);
    let within = figure("pips_table_turn_lateness_seconds_bucket{le=\"1.0\",kind=\"timeout\"}")
        .or_else(|| figure("pips_table_turn_lateness_seconds_bucket{kind=\"timeout\",le=\"1.0\"}"))
        .unwrap_or(0.0);
    Some((all, within))
}

/// Prints, every five seconds until `stop`, how many timed-out turns the
/// server at `metrics` played a second and how many of them within a
/// second of their due time.
pub async fn timeouts_by_window(metrics: SocketAddr, stop: Instant) {
    let started = Instant::now();
    let mut last = timeouts_played(metrics).await.unwrap_or_default();
    while Instant::now() + Duration::from_secs(5) <= stop {
        tokio::time::sleep(Duration::from_secs(5)).await;
        let now = timeouts_played(metrics).await.unwrap_or(last);
        let (all, within) = (now.0 - last.0, now.1 - last.1);
        println!(
            "timer-flood at {:>3} s: {:>6.0} timed-out turns a second, {:>6.2}% within 1 s of due",
            started.elapsed().as_secs(),
            all / 5.0,
            100.0 * within / all.max(1.0)
        );
        last = now;
    }
}
