//! Throughput of the rules engine in complete random hands, defined so that
//! another engine can be measured the same way: hands are dealt and played
//! to their end back to back (a new match when one ends, the deal counted),
//! each move a seeded uniform choice among the legal moves; moves are
//! generated and played through `legal_moves_into` and `play_unchecked`.
//!
//! ```sh
//! cargo run --release --example hands -- --variant block --players 4 --seconds 5 --runs 5
//! ```
//!
//! Prints hands/s and moves/s for each run and the medians. With
//! `--hands N` it plays exactly N hands once instead, for an instruction
//! count that does not depend on the machine's speed:
//!
//! ```sh
//! valgrind --tool=callgrind target/release/examples/hands --variant block --players 4 --hands 20000
//! ```
//!
//! (Two counts, with N and 2N hands, give the instructions per hand
//! without the program's start; `scripts/instructions.sh` does this for
//! the tables docs/performance.md records.)

#[path = "../benches/common/random_hands.rs"]
mod random_hands;

use std::time::{Duration, Instant};

use clap::Parser;
use pips::rules::presets::for_table;
use random_hands::HandRunner;

/// Random hands per second of one table.
#[derive(Parser, Debug)]
struct Args {
    /// The preset.
    #[arg(long, default_value = "muggins")]
    variant: String,
    /// Seats.
    #[arg(long, default_value_t = 2)]
    players: u8,
    /// Play 4 seats as partnerships or not (default: as the preset does).
    #[arg(long)]
    partnerships: Option<bool>,
    /// Seconds per run.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Runs (the medians are printed at the end).
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Seed of the first match and of the move choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play exactly this many hands, once, instead of timed runs.
    #[arg(long)]
    hands: Option<u64>,
}

/// The median of `values` (which it sorts).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let found = for_table(&args.variant, args.players)?;
    if let Some(count) = args.hands {
        let mut runner = HandRunner::new(found.id, args.players, args.partnerships, args.seed);
        let moves: u64 = (0..count).map(|_| runner.play_hand()).sum();
        println!(
            "{} {}p: {count} hands, {moves} moves",
            found.id, args.players
        );
        return Ok(());
    }
    let run_for = Duration::from_secs_f64(args.seconds.max(0.1));
    let (mut hands_per_s, mut moves_per_s) = (Vec::new(), Vec::new());
    for run in 0..args.runs.max(1) {
        let mut runner = HandRunner::new(found.id, args.players, args.partnerships, args.seed);
        let (mut hands, mut moves) = (0u64, 0u64);
        let started = Instant::now();
        // Check the clock every 1,024 hands, so that reading it costs
        // nothing next to the hands.
        while started.elapsed() < run_for {
            for _ in 0..1024 {
                moves += runner.play_hand();
            }
            hands += 1024;
        }
        let seconds = started.elapsed().as_secs_f64();
        let (h, m) = (hands as f64 / seconds, moves as f64 / seconds);
        println!(
            "run {}: {:.0} hands/s, {:.0} moves/s ({:.1} moves a hand, {hands} hands in {seconds:.2} s)",
            run + 1,
            h,
            m,
            moves as f64 / hands as f64
        );
        hands_per_s.push(h);
        moves_per_s.push(m);
    }
    println!(
        "{} {}p: median {:.0} hands/s, {:.0} moves/s",
        found.id,
        args.players,
        median(&mut hands_per_s),
        median(&mut moves_per_s)
    );
    Ok(())
}
