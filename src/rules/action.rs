//! Moves as integers: each game has a fixed action space, so that a
//! learning agent (a network's output layer, a mask over it) can name any
//! move by one number.
//!
//! An action is `tile × places + place` for a placement, where `tile` is
//! the tile's [`Tile::index`] within the game's set and `place` numbers
//! the places a table can offer; then, past every placement, draw, pass
//! and end-turn. The places by table:
//!
//! | table | places |
//! | --- | --- |
//! | a line | 0 the lead, 1 left, 2 right, 3 up, 4 down |
//! | trains | 0..players the seats' trains, `players` the Mexican train |
//! | a chicken foot | 0 a new arm, 1 + i arm i (arms numbered as started), up to the hub's arms and three toes for each other double of the set |
//!
//! A trick game places no tile (it has no places): past draw, pass and
//! end-turn (which it never plays but a pass) come its own moves, in this
//! order: the point bids 30 to 41, the marks bids 1 to 7, plunge 1 to 7,
//! splash 1 to 7, the trick bids 4 to 7, the moon; the contracts (trumps
//! 0 to 6, doubles, follow-me, nello, sevens); a discard of each tile;
//! a tile to the trick, each tile.
//!
//! The seat is not part of an action: an action is always the move of the
//! seat to act.

use super::end::End;
use super::foot::{FootPlace, TOES};
use super::moves::{Action, Move, Seat};
use super::options::{Rules, TableKind};
use super::place::{Place, PlaceKind};
use super::tile::{Tile, TileSet};
use super::trains::TrainId;
use super::tricks::auction::Bid;
use super::tricks::contract::Contract;

/// A trick game's actions past draw, pass and end-turn, in order: bids
/// (12 in points, 7 each in marks, plunge and splash, 4 in tricks, the
/// moon), contracts (11), discards (28) and tiles to the trick (28).
const TRICK_ACTIONS: u32 = BIDS + CONTRACTS + 2 * TRICK_TILES;
/// Bids a trick game's space numbers.
const BIDS: u32 = 12 + 3 * 7 + 4 + 1;
/// Contracts: trumps 0 to 6, doubles, follow-me, nello, sevens.
const CONTRACTS: u32 = 7 + 4;
/// The double-six set's tiles.
const TRICK_TILES: u32 = 28;

/// The line's places in action order.
const LINE_PLACES: [Place; 5] = [
    Place::LEAD,
    Place::at_end(End::Left),
    Place::at_end(End::Right),
    Place::at_end(End::Up),
    Place::at_end(End::Down),
];

/// A game's action space: how many actions there are and what each means.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ActionSpace {
    /// The tiles of the game's set (indices `0..tiles`).
    tiles: u32,
    /// Places a tile may go, per tile.
    places: u32,
    /// The kind of table, which says what a place number means.
    table: TableKind,
    /// Seats, which number the trains.
    players: u8,
}

impl ActionSpace {
    /// The action space of a game of `players` seats under `rules`.
    #[must_use]
    pub fn new(rules: &Rules, players: u8) -> ActionSpace {
        let places = match rules.table {
            TableKind::Line => LINE_PLACES.len() as u32,
            TableKind::Trains => u32::from(players) + 1,
            TableKind::ChickenFoot => {
                1 + u32::from(rules.hub_arms) + u32::from(TOES) * u32::from(rules.max_pip)
            }
            // (A trick game places no tile; its bids, contracts and tricks
            // are not numbered here.)
            TableKind::Tricks => 0,
        };
        ActionSpace {
            tiles: TileSet::full(rules.max_pip).len(),
            places,
            table: rules.table,
            players,
        }
    }

    /// How many actions there are: `0..len()`.
    #[must_use]
    pub const fn len(&self) -> u32 {
        self.tiles * self.places + 3 + self.trick_actions()
    }

    /// The trick game's own actions (none at a placing game).
    const fn trick_actions(&self) -> u32 {
        match self.table {
            TableKind::Tricks => TRICK_ACTIONS,
            TableKind::Line | TableKind::Trains | TableKind::ChickenFoot => 0,
        }
    }

    /// A trick game's move as its number past end-turn (`None` for one
    /// the space has no number for, or at a placing game).
    fn trick_number(&self, action: Action) -> Option<u32> {
        if self.table != TableKind::Tricks {
            return None;
        }
        let within =
            |n: u8, low: u8, high: u8| (low..=high).contains(&n).then(|| u32::from(n - low));
        let tile_number = |tile: Tile| (tile.index() < TRICK_TILES).then(|| tile.index());
        match action {
            Action::Bid(bid) => match bid {
                Bid::Points(n) => within(n, 30, 41),
                Bid::Marks(n) => within(n, 1, 7).map(|i| 12 + i),
                Bid::Plunge(n) => within(n, 1, 7).map(|i| 19 + i),
                Bid::Splash(n) => within(n, 1, 7).map(|i| 26 + i),
                Bid::Tricks(n) => within(n, 4, 7).map(|i| 33 + i),
                Bid::Moon => Some(37),
            },
            Action::Name(contract) => match contract {
                Contract::Trumps(n) => within(n, 0, 6),
                Contract::Doubles => Some(7),
                Contract::FollowMe => Some(8),
                Contract::Nello => Some(9),
                Contract::Sevens => Some(10),
            }
            .map(|i| BIDS + i),
            Action::Discard(tile) => tile_number(tile).map(|i| BIDS + CONTRACTS + i),
            Action::Trick(tile) => tile_number(tile).map(|i| BIDS + CONTRACTS + TRICK_TILES + i),
            Action::Play { .. } | Action::Draw | Action::Pass | Action::EndTurn => None,
        }
    }

