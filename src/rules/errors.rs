//! Why a state or a move is refused, in the game's own terms: what is wrong
//! and where in the state (a seat's hand and the tile's position in it, an
//! arm and a position on it, a move of the history), never a field of any
//! wire form. The service renders each location as a field path and maps
//! each variant to its machine-readable reason.

use super::foot::{FootFault, FootPlace, Waiting};
use std::fmt;

use thiserror::Error;

use super::end::End;
use super::events::Side;
use super::layout::Placed;
use super::moves::{Action, Seat};
use super::options::{RulesError, TableKind};
use super::place::Place;
use super::tile::{Tile, TileSet};
use super::trains::{TrainFault, TrainId};
use super::tricks::hand::TrickError;

/// Where a tile lies in a state.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TilePlace {
    /// Position `index` of seat `seat`'s hand (as listed in the state).
    Hand {
        /// The seat.
        seat: usize,
        /// The tile's position in that hand.
        index: usize,
    },
    /// Position `index` of the boneyard, next to draw first.
    Boneyard {
        /// The position.
        index: usize,
    },
    /// The lead.
    Lead,
    /// Position `index` of an arm, 0 next to the lead (or the spinner).
    Arm {
        /// The arm.
        end: End,
        /// The position on it.
        index: usize,
    },
    /// The tile played by move `index` of the history.
    Played {
        /// The move's position in the history, oldest first.
        index: usize,
    },
    /// Moon's widow.
    Widow,
    /// The tile a trick game's history move `index` played to a trick.
    Trick {
        /// The move's position in the history, oldest first.
        index: usize,
    },
    /// The tile a trick game's history move `index` laid away.
    Discard {
        /// The move's position in the history, oldest first.
        index: usize,
    },
    /// The tile drawn by move `index` of the history.
    Drawn {
        /// The move's position in the history, oldest first.
        index: usize,
    },
    /// The hub of a train table.
    Hub,
    /// Position `index` of train `train` (by position at the table: the
    /// seats' trains, then the Mexican), 0 next to the hub.
    Train {
        /// The train's position at the table.
        train: usize,
        /// The tile's position on it.
        index: usize,
    },
    /// The hub of a chicken foot.
    FootHub,
    /// Tile `index` of arm `arm` of a chicken foot.
    FootArm {
        /// The arm's position at the table.
        arm: usize,
        /// The tile's position on it.
        index: usize,
    },
}

impl fmt::Display for TilePlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TilePlace::Hand { seat, index } => write!(f, "tile {index} of seat {seat}'s hand"),
            TilePlace::Boneyard { index } => write!(f, "tile {index} of the boneyard"),
            TilePlace::Lead => write!(f, "the lead"),
            TilePlace::Arm { end, index } => write!(f, "tile {index} of the {} arm", end.name()),
            TilePlace::Played { index } => write!(f, "the tile of history move {index}"),
            TilePlace::Drawn { index } => write!(f, "the tile drawn by history move {index}"),
            TilePlace::Widow => write!(f, "the widow"),
            TilePlace::Trick { index } => write!(f, "the tile history move {index} played"),
            TilePlace::Discard { index } => write!(f, "the tile history move {index} laid away"),
            TilePlace::Hub => write!(f, "the hub"),
            TilePlace::Train { train, index } => write!(f, "tile {index} of train {train}"),
            TilePlace::FootHub => write!(f, "the hub"),
            TilePlace::FootArm { arm, index } => write!(f, "tile {index} of arm {arm}"),
        }
    }
}

