//! An unvalidated state, as received from a client, and the one checked
//! constructor that turns it into a [`Game`].

use super::deal::{MAX_SEATS, forced_lead_for, hand_key};
use super::end::{ByEnd, End};
use super::errors::{SeatRole, SetupError, TablePart, TilePlace};
use super::events::Outcome;
use super::family::Family;
use super::game::{Game, HistoryEntry, MAX_HANDS, max_hand_moves};
use super::layout::{Layout, Placed, SpinnerAt};
use super::moves::{Action, Seat};
use super::options::{DrawRule, LeadRule, MIN_PLAYERS, Rules, TableKind};
use super::record::MatchDigest;
use super::table::Table;
use super::tile::{Tile, TileSet};

/// A state as a client sent it: nothing here has been checked. Seats are
/// kept as the wire's `u32` so that an out-of-range seat can be reported.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    /// The preset it was started from (informational).
    pub variant: String,
    /// The rules in force.
    pub rules: Rules,
    /// Number of seats.
    pub players: u32,
    /// Seed every hand is dealt from.
    pub seed: u64,
    /// Current hand, from 1.
    pub hand_number: u32,
    /// Each seat's tiles.
    pub hands: Vec<Vec<Tile>>,
    /// Undrawn tiles, next to draw first.
    pub boneyard: Vec<Tile>,
    /// The lead, if placed.
    pub lead: Option<Tile>,
    /// The left arm, nearest the lead first.
    pub left: Vec<Placed>,
    /// The right arm, nearest the lead first.
    pub right: Vec<Placed>,
    /// The first arm from the spinner's short end, nearest the spinner first.
    pub up: Vec<Placed>,
    /// The second arm from the spinner's short end.
    pub down: Vec<Placed>,
    /// Where the spinner lies, if there is one.
    pub spinner: Option<SpinnerAt>,
    /// Score per side.
    pub scores: Vec<i32>,
    /// Seat to move.
    pub to_act: u32,
    /// Seat that leads the current hand.
    pub hand_leader: u32,
    /// Tile the leader must lead, while forced.
    pub required_lead: Option<Tile>,
    /// Whether the seat to act has drawn this turn (one-then-pass drawing).
    pub drew_this_turn: bool,
    /// `Some` once the match is over.
    pub outcome: Option<Outcome>,
    /// The current hand's moves (once the match is over, its last hand's).
    pub history: Vec<HistoryEntry>,
    /// The running digest of the match's moves (carried, not checked: the
    /// earlier hands it vouches for are not in the state).
    pub digest: MatchDigest,
    /// The table, at a game not played on a line: the trains or the
    /// chicken foot (checked against the round's moves; a line's state has
    /// none).
    pub table: Option<Table>,
    /// Moon's widow as dealt (the tile set aside, which the bidder takes
    /// once he has named the contract); `None` at every other game.
    pub widow: Option<Tile>,
}

impl From<&Game> for Setup {
    fn from(game: &Game) -> Setup {
        let players = game.players();
        Setup {
            variant: game.variant().to_owned(),
            rules: *game.rules(),
            players: u32::from(players),
            seed: game.seed(),
            hand_number: game.hand_number(),
            hands: (0..players)
                .map(|s| game.hand(s).iter().collect())
                .collect(),
            boneyard: game.boneyard().collect(),
            lead: game.layout().lead(),
            left: game.layout().arm(End::Left).to_vec(),
            right: game.layout().arm(End::Right).to_vec(),
            up: game.layout().arm(End::Up).to_vec(),
            down: game.layout().arm(End::Down).to_vec(),
            spinner: game.layout().spinner(),
            scores: game.scores().to_vec(),
            to_act: u32::from(game.to_act()),
            hand_leader: u32::from(game.hand_leader()),
            required_lead: game.required_lead(),
            drew_this_turn: game.drew_this_turn(),
            outcome: game.outcome(),
            history: game.history().to_vec(),
            digest: game.digest(),
            table: game.table().cloned(),
            widow: game.trick_hand().and_then(|hand| hand.dealt_hands().1),
        }
    }
}

