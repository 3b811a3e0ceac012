//! The end of a trick hand solved exactly, every hand known (double
//! dummy): whether the bidders make their bid against the best defence,
//! and a move that keeps to it. The expert asks it inside its sampled
//! deals, where every hand is known, once few tricks are left
//! ([`expert`](super::expert)); it never sees a real hidden hand.
//!
//! The search is an AND-OR tree over the seats' plays: the bidders' side
//! (the bidder alone at Moon and under nello) wins a node when any of its
//! moves wins, the others when every move of the bidders loses. A node
//! ends when the hand is decided ([`verdict`]: Texas 42's play stops
//! there, and Moon's extra tricks change no verdict), so that a bid made
//! or set early is not searched on. Positions between tricks are kept in
//! a transposition table: the same tiles left, the same leader and the
//! same tricks and points taken are one position however they were
//! reached. The objective is made or set alone: in the points game, where
//! every hand is played out, how many points a side takes beyond the
//! verdict is left to the playouts' estimate.
//!
//! Everything the rules decide comes from the rules' own modules: what a
//! seat may play and who takes a trick ([`Suits`]), what a trick is worth
//! ([`trick::points`]) and when the hand is decided ([`verdict`]); the
//! tests check the solver against a brute-force search over
//! [`TrickHand`] itself.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::rules::moves::Seat;
use crate::rules::tile::{Tile, TileSet};
use crate::rules::tricks::auction::{Bid, Bidding};
use crate::rules::tricks::contract::Contract;
use crate::rules::tricks::hand::{MAX_SEATS, Stage, TrickHand};
use crate::rules::tricks::settle::{TRICKS, Taken, Verdict, verdict};
use crate::rules::tricks::suit::Suits;
use crate::rules::tricks::trick;

/// What stays fixed while a hand's tricks are solved.
#[derive(Clone, Copy, Debug)]
struct Setting {
    /// The suits of the contract named.
    suits: Suits,
    /// The winning bid.
    bid: Bid,
    /// The contract.
    contract: Contract,
    /// The auction's winner.
    bidder: Seat,
    /// Seats at the table.
    players: Seat,
    /// The seat sitting out (the nello bidder's partner).
    sits_out: Option<Seat>,
    /// Moon: every trick is worth a point, and the bidder plays alone.
    moon: bool,
}

impl Setting {
    /// Whether `seat` plays on the bidders' side.
    fn bids(&self, seat: Seat) -> bool {
        if self.moon || self.sits_out.is_some() {
            seat == self.bidder
        } else {
            seat % 2 == self.bidder % 2
        }
    }

    /// The seat after `seat` in a trick, past the seat sitting out.
    fn next(&self, seat: Seat) -> Seat {
        let mut next = seat;
        loop {
            next = if next + 1 >= self.players {
                0
            } else {
                next + 1
            };
            if Some(next) != self.sits_out {
                return next;
            }
        }
    }

    /// Tiles in a full trick.
    fn trick_size(&self) -> usize {
        usize::from(self.players) - usize::from(self.sits_out.is_some())
    }
}

/// A position of the play: every seat's tiles, the trick in progress and
/// what each side has taken.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Position {
    /// Each seat's tiles.
    hands: [TileSet; MAX_SEATS],
    /// The seat that led the trick in progress.
    leader: Seat,
    /// The trick in progress, from its leader (`len` of them).
    trick: [Option<Tile>; MAX_SEATS],
    /// Tiles played to the trick in progress.
    len: u8,
    /// What the bidders and the others have taken.
    taken: Taken,
}

impl Position {
    /// The tiles of the trick in progress.
    fn played(&self) -> impl Iterator<Item = Tile> + '_ {
        self.trick
            .iter()
            .take(usize::from(self.len))
            .flatten()
            .copied()
    }
}

/// A solver of trick hands' ends, keeping its transposition table between
/// calls on the same hand (a position is told apart by every seat's tiles,
/// so positions of different deals never meet).
#[derive(Default, Debug)]
pub struct TrickSolver {
    /// Whether the bidders make it from each position between tricks (kept
    /// there alone: keeping every position searched made a search of four
    /// tricks twice as slow).
    table: HashMap<Position, bool, BuildHasherDefault<PositionHasher>>,
    /// Positions searched since the table was last cleared.
    nodes: u64,
}

impl TrickSolver {
    /// A solver with an empty table.
    #[must_use]
    pub fn new() -> TrickSolver {
        TrickSolver::default()
    }

    /// Forgets every position (another sampled deal comes).
    pub fn clear(&mut self) {
        self.table.clear();
        self.nodes = 0;
    }

