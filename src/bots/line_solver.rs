//! The end of a line hand solved exactly, every hand known: what each side
//! ends the hand worth when every seat plays its best from here. The
//! expert asks it inside its sampled deals, where every hand is known,
//! once no tile is left to draw and few are left in the hands
//! ([`expert`](super::expert)); it never sees a real hidden hand.
//!
//! A position's worth is the expert's own: the chance of winning the match
//! from the scores the hand ends with (1 or 0 when the match ends), for
//! every side. With two sides one side's worth is the other's complement,
//! and the search is alpha-beta on it; with more, each seat plays for its
//! own side (max^n), and every move is searched. Everything the rules
//! decide — what may be placed where, what the ends score, when the hand
//! ends blocked or out and how it settles — comes from [`Game`] itself, so
//! the solver holds no rule of its own. The tests check it against a
//! brute-force search over the same games.

use crate::rules::options::TableKind;
use crate::rules::{Game, Move, Side};

use super::expert::outcome_values;

/// The most sides a line table has (one per seat, four seats).
const MAX_SIDES: usize = 4;

/// A worth for every side (unused sides 0).
type Worths = [f64; MAX_SIDES];

/// A solver of line hands' ends. It keeps one game and one list of moves
/// per ply searched, so a search allocates nothing once they are grown.
#[derive(Default, Debug)]
pub struct LineSolver {
    /// The position at each ply of the search (the root's copy first).
    games: Vec<Game>,
    /// The legal moves at each ply.
    moves: Vec<Vec<Move>>,
    /// Positions searched since the last [`LineSolver::clear`].
    nodes: u64,
}

impl LineSolver {
    /// A solver that has searched nothing.
    #[must_use]
    pub fn new() -> LineSolver {
        LineSolver::default()
    }

    /// Positions searched since the last [`LineSolver::clear`].
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Resets the count of positions searched.
    pub fn clear(&mut self) {
        self.nodes = 0;
    }

    /// Whether `game` is a line hand being played that the solver takes:
    /// no seat may draw any more, and at most `tiles` tiles are left in
    /// the seats' hands together.
    #[must_use]
    pub fn reaches(game: &Game, tiles: u8) -> bool {
        game.rules().table == TableKind::Line
            && game.outcome().is_none()
            && !game.boneyard_open()
            && game.tiles_in_hands() <= u32::from(tiles)
    }

    /// Every side's worth at the end of `game`'s hand under best play
    /// from here, into `worths` (indexed by side).
    pub fn solve(&mut self, game: &Game, worths: &mut Vec<f64>) {
        match self.games.first_mut() {
            Some(root) => root.clone_from(game),
            None => self.games.push(game.clone()),
        }
        let hand = game.hand_number();
        let all = if game.sides() == 2 {
            let first = self.two_sides(0, hand, (0.0, 1.0));
            [first, 1.0 - first, 0.0, 0.0]
        } else {
            self.max_n(0, hand)
        };
        worths.clear();
        worths.extend(all.iter().take(usize::from(game.sides())));
    }

    /// Makes room for ply `ply`.
    fn grow(&mut self, ply: usize) {
        while self.games.len() <= ply {
            let copy = self.games.last().cloned();
            match copy {
                Some(game) => self.games.push(game),
                None => return,
            }
        }
        while self.moves.len() <= ply {
            self.moves.push(Vec::new());
        }
    }

    /// The position at `ply`'s worth when its hand is over (or the match):
    /// every side's; `None` while it is played.
    fn ended(&self, ply: usize, hand: u32) -> Option<Worths> {
        let game = self.games.get(ply)?;
        if game.outcome().is_none() && game.hand_number() == hand {
            return None;
        }
        let mut worths = [0.0; MAX_SIDES];
        for (worth, value) in worths.iter_mut().zip(outcome_values(game)) {
            *worth = value;
        }
        Some(worths)
    }

    /// Plays the `index`th legal move at `ply` into ply `ply + 1`; whether
    /// there was one.
    fn play(&mut self, ply: usize, index: usize) -> bool {
        let Some(&mv) = self.moves.get(ply).and_then(|moves| moves.get(index)) else {
            return false;
        };
        let (before, after) = self.games.split_at_mut(ply + 1);
        let (Some(from), Some(to)) = (before.last(), after.first_mut()) else {
            return false;
        };
        to.clone_from(from);
        to.play_unchecked(mv);
        true
    }

    /// Lists the legal moves at `ply` (and makes room for the next ply);
    /// the side to act and how many there are.
    fn expand(&mut self, ply: usize) -> (Side, usize) {
        self.nodes += 1;
        self.grow(ply + 1);
        let (Some(game), Some(moves)) = (self.games.get(ply), self.moves.get_mut(ply)) else {
            return (0, 0);
        };
        game.legal_moves_into(moves);
        (game.side_of(game.to_act()), moves.len())
    }

