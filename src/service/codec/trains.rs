//! A train table in both state forms: the readable `TrainTable` (the hub,
//! each train with its owner, tiles, open end and marker, the unsatisfied
//! double) and the packed `PackedTrains`. As everywhere in the codecs,
//! decoding only turns wire values into rule values; whether the table is
//! the one the round's moves build is the checked constructor's to say.

use crate::proto::{self, ErrorReason};
use crate::rules::{TrainId, Trains};
use crate::service::error::ApiError;

use super::arm;
use super::history::{train_byte, train_from_byte};
use super::wire::{decode_half, decode_hub, decode_train, encode_tile, encode_train};

/// The refusal of a table part at `field` that cannot be the table's.
fn mismatch(field: String, message: impl Into<String>) -> ApiError {
    ApiError::invalid(ErrorReason::TrainTableMismatch, field, message)
}

/// The readable table at `prefix.trains` of a state of `players` seats
/// whose rules say whether there is a Mexican train; `None` when the state
/// has none (the checked constructor says whether it must).
pub(super) fn decode_train_table(
    table: Option<&proto::TrainTable>,
    players: u32,
    public_train: bool,
    prefix: &str,
) -> Result<Option<Trains>, ApiError> {
    let Some(table) = table else {
        return Ok(None);
    };
    let field = |name: &str| format!("{prefix}.trains.{name}");
    let hub = decode_hub(table.hub.as_ref(), ErrorReason::TrainTableMismatch, &|| {
        field("hub")
    })?;
    let players = u8::try_from(players).unwrap_or(u8::MAX);
    let mut trains = Vec::with_capacity(table.trains.len());
    for (i, train) in table.trains.iter().enumerate() {
        let at = |name: &str| field(&format!("trains[{i}].{name}"));
        if let Some(named) = &train.train {
            let named = decode_train(named, &|| at("train"))?;
            let expected = TrainId::at(i, players);
            if named != expected {
                return Err(mismatch(
                    at("train"),
                    format!(
                        "the trains are listed seat by seat, then the Mexican train: this one is {expected}, not {named}"
                    ),
                ));
            }
        }
        trains.push((
            arm::decode_readable(&train.tiles, &|| at("tiles"))?,
            train.marker,
        ));
    }
    let unsatisfied = table
        .unsatisfied
        .as_ref()
        .map(|train| decode_train(train, &|| field("unsatisfied")))
        .transpose()?;
    Ok(Some(Trains::from_parts(
        hub.high(),
        players,
        public_train,
        trains,
        unsatisfied,
    )))
}

/// The readable table.
#[must_use]
pub fn encode_train_table(trains: &Trains) -> proto::TrainTable {
    proto::TrainTable {
        hub: Some(encode_tile(trains.hub())),
        trains: trains
            .trains()
            .map(|(id, train)| proto::Train {
                train: Some(encode_train(id)),
                tiles: arm::encode_readable(train.tiles()),
                open_end: u32::from(train.open_end()),
                marker: train.marker(),
            })
            .collect(),
        unsatisfied: trains.unsatisfied().map(encode_train),
    }
}

/// The packed table at `prefix.trains` (each train's tiles one byte per
/// placed tile, as a line's arms).
pub(super) fn decode_packed_trains(
    table: Option<&proto::PackedTrains>,
    players: u32,
    public_train: bool,
    prefix: &str,
) -> Result<Option<Trains>, ApiError> {
    let Some(table) = table else {
        return Ok(None);
    };
    let field = |name: &str| format!("{prefix}.trains.{name}");
    let hub = decode_half(table.hub, &|| field("hub"))?;
    let players = u8::try_from(players).unwrap_or(u8::MAX);
    if table.markers >> players.min(31) != 0 {
        return Err(mismatch(
            field("markers"),
            format!("bit s is seat s's marker, and the table seats {players}"),
        ));
    }
    let trains = table
        .trains
        .iter()
        .enumerate()
        .map(|(i, bytes)| {
            let tiles = arm::decode_packed(bytes, &|| field(&format!("trains[{i}]")))?;
            let marker = match TrainId::at(i, players) {
                TrainId::Seat(seat) => table.markers >> seat & 1 == 1,
                TrainId::Mexican => false,
            };
            Ok((tiles, marker))
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    let unsatisfied = u8::try_from(table.unsatisfied)
        .ok()
        .and_then(train_from_byte)
        .ok_or_else(|| {
            mismatch(
                field("unsatisfied"),
                format!(
                    "{} is not a train (1 + a seat, 9 the Mexican, 0 none)",
                    table.unsatisfied
                ),
            )
        })?;
    Ok(Some(Trains::from_parts(
        hub,
        players,
        public_train,
        trains,
        unsatisfied,
    )))
}

/// The packed table (each train's tiles as a line's arms).
pub(super) fn encode_packed_trains(trains: &Trains) -> proto::PackedTrains {
    let mut markers = 0u32;
    for (id, train) in trains.trains() {
        if let (TrainId::Seat(seat), true) = (id, train.marker()) {
            markers |= 1 << (seat & 31);
        }
    }
    proto::PackedTrains {
        hub: u32::from(trains.hub().high()),
        trains: trains
            .trains()
            .map(|(_, train)| arm::encode_packed(train.tiles()))
            .collect(),
        markers,
        unsatisfied: trains
            .unsatisfied()
            .map_or(0, |id| u32::from(train_byte(id))),
    }
}
