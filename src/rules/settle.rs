//! How a hand and a match are settled: who won the hand, what each side
//! is credited, exact-target overshoots, and when the match ends.

use arrayvec::ArrayVec;

use super::deal::MAX_SEATS;
use super::events::{Event, EventSink, HandEnd, Outcome, ScoreReason, Side};
use super::family::Family;
use super::game::{Game, MAX_HANDS};
use super::moves::{Action, Seat};
use super::options::{BlockedOwnPips, InPlayScoring, MatchEnd, Rules, Settlement};
use super::scoring::{opponents_points, own_pips_penalty, r5};
use super::tile::{Tile, TileSet};

impl Game {
    /// Adds `points` to `side` and reports it.
    pub(super) fn credit<S: EventSink>(
        &mut self,
        side: Side,
        seat: Option<Seat>,
        points: i32,
        reason: ScoreReason,
        sink: &mut S,
    ) {
        if let Some(score) = self.scores.get_mut(usize::from(side)) {
            *score = score.saturating_add(points);
        }
        sink.record(|| Event::PointsScored {
            side,
            seat,
            points,
            reason,
        });
    }

    /// Whether `side`'s score has reached the target of a match that ends
    /// the moment a side reaches it.
    pub(super) fn wins_by_target(&self, side: Side) -> bool {
        matches!(
            self.rules.match_end,
            MatchEnd::ReachTarget | MatchEnd::ExactTarget
        ) && self.score(side) >= i64::from(self.rules.target)
    }

    /// Whether some side is at or past the target (which ends the match
    /// under every target rule).
    pub(super) fn some_side_at_target(&self) -> Option<Side> {
        if self.rules.single_hand() {
            return None;
        }
        (0..self.sides()).find(|&side| self.score(side) >= i64::from(self.rules.target))
    }

    /// Where scores can fall below 0 (`SubtractOwnRounded`), the match also
    /// ends when a side has sunk to minus the target or below: the highest
    /// score wins, a tie for highest is a draw. (Hands there may take more
    /// than play gives, and no side might ever reach the target.)
    fn sunk_side_ends_match(&self) -> Option<Outcome> {
        if !self.rules.scores_can_be_negative() {
            return None;
        }
        let floor = -i64::from(self.rules.target);
        (0..self.sides()).find(|&side| self.score(side) <= floor)?;
        Some(self.best_score_wins())
    }

    /// The side with the best score wins (the lowest under penalty scores,
    /// else the highest); a tie for best is a draw.
    pub(super) fn best_score_wins(&self) -> Outcome {
        let keys = self.standing_keys();
        unique_min(&keys[..usize::from(self.sides())]).map_or(Outcome::Draw, Outcome::Winner)
    }

    /// Each side's standing, the best lowest: its score under penalty
    /// scores, else its score negated.
    fn standing_keys(&self) -> [i64; MAX_SEATS] {
        let mut keys = [0i64; MAX_SEATS];
        let penalties = self.rules.lowest_score_wins();
        for (key, side) in keys.iter_mut().zip(0..self.sides()) {
            *key = if penalties {
                self.score(side)
            } else {
                -self.score(side)
            };
        }
        keys
    }

    /// Every side, best standing first (equal standings in side order).
    fn ranking(&self) -> Vec<Side> {
        let keys = self.standing_keys();
        let mut sides: Vec<Side> = (0..self.sides()).collect();
        sides.sort_by_key(|&side| keys.get(usize::from(side)).copied().unwrap_or(i64::MAX));
        sides
    }

    /// Whether the hand goes on although a side is at or past the target:
    /// under lose-at-target rules the match ends only with the hand, so
    /// in-play points may carry a side past the target once tiles are down.
    pub(super) fn may_play_on_past_target(&self) -> bool {
        self.rules.match_end == MatchEnd::LoseAtTarget
            && self.rules.in_play_scoring != InPlayScoring::None
            && !self.layout().is_empty()
    }

