//! Tiles and sets of tiles.
//!
//! A tile is an unordered pair of pip counts, stored larger half first. Every
//! tile up to double-twelve has a fixed index (`high * (high + 1) / 2 + low`),
//! so a set of tiles is a 128-bit mask and hands need no allocation.

use std::fmt;

/// The largest `max_pip` any set may have (double-twelve, 91 tiles).
pub const MAX_PIP_LIMIT: u8 = 12;

/// One domino, larger half first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Tile {
    /// The larger half (or either half of a double).
    high: u8,
    /// The smaller half.
    low: u8,
}

impl Tile {
    /// The tile with halves `a` and `b`, in either order.
    ///
    /// ```
    /// use pips::rules::Tile;
    /// assert_eq!(Tile::new(4, 6), Tile::new(6, 4));
    /// assert_eq!(Tile::new(4, 6).to_string(), "6-4");
    /// ```
    #[must_use]
    pub const fn new(a: u8, b: u8) -> Tile {
        if a >= b {
            Tile { high: a, low: b }
        } else {
            Tile { high: b, low: a }
        }
    }

    /// The larger half.
    #[must_use]
    pub const fn high(self) -> u8 {
        self.high
    }

    /// The smaller half.
    #[must_use]
    pub const fn low(self) -> u8 {
        self.low
    }

    /// Both halves added up.
    #[must_use]
    pub const fn pips(self) -> u32 {
        self.high as u32 + self.low as u32
    }

    /// Whether both halves are equal.
    #[must_use]
    pub const fn is_double(self) -> bool {
        self.high == self.low
    }

    /// Whether one of the halves shows `pips`.
    #[must_use]
    pub const fn has(self, pips: u8) -> bool {
        // `|`, not `||`: both comparisons, no branch.
        (self.high == pips) | (self.low == pips)
    }

    /// The half opposite to one showing `pips` (for a tile that `has` it).
    #[must_use]
    pub const fn other_half(self, pips: u8) -> u8 {
        if self.high == pips {
            self.low
        } else {
            self.high
        }
    }

    /// Whether both halves are within a set whose highest half is `max_pip`.
    #[must_use]
    pub const fn fits_set(self, max_pip: u8) -> bool {
        self.high <= max_pip
    }

    /// The tile's fixed index (0..91 for halves up to 12).
    #[must_use]
    pub const fn index(self) -> u32 {
        self.high as u32 * (self.high as u32 + 1) / 2 + self.low as u32
    }

    /// The tile with a given index (inverse of [`Tile::index`]); indices
    /// beyond double-twelve wrap around.
    #[must_use]
    pub const fn from_index(index: u32) -> Tile {
        BY_INDEX[(index % TILE_COUNT) as usize]
    }

    /// The tile of an index below 91 (as [`Tile::from_index`], without
    /// its division: an index of 128 or more wraps around by a mask).
    #[must_use]
    pub(crate) const fn at_index(index: u8) -> Tile {
        BY_BIT[(index & 127) as usize]
    }

    /// [`Tile::from_index`] by search, to build the lookup table (at
    /// compile time, for indices below [`TILE_COUNT`], whose halves are at
    /// most 12: the casts cannot truncate).
    #[allow(clippy::cast_possible_truncation)]
    const fn search_index(index: u32) -> Tile {
        let mut high = 0u32;
        while (high + 1) * (high + 2) / 2 <= index {
            high += 1;
        }
        let low = index - high * (high + 1) / 2;
        Tile {
            high: high as u8,
            low: low as u8,
        }
    }

    /// Heaviness used to pick a forced lead: pip sum, then the higher half.
    #[must_use]
    pub const fn weight(self) -> (u32, u8) {
        (self.pips(), self.high)
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.high, self.low)
    }
}

/// A set of tiles as a bit mask over [`Tile::index`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct TileSet(u128);

impl TileSet {
    /// No tiles.
    pub const EMPTY: TileSet = TileSet(0);

    /// Every tile of the set whose highest half is `max_pip` (capped at 12).
    #[must_use]
    pub const fn full(max_pip: u8) -> TileSet {
        let max_pip = if max_pip > MAX_PIP_LIMIT {
            MAX_PIP_LIMIT
        } else {
            max_pip
        };
        let count = Tile::new(max_pip, max_pip).index() + 1;
        TileSet((1u128 << count) - 1)
    }

