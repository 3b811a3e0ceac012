//! The `random` level: a uniform choice among the legal moves.

use rand::RngExt;

use crate::rules::Move;

/// One of `moves`, uniformly; `None` for none.
pub fn choose<R: RngExt + ?Sized>(moves: &[Move], rng: &mut R) -> Option<Move> {
    if moves.is_empty() {
        return None;
    }
    moves.get(rng.random_range(0..moves.len())).copied()
}
