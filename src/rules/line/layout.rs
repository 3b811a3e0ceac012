//! The tiles on the table: a lead, two arms growing from its halves and,
//! under spinner rules, two more arms growing from the spinner's short ends.

use crate::rules::connect::Connect;
use crate::rules::end::{ByEnd, End, EndBits};
use crate::rules::errors::LayoutError;
use crate::rules::options::LayoutRule;
use crate::rules::tile::{Tile, TileSet};

/// A tile on an arm, read outward from the lead.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Placed {
    /// The half touching the previous tile (for a crossed matador, its
    /// larger half).
    pub inner: u8,
    /// The half facing outward.
    pub outer: u8,
}

impl Placed {
    /// The tile this is.
    #[must_use]
    pub const fn tile(self) -> Tile {
        Tile::new(self.inner, self.outer)
    }

    /// Whether it is a double.
    #[must_use]
    pub const fn is_double(self) -> bool {
        self.inner == self.outer
    }
}

/// Where the spinner lies.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SpinnerAt {
    /// The lead is the spinner.
    Lead,
    /// The tile at `index` of the `Left` or `Right` arm is the spinner.
    Arm {
        /// `Left` or `Right`.
        end: End,
        /// Position on that arm, 0 next to the lead.
        index: usize,
    },
}

/// The parts of the rules that shape the layout.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Geometry {
    /// How tiles touch.
    pub connect: Connect,
    /// Which double, if any, becomes the spinner.
    pub layout: LayoutRule,
    /// Whether doubles lie crosswise and count both halves at an end.
    pub crosswise: bool,
}

/// The layout of one hand.
#[derive(PartialEq, Eq, Debug, Default)]
pub struct Layout {
    /// The first tile; `None` while the layout is empty.
    lead: Option<Tile>,
    /// Tiles on each arm, nearest the lead (or spinner) first.
    arms: ByEnd<Vec<Placed>>,
    /// The number showing at each end, kept in step with `arms` so that the
    /// hot path never walks an arm. For an empty short-side arm, the
    /// spinner's number.
    ends: ByEnd<u8>,
    /// The spinner, once there is one.
    spinner: Option<SpinnerAt>,
    /// How many ends a tile may be placed on now. The open ends are always
    /// the first ones of [`End::ALL`] (left and right once there is a lead,
    /// then up once the spinner's long sides are covered, then down), so a
    /// count says which: worked out after every change (by
    /// [`Layout::refresh`]) so that legal-move generation reads it instead
    /// of the arms.
    open_count: u8,
    /// Every tile that fits some open end under the layout's connection
    /// rule (empty while the layout is empty), kept with `open_count`.
    fitting: TileSet,
    /// For each number a half may show (0 to 12), the open ends a tile
    /// showing it fits by that half, one bit each in [`End::ALL`] order
    /// (matadors, which fit every end, aside), kept with `open_count`:
    /// legal-move generation then finds the ends a tile fits by looking up
    /// its two halves, with no test per end and so no branch on one. (Three
    /// bytes spare: the table is built in two 64-bit words and stored
    /// whole.)
    ends_by_half: [u8; 16],
    /// The ends whose arm holds a tile, one bit each in [`End::ALL`]
    /// order. This and the next two masks say what the ends total needs
    /// of the arms, kept by [`Layout::place`] (and worked out from the
    /// arms by [`Layout::from_parts`]), so that counting the ends reads
    /// three bytes instead of walking four vectors after every placement.
    armed: u8,
    /// The ends where the tile showing is a double: the arm's last tile,
    /// or for an empty arm the tile it grows from (the lead for a long
    /// arm, the spinner, always a double, for a short one).
    doubles: u8,
    /// The long ends where the spinner is the tile showing: both bits for
    /// a spinner lead until tiles cover its sides, the arm's bit for a
    /// spinner on an arm until a tile is placed beyond it. None left
    /// means both long sides are covered.
    spinner_showing: u8,
}

/// The bits of [`End::Left`] and [`End::Right`] in a mask of ends.
const LONG_ENDS: u8 = 0b0011;

/// The bits of [`End::Up`] and [`End::Down`] in a mask of ends.
const SHORT_ENDS: u8 = 0b1100;

/// The bit of `end` in a mask of ends ([`End::ALL`] order).
const fn end_bit(end: End) -> u8 {
    1 << end.index()
}

