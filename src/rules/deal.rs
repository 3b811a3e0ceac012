//! Dealing a hand and choosing who leads it, reproducibly from the game's
//! seed and the hand number.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

pub use super::hand_rng::{HandKey, HandRng};

use super::moves::Seat;
use super::options::{LeadRule, Rules};
use super::tile::{TILE_INDICES, Tile, TileSet};

/// The most seats any kind of table has (a train table's eight; a line
/// seats at most [`MAX_PLAYERS`](super::options::MAX_PLAYERS)): the length
/// of every per-seat array.
pub const MAX_SEATS: usize = 8;

/// The ChaCha key of the game seeded `seed`: the seed expanded as
/// `SeedableRng::seed_from_u64` expands it. A game keeps it, so that each
/// hand's generator starts from it without expanding the seed again.
#[must_use]
pub fn hand_key(seed: u64) -> HandKey {
    ChaCha8Rng::seed_from_u64(seed).get_seed()
}

/// The generator for hand `hand_number` of the game whose [`hand_key`] is
/// `key`: the seed picks the ChaCha key and the hand number the stream, so
/// every hand has its own independent, reproducible sequence. The deal
/// draws from it first, then a lead by lot. Its output is that of
/// `ChaCha8Rng::from_seed(*key)` on stream `hand_number` (see
/// [`HandRng`]).
#[must_use]
pub fn hand_rng(key: &HandKey, hand_number: u32) -> HandRng {
    HandRng::new(key, u64::from(hand_number))
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
    rng: &mut HandRng,
    boneyard: &mut Vec<Tile>,
) -> [TileSet; MAX_SEATS] {
    deal_without(rules, players, None, rng, boneyard)
}

/// [`deal`], with `apart` (a train table's hub) taken out of the set
/// before the shuffle.
pub fn deal_without(
    rules: &Rules,
    players: u8,
    apart: Option<Tile>,
    rng: &mut HandRng,
    boneyard: &mut Vec<Tile>,
) -> [TileSet; MAX_SEATS] {
    // A set is the first tiles in index order, so the unshuffled set is a
    // prefix of every tile index. Indices are shuffled rather than tiles:
    // a shuffle's swaps depend only on the generator and the length, so
    // the deal is the same, and an index is a tile's bit in a hand without
    // working it out (the table of indices is also short enough to be
    // copied inline, where the table of tiles took a `memcpy` call).
    let mut all = TILE_INDICES;
    let mut count = (rules.tile_set().len() as usize).min(all.len());
    if let Some(apart) = apart {
        // The tile apart moves past the set's last index, out of the deal.
        if let Ok(at) = usize::try_from(apart.index()) {
            if at < count {
                all.copy_within(at + 1..count, at);
                count -= 1;
            }
        }
    }
    let (tiles, _) = all.split_at_mut(count);
    shuffle(tiles, rng);
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

/// Shuffles `tiles` with `rng` exactly as `rand`'s `SliceRandom::shuffle`
/// does (Durstenfeld's Fisher–Yates, position `i` swapped with a uniform
/// position in `0..=i`, the positions drawn several to a 32-bit sample), so
/// that a seed deals what it always has, and no longer depends on `rand`
/// keeping its shuffle. Which steps a sample serves is known per position,
/// so it comes from a table ([`SHUFFLE_STEPS`]), and each step's position
/// is worked out from the sample by multiplications of its own: `rand`
/// divides the sample down step after step (two divisions a position, each
/// waiting for the last), which was about a third of the deal's time.
pub(crate) fn shuffle(tiles: &mut [u8], rng: &mut HandRng) {
    let count = tiles.len().min(SHUFFLE_STEPS.len());
    // Position 0 swaps with itself: no draw (as `rand` has it).
    let mut sample = 0u32;
    // A range, not `iter().enumerate()` over the steps: the position
    // indexes both the steps and the tiles, and with the iterator adapters
    // the loop kept its state in memory (about 35 more instructions a hand).
    #[expect(clippy::needless_range_loop)]
    for i in 1..count {
        let step = SHUFFLE_STEPS[i];
        if step.bound != 0 {
            sample = rng.random_range(..step.bound);
        }
        // `position <= i` by construction; `min` keeps the swap in bounds
        // for the compiler without a branch.
        tiles.swap(i, (step.position(sample) as usize).min(i));
    }
}

/// What the shuffle does at one position `i`.
#[derive(Clone, Copy)]
struct ShuffleStep {
    /// `i + 1`: the number of positions `i` may swap with.
    positions: u32,
    /// Nonzero where a new 32-bit sample is drawn, uniform below this
    /// bound: the product of the `positions` of the steps it serves.
    bound: u32,
    /// `⌈2⁶⁴ / d⌉` for `d` the product of the `positions` of the earlier
    /// steps the same sample serves (0 for the step that draws it, where
    /// `d` is 1): the step's position is `(sample / d) % positions`.
    by_earlier: u64,
    /// `⌈2⁶⁴ / positions⌉`.
    by_positions: u64,
}

impl ShuffleStep {
    /// The position this step swaps with: `(sample / d) % positions`, as
    /// `rand` gets it by taking the remainder and dividing, step by step.
    /// A 32-bit value's quotient and remainder by a divisor `d ≥ 2` are
    /// multiplications by `⌈2⁶⁴ / d⌉` (Lemire, Kaser and Kurz, "Faster
    /// remainder by direct computation", 2019: exact for every 32-bit
    /// value).
    fn position(self, sample: u32) -> u32 {
        let quotient = if self.by_earlier == 0 {
            sample
        } else {
            mul_high(self.by_earlier, u64::from(sample)) as u32
        };
        let fraction = self.by_positions.wrapping_mul(u64::from(quotient));
        mul_high(fraction, u64::from(self.positions)) as u32
    }
}

/// The high 64 bits of `a × b`.
fn mul_high(a: u64, b: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) >> 64) as u64
}

