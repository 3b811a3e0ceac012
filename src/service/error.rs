//! The one place where errors become gRPC statuses and HTTP/JSON answers.
//!
//! Every status carries a `google.rpc.ErrorInfo` (domain `pips.v1`, reason =
//! an `ErrorReason` name, metadata `field`) and, for `INVALID_ARGUMENT`, a
//! `google.rpc.BadRequest` field violation. The message repeats the reason
//! and field so that a plain `grpcurl` session shows them too.

use std::collections::HashMap;

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::proto::{ErrorReason, HttpError};
use crate::rules::errors::{TablePart, TrickMoveKind};
use crate::rules::foot::FootFault;
use crate::rules::trains::TrainFault;
use crate::rules::tricks::auction::BidError;
use crate::rules::tricks::hand::TrickError;
use crate::rules::{
    Action, LayoutPlace, PlayError, RuleOption, RulesError, SeatRole, SetupError, TableKind,
    TilePlace,
};

/// Marks an HTTP answer that is a refusal with its gRPC code, for the
/// call metrics (gRPC answers carry theirs in `grpc-status`).
#[derive(Clone, Copy, Debug)]
pub struct RefusedWith(pub Code);

/// The error domain in every `ErrorInfo`.
pub const ERROR_DOMAIN: &str = "pips.v1";

/// A refused request, before it becomes a [`Status`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ApiError {
    /// `INVALID_ARGUMENT` or `FAILED_PRECONDITION`.
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

    /// An error of the state found by the checked constructor, whose
    /// location is rendered as a field of the state at `prefix` in the
    /// request.
    #[must_use]
    pub fn from_setup(error: &SetupError, prefix: &str) -> ApiError {
        ApiError::invalid(
            setup_reason(error),
            join(prefix, &setup_field(error)),
            error.to_string(),
        )
    }

    /// A request body over the server's limit of `limit` bytes.
    #[must_use]
    pub fn too_large(limit: usize) -> ApiError {
        ApiError {
            code: Code::OutOfRange,
            reason: ErrorReason::RequestTooLarge,
            field: String::new(),
            message: format!(
                "the request body is larger than this server's limit of {limit} bytes"
            ),
        }
    }

    /// A call refused at once because the server is at one of its limits
    /// (`RESOURCE_EXHAUSTED`, `ERROR_REASON_OVERLOADED`); `message` says
    /// which, and what to do.
    #[must_use]
    pub fn overloaded(message: impl Into<String>) -> ApiError {
        ApiError {
            code: Code::ResourceExhausted,
            reason: ErrorReason::Overloaded,
            field: String::new(),
            message: message.into(),
        }
    }

    /// A failure of the server's own (`INTERNAL`), not the caller's.
    #[must_use]
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError {
            code: Code::Internal,
            reason: ErrorReason::Unspecified,
            field: String::new(),
            message: message.into(),
        }
    }

    /// Options that cannot be played, found in `rules` at `prefix`.
    #[must_use]
    pub fn from_rules(error: &RulesError, prefix: &str) -> ApiError {
        match error.option {
            RuleOption::Players => {
                ApiError::invalid(ErrorReason::PlayersNotAllowed, "players", &error.message)
            }
            option => ApiError::invalid(
                ErrorReason::InvalidRules,
                join(prefix, option.name()),
                error.to_string(),
            ),
        }
    }
}

