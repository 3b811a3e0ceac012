//! The auction of a trick hand (docs/rules.md#texas42 and #moon): one round from the
//! shaker's left, each seat once, a pass or a bid above the standing one;
//! which bids are open to a seat, and who wins. Texas 42 bids points
//! (30–41) and marks, with plunge and splash where their options are on;
//! Moon bids tricks (4–7) or the moon (21), which ends the auction at once.

use arrayvec::ArrayVec;

use std::fmt;

use crate::rules::moves::Seat;

use super::hand::MAX_SEATS;

/// Points every hand of Texas 42 holds: a 1-mark bid is all of them.
pub const HAND_POINTS: u8 = 42;

/// The lowest and highest point bids.
const POINT_BIDS: std::ops::RangeInclusive<u8> = 30..=41;

/// The lowest and highest tricks bid at Moon, and the moon's worth.
const TRICK_BIDS: std::ops::RangeInclusive<u8> = 4..=7;

/// What the moon bid is worth (all seven tricks).
pub const MOON_POINTS: u8 = 21;

/// Doubles a hand must hold to plunge, and to splash.
const PLUNGE_DOUBLES: u32 = 4;
const SPLASH_DOUBLES: u32 = 3;

/// The most a splash may be worth.
const SPLASH_MOST: u8 = 3;

/// A bid.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Bid {
    /// Texas 42: this many points (30–41).
    Points(u8),
    /// Texas 42: this many marks (1 mark is the "42" bid).
    Marks(u8),
    /// Texas 42: a plunge worth this many marks (4 doubles or more).
    Plunge(u8),
    /// Texas 42: a splash worth this many marks (3 doubles or more).
    Splash(u8),
    /// Moon: this many tricks (4–7).
    Tricks(u8),
    /// Moon: shooting the moon, all seven tricks for 21.
    Moon,
}

impl Bid {
    /// The marks it is worth (0 for a point bid or a Moon bid).
    #[must_use]
    pub const fn marks(self) -> u8 {
        match self {
            Bid::Marks(marks) | Bid::Plunge(marks) | Bid::Splash(marks) => marks,
            Bid::Points(_) | Bid::Tricks(_) | Bid::Moon => 0,
        }
    }

    /// How high it stands, to compare bids: points, or 42 a mark; tricks,
    /// or 21 for the moon.
    #[must_use]
    pub const fn height(self) -> u32 {
        match self {
            Bid::Points(points) | Bid::Tricks(points) => points as u32,
            Bid::Marks(marks) | Bid::Plunge(marks) | Bid::Splash(marks) => {
                marks as u32 * HAND_POINTS as u32
            }
            Bid::Moon => MOON_POINTS as u32,
        }
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bid::Points(points) => write!(f, "{points}"),
            Bid::Marks(marks) => write!(f, "{marks} mark{}", if *marks == 1 { "" } else { "s" }),
            Bid::Plunge(marks) => write!(f, "plunge ({marks} marks)"),
            Bid::Splash(marks) => write!(f, "splash ({marks} marks)"),
            Bid::Tricks(tricks) => write!(f, "{tricks} tricks"),
            Bid::Moon => f.write_str("the moon"),
        }
    }
}

/// Which game's bids.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Bidding {
    /// Texas 42: points and marks, plunge and splash where on.
    Texas42 {
        /// Whether a seat with 4 doubles or more may plunge.
        plunge: bool,
        /// Whether a seat with 3 doubles or more may splash.
        splash: bool,
    },
    /// Moon: tricks, or the moon.
    Moon,
}

/// When every seat passes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum AllPass {
    /// The hand scores nothing and the next shaker deals anew.
    #[default]
    Reshake,
    /// The shaker, last to speak after the others passed, must bid.
    DealerMustBid,
}

/// How an auction stands.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Auction {
    /// The bids.
    bidding: Bidding,
    /// When every seat passes.
    all_pass: AllPass,
    /// Seats at the table.
    players: Seat,
    /// The seat that speaks first (the shaker's left).
    first: Seat,
    /// What each seat said, in turn (`None`: a pass); a seat speaks once
    /// (inline: a copy of the hand allocates nothing).
    said: ArrayVec<Option<Bid>, MAX_SEATS>,
    /// The standing bid and its bidder.
    standing: Option<(Seat, Bid)>,
}

