//! Complete random hands of one table, back to back, as the engine
//! benchmarks and the `hands` example count them: each hand is dealt and
//! played to its end by seeded uniform choices among the legal moves, and a
//! new match starts when one ends. Shared by `benches/engine.rs` and
//! `examples/hands.rs`, so both measure the same thing.

use pips::rules::presets::preset;
use pips::rules::{Game, Move};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// Plays random hands of one table back to back.
pub struct HandRunner {
    /// The preset played.
    variant: &'static str,
    /// Seats.
    players: u8,
    /// The match under way.
    game: Game,
    /// Chooses among the legal moves.
    rng: ChaCha8Rng,
    /// The legal moves, in a vector reused by every move.
    legal: Vec<Move>,
    /// The seed of the match under way (each new match takes the next).
    seed: u64,
}

impl HandRunner {
    /// Hands of `variant` with `players` seats (`partnerships` as the
    /// preset has it unless given), moves chosen from `seed`.
    pub fn new(
        variant: &'static str,
        players: u8,
        partnerships: Option<bool>,
        seed: u64,
    ) -> HandRunner {
        let rules = preset(variant)
            .expect("preset")
            .rules(players, partnerships);
        let (game, _) = Game::new(variant, rules, players, seed).expect("valid");
        HandRunner {
            variant,
            players,
            game,
            rng: ChaCha8Rng::seed_from_u64(seed ^ 1),
            legal: Vec::with_capacity(256),
            seed,
        }
    }

    /// Plays one complete hand, dealing a new match first if the last one
    /// ended; the number of moves it took.
    pub fn play_hand(&mut self) -> u64 {
        if self.game.outcome().is_some() {
            self.seed = self.seed.wrapping_add(1);
            let rules = *self.game.rules();
            let (game, _) = Game::new(self.variant, rules, self.players, self.seed).expect("valid");
            self.game = game;
        }
        let (game, legal, rng) = (&mut self.game, &mut self.legal, &mut self.rng);
        let hand = game.hand_number();
        let mut moves = 0;
        while game.hand_number() == hand && game.outcome().is_none() {
            game.legal_moves_into(legal);
            let mv = legal[rng.random_range(0..legal.len())];
            game.play_unchecked(mv);
            moves += 1;
        }
        moves
    }
}