/// The reason a state is refused for.
fn setup_reason(error: &SetupError) -> ErrorReason {
    match error {
        SetupError::VariantLabel { .. } => ErrorReason::VariantLabelInvalid,
        SetupError::Players { .. } | SetupError::Rules(_) => ErrorReason::InvalidRules,
        SetupError::InvalidTile { .. } => ErrorReason::InvalidTile,
        SetupError::TileDuplicated { .. } => ErrorReason::TileDuplicated,
        SetupError::TileMissing { .. } => ErrorReason::TileMissing,
        SetupError::Layout(_) => ErrorReason::LayoutMismatch,
        SetupError::SeatOutOfRange { .. } => ErrorReason::SeatOutOfRange,
        SetupError::HandNumber { .. }
        | SetupError::HandCount { .. }
        | SetupError::ScoreCount { .. }
        | SetupError::NegativeScore { .. }
        | SetupError::DrawNotRecordable
        | SetupError::WinnerOutOfRange { .. }
        | SetupError::PlayedTwice { .. }
        | SetupError::TrainMoveOnLine { .. }
        | SetupError::DrawnTileElsewhere { .. }
        | SetupError::HistoryTooLong { .. }
        | SetupError::DrawUnnamed { .. }
        | SetupError::PlayNotOnLayout { .. }
        | SetupError::PlacedBeforeLead { .. }
        | SetupError::HistoryStart(_)
        | SetupError::HistoryMove { .. }
        | SetupError::HandOver { .. }
        | SetupError::HistoryLayout { .. }
        | SetupError::HistoryToAct { .. }
        | SetupError::HistoryDrewThisTurn
        | SetupError::EmptyHandInPlay { .. }
        | SetupError::TargetReachedInPlay { .. }
        | SetupError::LeaderNotToAct
        | SetupError::ForcedLeadByLot
        | SetupError::WrongForcedLead { .. }
        | SetupError::ForcedLeadMissing
        | SetupError::ForcedLeadAfterLead
        | SetupError::Blocked
        | SetupError::Widow { .. }
        | SetupError::TrickBoneyard { .. }
        | SetupError::ScoreBelowReach { .. }
        | SetupError::WidowNotTaken { .. }
        | SetupError::DealtHand { .. } => ErrorReason::InconsistentState,
        SetupError::NotInSet { .. } => ErrorReason::InvalidTile,
        SetupError::Table(part) => table_reason(*part),
    }
}

/// The field of a state (`hands[1].tiles[0]`) where a fault lies, relative
/// to the state.
fn setup_field(error: &SetupError) -> String {
    match error {
        SetupError::VariantLabel { .. } => "variant".to_owned(),
        SetupError::Players { .. } => "players".to_owned(),
        SetupError::Rules(e) => format!("rules.{}", e.option.name()),
        SetupError::HandNumber { .. } => "hand_number".to_owned(),
        SetupError::HandCount { .. } => "hands".to_owned(),
        SetupError::ScoreCount { .. } => "scores".to_owned(),
        SetupError::NegativeScore { side } | SetupError::ScoreBelowReach { side, .. } => {
            format!("scores[{side}]")
        }
        SetupError::TrickBoneyard { .. } => "boneyard".to_owned(),
        SetupError::InvalidTile { at, .. }
        | SetupError::TileDuplicated { at, .. }
        | SetupError::NotInSet { at, .. } => tile_field(*at),
        SetupError::Widow { .. } | SetupError::WidowNotTaken { .. } => "tricks.widow".to_owned(),
        SetupError::DealtHand { seat, .. } => format!("hands[{seat}]"),
        SetupError::TileMissing { .. } => String::new(),
        SetupError::Layout(e) => layout_field(e.place()),
        SetupError::DrawNotRecordable => "drew_this_turn".to_owned(),
        SetupError::SeatOutOfRange { role, .. } => match role {
            SeatRole::ToAct => "to_act".to_owned(),
            SeatRole::HandLeader => "hand_leader".to_owned(),
            SeatRole::Mover { index } => format!("history[{index}].seat"),
        },
        SetupError::WinnerOutOfRange { .. } => "result.winner".to_owned(),
        SetupError::PlayedTwice { index, .. } => format!("history[{index}].play.tile"),
        SetupError::TrainMoveOnLine { index } => format!("history[{index}]"),
        SetupError::DrawnTileElsewhere { index, .. } => format!("history[{index}].draw.tile"),
        SetupError::HistoryTooLong { .. } | SetupError::HistoryStart(_) => "history".to_owned(),
        SetupError::DrawUnnamed { index } => format!("history[{index}].draw.tile"),
        SetupError::PlayNotOnLayout { index, .. } => format!("history[{index}].play.tile"),
        SetupError::PlacedBeforeLead { at, .. } => tile_field(*at),
        SetupError::HistoryMove { index, .. } | SetupError::HandOver { index } => {
            format!("history[{index}]")
        }
        SetupError::HistoryLayout { part } => layout_field(*part),
        SetupError::HistoryToAct { .. } => "to_act".to_owned(),
        SetupError::HistoryDrewThisTurn => "drew_this_turn".to_owned(),
        SetupError::EmptyHandInPlay { seat } => format!("hands[{seat}]"),
        SetupError::TargetReachedInPlay { side } => format!("scores[{side}]"),
        SetupError::LeaderNotToAct => "to_act".to_owned(),
        SetupError::ForcedLeadByLot
        | SetupError::WrongForcedLead { .. }
        | SetupError::ForcedLeadMissing
        | SetupError::ForcedLeadAfterLead => "required_lead".to_owned(),
        SetupError::Blocked => "layout".to_owned(),
        SetupError::Table(part) => table_field(*part),
    }
}

