//! The `idle-seats` mode: people sitting at tables and doing nothing.
//! Tables of four people are created and each seat watches its table
//! (`TableService.Watch`) on a connection of its own, from many loopback
//! addresses (127.3.x.y, eight tables each, as many people would be), and
//! holds its stream until the end without moving, while the well-behaved
//! clients are measured. Each seat watches over gRPC (HTTP/2), or with
//! `events` as a browser does: server-sent events on an HTTP/1.1
//! connection of its own. A refused table or watch (the server busy
//! setting up the others) is asked again a moment later, as a browser's
//! page does, and counted.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use pips::proto::table_service_client::TableServiceClient;
use pips::proto::{self, seat_plan};
use tokio::task::JoinSet;

use super::tables::{connect_from, hold_until, watch_events as watch_events_from};

/// Seats at a table.
const SEATS: usize = 4;

/// Tables made from one client address (the server lets one address
/// create 10 a minute and watch 64 at once).
const TABLES_PER_ADDRESS: usize = 8;

/// Tables set up a second.
const TABLES_A_SECOND: usize = 250;

/// How long a refused seat waits before it asks again.
const RETRY_AFTER: Duration = Duration::from_millis(500);

/// The seats held now, and the refusals met on the way.
#[derive(Debug, Default)]
struct Counts {
    /// Seats watching now.
    held: AtomicU64,
    /// Tables and watches refused (then asked again).
    refused: AtomicU64,
}

/// Table `index`: created and watched from each seat, held until `stop`;
/// the seats it holds and the refusals it meets are counted in `counts`.
async fn table(
    addr: SocketAddr,
    index: usize,
    stop: Instant,
    counts: Arc<Counts>,
    events: bool,
) -> Option<()> {
    let k = u32::try_from(index / TABLES_PER_ADDRESS + 1).ok()?;
    let [.., high, low] = k.to_be_bytes();
    let from = IpAddr::V4(Ipv4Addr::new(127, 3, high, low));
    let first = TableServiceClient::new(connect_from(addr, from).await?);
    let person = proto::SeatPlan {
        who: Some(seat_plan::Who::Person(proto::PersonSeat {})),
    };
    let request = proto::CreateTableRequest {
        variant: "muggins".to_owned(),
        players: 4,
        seats: vec![person; SEATS],
        ..Default::default()
    };
    let created = until_answered("a table", stop, &counts, || {
        let (mut client, request) = (first.clone(), request.clone());
        async move { client.create_table(request).await }
    })
    .await?;
    if events {
        drop(first);
        let mut tasks = JoinSet::new();
        for link in created.seat_links {
            let counts = Arc::clone(&counts);
            tasks.spawn(watch_events(addr, from, link.link, stop, counts));
        }
        while tasks.join_next().await.is_some() {}
        return Some(());
    }
    let mut streams = Vec::new();
    for (seat, link) in created.seat_links.iter().enumerate() {
        // The creator's connection is the first seat's.
        let client = if seat == 0 {
            first.clone()
        } else {
            TableServiceClient::new(connect_from(addr, from).await?)
        };
        let request = proto::WatchRequest {
            link: link.link.clone(),
        };
        let mut stream = until_answered("a watch", stop, &counts, || {
            let (mut client, request) = (client.clone(), request.clone());
            async move { client.watch(request).await }
        })
        .await?;
        stream.message().await.ok()??;
        counts.held.fetch_add(1, Ordering::Relaxed);
        streams.push(stream);
    }
    drop(first);
    // Held, each stream read as updates come (presence), until the end.
    let mut tasks = JoinSet::new();
    for mut stream in streams {
        let counts = Arc::clone(&counts);
        tasks.spawn(async move {
            while let Ok(Ok(Some(_))) = tokio::time::timeout_at(stop.into(), stream.message()).await
            {
            }
            counts.held.fetch_sub(1, Ordering::Relaxed);
        });
    }
    while tasks.join_next().await.is_some() {}
    Some(())
}

