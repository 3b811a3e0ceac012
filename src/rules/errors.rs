//! Why a state or a move is refused. Every error names a machine-readable
//! reason (the wire contract's `ErrorReason`) and the field at fault.

use thiserror::Error;

use super::layout::End;
use super::moves::Seat;
use super::options::RulesError;
use super::tile::Tile;

/// A state that cannot be played from: the checked constructor
/// [`Game::from_setup`](super::Game::from_setup) refuses it.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum SetupError {
    /// An option is out of range or the options do not fit together.
    #[error("rules.{}: {}", .0.option, .0.message)]
    Rules(#[from] RulesError),
    /// A tile has a half above the set's highest.
    #[error("{field}: {tile} is not in the double-{max_pip} set")]
    InvalidTile {
        /// Where the tile is.
        field: String,
        /// The tile.
        tile: Tile,
        /// The set's highest half.
        max_pip: u8,
    },
    /// A tile appears twice.
    #[error("{field}: {tile} appears more than once in the state")]
    TileDuplicated {
        /// The second place it appears.
        field: String,
        /// The tile.
        tile: Tile,
    },
    /// A tile of the set appears nowhere.
    #[error("{tile} is in no hand, not in the boneyard and not on the layout")]
    TileMissing {
        /// The tile.
        tile: Tile,
    },
    /// Touching halves on the layout differ.
    #[error("{field}: {message}")]
    LayoutMismatch {
        /// The placed tile at fault.
        field: String,
        /// What does not match.
        message: String,
    },
    /// Given open ends differ from those the tiles make.
    #[error("{field}: {message}")]
    OpenEndsMismatch {
        /// The field at fault.
        field: String,
        /// What differs.
        message: String,
    },
    /// A seat number is out of range.
    #[error("{field}: seat {seat} does not exist with {players} players")]
    SeatOutOfRange {
        /// The field at fault.
        field: String,
        /// The seat given.
        seat: u32,
        /// Seats in the game.
        players: u8,
    },
    /// The state contradicts itself.
    #[error("{field}: {message}")]
    Inconsistent {
        /// The field at fault.
        field: String,
        /// What is wrong.
        message: String,
    },
}

