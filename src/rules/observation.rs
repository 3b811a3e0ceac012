//! A seat's observation as numbers: a vector of fixed length per game, for
//! learning agents. It is computed from the seat's [`View`] alone, so two
//! states that differ only in what the seat cannot see observe alike.
//!
//! Seats are counted from the observer (0 is the observer, 1 the next seat
//! to act after it, ...), sides likewise (0 is the observer's). With `T`
//! the set's tiles (in [`Tile::index`](crate::rules::Tile::index) order),
//! `P` the places of the game's [`ActionSpace`], `N` the numbers a half may
//! show (`max_pip + 1`), `S` the seats and `D` the sides, the vector is, in
//! order:
//!
//! | part | length | values |
//! | --- | --- | --- |
//! | the observer's hand | `T` | 1 for a tile held |
//! | the table | `T` | 1 for a tile placed (the hub included) |
//! | what each other seat surely lacks | `(S − 1) × T` | 1 for a tile that seat cannot hold (it passed or drew on that number, the tile is seen elsewhere) |
//! | each place's number | `P × N` | 1 for the number a tile must show to go there (nothing for a place not open) |
//! | each place's state | `P` | a line: 1 for an open end; a train: 1 for a raised marker; a chicken foot: 1 for an arm ending in a foot |
//! | each place's demand | `P` | 1 where a double must be answered (a train's unsatisfied double, a chicken foot's new arms while the hub or a foot waits) |
//! | hand sizes | `S` | tiles held ÷ `T` |
//! | the boneyard | 1 | tiles ÷ `T` |
//! | scores | `D` | points ÷ the target (÷ 100 without one) |
//! | to act | `S` | 1 for the seat to act (none once the match is over) |
//! | this turn | 2 | drew this turn; the table is empty |
//!
//! A trick game (Texas 42, Moon) has no places and no boneyard: its
//! observation is laid out as [`super::tricks::observation`] says.

use super::action::ActionSpace;
use super::foot::{FootPlace, MAX_ARMS};
use super::moves::Seat;
use super::options::Rules;
use super::place::Place;
use super::tile::TileSet;
use super::view::View;

/// The most places a table has: a new arm and every arm of a chicken foot.
const MAX_PLACES: usize = 1 + MAX_ARMS;

/// The length and layout of a game's observation vector.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ObservationShape {
    /// The action space, which numbers the places.
    space: ActionSpace,
    /// Tiles of the set.
    tiles: usize,
    /// Numbers a half may show.
    numbers: usize,
    /// Seats.
    players: usize,
    /// Sides.
    sides: usize,
    /// Whether the game is a trick game, whose observation is its own
    /// ([`super::tricks::observation`]).
    tricks: bool,
}

impl ObservationShape {
    /// The shape of a game of `players` seats under `rules`.
    #[must_use]
    pub fn new(rules: &Rules, players: u8) -> ObservationShape {
        ObservationShape {
            space: ActionSpace::new(rules, players),
            tiles: rules.tile_set().len() as usize,
            numbers: usize::from(rules.max_pip) + 1,
            players: usize::from(players),
            sides: usize::from(rules.sides(players)),
            tricks: rules.tricks.is_some(),
        }
    }

    /// Places per tile.
    fn places(&self) -> usize {
        self.space.places() as usize
    }

    /// The vector's length.
    #[must_use]
    pub fn len(&self) -> usize {
        if self.tricks {
            return super::tricks::observation::len(self.tiles, self.players, self.sides);
        }
        let (t, p, s) = (self.tiles, self.places(), self.players);
        t * (1 + s) + p * self.numbers + 2 * p + s + 1 + self.sides + s + 2
    }

