//! The train table of Mexican Train: a hub double in the middle, one train
//! per seat growing from it, and (unless the game is Private Train) the
//! public Mexican train. Each train has an open end and, for a seat's
//! train, its owner's marker; a double on a train stays *unsatisfied* until
//! a tile covers it, and while it is, it is the only place anything goes.
//!
//! This module knows where tiles fit and what a placement or a pass does to
//! the table. Whose turn it is, the opening chain and the round's end are
//! the game's (`game.rs`); they ask the table.

use std::fmt;

use arrayvec::ArrayVec;

use crate::rules::deal::MAX_SEATS;
use crate::rules::layout::Placed;
use crate::rules::moves::{Move, Seat, push_per_place};
use crate::rules::place::Place;
use crate::rules::tile::{MAX_PIP_LIMIT, Tile, TileSet, ones};

/// The most tiles a train can hold: every tile of the largest set but the
/// hub. A train keeps them inline, so that placing a tile never allocates
/// and a copy of the table (a bot's playout) is one allocation.
const TRAIN_CAPACITY: usize = TileSet::full(MAX_PIP_LIMIT).len() as usize - 1;

/// Which train a tile goes on.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TrainId {
    /// The train a seat owns.
    Seat(Seat),
    /// The public Mexican train, open to every seat.
    Mexican,
}

impl TrainId {
    /// The train at position `index` of a table of `players` seats: the
    /// seats' trains in seat order, then the Mexican train.
    #[must_use]
    pub fn at(index: usize, players: u8) -> TrainId {
        match Seat::try_from(index) {
            Ok(seat) if seat < players => TrainId::Seat(seat),
            _ => TrainId::Mexican,
        }
    }
}

/// "seat 2's train", "the Mexican train".
impl fmt::Display for TrainId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainId::Seat(seat) => write!(f, "seat {seat}'s train"),
            TrainId::Mexican => f.write_str("the Mexican train"),
        }
    }
}

/// What a placement did to the table besides adding the tile.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Placement {
    /// The tile was a double: it is now unsatisfied.
    pub double_placed: bool,
    /// The tile covered the unsatisfied double.
    pub double_satisfied: bool,
    /// The owner placed on its own train and took its marker down.
    pub marker_lowered: bool,
}

/// Why a tile cannot go on a train.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum TrainFault {
    /// There is no such train at this table (a seat beyond it, or the
    /// Mexican train in Private Train).
    #[error("there is no such train at this table")]
    NoSuchTrain,
    /// The train is another seat's, its marker down.
    #[error("it is another seat's train and its marker is down")]
    Closed,
    /// A double is unsatisfied elsewhere: only it may be covered.
    #[error("the double on {0} is unsatisfied, and nothing goes anywhere else until it is covered")]
    DoubleUnsatisfied(TrainId),
    /// The tile does not show the number the train's open end shows.
    #[error("its open end shows {0}")]
    DoesNotMatch(u8),
    /// The seat is laying its opening chain, which goes on its own train
    /// only.
    #[error("a seat laying its opening chain places on its own train only (or ends its turn)")]
    OutsideChain,
}

/// One train as the table shows it: its tiles outward from the hub, what
/// its open end shows and its owner's marker.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Train<'a> {
    /// The tiles, outward from the hub (each one's inner half touching the
    /// previous tile, the first's touching the hub).
    tiles: &'a [Placed],
    /// The number its open end shows: the hub's until a tile is on it.
    open: u8,
    /// Whether the owner's marker is up, so that any seat may place here
    /// (always false for the Mexican train, which needs none).
    marker: bool,
}

impl<'a> Train<'a> {
    /// Its tiles, outward from the hub.
    #[must_use]
    pub fn tiles(self) -> &'a [Placed] {
        self.tiles
    }

    /// The number its open end shows.
    #[must_use]
    pub fn open_end(self) -> u8 {
        self.open
    }

    /// Whether its owner's marker is up.
    #[must_use]
    pub fn marker(self) -> bool {
        self.marker
    }
}