/// Records where each tile has been seen, to prove the set is conserved.
pub(in crate::rules) struct TileCensus {
    /// The set's highest half.
    pub(in crate::rules) max_pip: u8,
    /// Tiles seen so far.
    pub(in crate::rules) seen: TileSet,
}

impl TileCensus {
    /// Counts `tile`, found at `at` (built only on error: this runs for
    /// every tile of the state on every call).
    pub(in crate::rules) fn count(
        &mut self,
        tile: Tile,
        at: impl FnOnce() -> TilePlace,
    ) -> Result<(), SetupError> {
        if !tile.fits_set(self.max_pip) {
            return Err(SetupError::InvalidTile {
                at: at(),
                tile,
                max_pip: self.max_pip,
            });
        }
        if !self.seen.insert(tile) {
            return Err(SetupError::TileDuplicated { at: at(), tile });
        }
        Ok(())
    }
}

/// `value` as a seat of a `players`-seat game, naming `role` on error.
fn seat(value: u32, role: SeatRole, players: u8) -> Result<Seat, SetupError> {
    match Seat::try_from(value) {
        Ok(seat) if seat < players => Ok(seat),
        _ => Err(SetupError::SeatOutOfRange {
            role,
            seat: value,
            players,
        }),
    }
}

impl Game {
    /// Checks a received state once, completely, and returns the game it
    /// describes. After this, no rule re-checks the state.
    ///
    /// Checked, in this order: the seats and the rules; the counts (hand
    /// number, one hand per seat, one score per side, no more moves in the
    /// history than a hand can hold); the table census (every tile of the
    /// set exactly once across hands, boneyard and layout); the layout
    /// (every touching pair of halves, the spinner, the order arms grow
    /// in); the seats named (to act, leader, winner); the history of the
    /// hand (seats, each tile played once, each drawn tile named, drawn once
    /// and still held by its drawer or on the table; then every move
    /// replayed from where the history starts, as the rules check it, to
    /// the state: see [`line_setup`](super::line_setup) and
    /// [`table_setup`](super::table_setup)); and the phase (a match in
    /// play has no empty hand, no side at its target and no blocked table,
    /// and its forced lead is the one the rules force, held by the seat to
    /// act).
    ///
    /// # Errors
    /// The first fault found, with where it lies.
    pub fn from_setup(mut setup: Setup) -> Result<Game, SetupError> {
        check_label(&setup.variant)?;
        let players = check_players(setup.players, setup.rules.max_players())?;
        setup.rules.validate(players)?;
        check_counts(&setup, players)?;
        let max = max_hand_moves(&setup.rules, players);
        if setup.history.len() > max {
            return Err(SetupError::HistoryTooLong {
                moves: setup.history.len(),
                max,
            });
        }
        if setup.rules.table == TableKind::Tricks {
            let seats = check_seats(&setup, players)?;
            return Game::from_trick_setup(setup, players, seats);
        }
        if setup.widow.is_some() {
            return Err(SetupError::Widow { moon: false });
        }
        let kind = setup.rules.table;
        let has_line = setup.lead.is_some()
            || setup.spinner.is_some()
            || arms_of(&setup).iter().any(|(_, arm)| !arm.is_empty());
        let table_fits = match (&setup.table, kind) {
            (None, TableKind::Line) => true,
            (Some(Table::Trains(_)), TableKind::Trains)
            | (Some(Table::Foot(_)), TableKind::ChickenFoot) => {
                !has_line && setup.required_lead.is_none()
            }
            (Some(_) | None, _) => false,
        };
        if !table_fits {
            return Err(SetupError::Table(TablePart::Missing {
                rules: kind,
                found: setup.table.as_ref().map(Table::kind),
            }));
        }
        let hands = take_census(&setup)?;
        if kind != TableKind::Line {
            let seats = check_seats(&setup, players)?;
            return Game::from_table_setup(setup, players, hands, seats);
        }
        let layout = assemble_layout(&mut setup)?;
        let (to_act, hand_leader) = check_seats(&setup, players)?;
        check_history(&setup, players, &layout)?;
        let mut scores = [0; MAX_SEATS];
        for (slot, &score) in scores.iter_mut().zip(&setup.scores) {
            *slot = score;
        }
        let mut boneyard = setup.boneyard;
        boneyard.reverse();
        let game = Game {
            variant: setup.variant,
            rules: setup.rules,
            players,
            seed: setup.seed,
            hand_key: hand_key(setup.seed),
            hand_number: setup.hand_number,
            hands,
            boneyard,
            scores,
            to_act,
            hand_leader,
            required_lead: setup.required_lead,
            drew_this_turn: setup.drew_this_turn,
            outcome: setup.outcome,
            history: setup.history,
            digest: setup.digest,
            family: Family::Line(layout),
        };
        game.check_line_history()?;
        game.check_phase()?;
        Ok(game)
    }

