//! A time-bounded mutational fuzzer for decode → validate → legal moves →
//! play → view, the path every request takes.
//!
//! It starts from valid `PlayRequest`s taken from random matches of every
//! preset, then mutates them at the byte level (flips, splices, truncation)
//! and at the structure level (tiles, seats, scores, phase, layout, the
//! hand's history, the match digest and the move itself are replaced by arbitrary or borrowed
//! values); a quarter of the inputs instead carry the state as an open
//! token (its packed form) whose bytes are mutated. Each input goes
//! through the service handlers. It fails on
//! a panic, and on an accepted move whose new state does not pass
//! validation again. New error reasons it reaches are saved to the
//! regression corpus (`tests/fuzz_corpus/`), which `cargo test` replays.
//!
//! ```sh
//! cargo run --release --example fuzz -- --seconds 600 --seed 1
//! ```

use std::collections::HashSet;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Parser;
use pips::proto::play_request::StateSource;
use pips::proto::{self, PlayRequest};
use pips::rules::Game;
use pips::rules::presets::PRESETS;
use pips::service::codec::{decode_state, encode_move, encode_packed, encode_state};
use prost::Message;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

#[path = "../fuzz/target.rs"]
mod target;

use target::run;

/// Mutational fuzzer for the request path.
#[derive(Parser, Debug)]
struct Args {
    /// How long to run.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Seed of the fuzzer's own generator.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Where new corpus entries go.
    #[arg(long, default_value = "tests/fuzz_corpus")]
    corpus: PathBuf,
}

/// Valid requests from random matches of every preset and table.
fn seeds(rng: &mut ChaCha8Rng) -> Vec<PlayRequest> {
    let mut seeds = Vec::new();
    for preset in PRESETS {
        for players in preset.players.clone() {
            let (mut game, _) = Game::new(
                preset.id,
                preset.rules(players, None),
                players,
                rng.random(),
            )
            .expect("valid preset");
            let mut step = 0;
            while game.outcome().is_none() {
                let legal = game.legal_moves();
                let mv = legal[rng.random_range(0..legal.len())];
                if step % 17 == 0 {
                    seeds.push(PlayRequest {
                        state_source: Some(encode_state(&game).into()),
                        r#move: Some(encode_move(mv)),
                        ..Default::default()
                    });
                }
                game.play(mv).expect("legal");
                step += 1;
            }
        }
    }
    seeds
}

/// A small value that is often out of range.
fn small(rng: &mut ChaCha8Rng) -> u32 {
    match rng.random_range(0..10) {
        0 => u32::MAX,
        1 => rng.random(),
        2..=4 => rng.random_range(0..20),
        _ => rng.random_range(0..7),
    }
}

fn tile(rng: &mut ChaCha8Rng) -> proto::Tile {
    proto::Tile {
        a: small(rng),
        b: small(rng),
    }
}

/// The readable state a request carries, if it does.
fn state_of(request: &PlayRequest) -> Option<&proto::GameState> {
    match &request.state_source {
        Some(StateSource::State(state)) => Some(state),
        _ => None,
    }
}

/// An arbitrary train, often out of range, or none.
fn train_ref(rng: &mut ChaCha8Rng) -> Option<proto::TrainRef> {
    use proto::train_ref::Owner;
    match rng.random_range(0..4) {
        0 => Some(proto::TrainRef {
            owner: Some(Owner::Seat(small(rng))),
        }),
        1 => Some(proto::TrainRef {
            owner: Some(Owner::Mexican(rng.random())),
        }),
        2 => Some(proto::TrainRef { owner: None }),
        _ => None,
    }
}

/// An arbitrary place at a chicken foot (or none), often out of range.
fn arm_ref(rng: &mut ChaCha8Rng) -> Option<proto::ArmRef> {
    use proto::arm_ref::Place;
    match rng.random_range(0..5) {
        0 => Some(proto::ArmRef {
            place: Some(Place::Arm(small(rng))),
        }),
        1 => Some(proto::ArmRef {
            place: Some(Place::NewArm(rng.random())),
        }),
        2 => Some(proto::ArmRef { place: None }),
        _ => None,
    }
}

