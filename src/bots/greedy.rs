//! The `greedy` level: a fixed heuristic a decent casual player uses. Each
//! legal move is scored from what the seat sees, and the best is played:
//!
//! - take the points on the table (in-play scoring), but not points an
//!   exact target voids, and a move that wins the match or goes out first;
//! - shed heavy tiles and doubles (under lowest-wins rules, heavier ones
//!   weigh more);
//! - keep numbers you hold many of: prefer leaving ends your other tiles
//!   fit;
//! - play on numbers the opponents are known to lack;
//! - keep matadors (which fit any end) for when nothing else fits;
//! - where a capicúa scores, set one up: with two tiles left, leave the
//!   ends showing the two numbers of the last one.

use std::cell::RefCell;

use crate::rules::connect::is_matador;
use crate::rules::options::{InPlayScoring, MatchEnd, Rules};
use crate::rules::scoring::in_play_points;
use crate::rules::train_game::TurnState;
use crate::rules::{
    Action, End, Foot, Game, Knowledge, Layout, Move, Seat, Side, Tile, TileSet, Trains, View,
};

use super::greedy_hub::{self, HubSeat};
use super::greedy_tricks::{self, TrickSeat};
use crate::rules::tricks::knowledge::{played_tiles, voids_in};

/// What a move is scored on: everything public, and the mover's hand.
#[derive(Clone, Copy, Debug)]
pub struct Table<'a> {
    /// The rules in force.
    pub rules: &'a Rules,
    /// The tiles on the table.
    pub layout: &'a Layout,
    /// The mover's tiles.
    pub hand: TileSet,
    /// The mover's side.
    pub side: Side,
    /// Every side's score.
    pub scores: &'a [i32],
    /// Pip numbers no opponent can hold, as bits (bit n: number n).
    pub opponents_lack: u16,
}

/// The move `greedy` plays from `view` (with what `knowledge` tells of
/// the opponents); `None` when the seat is not to act.
#[must_use]
pub fn choose(view: View<'_>, knowledge: &Knowledge<'_>) -> Option<Move> {
    let me = view.seat();
    if let Some(hand) = view.trick_hand() {
        let seat = TrickSeat {
            hand,
            seat: me,
            tiles: view.hand(),
            played: played_tiles(view.history()),
            voids: voids_in(hand, view.history()),
        };
        return greedy_tricks::best(&seat, &view.legal_moves());
    }
    let side = view.side_of(me);
    let opponents: Vec<_> = (0..view.players())
        .filter(|&seat| view.side_of(seat) != side)
        .collect();
    let mut lack = 0u16;
    for pips in 0..=view.rules().max_pip {
        let showing = TileSet::showing(pips).and(view.rules().tile_set());
        if opponents
            .iter()
            .all(|&seat| showing.minus(knowledge.surely_not_held(seat)).is_empty())
        {
            lack |= 1 << pips;
        }
    }
    if let Some(hub) = hub_seat(
        view.rules(),
        view.trains(),
        view.foot(),
        (me, view.hand()),
        view.turn(),
        view.drew_this_turn(),
    ) {
        let hub = HubSeat {
            opponents_lack: lack,
            ..hub
        };
        return greedy_hub::best(&hub, &view.legal_moves());
    }
    let table = Table {
        rules: view.rules(),
        layout: view.layout(),
        hand: view.hand(),
        side,
        scores: view.scores(),
        opponents_lack: lack,
    };
    best(&table, &view.legal_moves())
}

/// The mover at a table with a hub, if the table has one (`mover`: its
/// seat and hand), knowing nothing yet of the opponents' voids.
fn hub_seat<'a>(
    rules: &'a Rules,
    trains: Option<&'a Trains>,
    foot: Option<&'a Foot>,
    (seat, hand): (Seat, TileSet),
    turn: TurnState,
    drew: bool,
) -> Option<HubSeat<'a>> {
    if trains.is_none() && foot.is_none() {
        return None;
    }
    Some(HubSeat {
        rules,
        trains,
        foot,
        seat,
        hand,
        chain: trains.is_some_and(|trains| HubSeat::chain_now(rules, trains, turn, seat, drew)),
        opponents_lack: 0,
    })
}

