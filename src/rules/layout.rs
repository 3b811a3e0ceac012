//! The tiles on the table: a lead and two arms growing from its halves.

use super::tile::Tile;

/// An open end of a two-ended layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum End {
    /// The arm growing from the lead's larger half.
    Left,
    /// The arm growing from the lead's smaller half.
    Right,
}

impl End {
    /// Both ends, left first.
    pub const ALL: [End; 2] = [End::Left, End::Right];

    const fn index(self) -> usize {
        match self {
            End::Left => 0,
            End::Right => 1,
        }
    }
}

/// A tile on an arm, read outward from the lead.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Placed {
    /// The half touching the previous tile.
    pub inner: u8,
    /// The half facing outward.
    pub outer: u8,
}

impl Placed {
    /// The tile this is.
    pub const fn tile(self) -> Tile {
        Tile::new(self.inner, self.outer)
    }

    /// Whether it is a double.
    pub const fn is_double(self) -> bool {
        self.inner == self.outer
    }
}

/// A touching pair of halves that do not match.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Mismatch {
    /// The arm at fault.
    pub end: End,
    /// The position on the arm (0 = next to the lead), or `None` when the
    /// arm has tiles but there is no lead.
    pub position: Option<usize>,
    /// The number the tile had to show.
    pub expected: Option<u8>,
    /// The number it showed.
    pub found: u8,
}

/// The layout of one hand.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Layout {
    /// The first tile; `None` while the layout is empty.
    lead: Option<Tile>,
    /// Tiles on each arm, nearest the lead first (indexed by `End::index`).
    arms: [Vec<Placed>; 2],
    /// The number showing at each end, kept in step with `arms` so that the
    /// hot path never walks an arm.
    ends: [u8; 2],
}

impl Layout {
    /// An empty layout.
    pub fn new() -> Layout {
        Layout::default()
    }

    /// Builds a layout from its parts, checking that every touching pair of
    /// halves matches.
    pub fn from_parts(
        lead: Option<Tile>,
        left: Vec<Placed>,
        right: Vec<Placed>,
    ) -> Result<Layout, Mismatch> {
        let mut layout = Layout::new();
        let Some(lead) = lead else {
            for (end, arm) in [(End::Left, &left), (End::Right, &right)] {
                if let Some(first) = arm.first() {
                    return Err(Mismatch {
                        end,
                        position: None,
                        expected: None,
                        found: first.inner,
                    });
                }
            }
            return Ok(layout);
        };
        layout.place(lead, None);
        for (end, arm) in [(End::Left, left), (End::Right, right)] {
            for (position, placed) in arm.iter().enumerate() {
                let expected = layout.ends[end.index()];
                if placed.inner != expected {
                    return Err(Mismatch {
                        end,
                        position: Some(position),
                        expected: Some(expected),
                        found: placed.inner,
                    });
                }
                layout.ends[end.index()] = placed.outer;
            }
            layout.arms[end.index()] = arm;
        }
        Ok(layout)
    }

    /// The lead, once placed.
    pub fn lead(&self) -> Option<Tile> {
        self.lead
    }

    /// Whether no tile has been placed.
    pub fn is_empty(&self) -> bool {
        self.lead.is_none()
    }

    /// The tiles on one arm, nearest the lead first.
    pub fn arm(&self, end: End) -> &[Placed] {
        &self.arms[end.index()]
    }

    /// The number showing at `end`; `None` while the layout is empty.
    pub fn open_end(&self, end: End) -> Option<u8> {
        self.lead.map(|_| self.ends[end.index()])
    }

    /// What `end` adds to the ends total. A double at an end counts both
    /// halves when `crosswise`; a lone lead counts its own pips once, so its
    /// halves count singly.
    pub fn counts(&self, end: End, crosswise: bool) -> u32 {
        let Some(lead) = self.lead else {
            return 0;
        };
        let pips = u32::from(self.ends[end.index()]);
        let end_is_double = match self.arms[end.index()].last() {
            Some(placed) => placed.is_double(),
            None => lead.is_double() && !self.arms.iter().all(Vec::is_empty),
        };
        if crosswise && end_is_double {
            2 * pips
        } else {
            pips
        }
    }

    /// The ends total used for in-play scoring.
    pub fn ends_total(&self, crosswise: bool) -> u32 {
        End::ALL
            .iter()
            .map(|&end| self.counts(end, crosswise))
            .sum()
    }

    /// Every tile on the table.
    pub fn tiles(&self) -> impl Iterator<Item = Tile> + '_ {
        self.lead
            .into_iter()
            .chain(self.arms.iter().flatten().map(|placed| placed.tile()))
    }

    /// Number of tiles on the table.
    pub fn len(&self) -> usize {
        usize::from(self.lead.is_some()) + self.arms.iter().map(Vec::len).sum::<usize>()
    }

    /// Places `tile`: as the lead when `end` is `None`, else on `end`, whose
    /// number the tile must show (the caller has checked).
    pub(crate) fn place(&mut self, tile: Tile, end: Option<End>) {
        match end {
            None => {
                self.lead = Some(tile);
                self.ends = [tile.high(), tile.low()];
            }
            Some(end) => {
                let inner = self.ends[end.index()];
                let outer = tile.other_half(inner);
                self.arms[end.index()].push(Placed { inner, outer });
                self.ends[end.index()] = outer;
            }
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
    fn rules_section_3_double_at_an_end_counts_both_halves() {
        // Ends 6-6 and 3 → 15.
        let mut layout = Layout::new();
        layout.place(t(6, 3), None);
        layout.place(t(6, 6), Some(End::Left));
        assert_eq!(layout.ends_total(true), 15);
        // Ends 4-4 and 6-6 → 20.
        let mut layout = Layout::new();
        layout.place(t(6, 4), None);
        layout.place(t(6, 6), Some(End::Left));
        layout.place(t(4, 4), Some(End::Right));
        assert_eq!(layout.ends_total(true), 20);
        // In line (no in-play scoring) a double counts once.
        assert_eq!(layout.ends_total(false), 10);
    }

    #[test]
    fn rules_section_3_openings_count_in_full() {
        for (tile, total) in [(t(5, 5), 10), (t(6, 4), 10), (t(6, 6), 12)] {
            let mut layout = Layout::new();
            layout.place(tile, None);
            assert_eq!(layout.ends_total(true), total, "{tile}");
        }
    }

    #[test]
    fn from_parts_rejects_a_mismatch() {
        let ok = Layout::from_parts(
            Some(t(6, 4)),
            vec![Placed { inner: 6, outer: 2 }],
            vec![Placed { inner: 4, outer: 4 }],
        )
        .expect("matching layout");
        assert_eq!(ok.open_end(End::Left), Some(2));
        assert_eq!(ok.open_end(End::Right), Some(4));
        assert_eq!(ok.ends_total(true), 10);
        let bad = Layout::from_parts(Some(t(6, 4)), vec![Placed { inner: 5, outer: 2 }], vec![]);
        assert_eq!(
            bad,
            Err(Mismatch {
                end: End::Left,
                position: Some(0),
                expected: Some(6),
                found: 5
            })
        );
        let orphan = Layout::from_parts(None, vec![], vec![Placed { inner: 1, outer: 2 }]);
        assert!(orphan.is_err());
    }
}
