//! The rules of dominoes, with no knowledge of any transport.
//!
//! - [`tile`]: tiles and bit sets of tiles.
//! - [`options`]: the option space ([`Rules`]) every variant is a value of.
//! - [`presets`]: the named variants of RULES.md §1.
//! - [`layout`]: the tiles on the table and their open ends.
//! - [`scoring`]: in-play points and hand settlement arithmetic.
//! - [`deal`]: seeded, reproducible dealing and forced leads.
//! - [`moves`], [`events`]: what a seat does and what then happens.
//! - [`game`]: a validated [`Game`]: legal moves, `play`, `play_unchecked`.
//! - [`setup`]: an unvalidated [`Setup`] and the checked constructor
//!   [`Game::from_setup`].
//! - [`errors`]: why a state ([`SetupError`]) or a move ([`PlayError`]) is
//!   refused.

pub mod deal;
pub mod errors;
pub mod events;
pub mod game;
pub mod layout;
pub mod moves;
pub mod options;
pub mod presets;
pub mod scoring;
pub mod setup;
pub mod tile;

pub use errors::{PlayError, SetupError};
pub use events::{Event, EventSink, HandEnd, Outcome, ScoreReason, Side};
pub use game::{Game, HistoryEntry, Report};
pub use layout::{End, Geometry, Layout, Placed, SpinnerAt};
pub use moves::{Action, Move, Seat};
pub use options::{
    BlockedOwnPips, Connect, DrawRule, HandRounding, HandScale, InPlayScoring, LayoutRule,
    LeadRule, MatchEnd, NextLeadRule, Rules, RulesError, Settlement,
};
pub use setup::Setup;
pub use tile::{Tile, TileSet};