/// The most trains a table has: one per seat of the largest table, and the
/// Mexican train.
const MAX_TRAINS: usize = MAX_SEATS + 1;

/// The Mexican train's slot in the bit masks and arrays a table keeps per
/// train (a seat's train's slot is its seat): the same at every table, so
/// that a slot names its train, and its place in a move, without asking how
/// many seats the table has.
const MEXICAN_SLOT: usize = MAX_SEATS;

/// One train's tiles, inline (see [`TRAIN_CAPACITY`]).
type TrainTiles = ArrayVec<Placed, TRAIN_CAPACITY>;

/// The table of a train game.
///
/// The trains' tiles are kept by position: the seats' in seat order, then
/// the Mexican train. What each shows and which markers are up are kept
/// apart from the tiles, in a few bytes and by *slot* (a seat's train's is
/// its seat, the Mexican train's `MEXICAN_SLOT`), because those are what
/// every move asks of every train (which trains a seat may use and what
/// they show).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Trains {
    /// The hub double's number.
    hub: u8,
    /// Each train's tiles, by position.
    tiles: Vec<TrainTiles>,
    /// The number each train's open end shows, by slot: its last tile's
    /// outer half, the hub's while it has none (the slots of trains the
    /// table lacks show the hub's and are never asked).
    open: [u8; MAX_TRAINS],
    /// For each number, the trains whose open end shows it, bit `i` for
    /// the train in slot `i` (kept with `open`, so that where a tile fits
    /// is two lookups).
    showing: [u16; NUMBERS],
    /// The markers up, bit `i` for the train in slot `i` (the Mexican
    /// train never has one).
    markers: u32,
    /// Number of seats (the seats' trains are the first this many).
    players: u8,
    /// Whether there is a Mexican train.
    public_train: bool,
    /// The train whose last tile is a double no tile covers yet.
    unsatisfied: Option<TrainId>,
}

impl Trains {
    /// The table at a round's start: the hub `hub`-`hub`, an empty train for
    /// each of `players` seats (at most [`MAX_SEATS`]) and, with
    /// `public_train`, the Mexican train; every marker down.
    #[must_use]
    pub fn new(hub: u8, players: u8, public_train: bool) -> Trains {
        let seats = players.min(MAX_SEATS as u8);
        let count = usize::from(seats) + usize::from(public_train);
        let mut table = Trains {
            hub,
            tiles: vec![TrainTiles::new(); count],
            open: [hub; MAX_TRAINS],
            showing: [0; NUMBERS],
            markers: 0,
            players: seats,
            public_train,
            unsatisfied: None,
        };
        table.index_numbers();
        table
    }

    /// A table as a state describes it, unchecked: the hub's number, each
    /// train's tiles (outward from the hub) and marker — the seats' trains
    /// by seat, then the Mexican train if `public_train` — and the train
    /// whose double is unsatisfied. A train's open end is its last tile's
    /// outer half (the hub's number while it has none). Only
    /// [`Game::from_setup`](crate::rules::Game::from_setup), which checks the table
    /// against the round's moves, makes a game of it.
    #[must_use]
    pub fn from_parts(
        hub: u8,
        players: u8,
        public_train: bool,
        trains: Vec<(Vec<Placed>, bool)>,
        unsatisfied: Option<TrainId>,
    ) -> Trains {
        let mut table = Trains {
            hub,
            tiles: Vec::with_capacity(trains.len()),
            open: [hub; MAX_TRAINS],
            showing: [0; NUMBERS],
            markers: 0,
            players: players.min(MAX_SEATS as u8),
            public_train,
            unsatisfied,
        };
        // (However many trains are given, all are kept, so that a count
        // the rules do not make is seen and refused; a train longer than
        // any round can make is cut to its capacity, and then differs from
        // the train the round's moves build, which is how it is refused; a
        // train past the table's trains takes the slot past theirs, which
        // no end and no mask of theirs holds, that train being one too
        // many.)
        for (i, (tiles, marker)) in trains.into_iter().enumerate() {
            let tiles: TrainTiles = tiles.into_iter().take(TRAIN_CAPACITY).collect();
            let slot = table.slot(i);
            if let (Some(open), Some(last)) = (table.open.get_mut(slot), tiles.last()) {
                *open = last.outer;
            }
            if marker {
                table.markers |= 1 << slot;
            }
            table.tiles.push(tiles);
        }
        table.index_numbers();
        table
    }

