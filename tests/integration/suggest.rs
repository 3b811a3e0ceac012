//! `SuggestMove` against the real server: every level's suggestion is a
//! legal move in random positions of every preset, over gRPC and over
//! HTTP/JSON; a seat token suggests for its own seat only; a seat not to
//! act is refused; the server's cap stops a search that asks for more.

use crate::server;

use std::time::Duration;

use pips::proto::{self, BotLevel};
use pips::rules::presets::PRESETS;
use pips::server::Config;
use pips::service::keys::StateKeys;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use serde_json::json;
use server::{TestServer, post_json};
use tonic::Code;

fn suggest(
    state: proto::GameState,
    seat: u32,
    level: BotLevel,
    playouts: Option<u32>,
) -> proto::SuggestMoveRequest {
    proto::SuggestMoveRequest {
        state_source: Some(proto::suggest_move_request::StateSource::State(state)),
        seat,
        level: level as i32,
        playouts,
        time_budget_ms: None,
        seed: None,
    }
}

#[tokio::test]
async fn every_level_suggests_legal_moves_over_grpc_and_json() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut checked = 0;
    for preset in PRESETS {
        for players in preset.players.clone() {
            let mut update: proto::PlayResponse = client
                .new_game(proto::NewGameRequest {
                    variant: preset.id.to_owned(),
                    players: u32::from(players),
                    seed: Some(rng.random()),
                    ..Default::default()
                })
                .await
                .expect("deal")
                .into_inner()
                .into();
            for step in 0..60 {
                let Some(to_act) = update.to_act else { break };
                let state = update.state.clone().expect("state");
                if step % 4 == 0 {
                    for level in [BotLevel::Random, BotLevel::Greedy, BotLevel::Expert] {
                        let answer = client
                            .suggest_move(suggest(state.clone(), to_act, level, Some(60)))
                            .await
                            .expect("a suggestion")
                            .into_inner();
                        let mv = answer.r#move.expect("a move");
                        assert!(update.legal_moves.contains(&mv), "{level:?}: {mv:?}");
                        checked += 1;
                    }
                    // The same over JSON.
                    let body = json!({ "state": state, "seat": to_act, "level": "BOT_LEVEL_EXPERT", "playouts": 30 });
                    let answer = post_json(
                        &format!("{}/v1/SuggestMove", server.url()),
                        body.to_string(),
                    )
                    .await;
                    assert_eq!(answer.status, http::StatusCode::OK, "{}", answer.json());
                    let mv: proto::Move =
                        serde_json::from_value(answer.json()["move"].clone()).expect("a move");
                    assert!(update.legal_moves.contains(&mv));
                }
                let mv = update.legal_moves[rng.random_range(0..update.legal_moves.len())];
                update = client
                    .play(proto::PlayRequest {
                        state_source: Some(state.into()),
                        r#move: Some(mv),
                        ..Default::default()
                    })
                    .await
                    .expect("play")
                    .into_inner();
            }
        }
    }
    assert!(checked > 300, "{checked} suggestions");

    // A seat that is not to act is refused, by name.
    let deal = client
        .new_game(proto::NewGameRequest {
            variant: "muggins".to_owned(),
            players: 2,
            seed: Some(1),
            ..Default::default()
        })
        .await
        .expect("deal")
        .into_inner();
    let other = 1 - deal.to_act.expect("to act");
    let status = client
        .suggest_move(suggest(
            deal.state.clone().expect("state"),
            other,
            BotLevel::Greedy,
            None,
        ))
        .await
        .expect_err("not its turn");
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert!(
        status
            .message()
            .contains("ERROR_REASON_NOT_YOUR_TURN at seat"),
        "{}",
        status.message()
    );
    server.stop().await;
}

#[tokio::test]
async fn seat_tokens_and_the_servers_cap() {
    let keys = StateKeys::from_text(&"7e".repeat(32)).expect("a key");
    let server = TestServer::start_with(Config {
        state_keys: Some(keys),
        max_suggest: Duration::from_millis(20),
        ..Config::default()
    })
    .await;
    let mut client = server.client().await;
    let deal = client
        .new_game(proto::NewGameRequest {
            variant: "all_fives".to_owned(),
            players: 2,
            seed: Some(8),
            as_token: true,
            ..Default::default()
        })
        .await
        .expect("deal")
        .into_inner();
    let to_act = deal.to_act.expect("to act");
    let ask = |token: &[u8], seat: u32, playouts: Option<u32>| proto::SuggestMoveRequest {
        state_source: Some(proto::suggest_move_request::StateSource::StateToken(
            token.to_vec(),
        )),
        seat,
        level: BotLevel::Expert as i32,
        playouts,
        time_budget_ms: None,
        seed: Some(3),
    };
    let own = &deal.seat_tokens[to_act as usize];
    let other = &deal.seat_tokens[1 - to_act as usize];
    // The seat's own token: a suggestion.
    let answer = client
        .suggest_move(ask(own, to_act, Some(50)))
        .await
        .expect("its own seat")
        .into_inner();
    assert!(deal.legal_moves.contains(&answer.r#move.expect("a move")));
    // Another seat's token: refused.
    let status = client
        .suggest_move(ask(other, to_act, Some(50)))
        .await
        .expect_err("another seat");
    assert_eq!(status.code(), Code::PermissionDenied);
    // A budget far beyond the cap is cut by it: fewer playouts than asked.
    let answer = client
        .suggest_move(ask(&deal.state_token, to_act, Some(1_000_000)))
        .await
        .expect("capped")
        .into_inner();
    assert!(answer.playouts < 1_000_000, "{} playouts", answer.playouts);
    assert!(deal.legal_moves.contains(&answer.r#move.expect("a move")));
    server.stop().await;
}