    /// The checks that need the assembled game: a match in play must be
    /// playable, and a forced lead must be the one the rules force.
    fn check_phase(&self) -> Result<(), SetupError> {
        if self.outcome.is_some() {
            return Ok(());
        }
        if let Some(seat) = (0..self.players).find(|&seat| self.hand(seat).is_empty()) {
            return Err(SetupError::EmptyHandInPlay { seat });
        }
        if let Some(side) = self.some_side_at_target() {
            if !self.may_play_on_past_target() {
                return Err(SetupError::TargetReachedInPlay { side });
            }
        }
        if self.layout().is_empty() {
            self.check_lead_to_come()
        } else if self.required_lead.is_some() {
            Err(SetupError::ForcedLeadAfterLead)
        } else if self.is_blocked() {
            Err(SetupError::Blocked)
        } else {
            Ok(())
        }
    }

    /// Before the lead: the leader is to act, and the lead is forced
    /// exactly as the rules force it.
    fn check_lead_to_come(&self) -> Result<(), SetupError> {
        if self.to_act != self.hand_leader {
            return Err(SetupError::LeaderNotToAct);
        }
        let hands = &self.hands[..usize::from(self.players)];
        let forced = forced_lead_for(self.rules.first_lead, hands);
        let must_force = self.hand_number == 1 && self.rules.first_lead != LeadRule::Lot;
        match (self.required_lead, forced) {
            (Some(_), None) => Err(SetupError::ForcedLeadByLot),
            (Some(tile), Some((holder, forced))) if (holder, forced) != (self.to_act, tile) => {
                Err(SetupError::WrongForcedLead { forced, holder })
            }
            (None, _) if must_force => Err(SetupError::ForcedLeadMissing),
            _ => Ok(()),
        }
    }
}

/// The most characters a variant label may have.
pub const MAX_LABEL_CHARS: usize = 64;

/// The variant label is short printable ASCII: it is shown to players and
/// written to logs, so it carries no control or direction characters.
fn check_label(label: &str) -> Result<(), SetupError> {
    let printable = label
        .bytes()
        .all(|byte| byte.is_ascii_graphic() || byte == b' ');
    if printable && label.len() <= MAX_LABEL_CHARS {
        return Ok(());
    }
    Err(SetupError::VariantLabel {
        chars: label.chars().count(),
        max: MAX_LABEL_CHARS,
    })
}

/// The number of seats, if the table seats that many (`max`).
fn check_players(players: u32, max: u8) -> Result<u8, SetupError> {
    u8::try_from(players)
        .ok()
        .filter(|n| (MIN_PLAYERS..=max).contains(n))
        .ok_or(SetupError::Players {
            players,
            min: MIN_PLAYERS,
            max,
        })
}

/// The hand number is one a match can reach, there is one hand per seat
/// and one score per side, and no score is below 0 unless the rules allow.
fn check_counts(setup: &Setup, players: u8) -> Result<(), SetupError> {
    if !(1..=MAX_HANDS).contains(&setup.hand_number) {
        return Err(SetupError::HandNumber {
            hand: setup.hand_number,
            max: MAX_HANDS,
        });
    }
    if setup.hands.len() != usize::from(players) {
        return Err(SetupError::HandCount {
            hands: setup.hands.len(),
            players,
        });
    }
    let sides = setup.rules.sides(players);
    if setup.scores.len() != usize::from(sides) {
        return Err(SetupError::ScoreCount {
            scores: setup.scores.len(),
            sides,
        });
    }
    if !setup.rules.scores_can_be_negative() {
        if let Some(side) = setup.scores.iter().position(|&score| score < 0) {
            return Err(SetupError::NegativeScore { side });
        }
    }
    Ok(())
}

