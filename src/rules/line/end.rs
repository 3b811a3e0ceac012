//! The places on a layout where tiles are added, and a small map holding
//! one value per end.

use std::ops::{Index, IndexMut};

/// A place where tiles are added.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum End {
    /// The arm growing from the lead's larger half.
    Left,
    /// The arm growing from the lead's smaller half.
    Right,
    /// The first arm grown from a spinner's short end.
    Up,
    /// The second arm grown from a spinner's short end (after `Up`).
    Down,
}

/// A few ends as bits (bit `n`: [`End::ALL`]`[n]`), walked in that order:
/// what `Layout::ends_fitting` answers.
/// The walk branches on how many ends are left (almost always one), which
/// a processor predicts, not on which, which it cannot.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EndBits(pub(crate) u8);

impl Iterator for EndBits {
    type Item = End;

    fn next(&mut self) -> Option<End> {
        if self.0 == 0 {
            return None;
        }
        let end = End::ALL[self.0.trailing_zeros() as usize & 3];
        self.0 &= self.0 - 1;
        Some(end)
    }
}

/// An end as text says it, as its wire name does: `left`, `right`, `up`,
/// `down` ("the left end").
impl std::fmt::Display for End {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            End::Left => "left",
            End::Right => "right",
            End::Up => "up",
            End::Down => "down",
        })
    }
}

impl End {
    /// Every end, in the order legal moves list them.
    pub const ALL: [End; 4] = [End::Left, End::Right, End::Up, End::Down];

    /// The two arms that grow from the lead's halves.
    pub const LONG: [End; 2] = [End::Left, End::Right];

    /// Position in per-end arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        // The discriminant (`Left` 0 … `Down` 3): an address computed from
        // the end, where a `match` compiled to a jump table whose target a
        // processor mispredicts as often as the end is random.
        self as usize
    }

    /// Whether the arm grows from the spinner's short end.
    #[must_use]
    pub const fn is_short_side(self) -> bool {
        matches!(self, End::Up | End::Down)
    }

    /// The arm's name in players' words (`left`, `up`, …).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            End::Left => "left",
            End::Right => "right",
            End::Up => "up",
            End::Down => "down",
        }
    }
}

/// One `T` for each [`End`], indexed by the end itself rather than by a
/// number that could name no end.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByEnd<T>([T; 4]);

impl<T> ByEnd<T> {
    /// The map holding `left`, `right`, `up` and `down`.
    pub const fn new(left: T, right: T, up: T, down: T) -> ByEnd<T> {
        ByEnd([left, right, up, down])
    }

    /// The map holding `value(end)` at each end.
    pub fn from_fn(mut value: impl FnMut(End) -> T) -> ByEnd<T> {
        ByEnd(End::ALL.map(&mut value))
    }

    /// Each end with its value, in [`End::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (End, &T)> {
        End::ALL.into_iter().zip(&self.0)
    }

    /// The values, in [`End::ALL`] order.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter()
    }

    /// The values, mutably, in [`End::ALL`] order.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.0.iter_mut()
    }
}

impl<T> Index<End> for ByEnd<T> {
    type Output = T;

    fn index(&self, end: End) -> &T {
        // `index` is below 4: the compiler knows it, and checks no bound.
        &self.0[end.index()]
    }
}

impl<T> IndexMut<End> for ByEnd<T> {
    fn index_mut(&mut self, end: End) -> &mut T {
        // `index` is below 4: the compiler knows it, and checks no bound.
        &mut self.0[end.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_end_has_its_own_slot() {
        let mut map = ByEnd::from_fn(End::index);
        for end in End::ALL {
            assert_eq!(map[end], end.index());
        }
        map[End::Up] = 9;
        assert_eq!(map, ByEnd::new(0, 1, 9, 3));
        let ends: Vec<End> = map.iter().map(|(end, _)| end).collect();
        assert_eq!(ends, End::ALL);
    }

    #[test]
    fn end_bits_walk_their_ends_in_order() {
        for bits in 0u8..16 {
            let walked: Vec<End> = EndBits(bits).collect();
            let expected: Vec<End> = End::ALL
                .into_iter()
                .filter(|&end| bits & (1 << end.index()) != 0)
                .collect();
            assert_eq!(walked, expected, "{bits:#06b}");
        }
        assert_eq!(EndBits(0b1010).collect::<Vec<_>>(), [End::Right, End::Down]);
    }
}
