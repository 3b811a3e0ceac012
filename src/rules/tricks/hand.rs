//! One hand of a trick game from its deal to its end (docs/rules.md#texas42, #moon):
//! the auction, the contract named by the declarer, Moon's widow taken
//! and a tile laid away, then the tricks, each led by the last one's
//! winner, until the hand is decided (Texas 42 stops there unless
//! `play_out`) or all seven are played. It holds the hand alone: the deal
//! it starts from and the match it belongs to are the match machinery's
//! (docs/design/families.md, step 4).

use arrayvec::ArrayVec;

use crate::rules::events::{Event, EventSink};
use crate::rules::moves::{Action, Seat};
use crate::rules::tile::{Tile, TileSet};

use super::auction::{AllPass, Auction, AuctionEnd, Bid, BidError, Bidding};
use super::contract::{Contract, DoublesRank};
use super::settle::{TRICKS, Taken, Verdict, verdict};
use super::suit::{MAX_PIP, Suit, Suits};
use super::trick;

/// Seats a trick game may have (4 at Texas 42, 3 at Moon).
pub const MAX_SEATS: usize = 4;

/// The options of a trick hand.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TrickRules {
    /// The bids: Texas 42's (with plunge and splash) or Moon's.
    pub bidding: Bidding,
    /// When every seat passes.
    pub all_pass: AllPass,
    /// Whether all seven tricks are played once the hand is decided.
    pub play_out: bool,
    /// Whether nello may be named after a marks bid.
    pub nello: bool,
    /// Whether sevens may be named after a marks bid.
    pub sevens: bool,
    /// Where the doubles rank under follow-me.
    pub follow_me_doubles: DoublesRank,
    /// Where the doubles rank under nello.
    pub nello_doubles: DoublesRank,
}

impl TrickRules {
    /// Straight 42 (N42PA): no nello, plunge, splash or sevens; reshake
    /// when all pass; play stops when the hand is decided.
    #[must_use]
    pub const fn texas42() -> TrickRules {
        TrickRules {
            bidding: Bidding::Texas42 {
                plunge: false,
                splash: false,
            },
            all_pass: AllPass::Reshake,
            play_out: false,
            nello: false,
            sevens: false,
            follow_me_doubles: DoublesRank::High,
            nello_doubles: DoublesRank::OwnSuit,
        }
    }

    /// Moon: tricks bid, the widow, every trick played.
    #[must_use]
    pub const fn moon() -> TrickRules {
        TrickRules {
            bidding: Bidding::Moon,
            all_pass: AllPass::Reshake,
            play_out: true,
            nello: false,
            sevens: false,
            follow_me_doubles: DoublesRank::High,
            nello_doubles: DoublesRank::OwnSuit,
        }
    }

    /// Whether these are Moon's rules.
    const fn is_moon(self) -> bool {
        matches!(self.bidding, Bidding::Moon)
    }
}

/// Where a hand stands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Stage {
    /// The auction runs.
    Bidding,
    /// The declarer names the contract.
    Naming,
    /// Moon's bidder lays a tile away.
    Discarding,
    /// Tricks are played.
    Playing,
    /// The hand is over: decided, played out, or passed by all.
    Over,
}

/// Why a move is refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum TrickError {
    /// The hand is over.
    #[error("the hand is over")]
    Over,
    /// Another seat acts now.
    #[error("seat {to_act} acts now, not seat {seat}")]
    NotYourTurn {
        /// The seat that tried.
        seat: Seat,
        /// The seat to act.
        to_act: Seat,
    },
    /// A bid or pass the auction refuses.
    #[error(transparent)]
    Bid(#[from] BidError),
    /// A move of another stage of the hand (a bid once the auction is
    /// over, a tile played before the contract is named, ...), or a move
    /// of the placing games.
    #[error("{}", stage.expects())]
    OutOfStage {
        /// Where the hand stands.
        stage: Stage,
        /// The move refused.
        action: Action,
    },
    /// A contract the winning bid does not open (nello and sevens follow
    /// a marks bid where their options are on; Moon has no doubles).
    #[error("{contract} is not open after this bid")]
    ContractNotOpen {
        /// The contract refused.
        contract: Contract,
    },
    /// A tile the seat does not hold.
    #[error("seat {seat} does not hold {tile}")]
    NotHeld {
        /// The seat.
        seat: Seat,
        /// The tile.
        tile: Tile,
        /// Whether it was to be discarded (else played to the trick).
        discard: bool,
    },
    /// A tile that does not follow: the seat holds tiles of the suit led
    /// (under sevens: tiles nearer 7), and must play one of them.
    #[error("{tile} does not follow: play one of {playable:?}")]
    MustFollow {
        /// The tile refused.
        tile: Tile,
        /// The tiles the seat may play.
        playable: TileSet,
    },
}

