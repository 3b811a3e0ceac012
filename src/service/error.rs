//! The one place where errors become gRPC statuses and HTTP/JSON answers.
//!
//! Every status carries a `google.rpc.ErrorInfo` (domain `pips.v1`, reason =
//! an `ErrorReason` name, metadata `field`) and, for INVALID_ARGUMENT, a
//! `google.rpc.BadRequest` field violation. The message repeats the reason
//! and field so that a plain `grpcurl` session shows them too.

use std::collections::HashMap;

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::proto::{ErrorReason, HttpError};
use crate::rules::{PlayError, RulesError, SetupError};

/// The error domain in every `ErrorInfo`.
pub const ERROR_DOMAIN: &str = "pips.v1";

/// A refused request, before it becomes a [`Status`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ApiError {
    /// INVALID_ARGUMENT or FAILED_PRECONDITION.
    pub code: Code,
    /// The `ErrorReason` name.
    pub reason: ErrorReason,
    /// The request field at fault (`state.hands[1].tiles[0]`), or empty.
    pub field: String,
    /// What is wrong, for a person.
    pub message: String,
}

impl ApiError {
    /// A malformed request or inconsistent state.
    pub fn invalid(
        reason: ErrorReason,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> ApiError {
        ApiError {
            code: Code::InvalidArgument,
            reason,
            field: field.into(),
            message: message.into(),
        }
    }

    /// A required field that is absent.
    pub fn missing(field: impl Into<String>) -> ApiError {
        let field = field.into();
        let message = format!("{field} is required");
        ApiError::invalid(ErrorReason::MissingField, field, message)
    }

    /// An error of the state found by the checked constructor, whose fields
    /// are relative to the state at `prefix` in the request.
    pub fn from_setup(error: SetupError, prefix: &str) -> ApiError {
        let reason =
            ErrorReason::from_str_name(error.reason()).unwrap_or(ErrorReason::InconsistentState);
        ApiError::invalid(reason, join(prefix, &error.field()), error.to_string())
    }

    /// Options that cannot be played, found in `rules` at `prefix`.
    pub fn from_rules(error: RulesError, prefix: &str) -> ApiError {
        if error.option == "players" {
            return ApiError::invalid(ErrorReason::PlayersNotAllowed, "players", error.message);
        }
        ApiError::invalid(
            ErrorReason::InvalidRules,
            join(prefix, error.option),
            error.to_string(),
        )
    }
}

impl From<PlayError> for ApiError {
    fn from(error: PlayError) -> ApiError {
        ApiError {
            code: if error.is_malformed() {
                Code::InvalidArgument
            } else {
                Code::FailedPrecondition
            },
            reason: ErrorReason::from_str_name(error.reason()).unwrap_or(ErrorReason::Unspecified),
            field: error.field().to_owned(),
            message: error.to_string(),
        }
    }
}

impl From<ApiError> for Status {
    fn from(error: ApiError) -> Status {
        let reason = error.reason.as_str_name();
        let message = if error.field.is_empty() {
            format!("{reason}: {}", error.message)
        } else {
            format!("{reason} at {}: {}", error.field, error.message)
        };
        let metadata = HashMap::from([("field".to_owned(), error.field.clone())]);
        let mut details = ErrorDetails::with_error_info(reason, ERROR_DOMAIN, metadata);
        if error.code == Code::InvalidArgument {
            details.add_bad_request_violation(error.field, error.message);
        }
        Status::with_error_details(error.code, message, details)
    }
}

impl ApiError {
    /// The HTTP status of this refusal on the JSON API: the gRPC code's
    /// usual HTTP equivalent, with an illegal move (FAILED_PRECONDITION) as
    /// 409 Conflict: the move conflicts with the state of the game.
    pub fn http_status(&self) -> http::StatusCode {
        use http::StatusCode as Http;
        match (self.code, self.reason) {
            (_, ErrorReason::UnknownRoute) => Http::NOT_FOUND,
            (_, ErrorReason::MethodNotAllowed) => Http::METHOD_NOT_ALLOWED,
            (_, ErrorReason::RequestTooLarge) => Http::PAYLOAD_TOO_LARGE,
            (Code::InvalidArgument | Code::OutOfRange, _) => Http::BAD_REQUEST,
            (Code::FailedPrecondition, _) => Http::CONFLICT,
            (Code::Unauthenticated, _) => Http::UNAUTHORIZED,
            (Code::PermissionDenied, _) => Http::FORBIDDEN,
            (Code::NotFound | Code::Unimplemented, _) => Http::NOT_FOUND,
            (Code::ResourceExhausted | Code::Unavailable, _) => Http::SERVICE_UNAVAILABLE,
            (Code::DeadlineExceeded | Code::Cancelled, _) => Http::GATEWAY_TIMEOUT,
            _ => Http::INTERNAL_SERVER_ERROR,
        }
    }