/// How the state of a table other than a line (trains, a chicken foot)
/// differs from what its round's moves make of the round's start.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TablePart {
    /// The state has not the table its rules play on: a train table's
    /// state has no trains (or a line), a chicken foot's no foot (or a
    /// line), a line's a table other than a line.
    Missing {
        /// The table the rules play on.
        rules: TableKind,
        /// The table other than a line the state holds, if any.
        found: Option<TableKind>,
    },
    /// The hub is not the round's, or the trains are not one a seat (and
    /// the Mexican train where it is played).
    Hub {
        /// The round's hub.
        hub: Tile,
    },
    /// The chicken foot's hub is not the round's, or does not take the
    /// rules' number of arms.
    FootHub {
        /// The round's hub.
        hub: Tile,
        /// The arms it takes.
        arms: u8,
    },
    /// The hands are not what the moves leave.
    Hands,
    /// The boneyard is not what the moves leave.
    Boneyard,
    /// A train's tiles are not those the moves placed.
    Tiles {
        /// The train's position at the table.
        index: usize,
        /// The train.
        train: TrainId,
    },
    /// A marker is not as the moves left it.
    Marker {
        /// The train's position at the table.
        index: usize,
        /// The train.
        train: TrainId,
        /// Whether the moves left it up.
        up: bool,
    },
    /// The unsatisfied double is not the one the moves left.
    Unsatisfied {
        /// The train whose double the moves left unsatisfied, if any.
        train: Option<TrainId>,
    },
    /// The chicken foot has not the arms the moves started.
    ArmCount {
        /// How many the moves started.
        arms: usize,
    },
    /// An arm of the chicken foot is not what the moves made it: what it
    /// grows from, or its tiles.
    Arm {
        /// The arm's position at the table.
        arm: usize,
    },
    /// What the chicken foot waits for is not what the moves left.
    Waiting {
        /// What the moves leave it waiting for, if anything.
        waiting: Option<Waiting>,
    },
    /// The outcome of the match is not what the moves make it.
    Outcome,
    /// A finished match's scores are not what its last round adds.
    Scores,
}

impl fmt::Display for TablePart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablePart::Missing {
                rules: TableKind::Trains,
                ..
            } => f.write_str("a train table's state holds the trains (and no line and no chicken foot)"),
            TablePart::Missing {
                rules: TableKind::ChickenFoot,
                ..
            } => f.write_str("a chicken foot's state holds the foot (and no line and no trains)"),
            TablePart::Missing {
                rules: TableKind::Line,
                ..
            } => f.write_str("a line's state holds no trains and no chicken foot"),
            TablePart::Missing {
                rules: TableKind::Tricks,
                ..
            } => f.write_str("a trick game's state holds no line, no trains and no chicken foot"),
            TablePart::Hub { hub } => write!(
                f,
                "this round's hub is {hub}, with a train for every seat (and the Mexican train where it is played)"
            ),
            TablePart::FootHub { hub, arms } => {
                write!(f, "this round's hub is {hub}, taking {arms} arms")
            }
            TablePart::ArmCount { arms } => {
                write!(f, "the round's moves started {arms} arms")
            }
            TablePart::Arm { arm } => write!(
                f,
                "arm {arm} does not grow from where the round's moves started it, or does not hold the tiles they placed on it"
            ),
            TablePart::Waiting { waiting: Some(waiting) } => {
                write!(f, "the round's moves leave {waiting} to be filled first")
            }
            TablePart::Waiting { waiting: None } => {
                f.write_str("the round's moves leave nothing waiting for a new arm")
            }
            TablePart::Hands => {
                f.write_str("the hands are not what the round's moves leave from its start")
            }
            TablePart::Boneyard => {
                f.write_str("the boneyard is not what the round's moves leave from its start")
            }
            TablePart::Tiles { train, .. } => {
                write!(f, "{train} does not hold the tiles the round's moves placed on it")
            }
            TablePart::Marker { train, up, .. } => write!(
                f,
                "the round's moves leave the marker of {train} {}",
                if *up { "up" } else { "down" }
            ),
            TablePart::Unsatisfied { train: Some(train) } => {
                write!(f, "the round's moves leave the double on {train} unsatisfied")
            }
            TablePart::Unsatisfied { train: None } => {
                f.write_str("the round's moves leave no double unsatisfied")
            }
            TablePart::Outcome => {
                f.write_str("the match's outcome is not what the round's moves make it")
            }
            TablePart::Scores => f.write_str(
                "a finished match's scores are its scores before the last round plus that round's pips",
            ),
        }
    }
}

/// Which seat of a state a seat number names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SeatRole {
    /// The seat to act.
    ToAct,
    /// The seat that leads the current hand.
    HandLeader,
    /// The seat that made move `index` of the history.
    Mover {
        /// The move's position in the history, oldest first.
        index: usize,
    },
}

impl fmt::Display for SeatRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatRole::ToAct => write!(f, "the seat to act"),
            SeatRole::HandLeader => write!(f, "the hand's leader"),
            SeatRole::Mover { index } => write!(f, "the seat of history move {index}"),
        }
    }
}