    /// Side 0's worth from `ply` with two sides (side 1's is its
    /// complement), within the window `(alpha, beta)`: fail-hard
    /// alpha-beta, side 0 maximizing.
    fn two_sides(&mut self, ply: usize, hand: u32, (mut alpha, mut beta): (f64, f64)) -> f64 {
        if let Some(worths) = self.ended(ply, hand) {
            return worths[0];
        }
        let (side, count) = self.expand(ply);
        let maximizing = side == 0;
        let mut best = if maximizing { 0.0 } else { 1.0 };
        for index in 0..count {
            if !self.play(ply, index) {
                break;
            }
            let worth = self.two_sides(ply + 1, hand, (alpha, beta));
            if maximizing {
                best = f64::max(best, worth);
                alpha = alpha.max(worth);
            } else {
                best = f64::min(best, worth);
                beta = beta.min(worth);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Every side's worth from `ply`, each seat choosing the move best for
    /// its own side (the first of equals).
    fn max_n(&mut self, ply: usize, hand: u32) -> Worths {
        if let Some(worths) = self.ended(ply, hand) {
            return worths;
        }
        let (side, count) = self.expand(ply);
        let side = usize::from(side);
        let mut best: Option<Worths> = None;
        for index in 0..count {
            if !self.play(ply, index) {
                break;
            }
            let worths = self.max_n(ply + 1, hand);
            if best.is_none_or(|b| worths.get(side) > b.get(side)) {
                best = Some(worths);
            }
        }
        best.unwrap_or([0.0; MAX_SIDES])
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;

    use super::*;
    use crate::bots::greedy;
    use crate::rules::presets::{PRESETS, preset};

    /// Every side's worth from `game` by trying every move (no cut-off):
    /// each seat choosing its side's best.
    fn brute_force(game: &Game, hand: u32) -> Vec<f64> {
        if game.outcome().is_some() || game.hand_number() != hand {
            return outcome_values(game).collect();
        }
        let side = usize::from(game.side_of(game.to_act()));
        let mut best: Option<Vec<f64>> = None;
        for mv in game.legal_moves() {
            let mut next = game.clone();
            next.play_unchecked(mv);
            let worths = brute_force(&next, hand);
            if best.as_ref().is_none_or(|b| worths[side] > b[side]) {
                best = Some(worths);
            }
        }
        best.expect("a legal move")
    }

    /// Positions of every line preset at every table size, played by
    /// `greedy` (one move in four at random) until the solver reaches them
    /// with `tiles` left.
    fn positions(tiles: u8, per_table: u64) -> Vec<Game> {
        let mut found = Vec::new();
        for entry in PRESETS {
            for players in entry.players.clone() {
                let rules = entry.rules(players, None);
                if rules.table != crate::rules::options::TableKind::Line {
                    continue;
                }
                for seed in 0..per_table {
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    let Ok((mut game, _)) = Game::new(entry.id, rules, players, seed) else {
                        continue;
                    };
                    let hand = game.hand_number();
                    while game.outcome().is_none() && game.hand_number() == hand {
                        if LineSolver::reaches(&game, tiles) {
                            found.push(game);
                            break;
                        }
                        let moves = game.legal_moves();
                        let mv = if rand::RngExt::random_range(&mut rng, 0..4) == 0 {
                            crate::bots::random::choose(&moves, &mut rng)
                        } else {
                            greedy::choose_in(&game, &moves)
                        };
                        game.play_unchecked(mv.expect("a move"));
                    }
                }
            }
        }
        found
    }

    #[test]
    fn agrees_with_brute_force() {
        let mut solver = LineSolver::new();
        let games = positions(7, 30);
        assert!(games.len() > 100, "{} positions", games.len());
        let mut worths = Vec::new();
        for game in &games {
            let hand = game.hand_number();
            let exact = brute_force(game, hand);
            solver.solve(game, &mut worths);
            if game.sides() == 2 {
                // Alpha-beta finds the minimax worth, which max^n's is.
                assert!((worths[0] - exact[0]).abs() < 1e-9, "{}", game.variant());
            } else {
                assert_eq!(worths, exact, "{}", game.variant());
            }
        }
    }

    #[test]
    fn nothing_to_solve_while_tiles_may_be_drawn() {
        let table = |id: &str, players| {
            let rules = preset(id).expect("a preset").rules(players, None);
            Game::new(id, rules, players, 1).expect("a game").0
        };
        assert!(!LineSolver::reaches(&table("draw", 2), 28));
        let game = table("puerto_rican", 4);
        assert!(LineSolver::reaches(&game, 28));
        assert!(!LineSolver::reaches(&game, 27));
    }
}
