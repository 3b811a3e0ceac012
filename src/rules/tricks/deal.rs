//! The shake (docs/rules.md#texas42, #moon): who shakes each hand, and the deal. Texas
//! 42 shakes all 28 tiles of the double-six set and deals 7 to each of
//! its 4 seats; Moon shakes its 22 (the double-six set without 0-1 … 0-6)
//! and deals 7 to each of its 3 seats, the 22nd being the widow. The first
//! hand's shaker is drawn by lot; the shake then passes one seat left
//! after every deal, a reshaken one included.

use rand::RngExt;

use crate::rules::deal::{HandKey, HandRng, hand_rng, shuffle};
use crate::rules::moves::Seat;
use crate::rules::tile::{Tile, TileSet};

use super::hand::MAX_SEATS;
use super::suit::MAX_PIP;

/// Tiles each seat is dealt.
pub const HAND_TILES: usize = 7;

/// The generator stream of the lot that picks the first shaker: past every
/// hand's stream (a hand number is 32 bits), so that the lot draws
/// nothing a deal draws.
const LOT_STREAM: u64 = 1 << 32;

/// Tiles in the double-six set, the most a trick game deals from.
const DOUBLE_SIX_TILES: usize = 28;

/// The tile indices of a set, in order, padded to the double-six set's
/// length, and how many there are.
const fn indices_of(set: TileSet) -> ([u8; DOUBLE_SIX_TILES], usize) {
    let mut indices = [0u8; DOUBLE_SIX_TILES];
    let (mut i, mut n) = (0, 0);
    while i < DOUBLE_SIX_TILES {
        // Below 28: the cast keeps every bit.
        #[allow(clippy::cast_possible_truncation)]
        let index = i as u8;
        if set.contains(Tile::at_index(index)) {
            indices[n] = index;
            n += 1;
        }
        i += 1;
    }
    (indices, n)
}

/// The double-six set's tile indices (0 to 27) and their count.
const DOUBLE_SIX_INDICES: ([u8; DOUBLE_SIX_TILES], usize) = indices_of(tile_set(false));

/// Moon's 22 tile indices and their count.
const MOON_INDICES: ([u8; DOUBLE_SIX_TILES], usize) = indices_of(tile_set(true));

/// A hand as dealt.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Dealt {
    /// Each seat's tiles (seats beyond the table's empty).
    pub hands: [TileSet; MAX_SEATS],
    /// Moon's widow; `None` at Texas 42.
    pub widow: Option<Tile>,
}

/// The tiles a trick game is played with: the double-six set, or at Moon
/// that set without the blanks other than 0-0.
#[must_use]
pub const fn tile_set(moon: bool) -> TileSet {
    let all = TileSet::full(MAX_PIP);
    if moon {
        all.minus(TileSet::showing(0)).with(Tile::new(0, 0))
    } else {
        all
    }
}

/// The seat that shakes hand `hand_number` of the game whose key is `key`
/// at a table of `players`: the first hand's by lot, then one seat left
/// every deal.
#[must_use]
pub fn shaker(key: &HandKey, players: Seat, hand_number: u32) -> Seat {
    let players = players.max(1);
    let mut lot = HandRng::new(key, LOT_STREAM);
    let first = lot.random_range(0..players);
    let turns = (hand_number % u32::from(players)) as u8;
    (first + turns) % players
}

/// Hand `hand_number` of the game whose key is `key`, shaken with that
/// hand's generator: the set's tiles shuffled as every deal of pips is,
/// tile `i` to seat `i % players` for the first `7 × players`, and Moon's
/// last tile the widow.
#[must_use]
pub fn deal(key: &HandKey, moon: bool, players: Seat, hand_number: u32) -> Dealt {
    let mut rng = hand_rng(key, hand_number);
    // (An array, the set's tile indices in order: a deal allocates
    // nothing, and copies them rather than working them out.)
    let (mut all, count) = if moon {
        MOON_INDICES
    } else {
        DOUBLE_SIX_INDICES
    };
    let indices = &mut all[..count];
    shuffle(indices, &mut rng);
    let players = usize::from(players).clamp(1, MAX_SEATS);
    let (dealt, rest) = indices.split_at((HAND_TILES * players).min(indices.len()));
    let mut hands = [TileSet::EMPTY; MAX_SEATS];
    for (i, &index) in dealt.iter().enumerate() {
        if let Some(hand) = hands.get_mut(i % players) {
            *hand = hand.with_index(index);
        }
    }
    Dealt {
        hands,
        widow: rest
            .first()
            .filter(|_| moon)
            .map(|&index| Tile::from_index(u32::from(index))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::deal::hand_key;

    #[test]
    fn texas42_deals_every_tile_of_the_double_six_set_seven_to_a_seat() {
        let key = hand_key(42);
        let dealt = deal(&key, false, 4, 0);
        let mut all = TileSet::EMPTY;
        for hand in &dealt.hands[..4] {
            assert_eq!(hand.len(), 7);
            assert!(all.and(*hand).is_empty(), "no tile twice");
            all = all.or(*hand);
        }
        assert_eq!(all, TileSet::full(6));
        assert_eq!(dealt.widow, None);
    }

    #[test]
    fn moon_deals_21_of_its_22_tiles_and_the_last_is_the_widow() {
        let set = tile_set(true);
        assert_eq!(set.len(), 22);
        assert!(set.contains(Tile::new(0, 0)) && !set.contains(Tile::new(0, 4)));
        for seed in 0..200 {
            let dealt = deal(&hand_key(seed), true, 3, seed as u32);
            let widow = dealt.widow.expect("a widow");
            let mut all = TileSet::EMPTY.with(widow);
            for hand in &dealt.hands[..3] {
                assert_eq!(hand.len(), 7);
                assert!(all.and(*hand).is_empty(), "no tile twice");
                all = all.or(*hand);
            }
            assert_eq!(all, set);
            assert!(dealt.hands[3].is_empty());
        }
    }

    #[test]
    fn a_seed_deals_the_same_and_hands_differ() {
        let key = hand_key(7);
        assert_eq!(deal(&key, false, 4, 3), deal(&key, false, 4, 3));
        assert_ne!(deal(&key, false, 4, 3), deal(&key, false, 4, 4));
    }

    #[test]
    fn the_shake_passes_one_seat_left_every_deal_from_a_lot() {
        let mut firsts = [0u32; 4];
        for seed in 0..400 {
            let key = hand_key(seed);
            let first = shaker(&key, 4, 0);
            firsts[usize::from(first)] += 1;
            for hand in 0..9 {
                assert_eq!(shaker(&key, 4, hand), (first + (hand % 4) as u8) % 4);
            }
        }
        // The lot: every seat shakes first at some seeds, none far more
        // often than the others (100 each expected).
        assert!(
            firsts.iter().all(|&n| (60..=140).contains(&n)),
            "{firsts:?}"
        );
        assert!((0..300).all(|seed| shaker(&hand_key(seed), 3, 0) < 3));
    }
}