/// Where on the layout a fault lies.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LayoutPlace {
    /// The spinner (or the lack of one).
    Spinner,
    /// An arm as a whole.
    Arm(End),
    /// Position `index` of an arm.
    Placed {
        /// The arm.
        end: End,
        /// The position on it, 0 next to the lead (or the spinner).
        index: usize,
    },
}

impl fmt::Display for LayoutPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutPlace::Spinner => f.write_str("the spinner"),
            LayoutPlace::Arm(end) => write!(f, "the {} arm", end.name()),
            LayoutPlace::Placed { end, index } => {
                write!(f, "tile {index} of the {} arm", end.name())
            }
        }
    }
}

/// A layout that cannot have been built by legal play.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Error)]
pub enum LayoutError {
    /// An arm has tiles but there is no lead.
    #[error("the {} arm has tiles but the layout has no lead", .end.name())]
    ArmWithoutLead {
        /// The arm.
        end: End,
    },
    /// An empty layout names a spinner.
    #[error("an empty layout has no spinner")]
    SpinnerWithoutLead,
    /// A spinner under rules that have none.
    #[error("these rules have no spinner")]
    NoSpinnerInRules,
    /// A double lead under spinner rules, not named as the spinner.
    #[error("the double lead is the spinner")]
    DoubleLeadNotSpinner,
    /// A spinner on an arm where only a double lead becomes the spinner.
    #[error("only a double lead becomes the spinner")]
    OnlyDoubleLeadSpins,
    /// The lead is named the spinner but is no double.
    #[error("the spinner must be a double")]
    SpinnerNotDouble,
    /// The first double on an arm became the spinner, but none is named.
    #[error("the first double played becomes the spinner, but none is recorded")]
    SpinnerNotRecorded {
        /// The arm of that double.
        end: End,
        /// Its position.
        index: usize,
    },
    /// The spinner named is not a double on the left or right arm.
    #[error("the spinner must be a double on the left or right arm")]
    SpinnerNotOnLongArm {
        /// The arm named.
        end: End,
        /// The position named.
        index: usize,
    },
    /// An earlier double would have become the spinner.
    #[error("an earlier double would have been the spinner")]
    EarlierDoubleIsSpinner {
        /// The arm of the double named.
        end: End,
        /// Its position.
        index: usize,
    },
    /// A tile does not touch the number it lies against.
    #[error(
        "{}-{} (inner half {}) cannot touch the {pips} it lies against",
        .placed.inner, .placed.outer, .placed.inner
    )]
    DoesNotTouch {
        /// The arm.
        end: End,
        /// The tile's position on it.
        index: usize,
        /// The tile, as it lies.
        placed: Placed,
        /// The number it lies against.
        pips: u8,
    },
    /// A short-side arm that legal play could not have grown yet.
    #[error(
        "a short-side arm grows only from a spinner whose long sides are both covered, \
         `up` before `down`"
    )]
    ShortArmTooEarly {
        /// The arm.
        end: End,
    },
}

impl LayoutError {
    /// Where the fault lies.
    #[must_use]
    pub const fn place(&self) -> LayoutPlace {
        match *self {
            LayoutError::ArmWithoutLead { end } | LayoutError::ShortArmTooEarly { end } => {
                LayoutPlace::Arm(end)
            }
            LayoutError::SpinnerWithoutLead
            | LayoutError::NoSpinnerInRules
            | LayoutError::DoubleLeadNotSpinner
            | LayoutError::OnlyDoubleLeadSpins
            | LayoutError::SpinnerNotDouble => LayoutPlace::Spinner,
            LayoutError::SpinnerNotRecorded { end, index }
            | LayoutError::SpinnerNotOnLongArm { end, index }
            | LayoutError::EarlierDoubleIsSpinner { end, index }
            | LayoutError::DoesNotTouch { end, index, .. } => LayoutPlace::Placed { end, index },
        }
    }
}

