//! A trick game as a [`Game`] (docs/design/families.md): the match
//! machinery deals each hand with [`deal`] and the shake, lets the
//! [`TrickHand`] answer for legal moves and play, mirrors the hands and
//! the seat to act into the shared match, and at the hand's end scores
//! it (marks, points, or Moon's tricks) and ends the match at its target,
//! else shakes the next hand.

use crate::rules::chance::{ChanceError, deal_from};
use crate::rules::deal::MAX_SEATS;
use crate::rules::errors::PlayError;
use crate::rules::events::{Event, EventSink, HandEnd, Outcome, ScoreReason, Side};
use crate::rules::family::Family;
use crate::rules::game::{Game, MAX_HANDS};
use crate::rules::moves::{Move, Seat};
use crate::rules::tile::TileSet;

use super::deal::{deal, shaker};
use super::hand::{Stage, TrickHand};
use super::options::{Scoring, TrickOptions};
use super::settle::{Verdict, marks, moon, moon_hand_winner, moon_winners, points, texas42_winner};

impl Game {
    /// Shakes and deals hand `hand_number` of a trick game played with
    /// `options`: the seat left of the shaker bids first.
    // (Cold and out of line, as the hub tables' entry points: the line
    // games' hot paths branch past it.)
    #[cold]
    #[inline(never)]
    pub(crate) fn start_trick_hand<S: EventSink>(
        &mut self,
        hand_number: u32,
        options: TrickOptions,
        sink: &mut S,
    ) {
        let moon = options.is_moon();
        let dealt = deal(&self.hand_key, moon, self.players, hand_number);
        // The shake passes left from the last hand's shaker (the first by
        // lot): a state's shaker is its own, not its seed's.
        let shaker = match &self.family {
            Family::Tricks(last) if hand_number > 1 => (last.shaker() + 1) % self.players.max(1),
            _ => shaker(&self.hand_key, self.players, hand_number),
        };
        let seats = usize::from(self.players).min(dealt.hands.len());
        let hand = TrickHand::dealt(options.hand, shaker, &dealt.hands[..seats], dealt.widow);
        let leader = hand.to_act().unwrap_or(0);
        self.hand_number = hand_number;
        self.hands = match_hands(&hand);
        self.boneyard.clear();
        self.history.clear();
        self.drew_this_turn = false;
        self.required_lead = None;
        self.to_act = leader;
        self.hand_leader = leader;
        match &mut self.family {
            // (The box is reused: a search deals many hands.)
            Family::Tricks(mine) => **mine = hand,
            family => *family = Family::Tricks(Box::new(hand)),
        }
        sink.record(|| Event::HandDealt {
            hand: hand_number,
            leader,
            required_lead: None,
        });
    }

    /// The legal moves of the seat to act in `hand`.
    // (Cold and out of line, as the hub tables' entry points: the line
    // games' hot paths branch past it.)
    #[cold]
    #[inline(never)]
    pub(crate) fn trick_moves_into(hand: &TrickHand, out: &mut Vec<Move>) {
        if let Some(seat) = hand.to_act() {
            hand.each_legal_move(|action| out.push(Move { seat, action }));
        }
    }

    /// Whether `mv` is legal in `hand`, saying precisely why not (the
    /// seat and the turn are checked already).
    // (Cold and out of line, as the hub tables' entry points: the line
    // games' hot paths branch past it.)
    #[cold]
    #[inline(never)]
    pub(crate) fn check_trick(hand: &TrickHand, mv: Move) -> Result<(), PlayError> {
        hand.check(mv.seat, mv.action).map_err(PlayError::Trick)
    }

    /// Plays `mv` in the trick hand (known legal), then ends the hand if
    /// it is over.
    // (Cold and out of line, as the hub tables' entry points: the line
    // games' hot paths branch past it.)
    #[cold]
    #[inline(never)]
    pub(crate) fn play_trick<S: EventSink>(&mut self, mv: Move, sink: &mut S) {
        let Family::Tricks(hand) = &mut self.family else {
            return;
        };
        hand.play_unchecked_with(mv.seat, mv.action, sink);
        let over = hand.stage() == Stage::Over;
        let to_act = hand.to_act();
        self.hands = match_hands(hand);
        if let Some(seat) = to_act {
            self.to_act = seat;
        }
        if over {
            self.end_trick_hand(sink);
        }
    }

