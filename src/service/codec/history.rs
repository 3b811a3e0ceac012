//! A hand's history in both state forms. The readable `GameState.history`
//! (and a view's) names each move's seat and action in messages; the packed
//! `PackedState.history` holds a move in two bytes: the action (bits 0–1:
//! 0 play, 1 draw, 2 pass), the seat (bits 2–4) and, for a play, the end
//! (bits 5–7) or, for a draw, whether its tile is recorded (bit 5); then
//! the index of the tile played or drawn.

use crate::proto::{self, ErrorReason};
use crate::rules::{Action, HistoryEntry, Move, Seat, Tile};
use crate::service::error::ApiError;

use super::wire::{
    TILE_COUNT, decode_seat, decode_tile, encode_place, encode_tile, place_from_wire,
    tile_index_error,
};

/// Where the seat starts in a packed move's first byte.
const SEAT_SHIFT: u8 = 2;
/// Where the end (or a draw's recorded bit) starts in the first byte.
const END_SHIFT: u8 = 5;

/// One readable entry; `with_drawn`: name drawn tiles (a complete state),
/// or not (a seat's view).
#[must_use]
pub fn encode_entry(entry: &HistoryEntry, with_drawn: bool) -> proto::HistoryEntry {
    use proto::history_entry::Action as Wire;
    let action = match entry.mv.action {
        Action::Play { tile, place } => Wire::Play(proto::PlayTile {
            tile: Some(encode_tile(tile)),
            end: encode_place(place),
        }),
        Action::Draw => Wire::Draw(proto::DrawnTile {
            tile: entry.drawn.filter(|_| with_drawn).map(encode_tile),
        }),
        Action::Pass => Wire::Pass(proto::Pass {}),
        // Only a train table's moves end a turn; no game the service holds
        // has one until the contract carries train tables
        // (docs/design/train-table.md, step 4).
        Action::EndTurn => Wire::Pass(proto::Pass {}),
    };
    proto::HistoryEntry {
        seat: u32::from(entry.mv.seat),
        action: Some(action),
    }
}

/// A readable history at `field`.
pub(super) fn decode_entries(
    entries: &[proto::HistoryEntry],
    field: &str,
) -> Result<Vec<HistoryEntry>, ApiError> {
    use proto::history_entry::Action as Wire;
    // Room for the move about to be played, so that it does not regrow.
    let mut history = Vec::with_capacity(entries.len() + 2);
    for (i, entry) in entries.iter().enumerate() {
        let at = |name: &str| format!("{field}[{i}].{name}");
        // (A seat beyond the game is refused by the checked constructor,
        // which knows the player count.)
        let seat = decode_seat(entry.seat, &|| at("seat"))?;
        let (action, drawn) = match &entry.action {
            Some(Wire::Play(play)) => {
                let tile_field = || at("play.tile");
                let tile = play
                    .tile
                    .as_ref()
                    .ok_or_else(|| ApiError::missing(tile_field()))?;
                let place = place_from_wire(play.end).ok_or_else(|| {
                    ApiError::invalid(
                        ErrorReason::MalformedMove,
                        at("play.end"),
                        format!("{} is not an End", play.end),
                    )
                })?;
                let tile = decode_tile(tile, &tile_field)?;
                (Action::Play { tile, place }, None)
            }
            Some(Wire::Draw(draw)) => {
                let drawn = draw
                    .tile
                    .as_ref()
                    .map(|tile| decode_tile(tile, &|| at("draw.tile")))
                    .transpose()?;
                (Action::Draw, drawn)
            }
            Some(Wire::Pass(_)) => (Action::Pass, None),
            None => {
                return Err(ApiError::invalid(
                    ErrorReason::MalformedMove,
                    format!("{field}[{i}]"),
                    "a history entry must set one of play, draw or pass",
                ));
            }
        };
        history.push(HistoryEntry {
            mv: Move { seat, action },
            drawn,
        });
    }
    Ok(history)
}

/// Why a packed move is not one.
#[derive(Clone, Copy, Debug)]
enum ByteFault {
    /// The tile index is beyond the largest set.
    Tile(u8),
    /// The end is not an `End` value.
    End(u8),
    /// A pass, or a draw without a recorded tile, names a tile or an end.
    NamesTile,
    /// The action is not play, draw or pass.
    Action,
}

/// One packed move, unpacked.
fn unpack(first: u8, second: u8) -> Result<HistoryEntry, ByteFault> {
    let seat: Seat = (first >> SEAT_SHIFT) & 7;
    let high = first >> END_SHIFT;
    let tile = || {
        if u32::from(second) < TILE_COUNT {
            Ok(Tile::from_index(u32::from(second)))
        } else {
            Err(ByteFault::Tile(second))
        }
    };
    let (action, drawn) = match first & 3 {
        0 => {
            let place = place_from_wire(i32::from(high)).ok_or(ByteFault::End(high))?;
            (
                Action::Play {
                    tile: tile()?,
                    place,
                },
                None,
            )
        }
        1 if high == 1 => (Action::Draw, Some(tile()?)),
        1 | 2 if high != 0 || second != 0 => return Err(ByteFault::NamesTile),
        1 => (Action::Draw, None),
        2 => (Action::Pass, None),
        _ => return Err(ByteFault::Action),
    };
    Ok(HistoryEntry {
        mv: Move { seat, action },
        drawn,
    })
}

