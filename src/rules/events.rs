//! What happens while a move is applied, and how a hand or match ends.

use super::layout::Layout;
use super::moves::Seat;
use super::place::Place;
use super::table::Table;
use super::tile::{Tile, TileSet};
use super::trains::TrainId;
use super::tricks::auction::Bid;
use super::tricks::contract::Contract;
use super::tricks::settle::{Taken, Verdict};

/// A side number (a seat, or a partnership).
pub type Side = u8;

/// How a match ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// `Side` won.
    Winner(Side),
    /// Nobody won.
    Draw,
}

/// Why points were scored.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ScoreReason {
    /// The ends total after a tile was placed.
    Ends,
    /// Going out.
    Domino,
    /// Closing the layout.
    Closed,
    /// Winning a blocked hand.
    Blocked,
    /// A seat's own pips added as a penalty (lowest score is best).
    Penalty,
    /// A seat's own rounded pips taken off its side.
    OwnPips,
    /// Going out with a capicúa (`capicua_bonus`).
    Capicua,
    /// A pase corrido: every other seat passed after the seat's tile
    /// (`pass_bonus`).
    PassBonus,
    /// A Texas 42 hand's marks: the bid's, to the bidders when made, to
    /// the others when set.
    Marks,
    /// A points game's hand: the points a side took (and the bid, to the
    /// others when set).
    HandPoints,
    /// A Moon hand: the tricks a player took, or the bid lost.
    Tricks,
}

/// How a hand ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum HandEnd {
    /// `Seat` placed its last tile.
    Domino(Seat),
    /// `Seat` closed the layout: its tile matched both open ends.
    Closed(Seat),
    /// Nobody could place a tile or draw.
    Blocked,
    /// A trick game's bidder (`Seat`) made the bid.
    Made(Seat),
    /// A trick game's bidder (`Seat`) was set.
    Set(Seat),
    /// Every seat of a trick game passed: the hand is shaken anew.
    AllPassed,
}

impl HandEnd {
    /// The seat that ended the hand by going out or closing.
    #[must_use]
    pub const fn seat(self) -> Option<Seat> {
        match self {
            HandEnd::Domino(seat) | HandEnd::Closed(seat) => Some(seat),
            HandEnd::Blocked | HandEnd::Made(_) | HandEnd::Set(_) | HandEnd::AllPassed => None,
        }
    }
}

