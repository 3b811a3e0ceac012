//! A seat's observation of a trick game as numbers (the trick games' part
//! of [`ObservationShape`](crate::rules::observation::ObservationShape)):
//! what a frontend draws, from the seat's view alone. Seats are counted
//! from the observer, sides likewise; `T` is the double-six set's 28 tiles
//! (in [`Tile::index`](crate::rules::Tile::index) order), `S` the seats,
//! `D` the sides. In order:
//!
//! | part | length | values |
//! | --- | --- | --- |
//! | the observer's hand | `T` | 1 for a tile held |
//! | played | `T` | 1 for a tile played to a trick this hand |
//! | what each other seat surely lacks | `(S − 1) × T` | 1 for a tile that seat cannot hold (played, seen, or of a suit it failed to follow) |
//! | the trick in progress | `S × T` | 1 for the tile each seat played to it |
//! | the trick's leader | `S` | 1 for the seat that led it (before its lead: that leads it; none during the auction) |
//! | the auction | `S × 3` | each seat: has spoken; passed; its bid's height ÷ 42 (points; marks × 42; Moon's tricks, 21 for the moon) |
//! | the bidder | `S` | 1 for the seat whose bid stands |
//! | the declarer | `S` | 1 for the seat that names the contract and leads |
//! | the contract | 11 | one-hot: trumps 0 to 6, doubles, follow-me, nello, sevens |
//! | the suit led | 9 | one-hot: the numbers 0 to 6, trumps, doubles (none before the lead and under sevens) |
//! | sitting out | `S` | 1 for the nello bidder's partner |
//! | tricks won | `S` | ÷ 7 |
//! | points won | `S` | ÷ 42 (at Moon a point a trick: ÷ 7) |
//! | the stage | 5 | one-hot: bidding, naming, discarding, playing, over |
//! | hand sizes | `S` | tiles held ÷ 7 |
//! | the observer's discard | `T` | 1 for the tile it laid away (Moon's bidder) |
//! | scores | `D` | points ÷ the target |
//! | to act | `S` | 1 for the seat to act (none once the match is over) |

use crate::rules::moves::Seat;
use crate::rules::observation::{Cells, seat_at};
use crate::rules::tile::TileSet;
use crate::rules::view::View;

use super::auction::{Bidding, HAND_POINTS};
use super::contract::Contract;
use super::hand::Stage;
use super::knowledge::played_tiles;
use super::settle::TRICKS;
use super::suit::Suit;

/// Cells of one seat's call in the auction.
const CALL_CELLS: usize = 3;

/// Contracts, one-hot: seven trump numbers, doubles, follow-me, nello,
/// sevens.
const CONTRACTS: usize = 11;

/// Suits a trick is led in, one-hot: seven numbers, trumps, doubles.
const SUITS: usize = 9;

/// The stages of a hand.
const STAGES: usize = 5;

/// Tiles a seat is dealt.
const HAND: f32 = 7.0;

/// The length of a trick game's observation with `tiles` tiles, `players`
/// seats and `sides` sides.
#[must_use]
pub const fn len(tiles: usize, players: usize, sides: usize) -> usize {
    let (t, s) = (tiles, players);
    t * 2
        + (s - 1) * t
        + s * t
        + s
        + s * CALL_CELLS
        + 2 * s
        + CONTRACTS
        + SUITS
        + 3 * s
        + STAGES
        + s
        + t
        + sides
        + s
}

/// Writes what `view`'s seat observes of a trick game into `cells`.
pub(crate) fn observe(view: &View<'_>, players: usize, sides: usize, cells: &mut Cells<'_>) {
    let me = view.seat();
    let players = players.max(1);
    let seat_at = |offset: usize| seat_at(me, offset, players);
    let offset_of = |seat: Seat| (usize::from(seat) + players - usize::from(me)) % players;
    let Some(hand) = view.trick_hand() else {
        return;
    };
    let moon = hand.rules().bidding == Bidding::Moon;

    cells.tiles(view.hand());
    let played: TileSet = played_tiles(view.history());
    cells.tiles(played);
    cells.others_lack(view, players);

    // The trick in progress, each tile by its seat.
    let (_, trick) = hand.trick();
    let mut by_seat = [TileSet::EMPTY; 8];
    for (k, &tile) in trick.iter().enumerate() {
        if let Some(slot) = by_seat.get_mut(offset_of(hand.in_trick_order(k))) {
            *slot = slot.with(tile);
        }
    }
    for tiles in by_seat.iter().take(players) {
        cells.tiles(*tiles);
    }
    let seats = |cells: &mut Cells<'_>, seat: Option<Seat>| {
        cells.one_hot(seat.map(offset_of), players);
    };
    seats(cells, hand.trick_leader());

    // The auction, seat by seat.
    let mut calls = [[0.0f32; CALL_CELLS]; 8];
    for (seat, call) in hand.calls() {
        if let Some(cell) = calls.get_mut(offset_of(seat)) {
            *cell = match call {
                None => [1.0, 1.0, 0.0],
                Some(bid) => [1.0, 0.0, bid.height() as f32 / f32::from(HAND_POINTS)],
            };
        }
    }
    for call in calls.iter().take(players) {
        for &value in call {
            cells.push(value);
        }
    }
    seats(cells, hand.auction().standing().map(|(seat, _)| seat));
    seats(cells, hand.declarer());
    cells.one_hot(hand.contract().map(contract_index), CONTRACTS);
    cells.one_hot(hand.led().map(suit_index), SUITS);
    seats(cells, hand.sits_out());

    let (tricks, points) = hand.taken();
    let most_points = if moon {
        f32::from(TRICKS)
    } else {
        f32::from(HAND_POINTS)
    };
    for offset in 0..players {
        let won = tricks
            .get(usize::from(seat_at(offset)))
            .copied()
            .unwrap_or(0);
        cells.push(f32::from(won) / f32::from(TRICKS));
    }
    for offset in 0..players {
        let won = points
            .get(usize::from(seat_at(offset)))
            .copied()
            .unwrap_or(0);
        cells.push(f32::from(won) / most_points);
    }
    cells.one_hot(Some(stage_index(hand.stage())), STAGES);
    for offset in 0..players {
        cells.push(view.hand_size(seat_at(offset)) as f32 / HAND);
    }
    let bidder = hand.auction().standing().map(|(seat, _)| seat);
    let discard = hand.discard().filter(|_| bidder == Some(me));
    cells.tiles(discard.map_or(TileSet::EMPTY, |tile| TileSet::EMPTY.with(tile)));

    cells.scores(view, sides);
    seats(cells, view.to_act());
}