/// A state that cannot be played from: the checked constructor
/// [`Game::from_setup`](super::Game::from_setup) refuses it.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum SetupError {
    /// The number of seats is outside what the engine seats.
    #[error("{players} players: the engine seats {min} to {max}")]
    Players {
        /// The number given.
        players: u32,
        /// The fewest seats.
        min: u8,
        /// The most seats.
        max: u8,
    },
    /// The variant label is too long or holds what is not printable ASCII.
    #[error(
        "the variant label must be at most {max} printable ASCII characters \
         (a preset id or a short name of your own); this one has {chars} characters"
    )]
    VariantLabel {
        /// Characters in the label given.
        chars: usize,
        /// The most allowed.
        max: usize,
    },
    /// An option is out of range or the options do not fit together.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A table other than a line (trains, a chicken foot) that the
    /// round's moves do not make.
    #[error("{0}")]
    Table(TablePart),
    /// The hand number is outside the hands a match may last.
    #[error("hand {hand}: hands are numbered from 1 to {max}")]
    HandNumber {
        /// The number given.
        hand: u32,
        /// The last hand a match may reach.
        max: u32,
    },
    /// Not one hand per seat.
    #[error("{hands} hands for {players} players")]
    HandCount {
        /// Hands given.
        hands: usize,
        /// Seats in the game.
        players: u8,
    },
    /// Not one score per side.
    #[error("{scores} scores for {sides} sides")]
    ScoreCount {
        /// Scores given.
        scores: usize,
        /// Sides in the game.
        sides: u8,
    },
    /// A score below 0 under rules whose scores never go below 0.
    #[error("side {side}'s score is below 0, which scores never go under these rules")]
    NegativeScore {
        /// The side.
        side: usize,
    },
    /// A tile has a half above the set's highest.
    #[error("{at}: {tile} is not in the double-{max_pip} set")]
    InvalidTile {
        /// Where the tile is.
        at: TilePlace,
        /// The tile.
        tile: Tile,
        /// The set's highest half.
        max_pip: u8,
    },
    /// A tile appears twice.
    #[error("{at}: {tile} appears more than once in the state")]
    TileDuplicated {
        /// The second place it appears.
        at: TilePlace,
        /// The tile.
        tile: Tile,
    },
    /// A tile of the double-six set that Moon does not play (0-1 … 0-6).
    #[error("{at}: {tile} is not one of Moon's 22 tiles (0-1 to 0-6 are left out)")]
    NotInSet {
        /// Where the tile is.
        at: TilePlace,
        /// The tile.
        tile: Tile,
    },
    /// A trick game's widow where there is none, or none where there is
    /// one.
    #[error("{}", if *.moon { "Moon's state names the widow as dealt (tricks.widow)" } else { "only Moon has a widow" })]
    Widow {
        /// Whether the game is Moon.
        moon: bool,
    },
    /// A trick game's state with a boneyard: every tile is dealt (Moon's
    /// widow is its own field).
    #[error(
        "a trick game deals every tile ({tiles} in this state's boneyard): it has no boneyard; leave boneyard empty"
    )]
    TrickBoneyard {
        /// Tiles the boneyard holds.
        tiles: usize,
    },
    /// A Moon seat's score lower than a seat can fall in the hands played:
    /// a set bidder loses at most the moon's 21 a hand.
    #[error(
        "seat {side}'s score {score} is below {floor}, the lowest a Moon seat can fall in {hands} hand(s) (a set bidder loses at most 21 a hand)"
    )]
    ScoreBelowReach {
        /// The side (a Moon seat).
        side: usize,
        /// Its score.
        score: i32,
        /// The lowest score the hands played reach.
        floor: i64,
        /// Hands scored so far.
        hands: u32,
    },
    /// Moon's widow, taken by the bidder, and not among the tiles he
    /// holds, played or laid away.
    #[error(
        "seat {seat} took the widow {tile}, which is not among the tiles it holds, played or laid away"
    )]
    WidowNotTaken {
        /// The bidder.
        seat: usize,
        /// The widow.
        tile: Tile,
    },
    /// A trick game's seat that was not dealt seven tiles, going by its
    /// hand and the tiles the history shows it played.
    #[error("seat {seat} holds and played {tiles} tiles, but every seat is dealt 7")]
    DealtHand {
        /// The seat.
        seat: usize,
        /// The tiles it was dealt, as the state tells.
        tiles: u32,
    },
    /// Tiles of the set appear nowhere.
    #[error("{}", missing_tiles(*.tiles, *.boneyard))]
    TileMissing {
        /// The tiles missing.
        tiles: TileSet,
        /// Tiles the state's boneyard holds.
        boneyard: usize,
    },
    /// The layout cannot have been built by legal play.
    #[error(transparent)]
    Layout(#[from] LayoutError),
    /// A draw this turn is recorded where none can be.
    #[error("only a match in play with one-then-pass drawing records a draw this turn")]
    DrawNotRecordable,
    /// A seat number is out of range.
    #[error("{role}: seat {seat} does not exist with {players} players")]
    SeatOutOfRange {
        /// Which seat of the state it names.
        role: SeatRole,
        /// The seat given.
        seat: u32,
        /// Seats in the game.
        players: u8,
    },
    /// The winner of a finished match is no side of the game.
    #[error("side {side} does not exist; there are {sides} sides")]
    WinnerOutOfRange {
        /// The side given.
        side: Side,
        /// Sides in the game.
        sides: u8,
    },
    /// A line's history holds a train table's move.
    #[error(
        "history move {index} places a tile on a train or ends a turn: a line's history has neither"
    )]
    TrainMoveOnLine {
        /// The move's position in the history.
        index: usize,
    },
    /// The history plays one tile twice.
    #[error("history move {index}: {tile} is played twice in this hand")]
    PlayedTwice {
        /// The second move playing it.
        index: usize,
        /// The tile.
        tile: Tile,
    },
    /// A history draw names a tile drawn before, or one that is neither in
    /// the drawer's hand nor on the table.
    #[error(
        "history move {index}: seat {seat} drew {tile}, which is drawn twice or neither in its hand nor on the table"
    )]
    DrawnTileElsewhere {
        /// The draw's position in the history.
        index: usize,
        /// The tile.
        tile: Tile,
        /// The seat that drew it.
        seat: Seat,
    },
    /// The history holds more moves than a hand of these rules can take.
    #[error(
        "the history holds {moves} moves, more than a hand of {max} can take under these rules"
    )]
    HistoryTooLong {
        /// Moves given.
        moves: usize,
        /// The most a hand can take.
        max: usize,
    },
    /// A draw of the hand's history does not name its tile.
    #[error(
        "history move {index} draws without naming the tile: a state names every tile drawn this hand"
    )]
    DrawUnnamed {
        /// The move's position in the history.
        index: usize,
    },
    /// A play of the history is not on the layout where the hand's moves
    /// put it: the lead, or the next tile out on the arm of its end (the
    /// history holds the hand's last moves, so an arm ends with the tiles
    /// they placed on it, in their order).
    #[error(
        "history move {index} places {tile}, but the layout does not hold it where the hand's moves put it"
    )]
    PlayNotOnLayout {
        /// The move's position in the history.
        index: usize,
        /// The tile.
        tile: Tile,
    },
    /// The history holds the hand's lead, yet the layout holds a tile it
    /// does not place.
    #[error(
        "{tile} is on the layout, but the hand's history, which starts with the lead, does not place it"
    )]
    PlacedBeforeLead {
        /// Where the tile lies.
        at: TilePlace,
        /// The tile.
        tile: Tile,
    },
    /// The layout with the history's tiles taken off could not have been
    /// built by legal play.
    #[error("the layout before the history's moves could not have been built: {0}")]
    HistoryStart(LayoutError),
    /// A move of the hand's history is not legal where it was made.
    #[error("history move {index} is not legal where it was made: {error}")]
    HistoryMove {
        /// The move's position in the history.
        index: usize,
        /// Why not.
        error: PlayError,
    },
    /// The hand (or the match) is over after this move, yet the history
    /// goes on or the state says the match is in play.
    #[error(
        "the hand is over after history move {index}, so the history or the match cannot go on"
    )]
    HandOver {
        /// The move's position in the history.
        index: usize,
    },
    /// The layout is not what the history's moves leave (the spinner, or
    /// how a tile lies).
    #[error("the layout is not what the hand's moves leave: {part}")]
    HistoryLayout {
        /// What differs.
        part: LayoutPlace,
    },
    /// Another seat is to act after the hand's moves.
    #[error("the hand's moves leave seat {seat} to act")]
    HistoryToAct {
        /// The seat the moves leave to act.
        seat: Seat,
    },
    /// Whether the seat to act drew this turn is not what the moves say.
    #[error("drew_this_turn is not what the hand's moves say of this turn")]
    HistoryDrewThisTurn,
    /// A match in play with an empty hand (the hand would be over).
    #[error("seat {seat}'s hand is empty, so the hand is over, but the match is in play")]
    EmptyHandInPlay {
        /// The seat.
        seat: Seat,
    },
    /// A match in play where a side has reached the target.
    #[error("side {side} has reached the target, so the match should be over")]
    TargetReachedInPlay {
        /// The side.
        side: Side,
    },
    /// The layout is empty but someone other than the leader is to act.
    #[error("the layout is empty, so the hand's leader must be to act")]
    LeaderNotToAct,
    /// A forced lead under rules that lead by lot.
    #[error("a lead by lot may be any tile")]
    ForcedLeadByLot,
    /// A forced lead other than the one the rules force.
    #[error("the forced lead is {forced}, held by seat {holder}")]
    WrongForcedLead {
        /// The tile the rules force.
        forced: Tile,
        /// The seat holding it.
        holder: Seat,
    },
    /// No forced lead where the rules force one.
    #[error("the first hand's lead is forced by the rules but no tile is given")]
    ForcedLeadMissing,
    /// A forced lead when the lead is already down.
    #[error("the lead is already down, so no lead is forced")]
    ForcedLeadAfterLead,
    /// A match in play in which nobody can place a tile or draw.
    #[error("nobody can place a tile or draw, so the hand should be over")]
    Blocked,
}

