//! The trick games' contract as a client reads it over HTTP/JSON from the
//! real server: the points game's own defaults, what `declarer`, `leader`
//! and `handLeader` hold through an auction, one meaning of a hand's
//! `winner` and of `pointsScored.bidder` across Texas 42 and Moon, and
//! the states and options the rules refuse, each naming its field.

use http::StatusCode;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

use crate::server::{TestServer, post_json};

/// `rpc`'s answer to `body`, which must be OK.
async fn ok(server: &TestServer, rpc: &str, body: &Value) -> Value {
    let answer = post_json(&format!("{}/v1/{rpc}", server.url()), body.to_string()).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.json());
    answer.json()
}

/// `rpc`'s refusal of `body`: a bad request naming `field`; its message.
async fn refused(server: &TestServer, rpc: &str, body: &Value, field: &str) -> String {
    let answer = post_json(&format!("{}/v1/{rpc}", server.url()), body.to_string()).await;
    let error = answer.json();
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{error}");
    assert_eq!(error["field"], field, "{error}");
    error["message"].as_str().unwrap_or_default().to_owned()
}

/// The answer to `mv` played on `update`'s state.
async fn play(server: &TestServer, update: &Value, mv: Value) -> Value {
    ok(
        server,
        "Play",
        &json!({ "state": update["state"], "move": mv }),
    )
    .await
}

/// A new match of `variant` for `players` dealt from `seed`.
async fn new_game(server: &TestServer, variant: &str, players: u64, seed: u64) -> Value {
    let body = json!({ "variant": variant, "players": players, "seed": seed.to_string() });
    ok(server, "NewGame", &body).await
}

/// A new match's state (dealt from seed 2) with `part` replaced by
/// `value`.
async fn altered(
    server: &TestServer,
    variant: &str,
    players: u64,
    part: &str,
    value: Value,
) -> Value {
    let mut state = new_game(server, variant, players, 2).await["state"].clone();
    state[part] = value;
    state
}

/// `View` of `state` refused naming `field`: its message.
async fn view_refused(server: &TestServer, state: Value, field: &str) -> String {
    refused(server, "View", &json!({ "state": state, "seat": 0 }), field).await
}

/// The legal move of `update` that `pick` chooses, else a random one.
fn choose(update: &Value, rng: &mut ChaCha8Rng, pick: impl Fn(&Value) -> bool) -> Value {
    let legal = update["legalMoves"].as_array().expect("legal moves");
    legal
        .iter()
        .find(|mv| pick(mv))
        .cloned()
        .unwrap_or_else(|| legal[rng.random_range(0..legal.len())].clone())
}

#[tokio::test]
async fn the_points_game_brings_its_own_target_and_plays_every_trick() {
    let server = TestServer::start().await;
    let points = |extra: Value| {
        let mut rules = json!({ "scoring": "TRICK_SCORING_POINTS" });
        if let (Some(rules), Some(extra)) = (rules.as_object_mut(), extra.as_object()) {
            rules.extend(extra.clone());
        }
        json!({ "variant": "texas42", "players": 4, "seed": "7", "rules": rules })
    };
    let update = ok(&server, "NewGame", &points(json!({}))).await;
    let rules = &update["state"]["rules"];
    assert_eq!(rules["target"], 250, "{rules}");
    assert_eq!(rules["playOut"], true, "{rules}");
    // Each default is still overridable.
    let update = ok(&server, "NewGame", &points(json!({ "target": 100 }))).await;
    assert_eq!(update["state"]["rules"]["target"], 100);
    let message = refused(
        &server,
        "NewGame",
        &points(json!({ "playOut": false })),
        "rules.play_out",
    )
    .await;
    assert!(message.contains("play_out must be on"), "{message}");
    // The marks game keeps its own.
    let update = new_game(&server, "texas42", 4, 7).await;
    assert_eq!(update["state"]["rules"]["target"], 7);
    assert_eq!(update["state"]["rules"]["playOut"], false);
    // A points match plays past its first hand: 42 points a hand at most
    // cannot reach 250 in one.
    let mut update = ok(&server, "NewGame", &points(json!({}))).await;
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut hands_ended = 0;
    while hands_ended < 2 {
        assert_ne!(update["state"]["phase"], "PHASE_MATCH_OVER", "{update}");
        let mv = choose(&update, &mut rng, |_| false);
        update = play(&server, &update, mv).await;
        for event in update["events"].as_array().expect("events") {
            if let Some(ended) = event.get("handEnded") {
                hands_ended += 1;
                let settlement = ended["settlement"].as_array().expect("settlement");
                let total: i64 = settlement.iter().filter_map(Value::as_i64).sum();
                assert!(total >= 42, "every trick played and counted: {ended}");
            }
        }
    }
    server.stop().await;
}