/// The move `greedy` plays for the seat to act in a complete `game` (a
/// sampled deal in a playout), knowing nothing of the opponents' voids.
pub fn choose_in(game: &Game, moves: &[Move]) -> Option<Move> {
    let seat = game.to_act();
    if let Some(hand) = game.trick_hand() {
        let me = TrickSeat {
            hand,
            seat,
            tiles: game.hand(seat),
            played: played_tiles(game.history().iter().copied()),
            // (Not worked out in a playout: a search plays many.)
            voids: Default::default(),
        };
        return greedy_tricks::best(&me, moves);
    }
    if let Some(hub) = hub_seat(
        game.rules(),
        game.trains(),
        game.foot(),
        (seat, game.hand(seat)),
        game.turn(),
        game.drew_this_turn(),
    ) {
        return greedy_hub::best(&hub, moves);
    }
    best(&line_table(game), moves)
}

/// What a move loses, looking ahead, for each point the next seat can
/// take with its reply (a point taken now is worth 10).
/// (8, with [`NO_REPLY`] 0, 6 and 12, measured in all_fives 2p and
/// muggins 2p against `expert-playouts`, 400 matches each; in block 4p,
/// which scores nothing in play, leaving the next seat no tile to play
/// gained nothing: docs/bots.md has the figures.)
const REPLY_POINT: f64 = 8.0;

/// What a move gains, looking ahead, when it leaves the next seat no
/// tile to play.
const NO_REPLY: f64 = 12.0;

/// The move `greedy` plays for the seat to act in a complete `game`, one
/// reply ahead (`expert`'s playouts, where the deal is known): where the
/// ends score in play and the highest score wins, a move also loses
/// `REPLY_POINT` for each point the next seat, an opponent, can take
/// right after it with the tiles it holds, and gains `NO_REPLY` when it
/// leaves that seat no tile to play. Elsewhere, [`choose_in`]'s move.
pub fn choose_ahead(game: &Game, moves: &[Move]) -> Option<Move> {
    let rules = game.rules();
    let seat = game.to_act();
    let next = game.next_seat(seat);
    if rules.in_play_scoring == InPlayScoring::None
        || rules.lowest_score_wins()
        || game.trains().is_some()
        || game.foot().is_some()
        || game.side_of(next) == game.side_of(seat)
    {
        return choose_in(game, moves);
    }
    let table = line_table(game);
    let theirs = game.hand(next);
    AFTER.with_borrow_mut(|after| {
        best_by(moves, |mv| {
            value(&table, mv, moves.len(), after) + ahead(&table, mv, theirs, after)
        })
    })
}

/// The seat to act in `game` (at a line) as [`value`] sees it, knowing
/// nothing of the opponents' voids.
fn line_table(game: &Game) -> Table<'_> {
    let seat = game.to_act();
    Table {
        rules: game.rules(),
        layout: game.layout(),
        hand: game.hand(seat),
        side: game.side_of(seat),
        scores: game.scores(),
        opponents_lack: 0,
    }
}

/// What [`choose_ahead`] adds to [`value`] for `mv`, `after` holding the
/// layout `mv` leaves (each reply is tried on it and taken back) and
/// `theirs` the next seat's tiles.
fn ahead(table: &Table<'_>, mv: Move, theirs: TileSet, after: &mut Layout) -> f64 {
    if !matches!(mv.action, Action::Play { .. }) {
        return 0.0;
    }
    let fits = after.fitting().and(theirs);
    if fits.is_empty() {
        return NO_REPLY;
    }
    let rules = table.rules;
    let geometry = rules.geometry();
    let mut top = 0;
    for tile in fits.iter() {
        for end in after.ends_fitting(tile, rules.connect) {
            let total = after.ends_total_after(tile, end, geometry);
            top = top.max(in_play_points(rules.in_play_scoring, total));
        }
    }
    -REPLY_POINT * f64::from(top)
}