/// Every tile of the set exactly once across the hands, the boneyard and
/// the layout; returns the hands as sets.
fn take_census(setup: &Setup) -> Result<[TileSet; MAX_SEATS], SetupError> {
    let mut census = TileCensus {
        max_pip: setup.rules.max_pip,
        seen: TileSet::EMPTY,
    };
    let mut hands = [TileSet::EMPTY; MAX_SEATS];
    for ((seat, tiles), hand) in setup.hands.iter().enumerate().zip(&mut hands) {
        for (index, &tile) in tiles.iter().enumerate() {
            census.count(tile, || TilePlace::Hand { seat, index })?;
            hand.insert(tile);
        }
    }
    for (index, &tile) in setup.boneyard.iter().enumerate() {
        census.count(tile, || TilePlace::Boneyard { index })?;
    }
    if let Some(lead) = setup.lead {
        census.count(lead, || TilePlace::Lead)?;
    }
    match &setup.table {
        Some(Table::Trains(trains)) => {
            census.count(trains.hub(), || TilePlace::Hub)?;
            for (train, (_, on)) in trains.trains().enumerate() {
                for (index, placed) in on.tiles().iter().enumerate() {
                    census.count(placed.tile(), || TilePlace::Train { train, index })?;
                }
            }
        }
        Some(Table::Foot(foot)) => {
            census.count(foot.hub(), || TilePlace::FootHub)?;
            for arm in 0..foot.arm_count() {
                let tiles = foot.arm_tiles(u8::try_from(arm).unwrap_or(u8::MAX));
                for (index, placed) in tiles.enumerate() {
                    census.count(placed.tile(), || TilePlace::FootArm { arm, index })?;
                }
            }
        }
        None => {}
    }
    for (end, arm) in arms_of(setup).iter() {
        for (index, placed) in arm.iter().enumerate() {
            census.count(placed.tile(), || TilePlace::Arm { end, index })?;
        }
    }
    let missing = setup.rules.tile_set().minus(census.seen);
    if missing.is_empty() {
        return Ok(hands);
    }
    Err(SetupError::TileMissing {
        tiles: missing,
        boneyard: setup.boneyard.len(),
    })
}

/// The setup's four arms, by end.
fn arms_of(setup: &Setup) -> ByEnd<&[Placed]> {
    ByEnd::new(&setup.left, &setup.right, &setup.up, &setup.down)
}

/// The layout, checked as legal play could have built it. The arms move
/// out of `setup` into it.
fn assemble_layout(setup: &mut Setup) -> Result<Layout, SetupError> {
    let arms = ByEnd::new(
        std::mem::take(&mut setup.left),
        std::mem::take(&mut setup.right),
        std::mem::take(&mut setup.up),
        std::mem::take(&mut setup.down),
    );
    Ok(Layout::from_parts(
        setup.lead,
        arms,
        setup.spinner,
        setup.rules.geometry(),
    )?)
}

/// The seats the state names: the seat to act, the leader and the winner
/// exist, and a draw this turn is recorded only where one can be.
fn check_seats(setup: &Setup, players: u8) -> Result<(Seat, Seat), SetupError> {
    let rules = &setup.rules;
    if setup.drew_this_turn && (rules.draw != DrawRule::OneThenPass || setup.outcome.is_some()) {
        return Err(SetupError::DrawNotRecordable);
    }
    let to_act = seat(setup.to_act, SeatRole::ToAct, players)?;
    let hand_leader = seat(setup.hand_leader, SeatRole::HandLeader, players)?;
    let sides = rules.sides(players);
    if let Some(Outcome::Winner(side)) = setup.outcome {
        if side >= sides {
            return Err(SetupError::WinnerOutOfRange { side, sides });
        }
    }
    Ok((to_act, hand_leader))
}

