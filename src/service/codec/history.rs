//! The one bit layout of a history move, shared by both state forms.
//!
//! The readable `GameState.history` holds one number per move:
//! bits 0–1 the action (0 play, 1 draw, 2 pass), 2–4 the seat, 5–11 the
//! tile's index, 12–14 the end, 15 and up the hand. The packed
//! `PackedState.history` holds the same move in two bytes — the number's
//! action and seat bits with the end above them, then the tile — and the
//! hands as runs (`history_hands`). Both are read through one unpacking.

use crate::proto::ErrorReason;
use crate::rules::{Action, HistoryEntry, Move, Seat, Tile};
use crate::service::error::ApiError;

use super::wire::{TILE_COUNT, encode_end, end_from_wire, tile_index_error};

/// Bits of the action.
const ACTION_BITS: u32 = 2;
/// Where the seat starts.
const SEAT_SHIFT: u32 = 2;
/// Where the tile's index starts.
const TILE_SHIFT: u32 = 5;
/// Where the end starts.
const END_SHIFT: u32 = 12;
/// Where the hand starts.
const HAND_SHIFT: u32 = 15;
/// The action and seat bits of a packed number: those below the tile, the
/// same in the first byte of a packed move.
const ACTION_AND_SEAT: u32 = (1 << TILE_SHIFT) - 1;

/// One history entry as its packed number.
#[must_use]
pub fn encode_code(entry: &HistoryEntry) -> u32 {
    let (action, tile, end) = match entry.mv.action {
        Action::Play { tile, end } => (0, tile.index(), encode_end(end).unsigned_abs()),
        Action::Draw => (1, 0, 0),
        Action::Pass => (2, 0, 0),
    };
    action
        | u32::from(entry.mv.seat) << SEAT_SHIFT
        | tile << TILE_SHIFT
        | end << END_SHIFT
        | entry.hand << HAND_SHIFT
}

/// Why a packed history number is not a move.
#[derive(Clone, Copy, Debug)]
enum CodeFault {
    /// The tile index is beyond the largest set.
    Tile(u32),
    /// The end is not an `End` value.
    End,
    /// A draw or pass names a tile or an end.
    NamesTile,
    /// The action is not play, draw or pass.
    Action,
}

impl CodeFault {
    /// The error for `code` at `field`.
    #[cold]
    fn error(self, code: u32, field: String) -> ApiError {
        let malformed = |what: &str| {
            ApiError::invalid(
                ErrorReason::MalformedMove,
                field.clone(),
                format!("{code} is not a packed move: {what}"),
            )
        };
        match self {
            CodeFault::Tile(index) => tile_index_error(index, field),
            CodeFault::End => malformed(&format!("{} is not an End", (code >> END_SHIFT) & 7)),
            CodeFault::NamesTile => malformed("a draw or pass names no tile"),
            CodeFault::Action => malformed("unknown action"),
        }
    }
}

/// One packed history number, unpacked.
fn unpack(code: u32) -> Result<HistoryEntry, CodeFault> {
    let bits = |shift: u32, width: u32| (code >> shift) & ((1 << width) - 1);
    let (tile, end) = (bits(TILE_SHIFT, 7), bits(END_SHIFT, 3));
    // (Three bits: always a `Seat`.)
    let seat = Seat::try_from(bits(SEAT_SHIFT, 3)).unwrap_or(Seat::MAX);
    let action = match bits(0, ACTION_BITS) {
        0 => {
            if tile >= TILE_COUNT {
                return Err(CodeFault::Tile(tile));
            }
            let end = i32::try_from(end)
                .ok()
                .and_then(end_from_wire)
                .ok_or(CodeFault::End)?;
            Action::Play {
                tile: Tile::from_index(tile),
                end,
            }
        }
        1 | 2 if tile != 0 || end != 0 => return Err(CodeFault::NamesTile),
        1 => Action::Draw,
        2 => Action::Pass,
        _ => return Err(CodeFault::Action),
    };
    Ok(HistoryEntry {
        hand: code >> HAND_SHIFT,
        mv: Move { seat, action },
    })
}

/// A readable state's history (one number per move) at `field`, unpacked.
/// (One loop with a small error type: a `Result` carrying an [`ApiError`]
/// per entry would cost more than the unpacking.)
pub(super) fn decode_codes(codes: &[u32], field: &str) -> Result<Vec<HistoryEntry>, ApiError> {
    // Room for the move about to be played, so that it does not regrow.
    let mut history = Vec::with_capacity(codes.len() + 2);
    for (i, &code) in codes.iter().enumerate() {
        match unpack(code) {
            Ok(entry) => history.push(entry),
            Err(fault) => return Err(fault.error(code, format!("{field}[{i}]"))),
        }
    }
    Ok(history)
}

