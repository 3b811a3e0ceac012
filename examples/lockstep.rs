//! Random matches of a preset written as JSON lines, one line per hand, so
//! that another engine can be checked against pips move by move:
//! `scripts/dominoes-lockstep.py` loads each deal into PyPI `dominoes`
//! and compares every step of `puerto_rican` with it.
//!
//! ```sh
//! cargo run --release --example lockstep -- --variant puerto_rican --hands 2000 --seed 1
//! ```
//!
//! Each line: the match and hand numbers, the four hands as dealt, the
//! leader and any forced lead, the scores before the hand, every step
//! (the seat to act, its legal moves and the move played, each play as
//! `[high, low, on]` with `on` the number of the end it goes on, `null`
//! for the lead), how the hand ended (`domino` with the seat, or
//! `blocked` with the seat that placed the last tile), the side that won
//! it, its settlement per side, the scores after it, and the next hand's
//! leader (`null` once the match is over). Moves are seeded uniform
//! choices among the legal moves.

use clap::Parser;
use pips::rules::presets::for_table;
use pips::rules::{Action, Event, Game, HandEnd, Move};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

/// Random hands of one preset, as JSON lines.
#[derive(Parser, Debug)]
struct Args {
    /// The preset.
    #[arg(long, default_value = "puerto_rican")]
    variant: String,
    /// Seats.
    #[arg(long, default_value_t = 4)]
    players: u8,
    /// Hands to write at least (whole matches are played, so a few more
    /// may follow).
    #[arg(long, default_value_t = 2000)]
    hands: u64,
    /// Seed of the first match (the next match takes the next seed) and
    /// of the move choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// A move as the trace writes it: a play as `[high, low, on]`, else
/// `"pass"` or `"draw"`.
fn move_json(game: &Game, mv: Move) -> Value {
    match mv.action {
        Action::Play { tile, place } => {
            let on = place.end().and_then(|end| game.layout().open_end(end));
            json!([tile.high(), tile.low(), on])
        }
        // The package's game is a line: no turn of several placements and
        // no trick game's moves (never legal here).
        Action::Pass
        | Action::EndTurn
        | Action::Bid(_)
        | Action::Name(_)
        | Action::Discard(_)
        | Action::Trick(_) => json!("pass"),
        Action::Draw => json!("draw"),
    }
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let found = for_table(&args.variant, args.players)?;
    let rules = found.rules(args.players, None);
    let mut choices = ChaCha8Rng::seed_from_u64(args.seed);
    let mut written = 0;
    let mut legal = Vec::new();
    for match_number in 0.. {
        if written >= args.hands {
            break;
        }
        let seed = args.seed.wrapping_add(match_number);
        let (mut game, _) =
            Game::new(found.id, rules, args.players, seed).map_err(|e| e.to_string())?;
        while game.outcome().is_none() {
            let hands: Vec<Vec<[u8; 2]>> = (0..game.players())
                .map(|seat| {
                    game.hand(seat)
                        .iter()
                        .map(|t| [t.high(), t.low()])
                        .collect()
                })
                .collect();
            let mut line = json!({
                "match": match_number,
                "seed": seed,
                "hand": game.hand_number(),
                "hands": hands,
                "leader": game.to_act(),
                "required_lead": game.required_lead().map(|t| [t.high(), t.low()]),
                "scores_before": game.scores(),
            });
            let mut steps = Vec::new();
            let hand = game.hand_number();
            loop {
                game.legal_moves_into(&mut legal);
                let mv = *legal
                    .get(choices.random_range(0..legal.len()))
                    .ok_or("a match in play has no legal move")?;
                steps.push(json!({
                    "seat": mv.seat,
                    "legal": legal.iter().map(|&m| move_json(&game, m)).collect::<Vec<_>>(),
                    "move": move_json(&game, mv),
                }));
                let report = game.play(mv).map_err(|e| format!("{mv}: {e}"))?;
                let Some(ended) = report.events.iter().find_map(|event| match event {
                    Event::HandEnded {
                        end,
                        winner,
                        settlement,
                        last_placer,
                        ..
                    } => Some((*end, *winner, settlement.clone(), *last_placer)),
                    _ => None,
                }) else {
                    continue;
                };
                let (end, winner, settlement, last_placer) = ended;
                let (kind, by) = match end {
                    HandEnd::Domino(seat) => ("domino", Some(seat)),
                    HandEnd::Closed(seat) => ("closed", Some(seat)),
                    HandEnd::Blocked => ("blocked", last_placer),
                    HandEnd::Made(seat) => ("made", Some(seat)),
                    HandEnd::Set(seat) => ("set", Some(seat)),
                    HandEnd::AllPassed => ("all_passed", None),
                };
                let next_leader = report.events.iter().find_map(|event| match event {
                    Event::HandDealt { leader, .. } => Some(*leader),
                    _ => None,
                });
                line["steps"] = Value::Array(std::mem::take(&mut steps));
                line["end"] = json!({"kind": kind, "by": by});
                line["winner"] = json!(winner);
                line["settlement"] = json!(settlement);
                line["scores_after"] = json!(game.scores());
                line["next_leader"] = json!(next_leader);
                break;
            }
            debug_assert!(game.outcome().is_some() || game.hand_number() == hand + 1);
            println!("{line}");
            written += 1;
        }
    }
    eprintln!("{written} hands written");
    Ok(())
}