impl Clone for Layout {
    fn clone(&self) -> Layout {
        // The fields not named are `Copy`.
        Layout {
            arms: self.arms.clone(),
            ..*self
        }
    }

    /// Reuses the arms' room (see [`Game`](crate::rules::Game)'s `clone_from`).
    fn clone_from(&mut self, source: &Layout) {
        let mut arms = std::mem::take(&mut self.arms);
        for (mine, theirs) in arms.values_mut().zip(source.arms.values()) {
            mine.clone_from(theirs);
        }
        *self = Layout { arms, ..*source };
    }
}

impl Layout {
    /// An empty layout with no room: the line of a game that has none.
    pub(crate) const EMPTY: Layout = Layout {
        lead: None,
        arms: ByEnd::new(Vec::new(), Vec::new(), Vec::new(), Vec::new()),
        ends: ByEnd::new(0, 0, 0, 0),
        spinner: None,
        open_count: 0,
        fitting: TileSet::EMPTY,
        ends_by_half: [0; 16],
        armed: 0,
        doubles: 0,
        spinner_showing: 0,
    };

    /// An empty layout.
    #[must_use]
    pub fn new() -> Layout {
        Layout::default()
    }

    /// An empty layout whose arms can each hold `tiles` tiles without
    /// allocating.
    #[must_use]
    pub fn with_capacity(tiles: usize) -> Layout {
        Layout {
            arms: ByEnd::from_fn(|_| Vec::with_capacity(tiles)),
            ..Layout::default()
        }
    }

    /// Makes every arm able to hold `tiles` tiles without allocating.
    pub(crate) fn reserve(&mut self, tiles: usize) {
        for arm in self.arms.values_mut() {
            arm.reserve(tiles.saturating_sub(arm.len()));
        }
    }

    /// Gives back the arms' room beyond the tiles they hold.
    pub(crate) fn shrink_to_fit(&mut self) {
        for arm in self.arms.values_mut() {
            arm.shrink_to_fit();
        }
    }

    /// Empties the layout for a new hand, keeping the arms' capacity.
    pub(crate) fn clear(&mut self) {
        self.lead = None;
        self.arms.values_mut().for_each(Vec::clear);
        self.ends = ByEnd::default();
        self.spinner = None;
        self.open_count = 0;
        self.fitting = TileSet::EMPTY;
        self.ends_by_half = [0; 16];
        self.armed = 0;
        self.doubles = 0;
        self.spinner_showing = 0;
    }

    /// Works out `open_count`, `fitting` and `ends_by_half` again after a
    /// change.
    fn refresh(&mut self, connect: Connect) {
        let count = if self.lead.is_none() {
            0
        } else {
            // Down opens only after up has (up grows first), so each open
            // end adds one to a prefix.
            let up_grown = self.armed & end_bit(End::Up) != 0;
            let covered = self.long_sides_covered();
            // `|` and `&`, not `||` and `&&`: no branch on any of them.
            let up = up_grown | covered;
            let down = (self.armed & end_bit(End::Down) != 0) | (up_grown & covered);
            2 + u8::from(up) + u8::from(down & up)
        };
        self.open_count = count;
        // The table of ends by half is built in registers and stored whole:
        // built a byte at a time on the stack, its copy into the layout
        // waited for those byte stores (a load spanning several smaller
        // stores is not forwarded from them), which `perf` showed as the
        // most sampled instruction of a hand.
        let mut fitting = TileSet::EMPTY;
        let (mut low, mut high) = (0u64, 0u64);
        for (bit, (_, pips)) in self.open_ends().enumerate() {
            fitting = fitting.or(connect.fitting(pips));
            if let Some(half) = connect.touching_half(pips) {
                let shift = 8 * u32::from(half);
                if shift < 64 {
                    low |= (1u64 << bit) << shift;
                } else {
                    high |= (1u64 << bit).checked_shl(shift - 64).unwrap_or(0);
                }
            }
        }
        self.fitting = fitting;
        self.ends_by_half = (u128::from(high) << 64 | u128::from(low)).to_le_bytes();
    }

    /// Shows `lead`'s halves on the long ends and, once there is a spinner,
    /// `spinner` on both short ends.
    fn show_lead(&mut self, lead: Tile, spinner: Option<u8>) {
        let short = spinner.unwrap_or(0);
        self.ends = ByEnd::new(lead.high(), lead.low(), short, short);
    }

