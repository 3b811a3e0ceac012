//! The `idle-seats` mode: people sitting at tables and doing nothing.
//! Tables of four people are created and each seat watches its table
//! (`TableService.Watch`) on a connection of its own, from many loopback
//! addresses (127.3.x.y, eight tables each, as many people would be), and
//! holds its stream until the end without moving, while the well-behaved
//! clients are measured. Each seat watches over gRPC (HTTP/2), or with
//! `events` as a browser does: server-sent events on an HTTP/1.1
//! connection of its own.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use pips::proto::table_service_client::TableServiceClient;
use pips::proto::{self, seat_plan};
use tokio::task::JoinSet;
use tonic::transport::{Channel, Endpoint};

/// Seats at a table.
const SEATS: usize = 4;

/// Tables made from one client address (the server lets one address
/// create 10 a minute and watch 64 at once).
const TABLES_PER_ADDRESS: usize = 8;

/// Tables set up a second.
const TABLES_A_SECOND: usize = 250;

/// A connection to `addr` from `from`.
async fn connect(addr: SocketAddr, from: IpAddr) -> Option<Channel> {
    Endpoint::from_shared(format!("http://{addr}"))
        .ok()?
        .local_address(Some(from))
        .tcp_nodelay(true)
        .connect()
        .await
        .ok()
}

/// Table `index`: created and watched from each seat, held until `stop`;
/// the seats it holds are counted in `held`.
async fn table(
    addr: SocketAddr,
    index: usize,
    stop: Instant,
    held: Arc<AtomicU64>,
    events: bool,
) -> Option<()> {
    let k = u32::try_from(index / TABLES_PER_ADDRESS + 1).ok()?;
    let [.., high, low] = k.to_be_bytes();
    let from = IpAddr::V4(Ipv4Addr::new(127, 3, high, low));
    let mut first = TableServiceClient::new(connect(addr, from).await?);
    let person = proto::SeatPlan {
        who: Some(seat_plan::Who::Person(proto::PersonSeat {})),
    };
    let created = first
        .create_table(proto::CreateTableRequest {
            variant: "muggins".to_owned(),
            players: 4,
            seats: vec![person; SEATS],
            ..Default::default()
        })
        .await
        .map_err(|status| eprintln!("idle-seats: a table: {}", status.message()))
        .ok()?
        .into_inner();
    if events {
        drop(first);
        let mut tasks = JoinSet::new();
        for link in created.seat_links {
            let held = Arc::clone(&held);
            tasks.spawn(watch_events(addr, from, link.link, stop, held));
        }
        while tasks.join_next().await.is_some() {}
        return Some(());
    }
    let mut streams = Vec::new();
    for (seat, link) in created.seat_links.iter().enumerate() {
        // The creator's connection is the first seat's.
        let mut client = if seat == 0 {
            first.clone()
        } else {
            TableServiceClient::new(connect(addr, from).await?)
        };
        let mut stream = client
            .watch(proto::WatchRequest {
                link: link.link.clone(),
            })
            .await
            .map_err(|status| eprintln!("idle-seats: a watch: {}", status.message()))
            .ok()?
            .into_inner();
        stream.message().await.ok()??;
        held.fetch_add(1, Ordering::Relaxed);
        streams.push(stream);
    }
    drop(first);
    // Held, each stream read as updates come (presence), until the end.
    let mut tasks = JoinSet::new();
    for mut stream in streams {
        let held = Arc::clone(&held);
        tasks.spawn(async move {
            while let Ok(Ok(Some(_))) = tokio::time::timeout_at(stop.into(), stream.message()).await
            {
            }
            held.fetch_sub(1, Ordering::Relaxed);
        });
    }
    while tasks.join_next().await.is_some() {}
    Some(())
}

/// One seat watching by server-sent events (`POST /v1/Watch`) from `from`
/// on an HTTP/1.1 connection of its own, held until `stop`.
async fn watch_events(
    addr: SocketAddr,
    from: IpAddr,
    link: String,
    stop: Instant,
    held: Arc<AtomicU64>,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let Ok(socket) = tokio::net::TcpSocket::new_v4() else {
        return;
    };
    if socket.bind(SocketAddr::new(from, 0)).is_err() {
        return;
    }
    let Ok(mut stream) = socket.connect(addr).await else {
        return;
    };
    let body = format!(r#"{{"link": "{link}"}}"#);
    let head = format!(
        "POST /v1/Watch HTTP/1.1\r\nhost: pips\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n\r\n{body}",
        body.len()
    );
    if stream.write_all(head.as_bytes()).await.is_err() {
        return;
    }
    let mut buffer = vec![0u8; 16 * 1024];
    let mut counted = false;
    while let Ok(Ok(read)) = tokio::time::timeout_at(stop.into(), stream.read(&mut buffer)).await {
        if read == 0 {
            break;
        }
        if !counted && buffer[..read].windows(6).any(|w| w == b"data: ") {
            counted = true;
            held.fetch_add(1, Ordering::Relaxed);
        }
    }
    if counted {
        held.fetch_sub(1, Ordering::Relaxed);
    }
}

/// `seats` idle seats (rounded up to whole tables) at `addr` until `stop`,
/// watching over gRPC or (`events`) by server-sent events.
pub async fn idle_seats(addr: SocketAddr, seats: usize, stop: Instant, events: bool) {
    let held = Arc::new(AtomicU64::new(0));
    let tables = seats.div_ceil(SEATS);
    let mut tasks = JoinSet::new();
    let started = Instant::now();
    for index in 0..tables {
        if index > 0 && index % TABLES_A_SECOND == 0 {
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        tasks.spawn(table(addr, index, stop, Arc::clone(&held), events));
    }
    let peak = Arc::new(AtomicU64::new(0));
    let report = {
        let (held, peak) = (Arc::clone(&held), Arc::clone(&peak));
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(500)).await;
                let now = held.load(Ordering::Relaxed);
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
        "idle-seats: at most {} of {} seats watching at once",
        peak.load(Ordering::Relaxed),
        tables * SEATS
    );
}
