//! Wire primitives that several messages share: tiles, ends, seats, moves,
//! the spinner's position, and how a match stands (phase and result).
//! Decoding only turns wire values into rule values, reporting values that
//! cannot even be represented; every rule of consistency is the checked
//! constructor's.
//!
//! Field paths are built only when an error needs one (`field` closures):
//! formatting a path for every tile and move of a state would cost more than
//! the decoding itself.

use crate::proto::{self, ErrorReason};
use crate::rules::deal::MAX_SEATS;
use crate::rules::foot::MAX_ARMS;
use crate::rules::record::DIGEST_LEN;
use crate::rules::tile::MAX_PIP_LIMIT;
use crate::rules::tricks::auction::Bid;
use crate::rules::tricks::contract::Contract;
use crate::rules::{
    Action, End, FootPlace, MatchDigest, Move, Outcome, Place, PlaceKind, Seat, SpinnerAt, Tile,
    TileSet, TrainId,
};

use crate::service::error::ApiError;

/// A half's pips, if any set could hold it.
pub(super) fn decode_half(value: u32, field: &impl Fn() -> String) -> Result<u8, ApiError> {
    u8::try_from(value)
        .ok()
        .filter(|&pips| pips <= MAX_PIP_LIMIT)
        .ok_or_else(|| {
            ApiError::invalid(
                ErrorReason::InvalidTile,
                field(),
                format!("{value} pips: no set has a half above {MAX_PIP_LIMIT}"),
            )
        })
}

/// The hub double of a readable table at `field`: present, and a double
/// (else refused for `reason`, the table's mismatch).
pub(super) fn decode_hub(
    hub: Option<&proto::Tile>,
    reason: ErrorReason,
    field: &impl Fn() -> String,
) -> Result<Tile, ApiError> {
    let hub = hub.ok_or_else(|| ApiError::missing(field()))?;
    let hub = decode_tile(hub, field)?;
    if !hub.is_double() {
        return Err(ApiError::invalid(
            reason,
            field(),
            format!("the hub is a double, not {hub}"),
        ));
    }
    Ok(hub)
}

/// A tile given at `field`.
///
/// # Errors
/// `ERROR_REASON_INVALID_TILE` when a half is beyond every set.
pub fn decode_tile(tile: &proto::Tile, field: &impl Fn() -> String) -> Result<Tile, ApiError> {
    Ok(Tile::new(
        decode_half(tile.a, field)?,
        decode_half(tile.b, field)?,
    ))
}

/// A tile that must be given at `field`.
///
/// # Errors
/// `ERROR_REASON_MISSING_FIELD` without one, else as [`decode_tile`].
pub(super) fn decode_required_tile(
    tile: Option<&proto::Tile>,
    field: &impl Fn() -> String,
) -> Result<Tile, ApiError> {
    decode_tile(tile.ok_or_else(|| ApiError::missing(field()))?, field)
}

/// A tile given at `field`, if one is.
pub(super) fn decode_optional_tile(
    tile: Option<&proto::Tile>,
    field: &impl Fn() -> String,
) -> Result<Option<Tile>, ApiError> {
    tile.map(|t| decode_tile(t, field)).transpose()
}

/// A tile, larger half first.
#[must_use]
pub fn encode_tile(tile: Tile) -> proto::Tile {
    proto::Tile {
        a: u32::from(tile.high()),
        b: u32::from(tile.low()),
    }
}

/// Tiles in the largest set (double-twelve): tile indices are below this.
pub(super) const TILE_COUNT: u32 = TileSet::full(MAX_PIP_LIMIT).len();

/// The refusal of a tile index at `field` that no set holds.
#[cold]
pub(super) fn tile_index_error(index: u32, field: String) -> ApiError {
    ApiError::invalid(
        ErrorReason::InvalidTile,
        field,
        format!("tile index {index} is beyond double-{MAX_PIP_LIMIT}"),
    )
}

/// A tile given by its index (high*(high+1)/2 + low) at `field`.
pub(super) fn decode_tile_index(index: u32, field: &impl Fn() -> String) -> Result<Tile, ApiError> {
    if index >= TILE_COUNT {
        return Err(tile_index_error(index, field()));
    }
    Ok(Tile::from_index(index))
}