    /// Builds a layout from its parts, checking that it could have been made
    /// by legal play under `geometry`: every tile touches its neighbour, the
    /// spinner is the double the rules make the spinner, and the short-side
    /// arms grow only once both long sides are covered.
    ///
    /// # Errors
    /// The first fault found, with where it lies.
    pub fn from_parts(
        lead: Option<Tile>,
        arms: ByEnd<Vec<Placed>>,
        spinner: Option<SpinnerAt>,
        geometry: Geometry,
    ) -> Result<Layout, LayoutError> {
        let Some(lead) = lead else {
            if let Some((end, _)) = arms.iter().find(|(_, arm)| !arm.is_empty()) {
                return Err(LayoutError::ArmWithoutLead { end });
            }
            if spinner.is_some() {
                return Err(LayoutError::SpinnerWithoutLead);
            }
            return Ok(Layout::new());
        };
        check_spinner(lead, spinner, &arms, geometry)?;
        let mut layout = Layout {
            lead: Some(lead),
            spinner,
            ..Layout::default()
        };
        layout.show_lead(lead, spinner_number(lead, spinner, &arms));
        for (end, arm) in arms.iter() {
            for (index, &placed) in arm.iter().enumerate() {
                let pips = layout.ends[end];
                if !geometry.connect.touches(placed, pips) {
                    return Err(LayoutError::DoesNotTouch {
                        end,
                        index,
                        placed,
                        pips,
                    });
                }
                layout.ends[end] = geometry.connect.exposes(placed, pips);
            }
        }
        layout.arms = arms;
        layout.derive_masks(lead);
        layout.refresh(geometry.connect);
        for end in [End::Up, End::Down] {
            if !layout.arms[end].is_empty() {
                let opened = layout.long_sides_covered();
                let in_order = end == End::Up || !layout.arms[End::Up].is_empty();
                if !opened || !in_order {
                    return Err(LayoutError::ShortArmTooEarly { end });
                }
            }
        }
        Ok(layout)
    }

    /// The lead, once placed.
    #[must_use]
    pub fn lead(&self) -> Option<Tile> {
        self.lead
    }

