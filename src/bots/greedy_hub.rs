//! `greedy` at a table with a hub (Mexican Train's trains, a chicken
//! foot): the heuristic of a decent casual player of these games, where the
//! pips left in a hand when the round ends count against it.
//!
//! - go out when it can; shed heavy tiles (0-0 weighs what it counts, 50 in
//!   the boxed rules);
//! - place a double only when it holds a tile to cover it (at a chicken
//!   foot, tiles for its toes), unless the opponents lack its number;
//! - keep options: prefer the move after which more of its tiles fit
//!   somewhere it may place, and keep its own train playable — it is the
//!   one train always open to it — by using the Mexican train and the
//!   trains with a marker up first when that costs nothing;
//! - take its marker down when it can;
//! - lay the opening chain as the longest run its hand makes from its
//!   train's end.

use crate::rules::options::Rules;
use crate::rules::settle::pips_counted;
use crate::rules::train_game::TurnState;
use crate::rules::{Action, Foot, FootPlace, Move, Seat, Tile, TileSet, TrainId, Trains};

/// What a move at a hub table is scored on: everything public, and the
/// mover's hand.
#[derive(Clone, Copy, Debug)]
pub struct HubSeat<'a> {
    /// The rules in force.
    pub rules: &'a Rules,
    /// The train table, at a train game.
    pub trains: Option<&'a Trains>,
    /// The chicken foot, at a Chicken Foot game.
    pub foot: Option<&'a Foot>,
    /// The mover.
    pub seat: Seat,
    /// The mover's tiles.
    pub hand: TileSet,
    /// Whether a tile placed on the mover's own train now opens or goes on
    /// with its opening chain.
    pub chain: bool,
    /// Pip numbers no opponent can hold, as bits (bit n: number n).
    pub opponents_lack: u16,
}

impl HubSeat<'_> {
    /// Whether placing on its own train now opens or continues a chain
    /// (`turn` as the game has it, `drew`: the seat drew this turn).
    #[must_use]
    pub fn chain_now(
        rules: &Rules,
        trains: &Trains,
        turn: TurnState,
        seat: Seat,
        drew: bool,
    ) -> bool {
        let unsatisfied = trains.unsatisfied().is_some();
        (turn.chain && !unsatisfied)
            || turn.opens_chain(
                rules.opening_chain,
                drew,
                unsatisfied,
                seat,
                TrainId::Seat(seat),
            )
    }
}

/// The best of `moves` for `seat` (the first of equals).
#[must_use]
pub fn best(seat: &HubSeat<'_>, moves: &[Move]) -> Option<Move> {
    super::greedy::best_by(moves, |mv| value(seat, mv))
}

/// How much `greedy` likes `mv` at a hub table. A draw, a pass and the end
/// of a turn score nothing: a draw or a pass is listed alone, and a chain
/// ends when its run does.
#[must_use]
pub fn value(seat: &HubSeat<'_>, mv: Move) -> f64 {
    let Action::Play { tile, place } = mv.action else {
        return 0.0;
    };
    let rest = seat.hand.minus(TileSet::EMPTY.with(tile));
    if rest.is_empty() {
        return 1000.0;
    }
    let mut value = 2.0 * f64::from(pips_counted(seat.rules, TileSet::EMPTY.with(tile)));
    let lacked = |pips: u8| seat.opponents_lack & (1 << pips) != 0;
    if let (Some(trains), Some(train)) = (seat.trains, place.train()) {
        value += on_train(seat, trains, tile, train, rest, lacked);
    } else if let (Some(foot), Some(at)) = (seat.foot, place.foot()) {
        value += at_foot(foot, tile, at, rest, lacked);
    }
    value
}

