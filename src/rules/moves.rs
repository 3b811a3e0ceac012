//! Moves a seat can make.

use std::fmt;

use super::end::End;
use super::place::Place;
use super::tile::Tile;

/// Adds to `out` one move for each bit of `places`, lowest first:
/// `at(i)` is the move for bit `i` (of a tile that fits several places of
/// a table, one per place). `N` is how many places a tile nearly always
/// fits at most.
///
/// How many places a tile fits is a coin toss to a processor: `N` moves
/// are written and those past the places taken back, so that nothing
/// branches on how many there are up to `N` (only more, which is rare,
/// take a loop).
pub(crate) fn push_per_place<const N: usize>(
    out: &mut Vec<Move>,
    places: u64,
    at: impl Fn(u32) -> Move,
) {
    let start = out.len();
    let mut rest = places;
    for _ in 0..N {
        out.push(at(rest.trailing_zeros()));
        rest &= rest.wrapping_sub(1);
    }
    out.truncate(start + (places.count_ones() as usize).min(N));
    while rest != 0 {
        out.push(at(rest.trailing_zeros()));
        rest &= rest - 1;
    }
}

/// A seat number, 0..players.
pub type Seat = u8;

/// A move by one seat.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// The seat making it.
    pub seat: Seat,
    /// What it does.
    pub action: Action,
}

/// What a move does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    /// Place `tile` at `place`.
    Play {
        /// The tile placed.
        tile: Tile,
        /// Where it goes.
        place: Place,
    },
    /// Draw the next tile of the boneyard.
    Draw,
    /// Pass the turn.
    Pass,
    /// End a turn of several placements (a train table's opening chain).
    EndTurn,
}

impl Move {
    /// `seat` places `tile` on a line's `end` (`None` for a lead).
    #[must_use]
    pub const fn play(seat: Seat, tile: Tile, end: Option<End>) -> Move {
        Move::place(seat, tile, Place::on_line(end))
    }

    /// `seat` places `tile` at `place`.
    #[must_use]
    pub const fn place(seat: Seat, tile: Tile, place: Place) -> Move {
        Move {
            seat,
            action: Action::Play { tile, place },
        }
    }

    /// `seat` draws.
    #[must_use]
    pub const fn draw(seat: Seat) -> Move {
        Move {
            seat,
            action: Action::Draw,
        }
    }

    /// `seat` ends its opening chain.
    #[must_use]
    pub const fn end_turn(seat: Seat) -> Move {
        Move {
            seat,
            action: Action::EndTurn,
        }
    }

    /// `seat` passes.
    #[must_use]
    pub const fn pass(seat: Seat) -> Move {
        Move {
            seat,
            action: Action::Pass,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.action {
            Action::Play {
                tile,
                place: Place::LEAD,
            } => write!(f, "seat {} leads {tile}", self.seat),
            Action::Play { tile, place } => write!(f, "seat {} plays {tile} {place}", self.seat),
            Action::Draw => write!(f, "seat {} draws", self.seat),
            Action::Pass => write!(f, "seat {} passes", self.seat),
            Action::EndTurn => write!(f, "seat {} ends its turn", self.seat),
        }
    }
}
