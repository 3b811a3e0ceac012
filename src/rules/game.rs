//! A validated game: legal moves, checked and unchecked play, hand and match
//! ends.

use super::deal::{MAX_SEATS, deal};
use super::errors::PlayError;
use super::events::{Event, EventSink, HandEnd, Outcome, ScoreReason, Side};
use super::layout::{End, Layout};
use super::moves::{Action, Move, Seat};
use super::options::{DrawRule, NextLeadRule, Rules, RulesError};
use super::scoring::{in_play_points, opponents_points, own_pips_penalty};
use super::tile::{Tile, TileSet};

/// A move as kept in a game's history.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct HistoryEntry {
    /// The hand (1-based) it was made in.
    pub hand: u32,
    /// The move.
    pub mv: Move,
}

/// What a checked [`Game::play`] reports.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Report {
    /// What happened, in order.
    pub events: Vec<Event>,
    /// Points gained per side.
    pub score_change: Vec<i32>,
}

/// A game whose state has been checked: every method may trust it. Built by
/// [`Game::new`] (a fresh deal) or [`Game::from_setup`] (a state received
/// from a client).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    /// The preset it was started from (informational).
    pub(super) variant: String,
    /// The rules in force.
    pub(super) rules: Rules,
    /// Number of seats.
    pub(super) players: u8,
    /// Seed every hand is dealt from.
    pub(super) seed: u64,
    /// Current hand, from 1.
    pub(super) hand_number: u32,
    /// Each seat's tiles (unused seats empty).
    pub(super) hands: [TileSet; MAX_SEATS],
    /// Undrawn tiles, the next to draw **last** so drawing is a `pop`.
    pub(super) boneyard: Vec<Tile>,
    /// The table.
    pub(super) layout: Layout,
    /// Score per side (unused sides 0).
    pub(super) scores: [i32; MAX_SEATS],
    /// Seat to move.
    pub(super) to_act: Seat,
    /// Seat that leads the current hand.
    pub(super) hand_leader: Seat,
    /// Tile the leader must lead, while forced.
    pub(super) required_lead: Option<Tile>,
    /// `Some` once the match is over.
    pub(super) outcome: Option<Outcome>,
    /// Every move so far.
    pub(super) history: Vec<HistoryEntry>,
}

impl Game {
    /// Deals the first hand of a new match.
    ///
    /// ```
    /// use pips::rules::{Game, presets::preset};
    /// let rules = preset("muggins").unwrap().rules(2, None);
    /// let (game, events) = Game::new("muggins", rules, 2, 7).unwrap();
    /// assert_eq!(game.hand(0).len(), 7);
    /// assert_eq!(events.len(), 1); // the hand was dealt
    /// assert!(!game.legal_moves().is_empty());
    /// ```
    pub fn new(
        variant: &str,
        rules: Rules,
        players: u8,
        seed: u64,
    ) -> Result<(Game, Vec<Event>), RulesError> {
        rules.validate(players)?;
        let mut game = Game {
            variant: variant.to_owned(),
            rules,
            players,
            seed,
            hand_number: 0,
            hands: [TileSet::EMPTY; MAX_SEATS],
            boneyard: Vec::new(),
            layout: Layout::new(),
            scores: [0; MAX_SEATS],
            to_act: 0,
            hand_leader: 0,
            required_lead: None,
            outcome: None,
            history: Vec::new(),
        };
        let mut events = Vec::new();
        game.start_hand(1, None, &mut events);
        Ok((game, events))
    }

    /// The preset the game was started from.
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Number of seats.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// Number of sides.
    pub fn sides(&self) -> u8 {
        self.rules.sides(self.players)
    }

    /// The side `seat` scores for.
    pub fn side_of(&self, seat: Seat) -> Side {
        if self.rules.partnerships {
            seat % 2
        } else {
            seat
        }
    }

    /// The seed every hand is dealt from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The current hand, from 1.
    pub fn hand_number(&self) -> u32 {
        self.hand_number
    }

    /// The tiles `seat` holds.
    pub fn hand(&self, seat: Seat) -> TileSet {
        self.hands
            .get(usize::from(seat))
            .copied()
            .unwrap_or(TileSet::EMPTY)
    }