/// What placing `tile` on `train` is worth besides its pips (`rest`: the
/// hand after it).
fn on_train(
    seat: &HubSeat<'_>,
    trains: &Trains,
    tile: Tile,
    train: TrainId,
    rest: TileSet,
    lacked: impl Fn(u8) -> bool,
) -> f64 {
    let own = TrainId::Seat(seat.seat);
    let Some(shows) = trains.train(train).map(|t| t.open_end()) else {
        return 0.0;
    };
    let outer = tile.other_half(shows);
    if seat.chain && train == own {
        // A tile of the opening chain (its first or its next): the longer
        // the run it starts, the more tiles go this turn.
        return 15.0 * f64::from(longest_run(rest, outer, RUN_SEARCH));
    }
    let mut value = 0.0;
    if tile.is_double() {
        let covers = rest.and(TileSet::showing(outer)).len();
        value += match (covers, lacked(outer)) {
            (0, false) => -12.0,
            (0, true) => 2.0,
            (_, lacks) => 4.0 + if lacks { 4.0 } else { 0.0 },
        };
    }
    // Where the seat may place after the move: its own train, the Mexican
    // and the trains with a marker up (its own marker comes down if it
    // places there), each showing what it will.
    let mut fits = TileSet::EMPTY;
    let mut own_end = None;
    for (id, other) in trains.trains() {
        let end = if id == train { outer } else { other.open_end() };
        let usable = match id {
            TrainId::Mexican => true,
            TrainId::Seat(owner) => owner == seat.seat || other.marker(),
        };
        if id == own {
            own_end = Some(end);
            if train == own && other.marker() {
                value += 6.0;
            }
        }
        if usable {
            fits = fits.or(TileSet::showing(end));
        }
    }
    value += 3.0 * f64::from(rest.and(fits).len());
    // The own train is the one always open: tiles kept for it are moves
    // kept for later, so it is used last when another train serves.
    if let Some(end) = own_end {
        value += 2.0 * f64::from(rest.and(TileSet::showing(end)).len());
    }
    if train != own {
        value += 2.0;
    }
    value
}

/// What placing `tile` at `place` of a chicken foot is worth besides its
/// pips (`rest`: the hand after it).
fn at_foot(
    foot: &Foot,
    tile: Tile,
    place: FootPlace,
    rest: TileSet,
    lacked: impl Fn(u8) -> bool,
) -> f64 {
    let shows = match place {
        FootPlace::Arm(arm) => foot.open_end(arm),
        FootPlace::NewArm => foot.waiting_for().map(|(number, _)| number),
    };
    let Some(shows) = shows else {
        return 0.0;
    };
    let outer = tile.other_half(shows);
    let mut value = 0.0;
    if tile.is_double() {
        // A chicken foot: three toes of its number before anything else.
        let toes = rest.and(TileSet::showing(outer)).len().min(3);
        value += 2.0 * f64::from(toes);
        value += match (toes, lacked(outer)) {
            (_, true) => 6.0,
            (0, false) => -6.0,
            _ => 0.0,
        };
    }
    // (What fits now, and the number the tile leaves showing: the number
    // it covers may still show elsewhere.)
    let fits = foot.fitting().or(TileSet::showing(outer));
    value += 3.0 * f64::from(rest.and(fits).len());
    value
}

/// How many positions the search for an opening chain's run visits at
/// most: a hand of twenty tiles is searched whole in the usual case, and a
/// pathological one stops early with the longest found.
const RUN_SEARCH: u32 = 4096;

/// The most tiles of `hand` that can be laid one after another from an
/// end showing `pips` (visiting at most `budget` positions).
#[must_use]
pub fn longest_run(hand: TileSet, pips: u8, budget: u32) -> u32 {
    let mut left = budget;
    run_from(hand, pips, &mut left)
}

