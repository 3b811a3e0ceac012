//! Suits, following and winning a trick (docs/rules.md#texas42, "Suits, following
//! and winning a trick", and §9): the one place that says which suit a
//! tile leads, whether a tile follows it, how tiles rank within a suit and
//! which tile takes a trick. Legal moves, the trick's winner, what a seat
//! learns from a failure to follow and the checked constructor all ask
//! here.

use crate::rules::tile::{Tile, TileSet};

use super::contract::{Contract, DoublesRank};

/// The highest pip of the set the trick games are played with.
pub const MAX_PIP: u8 = 6;

/// Pips a tile is measured from under sevens.
const SEVEN: u32 = 7;

/// The double-six set's tiles showing each number.
const SHOWING: [TileSet; MAX_PIP as usize + 1] = {
    let mut showing = [TileSet::EMPTY; MAX_PIP as usize + 1];
    let mut number = 0;
    while number <= MAX_PIP {
        showing[number as usize] = TileSet::showing(number).and(TileSet::full(MAX_PIP));
        number += 1;
    }
    showing
};

/// The double-six set's doubles.
const DOUBLES: TileSet = TileSet::DOUBLES.and(TileSet::full(MAX_PIP));

/// A suit a trick is led in.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Suit {
    /// The trumps (a trump number's tiles, or the doubles under `doubles`).
    Trumps,
    /// The doubles, where they are a suit of their own.
    Doubles,
    /// A number's tiles that are neither trumps nor (as their own suit)
    /// doubles.
    Number(u8),
}

/// The suits of a hand under its contract: which tiles are trumps, what a
/// tile leads, what follows it, and how tiles rank.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Suits {
    /// The contract named.
    contract: Contract,
    /// Where the doubles rank when they are not trumps: high under a trump
    /// number; `follow_me_doubles` under follow-me; `nello_doubles` under
    /// nello.
    doubles: DoublesRank,
}

impl Suits {
    /// The suits under `contract`, the doubles ranking as the options say
    /// for follow-me and for nello.
    #[must_use]
    pub const fn new(
        contract: Contract,
        follow_me_doubles: DoublesRank,
        nello_doubles: DoublesRank,
    ) -> Suits {
        let doubles = match contract {
            Contract::FollowMe => follow_me_doubles,
            Contract::Nello => nello_doubles,
            Contract::Trumps(_) | Contract::Doubles | Contract::Sevens => DoublesRank::High,
        };
        Suits { contract, doubles }
    }

    /// The contract.
    #[must_use]
    pub const fn contract(self) -> Contract {
        self.contract
    }

    /// Whether `tile` is a trump.
    #[must_use]
    pub const fn is_trump(self, tile: Tile) -> bool {
        self.trumps().contains(tile)
    }

    /// The double-six set's trumps.
    const fn trumps(self) -> TileSet {
        match self.contract {
            Contract::Trumps(number) => showing(number),
            Contract::Doubles => DOUBLES,
            Contract::FollowMe | Contract::Nello | Contract::Sevens => TileSet::EMPTY,
        }
    }

    /// The double-six set's tiles in `suit` (as a mask: legal moves ask
    /// on every move of a search).
    const fn mask(self, suit: Suit) -> TileSet {
        let trumps = self.trumps();
        match suit {
            Suit::Trumps => trumps,
            Suit::Doubles => DOUBLES.minus(trumps),
            Suit::Number(number) => {
                let apart = if self.doubles_apart() {
                    DOUBLES
                } else {
                    TileSet::EMPTY
                };
                showing(number).minus(trumps).minus(apart)
            }
        }
    }

    /// Whether the doubles are a suit of their own.
    const fn doubles_apart(self) -> bool {
        matches!(self.doubles, DoublesRank::OwnSuit)
    }

    /// The suit `tile` leads: trumps for a trump, the doubles for a double
    /// where they are their own suit, else its higher end's number. `None`
    /// under sevens, which has no suits.
    #[must_use]
    pub const fn led_by(self, tile: Tile) -> Option<Suit> {
        if matches!(self.contract, Contract::Sevens) {
            None
        } else if self.is_trump(tile) {
            Some(Suit::Trumps)
        } else if tile.is_double() && self.doubles_apart() {
            Some(Suit::Doubles)
        } else {
            Some(Suit::Number(tile.high()))
        }
    }

