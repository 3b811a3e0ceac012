//! Made or set, and what a trick hand scores (docs/rules.md#texas42 "Made or set",
//! "Scoring", Moon's scoring, and §9): the moment a Texas 42 hand is
//! decided (play stops there unless `play_out`), the marks or points each
//! side then scores, and Moon's score changes.

use super::auction::{Bid, HAND_POINTS, MOON_POINTS};
use super::contract::Contract;
use crate::rules::moves::Seat;

/// Tricks in a hand.
pub const TRICKS: u8 = 7;

/// Whether the bidders made their bid.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Verdict {
    /// The bid is made.
    Made,
    /// The bid is set.
    Set,
}

/// What each side of a Texas 42 hand has taken so far.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Taken {
    /// Points the bidding side holds (under nello: the bidder's alone).
    pub bidders_points: u8,
    /// Points the other side holds.
    pub others_points: u8,
    /// Tricks the bidding side has won (under nello: the bidder).
    pub bidders_tricks: u8,
    /// Tricks the other side has won.
    pub others_tricks: u8,
}

impl Taken {
    /// Tricks played so far.
    #[must_use]
    pub const fn tricks(self) -> u8 {
        self.bidders_tricks.saturating_add(self.others_tricks)
    }
}

/// The verdict on a Texas 42 hand bid with `bid` under `contract`, once
/// `taken` decides it; `None` while it is open. A point bid b is made the
/// moment the bidders hold b, set the moment the others hold more than
/// 42 − b; a marks bid (and plunge, splash, sevens) needs every trick: set
/// the moment the others win one, made after the seventh; nello is set
/// the moment the bidder wins a trick, made after the seventh. (A Moon bid
/// of n tricks: made once the bidder has n, set once the others have more
/// than 7 − n.)
#[must_use]
pub const fn verdict(bid: Bid, contract: Contract, taken: Taken) -> Option<Verdict> {
    match bid {
        Bid::Points(points) => {
            if taken.bidders_points >= points {
                Some(Verdict::Made)
            } else if taken.others_points > HAND_POINTS - points {
                Some(Verdict::Set)
            } else {
                None
            }
        }
        // Moon: the bidder's tricks against the bid (every trick is still
        // played, and scores for whoever wins it).
        Bid::Tricks(needed) => tricks_verdict(needed, taken),
        Bid::Moon => tricks_verdict(TRICKS, taken),
        Bid::Marks(_) | Bid::Plunge(_) | Bid::Splash(_) => {
            let lost = if matches!(contract, Contract::Nello) {
                taken.bidders_tricks
            } else {
                taken.others_tricks
            };
            if lost > 0 {
                Some(Verdict::Set)
            } else if taken.tricks() >= TRICKS {
                Some(Verdict::Made)
            } else {
                None
            }
        }
    }
}

/// The verdict on a bid of `needed` tricks: made once the bidder has
/// them, set once the others have more than the rest.
const fn tricks_verdict(needed: u8, taken: Taken) -> Option<Verdict> {
    if taken.bidders_tricks >= needed {
        Some(Verdict::Made)
    } else if taken.others_tricks > TRICKS.saturating_sub(needed) {
        Some(Verdict::Set)
    } else {
        None
    }
}

/// The marks each side scores (bidders, others): the bid's marks (1 for a
/// point bid) to the bidders when made, to the others when set.
#[must_use]
pub const fn marks(bid: Bid, verdict: Verdict) -> (u8, u8) {
    let marks = match bid.marks() {
        0 => 1,
        marks => marks,
    };
    match verdict {
        Verdict::Made => (marks, 0),
        Verdict::Set => (0, marks),
    }
}

/// The points each side scores (bidders, others) in the points game,
/// every hand played out: made, each side what it took (a made marks bid
/// 42 a mark); set, the bidders nothing and the others what they took
/// plus the bid (42 a mark).
#[must_use]
pub const fn points(bid: Bid, verdict: Verdict, taken: Taken) -> (u32, u32) {
    let worth = bid.height();
    match verdict {
        Verdict::Made if bid.marks() > 0 => (worth, taken.others_points as u32),
        Verdict::Made => (taken.bidders_points as u32, taken.others_points as u32),
        Verdict::Set => (0, taken.others_points as u32 + worth),
    }
}