    /// `side`'s score, widened.
    fn score(&self, side: Side) -> i64 {
        self.scores
            .get(usize::from(side))
            .map_or(0, |&score| i64::from(score))
    }

    /// Whether adding `points` to `side` would pass an exact target.
    pub(super) fn overshoots(&self, side: Side, points: i32) -> bool {
        self.rules.match_end == MatchEnd::ExactTarget
            && self.score(side) + i64::from(points) > i64::from(self.rules.target)
    }

    /// Ends the match.
    pub(super) fn finish<S: EventSink>(&mut self, outcome: Outcome, sink: &mut S) {
        self.outcome = Some(outcome);
        sink.record(|| Event::MatchEnded {
            outcome,
            scores: self.scores().to_vec(),
            ranking: self.ranking(),
        });
    }

    /// Pips left in each seat's hand (0 for seats beyond the table),
    /// worked out once per hand's end for everything that settles it.
    fn pips_left(&self) -> PipsLeft {
        let mut pips = [0; MAX_SEATS];
        for (slot, hand) in pips
            .iter_mut()
            .zip(&self.hands)
            .take(usize::from(self.players))
        {
            *slot = hand.pips();
        }
        // (0-0 is looked for only where it counts apart, so that a line
        // game's hand end pays one test for it.)
        if self.rules.double_blank_pips != 0 {
            for (slot, hand) in pips.iter_mut().zip(&self.hands) {
                *slot += double_blank_extra(&self.rules, *hand);
            }
        }
        pips
    }

    /// The side with strictly the fewest pips (sum over its seats).
    fn fewest_pips_side(&self, pips: &PipsLeft) -> Option<Side> {
        let mut totals = [0u32; MAX_SEATS];
        for (seat, &seat_pips) in (0..self.players).zip(pips) {
            if let Some(total) = totals.get_mut(usize::from(self.side_of(seat))) {
                *total += seat_pips;
            }
        }
        unique_min(&totals[..usize::from(self.sides())])
    }

    /// The seat that placed the last tile of this hand, if one did.
    pub(super) fn last_placer_if_any(&self) -> Option<Seat> {
        self.history
            .iter()
            .rev()
            .find(|entry| matches!(entry.mv.action, Action::Play { .. }))
            .map(|entry| entry.mv.seat)
    }

    /// The seat that placed the last tile of this hand ("made the fish"),
    /// else the seat to act.
    fn last_placer(&self) -> Seat {
        self.last_placer_if_any().unwrap_or(self.to_act)
    }

    /// The side that won a hand ending in `end`: the seat that went out or
    /// closed; when a line is blocked, the fish maker under penalty
    /// scoring, else the side with the fewest pips (none on a tie). A
    /// blocked round at a hub table has none: every seat scores its own
    /// pips (the rule book names no winner). `pips`: the [`Game::pips_left`].
    fn hand_winner(&self, end: HandEnd, pips: &PipsLeft) -> Option<Side> {
        match (end.seat(), self.rules.settlement) {
            (Some(seat), _) => Some(self.side_of(seat)),
            (None, _) if self.table().is_some() => None,
            (None, Settlement::PenaltyOwnPips) => Some(self.side_of(self.last_placer())),
            (None, _) => self.fewest_pips_side(pips),
        }
    }

