//! The end of a trick hand solved exactly, every hand known (double
//! dummy): whether the bidders make their bid against the best defence,
//! and a move that keeps to it. The expert asks it inside its sampled
//! deals, where every hand is known, once few tricks are left
//! ([`expert`](super::expert)); it never sees a real hidden hand.
//!
//! The search is an AND-OR tree over the seats' plays: the bidders' side
//! (the bidder alone at Moon and under nello) wins a node when any of its
//! moves wins, the others when every move of the bidders loses. The bid
//! is a tally to reach ([`verdict`] read as how much more the bidders'
//! side needs: points, its tricks, or under nello the others' tricks), so
//! a node ends as soon as the need is met or can no longer be, however
//! high the bid. Positions between tricks are kept in a transposition
//! table, one for each contract and bidder: the same tiles left and the
//! same leader are one position however they were reached and whatever
//! was taken before, and the table keeps bounds on how much more the
//! bidders' side takes from there. The tables are kept from one call to
//! the next (a position is worth the same in whatever deal it came up),
//! within a bound on the positions they hold. With many tricks left, the
//! moves likeliest to take the trick are searched first. The objective is
//! made or set alone: in the points game, where every hand is played out,
//! how many points a side takes beyond the verdict is left to the
//! playouts' estimate.
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
use crate::rules::tricks::auction::{Bid, Bidding, HAND_POINTS};
use crate::rules::tricks::contract::Contract;
use crate::rules::tricks::hand::{MAX_SEATS, Stage, TrickHand};
use crate::rules::tricks::settle::{TRICKS, Taken, Verdict, verdict};
use crate::rules::tricks::suit::{MAX_PIP, Suits};
use crate::rules::tricks::trick;

/// What the bidders' side counts toward its bid, a trick at a time.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tally {
    /// Each trick's points to the side that takes it (a bid of points).
    Points,
    /// The tricks the bidders' side takes (a bid of tricks or marks, the
    /// moon).
    Tricks,
    /// The tricks the others take (nello: the bidder loses every trick).
    Lost,
}

impl Tally {
    /// The tallies, in the order [`tally_of`] tries them.
    const ALL: [Tally; 3] = [Tally::Points, Tally::Tricks, Tally::Lost];

    /// `taken` with `more` of this tally credited to the bidders' side.
    fn credit(self, mut taken: Taken, more: u8) -> Taken {
        match self {
            Tally::Points => {
                taken.bidders_points = taken.bidders_points.saturating_add(more);
            }
            Tally::Tricks => taken.bidders_tricks = taken.bidders_tricks.saturating_add(more),
            Tally::Lost => taken.others_tricks = taken.others_tricks.saturating_add(more),
        }
        taken
    }
}

/// How the bidders' side counts toward `bid`, read off [`verdict`] itself
/// so that the rule stays in one place: the first tally that makes the
/// bid, credited from an untouched hand.
fn tally_of(bid: Bid, contract: Contract) -> Tally {
    Tally::ALL
        .into_iter()
        .find(|&tally| reach(tally, bid, contract, Taken::default()).is_some())
        .unwrap_or(Tally::Tricks)
}

/// How much more of `tally` makes `bid` from `taken` (by [`verdict`]);
/// `None` when no amount does.
fn reach(tally: Tally, bid: Bid, contract: Contract, taken: Taken) -> Option<i16> {
    (0..=HAND_POINTS)
        .find(|&more| verdict(bid, contract, tally.credit(taken, more)) == Some(Verdict::Made))
        .map(i16::from)
}

/// What stays fixed while a hand's tricks are solved.
#[derive(Clone, Copy, Debug)]
struct Setting {
    /// The suits of the contract named.
    suits: Suits,
    /// How the bidders count toward the bid.
    tally: Tally,
    /// The auction's winner.
    bidder: Seat,
    /// Seats at the table.
    players: Seat,
    /// The seat sitting out (the nello bidder's partner).
    sits_out: Option<Seat>,
    /// Moon: the bidder plays alone.
    moon: bool,
}

/// The count tiles by what each counts ([`trick::count`]), for
/// [`Setting::most`]: worked out once.
static COUNTED: std::sync::LazyLock<Counted> = std::sync::LazyLock::new(counted);

/// The tiles of the set that count, grouped by what they count.
fn counted() -> Counted {
    let mut counted = Counted::new();
    for tile in TileSet::full(MAX_PIP).iter() {
        let count = trick::count(tile);
        if count == 0 {
            continue;
        }
        match counted.iter_mut().find(|(points, _)| *points == count) {
            Some((_, tiles)) => {
                tiles.insert(tile);
            }
            None => {
                let _ = counted.try_push((count, TileSet::EMPTY.with(tile)));
            }
        }
    }
    counted
}