/// [`longest_run`], spending `left`.
fn run_from(hand: TileSet, pips: u8, left: &mut u32) -> u32 {
    let mut best = 0;
    for tile in hand.and(TileSet::showing(pips)).iter() {
        if *left == 0 {
            break;
        }
        *left -= 1;
        let rest = hand.minus(TileSet::EMPTY.with(tile));
        best = best.max(1 + run_from(rest, tile.other_half(pips), left));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Place;
    use crate::rules::presets::preset;

    fn t(a: u8, b: u8) -> Tile {
        Tile::new(a, b)
    }

    fn on(tile: Tile, train: TrainId) -> Move {
        Move::place(0, tile, Place::on_train(train))
    }

    fn rules(variant: &str) -> Rules {
        preset(variant).expect("preset").rules(4, None)
    }

    /// Seat 0 of a four-seat Mexican Train table, hub 12-12, holding `hand`.
    fn seat<'a>(rules: &'a Rules, trains: &'a Trains, hand: &[Tile], chain: bool) -> HubSeat<'a> {
        HubSeat {
            rules,
            trains: Some(trains),
            foot: None,
            seat: 0,
            hand: hand.iter().copied().collect(),
            chain,
            opponents_lack: 0,
        }
    }

    /// The opening chain starts with the tile that begins the longest run,
    /// not the heaviest.
    #[test]
    fn opens_the_longest_chain() {
        let rules = rules("mexican_train");
        let trains = Trains::new(12, 4, true);
        let hand = [t(12, 11), t(12, 3), t(3, 5), t(5, 8)];
        let me = seat(&rules, &trains, &hand, true);
        let moves = [
            on(t(12, 11), TrainId::Seat(0)),
            on(t(12, 3), TrainId::Seat(0)),
        ];
        assert_eq!(best(&me, &moves), Some(on(t(12, 3), TrainId::Seat(0))));
    }

    /// A double it can cover goes before a tile as heavy; one it cannot
    /// cover waits. Going out beats everything.
    #[test]
    fn doubles_only_with_a_cover() {
        let rules = rules("mexican_train");
        let mut trains = Trains::new(12, 4, true);
        trains.place(t(12, 6), TrainId::Seat(0), 0);
        let moves = [
            on(t(6, 6), TrainId::Seat(0)),
            on(t(12, 0), TrainId::Mexican),
        ];
        let covered = [t(6, 6), t(12, 0), t(6, 2)];
        assert_eq!(
            best(&seat(&rules, &trains, &covered, false), &moves),
            Some(moves[0])
        );
        let uncovered = [t(6, 6), t(12, 0), t(3, 2)];
        assert_eq!(
            best(&seat(&rules, &trains, &uncovered, false), &moves),
            Some(moves[1])
        );
        let last = [t(6, 1)];
        let out = on(t(6, 1), TrainId::Seat(0));
        assert!(value(&seat(&rules, &trains, &last, false), out) >= 1000.0);
    }

    /// 0-0 weighs what it counts: where it counts 50, it goes before a
    /// heavier-looking tile.
    #[test]
    fn sheds_the_double_blank() {
        let rules = Rules {
            double_blank_pips: 50,
            ..rules("mexican_train")
        };
        let mut trains = Trains::new(12, 4, true);
        trains.place(t(12, 0), TrainId::Mexican, 1);
        trains.place(t(12, 9), TrainId::Seat(0), 0);
        let hand = [t(0, 0), t(9, 8), t(0, 4), t(8, 2)];
        let moves = [on(t(0, 0), TrainId::Mexican), on(t(9, 8), TrainId::Seat(0))];
        assert_eq!(
            best(&seat(&rules, &trains, &hand, false), &moves),
            Some(moves[0])
        );
    }

    /// Where the same tile goes on its own train or the Mexican, the
    /// Mexican is used and the own train kept.
    #[test]
    fn keeps_its_own_train() {
        let rules = rules("mexican_train");
        let trains = Trains::new(12, 4, true);
        let hand = [t(12, 4), t(7, 2), t(3, 1)];
        let moves = [
            on(t(12, 4), TrainId::Seat(0)),
            on(t(12, 4), TrainId::Mexican),
        ];
        assert_eq!(
            best(&seat(&rules, &trains, &hand, false), &moves),
            Some(moves[1])
        );
    }

    /// The longest run goes through the double and round the hand, not
    /// the first tile that fits.
    #[test]
    fn longest_run_from_an_end() {
        let hand: TileSet = [t(12, 3), t(3, 3), t(3, 7), t(7, 1), t(12, 9)]
            .into_iter()
            .collect();
        assert_eq!(longest_run(hand, 12, RUN_SEARCH), 4);
        assert_eq!(longest_run(hand, 5, RUN_SEARCH), 0);
        // A budget of one position sees one tile.
        assert_eq!(longest_run(hand, 12, 1), 1);
    }
}