    /// Works out `showing` from `open`.
    fn index_numbers(&mut self) {
        self.showing = [0; NUMBERS];
        for slot in ones(self.existing()) {
            let shows = self.open.get(slot).copied().unwrap_or(self.hub);
            if let Some(bits) = self.showing.get_mut(usize::from(shows)) {
                *bits |= 1 << slot;
            }
        }
    }

    /// The slot of the train at position `index` (see [`Trains`]): a
    /// seat's train's is its seat, the Mexican train's [`MEXICAN_SLOT`],
    /// a position past the table's trains the one past the Mexican's.
    fn slot(&self, index: usize) -> usize {
        if index < usize::from(self.players) {
            index
        } else if index == usize::from(self.players) && self.public_train {
            MEXICAN_SLOT
        } else {
            MAX_TRAINS
        }
    }

    /// The slots of the table's trains, a bit each.
    fn existing(&self) -> u32 {
        let seats = (1u32 << self.players.min(MAX_SEATS as u8)) - 1;
        seats | u32::from(self.public_train) << MEXICAN_SLOT
    }

    /// The hub double.
    #[must_use]
    pub fn hub(&self) -> Tile {
        Tile::new(self.hub, self.hub)
    }

    /// Whether the table has a Mexican train.
    #[must_use]
    pub fn has_public_train(&self) -> bool {
        self.public_train
    }

    /// Every train with its id: the seats' in seat order, then the Mexican.
    pub fn trains(&self) -> impl Iterator<Item = (TrainId, Train<'_>)> + '_ {
        (0..self.tiles.len()).filter_map(|i| Some((TrainId::at(i, self.players), self.at(i)?)))
    }

    /// The train `id`, if the table has it.
    #[must_use]
    pub fn train(&self, id: TrainId) -> Option<Train<'_>> {
        self.at(self.index(id)?)
    }