/// A seat number at `field` (its range is checked against the game later).
///
/// # Errors
/// `ERROR_REASON_SEAT_OUT_OF_RANGE` when no game has such a seat.
pub fn decode_seat(value: u32, field: &impl Fn() -> String) -> Result<Seat, ApiError> {
    Seat::try_from(value).map_err(|_| {
        ApiError::invalid(
            ErrorReason::SeatOutOfRange,
            field(),
            format!("seat {value} does not exist"),
        )
    })
}

/// An `End` value as the rules' end: `Some(None)` for `END_UNSPECIFIED` (no
/// end named), `None` for a value that is not an `End`.
// (Three cases the caller tells apart in one `match`; a new enum would
// only rename them.)
#[allow(clippy::option_option)]
pub(super) fn end_from_wire(value: i32) -> Option<Option<End>> {
    match proto::End::try_from(value).ok()? {
        proto::End::Unspecified => Some(None),
        proto::End::Left => Some(Some(End::Left)),
        proto::End::Right => Some(Some(End::Right)),
        proto::End::Up => Some(Some(End::Up)),
        proto::End::Down => Some(Some(End::Down)),
    }
}

/// A train named at `field`.
///
/// # Errors
/// `ERROR_REASON_MALFORMED_MOVE` when it names no train,
/// `ERROR_REASON_SEAT_OUT_OF_RANGE` for a seat no table has.
pub(super) fn decode_train(
    train: &proto::TrainRef,
    field: &impl Fn() -> String,
) -> Result<TrainId, ApiError> {
    use proto::train_ref::Owner;
    match train.owner {
        Some(Owner::Seat(seat)) => match Seat::try_from(seat) {
            Ok(seat) if usize::from(seat) < MAX_SEATS => Ok(TrainId::Seat(seat)),
            _ => Err(ApiError::invalid(
                ErrorReason::SeatOutOfRange,
                format!("{}.seat", field()),
                format!("seat {seat} does not exist: a table seats at most {MAX_SEATS}"),
            )),
        },
        Some(Owner::Mexican(true)) => Ok(TrainId::Mexican),
        Some(Owner::Mexican(false)) | None => Err(ApiError::invalid(
            ErrorReason::MalformedMove,
            field(),
            "a train names its owner's seat, or mexican: true",
        )),
    }
}

/// A train as its wire reference.
pub(super) fn encode_train(train: TrainId) -> proto::TrainRef {
    use proto::train_ref::Owner;
    proto::TrainRef {
        owner: Some(match train {
            TrainId::Seat(seat) => Owner::Seat(u32::from(seat)),
            TrainId::Mexican => Owner::Mexican(true),
        }),
    }
}

/// The place at a chicken foot that `arm` at `field` names.
pub(super) fn decode_arm_ref(
    arm: &proto::ArmRef,
    field: &impl Fn() -> String,
) -> Result<FootPlace, ApiError> {
    use proto::arm_ref::Place as Arm;
    match arm.place {
        Some(Arm::Arm(index)) => match u8::try_from(index) {
            Ok(index) if usize::from(index) < MAX_ARMS => Ok(FootPlace::Arm(index)),
            _ => Err(ApiError::invalid(
                ErrorReason::MalformedMove,
                format!("{}.arm", field()),
                format!("arm {index} does not exist: a chicken foot has at most {MAX_ARMS}"),
            )),
        },
        Some(Arm::NewArm(true)) => Ok(FootPlace::NewArm),
        Some(Arm::NewArm(false)) | None => Err(ApiError::invalid(
            ErrorReason::MalformedMove,
            field(),
            "a place at a chicken foot names an arm, or new_arm: true",
        )),
    }
}

/// A place at a chicken foot as its wire reference.
pub(super) fn encode_arm_ref(place: FootPlace) -> proto::ArmRef {
    use proto::arm_ref::Place as Arm;
    proto::ArmRef {
        place: Some(match place {
            FootPlace::Arm(arm) => Arm::Arm(u32::from(arm)),
            FootPlace::NewArm => Arm::NewArm(true),
        }),
    }
}