/// The answer of `call`, asked again after a pause while the server is
/// busy (a refusal counted in `counts`) until `stop`; `None` on another
/// refusal (printed, as `what`'s).
async fn until_answered<T, F, Fut>(
    what: &str,
    stop: Instant,
    counts: &Counts,
    mut call: F,
) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<tonic::Response<T>, tonic::Status>>,
{
    loop {
        match call().await {
            Ok(answer) => return Some(answer.into_inner()),
            Err(status)
                if matches!(
                    status.code(),
                    tonic::Code::ResourceExhausted | tonic::Code::Unavailable
                ) && Instant::now() < stop =>
            {
                counts.refused.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(RETRY_AFTER).await;
            }
            Err(status) => {
                eprintln!("idle-seats: {what}: {}", status.message());
                return None;
            }
        }
    }
}

/// One seat watching by server-sent events (`POST /v1/Watch`) from `from`
/// on an HTTP/1.1 connection of its own, held until `stop`; a refusal
/// (the server busy) is asked again after a pause, on a new connection.
async fn watch_events(
    addr: SocketAddr,
    from: IpAddr,
    link: String,
    stop: Instant,
    counts: Arc<Counts>,
) {
    while Instant::now() < stop {
        match watch_events_once(addr, from, &link, stop, &counts).await {
            Watched::Held | Watched::Failed => return,
            Watched::Refused => {
                counts.refused.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(RETRY_AFTER).await;
            }
        }
    }
}

/// How one attempt at a watch by server-sent events went.
enum Watched {
    /// It was held until the end.
    Held,
    /// The server answered with a refusal.
    Refused,
    /// The connection failed.
    Failed,
}

/// One attempt of [`watch_events`].
async fn watch_events_once(
    addr: SocketAddr,
    from: IpAddr,
    link: &str,
    stop: Instant,
    counts: &Counts,
) -> Watched {
    match watch_events_from(addr, from, link, None).await {
        Ok(stream) => {
            counts.held.fetch_add(1, Ordering::Relaxed);
            hold_until(stream, stop).await;
            counts.held.fetch_sub(1, Ordering::Relaxed);
            Watched::Held
        }
        // (No answer at all: the connection failed.)
        Err(0) => Watched::Failed,
        Err(_) => Watched::Refused,
    }
}

/// `seats` idle seats (rounded up to whole tables) at `addr` until `stop`,
/// watching over gRPC or (`events`) by server-sent events.
pub async fn idle_seats(addr: SocketAddr, seats: usize, stop: Instant, events: bool) {
    let counts = Arc::new(Counts::default());
    let tables = seats.div_ceil(SEATS);
    let mut tasks = JoinSet::new();
    let started = Instant::now();
    for index in 0..tables {
        if index > 0 && index % TABLES_A_SECOND == 0 {
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        tasks.spawn(table(addr, index, stop, Arc::clone(&counts), events));
    }
    let peak = Arc::new(AtomicU64::new(0));
    let report = {
        let (counts, peak) = (Arc::clone(&counts), Arc::clone(&peak));
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(500)).await;
                let now = counts.held.load(Ordering::Relaxed);
                let before = peak.fetch_max(now, Ordering::Relaxed);
                if before < now && usize::try_from(now).is_ok_and(|now| now >= tables * SEATS) {
                    println!(
                        "idle-seats: {now} seats watching after {:.1} s",
                        started.elapsed().as_secs_f64()
                    );
                }
            }
        })
    };
    while tasks.join_next().await.is_some() {}
    report.abort();
    println!(
        "idle-seats: at most {} of {} seats watching at once; {} refusals (the server busy), each asked again {} ms later",
        peak.load(Ordering::Relaxed),
        tables * SEATS,
        counts.refused.load(Ordering::Relaxed),
        RETRY_AFTER.as_millis()
    );
}