    /// What a hand ending in `end`, won by `winner` (its
    /// [`Game::hand_winner`]), credits, side by side, with `pips` the
    /// [`Game::pips_left`].
    fn settle(&self, end: HandEnd, winner: Option<Side>, pips: &PipsLeft) -> Credits {
        let rules = &self.rules;
        let pips = |seat: Seat| pips.get(usize::from(seat)).copied().unwrap_or(0);
        let to_points = |n: u32| i32::try_from(n).unwrap_or(i32::MAX);
        let reason = match end {
            HandEnd::Domino(_) => ScoreReason::Domino,
            HandEnd::Closed(_) => ScoreReason::Closed,
            // (A trick game's hands are settled by its family.)
            HandEnd::Blocked | HandEnd::Made(_) | HandEnd::Set(_) | HandEnd::AllPassed => {
                ScoreReason::Blocked
            }
        };
        match (rules.settlement, winner) {
            (Settlement::WinnerTakesPips, Some(side)) => {
                // The hands credited to the winner (the opponents', and
                // its own side's where `count_partner` or
                // `blocked_own = added` says so) and the winner's own
                // hands that `blocked_own` may subtract.
                let (mut credited, mut own) = (
                    ArrayVec::<u32, MAX_SEATS>::new(),
                    ArrayVec::<u32, MAX_SEATS>::new(),
                );
                for seat in 0..self.players {
                    let ours = self.side_of(seat) == side;
                    let counts = !ours
                        || match end {
                            HandEnd::Blocked => rules.blocked_own == BlockedOwnPips::Added,
                            _ => rules.count_partner && end.seat() != Some(seat),
                        };
                    // At most one push a seat: never past the capacity.
                    let _ = if counts { &mut credited } else { &mut own }.try_push(pips(seat));
                }
                let gained = opponents_points(rules.hand_rounding, rules.hand_scale, &credited);
                let lost = match end {
                    HandEnd::Blocked => own_pips_penalty(rules.blocked_own, rules.hand_scale, &own),
                    _ => 0,
                };
                [Credit {
                    side,
                    seat: end.seat(),
                    points: to_points(gained.saturating_sub(lost)),
                    reason,
                }]
                .into_iter()
                .collect()
            }
            (Settlement::WinnerTakesOne, Some(side)) if end.seat().is_some() => [Credit {
                side,
                seat: end.seat(),
                points: 1,
                reason,
            }]
            .into_iter()
            .collect(),
            (Settlement::PenaltyOwnPips, _) => {
                // At a line the fish maker of a blocked hand adds nothing;
                // at a train table or a chicken foot every seat adds its
                // own pips (the seat that went out has none).
                let exempt = match (end.seat(), self.table()) {
                    (Some(seat), _) => Some(seat),
                    (None, None) => Some(self.last_placer()),
                    (None, Some(_)) => None,
                };
                (0..self.players)
                    .filter(|&seat| Some(seat) != exempt)
                    .map(|seat| Credit {
                        side: self.side_of(seat),
                        seat: Some(seat),
                        points: to_points(pips(seat)),
                        reason: ScoreReason::Penalty,
                    })
                    .collect()
            }
            (Settlement::SubtractOwnRounded, _) => (0..self.players)
                .map(|seat| Credit {
                    side: self.side_of(seat),
                    seat: Some(seat),
                    points: -to_points(r5(pips(seat))),
                    reason: ScoreReason::OwnPips,
                })
                .collect(),
            _ => std::iter::empty().collect(),
        }
    }

    /// What a hand ending in `end` would credit `side` in all.
    pub(super) fn settlement_for(&self, side: Side, end: HandEnd) -> i32 {
        let pips = self.pips_left();
        self.settle(end, self.hand_winner(end, &pips), &pips)
            .iter()
            .filter(|credit| credit.side == side)
            .map(|credit| credit.points)
            .sum()
    }

