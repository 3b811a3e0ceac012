//! The fuzz target: one input through the request path. Shared by the
//! fuzzer (`examples/fuzz.rs`) and the corpus replay test
//! (`tests/fuzz_corpus.rs`).

use pips::proto::{LegalMovesRequest, PlayRequest, ViewRequest};
use pips::service::engine;
use pips::service::state_codec::decode_state;
use prost::Message;

/// Runs one input through every handler; returns the reasons it met, or a
/// description of what went wrong.
pub fn run(bytes: &[u8]) -> Result<Vec<String>, String> {
    let Ok(request) = PlayRequest::decode(bytes) else {
        return Ok(vec!["UNDECODABLE".to_owned()]);
    };
    let mut reasons = Vec::new();
    match engine::play(&request) {
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
    let listed = engine::legal_moves(&LegalMovesRequest {
        state: request.state.clone(),
    });
    if let Ok(listed) = listed {
        for mv in listed.legal_moves {
            let played = engine::play(&PlayRequest {
                state: request.state.clone(),
                r#move: Some(mv),
            });
            if let Err(error) = played {
                return Err(format!("a listed move was refused: {error:?}"));
            }
        }
    }
    for seat in 0..5 {
        let _ = engine::view(&ViewRequest {
            state: request.state.clone(),
            seat,
        });
    }
    Ok(reasons)
}