/// Why a seat may not draw.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Error)]
pub enum NoDraw {
    /// The rules have no drawing.
    #[error("these rules have no drawing")]
    RulesHaveNoDrawing,
    /// The boneyard holds no drawable tile.
    #[error("the boneyard is exhausted")]
    BoneyardExhausted,
    /// Under one-then-pass drawing, the seat has drawn its tile.
    #[error("this seat has already drawn its one tile this turn")]
    AlreadyDrew,
}

/// A move that is not legal in the position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Error)]
pub enum PlayError {
    /// The match is over.
    #[error("the match is over; no move is accepted")]
    MatchOver,
    /// The seat does not exist.
    #[error("seat {seat} does not exist with {players} players")]
    SeatOutOfRange {
        /// The seat given.
        seat: Seat,
        /// Seats in the game.
        players: u8,
    },
    /// Another seat is to act.
    #[error("seat {seat} moved but seat {to_act} is to act")]
    NotYourTurn {
        /// The seat given.
        seat: Seat,
        /// The seat to act.
        to_act: Seat,
    },
    /// The tile is not in this game's set.
    #[error("{tile} is not in the double-{max_pip} set")]
    InvalidTile {
        /// The tile.
        tile: Tile,
        /// The set's highest half.
        max_pip: u8,
    },
    /// The seat does not hold the tile.
    #[error("seat {seat} does not hold {tile}")]
    TileNotInHand {
        /// The seat.
        seat: Seat,
        /// The tile.
        tile: Tile,
    },
    /// The tile does not show the end's number.
    #[error("{tile} does not fit the {end} end, which shows {pips}")]
    DoesNotMatchEnd {
        /// The tile.
        tile: Tile,
        /// The end.
        end: End,
        /// The number at that end.
        pips: u8,
    },
    /// The end is not open now (a short-side arm before the spinner's long
    /// sides are covered, `Down` before `Up`, or no spinner at all).
    #[error("the {end} end is not open")]
    EndNotOpen {
        /// The end.
        end: End,
    },
    /// A lead named an end.
    #[error("the layout is empty: the lead goes on no end (END_UNSPECIFIED)")]
    LeadHasNoEnd,
    /// A non-lead play named no end.
    #[error("the layout is not empty: name the end the tile goes on")]
    EndRequired,
    /// The rules force a particular lead.
    #[error("this hand must be led with {required}")]
    MustLeadRequiredTile {
        /// The tile that must lead.
        required: Tile,
    },
    /// A draw while a tile can be placed.
    #[error("seat {seat} can place a tile, so it may not draw")]
    MustPlayNotDraw {
        /// The seat.
        seat: Seat,
    },
    /// A pass while a tile can be placed.
    #[error("seat {seat} can place a tile, so it may not pass")]
    MustPlayNotPass {
        /// The seat.
        seat: Seat,
    },
    /// A pass while drawing is allowed.
    #[error("seat {seat} cannot place a tile but may draw, so it must draw")]
    MustDrawNotPass {
        /// The seat.
        seat: Seat,
    },
    /// A draw that the rules or the boneyard do not allow.
    #[error("drawing is not possible: {0}")]
    CannotDraw(NoDraw),
    /// The move names a place another kind of table has (a train at a
    /// line, a line's end at a train table, …).
    #[error("a tile cannot go {place} at this table: {}", places_of(*table))]
    PlaceNotAtThisTable {
        /// The place named.
        place: Place,
        /// The kind of table the game is played on.
        table: TableKind,
    },
    /// A trick game's move refused by its hand.
    #[error(transparent)]
    Trick(TrickError),
    /// A trick game's move (a bid, a contract, a discard, a tile played
    /// to a trick) at a game played on a table.
    #[error("{kind} is a move of the trick-taking games; here a tile is placed: {}", places_of(*table))]
    NotAMoveOfThisGame {
        /// The kind of move.
        kind: TrickMoveKind,
        /// The kind of table the game is played on.
        table: TableKind,
    },
    /// The tile may not go on that train now.
    #[error("{tile} cannot go on {train}: {fault}")]
    Train {
        /// The tile.
        tile: Tile,
        /// The train named.
        train: TrainId,
        /// Why not.
        fault: TrainFault,
    },
    /// The tile may not go there at a chicken foot now.
    #[error("{tile} cannot go on {place}: {fault}")]
    Foot {
        /// The tile.
        tile: Tile,
        /// The place named.
        place: FootPlace,
        /// Why not.
        fault: FootFault,
    },
    /// An end of turn by a seat that is not laying an opening chain, or
    /// while the double it placed is unsatisfied.
    #[error(
        "seat {seat} has no turn of several placements to end: only a seat laying its opening chain ends its turn, and not while a double is unsatisfied"
    )]
    NoTurnToEnd {
        /// The seat.
        seat: Seat,
    },
}

