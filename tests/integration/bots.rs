//! Computer opponents: every level suggests a legal move in random
//! positions of every preset; a suggestion depends only on what the seat
//! can see (the no-peek test); the determinizer's deals agree with the
//! seat's information and are spread evenly over the consistent ones; a
//! fixed seed and playout budget give the same suggestion.

use crate::common;

use std::collections::HashMap;

use pips::bots::{Budget, Level, suggest};
use pips::rules::presets::PRESETS;
use pips::rules::{Action, Game, Setup, TileSet};
use proptest::prelude::*;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

const NEVER: &dyn Fn() -> bool = &|| false;

fn budget(playouts: u32) -> Budget<'static> {
    Budget {
        playouts,
        stop: NEVER,
    }
}

/// A random position of preset `index` (every preset and player count),
/// `depth` random moves into a match, with the match still on.
fn position(index: usize, seed: u64, depth: usize) -> Game {
    let preset = &PRESETS[index % PRESETS.len()];
    let counts: Vec<u8> = preset.players.clone().collect();
    let players = counts[index / PRESETS.len() % counts.len()];
    let (mut game, _) =
        Game::new(preset.id, preset.rules(players, None), players, seed).expect("valid");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..depth {
        let legal = game.legal_moves();
        let mv = legal[rng.random_range(0..legal.len())];
        let mut next = game.clone();
        next.play(mv).expect("legal");
        if next.outcome().is_some() {
            break;
        }
        game = next;
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn every_level_suggests_a_legal_move(index in 0usize..1000, seed in any::<u64>(), depth in 0usize..120) {
        let game = position(index, seed, depth);
        let seat = game.to_act();
        let view = game.view(seat).expect("seat");
        let legal = game.legal_moves();
        for level in [Level::Random, Level::Greedy, Level::Expert, Level::ExpertSolved] {
            let suggestion = suggest(view, level, seed, budget(24)).expect("the seat is to act");
            prop_assert!(legal.contains(&suggestion.mv), "{:?}: {:?}", level, suggestion.mv);
            if level == Level::Expert && legal.len() > 1 {
                prop_assert_eq!(suggestion.values.len(), legal.len());
                prop_assert!(suggestion.values.iter().all(|v| (0.0..=1.0).contains(&v.value)));
            }
        }
        // Not its turn: nothing to suggest.
        let other = (seat + 1) % game.players();
        prop_assert!(suggest(game.view(other).expect("seat"), Level::Greedy, 0, budget(8)).is_none());
    }

    /// A deal sampled for a seat is a complete, valid state that shows the
    /// seat exactly what it saw; and a bot cannot tell it from the real one
    /// (the no-peek test: the hidden tiles, their order, the seed and other
    /// seats' drawn tiles all differ, consistently with the seat's
    /// information), nor can the exact endings of `expert-solved`, which
    /// solve the sampled deals.
    #[test]
    fn deals_agree_with_the_seat_and_bots_never_peek(index in 0usize..1000, seed in any::<u64>(), depth in 0usize..120) {
        let game = position(index, seed, depth);
        let seat = game.to_act();
        let view = game.view(seat).expect("seat");
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 1);
        let world = view.knowledge().sample(&mut rng).expect("the true deal is consistent");
        // A valid state, and exactly the game it describes: nothing of the
        // real game (such as what the real seed deals next) stays behind.
        let described = Game::from_setup(Setup::from(&world));
        prop_assert!(described.as_ref().is_ok_and(|described| *described == world), "{:?}", described.err());
        let seen = world.view(seat).expect("seat");
        prop_assert_eq!(seen.hand(), view.hand());
        prop_assert_eq!(seen.layout(), view.layout());
        prop_assert_eq!(seen.trains(), view.trains());
        prop_assert_eq!(seen.foot(), view.foot());
        prop_assert_eq!(seen.turn(), view.turn());
        prop_assert_eq!(seen.drew_this_turn(), view.drew_this_turn());
        prop_assert_eq!(seen.boneyard_len(), view.boneyard_len());
        prop_assert_eq!(seen.scores(), view.scores());
        prop_assert_eq!(seen.history().collect::<Vec<_>>(), view.history().collect::<Vec<_>>());
        for other in 0..game.players() {
            prop_assert_eq!(seen.hand_size(other), view.hand_size(other));
        }
        for level in [Level::Random, Level::Greedy, Level::Expert, Level::ExpertSolved] {
            prop_assert_eq!(
                suggest(view, level, seed, budget(40)),
                suggest(seen, level, seed, budget(40)),
                "{:?} peeked", level
            );
        }
    }
}

