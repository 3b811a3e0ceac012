//! Dealing a hand and choosing who leads it, reproducibly from the game's
//! seed and the hand number.

use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use super::moves::Seat;
use super::options::{LeadRule, Rules};
use super::tile::{TILE_INDICES, Tile, TileSet};

/// The most seats any game has.
pub const MAX_SEATS: usize = super::options::MAX_PLAYERS as usize;

/// The generator for hand `hand_number` of the game seeded `seed`: the seed
/// picks the ChaCha key and the hand number the stream, so every hand has
/// its own independent, reproducible sequence. The deal draws from it
/// first, then a lead by lot.
pub fn hand_rng(seed: u64, hand_number: u32) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(u64::from(hand_number));
    rng
}

/// Shuffles the set with `rng` (the hand's [`hand_rng`]) and deals
/// `rules.hand_size` tiles to each seat in turn: each seat's tiles (seats
/// beyond `players` empty). The undealt tiles replace the contents of
/// `boneyard`, **next to draw last** (so drawing is a `pop`); reusing the
/// vector, a deal allocates nothing. (The generator is the caller's, so
/// that its few hundred bytes of buffered output are not moved out with
/// the hands.)
pub fn deal(
    rules: &Rules,
    players: u8,
    rng: &mut ChaCha8Rng,
    boneyard: &mut Vec<Tile>,
) -> [TileSet; MAX_SEATS] {
    // A set is the first tiles in index order, so the unshuffled set is a
    // prefix of every tile index. Indices are shuffled rather than tiles:
    // a shuffle's swaps depend only on the generator and the length, so
    // the deal is the same, and an index is a tile's bit in a hand without
    // working it out (the table of indices is also short enough to be
    // copied inline, where the table of tiles took a `memcpy` call).
    let mut all = TILE_INDICES;
    let count = (rules.tile_set().len() as usize).min(all.len());
    let (tiles, _) = all.split_at_mut(count);
    tiles.shuffle(rng);
    let (dealt, undealt) =
        tiles.split_at((usize::from(rules.hand_size) * usize::from(players)).min(tiles.len()));
    // Tile `i` goes to seat `i % players`: each hand gathered in one pass
    // of its own (no division, no read-modify-write of the array per tile).
    let mut hands = [TileSet::EMPTY; MAX_SEATS];
    let players = usize::from(players).max(1);
    for (seat, hand) in hands.iter_mut().enumerate().take(players) {
        *hand = dealt
            .iter()
            .skip(seat)
            .step_by(players)
            .fold(TileSet::EMPTY, |hand, &index| hand.with_index(index));
    }
    boneyard.clear();
    boneyard.extend(undealt.iter().rev().map(|&index| Tile::at_index(index)));
    hands
}

/// Who leads under `rule` among `players` seats holding `hands`, and the
/// tile they must lead if it is forced; a lead by lot draws from `rng`
/// (after the deal).
pub fn lead(
    rule: LeadRule,
    hands: &[TileSet; MAX_SEATS],
    players: u8,
    rng: &mut ChaCha8Rng,
) -> (Seat, Option<Tile>) {
    let dealt = hands.get(..usize::from(players)).unwrap_or(hands);
    match forced_lead_for(rule, dealt) {
        Some((seat, tile)) => (seat, Some(tile)),
        None => (rng.random_range(0..players), None),
    }
}

/// The seat and tile a forced lead rule picks; `None` for a lead by lot.
#[must_use]
pub fn forced_lead_for(rule: LeadRule, hands: &[TileSet]) -> Option<(Seat, Tile)> {
    let double_blank = Tile::new(0, 0);
    match rule {
        LeadRule::Lot => None,
        LeadRule::DoubleBlankFirst => Some(
            (0..)
                .zip(hands)
                .find(|(_, hand)| hand.contains(double_blank))
                .map_or_else(|| forced_lead(hands), |(seat, _)| (seat, double_blank)),
        ),
        LeadRule::HighestDouble => Some(forced_lead(hands)),
    }
}

/// The holder of the highest double and that double; if nobody holds a
/// double, the holder of the heaviest tile (pip sum, then higher half).
///
/// Only the dealt hands count, never the boneyard. Every dealt hand holds at
/// least one tile, so there is always an answer; an empty table gives seat 0
/// and 0-0 (never reached: rules validation requires a hand size ≥ 1).
#[must_use]
pub fn forced_lead(hands: &[TileSet]) -> (Seat, Tile) {
    let held = hands.iter().fold(TileSet::EMPTY, |all, &hand| all.or(hand));
    // Doubles come in index order by their number: the highest is the last.
    let best = match held.and(TileSet::DOUBLES).last() {
        Some(double) => double,
        None => match held.iter().max_by_key(|&tile| tile.weight()) {
            Some(tile) => tile,
            None => return (0, Tile::new(0, 0)),
        },
    };
    let seat = (0..)
        .zip(hands)
        .find(|(_, hand)| hand.contains(best))
        .map_or(0, |(seat, _)| seat);
    (seat, best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets::preset;

    #[test]
    fn deals_are_reproducible_and_differ_per_hand() {
        let rules = preset("muggins").expect("muggins").rules(2, None);
        let (mut yard_a, mut yard_b, mut yard_c) = (Vec::new(), Vec::new(), Vec::new());
        let a = deal(&rules, 2, &mut hand_rng(42, 1), &mut yard_a);
        let b = deal(&rules, 2, &mut hand_rng(42, 1), &mut yard_b);
        let c = deal(&rules, 2, &mut hand_rng(42, 2), &mut yard_c);
        assert_eq!(a, b);
        assert_eq!(yard_a, yard_b);
        assert_ne!(a, c);
        assert_eq!(a[0].len(), 7);
        assert_eq!(a[1].len(), 7);
        assert_eq!(yard_a.len(), 14);
        let all: TileSet = yard_a.iter().copied().collect();
        assert_eq!(all.or(a[0]).or(a[1]), rules.tile_set());
    }

    #[test]
    fn highest_double_leads_else_heaviest_tile() {
        let hands = [
            [Tile::new(6, 5), Tile::new(3, 3)].into_iter().collect(),
            [Tile::new(4, 4), Tile::new(6, 6)]
                .into_iter()
                .collect::<TileSet>(),
        ];
        assert_eq!(forced_lead(&hands), (1, Tile::new(6, 6)));
        let hands = [
            [Tile::new(6, 3), Tile::new(1, 0)].into_iter().collect(),
            [Tile::new(5, 4), Tile::new(2, 1)]
                .into_iter()
                .collect::<TileSet>(),
        ];
        // 6-3 and 5-4 both weigh 9: the higher half wins.
        assert_eq!(forced_lead(&hands), (0, Tile::new(6, 3)));
    }

    #[test]
    fn jarac_leads_double_blank_first() {
        let hands = [
            [Tile::new(6, 6), Tile::new(3, 1)].into_iter().collect(),
            [Tile::new(0, 0), Tile::new(5, 4)]
                .into_iter()
                .collect::<TileSet>(),
        ];
        assert_eq!(
            forced_lead_for(LeadRule::DoubleBlankFirst, &hands),
            Some((1, Tile::new(0, 0)))
        );
        assert_eq!(
            forced_lead_for(LeadRule::HighestDouble, &hands),
            Some((0, Tile::new(6, 6)))
        );
        assert_eq!(forced_lead_for(LeadRule::Lot, &hands), None);
    }
}