/// The reason the state of a table with a hub is refused for: its table,
/// or the round around it.
fn table_reason(part: TablePart) -> ErrorReason {
    match part {
        TablePart::Missing {
            rules: TableKind::Tricks,
            ..
        } => ErrorReason::InconsistentState,
        TablePart::Missing {
            rules: TableKind::ChickenFoot,
            ..
        }
        | TablePart::Missing {
            found: Some(TableKind::ChickenFoot),
            ..
        }
        | TablePart::FootHub { .. }
        | TablePart::ArmCount { .. }
        | TablePart::Arm { .. }
        | TablePart::Waiting { .. } => ErrorReason::FootTableMismatch,
        TablePart::Missing { .. }
        | TablePart::Hub { .. }
        | TablePart::Tiles { .. }
        | TablePart::Marker { .. }
        | TablePart::Unsatisfied { .. } => ErrorReason::TrainTableMismatch,
        TablePart::Hands | TablePart::Boneyard | TablePart::Outcome | TablePart::Scores => {
            ErrorReason::InconsistentState
        }
    }
}

/// The field of the state of a table with a hub at fault.
fn table_field(part: TablePart) -> String {
    match part {
        TablePart::Missing {
            rules: TableKind::Tricks,
            found,
        } => match found {
            Some(TableKind::ChickenFoot) => "foot",
            Some(_) => "trains",
            None => "layout",
        }
        .to_owned(),
        TablePart::Missing {
            found: Some(TableKind::ChickenFoot),
            ..
        }
        | TablePart::Missing {
            rules: TableKind::ChickenFoot,
            found: None,
        } => "foot".to_owned(),
        TablePart::Missing { .. } => "trains".to_owned(),
        TablePart::FootHub { .. } => "foot.hub".to_owned(),
        TablePart::ArmCount { .. } => "foot.arms".to_owned(),
        TablePart::Arm { arm } => format!("foot.arms[{arm}]"),
        TablePart::Waiting { .. } => "foot.waiting".to_owned(),
        TablePart::Hub { .. } => "trains.hub".to_owned(),
        TablePart::Tiles { index, .. } => format!("trains.trains[{index}].tiles"),
        TablePart::Marker { index, .. } => format!("trains.trains[{index}].marker"),
        TablePart::Unsatisfied { .. } => "trains.unsatisfied".to_owned(),
        TablePart::Hands => "hands".to_owned(),
        TablePart::Boneyard => "boneyard".to_owned(),
        TablePart::Outcome => "result".to_owned(),
        TablePart::Scores => "scores".to_owned(),
    }
}