/// `⌈2⁶⁴ / d⌉` for `d ≥ 2`.
const fn reciprocal(d: u64) -> u64 {
    u64::MAX / d + 1
}

/// The shuffle's steps for every position of the largest set: a sample is
/// drawn below the product of as many consecutive `positions` as fit in 32
/// bits, and serves those steps, as `rand`'s `IncreasingUniform` does.
const SHUFFLE_STEPS: [ShuffleStep; TILE_INDICES.len()] = {
    let mut steps = [ShuffleStep {
        positions: 1,
        bound: 0,
        by_earlier: 0,
        by_positions: 0,
    }; TILE_INDICES.len()];
    let mut i = 1;
    while i < steps.len() {
        // A new sample: the product of positions from i + 1 on while it
        // fits in 32 bits.
        let first = i as u64 + 1;
        let mut bound = first;
        let mut served = 1;
        while bound * (first + served) <= u32::MAX as u64 {
            bound *= first + served;
            served += 1;
        }
        let mut earlier = 1;
        let mut k = 0;
        while k < served && i + (k as usize) < steps.len() {
            let positions = first + k;
            steps[i + k as usize] = ShuffleStep {
                positions: positions as u32,
                bound: if k == 0 { bound as u32 } else { 0 },
                by_earlier: if k == 0 { 0 } else { reciprocal(earlier) },
                by_positions: reciprocal(positions),
            };
            earlier *= positions;
            k += 1;
        }
        i += served as usize;
    }
    steps
};