    /// The train at position `i`, if the table has it.
    fn at(&self, i: usize) -> Option<Train<'_>> {
        let tiles = self.tiles.get(i)?;
        let slot = self.slot(i);
        Some(Train {
            tiles,
            open: tiles.last().map_or(self.hub, |placed| placed.outer),
            marker: self.markers >> slot & 1 == 1,
        })
    }

    /// The train whose double is unsatisfied, if one is.
    #[must_use]
    pub fn unsatisfied(&self) -> Option<TrainId> {
        self.unsatisfied
    }

    /// How many tiles are on the trains (the hub not counted).
    #[must_use]
    pub fn len(&self) -> usize {
        self.tiles.iter().map(ArrayVec::len).sum()
    }

    /// Every tile on the table, the hub included.
    #[must_use]
    pub fn tiles(&self) -> TileSet {
        self.tiles
            .iter()
            .flat_map(|train| train.iter().map(|placed| placed.tile()))
            .chain([self.hub()])
            .collect()
    }

    /// The same table at its round's start: the hub and empty trains.
    #[must_use]
    pub fn at_start(&self) -> Trains {
        Trains::new(self.hub, self.players, self.public_train)
    }

    /// Whether no tile is on any train yet.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.tiles.iter().all(ArrayVec::is_empty)
    }

    /// Whether `seat` may place on train `id` now, the table's markers
    /// considered (an unsatisfied double is not: see [`Trains::fault`]).
    #[must_use]
    pub fn is_open_to(&self, id: TrainId, seat: Seat) -> bool {
        match id {
            TrainId::Mexican => self.public_train,
            TrainId::Seat(owner) => owner == seat || self.train(id).is_some_and(Train::marker),
        }
    }

    /// Why `seat` may not place `tile` on train `id`, or `None` if it may.
    #[must_use]
    pub fn fault(&self, tile: Tile, id: TrainId, seat: Seat) -> Option<TrainFault> {
        let Some(train) = self.train(id) else {
            return Some(TrainFault::NoSuchTrain);
        };
        match self.unsatisfied {
            Some(double) if double != id => return Some(TrainFault::DoubleUnsatisfied(double)),
            // Any seat covers a double, on any train.
            Some(_) => {}
            None if !self.is_open_to(id, seat) => return Some(TrainFault::Closed),
            None => {}
        }
        (!tile.has(train.open)).then_some(TrainFault::DoesNotMatch(train.open))
    }

    /// The trains `seat` may place `tile` on now, in the order legal moves
    /// list them (the seats' trains in seat order, then the Mexican).
    pub fn places_for(&self, tile: Tile, seat: Seat) -> impl Iterator<Item = TrainId> + '_ {
        ones(self.open_places(seat, false).trains_for(tile)).map(train_in_slot)
    }

    /// The trains a seat may place on now, one bit per slot: while a
    /// double is unsatisfied only its train; else the seat's own, the
    /// Mexican and those whose marker is up — with `own_only` (an opening
    /// chain), the seat's own alone; with `every_train_open` (what the
    /// test for a blocked round asks), every train.
    fn usable(&self, seat: Seat, own_only: bool, every_train_open: bool) -> u32 {
        let existing = self.existing();
        let own = 1u32 << (seat & 7);
        if let Some(double) = self.unsatisfied {
            return 1 << slot_of(double) & existing;
        }
        let usable = if every_train_open {
            existing
        } else {
            let mexican = u32::from(self.public_train) << MEXICAN_SLOT;
            own | mexican | self.markers
        };
        usable & if own_only { own } else { existing }
    }

    /// Where `seat` may place now (with `own_only`, its own train alone, as
    /// in an opening chain): asked once for a hand's tiles, so that each
    /// tile looks up its two numbers instead of asking every train.
    #[must_use]
    pub fn open_places(&self, seat: Seat, own_only: bool) -> OpenTrains<'_> {
        let usable = self.usable(seat, own_only, false);
        OpenTrains {
            table: self,
            usable,
            fitting: self.fitting_at(usable),
        }
    }

    /// The tiles that fit somewhere `seat` may place now (with
    /// `every_train_open`, as if every marker were up: what the test for a
    /// blocked round asks). While a double is unsatisfied, only the tiles
    /// that cover it.
    #[must_use]
    pub fn fitting(&self, seat: Seat, every_train_open: bool) -> TileSet {
        self.fitting_at(self.usable(seat, false, every_train_open))
    }

    /// The tiles that fit one of the trains in `trains` (a bit per slot).
    fn fitting_at(&self, trains: u32) -> TileSet {
        ones(trains).fold(TileSet::EMPTY, |set, i| {
            set.or(TileSet::showing(
                self.open.get(i).copied().unwrap_or(self.hub),
            ))
        })
    }

    /// Places `tile` on train `id` for `seat`, which [`Trains::fault`] must
    /// allow (a tile that does not fit is placed as if it did: the table
    /// stays well formed but the position is not one of the game's).
    // (Inlined into a train table's play, which is `#[cold]` for the line
    // games' sake, so optimised for size: left to itself the optimiser
    // stopped inlining this there when `Action` grew, which cost a round 3%
    // of its instructions.)
    #[inline(always)]
    pub fn place(&mut self, tile: Tile, id: TrainId, seat: Seat) -> Placement {
        let Some(index) = self.index(id) else {
            return Placement::default();
        };
        let slot = slot_of(id);
        let (Some(train), Some(open)) = (self.tiles.get_mut(index), self.open.get_mut(slot)) else {
            return Placement::default();
        };
        let inner = if tile.has(*open) { *open } else { tile.high() };
        let outer = tile.other_half(inner);
        // (No legal placement finds a train full: it holds every tile of
        // the largest set but the hub.)
        if train.try_push(Placed { inner, outer }).is_err() {
            return Placement::default();
        }
        let shown = std::mem::replace(open, outer);
        let bit = 1u32 << slot;
        if let Some(was) = self.showing.get_mut(usize::from(shown)) {
            *was &= !(bit as u16);
        }
        if let Some(now) = self.showing.get_mut(usize::from(outer)) {
            *now |= bit as u16;
        }
        // (Both tests made, without a branch on either: which train a
        // move takes is a coin toss to a processor.)
        let marker_lowered = (slot == usize::from(seat)) & (self.markers & bit != 0);
        self.markers &= !(u32::from(marker_lowered) << slot);
        let double_satisfied = self.unsatisfied == Some(id);
        let double_placed = tile.is_double();
        self.unsatisfied = double_placed.then_some(id);
        Placement {
            double_placed,
            double_satisfied,
            marker_lowered,
        }
    }

    /// Raises `seat`'s marker (a pass); whether it was down.
    pub fn raise_marker(&mut self, seat: Seat) -> bool {
        match self.index(TrainId::Seat(seat)) {
            Some(index) if index < self.tiles.len() => {
                let bit = 1u32 << index;
                let was_down = self.markers & bit == 0;
                self.markers |= bit;
                was_down
            }
            _ => false,
        }
    }

    /// The position of train `id` (below [`MAX_TRAINS`]), if the table
    /// has such a train. (Always inlined, as [`Trains::place`] is.)
    #[inline(always)]
    fn index(&self, id: TrainId) -> Option<usize> {
        let slot = slot_of(id);
        // A seat's train's position is its slot, below the seat count; the
        // Mexican train's, the seat count, below its slot: the smaller of
        // the two either way (no branch on which kind of train it is).
        (self.existing() >> slot & 1 == 1).then(|| slot.min(usize::from(self.players)))
    }
}

