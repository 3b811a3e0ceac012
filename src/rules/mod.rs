//! The rules of dominoes, with no knowledge of any transport.
//!
//! Every game is a [`Game`]: the match every family of game shares (the
//! seats, the deal, the scores, the hand's history, the digest), and the
//! table of its family. The families show in the layout:
//! `line/` (tiles matched end to end on a line), `hub/` (a hub with trains
//! or a chicken foot), `tricks/` (tiles played to tricks); the rest is
//! shared. Each module is also reachable
//! at `rules::<name>`, whatever its family.
//!
//! Shared by every family:
//! - [`tile`]: tiles and bit sets of tiles.
//! - [`options`]: the option space ([`Rules`]) every variant is a value of.
//! - [`presets`]: the named variants of the rule book.
//! - [`scoring`]: in-play points and the arithmetic of settlement.
//! - [`deal`]: seeded, reproducible dealing and forced leads.
//! - [`hand_rng`]: the generator a hand is dealt from ([`HandRng`]).
//! - [`place`]: where a move puts its tile ([`Place`]).
//! - [`moves`], [`events`]: what a seat does and what then happens.
//! - [`action`]: moves as integers, a fixed space per game
//!   ([`ActionSpace`]), for learning agents.
//! - [`chance`]: a hand's deal and the next draw set from outside
//!   ([`Game::redeal`], [`Game::arrange_next_draw`]), for environments that
//!   model the deal as chance.
//! - [`observation`]: what a seat sees as a vector of numbers
//!   ([`ObservationShape`]), for learning agents.
//! - [`game`]: a validated [`Game`]: legal moves, `play`, `play_unchecked`.
//! - `family`: the table only one family keeps (a line's layout, a hub's
//!   trains or foot and its turn), one of which every game holds.
//! - [`settle`]: how a hand and a match end: the hand's winner, what each
//!   side is credited, exact targets.
//! - [`record`]: the match record's digest ([`MatchDigest`]), a hash
//!   chain over the rules, the seed and every move.
//! - [`view`]: what one seat may see ([`View`], [`Event::seen_by`]).
//! - [`knowledge`]: what a seat knows of the hidden tiles, and deals
//!   sampled consistently with it ([`Knowledge`]).
//! - [`setup`]: an unvalidated [`Setup`] and the checked constructor
//!   [`Game::from_setup`].
//! - [`errors`]: why a state ([`SetupError`]) or a move ([`PlayError`]) is
//!   refused, with where in the state the fault lies.
//!
//! [`notation`]: a move as a token a person reads and writes (`6-4L`,
//! `draw`, `30`, `trumps:6`).
//!
//! [`line`](mod@line): the line games.
//! - [`end`]: the ends of a layout ([`End`]) and a map with one value per
//!   end ([`ByEnd`]).
//! - [`connect`]: every connection rule ([`Connect`]): which tiles fit an
//!   end, how they lie and what they leave showing.
//! - [`layout`]: the tiles on the table and their open ends.
//! - [`line_setup`]: the checked constructor's step for a line's
//!   history: the hand's moves replayed from where they start.
//!
//! [`hub`]: the tables with a hub.
//! - [`table`]: a game's table when it is not a line ([`Table`]: trains
//!   or a chicken foot), and the questions the engine asks of either.
//! - [`trains`]: the train table of Mexican Train: a hub, a train per
//!   seat and the Mexican train, markers, the unsatisfied double.
//! - [`train_game`]: how a turn goes at a train table: the opening
//!   chain, a double's placer acting again, one draw a turn.
//! - [`foot`]: the table of Chicken Foot: a hub taking its arms first,
//!   arms open to all, a double at an arm's end waiting for three toes.
//! - [`foot_game`]: how a turn goes at a chicken foot.
//! - [`table_setup`]: the checked constructor's steps for a table that is
//!   not a line: the round rebuilt from its history.
//!
//! [`tricks`]: the trick-taking games.
//! - [`tricks::auction`]: the bids open to a seat and who wins them.
//! - [`tricks::contract`]: what the declarer names ([`tricks::contract::Contract`]).
//! - [`tricks::suit`]: suits, following, ranks and a trick's winner.
//! - [`tricks::trick`]: what a trick is worth (the count).
//! - [`tricks::settle`]: made or set, and what a hand scores.
//! - [`tricks::hand`]: one hand from its deal to its end.

pub mod action;
pub mod chance;
pub mod deal;
pub mod errors;
pub mod events;
mod family;
pub mod game;
pub mod hand_rng;
pub mod hub;
pub mod knowledge;
pub mod line;
pub mod moves;
pub mod notation;
pub mod observation;
pub mod options;
pub mod place;
pub mod presets;
pub mod record;
pub mod scoring;
pub mod settle;
pub mod setup;
pub mod tile;
pub mod tricks;
pub mod view;

pub use hub::{foot, foot_game, table, table_setup, train_game, trains};
pub use line::{connect, end, layout, line_setup};

pub use action::ActionSpace;
pub use chance::ChanceError;
pub use connect::Connect;
pub use end::{ByEnd, End};
pub use errors::{
    LayoutError, LayoutPlace, NoDraw, PlayError, SeatRole, SetupError, TablePart, TilePlace,
};
pub use events::{Event, EventSink, HandEnd, Outcome, ScoreReason, Side};
pub use foot::{Foot, FootPlace, Root, Waiting};
pub use game::{Game, HistoryEntry, Report};
pub use hand_rng::HandRng;
pub use knowledge::Knowledge;
pub use layout::{Geometry, Layout, Placed, SpinnerAt};
pub use moves::{Action, Move, Seat};
pub use observation::ObservationShape;
pub use options::{
    BlockedOwnPips, DrawRule, HandRounding, HandScale, InPlayScoring, LayoutRule, LeadRule,
    MatchEnd, NextLeadRule, RuleOption, Rules, RulesError, Settlement, TableKind,
};
pub use place::{Place, PlaceKind};
pub use record::MatchDigest;
pub use setup::Setup;
pub use table::Table;
pub use tile::{Tile, TileSet};
pub use trains::{Train, TrainId, Trains};
pub use view::View;