/// How an auction ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AuctionEnd {
    /// `seat` won it with `bid`.
    Won {
        /// The winner.
        seat: Seat,
        /// The winning bid.
        bid: Bid,
    },
    /// Every seat passed: the hand is shaken anew.
    AllPassed,
}

/// Why a bid is refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum BidError {
    /// The auction is over.
    #[error("the auction is over")]
    Over,
    /// Another seat is to speak.
    #[error("seat {to_speak} speaks now, not seat {seat}")]
    NotYourTurn {
        /// The seat that tried.
        seat: Seat,
        /// The seat to speak.
        to_speak: Seat,
    },
    /// The bid is not open to the seat: not above the standing one, not a
    /// bid of this game, or a plunge or splash without the doubles.
    #[error("{bid} is not open to this seat now")]
    NotOpen {
        /// The bid refused.
        bid: Bid,
    },
    /// The shaker may not pass after every other seat has.
    #[error("the shaker must bid when every other seat has passed")]
    MustBid,
}

impl Auction {
    /// An auction among `players` seats, `first` speaking first.
    #[must_use]
    pub fn new(bidding: Bidding, all_pass: AllPass, players: Seat, first: Seat) -> Auction {
        Auction {
            bidding,
            all_pass,
            players,
            first: first % players.max(1),
            said: ArrayVec::new(),
            standing: None,
        }
    }

    /// The standing bid and its bidder.
    #[must_use]
    pub const fn standing(&self) -> Option<(Seat, Bid)> {
        self.standing
    }

    /// What each seat said, in turn from the first (`None`: a pass).
    #[must_use]
    pub fn said(&self) -> &[Option<Bid>] {
        &self.said
    }

    /// The seat to speak; `None` once the auction is over.
    #[must_use]
    pub fn to_speak(&self) -> Option<Seat> {
        if self.end().is_some() {
            return None;
        }
        let spoken = u8::try_from(self.said.len()).ok()?;
        // (The first seat and the calls made are each below the seats: a
        // subtraction, not `%`, which is slow.)
        let seat = self.first + spoken;
        Some(if seat >= self.players {
            seat - self.players
        } else {
            seat
        })
    }

    /// How it ended; `None` while it runs.
    #[must_use]
    pub fn end(&self) -> Option<AuctionEnd> {
        let won = self
            .standing
            .map(|(seat, bid)| AuctionEnd::Won { seat, bid });
        if matches!(self.standing, Some((_, Bid::Moon))) {
            return won;
        }
        (self.said.len() >= usize::from(self.players)).then(|| won.unwrap_or(AuctionEnd::AllPassed))
    }

    /// Whether the seat to speak may pass: not the shaker after every
    /// other seat passed, where the shaker must bid.
    #[must_use]
    pub fn may_pass(&self) -> bool {
        let last = self.said.len() + 1 == usize::from(self.players);
        !(last && self.standing.is_none() && self.all_pass == AllPass::DealerMustBid)
    }

    /// The bids open to the seat to speak, which holds `doubles` doubles,
    /// lowest first (passing aside: [`Auction::may_pass`]).
    #[must_use]
    pub fn open_bids(&self, doubles: u32) -> Vec<Bid> {
        let mut open = Vec::new();
        self.each_open_bid(doubles, |bid| open.push(bid));
        open
    }

    /// Whether `bid` is open to the seat to speak, which holds `doubles`
    /// doubles.
    #[must_use]
    pub fn is_open(&self, bid: Bid, doubles: u32) -> bool {
        let mut open = false;
        self.each_open_bid(doubles, |each| open |= each == bid);
        open
    }

    /// Calls `each` with every bid open to the seat to speak, which holds
    /// `doubles` doubles, lowest first (without allocating: legal moves
    /// are worked out on every move of a search).
    pub fn each_open_bid(&self, doubles: u32, mut each: impl FnMut(Bid)) {
        if self.to_speak().is_none() {
            return;
        }
        let standing = self.standing.map(|(_, bid)| bid);
        match self.bidding {
            Bidding::Texas42 { plunge, splash } => {
                let marks = standing.map_or(0, Bid::marks);
                if marks == 0 {
                    let above = standing.map_or(0, Bid::height);
                    POINT_BIDS
                        .filter(|&points| u32::from(points) > above)
                        .for_each(|points| each(Bid::Points(points)));
                }
                // 1 or 2 marks while no marks bid stands; 2 over 1; then
                // one more at a time.
                match marks {
                    0 => {
                        each(Bid::Marks(1));
                        each(Bid::Marks(2));
                    }
                    1 => each(Bid::Marks(2)),
                    _ => each(Bid::Marks(marks.saturating_add(1))),
                }
                let jump = marks.saturating_add(1);
                if splash && doubles >= SPLASH_DOUBLES && jump.max(2) <= SPLASH_MOST {
                    each(Bid::Splash(jump.max(2)));
                }
                if plunge && doubles >= PLUNGE_DOUBLES {
                    each(Bid::Plunge(jump.max(4)));
                }
            }
            Bidding::Moon => {
                let above = standing.map_or(0, Bid::height);
                TRICK_BIDS
                    .filter(|&tricks| u32::from(tricks) > above)
                    .for_each(|tricks| each(Bid::Tricks(tricks)));
                each(Bid::Moon);
            }
        }
    }

