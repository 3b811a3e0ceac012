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
        duplicate: false,
        review: None,
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
    let records = records(&path);
    assert_eq!(records.len(), matches);
    for record in records {
        let state: proto::GameState =
            serde_json::from_value(record["state"].clone()).expect("a state");
        let moves: Vec<proto::Move> =
            serde_json::from_value(record["moves"].clone()).expect("moves");
        let replayed = engine
            .replay(&proto::ReplayRequest {
                state_source: Some(state.into()),
                moves,
                as_token: false,
                notation: String::new(),
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
        Player::parse("expert-playouts"),
        Ok(Player::Level(Level::ExpertPlayouts))
    );
    assert_eq!(
        Player::Level(Level::ExpertPlayouts).name(),
        "expert-playouts"
    );
    assert_eq!(
        Player::parse("expert-flat"),
        Ok(Player::Level(Level::ExpertFlat))
    );
    assert_eq!(
        Player::parse("grpc://127.0.0.1:9"),
        Ok(Player::External("http://127.0.0.1:9".to_owned()))
    );
    // The refusal names every level there is.
    let refusal = Player::parse("grandmaster").expect_err("not a player");
    for (name, _) in Level::NAMES {
        assert!(refusal.contains(name), "{refusal}");
    }
    assert!(Player::parse("grpc://").is_err());
    assert_eq!(
        Player::parse("expert@10000"),
        Ok(Player::Budgeted(Level::Expert, 10_000))
    );
    assert_eq!(
        Player::Budgeted(Level::ExpertPlayouts, 5000).name(),
        "expert-playouts@5000"
    );
    for refused in [
        "greedy@100",
        "random@1",
        "expert@0",
        "expert@",
        "expert@many",
        "wizard@5",
    ] {
        assert!(Player::parse(refused).is_err(), "{refused}");
    }
}

/// The replay lines of `matches` all_fives matches of `pairing` at the
/// arena's budget `playouts`, in match order, without the pairing's names
/// (checked to be the players').
fn replay_lines(
    pairing: &[Player; 2],
    playouts: u32,
    matches: usize,
    name: &str,
) -> Vec<serde_json::Value> {
    let path = std::env::temp_dir().join(format!("pips-arena-{name}-{}.jsonl", std::process::id()));
    let replays = Mutex::new(std::fs::File::create(&path).expect("a file"));
    let arena = Arena {
        variant: "all_fives".to_owned(),
        players: 2,
        partnerships: None,
        matches,
        seed: 4,
        playouts,
        move_time: Duration::from_secs(1),
        jobs: 2,
        duplicate: false,
        review: None,
    };
    arena.run(pairing, Some(&replays)).expect("a run");
    drop(replays);
    let mut records = records(&path);
    let _ = std::fs::remove_file(&path);
    for record in &mut records {
        let names = record
            .as_object_mut()
            .and_then(|fields| fields.remove("pairing"))
            .expect("the pairing");
        assert_eq!(
            names,
            serde_json::json!([pairing[0].name(), pairing[1].name()])
        );
    }
    records
}

/// The replay lines written to `path`, parsed, in match order (threads
/// write them in the order matches end).
fn records(path: &std::path::Path) -> Vec<serde_json::Value> {
    let mut records: Vec<serde_json::Value> =
        std::io::BufReader::new(std::fs::File::open(path).expect("replays"))
            .lines()
            .map(|l| serde_json::from_str(&l.expect("a line")).expect("json"))
            .collect();
    records.sort_by_key(|r| r["match"].as_u64());
    records
}

/// `expert@N` plays as `expert` does at an arena budget of N, whatever the
/// arena's budget, while its opponent keeps the arena's.
#[test]
fn a_player_budget_overrides_the_arenas() {
    let at_arena = replay_lines(
        &[
            Player::Level(Level::Expert),
            Player::Level(Level::ExpertPlayouts),
        ],
        30,
        2,
        "arena-budget",
    );
    let own = replay_lines(
        &[
            Player::Budgeted(Level::Expert, 30),
            Player::Budgeted(Level::ExpertPlayouts, 30),
        ],
        500,
        2,
        "own-budget",
    );
    assert_eq!(at_arena, own);
    // Two budgets in one match: `expert@30` against `expert-playouts` at
    // the arena's 60 plays as both carrying their own (30 and 60), so each
    // player's budget is its own, not the other's.
    let both_own = replay_lines(
        &[
            Player::Budgeted(Level::Expert, 30),
            Player::Budgeted(Level::ExpertPlayouts, 60),
        ],
        500,
        2,
        "both-own-budget",
    );
    let mixed = replay_lines(
        &[
            Player::Budgeted(Level::Expert, 30),
            Player::Level(Level::ExpertPlayouts),
        ],
        60,
        2,
        "mixed-budget",
    );
    assert_eq!(both_own, mixed);
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
        duplicate: false,
        review: None,
    };
    let pairing = [Player::Level(Level::Greedy), Player::Level(Level::Random)];
    let table = arena.run(&pairing, None).expect("a run");
    let header = table.lines().next().unwrap_or_default();
    assert!(header.starts_with("muggins 2p, 2 matches, "), "{header}");
    assert!(header.ends_with(" hands, seed 3"), "{header}");
}

/// An arena of `matches` muggins matches between `pairing` from seed 4.
fn muggins(matches: usize, duplicate: bool) -> Arena {
    Arena {
        variant: "muggins".to_owned(),
        players: 2,
        partnerships: None,
        matches,
        seed: 4,
        playouts: 20,
        move_time: Duration::from_secs(1),
        jobs: 2,
        duplicate,
        review: None,
    }
}

