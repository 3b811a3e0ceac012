//! Custody of the state between calls: reading a state or a token from a
//! request, and writing one into an answer. Without a state key the readable
//! state travels as it is and tokens are open (the packed state in plain
//! bytes); with one, readable states carry an authentication tag and an
//! encrypted seed, and tokens are sealed: the packed state encrypted.

use std::sync::Arc;

use prost::Message;
use rand::TryRng;
use rand::rngs::SysRng;
use tonic::Code;

use crate::proto::{self, ErrorReason};
use crate::rules::{Game, Seat};

use super::codec::{decode_packed, decode_state, encode_packed, encode_state};
use super::error::ApiError;
use super::keys::StateKeys;

/// What the sender of a state may see and do.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Authority {
    /// Everything: a readable state, an open token or a full-authority
    /// sealed token.
    Full,
    /// One seat's information and moves only: a seat token.
    Seat(Seat),
}

impl Authority {
    /// The one seat it speaks for, if it is a seat's.
    #[must_use]
    pub fn seat(self) -> Option<Seat> {
        match self {
            Authority::Full => None,
            Authority::Seat(seat) => Some(seat),
        }
    }
}

/// The state a request carries: the readable state or a token (a request's
/// `state_source`).
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// A readable state.
    State(&'a proto::GameState),
    /// A state token.
    Token(&'a [u8]),
    /// Neither.
    Missing,
}

impl Source<'_> {
    /// Whether the state came as a token (which is answered with a token).
    #[must_use]
    pub fn is_token(self) -> bool {
        matches!(self, Source::Token(_))
    }
}

/// The label of the keyed commitment to a seed in a match digest.
const COMMITMENT_LABEL: &[u8] = b"pips record seed";

/// The label bound into a sealed seed.
const SEED_LABEL: &[u8] = b"pips seed";

/// How states are kept between calls: with or without a state key.
#[derive(Clone, Debug, Default)]
pub struct Custody {
    /// The server's keys, if it has them.
    keys: Option<Arc<StateKeys>>,
}

fn tag_error(message: &str) -> ApiError {
    ApiError::invalid(ErrorReason::StateTagInvalid, "state.tag", message)
}

fn token_error(field: &str, message: impl Into<String>) -> ApiError {
    ApiError::invalid(ErrorReason::StateTokenInvalid, field, message)
}

fn randomness_error(error: impl std::fmt::Display) -> ApiError {
    sealing_error(format!("the operating system gave no randomness ({error})"))
}

/// Sealing failed on the server's side (in practice: no randomness).
fn sealing_error(message: impl Into<String>) -> ApiError {
    ApiError {
        code: Code::Unavailable,
        reason: ErrorReason::SealingFailed,
        field: String::new(),
        message: message.into(),
    }
}

impl Custody {
    /// Custody under `keys` (or none).
    pub fn new(keys: Option<StateKeys>) -> Custody {
        Custody {
            keys: keys.map(Arc::new),
        }
    }

    /// Whether tokens are sealed (and seat tokens can be issued).
    #[must_use]
    pub fn seals_tokens(&self) -> bool {
        self.keys.is_some()
    }

    /// The seed of a new game: the one asked for (or a random one), and,
    /// with a key, passed through the key so that the caller cannot predict
    /// the deals from it.
    ///
    /// # Errors
    /// `ERROR_REASON_SEALING_FAILED` when the operating system gives no randomness.
    pub fn deal_seed(&self, requested: Option<u64>) -> Result<u64, ApiError> {
        let nonce = match requested {
            Some(seed) => seed,
            None => SysRng.try_next_u64().map_err(randomness_error)?,
        };
        Ok(match &self.keys {
            Some(keys) => keys.deal_seed(nonce),
            None => nonce,
        })
    }

    /// What a match's digest commits to for its deal `seed`: the seed's
    /// own bytes without a key (the seed is in the state anyway); with one,
    /// a keyed commitment, so that the digest, which travels in the open,
    /// tells nothing of a seed kept secret.
    #[must_use]
    pub fn seed_commitment(&self, seed: u64) -> Vec<u8> {
        match &self.keys {
            None => seed.to_le_bytes().to_vec(),
            Some(keys) => keys.tag(&[COMMITMENT_LABEL, &seed.to_le_bytes()].concat()),
        }
    }

    /// The game a request carries, as `state` or as `state_token`, checked
    /// completely, with the authority it grants.
    ///
    /// # Errors
    /// `ERROR_REASON_MISSING_FIELD` with neither, a refusal of the tag or token, or the
    /// first fault of the state.
    pub fn read(&self, source: Source<'_>) -> Result<(Game, Authority), ApiError> {
        match source {
            Source::Missing => Err(ApiError::missing("state")),
            Source::State(state) => Ok((self.read_state(state)?, Authority::Full)),
            Source::Token(token) => self.read_token(token),
        }
    }