    /// The undrawn tiles, next to draw first.
    pub fn boneyard(&self) -> impl ExactSizeIterator<Item = Tile> + '_ {
        self.boneyard.iter().rev().copied()
    }

    /// Number of undrawn tiles.
    pub fn boneyard_len(&self) -> usize {
        self.boneyard.len()
    }

    /// The table.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Score per side.
    pub fn scores(&self) -> &[i32] {
        &self.scores[..usize::from(self.sides())]
    }

    /// The seat to move (meaningless once the match is over).
    pub fn to_act(&self) -> Seat {
        self.to_act
    }

    /// The seat that leads the current hand.
    pub fn hand_leader(&self) -> Seat {
        self.hand_leader
    }

    /// The tile the leader must lead, while forced.
    pub fn required_lead(&self) -> Option<Tile> {
        self.required_lead
    }

    /// How the match ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Every move so far, oldest first.
    pub fn history(&self) -> &[HistoryEntry] {
        &self.history
    }

    /// The ends total as counted for in-play scoring.
    pub fn ends_total(&self) -> u32 {
        self.layout.ends_total(self.rules.doubles_crosswise())
    }

    /// The tiles of `hand` that can be placed now.
    pub fn placeable(&self, hand: TileSet) -> TileSet {
        if self.layout.is_empty() {
            return match self.required_lead {
                Some(tile) if hand.contains(tile) => [tile].into_iter().collect(),
                Some(_) => TileSet::EMPTY,
                None => hand,
            };
        }
        let showing = End::ALL
            .iter()
            .filter_map(|&end| self.layout.open_end(end))
            .fold(TileSet::EMPTY, |set, pips| set.or(TileSet::showing(pips)));
        hand.and(showing)
    }

    /// Whether the rules and the boneyard allow a draw now.
    pub fn may_draw(&self) -> bool {
        match self.rules.draw {
            DrawRule::UntilPlayable => {
                self.boneyard.len() > usize::from(self.rules.boneyard_reserve)
            }
            DrawRule::None => false,
        }
    }

    /// Whether nobody can place a tile and nobody may draw.
    pub fn is_blocked(&self) -> bool {
        let all = self.hands.iter().fold(TileSet::EMPTY, |set, &h| set.or(h));
        !self.may_draw() && self.placeable(all).is_empty()
    }

    /// The legal moves of the seat to act (none once the match is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// Writes the legal moves into `out` (cleared first), so a caller that
    /// reuses `out` allocates nothing. Plays come in tile order, left end
    /// before right; otherwise the one draw or pass.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let seat = self.to_act;
        let placeable = self.placeable(self.hand(seat));
        for tile in placeable.iter() {
            match (
                self.layout.open_end(End::Left),
                self.layout.open_end(End::Right),
            ) {
                (Some(left), Some(right)) => {
                    if tile.has(left) {
                        out.push(Move::play(seat, tile, Some(End::Left)));
                    }
                    if tile.has(right) {
                        out.push(Move::play(seat, tile, Some(End::Right)));
                    }
                }
                _ => out.push(Move::play(seat, tile, None)),
            }
        }
        if out.is_empty() {
            out.push(if self.may_draw() {
                Move::draw(seat)
            } else {
                Move::pass(seat)
            });
        }
    }

    /// Checks that `mv` is legal now, saying precisely why not.
    pub fn check(&self, mv: Move) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::MatchOver);
        }
        let seat = mv.seat;
        if seat >= self.players {
            return Err(PlayError::SeatOutOfRange {
                seat,
                players: self.players,
            });
        }
        if seat != self.to_act {
            return Err(PlayError::NotYourTurn {
                seat,
                to_act: self.to_act,
            });
        }
        let hand = self.hand(seat);
        let can_place = !self.placeable(hand).is_empty();
        match mv.action {
            Action::Play { tile, end } => {
                if !tile.fits_set(self.rules.max_pip) {
                    return Err(PlayError::InvalidTile {
                        tile,
                        max_pip: self.rules.max_pip,
                    });
                }
                if !hand.contains(tile) {
                    return Err(PlayError::TileNotInHand { seat, tile });
                }
                match (end, self.layout.is_empty()) {
                    (Some(_), true) => Err(PlayError::LeadHasNoEnd),
                    (None, true) => match self.required_lead {
                        Some(required) if required != tile => {
                            Err(PlayError::MustLeadRequiredTile { required })
                        }
                        _ => Ok(()),
                    },
                    (None, false) => Err(PlayError::EndRequired),
                    (Some(end), false) => {
                        let pips = self.layout.open_end(end).unwrap_or_default();
                        if tile.has(pips) {
                            Ok(())
                        } else {
                            Err(PlayError::DoesNotMatchEnd { tile, end, pips })
                        }
                    }
                }
            }
            Action::Draw if can_place => Err(PlayError::MustPlayNotDraw { seat }),
            Action::Draw if self.may_draw() => Ok(()),
            Action::Draw => Err(PlayError::CannotDraw {
                why: match self.rules.draw {
                    DrawRule::None => "these rules have no drawing",
                    DrawRule::UntilPlayable => "the boneyard is exhausted",
                },
            }),
            Action::Pass if can_place => Err(PlayError::MustPlayNotPass { seat }),
            Action::Pass if self.may_draw() => Err(PlayError::MustDrawNotPass { seat }),
            Action::Pass => Ok(()),
        }
    }

    /// Plays `mv` if it is legal; the game is unchanged when it is not.
    ///
    /// ```
    /// use pips::rules::{Game, Move, PlayError, presets::preset};
    /// let rules = preset("draw").unwrap().rules(2, None);
    /// let (mut game, _) = Game::new("draw", rules, 2, 1).unwrap();
    /// let other = 1 - game.to_act();
    /// assert!(matches!(game.play(Move::pass(other)), Err(PlayError::NotYourTurn { .. })));
    /// let first = game.legal_moves()[0];
    /// let report = game.play(first).unwrap();
    /// assert_eq!(report.score_change, vec![0, 0]);
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<Report, PlayError> {
        self.check(mv)?;
        let before = self.scores;
        let mut events = Vec::new();
        self.play_unchecked_with(mv, &mut events);
        let score_change = self
            .scores()
            .iter()
            .zip(before)
            .map(|(after, before)| after - before)
            .collect();
        Ok(Report {
            events,
            score_change,
        })
    }

    /// Plays a move known to be legal (from [`Game::legal_moves`]), without
    /// checking and without reporting events. An illegal move leaves the game
    /// in an unspecified but memory-safe state.
    pub fn play_unchecked(&mut self, mv: Move) {
        self.play_unchecked_with(mv, &mut ());
    }

    /// [`Game::play_unchecked`], reporting events to `sink`.
    pub fn play_unchecked_with<S: EventSink>(&mut self, mv: Move, sink: &mut S) {
        let seat = mv.seat;
        self.history.push(HistoryEntry {
            hand: self.hand_number,
            mv,
        });
        match mv.action {
            Action::Play { tile, end } => {
                if let Some(hand) = self.hands.get_mut(usize::from(seat)) {
                    hand.remove(tile);
                }
                self.layout.place(tile, end);
                self.required_lead = None;
                let ends_total = self.ends_total();
                sink.record(Event::TilePlayed {
                    seat,
                    tile,
                    end,
                    ends_total,
                });
                let points = in_play_points(self.rules.in_play_scoring, ends_total);
                if points > 0 {
                    let side = self.side_of(seat);
                    let points = i32::try_from(points).unwrap_or(i32::MAX);
                    self.credit(side, Some(seat), points, ScoreReason::Ends, sink);
                    if self.reached_target(side) {
                        self.finish(Outcome::Winner(side), sink);
                        return;
                    }
                }
                if self.hand(seat).is_empty() {
                    self.end_hand(HandEnd::Domino(seat), sink);
                    return;
                }
                self.to_act = self.next_seat(seat);
            }
            Action::Draw => {
                if let Some(tile) = self.boneyard.pop() {
                    if let Some(hand) = self.hands.get_mut(usize::from(seat)) {
                        hand.insert(tile);
                    }
                    sink.record(Event::TileDrawn { seat, tile });
                }
            }
            Action::Pass => {
                sink.record(Event::Passed { seat });
                self.to_act = self.next_seat(seat);
            }
        }
        if self.is_blocked() {
            self.end_hand(HandEnd::Blocked, sink);
        }
    }

    /// The seat after `seat`.
    fn next_seat(&self, seat: Seat) -> Seat {
        (seat + 1) % self.players
    }

    /// Adds `points` to `side` and reports it.
    fn credit<S: EventSink>(
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
        sink.record(Event::PointsScored {
            side,
            seat,
            points,
            reason,
        });
    }

    /// Whether `side` has reached the target of a target match.
    pub(super) fn reached_target(&self, side: Side) -> bool {
        !self.rules.single_hand
            && self
                .scores
                .get(usize::from(side))
                .is_some_and(|&score| i64::from(score) >= i64::from(self.rules.target))
    }

    /// Ends the match.
    fn finish<S: EventSink>(&mut self, outcome: Outcome, sink: &mut S) {
        self.outcome = Some(outcome);
        sink.record(Event::MatchEnded {
            outcome,
            scores: self.scores().to_vec(),
        });
    }

    /// Pips left in each seat's hand.
    fn pips_by_seat(&self) -> Vec<u32> {
        (0..self.players)
            .map(|seat| self.hand(seat).pips())
            .collect()
    }

    /// The side with strictly the fewest pips (sum over its seats).
    fn fewest_pips_side(&self, pips: &[u32]) -> Option<Side> {
        let mut totals = [0u32; MAX_SEATS];
        for (seat, &p) in (0..self.players).zip(pips) {
            totals[usize::from(self.side_of(seat))] += p;
        }
        let totals = &totals[..usize::from(self.sides())];
        let fewest = totals.iter().copied().min()?;
        let mut holders = (0..self.sides()).filter(|&side| totals[usize::from(side)] == fewest);
        match (holders.next(), holders.next()) {
            (Some(side), None) => Some(side),
            _ => None,
        }
    }

    /// Settles the hand, then ends the match or deals the next hand.
    fn end_hand<S: EventSink>(&mut self, end: HandEnd, sink: &mut S) {
        let pips = self.pips_by_seat();
        let winner = match end {
            HandEnd::Domino(seat) => Some(self.side_of(seat)),
            HandEnd::Blocked => self.fewest_pips_side(&pips),
        };
        let mut settlement = vec![0i32; usize::from(self.sides())];
        if let Some(side) = winner {
            let mut own = Vec::with_capacity(MAX_SEATS);
            let mut opponents = Vec::with_capacity(MAX_SEATS);
            for (seat, &p) in (0..self.players).zip(&pips) {
                if self.side_of(seat) == side {
                    own.push(p);
                } else {
                    opponents.push(p);
                }
            }
            let gained = opponents_points(self.rules.hand_rounding, &opponents);
            let lost = match end {
                HandEnd::Domino(_) => 0,
                HandEnd::Blocked => own_pips_penalty(self.rules.blocked_own, &own),
            };
            let points = i32::try_from(gained.saturating_sub(lost)).unwrap_or(i32::MAX);
            if let Some(slot) = settlement.get_mut(usize::from(side)) {
                *slot = points;
            }
        }
        sink.record(Event::HandEnded {
            hand: self.hand_number,
            end,
            winner,
            pips,
            settlement: settlement.clone(),
        });
        if let Some(side) = winner {
            let points = settlement.get(usize::from(side)).copied().unwrap_or(0);
            if points > 0 {
                let (seat, reason) = match end {
                    HandEnd::Domino(seat) => (Some(seat), ScoreReason::Domino),
                    HandEnd::Blocked => (None, ScoreReason::Blocked),
                };
                self.credit(side, seat, points, reason, sink);
                if self.reached_target(side) {
                    self.finish(Outcome::Winner(side), sink);
                    return;
                }
            }
        }
        if self.rules.single_hand {
            self.finish(winner.map_or(Outcome::Draw, Outcome::Winner), sink);
            return;
        }
        let went_out = match end {
            HandEnd::Domino(seat) => Some(seat),
            HandEnd::Blocked => None,
        };
        self.start_hand(self.hand_number + 1, went_out, sink);
    }

    /// Deals hand `hand_number` and seats its leader. `went_out` is the seat
    /// that ended the previous hand by going out, if one did.
    fn start_hand<S: EventSink>(&mut self, hand_number: u32, went_out: Option<Seat>, sink: &mut S) {
        let mut dealt = deal(&self.rules, self.players, self.seed, hand_number);
        let (leader, required_lead) = match (hand_number, self.rules.next_lead, went_out) {
            (1, _, _) | (_, NextLeadRule::FirstLead, _) => {
                dealt.lead(self.rules.first_lead, self.players)
            }
            (_, NextLeadRule::WinnerElseFirstLead, Some(seat)) => (seat, None),
            (_, NextLeadRule::WinnerElseFirstLead, None) => {
                dealt.lead(self.rules.first_lead, self.players)
            }
            (_, NextLeadRule::Rotate, _) => (self.next_seat(self.hand_leader), None),
        };
        self.hand_number = hand_number;
        self.hands = dealt.hands;
        self.boneyard = dealt.boneyard;
        self.boneyard.reverse();
        self.layout = Layout::new();
        self.to_act = leader;
        self.hand_leader = leader;
        self.required_lead = required_lead;
        sink.record(Event::HandDealt {
            hand: hand_number,
            leader,
            required_lead,
        });
    }
}
