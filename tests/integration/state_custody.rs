//! Untrusted clients against the real server: tagged states, sealed and
//! open tokens, key rotation, seat tokens, and the limits.

use std::collections::HashSet;
use std::time::Duration;

use pips::proto;
use pips::server::Config;
use pips::service::keys::StateKeys;
use prost::Message;
use tonic::Code;
use tonic_types::StatusExt;

use crate::server;
use server::TestServer;

const KEY_A: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const KEY_B: &str = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";

fn keyed(keys: &str) -> Config {
    Config {
        state_keys: Some(StateKeys::from_text(keys).expect("keys")),
        ..Config::default()
    }
}

fn new_game(as_token: bool) -> proto::NewGameRequest {
    proto::NewGameRequest {
        variant: "muggins".to_owned(),
        players: 3,
        seed: Some(12),
        as_token,
        ..Default::default()
    }
}

fn refusal(result: Result<impl std::fmt::Debug, tonic::Status>) -> (Code, String) {
    let status = result.expect_err("refused");
    let reason = status
        .get_error_details()
        .error_info()
        .map(|info| info.reason.clone())
        .unwrap_or_default();
    (status.code(), reason)
}

#[tokio::test]
async fn signed_states_refuse_missing_and_altered_tags() {
    let addr = TestServer::start_with(keyed(KEY_A)).await;
    let mut engine = addr.client().await;
    let update = engine
        .new_game(new_game(false))
        .await
        .expect("deal")
        .into_inner();
    let state = update.state.expect("state");
    assert_eq!(state.seed, 0, "a keyed server never shows the seed");
    assert!(!state.sealed_seed.is_empty() && !state.tag.is_empty());
    let mv = update.legal_moves[0];
    let play = |state: proto::GameState| proto::PlayRequest {
        state_source: Some(state.into()),
        r#move: Some(mv),
        ..Default::default()
    };
    let next = engine
        .play(play(state.clone()))
        .await
        .expect("a signed state plays");
    assert!(!next.into_inner().state.expect("state").tag.is_empty());

    let mut untagged = state.clone();
    untagged.tag.clear();
    let result = engine.play(play(untagged)).await;
    assert_eq!(
        refusal(result),
        (
            Code::Unauthenticated,
            "ERROR_REASON_STATE_TAG_MISSING".to_owned()
        )
    );

    let mut richer = state.clone();
    richer.scores[1] += 50;
    let result = engine.play(play(richer)).await;
    assert_eq!(
        refusal(result),
        (
            Code::InvalidArgument,
            "ERROR_REASON_STATE_TAG_INVALID".to_owned()
        )
    );

    // Forge a better hand: swap a tile with the boneyard.
    let mut forged = state.clone();
    std::mem::swap(&mut forged.boneyard[0], &mut forged.hands[0].tiles[0]);
    let result = engine.play(play(forged)).await;
    assert_eq!(
        refusal(result),
        (
            Code::InvalidArgument,
            "ERROR_REASON_STATE_TAG_INVALID".to_owned()
        )
    );

    // A state signed by another server's key.
    let other = TestServer::start_with(keyed(KEY_B)).await;
    let result = other.client().await.play(play(state.clone())).await;
    assert_eq!(
        refusal(result),
        (
            Code::InvalidArgument,
            "ERROR_REASON_STATE_TAG_INVALID".to_owned()
        )
    );

    // A server without a key does not take signed states either.
    let plain = TestServer::start_with(Config::default()).await;
    let result = plain.client().await.play(play(state)).await;
    assert_eq!(
        refusal(result),
        (
            Code::InvalidArgument,
            "ERROR_REASON_STATE_TAG_INVALID".to_owned()
        )
    );
}