    fn read_state(&self, state: &proto::GameState) -> Result<Game, ApiError> {
        let Some(keys) = &self.keys else {
            if !state.tag.is_empty() || !state.sealed_seed.is_empty() {
                return Err(tag_error(
                    "this server has no state key: send the state without tag and sealed_seed",
                ));
            }
            return decode_state(Some(state), "state");
        };
        if state.tag.is_empty() {
            return Err(ApiError {
                code: Code::Unauthenticated,
                reason: ErrorReason::StateTagMissing,
                field: "state.tag".to_owned(),
                message: "this server signs its states: send the state with the tag it returned"
                    .to_owned(),
            });
        }
        let mut untagged = state.clone();
        untagged.tag.clear();
        if !keys.verify(&untagged.encode_to_vec(), &state.tag) {
            return Err(tag_error(
                "the tag does not match the state: it was changed, or tagged by another key",
            ));
        }
        if untagged.seed != 0 {
            return Err(tag_error(
                "a signed state carries its seed sealed, with seed 0",
            ));
        }
        let seed = keys
            .open(SEED_LABEL, &untagged.sealed_seed)
            .ok()
            .and_then(|bytes| <[u8; 8]>::try_from(bytes.as_slice()).ok())
            .ok_or_else(|| tag_error("the sealed seed was not made by this server's key"))?;
        untagged.seed = u64::from_le_bytes(seed);
        untagged.sealed_seed.clear();
        decode_state(Some(&untagged), "state")
    }

    fn read_token(&self, token: &[u8]) -> Result<(Game, Authority), ApiError> {
        let Some(keys) = self.keys.as_deref() else {
            let packed = proto::PackedState::decode(token).map_err(|error| {
                let detail = error.to_string();
                let detail = detail
                    .strip_prefix("failed to decode Protobuf message: ")
                    .unwrap_or(&detail);
                token_error(
                    "state_token",
                    format!(
                        "not a readable state token: {detail} (cut short or altered? \
                         pass a token back exactly as an answer gave it)"
                    ),
                )
            })?;
            return Ok((decode_packed(&packed, "state_token")?, Authority::Full));
        };
        let plaintext = keys.open_token(token).map_err(|_| {
            token_error(
                "state_token",
                "not a token of this server's current or previous key, or altered",
            )
        })?;
        let sealed = proto::SealedState::decode(plaintext.as_slice())
            .map_err(|_| token_error("state_token", "the token's contents are unreadable"))?;
        let packed = sealed
            .state
            .as_ref()
            .ok_or_else(|| token_error("state_token", "the token holds no state"))?;
        let game = decode_packed(packed, "state_token.state")?;
        let authority = match sealed.seat {
            None => Authority::Full,
            Some(seat) => Authority::Seat(
                Seat::try_from(seat)
                    .ok()
                    .filter(|&s| s < game.players())
                    .ok_or_else(|| token_error("state_token", "the token's seat does not exist"))?,
            ),
        };
        Ok((game, authority))
    }

    /// The readable state to answer with: tagged, its seed sealed, when the
    /// server has a key.
    ///
    /// # Errors
    /// `ERROR_REASON_SEALING_FAILED` when the seed cannot be sealed.
    pub fn write_state(&self, game: &Game) -> Result<proto::GameState, ApiError> {
        let mut state = encode_state(game);
        if let Some(keys) = &self.keys {
            state.sealed_seed = keys
                .seal(SEED_LABEL, &state.seed.to_le_bytes())
                .map_err(|e| sealing_error(format!("cannot seal the seed: {e}")))?;
            state.seed = 0;
            state.tag = keys.tag(&state.encode_to_vec());
        }
        Ok(state)
    }

    /// A token of `game` for `authority`: sealed with a key; without one,
    /// open, and only for full authority (a seat token that anyone could
    /// forge would protect nothing).
    ///
    /// # Errors
    /// `ERROR_REASON_SEALING_FAILED` when the state cannot be sealed, or for a seat token
    /// without a state key.
    pub fn write_token(&self, game: &Game, authority: Authority) -> Result<Vec<u8>, ApiError> {
        let Some(keys) = self.keys.as_deref() else {
            return match authority {
                Authority::Full => Ok(encode_packed(game).encode_to_vec()),
                Authority::Seat(_) => {
                    Err(sealing_error("seat tokens need a server with a state key"))
                }
            };
        };
        let sealed = proto::SealedState {
            state: Some(encode_packed(game)),
            seat: match authority {
                Authority::Full => None,
                Authority::Seat(seat) => Some(u32::from(seat)),
            },
        };
        keys.seal_token(&sealed.encode_to_vec())
            .map_err(|e| sealing_error(format!("cannot seal the state: {e}")))
    }
}