    /// Every tile (up to double-twelve) showing `pips` on either half.
    #[must_use]
    pub const fn showing(pips: u8) -> TileSet {
        if pips > MAX_PIP_LIMIT {
            TileSet::EMPTY
        } else {
            SHOWING[pips as usize]
        }
    }

    /// The bit of `tile`; 0 for a tile beyond double-twelve, which no set
    /// can hold (so such a tile is never contained, inserted or removed).
    const fn bit(tile: Tile) -> u128 {
        if tile.high > MAX_PIP_LIMIT {
            0
        } else {
            1u128 << tile.index()
        }
    }

    /// The set with the tile of index `index` added (an index of 91 or
    /// more, which is no tile's, adds nothing).
    #[must_use]
    pub(crate) const fn with_index(self, index: u8) -> TileSet {
        // A looked-up bit, not a 128-bit shift (several instructions and
        // two conditional moves): the deal sets a bit per tile dealt.
        TileSet(self.0 | BIT_BY_INDEX[index as usize])
    }

    /// The set with `tile` added (for constant sets).
    #[must_use]
    pub const fn with(self, tile: Tile) -> TileSet {
        TileSet(self.0 | TileSet::bit(tile))
    }

    /// Whether `tile` is in the set.
    #[must_use]
    pub const fn contains(self, tile: Tile) -> bool {
        self.0 & TileSet::bit(tile) != 0
    }

    /// Adds `tile`; returns whether it was absent before. A tile beyond
    /// double-twelve is not added and reports `false`.
    pub fn insert(&mut self, tile: Tile) -> bool {
        let bit = TileSet::bit(tile);
        if bit == 0 {
            return false;
        }
        let was_absent = self.0 & bit == 0;
        self.0 |= bit;
        was_absent
    }

    /// Removes `tile`; returns whether it was present.
    pub fn remove(&mut self, tile: Tile) -> bool {
        let bit = TileSet::bit(tile);
        let was_present = self.0 & bit != 0;
        self.0 &= !bit;
        was_present
    }

    /// Number of tiles.
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has no tiles.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Tiles in both sets.
    #[must_use]
    pub const fn and(self, other: TileSet) -> TileSet {
        TileSet(self.0 & other.0)
    }

    /// Tiles in either set.
    #[must_use]
    pub const fn or(self, other: TileSet) -> TileSet {
        TileSet(self.0 | other.0)
    }

    /// Tiles of `self` that are not in `other`.
    #[must_use]
    pub const fn minus(self, other: TileSet) -> TileSet {
        TileSet(self.0 & !other.0)
    }

    /// Every double up to double-twelve.
    pub const DOUBLES: TileSet = {
        let mut mask = 0u128;
        let mut v = 0;
        while v <= MAX_PIP_LIMIT {
            mask |= 1u128 << Tile::new(v, v).index();
            v += 1;
        }
        TileSet(mask)
    };

    /// Sum of the pips of every tile.
    #[must_use]
    pub fn pips(self) -> u32 {
        // A byte of the mask at a time from a table, in a fixed number of
        // steps: iterating the tiles ended in a branch on how many there
        // were, which a processor mispredicts (every set lies in the first
        // 91 bits, so 12 bytes hold it).
        let mut total = 0;
        let mut byte = 0;
        while byte < PIPS_BY_BYTE.len() {
            let bits = (self.0 >> (8 * byte)) & 0xff;
            if let Some(row) = PIPS_BY_BYTE.get(byte) {
                total += u32::from(row[bits as usize & 0xff]);
            }
            byte += 1;
        }
        total
    }

    /// The tile of highest index, if any.
    #[must_use]
    pub const fn last(self) -> Option<Tile> {
        if self.0 == 0 {
            None
        } else {
            Some(BY_BIT[(127 - self.0.leading_zeros()) as usize & 127])
        }
    }

    /// The mask itself, bit [`Tile::index`] a tile (for compact keys).
    #[must_use]
    pub(crate) const fn mask(self) -> u128 {
        self.0
    }

