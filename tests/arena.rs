//! `pips arena` between built-in levels: its table, and its replay lines,
//! which `Replay` re-runs exactly (to the same match digest).

use std::io::BufRead;
use std::sync::Mutex;
use std::time::Duration;

use pips::arena::{Arena, Player};
use pips::bots::Level;
use pips::proto;
use pips::service::Engine;

#[test]
fn arena_replays_rerun_exactly() {
    replays_rerun_exactly("all_fives", 2, 6);
}

/// Up to eight seats at the tables with a hub, the first player in one
/// seat.
#[test]
fn arena_plays_the_tables_with_a_hub() {
    replays_rerun_exactly("mexican_train", 4, 2);
    replays_rerun_exactly("chicken_foot", 8, 2);
}

/// `matches` matches of `variant` with `players` seats, expert against
/// greedy: the table, and replay lines that `Replay` re-runs to the same
/// digests; the same seed plays the same matches.
fn replays_rerun_exactly(variant: &str, players: u8, matches: usize) {
    let path =
        std::env::temp_dir().join(format!("pips-arena-{variant}-{}.jsonl", std::process::id()));
    let file = std::fs::File::create(&path).expect("a file");
    let replays = Mutex::new(file);
    let arena = Arena {
        variant: variant.to_owned(),
        players,
        partnerships: None,
        matches,
        seed: 9,
        playouts: 20,
        move_time: Duration::from_secs(1),
        jobs: 2,
    };
    let pairing = [Player::Level(Level::Expert), Player::Level(Level::Greedy)];
    let table = arena.run(&pairing, Some(&replays)).expect("a run");
    assert!(
        table.contains("expert") && table.contains("greedy"),
        "{table}"
    );
    assert!(table.contains(", expert 20 playouts"), "{table}");
    drop(replays);
    let engine = Engine::default();
    let lines: Vec<String> = std::io::BufReader::new(std::fs::File::open(&path).expect("replays"))
        .lines()
        .collect::<Result<_, _>>()
        .expect("lines");
    assert_eq!(lines.len(), matches);
    for line in lines {
        let record: serde_json::Value = serde_json::from_str(&line).expect("json");
        let state: proto::GameState =
            serde_json::from_value(record["state"].clone()).expect("a state");
        let moves: Vec<proto::Move> =
            serde_json::from_value(record["moves"].clone()).expect("moves");
        let replayed = engine
            .replay(&proto::ReplayRequest {
                state_source: Some(state.into()),
                moves,
                as_token: false,
            })
            .expect("a legal record");
        // Base64, as the API's answers write bytes.
        let digest = serde_json::to_value(&replayed).expect("json")["matchDigest"].clone();
        assert_eq!(digest, record["matchDigest"], "match {}", record["match"]);
        assert!(replayed.to_act.is_none(), "the match is over");
    }
    // The same seed plays the same matches.
    let again = arena.run(&pairing, None).expect("a run");
    let wins = |table: &str| {
        table
            .lines()
            .skip(2)
            .map(|l| l.split_whitespace().nth(1).unwrap_or("").to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(wins(&table), wins(&again));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn players_parse_from_their_names() {
    assert_eq!(Player::parse("expert"), Ok(Player::Level(Level::Expert)));
    assert_eq!(
        Player::parse("grpc://127.0.0.1:9"),
        Ok(Player::External("http://127.0.0.1:9".to_owned()))
    );
    assert!(Player::parse("grandmaster").is_err());
    assert!(Player::parse("grpc://").is_err());
}

#[test]
fn the_header_names_the_playouts_only_when_expert_plays() {
    let arena = Arena {
        variant: "muggins".to_owned(),
        players: 2,
        partnerships: None,
        matches: 2,
        seed: 3,
        playouts: 5000,
        move_time: Duration::from_secs(1),
        jobs: 1,
    };
    let pairing = [Player::Level(Level::Greedy), Player::Level(Level::Random)];
    let table = arena.run(&pairing, None).expect("a run");
    let header = table.lines().next().unwrap_or_default();
    assert_eq!(header, "muggins 2p, 2 matches, seed 3");
}

#[test]
fn the_cli_says_what_addr_is_for() {
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_pips"))
        .args(["arena", "--help"])
        .output()
        .expect("pips runs");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains(
            "Address the server listens on; `healthcheck` probes it (`arena` does not use it)"
        ),
        "{help}"
    );
}
