//! Moves a seat can make.

use std::fmt;

use super::end::End;
use super::place::Place;
use super::tile::{TILE_COUNT, Tile};
use super::tricks::auction::Bid;
use super::tricks::contract::Contract;

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
    /// Bid in a trick game's auction (a pass there is [`Action::Pass`]).
    Bid(Bid),
    /// Name the contract (a trick game's declarer).
    Name(Contract),
    /// Lay a tile away (Moon's bidder, after taking the widow).
    Discard(Tile),
    /// Play a tile to the trick in progress.
    Trick(Tile),
}

impl Action {
    /// A trick game's move as three bytes, the way the match digest and
    /// packed histories record it: the kind (4 a bid, 5 a contract, 6 a
    /// discard, 7 a tile to the trick; 0–3 are the placing games'), then
    /// what it names (a bid's or a contract's kind and number; a tile's
    /// index). `None` for the placing games' moves.
    #[must_use]
    pub fn trick_bytes(self) -> Option<[u8; 3]> {
        let index = |tile: Tile| u8::try_from(tile.index()).unwrap_or(u8::MAX);
        Some(match self {
            Action::Bid(bid) => match bid {
                Bid::Points(n) => [4, 0, n],
                Bid::Marks(n) => [4, 1, n],
                Bid::Plunge(n) => [4, 2, n],
                Bid::Splash(n) => [4, 3, n],
                Bid::Tricks(n) => [4, 4, n],
                Bid::Moon => [4, 5, 0],
            },
            Action::Name(contract) => match contract {
                Contract::Trumps(n) => [5, 0, n],
                Contract::Doubles => [5, 1, 0],
                Contract::FollowMe => [5, 2, 0],
                Contract::Nello => [5, 3, 0],
                Contract::Sevens => [5, 4, 0],
            },
            Action::Discard(tile) => [6, index(tile), 0],
            Action::Trick(tile) => [7, index(tile), 0],
            Action::Play { .. } | Action::Draw | Action::Pass | Action::EndTurn => return None,
        })
    }

    /// The trick game's move that [`Action::trick_bytes`] wrote, `None`
    /// for bytes no move writes.
    #[must_use]
    pub fn from_trick_bytes(bytes: [u8; 3]) -> Option<Action> {
        let tile =
            |index: u8| (u32::from(index) < TILE_COUNT).then(|| Tile::from_index(u32::from(index)));
        let action = match bytes {
            [4, 0, n] => Action::Bid(Bid::Points(n)),
            [4, 1, n] => Action::Bid(Bid::Marks(n)),
            [4, 2, n] => Action::Bid(Bid::Plunge(n)),
            [4, 3, n] => Action::Bid(Bid::Splash(n)),
            [4, 4, n] => Action::Bid(Bid::Tricks(n)),
            [4, 5, 0] => Action::Bid(Bid::Moon),
            [5, 0, n] => Action::Name(Contract::Trumps(n)),
            [5, 1, 0] => Action::Name(Contract::Doubles),
            [5, 2, 0] => Action::Name(Contract::FollowMe),
            [5, 3, 0] => Action::Name(Contract::Nello),
            [5, 4, 0] => Action::Name(Contract::Sevens),
            [6, index, 0] => Action::Discard(tile(index)?),
            [7, index, 0] => Action::Trick(tile(index)?),
            _ => return None,
        };
        (action.trick_bytes() == Some(bytes)).then_some(action)
    }
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
            Action::Bid(bid) => write!(f, "seat {} bids {bid}", self.seat),
            Action::Name(contract) => write!(f, "seat {} names {contract}", self.seat),
            Action::Discard(tile) => write!(f, "seat {} lays {tile} away", self.seat),
            Action::Trick(tile) => write!(f, "seat {} plays {tile} to the trick", self.seat),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_stays_four_bytes_with_the_trick_games_moves() {
        // The trick games' moves fit beside a placement's tile and place:
        // the hot paths copy and compare moves by the million.
        assert_eq!(size_of::<Action>(), 3);
        assert_eq!(size_of::<Move>(), 4);
    }

    #[test]
    fn trick_moves_read_back_from_their_bytes_and_nothing_else_does() {
        let mut moves = vec![
            Action::Bid(Bid::Moon),
            Action::Name(Contract::Doubles),
            Action::Name(Contract::FollowMe),
            Action::Name(Contract::Nello),
            Action::Name(Contract::Sevens),
            Action::Discard(Tile::new(6, 4)),
            Action::Trick(Tile::new(0, 0)),
        ];
        for n in [1, 4, 30, 41] {
            moves.extend([
                Action::Bid(Bid::Points(n)),
                Action::Bid(Bid::Marks(n)),
                Action::Bid(Bid::Plunge(n)),
                Action::Bid(Bid::Splash(n)),
                Action::Bid(Bid::Tricks(n)),
            ]);
        }
        moves.extend((0..=6).map(|n| Action::Name(Contract::Trumps(n))));
        let mut all_bytes = std::collections::HashSet::new();
        for action in moves {
            let bytes = action.trick_bytes().expect("a trick game's move");
            assert!(all_bytes.insert(bytes), "{action:?}: bytes of their own");
            assert_eq!(Action::from_trick_bytes(bytes), Some(action));
        }
        for placing in [Action::Draw, Action::Pass, Action::EndTurn] {
            assert_eq!(placing.trick_bytes(), None);
        }
        for bytes in [
            [0, 0, 0],
            [4, 6, 0],
            [4, 5, 1],
            [5, 1, 3],
            [6, 200, 0],
            [7, 3, 1],
            [8, 0, 0],
        ] {
            assert_eq!(Action::from_trick_bytes(bytes), None, "{bytes:?}");
        }
    }
}