/// Count tiles grouped by what each counts.
type Counted = arrayvec::ArrayVec<(u8, TileSet), 4>;

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

    /// The seat `places` seats after `leader` in a trick.
    fn after(&self, leader: Seat, places: usize) -> Seat {
        (0..places).fold(leader, |seat, _| self.next(seat))
    }

    /// What a table's positions are searched under.
    fn under(&self) -> Under {
        (
            self.suits,
            self.bidder,
            self.tally,
            self.players,
            self.sits_out,
        )
    }

    /// Tiles in a full trick.
    fn trick_size(&self) -> usize {
        usize::from(self.players) - usize::from(self.sits_out.is_some())
    }

    /// What the bidders' side's tally gains when `winner` takes a trick
    /// of `played`.
    fn gain(&self, winner: Seat, played: &[Tile]) -> i16 {
        let bids = self.bids(winner);
        match self.tally {
            Tally::Points if bids => i16::from(trick::points(played)),
            Tally::Tricks if bids => 1,
            Tally::Lost if !bids => 1,
            _ => 0,
        }
    }

    /// The most the bidders' side's tally can still gain from `position`:
    /// every trick left, with every count tile left at the points game.
    fn most(&self, position: &Position) -> i16 {
        let left = (0..self.players)
            .filter(|&seat| Some(seat) != self.sits_out)
            .filter_map(|seat| position.hands.get(usize::from(seat)))
            .fold(TileSet::EMPTY, |all, &hand| all.or(hand))
            .or(position.played().collect());
        let tiles = i16::try_from(left.len()).unwrap_or(i16::MAX);
        let size = i16::try_from(self.trick_size()).unwrap_or(1).max(1);
        let tricks = (tiles + size - 1) / size;
        if self.tally == Tally::Points {
            let count: i16 = COUNTED
                .iter()
                .map(|&(count, tiles)| {
                    i16::from(count) * i16::try_from(left.and(tiles).len()).unwrap_or(0)
                })
                .sum();
            tricks * i16::from(trick::TRICK_POINT) + count
        } else {
            tricks
        }
    }
}

/// A position of the play: every seat's tiles and the trick in progress
/// (what each side has taken is not part of it: a search asks how much
/// more the bidders' side needs).
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

    /// The position between tricks as one number: each seat's tiles in
    /// 28 bits (the double-six set), then the leader.
    fn key(&self) -> u128 {
        let width = TileSet::full(MAX_PIP).len();
        let full = TileSet::full(MAX_PIP).mask();
        let hands = self
            .hands
            .iter()
            .enumerate()
            .fold(0u128, |key, (seat, hand)| {
                key | (hand.mask() & full) << (width as usize * seat)
            });
        hands | u128::from(self.leader) << (width as usize * MAX_SEATS)
    }
}

/// What is known of a position between tricks: the bidders' side can
/// gain at least `low` more of its tally against any defence, and
/// less than `high`.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    /// The bidders' side gains at least this much.
    low: i16,
    /// The bidders' side gains less than this.
    high: i16,
}

/// What the positions of a table are searched under: the suits (the
/// contract and how its doubles rank), who bids and how the bid is
/// counted, the seats.
type Under = (Suits, Seat, Tally, Seat, Option<Seat>);

/// What is known of each position between tricks searched under one
/// setting: bounds on how much more the bidders' side takes, so that one
/// position serves whatever was taken before it and however high the bid
/// (kept between tricks alone: keeping every position made a search of
/// four tricks twice as slow).
type Table = HashMap<u128, Bounds, BuildHasherDefault<PositionHasher>>;

/// Positions kept at most, over every table, before they are forgotten: a
/// position is worth the same whatever deal it came from, so the tables
/// are kept from one call to the next, within about 3 MB.
const KEEP: usize = 1 << 16;

/// A solver of trick hands' ends, keeping its transposition tables from
/// one call to the next, one for each contract and bidder asked about (a
/// position is told apart by every seat's tiles, so a position met again
/// in another deal is worth the same there).
#[derive(Default, Debug)]
pub struct TrickSolver {
    /// A table for each setting searched since the last clear (a cleared
    /// one keeps its room for the next).
    tables: Vec<(Option<Under>, Table)>,
    /// Positions searched since the tables were last cleared.
    nodes: u64,
}

impl TrickSolver {
    /// A solver with an empty table.
    #[must_use]
    pub fn new() -> TrickSolver {
        TrickSolver::default()
    }

    /// Forgets every position and the count of positions searched.
    pub fn clear(&mut self) {
        self.forget();
        self.nodes = 0;
    }

    /// Forgets every position (their tables keep their room).
    fn forget(&mut self) {
        for (under, table) in &mut self.tables {
            *under = None;
            table.clear();
        }
    }