/// A contract's cell.
const fn contract_index(contract: Contract) -> usize {
    match contract {
        Contract::Trumps(number) => number as usize,
        Contract::Doubles => 7,
        Contract::FollowMe => 8,
        Contract::Nello => 9,
        Contract::Sevens => 10,
    }
}

/// A suit's cell.
const fn suit_index(suit: Suit) -> usize {
    match suit {
        Suit::Number(number) => number as usize,
        Suit::Trumps => 7,
        Suit::Doubles => 8,
    }
}

/// A stage's cell.
const fn stage_index(stage: Stage) -> usize {
    match stage {
        Stage::Bidding => 0,
        Stage::Naming => 1,
        Stage::Discarding => 2,
        Stage::Playing => 3,
        Stage::Over => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::observation::ObservationShape;
    use crate::rules::tricks::auction::Bid;
    use crate::rules::tricks::options::TrickOptions;
    use crate::rules::{Action, Game, Rules};

    /// The documented layout at Texas 42: the lengths add up, and a trick
    /// under way shows its lead by its seat, the contract, the suit led,
    /// the stage and the auction.
    #[test]
    fn the_layout_is_as_documented() {
        let rules = Rules::tricks(TrickOptions::texas42(), 7);
        let shape = ObservationShape::new(&rules, 4);
        let (t, s) = (28, 4);
        let parts = [
            t,
            t,
            (s - 1) * t,
            s * t,
            s,
            s * CALL_CELLS,
            s,
            s,
            CONTRACTS,
            SUITS,
            s,
            s,
            s,
            STAGES,
            s,
            t,
            2,
            s,
        ];
        assert_eq!(shape.len(), parts.iter().sum::<usize>());
        let (mut game, _) = Game::new("texas42", rules, 4, 5).expect("deals");
        // The first seat bids 30, the others pass; the bidder names fours
        // and leads.
        let opening = game.to_act();
        for action in [
            Action::Bid(Bid::Points(30)),
            Action::Pass,
            Action::Pass,
            Action::Pass,
        ] {
            let seat = game.to_act();
            game.play(crate::rules::Move { seat, action })
                .expect("legal");
        }
        let name = crate::rules::Move {
            seat: opening,
            action: Action::Name(Contract::Trumps(4)),
        };
        game.play(name).expect("legal");
        let lead = game.legal_moves()[0];
        game.play(lead).expect("legal");
        let Action::Trick(tile) = lead.action else {
            panic!("a tile led");
        };
        // Seen by the seat after the bidder: the bidder is offset 3.
        let me = (opening + 1) % 4;
        let mut out = vec![f32::NAN; shape.len()];
        shape.observe(&game.view(me).expect("seat"), &mut out);
        let mut at = 0;
        let mut part = |index: usize| {
            let start = parts[..index].iter().sum::<usize>();
            at = start;
            &out[start..start + parts[index]]
        };
        let trick = part(3);
        assert_eq!(trick[3 * t + tile.index() as usize], 1.0);
        assert_eq!(trick.iter().sum::<f32>(), 1.0);
        assert_eq!(part(4), &[0.0, 0.0, 0.0, 1.0], "the leader");
        let auction = part(5);
        assert_eq!(&auction[9..12], &[1.0, 0.0, 30.0 / 42.0], "the bid");
        assert_eq!(&auction[..3], &[1.0, 1.0, 0.0], "my pass");
        assert_eq!(part(6), &[0.0, 0.0, 0.0, 1.0], "the bidder");
        let contract = part(8);
        assert_eq!(contract[4], 1.0);
        assert_eq!(contract.iter().sum::<f32>(), 1.0);
        assert_eq!(part(9).iter().sum::<f32>(), 1.0, "a suit led");
        assert_eq!(part(13), &[0.0, 0.0, 0.0, 1.0, 0.0], "playing");
        assert_eq!(part(17), &[1.0, 0.0, 0.0, 0.0], "I act");
        assert_eq!(at, shape.len() - s);
    }
}