    /// Never empty (kept for the `len` convention).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Writes what `view`'s seat observes into `out` (its first
    /// [`ObservationShape::len`] values; a shorter `out` takes what fits).
    pub fn observe(&self, view: &View<'_>, out: &mut [f32]) {
        let mut cells = Cells {
            out,
            at: 0,
            tiles: self.tiles,
        };
        cells.clear(self.len());
        if self.tricks {
            super::tricks::observation::observe(view, self.players, self.sides, &mut cells);
            return;
        }
        let me = view.seat();
        let players = self.players.max(1);
        let seat_at = |offset: usize| seat_at(me, offset, players);
        let tiles = self.tiles as f32;

        cells.tiles(view.hand());
        let table = match (view.trains(), view.foot()) {
            (Some(trains), _) => trains.tiles(),
            (None, Some(foot)) => foot.tiles(),
            (None, None) => view.layout().tiles().collect(),
        };
        cells.tiles(table);
        cells.others_lack(view, players);

        let places = self.places();
        let numbers = self.numbers;
        // Every table's places fit (a chicken foot of the largest set has
        // the most: a new arm and 42 arms).
        let mut number = [None; MAX_PLACES];
        let mut state = [0.0; MAX_PLACES];
        let mut demand = [0.0; MAX_PLACES];
        let mut at = |place: Place, shows: Option<u8>, on: f32, wanted: f32| {
            let Some(index) = self.space.place_number(place) else {
                return;
            };
            let index = index as usize;
            if let (Some(slot), Some(s), Some(d)) = (
                number.get_mut(index),
                state.get_mut(index),
                demand.get_mut(index),
            ) {
                *slot = shows;
                *s = on;
                *d = wanted;
            }
        };
        match (view.trains(), view.foot()) {
            (Some(trains), _) => {
                let unsatisfied = trains.unsatisfied();
                for (id, train) in trains.trains() {
                    let wanted = if unsatisfied == Some(id) { 1.0 } else { 0.0 };
                    let marker = if train.marker() { 1.0 } else { 0.0 };
                    at(Place::on_train(id), Some(train.open_end()), marker, wanted);
                }
            }
            (None, Some(foot)) => {
                for arm in 0..foot.arm_count() {
                    let Ok(arm) = u8::try_from(arm) else { break };
                    let closed = if foot.ends_in_foot(arm) { 1.0 } else { 0.0 };
                    at(
                        Place::at_foot(FootPlace::Arm(arm)),
                        foot.open_end(arm),
                        closed,
                        0.0,
                    );
                }
                if let Some((shows, _)) = foot.waiting_for() {
                    at(Place::at_foot(FootPlace::NewArm), Some(shows), 0.0, 1.0);
                }
            }
            (None, None) => {
                for (end, shows) in view.open_ends() {
                    at(Place::at_end(end), Some(shows), 1.0, 0.0);
                }
            }
        }
        for shows in number.iter().take(places) {
            cells.one_hot(shows.map(usize::from), numbers);
        }
        for value in state.iter().take(places).chain(demand.iter().take(places)) {
            cells.push(*value);
        }

        for offset in 0..players {
            cells.push(view.hand_size(seat_at(offset)) as f32 / tiles);
        }
        cells.push(view.boneyard_len() as f32 / tiles);
        cells.scores(view, self.sides);
        let to_act = view.to_act();
        for offset in 0..players {
            cells.push(if to_act == Some(seat_at(offset)) {
                1.0
            } else {
                0.0
            });
        }
        cells.push(if view.drew_this_turn() { 1.0 } else { 0.0 });
        let empty = match (view.trains(), view.foot()) {
            (Some(trains), _) => trains.is_empty(),
            (None, Some(foot)) => foot.is_empty(),
            (None, None) => view.layout().is_empty(),
        };
        cells.push(if empty { 1.0 } else { 0.0 });
    }
}

/// The seat `offset` places after `me` at a table of `players` seats.
pub(crate) fn seat_at(me: Seat, offset: usize, players: usize) -> Seat {
    // Below 8 seats: the conversion cannot fail.
    Seat::try_from((usize::from(me) + offset) % players.max(1)).unwrap_or(0)
}

/// The vector being written, front to back.
pub(crate) struct Cells<'a> {
    /// The vector.
    out: &'a mut [f32],
    /// The next cell.
    at: usize,
    /// Cells a set of tiles takes.
    tiles: usize,
}

