//! Criterion benchmarks of the rules engine, of both state codecs (readable
//! and packed), of the `Play` handler and of the trick games' exact
//! endings (the double-dummy solver).
//!
//! `cargo bench --bench engine`; the README quotes the medians.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use pips::proto;
use pips::rules::presets::preset;
use pips::rules::{Game, Setup};
use pips::service::codec::{decode_packed, decode_state, encode_move, encode_packed, encode_state};
use prost::Message;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

#[path = "common/random_hands.rs"]
mod random_hands;
use random_hands::HandRunner;

/// A game of `variant` `moves` random moves in.
fn midgame(variant: &str, players: u8, moves: usize) -> Game {
    let rules = preset(variant).expect("preset").rules(players, None);
    let (mut game, _) = Game::new(variant, rules, players, 3).expect("valid");
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut legal = Vec::new();
    for _ in 0..moves {
        game.legal_moves_into(&mut legal);
        let Some(&mv) = legal.get(rng.random_range(0..legal.len().max(1))) else {
            break;
        };
        game.play_unchecked(mv);
    }
    game
}

fn engine(c: &mut Criterion) {
    let game = midgame("muggins", 2, 6);
    let mut legal = Vec::new();
    c.bench_function("legal_moves_into (muggins 2p)", |b| {
        b.iter(|| {
            black_box(&game).legal_moves_into(&mut legal);
            black_box(legal.len())
        })
    });
    let mv = game.legal_moves()[0];
    c.bench_function("play (checked, muggins 2p)", |b| {
        b.iter_batched_ref(
            || game.clone(),
            |g| g.play(black_box(mv)),
            BatchSize::SmallInput,
        )
    });
    c.bench_function("play_unchecked (muggins 2p)", |b| {
        b.iter_batched_ref(
            || game.clone(),
            |g| g.play_unchecked(black_box(mv)),
            BatchSize::SmallInput,
        )
    });
    let mut hands = c.benchmark_group("random hands");
    hands.throughput(Throughput::Elements(1));
    for (variant, players) in [("muggins", 2), ("block", 4), ("all_fives", 2)] {
        let mut runner = HandRunner::new(variant, players, None, 0);
        hands.bench_function(format!("{variant} {players}p"), |b| {
            b.iter(|| runner.play_hand());
        });
    }
    hands.finish();
}

fn codec(c: &mut Criterion) {
    let game = midgame("muggins", 4, 40);
    let state = encode_state(&game);
    let bytes = state.encode_to_vec();
    c.bench_function("encode state (muggins 4p, 40 moves)", |b| {
        b.iter(|| black_box(encode_state(black_box(&game)).encode_to_vec()))
    });
    c.bench_function("decode state bytes (muggins 4p, 40 moves)", |b| {
        b.iter(|| {
            black_box(proto::GameState::decode(black_box(bytes.as_slice())).expect("decodes"))
        })
    });
    c.bench_function("decode + validate state (muggins 4p, 40 moves)", |b| {
        b.iter(|| black_box(decode_state(Some(black_box(&state)), "state").expect("valid")))
    });
    let packed = encode_packed(&game).encode_to_vec();
    c.bench_function("encode packed state (muggins 4p, 40 moves)", |b| {
        b.iter(|| black_box(encode_packed(black_box(&game)).encode_to_vec()))
    });
    c.bench_function(
        "decode + validate packed state (muggins 4p, 40 moves)",
        |b| {
            b.iter(|| {
                let state =
                    proto::PackedState::decode(black_box(packed.as_slice())).expect("decodes");
                black_box(decode_packed(&state, "state_token").expect("valid"))
            })
        },
    );
    let setup = Setup::from(&game);
    c.bench_function("validate setup (muggins 4p, 40 moves)", |b| {
        b.iter_batched(
            || setup.clone(),
            |setup| black_box(Game::from_setup(setup).expect("valid")),
            BatchSize::SmallInput,
        )
    });
}