    /// Positions searched since the last [`TrickSolver::clear`].
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the bidders make their bid from `hand` against the best
    /// defence, every hand known; `None` unless tricks are being played.
    pub fn made(&mut self, hand: &TrickHand) -> Option<bool> {
        let (setting, position) = read(hand)?;
        Some(self.search(&setting, position))
    }

    /// A tile for the seat to act that keeps its side's best result (the
    /// bidders' making the bid, the others' setting it; when the result is
    /// the same whatever it plays, the first it may play); `None` unless
    /// tricks are being played.
    pub fn best(&mut self, hand: &TrickHand) -> Option<Tile> {
        let (setting, position) = read(hand)?;
        let seat = to_act(&setting, &position);
        let ours = setting.bids(seat);
        let moves = playable(&setting, &position, seat);
        let first = moves.iter().next()?;
        for tile in moves.iter() {
            let made = self.search(&setting, play(&setting, position, seat, tile));
            if made == ours {
                return Some(tile);
            }
        }
        Some(first)
    }

    /// Whether the bidders make it from `position`.
    fn search(&mut self, setting: &Setting, position: Position) -> bool {
        if let Some(decided) = verdict(setting.bid, setting.contract, position.taken) {
            return decided == Verdict::Made;
        }
        if position.taken.tricks() >= TRICKS {
            // (Every verdict is reached by the last trick; a hand with
            // nothing left to decide is the bidders' loss.)
            return false;
        }
        let between = position.len == 0;
        if between {
            if let Some(&known) = self.table.get(&position) {
                return known;
            }
        }
        self.nodes += 1;
        let seat = to_act(setting, &position);
        let ours = setting.bids(seat);
        let moves = playable(setting, &position, seat);
        // The bidders win the node if any of their moves makes it; the
        // others set it if any of theirs sets it.
        let mut made = !ours;
        for tile in moves.iter() {
            let child = self.search(setting, play(setting, position, seat, tile));
            if child == ours {
                made = child;
                break;
            }
        }
        if between {
            self.table.insert(position, made);
        }
        made
    }
}

/// A hasher for positions: a multiply and a rotation a word (the
/// table's keys are a solver's own, never a client's, so a keyed hash
/// guards against nothing here, and the default one would take much of a
/// search's time).
#[derive(Default, Clone, Copy, Debug)]
struct PositionHasher(u64);