impl Stage {
    /// What the hand awaits at this stage, in words.
    #[must_use]
    pub const fn expects(self) -> &'static str {
        match self {
            Stage::Bidding => "the auction runs: bid or pass",
            Stage::Naming => "the declarer names the contract",
            Stage::Discarding => "the bidder lays a tile away (discard)",
            Stage::Playing => "tricks are played: play a tile to the trick",
            Stage::Over => "the hand is over",
        }
    }
}

/// One hand of a trick game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TrickHand {
    /// The options.
    rules: TrickRules,
    /// Seats (4 at Texas 42, 3 at Moon).
    players: Seat,
    /// The seat that shook the hand (the seat on its left bids first).
    shaker: Seat,
    /// Each seat's tiles as dealt, and Moon's widow (the hand's start,
    /// which a replay begins from).
    dealt: ([TileSet; MAX_SEATS], Option<Tile>),
    /// Each seat's tiles.
    hands: [TileSet; MAX_SEATS],
    /// Moon's widow, until the bidder takes it.
    widow: Option<Tile>,
    /// The tile Moon's bidder laid away.
    discard: Option<Tile>,
    /// The auction.
    auction: Auction,
    /// The declarer (who names the contract and leads the first trick).
    declarer: Seat,
    /// The suits of the named contract.
    suits: Option<Suits>,
    /// The seat sitting out (the nello bidder's partner).
    sits_out: Option<Seat>,
    /// Where the hand stands.
    stage: Stage,
    /// The seat that led the trick in progress.
    leader: Seat,
    /// The trick in progress, from its leader.
    trick: ArrayVec<Tile, MAX_SEATS>,
    /// Tricks each seat has won.
    tricks: [u8; MAX_SEATS],
    /// Points (tricks and count) each seat has won.
    points: [u8; MAX_SEATS],
    /// The verdict, once decided.
    verdict: Option<Verdict>,
}

impl TrickHand {
    /// The hand dealt `hands` (and Moon's `widow`), the seat left of
    /// `shaker` bidding first.
    #[must_use]
    pub fn dealt(
        rules: TrickRules,
        shaker: Seat,
        hands: &[TileSet],
        widow: Option<Tile>,
    ) -> TrickHand {
        let players = u8::try_from(hands.len().min(MAX_SEATS)).unwrap_or(0).max(1);
        let mut dealt = [TileSet::EMPTY; MAX_SEATS];
        for (slot, &hand) in dealt.iter_mut().zip(hands) {
            *slot = hand;
        }
        let shaker = shaker % players;
        let first = (shaker + 1) % players;
        TrickHand {
            rules,
            players,
            shaker,
            dealt: (dealt, widow),
            hands: dealt,
            widow,
            discard: None,
            auction: Auction::new(rules.bidding, rules.all_pass, players, first),
            declarer: first,
            suits: None,
            sits_out: None,
            stage: Stage::Bidding,
            leader: first,
            trick: ArrayVec::new(),
            tricks: [0; MAX_SEATS],
            points: [0; MAX_SEATS],
            verdict: None,
        }
    }

    /// The hand as it was dealt, before anyone spoke.
    #[must_use]
    pub fn as_dealt(&self) -> TrickHand {
        let (hands, widow) = self.dealt;
        TrickHand::dealt(
            self.rules,
            self.shaker,
            &hands[..usize::from(self.players)],
            widow,
        )
    }

