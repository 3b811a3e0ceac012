//! The table of a game that is not a line: a hub with trains (Mexican
//! Train) or a chicken foot, held by the game's hub family
//! (`Family::Hub`). A line game's table is its `Layout`, so that its hot
//! path tests one byte, the family's tag.

use crate::rules::errors::{NoDraw, PlayError};
use crate::rules::foot::Foot;
use crate::rules::game::Game;
use crate::rules::moves::{Action, Move, Seat};
use crate::rules::options::{Rules, TableKind};
use crate::rules::tile::TileSet;
use crate::rules::trains::Trains;

/// A table other than a line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Table {
    /// A hub with a train per seat and the Mexican train.
    Trains(Trains),
    /// A hub with arms and chicken feet (boxed: it keeps its tiles inline,
    /// and a game is copied by value).
    Foot(Box<Foot>),
}

impl Rules {
    /// The table of a round whose hub is `hub`-`hub`, at its start, with
    /// `players` seats; `None` for a line.
    #[must_use]
    pub fn table_at_start(&self, hub: u8, players: Seat) -> Option<Table> {
        match self.table {
            TableKind::Line | TableKind::Tricks => None,
            TableKind::Trains => Some(Table::Trains(Trains::new(hub, players, self.public_train))),
            TableKind::ChickenFoot => Some(Table::Foot(Box::new(Foot::new(hub, self.hub_arms)))),
        }
    }
}

impl Table {
    /// The train table, if this is one.
    #[must_use]
    pub fn trains(&self) -> Option<&Trains> {
        match self {
            Table::Trains(trains) => Some(trains),
            Table::Foot(_) => None,
        }
    }

    /// The chicken foot table, if this is one.
    #[must_use]
    pub fn foot(&self) -> Option<&Foot> {
        match self {
            Table::Foot(foot) => Some(foot),
            Table::Trains(_) => None,
        }
    }

    /// Its kind.
    #[must_use]
    pub fn kind(&self) -> TableKind {
        match self {
            Table::Trains(_) => TableKind::Trains,
            Table::Foot(_) => TableKind::ChickenFoot,
        }
    }

    /// Every tile on the table, the hub included.
    #[must_use]
    pub fn tiles(&self) -> TileSet {
        match self {
            Table::Trains(trains) => trains.tiles(),
            Table::Foot(foot) => foot.tiles(),
        }
    }

    /// The same table at its round's start: the hub alone.
    #[must_use]
    pub fn at_start(&self) -> Table {
        match self {
            Table::Trains(trains) => Table::Trains(trains.at_start()),
            Table::Foot(foot) => Table::Foot(Box::new(foot.at_start())),
        }
    }
}

/// What the engine asks a table that is not a line, whatever its kind. A
/// line game's hot path only tests that it has no such table: each of
/// these is out of line, and marked cold.
impl Game {
    /// The tiles of `hand` that the seat to act may place now.
    #[cold]
    #[inline(never)]
    pub(in crate::rules) fn table_placeable(&self, table: &Table, hand: TileSet) -> TileSet {
        match table {
            Table::Trains(trains) => self.train_placeable(trains, self.to_act, hand),
            Table::Foot(foot) => hand.and(foot.fitting()),
        }
    }

    /// Whether no seat holds a tile that fits anywhere (every train counted
    /// as open; only the unsatisfied double, or the waiting hub or foot,
    /// while there is one).
    #[cold]
    #[inline(never)]
    pub(in crate::rules) fn table_blocked(&self, table: &Table) -> bool {
        match table {
            Table::Trains(trains) => self.train_blocked(trains),
            Table::Foot(foot) => self.all_hands().and(foot.fitting()).is_empty(),
        }
    }

    /// The legal moves of the seat to act, written into `out`.
    // (Inlined into `Game::moves_off_line_into`, its one caller, itself
    // out of line.)
    #[inline(always)]
    pub(in crate::rules) fn table_moves_into(&self, table: &Table, out: &mut Vec<Move>) {
        match table {
            Table::Trains(trains) => self.train_moves_into(trains, out),
            Table::Foot(foot) => self.foot_moves_into(foot, out),
        }
    }

    /// Checks a move of the seat to act (its turn, its tile in the set
    /// and in its hand already known).
    #[cold]
    #[inline(never)]
    pub(in crate::rules) fn check_on_table(
        &self,
        table: &Table,
        mv: Move,
    ) -> Result<(), PlayError> {
        match table {
            Table::Trains(trains) => self.check_train(trains, mv),
            Table::Foot(foot) => self.check_foot(foot, mv),
        }
    }

    /// A seat with no placement draws one tile if it may, else passes:
    /// adds that move to `out` when nothing else is in it.
    pub(in crate::rules) fn draw_or_pass_if_stuck(&self, out: &mut Vec<Move>) {
        if out.is_empty() {
            let seat = self.to_act;
            out.push(if self.may_draw() {
                Move::draw(seat)
            } else {
                Move::pass(seat)
            });
        }
    }

    /// Checks a draw or a pass (`mv`) by a seat that `can_place` or not: a
    /// seat that can place must; one that cannot draws one tile while it
    /// may, then passes.
    pub(in crate::rules) fn check_draw_or_pass(
        &self,
        mv: Move,
        can_place: bool,
    ) -> Result<(), PlayError> {
        let seat = mv.seat;
        match mv.action {
            Action::Draw if can_place => Err(PlayError::MustPlayNotDraw { seat }),
            Action::Draw if self.may_draw() => Ok(()),
            Action::Draw => Err(PlayError::CannotDraw(if self.drew_this_turn {
                NoDraw::AlreadyDrew
            } else {
                NoDraw::BoneyardExhausted
            })),
            Action::Pass if can_place => Err(PlayError::MustPlayNotPass { seat }),
            Action::Pass if self.may_draw() => Err(PlayError::MustDrawNotPass { seat }),
            Action::Pass | Action::Play { .. } | Action::EndTurn => Ok(()),
            // (Refused by the table's own check before this one.)
            Action::Bid(_) | Action::Name(_) | Action::Discard(_) | Action::Trick(_) => Ok(()),
        }
    }
}
