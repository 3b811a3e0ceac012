//! A validated game: legal moves and checked and unchecked play. How a
//! hand and a match end is in [`settle`](super::settle); what one seat may
//! see is in [`view`](super::view).

use super::deal::{HandKey, MAX_SEATS, deal_without, hand_key, hand_rng, lead};
use super::end::End;
use super::errors::{NoDraw, PlayError, TrickMoveKind};
use super::events::{Event, EventSink, HandEnd, Outcome, ScoreReason, Side};
use super::family::Family;
use super::foot::Foot;
use super::layout::{Geometry, Layout};
use super::moves::{Action, Move, Seat};
use super::options::{DrawRule, InPlayScoring, NextLeadRule, Rules, RulesError, TableKind};
use super::place::{Place, PlaceKind};
use super::record::MatchDigest;
use super::scoring::in_play_points;
use super::table::Table;
use super::tile::{Tile, TileSet};
use super::train_game::{TurnState, hub_of_round};
use super::trains::Trains;

/// The most hands a match may last: a match still going after it ends,
/// the best score winning (a tie for best is a draw), so every match ends
/// under any house rules (and hand numbers fit the packed history of the
/// wire format). Every preset's random matches end in under 50 hands; the
/// limit ends house rules under which hands rarely score (e.g. matador
/// connections with every tile dealt to two seats, where nearly every
/// hand blocks and going out scores 1).
pub const MAX_HANDS: u32 = 1_000;

/// The most moves one hand can hold under `rules` with `players` seats, a
/// bound no legal hand reaches: each tile of the set placed once, drawn at
/// most once and followed by at most one end of turn, and between any two
/// of those moves fewer passes than there are seats (a pass by every seat
/// in turn, nobody placing or drawing, leaves the hand blocked).
#[must_use]
pub fn max_hand_moves(rules: &Rules, players: u8) -> usize {
    let tiles = rules.tile_set().len() as usize;
    (3 * tiles + 1) * usize::from(players)
}

/// Moves a game's history holds before it must grow: more than a hand of
/// the largest set can take, so moves do not allocate.
const HISTORY_RESERVE: usize = 256;

/// A move of the current hand, as kept in a game's history.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct HistoryEntry {
    /// The move.
    pub mv: Move,
    /// For a draw, the tile drawn, when known (a state set up by hand may
    /// leave it out).
    pub drawn: Option<Tile>,
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
/// from a client). A new game and every clone have room for the rest of the
/// hand, so their moves do not allocate; [`Clone::clone_from`] reuses the
/// target's room (a search plays many copies of one game). A game from a
/// setup holds only what it was given: a server plays one move on it, and
/// making room up front would cost more than the push that may grow it.
#[derive(PartialEq, Eq, Debug)]
pub struct Game {
    /// The preset it was started from (informational).
    pub(super) variant: String,
    /// The rules in force.
    pub(super) rules: Rules,
    /// Number of seats.
    pub(super) players: u8,
    /// Seed every hand is dealt from.
    pub(super) seed: u64,
    /// The seed's ChaCha key ([`hand_key`]), worked out once: each hand's
    /// generator starts from it (expanding the seed took about 1% of a
    /// random hand). Set only with `seed` (at construction and by
    /// [`Game::reseed`]).
    pub(super) hand_key: HandKey,
    /// Current hand, from 1.
    pub(super) hand_number: u32,
    /// Each seat's tiles (unused seats empty).
    pub(super) hands: [TileSet; MAX_SEATS],
    /// Undrawn tiles, the next to draw **last** so drawing is a `pop`
    /// (a line's and a hub table's: both deal one).
    pub(super) boneyard: Vec<Tile>,
    /// Score per side (unused sides 0).
    pub(super) scores: [i32; MAX_SEATS],
    /// Seat to move.
    pub(super) to_act: Seat,
    /// Seat that leads the current hand.
    pub(super) hand_leader: Seat,
    /// Tile the leader must lead, while forced.
    pub(super) required_lead: Option<Tile>,
    /// Whether the seat to act has drawn this turn (drawing one-then-pass).
    pub(super) drew_this_turn: bool,
    /// `Some` once the match is over.
    pub(super) outcome: Option<Outcome>,
    /// The current hand's moves (once the match is over, its last hand's).
    pub(super) history: Vec<HistoryEntry>,
    /// The running digest of every move of the match, advanced by
    /// [`Game::play`].
    pub(super) digest: MatchDigest,
    /// The table of the game's family: a line's layout, or a hub's
    /// trains or chicken foot with how the turn stands.
    pub(super) family: Family,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        // The fields not named are `Copy` (a new field that is not fails to
        // compile here, so it cannot be forgotten).
        let mut game = Game {
            variant: self.variant.clone(),
            boneyard: self.boneyard.clone(),
            history: self.history.clone(),
            family: self.family.clone(),
            ..*self
        };
        game.reserve();
        game
    }

    fn clone_from(&mut self, source: &Game) {
        let mut variant = std::mem::take(&mut self.variant);
        let mut boneyard = std::mem::take(&mut self.boneyard);
        let mut history = std::mem::take(&mut self.history);
        let mut family = std::mem::replace(&mut self.family, Family::Line(Layout::EMPTY));
        variant.clone_from(&source.variant);
        boneyard.clone_from(&source.boneyard);
        history.clone_from(&source.history);
        family.clone_from(&source.family);
        *self = Game {
            variant,
            boneyard,
            history,
            family,
            ..*source
        };
        self.reserve();
    }
}

