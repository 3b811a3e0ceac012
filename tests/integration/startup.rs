//! The binary's start with each kind of `--tables-db` an operator types:
//! a plain path and a `sqlite://` address without a mode are SQLite files
//! created where they are named; a database that cannot be used ends the
//! process at once, with the flag and the fix, before it binds its port
//! or says that it serves.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A folder of its own for `name`, empty.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pips-startup-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    dir
}

fn free_port() -> SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
}

/// Starts the binary in `dir` with `--tables-db database`; its process.
fn start(dir: &PathBuf, addr: SocketAddr, database: &str) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_pips"))
        .current_dir(dir)
        .args(["--addr", &addr.to_string(), "--tables-db", database])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

/// Whether the server at `addr` answers its health check within a while.
async fn serves(addr: SocketAddr) -> bool {
    let until = Instant::now() + Duration::from_secs(60);
    while Instant::now() < until {
        if let Ok(true) = pips::server::probe_health(addr).await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// The binary started with `database` in a folder of its own, which must
/// stop by itself: its exit success and what it logged.
fn refused(name: &str, database: &str, prepare: impl FnOnce(&PathBuf)) -> (bool, String) {
    let dir = folder(name);
    prepare(&dir);
    let addr = free_port();
    let child = start(&dir, addr, database);
    let output = child.wait_with_output().expect("it stops by itself");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[tokio::test]
async fn a_plain_path_and_a_sqlite_address_without_a_mode_are_files_created_if_missing() {
    for (name, database, file) in [
        ("plain", "tables.db", "tables.db"),
        ("nomode", "sqlite://other.db", "other.db"),
    ] {
        let dir = folder(name);
        let addr = free_port();
        let mut child = start(&dir, addr, database);
        assert!(serves(addr).await, "{database} serves");
        assert!(dir.join(file).is_file(), "{database} made {file}");
        child.kill().expect("killed");
        child.wait().expect("reaped");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A folder's name, the `--tables-db` given, what is put in the folder
/// first, and the words of the fix.
type Case = (&'static str, &'static str, fn(&PathBuf), &'static str);

#[test]
fn a_database_that_cannot_be_used_stops_the_start_naming_the_flag_and_the_fix() {
    let cases: [Case; 4] = [
        (
            "nodir",
            "no/such/folder/tables.db",
            |_| {},
            "check that its directory exists",
        ),
        (
            "junk",
            "junk.db",
            |dir| std::fs::write(dir.join("junk.db"), [7u8; 4096]).expect("written"),
            "not a SQLite database",
        ),
        (
            "postgres",
            // (Port 1 on loopback: nothing listens there.)
            "postgres://pips:hidden@127.0.0.1:1/pips",
            |_| {},
            "PostgreSQL cannot be reached",
        ),
        (
            "mysql",
            "mysql://pips@127.0.0.1/pips",
            |_| {},
            "pips keeps tables on SQLite or PostgreSQL",
        ),
    ];
    for (name, database, prepare, fix) in cases {
        let started = Instant::now();
        let (success, log) = refused(name, database, prepare);
        assert!(!success, "{database}: {log}");
        assert!(log.contains("--tables-db"), "{database}: {log}");
        assert!(log.contains(fix), "{database}: {log}");
        assert!(!log.contains("hidden"), "the password is not logged: {log}");
        assert!(
            !log.contains("pips is serving"),
            "{database}: announced before the database was usable: {log}"
        );
        // (Said at once, not after a pool's 30-second timeout.)
        eprintln!("{database}: refused in {:?}", started.elapsed());
        let _ = std::fs::remove_dir_all(
            std::env::temp_dir().join(format!("pips-startup-{name}-{}", std::process::id())),
        );
    }
}

#[test]
fn an_address_in_use_and_an_unreadable_key_name_their_flag_and_the_fix() {
    let held = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = held.local_addr().expect("its address");
    let run = |flags: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_pips"))
            .args(["--tables-db", "none"])
            .args(flags)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .expect("it runs");
        assert!(!output.status.success());
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let log = run(&["--addr", &addr.to_string()]);
    assert!(
        log.contains(&format!("--addr {addr}: cannot listen")),
        "{log}"
    );
    assert!(log.contains("another process listens there"), "{log}");
    let log = run(&["--addr", "127.0.0.1:0", "--state-key-file", "/no/such/key"]);
    assert!(
        log.contains("--state-key-file /no/such/key: cannot read it"),
        "{log}"
    );
    let log = run(&["--addr", "127.0.0.1:0", "--state-key", "abc"]);
    assert!(
        log.contains("--state-key: ") && log.contains("openssl rand -hex 32"),
        "{log}"
    );
    drop(held);
}
