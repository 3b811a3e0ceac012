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

/// The loopback address 127.`group`.`network`.h, h the `host`th from 1
/// (modulo 250): each counted as a client of its own.
pub fn host(group: u8, network: u8, host: usize) -> IpAddr {
    let host = u8::try_from(host % 250 + 1).unwrap_or(1);
    IpAddr::V4(Ipv4Addr::new(127, group, network, host))
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
            let from = host(6, phase, n);
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

/// What a raw HTTP/1.1 JSON call answered: its status and body.
pub struct Answered {
    /// The HTTP status (0: no answer).
    pub status: u16,
    /// The body.
    pub body: String,
}

/// `POST path` with a JSON `body` from `from` (and, behind a proxy the
/// server trusts, naming `forwarded` as the client), on a connection of
/// its own.
pub async fn post(
    addr: SocketAddr,
    from: IpAddr,
    path: &str,
    body: &str,
    forwarded: Option<&str>,
) -> Answered {
    let failed = Answered {
        status: 0,
        body: String::new(),
    };
    let Ok(socket) = tokio::net::TcpSocket::new_v4() else {
        return failed;
    };
    if socket.bind(SocketAddr::new(from, 0)).is_err() {
        return failed;
    }
    let Ok(Ok(mut stream)) =
        tokio::time::timeout(Duration::from_secs(5), socket.connect(addr)).await
    else {
        return failed;
    };
    let forwarded = forwarded.map_or(String::new(), |client| {
        format!("x-forwarded-for: {client}\r\n")
    });
    let request = format!(
        "POST {path} HTTP/1.1\r\nhost: pips\r\ncontent-type: application/json\r\n{forwarded}\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    if stream.write_all(request.as_bytes()).await.is_err() {
        return failed;
    }
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    if !matches!(read, Ok(Ok(_))) {
        return failed;
    }
    let answer = String::from_utf8_lossy(&answer);
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map_or(String::new(), |(_, body)| body.to_owned());
    Answered { status, body }
}

/// The JSON of a two-person muggins table.
const CREATE_JSON: &str =
    r#"{"variant": "muggins", "players": 2, "seats": [{"person": {}}, {"person": {}}]}"#;

/// A table created over JSON from `from` (naming `forwarded`): its seats'
/// links and its watch link, or the status that refused it.
pub async fn create_json(
    addr: SocketAddr,
    from: IpAddr,
    forwarded: Option<&str>,
) -> Result<(Vec<String>, String), u16> {
    let answered = post(addr, from, "/v1/CreateTable", CREATE_JSON, forwarded).await;
    if answered.status != 200 {
        return Err(answered.status);
    }
    let created: serde_json::Value = serde_json::from_str(&answered.body).map_err(|_| 0u16)?;
    let links = created["seatLinks"]
        .as_array()
        .map(|links| {
            links
                .iter()
                .filter_map(|link| link["link"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let watch = created["watchLink"].as_str().unwrap_or_default().to_owned();
    Ok((links, watch))
}

/// A watch of `link` by server-sent events from `from` (naming
/// `forwarded`), on a connection of its own: the stream once its first
/// update came, or the status that refused it (0: none).
pub async fn watch_events(
    addr: SocketAddr,
    from: IpAddr,
    link: &str,
    forwarded: Option<&str>,
) -> Result<TcpStream, u16> {
    let socket = tokio::net::TcpSocket::new_v4().map_err(|_| 0u16)?;
    socket.bind(SocketAddr::new(from, 0)).map_err(|_| 0u16)?;
    let mut stream = tokio::time::timeout(Duration::from_secs(5), socket.connect(addr))
        .await
        .map_err(|_| 0u16)?
        .map_err(|_| 0u16)?;
    let body = format!(r#"{{"link": "{link}"}}"#);
    let forwarded = forwarded.map_or(String::new(), |client| {
        format!("x-forwarded-for: {client}\r\n")
    });
    let request = format!(
        "POST /v1/Watch HTTP/1.1\r\nhost: pips\r\ncontent-type: application/json\r\n{forwarded}\
         content-length: {}\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|_| 0u16)?;
    let mut seen = Vec::new();
    let mut buffer = [0u8; 8192];
    loop {
        let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buffer))
            .await
            .map_err(|_| 0u16)?
            .map_err(|_| 0u16)?;
        if read == 0 {
            return Err(0);
        }
        seen.extend_from_slice(&buffer[..read]);
        if seen.len() >= 12 && !seen.starts_with(b"HTTP/1.1 200") {
            let status = String::from_utf8_lossy(&seen[9..12]).parse().unwrap_or(0);
            return Err(status);
        }
        if seen.windows(6).any(|w| w == b"data: ") {
            return Ok(stream);
        }
    }
}

/// Holds `stream` until the server ends it or `stop`; whether the server
/// ended it.
pub async fn hold_until(mut stream: TcpStream, stop: Instant) -> bool {
    let mut buffer = [0u8; 8192];
    loop {
        match tokio::time::timeout_at(stop.into(), stream.read(&mut buffer)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

/// A watch of `link` from `from` (naming `forwarded`) held until the
/// server ends it or `stop`, counted in `counts` as made or refused.
pub async fn hold_watch(
    addr: SocketAddr,
    (from, forwarded): (IpAddr, Option<&str>),
    link: &str,
    stop: Instant,
    counts: &TableCounts,
) {
    match watch_events(addr, from, link, forwarded).await {
        Ok(stream) => {
            counts.created.fetch_add(1, Ordering::Relaxed);
            hold_until(stream, stop).await;
        }
        Err(_) => {
            counts.refused.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// What the people in one phase of a table attack met: their calls by
/// outcome, as a line.
#[derive(Debug, Default)]
pub struct People {
    /// What they did that was served.
    pub served: AtomicU64,
    /// What they did that was refused or failed.
    pub refused: AtomicU64,
}

impl People {
    /// Counts one outcome.
    pub fn count(&self, ok: bool) {
        if ok {
            self.served.fetch_add(1, Ordering::Relaxed);
        } else {
            self.refused.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The counts as a line.
    pub fn line(&self, what: &str) -> String {
        let (served, refused) = (
            self.served.load(Ordering::Relaxed),
            self.refused.load(Ordering::Relaxed),
        );
        format!(
            "{what}: {served} served, {refused} refused or failed ({:.2}% served)",
            100.0 * served as f64 / (served + refused).max(1) as f64
        )
    }
}

/// The flooding client of `proxy-flood` behind the proxy the server
/// trusts (loopback): `attackers` loops naming one client address each,
/// creating tables as fast as they are answered and holding a watch of
/// every seat, until `stop`.
pub async fn proxy_flood(
    addr: SocketAddr,
    attackers: usize,
    stop: Instant,
    counts: Arc<TableCounts>,
) {
    let mut tasks = JoinSet::new();
    for n in 0..attackers {
        let counts = Arc::clone(&counts);
        tasks.spawn(async move {
            let client = format!("198.51.100.{}", n % 4 + 1);
            let mut watches = JoinSet::new();
            while Instant::now() < stop {
                match create_json(addr, loopback(8, n), Some(&client)).await {
                    Ok((links, _)) => {
                        counts.created.fetch_add(1, Ordering::Relaxed);
                        for link in links {
                            let (client, counts) = (client.clone(), Arc::clone(&counts));
                            watches.spawn(async move {
                                let from = (loopback(8, n), Some(client.as_str()));
                                hold_watch(addr, from, &link, stop, &counts).await;
                            });
                        }
                    }
                    Err(_) => {
                        counts.refused.fetch_add(1, Ordering::Relaxed);
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                }
            }
            while watches.join_next().await.is_some() {}
        });
    }
    while tasks.join_next().await.is_some() {}
}

/// People behind the proxy (each naming an address of its own), one a
/// second from `phase`'s range, each creating a table and watching a seat
/// of it, until `stop`.
pub async fn people_behind_the_proxy(
    addr: SocketAddr,
    phase: u8,
    stop: Instant,
    people: Arc<People>,
) {
    let mut n = 0u32;
    while Instant::now() < stop {
        n += 1;
        let client = format!("203.0.{phase}.{}", n % 250 + 1);
        let from = loopback(9, n as usize);
        match create_json(addr, from, Some(&client)).await {
            Ok((links, _)) => {
                people.count(true);
                let watched = watch_events(addr, from, &links[0], Some(&client)).await;
                people.count(watched.is_ok());
            }
            Err(_) => people.count(false),
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// `watch-descriptors`: `attackers` addresses (127.16.x.1 on: each a
/// network of its own, a hundred to a block, so that none is short of
/// tables to watch), each creating
/// eight tables and holding four watches by server-sent events of each of
/// their sixteen seats (64, its share), each on a connection of its own,
/// opened again a second after the server ends or refuses it (as a page
/// does), until `stop`. Run the server under `prlimit --nofile=1024`.
pub async fn watch_descriptors(
    addr: SocketAddr,
    attackers: usize,
    stop: Instant,
    counts: Arc<TableCounts>,
) {
    let mut tasks = JoinSet::new();
    for n in 0..attackers {
        let counts = Arc::clone(&counts);
        tasks.spawn(async move {
            let block = u8::try_from(16 + n / 100).unwrap_or(u8::MAX);
            let from = host(block, u8::try_from(n % 100 + 1).unwrap_or(1), 0);
            let mut links = Vec::new();
            for _ in 0..8 {
                match create_json(addr, from, None).await {
                    Ok((made, _)) => links.extend(made),
                    Err(_) => {
                        counts.refused.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            let mut watches = JoinSet::new();
            for link in links
                .iter()
                .flat_map(|link| std::iter::repeat_n(link.clone(), 4))
            {
                let counts = Arc::clone(&counts);
                watches.spawn(async move {
                    while Instant::now() < stop {
                        hold_watch(addr, (from, None), &link, stop, &counts).await;
                        // (As the playground does after a refusal or a
                        // stream's end.)
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                });
            }
            while watches.join_next().await.is_some() {}
        });
    }
    while tasks.join_next().await.is_some() {}
}

/// New clients, each on a new connection, until `stop`: ten times a
/// second an engine call (`ListVariants` over JSON), and once a second a
/// table created from an address of its own (127.12.`phase`.x) with a seat
/// watching it.
pub async fn new_connections(addr: SocketAddr, phase: u8, stop: Instant, people: Arc<People>) {
    let mut n = 0usize;
    while Instant::now() < stop {
        n += 1;
        let listed = post(addr, loopback(12, n), "/v1/ListVariants", "{}", None).await;
        people.count(listed.status == 200);
        if n % 10 == 0 {
            let from = host(12, phase, n / 10);
            match create_json(addr, from, None).await {
                Ok((links, _)) => {
                    people.count(true);
                    people.count(watch_events(addr, from, &links[0], None).await.is_ok());
                }
                Err(_) => people.count(false),
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `cap-holding`: `attackers` addresses (127.11.x.1, each a network of
/// its own) creating tables as fast as their buckets allow and opening
/// each of them every five seconds, as a script keeping them would,
/// until `stop`. Run the server with `--tables-max 500` and a short
/// `--tables-expire-secs`.
pub async fn cap_holding(
    addr: SocketAddr,
    attackers: usize,
    stop: Instant,
    counts: Arc<TableCounts>,
) {
    let mut tasks = JoinSet::new();
    for n in 0..attackers {
        let counts = Arc::clone(&counts);
        tasks.spawn(async move {
            let from = host(11, u8::try_from(n % 250 + 1).unwrap_or(1), 0);
            let mut links: Vec<String> = Vec::new();
            let mut opened = Instant::now();
            while Instant::now() < stop {
                match create_json(addr, from, None).await {
                    Ok((made, _)) => {
                        counts.created.fetch_add(1, Ordering::Relaxed);
                        links.extend(made.into_iter().take(1));
                    }
                    Err(_) => {
                        counts.refused.fetch_add(1, Ordering::Relaxed);
                    }
                }
                if opened.elapsed() >= Duration::from_secs(5) {
                    opened = Instant::now();
                    let mut kept = Vec::new();
                    for link in links {
                        let body = format!(r#"{{"link": "{link}"}}"#);
                        if post(addr, from, "/v1/OpenSeat", &body, None).await.status == 200 {
                            kept.push(link);
                        }
                    }
                    links = kept;
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        });
    }
    while tasks.join_next().await.is_some() {}
}

/// New people, one every half second from an address of their own
/// (127.13.`phase`.x), each creating a table, until `stop`.
pub async fn newcomers(addr: SocketAddr, phase: u8, stop: Instant, people: Arc<People>) {
    let mut n = 0usize;
    while Instant::now() < stop {
        n += 1;
        let from = host(13, phase, n);
        people.count(create_json(addr, from, None).await.is_ok());
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// People at four tables of their own (two people each, from
/// 127.14.`phase`.x), one seat watching while moves are made in turn,
/// until `stop`; with `takeover`, others hold as many watches of the
/// table's watch link as it has (32) and 32 of the other seat's own link.
/// Every move must reach the watching seat within 2 s: each counted as
/// seen or not.
pub async fn watched_moves(
    addr: SocketAddr,
    phase: u8,
    takeover: bool,
    stop: Instant,
    (people, hostile): (Arc<People>, Arc<TableCounts>),
) {
    let mut tasks = JoinSet::new();
    for table in 0..4u8 {
        let (people, hostile_counts) = (Arc::clone(&people), Arc::clone(&hostile));
        tasks.spawn(async move {
            let from = host(14, phase, usize::from(table));
            let Some(channel) = connect_from(addr, from).await else {
                return;
            };
            let mut client = TableServiceClient::new(channel);
            let Ok(created) = client.create_table(two_people(0)).await else {
                people.count(false);
                return;
            };
            let created = created.into_inner();
            let links: Vec<String> = created.seat_links.iter().map(|l| l.link.clone()).collect();
            let first = created
                .update
                .as_ref()
                .and_then(|u| u.view.as_ref())
                .and_then(|v| v.to_act)
                .unwrap_or(0);
            // The seat that watches is the one not to act first; the
            // other is its opponent.
            let (opponent, watcher) = if first == 0 { (0, 1) } else { (1, 0) };
            let mut hostile = JoinSet::new();
            if takeover {
                for n in 0..64usize {
                    let link = if n % 2 == 0 {
                        created.watch_link.clone()
                    } else {
                        links[opponent].clone()
                    };
                    let from = host(15, table, n);
                    let counts = Arc::clone(&hostile_counts);
                    hostile.spawn(async move {
                        hold_watch(addr, (from, None), &link, stop, &counts).await;
                    });
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            let watch = client
                .watch(proto::WatchRequest {
                    link: links[watcher].clone(),
                })
                .await;
            let Ok(watch) = watch else {
                people.count(false);
                return;
            };
            let mut watch = watch.into_inner();
            while Instant::now() < stop {
                // Whoever is to act moves (as its person); the watching
                // seat must see the move.
                let Ok(opened) = client
                    .open_seat(proto::OpenSeatRequest {
                        link: links[watcher].clone(),
                    })
                    .await
                else {
                    break;
                };
                let update = opened.into_inner().update.unwrap_or_default();
                let Some(to_act) = update.view.as_ref().and_then(|view| view.to_act) else {
                    break;
                };
                let link = links[usize::try_from(to_act).unwrap_or(0).min(1)].clone();
                let Ok(theirs) = client
                    .open_seat(proto::OpenSeatRequest { link: link.clone() })
                    .await
                else {
                    break;
                };
                let theirs = theirs.into_inner().update.unwrap_or_default();
                let Some(mv) = theirs
                    .view
                    .as_ref()
                    .and_then(|view| view.legal_moves.first().copied())
                else {
                    break;
                };
                let Ok(acted) = client
                    .act(proto::ActRequest {
                        link,
                        number: theirs.number,
                        r#move: Some(mv),
                    })
                    .await
                else {
                    break;
                };
                let number = acted.into_inner().update.map_or(0, |u| u.number);
                let saw = tokio::time::timeout(Duration::from_secs(2), async {
                    while let Ok(Some(message)) = watch.message().await {
                        if message.update.is_some_and(|u| u.number >= number) {
                            return true;
                        }
                    }
                    false
                })
                .await;
                people.count(matches!(saw, Ok(true)));
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            hostile.abort_all();
        });
    }
    while tasks.join_next().await.is_some() {}
}

/// `log-flood`: `attackers` connections each opening a seat by a link
/// that opens nothing, as fast as they are answered, until `stop`.
pub async fn log_flood(
    addr: SocketAddr,
    attackers: usize,
    stop: Instant,
    counts: Arc<TableCounts>,
) {
    let mut tasks = JoinSet::new();
    for n in 0..attackers {
        let counts = Arc::clone(&counts);
        tasks.spawn(async move {
            let Ok(mut stream) = TcpStream::connect(addr).await else {
                return;
            };
            let body = format!(r#"{{"link": "AAAAAAAAAAAAAAAAAAAA{:02}"}}"#, n % 100);
            let request = format!(
                "POST /v1/OpenSeat HTTP/1.1\r\nhost: pips\r\ncontent-type: application/json\r\n\
                 content-length: {}\r\n\r\n{body}",
                body.len()
            );
            let mut buffer = vec![0u8; 4096];
            while Instant::now() < stop {
                if stream.write_all(request.as_bytes()).await.is_err() {
                    return;
                }
                // One answer (its head and short body) a request.
                match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer)).await {
                    Ok(Ok(read)) if read > 0 => {
                        counts.refused.fetch_add(1, Ordering::Relaxed);
                    }
                    _ => return,
                }
            }
        });
    }
    while tasks.join_next().await.is_some() {}
}
