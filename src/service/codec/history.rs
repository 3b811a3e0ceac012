//! A hand's history in both state forms. The readable `GameState.history`
//! (and a view's) names each move's seat and action in messages; the packed
//! `PackedState.history` holds a line's move in two bytes: the action (bits
//! 0–1: 0 play, 1 draw, 2 pass), the seat (bits 2–4) and, for a play, the
//! end (bits 5–7) or, for a draw, whether its tile is recorded (bit 5);
//! then the index of the tile played or drawn. A move at a table with a hub
//! takes three: the first as a line's (action 3 ends a turn; no end), then
//! where a play goes (0 for another move): at a train table the train
//! (`train_byte`), at a chicken foot the arm (`arm_byte`); then the
//! tile's index. A trick game's move takes three too: its kind (2 a pass,
//! then [`Action::trick_bytes`]'s 4 a bid, 5 a contract, 6 a discard, 7 a
//! tile to the trick) plus 16 × its seat, then the two bytes
//! `trick_bytes` gives it.

use crate::proto::{self, ErrorReason};
use crate::rules::deal::MAX_SEATS;
use crate::rules::foot::MAX_ARMS;
use crate::rules::game::max_hand_moves;
use crate::rules::{
    Action, FootPlace, HistoryEntry, Move, Place, PlaceKind, Rules, Seat, SetupError, Tile, TrainId,
};
use crate::service::error::ApiError;

use super::wire::{
    TILE_COUNT, decode_bid, decode_contract, decode_optional_tile, decode_place,
    decode_required_tile, decode_seat, decode_tile, encode_bid, encode_contract, encode_end,
    encode_play, encode_tile, end_from_wire, tile_index_error,
};

/// Where the seat starts in a packed move's first byte.
const SEAT_SHIFT: u8 = 2;
/// Where the end (or a draw's recorded bit) starts in the first byte.
const END_SHIFT: u8 = 5;
/// The Mexican train's packed byte (a seat's train is 1 + its seat).
const MEXICAN_BYTE: u8 = MAX_SEATS as u8 + 1;

/// How a packed history is laid out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Packing {
    /// A line's: two bytes a move.
    Line,
    /// A train table's: three bytes a move.
    Trains,
    /// A chicken foot's: three bytes a move.
    Foot,
    /// A trick game's: three bytes a move.
    Tricks,
}

impl Packing {
    /// Bytes per move.
    const fn width(self) -> usize {
        match self {
            Packing::Line => 2,
            Packing::Trains | Packing::Foot | Packing::Tricks => 3,
        }
    }
}

/// A train as its packed byte: 1 + its owner's seat, or 9 for the
/// Mexican train (0 is none).
pub(super) fn train_byte(train: TrainId) -> u8 {
    match train {
        TrainId::Seat(seat) => seat.saturating_add(1),
        TrainId::Mexican => MEXICAN_BYTE,
    }
}

/// The train a packed byte names: `Some(None)` for 0 (none), `None` for a
/// byte that is not a train.
// (Three cases the caller tells apart; a new enum would only rename them.)
#[allow(clippy::option_option)]
pub(super) fn train_from_byte(byte: u8) -> Option<Option<TrainId>> {
    match byte {
        0 => Some(None),
        MEXICAN_BYTE => Some(Some(TrainId::Mexican)),
        seat if seat < MEXICAN_BYTE => Some(Some(TrainId::Seat(seat - 1))),
        _ => None,
    }
}

/// A place at a chicken foot as its packed byte: 1 for a new arm, 2 + the
/// arm for an arm (0 is none).
pub(super) fn arm_byte(place: FootPlace) -> u8 {
    match place {
        FootPlace::NewArm => 1,
        FootPlace::Arm(arm) => arm.saturating_add(2),
    }
}

/// The place at a chicken foot a packed byte names, if it names one.
fn arm_from_byte(byte: u8) -> Option<FootPlace> {
    match byte {
        1 => Some(FootPlace::NewArm),
        arm if arm >= 2 && usize::from(arm - 2) < MAX_ARMS => Some(FootPlace::Arm(arm - 2)),
        _ => None,
    }
}