    /// The JSON body of this refusal on the HTTP API (`pips.v1.HttpError`).
    pub fn http_body(&self) -> HttpError {
        HttpError {
            code: grpc_code_name(self.code).to_owned(),
            reason: self.reason as i32,
            field: self.field.clone(),
            message: self.message.clone(),
        }
    }

    /// Writes a refusal to the log (at `info`: refusals are the caller's
    /// fault, not the server's).
    pub fn log(&self) {
        tracing::info!(
            code = ?self.code,
            reason = self.reason.as_str_name(),
            field = %self.field,
            "refused"
        );
    }
}

/// The canonical name of a gRPC status code (`INVALID_ARGUMENT`).
pub fn grpc_code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

/// `prefix.field`, or either alone when the other is empty.
fn join(prefix: &str, field: &str) -> String {
    match (prefix.is_empty(), field.is_empty()) {
        (true, _) => field.to_owned(),
        (_, true) => prefix.to_owned(),
        _ => format!("{prefix}.{field}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{End, Tile};

    #[test]
    fn every_play_error_reason_is_in_the_wire_contract() {
        let tile = Tile::new(1, 0);
        let errors = [
            PlayError::MatchOver,
            PlayError::SeatOutOfRange {
                seat: 9,
                players: 2,
            },
            PlayError::NotYourTurn { seat: 1, to_act: 0 },
            PlayError::InvalidTile { tile, max_pip: 6 },
            PlayError::TileNotInHand { seat: 0, tile },
            PlayError::DoesNotMatchEnd {
                tile,
                end: End::Left,
                pips: 5,
            },
            PlayError::EndNotOpen { end: End::Up },
            PlayError::LeadHasNoEnd,
            PlayError::EndRequired,
            PlayError::MustLeadRequiredTile { required: tile },
            PlayError::MustPlayNotDraw { seat: 0 },
            PlayError::MustPlayNotPass { seat: 0 },
            PlayError::MustDrawNotPass { seat: 0 },
            PlayError::CannotDraw { why: "none" },
        ];
        for error in errors {
            let api = ApiError::from(error);
            assert_eq!(api.reason.as_str_name(), error.reason(), "{error:?}");
        }
    }

    #[test]
    fn every_setup_error_reason_is_in_the_wire_contract() {
        let tile = Tile::new(1, 0);
        let errors = [
            SetupError::Rules(RulesError {
                option: "hand_size",
                message: String::new(),
            }),
            SetupError::InvalidTile {
                field: String::new(),
                tile,
                max_pip: 6,
            },
            SetupError::TileDuplicated {
                field: String::new(),
                tile,
            },
            SetupError::TileMissing { tile },
            SetupError::LayoutMismatch {
                field: String::new(),
                message: String::new(),
            },
            SetupError::OpenEndsMismatch {
                field: String::new(),
                message: String::new(),
            },
            SetupError::SeatOutOfRange {
                field: String::new(),
                seat: 9,
                players: 2,
            },
            SetupError::inconsistent("", ""),
        ];
        for error in errors {
            let reason = error.reason();
            assert_eq!(
                ApiError::from_setup(error, "state").reason.as_str_name(),
                reason
            );
        }
    }
}
