//! The packed state (`PackedState`, the contents of a state token) ⇄ the
//! rules' game. The packed form holds what the readable `GameState` holds
//! with one byte per tile and nothing nested per tile, so that a caller who
//! only sends states back (a bot, a load test, a backend storing tokens)
//! pays for neither side's parsing of a readable state.
//!
//! As with the readable form, decoding only turns wire values into rule
//! values; every rule of consistency is checked by [`Game::from_setup`].

use crate::proto;
use crate::rules::{End, Game, Setup, TableKind, Tile};
use crate::service::error::ApiError;

use super::arm;
use super::foot::{decode_packed_foot, encode_packed_foot, one_table};
use super::history::{self, Packing};
use super::rules::encode_rules;
use super::trains::{decode_packed_trains, encode_packed_trains};
use super::tricks::decode_packed_widow;
use super::wire::{
    check_indices, decode_digest, decode_outcome, decode_spinner, decode_tile_index,
    encode_outcome, encode_phase, encode_spinner, tile_byte,
};
use super::{decode_versioned_rules, format_version};

/// Tiles given as one byte each at `field`.
fn decode_tiles(bytes: &[u8], field: &dyn Fn() -> String) -> Result<Vec<Tile>, ApiError> {
    check_indices(bytes, 0, field)?;
    Ok(bytes
        .iter()
        .map(|&byte| Tile::from_index(u32::from(byte)))
        .collect())
}

fn decode_optional_tile(
    index: Option<u32>,
    field: &dyn Fn() -> String,
) -> Result<Option<Tile>, ApiError> {
    index
        .map(|index| decode_tile_index(index, &|| field()))
        .transpose()
}

/// The packed state at `prefix` (`state_token`), fully checked.
///
/// # Errors
/// `INVALID_ARGUMENT` with the reason and field of the first fault, as for a
/// readable state.
pub fn decode_packed(state: &proto::PackedState, prefix: &str) -> Result<Game, ApiError> {
    let field = |name: &'static str| move || format!("{prefix}.{name}");
    let rules = decode_versioned_rules(state.format_version, state.rules.as_ref(), prefix)?;
    let trains = decode_packed_trains(
        state.trains.as_ref(),
        state.players,
        rules.public_train,
        prefix,
    )?;
    let foot = decode_packed_foot(state.foot.as_ref(), rules.hub_arms, prefix)?;
    let kind = rules.table;
    let table = one_table(trains, foot, kind, prefix)?;
    let setup = Setup {
        variant: state.variant.clone(),
        rules,
        players: state.players,
        seed: state.seed,
        hand_number: state.hand_number,
        hands: state
            .hands
            .iter()
            .enumerate()
            .map(|(seat, hand)| decode_tiles(hand, &|| format!("{prefix}.hands[{seat}]")))
            .collect::<Result<_, _>>()?,
        boneyard: decode_tiles(&state.boneyard, &field("boneyard"))?,
        lead: decode_optional_tile(state.lead, &field("lead"))?,
        left: arm::decode_packed(&state.left, &field("left"))?,
        right: arm::decode_packed(&state.right, &field("right"))?,
        up: arm::decode_packed(&state.up, &field("up"))?,
        down: arm::decode_packed(&state.down, &field("down"))?,
        spinner: decode_spinner(state.spinner.as_ref(), &field("spinner"))?,
        scores: state.scores.clone(),
        to_act: state.to_act,
        hand_leader: state.hand_leader,
        required_lead: decode_optional_tile(state.required_lead, &field("required_lead"))?,
        drew_this_turn: state.drew_this_turn,
        outcome: decode_outcome(state.phase, state.result.as_ref(), prefix)?,
        history: history::decode_packed(
            &state.history,
            packing(kind),
            &rules,
            state.players,
            &format!("{prefix}.history"),
        )?,
        digest: decode_digest(&state.match_digest, &field("match_digest"))?,
        table,
        widow: decode_packed_widow(state.widow, prefix)?,
    };
    Game::from_setup(setup).map_err(|e| ApiError::from_setup(&e, prefix))
}

/// How a state of `table` packs its history.
const fn packing(table: TableKind) -> Packing {
    match table {
        TableKind::Line => Packing::Line,
        TableKind::Trains => Packing::Trains,
        TableKind::ChickenFoot => Packing::Foot,
        TableKind::Tricks => Packing::Tricks,
    }
}