/// Who leads under `rule` among `players` seats holding `hands`, and the
/// tile they must lead if it is forced; a lead by lot draws from `rng`
/// (after the deal).
pub fn lead(
    rule: LeadRule,
    hands: &[TileSet; MAX_SEATS],
    players: u8,
    rng: &mut HandRng,
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

/// The tiles of `set` that `rule` would force before `led`: had any seat
/// held one, it would have been led instead (so a forced lead of `led`
/// says nobody was dealt one). The tiles `t` for which
/// [`forced_lead_for`] of hands `{led}` and `{t}` forces `t`.
#[must_use]
pub fn outranking(rule: LeadRule, led: Tile, set: TileSet) -> TileSet {
    let double_blank = Tile::new(0, 0);
    let by_highest_double = |tile: Tile| match (led.is_double(), tile.is_double()) {
        (true, true) => tile.high() > led.high(),
        (true, false) => false,
        (false, true) => true,
        (false, false) => tile.weight() > led.weight(),
    };
    let outranks = |tile: Tile| {
        tile != led
            && match rule {
                LeadRule::Lot => false,
                LeadRule::HighestDouble => by_highest_double(tile),
                LeadRule::DoubleBlankFirst => {
                    led != double_blank && (tile == double_blank || by_highest_double(tile))
                }
            }
    };
    set.iter().filter(|&tile| outranks(tile)).collect()
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
    use rand::seq::SliceRandom;

    /// `outranking` is `forced_lead_for` of two one-tile hands, for every
    /// rule, led tile and other tile of the largest set.
    #[test]
    fn outranking_is_the_forced_lead_of_two_tiles() {
        let set = TileSet::full(crate::rules::tile::MAX_PIP_LIMIT);
        for rule in [
            LeadRule::HighestDouble,
            LeadRule::DoubleBlankFirst,
            LeadRule::Lot,
        ] {
            for led in set.iter() {
                let by_lead: TileSet = set
                    .iter()
                    .filter(|&tile| {
                        let hands = [TileSet::EMPTY.with(led), TileSet::EMPTY.with(tile)];
                        tile != led && forced_lead_for(rule, &hands).map(|(_, t)| t) == Some(tile)
                    })
                    .collect();
                assert_eq!(outranking(rule, led, set), by_lead, "{rule:?} {led}");
            }
        }
    }

    /// A hand's generator from the game's key is the seed's generator on
    /// the hand's stream (so keeping the key deals what the seed did).
    #[test]
    fn a_hands_generator_is_the_seeds_on_the_hands_stream() {
        for seed in [0, 1, 42, u64::MAX] {
            for hand in [1, 2, 500] {
                let mut from_seed = ChaCha8Rng::seed_from_u64(seed);
                from_seed.set_stream(u64::from(hand));
                let mut from_key = hand_rng(&hand_key(seed), hand);
                for _ in 0..100 {
                    assert_eq!(from_seed.random::<u32>(), from_key.random::<u32>());
                }
            }
        }
    }

    /// The deal's shuffle permutes as `rand`'s does, for every length up
    /// to the largest set and many generators, and leaves each generator
    /// where `rand`'s leaves it.
    #[test]
    fn shuffle_matches_rands_shuffle() {
        for seed in 0..300 {
            for len in 0..=TILE_INDICES.len() {
                let mut ours = TILE_INDICES;
                let mut theirs = TILE_INDICES;
                let (mut ours_rng, mut theirs_rng) =
                    (hand_rng(&hand_key(seed), 7), hand_rng(&hand_key(seed), 7));
                shuffle(&mut ours[..len], &mut ours_rng);
                theirs[..len].shuffle(&mut theirs_rng);
                assert_eq!(ours, theirs, "seed {seed}, {len} tiles");
                assert_eq!(ours_rng.random::<u64>(), theirs_rng.random::<u64>());
            }
        }
    }

    /// Each step's position is `(sample / d) % positions`, worked out
    /// exactly, at the samples where the multiplications could go wrong
    /// and at random ones.
    #[test]
    fn shuffle_positions_are_exact() {
        let mut rng = hand_rng(&hand_key(3), 3);
        let mut earlier = 1u64;
        for step in SHUFFLE_STEPS.iter().skip(1) {
            if step.bound != 0 {
                earlier = 1;
            }
            let (d, p) = (earlier, u64::from(step.positions));
            let edges = [0, 1, d - 1, d, d + 1, d * p - 1, d * p, u64::from(u32::MAX)];
            let random = (0..2000).map(|_| u64::from(rng.random::<u32>()));
            for sample in edges
                .into_iter()
                .chain(random)
                .filter(|&s| s <= u64::from(u32::MAX))
            {
                let expected = (sample / d % p) as u32;
                assert_eq!(
                    step.position(sample as u32),
                    expected,
                    "{sample} / {d} % {p}"
                );
            }
            earlier *= p;
        }
    }

    #[test]
    fn deals_are_reproducible_and_differ_per_hand() {
        let rules = preset("muggins").expect("muggins").rules(2, None);
        let (mut yard_a, mut yard_b, mut yard_c) = (Vec::new(), Vec::new(), Vec::new());
        let a = deal(&rules, 2, &mut hand_rng(&hand_key(42), 1), &mut yard_a);
        let b = deal(&rules, 2, &mut hand_rng(&hand_key(42), 1), &mut yard_b);
        let c = deal(&rules, 2, &mut hand_rng(&hand_key(42), 2), &mut yard_c);
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