    /// Settles the hand, then ends the match or deals the next hand.
    /// `void_settlement`: the settlement was voided together with the last
    /// tile's points (exact target).
    pub(super) fn end_hand<S: EventSink>(
        &mut self,
        end: HandEnd,
        void_settlement: bool,
        sink: &mut S,
    ) {
        // The turn ends with the hand (a draw just before a block included).
        self.drew_this_turn = false;
        let pips = self.pips_left();
        let winner = self.hand_winner(end, &pips);
        let credits: Credits = self
            .settle(end, winner, &pips)
            .iter()
            .filter(|credit| credit.points != 0)
            .collect();
        let mut settlement = [0i32; MAX_SEATS];
        for credit in credits.iter() {
            if let Some(slot) = settlement.get_mut(usize::from(credit.side)) {
                *slot = slot.saturating_add(credit.points);
            }
        }
        sink.record(|| Event::HandEnded {
            hand: self.hand_number,
            end,
            winner,
            last_placer: self.last_placer_if_any(),
            pips: pips
                .get(..usize::from(self.players))
                .unwrap_or(&pips)
                .to_vec(),
            settlement: settlement[..usize::from(self.sides())].to_vec(),
            layout: match &self.family {
                Family::Line(layout) => Some(Box::new(layout.clone())),
                Family::Hub(_) | Family::Tricks(_) => None,
            },
            table: self.table().cloned().map(Box::new),
            hands: (0..self.players).map(|seat| self.hand(seat)).collect(),
        });
        for credit in credits.iter() {
            if void_settlement || self.overshoots(credit.side, credit.points) {
                sink.record(|| Event::PointsVoided {
                    side: credit.side,
                    seat: credit.seat,
                    points: credit.points,
                    reason: credit.reason,
                });
                continue;
            }
            self.credit(credit.side, credit.seat, credit.points, credit.reason, sink);
        }
        let outcome = match self.rules.match_end {
            MatchEnd::SingleHand => Some(winner.map_or(Outcome::Draw, Outcome::Winner)),
            MatchEnd::ReachTarget | MatchEnd::ExactTarget => self
                .some_side_at_target()
                .map(Outcome::Winner)
                .or_else(|| self.sunk_side_ends_match()),
            MatchEnd::LoseAtTarget => self.some_side_at_target().map(|_| self.best_score_wins()),
            MatchEnd::Rounds => {
                (self.hand_number >= u32::from(self.rules.rounds)).then(|| self.best_score_wins())
            }
        };
        if let Some(outcome) = outcome {
            self.finish(outcome, sink);
            return;
        }
        if self.hand_number >= MAX_HANDS {
            self.finish(self.best_score_wins(), sink);
            return;
        }
        self.start_hand(self.hand_number + 1, Some((end, winner)), sink);
    }
}

/// The pips `hand` counts when its hand ends: the pips of its tiles, 0-0
/// counting `double_blank_pips` (at a train table; 0 elsewhere).
pub fn pips_counted(rules: &Rules, hand: TileSet) -> u32 {
    hand.pips() + double_blank_extra(rules, hand)
}

/// What 0-0 in `hand` adds to its pips: `double_blank_pips` (0 but at a
/// train table).
fn double_blank_extra(rules: &Rules, hand: TileSet) -> u32 {
    if hand.contains(Tile::new(0, 0)) {
        u32::from(rules.double_blank_pips)
    } else {
        0
    }
}

/// Pips left in each seat's hand at a hand's end.
type PipsLeft = [u32; MAX_SEATS];

/// One entry of a hand's settlement.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Credit {
    /// The side whose score changes.
    side: Side,
    /// The seat it is for, if one.
    seat: Option<Seat>,
    /// The change (negative when taken off).
    points: i32,
    /// Why.
    reason: ScoreReason,
}

/// A hand's settlement: at most one entry per seat, without allocating
/// (and without initialising the eight entries a train table may need
/// when a line's settlement has one).
#[derive(Clone, Debug)]
struct Credits(ArrayVec<Credit, MAX_SEATS>);

impl Credits {
    /// The entries, in order.
    fn iter(&self) -> impl Iterator<Item = Credit> + '_ {
        self.0.iter().copied()
    }
}

impl FromIterator<Credit> for Credits {
    /// The first [`MAX_SEATS`] credits (there is one per seat at most).
    fn from_iter<I: IntoIterator<Item = Credit>>(iter: I) -> Credits {
        Credits(iter.into_iter().take(MAX_SEATS).collect())
    }
}

/// The index of the strictly smallest value; `None` on a tie or when empty.
fn unique_min<T: Ord + Copy>(values: &[T]) -> Option<Side> {
    let min = values.iter().copied().min()?;
    let mut at = values.iter().enumerate().filter(|&(_, &v)| v == min);
    match (at.next(), at.next()) {
        (Some((index, _)), None) => Side::try_from(index).ok(),
        _ => None,
    }
}