    /// The tiles' indices ([`Tile::index`], a tile's bit in the set), in
    /// order: a caller that wants indices, not tiles, skips working them
    /// out again.
    pub(crate) fn indices(self) -> impl Iterator<Item = usize> {
        // Two words: `ones` stays 64-bit for the tables' masks.
        let (low, high) = (self.0 as u64, (self.0 >> 64) as u64);
        ones(low).chain(ones(high).map(|index| index + 64))
    }

    /// The tiles, in index order (0-0, 1-0, 1-1, 2-0, …).
    #[must_use]
    pub fn iter(self) -> TileSetIter {
        TileSetIter(self.0)
    }
}

impl FromIterator<Tile> for TileSet {
    fn from_iter<I: IntoIterator<Item = Tile>>(iter: I) -> TileSet {
        let mut set = TileSet::EMPTY;
        for tile in iter {
            set.insert(tile);
        }
        set
    }
}

/// Iterator over a [`TileSet`], lowest index first.
pub struct TileSetIter(u128);

impl Iterator for TileSetIter {
    type Item = Tile;

    fn next(&mut self) -> Option<Tile> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        // A bit position is below 128: a mask, not `from_index`'s division.
        Some(BY_BIT[(index & 127) as usize])
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for TileSetIter {}

/// The positions of the bits set in `bits`, lowest first: how the tables
/// walk a mask of trains or arms, and a set its tiles' indices.
pub(crate) fn ones(bits: impl Into<u64>) -> impl Iterator<Item = usize> {
    let mut bits: u64 = bits.into();
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        Some(i)
    })
}

/// Tiles up to double-twelve: every tile index is below this.
pub(crate) const TILE_COUNT: u32 = 91;

/// Every tile index, in order (a deal shuffles a prefix of it).
pub(crate) const TILE_INDICES: [u8; TILE_COUNT as usize] = {
    let mut table = [0u8; TILE_COUNT as usize];
    let mut index = 0;
    while index < TILE_COUNT as usize {
        // Below 91: the cast keeps every bit.
        #[allow(clippy::cast_possible_truncation)]
        {
            table[index] = index as u8;
        }
        index += 1;
    }
    table
};

/// Every tile up to double-twelve, by index: the tiles of a set whose
/// highest half is `max_pip` are its first [`TileSet::full`]`(max_pip).len()`.
const BY_INDEX: [Tile; TILE_COUNT as usize] = {
    let mut table = [Tile { high: 0, low: 0 }; TILE_COUNT as usize];
    let mut index = 0;
    while index < TILE_COUNT {
        table[index as usize] = Tile::search_index(index);
        index += 1;
    }
    table
};

/// The bit of each tile index, 0 for the indices 91 to 255 (no tile's),
/// for [`TileSet::with_index`] (only the first 91 entries are ever read
/// in play, so the table takes little cache).
const BIT_BY_INDEX: [u128; 256] = {
    let mut table = [0u128; 256];
    let mut index = 0;
    while index < TILE_COUNT as usize {
        table[index] = 1u128 << index;
        index += 1;
    }
    table
};

/// [`BY_INDEX`] for every bit position of a [`TileSet`], wrapping around
/// as [`Tile::from_index`] does, so that iteration needs no division.
const BY_BIT: [Tile; 128] = {
    let mut table = [Tile { high: 0, low: 0 }; 128];
    let mut index = 0;
    while index < 128 {
        table[index] = BY_INDEX[index % TILE_COUNT as usize];
        index += 1;
    }
    table
};

/// `PIPS_BY_BYTE[k][b]`: the pips of the tiles whose bits are the set bits
/// of `b` placed at byte `k` of a set's mask (bits `8k..8k + 8`).
const PIPS_BY_BYTE: [[u16; 256]; 12] = {
    let mut table = [[0u16; 256]; 12];
    let mut byte = 0;
    while byte < 12 {
        let mut bits = 0;
        while bits < 256 {
            let mut total = 0u16;
            let mut bit = 0;
            while bit < 8 {
                let index = 8 * byte + bit;
                if bits & (1 << bit) != 0 && index < TILE_COUNT as usize {
                    total += BY_INDEX[index].pips() as u16;
                }
                bit += 1;
            }
            table[byte][bits] = total;
            bits += 1;
        }
        byte += 1;
    }
    table
};

