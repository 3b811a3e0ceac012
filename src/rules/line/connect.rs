//! How a tile must touch the number it is placed on: every connection rule
//! in one place. Adding a rule means adding a [`Connect`] value and its
//! answers here; the layout and the legal moves only ask.

use crate::rules::layout::Placed;
use crate::rules::tile::{Tile, TileSet};

/// How a tile must touch the number it is placed on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Connect {
    /// Touching halves are equal.
    Equal,
    /// Touching halves add up to 7; a blank end takes only a matador (0-0,
    /// 1-6, 2-5, 3-4), and a matador goes on any end, leaving its number
    /// open.
    SumToSevenWithMatadors,
}

/// The matadors: 0-0 and every tile whose halves add up to 7.
pub const MATADORS: TileSet = TileSet::EMPTY
    .with(Tile::new(0, 0))
    .with(Tile::new(6, 1))
    .with(Tile::new(5, 2))
    .with(Tile::new(4, 3));

/// Is `tile` a matador (its halves add up to 7, or 0-0)?
#[must_use]
pub const fn is_matador(tile: Tile) -> bool {
    MATADORS.contains(tile)
}

impl Connect {
    /// Every tile that fits an end showing `pips`: those that fit every
    /// end and those showing the [`Connect::touching_half`].
    #[must_use]
    pub const fn fitting(self, pips: u8) -> TileSet {
        let every_end = match self {
            Connect::Equal => TileSet::EMPTY,
            Connect::SumToSevenWithMatadors => MATADORS,
        };
        match self.touching_half(pips) {
            Some(half) => every_end.or(TileSet::showing(half)),
            None => every_end,
        }
    }

    /// Whether `tile` can be placed on an end showing `pips`: it fits every
    /// end, or shows the [`Connect::touching_half`] (the same answer as
    /// whether [`Connect::fitting`] holds it: a test holds the two equal for
    /// every tile and number).
    #[must_use]
    pub const fn fits(self, tile: Tile, pips: u8) -> bool {
        self.fits_every_end(tile)
            || match self.touching_half(pips) {
                Some(half) => tile.has(half),
                None => false,
            }
    }

    /// The half a tile must show to fit an end showing `pips`, matadors
    /// aside (see [`Connect::fits_every_end`]); `None` when only they fit.
    /// The layout keeps, per half, the open ends it fits, so that legal
    /// moves look a tile's ends up by its halves.
    #[must_use]
    pub const fn touching_half(self, pips: u8) -> Option<u8> {
        match self {
            Connect::Equal => Some(pips),
            Connect::SumToSevenWithMatadors if pips >= 1 && pips <= 7 => Some(7 - pips),
            Connect::SumToSevenWithMatadors => None,
        }
    }

    /// Whether `tile` fits every end whatever it shows (a matador under
    /// sum-to-seven).
    #[must_use]
    pub const fn fits_every_end(self, tile: Tile) -> bool {
        match self {
            Connect::Equal => false,
            Connect::SumToSevenWithMatadors => is_matador(tile),
        }
    }

    /// How `tile` lies when placed on an end showing `pips` (which it fits).
    #[must_use]
    pub const fn place(self, tile: Tile, pips: u8) -> Placed {
        match self {
            Connect::Equal => Placed {
                inner: pips,
                outer: tile.other_half(pips),
            },
            Connect::SumToSevenWithMatadors if is_matador(tile) => Placed {
                inner: tile.high(),
                outer: tile.low(),
            },
            Connect::SumToSevenWithMatadors => {
                let inner = 7u8.saturating_sub(pips);
                Placed {
                    inner,
                    outer: tile.other_half(inner),
                }
            }
        }
    }

    /// Whether `placed`, as it lies, correctly touches an end showing
    /// `pips` (a crossed matador touches any end whichever way it lies).
    #[must_use]
    pub const fn touches(self, placed: Placed, pips: u8) -> bool {
        match self {
            Connect::Equal => placed.inner == pips,
            Connect::SumToSevenWithMatadors => {
                is_matador(placed.tile()) || (pips >= 1 && placed.inner as u32 + pips as u32 == 7)
            }
        }
    }

    /// The number left showing after `placed` was put on `pips`.
    #[must_use]
    pub const fn exposes(self, placed: Placed, pips: u8) -> u8 {
        match self {
            Connect::SumToSevenWithMatadors if is_matador(placed.tile()) => pips,
            _ => placed.outer,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(a: u8, b: u8) -> Tile {
        Tile::new(a, b)
    }

    #[test]
    fn equal_halves_touch() {
        let connect = Connect::Equal;
        assert!(connect.fits(t(6, 2), 2));
        assert!(!connect.fits(t(6, 2), 3));
        assert_eq!(connect.place(t(6, 2), 2), Placed { inner: 2, outer: 6 });
        assert_eq!(connect.fitting(12).len(), 13, "a double-12 set's twelves");
    }

    #[test]
    fn halves_adding_up_to_seven_touch_and_matadors_go_anywhere() {
        let connect = Connect::SumToSevenWithMatadors;
        assert!(connect.fits(t(6, 2), 1), "6 + 1 = 7");
        assert!(!connect.fits(t(6, 2), 0), "a blank takes only a matador");
        for matador in MATADORS.iter() {
            assert!(is_matador(matador));
            for pips in 0..=6 {
                assert!(connect.fits(matador, pips), "{matador} on {pips}");
            }
        }
        assert_eq!(MATADORS.len(), 4);
        assert!(!is_matador(t(6, 6)));
        let placed = connect.place(t(6, 2), 1);
        assert_eq!(placed, Placed { inner: 6, outer: 2 });
        assert_eq!(connect.exposes(placed, 1), 2);
        let crossed = connect.place(t(5, 2), 4);
        assert_eq!(connect.exposes(crossed, 4), 4, "a matador leaves its end");
    }

    #[test]
    fn fits_is_membership_of_the_tiles_that_fit_for_every_rule() {
        for connect in [Connect::Equal, Connect::SumToSevenWithMatadors] {
            for pips in 0..=12 {
                for tile in TileSet::full(12).iter() {
                    assert_eq!(
                        connect.fits(tile, pips),
                        connect.fitting(pips).contains(tile),
                        "{connect:?} {tile} on {pips}"
                    );
                    let by_half = connect.touching_half(pips).is_some_and(|h| tile.has(h));
                    assert_eq!(
                        connect.fitting(pips).contains(tile),
                        by_half || connect.fits_every_end(tile),
                        "{connect:?} {tile} on {pips}, by its halves"
                    );
                }
            }
        }
    }

    #[test]
    fn a_tile_placed_where_it_fits_touches_its_end_under_every_rule() {
        for connect in [Connect::Equal, Connect::SumToSevenWithMatadors] {
            for pips in 0..=6 {
                for tile in connect.fitting(pips).and(TileSet::full(6)).iter() {
                    let placed = connect.place(tile, pips);
                    assert_eq!(placed.tile(), tile);
                    assert!(connect.touches(placed, pips), "{connect:?} {tile} {pips}");
                }
            }
        }
    }
}