/// One readable entry as `viewer` sees it: drawn tiles hidden from every
/// seat (a view), and a discard from every seat but its own.
#[must_use]
pub fn encode_entry_for(entry: &HistoryEntry, viewer: Option<Seat>) -> proto::HistoryEntry {
    let mut encoded = encode_entry(entry, false);
    if let Some(proto::history_entry::Action::Discard(discard)) = &mut encoded.action {
        if viewer != Some(entry.mv.seat) {
            discard.tile = None;
        }
    }
    encoded
}

/// One readable entry; `with_drawn`: name drawn tiles (a complete state),
/// or not (a seat's view; see [`encode_entry_for`], which also hides
/// another seat's discard).
#[must_use]
pub fn encode_entry(entry: &HistoryEntry, with_drawn: bool) -> proto::HistoryEntry {
    use proto::history_entry::Action as Wire;
    let action = match entry.mv.action {
        Action::Play { tile, place } => Wire::Play(encode_play(tile, place)),
        Action::Draw => Wire::Draw(proto::DrawnTile {
            tile: entry.drawn.filter(|_| with_drawn).map(encode_tile),
        }),
        Action::Pass => Wire::Pass(proto::Pass {}),
        Action::EndTurn => Wire::EndTurn(proto::EndTurn {}),
        Action::Bid(bid) => Wire::Bid(encode_bid(bid)),
        Action::Name(contract) => Wire::Contract(encode_contract(contract)),
        Action::Discard(tile) => Wire::Discard(proto::DiscardedTile {
            tile: Some(encode_tile(tile)),
        }),
        Action::Trick(tile) => Wire::Trick(encode_tile(tile)),
    };
    proto::HistoryEntry {
        seat: u32::from(entry.mv.seat),
        action: Some(action),
    }
}

/// The refusal of a history at `field` of `moves` moves, more than any
/// hand of `rules` holds at a table of `players` (the largest table when
/// `players` is no seat count, which the checked constructor refuses).
/// (Checked before a move is read, so that a padded history costs neither
/// the time nor the memory of reading it.)
fn too_long(moves: usize, rules: &Rules, players: u32, field: &str) -> Result<(), ApiError> {
    let seats = u8::try_from(players)
        .ok()
        .filter(|&n| (1..=MAX_SEATS as u8).contains(&n))
        .unwrap_or(MAX_SEATS as u8);
    let max = max_hand_moves(rules, seats);
    if moves <= max {
        return Ok(());
    }
    let error = SetupError::HistoryTooLong { moves, max };
    Err(ApiError::invalid(
        ErrorReason::InconsistentState,
        field,
        error.to_string(),
    ))
}