/// The complete state, packed.
#[must_use]
pub fn encode_packed(game: &Game) -> proto::PackedState {
    let layout = game.layout();
    let arm = |end| arm::encode_packed(layout.arm(end));
    let table = game.rules().table;
    proto::PackedState {
        format_version: format_version(table),
        variant: game.variant().to_owned(),
        rules: Some(encode_rules(game.rules())),
        players: u32::from(game.players()),
        seed: game.seed(),
        hand_number: game.hand_number(),
        hands: (0..game.players())
            .map(|seat| game.hand(seat).iter().map(tile_byte).collect())
            .collect(),
        boneyard: game.boneyard().map(tile_byte).collect(),
        lead: layout.lead().map(Tile::index),
        left: arm(End::Left),
        right: arm(End::Right),
        up: arm(End::Up),
        down: arm(End::Down),
        spinner: encode_spinner(layout.spinner()),
        scores: game.scores().to_vec(),
        to_act: u32::from(game.to_act()),
        hand_leader: u32::from(game.hand_leader()),
        required_lead: game.required_lead().map(Tile::index),
        phase: encode_phase(game.outcome()),
        result: game.outcome().map(encode_outcome),
        history: history::encode_packed(game.history(), packing(table)),
        drew_this_turn: game.drew_this_turn(),
        match_digest: game.digest().0.to_vec(),
        trains: game.trains().map(encode_packed_trains),
        foot: game.foot().map(encode_packed_foot),
        widow: game
            .trick_hand()
            .and_then(|hand| hand.dealt_hands().1)
            .map(Tile::index),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::ErrorReason;
    use crate::rules::presets::preset;

    /// A muggins game a few moves in, packed.
    fn packed_game() -> (Game, proto::PackedState) {
        let muggins = preset("muggins").expect("preset");
        let (mut game, _) = Game::new("muggins", muggins.rules(2, None), 2, 9).expect("valid");
        for _ in 0..6 {
            let mv = game.legal_moves()[0];
            game.play(mv).expect("legal");
        }
        let packed = encode_packed(&game);
        (game, packed)
    }

    #[test]
    fn placed_tiles_keep_their_orientation() {
        let (game, packed) = packed_game();
        let placed = game
            .layout()
            .arm(End::Left)
            .iter()
            .chain(game.layout().arm(End::Right));
        let bytes = packed.left.iter().chain(&packed.right);
        for (placed, &byte) in placed.zip(bytes) {
            assert_eq!(u32::from(byte >> 1), placed.tile().index());
            assert_eq!(byte & 1 == 1, placed.inner < placed.outer, "{placed:?}");
        }
        assert_eq!(decode_packed(&packed, "state_token"), Ok(game));
    }

    /// One way to spoil a packed state.
    type Breakage = fn(&mut proto::PackedState);

    #[test]
    fn bytes_beyond_the_largest_set_name_their_field() {
        let (_, packed) = packed_game();
        let cases: [(&str, Breakage); 5] = [
            ("state_token.hands[1][0]", |p| p.hands[1][0] = 91),
            ("state_token.left[0]", |p| p.left.insert(0, 2 * 91)),
            ("state_token.lead", |p| p.lead = Some(1000)),
            ("state_token.history[0]", |p| p.history[1] = 127),
            ("state_token.history[1]", |p| p.history[3] = 200),
        ];
        assert_refused(&packed, &cases, ErrorReason::InvalidTile);
    }

    /// Each breakage of `packed` is refused for `reason` at its field.
    fn assert_refused(
        packed: &proto::PackedState,
        cases: &[(&str, Breakage)],
        reason: ErrorReason,
    ) {
        for &(field, break_it) in cases {
            let mut broken = packed.clone();
            break_it(&mut broken);
            let error = decode_packed(&broken, "state_token").expect_err(field);
            assert_eq!((error.reason, error.field.as_str()), (reason, field));
        }
    }

    #[test]
    fn the_history_is_two_bytes_a_move_and_the_digest_32() {
        let (game, packed) = packed_game();
        assert_eq!(packed.history.len(), 2 * game.history().len());
        let cases: [(&str, Breakage); 3] = [
            ("state_token.history", |p| p.history.push(0)),
            ("state_token.match_digest", |p| p.match_digest.push(0)),
            ("state_token.match_digest", |p| p.match_digest.truncate(31)),
        ];
        assert_refused(&packed, &cases, ErrorReason::InconsistentState);
        let mut no_digest = packed.clone();
        no_digest.match_digest.clear();
        let error = decode_packed(&no_digest, "state_token").expect_err("missing");
        assert_eq!(error.reason, ErrorReason::MissingField);
    }

    #[test]
    fn an_impossible_packed_game_is_refused_like_a_readable_one() {
        let (_, mut packed) = packed_game();
        let tile = packed.hands[0][0];
        packed.boneyard.push(tile);
        let error = decode_packed(&packed, "state_token").expect_err("duplicated");
        assert_eq!(error.reason, ErrorReason::TileDuplicated);
    }
}