    /// The trick game's move numbered `number` past end-turn.
    fn trick_action(number: u32) -> Option<Action> {
        let small = |n: u32| u8::try_from(n).ok();
        let tile = |n: u32| Tile::from_index(n);
        Some(match number {
            n @ 0..12 => Action::Bid(Bid::Points(small(30 + n)?)),
            n @ 12..19 => Action::Bid(Bid::Marks(small(n - 11)?)),
            n @ 19..26 => Action::Bid(Bid::Plunge(small(n - 18)?)),
            n @ 26..33 => Action::Bid(Bid::Splash(small(n - 25)?)),
            n @ 33..37 => Action::Bid(Bid::Tricks(small(n - 29)?)),
            37 => Action::Bid(Bid::Moon),
            n if n < BIDS + 7 => Action::Name(Contract::Trumps(small(n - BIDS)?)),
            n if n == BIDS + 7 => Action::Name(Contract::Doubles),
            n if n == BIDS + 8 => Action::Name(Contract::FollowMe),
            n if n == BIDS + 9 => Action::Name(Contract::Nello),
            n if n == BIDS + 10 => Action::Name(Contract::Sevens),
            n if n < BIDS + CONTRACTS + TRICK_TILES => Action::Discard(tile(n - BIDS - CONTRACTS)),
            n if n < TRICK_ACTIONS => Action::Trick(tile(n - BIDS - CONTRACTS - TRICK_TILES)),
            _ => return None,
        })
    }

    /// Never: every game can at least draw, pass or end a turn (kept for
    /// the `len` convention).
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// Places per tile.
    #[must_use]
    pub const fn places(&self) -> u32 {
        self.places
    }

    /// The action of drawing.
    #[must_use]
    pub const fn draw(&self) -> u32 {
        self.tiles * self.places
    }

    /// The action of passing.
    #[must_use]
    pub const fn pass(&self) -> u32 {
        self.draw() + 1
    }

    /// The action of ending a turn.
    #[must_use]
    pub const fn end_turn(&self) -> u32 {
        self.draw() + 2
    }

    /// The number of a place, `None` for one this space has no number for
    /// (a place of another kind of table, a train of a seat the game does
    /// not have, an arm past the most the set allows).
    pub(crate) fn place_number(&self, place: Place) -> Option<u32> {
        let number = match (self.table, place.kind()) {
            (TableKind::Line, PlaceKind::Lead) => 0,
            (TableKind::Line, PlaceKind::End(end)) => 1 + end as u32,
            (TableKind::Trains, PlaceKind::Train(TrainId::Seat(seat))) if seat < self.players => {
                u32::from(seat)
            }
            (TableKind::Trains, PlaceKind::Train(TrainId::Mexican)) => u32::from(self.players),
            (TableKind::ChickenFoot, PlaceKind::Foot(FootPlace::NewArm)) => 0,
            (TableKind::ChickenFoot, PlaceKind::Foot(FootPlace::Arm(arm))) => 1 + u32::from(arm),
            _ => return None,
        };
        (number < self.places).then_some(number)
    }

    /// The place numbered `number`, if it is one.
    fn place_of(&self, number: u32) -> Option<Place> {
        match self.table {
            TableKind::Line => LINE_PLACES.get(number as usize).copied(),
            TableKind::Trains => (number < self.places)
                .then(|| Place::on_train(TrainId::at(number as usize, self.players))),
            TableKind::ChickenFoot => match number {
                0 => Some(Place::at_foot(FootPlace::NewArm)),
                n if n < self.places => u8::try_from(n - 1)
                    .ok()
                    .map(|arm| Place::at_foot(FootPlace::Arm(arm))),
                _ => None,
            },
            TableKind::Tricks => None,
        }
    }

    /// The action of a move, `None` for a move this game cannot make (a
    /// tile of a larger set, a place of another table). Every legal move
    /// of the game has one.
    #[must_use]
    #[inline]
    pub fn encode(&self, mv: Move) -> Option<u32> {
        match mv.action {
            Action::Play { tile, place } => {
                let index = tile.index();
                (index < self.tiles)
                    .then_some(())
                    .and_then(|()| self.place_number(place))
                    .map(|number| index * self.places + number)
            }
            Action::Draw => Some(self.draw()),
            Action::Pass => Some(self.pass()),
            Action::EndTurn => Some(self.end_turn()),
            Action::Bid(_) | Action::Name(_) | Action::Discard(_) | Action::Trick(_) => self
                .trick_number(mv.action)
                .map(|number| self.end_turn() + 1 + number),
        }
    }