/// A move's two bytes as its packed number (hand 0).
fn code_of_bytes(first: u8, second: u8) -> u32 {
    let first = u32::from(first);
    first & ACTION_AND_SEAT | u32::from(second) << TILE_SHIFT | first >> TILE_SHIFT << END_SHIFT
}

/// A move's two bytes, the inverse of [`code_of_bytes`].
fn bytes_of(entry: HistoryEntry) -> [u8; 2] {
    let code = encode_code(&entry);
    let byte = |value: u32| u8::try_from(value & 0xff).unwrap_or(0);
    let end = code >> END_SHIFT & 7;
    [
        byte(code & ACTION_AND_SEAT | end << TILE_SHIFT),
        byte(code >> TILE_SHIFT & 0x7f),
    ]
}

/// A packed state's history given as `moves` (two bytes each) and `hands`
/// (runs of hand number and count) at `prefix`, unpacked.
pub(super) fn decode_packed(
    moves: &[u8],
    hands: &[u32],
    prefix: &str,
) -> Result<Vec<HistoryEntry>, ApiError> {
    let inconsistent = |field: &str, message: &str| {
        ApiError::invalid(
            ErrorReason::InconsistentState,
            format!("{prefix}.{field}"),
            message,
        )
    };
    if moves.len() % 2 != 0 {
        return Err(inconsistent("history", "two bytes per move"));
    }
    if hands.len() % 2 != 0 {
        return Err(inconsistent(
            "history_hands",
            "pairs of hand number and number of moves",
        ));
    }
    // Room for the move about to be played, so that it does not regrow.
    let mut history = Vec::with_capacity(moves.len() / 2 + 2);
    let mut pairs = moves.chunks_exact(2);
    for run in hands.chunks_exact(2) {
        let &[hand, count] = run else { continue };
        for _ in 0..count {
            let Some(&[first, second]) = pairs.next() else {
                return Err(inconsistent(
                    "history_hands",
                    "the runs count more moves than the history holds",
                ));
            };
            let code = code_of_bytes(first, second);
            match unpack(code) {
                Ok(entry) => history.push(HistoryEntry { hand, ..entry }),
                Err(fault) => {
                    let field = format!("{prefix}.history[{}]", history.len());
                    return Err(fault.error(code, field));
                }
            }
        }
    }
    if pairs.next().is_some() {
        return Err(inconsistent(
            "history_hands",
            "the runs count fewer moves than the history holds",
        ));
    }
    Ok(history)
}

/// A history as a packed state's bytes and runs of hands.
pub(super) fn encode_packed(history: &[HistoryEntry]) -> (Vec<u8>, Vec<u32>) {
    let mut moves = Vec::with_capacity(history.len() * 2);
    let mut hands = Vec::new();
    let mut run: Option<(u32, u32)> = None;
    for entry in history {
        moves.extend(bytes_of(*entry));
        run = match run {
            Some((hand, count)) if hand == entry.hand => Some((hand, count + 1)),
            Some((hand, count)) => {
                hands.extend([hand, count]);
                Some((entry.hand, 1))
            }
            None => Some((entry.hand, 1)),
        };
    }
    if let Some((hand, count)) = run {
        hands.extend([hand, count]);
    }
    (moves, hands)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_packed_moves_are_refused() {
        let cases = [
            (3, ErrorReason::MalformedMove),                   // no such action
            (100 << TILE_SHIFT, ErrorReason::InvalidTile),     // beyond double-12
            (1 | 5 << TILE_SHIFT, ErrorReason::MalformedMove), // a draw naming a tile
            (2 | 1 << END_SHIFT, ErrorReason::MalformedMove),  // a pass naming an end
            (7 << END_SHIFT, ErrorReason::MalformedMove),      // no such end
        ];
        for (code, reason) in cases {
            let error = decode_codes(&[code], "state.history").expect_err("refused");
            assert_eq!(
                (error.reason, error.field.as_str()),
                (reason, "state.history[0]"),
                "{code}"
            );
        }
        let entry = decode_codes(&[1 << SEAT_SHIFT | 2 << HAND_SHIFT | 1], "state.history");
        assert_eq!(
            entry.map(|e| e.iter().map(|e| (e.hand, e.mv)).collect()),
            Ok(vec![(2, Move::draw(1))])
        );
    }

    #[test]
    fn both_forms_unpack_every_move_alike() {
        let moves = [
            Move::play(3, Tile::new(12, 11), Some(crate::rules::End::Down)),
            Move::play(0, Tile::new(0, 0), None),
            Move::draw(2),
            Move::pass(1),
        ];
        for mv in moves {
            let entry = HistoryEntry { hand: 7, mv };
            let [first, second] = bytes_of(entry);
            let from_bytes = unpack(code_of_bytes(first, second)).expect("a move");
            assert_eq!(
                HistoryEntry {
                    hand: 7,
                    ..from_bytes
                },
                entry
            );
            assert_eq!(unpack(encode_code(&entry)).expect("a move"), entry);
        }
    }
}