/// How many numbers a half may show in the largest set.
const NUMBERS: usize = MAX_PIP_LIMIT as usize + 1;

/// The slot of train `id` (see [`Trains`]); a seat beyond the largest
/// table's takes a slot past the Mexican train's, which no mask holds.
fn slot_of(id: TrainId) -> usize {
    match id {
        TrainId::Seat(seat) => usize::from(seat).min(MAX_TRAINS),
        TrainId::Mexican => MEXICAN_SLOT,
    }
}

/// The train in each slot (see [`Trains`]), sixteen so that a slot masked
/// by 15 finds one; past the Mexican train's slot, the Mexican train (no
/// mask holds those slots).
const TRAIN_IN_SLOT: [TrainId; 16] = {
    let mut table = [TrainId::Mexican; 16];
    let mut seat = 0;
    while seat < MEXICAN_SLOT {
        table[seat] = TrainId::Seat(seat as Seat);
        seat += 1;
    }
    table
};

/// The train in slot `slot`: looked up, not matched, because whether a
/// slot is the Mexican train's is a coin toss to a processor, which a
/// branch on it pays for at every move listed.
fn train_in_slot(slot: usize) -> TrainId {
    TRAIN_IN_SLOT[slot & 15]
}

/// The place of the train in each slot, as [`TRAIN_IN_SLOT`].
const PLACE_OF_SLOT: [Place; 16] = {
    let mut table = [Place::on_train(TrainId::Mexican); 16];
    let mut slot = 0;
    while slot < 16 {
        table[slot] = Place::on_train(TRAIN_IN_SLOT[slot]);
        slot += 1;
    }
    table
};

/// The trains a seat may place on now (see [`Trains::open_places`]).
#[derive(Clone, Copy, Debug)]
pub struct OpenTrains<'a> {
    /// The table.
    table: &'a Trains,
    /// The trains, a bit per slot.
    usable: u32,
    /// The tiles that fit one of them.
    fitting: TileSet,
}

