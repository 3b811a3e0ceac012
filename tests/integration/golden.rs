//! Golden matches: for every preset, a fixed seed and fixed move choices
//! play a whole match; its moves, final state and scores must equal the
//! recording in `tests/golden/<preset>.txt`, so any change to the rules
//! shows up in review.
//!
//! To re-record after an intended rule change: `PIPS_BLESS=1 cargo test
//! --test integration golden::`, then review the diff of `tests/golden/`.

use std::fmt::Write as _;
use std::path::PathBuf;

use pips::rules::foot::FootPlace;
use pips::rules::presets::PRESETS;
use pips::rules::{Action, End, Game, Move, PlaceKind, TrainId};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

const SEED: u64 = 2026;

fn short(mv: &Move) -> String {
    match mv.action {
        Action::Play { tile, place } => {
            let end = match place.kind() {
                PlaceKind::Lead => String::new(),
                PlaceKind::End(End::Left) => "L".to_owned(),
                PlaceKind::End(End::Right) => "R".to_owned(),
                PlaceKind::End(End::Up) => "U".to_owned(),
                PlaceKind::End(End::Down) => "D".to_owned(),
                PlaceKind::Train(TrainId::Seat(seat)) => format!("@{seat}"),
                PlaceKind::Train(TrainId::Mexican) => "@M".to_owned(),
                PlaceKind::Foot(FootPlace::Arm(arm)) => format!("^{arm}"),
                PlaceKind::Foot(FootPlace::NewArm) => "^new".to_owned(),
            };
            format!("{}:{tile}{end}", mv.seat)
        }
        Action::Draw => format!("{}:draw", mv.seat),
        Action::Pass => format!("{}:pass", mv.seat),
        Action::EndTurn => format!("{}:end", mv.seat),
        // (A trick game's moves: none in these matches.)
        Action::Bid(_) | Action::Name(_) | Action::Discard(_) | Action::Trick(_) => {
            format!(
                "{}:{}",
                mv.seat,
                mv.action.trick_bytes().unwrap_or_default()[0]
            )
        }
    }
}

/// Plays the golden match of `variant` and renders it as text.
fn golden_match(variant: &str, players: u8) -> String {
    let preset = PRESETS.iter().find(|p| p.id == variant).expect("preset");
    let (mut game, _) =
        Game::new(variant, preset.rules(players, None), players, SEED).expect("valid");
    let mut choices = ChaCha8Rng::seed_from_u64(SEED);
    // The match's record (a state keeps only the current hand's moves).
    let mut record = Vec::new();
    while game.outcome().is_none() {
        let legal = game.legal_moves();
        let mv = legal[choices.random_range(0..legal.len())];
        record.push((game.hand_number(), mv));
        game.play(mv).expect("legal");
    }
    let mut text = String::new();
    let _ = writeln!(text, "variant: {variant}\nplayers: {players}\nseed: {SEED}");
    // (A placing game has no trick options: they are left out, so that the
    // records made before the trick games read as they did.)
    let rules = format!("{:?}", game.rules()).replace(", tricks: None", "");
    let _ = writeln!(text, "rules: {rules}");
    let _ = writeln!(text, "outcome: {:?}", game.outcome());
    let _ = writeln!(text, "scores: {:?}", game.scores());
    let _ = writeln!(text, "hands played: {}", game.hand_number());
    let _ = writeln!(text, "moves: {}", record.len());
    let digest: String = game.digest().0.iter().map(|b| format!("{b:02x}")).collect();
    let _ = writeln!(text, "match digest: {digest}");
    let layout = game.layout();
    let _ = writeln!(
        text,
        "last layout: lead {:?}, spinner {:?}",
        layout.lead().map(|t| t.to_string()),
        layout.spinner()
    );
    for end in End::ALL {
        let arm: Vec<String> = layout
            .arm(end)
            .iter()
            .map(|p| format!("{}-{}", p.inner, p.outer))
            .collect();
        let _ = writeln!(text, "  {end:?}: {}", arm.join(" "));
    }
    if let Some(trains) = game.trains() {
        let _ = writeln!(
            text,
            "last trains: hub {}, unsatisfied {:?}",
            trains.hub(),
            trains.unsatisfied()
        );
        for (id, train) in trains.trains() {
            let tiles: Vec<String> = train
                .tiles()
                .iter()
                .map(|p| format!("{}-{}", p.inner, p.outer))
                .collect();
            let marker = if train.marker() { " (marker up)" } else { "" };
            let _ = writeln!(text, "  {id}{marker}: {}", tiles.join(" "));
        }
    }
    if let Some(foot) = game.foot() {
        let _ = writeln!(
            text,
            "last foot: hub {}, waiting {:?}",
            foot.hub(),
            foot.waiting()
        );
        for arm in (0..foot.arm_count()).filter_map(|arm| u8::try_from(arm).ok()) {
            let tiles: Vec<String> = foot
                .arm_tiles(arm)
                .map(|p| format!("{}-{}", p.inner, p.outer))
                .collect();
            let closed = if foot.ends_in_foot(arm) {
                " (a foot)"
            } else {
                ""
            };
            let _ = writeln!(
                text,
                "  arm {arm} from {:?}{closed}: {}",
                foot.root(arm),
                tiles.join(" ")
            );
        }
    }
    for seat in 0..game.players() {
        let hand: Vec<String> = game.hand(seat).iter().map(|t| t.to_string()).collect();
        let _ = writeln!(text, "seat {seat} holds: {}", hand.join(" "));
    }
    let mut hand = 0;
    for (in_hand, mv) in &record {
        if *in_hand != hand {
            hand = *in_hand;
            let _ = write!(text, "\nhand {hand}:");
        }
        let _ = write!(text, " {}", short(mv));
    }
    text.push('\n');
    text
}

#[test]
fn every_preset_replays_its_recorded_match() {
    let bless = std::env::var_os("PIPS_BLESS").is_some();
    let mut stale = Vec::new();
    for preset in PRESETS {
        let players = *preset.players.start();
        let actual = golden_match(preset.id, players);
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden")
            .join(format!("{}.txt", preset.id));
        if bless {
            std::fs::write(&path, &actual).expect("write golden file");
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => {
                let line = expected
                    .lines()
                    .zip(actual.lines())
                    .position(|(e, a)| e != a)
                    .map_or(0, |i| i + 1);
                stale.push(format!("{}: differs from line {line}", path.display()));
            }
            Err(error) => stale.push(format!("{}: {error}", path.display())),
        }
    }
    assert!(
        stale.is_empty(),
        "golden matches changed (re-record with PIPS_BLESS=1 if intended):\n{}",
        stale.join("\n")
    );
}
