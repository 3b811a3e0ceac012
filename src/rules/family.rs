//! What only one family of game keeps (docs/design/families.md): a line
//! game its layout; a hub table its trains or chicken foot and how the
//! turn stands; a trick game its hand (the auction, the contract, the
//! tricks). The match every family shares (seats, deal, boneyard,
//! scores, history, digest) is [`Game`](super::Game)'s own; a game holds
//! exactly one family's table, so no family carries another's fields.

use super::layout::Layout;
use super::options::Rules;
use super::table::Table;
use super::train_game::TurnState;
use super::tricks::hand::TrickHand;

/// The table of one family of game. (A tag of its own, not one folded
/// into the layout's fields: the line games' hot path tests it on every
/// move, and a byte compares in one instruction.)
#[derive(PartialEq, Eq, Debug)]
#[repr(u8)]
pub(crate) enum Family {
    /// A line game: the tiles matched end to end (inline: the line
    /// games' hot path reads it on every move).
    Line(Layout),
    /// A table with a hub: its trains or chicken foot, and how the turn
    /// stands.
    Hub(Hub),
    /// A trick game's hand (boxed: it is larger than a line's layout, and
    /// never on the line games' hot path).
    Tricks(Box<TrickHand>),
}

/// A hub table's round.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Hub {
    /// The trains or the chicken foot.
    pub(crate) table: Table,
    /// How the current turn stands.
    pub(crate) turn: TurnState,
}

impl Family {
    /// The table of a round starting: `table` at a hub (from
    /// [`Rules::table_at_start`]), else an empty line with room for the
    /// whole set (so that a hand's placements do not allocate).
    pub(crate) fn at_start(rules: &Rules, table: Option<Table>) -> Family {
        match table {
            Some(table) => Family::Hub(Hub {
                table,
                turn: TurnState::default(),
            }),
            None => Family::Line(Layout::with_capacity(rules.tile_set().len() as usize)),
        }
    }

    /// The same family's table as the current hand began: an empty line
    /// with the room this one has, the hub alone, or the trick hand as
    /// dealt.
    pub(crate) fn rewound(&self) -> Family {
        match self {
            Family::Line(layout) => Family::Line(Layout::with_capacity(layout.len())),
            Family::Hub(hub) => Family::Hub(Hub {
                table: hub.table.at_start(),
                turn: TurnState::default(),
            }),
            Family::Tricks(hand) => Family::Tricks(Box::new(hand.as_dealt())),
        }
    }

    /// The line, at a line game.
    pub(crate) fn line(&self) -> Option<&Layout> {
        match self {
            Family::Line(layout) => Some(layout),
            Family::Hub(_) | Family::Tricks(_) => None,
        }
    }

    /// The hub table, at a hub game.
    pub(crate) fn table(&self) -> Option<&Table> {
        match self {
            Family::Hub(hub) => Some(&hub.table),
            Family::Line(_) | Family::Tricks(_) => None,
        }
    }

    /// The trick hand, at a trick game.
    pub(crate) fn tricks(&self) -> Option<&TrickHand> {
        match self {
            Family::Tricks(hand) => Some(hand),
            Family::Line(_) | Family::Hub(_) => None,
        }
    }
}

impl Clone for Family {
    fn clone(&self) -> Family {
        match self {
            Family::Line(layout) => Family::Line(layout.clone()),
            Family::Hub(hub) => Family::Hub(hub.clone()),
            Family::Tricks(hand) => Family::Tricks(hand.clone()),
        }
    }

    /// Reuses the target's room when both are of one family (a search
    /// copies one game into the same target many times).
    fn clone_from(&mut self, source: &Family) {
        match (self, source) {
            (Family::Line(mine), Family::Line(theirs)) => mine.clone_from(theirs),
            (Family::Hub(mine), Family::Hub(theirs)) => mine.clone_from(theirs),
            (Family::Tricks(mine), Family::Tricks(theirs)) => mine.clone_from(theirs),
            (mine, theirs) => *mine = theirs.clone(),
        }
    }
}