    /// `seat`, holding `doubles` doubles, says `bid` (`None`: passes).
    ///
    /// # Errors
    /// The auction over, another seat to speak, a bid not open to it, or a
    /// pass where the shaker must bid.
    pub fn speak(&mut self, seat: Seat, bid: Option<Bid>, doubles: u32) -> Result<(), BidError> {
        self.check(seat, bid, doubles)?;
        self.speak_unchecked(seat, bid);
        Ok(())
    }

    /// [`Auction::speak`] for a call known to be open to `seat`, the seat
    /// to speak (unchecked: a search makes many).
    pub fn speak_unchecked(&mut self, seat: Seat, bid: Option<Bid>) {
        if let Some(bid) = bid {
            self.standing = Some((seat, bid));
        }
        // (Each seat speaks once, so there is room: the auction ends
        // after the last seat.)
        let _ = self.said.try_push(bid);
    }

    /// Whether `seat`, holding `doubles` doubles, may say `bid` (`None`:
    /// pass) now.
    ///
    /// # Errors
    /// As [`Auction::speak`].
    pub fn check(&self, seat: Seat, bid: Option<Bid>, doubles: u32) -> Result<(), BidError> {
        let to_speak = self.to_speak().ok_or(BidError::Over)?;
        if seat != to_speak {
            return Err(BidError::NotYourTurn { seat, to_speak });
        }
        match bid {
            None if !self.may_pass() => Err(BidError::MustBid),
            Some(bid) if !self.is_open(bid, doubles) => Err(BidError::NotOpen { bid }),
            None | Some(_) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texas(plunge: bool, splash: bool) -> Auction {
        Auction::new(Bidding::Texas42 { plunge, splash }, AllPass::Reshake, 4, 1)
    }

    #[test]
    fn w5_a_2_mark_auction() {
        let mut auction = texas(false, false);
        assert_eq!(auction.to_speak(), Some(1));
        auction.speak(1, Some(Bid::Points(30)), 0).expect("30");
        // 2 marks may be bid while 2 marks have not been.
        assert!(auction.open_bids(0).contains(&Bid::Marks(2)));
        auction.speak(2, Some(Bid::Marks(2)), 0).expect("2 marks");
        // Now only 3 marks (no point bid, no 2 marks again).
        assert_eq!(auction.open_bids(0), vec![Bid::Marks(3)]);
        assert_eq!(
            auction.speak(3, Some(Bid::Points(41)), 0),
            Err(BidError::NotOpen {
                bid: Bid::Points(41)
            })
        );
        auction.speak(3, Some(Bid::Marks(3)), 0).expect("3 marks");
        assert_eq!(auction.open_bids(0), vec![Bid::Marks(4)]);
        auction.speak(0, None, 0).expect("the shaker passes");
        assert_eq!(
            auction.end(),
            Some(AuctionEnd::Won {
                seat: 3,
                bid: Bid::Marks(3)
            })
        );
        assert_eq!(auction.to_speak(), None);
        assert_eq!(auction.speak(1, None, 0), Err(BidError::Over));
    }

    #[test]
    fn point_bids_climb_and_end_once_marks_are_bid() {
        let mut auction = texas(false, false);
        let open = auction.open_bids(0);
        assert_eq!(open.first(), Some(&Bid::Points(30)));
        assert!(open.contains(&Bid::Points(41)) && !open.contains(&Bid::Points(42)));
        assert!(open.contains(&Bid::Marks(1)) && open.contains(&Bid::Marks(2)));
        auction.speak(1, Some(Bid::Points(35)), 0).expect("35");
        assert_eq!(
            auction.speak(2, Some(Bid::Points(35)), 0),
            Err(BidError::NotOpen {
                bid: Bid::Points(35)
            })
        );
        assert_eq!(
            auction.speak(3, None, 0),
            Err(BidError::NotYourTurn {
                seat: 3,
                to_speak: 2
            })
        );
        auction.speak(2, Some(Bid::Marks(1)), 0).expect("1 mark");
        // Over 1 mark: 2 marks only.
        assert_eq!(auction.open_bids(0), vec![Bid::Marks(2)]);
    }

    #[test]
    fn w10_plunge_and_splash() {
        // With nothing over 3 marks standing a plunge is worth 4.
        let auction = texas(true, true);
        assert!(auction.open_bids(4).contains(&Bid::Plunge(4)));
        assert!(
            !auction
                .open_bids(3)
                .iter()
                .any(|b| matches!(b, Bid::Plunge(_)))
        );
        // Over a point bid or 1 mark a splash is worth 2.
        assert!(auction.open_bids(3).contains(&Bid::Splash(2)));
        let mut auction = texas(true, true);
        auction.speak(1, Some(Bid::Marks(2)), 0).expect("2 marks");
        auction.speak(2, Some(Bid::Marks(3)), 0).expect("3 marks");
        assert!(auction.open_bids(4).contains(&Bid::Plunge(4)));
        // A splash over 3 marks would be worth 4: more than a splash may.
        assert!(
            !auction
                .open_bids(4)
                .iter()
                .any(|b| matches!(b, Bid::Splash(_)))
        );
        auction.speak(3, Some(Bid::Marks(4)), 0).expect("4 marks");
        // Over 2, 3 and 4 marks a plunge is worth 5.
        assert!(auction.open_bids(5).contains(&Bid::Plunge(5)));
        auction.speak(0, Some(Bid::Plunge(5)), 5).expect("plunge");
        assert_eq!(
            auction.end(),
            Some(AuctionEnd::Won {
                seat: 0,
                bid: Bid::Plunge(5)
            })
        );
        // Off by default.
        assert!(
            !texas(false, false)
                .open_bids(7)
                .iter()
                .any(|b| matches!(b, Bid::Plunge(_) | Bid::Splash(_)))
        );
    }

    #[test]
    fn all_pass_reshakes_or_makes_the_shaker_bid() {
        let mut auction = texas(false, false);
        for seat in [1, 2, 3, 0] {
            auction.speak(seat, None, 0).expect("a pass");
        }
        assert_eq!(auction.end(), Some(AuctionEnd::AllPassed));
        let mut auction = Auction::new(
            Bidding::Texas42 {
                plunge: false,
                splash: false,
            },
            AllPass::DealerMustBid,
            4,
            1,
        );
        for seat in [1, 2, 3] {
            auction.speak(seat, None, 0).expect("a pass");
        }
        assert!(!auction.may_pass());
        assert_eq!(auction.speak(0, None, 0), Err(BidError::MustBid));
        assert_eq!(auction.open_bids(0).first(), Some(&Bid::Points(30)));
        auction
            .speak(0, Some(Bid::Points(30)), 0)
            .expect("the forced 30");
        assert_eq!(
            auction.end(),
            Some(AuctionEnd::Won {
                seat: 0,
                bid: Bid::Points(30)
            })
        );
    }

    #[test]
    fn moon_bids_tricks_and_the_moon_ends_the_auction_at_once() {
        let mut auction = Auction::new(Bidding::Moon, AllPass::Reshake, 3, 2);
        assert_eq!(
            auction.open_bids(0),
            vec![
                Bid::Tricks(4),
                Bid::Tricks(5),
                Bid::Tricks(6),
                Bid::Tricks(7),
                Bid::Moon
            ]
        );
        auction.speak(2, Some(Bid::Tricks(5)), 0).expect("5");
        assert_eq!(
            auction.open_bids(0),
            vec![Bid::Tricks(6), Bid::Tricks(7), Bid::Moon]
        );
        auction.speak(0, Some(Bid::Moon), 0).expect("the moon");
        // Seat 1 never speaks.
        assert_eq!(auction.to_speak(), None);
        assert_eq!(
            auction.end(),
            Some(AuctionEnd::Won {
                seat: 0,
                bid: Bid::Moon
            })
        );
    }
}
