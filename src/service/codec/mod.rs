//! Wire messages ⇄ rule values, one concept per file. Decoding only turns
//! wire values into rule values (reporting values that cannot even be
//! represented); every rule of consistency is checked once, by
//! [`Game::from_setup`](crate::rules::Game::from_setup).
//!
//! - [`wire`]: primitives several messages share: tile, end, seat, move,
//!   the spinner's position, phase and result.
//! - [`history`]: a hand's history in both state forms (readable entries,
//!   two bytes per move).
//! - [`arm`]: a run of placed tiles (an arm, a train) in both state forms.
//! - [`readable`]: the readable state (`GameState`) and its layout.
//! - [`trains`]: a train table in both state forms.
//! - [`foot`]: a chicken foot in both state forms.
//! - [`packed`]: the packed state (`PackedState`, the contents of tokens).
//! - [`rules`]: `Rules` ⇄ `pips.v1.Rules` (presets, overrides).
//!
//! They import downwards only: the shared primitives (`wire`, `rules`,
//! `history`, `arm`), then the tables (`trains`, `foot`), then the two
//! state forms (`readable`, `packed`), then `answers`.
//! - [`answers`]: events, what an answer says of the game after a move,
//!   legal moves and views.

pub mod answers;
pub mod arm;
pub mod foot;
pub mod history;
pub mod packed;
pub mod readable;
pub mod rules;
pub mod trains;
pub mod tricks;
pub mod wire;

use crate::proto::ErrorReason;
use crate::rules::TableKind;
use crate::service::error::ApiError;

pub use answers::{Outlook, encode_events, encode_legal_moves, encode_outlook, encode_view};
pub use foot::encode_foot_table;
pub use packed::{decode_packed, encode_packed};
pub use readable::{decode_state, encode_layout, encode_state};
pub use rules::{decode_rules, encode_rules};
pub use trains::encode_train_table;
pub use wire::{decode_move, decode_seat, decode_tile, encode_move, encode_tile};

/// The state format of a line game (both forms): unchanged since the
/// first, so that a line game's states and tokens read on every server.
pub const LINE_FORMAT: u32 = 1;
/// The state format of a table with a hub (trains or a chicken foot; both
/// forms): a server that reads only [`LINE_FORMAT`] refuses it rather than
/// misreading it.
pub const HUB_FORMAT: u32 = 2;
/// The state format of a trick game (both forms).
pub const TRICK_FORMAT: u32 = 3;

/// The format a state of `table` is written in.
#[must_use]
pub const fn format_version(table: TableKind) -> u32 {
    match table {
        TableKind::Line => LINE_FORMAT,
        TableKind::Trains | TableKind::ChickenFoot => HUB_FORMAT,
        TableKind::Tricks => TRICK_FORMAT,
    }
}

/// Fails unless a state at `prefix` is written in a format this server
/// reads.
fn check_format_version(version: u32, prefix: &str) -> Result<(), ApiError> {
    if matches!(version, LINE_FORMAT | HUB_FORMAT | TRICK_FORMAT) {
        return Ok(());
    }
    if version == 0 {
        // Every state the server hands out says its format: one without
        // (`{}`, or a state's fields with none of its own) is no state.
        return Err(ApiError::invalid(
            ErrorReason::MissingField,
            format!("{prefix}.format_version"),
            format!(
                "{prefix} is not a state: it has no format_version (a state the server handed out has {LINE_FORMAT} for a line, {HUB_FORMAT} for a table with a hub, {TRICK_FORMAT} for a trick game)"
            ),
        ));
    }
    Err(ApiError::invalid(
        ErrorReason::UnsupportedFormatVersion,
        format!("{prefix}.format_version"),
        format!(
            "format version {version} is not read by this server, which reads {LINE_FORMAT} (a line), {HUB_FORMAT} (a table with a hub: trains or a chicken foot) and {TRICK_FORMAT} (a trick game)"
        ),
    ))
}

/// The rules of a state at `prefix` written in format `version`: a
/// format this server reads, and the one of the rules' table.
fn decode_versioned_rules(
    version: u32,
    rules: Option<&crate::proto::Rules>,
    prefix: &str,
) -> Result<crate::rules::Rules, ApiError> {
    check_format_version(version, prefix)?;
    let rules = rules::decode_state_rules(rules, prefix)?;
    check_format_of(version, rules.table, prefix)?;
    Ok(rules)
}

/// Fails unless a state at `prefix` of `table` is written in its format.
fn check_format_of(version: u32, table: TableKind, prefix: &str) -> Result<(), ApiError> {
    let expected = format_version(table);
    if version == expected {
        return Ok(());
    }
    Err(ApiError::invalid(
        ErrorReason::UnsupportedFormatVersion,
        format!("{prefix}.format_version"),
        format!(
            "format version {version} is not that of this state's table: a line's state is format {LINE_FORMAT}, that of a table with a hub (trains, a chicken foot) {HUB_FORMAT}, a trick game's {TRICK_FORMAT}"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_without_a_format_is_no_state_and_an_unknown_one_is_named() {
        let error = check_format_version(0, "state").expect_err("no format");
        assert_eq!(error.reason, ErrorReason::MissingField);
        assert_eq!(error.field, "state.format_version");
        assert!(error.message.contains("not a state"), "{}", error.message);
        let error = check_format_version(9, "state").expect_err("format 9");
        assert_eq!(error.reason, ErrorReason::UnsupportedFormatVersion);
        assert!(
            error.message.contains("format version 9"),
            "{}",
            error.message
        );
        assert!(check_format_version(LINE_FORMAT, "state").is_ok());
        assert!(check_format_version(HUB_FORMAT, "state").is_ok());
        assert!(check_format_version(TRICK_FORMAT, "state").is_ok());
    }
}