    /// Whether no tile has been placed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lead.is_none()
    }

    /// The tiles on one arm, nearest the lead (or spinner) first.
    #[must_use]
    pub fn arm(&self, end: End) -> &[Placed] {
        &self.arms[end]
    }

    /// Where the spinner lies, once there is one.
    #[must_use]
    pub fn spinner(&self) -> Option<SpinnerAt> {
        self.spinner
    }

    /// Works out `armed`, `doubles` and `spinner_showing` from the arms
    /// (for a layout built from its parts; play keeps them as it goes).
    fn derive_masks(&mut self, lead: Tile) {
        let (mut armed, mut doubles, mut spinner_showing) = (0, 0, 0);
        for (end, arm) in self.arms.iter() {
            let bit = end_bit(end);
            let grows_from_double = end.is_short_side() || lead.is_double();
            let spinner_shows = match self.spinner {
                Some(SpinnerAt::Lead) => !end.is_short_side() && arm.is_empty(),
                Some(SpinnerAt::Arm { end: at, index }) => at == end && arm.len() == index + 1,
                None => false,
            };
            if !arm.is_empty() {
                armed |= bit;
            }
            if arm
                .last()
                .map_or(grows_from_double, |last| last.is_double())
            {
                doubles |= bit;
            }
            if spinner_shows {
                spinner_showing |= bit;
            }
        }
        self.armed = armed;
        self.doubles = doubles;
        self.spinner_showing = spinner_showing;
    }

    /// Whether there is a spinner and both of its long sides have a tile
    /// against them.
    fn long_sides_covered(&self) -> bool {
        self.spinner.is_some() & (self.spinner_showing == 0)
    }

    /// The number showing at `end`, if a tile may be placed there now.
    #[must_use]
    pub fn open_end(&self, end: End) -> Option<u8> {
        (end.index() < usize::from(self.open_count)).then_some(self.ends[end])
    }

    /// The open ends with the number each shows, in [`End::ALL`] order
    /// (legal-move generation walks them once per placeable tile).
    pub fn open_ends(&self) -> impl Iterator<Item = (End, u8)> + '_ {
        End::ALL
            .into_iter()
            .zip(self.ends.values().copied())
            .take(usize::from(self.open_count))
    }

    /// The open ends `tile` fits under `connect` (the layout's rule), in
    /// [`End::ALL`] order: by looking up its halves, without a test (or a
    /// branch) per end.
    #[must_use]
    pub(crate) fn ends_fitting(&self, tile: Tile, connect: Connect) -> EndBits {
        let by = |half: u8| {
            self.ends_by_half
                .get(usize::from(half))
                .copied()
                .unwrap_or(0)
        };
        let every_end = (1u8 << self.open_count.min(4)) - 1;
        EndBits(
            by(tile.high()) | by(tile.low()) | (every_end * u8::from(connect.fits_every_end(tile))),
        )
    }

    /// Every tile that fits some open end now (none while the layout is
    /// empty: any tile may lead, unless the rules force one).
    #[must_use]
    pub fn fitting(&self) -> TileSet {
        self.fitting
    }

    /// What `end` adds to the ends total. A double at an end counts both
    /// halves when `crosswise`; a lone lead counts each half once. Under
    /// `Sniff`, the spinner counts through its unarmed short ends (its number
    /// each) and never through its long sides.
    #[must_use]
    pub fn counts(&self, end: End, geometry: Geometry) -> u32 {
        if self.lead.is_none() {
            return 0;
        }
        let bit = end_bit(end);
        let sniff = geometry.layout == LayoutRule::Sniff;
        let armed = self.armed & bit != 0;
        // The double showing here counts twice when doubles lie crosswise;
        // a lone double lead shows a half on each long end, once each.
        let double = geometry.crosswise & (self.doubles & bit != 0) & (self.armed != 0);
        let times = if end.is_short_side() {
            // A short arm counts once the spinner is down: its last tile,
            // or under Sniff, while it is empty, the spinner's number.
            let times = if armed {
                1 + u32::from(double)
            } else {
                u32::from(sniff)
            };
            times * u32::from(self.spinner.is_some())
        } else {
            let hidden = sniff & (self.spinner_showing & bit != 0);
            (1 + u32::from(double)) * u32::from(!hidden)
        };
        u32::from(self.ends[end]) * times
    }

    /// The ends total used for in-play scoring.
    #[must_use]
    pub fn ends_total(&self, geometry: Geometry) -> u32 {
        End::ALL.iter().map(|&end| self.counts(end, geometry)).sum()
    }

    /// Every tile on the table.
    pub fn tiles(&self) -> impl Iterator<Item = Tile> + '_ {
        self.lead
            .into_iter()
            .chain(self.arms.values().flatten().map(|placed| placed.tile()))
    }

    /// Number of tiles on the table.
    #[must_use]
    pub fn len(&self) -> usize {
        usize::from(self.lead.is_some()) + self.arms.values().map(Vec::len).sum::<usize>()
    }

    /// Places `tile`: as the lead when `end` is `None`, else on `end`, which
    /// it must fit (the caller has checked).
    pub(crate) fn place(&mut self, tile: Tile, end: Option<End>, geometry: Geometry) {
        // Bitwise, not short-circuit: whether a tile is a double and which
        // end it goes on are random, so branches on them are mispredicted.
        let becomes_spinner = |layout: &Layout| {
            tile.is_double()
                & layout.spinner.is_none()
                & match geometry.layout {
                    LayoutRule::TwoEnds => false,
                    LayoutRule::FirstTileDoubleSpinner => layout.lead.is_none(),
                    LayoutRule::FirstDoubleSpinner | LayoutRule::Sniff => true,
                }
        };
        match end {
            None => {
                let spinner = becomes_spinner(self);
                self.show_lead(tile, spinner.then_some(tile.high()));
                if spinner {
                    self.spinner = Some(SpinnerAt::Lead);
                }
                self.lead = Some(tile);
                self.armed = 0;
                self.doubles = SHORT_ENDS | (LONG_ENDS * u8::from(tile.is_double()));
                self.spinner_showing = LONG_ENDS * u8::from(spinner);
            }
            Some(end) => {
                let pips = self.ends[end];
                let placed = geometry.connect.place(tile, pips);
                let spins = !end.is_short_side() & becomes_spinner(self);
                let bit = end_bit(end);
                self.armed |= bit;
                self.doubles = (self.doubles & !bit) | (bit * u8::from(placed.is_double()));
                self.spinner_showing = (self.spinner_showing & !bit) | (bit * u8::from(spins));
                if spins {
                    self.spinner = Some(SpinnerAt::Arm {
                        end,
                        index: self.arms[end].len(),
                    });
                    self.ends[End::Up] = tile.high();
                    self.ends[End::Down] = tile.high();
                }
                self.arms[end].push(placed);
                self.ends[end] = geometry.connect.exposes(placed, pips);
            }
        }
        self.refresh(geometry.connect);
    }

    /// The ends total once `tile` is placed on `end` (which it must fit),
    /// the layout left as it was: the tile placed, the ends counted and the
    /// tile taken back, without copying the arms (a playout's look at each
    /// reply of the next seat).
    pub(crate) fn ends_total_after(&mut self, tile: Tile, end: End, geometry: Geometry) -> u32 {
        // Every field but the arms is `Copy`: kept whole, and put back.
        let before = Layout {
            arms: ByEnd::default(),
            ..*self
        };
        self.place(tile, Some(end), geometry);
        let total = self.ends_total(geometry);
        self.arms[end].pop();
        let arms = std::mem::take(&mut self.arms);
        *self = Layout { arms, ..before };
        total
    }
}