impl Hasher for PositionHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u128(&mut self, n: u128) {
        // (The two halves of a tile set.)
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// The setting and position of `hand`, while tricks are played.
fn read(hand: &TrickHand) -> Option<(Setting, Position)> {
    if hand.stage() != Stage::Playing {
        return None;
    }
    let (bidder, bid) = hand.auction().standing()?;
    let contract = hand.contract()?;
    let rules = hand.rules();
    let setting = Setting {
        suits: Suits::new(contract, rules.follow_me_doubles, rules.nello_doubles),
        bid,
        contract,
        bidder,
        players: hand.players(),
        sits_out: hand.sits_out(),
        moon: matches!(rules.bidding, Bidding::Moon),
    };
    let (leader, played) = hand.trick();
    let mut trick = [None; MAX_SEATS];
    for (slot, &tile) in trick.iter_mut().zip(played) {
        *slot = Some(tile);
    }
    let position = Position {
        hands: *hand.hands(),
        leader,
        trick,
        len: u8::try_from(played.len()).unwrap_or(0),
        taken: hand.sides_taken(),
    };
    Some((setting, position))
}

/// The seat to play to `position`'s trick.
fn to_act(setting: &Setting, position: &Position) -> Seat {
    (0..position.len).fold(position.leader, |seat, _| setting.next(seat))
}

/// The tiles `seat` may play to `position`'s trick.
fn playable(setting: &Setting, position: &Position, seat: Seat) -> TileSet {
    let hand = position
        .hands
        .get(usize::from(seat))
        .copied()
        .unwrap_or_default();
    let lead = position.trick.first().copied().flatten();
    setting.suits.playable(hand, lead)
}

/// `position` after `seat` plays `tile`: a full trick goes to its winner,
/// who leads the next.
fn play(setting: &Setting, mut position: Position, seat: Seat, tile: Tile) -> Position {
    if let Some(hand) = position.hands.get_mut(usize::from(seat)) {
        hand.remove(tile);
    }
    if let Some(slot) = position.trick.get_mut(usize::from(position.len)) {
        *slot = Some(tile);
    }
    position.len += 1;
    if usize::from(position.len) < setting.trick_size() {
        return position;
    }
    let played: arrayvec::ArrayVec<Tile, MAX_SEATS> = position.played().collect();
    let at = setting.suits.winner(&played).unwrap_or(0);
    let winner = (0..at).fold(position.leader, |seat, _| setting.next(seat));
    let points = if setting.moon {
        1
    } else {
        trick::points(&played)
    };
    if setting.bids(winner) {
        position.taken.bidders_tricks += 1;
        position.taken.bidders_points = position.taken.bidders_points.saturating_add(points);
    } else {
        position.taken.others_tricks += 1;
        position.taken.others_points = position.taken.others_points.saturating_add(points);
    }
    position.trick = [None; MAX_SEATS];
    position.len = 0;
    position.leader = winner;
    position
}

/// Tricks still to be won in `hand` (the one in progress counted).
#[must_use]
pub fn tricks_left(hand: &TrickHand) -> u8 {
    TRICKS.saturating_sub(hand.sides_taken().tricks())
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;

    use super::*;
    use crate::bots::{greedy, random};
    use crate::rules::options::Rules;
    use crate::rules::tricks::random_matches::every_combination;
    use crate::rules::{Action, Game};

    /// Whether the bidders make it from `hand`, by brute force over the
    /// rules' own hand: every legal move of every seat tried, no table, no
    /// cut-off, the verdict read from the hand.
    fn brute_force(hand: &TrickHand) -> bool {
        if let Some(verdict) = hand.verdict() {
            return verdict == Verdict::Made;
        }
        let Some(seat) = hand.to_act() else {
            return false;
        };
        let (bidder, _) = hand.auction().standing().expect("a bidder");
        let bids = if hand.players() == 3 || hand.sits_out().is_some() {
            seat == bidder
        } else {
            seat % 2 == bidder % 2
        };
        let outcomes: Vec<bool> = hand
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let mut next = hand.clone();
                next.play(seat, mv).expect("legal");
                brute_force(&next)
            })
            .collect();
        if bids {
            outcomes.iter().any(|&made| made)
        } else {
            outcomes.iter().all(|&made| made)
        }
    }

    /// Hands of every option combination, played (bids and contracts by
    /// greedy, tiles at random) until at most `left` tricks remain.
    fn positions(left: u8, count: usize) -> Vec<TrickHand> {
        let mut found = Vec::new();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let combinations = every_combination();
        let mut seed = 0u64;
        while found.len() < count {
            let (options, target) = combinations[seed as usize % combinations.len()];
            seed += 1;
            let players = if options.is_moon() { 3 } else { 4 };
            let rules = Rules::tricks(options, target);
            let (mut game, _) = Game::new("t", rules, players, seed).expect("valid");
            let hand_number = game.hand_number();
            while game.outcome().is_none() && game.hand_number() == hand_number {
                let Some(hand) = game.trick_hand() else { break };
                if hand.stage() == Stage::Playing && tricks_left(hand) <= left {
                    found.push(hand.clone());
                    break;
                }
                let seat = game.to_act();
                let view = game.view(seat).expect("seat");
                let mv = if hand.stage() == Stage::Playing {
                    random::choose(&game.legal_moves(), &mut rng)
                } else {
                    greedy::choose(view, &view.knowledge())
                }
                .expect("a move");
                game.play(mv).expect("legal");
            }
        }
        found
    }

    /// The solver agrees with brute force on every position of the last
    /// three tricks found in 300 hands of every option combination (nello,
    /// sevens, follow-me, plunge and splash, Moon among them), and its
    /// best move keeps the result.
    #[test]
    fn agrees_with_brute_force() {
        let mut solver = TrickSolver::new();
        let mut made = 0;
        let hands = positions(3, 300);
        for hand in &hands {
            solver.clear();
            let solved = solver.made(hand).expect("tricks are played");
            assert_eq!(solved, brute_force(hand), "{hand:?}");
            made += usize::from(solved);
            let tile = solver.best(hand).expect("a move");
            let seat = hand.to_act().expect("a seat");
            let mut next = hand.clone();
            next.play(seat, Action::Trick(tile))
                .expect("the best move is legal");
            assert_eq!(
                brute_force(&next),
                solved,
                "{hand:?}: {tile} loses the result"
            );
        }
        // Both results are met.
        assert!(made > 0 && made < hands.len(), "{made} of {}", hands.len());
    }

    /// Outside the play (the auction, naming, Moon's discard) there is
    /// nothing to solve.
    #[test]
    fn nothing_to_solve_before_the_play() {
        let (options, target) = every_combination()[0];
        let players = if options.is_moon() { 3 } else { 4 };
        let (game, _) = Game::new("t", Rules::tricks(options, target), players, 1).expect("valid");
        let hand = game.trick_hand().expect("a trick hand");
        assert_eq!(TrickSolver::new().made(hand), None);
    }
}