/// The place a `PlayTile` at `prefix` names: a train, an arm, an end, or
/// (none of them) the lead.
pub(super) fn decode_place(
    play: &proto::PlayTile,
    prefix: &impl Fn() -> String,
) -> Result<Place, ApiError> {
    let end = decode_end(
        play.end,
        &|| format!("{}.end", prefix()),
        ErrorReason::MalformedMove,
    )?;
    match (&play.train, &play.arm, end) {
        (None, None, end) => Ok(Place::on_line(end)),
        (Some(train), None, None) => Ok(Place::on_train(decode_train(train, &|| {
            format!("{}.train", prefix())
        })?)),
        (None, Some(arm), None) => Ok(Place::at_foot(decode_arm_ref(arm, &|| {
            format!("{}.arm", prefix())
        })?)),
        (Some(_), _, _) | (_, Some(_), _) => Err(ApiError::invalid(
            ErrorReason::MalformedMove,
            prefix(),
            "a tile goes on an end (a line), on a train (a train table) or on an arm (a chicken foot): one of them",
        )),
    }
}

/// A place as a `PlayTile`'s `end` and `train`.
pub(super) fn encode_play(tile: Tile, place: Place) -> proto::PlayTile {
    let (end, train, arm) = match place.kind() {
        PlaceKind::Lead => (None, None, None),
        PlaceKind::End(end) => (Some(end), None, None),
        PlaceKind::Train(train) => (None, Some(encode_train(train)), None),
        PlaceKind::Foot(at) => (None, None, Some(encode_arm_ref(at))),
    };
    proto::PlayTile {
        tile: Some(encode_tile(tile)),
        end: encode_end(end),
        train,
        arm,
    }
}

/// An `End` value at `field`, refused for `reason` when it is none.
fn decode_end(
    value: i32,
    field: &impl Fn() -> String,
    reason: ErrorReason,
) -> Result<Option<End>, ApiError> {
    end_from_wire(value)
        .ok_or_else(|| ApiError::invalid(reason, field(), format!("{value} is not an End")))
}

/// An end as its wire value (`END_UNSPECIFIED` for none).
pub(super) fn encode_end(end: Option<End>) -> i32 {
    match end {
        None => proto::End::Unspecified,
        Some(End::Left) => proto::End::Left,
        Some(End::Right) => proto::End::Right,
        Some(End::Up) => proto::End::Up,
        Some(End::Down) => proto::End::Down,
    }
    .into()
}