impl Cells<'_> {
    /// Zeroes the first `len` cells.
    fn clear(&mut self, len: usize) {
        let len = len.min(self.out.len());
        if let Some(cells) = self.out.get_mut(..len) {
            cells.fill(0.0);
        }
    }

    /// Writes the next cell (past the vector's end, nothing).
    pub(crate) fn push(&mut self, value: f32) {
        if let Some(cell) = self.out.get_mut(self.at) {
            *cell = value;
        }
        self.at += 1;
    }

    /// Writes `len` cells, 1 at `hot` (none for `None` or past `len`), 0
    /// elsewhere (they were cleared).
    pub(crate) fn one_hot(&mut self, hot: Option<usize>, len: usize) {
        if let Some(cell) = hot
            .filter(|&hot| hot < len)
            .and_then(|hot| self.out.get_mut(self.at + hot))
        {
            *cell = 1.0;
        }
        self.at += len;
    }

    /// Writes what each seat but `view`'s surely lacks (a set of tiles a
    /// seat), seats counted from the observer.
    pub(crate) fn others_lack(&mut self, view: &View<'_>, players: usize) {
        let knowledge = view.knowledge();
        let set = view.rules().tile_set();
        for offset in 1..players {
            let seat = seat_at(view.seat(), offset, players);
            self.tiles(knowledge.surely_not_held(seat).and(set));
        }
    }

    /// Writes the scores of `sides` sides, the observer's first, each ÷
    /// the target (÷ 100 without one).
    pub(crate) fn scores(&mut self, view: &View<'_>, sides: usize) {
        let scale = match view.rules().target {
            0 => 100.0,
            target => target as f32,
        };
        let sides = sides.max(1);
        let own_side = usize::from(view.side_of(view.seat()));
        for offset in 0..sides {
            let score = view
                .scores()
                .get((own_side + offset) % sides)
                .copied()
                .unwrap_or(0);
            self.push(score as f32 / scale);
        }
    }

    /// Writes one cell per tile of the set: 1 for the tiles of `tiles`.
    pub(crate) fn tiles(&mut self, tiles: TileSet) {
        let start = self.at;
        for index in tiles.indices() {
            if index < self.tiles {
                if let Some(cell) = self.out.get_mut(start + index) {
                    *cell = 1.0;
                }
            }
        }
        // The cells not set were cleared.
        self.at = start + self.tiles;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;
    use crate::rules::presets::PRESETS;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};

    /// At every preset and table size, through random matches: a seat
    /// observes its own hand, and a deal sampled from its knowledge (the
    /// others' hands and the boneyard replaced by any consistent with what
    /// it saw) observes exactly alike.
    #[test]
    fn a_seat_observes_only_what_it_sees() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut compared = 0;
        for preset in PRESETS {
            for players in preset.players.clone() {
                let rules = preset.rules(players, None);
                let shape = ObservationShape::new(&rules, players);
                let (mut game, _) = Game::new(preset.id, rules, players, 3).expect("deals");
                let mut mine = vec![f32::NAN; shape.len()];
                let mut theirs = vec![f32::NAN; shape.len()];
                for step in 0..300 {
                    if game.outcome().is_some() {
                        break;
                    }
                    let seat = game.to_act();
                    let view = game.view(seat).expect("seat");
                    shape.observe(&view, &mut mine);
                    assert!(mine.iter().all(|v| v.is_finite()), "{}", preset.id);
                    let hand: Vec<usize> = (0..shape.tiles).filter(|&i| mine[i] == 1.0).collect();
                    let held: Vec<usize> = view.hand().iter().map(|t| t.index() as usize).collect();
                    assert_eq!(hand, held);
                    if step % 3 == 0 {
                        if let Some(other) = view.knowledge().sample(&mut rng) {
                            let other_view = other.view(seat).expect("seat");
                            shape.observe(&other_view, &mut theirs);
                            assert_eq!(mine, theirs, "{} {players}p step {step}", preset.id);
                            compared += 1;
                        }
                    }
                    let legal = game.legal_moves();
                    game.play(legal[rng.random_range(0..legal.len())])
                        .expect("legal");
                }
            }
        }
        assert!(compared > 500, "{compared}");
    }

    /// The documented layout: a block table's lengths add up, the lead
    /// place shows nothing, an open end its number.
    #[test]
    fn the_layout_is_as_documented() {
        let rules = crate::rules::presets::preset("block")
            .expect("preset")
            .rules(2, None);
        let shape = ObservationShape::new(&rules, 2);
        assert_eq!(shape.len(), 28 * 3 + 5 * 7 + 2 * 5 + 2 + 1 + 2 + 2 + 2);
        let (mut game, _) = Game::new("block", rules, 2, 1).expect("deals");
        let mut out = vec![0.0; shape.len()];
        shape.observe(&game.view(0).expect("seat"), &mut out);
        assert_eq!(out[shape.len() - 1], 1.0, "the table is empty");
        let lead = game.legal_moves()[0];
        game.play(lead).expect("legal");
        shape.observe(&game.view(0).expect("seat"), &mut out);
        assert_eq!(out[shape.len() - 1], 0.0);
        let numbers = &out[28 * 3..28 * 3 + 5 * 7];
        let crate::rules::Action::Play { tile, .. } = lead.action else {
            panic!("a lead places a tile")
        };
        // Left (place 1) shows the lead's high half, right (2) its low.
        assert_eq!(numbers[7 + usize::from(tile.high())], 1.0);
        assert_eq!(numbers[14 + usize::from(tile.low())], 1.0);
        assert_eq!(numbers[..7].iter().sum::<f32>(), 0.0);
        assert_eq!(numbers.iter().sum::<f32>(), 2.0);
    }
}