fn service(c: &mut Criterion) {
    // A late muggins position, as a client would send it.
    let game = midgame("muggins", 2, 200);
    let mv = game.legal_moves()[0];
    let request = proto::PlayRequest {
        state_source: Some(encode_state(&game).into()),
        r#move: Some(encode_move(mv)),
        ..Default::default()
    };
    let by_token = proto::PlayRequest {
        state_source: Some(encode_packed(&game).encode_to_vec().into()),
        ..request.clone()
    };
    let engine = pips::service::Engine::default();
    for (form, request) in [("readable state", request), ("open token", by_token)] {
        let bytes = request.encode_to_vec();
        c.bench_function(
            &format!("Play handler incl. protobuf, {form} (muggins 2p, 200 moves into the match)"),
            |b| {
                b.iter(|| {
                    let request =
                        proto::PlayRequest::decode(black_box(bytes.as_slice())).expect("decodes");
                    let update = engine.play(&request).expect("legal");
                    black_box(update.encode_to_vec())
                })
            },
        );
    }
}

/// Texas 42 hands with `left` tricks to play, `count` of them, each from
/// a seed of its own: the auction and the contract by greedy, the tiles at
/// random.
fn trick_endings(left: u8, count: usize) -> Vec<pips::rules::tricks::hand::TrickHand> {
    use pips::bots::tricks_solver::tricks_left;
    use pips::rules::tricks::hand::Stage;
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut found = Vec::new();
    for seed in 0.. {
        if found.len() == count {
            break;
        }
        let rules = preset("texas42").expect("preset").rules(4, None);
        let (mut game, _) = Game::new("texas42", rules, 4, seed).expect("valid");
        while game.outcome().is_none() {
            let Some(hand) = game.trick_hand() else { break };
            if hand.stage() == Stage::Playing && tricks_left(hand) == left {
                found.push(hand.clone());
                break;
            }
            if hand.stage() == Stage::Over {
                break;
            }
            let view = game.view(game.to_act()).expect("a seat");
            let mv = if hand.stage() == Stage::Playing {
                let legal = game.legal_moves();
                legal[rng.random_range(0..legal.len())]
            } else {
                pips::bots::greedy::choose(view, &view.knowledge()).expect("a move")
            };
            game.play_unchecked(mv);
        }
    }
    found
}

fn solver(c: &mut Criterion) {
    let mut solver = pips::bots::tricks_solver::TrickSolver::new();
    for left in [4, 7] {
        let hand = trick_endings(left, 1).remove(0);
        c.bench_function(
            &format!("trick solver, {left} tricks left (texas42)"),
            |b| {
                b.iter(|| {
                    solver.clear();
                    solver.made(black_box(&hand))
                })
            },
        );
    }
    // Many deals, for a mean that one hand cannot give (a whole hand's
    // solve ranges over two orders of magnitude from deal to deal).
    let hands = trick_endings(7, 50);
    c.bench_function("trick solver, 50 whole hands (texas42)", |b| {
        b.iter(|| {
            for hand in &hands {
                solver.clear();
                black_box(solver.made(black_box(hand)));
            }
        })
    });
}

/// A `puerto_rican` hand (four seats, every tile dealt) with `left` tiles
/// in the hands, played by greedy (the first seed that gets there).
fn line_ending(left: u32) -> Game {
    for seed in 0.. {
        let rules = preset("puerto_rican").expect("preset").rules(4, None);
        let (mut game, _) = Game::new("puerto_rican", rules, 4, seed).expect("valid");
        let hand = game.hand_number();
        while game.outcome().is_none() && game.hand_number() == hand {
            if game.tiles_in_hands() == left {
                return game;
            }
            let view = game.view(game.to_act()).expect("a seat");
            let mv = pips::bots::greedy::choose(view, &view.knowledge()).expect("a move");
            game.play_unchecked(mv);
        }
    }
    unreachable!("seeds run out")
}

fn line_solver(c: &mut Criterion) {
    let mut solver = pips::bots::line_solver::LineSolver::new();
    let mut worths = Vec::new();
    for left in [8, 12, 16] {
        let game = line_ending(left);
        c.bench_function(
            &format!("line solver, {left} tiles left (puerto_rican 4p)"),
            |b| b.iter(|| solver.solve(black_box(&game), &mut worths)),
        );
    }
}

criterion_group!(benches, engine, codec, service, solver, line_solver);
criterion_main!(benches);