/// Each seat's score change at the end of a Moon hand that `bidder` won
/// with `bid`, `tricks` being the tricks each seat won: the others a point
/// a trick; the bidder, made (his tricks at least the bid), the tricks he
/// took (the moon: 21), set, minus the bid (the moon: 21), his own tricks
/// scoring nothing.
#[must_use]
pub fn moon(bid: Bid, bidder: usize, tricks: &[u8]) -> Vec<i32> {
    let needed = match bid {
        Bid::Tricks(tricks) => tricks,
        _ => TRICKS,
    };
    let worth = match bid {
        Bid::Moon => i32::from(MOON_POINTS),
        _ => i32::from(needed),
    };
    tricks
        .iter()
        .enumerate()
        .map(|(seat, &won)| match (seat == bidder, won >= needed) {
            (false, _) => i32::from(won),
            (true, true) if bid == Bid::Moon => worth,
            (true, true) => i32::from(won),
            (true, false) => -worth,
        })
        .collect()
}

/// The Moon seat that won a hand `bidder` bid, `tricks` being the tricks
/// each seat won: the bidder when made; set, the other seat that took
/// the more tricks (and so scored the more), `None` when they took as
/// many.
#[must_use]
pub fn moon_hand_winner(bidder: Seat, verdict: Verdict, tricks: &[u8]) -> Option<Seat> {
    if verdict == Verdict::Made {
        return Some(bidder);
    }
    let mut others = (0..).zip(tricks).filter(|&(seat, _)| seat != bidder);
    let (first, &a) = others.next()?;
    match others.next() {
        Some((_, &b)) if b == a => None,
        Some((second, &b)) if b > a => Some(second),
        _ => Some(first),
    }
}

/// The Texas 42 side that wins the match once a hand's scores are in
/// (`scores` per side, `bidders` the bidding side): the bidders if they
/// reached `target` ("bidder goes out"), else the others if they did;
/// `None` while neither has. (In marks only one side scores a hand; in
/// points both may reach the target in one.)
#[must_use]
pub fn texas42_winner(scores: [i32; 2], bidders: usize, target: u32) -> Option<usize> {
    let reached = |side: usize| {
        scores
            .get(side)
            .is_some_and(|&score| i64::from(score) >= i64::from(target))
    };
    [bidders, 1 - bidders.min(1)]
        .into_iter()
        .find(|&side| reached(side))
}