    /// The options.
    #[must_use]
    pub const fn rules(&self) -> TrickRules {
        self.rules
    }

    /// Seats at the table.
    #[must_use]
    pub const fn players(&self) -> Seat {
        self.players
    }

    /// The seat that shook the hand.
    #[must_use]
    pub const fn shaker(&self) -> Seat {
        self.shaker
    }

    /// Each seat's tiles as dealt, and Moon's widow.
    #[must_use]
    pub fn dealt_hands(&self) -> (&[TileSet], Option<Tile>) {
        (&self.dealt.0[..usize::from(self.players)], self.dealt.1)
    }

    /// Every seat's tiles now (seats beyond the table's empty).
    #[must_use]
    pub const fn hands(&self) -> &[TileSet; MAX_SEATS] {
        &self.hands
    }

    /// Moon's widow, while nobody has taken it.
    #[must_use]
    pub const fn widow(&self) -> Option<Tile> {
        self.widow
    }

    /// The tile Moon's bidder laid away, once he has.
    #[must_use]
    pub const fn discard(&self) -> Option<Tile> {
        self.discard
    }

    /// The declarer, once the auction is won (not while it runs, though a
    /// bid stands): the bidder, or his partner after a plunge or splash.
    #[must_use]
    pub fn declarer(&self) -> Option<Seat> {
        match self.stage {
            Stage::Bidding => None,
            _ => self.auction.standing().map(|_| self.declarer),
        }
    }

    /// The seat that leads the trick in progress (or, before the first,
    /// will lead it): the declarer from the auction's end, then each
    /// trick's winner; `None` while the auction runs, and in a hand every
    /// seat passed, which has no tricks.
    #[must_use]
    pub fn trick_leader(&self) -> Option<Seat> {
        self.declarer().map(|_| self.leader)
    }

    /// The suit the trick in progress was led in: `None` before its lead,
    /// and under sevens, which has no suits.
    #[must_use]
    pub fn led(&self) -> Option<Suit> {
        self.suits?.led_by(*self.trick.first()?)
    }

    /// The seat whose tile wins the trick in progress so far.
    #[must_use]
    pub fn winning(&self) -> Option<Seat> {
        let at = self.suits?.winner(&self.trick)?;
        Some(self.in_trick_order(at))
    }

