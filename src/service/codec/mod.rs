//! Wire messages ⇄ rule values, one concept per file. Decoding only turns
//! wire values into rule values (reporting values that cannot even be
//! represented); every rule of consistency is checked once, by
//! [`Game::from_setup`](crate::rules::Game::from_setup).
//!
//! - [`wire`]: primitives several messages share: tile, end, seat, move,
//!   the spinner's position, phase and result.
//! - [`history`]: a hand's history in both state forms (readable entries,
//!   two bytes per move).
//! - [`readable`]: the readable state (`GameState`) and its layout.
//! - [`packed`]: the packed state (`PackedState`, the contents of tokens).
//! - [`rules`]: `Rules` ⇄ `pips.v1.Rules` (presets, overrides).
//! - [`answers`]: events, what an answer says of the game after a move,
//!   legal moves and views.

pub mod answers;
pub mod history;
pub mod packed;
pub mod readable;
pub mod rules;
pub mod wire;

use crate::proto::ErrorReason;
use crate::service::error::ApiError;

pub use answers::{Outlook, encode_events, encode_legal_moves, encode_outlook, encode_view};
pub use packed::{decode_packed, encode_packed};
pub use readable::{decode_state, encode_layout, encode_state};
pub use rules::{decode_rules, encode_rules};
pub use wire::{decode_move, decode_seat, decode_tile, encode_move, encode_tile};

/// The state format this server reads and writes (both forms).
pub const FORMAT_VERSION: u32 = 1;

/// Fails unless a state at `prefix` is written in the format this server
/// reads.
fn check_format_version(version: u32, prefix: &str) -> Result<(), ApiError> {
    if version == FORMAT_VERSION {
        return Ok(());
    }
    Err(ApiError::invalid(
        ErrorReason::UnsupportedFormatVersion,
        format!("{prefix}.format_version"),
        format!(
            "format version {version} is not read by this server, which reads {FORMAT_VERSION}"
        ),
    ))
}