#[tokio::test]
async fn keyed_deals_cannot_be_predicted_from_the_seed() {
    let keyed_addr = TestServer::start_with(keyed(KEY_A)).await;
    let plain_addr = TestServer::start_with(Config::default()).await;
    let keyed_deal = keyed_addr
        .client()
        .await
        .new_game(new_game(false))
        .await
        .expect("deal");
    let plain_deal = plain_addr
        .client()
        .await
        .new_game(new_game(false))
        .await
        .expect("deal");
    let hands = |update: proto::NewGameResponse| update.state.expect("state").hands;
    assert_ne!(
        hands(keyed_deal.into_inner()),
        hands(plain_deal.into_inner()),
        "with a key, the same requested seed deals differently"
    );
}

#[tokio::test]
async fn tokens_rotate_and_other_keys_are_refused() {
    let old_addr = TestServer::start_with(keyed(KEY_A)).await;
    let update = old_addr
        .client()
        .await
        .new_game(new_game(true))
        .await
        .expect("sealed")
        .into_inner();
    assert!(
        update.state.is_none(),
        "a sealed answer has no readable state"
    );
    assert_eq!(update.seat_tokens.len(), 3);
    let token = update.state_token.clone();
    let mv = update.legal_moves[0];
    let play = |token: Vec<u8>| proto::PlayRequest {
        state_source: Some(token.into()),
        r#move: Some(mv),
        ..Default::default()
    };

    // Rotated: B is current, A previous. The old token still plays.
    let rotated = TestServer::start_with(keyed(&format!("{KEY_B},{KEY_A}"))).await;
    let next = rotated
        .client()
        .await
        .play(play(token.clone()))
        .await
        .expect("previous key accepted");
    assert!(!next.into_inner().state_token.is_empty());

    // A server that only knows B refuses it.
    let stranger = TestServer::start_with(keyed(KEY_B)).await;
    let result = stranger.client().await.play(play(token.clone())).await;
    assert_eq!(
        refusal(result),
        (
            Code::InvalidArgument,
            "ERROR_REASON_STATE_TOKEN_INVALID".to_owned()
        )
    );

    // An altered token is refused.
    let mut bent = token.clone();
    if let Some(byte) = bent.get_mut(30) {
        *byte ^= 0x40;
    }
    let result = old_addr.client().await.play(play(bent)).await;
    assert_eq!(
        refusal(result),
        (
            Code::InvalidArgument,
            "ERROR_REASON_STATE_TOKEN_INVALID".to_owned()
        )
    );

    // A server without a key neither opens a sealed token nor makes one:
    // its tokens are open, and a keyed server refuses those.
    let plain_addr = TestServer::start_with(Config::default()).await;
    let result = plain_addr.client().await.play(play(token.clone())).await;
    assert_eq!(
        refusal(result),
        (
            Code::InvalidArgument,
            "ERROR_REASON_STATE_TOKEN_INVALID".to_owned()
        )
    );
    let open = plain_addr
        .client()
        .await
        .new_game(new_game(true))
        .await
        .expect("an open token")
        .into_inner();
    let result = old_addr.client().await.play(play(open.state_token)).await;
    assert_eq!(
        refusal(result),
        (
            Code::InvalidArgument,
            "ERROR_REASON_STATE_TOKEN_INVALID".to_owned()
        )
    );
}

