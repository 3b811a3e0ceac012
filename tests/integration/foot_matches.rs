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
//!   the lowest score winning;
//! - every state goes through the checked constructor unchanged and reads
//!   back from both wire forms, and a state whose foot the round's moves do
//!   not make is refused;
//! - what a seat knows never rules out a tile another seat holds, and a
//!   sampled deal keeps everything the seat sees.

use crate::common::rounds;

use pips::proto;
use pips::rules::foot::{Foot, FootPlace, Root, TOES, Waiting};
use pips::rules::presets::preset;
use pips::rules::{Game, Move, Place, Placed, Rules, Setup, Table, Tile, TileSet};
use pips::service::codec;
use proptest::prelude::*;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rounds::{
    check_knowledge, check_lowest_wins, check_moves, check_round_ends, check_round_replays,
    every_seats_tries, history_faults, play_random, read_back, walk_states,
};

/// No match of this game comes near this many moves.
const MAX_MOVES: usize = 20_000;

/// The Chicken Foot preset's rules for `players`, varied by `variant`
/// (bit 0: six hub arms; bit 1: 0-0 counts its pips; bit 2: three rounds).
fn rules(players: u8, variant: u8) -> Rules {
    let mut rules = preset("chicken_foot")
        .expect("a preset")
        .rules(players, None);
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

/// Every arm of `foot` with what it grows from and its tiles.
fn arm_parts(foot: &Foot) -> Vec<(Root, Vec<Placed>)> {
    (0..foot.arm_count())
        .filter_map(|arm| u8::try_from(arm).ok())
        .map(|arm| {
            (
                foot.root(arm).unwrap_or(Root::Hub),
                foot.arm_tiles(arm).collect(),
            )
        })
        .collect()
}

/// `setup` with its foot rebuilt from `arms` and `waiting`.
fn with_foot(
    setup: &Setup,
    foot: &Foot,
    arms: Vec<(Root, Vec<Placed>)>,
    waiting: Option<Waiting>,
) -> Setup {
    let mut changed = setup.clone();
    changed.table = Foot::from_parts(foot.hub().high(), foot.hub_arms(), arms, waiting)
        .map(|foot| Table::Foot(Box::new(foot)));
    changed
}

/// States that differ from `setup` in one way the round's moves refute:
/// those of any table, and at the foot what waits changed, an arm grown
/// from elsewhere, a tile turned round on its arm.
fn faults(setup: &Setup, choose: &mut ChaCha8Rng) -> Vec<Setup> {
    let mut faulty = history_faults(setup, choose);
    let Some(Table::Foot(foot)) = &setup.table else {
        return faulty;
    };
    let waiting = match foot.waiting() {
        Some(_) => None,
        None => Some(Waiting::Hub),
    };
    faulty.push(with_foot(setup, foot, arm_parts(foot), waiting));
    let mut arms = arm_parts(foot);
    if let Some(toe) = arms.iter().position(|(root, _)| *root != Root::Hub) {
        arms[toe].0 = Root::Hub;
        faulty.push(with_foot(setup, foot, arms, foot.waiting()));
    } else if arms.len() > 1 {
        arms[1].0 = Root::Toe(0);
        faulty.push(with_foot(setup, foot, arms, foot.waiting()));
    }
    let mut arms = arm_parts(foot);
    let turnable = arms
        .iter_mut()
        .flat_map(|(_, tiles)| tiles.iter_mut())
        .find(|p| p.inner != p.outer);
    if let Some(placed) = turnable {
        *placed = Placed {
            inner: placed.outer,
            outer: placed.inner,
        };
        faulty.push(with_foot(setup, foot, arms, foot.waiting()));
    }
    faulty
}

/// The state reads back from both of its wire forms, every view shows the
/// same foot, and a packed foot said to wait for something else is refused
/// naming what waits.
fn wire_forms_round_trip(game: &Game, step: usize) -> Result<(), TestCaseError> {
    let (readable, packed) = read_back(game, step)?;
    prop_assert!(readable.trains.is_none() && readable.foot.is_some());
    if game.outcome().is_none() {
        let mut other = packed.clone();
        if let Some(foot) = other.foot.as_mut() {
            foot.waiting = u32::from(foot.waiting == 0);
        }
        let error = codec::decode_packed(&other, "state_token").expect_err("another wait");
        prop_assert_eq!(error.reason, proto::ErrorReason::FootTableMismatch);
        prop_assert_eq!(error.field, "state_token.foot.waiting");
    }
    for seat in 0..game.players() {
        let view = game.view(seat).map(codec::encode_view);
        prop_assert!(view.is_some_and(|v| v.foot == readable.foot));
    }
    Ok(())
}

/// Every state of a Chicken Foot match goes through the checked
/// constructor and both wire forms unchanged; faulty ones are refused.
fn states_check(players: u8, variant: u8, seed: u64) -> Result<(), TestCaseError> {
    let rules = rules(players, variant | 4);
    let (game, _) = Game::new("chicken_foot", rules, players, seed)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut choose = ChaCha8Rng::seed_from_u64(seed ^ 0x5e7f);
    let check = |game: &Game, setup: &Setup, step| {
        wire_forms_round_trip(game, step)?;
        // The foot rebuilt from its parts (as the codecs read it) is the
        // same state: the faults differ from it in one way only.
        if let Some(Table::Foot(foot)) = &setup.table {
            let same = with_foot(setup, foot, arm_parts(foot), foot.waiting());
            let read = Game::from_setup(same);
            prop_assert_eq!(read.as_ref(), Ok(game), "step {}", step);
        }
        Ok(())
    };
    walk_states(game, &mut choose, MAX_MOVES, check, faults)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// The checked constructor and the wire forms at every seat count.
    #[test]
    fn every_state_is_accepted_and_faults_are_refused(players in 2u8..=8, variant in 0u8..8, seed in any::<u64>()) {
        states_check(players, variant, seed)?;
    }
}

/// What each seat knows holds for the true deal, over random matches at
/// every seat count; every sample finds a deal (a chicken foot has no
/// chains, so nothing leaves a sample without room).
#[test]
fn knowledge_never_rules_out_the_truth() {
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(16));
    let result = runner.run(
        &(2u8..=8, 0u8..8, any::<u64>()),
        |(players, variant, seed)| {
            let rules = rules(players, variant | 4);
            let (mut game, _) = Game::new("chicken_foot", rules, players, seed)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            let mut choose = ChaCha8Rng::seed_from_u64(seed ^ 0xc0de);
            let mut step = 0usize;
            while game.outcome().is_none() && step < MAX_MOVES {
                if step % 5 == 0 {
                    let (_, unsampled) = check_knowledge(&game, &mut choose)?;
                    prop_assert_eq!(unsampled, 0, "a sample found no deal at step {}", step);
                }
                play_random(&mut game, &mut choose)?;
                step += 1;
            }
            Ok(())
        },
    );
    if let Err(error) = result {
        panic!("{error}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Every round replays through the service's `Replay` from the state
    /// it began with, to the same state and match digest.
    #[test]
    fn rounds_replay_to_the_same_digest(players in 2u8..=8, variant in 0u8..8, seed in any::<u64>()) {
        let rules = rules(players, variant | 4);
        let (game, _) = Game::new("chicken_foot", rules, players, seed)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut choose = ChaCha8Rng::seed_from_u64(seed ^ 0x7e91a7);
        let rounds = check_round_replays(game, &mut choose)?;
        prop_assert_eq!(rounds, u32::from(rules.rounds));
    }
}