/// The field of a tile's place in a state.
fn tile_field(at: TilePlace) -> String {
    match at {
        TilePlace::Hand { seat, index } => format!("hands[{seat}].tiles[{index}]"),
        TilePlace::Boneyard { index } => format!("boneyard[{index}]"),
        TilePlace::Lead => "layout.lead".to_owned(),
        TilePlace::Arm { end, index } => format!("layout.{}[{index}]", end.name()),
        TilePlace::Played { index } => format!("history[{index}].play.tile"),
        TilePlace::Drawn { index } => format!("history[{index}].draw.tile"),
        TilePlace::Widow => "tricks.widow".to_owned(),
        TilePlace::Trick { index } => format!("history[{index}].trick"),
        TilePlace::Discard { index } => format!("history[{index}].discard.tile"),
        TilePlace::Hub => "trains.hub".to_owned(),
        TilePlace::Train { train, index } => format!("trains.trains[{train}].tiles[{index}]"),
        TilePlace::FootHub => "foot.hub".to_owned(),
        TilePlace::FootArm { arm, index } => format!("foot.arms[{arm}].tiles[{index}]"),
    }
}

/// The field of a place on the layout.
fn layout_field(place: LayoutPlace) -> String {
    match place {
        LayoutPlace::Spinner => "layout.spinner".to_owned(),
        LayoutPlace::Arm(end) => format!("layout.{}", end.name()),
        LayoutPlace::Placed { end, index } => format!("layout.{}[{index}]", end.name()),
    }
}

/// The reason a move is refused for.
fn play_reason(error: PlayError) -> ErrorReason {
    match error {
        PlayError::MatchOver => ErrorReason::MatchOver,
        PlayError::SeatOutOfRange { .. } => ErrorReason::SeatOutOfRange,
        PlayError::NotYourTurn { .. } => ErrorReason::NotYourTurn,
        PlayError::InvalidTile { .. } => ErrorReason::InvalidTile,
        PlayError::TileNotInHand { .. } => ErrorReason::TileNotInHand,
        PlayError::DoesNotMatchEnd { .. } => ErrorReason::DoesNotMatchEnd,
        PlayError::EndNotOpen { .. } => ErrorReason::EndNotOpen,
        PlayError::LeadHasNoEnd => ErrorReason::LeadHasNoEnd,
        PlayError::EndRequired => ErrorReason::EndRequired,
        PlayError::MustLeadRequiredTile { .. } => ErrorReason::MustLeadRequiredTile,
        PlayError::MustPlayNotDraw { .. } => ErrorReason::MustPlayNotDraw,
        PlayError::MustPlayNotPass { .. } => ErrorReason::MustPlayNotPass,
        PlayError::MustDrawNotPass { .. } => ErrorReason::MustDrawNotPass,
        PlayError::CannotDraw(_) => ErrorReason::CannotDraw,
        PlayError::PlaceNotAtThisTable { .. } => ErrorReason::PlaceNotAtThisTable,
        PlayError::NotAMoveOfThisGame { .. } => ErrorReason::NotAMoveOfThisGame,
        PlayError::Trick(error) => match error {
            TrickError::Over | TrickError::Bid(BidError::Over) => ErrorReason::MatchOver,
            TrickError::NotYourTurn { .. } | TrickError::Bid(BidError::NotYourTurn { .. }) => {
                ErrorReason::NotYourTurn
            }
            TrickError::Bid(BidError::NotOpen { .. }) => ErrorReason::BidNotOpen,
            TrickError::Bid(BidError::MustBid) => ErrorReason::MustBid,
            TrickError::OutOfStage { .. } => ErrorReason::NotThisStage,
            TrickError::ContractNotOpen { .. } => ErrorReason::ContractNotOpen,
            TrickError::NotHeld { .. } => ErrorReason::TileNotInHand,
            TrickError::MustFollow { .. } => ErrorReason::MustFollow,
        },
        PlayError::Train { fault, .. } => match fault {
            TrainFault::NoSuchTrain => ErrorReason::NoSuchTrain,
            TrainFault::Closed => ErrorReason::TrainClosed,
            TrainFault::DoubleUnsatisfied(_) => ErrorReason::DoubleUnsatisfied,
            TrainFault::DoesNotMatch(_) => ErrorReason::DoesNotMatchEnd,
            TrainFault::OutsideChain => ErrorReason::OutsideChain,
        },
        PlayError::NoTurnToEnd { .. } => ErrorReason::NoTurnToEnd,
        PlayError::Foot { fault, .. } => match fault {
            FootFault::DoesNotMatch(_) => ErrorReason::DoesNotMatchEnd,
            FootFault::NoSuchArm => ErrorReason::NoSuchArm,
            FootFault::EndsInFoot => ErrorReason::ArmClosed,
            FootFault::Waiting(_) => ErrorReason::FootWaiting,
            FootFault::NothingWaits => ErrorReason::NothingWaits,
        },
    }
}

