//! A chicken foot in both state forms: the readable `FootTable` (the hub,
//! each arm with what it grows from, its tiles, open end and whether it ends
//! in a foot, what waits) and the packed `PackedFoot`. As everywhere in the
//! codecs, decoding only turns wire values into rule values; whether the
//! table is the one the round's moves build is the checked constructor's
//! to say.

use crate::proto::{self, ErrorReason};
use crate::rules::foot::MAX_ARMS;
use crate::rules::{Foot, Placed, Root, Table, TableKind, Trains, Waiting};
use crate::service::error::ApiError;

use super::arm;
use super::wire::{decode_half, decode_hub, encode_tile};

/// The refusal of a table part at `field` that cannot be the table's.
fn mismatch(field: String, message: impl Into<String>) -> ApiError {
    ApiError::invalid(ErrorReason::FootTableMismatch, field, message)
}

/// Fails unless a foot of `count` arms fits the largest set.
fn check_arm_count(count: usize, field: impl Fn() -> String) -> Result<(), ApiError> {
    if count <= MAX_ARMS {
        return Ok(());
    }
    Err(mismatch(
        field(),
        format!("{count} arms: a chicken foot has at most {MAX_ARMS}"),
    ))
}

/// An arm's root, `toe_of` naming an arm before `arm` (at `field`).
fn toe_of(parent: u32, arm: usize, field: impl Fn() -> String) -> Result<Root, ApiError> {
    match u8::try_from(parent) {
        Ok(parent) if usize::from(parent) < arm => Ok(Root::Toe(parent)),
        _ => Err(mismatch(
            field(),
            format!("arm {arm} is a toe of an earlier arm, not of arm {parent}"),
        )),
    }
}

/// What waits, `toes_of` naming one of `arms` arms (at `field`).
fn toes_of(arm: u32, arms: usize, field: impl Fn() -> String) -> Result<Waiting, ApiError> {
    match u8::try_from(arm) {
        Ok(arm) if usize::from(arm) < arms => Ok(Waiting::Toes(arm)),
        _ => Err(mismatch(
            field(),
            format!("arm {arm} is not at this chicken foot, which has {arms}"),
        )),
    }
}

/// The foot from its decoded parts, refused at `field` when it holds more
/// tiles than any set.
fn assemble(
    hub: u8,
    hub_arms: u8,
    arms: Vec<(Root, Vec<Placed>)>,
    waiting: Option<Waiting>,
    field: impl Fn() -> String,
) -> Result<Foot, ApiError> {
    Foot::from_parts(hub, hub_arms, arms, waiting)
        .ok_or_else(|| mismatch(field(), "more tiles than the largest set holds"))
}

/// The readable foot at `prefix.foot` of a state whose rules' hub takes
/// `hub_arms` arms; `None` when the state has none (the checked constructor
/// says whether it must).
pub(super) fn decode_foot_table(
    table: Option<&proto::FootTable>,
    hub_arms: u8,
    prefix: &str,
) -> Result<Option<Foot>, ApiError> {
    use proto::arm::Root as WireRoot;
    use proto::foot_waiting::What;
    let Some(table) = table else {
        return Ok(None);
    };
    let field = |name: &str| format!("{prefix}.foot.{name}");
    let hub = decode_hub(table.hub.as_ref(), ErrorReason::FootTableMismatch, &|| {
        field("hub")
    })?;
    check_arm_count(table.arms.len(), || field("arms"))?;
    let mut arms = Vec::with_capacity(table.arms.len());
    for (i, arm) in table.arms.iter().enumerate() {
        let at = |name: &str| field(&format!("arms[{i}].{name}"));
        let root = match arm.root {
            Some(WireRoot::Hub(true)) => Root::Hub,
            Some(WireRoot::ToeOf(parent)) => toe_of(parent, i, || at("toe_of"))?,
            Some(WireRoot::Hub(false)) | None => {
                return Err(mismatch(
                    field(&format!("arms[{i}]")),
                    "an arm grows from the hub (hub: true) or names the arm it is a toe of",
                ));
            }
        };
        arms.push((root, arm::decode_readable(&arm.tiles, &|| at("tiles"))?));
    }
    let waiting = match table.waiting.as_ref().map(|w| w.what) {
        None => None,
        Some(Some(What::Hub(true))) => Some(Waiting::Hub),
        Some(Some(What::ToesOf(arm))) => {
            Some(toes_of(arm, arms.len(), || field("waiting.toes_of"))?)
        }
        Some(Some(What::Hub(false)) | None) => {
            return Err(mismatch(
                field("waiting"),
                "the hub waits (hub: true), or the toes of the foot ending an arm (toes_of)",
            ));
        }
    };
    assemble(hub.high(), hub_arms, arms, waiting, || field("arms")).map(Some)
}