    /// Whether `tile` belongs to `suit` (either end counts for a number).
    #[must_use]
    pub const fn belongs(self, tile: Tile, suit: Suit) -> bool {
        self.mask(suit).contains(tile)
    }

    /// The rank of `tile` within `suit`, higher winning; `None` when it
    /// does not belong to it. Trumps under a number: the double, then by
    /// the other end; doubles (as trumps or a suit): by their number; a
    /// number's suit: by the other end, the double above them all (high)
    /// or below them all (low).
    #[must_use]
    pub const fn rank(self, tile: Tile, suit: Suit) -> Option<u8> {
        if !self.belongs(tile, suit) {
            return None;
        }
        Some(match suit {
            Suit::Trumps => match self.contract {
                Contract::Trumps(number) => by_other_end(tile, number, DoublesRank::High),
                _ => tile.high() + 1,
            },
            Suit::Doubles => tile.high() + 1,
            Suit::Number(number) => by_other_end(tile, number, self.doubles),
        })
    }

    /// The tiles of `tiles` that belong to `suit`.
    #[must_use]
    pub const fn of_suit(self, tiles: TileSet, suit: Suit) -> TileSet {
        tiles.and(self.mask(suit))
    }

    /// Every tile of the double-six set in `suit`: what a seat that does
    /// not follow it shows it holds none of.
    #[must_use]
    pub const fn suit_tiles(self, suit: Suit) -> TileSet {
        self.mask(suit)
    }

    /// The tiles of `hand` its seat may play to a trick that `lead` began
    /// (`None`: the seat leads). Under sevens, the tiles nearest 7 pips;
    /// otherwise any tile to lead, and to follow, the tiles of the led
    /// suit if the hand holds any, else any tile.
    #[must_use]
    pub fn playable(self, hand: TileSet, lead: Option<Tile>) -> TileSet {
        if matches!(self.contract, Contract::Sevens) {
            let Some(nearest) = hand.iter().map(from_seven).min() else {
                return TileSet::EMPTY;
            };
            return hand
                .iter()
                .filter(|&tile| from_seven(tile) == nearest)
                .collect();
        }
        let Some(suit) = lead.and_then(|lead| self.led_by(lead)) else {
            return hand;
        };
        let following = self.of_suit(hand, suit);
        if following.is_empty() {
            hand
        } else {
            following
        }
    }

    /// Which of `played` (a trick's tiles in the order played, the lead
    /// first) takes the trick, by its place in `played`: the highest trump;
    /// with none, the highest tile of the led suit; under sevens, the tile
    /// nearest 7 pips, the first played of those equally near. `None` for
    /// no tiles.
    #[must_use]
    pub fn winner(self, played: &[Tile]) -> Option<usize> {
        let &lead = played.first()?;
        let Some(led) = self.led_by(lead) else {
            // Sevens: the nearest (`min_by_key` keeps the first of equals).
            return played
                .iter()
                .enumerate()
                .min_by_key(|&(_, &tile)| from_seven(tile))
                .map(|(i, _)| i);
        };
        let highest = |suit: Suit| {
            played
                .iter()
                .enumerate()
                .filter_map(|(i, &tile)| self.rank(tile, suit).map(|rank| (rank, i)))
                .max()
                .map(|(_, i)| i)
        };
        highest(Suit::Trumps).or_else(|| highest(led))
    }
}

/// The double-six set's tiles showing `number` (none past 6).
const fn showing(number: u8) -> TileSet {
    if number > MAX_PIP {
        TileSet::EMPTY
    } else {
        SHOWING[number as usize]
    }
}

/// A tile's rank in `number`'s suit (trumps or not): by its other end, 1
/// to 7, and the double 8 (high) or 0 (low, or its own suit, where it is
/// never asked).
const fn by_other_end(tile: Tile, number: u8, doubles: DoublesRank) -> u8 {
    if tile.is_double() {
        match doubles {
            DoublesRank::High => MAX_PIP + 2,
            DoublesRank::Low | DoublesRank::OwnSuit => 0,
        }
    } else {
        tile.other_half(number) + 1
    }
}

