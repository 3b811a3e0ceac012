//! Property tests over random complete matches of Chicken Foot at every
//! seat count (2–8), with four and six hub arms, and 0-0 worth 50 or its
//! pips:
//!
//! - tiles are conserved at every step (hands, boneyard, arms and the
//!   round's hub: each tile of the set exactly once);
//! - every arm grows from the hub or a foot's toe, each tile touching the
//!   last; the hub takes its arms and a foot its three toes before any
//!   other placement; an arm ending in a double takes nothing more;
//! - every listed legal move is accepted and every other move of any seat
//!   (each tile in hand on each arm and as a new arm, a draw, a pass, an
//!   end of turn) is refused;
//! - at a round's end each seat's score grows by the pips left in its hand
//!   (0-0 counting its own worth), and the match ends after its rounds with
//!   the lowest score winning.

#[path = "common/rounds.rs"]
mod rounds;

use pips::rules::foot::{Foot, FootPlace, Root, TOES, Waiting};
use pips::rules::presets::ENGINE_ONLY_PRESETS;
use pips::rules::{Game, Move, Place, Rules, Tile, TileSet};
use proptest::prelude::*;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rounds::{check_lowest_wins, check_moves, check_round_ends, every_seats_tries};

/// No match of this game comes near this many moves.
const MAX_MOVES: usize = 20_000;

/// The Chicken Foot preset's rules for `players`, varied by `variant`
/// (bit 0: six hub arms; bit 1: 0-0 counts its pips; bit 2: three rounds).
fn rules(players: u8, variant: u8) -> Rules {
    let mut rules = ENGINE_ONLY_PRESETS[0].rules(players, None);
    if variant & 1 != 0 {
        rules.hub_arms = 6;
    }
    if variant & 2 != 0 {
        rules.double_blank_pips = 0;
    }
    if variant & 4 != 0 {
        rules.rounds = 3;
    }
    rules
}

/// Every tile on the table, checking how the arms grow.
fn table_tiles(foot: &Foot, hub_arms: u8) -> Result<Vec<Tile>, TestCaseError> {
    let hub = foot.hub();
    let mut tiles = vec![hub];
    let arms = u8::try_from(foot.arm_count()).unwrap_or(u8::MAX);
    let mut from_hub = 0;
    for arm in 0..arms {
        let mut open = match foot.root(arm) {
            Some(Root::Hub) => {
                from_hub += 1;
                hub.high()
            }
            Some(Root::Toe(of)) => {
                prop_assert!(of < arm, "a toe of a later arm");
                let last = foot.arm_tiles(of).last().map(|p| p.tile());
                prop_assert!(last.is_some_and(Tile::is_double), "a toe of no foot");
                last.map_or(0, Tile::high)
            }
            None => return Err(TestCaseError::fail("an arm with no root")),
        };
        let placed: Vec<_> = foot.arm_tiles(arm).collect();
        for (i, p) in placed.iter().enumerate() {
            prop_assert_eq!(p.inner, open, "arm {} does not connect", arm);
            open = p.outer;
            tiles.push(p.tile());
            // A double ends its arm: nothing follows it on the arm.
            prop_assert!(
                !p.tile().is_double() || i + 1 == placed.len(),
                "a tile after a foot"
            );
        }
        let ends_in_foot = placed.last().is_some_and(|p| p.tile().is_double());
        prop_assert_eq!(foot.open_end(arm), (!ends_in_foot).then_some(open));
    }
    prop_assert!(from_hub <= hub_arms);
    match foot.waiting() {
        Some(Waiting::Hub) => prop_assert!(from_hub < hub_arms),
        Some(Waiting::Toes(arm)) => {
            let toes = (0..arms)
                .filter(|&a| foot.root(a) == Some(Root::Toe(arm)))
                .count();
            prop_assert!(toes < usize::from(TOES));
        }
        None => prop_assert_eq!(from_hub, hub_arms),
    }
    Ok(tiles)
}

/// Tiles in the state, each counted once.
fn assert_tiles_conserved(game: &Game) -> Result<(), TestCaseError> {
    let Some(foot) = game.foot() else {
        return Err(TestCaseError::fail("no chicken foot"));
    };
    let mut seen = TileSet::EMPTY;
    let all = (0..game.players())
        .flat_map(|seat| game.hand(seat).iter())
        .chain(game.boneyard())
        .chain(table_tiles(foot, game.rules().hub_arms)?);
    for tile in all {
        prop_assert!(seen.insert(tile), "{tile} appears twice");
    }
    prop_assert_eq!(seen, game.rules().tile_set(), "a tile is missing");
    Ok(())
}

/// Every move a seat could try: each tile it holds on each arm (and one
/// beyond), as a new arm and as a lead, a draw, a pass and an end of turn,
/// for every seat.
fn candidate_moves(game: &Game) -> Vec<Move> {
    let arms = game.foot().map_or(0, Foot::arm_count);
    let mut places: Vec<Place> = (0..=arms)
        .filter_map(|arm| u8::try_from(arm).ok())
        .map(|arm| Place::at_foot(FootPlace::Arm(arm)))
        .collect();
    places.push(Place::at_foot(FootPlace::NewArm));
    places.push(Place::LEAD);
    every_seats_tries(game, &places)
}

/// Plays one random match to its end, checking the invariants at each
/// step; with `exhaustive`, every candidate move of every position.
fn play_match(players: u8, variant: u8, seed: u64, exhaustive: bool) -> Result<(), TestCaseError> {
    let rules = rules(players, variant);
    let (mut game, _) = Game::new("chicken_foot", rules, players, seed)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut choose = ChaCha8Rng::seed_from_u64(seed ^ 0xf007);
    let mut rounds_ended = 0u32;
    for _ in 0..MAX_MOVES {
        assert_tiles_conserved(&game)?;
        let legal = game.legal_moves();
        if game.outcome().is_some() {
            prop_assert!(legal.is_empty());
            break;
        }
        check_moves(&game, &legal, exhaustive.then(|| candidate_moves(&game)))?;
        let to_act = game.to_act();
        let mv = legal[choose.random_range(0..legal.len())];
        let report = game
            .play(mv)
            .map_err(|e| TestCaseError::fail(format!("{mv}: {e}")))?;
        let ended = check_round_ends(&report, &rules, players)?;
        rounds_ended += ended;
        // One tile a turn: a placement or a pass hands the turn on (a
        // double's placer does not act again); a draw keeps it.
        if ended == 0 && game.outcome().is_none() {
            let next = (to_act + 1) % players;
            let expected = if mv == Move::draw(to_act) {
                to_act
            } else {
                next
            };
            prop_assert_eq!(game.to_act(), expected, "after {}", mv);
        }
    }
    check_lowest_wins(&game, &rules, rounds_ended)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random matches at every seat count and option.
    #[test]
    fn random_matches_keep_the_rules(players in 2u8..=8, variant in 0u8..8, seed in any::<u64>()) {
        play_match(players, variant, seed, false)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Exactly the listed moves are accepted, at every step.
    #[test]
    fn only_listed_moves_are_accepted(players in 2u8..=8, variant in 4u8..8, seed in any::<u64>()) {
        play_match(players, variant, seed, true)?;
    }
}

/// The digest commits to the table's options: the same deal and moves
/// under four and six hub arms are different records.
#[test]
fn the_digest_commits_to_the_hub_arms() {
    let four = Game::new("chicken_foot", rules(4, 0), 4, 9)
        .expect("valid")
        .0;
    let six = Game::new("chicken_foot", rules(4, 1), 4, 9)
        .expect("valid")
        .0;
    assert_ne!(four.digest(), six.digest());
}