impl OpenTrains<'_> {
    /// The tiles that fit one of the trains.
    #[must_use]
    pub fn fitting(&self) -> TileSet {
        self.fitting
    }

    /// The trains `tile` fits, a bit per slot (so in the order
    /// [`Trains::trains`] lists them).
    fn trains_for(&self, tile: Tile) -> u32 {
        let number = |n: u8| self.table.showing.get(usize::from(n)).copied().unwrap_or(0);
        u32::from(number(tile.high()) | number(tile.low())) & self.usable
    }

    /// Adds to `out` the moves of `seat` placing `tile`: one for each
    /// train it fits, in the order [`Trains::trains`] lists them.
    pub fn push_moves(&self, seat: Seat, tile: Tile, out: &mut Vec<Move>) {
        // A tile fits one train or two nearly always.
        push_per_place::<2>(out, self.trains_for(tile).into(), |slot| {
            Move::place(seat, tile, PLACE_OF_SLOT[slot as usize & 15])
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MEXICAN: TrainId = TrainId::Mexican;

    fn t(a: u8, b: u8) -> Tile {
        Tile::new(a, b)
    }

    /// RULES' example: hub 12-12; seat 0 places 12-5 on its train, then
    /// 5-5, unsatisfied until its 5-3 covers it; seat 1 holds no 12 and no
    /// train is open to it but its own and the Mexican.
    #[test]
    fn the_rule_books_example() {
        let mut table = Trains::new(12, 4, true);
        assert_eq!(table.hub(), t(12, 12));
        assert_eq!(table.trains().count(), 5);
        assert_eq!(
            table.places_for(t(12, 5), 0).collect::<Vec<_>>(),
            vec![TrainId::Seat(0), TrainId::Mexican]
        );
        assert_eq!(
            table.place(t(12, 5), TrainId::Seat(0), 0),
            Placement::default()
        );
        assert_eq!(table.train(TrainId::Seat(0)).map(Train::open_end), Some(5));
        let placed = table.place(t(5, 5), TrainId::Seat(0), 0);
        assert!(placed.double_placed && !placed.double_satisfied);
        assert_eq!(table.unsatisfied(), Some(TrainId::Seat(0)));
        // Only the double may be covered, by anyone, its train closed or not.
        assert_eq!(table.fitting(1, false), TileSet::showing(5));
        assert_eq!(
            table.fault(t(12, 9), TrainId::Seat(1), 1),
            Some(TrainFault::DoubleUnsatisfied(TrainId::Seat(0)))
        );
        assert_eq!(table.fault(t(5, 3), TrainId::Seat(0), 1), None);
        let covered = table.place(t(5, 3), TrainId::Seat(0), 0);
        assert!(covered.double_satisfied && !covered.double_placed);
        assert_eq!(table.unsatisfied(), None);
        let tiles: Vec<Tile> = table
            .train(TrainId::Seat(0))
            .map(|train| train.tiles().iter().map(|p| p.tile()).collect())
            .unwrap_or_default();
        assert_eq!(tiles, vec![t(12, 5), t(5, 5), t(5, 3)]);
        // Seat 1 may use its own train and the Mexican, not seat 0's.
        assert_eq!(
            table.fault(t(3, 1), TrainId::Seat(0), 1),
            Some(TrainFault::Closed)
        );
        assert_eq!(
            table.places_for(t(12, 9), 1).collect::<Vec<_>>(),
            vec![TrainId::Seat(1), TrainId::Mexican]
        );
        assert_eq!(table.len(), 3);
    }

    /// A pass raises the passer's marker; the train is then open to all
    /// until its owner places on it; a marker up stays up.
    #[test]
    fn markers() {
        let mut table = Trains::new(9, 3, true);
        assert!(table.raise_marker(1));
        assert!(!table.raise_marker(1), "already up");
        assert!(table.is_open_to(TrainId::Seat(1), 0));
        assert_eq!(table.fault(t(9, 4), TrainId::Seat(1), 2), None);
        // Another seat placing there leaves the marker up.
        assert!(!table.place(t(9, 4), TrainId::Seat(1), 2).marker_lowered);
        assert!(table.is_open_to(TrainId::Seat(1), 0));
        assert!(table.place(t(4, 2), TrainId::Seat(1), 1).marker_lowered);
        assert!(!table.is_open_to(TrainId::Seat(1), 0));
        assert!(table.is_open_to(TrainId::Seat(1), 1));
        assert!(!table.raise_marker(7), "no such seat");
    }

    /// The moves a tile gives are one per train it fits, in the trains'
    /// order, however many: one, two, or more (markers up).
    #[test]
    fn moves_per_train_fitting() {
        let mut table = Trains::new(12, 4, true);
        let moves = |table: &Trains, tile: Tile| {
            let mut out = vec![Move::pass(3)];
            table.open_places(1, false).push_moves(1, tile, &mut out);
            out
        };
        let on = |tile: Tile, train: TrainId| Move::place(1, tile, Place::on_train(train));
        let tile = t(12, 4);
        assert_eq!(
            moves(&table, tile),
            vec![Move::pass(3), on(tile, TrainId::Seat(1)), on(tile, MEXICAN)]
        );
        table.raise_marker(0);
        table.raise_marker(3);
        assert_eq!(
            moves(&table, tile),
            vec![
                Move::pass(3),
                on(tile, TrainId::Seat(0)),
                on(tile, TrainId::Seat(1)),
                on(tile, TrainId::Seat(3)),
                on(tile, MEXICAN),
            ]
        );
        table.place(t(12, 4), TrainId::Seat(1), 1);
        table.place(t(12, 6), TrainId::Seat(0), 2);
        table.place(t(12, 7), TrainId::Seat(3), 2);
        // Seat 0's train shows 6, seat 1's 4, seat 3's 7, the Mexican 12:
        // 7-1 fits seat 3's alone, 6-4 seat 0's and seat 1's.
        assert_eq!(
            moves(&table, t(7, 1)),
            vec![Move::pass(3), on(t(7, 1), TrainId::Seat(3))]
        );
        assert_eq!(
            moves(&table, t(6, 4)),
            vec![
                Move::pass(3),
                on(t(6, 4), TrainId::Seat(0)),
                on(t(6, 4), TrainId::Seat(1))
            ]
        );
        assert_eq!(
            moves(&table, t(12, 1)),
            vec![Move::pass(3), on(t(12, 1), MEXICAN)]
        );
    }

    /// Private Train has no Mexican train.
    #[test]
    fn private_train() {
        let table = Trains::new(6, 2, false);
        assert_eq!(table.trains().count(), 2);
        assert_eq!(
            table.fault(t(6, 1), TrainId::Mexican, 0),
            Some(TrainFault::NoSuchTrain)
        );
        assert_eq!(
            table.fault(t(6, 1), TrainId::Seat(2), 0),
            Some(TrainFault::NoSuchTrain)
        );
        assert_eq!(table.fitting(0, false), TileSet::showing(6));
        assert_eq!(
            table.fault(t(5, 1), TrainId::Seat(0), 0),
            Some(TrainFault::DoesNotMatch(6))
        );
    }

    /// The blocked-round test sees every train as open.
    #[test]
    fn fitting_with_every_train_open() {
        let mut table = Trains::new(12, 2, false);
        table.place(t(12, 3), TrainId::Seat(1), 1);
        assert_eq!(table.fitting(0, false), TileSet::showing(12));
        assert_eq!(
            table.fitting(0, true),
            TileSet::showing(12).or(TileSet::showing(3))
        );
    }

    /// Eight seats and the Mexican train: nine trains.
    #[test]
    fn eight_seats() {
        let table = Trains::new(12, 8, true);
        let ids: Vec<TrainId> = table.trains().map(|(id, _)| id).collect();
        assert_eq!(ids.len(), 9);
        assert_eq!(ids[7], TrainId::Seat(7));
        assert_eq!(ids[8], TrainId::Mexican);
    }
}