/// The field of the request at fault for a refused move.
fn play_field(error: PlayError) -> &'static str {
    match error {
        PlayError::MatchOver => "state.phase",
        PlayError::SeatOutOfRange { .. } | PlayError::NotYourTurn { .. } => "move.seat",
        PlayError::InvalidTile { .. }
        | PlayError::TileNotInHand { .. }
        | PlayError::MustLeadRequiredTile { .. } => "move.play.tile",
        PlayError::DoesNotMatchEnd { .. }
        | PlayError::EndNotOpen { .. }
        | PlayError::LeadHasNoEnd
        | PlayError::EndRequired => "move.play.end",
        PlayError::PlaceNotAtThisTable {
            table: TableKind::Line,
            ..
        } => "move.play.end",
        PlayError::PlaceNotAtThisTable {
            table: TableKind::Trains,
            ..
        }
        | PlayError::Train { .. } => "move.play.train",
        PlayError::NoTurnToEnd { .. } => "move.end_turn",
        PlayError::PlaceNotAtThisTable {
            table: TableKind::Tricks,
            ..
        } => "move.play",
        PlayError::PlaceNotAtThisTable {
            table: TableKind::ChickenFoot,
            ..
        }
        | PlayError::Foot { .. } => "move.play.arm",
        PlayError::MustPlayNotDraw { .. } | PlayError::CannotDraw(_) => "move.draw",
        PlayError::MustPlayNotPass { .. } | PlayError::MustDrawNotPass { .. } => "move.pass",
        PlayError::NotAMoveOfThisGame { kind, .. } => match kind {
            TrickMoveKind::Bid => "move.bid",
            TrickMoveKind::Contract => "move.contract",
            TrickMoveKind::Discard => "move.discard",
            TrickMoveKind::Trick => "move.trick",
        },
        PlayError::Trick(error) => match error {
            TrickError::Over | TrickError::Bid(BidError::Over) => "state.phase",
            TrickError::NotYourTurn { .. } | TrickError::Bid(BidError::NotYourTurn { .. }) => {
                "move.seat"
            }
            TrickError::Bid(BidError::NotOpen { .. }) => "move.bid",
            TrickError::Bid(BidError::MustBid) => "move.pass",
            TrickError::OutOfStage { action, .. } => action_field(action),
            TrickError::ContractNotOpen { .. } => "move.contract",
            TrickError::NotHeld { discard: true, .. } => "move.discard",
            TrickError::NotHeld { discard: false, .. } | TrickError::MustFollow { .. } => {
                "move.trick"
            }
        },
    }
}

/// The field of a move's action.
const fn action_field(action: Action) -> &'static str {
    match action {
        Action::Play { .. } => "move.play",
        Action::Draw => "move.draw",
        Action::Pass => "move.pass",
        Action::EndTurn => "move.end_turn",
        Action::Bid(_) => "move.bid",
        Action::Name(_) => "move.contract",
        Action::Discard(_) => "move.discard",
        Action::Trick(_) => "move.trick",
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
            reason: play_reason(error),
            field: play_field(error).to_owned(),
            message: error.to_string(),
        }
    }
}

impl ApiError {
    /// The refusal of the `index`th move of a list: the field a refusal of
    /// a single move names (`move.seat`) becomes that move's
    /// (`moves[3].seat`), and a refusal of the state it meets (the match
    /// is over) names the move.
    #[must_use]
    pub fn at_move(mut self, index: usize) -> ApiError {
        let rest = self.field.strip_prefix("move").unwrap_or_default();
        self.field = format!("moves[{index}]{rest}");
        self
    }
}