/// Plays a whole match twice on a server without a key, once passing the
/// readable state along and once passing open tokens, with the same moves:
/// every answer must be the same but for the form of the state.
#[tokio::test]
async fn open_tokens_play_the_same_match_as_readable_states() {
    let addr = TestServer::start_with(Config::default()).await;
    let mut engine = addr.client().await;
    let mut readable: proto::PlayResponse = engine
        .new_game(new_game(false))
        .await
        .expect("deal")
        .into_inner()
        .into();
    let mut tokened: proto::PlayResponse = engine
        .new_game(new_game(true))
        .await
        .expect("deal")
        .into_inner()
        .into();
    let mut calls = 0;
    loop {
        assert!(
            tokened.state.is_none(),
            "a token answer has no readable state"
        );
        assert!(!tokened.state_token.is_empty());
        assert!(
            tokened.seat_tokens.is_empty(),
            "no seat tokens without a key"
        );
        let view_of = |source: proto::view_request::StateSource| proto::ViewRequest {
            state_source: Some(source),
            seat: 1,
        };
        let by_state = engine
            .view(view_of(readable.state.clone().expect("state").into()))
            .await
            .expect("view by state")
            .into_inner();
        let by_token = engine
            .view(view_of(tokened.state_token.clone().into()))
            .await
            .expect("view by token")
            .into_inner();
        assert_eq!(by_state, by_token, "after {calls} calls");
        let what = |u: &proto::PlayResponse| {
            (
                u.events.clone(),
                u.score_change.clone(),
                u.to_act,
                u.legal_moves.clone(),
                u.match_digest.clone(),
            )
        };
        assert_eq!(what(&readable), what(&tokened), "after {calls} calls");
        let state = readable.state.take().expect("state");
        let Some(&mv) = readable
            .legal_moves
            .get(calls % readable.legal_moves.len().max(1))
        else {
            break;
        };
        readable = engine
            .play(proto::PlayRequest {
                state_source: Some(state.into()),
                r#move: Some(mv),
                ..Default::default()
            })
            .await
            .expect("play by state")
            .into_inner();
        tokened = engine
            .play(proto::PlayRequest {
                state_source: Some(tokened.state_token.into()),
                r#move: Some(mv),
                ..Default::default()
            })
            .await
            .expect("play by token")
            .into_inner();
        calls += 1;
    }
    assert!(calls > 50, "a whole match: {calls} calls");
    assert!(readable.to_act.is_none(), "the match is over");

    // An open token is checked like a readable state.
    let mut packed = proto::PackedState::decode(tokened.state_token.as_slice()).expect("packed");
    packed.boneyard.push(200);
    let result = engine
        .legal_moves(proto::LegalMovesRequest {
            state_source: Some(packed.encode_to_vec().into()),
        })
        .await;
    let status = result.expect_err("refused");
    let info = status
        .get_error_details()
        .error_info()
        .expect("info")
        .clone();
    assert_eq!(info.reason, "ERROR_REASON_INVALID_TILE");
    let field = status
        .get_error_details()
        .bad_request()
        .expect("field")
        .field_violations[0]
        .field
        .clone();
    assert_eq!(
        field,
        format!("state_token.boneyard[{}]", packed.boneyard.len() - 1)
    );
    let result = engine
        .legal_moves(proto::LegalMovesRequest {
            state_source: Some(b"not a state".to_vec().into()),
        })
        .await;
    assert_eq!(
        refusal(result),
        (
            Code::InvalidArgument,
            "ERROR_REASON_STATE_TOKEN_INVALID".to_owned()
        )
    );
}

