//! The match notation (docs/notation.md) round-trips: a random match of
//! every preset and seat count, and of random house rules, written as text
//! and read back is the same match, move for move, to the same digest.

use crate::common;

use common::house::house_rules;
use pips::rules::presets::PRESETS;
use pips::rules::{Game, Move, Rules};
use pips::service::engine::Engine;
use pips::service::notation::{read, write};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// House-rule combinations tried (those the engine refuses are skipped).
const COMBINATIONS: u64 = 1_500;
/// Moves a match is played to at most (a record of part of a match is a
/// record too).
const MOST_MOVES: usize = 4_000;

/// A random match of `variant` under `rules` dealt from `seed`: its first
/// state, its moves and its last state.
fn random_match(variant: &str, rules: Rules, players: u8, seed: u64) -> (Game, Vec<Move>, Game) {
    let (first, _) = Game::new(variant, rules, players, seed).expect("deals");
    let (moves, last) = random_moves(&first, seed, MOST_MOVES);
    (first, moves, last)
}

/// Up to `most` random moves from `first`, chosen from `seed`, and the
/// game after them.
fn random_moves(first: &Game, seed: u64, most: usize) -> (Vec<Move>, Game) {
    let mut game = first.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    while game.outcome().is_none() && moves.len() < most {
        let legal = game.legal_moves();
        let mv = legal[rng.random_range(0..legal.len())];
        game.play(mv).expect("legal");
        moves.push(mv);
    }
    (moves, game)
}

/// An all_fives match for three dealt from seed 8 by the server `client`
/// talks to: its `NewGame` answer.
async fn deal_all_fives(
    client: &mut pips::proto::domino_engine_service_client::DominoEngineServiceClient<
        tonic::transport::Channel,
    >,
) -> pips::proto::NewGameResponse {
    client
        .new_game(pips::proto::NewGameRequest {
            variant: "all_fives".to_owned(),
            players: 3,
            seed: Some(8),
            ..Default::default()
        })
        .await
        .expect("dealt")
        .into_inner()
}

/// The match written and read back is the same, or why not.
fn round_trips(first: &Game, moves: &[Move], last: &Game) -> Result<(), String> {
    let text = write(first, first.seed(), moves).map_err(|e| e.to_string())?;
    let notated = read(&text, |request| {
        Engine::default().deal(request).map(|(game, _)| game)
    })
    .map_err(|e| format!("{e}\n{text}"))?;
    if notated.moves != moves {
        return Err(format!("other moves read back\n{text}"));
    }
    if notated.last.digest() != last.digest() || notated.last != *last {
        return Err(format!("another match read back\n{text}"));
    }
    Ok(())
}

#[test]
fn every_preset_and_seat_count_round_trips() {
    let mut matches = 0;
    for preset in PRESETS {
        for players in preset.players.clone() {
            for seed in 0..3 {
                let (first, moves, last) =
                    random_match(preset.id, preset.rules(players, None), players, seed);
                if let Err(error) = round_trips(&first, &moves, &last) {
                    panic!("{} {players}p seed {seed}: {error}", preset.id);
                }
                matches += 1;
            }
        }
    }
    assert!(matches > 150, "{matches} matches");
}