impl PlayError {
    /// Whether the move is malformed for this game (a seat or tile that does
    /// not exist) rather than merely illegal now.
    #[must_use]
    pub const fn is_malformed(&self) -> bool {
        matches!(
            self,
            PlayError::SeatOutOfRange { .. } | PlayError::InvalidTile { .. }
        )
    }
}

/// Names missing tiles (the first few, and how many in all) and where they
/// belong: a state holds every tile of the set once, in a hand, the
/// boneyard or the layout; a short boneyard is the usual cause.
fn missing_tiles(tiles: TileSet, boneyard: usize) -> String {
    const NAMED: usize = 6;
    let count = tiles.len();
    let mut named: Vec<String> = tiles.iter().take(NAMED).map(|t| t.to_string()).collect();
    if count as usize > NAMED {
        named.push(format!("{} more", count as usize - NAMED));
    }
    let (last, first) = named
        .split_last()
        .map_or(("", &[][..]), |(l, f)| (l.as_str(), f));
    let list = if first.is_empty() {
        last.to_owned()
    } else {
        format!("{} and {last}", first.join(", "))
    };
    let verb = if count == 1 { "is" } else { "are" };
    format!(
        "{count} tile{} of the set {verb} in no hand, not in the boneyard and not on the layout: {list}; \
         every tile must be somewhere (the boneyard holds {boneyard}: is it short?)",
        if count == 1 { "" } else { "s" }
    )
}