/// The current hand's history, move by move: every move by a seat of the
/// game and a line's, no tile played twice, and every tile drawn drawn
/// once and now in its drawer's hand or on the table. (Whether the moves
/// could have been made, and made the state, is the replay's to say:
/// [`Game::check_line_history`].)
fn check_history(setup: &Setup, players: u8, layout: &Layout) -> Result<(), SetupError> {
    let max_pip = setup.rules.max_pip;
    let on_table: TileSet = layout.tiles().collect();
    let mut played = TileSet::EMPTY;
    let mut drawn = TileSet::EMPTY;
    for (index, entry) in setup.history.iter().enumerate() {
        // (Errors are built only when needed: this loop runs for every
        // move of the hand on every call.)
        let mover = entry.mv.seat;
        if mover >= players {
            let role = SeatRole::Mover { index };
            seat(u32::from(mover), role, players)?;
        }
        let train_move = match entry.mv.action {
            Action::Play { place, .. } => place.train().is_some(),
            Action::EndTurn => true,
            // (A trick game's move: the replay refuses it.)
            Action::Draw
            | Action::Pass
            | Action::Bid(_)
            | Action::Name(_)
            | Action::Discard(_)
            | Action::Trick(_) => false,
        };
        if train_move {
            return Err(SetupError::TrainMoveOnLine { index });
        }
        let ((Action::Play { tile, .. }, _) | (Action::Draw, Some(tile))) =
            (entry.mv.action, entry.drawn)
        else {
            continue;
        };
        let is_draw = matches!(entry.mv.action, Action::Draw);
        if !tile.fits_set(max_pip) {
            return Err(SetupError::InvalidTile {
                at: if is_draw {
                    TilePlace::Drawn { index }
                } else {
                    TilePlace::Played { index }
                },
                tile,
                max_pip,
            });
        }
        if is_draw {
            let held = setup
                .hands
                .get(usize::from(mover))
                .is_some_and(|hand| hand.contains(&tile));
            if !drawn.insert(tile) || !(held || on_table.contains(tile)) {
                return Err(SetupError::DrawnTileElsewhere {
                    index,
                    tile,
                    seat: mover,
                });
            }
        } else if !played.insert(tile) {
            return Err(SetupError::PlayedTwice { index, tile });
        }
    }
    Ok(())
}

/// The hands before the moves of `history` (each placed tile given back to
/// its placer, each drawn tile taken from its drawer; a tile drawn and then
/// placed is given back, then taken away) and the tiles drawn, in the order
/// they were drawn: the boneyard's top before the moves, `hands` the hands
/// after them.
///
/// # Errors
/// A draw that does not name its tile.
pub(super) fn taken_back(
    hands: [TileSet; MAX_SEATS],
    history: &[HistoryEntry],
) -> Result<([TileSet; MAX_SEATS], Vec<Tile>), SetupError> {
    let mut start = hands;
    let mut taken = [TileSet::EMPTY; MAX_SEATS];
    let mut drawn = Vec::new();
    for (index, entry) in history.iter().enumerate() {
        let seat = usize::from(entry.mv.seat);
        match (entry.mv.action, entry.drawn) {
            (Action::Play { tile, .. }, _) => {
                if let Some(hand) = start.get_mut(seat) {
                    hand.insert(tile);
                }
            }
            (Action::Draw, Some(tile)) => {
                if let Some(taken) = taken.get_mut(seat) {
                    taken.insert(tile);
                }
                drawn.push(tile);
            }
            (Action::Draw, None) => return Err(SetupError::DrawUnnamed { index }),
            (Action::Pass | Action::EndTurn, _) => {}
            // (A trick game's move: the replay refuses it.)
            (Action::Bid(_) | Action::Name(_) | Action::Discard(_) | Action::Trick(_), _) => {}
        }
    }
    for (hand, taken) in start.iter_mut().zip(taken) {
        *hand = hand.minus(taken);
    }
    Ok((start, drawn))
}