/// The Moon seats that win the match once a hand's scores are in
/// (`scores` per seat, `bidder` the hand's bidder, if one): the bidder
/// alone if he reached `target` ("bidder goes out"); else those with the
/// highest score of the seats that reached it (several share a drawn
/// match); none while nobody has.
#[must_use]
pub fn moon_winners(scores: &[i32], bidder: Option<usize>, target: u32) -> Vec<usize> {
    let target = i64::from(target);
    if let Some(bidder) = bidder
        && scores
            .get(bidder)
            .is_some_and(|&score| i64::from(score) >= target)
    {
        return vec![bidder];
    }
    let best = scores
        .iter()
        .filter(|&&score| i64::from(score) >= target)
        .max();
    match best {
        Some(&best) => (0..scores.len())
            .filter(|&seat| scores.get(seat) == Some(&best))
            .collect(),
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIXES: Contract = Contract::Trumps(6);

    #[test]
    fn a_moon_hand_is_won_by_the_bidder_made_else_by_the_setter_with_more_tricks() {
        assert_eq!(moon_hand_winner(1, Verdict::Made, &[2, 4, 1]), Some(1));
        assert_eq!(moon_hand_winner(1, Verdict::Set, &[3, 2, 2]), Some(0));
        assert_eq!(moon_hand_winner(0, Verdict::Set, &[1, 2, 4]), Some(2));
        assert_eq!(moon_hand_winner(2, Verdict::Set, &[2, 2, 3]), None);
    }

    fn taken(bidders: (u8, u8), others: (u8, u8)) -> Taken {
        Taken {
            bidders_points: bidders.0,
            bidders_tricks: bidders.1,
            others_points: others.0,
            others_tricks: others.1,
        }
    }

    #[test]
    fn w3_34_made_with_exactly_34() {
        let bid = Bid::Points(34);
        // After six tricks: 28 to 8; 8 is not more than 42 − 34.
        assert_eq!(verdict(bid, SIXES, taken((28, 3), (8, 3))), None);
        // The bidders take the last trick with 5-0 in it: 34, made.
        assert_eq!(
            verdict(bid, SIXES, taken((34, 4), (8, 3))),
            Some(Verdict::Made)
        );
        assert_eq!(marks(bid, Verdict::Made), (1, 0));
        // Had the others taken it: 14 > 8, set, the mark theirs.
        assert_eq!(
            verdict(bid, SIXES, taken((28, 3), (14, 4))),
            Some(Verdict::Set)
        );
        assert_eq!(marks(bid, Verdict::Set), (0, 1));
    }

    #[test]
    fn w4_a_set_at_once() {
        // Fives trump, bid 35: 11 points to the others after one trick.
        let verdict = verdict(Bid::Points(35), Contract::Trumps(5), taken((0, 0), (11, 1)));
        assert_eq!(verdict, Some(Verdict::Set));
    }

    #[test]
    fn w5_a_marks_bid_is_set_by_the_first_trick_lost() {
        let bid = Bid::Marks(2);
        assert_eq!(
            verdict(bid, SIXES, taken((0, 0), (11, 1))),
            Some(Verdict::Set)
        );
        assert_eq!(marks(bid, Verdict::Set), (0, 2));
        assert_eq!(verdict(bid, SIXES, taken((35, 6), (0, 0))), None);
        assert_eq!(
            verdict(bid, SIXES, taken((42, 7), (0, 0))),
            Some(Verdict::Made)
        );
    }

    #[test]
    fn w6_nello_is_set_by_the_first_trick_the_bidder_wins() {
        let bid = Bid::Marks(1);
        assert_eq!(
            verdict(bid, Contract::Nello, taken((0, 0), (42, 7))),
            Some(Verdict::Made)
        );
        assert_eq!(
            verdict(bid, Contract::Nello, taken((1, 1), (5, 1))),
            Some(Verdict::Set)
        );
        assert_eq!(verdict(bid, Contract::Nello, taken((0, 0), (30, 5))), None);
    }

    #[test]
    fn w7_the_moon() {
        // Decided as the tricks fall: the moon is set by the first trick
        // lost; 5 tricks are made by the fifth.
        assert_eq!(verdict(Bid::Moon, SIXES, taken((0, 6), (0, 0))), None);
        assert_eq!(
            verdict(Bid::Moon, SIXES, taken((0, 5), (0, 1))),
            Some(Verdict::Set)
        );
        assert_eq!(
            verdict(Bid::Tricks(5), SIXES, taken((0, 5), (0, 0))),
            Some(Verdict::Made)
        );
        assert_eq!(
            verdict(Bid::Tricks(5), SIXES, taken((0, 2), (0, 3))),
            Some(Verdict::Set)
        );
        // Made: +21, and the others scored nothing (no tricks).
        assert_eq!(moon(Bid::Moon, 0, &[7, 0, 0]), vec![21, 0, 0]);
        // A moon bidder who takes 5 tricks: −21; the one who took 2, +2.
        assert_eq!(moon(Bid::Moon, 0, &[5, 2, 0]), vec![-21, 2, 0]);
        // A tricks bid: made scores the tricks taken, set costs the bid.
        assert_eq!(moon(Bid::Tricks(4), 1, &[1, 5, 1]), vec![1, 5, 1]);
        assert_eq!(moon(Bid::Tricks(5), 1, &[3, 4, 0]), vec![3, -5, 0]);
    }

    #[test]
    fn w12_the_points_game() {
        // Bid 30 made with 32: 32 to the bidders, their 10 to the others.
        assert_eq!(
            points(Bid::Points(30), Verdict::Made, taken((32, 4), (10, 3))),
            (32, 10)
        );
        // Bid 35 set with 30 taken: nothing, and 12 + 35 to the others.
        assert_eq!(
            points(Bid::Points(35), Verdict::Set, taken((30, 4), (12, 3))),
            (0, 47)
        );
        // A made 2-mark bid scores 84.
        assert_eq!(
            points(Bid::Marks(2), Verdict::Made, taken((42, 7), (0, 0))),
            (84, 0)
        );
    }

    #[test]
    fn the_bidders_go_out_first() {
        // Points game: both sides pass 250 in one hand; the bidders win
        // whichever side is ahead.
        assert_eq!(texas42_winner([251, 270], 0, 250), Some(0));
        assert_eq!(texas42_winner([251, 270], 1, 250), Some(1));
        assert_eq!(texas42_winner([251, 200], 1, 250), Some(0));
        assert_eq!(texas42_winner([6, 5], 0, 7), None);
        assert_eq!(texas42_winner([7, 5], 1, 7), Some(0));
    }

    #[test]
    fn moon_goes_to_the_bidder_then_the_highest_and_ties_share() {
        assert_eq!(moon_winners(&[22, 25, 3], Some(0), 21), vec![0]);
        assert_eq!(moon_winners(&[22, 25, 3], Some(2), 21), vec![1]);
        assert_eq!(moon_winners(&[23, 23, 3], Some(2), 21), vec![0, 1]);
        assert_eq!(moon_winners(&[20, -4, 3], None, 21), Vec::<usize>::new());
    }
}
