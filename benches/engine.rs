//! Criterion benchmarks of the rules engine and of the state codec.
//!
//! `cargo bench` runs them; medians are what the README quotes.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use pips::proto;
use pips::rules::presets::preset;
use pips::rules::{Game, Move};
use pips::service::state_codec::{decode_state, encode_state};
use prost::Message;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// A muggins game `moves` random moves in.
fn midgame(players: u8, moves: usize) -> Game {
    let rules = preset("muggins").expect("muggins").rules(players, None);
    let (mut game, _) = Game::new("muggins", rules, players, 3).expect("valid");
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

/// Plays one complete hand with random legal moves.
fn random_hand(game: &mut Game, rng: &mut ChaCha8Rng, legal: &mut Vec<Move>) {
    let hand = game.hand_number();
    while game.hand_number() == hand && game.outcome().is_none() {
        game.legal_moves_into(legal);
        let mv = legal[rng.random_range(0..legal.len())];
        game.play_unchecked(mv);
    }
}

fn engine(c: &mut Criterion) {
    let game = midgame(2, 6);
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
    for (variant, players) in [("muggins", 2), ("draw", 4)] {
        let rules = preset(variant).expect("preset").rules(players, None);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut seed = 0u64;
        c.bench_function(&format!("random hand ({variant} {players}p)"), |b| {
            b.iter(|| {
                seed += 1;
                let (mut game, _) = Game::new(variant, rules, players, seed).expect("valid");
                random_hand(&mut game, &mut rng, &mut legal);
                black_box(game.scores()[0])
            })
        });
    }
}

fn codec(c: &mut Criterion) {
    let game = midgame(4, 40);
    let bytes = encode_state(&game).encode_to_vec();
    c.bench_function("encode state (muggins 4p)", |b| {
        b.iter(|| black_box(encode_state(black_box(&game)).encode_to_vec()))
    });
    c.bench_function("decode + validate state (muggins 4p)", |b| {
        b.iter(|| {
            let state = proto::GameState::decode(black_box(bytes.as_slice())).expect("decodes");
            black_box(decode_state(Some(&state), "state").expect("valid"))
        })
    });
}

criterion_group!(benches, engine, codec);
criterion_main!(benches);