#[test]
fn random_house_rules_round_trip() {
    let (mut tried, mut failures) = (0, Vec::new());
    for seed in 0..COMBINATIONS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (variant, rules, players) = house_rules(&mut rng);
        // (Only what a NewGame deals: the preset's seat counts.)
        let dealt = PRESETS
            .iter()
            .any(|p| p.id == variant && p.players.contains(&players));
        if rules.validate(players).is_err() || !dealt {
            continue;
        }
        tried += 1;
        let (first, moves, last) = random_match(variant, rules, players, seed);
        if let Err(error) = round_trips(&first, &moves, &last) {
            failures.push(format!(
                "seed {seed}: {variant} {players}p {rules:?}: {error}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {tried} failed:\n{}",
        failures.len(),
        failures
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    eprintln!("{tried} house-rule combinations round-trip");
    assert!(tried >= 100, "only {tried} combinations were playable");
}

/// `Replay` over HTTP/JSON takes a match's notation instead of a state
/// and moves, and refuses one that does not read, naming the line.
#[tokio::test]
async fn replay_takes_the_notation_and_names_the_line_of_a_fault() {
    use http::StatusCode;
    use serde_json::json;

    let server = crate::server::TestServer::start().await;
    let url = format!("{}/v1/Replay", server.url());
    let preset = PRESETS.iter().find(|p| p.id == "muggins").expect("muggins");
    let (first, moves, last) = random_match("muggins", preset.rules(2, None), 2, 42);
    let text = write(&first, 42, &moves).expect("written");
    let answer = crate::server::post_json(&url, json!({ "notation": text }).to_string()).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.json());
    let replayed = answer.json();
    assert_eq!(
        replayed["steps"].as_array().map(Vec::len),
        Some(moves.len())
    );
    let digest = replayed["matchDigest"]
        .as_str()
        .expect("a digest")
        .to_owned();
    use base64::Engine as _;
    assert_eq!(
        base64::engine::general_purpose::STANDARD
            .decode(digest)
            .expect("base64"),
        last.digest().0.to_vec()
    );
    for (body, words) in [
        (
            json!({ "notation": "[Preset \"muggins\"]\n[Seats \"2\"]\n[Seed \"42\"]\n1: 6-6 9-9L" }),
            "line 4",
        ),
        (json!({ "notation": "[Seats \"2\"]" }), "Preset"),
        (
            json!({ "notation": text, "moves": [{ "pass": {} }] }),
            "not both",
        ),
    ] {
        let answer = crate::server::post_json(&url, body.to_string()).await;
        let error = answer.json();
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{error}");
        assert_eq!(
            error["reason"], "ERROR_REASON_MALFORMED_NOTATION",
            "{error}"
        );
        assert_eq!(error["field"], "notation", "{error}");
        assert!(
            error["message"].as_str().is_some_and(|m| m.contains(words)),
            "{error}"
        );
    }
    server.stop().await;
}

/// `Replay` answers a match's notation when this server deals its first
/// state again from the state's seed (a match its `NewGame` dealt): the
/// notation replays to the same digest. A state this server would not
/// deal so (dealt by a server with a state key, whose seeds are sealed;
/// or changed by hand) gets none.
#[tokio::test]
async fn replay_answers_the_notation_of_a_match_this_server_deals() {
    use pips::proto;
    use pips::service::codec::{encode_move, encode_state};

    let server = crate::server::TestServer::start().await;
    let mut client = server.client().await;
    let dealt = deal_all_fives(&mut client).await;
    let state = dealt.state.expect("a state");
    let first = pips::service::codec::decode_state(Some(&state), "state").expect("a game");
    let (moves, last) = random_moves(&first, 8, 300);
    let wire: Vec<proto::Move> = moves.iter().map(|&mv| encode_move(mv)).collect();
    let replay = |state: proto::GameState| proto::ReplayRequest {
        state_source: Some(proto::replay_request::StateSource::State(state)),
        moves: wire.clone(),
        ..Default::default()
    };
    let answer = client
        .replay(replay(state.clone()))
        .await
        .expect("replayed")
        .into_inner();
    assert_eq!(answer.notation, write(&first, 8, &moves).expect("written"));
    let again = client
        .replay(proto::ReplayRequest {
            notation: answer.notation.clone(),
            ..Default::default()
        })
        .await
        .expect("the notation replays")
        .into_inner();
    assert_eq!(again.match_digest, last.digest().0.to_vec());
    assert_eq!(again.notation, answer.notation);
    // A state this server would not deal from its seed (its seed changed:
    // only its first hand plays as it was): none.
    let mut changed = encode_state(&first);
    changed.seed = changed.seed.wrapping_add(1);
    let mut game = first.clone();
    let first_hand = moves
        .iter()
        .take_while(|&&mv| game.hand_number() == 1 && game.play(mv).is_ok())
        .count();
    let answer = client
        .replay(proto::ReplayRequest {
            moves: wire[..first_hand].to_vec(),
            ..replay(changed)
        })
        .await
        .expect("replayed")
        .into_inner();
    assert_eq!(answer.notation, "");
    server.stop().await;

    let keyed = crate::server::TestServer::start_with(pips::server::Config {
        state_keys: Some(
            pips::service::keys::StateKeys::from_text(&"ab".repeat(32)).expect("a key"),
        ),
        ..pips::server::Config::default()
    })
    .await;
    let mut client = keyed.client().await;
    let dealt = deal_all_fives(&mut client).await;
    let answer = client
        .replay(proto::ReplayRequest {
            state_source: dealt.state.map(proto::replay_request::StateSource::State),
            ..Default::default()
        })
        .await
        .expect("replayed")
        .into_inner();
    assert_eq!(answer.notation, "", "a sealed seed deals no notation");
    keyed.stop().await;
}

/// Every move's events name it: the first event a move makes carries the
/// move's own token, over random matches of every preset and seat count.
#[test]
fn each_move_s_event_carries_its_token() {
    use pips::rules::notation::{action_of, token};
    use pips::service::codec::encode_events;

    for preset in PRESETS {
        for players in preset.players.clone() {
            let (first, moves, _) =
                random_match(preset.id, preset.rules(players, None), players, 5);
            let mut game = first.clone();
            for mv in moves.iter().take(400) {
                let report = game.play(*mv).expect("legal");
                let made = report.events.iter().find_map(action_of);
                assert_eq!(made, Some(mv.action), "{} {players}p: {mv:?}", preset.id);
                let wire = encode_events(&report.events, &game, None);
                let written = wire
                    .iter()
                    .find(|e| !e.token.is_empty())
                    .map(|e| e.token.clone());
                assert_eq!(
                    written,
                    Some(token(mv.action).to_string()),
                    "{} {players}p",
                    preset.id
                );
            }
        }
    }
}