impl SetupError {
    /// The machine-readable reason.
    pub fn reason(&self) -> &'static str {
        match self {
            SetupError::Rules(_) => "INVALID_RULES",
            SetupError::InvalidTile { .. } => "INVALID_TILE",
            SetupError::TileDuplicated { .. } => "TILE_DUPLICATED",
            SetupError::TileMissing { .. } => "TILE_MISSING",
            SetupError::LayoutMismatch { .. } => "LAYOUT_MISMATCH",
            SetupError::OpenEndsMismatch { .. } => "OPEN_ENDS_MISMATCH",
            SetupError::SeatOutOfRange { .. } => "SEAT_OUT_OF_RANGE",
            SetupError::Inconsistent { .. } => "INCONSISTENT_STATE",
        }
    }

    /// The field at fault, relative to the state (`hands[1].tiles[0]`).
    pub fn field(&self) -> String {
        match self {
            SetupError::Rules(e) if e.option == "players" => "players".to_owned(),
            SetupError::Rules(e) => format!("rules.{}", e.option),
            SetupError::TileMissing { .. } => String::new(),
            SetupError::InvalidTile { field, .. }
            | SetupError::TileDuplicated { field, .. }
            | SetupError::LayoutMismatch { field, .. }
            | SetupError::OpenEndsMismatch { field, .. }
            | SetupError::SeatOutOfRange { field, .. }
            | SetupError::Inconsistent { field, .. } => field.clone(),
        }
    }

    pub(crate) fn inconsistent(field: impl Into<String>, message: impl Into<String>) -> SetupError {
        SetupError::Inconsistent {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// A move that is not legal in the position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Error)]
pub enum PlayError {
    /// The match is over.
    #[error("the match is over; no move is accepted")]
    MatchOver,
    /// The seat does not exist.
    #[error("seat {seat} does not exist with {players} players")]
    SeatOutOfRange {
        /// The seat given.
        seat: Seat,
        /// Seats in the game.
        players: u8,
    },
    /// Another seat is to act.
    #[error("seat {seat} moved but seat {to_act} is to act")]
    NotYourTurn {
        /// The seat given.
        seat: Seat,
        /// The seat to act.
        to_act: Seat,
    },
    /// The tile is not in this game's set.
    #[error("{tile} is not in the double-{max_pip} set")]
    InvalidTile {
        /// The tile.
        tile: Tile,
        /// The set's highest half.
        max_pip: u8,
    },
    /// The seat does not hold the tile.
    #[error("seat {seat} does not hold {tile}")]
    TileNotInHand {
        /// The seat.
        seat: Seat,
        /// The tile.
        tile: Tile,
    },
    /// The tile does not show the end's number.
    #[error("{tile} does not fit the {end:?} end, which shows {pips}")]
    DoesNotMatchEnd {
        /// The tile.
        tile: Tile,
        /// The end.
        end: End,
        /// The number at that end.
        pips: u8,
    },
    /// The end is not open now (a short-side arm before the spinner's long
    /// sides are covered, `Down` before `Up`, or no spinner at all).
    #[error("the {end:?} end is not open")]
    EndNotOpen {
        /// The end.
        end: End,
    },
    /// A lead named an end.
    #[error("the layout is empty: the lead goes on no end (END_UNSPECIFIED)")]
    LeadHasNoEnd,
    /// A non-lead play named no end.
    #[error("the layout is not empty: name the end the tile goes on")]
    EndRequired,
    /// The rules force a particular lead.
    #[error("this hand must be led with {required}")]
    MustLeadRequiredTile {
        /// The tile that must lead.
        required: Tile,
    },
    /// A draw while a tile can be placed.
    #[error("seat {seat} can place a tile, so it may not draw")]
    MustPlayNotDraw {
        /// The seat.
        seat: Seat,
    },
    /// A pass while a tile can be placed.
    #[error("seat {seat} can place a tile, so it may not pass")]
    MustPlayNotPass {
        /// The seat.
        seat: Seat,
    },
    /// A pass while drawing is allowed.
    #[error("seat {seat} cannot place a tile but may draw, so it must draw")]
    MustDrawNotPass {
        /// The seat.
        seat: Seat,
    },
    /// A draw that the rules or the boneyard do not allow.
    #[error("drawing is not possible: {why}")]
    CannotDraw {
        /// Why not.
        why: &'static str,
    },
}

impl PlayError {
    /// The machine-readable reason.
    pub fn reason(&self) -> &'static str {
        match self {
            PlayError::MatchOver => "MATCH_OVER",
            PlayError::SeatOutOfRange { .. } => "SEAT_OUT_OF_RANGE",
            PlayError::NotYourTurn { .. } => "NOT_YOUR_TURN",
            PlayError::InvalidTile { .. } => "INVALID_TILE",
            PlayError::TileNotInHand { .. } => "TILE_NOT_IN_HAND",
            PlayError::DoesNotMatchEnd { .. } => "DOES_NOT_MATCH_END",
            PlayError::EndNotOpen { .. } => "END_NOT_OPEN",
            PlayError::LeadHasNoEnd => "LEAD_HAS_NO_END",
            PlayError::EndRequired => "END_REQUIRED",
            PlayError::MustLeadRequiredTile { .. } => "MUST_LEAD_REQUIRED_TILE",
            PlayError::MustPlayNotDraw { .. } => "MUST_PLAY_NOT_DRAW",
            PlayError::MustPlayNotPass { .. } => "MUST_PLAY_NOT_PASS",
            PlayError::MustDrawNotPass { .. } => "MUST_DRAW_NOT_PASS",
            PlayError::CannotDraw { .. } => "CANNOT_DRAW",
        }
    }

    /// The field of the move at fault (`move.play.tile`).
    pub fn field(&self) -> &'static str {
        match self {
            PlayError::MatchOver => "state.phase",
            PlayError::SeatOutOfRange { .. } | PlayError::NotYourTurn { .. } => "move.seat",
            PlayError::InvalidTile { .. }
            | PlayError::TileNotInHand { .. }
            | PlayError::MustLeadRequiredTile { .. } => "move.play.tile",
            PlayError::DoesNotMatchEnd { .. }
            | PlayError::EndNotOpen { .. }
            | PlayError::LeadHasNoEnd
            | PlayError::EndRequired => "move.play.end",
            PlayError::MustPlayNotDraw { .. } | PlayError::CannotDraw { .. } => "move.draw",
            PlayError::MustPlayNotPass { .. } | PlayError::MustDrawNotPass { .. } => "move.pass",
        }
    }

    /// Whether the move is malformed for this game (a seat or tile that does
    /// not exist) rather than merely illegal now.
    pub fn is_malformed(&self) -> bool {
        matches!(
            self,
            PlayError::SeatOutOfRange { .. } | PlayError::InvalidTile { .. }
        )
    }
}