/// An arbitrary history entry, often out of range.
fn history_entry(rng: &mut ChaCha8Rng) -> proto::HistoryEntry {
    use proto::history_entry::Action;
    proto::HistoryEntry {
        seat: small(rng),
        action: match rng.random_range(0..5) {
            0 => Some(Action::Play(proto::PlayTile {
                tile: Some(tile(rng)),
                end: small(rng) as i32,
                train: train_ref(rng),
                arm: arm_ref(rng),
            })),
            1 => Some(Action::Draw(proto::DrawnTile {
                tile: rng.random::<bool>().then(|| tile(rng)),
            })),
            2 => Some(Action::Pass(proto::Pass {})),
            3 => Some(Action::EndTurn(proto::EndTurn {})),
            _ => None,
        },
    }
}

/// Changes one thing about the request's structure.
fn mutate_structure(request: &mut PlayRequest, donor: &PlayRequest, rng: &mut ChaCha8Rng) {
    let Some(StateSource::State(state)) = request.state_source.as_mut() else {
        request.state_source = donor.state_source.clone();
        return;
    };
    match rng.random_range(0..23) {
        0 => state.format_version = small(rng),
        1 => state.players = small(rng),
        2 => state.hand_number = small(rng),
        3 => state.to_act = small(rng),
        4 => state.hand_leader = small(rng),
        5 => state.phase = small(rng) as i32,
        6 => {
            state.result = Some(proto::MatchResult {
                winner: Some(small(rng)),
            })
        }
        7 => {
            if let Some(score) = state.scores.first_mut() {
                *score = rng.random();
            }
        }
        8 => state.scores.push(rng.random()),
        9 => {
            let i = rng.random_range(0..state.hands.len().max(1));
            if let Some(hand) = state.hands.get_mut(i) {
                if hand.tiles.is_empty() || rng.random() {
                    hand.tiles.push(tile(rng));
                } else {
                    let j = rng.random_range(0..hand.tiles.len());
                    hand.tiles[j] = tile(rng);
                }
            }
        }
        10 => {
            if !state.boneyard.is_empty() {
                let i = rng.random_range(0..state.boneyard.len());
                let moved = state.boneyard.remove(i);
                if let Some(hand) = state.hands.first_mut() {
                    hand.tiles.push(moved);
                }
            }
        }
        11 => {
            state.hands.pop();
        }
        12 => {
            let layout = state.layout.get_or_insert_with(Default::default);
            let arm = match rng.random_range(0..4) {
                0 => &mut layout.left,
                1 => &mut layout.right,
                2 => &mut layout.up,
                _ => &mut layout.down,
            };
            arm.push(proto::PlacedTile {
                inner: small(rng),
                outer: small(rng),
            });
        }
        13 => {
            let layout = state.layout.get_or_insert_with(Default::default);
            layout.spinner = Some(proto::SpinnerPosition {
                arm: small(rng) as i32,
                index: small(rng),
            });
        }
        14 => {
            let layout = state.layout.get_or_insert_with(Default::default);
            layout.lead = if rng.random() { None } else { Some(tile(rng)) };
        }
        15 => {
            let layout = state.layout.get_or_insert_with(Default::default);
            if let Some(end) = layout.open_ends.first_mut() {
                end.pips = small(rng);
            }
        }
        16 => state.history.push(history_entry(rng)),
        17 => {
            if !state.history.is_empty() {
                let i = rng.random_range(0..state.history.len());
                state.history[i] = history_entry(rng);
            }
        }
        18 => {
            let rules = state.rules.get_or_insert_with(Default::default);
            match rng.random_range(0..6) {
                0 => rules.max_pip = Some(small(rng)),
                1 => rules.hand_size = Some(small(rng)),
                2 => rules.layout = Some(small(rng) as i32),
                3 => rules.connect = Some(small(rng) as i32),
                4 => rules.target = Some(small(rng)),
                _ => rules.partnerships = Some(rng.random()),
            }
        }
        19 => state.required_lead = Some(tile(rng)),
        20 => state.drew_this_turn = !state.drew_this_turn,
        21 => state
            .match_digest
            .truncate(rng.random_range(0..=state.match_digest.len())),
        _ => {
            // A move from another position, or an arbitrary one.
            request.r#move = if rng.random() {
                donor.r#move
            } else {
                Some(proto::Move {
                    seat: small(rng),
                    action: Some(match rng.random_range(0..4) {
                        0 => proto::r#move::Action::Play(proto::PlayTile {
                            tile: Some(tile(rng)),
                            end: small(rng) as i32,
                            train: train_ref(rng),
                            arm: arm_ref(rng),
                        }),
                        1 => proto::r#move::Action::Draw(proto::DrawTile {}),
                        2 => proto::r#move::Action::EndTurn(proto::EndTurn {}),
                        _ => proto::r#move::Action::Pass(proto::Pass {}),
                    }),
                })
            };
        }
    }
}