    /// Scores the hand just over, then ends the match at its target or
    /// shakes the next hand.
    fn end_trick_hand<S: EventSink>(&mut self, sink: &mut S) {
        let (Family::Tricks(hand), Some(options)) = (&self.family, self.rules.tricks) else {
            return;
        };
        let standing = hand.auction().standing();
        let verdict = hand.verdict();
        let taken = hand.sides_taken();
        let (tricks, _) = hand.taken();
        let mut tricks_won = [0u8; MAX_SEATS];
        for (slot, &won) in tricks_won.iter_mut().zip(tricks) {
            *slot = won;
        }
        let sides = usize::from(self.sides());
        // What each side scores, and why.
        let mut settlement = [0i32; MAX_SEATS];
        let (end, winner, reason) = match (standing, verdict) {
            (Some((bidder, bid)), Some(verdict)) => {
                let end = match verdict {
                    Verdict::Made => HandEnd::Made(bidder),
                    Verdict::Set => HandEnd::Set(bidder),
                };
                if options.is_moon() {
                    let changes = moon(bid, usize::from(bidder), &tricks_won[..sides]);
                    for (slot, change) in settlement.iter_mut().zip(changes) {
                        *slot = change;
                    }
                    (
                        end,
                        moon_hand_winner(bidder, verdict, &tricks_won[..sides]),
                        ScoreReason::Tricks,
                    )
                } else {
                    let bidders = self.side_of(bidder);
                    let others = 1 - bidders.min(1);
                    let ((to_bidders, to_others), reason) = match options.scoring {
                        Scoring::Marks => {
                            let (b, o) = marks(bid, verdict);
                            ((u32::from(b), u32::from(o)), ScoreReason::Marks)
                        }
                        Scoring::Points => (points(bid, verdict, taken), ScoreReason::HandPoints),
                    };
                    for (side, points) in [(bidders, to_bidders), (others, to_others)] {
                        if let Some(slot) = settlement.get_mut(usize::from(side)) {
                            *slot = i32::try_from(points).unwrap_or(i32::MAX);
                        }
                    }
                    let winner = match verdict {
                        Verdict::Made => bidders,
                        Verdict::Set => others,
                    };
                    (end, Some(winner), reason)
                }
            }
            // Every seat passed (or, in a state no play reaches, the hand
            // stopped undecided): nothing scores.
            _ => (HandEnd::AllPassed, None, ScoreReason::Marks),
        };
        let bidder = standing.map(|(seat, _)| seat);
        sink.record(|| Event::HandEnded {
            hand: self.hand_number,
            end,
            winner,
            last_placer: None,
            pips: Vec::new(),
            settlement: settlement[..sides].to_vec(),
            layout: None,
            table: None,
            // Tiles left unplayed stay hidden.
            hands: Vec::new(),
        });
        for (side, &points) in (0..).zip(&settlement[..sides]) {
            if points != 0 {
                // The points are the bidder's when they are his side's (a
                // Moon seat is a side of its own); the others' name no
                // seat.
                let seat = bidder.filter(|&bidder| self.side_of(bidder) == side);
                self.credit(side, seat, points, reason, sink);
            }
        }
        if let Some(outcome) = self.trick_match_outcome(options, bidder) {
            self.finish(outcome, sink);
            return;
        }
        if self.hand_number >= MAX_HANDS {
            let outcome = self.best_score_wins();
            self.finish(outcome, sink);
            return;
        }
        self.start_trick_hand(self.hand_number + 1, options, sink);
    }

    /// How the match ends after a hand bid by `bidder`, if it does: Texas
    /// 42's bidder goes out, else the side that reached the target; at
    /// Moon the bidder if he reached it, else the best of those who did (a
    /// tie for best is a drawn match).
    pub(super) fn trick_match_outcome(
        &self,
        options: TrickOptions,
        bidder: Option<Seat>,
    ) -> Option<Outcome> {
        let target = self.rules.target;
        if options.is_moon() {
            let winners = moon_winners(self.scores(), bidder.map(usize::from), target);
            return match winners.as_slice() {
                [] => None,
                [one] => Some(Outcome::Winner(Side::try_from(*one).unwrap_or(0))),
                _ => Some(Outcome::Draw),
            };
        }
        let scores = [
            self.scores.first().copied().unwrap_or(0),
            self.scores.get(1).copied().unwrap_or(0),
        ];
        // (With every seat passing, no side scored and none reaches it.)
        let bidders = bidder.map_or(0, |seat| usize::from(self.side_of(seat)));
        texas42_winner(scores, bidders, target)
            .map(|side| Outcome::Winner(Side::try_from(side).unwrap_or(0)))
    }

    /// [`Game::redeal`] at a trick game (the hand not begun, a hand a
    /// seat given): seven tiles a seat from the hand's set, Moon's widow
    /// the tile left; the shaker, and so the first bidder, kept.
    pub(crate) fn redeal_tricks(&mut self, hands: &[TileSet]) -> Result<(), ChanceError> {
        let Family::Tricks(hand) = &mut self.family else {
            return Err(ChanceError::Begun);
        };
        let (dealt, widow) = hand.dealt_hands();
        let mut left = dealt
            .iter()
            .fold(TileSet::EMPTY, |all, tiles| all.or(*tiles));
        if let Some(widow) = widow {
            left = left.with(widow);
        }
        let left = deal_from(left, hands, |seat| hand.hand(seat).len())?;
        let widow = widow.and(left.iter().next());
        let redealt = TrickHand::dealt(hand.rules(), hand.shaker(), hands, widow);
        **hand = redealt;
        self.hands = match_hands(hand);
        Ok(())
    }

    /// The trick hand, at a trick game.
    #[must_use]
    pub fn trick_hand(&self) -> Option<&TrickHand> {
        self.family.tricks()
    }
}

/// The match's hands: the trick hand's, seat by seat (the match's seats
/// beyond them empty).
pub(super) fn match_hands(hand: &TrickHand) -> [TileSet; MAX_SEATS] {
    let mut hands = [TileSet::EMPTY; MAX_SEATS];
    for (slot, &tiles) in hands.iter_mut().zip(hand.hands()) {
        *slot = tiles;
    }
    hands
}