#[tokio::test]
async fn a_seat_token_sees_and_moves_only_its_own_seat() {
    let addr = TestServer::start_with(keyed(KEY_A)).await;
    let mut engine = addr.client().await;
    // A readable copy of the same deal, to know what is hidden.
    let sealed = engine
        .new_game(new_game(true))
        .await
        .expect("sealed")
        .into_inner();
    let full = sealed.state_token.clone();
    let mut to_act = sealed.to_act.expect("to act");
    let mut tokens = sealed.seat_tokens.clone();
    let mut full_token = full;
    for _ in 0..60 {
        // Every seat's view through its own token shows only its own tiles.
        let mut seen = Vec::new();
        for (seat, token) in tokens.iter().enumerate() {
            let view = engine
                .view(proto::ViewRequest {
                    state_source: Some(token.clone().into()),
                    seat: seat as u32,
                })
                .await
                .expect("own view")
                .into_inner();
            seen.push(view.hand.iter().map(|t| (t.a, t.b)).collect::<HashSet<_>>());
            let other = (seat as u32 + 1) % 3;
            let result = engine
                .view(proto::ViewRequest {
                    state_source: Some(token.clone().into()),
                    seat: other,
                })
                .await;
            assert_eq!(
                refusal(result),
                (
                    Code::PermissionDenied,
                    "ERROR_REASON_SEAT_NOT_PERMITTED".to_owned()
                )
            );
        }
        for (i, a) in seen.iter().enumerate() {
            for b in seen.iter().skip(i + 1) {
                assert!(a.is_disjoint(b), "two seats' views share tiles");
            }
        }
        // The seat to act moves with its own token; another seat's token is refused.
        let own = tokens[to_act as usize].clone();
        let moves = engine
            .legal_moves(proto::LegalMovesRequest {
                state_source: Some(own.clone().into()),
            })
            .await
            .expect("moves")
            .into_inner()
            .legal_moves;
        let mv = moves[0];
        let stranger = tokens[((to_act + 1) % 3) as usize].clone();
        let result = engine
            .play(proto::PlayRequest {
                state_source: Some(stranger.into()),
                r#move: Some(mv),
                ..Default::default()
            })
            .await;
        assert_eq!(
            refusal(result),
            (
                Code::PermissionDenied,
                "ERROR_REASON_SEAT_NOT_PERMITTED".to_owned()
            )
        );
        let answer = engine
            .play(proto::PlayRequest {
                state_source: Some(own.into()),
                r#move: Some(mv),
                ..Default::default()
            })
            .await
            .expect("own move")
            .into_inner();
        assert!(
            answer.seat_tokens.is_empty(),
            "a seat token gets only its own token back"
        );
        // The backend, holding the full token, plays the same move to get
        // everyone's next tokens.
        let backend = engine
            .play(proto::PlayRequest {
                state_source: Some(full_token.clone().into()),
                r#move: Some(mv),
                ..Default::default()
            })
            .await
            .expect("backend move")
            .into_inner();
        let Some(next) = backend.to_act else {
            return;
        };
        for event in &answer.events {
            if let Some(proto::event::Kind::TileDrawn(drawn)) = &event.kind {
                assert_eq!(
                    drawn.seat, to_act,
                    "only the mover's own draws can be named"
                );
            }
        }
        to_act = next;
        full_token = backend.state_token;
        tokens = backend.seat_tokens;
    }
}

#[tokio::test]
async fn oversized_requests_and_overload_are_refused() {
    let config = Config {
        max_request_bytes: 2048,
        max_concurrent_requests: 1,
        request_timeout: Duration::from_secs(2),
        ..Config::default()
    };
    let addr = TestServer::start_with(config).await;
    let mut engine = addr.client().await;
    let update = engine
        .new_game(proto::NewGameRequest {
            variant: "muggins".to_owned(),
            players: 2,
            ..Default::default()
        })
        .await
        .expect("deal")
        .into_inner();
    let mut state = update.state.expect("state");
    let pass = proto::HistoryEntry {
        seat: 0,
        action: Some(proto::history_entry::Action::Pass(proto::Pass {})),
    };
    state.history = vec![pass; 4096];
    let result = engine
        .play(proto::PlayRequest {
            state_source: Some(state.into()),
            r#move: Some(update.legal_moves[0]),
            ..Default::default()
        })
        .await;
    let status = result.expect_err("too large");
    assert_eq!(status.code(), Code::OutOfRange, "{status:?}");

    // With one call at a time, a burst is either served or shed at once.
    let mut calls = Vec::new();
    for _ in 0..64 {
        let mut engine = engine.clone();
        calls.push(tokio::spawn(async move {
            engine.list_variants(proto::ListVariantsRequest {}).await
        }));
    }
    let mut shed = 0;
    for call in calls {
        match call.await.expect("task") {
            Ok(_) => {}
            Err(status) => {
                assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
                shed += 1;
            }
        }
    }
    assert!(shed < 64, "some calls are served");
}

#[test]
fn keys_accept_rotation_text() {
    assert!(StateKeys::from_text(&format!("{KEY_B}\n{KEY_A}\n")).is_ok());
}