    /// Each call of the auction with its seat, in turn from the first
    /// bidder (`None`: a pass).
    pub fn calls(&self) -> impl Iterator<Item = (Seat, Option<Bid>)> + '_ {
        let first = (self.shaker + 1) % self.players;
        (0..)
            .zip(self.auction.said())
            .map(move |(i, &bid): (u8, _)| ((first + i % self.players) % self.players, bid))
    }

    /// The seat sitting out (the nello bidder's partner), if one is.
    #[must_use]
    pub const fn sits_out(&self) -> Option<Seat> {
        self.sits_out
    }

    /// Where the hand stands.
    #[must_use]
    pub const fn stage(&self) -> Stage {
        self.stage
    }

    /// The auction.
    #[must_use]
    pub const fn auction(&self) -> &Auction {
        &self.auction
    }

    /// `seat`'s tiles.
    #[must_use]
    pub fn hand(&self, seat: Seat) -> TileSet {
        self.hands
            .get(usize::from(seat))
            .copied()
            .unwrap_or_default()
    }

    /// The trick in progress and the seat that led it.
    #[must_use]
    pub fn trick(&self) -> (Seat, &[Tile]) {
        (self.leader, &self.trick)
    }

    /// Tricks and points each seat has won.
    #[must_use]
    pub fn taken(&self) -> (&[u8], &[u8]) {
        let n = usize::from(self.players);
        (&self.tricks[..n], &self.points[..n])
    }

    /// The contract, once named.
    #[must_use]
    pub fn contract(&self) -> Option<Contract> {
        self.suits.map(Suits::contract)
    }

    /// The verdict, once the hand is decided (Texas 42) or over (Moon).
    #[must_use]
    pub const fn verdict(&self) -> Option<Verdict> {
        self.verdict
    }

    /// The seat to act; `None` once the hand is over.
    #[must_use]
    pub fn to_act(&self) -> Option<Seat> {
        match self.stage {
            Stage::Bidding => self.auction.to_speak(),
            Stage::Naming => Some(self.declarer),
            Stage::Discarding => self.bidder(),
            Stage::Playing => Some(self.in_trick_order(self.trick.len())),
            Stage::Over => None,
        }
    }

    /// The auction's winner.
    fn bidder(&self) -> Option<Seat> {
        self.auction.standing().map(|(seat, _)| seat)
    }

    /// The seat that plays tile `k` of the trick in progress (0: its
    /// leader), the seat sitting out skipped.
    #[must_use]
    pub fn in_trick_order(&self, k: usize) -> Seat {
        let mut seat = self.leader;
        let mut left = k;
        while left > 0 {
            // (A comparison, not `%`: a division is the slowest step of a
            // move, and this runs on every one.)
            seat = if seat + 1 >= self.players {
                0
            } else {
                seat + 1
            };
            if Some(seat) != self.sits_out {
                left -= 1;
            }
        }
        seat
    }

    /// Tiles in a full trick.
    fn trick_size(&self) -> usize {
        usize::from(self.players) - usize::from(self.sits_out.is_some())
    }

    /// Doubles `seat` holds.
    fn doubles(&self, seat: Seat) -> u32 {
        self.hand(seat).and(TileSet::DOUBLES).len()
    }

    /// Calls `each` with every contract the declarer may name after `bid`.
    fn each_contract(&self, bid: Bid, mut each: impl FnMut(Contract)) {
        (0..=MAX_PIP).for_each(|n| each(Contract::Trumps(n)));
        if !self.rules.is_moon() {
            each(Contract::Doubles);
        }
        each(Contract::FollowMe);
        if matches!(bid, Bid::Marks(_)) {
            if self.rules.nello {
                each(Contract::Nello);
            }
            if self.rules.sevens {
                each(Contract::Sevens);
            }
        }
    }

    /// Whether the declarer may name `contract` after `bid`.
    fn is_open(&self, bid: Bid, contract: Contract) -> bool {
        let mut open = false;
        self.each_contract(bid, |each| open |= each == contract);
        open
    }

    /// Every move the seat to act may make.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Action> {
        let mut moves = Vec::new();
        self.each_legal_move(|action| moves.push(action));
        moves
    }

    /// Calls `each` with every move the seat to act may make (without
    /// allocating: legal moves are worked out on every move of a search).
    pub fn each_legal_move(&self, mut each: impl FnMut(Action)) {
        let Some(seat) = self.to_act() else {
            return;
        };
        match self.stage {
            Stage::Bidding => {
                if self.auction.may_pass() {
                    each(Action::Pass);
                }
                self.auction
                    .each_open_bid(self.doubles(seat), |bid| each(Action::Bid(bid)));
            }
            Stage::Naming => {
                if let Some((_, bid)) = self.auction.standing() {
                    self.each_contract(bid, |contract| each(Action::Name(contract)));
                }
            }
            Stage::Discarding => self
                .hand(seat)
                .iter()
                .for_each(|tile| each(Action::Discard(tile))),
            Stage::Playing => {
                if let Some(suits) = self.suits {
                    suits
                        .playable(self.hand(seat), self.trick.first().copied())
                        .iter()
                        .for_each(|tile| each(Action::Trick(tile)));
                }
            }
            Stage::Over => {}
        }
    }

    /// `seat` makes `mv`.
    ///
    /// # Errors
    /// The hand over, another seat to act, or a move the seat may not make
    /// now.
    pub fn play(&mut self, seat: Seat, mv: Action) -> Result<(), TrickError> {
        self.play_with(seat, mv, &mut ())
    }

    /// [`TrickHand::play`], reporting what happened to `sink`.
    ///
    /// # Errors
    /// As [`TrickHand::play`]; the hand is unchanged and nothing reported.
    pub fn play_with<S: EventSink>(
        &mut self,
        seat: Seat,
        mv: Action,
        sink: &mut S,
    ) -> Result<(), TrickError> {
        self.check(seat, mv)?;
        self.play_unchecked_with(seat, mv, sink);
        Ok(())
    }

    /// [`TrickHand::play_with`] for a move known to be legal (from
    /// [`TrickHand::each_legal_move`]), unchecked: a search plays many. An
    /// illegal move leaves the hand in an unspecified but memory-safe
    /// state.
    pub fn play_unchecked_with<S: EventSink>(&mut self, seat: Seat, mv: Action, sink: &mut S) {
        match (self.stage, mv) {
            (Stage::Bidding, Action::Pass | Action::Bid(_)) => {
                let bid = match mv {
                    Action::Bid(bid) => Some(bid),
                    _ => None,
                };
                self.auction.speak_unchecked(seat, bid);
                sink.record(|| match bid {
                    Some(bid) => Event::BidMade { seat, bid },
                    None => Event::Passed { seat },
                });
                self.after_auction(sink);
            }
            (_, Action::Name(contract)) => {
                sink.record(|| Event::ContractNamed { seat, contract });
                self.name(contract, sink);
            }
            (_, Action::Discard(tile)) => {
                self.take_from(seat, tile);
                self.discard = Some(tile);
                self.stage = Stage::Playing;
                sink.record(|| Event::Discarded {
                    seat,
                    tile: Some(tile),
                });
            }
            (_, Action::Trick(tile)) => self.play_tile(seat, tile, sink),
            // (Refused by `check`.)
            (
                _,
                Action::Pass
                | Action::Bid(_)
                | Action::Play { .. }
                | Action::Draw
                | Action::EndTurn,
            ) => {}
        }
    }

    /// Whether `seat` may make `mv` now, saying precisely why not.
    ///
    /// # Errors
    /// The hand over, another seat to act, a move of another stage, or
    /// one the rules do not allow the seat.
    pub fn check(&self, seat: Seat, mv: Action) -> Result<(), TrickError> {
        let to_act = self.to_act().ok_or(TrickError::Over)?;
        if seat != to_act {
            return Err(TrickError::NotYourTurn { seat, to_act });
        }
        let stage = self.stage;
        let held = |tile: Tile| {
            if self.hand(seat).contains(tile) {
                Ok(())
            } else {
                Err(TrickError::NotHeld {
                    seat,
                    tile,
                    discard: matches!(mv, Action::Discard(_)),
                })
            }
        };
        match (stage, mv) {
            (Stage::Bidding, Action::Pass) => Ok(self.auction.check(seat, None, 0)?),
            (Stage::Bidding, Action::Bid(bid)) => {
                Ok(self.auction.check(seat, Some(bid), self.doubles(seat))?)
            }
            (Stage::Naming, Action::Name(contract)) => match self.auction.standing() {
                Some((_, bid)) if self.is_open(bid, contract) => Ok(()),
                _ => Err(TrickError::ContractNotOpen { contract }),
            },
            (Stage::Discarding, Action::Discard(tile)) => held(tile),
            (Stage::Playing, Action::Trick(tile)) => {
                held(tile)?;
                let playable = self.suits.map_or(TileSet::EMPTY, |suits| {
                    suits.playable(self.hand(seat), self.trick.first().copied())
                });
                if playable.contains(tile) {
                    Ok(())
                } else {
                    Err(TrickError::MustFollow { tile, playable })
                }
            }
            _ => Err(TrickError::OutOfStage { stage, action: mv }),
        }
    }

    /// Moves on once the auction ends: to naming (the bidder, or the
    /// partner after a plunge or splash), or over when all passed.
    fn after_auction<S: EventSink>(&mut self, sink: &mut S) {
        match self.auction.end() {
            None => {}
            Some(AuctionEnd::AllPassed) => self.stage = Stage::Over,
            Some(AuctionEnd::Won { seat, bid }) => {
                self.declarer = if matches!(bid, Bid::Plunge(_) | Bid::Splash(_)) {
                    (seat + 2) % self.players
                } else {
                    seat
                };
                self.stage = Stage::Naming;
                // The declarer leads the first trick.
                self.leader = self.declarer;
                let declarer = self.declarer;
                sink.record(|| Event::AuctionWon {
                    seat,
                    bid,
                    declarer,
                });
            }
        }
    }

    /// The declarer names `contract`: Moon's bidder takes the widow; the
    /// nello bidder's partner sits out; the declarer leads.
    fn name<S: EventSink>(&mut self, contract: Contract, sink: &mut S) {
        self.suits = Some(Suits::new(
            contract,
            self.rules.follow_me_doubles,
            self.rules.nello_doubles,
        ));
        if contract == Contract::Nello {
            self.sits_out = Some((self.declarer + 2) % self.players);
        }
        match (self.widow.take(), self.bidder()) {
            (Some(widow), Some(bidder)) => {
                if let Some(hand) = self.hands.get_mut(usize::from(bidder)) {
                    hand.insert(widow);
                }
                self.stage = Stage::Discarding;
                sink.record(|| Event::WidowTaken {
                    seat: bidder,
                    tile: Some(widow),
                });
            }
            _ => self.stage = Stage::Playing,
        }
    }

    /// Takes `tile` from `seat`'s hand.
    fn take_from(&mut self, seat: Seat, tile: Tile) {
        if let Some(hand) = self.hands.get_mut(usize::from(seat)) {
            hand.remove(tile);
        }
    }

    /// `seat` plays `tile` to the trick; a full trick goes to its winner,
    /// who leads the next, and the hand may then be decided or over.
    fn play_tile<S: EventSink>(&mut self, seat: Seat, tile: Tile, sink: &mut S) {
        self.take_from(seat, tile);
        // (A trick holds a tile a seat at most: it is won when full.)
        let _ = self.trick.try_push(tile);
        sink.record(|| Event::TrickPlayed { seat, tile });
        if self.trick.len() < self.trick_size() {
            return;
        }
        let Some(suits) = self.suits else {
            return;
        };
        let at = suits.winner(&self.trick).unwrap_or(0);
        let winner = self.in_trick_order(at);
        let points = if self.rules.is_moon() {
            1
        } else {
            trick::points(&self.trick)
        };
        if let Some(won) = self.tricks.get_mut(usize::from(winner)) {
            *won += 1;
        }
        if let Some(held) = self.points.get_mut(usize::from(winner)) {
            *held = held.saturating_add(points);
        }
        sink.record(|| Event::TrickWon {
            seat: winner,
            leader: self.leader,
            tiles: self.trick.to_vec(),
            points,
        });
        self.trick.clear();
        self.leader = winner;
        let taken = self.sides_taken();
        if let (Some((bidder, bid)), None) = (self.auction.standing(), self.verdict) {
            self.verdict = verdict(bid, suits.contract(), taken);
            if let Some(verdict) = self.verdict {
                sink.record(|| Event::HandDecided {
                    bidder,
                    verdict,
                    taken,
                });
            }
        }
        let all_played = taken.tricks() >= TRICKS;
        let decided = self.verdict.is_some() && !self.rules.play_out;
        if all_played || decided {
            self.stage = Stage::Over;
        }
    }

    /// What the bidding side (under nello: the bidder; at Moon: the
    /// bidder alone) and the others have taken.
    #[must_use]
    pub fn sides_taken(&self) -> Taken {
        let bidder = self.bidder().unwrap_or(0);
        let mut taken = Taken::default();
        for seat in 0..self.players {
            let on_bidders_side = if self.rules.is_moon() || self.sits_out.is_some() {
                seat == bidder
            } else {
                seat % 2 == bidder % 2
            };
            let (tricks, points) = (
                self.tricks.get(usize::from(seat)).copied().unwrap_or(0),
                self.points.get(usize::from(seat)).copied().unwrap_or(0),
            );
            if on_bidders_side {
                taken.bidders_tricks += tricks;
                taken.bidders_points += points;
            } else if Some(seat) != self.sits_out {
                taken.others_tricks += tricks;
                taken.others_points += points;
            }
        }
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Moon set: double-six without 0-1 … 0-6.
    fn moon_set() -> Vec<Tile> {
        TileSet::full(MAX_PIP)
            .iter()
            .filter(|tile| tile.low() != 0 || tile.high() == 0)
            .collect()
    }

    /// `tiles` shuffled by a small generator from `seed`, dealt 7 a seat
    /// to `players`; what is left over.
    fn deal(mut tiles: Vec<Tile>, players: usize, seed: u64) -> (Vec<TileSet>, Vec<Tile>) {
        let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        for i in (1..tiles.len()).rev() {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let j = usize::try_from((state >> 33) % (i as u64 + 1)).unwrap_or(0);
            tiles.swap(i, j);
        }
        let hands = (0..players)
            .map(|seat| tiles[seat * 7..seat * 7 + 7].iter().copied().collect())
            .collect();
        (hands, tiles[players * 7..].to_vec())
    }

    /// Plays a hand to its end, each seat choosing among its legal moves
    /// by `seed`; checks each step; answers the hand.
    fn play_out(mut hand: TrickHand, seed: u64) -> TrickHand {
        let mut state = seed;
        for _ in 0..200 {
            let Some(seat) = hand.to_act() else {
                return hand;
            };
            let moves = hand.legal_moves();
            assert!(
                !moves.is_empty(),
                "seat {seat} has no move at {:?}",
                hand.stage()
            );
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let mv = moves[usize::try_from((state >> 33) % moves.len() as u64).unwrap_or(0)];
            // Another seat may not make it.
            let other = (seat + 1) % hand.players;
            assert!(matches!(
                hand.play(other, mv),
                Err(TrickError::NotYourTurn { .. })
            ));
            hand.play(seat, mv).expect("a legal move is accepted");
        }
        panic!("the hand did not end");
    }

    #[test]
    fn texas42_hands_end_decided_or_passed_and_played_out_they_count_42() {
        let mut rules = TrickRules::texas42();
        rules.bidding = Bidding::Texas42 {
            plunge: true,
            splash: true,
        };
        rules.nello = true;
        rules.sevens = true;
        for play_out in [false, true] {
            rules.play_out = play_out;
            for seed in 0..400 {
                let (hands, _) = deal(TileSet::full(MAX_PIP).iter().collect(), 4, seed);
                let hand = play_out_hand(rules, &hands, None, seed);
                if hand.auction().end() == Some(AuctionEnd::AllPassed) {
                    assert_eq!(hand.verdict(), None);
                    continue;
                }
                assert!(hand.verdict().is_some(), "decided");
                let (tricks, points) = hand.taken();
                let played: u32 = tricks.iter().map(|&t| u32::from(t)).sum();
                if play_out {
                    assert_eq!(played, 7);
                    // Under nello the partner's seven tiles stay in hand.
                    if hand.contract() != Some(Contract::Nello) {
                        let total: u32 = points.iter().map(|&p| u32::from(p)).sum();
                        assert_eq!(total, 42);
                    }
                }
            }
        }
    }

    fn play_out_hand(
        rules: TrickRules,
        hands: &[TileSet],
        widow: Option<Tile>,
        seed: u64,
    ) -> TrickHand {
        play_out(
            TrickHand::dealt(rules, (seed % 4) as Seat, hands, widow),
            seed,
        )
    }

    #[test]
    fn moon_hands_play_every_trick_and_the_bidder_discards_one_of_eight() {
        for seed in 0..400 {
            let (hands, left) = deal(moon_set(), 3, seed);
            assert_eq!(left.len(), 1, "the widow");
            let mut hand = TrickHand::dealt(
                TrickRules::moon(),
                (seed % 3) as Seat,
                &hands,
                left.first().copied(),
            );
            // Bid, then name: the bidder holds eight and lays one away.
            while hand.stage() == Stage::Bidding {
                let seat = hand.to_act().expect("a seat bids");
                let mv = *hand.legal_moves().last().expect("a bid");
                hand.play(seat, mv).expect("a bid");
            }
            let Some((bidder, _)) = hand.auction().standing() else {
                continue;
            };
            assert!(
                !hand
                    .legal_moves()
                    .contains(&Action::Name(Contract::Doubles))
            );
            let mv = hand.legal_moves()[0];
            hand.play(bidder, mv).expect("a contract");
            assert_eq!(hand.stage(), Stage::Discarding);
            assert_eq!(hand.hand(bidder).len(), 8);
            let hand = play_out(hand, seed);
            let (tricks, points) = hand.taken();
            assert_eq!(tricks.iter().map(|&t| u32::from(t)).sum::<u32>(), 7);
            assert_eq!(tricks, points, "a point a trick");
            assert!(hand.verdict().is_some());
        }
    }

    /// Four hands of Texas 42: seat 0 holds `first`, the others the rest
    /// in order.
    fn seat_0_holding(first: TileSet) -> Vec<TileSet> {
        let rest: Vec<Tile> = TileSet::full(MAX_PIP).minus(first).iter().collect();
        let mut hands = vec![first];
        hands.extend(
            rest.chunks(7)
                .map(|chunk| chunk.iter().copied().collect::<TileSet>()),
        );
        hands
    }

    #[test]
    fn w6_nello_the_partner_sits_out_and_the_bidder_leads() {
        let mut rules = TrickRules::texas42();
        rules.nello = true;
        let hands = seat_0_holding((0..=6).map(|n| Tile::new(n, 0)).collect());
        // Seat 3 shakes: seat 0 bids first.
        let mut hand = TrickHand::dealt(rules, 3, &hands, None);
        hand.play(0, Action::Bid(Bid::Marks(1))).expect("1 mark");
        for seat in [1, 2, 3] {
            hand.play(seat, Action::Pass).expect("a pass");
        }
        assert!(hand.legal_moves().contains(&Action::Name(Contract::Nello)));
        hand.play(0, Action::Name(Contract::Nello)).expect("nello");
        assert_eq!(hand.to_act(), Some(0));
        hand.play(0, Action::Trick(Tile::new(1, 0)))
            .expect("the lead");
        // Seat 2 sits out: after seat 1 comes seat 3, then the trick is full.
        let follow = hand.legal_moves()[0];
        hand.play(1, follow).expect("seat 1");
        assert_eq!(hand.to_act(), Some(3));
        let follow = hand.legal_moves()[0];
        hand.play(3, follow).expect("seat 3");
        assert_eq!(hand.trick().1.len(), 0, "a trick of three tiles");
        assert_eq!(hand.hand(2).len(), 7, "the partner's tiles stay");
        let hand = play_out(hand, 7);
        // Holding all the blanks, the bidder never takes a trick.
        assert_eq!(hand.verdict(), Some(Verdict::Made));
        assert_eq!(hand.taken().0[0], 0);
    }

    #[test]
    fn a_plunge_is_named_and_led_by_the_partner() {
        let mut rules = TrickRules::texas42();
        rules.bidding = Bidding::Texas42 {
            plunge: true,
            splash: false,
        };
        let hands = seat_0_holding((0..=6).map(|n| Tile::new(n, n)).collect());
        let mut hand = TrickHand::dealt(rules, 3, &hands, None);
        assert!(hand.legal_moves().contains(&Action::Bid(Bid::Plunge(4))));
        hand.play(0, Action::Bid(Bid::Plunge(4))).expect("plunge");
        for seat in [1, 2, 3] {
            hand.play(seat, Action::Pass).expect("a pass");
        }
        assert_eq!(hand.to_act(), Some(2), "the partner names");
        assert!(!hand.legal_moves().contains(&Action::Name(Contract::Nello)));
        hand.play(2, Action::Name(Contract::Doubles))
            .expect("doubles");
        assert_eq!(hand.to_act(), Some(2), "and leads");
        assert_eq!(
            hand.play(1, Action::Trick(Tile::new(6, 5))),
            Err(TrickError::NotYourTurn { seat: 1, to_act: 2 })
        );
    }
}