/// One thing that happened, in order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Event {
    /// A tile was placed; `ends_total` is the count after it.
    TilePlayed {
        /// Who placed it.
        seat: Seat,
        /// The tile.
        tile: Tile,
        /// Where, as the move named it.
        place: Place,
        /// The ends total after it.
        ends_total: u32,
        /// At a chicken foot, the arm a new arm's tile started (its number
        /// among the arms); `None` elsewhere.
        started_arm: Option<u8>,
    },
    /// A tile was drawn.
    TileDrawn {
        /// Who drew.
        seat: Seat,
        /// What was drawn; `None` in another seat's view (see
        /// [`Event::seen_by`]).
        tile: Option<Tile>,
    },
    /// A seat passed.
    Passed {
        /// Who passed.
        seat: Seat,
    },
    /// Points were added to a side.
    PointsScored {
        /// The side credited.
        side: Side,
        /// The seat that earned them, if one seat did.
        seat: Option<Seat>,
        /// How many (negative when taken off).
        points: i32,
        /// Why.
        reason: ScoreReason,
    },
    /// Points were earned but are void: they would pass an exact target.
    PointsVoided {
        /// The side that would have scored.
        side: Side,
        /// The seat that earned them, if one seat did.
        seat: Option<Seat>,
        /// How many.
        points: i32,
        /// Why they were earned.
        reason: ScoreReason,
    },
    /// The hand ended.
    HandEnded {
        /// Which hand.
        hand: u32,
        /// How.
        end: HandEnd,
        /// The side that won it, if any.
        winner: Option<Side>,
        /// The seat that placed the hand's last tile, if one did (for a
        /// blocked hand: who "made the fish").
        last_placer: Option<Seat>,
        /// Pips left per seat.
        pips: Vec<u32>,
        /// Settlement per side.
        settlement: Vec<i32>,
        /// The line as the hand finished, at a line game; `None` at a
        /// table of another family, which `table` holds (boxed: the other
        /// events stay small).
        layout: Option<Box<Layout>>,
        /// The table as the round finished, at a game not played on a
        /// line (trains or a chicken foot).
        table: Option<Box<Table>>,
        /// The tiles each seat held as the hand finished (public now: they
        /// are turned face up).
        hands: Vec<TileSet>,
    },
    /// A new hand was dealt.
    HandDealt {
        /// Its number.
        hand: u32,
        /// Who leads it.
        leader: Seat,
        /// The tile that must lead, if forced.
        required_lead: Option<Tile>,
    },
    /// The match ended.
    MatchEnded {
        /// How.
        outcome: Outcome,
        /// Final scores per side.
        scores: Vec<i32>,
        /// Every side, best first (equal scores in side order).
        ranking: Vec<Side>,
    },
    /// A seat's marker went up on its train (it passed).
    MarkerRaised {
        /// The seat.
        seat: Seat,
    },
    /// A seat's marker came down (it placed on its own train).
    MarkerLowered {
        /// The seat.
        seat: Seat,
    },
    /// A tile covered the unsatisfied double.
    DoubleSatisfied {
        /// Whose tile covered it.
        seat: Seat,
        /// The train the double lies on.
        train: TrainId,
        /// The double.
        double: Tile,
    },
    /// A chicken foot's third toe was placed.
    FootCompleted {
        /// Whose tile it was.
        seat: Seat,
        /// The arm that ends in the completed foot.
        arm: u8,
    },
    /// A seat ended its opening chain.
    TurnEnded {
        /// The seat.
        seat: Seat,
    },
    /// A trick game's bid (a pass is [`Event::Passed`]).
    BidMade {
        /// Who bid.
        seat: Seat,
        /// The bid.
        bid: Bid,
    },
    /// The auction is won.
    AuctionWon {
        /// The bidder.
        seat: Seat,
        /// The winning bid.
        bid: Bid,
        /// Who names the contract and leads (the bidder, or his partner
        /// after a plunge or splash).
        declarer: Seat,
    },
    /// The declarer named the contract.
    ContractNamed {
        /// The declarer.
        seat: Seat,
        /// The contract.
        contract: Contract,
    },
    /// Moon's bidder took the widow into his hand.
    WidowTaken {
        /// The bidder.
        seat: Seat,
        /// The widow; `None` in another seat's view.
        tile: Option<Tile>,
    },
    /// Moon's bidder laid a tile away, out of play.
    Discarded {
        /// The bidder.
        seat: Seat,
        /// The tile; `None` in another seat's view.
        tile: Option<Tile>,
    },
    /// A tile was played to the trick.
    TrickPlayed {
        /// Who played it.
        seat: Seat,
        /// The tile.
        tile: Tile,
    },
    /// A trick was won.
    TrickWon {
        /// The winner, who leads the next trick.
        seat: Seat,
        /// Who led it.
        leader: Seat,
        /// Its tiles, from the leader's.
        tiles: Vec<Tile>,
        /// What it is worth: a point and its count at Texas 42, a trick at
        /// Moon.
        points: u8,
    },
    /// A trick game's hand is decided (play stops here unless every
    /// trick is played).
    HandDecided {
        /// The bidder.
        bidder: Seat,
        /// Made or set.
        verdict: Verdict,
        /// What each side had taken when it was decided.
        taken: Taken,
    },
}

/// Where [`Game::play_unchecked_with`](super::Game::play_unchecked_with)
/// reports events. An event is built only if the sink wants it: `()`
/// discards them unbuilt, so simulations pay nothing for them.
pub trait EventSink {
    /// Records the event `build` makes.
    fn record(&mut self, build: impl FnOnce() -> Event);
}

impl EventSink for Vec<Event> {
    fn record(&mut self, build: impl FnOnce() -> Event) {
        self.push(build());
    }
}

impl EventSink for () {
    fn record(&mut self, _build: impl FnOnce() -> Event) {}
}