#[test]
fn a_seed_and_a_playout_budget_fix_the_expert() {
    for (index, seed) in [(0, 3), (2, 9), (5, 11)] {
        let game = position(index, seed, 17);
        let view = game.view(game.to_act()).expect("seat");
        let first = suggest(view, Level::Expert, 42, budget(200)).expect("a move");
        assert_eq!(
            Some(&first),
            suggest(view, Level::Expert, 42, budget(200)).as_ref()
        );
        assert!(first.playouts <= 200);
    }
}

/// At a table with a hub `expert` searches flat and neither merges moves
/// nor weighs deals (no refinement applies there), so it answers exactly as
/// `expert-playouts` does: the arena's comparison of the two is level by
/// construction there.
#[test]
fn at_a_hub_expert_is_the_flat_search() {
    let mut compared = 0;
    for (index, preset) in PRESETS.iter().enumerate() {
        if !matches!(preset.id, "mexican_train" | "chicken_foot") {
            continue;
        }
        for seed in 0..6 {
            let game = position(index, seed, usize::try_from(seed * 7).unwrap_or(0));
            let view = game.view(game.to_act()).expect("seat");
            if game.legal_moves().len() < 2 {
                continue;
            }
            assert_eq!(
                suggest(view, Level::Expert, seed, budget(60)),
                suggest(view, Level::ExpertPlayouts, seed, budget(60)),
                "{} {seed}",
                preset.id
            );
            compared += 1;
        }
    }
    assert!(compared >= 4, "{compared}");
}

/// In a block hand where the opponent has passed, the deals sampled for
/// the seat give the opponent every hand consistent with the passes, each
/// about equally often, and never one that could have played.
#[test]
fn deals_spread_evenly_over_the_consistent_ones() {
    // A block hand (no drawing) where the seat to act's opponent has passed
    // and holds three tiles; recorded as it is played: each pass, with the
    // tiles that fitted the ends then.
    let mut found = None;
    'search: for seed in 0..400 {
        let rules = pips::rules::presets::preset("block")
            .expect("preset")
            .rules(2, None);
        let (mut game, _) = Game::new("block", rules, 2, seed).expect("valid");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut passes: Vec<(u8, TileSet, usize)> = Vec::new(); // (seat, fitting, at)
        let mut after: Vec<TileSet> = Vec::new(); // what fitted after each move
        while game.outcome().is_none() {
            let me = game.to_act();
            let opponent = 1 - me;
            if game.hand_number() >= 2
                && passes.iter().any(|p| p.0 == opponent)
                && game.hand(opponent).len() == 3
            {
                found = Some((game, passes, after));
                break 'search;
            }
            let hand = game.hand_number();
            let legal = game.legal_moves();
            let mv = legal[rng.random_range(0..legal.len())];
            if mv.action == Action::Pass {
                let fitting = game.open_ends().fold(TileSet::EMPTY, |set, (_, pips)| {
                    set.or(game.rules().connect.fitting(pips))
                });
                passes.push((mv.seat, fitting, game.history().len()));
            }
            game.play(mv).expect("legal");
            after.push(game.open_ends().fold(TileSet::EMPTY, |set, (_, pips)| {
                set.or(game.rules().connect.fitting(pips))
            }));
            if game.hand_number() != hand {
                passes.clear();
                after.clear();
            }
        }
    }
    let (game, passes, after) = found.expect("a block position after a pass");
    let me = game.to_act();
    let opponent = 1 - me;
    // The opponent's hands consistent with the history, found
    // independently: at each of its passes it held its hand now plus what
    // it played since, and none of those tiles fitted the ends then; and
    // after every move somebody could still play (else the hand would have
    // ended blocked).
    let on_table: TileSet = game.layout().tiles().collect();
    let unknown = game.rules().tile_set().minus(game.hand(me)).minus(on_table);
    let played_since = |at: usize, seat: u8| -> TileSet {
        game.history()[at..]
            .iter()
            .filter(|e| e.mv.seat == seat)
            .filter_map(|e| match e.mv.action {
                Action::Play { tile, .. } => Some(tile),
                _ => None,
            })
            .collect()
    };
    let voids: Vec<(TileSet, TileSet)> = passes
        .iter()
        .filter(|p| p.0 == opponent)
        .map(|&(_, fitting, at)| (fitting, played_since(at, opponent)))
        .collect();
    let open: Vec<(TileSet, TileSet, TileSet)> = after
        .iter()
        .enumerate()
        .map(|(i, &fitting)| {
            let mine = game.hand(me).or(played_since(i + 1, me));
            (fitting, mine, played_since(i + 1, opponent))
        })
        .collect();
    let tiles: Vec<_> = unknown.iter().collect();
    let mut consistent = Vec::new();
    for a in 0..tiles.len() {
        for b in a + 1..tiles.len() {
            for c in b + 1..tiles.len() {
                let hand: TileSet = [tiles[a], tiles[b], tiles[c]].into_iter().collect();
                let passes_forced = voids
                    .iter()
                    .all(|(fitting, since)| hand.or(*since).and(*fitting).is_empty());
                let never_blocked = open.iter().all(|(fitting, mine, since)| {
                    !hand.or(*since).or(*mine).and(*fitting).is_empty()
                });
                if passes_forced && never_blocked {
                    consistent.push(hand);
                }
            }
        }
    }
    assert!(
        consistent.len() >= 4,
        "{} consistent hands",
        consistent.len()
    );
    let view = game.view(me).expect("seat");
    let knowledge = view.knowledge();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let per_hand = 300;
    let draws = per_hand * consistent.len();
    let mut counts: HashMap<Vec<u32>, usize> = HashMap::new();
    for _ in 0..draws {
        let world = knowledge.sample(&mut rng).expect("a deal");
        let hand: Vec<u32> = world.hand(opponent).iter().map(|t| t.index()).collect();
        *counts.entry(hand).or_default() += 1;
    }
    assert_eq!(
        counts.len(),
        consistent.len(),
        "every consistent hand, and no other"
    );
    for hand in &consistent {
        let key: Vec<u32> = hand.iter().map(|t| t.index()).collect();
        let n = counts.get(&key).copied().unwrap_or(0);
        assert!(
            (per_hand * 2 / 3..=per_hand * 4 / 3).contains(&n),
            "{key:?} drawn {n} times of {draws}"
        );
    }
}