    /// Forgets every position once the tables hold more than [`KEEP`].
    fn bound(&mut self) {
        if self
            .tables
            .iter()
            .map(|(_, table)| table.len())
            .sum::<usize>()
            > KEEP
        {
            self.forget();
        }
    }

    /// Positions searched since the last [`TrickSolver::clear`].
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the bidders make their bid from `hand` against the best
    /// defence, every hand known; `None` unless tricks are being played.
    pub fn made(&mut self, hand: &TrickHand) -> Option<bool> {
        let (setting, position, need) = read(hand)?;
        self.bound();
        let table = table_for(&mut self.tables, &setting);
        Some(search(&setting, table, &mut self.nodes, position, need))
    }

    /// A tile for the seat to act that keeps its side's best result (the
    /// bidders' making the bid, the others' setting it; when the result is
    /// the same whatever it plays, the first it may play); `None` unless
    /// tricks are being played.
    pub fn best(&mut self, hand: &TrickHand) -> Option<Tile> {
        let (setting, position, need) = read(hand)?;
        let seat = to_act(&setting, &position);
        let ours = setting.bids(seat);
        let moves = playable(&setting, &position, seat);
        let first = moves.iter().next()?;
        self.bound();
        let table = table_for(&mut self.tables, &setting);
        for tile in moves.iter() {
            let (child, gain) = play(&setting, position, seat, tile);
            if search(&setting, table, &mut self.nodes, child, need - gain) == ours {
                return Some(tile);
            }
        }
        Some(first)
    }
}

/// The table in `tables` for positions searched under `setting`: its
/// own, or a cleared one, or a new one.
fn table_for<'a>(tables: &'a mut Vec<(Option<Under>, Table)>, setting: &Setting) -> &'a mut Table {
    let under = Some(setting.under());
    let at = tables
        .iter()
        .position(|(u, _)| *u == under)
        .or_else(|| tables.iter().position(|(u, _)| u.is_none()))
        .unwrap_or(tables.len());
    if at == tables.len() {
        tables.push((None, Table::default()));
    }
    let slot = &mut tables[at];
    slot.0 = under;
    &mut slot.1
}

/// Whether the bidders' side gains at least `need` more of its tally from
/// `position` against the best defence, what is known kept in `table`
/// and the positions searched counted in `nodes`.
fn search(
    setting: &Setting,
    table: &mut Table,
    nodes: &mut u64,
    position: Position,
    need: i16,
) -> bool {
    if need <= 0 {
        return true;
    }
    if position.len == 0 && need > setting.most(&position) {
        return false;
    }
    let key = (position.len == 0).then(|| position.key());
    if let Some(known) = key.and_then(|key| table.get(&key)) {
        if need <= known.low {
            return true;
        }
        if need >= known.high {
            return false;
        }
    }
    *nodes += 1;
    let seat = to_act(setting, &position);
    let ours = setting.bids(seat);
    let moves = playable(setting, &position, seat);
    // The bidders win the node if any of their moves makes it; the
    // others set it if any of theirs sets it.
    let mut made = !ours;
    for tile in ordered(setting, &position, seat, moves) {
        let (child, gain) = play(setting, position, seat, tile);
        if search(setting, table, nodes, child, need - gain) == ours {
            made = ours;
            break;
        }
    }
    if let Some(key) = key {
        let known = table.entry(key).or_insert(Bounds {
            low: 0,
            high: i16::MAX,
        });
        if made {
            known.low = known.low.max(need);
        } else {
            known.high = known.high.min(need);
        }
    }
    made
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

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u128(&mut self, n: u128) {
        // (The two halves of a key.)
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }
}

/// The setting, position and the bidders' side's need of `hand`, while
/// tricks are played.
fn read(hand: &TrickHand) -> Option<(Setting, Position, i16)> {
    if hand.stage() != Stage::Playing {
        return None;
    }
    let (bidder, bid) = hand.auction().standing()?;
    let contract = hand.contract()?;
    let rules = hand.rules();
    let tally = tally_of(bid, contract);
    let setting = Setting {
        suits: Suits::new(contract, rules.follow_me_doubles, rules.nello_doubles),
        tally,
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
    };
    // (Set already: no amount is enough.)
    let need = reach(tally, bid, contract, hand.sides_taken()).unwrap_or(i16::MAX);
    Some((setting, position, need))
}

