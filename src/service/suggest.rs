//! `SuggestMove`: a computer opponent's move for the seat to act, from
//! what that seat may know only, within the server's time cap.

use std::time::{Duration, Instant};

use crate::bots::{self, Budget, Level};
use crate::proto::{self, ErrorReason};
use crate::rules::PlayError;

use super::codec::encode_move;
use super::custody::Source;
use super::engine::{Engine, seat_view, state_source};
use super::error::ApiError;

/// The most playouts a request may ask for (the time cap bounds the rest).
pub const MAX_PLAYOUTS: u32 = 1_000_000;

/// The level asked for (greedy when not given).
fn decode_level(value: i32) -> Result<Level, ApiError> {
    match proto::BotLevel::try_from(value) {
        Ok(proto::BotLevel::Random) => Ok(Level::Random),
        Ok(proto::BotLevel::Unspecified | proto::BotLevel::Greedy) => Ok(Level::Greedy),
        Ok(proto::BotLevel::Expert) => Ok(Level::Expert),
        Err(_) => Err(ApiError::invalid(
            ErrorReason::MalformedMove,
            "level",
            format!("{value} is not a BotLevel"),
        )),
    }
}

impl Engine {
    /// A computer opponent's move. The search stops at `deadline` (the
    /// call's, if it has one) or at the server's cap, whichever is first.
    ///
    /// # Errors
    /// A refusal of the state, a seat token of another seat, a seat that is
    /// not to act (`NOT_YOUR_TURN` at `seat`) or a finished match.
    pub fn suggest_move(
        &self,
        request: &proto::SuggestMoveRequest,
        deadline: Option<Instant>,
    ) -> Result<proto::SuggestMoveResponse, ApiError> {
        let source = state_source!(request, suggest_move_request);
        let (game, authority) = self.custody().read(source)?;
        let view = seat_view(&game, request.seat, authority)?;
        let seat = view.seat();
        let level = decode_level(request.level)?;
        if game.outcome().is_some() {
            return Err(ApiError::from(PlayError::MatchOver));
        }
        if !view.is_own_turn() {
            let mut error = ApiError::from(PlayError::NotYourTurn {
                seat,
                to_act: game.to_act(),
            });
            error.field = "seat".to_owned();
            return Err(error);
        }
        let cap = self.suggest_cap();
        let allowed = request
            .time_budget_ms
            .map_or(cap, |ms| Duration::from_millis(u64::from(ms)).min(cap));
        let stop_at = deadline.map_or(Instant::now() + allowed, |d| {
            d.min(Instant::now() + allowed)
        });
        let seed = request.seed.unwrap_or_else(|| {
            let digest = game.digest().0;
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(digest.get(..8).unwrap_or(&[0; 8]));
            u64::from_le_bytes(bytes) ^ u64::from(seat)
        });
        let stop = || Instant::now() >= stop_at;
        let budget = Budget {
            playouts: request
                .playouts
                .unwrap_or(bots::DEFAULT_PLAYOUTS)
                .min(MAX_PLAYOUTS),
            stop: &stop,
        };
        let suggestion = bots::suggest(view, level, seed, budget).ok_or_else(|| {
            ApiError::invalid(ErrorReason::NotYourTurn, "seat", "the seat has no move")
        })?;
        Ok(proto::SuggestMoveResponse {
            r#move: Some(encode_move(suggestion.mv)),
            values: suggestion
                .values
                .iter()
                .map(|v| proto::MoveValue {
                    r#move: Some(encode_move(v.mv)),
                    value: v.value,
                    playouts: v.playouts,
                })
                .collect(),
            playouts: suggestion.playouts,
        })
    }
}

/// The deadline a gRPC call's `grpc-timeout` header sets, if it has one.
#[must_use]
pub fn grpc_deadline(metadata: &tonic::metadata::MetadataMap) -> Option<Instant> {
    super::grpc_codec::grpc_timeout(metadata.as_ref())
        .and_then(|timeout| Instant::now().checked_add(timeout))
}
