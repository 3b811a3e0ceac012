//! The readable state (`GameState`) ⇄ the rules' game: every tile as a
//! message of its own, the layout with its derived open ends, the hand's
//! history as readable entries.

use crate::proto::{self, ErrorReason};
use crate::rules::{End, Game, Geometry, Layout, Setup, TableKind};
use crate::service::error::ApiError;

use super::arm;
use super::foot::{decode_foot_table, encode_foot_table, one_table};
use super::history;
use super::rules::encode_rules;
use super::trains::{decode_train_table, encode_train_table};
use super::tricks::{check_trick_table, decode_widow, encode_trick_table};
use super::wire::{
    decode_digest, decode_optional_tile, decode_outcome, decode_spinner, decode_tile, encode_end,
    encode_outcome, encode_phase, encode_spinner, encode_tile,
};
use super::{decode_versioned_rules, format_version};

/// The state at `prefix` in a request, fully checked.
///
/// # Errors
/// `INVALID_ARGUMENT` with the reason and field of the first fault: a value
/// that cannot be represented, or a state that legal play cannot reach.
pub fn decode_state(state: Option<&proto::GameState>, prefix: &str) -> Result<Game, ApiError> {
    let state = state.ok_or_else(|| ApiError::missing(prefix))?;
    let field = |name: &str| format!("{prefix}.{name}");
    let rules = decode_versioned_rules(state.format_version, state.rules.as_ref(), prefix)?;
    if state.tricks.is_some() && rules.table != TableKind::Tricks {
        return Err(ApiError::invalid(
            ErrorReason::TrickTableMismatch,
            field("tricks"),
            if rules.table == TableKind::Line {
                "a line's state holds no trick table: only a trick game's does; leave tricks out"
            } else {
                "a table with a hub holds no trick table: only a trick game's state does; leave tricks out"
            },
        ));
    }
    let trains = decode_train_table(
        state.trains.as_ref(),
        state.players,
        rules.public_train,
        prefix,
    )?;
    let foot = decode_foot_table(state.foot.as_ref(), rules.hub_arms, prefix)?;
    let table = one_table(trains, foot, rules.table, prefix)?;
    let hands = state
        .hands
        .iter()
        .enumerate()
        .map(|(s, hand)| {
            hand.tiles
                .iter()
                .enumerate()
                .map(|(i, t)| decode_tile(t, &|| field(&format!("hands[{s}].tiles[{i}]"))))
                .collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let boneyard = state
        .boneyard
        .iter()
        .enumerate()
        .map(|(i, t)| decode_tile(t, &|| field(&format!("boneyard[{i}]"))))
        .collect::<Result<Vec<_>, _>>()?;
    let empty_layout = proto::Layout::default();
    let layout = state.layout.as_ref().unwrap_or(&empty_layout);
    let history =
        history::decode_entries(&state.history, &rules, state.players, &field("history"))?;
    let setup = Setup {
        variant: state.variant.clone(),
        rules,
        players: state.players,
        seed: state.seed,
        hand_number: state.hand_number,
        hands,
        boneyard,
        lead: decode_optional_tile(layout.lead.as_ref(), &|| field("layout.lead"))?,
        left: arm::decode_readable(&layout.left, &|| field("layout.left"))?,
        right: arm::decode_readable(&layout.right, &|| field("layout.right"))?,
        up: arm::decode_readable(&layout.up, &|| field("layout.up"))?,
        down: arm::decode_readable(&layout.down, &|| field("layout.down"))?,
        spinner: decode_spinner(layout.spinner.as_ref(), &|| field("layout.spinner"))?,
        scores: state.scores.clone(),
        to_act: state.to_act,
        hand_leader: state.hand_leader,
        required_lead: decode_optional_tile(state.required_lead.as_ref(), &|| {
            field("required_lead")
        })?,
        drew_this_turn: state.drew_this_turn,
        outcome: decode_outcome(state.phase, state.result.as_ref(), prefix)?,
        history,
        digest: decode_digest(&state.match_digest, &|| field("match_digest"))?,
        table,
        widow: decode_widow(state.tricks.as_ref(), prefix)?,
    };
    let game = Game::from_setup(setup).map_err(|e| ApiError::from_setup(&e, prefix))?;
    if let (Some(given), Some(hand)) = (state.tricks.as_ref(), game.trick_hand()) {
        check_trick_table(given, hand, prefix)?;
    }
    let given = !layout.open_ends.is_empty();
    if given
        && (encode_open_ends(game.layout(), game.geometry()) != layout.open_ends
            || game.ends_total() != layout.ends_total)
    {
        return Err(ApiError::invalid(
            ErrorReason::OpenEndsMismatch,
            field("layout.open_ends"),
            "the open ends (or ends total) given do not follow from the tiles; \
             leave them empty or send them as the server wrote them",
        ));
    }
    Ok(game)
}

/// The layout with its derived open ends and ends total under `geometry`.
#[must_use]
pub fn encode_layout(layout: &Layout, geometry: Geometry) -> proto::Layout {
    let arm = |end| arm::encode_readable(layout.arm(end));
    proto::Layout {
        lead: layout.lead().map(encode_tile),
        left: arm(End::Left),
        right: arm(End::Right),
        up: arm(End::Up),
        down: arm(End::Down),
        spinner: encode_spinner(layout.spinner()),
        open_ends: encode_open_ends(layout, geometry),
        ends_total: layout.ends_total(geometry),
    }
}

/// The open ends as the server writes them (and checks them on input).
fn encode_open_ends(layout: &Layout, geometry: Geometry) -> Vec<proto::OpenEnd> {
    End::ALL
        .into_iter()
        .filter_map(|end| {
            layout.open_end(end).map(|pips| proto::OpenEnd {
                end: encode_end(Some(end)),
                pips: u32::from(pips),
                counts: layout.counts(end, geometry),
                starts_arm: layout.arm(end).is_empty(),
            })
        })
        .collect()
}

/// The complete state.
#[must_use]
pub fn encode_state(game: &Game) -> proto::GameState {
    proto::GameState {
        format_version: format_version(game.rules().table),
        variant: game.variant().to_owned(),
        rules: Some(encode_rules(game.rules())),
        players: u32::from(game.players()),
        seed: game.seed(),
        hand_number: game.hand_number(),
        hands: (0..game.players())
            .map(|seat| proto::Hand {
                tiles: game.hand(seat).iter().map(encode_tile).collect(),
            })
            .collect(),
        boneyard: game.boneyard().map(encode_tile).collect(),
        // (A trick game has no layout.)
        layout: game
            .trick_hand()
            .is_none()
            .then(|| encode_layout(game.layout(), game.geometry())),
        scores: game.scores().to_vec(),
        to_act: u32::from(game.to_act()),
        hand_leader: u32::from(game.hand_leader()),
        required_lead: game.required_lead().map(encode_tile),
        phase: encode_phase(game.outcome()),
        result: game.outcome().map(encode_outcome),
        history: game
            .history()
            .iter()
            .map(|entry| history::encode_entry(entry, true))
            .collect(),
        drew_this_turn: game.drew_this_turn(),
        sealed_seed: Vec::new(),
        tag: Vec::new(),
        match_digest: game.digest().0.to_vec(),
        trains: game.trains().map(encode_train_table),
        foot: game.foot().map(encode_foot_table),
        tricks: game.trick_hand().map(|hand| encode_trick_table(hand, true)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets::PRESETS;

    #[test]
    fn every_preset_round_trips_to_its_last_hand() {
        for preset in PRESETS {
            let players = *preset.players.end();
            let (mut game, _) =
                Game::new(preset.id, preset.rules(players, None), players, 3).expect("valid");
            while game.outcome().is_none() {
                let mv = game.legal_moves()[0];
                game.play(mv).expect("legal");
            }
            let state = encode_state(&game);
            assert_eq!(state.history.len(), game.history().len());
            let decoded = decode_state(Some(&state), "state").expect("valid");
            assert_eq!(decoded, game, "{}", preset.id);
        }
    }

    #[test]
    fn a_state_is_written_in_its_tables_format() {
        for (variant, version) in [("muggins", 1), ("mexican_train", 2)] {
            let preset = crate::rules::presets::preset(variant).expect("preset");
            let (game, _) = Game::new(variant, preset.rules(2, None), 2, 5).expect("valid");
            let mut state = encode_state(&game);
            assert_eq!(state.format_version, version);
            assert_eq!(state.trains.is_some(), version == 2);
            for wrong in [3 - version, 7] {
                state.format_version = wrong;
                let error = decode_state(Some(&state), "state").expect_err("wrong format");
                assert_eq!(error.reason, ErrorReason::UnsupportedFormatVersion);
                assert_eq!(error.field, "state.format_version");
            }
        }
    }
}