thread_local! {
    /// The layout each move is tried on: refilled with `clone_from`, so
    /// that scoring a move (a playout's every step) allocates nothing once
    /// its arms have grown.
    static AFTER: RefCell<Layout> = RefCell::new(Layout::new());
}

/// The best of `moves` on `table` (the first of equals).
fn best(table: &Table<'_>, moves: &[Move]) -> Option<Move> {
    AFTER.with_borrow_mut(|after| best_by(moves, |mv| value(table, mv, moves.len(), after)))
}

/// The move of `moves` that `value` rates highest (the first of equals).
pub(super) fn best_by(moves: &[Move], mut value: impl FnMut(Move) -> f64) -> Option<Move> {
    let mut best: Option<(Move, f64)> = None;
    for &mv in moves {
        let value = value(mv);
        if best.is_none_or(|(_, top)| value > top) {
            best = Some((mv, value));
        }
    }
    best.map(|(mv, _)| mv)
}

/// How much `greedy` likes `mv` (one of `choices` legal moves), the move
/// tried on `after` (whatever it held: it is refilled from the table).
fn value(table: &Table<'_>, mv: Move, choices: usize, after: &mut Layout) -> f64 {
    let Action::Play { tile, place } = mv.action else {
        return 0.0;
    };
    let rules = table.rules;
    let geometry = rules.geometry();
    after.clone_from(table.layout);
    after.place(tile, place.end(), geometry);
    let after: &Layout = after;
    let lowest_wins = rules.lowest_score_wins();
    let own = table
        .scores
        .get(usize::from(table.side))
        .copied()
        .map_or(0, i64::from);
    let target = i64::from(rules.target);
    let mut value = 0.0;
    if rules.in_play_scoring != InPlayScoring::None {
        let points = i64::from(in_play_points(
            rules.in_play_scoring,
            after.ends_total(geometry),
        ));
        let void = rules.match_end == MatchEnd::ExactTarget && own + points > target;
        let wins =
            !lowest_wins && !rules.single_hand() && points > 0 && !void && own + points >= target;
        value += match (void, wins) {
            (true, _) => -1.0,
            (_, true) => 1000.0,
            _ if lowest_wins => -10.0 * points as f64,
            _ => 10.0 * points as f64,
        };
    }
    let rest = table.hand.minus(TileSet::EMPTY.with(tile));
    if rest.is_empty() {
        value += 1000.0;
    }
    let heavy = if lowest_wins { 3.0 } else { 2.0 };
    value += heavy * f64::from(tile.pips());
    if tile.is_double() {
        value += 3.0;
    }
    let mut fitting = TileSet::EMPTY;
    for end in End::ALL {
        if let Some(pips) = after.open_end(end) {
            fitting = fitting.or(rules.connect.fitting(pips));
            if table.opponents_lack & (1 << pips) != 0 {
                value += 6.0;
            }
        }
    }
    value += 4.0 * f64::from(rest.and(fitting).len());
    if rules.capicua_bonus != 0 && sets_up_capicua(after, rest) {
        // Worth its points when it comes off, which the opponents may
        // block: weighed below points taken now (10 a point).
        value += 4.0 * f64::from(rules.capicua_bonus);
    }
    if is_matador(tile)
        && rules.connect == crate::rules::Connect::SumToSevenWithMatadors
        && choices > 1
    {
        value -= 15.0;
    }
    value
}

/// Whether `after` (a two-end line) shows the two different numbers of
/// `rest`'s one tile at its ends, so that going out with it next is a
/// capicúa.
fn sets_up_capicua(after: &Layout, rest: TileSet) -> bool {
    let mut tiles = rest.iter();
    let (Some(last), None) = (tiles.next(), tiles.next()) else {
        return false;
    };
    match (after.open_end(End::Left), after.open_end(End::Right)) {
        // Two different numbers: the tile they name is no double.
        (Some(left), Some(right)) => left != right && Tile::new(left, right) == last,
        _ => false,
    }
}