/// The most characters of a request's own text (a name, a path, a
/// label) that a refusal quotes.
pub const QUOTE_CHARS: usize = 64;
/// The most characters of a refusal's message and field on the wire: a
/// backstop, so that no refusal is ever large whatever it quotes.
const MESSAGE_CHARS: usize = 512;
/// See [`MESSAGE_CHARS`].
const FIELD_CHARS: usize = 160;

/// `text` cut to at most `max` characters, with `…` where it was cut.
#[must_use]
pub fn clip(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => text.into(),
        Some((end, _)) => format!("{}…", text.get(..end).unwrap_or_default()).into(),
    }
}

/// Client input as a refusal quotes it: escaped like a Rust string, at
/// most [`QUOTE_CHARS`] characters of it.
#[must_use]
pub fn quote(input: &str) -> String {
    format!("{:?}", clip(input, QUOTE_CHARS))
}

impl ApiError {
    /// The message, bounded for the wire.
    fn wire_message(&self) -> std::borrow::Cow<'_, str> {
        clip(&self.message, MESSAGE_CHARS)
    }

    /// The field, bounded for the wire.
    fn wire_field(&self) -> std::borrow::Cow<'_, str> {
        clip(&self.field, FIELD_CHARS)
    }
}

impl From<ApiError> for Status {
    fn from(error: ApiError) -> Status {
        let error = ApiError {
            message: error.wire_message().into_owned(),
            field: error.wire_field().into_owned(),
            ..error
        };
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
    /// usual HTTP equivalent, with an illegal move (`FAILED_PRECONDITION`) as
    /// 409 Conflict: the move conflicts with the state of the game.
    #[must_use]
    pub fn http_status(&self) -> http::StatusCode {
        use http::StatusCode as Http;
        match (self.code, self.reason) {
            (_, ErrorReason::UnknownRoute) => Http::NOT_FOUND,
            (_, ErrorReason::MethodNotAllowed) => Http::METHOD_NOT_ALLOWED,
            (_, ErrorReason::RequestTooLarge) => Http::PAYLOAD_TOO_LARGE,
            (_, ErrorReason::BodyTimeout) => Http::REQUEST_TIMEOUT,
            (Code::InvalidArgument | Code::OutOfRange, _) => Http::BAD_REQUEST,
            (Code::FailedPrecondition, _) => Http::CONFLICT,
            (Code::Unauthenticated, _) => Http::UNAUTHORIZED,
            (Code::PermissionDenied, _) => Http::FORBIDDEN,
            (Code::NotFound | Code::Unimplemented, _) => Http::NOT_FOUND,
            (Code::ResourceExhausted, _) => Http::TOO_MANY_REQUESTS,
            (Code::Unavailable, _) => Http::SERVICE_UNAVAILABLE,
            (Code::DeadlineExceeded | Code::Cancelled, _) => Http::GATEWAY_TIMEOUT,
            _ => Http::INTERNAL_SERVER_ERROR,
        }
    }

    /// The JSON body of this refusal on the HTTP API (`pips.v1.HttpError`).
    #[must_use]
    pub fn http_body(&self) -> HttpError {
        HttpError {
            code: grpc_code_name(self.code).to_owned(),
            reason: self.reason as i32,
            field: self.wire_field().into_owned(),
            message: self.wire_message().into_owned(),
        }
    }

    /// Counts a refusal by reason, and writes it to the log (at `info`:
    /// refusals are the caller's fault, not the server's), at most a line
    /// a second for each reason: the line says how many more of its
    /// reason were held back since the line before (`crate::logs`).
    #[cfg(feature = "server")]
    pub fn log(&self) {
        crate::metrics::METRICS
            .refusals
            .get_or_create(&crate::metrics::ReasonLabels {
                reason: self.reason.as_str_name(),
            })
            .inc();
        let Some(more) = crate::logs::refusal(self.reason as i32).admit() else {
            return;
        };
        tracing::info!(
            code = ?self.code,
            reason = self.reason.as_str_name(),
            field = %self.wire_field(),
            more,
            "refused"
        );
    }
}

/// The canonical name of a gRPC status code (`INVALID_ARGUMENT`).
#[must_use]
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
    use crate::rules::{End, LayoutError, NoDraw, Placed, Tile, TileSet};