impl Game {
    /// Makes room for the rest of the hand: the history's reserve and every
    /// arm able to hold the whole set (a no-op when there is room already).
    fn reserve(&mut self) {
        self.history
            .reserve(HISTORY_RESERVE.saturating_sub(self.history.len()));
        if let Family::Line(layout) = &mut self.family {
            layout.reserve(self.rules.tile_set().len() as usize);
        }
    }

    /// Gives back the room a game holds beyond what its current hand fills
    /// (a game keeps room for a long hand, so that a simulation or a reset
    /// allocates nothing): for a caller holding many games at once, whose
    /// memory is better small than ready (a batch of training games). The
    /// room grows again as the game needs it.
    pub fn shrink_to_fit(&mut self) {
        self.history.shrink_to_fit();
        self.boneyard.shrink_to_fit();
        if let Family::Line(layout) = &mut self.family {
            layout.shrink_to_fit();
        }
    }

    /// Deals the first hand of a new match. Its record's digest commits to
    /// the seed's own bytes (see [`Game::new_committed`]).
    ///
    /// ```
    /// use pips::rules::{Game, presets::preset};
    /// let rules = preset("muggins").unwrap().rules(2, None);
    /// let (game, events) = Game::new("muggins", rules, 2, 7).unwrap();
    /// assert_eq!(game.hand(0).len(), 7);
    /// assert_eq!(events.len(), 1); // the hand was dealt
    /// assert!(!game.legal_moves().is_empty());
    /// ```
    ///
    /// # Errors
    /// When the rules cannot be played by `players` seats.
    pub fn new(
        variant: &str,
        rules: Rules,
        players: u8,
        seed: u64,
    ) -> Result<(Game, Vec<Event>), RulesError> {
        Game::new_committed(variant, rules, players, seed, &seed.to_le_bytes())
    }

    /// [`Game::new`], with the record's digest committing to
    /// `seed_commitment` instead of the seed: a server that keeps the seed
    /// secret commits to it with a key, so that the digest, which travels
    /// in the open, reveals nothing of the deals.
    ///
    /// # Errors
    /// When the rules cannot be played by `players` seats.
    pub fn new_committed(
        variant: &str,
        rules: Rules,
        players: u8,
        seed: u64,
        seed_commitment: &[u8],
    ) -> Result<(Game, Vec<Event>), RulesError> {
        rules.validate(players)?;
        let mut game = Game {
            variant: variant.to_owned(),
            rules,
            players,
            seed,
            hand_key: hand_key(seed),
            hand_number: 0,
            hands: [TileSet::EMPTY; MAX_SEATS],
            boneyard: Vec::new(),
            scores: [0; MAX_SEATS],
            to_act: 0,
            hand_leader: 0,
            required_lead: None,
            drew_this_turn: false,
            outcome: None,
            history: Vec::with_capacity(HISTORY_RESERVE),
            digest: MatchDigest::start(&rules, players, seed_commitment),
            // The hand's own, from `start_hand`.
            family: Family::Line(Layout::EMPTY),
        };
        let mut events = Vec::new();
        game.start_hand(1, None, &mut events);
        game.reserve();
        Ok((game, events))
    }

    /// Deals a new match from `seed` in place: the game [`Game::new`] deals
    /// for this game's variant, rules and seats, in this game's room (an
    /// environment resetting many matches allocates nothing).
    pub fn restart(&mut self, seed: u64) {
        self.restart_unrecorded(seed);
        self.digest = MatchDigest::start(&self.rules, self.players, &seed.to_le_bytes());
    }

