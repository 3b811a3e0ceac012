//! The real binary at a low descriptor limit (`prlimit --nofile`): idle
//! connections that use up the descriptors make it back off and warn, not
//! spin, and it serves again once they are gone. (The limit is the
//! server process's, set by `prlimit`: the tests beside it in this binary
//! do not share it.)

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

#[test]
fn out_of_descriptors_the_server_backs_off_and_recovers() {
    let addr = free_port();
    let child = Command::new("prlimit")
        .arg(format!("--nofile={NOFILE}:{NOFILE}"))
        .arg(env!("CARGO_BIN_EXE_pips"))
        .args(["--addr", &addr.to_string(), "--header-timeout-secs", "60"])
        // (No tables file left in the checkout.)
        .args(["--tables-db", "none"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("prlimit (util-linux) runs the server");
    let mut server = Server(child);
    let started = Instant::now();
    while !healthy(addr) {
        assert!(started.elapsed() < Duration::from_secs(20), "never healthy");
        std::thread::sleep(Duration::from_millis(100));
    }
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
