//! Property tests over thousands of random complete matches for every
//! preset, player count and partnership setting of this engine:
//!
//! - tiles are conserved at every step (each tile of the set exactly once);
//! - every reachable state passes the checked constructor unchanged, and
//!   comes back unchanged from both wire forms, the readable `GameState` and
//!   the packed `PackedState` of tokens, through their bytes (every eighth
//!   state and the last of each match in the many-match test);
//! - each side's score equals the sum of its score changes;
//! - every listed legal move is accepted, and every other move of the seat
//!   to act or of any other seat is refused (the exhaustive check runs on a
//!   smaller number of matches, since it tries every tile on every end);
//! - the match always ends.

use pips::proto;
use pips::rules::presets::{PRESETS, Preset, preset};
use pips::rules::{End, Game, Move, Setup, TableKind, Tile, TileSet};
use pips::service::codec::{decode_packed, decode_state, encode_packed, encode_state};
use proptest::prelude::*;
use prost::Message;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// No match of these presets comes near this many moves.
const MAX_MOVES: usize = 20_000;

/// Every line table the presets allow: (variant, players, partnerships).
/// (The train games have their own property tests, `train_matches.rs`:
/// their moves name trains, and a match of 13 rounds is long.)
fn tables() -> Vec<(&'static str, u8, Option<bool>)> {
    let mut tables = Vec::new();
    let line =
        |preset: &&Preset| preset.rules(*preset.players.start(), None).table == TableKind::Line;
    for preset in PRESETS.iter().filter(line) {
        for players in preset.players.clone() {
            tables.push((preset.id, players, None));
            if players == 4 {
                let default = preset.rules(4, None).partnerships;
                tables.push((preset.id, players, Some(!default)));
            }
        }
    }
    tables
}

/// Tiles in the state, each counted once; fails on a duplicate or a gap.
fn assert_tiles_conserved(game: &Game) -> Result<(), TestCaseError> {
    let mut seen = TileSet::EMPTY;
    let all = (0..game.players())
        .flat_map(|seat| game.hand(seat).iter())
        .chain(game.boneyard())
        .chain(game.layout().tiles());
    for tile in all {
        prop_assert!(seen.insert(tile), "{tile} appears twice");
    }
    prop_assert_eq!(seen, game.rules().tile_set(), "a tile is missing");
    Ok(())
}

/// Every move anyone could try: each seat (and one that does not exist)
/// playing each tile (and one beyond the set) on each end, drawing, passing.
fn candidate_moves(game: &Game) -> Vec<Move> {
    let mut tiles: Vec<Tile> = game.rules().tile_set().iter().collect();
    tiles.push(Tile::new(game.rules().max_pip + 1, 0));
    let mut moves = Vec::new();
    for seat in 0..=game.players() {
        for &tile in &tiles {
            for end in [None].into_iter().chain(End::ALL.map(Some)) {
                moves.push(Move::play(seat, tile, end));
            }
        }
        moves.push(Move::draw(seat));
        moves.push(Move::pass(seat));
    }
    moves
}

/// Both wire forms of `game`, encoded to bytes and read back, give `game`.
fn assert_wire_forms_round_trip(game: &Game) -> Result<(), TestCaseError> {
    let bytes = encode_state(game).encode_to_vec();
    let readable = proto::GameState::decode(bytes.as_slice())
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(decode_state(Some(&readable), "state"), Ok(game.clone()));
    let bytes = encode_packed(game).encode_to_vec();
    let packed = proto::PackedState::decode(bytes.as_slice())
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(decode_packed(&packed, "state_token"), Ok(game.clone()));
    Ok(())
}

/// Plays one random match to its end, checking the invariants at each step.
fn random_match(
    variant: &str,
    players: u8,
    partnerships: Option<bool>,
    seed: u64,
    exhaustive: bool,
) -> Result<(), TestCaseError> {
    let preset = preset(variant).expect("preset exists");
    let rules = preset.rules(players, partnerships);
    let (mut game, _) = Game::new(variant, rules, players, seed).expect("valid rules");
    let mut choices = ChaCha8Rng::seed_from_u64(seed.rotate_left(17) ^ 0x5eed);
    let mut totals = vec![0i32; game.scores().len()];
    let mut legal = Vec::new();
    for step in 0..MAX_MOVES {
        assert_tiles_conserved(&game)?;
        // The round trip copies the whole history, so the many-match test
        // takes it every few moves; the exhaustive one at every move.
        if exhaustive || step % 8 == 0 || game.outcome().is_some() {
            prop_assert_eq!(Game::from_setup(Setup::from(&game)), Ok(game.clone()));
            assert_wire_forms_round_trip(&game)?;
        }
        game.legal_moves_into(&mut legal);
        if game.outcome().is_some() {
            prop_assert!(legal.is_empty());
            return Ok(());
        }
        prop_assert!(!legal.is_empty(), "a match in play always has a move");
        if exhaustive {
            for candidate in candidate_moves(&game) {
                prop_assert_eq!(
                    game.check(candidate).is_ok(),
                    legal.contains(&candidate),
                    "{} in {:?}",
                    candidate,
                    legal
                );
            }
            for &mv in &legal {
                prop_assert!(game.clone().play(mv).is_ok(), "{mv} listed but refused");
            }
        }
        let mv = legal[choices.random_range(0..legal.len())];
        let report = game
            .play(mv)
            .map_err(|e| TestCaseError::fail(format!("{mv}: {e}")))?;
        for (total, change) in totals.iter_mut().zip(&report.score_change) {
            *total += change;
        }
        prop_assert_eq!(game.scores(), &totals[..]);
    }
    Err(TestCaseError::fail(format!(
        "no end after {MAX_MOVES} moves"
    )))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Thousands of matches per table: 1,000 per table here, times every
    /// table the presets allow.
    #[test]
    fn random_matches_keep_every_invariant(seed in any::<u64>()) {
        for (variant, players, partnerships) in tables() {
            random_match(variant, players, partnerships, seed, false)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Exactly the listed moves are accepted, at every step of a match.
    #[test]
    fn exactly_the_listed_moves_are_legal(seed in any::<u64>()) {
        for (variant, players, partnerships) in tables() {
            random_match(variant, players, partnerships, seed, true)?;
        }
    }
}

#[test]
fn same_seed_and_moves_give_the_same_match() {
    let rules = preset("muggins").expect("muggins").rules(3, None);
    let play_out = |seed| {
        let (mut game, _) = Game::new("muggins", rules, 3, seed).expect("valid");
        while game.outcome().is_none() {
            let mv = game.legal_moves()[0];
            game.play(mv).expect("legal");
        }
        game
    };
    assert_eq!(play_out(99), play_out(99));
    assert_ne!(play_out(99).history(), play_out(100).history());
}
