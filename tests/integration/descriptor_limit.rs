//! The real binary at a low descriptor limit (`prlimit --nofile`). By
//! default it serves at most the connections its descriptors allow, and a
//! new connection takes the place of the one idle longest: idle
//! connections far beyond the limit do not keep a health check out. With
//! a connection cap set beyond its descriptors, idle connections that use
//! them up make it back off and warn, not spin, and it serves again once
//! they are gone. (The limit is the server process's, set by `prlimit`:
//! the tests beside it in this binary do not share it.)

use std::io::Read;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Descriptors the server may open; the idle connections take more.
const NOFILE: u32 = 64;
/// Idle connections opened against it.
const IDLE: usize = 100;

/// A free loopback port.
fn free_port() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("address")
}

/// CPU time the process has used (user + system), from `/proc`.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("stat");
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after
    // the name; in clock ticks (100 a second on Linux).
    let ticks: u64 =
        fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime");
    Duration::from_millis(ticks * 10)
}

/// Whether a health check of `addr` answers within a few seconds.
fn healthy(addr: SocketAddr) -> bool {
    Command::new(env!("CARGO_BIN_EXE_pips"))
        .args(["healthcheck", "--addr", &addr.to_string()])
        .status()
        .is_ok_and(|status| status.success())
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The binary at `addr` under the low descriptor limit, with `flags`
/// (with no tables unless they say `--tables-db`), once it is healthy.
fn start_limited(addr: SocketAddr, flags: &[&str]) -> Server {
    // (No tables file left in the checkout.)
    let tables: &[&str] = if flags.contains(&"--tables-db") {
        &[]
    } else {
        &["--tables-db", "none"]
    };
    let child = Command::new("prlimit")
        .arg(format!("--nofile={NOFILE}:{NOFILE}"))
        .arg(env!("CARGO_BIN_EXE_pips"))
        .args(["--addr", &addr.to_string(), "--header-timeout-secs", "60"])
        .args(tables)
        .args(flags)
        .stderr(Stdio::piped())
        .spawn()
        .expect("prlimit (util-linux) runs the server");
    let server = Server(child);
    let started = Instant::now();
    while !healthy(addr) {
        assert!(started.elapsed() < Duration::from_secs(20), "never healthy");
        std::thread::sleep(Duration::from_millis(100));
    }
    server
}

#[test]
fn idle_connections_beyond_the_descriptors_keep_no_one_out() {
    let addr = free_port();
    let _server = start_limited(addr, &[]);
    let idle: Vec<TcpStream> = (0..IDLE)
        .filter_map(|_| TcpStream::connect(addr).ok())
        .collect();
    assert_eq!(idle.len(), IDLE, "the backlog takes the connections");
    // With them all held, health checks are answered: each new connection
    // takes the place of the one idle longest.
    for _ in 0..5 {
        let asked = Instant::now();
        assert!(healthy(addr), "a health check was kept out");
        assert!(asked.elapsed() < Duration::from_secs(3));
    }
    drop(idle);
}

#[test]
fn out_of_descriptors_the_server_backs_off_and_recovers() {
    let addr = free_port();
    // (A cap beyond the descriptors: they run out first.)
    let mut server = start_limited(addr, &["--max-connections", "1000"]);
    let pid = server.0.id();
    let idle: Vec<TcpStream> = (0..IDLE)
        .filter_map(|_| TcpStream::connect(addr).ok())
        .collect();
    assert_eq!(idle.len(), IDLE, "the backlog takes the connections");
    // Out of descriptors, with connections waiting: measure the CPU the
    // server uses over two seconds. A server that retries accept at once
    // spins at a whole core; one that backs off uses next to nothing.
    std::thread::sleep(Duration::from_millis(500));
    let (before, at) = (cpu_time(pid), Instant::now());
    std::thread::sleep(Duration::from_secs(2));
    let used = cpu_time(pid) - before;
    let share = used.as_secs_f64() / at.elapsed().as_secs_f64();
    eprintln!(
        "at the descriptor limit the server used {:.1}% of a core",
        share * 100.0
    );
    assert!(
        share < 0.25,
        "the server used {:.0}% of a core",
        share * 100.0
    );
    // Once the idle connections are gone, it serves again.
    drop(idle);
    let started = Instant::now();
    while !healthy(addr) {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "never recovered"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // And it said why it could not accept.
    let _ = server.0.kill();
    let mut log = String::new();
    if let Some(mut stderr) = server.0.stderr.take() {
        let _ = stderr.read_to_string(&mut log);
    }
    assert!(log.contains("cannot accept connections"), "{log}");
}

/// Opens a watch of `link` by server-sent events from `from` on a
/// connection of its own: the stream, once its first event came (none:
/// refused, or cut off).
fn watch_events(addr: SocketAddr, from: std::net::IpAddr, link: &str) -> Option<TcpStream> {
    use std::io::Write;
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).ok()?;
    socket.bind(&SocketAddr::new(from, 0).into()).ok()?;
    socket.connect(&addr.into()).ok()?;
    let mut stream: TcpStream = socket.into();
    let body = format!(r#"{{"link": "{link}"}}"#);
    write!(
        stream,
        "POST /v1/Watch HTTP/1.1\r\nhost: pips\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n\r\n{body}",
        body.len()
    )
    .ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let mut buffer = [0u8; 4096];
    let read = stream.read(&mut buffer).ok()?;
    buffer[..read]
        .starts_with(b"HTTP/1.1 200")
        .then_some(stream)
}

#[test]
fn watches_from_many_addresses_leave_room_for_everyone_else() {
    let addr = free_port();
    let _server = start_limited(addr, &["--tables-db", "sqlite::memory:"]);
    // Tables of two people; their seats watched by server-sent events,
    // each on a connection of its own, from five addresses, far more than
    // the descriptors allow.
    let create =
        r#"{"variant": "muggins", "players": 2, "seats": [{"person": {}}, {"person": {}}]}"#;
    let mut links = Vec::new();
    for _ in 0..5 {
        let answer = post(addr, "/v1/CreateTable", create);
        let created: serde_json::Value = serde_json::from_str(&answer).expect("JSON");
        for seat in created["seatLinks"].as_array().expect("links") {
            links.push(seat["link"].as_str().expect("a link").to_owned());
        }
    }
    let mut held = Vec::new();
    for n in 0..100 {
        let from = std::net::IpAddr::from([127, 0, 7, 1 + (n % 5) as u8]);
        if let Some(stream) = watch_events(addr, from, &links[n % links.len()]) {
            held.push(stream);
        }
    }
    assert!(!held.is_empty(), "watches were held");
    // Health checks and engine calls still get through.
    for _ in 0..5 {
        assert!(healthy(addr), "a health check was kept out");
    }
    let answer = post(addr, "/v1/ListVariants", "{}");
    assert!(answer.contains("muggins"), "{answer}");
    drop(held);
}

/// `POST path` with a JSON body on a connection of its own: the answer's
/// body.
fn post(addr: SocketAddr, path: &str, body: &str) -> String {
    use std::io::Write;
    let mut stream = TcpStream::connect(addr).expect("connect");
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nhost: pips\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read");
    answer
        .split_once("\r\n\r\n")
        .map_or(String::new(), |(_, body)| body.to_owned())
}