/// What the moves of a `table` name as a tile's place.
/// A trick game's kind of move, as a refusal names it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TrickMoveKind {
    /// A bid in the auction.
    Bid,
    /// The contract named.
    Contract,
    /// A tile laid away.
    Discard,
    /// A tile played to a trick.
    Trick,
}

impl TrickMoveKind {
    /// The kind of `action`, if it is a trick game's own.
    #[must_use]
    pub const fn of(action: Action) -> Option<TrickMoveKind> {
        match action {
            Action::Bid(_) => Some(TrickMoveKind::Bid),
            Action::Name(_) => Some(TrickMoveKind::Contract),
            Action::Discard(_) => Some(TrickMoveKind::Discard),
            Action::Trick(_) => Some(TrickMoveKind::Trick),
            Action::Play { .. } | Action::Draw | Action::Pass | Action::EndTurn => None,
        }
    }
}

impl fmt::Display for TrickMoveKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TrickMoveKind::Bid => "a bid",
            TrickMoveKind::Contract => "naming a contract",
            TrickMoveKind::Discard => "a discard",
            TrickMoveKind::Trick => "a tile played to a trick",
        })
    }
}

fn places_of(table: TableKind) -> &'static str {
    match table {
        TableKind::Line => "name an end of the line (none for the lead)",
        TableKind::Trains => "name a train: a seat's, or the Mexican train",
        TableKind::ChickenFoot => "name an arm of the chicken foot, or a new arm",
        TableKind::Tricks => "place no tile: bid, name the contract, discard or play to the trick",
    }
}