/// Random house rules (every option drawn afresh or kept from a preset,
/// 2–4 players, every set): in positions of their matches, every level
/// suggests a legal move and sampled deals are valid states that show the
/// seat what it saw.
#[test]
fn bots_play_every_house_rule_combination() {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut positions = 0;
    for _ in 0..6000 {
        let (variant, rules, players) = common::house::house_rules(&mut rng);
        let Ok((mut game, _)) = Game::new(variant, rules, players, rng.random()) else {
            continue;
        };
        let depth = rng.random_range(0..150);
        for step in 0..depth {
            if game.outcome().is_some() {
                break;
            }
            if step % 37 == 36 {
                let seat = game.to_act();
                let view = game.view(seat).expect("seat");
                let legal = game.legal_moves();
                let world = view
                    .knowledge()
                    .sample(&mut rng)
                    .expect("the true deal is consistent");
                let read = Game::from_setup(Setup::from(&world));
                assert!(read.is_ok(), "{rules:?}: {:?}", read.err());
                assert_eq!(world.view(seat).expect("seat").hand(), view.hand());
                for level in [
                    Level::Random,
                    Level::Greedy,
                    Level::Expert,
                    Level::ExpertSolved,
                ] {
                    let mv = suggest(view, level, step as u64, budget(12))
                        .expect("a move")
                        .mv;
                    assert!(legal.contains(&mv), "{level:?} {rules:?}");
                }
                positions += 1;
            }
            let legal = game.legal_moves();
            game.play(legal[rng.random_range(0..legal.len())])
                .expect("legal");
        }
    }
    assert!(positions > 500, "{positions} positions");
}