/// One move as its two packed bytes.
fn pack(entry: HistoryEntry) -> [u8; 2] {
    let index = |tile: Tile| u8::try_from(tile.index()).unwrap_or(u8::MAX);
    let place = |place| u8::try_from(encode_place(place)).unwrap_or(0);
    let (action, high, second) = match (entry.mv.action, entry.drawn) {
        (Action::Play { tile, place: at }, _) => (0, place(at), index(tile)),
        (Action::Draw, Some(tile)) => (1, 1, index(tile)),
        (Action::Draw, None) => (1, 0, 0),
        (Action::Pass, _) => (2, 0, 0),
        // Only a train table's moves end a turn; no game the service holds
        // has one until the contract carries train tables
        // (docs/design/train-table.md, step 4).
        (Action::EndTurn, _) => (3, 0, 0),
    };
    [
        action | entry.mv.seat << SEAT_SHIFT | high << END_SHIFT,
        second,
    ]
}

/// A packed history (two bytes per move) at `field`, unpacked.
pub(super) fn decode_packed(bytes: &[u8], field: &str) -> Result<Vec<HistoryEntry>, ApiError> {
    if bytes.len() % 2 != 0 {
        return Err(ApiError::invalid(
            ErrorReason::InconsistentState,
            field,
            "two bytes per move",
        ));
    }
    // Room for the move about to be played, so that it does not regrow.
    let mut history = Vec::with_capacity(bytes.len() / 2 + 2);
    for (i, pair) in bytes.chunks_exact(2).enumerate() {
        let &[first, second] = pair else { continue };
        match unpack(first, second) {
            Ok(entry) => history.push(entry),
            Err(fault) => return Err(byte_error(fault, [first, second], format!("{field}[{i}]"))),
        }
    }
    Ok(history)
}

/// The refusal of the packed move `bytes` at `field`.
#[cold]
fn byte_error(fault: ByteFault, bytes: [u8; 2], field: String) -> ApiError {
    let malformed = |what: &str| {
        ApiError::invalid(
            ErrorReason::MalformedMove,
            field.clone(),
            format!("{bytes:?} is not a packed move: {what}"),
        )
    };
    match fault {
        ByteFault::Tile(index) => tile_index_error(u32::from(index), field),
        ByteFault::End(end) => malformed(&format!("{end} is not an End")),
        ByteFault::NamesTile => malformed("a pass names no tile and no end"),
        ByteFault::Action => malformed("unknown action"),
    }
}

/// A history as packed bytes.
pub(super) fn encode_packed(history: &[HistoryEntry]) -> Vec<u8> {
    history.iter().copied().flat_map(pack).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::End;

    #[test]
    fn malformed_packed_moves_are_refused() {
        let cases = [
            ([3, 0], ErrorReason::MalformedMove),          // no such action
            ([0, 100], ErrorReason::InvalidTile),          // beyond double-12
            ([1 | 1 << 5, 91], ErrorReason::InvalidTile),  // a drawn tile beyond it
            ([2, 5], ErrorReason::MalformedMove),          // a pass naming a tile
            ([1 | 2 << 5, 0], ErrorReason::MalformedMove), // a draw with an end
            ([7 << 5, 0], ErrorReason::MalformedMove),     // no such end
        ];
        for (bytes, reason) in cases {
            let error = decode_packed(&bytes, "state_token.history").expect_err("refused");
            assert_eq!(
                (error.reason, error.field.as_str()),
                (reason, "state_token.history[0]"),
                "{bytes:?}"
            );
        }
    }

    #[test]
    fn both_forms_round_trip_every_kind_of_move() {
        let entries = [
            HistoryEntry {
                mv: Move::play(3, Tile::new(12, 11), Some(End::Down)),
                drawn: None,
            },
            HistoryEntry {
                mv: Move::play(0, Tile::new(0, 0), None),
                drawn: None,
            },
            HistoryEntry {
                mv: Move::draw(2),
                drawn: Some(Tile::new(0, 0)),
            },
            HistoryEntry {
                mv: Move::draw(2),
                drawn: None,
            },
            HistoryEntry {
                mv: Move::pass(1),
                drawn: None,
            },
        ];
        let packed = encode_packed(&entries);
        assert_eq!(decode_packed(&packed, "h"), Ok(entries.to_vec()));
        let readable: Vec<_> = entries.iter().map(|e| encode_entry(e, true)).collect();
        assert_eq!(decode_entries(&readable, "h"), Ok(entries.to_vec()));
        let public = encode_entry(&entries[2], false);
        assert_eq!(
            public.action,
            Some(proto::history_entry::Action::Draw(proto::DrawnTile {
                tile: None
            }))
        );
    }
}