/// With a review, the table adds each player's accuracy over the matches
/// (0 to 100, the random player's below the expert's over the same deals)
/// and the time a whole match's review took; the table above it is the
/// same as without.
#[test]
fn a_reviewed_arena_reports_each_players_accuracy() {
    let pairing = [Player::Level(Level::Expert), Player::Level(Level::Random)];
    let plain = muggins(6, false).run(&pairing, None).expect("a run");
    let reviewed = Arena {
        review: Some(100),
        ..muggins(6, false)
    }
    .run(&pairing, None)
    .expect("a run");
    let (table, review) = reviewed
        .split_once("review: ")
        .unwrap_or_else(|| panic!("no review: {reviewed}"));
    let without_times = |text: &str| -> Vec<String> {
        // The latency and playout columns are timings; the rest is exact.
        text.lines()
            .map(|line| {
                line.split_whitespace()
                    .take(11)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    assert_eq!(without_times(table), without_times(&plain));
    assert!(
        review.starts_with("expert 100 playouts a decision, every seat; a whole match "),
        "{review}"
    );
    assert!(review.contains(", 6 matches\n"), "{review}");
    let accuracy = |player: &str| -> f64 {
        // (Past the review's first line and the columns' names.)
        let line = review
            .lines()
            .skip(2)
            .find(|l| l.starts_with(player))
            .unwrap_or_else(|| panic!("no line for {player}: {review}"));
        let fields: Vec<&str> = line.split_whitespace().collect();
        let decisions: u64 = fields[fields.len() - 3].parse().expect("decisions");
        assert!(decisions > 0, "{line}");
        let points: f64 = fields[fields.len() - 1].parse().expect("points given");
        assert!(points.is_finite(), "{line}");
        fields[1].parse().expect("an accuracy")
    };
    let (expert, random) = (accuracy("expert"), accuracy("random"));
    assert!((0.0..=100.0).contains(&expert) && (0.0..=100.0).contains(&random));
    assert!(
        expert > random,
        "expert {expert}, random {random}: {review}"
    );
}

/// A player's line of the table: its hand win rate and points a hand.
fn hand_figures(table: &str, player: &str) -> (String, String) {
    let line = table
        .lines()
        .find(|l| l.starts_with(player))
        .unwrap_or_else(|| panic!("no line for {player}: {table}"));
    // The second rate is the hands'; the first signed number the points a
    // hand (the intervals are in brackets).
    let fields: Vec<&str> = line.split_whitespace().collect();
    let rate = fields.iter().filter(|f| f.ends_with('%')).nth(1);
    let net = fields.iter().find(|f| f.starts_with(['+', '-']));
    match (rate, net) {
        (Some(rate), Some(net)) => ((*rate).to_owned(), (*net).to_owned()),
        _ => panic!("no hand figures in {line:?}"),
    }
}

/// Duplicate deals: the two matches of a deal start from the same state
/// with the sides swapped; two copies of a player that plays the same
/// position the same way then play every deal to mirrored results, so
/// each wins exactly half the hands, and nets 0 points a hand.
#[test]
fn duplicate_deals_swap_the_sides_and_cancel_the_luck() {
    let path =
        std::env::temp_dir().join(format!("pips-arena-duplicate-{}.jsonl", std::process::id()));
    let replays = Mutex::new(std::fs::File::create(&path).expect("a file"));
    let arena = muggins(6, true);
    let greedy = Player::Level(Level::Greedy);
    let table = arena
        .run(&[greedy.clone(), greedy], Some(&replays))
        .expect("a run");
    assert!(
        table.contains("6 matches (3 deals, each played 2 times: the sides swapped)"),
        "{table}"
    );
    assert_eq!(
        hand_figures(&table, "greedy"),
        ("50.0%".to_owned(), "+0.00".to_owned()),
        "{table}"
    );
    drop(replays);
    let records = records(&path);
    for pair in records.chunks(2) {
        assert_eq!(pair[0]["state"], pair[1]["state"], "one deal");
        assert_eq!(pair[0]["sides"], serde_json::json!([0, 1]));
        assert_eq!(pair[1]["sides"], serde_json::json!([1, 0]));
    }
    let _ = std::fs::remove_file(&path);
    // Each deal is a deal of its own.
    assert_ne!(records[0]["state"]["seed"], records[2]["state"]["seed"]);
    // A count of matches that is not whole deals is refused.
    let refused = muggins(5, true).run(
        &[Player::Level(Level::Random), Player::Level(Level::Greedy)],
        None,
    );
    assert_eq!(
        refused,
        Err("--duplicate plays each deal 2 times: --matches must be a multiple of 2".to_owned())
    );
}

/// The hand figures add up: the two sides' hand win rates sum to 100%,
/// their points a hand are opposite, and a stronger player's are ahead.
#[test]
fn hand_figures_of_the_two_sides_are_complementary() {
    let table = muggins(20, false)
        .run(
            &[Player::Level(Level::Greedy), Player::Level(Level::Random)],
            None,
        )
        .expect("a run");
    let (greedy_rate, greedy_net) = hand_figures(&table, "greedy");
    let (random_rate, random_net) = hand_figures(&table, "random");
    let number = |s: &str| s.trim_end_matches('%').parse::<f64>().expect("a number");
    assert!(
        (number(&greedy_rate) + number(&random_rate) - 100.0).abs() < 0.11,
        "{table}"
    );
    assert!(
        (number(&greedy_net) + number(&random_net)).abs() < 0.011,
        "{table}"
    );
    assert!(
        number(&greedy_net) > 0.0,
        "greedy outscores random: {table}"
    );
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
