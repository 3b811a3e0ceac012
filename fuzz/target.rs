//! The fuzz target: one input through the request path. Shared by the
//! fuzzer (`examples/fuzz.rs`) and the corpus replay test
//! (`tests/fuzz_corpus.rs`).

use std::sync::OnceLock;

use pips::proto::{ErrorReason, LegalMovesRequest, PlayRequest, ViewRequest};
use pips::service::Engine;
use pips::service::custody::Custody;
use pips::service::keys::StateKeys;
use pips::service::state_codec::decode_state;
use prost::Message;

/// An engine with a state key, for the token path.
fn keyed() -> &'static Engine {
    static KEYED: OnceLock<Engine> = OnceLock::new();
    KEYED.get_or_init(|| {
        let keys = StateKeys::from_text(&"5a".repeat(32)).unwrap_or_else(|e| panic!("{e}"));
        Engine::new(Custody::new(Some(keys)))
    })
}

/// Runs one input through every handler; returns the reasons it met, or a
/// description of what went wrong.
pub fn run(bytes: &[u8]) -> Result<Vec<String>, String> {
    // The same bytes as a sealed token must be refused, never opened.
    let as_token = keyed().play(&PlayRequest {
        state_token: bytes.to_vec(),
        ..Default::default()
    });
    let expected = if bytes.is_empty() {
        ErrorReason::MissingField
    } else {
        ErrorReason::StateTokenInvalid
    };
    match as_token {
        Err(error) if error.reason == expected => {}
        other => return Err(format!("arbitrary bytes as a token gave {other:?}")),
    }
    let Ok(request) = PlayRequest::decode(bytes) else {
        return Ok(vec!["UNDECODABLE".to_owned()]);
    };
    let engine = Engine::default();
    let mut reasons = Vec::new();
    match engine.play(&request) {
        Ok(update) => {
            if let Err(error) = decode_state(update.state.as_ref(), "state") {
                return Err(format!(
                    "an accepted move produced an invalid state: {error:?}"
                ));
            }
            reasons.push("PLAYED".to_owned());
        }
        Err(error) => reasons.push(error.reason.as_str_name().to_owned()),
    }
    let listed = engine.legal_moves(&LegalMovesRequest {
        state: request.state.clone(),
        ..Default::default()
    });
    if let Ok(listed) = listed {
        for mv in listed.legal_moves {
            let played = engine.play(&PlayRequest {
                state: request.state.clone(),
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
            state: request.state.clone(),
            seat,
            ..Default::default()
        });
    }
    Ok(reasons)
}