/// `SHOWING[v]`: every tile with a half equal to `v`.
const SHOWING: [TileSet; MAX_PIP_LIMIT as usize + 1] = {
    let mut table = [TileSet::EMPTY; MAX_PIP_LIMIT as usize + 1];
    let mut v = 0;
    while v <= MAX_PIP_LIMIT {
        let mut other = 0;
        let mut mask = 0u128;
        while other <= MAX_PIP_LIMIT {
            mask |= 1u128 << Tile::new(v, other).index();
            other += 1;
        }
        table[v as usize] = TileSet(mask);
        v += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_a_bijection_up_to_double_twelve() {
        let full = TileSet::full(MAX_PIP_LIMIT);
        assert_eq!(full.len(), 91);
        for (expected, tile) in full.iter().enumerate() {
            assert_eq!(tile.index() as usize, expected);
            assert!(tile.fits_set(MAX_PIP_LIMIT));
        }
        assert_eq!(TileSet::full(6).len(), 28);
        assert_eq!(TileSet::full(9).len(), 55);
        // A set's indices are its tiles' indices, whatever the set.
        let some = [(0, 0), (3, 1), (6, 6), (9, 2), (12, 12)]
            .into_iter()
            .map(|(a, b)| Tile::new(a, b));
        for set in [TileSet::EMPTY, full, some.collect()] {
            let indices: Vec<usize> = set.indices().collect();
            let of_tiles: Vec<usize> = set.iter().map(|t| t.index() as usize).collect();
            assert_eq!(indices, of_tiles);
        }
    }

    #[test]
    fn showing_holds_every_tile_with_that_half() {
        let in_six = TileSet::showing(5).and(TileSet::full(6));
        assert_eq!(in_six.len(), 7);
        assert!(in_six.iter().all(|t| t.has(5)));
    }

    #[test]
    fn insert_and_remove_report_membership() {
        let mut set = TileSet::EMPTY;
        assert!(set.insert(Tile::new(6, 4)));
        assert!(!set.insert(Tile::new(4, 6)));
        assert_eq!(set.pips(), 10);
        assert!(set.remove(Tile::new(6, 4)));
        assert!(!set.remove(Tile::new(6, 4)));
        assert!(set.is_empty());
        assert!(!set.insert(Tile::new(200, 3)), "beyond double-twelve");
        assert!(!set.contains(Tile::new(200, 3)));
        assert!(TileSet::showing(13).is_empty());
    }

    #[test]
    fn indices_name_the_same_tiles_as_tiles_do() {
        for (index, &at) in TILE_INDICES.iter().enumerate() {
            let tile = Tile::at_index(at);
            assert_eq!(tile.index() as usize, index);
            assert_eq!(TileSet::EMPTY.with_index(at), TileSet::EMPTY.with(tile));
        }
        for beyond in 91..=u8::MAX {
            assert_eq!(TileSet::EMPTY.with_index(beyond), TileSet::EMPTY);
        }
    }

    #[test]
    fn pips_doubles_and_last_agree_with_the_tiles() {
        let full = TileSet::full(MAX_PIP_LIMIT);
        let mut set = TileSet::EMPTY;
        let mut pips = 0;
        assert_eq!(set.last(), None);
        for tile in full.iter() {
            set.insert(tile);
            pips += tile.pips();
            assert_eq!(set.pips(), pips);
            assert_eq!(set.last(), Some(tile));
            assert_eq!(TileSet::EMPTY.with(tile).pips(), tile.pips());
            assert_eq!(TileSet::DOUBLES.contains(tile), tile.is_double());
        }
        assert_eq!(TileSet::DOUBLES.len(), 13);
        // Sparse sets too: every third tile, and every tile but those.
        let thirds: TileSet = full.iter().step_by(3).collect();
        let sum = |set: TileSet| set.iter().map(Tile::pips).sum::<u32>();
        assert_eq!(thirds.pips(), sum(thirds));
        assert_eq!(full.minus(thirds).pips(), sum(full.minus(thirds)));
        assert_eq!(
            &BY_INDEX[..28],
            &full.iter().take(28).collect::<Vec<_>>()[..]
        );
    }
}