    /// The move of `seat` that `action` names, `None` past the space.
    #[must_use]
    #[inline]
    pub fn decode(&self, action: u32, seat: Seat) -> Option<Move> {
        let draw = self.draw();
        if action < draw {
            let tile = Tile::from_index(action / self.places);
            let place = self.place_of(action % self.places)?;
            return Some(Move::place(seat, tile, place));
        }
        match action - draw {
            0 => Some(Move::draw(seat)),
            1 => Some(Move::pass(seat)),
            2 => Some(Move::end_turn(seat)),
            n if n - 3 < self.trick_actions() => {
                ActionSpace::trick_action(n - 3).map(|action| Move { seat, action })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;
    use crate::rules::presets::PRESETS;

    /// Every action decodes to a move that encodes back to it, and every
    /// legal move met in random matches of every preset at every player
    /// count encodes to an action that decodes back to it.
    #[test]
    fn actions_round_trip_over_random_matches() {
        use rand::{RngExt, SeedableRng, rngs::ChaCha8Rng};
        for preset in PRESETS {
            for players in preset.players.clone() {
                let rules = preset.rules(players, None);
                let space = ActionSpace::new(&rules, players);
                for action in 0..space.len() {
                    let mv = space.decode(action, 0).expect("within the space");
                    assert_eq!(space.encode(mv), Some(action), "{} {mv}", preset.id);
                }
                assert_eq!(space.decode(space.len(), 0), None);
                let (mut game, _) = Game::new(preset.id, rules, players, 11).expect("deals");
                let mut rng = ChaCha8Rng::seed_from_u64(u64::from(players));
                let mut moves = 0;
                while game.outcome().is_none() && moves < 3_000 {
                    let legal = game.legal_moves();
                    for &mv in &legal {
                        let action = space.encode(mv).expect("a legal move has an action");
                        assert!(action < space.len());
                        assert_eq!(space.decode(action, mv.seat), Some(mv), "{}", preset.id);
                    }
                    let mv = legal[rng.random_range(0..legal.len())];
                    game.play(mv).expect("legal");
                    moves += 1;
                }
            }
        }
    }

    /// A trick game's space numbers its own moves past end-turn: every
    /// action decodes to a move that encodes back to it, and every legal
    /// move of random matches (plunge, splash, nello and sevens on) has one.
    #[test]
    fn a_trick_games_moves_round_trip() {
        use crate::rules::tricks::auction::Bidding;
        use crate::rules::tricks::options::TrickOptions;
        let mut texas = TrickOptions::texas42();
        texas.hand.bidding = Bidding::Texas42 {
            plunge: true,
            splash: true,
        };
        texas.hand.nello = true;
        texas.hand.sevens = true;
        for (options, players) in [(texas, 4), (TrickOptions::moon(), 3)] {
            let rules = Rules::tricks(options, 7);
            let space = ActionSpace::new(&rules, players);
            assert_eq!(space.len(), 3 + TRICK_ACTIONS);
            for action in 0..space.len() {
                let mv = space.decode(action, 1).expect("within the space");
                assert_eq!(space.encode(mv), Some(action), "{mv:?}");
            }
            assert_eq!(space.decode(space.len(), 0), None);
            for seed in 0..20 {
                let (mut game, _) = Game::new("tricks", rules, players, seed).expect("deals");
                for step in 0..400 {
                    if game.outcome().is_some() {
                        break;
                    }
                    let legal = game.legal_moves();
                    for &mv in &legal {
                        let action = space.encode(mv).expect("a legal move has an action");
                        assert_eq!(space.decode(action, mv.seat), Some(mv));
                    }
                    // The highest bid now and then, so that marks climb.
                    let mv = legal[(step * 7 + seed as usize) % legal.len()];
                    game.play(mv).expect("legal");
                }
            }
        }
    }

    /// A move of another table or set has no action here.
    #[test]
    fn foreign_moves_have_no_action() {
        let rules = crate::rules::presets::preset("block")
            .expect("preset")
            .rules(2, None);
        let space = ActionSpace::new(&rules, 2);
        assert_eq!(space.len(), 28 * 5 + 3);
        let train = Move::place(0, Tile::new(1, 2), Place::on_train(TrainId::Mexican));
        assert_eq!(space.encode(train), None);
        assert_eq!(space.encode(Move::play(0, Tile::new(9, 9), None)), None);
        assert_eq!(space.encode(Move::play(0, Tile::new(0, 0), None)), Some(0));
        assert_eq!(
            space.encode(Move::play(1, Tile::new(0, 1), Some(End::Right))),
            Some(5 + 2)
        );
    }
}