/// The seat to play to `position`'s trick.
fn to_act(setting: &Setting, position: &Position) -> Seat {
    setting.after(position.leader, usize::from(position.len))
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

/// Tricks left from which the moves are ordered: below it, ordering costs
/// more than the positions it saves.
const ORDER_FROM: usize = 5;

/// A seat's moves, at most a hand's tiles.
type Moves = arrayvec::ArrayVec<Tile, { TRICKS as usize }>;

/// `moves` in the order to search them: with [`ORDER_FROM`] tricks left
/// or more, a lead's trumps first, then the highest of each suit; a
/// follower's tiles that would take the trick so far for its side first.
fn ordered(setting: &Setting, position: &Position, seat: Seat, moves: TileSet) -> Moves {
    let mut tiles: Moves = moves.iter().take(usize::from(TRICKS)).collect();
    let held: usize = position.hands.iter().map(|hand| hand.len() as usize).sum();
    if held + usize::from(position.len) < ORDER_FROM * setting.trick_size() {
        return tiles;
    }
    let suits = setting.suits;
    if position.len == 0 {
        tiles.sort_by_key(|&tile| {
            let rank = suits
                .led_by(tile)
                .and_then(|suit| suits.rank(tile, suit))
                .unwrap_or(0);
            (!suits.is_trump(tile), std::cmp::Reverse(rank))
        });
        return tiles;
    }
    let ours = setting.bids(seat);
    let takes = |tile: Tile| {
        let mut trick: arrayvec::ArrayVec<Tile, MAX_SEATS> = position.played().collect();
        if trick.try_push(tile).is_err() {
            return false;
        }
        let at = suits.winner(&trick).unwrap_or(0);
        setting.bids(setting.after(position.leader, at)) == ours
    };
    tiles.sort_by_key(|&tile| !takes(tile));
    tiles
}

/// `position` after `seat` plays `tile`, and what the bidders' side's
/// tally gains by it: a full trick goes to its winner, who leads the next.
fn play(setting: &Setting, mut position: Position, seat: Seat, tile: Tile) -> (Position, i16) {
    if let Some(hand) = position.hands.get_mut(usize::from(seat)) {
        hand.remove(tile);
    }
    if let Some(slot) = position.trick.get_mut(usize::from(position.len)) {
        *slot = Some(tile);
    }
    position.len += 1;
    if usize::from(position.len) < setting.trick_size() {
        return (position, 0);
    }
    let played: arrayvec::ArrayVec<Tile, MAX_SEATS> = position.played().collect();
    let at = setting.suits.winner(&played).unwrap_or(0);
    let winner = setting.after(position.leader, at);
    let gain = setting.gain(winner, &played);
    position.trick = [None; MAX_SEATS];
    position.len = 0;
    position.leader = winner;
    (position, gain)
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

    /// One solver kept across every hand, its tables never cleared (the
    /// positions of earlier deals, contracts, bidders and bids all in
    /// them), answers as a fresh solver does, which brute force checks
    /// above.
    #[test]
    fn kept_tables_agree_with_a_fresh_solver() {
        let mut kept = TrickSolver::new();
        let hands = positions(5, 300);
        for hand in hands.iter().chain(&hands) {
            let fresh = TrickSolver::new().made(hand);
            assert_eq!(kept.made(hand), fresh, "{hand:?}");
            assert_eq!(kept.best(hand), TrickSolver::new().best(hand), "{hand:?}");
        }
        assert!(kept.nodes() > 0);
    }

    /// What the bidders' side counts, and how much more it needs, agree
    /// with the rules' verdict for every bid and contract and every split
    /// of what was taken: made where it needs nothing more, set where it
    /// needs more than is left.
    #[test]
    fn the_need_agrees_with_the_verdict() {
        let bids = (30..=41)
            .map(Bid::Points)
            .chain((1..=3).map(Bid::Marks))
            .chain([Bid::Plunge(4), Bid::Splash(2), Bid::Moon])
            .chain((4..=7).map(Bid::Tricks));
        let contracts = [
            Contract::Trumps(3),
            Contract::Doubles,
            Contract::FollowMe,
            Contract::Nello,
            Contract::Sevens,
        ];
        for bid in bids {
            for contract in contracts {
                let tally = tally_of(bid, contract);
                for bidders_tricks in 0..=TRICKS {
                    for others_tricks in 0..=TRICKS - bidders_tricks {
                        for bidders_points in (0..=HAND_POINTS).step_by(3) {
                            let taken = Taken {
                                bidders_points,
                                others_points: HAND_POINTS.saturating_sub(bidders_points) / 2,
                                bidders_tricks,
                                others_tricks,
                            };
                            let need = reach(tally, bid, contract, taken).unwrap_or(i16::MAX);
                            let left = i16::from(if tally == Tally::Points {
                                HAND_POINTS - taken.bidders_points - taken.others_points
                            } else {
                                TRICKS - taken.tricks()
                            });
                            let at = format!("{bid:?} {contract:?} {taken:?}: needs {need}");
                            match verdict(bid, contract, taken) {
                                Some(Verdict::Made) => assert!(need <= 0, "{at}"),
                                Some(Verdict::Set) => assert!(need > left, "{at}"),
                                None => assert!(need > 0 && need <= left, "{at}"),
                            }
                        }
                    }
                }
            }
        }
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