/// Changes the encoded bytes.
fn mutate_bytes(bytes: &mut Vec<u8>, rng: &mut ChaCha8Rng) {
    for _ in 0..rng.random_range(1..6) {
        if bytes.is_empty() {
            bytes.push(rng.random());
            continue;
        }
        let i = rng.random_range(0..bytes.len());
        match rng.random_range(0..5) {
            0 => bytes[i] ^= 1 << rng.random_range(0..8),
            1 => bytes[i] = rng.random(),
            2 => bytes.truncate(i),
            3 => bytes.insert(i, rng.random()),
            _ => {
                let end = (i + rng.random_range(1..16)).min(bytes.len());
                let piece: Vec<u8> = bytes[i..end].to_vec();
                let at = rng.random_range(0..bytes.len());
                bytes.splice(at..at, piece);
            }
        }
    }
}

fn main() {
    let args = Args::parse();
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let seeds = seeds(&mut rng);
    panic::set_hook(Box::new(|_| {}));
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let started = Instant::now();
    let mut seen: HashSet<String> = HashSet::new();
    let (mut executions, mut failures) = (0u64, 0u64);
    while Instant::now() < deadline {
        let base = &seeds[rng.random_range(0..seeds.len())];
        let donor = &seeds[rng.random_range(0..seeds.len())];
        let mut request = base.clone();
        let as_token = rng.random_range(0..4) == 0;
        match decode_state(state_of(&request), "state") {
            Ok(game) if as_token => {
                let mut token = encode_packed(&game).encode_to_vec();
                mutate_bytes(&mut token, &mut rng);
                request.state_source = Some(token.into());
            }
            _ => {
                for _ in 0..rng.random_range(1..4) {
                    mutate_structure(&mut request, donor, &mut rng);
                }
            }
        }
        let mut bytes = request.encode_to_vec();
        if rng.random_range(0..3) == 0 {
            mutate_bytes(&mut bytes, &mut rng);
        }
        executions += 1;
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| run(&bytes)));
        let (reasons, failure) = match outcome {
            Ok(Ok(reasons)) => (reasons, None),
            Ok(Err(failure)) => (Vec::new(), Some(failure)),
            Err(_) => (Vec::new(), Some("panic".to_owned())),
        };
        if let Some(failure) = failure {
            failures += 1;
            let name = format!("failure-{}-{executions}.bin", args.seed);
            let _ = std::fs::write(args.corpus.join(&name), &bytes);
            eprintln!("FAILURE ({failure}); input saved as {name}");
        }
        for reason in reasons {
            if seen.insert(reason.clone()) {
                let name = format!("{}.bin", reason.to_lowercase());
                let path = args.corpus.join(name);
                if !path.exists() {
                    let _ = std::fs::write(path, &bytes);
                }
            }
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "fuzz seed {}: {executions} executions in {elapsed:.0} s ({:.0}/s), {failures} failures, {} outcomes: {:?}",
        args.seed,
        executions as f64 / elapsed,
        seen.len(),
        {
            let mut reasons: Vec<_> = seen.into_iter().collect();
            reasons.sort();
            reasons
        }
    );
    if failures > 0 {
        std::process::exit(1);
    }
}