/// A move given at `prefix` (`move`, or `state.history[3].move`).
///
/// # Errors
/// `ERROR_REASON_MISSING_FIELD`, `ERROR_REASON_MALFORMED_MOVE`, `ERROR_REASON_INVALID_TILE` or `ERROR_REASON_SEAT_OUT_OF_RANGE` for a
/// move that cannot be represented.
pub fn decode_move(
    mv: Option<&proto::Move>,
    prefix: &impl Fn() -> String,
) -> Result<Move, ApiError> {
    let mv = mv.ok_or_else(|| ApiError::missing(prefix()))?;
    let seat = decode_seat(mv.seat, &|| format!("{}.seat", prefix()))?;
    let action = match &mv.action {
        Some(proto::r#move::Action::Play(play)) => Action::Play {
            tile: decode_required_tile(play.tile.as_ref(), &|| format!("{}.play.tile", prefix()))?,
            place: decode_place(play, &|| format!("{}.play", prefix()))?,
        },
        Some(proto::r#move::Action::Draw(_)) => Action::Draw,
        Some(proto::r#move::Action::Pass(_)) => Action::Pass,
        Some(proto::r#move::Action::EndTurn(_)) => Action::EndTurn,
        Some(proto::r#move::Action::Bid(bid)) => {
            Action::Bid(decode_bid(bid, &|| format!("{}.bid", prefix()))?)
        }
        Some(proto::r#move::Action::Contract(contract)) => {
            Action::Name(decode_contract(contract, &|| {
                format!("{}.contract", prefix())
            })?)
        }
        Some(proto::r#move::Action::Discard(tile)) => {
            Action::Discard(decode_tile(tile, &|| format!("{}.discard", prefix()))?)
        }
        Some(proto::r#move::Action::Trick(tile)) => {
            Action::Trick(decode_tile(tile, &|| format!("{}.trick", prefix()))?)
        }
        None => {
            return Err(ApiError::invalid(
                ErrorReason::MalformedMove,
                prefix(),
                "a move must set one of play, draw, pass, end_turn, bid, contract, discard or trick",
            ));
        }
    };
    Ok(Move { seat, action })
}

/// A move, ready to be sent back as `PlayRequest.move`.
#[must_use]
pub fn encode_move(mv: Move) -> proto::Move {
    use proto::r#move::Action as Wire;
    let action = match mv.action {
        Action::Play { tile, place } => Wire::Play(encode_play(tile, place)),
        Action::Draw => Wire::Draw(proto::DrawTile {}),
        Action::Pass => Wire::Pass(proto::Pass {}),
        Action::EndTurn => Wire::EndTurn(proto::EndTurn {}),
        Action::Bid(bid) => Wire::Bid(encode_bid(bid)),
        Action::Name(contract) => Wire::Contract(encode_contract(contract)),
        Action::Discard(tile) => Wire::Discard(encode_tile(tile)),
        Action::Trick(tile) => Wire::Trick(encode_tile(tile)),
    };
    proto::Move {
        seat: u32::from(mv.seat),
        action: Some(action),
    }
}

/// Where the spinner lies, from the position at `field`.
pub(super) fn decode_spinner(
    spinner: Option<&proto::SpinnerPosition>,
    field: &dyn Fn() -> String,
) -> Result<Option<SpinnerAt>, ApiError> {
    let Some(spinner) = spinner else {
        return Ok(None);
    };
    // (The field path is formatted only for an error: this runs on every
    // call.)
    let bad = |message: &str| ApiError::invalid(ErrorReason::LayoutMismatch, field(), message);
    match decode_end(
        spinner.arm,
        &|| format!("{}.arm", field()),
        ErrorReason::LayoutMismatch,
    )? {
        None if spinner.index == 0 => Ok(Some(SpinnerAt::Lead)),
        None => Err(bad("the lead has no index: leave index 0")),
        Some(end @ (End::Left | End::Right)) => Ok(Some(SpinnerAt::Arm {
            end,
            index: usize::try_from(spinner.index).map_err(|_| bad("index out of range"))?,
        })),
        Some(_) => Err(bad(
            "the spinner lies on the lead, the left or the right arm",
        )),
    }
}

/// Where the spinner lies, as its wire position.
pub(super) fn encode_spinner(spinner: Option<SpinnerAt>) -> Option<proto::SpinnerPosition> {
    spinner.map(|at| match at {
        SpinnerAt::Lead => proto::SpinnerPosition {
            arm: encode_end(None),
            index: 0,
        },
        SpinnerAt::Arm { end, index } => proto::SpinnerPosition {
            arm: encode_end(Some(end)),
            index: u32::try_from(index).unwrap_or(u32::MAX),
        },
    })
}

/// How the match stands, from its `phase` and `result` fields at `prefix`.
pub(super) fn decode_outcome(
    phase: i32,
    result: Option<&proto::MatchResult>,
    prefix: &str,
) -> Result<Option<Outcome>, ApiError> {
    let phase_field = || format!("{prefix}.phase");
    match proto::Phase::try_from(phase) {
        Ok(proto::Phase::Playing) => match result {
            None => Ok(None),
            Some(_) => Err(ApiError::invalid(
                ErrorReason::InconsistentState,
                format!("{prefix}.result"),
                "a match in play has no result",
            )),
        },
        Ok(proto::Phase::MatchOver) => {
            let result = result.ok_or_else(|| ApiError::missing(format!("{prefix}.result")))?;
            Ok(Some(match result.winner {
                None => Outcome::Draw,
                Some(side) => Outcome::Winner(u8::try_from(side).map_err(|_| {
                    ApiError::invalid(
                        ErrorReason::InconsistentState,
                        format!("{prefix}.result.winner"),
                        format!("side {side} does not exist"),
                    )
                })?),
            }))
        }
        Ok(proto::Phase::Unspecified) => Err(ApiError::missing(phase_field())),
        Err(_) => Err(ApiError::invalid(
            ErrorReason::InconsistentState,
            phase_field(),
            format!("{phase} is not a Phase"),
        )),
    }
}

/// A finished match's result.
pub(super) fn encode_outcome(outcome: Outcome) -> proto::MatchResult {
    proto::MatchResult {
        winner: match outcome {
            Outcome::Winner(side) => Some(u32::from(side)),
            Outcome::Draw => None,
        },
    }
}

/// The phase of a match that has `outcome` (none while in play).
pub(super) fn encode_phase(outcome: Option<Outcome>) -> i32 {
    match outcome {
        None => proto::Phase::Playing,
        Some(_) => proto::Phase::MatchOver,
    }
    .into()
}

/// A state's match digest at `field`: exactly 32 bytes.
pub(super) fn decode_digest(
    bytes: &[u8],
    field: &dyn Fn() -> String,
) -> Result<MatchDigest, ApiError> {
    if bytes.is_empty() {
        return Err(ApiError::missing(field()));
    }
    <[u8; DIGEST_LEN]>::try_from(bytes)
        .map(MatchDigest)
        .map_err(|_| {
            ApiError::invalid(
                ErrorReason::InconsistentState,
                field(),
                format!("a match digest is {DIGEST_LEN} bytes, not {}", bytes.len()),
            )
        })
}

/// A tile's byte: its index (at most 90, so it always fits).
pub(super) fn tile_byte(tile: Tile) -> u8 {
    u8::try_from(tile.index()).unwrap_or(u8::MAX)
}

/// The first byte of `bytes` whose tile index (`byte >> shift`) is beyond
/// the largest set, refused at `field[i]`. (Checked in one pass before
/// decoding, so that the decoding loops carry no errors.)
pub(super) fn check_indices(
    bytes: &[u8],
    shift: u32,
    field: &dyn Fn() -> String,
) -> Result<(), ApiError> {
    let index = |byte: u8| u32::from(byte >> shift);
    match bytes
        .iter()
        .enumerate()
        .find(|&(_, &byte)| index(byte) >= TILE_COUNT)
    {
        None => Ok(()),
        Some((i, &byte)) => Err(tile_index_error(index(byte), format!("{}[{i}]", field()))),
    }
}

/// A number of a bid or contract at `field`, as the byte the rules keep
/// (a number past any bid's is refused when the move is checked).
fn small_number(value: u32, field: &impl Fn() -> String) -> Result<u8, ApiError> {
    u8::try_from(value).map_err(|_| {
        ApiError::invalid(
            ErrorReason::MalformedMove,
            field(),
            format!("{value} is past any bid or trump number"),
        )
    })
}

/// A trick game's bid named at `field`.
///
/// # Errors
/// `ERROR_REASON_MALFORMED_MOVE` when it names no bid or a number no bid
/// has.
pub(super) fn decode_bid(bid: &proto::Bid, field: &impl Fn() -> String) -> Result<Bid, ApiError> {
    use proto::bid::Bid as Wire;
    let number = |value: u32, name: &str| small_number(value, &|| format!("{}.{name}", field()));
    Ok(match bid.bid {
        Some(Wire::Points(points)) => Bid::Points(number(points, "points")?),
        Some(Wire::Marks(marks)) => Bid::Marks(number(marks, "marks")?),
        Some(Wire::Plunge(marks)) => Bid::Plunge(number(marks, "plunge")?),
        Some(Wire::Splash(marks)) => Bid::Splash(number(marks, "splash")?),
        Some(Wire::Tricks(tricks)) => Bid::Tricks(number(tricks, "tricks")?),
        Some(Wire::Moon(true)) => Bid::Moon,
        Some(Wire::Moon(false)) | None => {
            return Err(ApiError::invalid(
                ErrorReason::MalformedMove,
                field(),
                "a bid sets one of points, marks, plunge, splash, tricks or moon: true",
            ));
        }
    })
}

/// A bid as its wire form.
pub(super) fn encode_bid(bid: Bid) -> proto::Bid {
    use proto::bid::Bid as Wire;
    proto::Bid {
        bid: Some(match bid {
            Bid::Points(points) => Wire::Points(u32::from(points)),
            Bid::Marks(marks) => Wire::Marks(u32::from(marks)),
            Bid::Plunge(marks) => Wire::Plunge(u32::from(marks)),
            Bid::Splash(marks) => Wire::Splash(u32::from(marks)),
            Bid::Tricks(tricks) => Wire::Tricks(u32::from(tricks)),
            Bid::Moon => Wire::Moon(true),
        }),
    }
}

/// A trick game's contract named at `field`.
///
/// # Errors
/// `ERROR_REASON_MALFORMED_MOVE` when it names no contract.
pub(super) fn decode_contract(
    contract: &proto::Contract,
    field: &impl Fn() -> String,
) -> Result<Contract, ApiError> {
    use proto::contract::Contract as Wire;
    Ok(match contract.contract {
        Some(Wire::Trumps(number)) => {
            Contract::Trumps(small_number(number, &|| format!("{}.trumps", field()))?)
        }
        Some(Wire::Doubles(true)) => Contract::Doubles,
        Some(Wire::FollowMe(true)) => Contract::FollowMe,
        Some(Wire::Nello(true)) => Contract::Nello,
        Some(Wire::Sevens(true)) => Contract::Sevens,
        Some(
            Wire::Doubles(false) | Wire::FollowMe(false) | Wire::Nello(false) | Wire::Sevens(false),
        )
        | None => {
            return Err(ApiError::invalid(
                ErrorReason::MalformedMove,
                field(),
                "a contract sets trumps (a number), or one of doubles, follow_me, nello or sevens to true",
            ));
        }
    })
}

/// A contract as its wire form.
pub(super) fn encode_contract(contract: Contract) -> proto::Contract {
    use proto::contract::Contract as Wire;
    proto::Contract {
        contract: Some(match contract {
            Contract::Trumps(number) => Wire::Trumps(u32::from(number)),
            Contract::Doubles => Wire::Doubles(true),
            Contract::FollowMe => Wire::FollowMe(true),
            Contract::Nello => Wire::Nello(true),
            Contract::Sevens => Wire::Sevens(true),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trick_games_moves_cross_the_wire_and_back() {
        let mut actions = vec![
            Action::Bid(Bid::Moon),
            Action::Discard(Tile::new(5, 5)),
            Action::Trick(Tile::new(6, 4)),
        ];
        for n in [0, 7, 42] {
            actions.extend([
                Action::Bid(Bid::Points(n)),
                Action::Bid(Bid::Marks(n)),
                Action::Bid(Bid::Plunge(n)),
                Action::Bid(Bid::Splash(n)),
                Action::Bid(Bid::Tricks(n)),
            ]);
        }
        for contract in [
            Contract::Trumps(0),
            Contract::Trumps(6),
            Contract::Doubles,
            Contract::FollowMe,
            Contract::Nello,
            Contract::Sevens,
        ] {
            actions.push(Action::Name(contract));
        }
        for action in actions {
            let mv = Move { seat: 2, action };
            let wire = encode_move(mv);
            assert_eq!(decode_move(Some(&wire), &|| "move".to_owned()), Ok(mv));
        }
    }

    #[test]
    fn a_bid_or_contract_that_names_nothing_is_malformed_at_its_field() {
        let field = || "move".to_owned();
        let empty_bid = proto::Move {
            seat: 0,
            action: Some(proto::r#move::Action::Bid(proto::Bid { bid: None })),
        };
        let error = decode_move(Some(&empty_bid), &field).expect_err("no bid");
        assert_eq!(
            (error.reason, error.field.as_str()),
            (ErrorReason::MalformedMove, "move.bid")
        );
        let no_doubles = proto::Move {
            seat: 0,
            action: Some(proto::r#move::Action::Contract(proto::Contract {
                contract: Some(proto::contract::Contract::Doubles(false)),
            })),
        };
        let error = decode_move(Some(&no_doubles), &field).expect_err("no contract");
        assert_eq!(error.field, "move.contract");
        let huge = proto::Move {
            seat: 0,
            action: Some(proto::r#move::Action::Bid(proto::Bid {
                bid: Some(proto::bid::Bid::Points(1 << 20)),
            })),
        };
        let error = decode_move(Some(&huge), &field).expect_err("too large");
        assert_eq!(error.field, "move.bid.points");
    }
}
