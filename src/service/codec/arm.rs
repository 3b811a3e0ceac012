//! A run of placed tiles (a line's arm, a train, an arm of a chicken foot)
//! in both state forms: readable, a `PlacedTile` message each; packed, a
//! byte each. The line, the trains and the foot all read and write their
//! tiles here, so that the state forms and the tables import downwards
//! only: `readable` and `packed` use the tables' codecs, which use this.

use crate::proto;
use crate::rules::{Placed, Tile};
use crate::service::error::ApiError;

use super::wire::{check_indices, decode_half, tile_byte};

/// A placed tile's byte: its index times two, plus one when its smaller
/// half is the inner one.
fn placed_byte(placed: Placed) -> u8 {
    tile_byte(placed.tile())
        .saturating_mul(2)
        .saturating_add(u8::from(placed.inner < placed.outer))
}

/// An arm (or a train) of placed tiles at `field`.
pub(super) fn decode_readable(
    arm: &[proto::PlacedTile],
    field: &impl Fn() -> String,
) -> Result<Vec<Placed>, ApiError> {
    arm.iter()
        .enumerate()
        .map(|(i, placed)| {
            let field = || format!("{}[{i}]", field());
            Ok(Placed {
                inner: decode_half(placed.inner, &field)?,
                outer: decode_half(placed.outer, &field)?,
            })
        })
        .collect()
}

/// An arm (or a train) of placed tiles.
pub(super) fn encode_readable(arm: &[Placed]) -> Vec<proto::PlacedTile> {
    arm.iter()
        .map(|p| proto::PlacedTile {
            inner: u32::from(p.inner),
            outer: u32::from(p.outer),
        })
        .collect()
}

/// An arm given as one byte per placed tile at `field`.
pub(super) fn decode_packed(
    bytes: &[u8],
    field: &dyn Fn() -> String,
) -> Result<Vec<Placed>, ApiError> {
    check_indices(bytes, 1, field)?;
    Ok(bytes
        .iter()
        .map(|&byte| {
            let tile = Tile::from_index(u32::from(byte >> 1));
            if byte & 1 == 1 {
                Placed {
                    inner: tile.low(),
                    outer: tile.high(),
                }
            } else {
                Placed {
                    inner: tile.high(),
                    outer: tile.low(),
                }
            }
        })
        .collect())
}

/// Placed tiles, one byte each.
pub(super) fn encode_packed(arm: &[Placed]) -> Vec<u8> {
    arm.iter().copied().map(placed_byte).collect()
}
