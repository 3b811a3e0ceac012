//! The fuzz target: one input through the request path. Shared by the
//! fuzzer (`examples/fuzz.rs`) and the corpus replay test
//! (`tests/integration/fuzz_corpus.rs`).

use std::sync::OnceLock;

use pips::proto::play_request::StateSource;
use pips::proto::{ErrorReason, LegalMovesRequest, PackedState, PlayRequest, ViewRequest};
use pips::service::Engine;
use pips::service::codec::{decode_packed, decode_state, encode_packed};
use pips::service::custody::Custody;
use pips::service::keys::StateKeys;
use prost::Message;

/// An engine with a state key, for the token path.
fn keyed() -> &'static Engine {
    static KEYED: OnceLock<Engine> = OnceLock::new();
    KEYED.get_or_init(|| {
        let keys = StateKeys::from_text(&"5a".repeat(32)).unwrap_or_else(|e| panic!("{e}"));
        Engine::new(Custody::new(Some(keys)))
    })
}

/// A reason's name without the enum's prefix (`CANNOT_DRAW`).
fn short(reason: ErrorReason) -> &'static str {
    let name = reason.as_str_name();
    name.strip_prefix("ERROR_REASON_").unwrap_or(name)
}

/// Runs one input through every handler; returns the reasons it met, or a
/// description of what went wrong.
pub fn run(bytes: &[u8]) -> Result<Vec<String>, String> {
    // The same bytes as a sealed token must be refused, never opened.
    let as_token = keyed().play(&PlayRequest {
        state_source: Some(bytes.to_vec().into()),
        ..Default::default()
    });
    let expected = ErrorReason::StateTokenInvalid;
    match as_token {
        Err(error) if error.reason == expected => {}
        other => return Err(format!("arbitrary bytes as a token gave {other:?}")),
    }
    // The same bytes as an open token (a server without a key): read as a
    // packed state and checked like any state, or refused.
    let engine = Engine::default();
    let mut reasons = Vec::new();
    let open = engine.legal_moves(&LegalMovesRequest {
        state_source: Some(bytes.to_vec().into()),
    });
    reasons.push(match open {
        Ok(_) => "OPEN_TOKEN_READ".to_owned(),
        Err(error) => format!("OPEN_TOKEN_{}", short(error.reason)),
    });
    let Ok(request) = PlayRequest::decode(bytes) else {
        reasons.push("UNDECODABLE".to_owned());
        return Ok(reasons);
    };
    let state = match &request.state_source {
        Some(StateSource::State(state)) => Some(state.clone()),
        _ => None,
    };
    // A state the server accepts and its packed form are the same game.
    let by_state = engine.legal_moves(&LegalMovesRequest {
        state_source: state.clone().map(Into::into),
    });
    if by_state.is_ok() {
        let game = decode_state(state.as_ref(), "state")
            .map_err(|error| format!("an accepted state does not decode: {error:?}"))?;
        let by_token = engine.legal_moves(&LegalMovesRequest {
            state_source: Some(encode_packed(&game).encode_to_vec().into()),
        });
        if by_state != by_token {
            return Err(format!(
                "a state and its packed form differ: {by_state:?} / {by_token:?}"
            ));
        }
    }
    // Outcomes of requests carrying a token are told apart, so that the
    // corpus keeps token inputs too.
    let form = if matches!(request.state_source, Some(StateSource::StateToken(_))) {
        "TOKEN_"
    } else {
        ""
    };
    match engine.play(&request) {
        Ok(update) => {
            // The new state comes back as the request sent it: readable, or
            // as an open token.
            let checked: Result<(), String> = match update.state.as_ref() {
                Some(state) => decode_state(Some(state), "state")
                    .map(|_| ())
                    .map_err(|error| format!("{error:?}")),
                None => PackedState::decode(update.state_token.as_slice())
                    .map_err(|error| format!("an unreadable token: {error}"))
                    .and_then(|packed| {
                        decode_packed(&packed, "state_token")
                            .map(|_| ())
                            .map_err(|error| format!("{error:?}"))
                    }),
            };
            if let Err(error) = checked {
                return Err(format!(
                    "an accepted move produced an invalid state: {error}"
                ));
            }
            reasons.push(format!("{form}PLAYED"));
        }
        Err(error) => reasons.push(format!("{form}{}", short(error.reason))),
    }
    if let Ok(listed) = by_state {
        for mv in listed.legal_moves {
            let played = engine.play(&PlayRequest {
                state_source: state.clone().map(Into::into),
                r#move: Some(mv),
                ..Default::default()
            });
            if let Err(error) = played {
                return Err(format!("a listed move was refused: {error:?}"));
            }
        }
    }
    for seat in 0..5 {
        let _ = engine.view(&ViewRequest {
            state_source: state.clone().map(Into::into),
            seat,
        });
    }
    Ok(reasons)
}