    /// [`Game::restart`] for a caller that keeps no match record (a batch of
    /// training games): the match digest is not started (a hash of the
    /// rules and seed, a good part of a restart's cost) but set to
    /// [`MatchDigest::UNRECORDED`].
    pub fn restart_unrecorded(&mut self, seed: u64) {
        self.reseed(seed);
        self.hand_number = 0;
        self.hands = [TileSet::EMPTY; MAX_SEATS];
        self.scores = [0; MAX_SEATS];
        self.to_act = 0;
        self.hand_leader = 0;
        self.required_lead = None;
        self.drew_this_turn = false;
        self.outcome = None;
        self.history.clear();
        self.digest = MatchDigest::UNRECORDED;
        self.start_hand(1, None, &mut ());
    }

    /// The preset the game was started from.
    #[must_use]
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// The rules in force.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Number of seats.
    #[must_use]
    pub fn players(&self) -> u8 {
        self.players
    }

    /// Number of sides.
    #[must_use]
    pub fn sides(&self) -> u8 {
        self.rules.sides(self.players)
    }

    /// The side `seat` scores for.
    #[must_use]
    pub fn side_of(&self, seat: Seat) -> Side {
        if self.rules.partnerships {
            seat % 2
        } else {
            seat
        }
    }

    /// The seed every hand is dealt from.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Replaces the seed later hands are dealt from, and its key with it
    /// (the one way to change it after construction, so that the two never
    /// disagree).
    pub(super) fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.hand_key = hand_key(seed);
    }

    /// The current hand, from 1.
    #[must_use]
    pub fn hand_number(&self) -> u32 {
        self.hand_number
    }

    /// The tiles `seat` holds.
    #[must_use]
    pub fn hand(&self, seat: Seat) -> TileSet {
        self.hands
            .get(usize::from(seat))
            .copied()
            .unwrap_or(TileSet::EMPTY)
    }

    /// The undrawn tiles, next to draw first.
    #[must_use]
    pub fn boneyard(&self) -> impl ExactSizeIterator<Item = Tile> + '_ {
        self.boneyard.iter().rev().copied()
    }

    /// Number of undrawn tiles.
    #[must_use]
    pub fn boneyard_len(&self) -> usize {
        self.boneyard.len()
    }

    /// The line (empty at a hub table).
    #[must_use]
    pub fn layout(&self) -> &Layout {
        static NONE: Layout = Layout::EMPTY;
        self.family.line().unwrap_or(&NONE)
    }

    /// The hub table (trains or a chicken foot), at a hub game.
    #[must_use]
    pub(crate) fn table(&self) -> Option<&Table> {
        self.family.table()
    }

    /// The train table, at a train game.
    #[must_use]
    pub fn trains(&self) -> Option<&Trains> {
        self.table().and_then(Table::trains)
    }

    /// The chicken foot table, at a chicken foot game.
    #[must_use]
    pub fn foot(&self) -> Option<&Foot> {
        self.table().and_then(Table::foot)
    }

    /// How the current turn stands at a hub table (the default elsewhere).
    #[must_use]
    pub fn turn(&self) -> TurnState {
        match &self.family {
            Family::Hub(hub) => hub.turn,
            Family::Line(_) | Family::Tricks(_) => TurnState::default(),
        }
    }

    /// Score per side.
    #[must_use]
    pub fn scores(&self) -> &[i32] {
        &self.scores[..usize::from(self.sides())]
    }

    /// The seat to move (meaningless once the match is over).
    #[must_use]
    pub fn to_act(&self) -> Seat {
        self.to_act
    }

    /// The seat that leads the current hand.
    #[must_use]
    pub fn hand_leader(&self) -> Seat {
        self.hand_leader
    }

    /// The tile the leader must lead, while forced.
    #[must_use]
    pub fn required_lead(&self) -> Option<Tile> {
        self.required_lead
    }

    /// Whether the seat to act has already drawn this turn (only under
    /// one-then-pass drawing).
    #[must_use]
    pub fn drew_this_turn(&self) -> bool {
        self.drew_this_turn
    }

    /// How the match ended, once it has.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The current hand's moves (once the match is over, its last hand's),
    /// oldest first.
    #[must_use]
    pub fn history(&self) -> &[HistoryEntry] {
        &self.history
    }

    /// The running digest of every move of the match (see
    /// [`record`](super::record)).
    #[must_use]
    pub fn digest(&self) -> MatchDigest {
        self.digest
    }

    /// The parts of the rules that shape the layout.
    #[must_use]
    pub fn geometry(&self) -> Geometry {
        self.rules.geometry()
    }

    /// The ends total as counted for in-play scoring.
    #[must_use]
    pub fn ends_total(&self) -> u32 {
        match &self.family {
            Family::Line(layout) => layout.ends_total(self.geometry()),
            Family::Hub(_) | Family::Tricks(_) => 0,
        }
    }

    /// The ends a tile may be placed on now, with the number each shows.
    pub fn open_ends(&self) -> impl Iterator<Item = (End, u8)> + '_ {
        self.layout().open_ends()
    }

    /// The tiles of `hand` that can be placed now.
    #[must_use]
    pub fn placeable(&self, hand: TileSet) -> TileSet {
        match &self.family {
            Family::Line(layout) => self.line_placeable(layout, hand),
            Family::Hub(hub) => self.table_placeable(&hub.table, hand),
            Family::Tricks(_) => TileSet::EMPTY,
        }
    }

    /// [`Game::placeable`] at a line.
    fn line_placeable(&self, layout: &Layout, hand: TileSet) -> TileSet {
        if layout.is_empty() {
            return match self.required_lead {
                Some(tile) if hand.contains(tile) => [tile].into_iter().collect(),
                Some(_) => TileSet::EMPTY,
                None => hand,
            };
        }
        hand.and(layout.fitting())
    }

    /// Whether the rules and the boneyard let some seat draw.
    #[must_use]
    pub fn boneyard_open(&self) -> bool {
        self.rules.draw != DrawRule::None
            && self.boneyard.len() > usize::from(self.rules.boneyard_reserve)
    }

    /// Whether the seat to act may draw now (if it cannot place a tile).
    #[must_use]
    pub fn may_draw(&self) -> bool {
        self.boneyard_open() && !(self.rules.draw == DrawRule::OneThenPass && self.drew_this_turn)
    }

    /// Whether nobody can place a tile and nobody may draw.
    // (Inlined: it runs after every move of a line game, and with a third
    // family it had stopped being.)
    #[must_use]
    #[inline(always)]
    pub fn is_blocked(&self) -> bool {
        if self.boneyard_open() {
            return false;
        }
        // (A line first, on one test of the family; a trick hand ends by
        // its own rules.)
        let Family::Line(layout) = &self.family else {
            return matches!(&self.family, Family::Hub(hub) if self.table_blocked(&hub.table));
        };
        self.line_placeable(layout, self.all_hands()).is_empty()
    }

    /// How many tiles the seats hold together.
    #[must_use]
    pub fn tiles_in_hands(&self) -> u32 {
        self.all_hands().len()
    }

    /// Every tile in some seat's hand. Unused seats hold no tiles, so a
    /// table of up to four seats folds four (a fixed four, unrolled: this
    /// runs after every move) and a larger one all eight.
    pub(super) fn all_hands(&self) -> TileSet {
        let union = |hands: &[TileSet]| hands.iter().fold(TileSet::EMPTY, |set, &h| set.or(h));
        match self.hands.first_chunk::<4>() {
            Some(four) if self.players <= 4 => union(four),
            _ => union(&self.hands),
        }
    }

    /// The legal moves of the seat to act (none once the match is over).
    #[must_use]
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
        // (A line first, on one test of the family: the line games' hot
        // path. The other families' moves are worked out out of line.)
        let Family::Line(layout) = &self.family else {
            return self.moves_off_line_into(out);
        };
        let seat = self.to_act;
        let placeable = self.line_placeable(layout, self.hand(seat));
        if layout.is_empty() {
            out.extend(placeable.iter().map(|tile| Move::play(seat, tile, None)));
        } else {
            let connect = self.rules.connect;
            for tile in placeable.iter() {
                // The open ends the tile fits, looked up rather than tested
                // end by end.
                for end in layout.ends_fitting(tile, connect) {
                    out.push(Move::play(seat, tile, Some(end)));
                }
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

    /// [`Game::legal_moves_into`] at a hub table or a trick game.
    #[cold]
    #[inline(never)]
    fn moves_off_line_into(&self, out: &mut Vec<Move>) {
        match &self.family {
            Family::Hub(hub) => self.table_moves_into(&hub.table, out),
            Family::Tricks(hand) => Game::trick_moves_into(hand, out),
            Family::Line(_) => {}
        }
    }

    /// Checks that `mv` is legal now, saying precisely why not.
    ///
    /// # Errors
    /// Why the move is not legal now.
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
        if let Family::Tricks(hand) = &self.family {
            return Game::check_trick(hand, mv);
        }
        let hand = self.hand(seat);
        if let Action::Play { tile, .. } = mv.action {
            if !tile.fits_set(self.rules.max_pip) {
                return Err(PlayError::InvalidTile {
                    tile,
                    max_pip: self.rules.max_pip,
                });
            }
            if !hand.contains(tile) {
                return Err(PlayError::TileNotInHand { seat, tile });
            }
        }
        let layout = match &self.family {
            Family::Line(layout) => layout,
            Family::Hub(hub) => return self.check_on_table(&hub.table, mv),
            Family::Tricks(_) => return Ok(()),
        };
        let can_place = !self.line_placeable(layout, hand).is_empty();
        match mv.action {
            Action::Play { tile, place } => {
                if matches!(place.kind(), PlaceKind::Train(_) | PlaceKind::Foot(_)) {
                    return Err(PlayError::PlaceNotAtThisTable {
                        place,
                        table: TableKind::Line,
                    });
                }
                match (place.end(), layout.is_empty()) {
                    (Some(_), true) => Err(PlayError::LeadHasNoEnd),
                    (None, true) => match self.required_lead {
                        Some(required) if required != tile => {
                            Err(PlayError::MustLeadRequiredTile { required })
                        }
                        _ => Ok(()),
                    },
                    (None, false) => Err(PlayError::EndRequired),
                    (Some(end), false) => match layout.open_end(end) {
                        None => Err(PlayError::EndNotOpen { end }),
                        Some(pips) if self.rules.connect.fits(tile, pips) => Ok(()),
                        Some(pips) => Err(PlayError::DoesNotMatchEnd { tile, end, pips }),
                    },
                }
            }
            Action::Draw if can_place => Err(PlayError::MustPlayNotDraw { seat }),
            Action::Draw if self.may_draw() => Ok(()),
            Action::Draw => Err(PlayError::CannotDraw(match self.rules.draw {
                DrawRule::None => NoDraw::RulesHaveNoDrawing,
                _ if !self.boneyard_open() => NoDraw::BoneyardExhausted,
                _ => NoDraw::AlreadyDrew,
            })),
            Action::Pass if can_place => Err(PlayError::MustPlayNotPass { seat }),
            Action::Pass if self.may_draw() => Err(PlayError::MustDrawNotPass { seat }),
            Action::Pass => Ok(()),
            Action::EndTurn => Err(PlayError::NoTurnToEnd { seat }),
            Action::Bid(_) | Action::Name(_) | Action::Discard(_) | Action::Trick(_) => {
                Err(not_a_move_here(mv.action, TableKind::Line))
            }
        }
    }

    /// Plays `mv` if it is legal, advancing the match digest; the game is
    /// unchanged when it is not.
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
    ///
    /// # Errors
    /// Why the move is not legal now (see [`Game::check`]).
    pub fn play(&mut self, mv: Move) -> Result<Report, PlayError> {
        self.check(mv)?;
        self.digest = self.digest.then(self.hand_number, mv);
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

    /// [`Game::play`] without its report: the move checked and recorded in
    /// the match digest, its events and score change not collected (a
    /// learning environment's step, which needs neither).
    ///
    /// # Errors
    /// Why the move is not legal now (see [`Game::check`]).
    pub fn apply(&mut self, mv: Move) -> Result<(), PlayError> {
        self.check(mv)?;
        self.digest = self.digest.then(self.hand_number, mv);
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays a move known to be legal (from [`Game::legal_moves`]), without
    /// checking, without reporting events and without advancing the match
    /// digest (simulations keep no record). An illegal move leaves the game
    /// in an unspecified but memory-safe state.
    pub fn play_unchecked(&mut self, mv: Move) {
        self.play_unchecked_with(mv, &mut ());
    }

    /// [`Game::play_unchecked`], reporting events to `sink`.
    pub fn play_unchecked_with<S: EventSink>(&mut self, mv: Move, sink: &mut S) {
        let seat = mv.seat;
        self.history.push(HistoryEntry { mv, drawn: None });
        // (A line first, on one test of the family, as in
        // `legal_moves_into`.)
        let Family::Line(layout) = &mut self.family else {
            return self.play_off_line(mv, sink);
        };
        match mv.action {
            Action::Play { tile, place } => {
                let closing = is_closing(self.rules.closing_wins, layout, tile);
                if let Some(hand) = self.hands.get_mut(usize::from(seat)) {
                    hand.remove(tile);
                }
                layout.place(tile, place.end(), self.rules.geometry());
                self.required_lead = None;
                self.drew_this_turn = false;
                let points = match self.rules.in_play_scoring {
                    InPlayScoring::None => 0,
                    scoring => in_play_points(scoring, layout.ends_total(self.rules.geometry())),
                };
                sink.record(|| Event::TilePlayed {
                    seat,
                    tile,
                    place,
                    ends_total: self.ends_total(),
                    started_arm: None,
                });
                // Converted where used: the common placement scores nothing.
                let points_i32 = || i32::try_from(points).unwrap_or(i32::MAX);
                if self.hand(seat).is_empty() {
                    let bonus = self.capicua_points(tile, place);
                    let points = points_i32();
                    self.end_hand_by_placement(seat, HandEnd::Domino(seat), points, bonus, sink);
                    return;
                }
                if closing {
                    let points = points_i32();
                    self.end_hand_by_placement(seat, HandEnd::Closed(seat), points, 0, sink);
                    return;
                }
                if points > 0 && self.score_at_once(seat, points_i32(), ScoreReason::Ends, sink) {
                    return;
                }
                self.to_act = self.next_seat(seat);
            }
            Action::Draw => {
                if self.draw_for(seat, sink) {
                    self.drew_this_turn = self.rules.draw == DrawRule::OneThenPass;
                }
            }
            Action::Pass => {
                sink.record(|| Event::Passed { seat });
                self.drew_this_turn = false;
                self.to_act = self.next_seat(seat);
                if self.rules.pass_bonus != 0 {
                    if let Some(placer) = self.pase_corrido() {
                        let bonus = i32::from(self.rules.pass_bonus);
                        if self.score_at_once(placer, bonus, ScoreReason::PassBonus, sink) {
                            return;
                        }
                    }
                }
            }
            // No line moves (refused by `check`).
            Action::EndTurn
            | Action::Bid(_)
            | Action::Name(_)
            | Action::Discard(_)
            | Action::Trick(_) => {}
        }
        if self.is_blocked() {
            self.end_hand(HandEnd::Blocked, false, sink);
        }
    }

    /// [`Game::play_unchecked_with`] at a hub table or a trick game.
    #[cold]
    #[inline(never)]
    fn play_off_line<S: EventSink>(&mut self, mv: Move, sink: &mut S) {
        // (One test: the table a hub has, or none at a trick game.)
        match self.table() {
            Some(Table::Trains(_)) => self.play_train(mv, sink),
            Some(Table::Foot(_)) => self.play_foot(mv, sink),
            None => self.play_trick(mv, sink),
        }
    }

    /// `seat` draws the boneyard's next tile into its hand, the history's
    /// last entry (the draw) naming it; whether there was one.
    #[inline]
    pub(super) fn draw_for<S: EventSink>(&mut self, seat: Seat, sink: &mut S) -> bool {
        let Some(tile) = self.boneyard.pop() else {
            return false;
        };
        if let Some(hand) = self.hands.get_mut(usize::from(seat)) {
            hand.insert(tile);
        }
        if let Some(entry) = self.history.last_mut() {
            entry.drawn = Some(tile);
        }
        sink.record(|| Event::TileDrawn {
            seat,
            tile: Some(tile),
        });
        true
    }

    /// Who leads after a hand ending in `end`, won by `winner`, under
    /// `NextLeadRule::WinnerOrBlocker`: the seat that went out (or
    /// closed); after a blocked hand the blocker (who placed its last
    /// tile) if its side won, the hand's leader again on a tie, else the
    /// seat after the blocker. Called before the hand's history is cleared.
    fn winner_or_blocker(&self, end: HandEnd, winner: Option<Side>) -> Seat {
        if let Some(seat) = end.seat() {
            return seat;
        }
        let blocker = self.last_placer_if_any().unwrap_or(self.hand_leader);
        match winner {
            Some(side) if side == self.side_of(blocker) => blocker,
            None => self.hand_leader,
            Some(_) => self.next_seat(blocker),
        }
    }

    /// The capicúa bonus earned by `tile`, just placed on `end` as its
    /// seat's last tile: a tile (never a double) that fitted both open ends
    /// of a two-end line while they showed different numbers, never the
    /// lead. Read after the placement: the end it went on now shows its
    /// other half, so it fitted both exactly when both ends now show the
    /// same number.
    fn capicua_points(&self, tile: Tile, place: Place) -> i32 {
        if self.rules.capicua_bonus == 0 || place.is_lead() || tile.is_double() {
            return 0;
        }
        let layout = self.layout();
        match (layout.open_end(End::Left), layout.open_end(End::Right)) {
            (Some(left), Some(right)) if left == right => i32::from(self.rules.capicua_bonus),
            _ => 0,
        }
    }

    /// Scores a placement by `seat` that ends the hand (`end`): its in-play
    /// `points`, its capicúa `bonus`, then the hand's settlement. Under an
    /// exact target the three are checked together, and void together when
    /// they would pass it; a target reached ends the match at once.
    fn end_hand_by_placement<S: EventSink>(
        &mut self,
        seat: Seat,
        end: HandEnd,
        points: i32,
        bonus: i32,
        sink: &mut S,
    ) {
        let earned = [(points, ScoreReason::Ends), (bonus, ScoreReason::Capicua)];
        let mut void_settlement = false;
        if points > 0 || bonus > 0 {
            let side = self.side_of(seat);
            let settlement = self.settlement_for(side, end);
            let total = points.saturating_add(bonus).saturating_add(settlement);
            if self.overshoots(side, total) {
                for (points, reason) in earned.into_iter().filter(|&(p, _)| p > 0) {
                    sink.record(|| Event::PointsVoided {
                        side,
                        seat: Some(seat),
                        points,
                        reason,
                    });
                }
                void_settlement = true;
            } else {
                // Together they fit the target, so each does on its own.
                for (points, reason) in earned.into_iter().filter(|&(p, _)| p > 0) {
                    if self.score_at_once(seat, points, reason, sink) {
                        return;
                    }
                }
            }
        }
        self.end_hand(end, void_settlement, sink);
    }

    /// The seat whose placement every other seat has now passed after, in
    /// turn (a pase corrido), read from the hand's history: the passes
    /// since the last placement, a turn's draws before its pass included.
    fn pase_corrido(&self) -> Option<Seat> {
        let mut passes = 0;
        for entry in self.history.iter().rev() {
            match entry.mv.action {
                Action::Pass => passes += 1,
                Action::Draw | Action::EndTurn => {}
                Action::Play { .. } => {
                    return (passes + 1 == self.players).then_some(entry.mv.seat);
                }
                // (Not a line game's moves.)
                Action::Bid(_) | Action::Name(_) | Action::Discard(_) | Action::Trick(_) => {
                    return None;
                }
            }
        }
        None
    }

    /// Credits `points` to `seat`'s side at once (a tile's points, a
    /// bonus), or reports them void where they would pass an exact target;
    /// whether they ended the match by reaching the target.
    fn score_at_once<S: EventSink>(
        &mut self,
        seat: Seat,
        points: i32,
        reason: ScoreReason,
        sink: &mut S,
    ) -> bool {
        let side = self.side_of(seat);
        if self.overshoots(side, points) {
            sink.record(|| Event::PointsVoided {
                side,
                seat: Some(seat),
                points,
                reason,
            });
            return false;
        }
        self.credit(side, Some(seat), points, reason, sink);
        if self.wins_by_target(side) {
            self.finish(Outcome::Winner(side), sink);
            return true;
        }
        false
    }

    /// The seat after `seat`.
    #[must_use]
    pub fn next_seat(&self, seat: Seat) -> Seat {
        // A comparison, not `% players`: a division on every turn.
        if seat + 1 >= self.players {
            0
        } else {
            seat + 1
        }
    }

    /// Deals hand `hand_number` and seats its leader. `previous`: how the
    /// previous hand ended and the side that won it (none for the first
    /// hand).
    pub(super) fn start_hand<S: EventSink>(
        &mut self,
        hand_number: u32,
        previous: Option<(HandEnd, Option<Side>)>,
        sink: &mut S,
    ) {
        if let Some(options) = self.rules.tricks {
            return self.start_trick_hand(hand_number, options, sink);
        }
        let mut rng = hand_rng(&self.hand_key, hand_number);
        // A train table's (or a chicken foot's) round begins with its hub
        // on the table.
        let hub = self
            .rules
            .table
            .has_hub()
            .then(|| hub_of_round(self.rules.max_pip, hand_number));
        let hands = deal_without(&self.rules, self.players, hub, &mut rng, &mut self.boneyard);
        let (leader, required_lead) = match (hand_number, self.rules.next_lead, previous) {
            (1, _, _) | (_, NextLeadRule::FirstLead, _) | (_, _, None) => {
                lead(self.rules.first_lead, &hands, self.players, &mut rng)
            }
            (_, NextLeadRule::WinnerElseFirstLead, Some((end, _))) => match end.seat() {
                Some(seat) => (seat, None),
                None => lead(self.rules.first_lead, &hands, self.players, &mut rng),
            },
            (_, NextLeadRule::Rotate, _) => (self.next_seat(self.hand_leader), None),
            (_, NextLeadRule::WinnerOrBlocker, Some((end, winner))) => {
                (self.winner_or_blocker(end, winner), None)
            }
        };
        self.hand_number = hand_number;
        self.hands = hands;
        match (&mut self.family, hub) {
            (Family::Line(layout), None) => layout.clear(),
            (family, hub) => {
                let table = hub.and_then(|hub| self.rules.table_at_start(hub.high(), self.players));
                match (family, table) {
                    // (In place: no drop of the last round's family.)
                    (Family::Hub(round), Some(table)) => {
                        round.table = table;
                        round.turn = TurnState::default();
                    }
                    (family, table) => *family = Family::at_start(&self.rules, table),
                }
            }
        }
        self.history.clear();
        self.drew_this_turn = false;
        self.to_act = leader;
        self.hand_leader = leader;
        self.required_lead = required_lead;
        sink.record(|| Event::HandDealt {
            hand: hand_number,
            leader,
            required_lead,
        });
    }
}

/// Whether placing `tile` now would close `layout` (where `closing_wins`):
/// at least two tiles down, and the tile's halves are the two open ends.
/// The refusal of a trick game's `action` at a game on a `table`.
pub(crate) fn not_a_move_here(action: Action, table: TableKind) -> PlayError {
    PlayError::NotAMoveOfThisGame {
        kind: TrickMoveKind::of(action).unwrap_or(TrickMoveKind::Bid),
        table,
    }
}

fn is_closing(closing_wins: bool, layout: &Layout, tile: Tile) -> bool {
    if !closing_wins || layout.len() < 2 {
        return false;
    }
    match (layout.open_end(End::Left), layout.open_end(End::Right)) {
        (Some(left), Some(right)) => tile == Tile::new(left, right),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets::PRESETS;

    /// A game restarted in place, whatever it held, is the game `new`
    /// deals from the same seed (restarted unrecorded, but for its digest).
    #[test]
    fn a_restart_is_a_new_game() {
        for preset in PRESETS {
            for players in preset.players.clone() {
                let rules = preset.rules(players, None);
                let (mut game, _) = Game::new(preset.id, rules, players, 5).expect("valid");
                for step in 0..60 {
                    let Some(&mv) = game.legal_moves().get(step % 3) else {
                        break;
                    };
                    game.play(mv).expect("legal");
                }
                let mut unrecorded = game.clone();
                // A game that let its room go plays on alike.
                let mut shrunk = game.clone();
                shrunk.shrink_to_fit();
                assert_eq!(shrunk, game);
                let mut replayed = game.clone();
                for step in 0..30 {
                    let Some(&mv) = replayed.legal_moves().get(step % 2) else {
                        break;
                    };
                    replayed.play(mv).expect("legal");
                    shrunk.play(mv).expect("legal");
                    assert_eq!(shrunk, replayed, "{} {players}p, move {step}", preset.id);
                }
                game.restart(11);
                let (fresh, _) = Game::new(preset.id, rules, players, 11).expect("valid");
                assert_eq!(game, fresh, "{} {players}p", preset.id);
                // Unrecorded: the same game but for its digest.
                unrecorded.restart_unrecorded(11);
                assert_eq!(unrecorded.digest(), MatchDigest::UNRECORDED);
                unrecorded.digest = fresh.digest();
                assert_eq!(unrecorded, fresh, "{} {players}p unrecorded", preset.id);
            }
        }
    }

    /// A clone and a `clone_from` copy equal their source, whatever the
    /// target held before, and both have room for a hand.
    #[test]
    fn copies_equal_their_source_and_have_room() {
        let mut target: Option<Game> = None;
        for preset in PRESETS {
            for players in preset.players.clone() {
                let rules = preset.rules(players, None);
                let (mut game, _) = Game::new(preset.id, rules, players, 5).expect("valid");
                for step in 0..40 {
                    let clone = game.clone();
                    assert_eq!(clone, game);
                    let refilled = target.get_or_insert_with(|| clone.clone());
                    refilled.clone_from(&game);
                    assert_eq!(*refilled, game, "{} {players}p, move {step}", preset.id);
                    for copy in [&clone, &*refilled] {
                        assert!(copy.history.capacity() >= HISTORY_RESERVE);
                    }
                    let Some(&mv) = game.legal_moves().first() else {
                        break;
                    };
                    game.play_unchecked(mv);
                }
            }
        }
    }
}