/// Walks a Texas 42 hand through its auction, naming and first trick,
/// checking at each step what the trick table's seats hold.
#[tokio::test]
async fn the_declarer_and_the_leader_are_set_only_once_true() {
    let server = TestServer::start().await;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for seed in 1..=12u64 {
        let mut update = ok(
            &server,
            "NewGame",
            &json!({ "variant": "texas42", "players": 4, "seed": seed.to_string(),
                     "rules": { "plunge": true, "splash": true } }),
        )
        .await;
        let shaker = update["state"]["tricks"]["shaker"]
            .as_u64()
            .expect("shaker");
        let first_bidder = (shaker + 1) % 4;
        // handLeader names the seat that acts first: the first bidder.
        assert_eq!(update["state"]["handLeader"], first_bidder);
        assert_eq!(update["toAct"], first_bidder);
        let mut bids = 0;
        loop {
            let tricks = &update["state"]["tricks"];
            let stage = tricks["stage"].as_str().expect("stage").to_owned();
            match stage.as_str() {
                "TRICK_STAGE_BIDDING" => {
                    assert!(tricks.get("declarer").is_none(), "{tricks}");
                    assert_eq!(tricks["leader"], 0, "nobody leads yet: {tricks}");
                }
                "TRICK_STAGE_NAMING" => {
                    let declarer = &tricks["declarer"];
                    assert!(declarer.is_u64(), "{tricks}");
                    assert_eq!(&tricks["leader"], declarer, "{tricks}");
                    assert_eq!(&update["toAct"], declarer, "{tricks}");
                    let bidder = tricks["bidder"].as_u64().expect("bidder");
                    let partnered = tricks["bid"].get("plunge").is_some()
                        || tricks["bid"].get("splash").is_some();
                    let expected = if partnered { (bidder + 2) % 4 } else { bidder };
                    assert_eq!(declarer.as_u64(), Some(expected), "{tricks}");
                }
                "TRICK_STAGE_PLAYING" => {
                    // Before the first lead the declarer leads it.
                    assert_eq!(tricks["leader"], tricks["declarer"], "{tricks}");
                    assert_eq!(update["toAct"], tricks["leader"], "{tricks}");
                    break;
                }
                other => panic!("stage {other}: {tricks}"),
            }
            // Bid now and then, so that auctions are won by different
            // seats (and a plunge where one is open).
            bids += 1;
            let mv = choose(&update, &mut rng, |mv| {
                (mv["bid"].get("plunge").is_some()) || (bids % 3 == 1 && mv.get("bid").is_some())
            });
            update = play(&server, &update, mv).await;
            for event in update["events"].as_array().expect("events") {
                if let Some(dealt) = event.get("handDealt") {
                    // An all-pass reshake: the next hand's first bidder.
                    let shaker = update["state"]["tricks"]["shaker"]
                        .as_u64()
                        .expect("shaker");
                    assert_eq!(dealt["leader"], (shaker + 1) % 4, "{dealt}");
                }
            }
            // The state is accepted back as written, by a second call.
            let view = json!({ "state": update["state"], "seat": 0 });
            ok(&server, "View", &view).await;
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn a_hands_winner_and_the_bidders_points_mean_one_thing_at_every_trick_game() {
    let server = TestServer::start().await;
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (mut made, mut set) = (0, 0);
    for (variant, players) in [("moon", 3u64), ("texas42", 4)] {
        for seed in 1..=3u64 {
            let mut update = new_game(&server, variant, players, seed).await;
            let side_of = |seat: u64| if players == 4 { seat % 2 } else { seat };
            let mut decided = false;
            while update["state"]["phase"] != "PHASE_MATCH_OVER" {
                let mv = choose(&update, &mut rng, |_| false);
                update = play(&server, &update, mv).await;
                let events = update["events"].as_array().expect("events");
                decided |= events.iter().any(|e| e.get("handDecided").is_some());
                let Some(ended) = events.iter().find_map(|e| e.get("handEnded")) else {
                    continue;
                };
                let Some(bidder) = ended["bidder"].as_u64() else {
                    continue; // every seat passed
                };
                let settlement: Vec<i64> = ended["settlement"]
                    .as_array()
                    .expect("settlement")
                    .iter()
                    .filter_map(Value::as_i64)
                    .collect();
                let winner = ended.get("winner").and_then(Value::as_u64);
                match ended["reason"].as_str() {
                    Some("HAND_END_REASON_MADE") => {
                        made += 1;
                        assert_eq!(winner, Some(side_of(bidder)), "{ended}");
                    }
                    Some("HAND_END_REASON_SET") => {
                        set += 1;
                        let expected = if players == 4 {
                            Some(1 - side_of(bidder))
                        } else {
                            // The other seat that took the more tricks
                            // (scored the more), none on a tie.
                            let others: Vec<u64> = (0..3).filter(|&s| s != bidder).collect();
                            let score = |s: u64| settlement[s as usize];
                            match score(others[0]).cmp(&score(others[1])) {
                                std::cmp::Ordering::Equal => None,
                                std::cmp::Ordering::Greater => Some(others[0]),
                                std::cmp::Ordering::Less => Some(others[1]),
                            }
                        };
                        assert_eq!(winner, expected, "{ended}");
                    }
                    other => panic!("a bid hand ends made or set: {other:?} {ended}"),
                }
                // The bidder is named on his side's points alone.
                for scored in events.iter().filter_map(|e| e.get("pointsScored")) {
                    let side = scored["side"].as_u64().expect("side");
                    let named = scored.get("bidder").and_then(Value::as_u64);
                    if side == side_of(bidder) {
                        assert_eq!(named, Some(bidder), "{scored}");
                    } else {
                        assert_eq!(named, None, "{scored}");
                    }
                }
                // What a client reads instead of a placing game's pips:
                // the hand was decided, with what each side took.
                assert!(ended.get("pips").is_none_or(|p| p == &json!([])));
                assert!(decided, "a handDecided before {ended}");
                decided = false;
            }
        }
    }
    assert!(made > 0 && set > 0, "made {made}, set {set}");
    server.stop().await;
}

#[tokio::test]
async fn moon_refuses_a_scoring_and_bounds_its_scores() {
    let server = TestServer::start().await;
    for scoring in ["TRICK_SCORING_MARKS", "TRICK_SCORING_POINTS"] {
        let body = json!({ "variant": "moon", "players": 3,
                           "rules": { "scoring": scoring } });
        let message = refused(&server, "NewGame", &body, "rules.scoring").await;
        assert!(message.contains("Moon is scored in tricks"), "{message}");
    }
    let update = new_game(&server, "moon", 3, 4).await;
    assert!(
        update["state"]["rules"].get("scoring").is_none(),
        "{}",
        update["state"]["rules"]
    );
    // A state written with the placeholder earlier versions wrote is read.
    let mut state = update["state"].clone();
    state["rules"]["scoring"] = json!("TRICK_SCORING_MARKS");
    ok(&server, "View", &json!({ "state": state, "seat": 0 })).await;
    // Scores: a set bidder loses at most 21 a hand, so in hand 1 nobody
    // is below 0, and in hand 3 nobody below −42.
    let mut state = update["state"].clone();
    state["scores"] = json!([-100_000, 0, 0]);
    let message = view_refused(&server, state, "state.scores[0]").await;
    assert!(message.contains("lowest a Moon seat can fall"), "{message}");
    let mut state = update["state"].clone();
    state["handNumber"] = json!(3);
    state["scores"] = json!([-42, 5, 10]);
    ok(
        &server,
        "View",
        &json!({ "state": state.clone(), "seat": 0 }),
    )
    .await;
    state["scores"] = json!([-43, 5, 10]);
    view_refused(&server, state, "state.scores[0]").await;
    server.stop().await;
}

#[tokio::test]
async fn a_table_the_game_does_not_have_is_refused_not_dropped() {
    let server = TestServer::start().await;
    // A Texas 42 state with a boneyard (here two 6-6s).
    let boneyard = json!([{ "a": 6, "b": 6 }, { "a": 6, "b": 6 }]);
    let state = altered(&server, "texas42", 4, "boneyard", boneyard).await;
    let message = view_refused(&server, state, "state.boneyard").await;
    assert!(message.contains("no boneyard"), "{message}");
    // A line's and a train table's state with a trick table.
    for (variant, players) in [("muggins", 2), ("mexican_train", 4)] {
        for table in [json!({}), json!({ "shaker": 1, "leader": 2 })] {
            let state = altered(&server, variant, players, "tricks", table).await;
            let message = view_refused(&server, state, "state.tricks").await;
            assert!(message.contains("no trick table"), "{message}");
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn a_history_too_long_names_the_games_own_bound() {
    let server = TestServer::start().await;
    let passes = json!(vec![json!({ "seat": 0, "pass": {} }); 171]);
    let state = altered(&server, "muggins", 2, "history", passes).await;
    let message = view_refused(&server, state, "state.history").await;
    assert!(message.contains("more than a hand of 170"), "{message}");
    server.stop().await;
}