/// A readable history at `field`, of a game of `players` under `rules`.
pub(super) fn decode_entries(
    entries: &[proto::HistoryEntry],
    rules: &Rules,
    players: u32,
    field: &str,
) -> Result<Vec<HistoryEntry>, ApiError> {
    use proto::history_entry::Action as Wire;
    too_long(entries.len(), rules, players, field)?;
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
                let place = decode_place(play, &|| at("play"))?;
                let tile = decode_tile(tile, &tile_field)?;
                (Action::Play { tile, place }, None)
            }
            Some(Wire::Draw(draw)) => (
                Action::Draw,
                decode_optional_tile(draw.tile.as_ref(), &|| at("draw.tile"))?,
            ),
            Some(Wire::Pass(_)) => (Action::Pass, None),
            Some(Wire::EndTurn(_)) => (Action::EndTurn, None),
            Some(Wire::Bid(bid)) => (Action::Bid(decode_bid(bid, &|| at("bid"))?), None),
            Some(Wire::Contract(contract)) => (
                Action::Name(decode_contract(contract, &|| at("contract"))?),
                None,
            ),
            Some(Wire::Discard(discard)) => (
                Action::Discard(decode_required_tile(discard.tile.as_ref(), &|| {
                    at("discard.tile")
                })?),
                None,
            ),
            Some(Wire::Trick(tile)) => (Action::Trick(decode_tile(tile, &|| at("trick"))?), None),
            None => {
                return Err(ApiError::invalid(
                    ErrorReason::MalformedMove,
                    format!("{field}[{i}]"),
                    "a history entry must set one of play, draw, pass, end_turn, bid, contract, discard or trick",
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
    /// The train byte names no train (or a line's move names one).
    Train(u8),
    /// The arm byte names no place at a chicken foot.
    Arm(u8),
    /// A move that places nothing names a tile, an end or a train.
    NamesTile,
    /// The action is not one this table's moves have.
    Action,
}

/// One packed move (its first byte, its place byte at a table with a hub,
/// its tile byte), unpacked.
fn unpack(packing: Packing, first: u8, train: u8, second: u8) -> Result<HistoryEntry, ByteFault> {
    let seat: Seat = (first >> SEAT_SHIFT) & 7;
    let high = first >> END_SHIFT;
    let tile = || {
        if u32::from(second) < TILE_COUNT {
            Ok(Tile::from_index(u32::from(second)))
        } else {
            Err(ByteFault::Tile(second))
        }
    };
    let trains = packing == Packing::Trains;
    let hub = packing != Packing::Line;
    let (action, drawn) = match first & 3 {
        0 if packing == Packing::Foot => {
            let Some(at) = arm_from_byte(train) else {
                return Err(ByteFault::Arm(train));
            };
            if high != 0 {
                return Err(ByteFault::End(high));
            }
            (
                Action::Play {
                    tile: tile()?,
                    place: Place::at_foot(at),
                },
                None,
            )
        }
        0 if trains => {
            let Some(Some(train)) = train_from_byte(train) else {
                return Err(ByteFault::Train(train));
            };
            if high != 0 {
                return Err(ByteFault::End(high));
            }
            (
                Action::Play {
                    tile: tile()?,
                    place: Place::on_train(train),
                },
                None,
            )
        }
        0 => {
            let place = end_from_wire(i32::from(high))
                .map(Place::on_line)
                .ok_or(ByteFault::End(high))?;
            (
                Action::Play {
                    tile: tile()?,
                    place,
                },
                None,
            )
        }
        _ if train != 0 => return Err(ByteFault::NamesTile),
        1 if high == 1 => (Action::Draw, Some(tile()?)),
        1..=3 if high != 0 || second != 0 => return Err(ByteFault::NamesTile),
        1 => (Action::Draw, None),
        2 => (Action::Pass, None),
        3 if hub => (Action::EndTurn, None),
        _ => return Err(ByteFault::Action),
    };
    Ok(HistoryEntry {
        mv: Move { seat, action },
        drawn,
    })
}

/// One move as its packed bytes: the first, the place's at a table with a
/// hub (0 for none) and the tile's.
fn pack(entry: HistoryEntry) -> [u8; 3] {
    let index = |tile: Tile| u8::try_from(tile.index()).unwrap_or(u8::MAX);
    let end = |place: Place| u8::try_from(encode_end(place.end())).unwrap_or(0);
    let (action, high, train, second) = match (entry.mv.action, entry.drawn) {
        (Action::Play { tile, place }, _) => (
            0,
            end(place),
            match place.kind() {
                PlaceKind::Train(train) => train_byte(train),
                PlaceKind::Foot(at) => arm_byte(at),
                PlaceKind::Lead | PlaceKind::End(_) => 0,
            },
            index(tile),
        ),
        (Action::Draw, Some(tile)) => (1, 1, 0, index(tile)),
        (Action::Draw, None) => (1, 0, 0, 0),
        (Action::Pass, _) => (2, 0, 0, 0),
        (Action::EndTurn, _) => (3, 0, 0, 0),
        // Never in these formats: a placing game's check refuses a trick
        // game's moves, which a format of their own will hold. Bytes every
        // reader refuses (an end turned with an end named).
        (Action::Bid(_) | Action::Name(_) | Action::Discard(_) | Action::Trick(_), _) => {
            (3, 7, 0, 0)
        }
    };
    [
        action | entry.mv.seat << SEAT_SHIFT | high << END_SHIFT,
        train,
        second,
    ]
}

/// A packed history at `field` of a game of `players` under `rules`, laid out as
/// `packing` says, unpacked.
pub(super) fn decode_packed(
    bytes: &[u8],
    packing: Packing,
    rules: &Rules,
    players: u32,
    field: &str,
) -> Result<Vec<HistoryEntry>, ApiError> {
    let width = packing.width();
    if bytes.len() % width != 0 {
        return Err(ApiError::invalid(
            ErrorReason::InconsistentState,
            field,
            format!("{width} bytes per move"),
        ));
    }
    too_long(bytes.len() / width, rules, players, field)?;
    // Room for the move about to be played, so that it does not regrow.
    let mut history = Vec::with_capacity(bytes.len() / width + 2);
    for (i, chunk) in bytes.chunks_exact(width).enumerate() {
        let (first, train, second) = match *chunk {
            [first, second] => (first, 0, second),
            [first, train, second] => (first, train, second),
            _ => continue,
        };
        let entry = if packing == Packing::Tricks {
            unpack_trick(first, train, second)
        } else {
            unpack(packing, first, train, second)
        };
        match entry {
            Ok(entry) => history.push(entry),
            Err(fault) => return Err(byte_error(fault, chunk, format!("{field}[{i}]"))),
        }
    }
    Ok(history)
}

/// The refusal of the packed move `bytes` at `field`.
#[cold]
fn byte_error(fault: ByteFault, bytes: &[u8], field: String) -> ApiError {
    let malformed = |what: &str| {
        ApiError::invalid(
            ErrorReason::MalformedMove,
            field.clone(),
            format!("{bytes:?} is not a packed move: {what}"),
        )
    };
    match fault {
        ByteFault::Tile(index) => tile_index_error(u32::from(index), field),
        ByteFault::End(end) => malformed(&format!("{end} is not an End of this table")),
        ByteFault::Train(train) => malformed(&format!("{train} is not a train of this table")),
        ByteFault::Arm(arm) => malformed(&format!(
            "{arm} is not a place at a chicken foot (1 a new arm, 2 + an arm)"
        )),
        ByteFault::NamesTile => malformed("a move that places nothing names no tile and no place"),
        ByteFault::Action => malformed("unknown action"),
    }
}

/// A trick game's packed move (its kind and seat, then its two bytes),
/// unpacked.
fn unpack_trick(first: u8, a: u8, b: u8) -> Result<HistoryEntry, ByteFault> {
    let (kind, seat) = (first & 15, first >> 4);
    let action = match (kind, a, b) {
        (2, 0, 0) => Action::Pass,
        _ => Action::from_trick_bytes([kind, a, b]).ok_or(ByteFault::Action)?,
    };
    Ok(HistoryEntry {
        mv: Move { seat, action },
        drawn: None,
    })
}

/// A trick game's move as its three packed bytes.
fn pack_trick(entry: HistoryEntry) -> [u8; 3] {
    let [kind, a, b] = match entry.mv.action {
        Action::Pass => [2, 0, 0],
        // (A placing game's move is no trick game's: an unreadable kind.)
        action => action.trick_bytes().unwrap_or([15, 0, 0]),
    };
    [kind | entry.mv.seat << 4, a, b]
}

/// A history as packed bytes laid out as `packing` says.
pub(super) fn encode_packed(history: &[HistoryEntry], packing: Packing) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(history.len() * packing.width());
    for &entry in history {
        if packing == Packing::Tricks {
            bytes.extend(pack_trick(entry));
            continue;
        }
        let [first, train, second] = pack(entry);
        match packing {
            Packing::Line => bytes.extend([first, second]),
            Packing::Trains | Packing::Foot | Packing::Tricks => {
                bytes.extend([first, train, second]);
            }
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::End;
    use crate::rules::presets::preset;

    /// Rules of the largest set (the bound on a history's length is the
    /// set's).
    fn rules() -> Rules {
        preset("mexican_train").expect("preset").rules(4, None)
    }

    #[test]
    fn a_history_longer_than_any_hand_is_refused_unread() {
        let max = max_hand_moves(&rules(), MAX_SEATS as u8);
        let pass = [2u8, 0];
        let bytes: Vec<u8> = pass.iter().copied().cycle().take(2 * (max + 1)).collect();
        let error = decode_packed(&bytes, Packing::Line, &rules(), 8, "state_token.history")
            .expect_err("too long");
        assert_eq!(
            (error.reason, error.field.as_str()),
            (ErrorReason::InconsistentState, "state_token.history")
        );
        assert!(error.message.contains(&format!("{}", max + 1)), "{error:?}");
        let readable = vec![
            encode_entry(
                &HistoryEntry {
                    mv: Move::pass(0),
                    drawn: None
                },
                true
            );
            max + 1
        ];
        let error = decode_entries(&readable, &rules(), 8, "state.history").expect_err("too long");
        assert_eq!(error.field, "state.history");
        assert_eq!(
            decode_packed(&bytes[2..], Packing::Line, &rules(), 8, "h").map(|h| h.len()),
            Ok(max)
        );
        // The bound named is the state's own table's: 170 moves for two
        // seats at muggins, not the largest table's.
        let muggins = preset("muggins").expect("preset").rules(2, None);
        let two_seats = max_hand_moves(&muggins, 2);
        assert_eq!(two_seats, 170);
        let error = decode_entries(&readable[..=two_seats], &muggins, 2, "state.history")
            .expect_err("too long");
        assert!(
            error.message.contains("more than a hand of 170"),
            "{}",
            error.message
        );
    }

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
            let error = decode_packed(&bytes, Packing::Line, &rules(), 8, "state_token.history")
                .expect_err("refused");
            assert_eq!(
                (error.reason, error.field.as_str()),
                (reason, "state_token.history[0]"),
                "{bytes:?}"
            );
        }
    }

    #[test]
    fn a_train_tables_moves_take_three_bytes_and_name_their_train() {
        use crate::rules::{Place, TrainId};
        let play = |seat, tile, train| HistoryEntry {
            mv: Move {
                seat,
                action: Action::Play {
                    tile,
                    place: Place::on_train(train),
                },
            },
            drawn: None,
        };
        let entries = [
            play(7, Tile::new(12, 3), TrainId::Seat(7)),
            play(0, Tile::new(3, 3), TrainId::Mexican),
            HistoryEntry {
                mv: Move::draw(5),
                drawn: Some(Tile::new(9, 0)),
            },
            HistoryEntry {
                mv: Move::end_turn(2),
                drawn: None,
            },
            HistoryEntry {
                mv: Move::pass(6),
                drawn: None,
            },
        ];
        let packed = encode_packed(&entries, Packing::Trains);
        assert_eq!(packed.len(), 3 * entries.len());
        assert_eq!(&packed[3..6], &[0, MEXICAN_BYTE, 9]); // 3-3 is tile 9
        assert_eq!(
            decode_packed(&packed, Packing::Trains, &rules(), 8, "h"),
            Ok(entries.to_vec())
        );
        let readable: Vec<_> = entries.iter().map(|e| encode_entry(e, true)).collect();
        assert_eq!(
            decode_entries(&readable, &rules(), 8, "h"),
            Ok(entries.to_vec())
        );
        // A play names a train (1 + seat up to 8, 9 the Mexican), never an
        // end; other moves name nothing; a line has no end of turn.
        for (bytes, packing) in [
            (&[0u8, 0, 5][..], Packing::Trains),
            (&[0, 10, 5], Packing::Trains),
            (&[1 << 5, 1, 5], Packing::Trains),
            (&[2, 1, 0], Packing::Trains),
            (&[3, 0, 0, 0], Packing::Trains),
            (&[3, 0], Packing::Line),
        ] {
            assert!(
                decode_packed(bytes, packing, &rules(), 8, "h").is_err(),
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
        let packed = encode_packed(&entries, Packing::Line);
        assert_eq!(
            decode_packed(&packed, Packing::Line, &rules(), 8, "h"),
            Ok(entries.to_vec())
        );
        let readable: Vec<_> = entries.iter().map(|e| encode_entry(e, true)).collect();
        assert_eq!(
            decode_entries(&readable, &rules(), 8, "h"),
            Ok(entries.to_vec())
        );
        let public = encode_entry(&entries[2], false);
        assert_eq!(
            public.action,
            Some(proto::history_entry::Action::Draw(proto::DrawnTile {
                tile: None
            }))
        );
    }
}