/// How far a tile's pips are from 7 (sevens).
pub(super) const fn from_seven(tile: Tile) -> u32 {
    tile.pips().abs_diff(SEVEN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(a: u8, b: u8) -> Tile {
        Tile::new(a, b)
    }

    fn set(tiles: &[(u8, u8)]) -> TileSet {
        tiles.iter().map(|&(a, b)| t(a, b)).collect()
    }

    fn trumps(number: u8) -> Suits {
        Suits::new(
            Contract::Trumps(number),
            DoublesRank::High,
            DoublesRank::OwnSuit,
        )
    }

    #[test]
    fn w1_a_trick_won_by_trump() {
        let suits = trumps(4);
        let lead = t(6, 5);
        assert_eq!(suits.led_by(lead), Some(Suit::Number(6)));
        // Seat 3 holds 6-4 and 6-0: 6-4 is a trump, not a six.
        let seat3 = set(&[(6, 4), (6, 0), (3, 1)]);
        assert_eq!(suits.playable(seat3, Some(lead)), set(&[(6, 0)]));
        // The lowest trump beats the double-six.
        let played = [lead, t(4, 0), t(6, 6), t(6, 0)];
        assert_eq!(suits.winner(&played), Some(1));
    }

    #[test]
    fn w2_following_with_a_double_under_fives() {
        let suits = trumps(5);
        let lead = t(2, 0);
        assert_eq!(suits.led_by(lead), Some(Suit::Number(2)));
        let seat1 = set(&[(5, 2), (2, 2), (6, 6), (4, 3)]);
        assert_eq!(suits.playable(seat1, Some(lead)), set(&[(2, 2)]));
        let played = [lead, t(2, 2), t(4, 2), t(5, 0)];
        assert_eq!(suits.winner(&played), Some(3));
        // Without the trump the double-two (high) takes it.
        assert_eq!(suits.winner(&played[..3]), Some(1));
    }

    #[test]
    fn w8_follow_me_with_a_double_led() {
        let suits = Suits::new(Contract::FollowMe, DoublesRank::High, DoublesRank::OwnSuit);
        // 4-4 leads fours and cannot be beaten.
        let played = [t(4, 4), t(6, 4), t(4, 3), t(6, 6)];
        assert_eq!(suits.winner(&played), Some(0));
        // On a 4-0 lead, 6-4 (a four) beats it; 6-6 is not a four.
        let played = [t(4, 0), t(6, 4), t(6, 6), t(1, 0)];
        assert_eq!(suits.winner(&played), Some(1));
        // Doubles low: the double is the lowest of its suit.
        let low = Suits::new(Contract::FollowMe, DoublesRank::Low, DoublesRank::OwnSuit);
        assert_eq!(low.winner(&[t(4, 4), t(4, 0)]), Some(1));
        // Doubles as their own suit: a double leads the doubles, and only
        // doubles follow it; 6-4 is a six-four, not a double.
        let apart = Suits::new(
            Contract::FollowMe,
            DoublesRank::OwnSuit,
            DoublesRank::OwnSuit,
        );
        assert_eq!(apart.led_by(t(4, 4)), Some(Suit::Doubles));
        let hand = set(&[(6, 4), (1, 1), (4, 0)]);
        assert_eq!(apart.playable(hand, Some(t(4, 4))), set(&[(1, 1)]));
        assert_eq!(apart.playable(hand, Some(t(4, 3))), set(&[(6, 4), (4, 0)]));
        assert_eq!(apart.winner(&[t(4, 4), t(1, 1), t(6, 6)]), Some(2));
    }

    #[test]
    fn w9_doubles_trump() {
        let suits = Suits::new(Contract::Doubles, DoublesRank::High, DoublesRank::OwnSuit);
        assert_eq!(suits.led_by(t(6, 5)), Some(Suit::Number(6)));
        assert_eq!(suits.led_by(t(2, 2)), Some(Suit::Trumps));
        // 6-6 is a trump, not a six: a seat with no other six may trump.
        let hand = set(&[(6, 6), (0, 0), (3, 2)]);
        assert_eq!(suits.playable(hand, Some(t(6, 5))), hand);
        // 0-0 is the lowest trump, and still takes the trick.
        assert_eq!(suits.winner(&[t(6, 5), t(6, 4), t(0, 0), t(6, 1)]), Some(2));
        assert_eq!(suits.winner(&[t(6, 5), t(6, 6), t(0, 0)]), Some(1));
    }

    #[test]
    fn w11_sevens() {
        let suits = Suits::new(Contract::Sevens, DoublesRank::High, DoublesRank::OwnSuit);
        let hand = set(&[(6, 5), (6, 1), (6, 2), (0, 0), (1, 1), (2, 2), (3, 3)]);
        assert_eq!(suits.playable(hand, None), set(&[(6, 1)]));
        assert_eq!(suits.playable(hand, Some(t(5, 2))), set(&[(6, 1)]));
        // 7, 5, 7, 7 pips: the first 7 wins.
        assert_eq!(suits.winner(&[t(6, 1), t(3, 2), t(4, 3), t(5, 2)]), Some(0));
        assert_eq!(suits.winner(&[t(3, 2), t(6, 0), t(4, 3)]), Some(2));
    }

    #[test]
    fn nello_doubles_are_their_own_suit_by_default_and_0_0_the_lowest() {
        let suits = Suits::new(Contract::Nello, DoublesRank::High, DoublesRank::OwnSuit);
        assert!(!suits.is_trump(t(6, 6)));
        assert_eq!(suits.winner(&[t(0, 0), t(1, 1), t(3, 3)]), Some(2));
        // A double led with no other double in play wins its trick (W6).
        assert_eq!(suits.winner(&[t(0, 0), t(0, 1), t(6, 0)]), Some(0));
    }

    #[test]
    fn a_trump_led_is_followed_only_by_trumps_and_ranks_by_the_other_end() {
        let suits = trumps(4);
        assert_eq!(suits.led_by(t(4, 1)), Some(Suit::Trumps));
        let hand = set(&[(6, 1), (4, 0), (4, 4)]);
        assert_eq!(suits.playable(hand, Some(t(4, 1))), set(&[(4, 0), (4, 4)]));
        // 4-4, then 6-4, 5-4, 3-4, 2-4, 1-4, 0-4.
        let order = [(4, 4), (6, 4), (5, 4), (4, 3), (4, 2), (4, 1), (4, 0)];
        let ranks: Vec<_> = order
            .iter()
            .map(|&(a, b)| suits.rank(t(a, b), Suit::Trumps))
            .collect();
        assert!(ranks.windows(2).all(|w| w[0] > w[1]), "{ranks:?}");
        // A six is never a trump-four's suit: 6-4 is not a six.
        assert_eq!(suits.rank(t(6, 4), Suit::Number(6)), None);
        assert_eq!(
            suits.suit_tiles(Suit::Number(6)),
            set(&[(6, 6), (6, 5), (6, 3), (6, 2), (6, 1), (6, 0)])
        );
    }

    #[test]
    fn each_tile_belongs_to_the_suit_it_leads_and_a_trick_always_has_a_winner() {
        let contracts = (0..=MAX_PIP).map(Contract::Trumps).chain([
            Contract::Doubles,
            Contract::FollowMe,
            Contract::Nello,
        ]);
        for contract in contracts {
            for doubles in [DoublesRank::High, DoublesRank::Low, DoublesRank::OwnSuit] {
                let suits = Suits::new(contract, doubles, doubles);
                for tile in TileSet::full(MAX_PIP).iter() {
                    let suit = suits.led_by(tile).expect("a suit");
                    assert!(suits.belongs(tile, suit), "{contract} {tile:?}");
                    // Whoever leads, the lead takes a trick of one tile.
                    assert_eq!(suits.winner(&[tile]), Some(0));
                }
            }
        }
    }
}
