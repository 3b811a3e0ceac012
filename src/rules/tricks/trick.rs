//! What a trick is worth (docs/rules.md#texas42, "Counting"): one point for the
//! trick, plus the count tiles in it whoever played them: 5-5 and 6-4
//! ten each, 5-0, 4-1 and 3-2 five each, 35 in all; seven tricks and the
//! count make the 42 points of a hand.

use crate::rules::tile::Tile;

/// Points a trick is worth before its count.
pub const TRICK_POINT: u8 = 1;

/// What `tile` counts: 10 for 5-5 and 6-4, 5 for 5-0, 4-1 and 3-2, else 0.
#[must_use]
pub const fn count(tile: Tile) -> u8 {
    match (tile.high(), tile.low()) {
        (5, 5) | (6, 4) => 10,
        (5, 0) | (4, 1) | (3, 2) => 5,
        _ => 0,
    }
}

/// The points of a trick of `tiles`: one for the trick and its count.
#[must_use]
pub fn points(tiles: &[Tile]) -> u8 {
    tiles
        .iter()
        .fold(TRICK_POINT, |sum, &tile| sum.saturating_add(count(tile)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tile::TileSet;

    #[test]
    fn the_count_is_35_and_a_hand_42() {
        let count_total: u32 = TileSet::full(6).iter().map(|t| u32::from(count(t))).sum();
        assert_eq!(count_total, 35);
        assert_eq!(count_total + 7 * u32::from(TRICK_POINT), 42);
    }

    #[test]
    fn w1_w2_trick_points() {
        // W1: no count in the trick, 1 point.
        let w1 = [
            Tile::new(6, 5),
            Tile::new(4, 0),
            Tile::new(6, 6),
            Tile::new(6, 0),
        ];
        assert_eq!(points(&w1), 1);
        // W2: 5-0 in it, 1 + 5 = 6.
        let w2 = [
            Tile::new(2, 0),
            Tile::new(2, 2),
            Tile::new(4, 2),
            Tile::new(5, 0),
        ];
        assert_eq!(points(&w2), 6);
    }
}