    #[test]
    fn quoted_input_is_bounded_and_escaped() {
        assert_eq!(quote("muggins"), "\"muggins\"");
        let long = "\u{1}".repeat(1_000_000);
        let quoted = quote(&long);
        assert!(quoted.ends_with("…\""), "{quoted}");
        assert_eq!(quoted.matches("\\u{1}").count(), QUOTE_CHARS);
        assert_eq!(clip("ééé", 2), "éé…");
        assert_eq!(clip("ééé", 3), "ééé");
        let huge = ApiError::invalid(ErrorReason::MalformedJson, "x".repeat(10_000), long);
        let status = Status::from(huge.clone());
        assert!(status.message().len() < 4 * (MESSAGE_CHARS + FIELD_CHARS) + 64);
        assert!(status.details().len() < 8 * (MESSAGE_CHARS + FIELD_CHARS));
        let body = huge.http_body();
        assert!(body.message.chars().count() <= MESSAGE_CHARS + 1);
        assert!(body.field.chars().count() <= FIELD_CHARS + 1);
    }

    #[test]
    fn a_move_is_refused_as_illegal_unless_it_names_what_does_not_exist() {
        let tile = Tile::new(1, 0);
        let cases = [
            (PlayError::MatchOver, ErrorReason::MatchOver, "state.phase"),
            (
                PlayError::InvalidTile { tile, max_pip: 6 },
                ErrorReason::InvalidTile,
                "move.play.tile",
            ),
            (
                PlayError::EndNotOpen { end: End::Up },
                ErrorReason::EndNotOpen,
                "move.play.end",
            ),
            (
                PlayError::CannotDraw(NoDraw::BoneyardExhausted),
                ErrorReason::CannotDraw,
                "move.draw",
            ),
            (
                PlayError::MustDrawNotPass { seat: 0 },
                ErrorReason::MustDrawNotPass,
                "move.pass",
            ),
        ];
        for (error, reason, field) in cases {
            let api = ApiError::from(error);
            assert_eq!((api.reason, api.field.as_str()), (reason, field));
            let malformed = matches!(error, PlayError::InvalidTile { .. });
            assert_eq!(api.code == Code::InvalidArgument, malformed, "{error:?}");
        }
    }

    #[test]
    fn a_fault_of_a_state_is_named_by_its_field() {
        let tile = Tile::new(1, 0);
        let cases = [
            (
                SetupError::InvalidTile {
                    at: TilePlace::Hand { seat: 1, index: 2 },
                    tile,
                    max_pip: 6,
                },
                "state.hands[1].tiles[2]",
            ),
            (
                SetupError::TileDuplicated {
                    at: TilePlace::Played { index: 4 },
                    tile,
                },
                "state.history[4].play.tile",
            ),
            (
                SetupError::TileMissing {
                    tiles: TileSet::EMPTY.with(tile),
                    boneyard: 0,
                },
                "state",
            ),
            (
                SetupError::Layout(LayoutError::DoesNotTouch {
                    end: End::Down,
                    index: 3,
                    placed: Placed { inner: 1, outer: 0 },
                    pips: 2,
                }),
                "state.layout.down[3]",
            ),
            (
                SetupError::SeatOutOfRange {
                    role: SeatRole::Mover { index: 0 },
                    seat: 9,
                    players: 2,
                },
                "state.history[0].seat",
            ),
            (SetupError::ForcedLeadMissing, "state.required_lead"),
        ];
        for (error, field) in cases {
            assert_eq!(
                ApiError::from_setup(&error, "state").field,
                field,
                "{error}"
            );
        }
    }
}