/// The readable foot.
#[must_use]
pub fn encode_foot_table(foot: &Foot) -> proto::FootTable {
    use proto::arm::Root as WireRoot;
    use proto::foot_waiting::What;
    let arms = (0..foot.arm_count())
        .filter_map(|arm| u8::try_from(arm).ok())
        .map(|arm| {
            let tiles: Vec<Placed> = foot.arm_tiles(arm).collect();
            proto::Arm {
                root: Some(match foot.root(arm) {
                    Some(Root::Toe(parent)) => WireRoot::ToeOf(u32::from(parent)),
                    Some(Root::Hub) | None => WireRoot::Hub(true),
                }),
                tiles: arm::encode_readable(&tiles),
                open_end: tiles.last().map_or(0, |placed| u32::from(placed.outer)),
                foot: foot.ends_in_foot(arm),
            }
        })
        .collect();
    let waiting = foot.waiting().map(|waiting| {
        let (number, missing) = foot.waiting_for().unwrap_or_default();
        proto::FootWaiting {
            what: Some(match waiting {
                Waiting::Hub => What::Hub(true),
                Waiting::Toes(arm) => What::ToesOf(u32::from(arm)),
            }),
            number: u32::from(number),
            missing: u32::from(missing),
        }
    });
    proto::FootTable {
        hub: Some(encode_tile(foot.hub())),
        hub_arms: u32::from(foot.hub_arms()),
        arms,
        waiting,
    }
}

/// The packed foot at `prefix.foot` (each arm's tiles one byte per placed
/// tile, as a line's arms).
pub(super) fn decode_packed_foot(
    table: Option<&proto::PackedFoot>,
    hub_arms: u8,
    prefix: &str,
) -> Result<Option<Foot>, ApiError> {
    let Some(table) = table else {
        return Ok(None);
    };
    let field = |name: &str| format!("{prefix}.foot.{name}");
    let hub = decode_half(table.hub, &|| field("hub"))?;
    check_arm_count(table.arms.len(), || field("arms"))?;
    if table.roots.len() != table.arms.len() {
        return Err(mismatch(
            field("roots"),
            format!(
                "one byte an arm: {} for {} arms",
                table.roots.len(),
                table.arms.len()
            ),
        ));
    }
    let mut arms = Vec::with_capacity(table.arms.len());
    for (i, (bytes, &root)) in table.arms.iter().zip(&table.roots).enumerate() {
        let root = match root {
            0 => Root::Hub,
            toe => toe_of(u32::from(toe) - 1, i, || field(&format!("roots[{i}]")))?,
        };
        arms.push((
            root,
            arm::decode_packed(bytes, &|| field(&format!("arms[{i}]")))?,
        ));
    }
    let waiting = match table.waiting {
        0 => None,
        1 => Some(Waiting::Hub),
        toes => Some(toes_of(toes - 2, arms.len(), || field("waiting"))?),
    };
    assemble(hub, hub_arms, arms, waiting, || field("arms")).map(Some)
}

/// The packed foot.
pub(super) fn encode_packed_foot(foot: &Foot) -> proto::PackedFoot {
    let arms = (0..foot.arm_count()).filter_map(|arm| u8::try_from(arm).ok());
    proto::PackedFoot {
        hub: u32::from(foot.hub().high()),
        arms: arms
            .clone()
            .map(|arm| arm::encode_packed(&foot.arm_tiles(arm).collect::<Vec<_>>()))
            .collect(),
        roots: arms
            .map(|arm| match foot.root(arm) {
                Some(Root::Toe(parent)) => parent.saturating_add(1),
                Some(Root::Hub) | None => 0,
            })
            .collect(),
        waiting: match foot.waiting() {
            None => 0,
            Some(Waiting::Hub) => 1,
            Some(Waiting::Toes(arm)) => u32::from(arm) + 2,
        },
    }
}

/// The one table other than a line a state at `prefix` holds, of the
/// trains and the foot it was given; a state whose rules play on `kind`
/// holding both is refused at the one that is not its.
pub(super) fn one_table(
    trains: Option<Trains>,
    foot: Option<Foot>,
    kind: TableKind,
    prefix: &str,
) -> Result<Option<Table>, ApiError> {
    match (trains, foot) {
        (None, None) => Ok(None),
        (Some(trains), None) => Ok(Some(Table::Trains(trains))),
        (None, Some(foot)) => Ok(Some(Table::Foot(Box::new(foot)))),
        (Some(_), Some(_)) if kind == TableKind::ChickenFoot => Err(ApiError::invalid(
            ErrorReason::TrainTableMismatch,
            format!("{prefix}.trains"),
            "a chicken foot's state holds the foot and no trains",
        )),
        (Some(_), Some(_)) => Err(mismatch(
            format!("{prefix}.foot"),
            "a state holds the trains or a chicken foot, not both",
        )),
    }
}