#[test]
fn greedy_sets_up_a_capicua_where_one_scores() {
    use common::{Position, rules, t};
    use pips::rules::{End, Move, Placed};
    // Ends 1 and 6; seat 0 holds 1-1 and 1-6. 1-1 on the 1 leaves 1 and 6
    // for 1-6 to go out with a capicúa; 1-6 now leaves 1-1 a double.
    let choice = |variant: &str| {
        let mut position = Position::new(
            rules(variant, 4),
            4,
            vec![
                vec![t(1, 1), t(6, 1)],
                vec![t(2, 2), t(3, 3)],
                vec![t(0, 0), t(5, 5)],
                vec![t(2, 0), t(3, 0)],
            ],
        )
        .with_lead(t(4, 4));
        position.left = vec![Placed { inner: 4, outer: 1 }];
        position.right = vec![Placed { inner: 4, outer: 6 }];
        let game = position.game();
        let view = game.view(0).expect("seat");
        suggest(view, Level::Greedy, 1, budget(0))
            .expect("a move")
            .mv
    };
    let setup = Move::play(0, t(1, 1), Some(End::Left));
    assert_eq!(choice("dominican"), setup);
    // Without the bonus greedy sheds the heavier 1-6 instead.
    assert_ne!(choice("puerto_rican"), setup);
}

#[test]
fn playouts_looking_ahead_give_up_points_that_hand_the_next_seat_more() {
    use common::{Position, rules, t};
    use pips::bots::greedy::{choose_ahead, choose_in};
    // Ends 5 and 2. Seat 0's 2-0 takes 5 (ends 5 and 0), but seat 1 then
    // lays its 0-5 on the 0 for 10; 2-6 takes nothing and leaves seat 1
    // nothing to take.
    let mut game = Position::new(
        rules("all_fives", 2),
        2,
        vec![vec![t(2, 0), t(2, 6)], vec![t(0, 5), t(1, 1)]],
    )
    .with_lead(t(5, 2))
    .game();
    let legal = game.legal_moves();
    let playing = |tile| {
        legal
            .iter()
            .copied()
            .find(|mv| matches!(mv.action, Action::Play { tile: played, .. } if played == tile))
            .expect("legal")
    };
    let (five, nothing) = (playing(t(2, 0)), playing(t(2, 6)));
    assert_eq!(legal.len(), 2);
    assert_eq!(choose_in(&game, &legal), Some(five));
    assert_eq!(choose_ahead(&game, &legal), Some(nothing));
    // The trap is real: 2-0 scores 5, and 0-5 on the 0 then scores 10.
    let before = game.scores().to_vec();
    game.play(five).expect("legal");
    let reply = game
        .legal_moves()
        .into_iter()
        .max_by_key(|&mv| {
            let mut after = game.clone();
            after.play(mv).expect("legal");
            after.scores()[1]
        })
        .expect("a reply");
    game.play(reply).expect("legal");
    assert_eq!(game.scores()[0] - before[0], 5);
    assert_eq!(game.scores()[1] - before[1], 10);
}

/// Where the ends do not score in play (or the lowest score wins), the
/// playouts' look ahead is `greedy`'s own move.
#[test]
fn without_points_in_play_looking_ahead_changes_nothing() {
    use pips::bots::greedy::{choose_ahead, choose_in};
    use pips::rules::InPlayScoring;
    let mut positions = 0;
    for index in 0..PRESETS.len() * 4 {
        for seed in 0..40 {
            let game = position(index, seed, usize::try_from(seed % 20).unwrap_or(0));
            let rules = game.rules();
            if rules.in_play_scoring != InPlayScoring::None && !rules.lowest_score_wins() {
                continue;
            }
            let legal = game.legal_moves();
            assert_eq!(choose_ahead(&game, &legal), choose_in(&game, &legal));
            positions += 1;
        }
    }
    assert!(positions > 1000, "{positions} positions");
}

/// A Mexican Train position where the seat opened with a chain of three
/// on its own train (so its dealt tiles held a 4 for the chain to go on)
/// and later played several tiles it had drawn: the deal is still
/// sampled. (The tiles it played used to be pinned to its earliest slots,
/// the drawn ones among them, until no dealt slot was left free for the
/// 4, and no sample met the chain.)
#[test]
fn a_played_tile_leaves_free_a_slot_the_seat_surely_held_a_tile_in() {
    let game = position(813, 4887076857770489024, 100);
    assert_eq!(game.variant(), "mexican_train");
    let seat = game.to_act();
    let view = game.view(seat).expect("seat");
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..20 {
        let world = view
            .knowledge()
            .sample(&mut rng)
            .expect("a consistent deal");
        assert_eq!(
            world.view(seat).expect("seat").history().count(),
            view.history().count()
        );
    }
}