/// The spinner's number, found in `arms`.
fn spinner_number(lead: Tile, spinner: Option<SpinnerAt>, arms: &ByEnd<Vec<Placed>>) -> Option<u8> {
    match spinner? {
        SpinnerAt::Lead => Some(lead.high()),
        SpinnerAt::Arm { end, index } => arms[end].get(index).map(|p| p.inner),
    }
}

/// Checks the claimed spinner against the rules and the tiles.
fn check_spinner(
    lead: Tile,
    spinner: Option<SpinnerAt>,
    arms: &ByEnd<Vec<Placed>>,
    geometry: Geometry,
) -> Result<(), LayoutError> {
    let first_double_on =
        |end: End, before: usize| arms[end].iter().take(before).position(|p| p.is_double());
    match (geometry.layout, spinner) {
        (LayoutRule::TwoEnds, Some(_)) => Err(LayoutError::NoSpinnerInRules),
        (LayoutRule::FirstTileDoubleSpinner, None) if lead.is_double() => {
            Err(LayoutError::DoubleLeadNotSpinner)
        }
        (LayoutRule::FirstTileDoubleSpinner, Some(SpinnerAt::Arm { .. })) => {
            Err(LayoutError::OnlyDoubleLeadSpins)
        }
        (_, Some(SpinnerAt::Lead)) if !lead.is_double() => Err(LayoutError::SpinnerNotDouble),
        (_, Some(SpinnerAt::Lead))
        | (LayoutRule::TwoEnds | LayoutRule::FirstTileDoubleSpinner, None) => Ok(()),
        (_, None) => {
            // The first double played becomes the spinner: none is down.
            if lead.is_double() {
                return Err(LayoutError::DoubleLeadNotSpinner);
            }
            match End::LONG
                .into_iter()
                .find_map(|end| first_double_on(end, usize::MAX).map(|index| (end, index)))
            {
                Some((end, index)) => Err(LayoutError::SpinnerNotRecorded { end, index }),
                None => Ok(()),
            }
        }
        (_, Some(SpinnerAt::Arm { end, index })) => {
            let is_double = arms[end].get(index).is_some_and(|p| p.is_double());
            if end.is_short_side() || !is_double {
                return Err(LayoutError::SpinnerNotOnLongArm { end, index });
            }
            if lead.is_double() || first_double_on(end, index).is_some() {
                return Err(LayoutError::EarlierDoubleIsSpinner { end, index });
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::errors::LayoutPlace;

    fn t(a: u8, b: u8) -> Tile {
        Tile::new(a, b)
    }

    fn geometry(layout: LayoutRule) -> Geometry {
        Geometry {
            connect: Connect::Equal,
            layout,
            crosswise: true,
        }
    }

    fn build(layout: LayoutRule, plays: &[(Tile, Option<End>)]) -> Layout {
        let mut table = Layout::new();
        for &(tile, end) in plays {
            let g = geometry(layout);
            assert!(
                end.is_none()
                    || table
                        .open_end(end.unwrap_or(End::Left))
                        .is_some_and(|p| g.connect.fits(tile, p)),
                "{tile} on {end:?}"
            );
            table.place(tile, end, g);
        }
        table
    }

    /// Counting a tile's placement in place agrees with placing it on a
    /// copy, and leaves the layout as it was: every tile that fits every
    /// open end, along random lines of play under each layout rule.
    #[test]
    fn the_total_after_a_tile_is_that_of_the_copy_it_is_placed_on() {
        use rand::rngs::ChaCha8Rng;
        use rand::{RngExt, SeedableRng};
        let mut checked = 0;
        for rule in [
            LayoutRule::TwoEnds,
            LayoutRule::FirstTileDoubleSpinner,
            LayoutRule::FirstDoubleSpinner,
            LayoutRule::Sniff,
        ] {
            let g = geometry(rule);
            for seed in 0..60 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut left = TileSet::full(6);
                let lead = left.iter().nth(rng.random_range(0..28)).expect("a tile");
                left = left.minus(TileSet::EMPTY.with(lead));
                let mut layout = Layout::new();
                layout.place(lead, None, g);
                loop {
                    let mut options = Vec::new();
                    for tile in layout.fitting().and(left).iter() {
                        for end in layout.ends_fitting(tile, g.connect) {
                            let mut copy = layout.clone();
                            copy.place(tile, Some(end), g);
                            let before = layout.clone();
                            assert_eq!(layout.ends_total_after(tile, end, g), copy.ends_total(g));
                            assert_eq!(layout, before);
                            options.push((tile, end));
                            checked += 1;
                        }
                    }
                    let Some(&(tile, end)) = options.get(rng.random_range(0..options.len().max(1)))
                    else {
                        break;
                    };
                    layout.place(tile, Some(end), g);
                    left = left.minus(TileSet::EMPTY.with(tile));
                }
            }
        }
        assert!(checked > 2000, "{checked}");
    }

    #[test]
    fn rules_section_3_double_at_an_end_counts_both_halves() {
        let g = geometry(LayoutRule::TwoEnds);
        // Ends 6-6 and 3 → 15.
        let layout = build(
            LayoutRule::TwoEnds,
            &[(t(6, 3), None), (t(6, 6), Some(End::Left))],
        );
        assert_eq!(layout.ends_total(g), 15);
        // Ends 4-4 and 6-6 → 20.
        let layout = build(
            LayoutRule::TwoEnds,
            &[
                (t(6, 4), None),
                (t(6, 6), Some(End::Left)),
                (t(4, 4), Some(End::Right)),
            ],
        );
        assert_eq!(layout.ends_total(g), 20);
        // In line (no in-play scoring) a double counts once.
        let inline = Geometry {
            crosswise: false,
            ..g
        };
        assert_eq!(layout.ends_total(inline), 10);
    }

    #[test]
    fn rules_section_3_openings_count_in_full() {
        for (tile, total) in [(t(5, 5), 10), (t(6, 4), 10), (t(6, 6), 12)] {
            let layout = build(LayoutRule::TwoEnds, &[(tile, None)]);
            assert_eq!(
                layout.ends_total(geometry(LayoutRule::TwoEnds)),
                total,
                "{tile}"
            );
        }
    }

    #[test]
    fn all_fives_spinner_counts_while_a_long_side_is_open() {
        let g = geometry(LayoutRule::FirstDoubleSpinner);
        let plays = [(t(5, 5), None), (t(5, 0), Some(End::Left))];
        let layout = build(LayoutRule::FirstDoubleSpinner, &plays);
        assert_eq!(layout.ends_total(g), 10, "5-5 with 5-0 on one side");
        assert_eq!(
            layout.open_end(End::Up),
            None,
            "short ends wait for both long sides"
        );
        let layout = build(
            LayoutRule::FirstDoubleSpinner,
            &[plays[0], plays[1], (t(6, 5), Some(End::Right))],
        );
        assert_eq!(
            layout.ends_total(g),
            6,
            "0 + 6 once both long sides are covered"
        );
        assert_eq!(layout.open_end(End::Up), Some(5));
        assert_eq!(layout.open_end(End::Down), None, "one new arm at a time");
        let layout = build(
            LayoutRule::FirstDoubleSpinner,
            &[
                plays[0],
                plays[1],
                (t(6, 5), Some(End::Right)),
                (t(5, 4), Some(End::Up)),
            ],
        );
        assert_eq!(layout.ends_total(g), 10, "0 + 6 + 4");
        assert_eq!(layout.open_end(End::Down), Some(5));
    }

    #[test]
    fn sniff_counts_short_ends_until_armed() {
        let g = geometry(LayoutRule::Sniff);
        let mut plays = vec![(t(4, 4), None)];
        let expected = [
            (None, 8),
            (Some((t(6, 4), End::Left)), 14),
            (Some((t(4, 1), End::Right)), 15),
            (Some((t(4, 0), End::Up)), 11),
        ];
        for (play, total) in expected {
            if let Some((tile, end)) = play {
                plays.push((tile, Some(end)));
            }
            let layout = build(LayoutRule::Sniff, &plays);
            assert_eq!(layout.ends_total(g), total, "after {play:?}");
        }
    }

    #[test]
    fn a_later_double_becomes_the_spinner() {
        let layout = build(
            LayoutRule::FirstDoubleSpinner,
            &[
                (t(6, 4), None),
                (t(4, 4), Some(End::Right)),
                (t(4, 2), Some(End::Right)),
            ],
        );
        assert_eq!(
            layout.spinner(),
            Some(SpinnerAt::Arm {
                end: End::Right,
                index: 0
            })
        );
        assert_eq!(layout.open_end(End::Up), Some(4));
        let only_lead = build(
            LayoutRule::FirstTileDoubleSpinner,
            &[
                (t(6, 4), None),
                (t(4, 4), Some(End::Right)),
                (t(4, 2), Some(End::Right)),
            ],
        );
        assert_eq!(only_lead.spinner(), None);
        assert_eq!(only_lead.open_end(End::Up), None);
    }

    #[test]
    fn matadors_leave_the_end_open() {
        let g = Geometry {
            connect: Connect::SumToSevenWithMatadors,
            layout: LayoutRule::TwoEnds,
            crosswise: false,
        };
        assert!(g.connect.fits(t(6, 2), 1), "6 + 1 = 7");
        assert!(!g.connect.fits(t(6, 2), 0), "a blank takes only a matador");
        assert!(g.connect.fits(t(3, 4), 0));
        assert!(g.connect.fits(t(0, 0), 5));
        let mut layout = Layout::new();
        layout.place(t(5, 0), None, g);
        layout.place(t(2, 5), Some(End::Right), g);
        assert_eq!(
            layout.open_end(End::Right),
            Some(0),
            "a crossed matador keeps the blank open"
        );
        layout.place(t(2, 3), Some(End::Left), g);
        assert_eq!(
            layout.open_end(End::Left),
            Some(3),
            "2 touches 5 (2 + 5 = 7), 3 shows"
        );
        let rebuilt = Layout::from_parts(
            layout.lead(),
            ByEnd::new(
                layout.arm(End::Left).to_vec(),
                layout.arm(End::Right).to_vec(),
                Vec::new(),
                Vec::new(),
            ),
            None,
            g,
        );
        assert_eq!(rebuilt, Ok(layout));
    }

    #[test]
    fn from_parts_rejects_what_play_cannot_build() {
        let g = geometry(LayoutRule::TwoEnds);
        let ok = Layout::from_parts(
            Some(t(6, 4)),
            ByEnd::new(
                vec![Placed { inner: 6, outer: 2 }],
                vec![Placed { inner: 4, outer: 4 }],
                vec![],
                vec![],
            ),
            None,
            g,
        )
        .expect("matching layout");
        assert_eq!(ok.open_end(End::Left), Some(2));
        assert_eq!(ok.ends_total(g), 10);
        let bad = Layout::from_parts(
            Some(t(6, 4)),
            ByEnd::new(vec![Placed { inner: 5, outer: 2 }], vec![], vec![], vec![]),
            None,
            g,
        );
        assert_eq!(
            bad.map_err(|e| e.place()),
            Err(LayoutPlace::Placed {
                end: End::Left,
                index: 0
            })
        );
        let orphan = Layout::from_parts(
            None,
            ByEnd::new(vec![], vec![Placed { inner: 1, outer: 2 }], vec![], vec![]),
            None,
            g,
        );
        assert!(orphan.is_err());
        let spinner = geometry(LayoutRule::FirstDoubleSpinner);
        let unrecorded = Layout::from_parts(Some(t(5, 5)), Default::default(), None, spinner);
        assert!(unrecorded.is_err(), "a double lead is the spinner");
        let early_up = Layout::from_parts(
            Some(t(5, 5)),
            ByEnd::new(
                vec![Placed { inner: 5, outer: 0 }],
                vec![],
                vec![Placed { inner: 5, outer: 1 }],
                vec![],
            ),
            Some(SpinnerAt::Lead),
            spinner,
        );
        assert!(early_up.is_err(), "short ends open after both long sides");
    }
}
