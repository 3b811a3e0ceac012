//! `greedy` at a trick game (Texas 42, Moon): the rules of thumb of a
//! decent casual player, from the seat's own tiles and what is public (the
//! auction, the contract, the tricks played).
//!
//! - **Bidding**: the hand is valued under its best trump (trumps held,
//!   the trump double, the other doubles, which win their suits); the seat
//!   bids the lowest open bid its value reaches, and passes over its
//!   partner's bid. A plunge or splash where on and its doubles allow, a
//!   nello (a 1-mark bid) with a hand that can lose every trick.
//! - **Naming**: the trump the hand is longest and strongest in (doubles
//!   where they are strongest), or nello with the hand for it.
//! - **Leading**: the declaring side leads trumps while the others may
//!   hold some (to pull them); then a tile no unplayed tile of its suit
//!   beats (a walker), count first; else the cheapest tile.
//! - **Following**: with the partner winning a trick he keeps, give him
//!   count without overtaking him; else win a trick holding count (or the
//!   last to play) with the cheapest tile that wins it; else throw the
//!   cheapest tile, never count.
//! - **Nello**: the bidder plays his highest tile that loses; the others
//!   play under the bidder.
//! - **Moon's discard**: lay away the weakest tile (no trump, no double,
//!   the lowest).

use arrayvec::ArrayVec;

use crate::rules::tricks::auction::{Bid, Bidding};
use crate::rules::tricks::contract::{Contract, DoublesRank};
use crate::rules::tricks::hand::{MAX_SEATS, Stage, TrickHand};
use crate::rules::tricks::suit::{MAX_PIP, Suit, Suits};
use crate::rules::tricks::trick;
use crate::rules::{Action, Move, Seat, Tile, TileSet};

/// The most tiles a seat may play (Moon's bidder holds eight before his
/// discard).
const PLAYABLE: usize = 8;

/// What a trick-game move is chosen from: the public hand and the
/// mover's own tiles.
#[derive(Clone, Copy, Debug)]
pub struct TrickSeat<'a> {
    /// The hand: only what is public is read (the auction, the contract,
    /// the trick in progress, what each seat has taken).
    pub hand: &'a TrickHand,
    /// The mover.
    pub seat: Seat,
    /// The mover's tiles.
    pub tiles: TileSet,
    /// The tiles played to tricks this hand (public).
    pub played: TileSet,
    /// The tiles each seat has shown it lacks by failing to follow (public;
    /// empty where not worked out).
    pub voids: [TileSet; MAX_SEATS],
}

impl TrickSeat<'_> {
    /// The tiles of the set the mover has not seen: neither its own nor
    /// played to a trick (another seat may hold them).
    fn unseen(&self) -> TileSet {
        TileSet::full(MAX_PIP).minus(self.tiles).minus(self.played)
    }
}

/// A hand's value under one contract, in "tricks it should take": a point
/// a trump held with the trump double (the top trump), and one more for
/// the double itself; without it, four fifths of a point a trump; three
/// quarters a double of another suit (the top of its suit); half a point
/// for a fifth trump.
fn value_under(tiles: TileSet, contract: Contract) -> f64 {
    let suits = Suits::new(contract, DoublesRank::High, DoublesRank::OwnSuit);
    let trumps = suits.of_suit(tiles, Suit::Trumps);
    let top = match contract {
        Contract::Trumps(number) => Tile::new(number, number),
        _ => Tile::new(MAX_PIP, MAX_PIP),
    };
    let other_doubles = tiles.and(TileSet::DOUBLES).minus(trumps).len();
    let length = f64::from(trumps.len());
    let topped = trumps.contains(top);
    length * if topped { 1.0 } else { 0.8 }
        + if topped { 1.0 } else { 0.0 }
        + 0.75 * f64::from(other_doubles)
        + if trumps.len() >= 5 { 0.5 } else { 0.0 }
}

/// The contract `tiles` are strongest under, of the trump numbers (and
/// doubles, outside Moon), with its value.
fn best_trump(tiles: TileSet, moon: bool) -> (Contract, f64) {
    let doubles = (!moon).then_some(Contract::Doubles);
    (0..=MAX_PIP)
        .map(Contract::Trumps)
        .chain(doubles)
        .map(|contract| (contract, value_under(tiles, contract)))
        .fold((Contract::Trumps(0), f64::MIN), |best, next| {
            if next.1 > best.1 { next } else { best }
        })
}

/// Whether `tiles` can lose every trick at nello: no double but the lowest
/// (where doubles rank low or apart), and no tile above 4 on either end.
fn nello_hand(tiles: TileSet, nello_doubles: DoublesRank) -> bool {
    tiles.iter().all(|tile| {
        if tile.is_double() {
            nello_doubles != DoublesRank::High && tile.high() == 0
        } else {
            tile.high() <= 4
        }
    })
}

/// The most a Texas 42 hand valued `value` bids: nothing below 4, then
/// 30 up by a point every quarter to 41, 1 mark (all 42) from 8.5.
fn texas_limit(value: f64) -> Option<Bid> {
    if value >= 8.5 {
        Some(Bid::Marks(1))
    } else if value >= 4.0 {
        // (4.0 to 6.75 in quarters: 30 to 41.)
        let points = 30.0 + ((value - 4.0) * 4.0).floor();
        Some(Bid::Points(points.min(41.0) as u8))
    } else {
        None
    }
}

/// The most a Moon hand valued `value` bids: the tricks it should take
/// (4 to 7), the moon from 8.5.
fn moon_limit(value: f64) -> Option<Bid> {
    if value >= 8.5 {
        Some(Bid::Moon)
    } else if value >= 4.0 {
        Some(Bid::Tricks(value.floor().min(7.0) as u8))
    } else {
        None
    }
}

/// Whether `a` and `b` play together this hand: partners at Texas 42
/// (the bidder alone under nello, his partner sitting out), the two seats
/// against the bidder at Moon.
fn allies(hand: &TrickHand, a: Seat, b: Seat) -> bool {
    if a == b {
        return true;
    }
    if hand.rules().bidding == Bidding::Moon {
        let bidder = hand.auction().standing().map(|(seat, _)| seat);
        return bidder.is_some_and(|bidder| a != bidder && b != bidder);
    }
    a % 2 == b % 2
}

/// The move `greedy` plays for `me` among `moves`.
#[must_use]
pub fn best(me: &TrickSeat<'_>, moves: &[Move]) -> Option<Move> {
    let first = *moves.first()?;
    let chosen = match me.hand.stage() {
        Stage::Bidding => bid(me, moves),
        Stage::Naming => name(me, moves),
        Stage::Discarding => discard(me, moves),
        Stage::Playing => play(me, moves),
        Stage::Over => None,
    };
    Some(chosen.unwrap_or(first))
}

/// The move of `moves` whose action is `action`, if it is one.
fn find(moves: &[Move], action: Action) -> Option<Move> {
    moves.iter().copied().find(|mv| mv.action == action)
}

/// A bid: the lowest open bid the hand's value reaches (a plunge, a
/// splash or a nello where they fit), passing over the partner's bid.
fn bid(me: &TrickSeat<'_>, moves: &[Move]) -> Option<Move> {
    let rules = me.hand.rules();
    let moon = rules.bidding == Bidding::Moon;
    let may_pass = find(moves, Action::Pass);
    let bids = || {
        moves.iter().filter_map(|mv| match mv.action {
            Action::Bid(bid) => Some((*mv, bid)),
            _ => None,
        })
    };
    let lowest = bids()
        .min_by_key(|&(_, bid)| bid.height())
        .map(|(mv, _)| mv);
    // Over the partner: pass (where passing is allowed).
    let standing = me.hand.auction().standing();
    if !moon && standing.is_some_and(|(seat, _)| seat != me.seat && allies(me.hand, seat, me.seat))
    {
        if let Some(pass) = may_pass {
            return Some(pass);
        }
    }
    let (_, value) = best_trump(me.tiles, moon);
    let doubles = me.tiles.and(TileSet::DOUBLES).len();
    let limit = if moon {
        moon_limit(value)
    } else {
        texas_limit(value)
    };
    let marks_alone = matches!(limit, Some(Bid::Marks(_)));
    // A splash or plunge: many doubles but no hand to bid marks alone.
    if !moon && !marks_alone && doubles >= 4 {
        let special = bids()
            .filter(|(_, bid)| matches!(bid, Bid::Splash(_) | Bid::Plunge(_)))
            .min_by_key(|&(_, bid)| bid.height());
        if let Some((mv, _)) = special {
            return Some(mv);
        }
    }
    // Nello: the lowest marks bid, with a hand that loses every trick.
    if !moon && rules.nello && limit.is_none() && nello_hand(me.tiles, rules.nello_doubles) {
        let marks = bids()
            .filter(|(_, bid)| matches!(bid, Bid::Marks(_)))
            .min_by_key(|&(_, bid)| bid.height());
        if let Some((mv, _)) = marks {
            return Some(mv);
        }
    }
    let reach = limit.map_or(0, Bid::height);
    let within = bids()
        .filter(|(_, bid)| !matches!(bid, Bid::Splash(_) | Bid::Plunge(_)))
        .filter(|(_, bid)| bid.height() <= reach)
        .min_by_key(|&(_, bid)| bid.height())
        .map(|(mv, _)| mv);
    within.or(may_pass).or(lowest)
}

/// The contract: nello with the hand for it (after a marks bid), else the
/// trump the hand is strongest in.
fn name(me: &TrickSeat<'_>, moves: &[Move]) -> Option<Move> {
    let rules = me.hand.rules();
    if nello_hand(me.tiles, rules.nello_doubles) {
        if let Some(mv) = find(moves, Action::Name(Contract::Nello)) {
            return Some(mv);
        }
    }
    let (contract, _) = best_trump(me.tiles, rules.bidding == Bidding::Moon);
    find(moves, Action::Name(contract)).or_else(|| {
        // (Every trump number is always open; doubles outside Moon.)
        moves
            .iter()
            .copied()
            .find(|mv| matches!(mv.action, Action::Name(Contract::Trumps(_))))
    })
}

/// Moon's discard: the weakest tile under the trump the hand is strongest
/// in (the contract is named by now): no trump, no double, the lowest.
fn discard(me: &TrickSeat<'_>, moves: &[Move]) -> Option<Move> {
    let suits = suits_of(me.hand)?;
    moves
        .iter()
        .copied()
        .filter_map(|mv| match mv.action {
            Action::Discard(tile) => Some((mv, tile)),
            _ => None,
        })
        .min_by_key(|&(_, tile)| {
            (
                suits.is_trump(tile),
                tile.is_double(),
                tile.pips(),
                tile.high(),
            )
        })
        .map(|(mv, _)| mv)
}

/// The hand's suits once the contract is named.
fn suits_of(hand: &TrickHand) -> Option<Suits> {
    let rules = hand.rules();
    hand.contract()
        .map(|contract| Suits::new(contract, rules.follow_me_doubles, rules.nello_doubles))
}

/// What a trick's tile is worth to whoever takes it: its count at Texas
/// 42, nothing at Moon (a point a trick).
fn worth(hand: &TrickHand, tile: Tile) -> u8 {
    if hand.rules().bidding == Bidding::Moon {
        0
    } else {
        trick::count(tile)
    }
}

/// A tile's rank in the suit it leads (its strength), and whether it is a
/// trump: higher wins.
fn strength(suits: Suits, tile: Tile) -> (bool, u8) {
    let suit = suits.led_by(tile);
    let rank = suit.and_then(|suit| suits.rank(tile, suit)).unwrap_or(0);
    (suits.is_trump(tile), rank)
}

/// Whether no tile unseen by `me` (not its own, not played) ranks above
/// `tile` in the suit it leads: led, it takes the trick unless trumped.
fn walks(me: &TrickSeat<'_>, suits: Suits, tile: Tile) -> bool {
    let Some(suit) = suits.led_by(tile) else {
        return false;
    };
    let Some(rank) = suits.rank(tile, suit) else {
        return false;
    };
    let unseen = suits.suit_tiles(suit).and(me.unseen());
    unseen
        .iter()
        .all(|other| suits.rank(other, suit).is_none_or(|r| r < rank))
}

/// A tile to play to the trick.
fn play(me: &TrickSeat<'_>, moves: &[Move]) -> Option<Move> {
    let hand = me.hand;
    let suits = suits_of(hand)?;
    // (No allocation: `expert`'s playouts ask on every move.)
    let tiles: ArrayVec<(Move, Tile), PLAYABLE> = moves
        .iter()
        .filter_map(|mv| match mv.action {
            Action::Trick(tile) => Some((*mv, tile)),
            _ => None,
        })
        .take(PLAYABLE)
        .collect();
    if suits.contract() == Contract::Sevens || tiles.len() <= 1 {
        // (Sevens leaves no choice worth making.)
        return tiles.first().map(|&(mv, _)| mv);
    }
    let (_, trick) = hand.trick();
    let pick = |key: &dyn Fn(Tile) -> i32| {
        tiles
            .iter()
            .max_by_key(|&&(_, tile)| key(tile))
            .map(|&(mv, _)| mv)
    };
    let rank = |tile: Tile| {
        let (trump, rank) = strength(suits, tile);
        i32::from(trump) * 16 + i32::from(rank)
    };
    let bidder = hand.auction().standing().map(|(seat, _)| seat);
    if suits.contract() == Contract::Nello {
        return nello_play(me, suits, trick, bidder, &tiles);
    }
    if trick.is_empty() {
        return lead(me, suits, bidder, &tiles);
    }
    let wins = |tile: Tile| takes(suits, trick, tile);
    let winning = hand.winning();
    let ally_winning = winning.is_some_and(|seat| seat != me.seat && allies(hand, seat, me.seat));
    // The ally's tile keeps the trick if no opponent still to play may
    // hold a tile that beats it (unseen by me, and not shown lacking).
    let keeps = ally_winning && {
        let beaters: TileSet = me.unseen().iter().filter(|&tile| wins(tile)).collect();
        still_to_play(hand, me.seat, trick.len())
            .filter(|&seat| !allies(hand, seat, me.seat))
            .all(|seat| {
                let lacks = me.voids.get(usize::from(seat)).copied().unwrap_or_default();
                beaters.minus(lacks).is_empty()
            })
    };
    let last = still_to_play(hand, me.seat, trick.len()).next().is_none();
    if keeps {
        // Give count without overtaking: the most count that does not win.
        let under = tiles
            .iter()
            .filter(|(_, tile)| !wins(*tile))
            .max_by_key(|(_, tile)| (worth(hand, *tile), -rank(*tile)));
        if let Some(&(mv, _)) = under {
            return Some(mv);
        }
        return pick(&|tile| -rank(tile));
    }
    let at_stake: u8 = trick.iter().map(|&tile| worth(hand, tile)).sum();
    let cheapest_winner = tiles
        .iter()
        .filter(|(_, tile)| wins(*tile))
        .min_by_key(|(_, tile)| (rank(*tile), worth(hand, *tile)))
        .copied();
    if let Some((mv, tile)) = cheapest_winner {
        let cheap = !suits.is_trump(tile) || walks(me, suits, tile);
        if at_stake > 0 || last || cheap || hand.rules().bidding == Bidding::Moon {
            return Some(mv);
        }
    }
    // Throw the cheapest: no count, no trump, the lowest.
    pick(&|tile| -(i32::from(worth(hand, tile)) * 64 + rank(tile)))
}

/// Whether `tile`, played to `trick` next, takes it so far.
fn takes(suits: Suits, trick: &[Tile], tile: Tile) -> bool {
    // (`take`: collecting past its room would panic.)
    let mut after: ArrayVec<Tile, MAX_SEATS> = trick.iter().copied().take(MAX_SEATS).collect();
    after.try_push(tile).is_ok() && suits.winner(&after) == Some(trick.len())
}

/// The seats that play to the trick after `me`, who plays its tile number
/// `played + 1` (the seat sitting out skipped).
fn still_to_play(hand: &TrickHand, me: Seat, played: usize) -> impl Iterator<Item = Seat> + '_ {
    let players = u8::try_from(hand.taken().0.len()).unwrap_or(1).max(1);
    let sits_out = hand.sits_out();
    let size = usize::from(players) - usize::from(sits_out.is_some());
    let left = size.saturating_sub(played + 1);
    (1..players)
        .map(move |k| (me + k) % players)
        .filter(move |&seat| Some(seat) != sits_out)
        .take(left)
}

/// The lead: trumps while the others may hold some (the declaring side),
/// then a walker (count first), else the cheapest tile.
fn lead(
    me: &TrickSeat<'_>,
    suits: Suits,
    bidder: Option<Seat>,
    tiles: &[(Move, Tile)],
) -> Option<Move> {
    let hand = me.hand;
    let declaring = bidder.is_some_and(|bidder| allies(hand, bidder, me.seat))
        || hand
            .declarer()
            .is_some_and(|seat| allies(hand, seat, me.seat));
    let trumps_out = !suits.suit_tiles(Suit::Trumps).and(me.unseen()).is_empty();
    if declaring && trumps_out {
        let top_trump = tiles
            .iter()
            .filter(|(_, tile)| suits.is_trump(*tile))
            .max_by_key(|(_, tile)| strength(suits, *tile));
        if let Some(&(mv, _)) = top_trump {
            return Some(mv);
        }
    }
    let walker = tiles
        .iter()
        .filter(|(_, tile)| walks(me, suits, *tile) && (suits.is_trump(*tile) || !trumps_out))
        .max_by_key(|(_, tile)| (worth(hand, *tile), strength(suits, *tile)));
    if let Some(&(mv, _)) = walker {
        return Some(mv);
    }
    tiles
        .iter()
        .min_by_key(|(_, tile)| (worth(hand, *tile), strength(suits, *tile)))
        .map(|&(mv, _)| mv)
}

/// Nello: the bidder plays his highest tile that loses the trick (the
/// lowest if none does); the others play their lowest tile.
fn nello_play(
    me: &TrickSeat<'_>,
    suits: Suits,
    trick: &[Tile],
    bidder: Option<Seat>,
    tiles: &[(Move, Tile)],
) -> Option<Move> {
    let loses = |tile: Tile| !trick.is_empty() && !takes(suits, trick, tile);
    let lowest = tiles
        .iter()
        .min_by_key(|(_, tile)| strength(suits, *tile))
        .map(|&(mv, _)| mv);
    if bidder == Some(me.seat) {
        let highest_loser = tiles
            .iter()
            .filter(|(_, tile)| loses(*tile))
            .max_by_key(|(_, tile)| strength(suits, *tile))
            .map(|&(mv, _)| mv);
        return highest_loser.or(lowest);
    }
    lowest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::HistoryEntry;
    use crate::rules::tricks::hand::TrickRules;
    use crate::rules::tricks::knowledge::{played_tiles, voids_in};

    fn t(a: u8, b: u8) -> Tile {
        Tile::new(a, b)
    }

    /// A hand under way, with its moves.
    struct Table {
        hand: TrickHand,
        history: Vec<HistoryEntry>,
    }

    impl Table {
        /// `hands` dealt (seat 0 first, the rest of the set to the seats
        /// left short, in order), the seat left of `shaker` bidding first.
        fn dealt(rules: TrickRules, shaker: Seat, hands: [&[(u8, u8)]; 4]) -> Table {
            let mut sets: Vec<TileSet> = hands
                .iter()
                .map(|tiles| tiles.iter().map(|&(a, b)| t(a, b)).collect())
                .collect();
            let given = sets.iter().fold(TileSet::EMPTY, |all, set| all.or(*set));
            let mut rest = TileSet::full(MAX_PIP).minus(given).iter();
            for set in &mut sets {
                while set.len() < 7 {
                    set.insert(rest.next().expect("a tile left"));
                }
            }
            let all = sets.iter().fold(TileSet::EMPTY, |all, set| all.or(*set));
            assert_eq!(all, TileSet::full(MAX_PIP), "every tile dealt once");
            Table {
                hand: TrickHand::dealt(rules, shaker, &sets, None),
                history: Vec::new(),
            }
        }

        /// The seat to act makes `action`.
        fn play(&mut self, action: Action) -> &mut Table {
            let seat = self.hand.to_act().expect("a seat to act");
            self.hand.play(seat, action).expect("legal");
            self.history.push(HistoryEntry {
                mv: Move { seat, action },
                drawn: None,
            });
            self
        }

        /// The first seat bids 30 and the others pass; it names sixes.
        fn sixes_bid_30_and_named(&mut self) -> &mut Table {
            self.play(Action::Bid(Bid::Points(30)))
                .play(Action::Pass)
                .play(Action::Pass)
                .play(Action::Pass)
                .play(Action::Name(Contract::Trumps(6)))
        }

        /// What `greedy` plays for the seat to act.
        fn greedy(&self) -> Action {
            self.greedy_knowing(voids_in(&self.hand, self.history.iter().copied()))
        }

        /// What `greedy` plays for the seat to act, knowing that each seat
        /// lacks `voids`.
        fn greedy_knowing(&self, voids: [TileSet; MAX_SEATS]) -> Action {
            let seat = self.hand.to_act().expect("a seat to act");
            let me = TrickSeat {
                hand: &self.hand,
                seat,
                tiles: self.hand.hand(seat),
                played: played_tiles(self.history.iter().copied()),
                voids,
            };
            let moves: Vec<Move> = self
                .hand
                .legal_moves()
                .into_iter()
                .map(|action| Move { seat, action })
                .collect();
            best(&me, &moves).expect("a move").action
        }
    }

    /// Seat 3 bids first (seat 2 shakes): seat 3 strong in sixes with the
    /// double, seat 0 strong in fours, seat 1 weak, seat 2 fair in fives.
    fn sixes_against_fours() -> Table {
        Table::dealt(
            TrickRules::texas42(),
            2,
            [
                &[(5, 4), (4, 4), (4, 3), (4, 2), (4, 0), (2, 2), (1, 1)],
                &[(5, 1), (6, 4), (6, 1), (6, 0), (4, 1), (3, 2), (3, 0)],
                &[(5, 5), (5, 3), (5, 0), (2, 1), (2, 0), (1, 0), (0, 0)],
                &[(5, 2), (6, 6), (6, 5), (6, 3), (6, 2), (3, 3), (3, 1)],
            ],
        )
    }

    #[test]
    fn bids_what_the_hand_is_worth_and_passes_over_the_partner() {
        let mut table = sixes_against_fours();
        // Seat 3 opens at the lowest bid; seat 0, stronger, bids over it.
        assert_eq!(table.greedy(), Action::Bid(Bid::Points(30)));
        table.play(Action::Bid(Bid::Points(30)));
        assert_eq!(table.greedy(), Action::Bid(Bid::Points(31)));
        table.play(Action::Bid(Bid::Points(31)));
        // Seat 1, weak, passes; seat 2 would bid, but not over its partner.
        assert_eq!(table.greedy(), Action::Pass);
        table.play(Action::Pass);
        assert_eq!(table.greedy(), Action::Pass);
    }

    #[test]
    fn names_the_trump_it_is_longest_and_strongest_in_and_leads_trumps() {
        let mut table = sixes_against_fours();
        table
            .play(Action::Bid(Bid::Points(30)))
            .play(Action::Pass)
            .play(Action::Pass)
            .play(Action::Pass);
        assert_eq!(table.greedy(), Action::Name(Contract::Trumps(6)));
        table.play(Action::Name(Contract::Trumps(6)));
        // The others hold trumps: lead the highest to pull them.
        assert_eq!(table.greedy(), Action::Trick(t(6, 6)));
    }

    #[test]
    fn gives_count_to_the_partners_trick_without_overtaking_him() {
        let mut table = sixes_against_fours();
        table
            .sixes_bid_30_and_named()
            .play(Action::Trick(t(5, 2)))
            .play(Action::Trick(t(5, 4)))
            .play(Action::Trick(t(5, 1)));
        // Seat 2 plays last: its partner's 5-4 takes the trick. 5-5 would
        // overtake it (and keep its 10 in the side); 5-0 gives 5.
        assert_eq!(table.greedy(), Action::Trick(t(5, 0)));
    }

    #[test]
    fn wins_a_trick_holding_count_with_the_cheapest_tile_that_wins_it() {
        let mut table = Table::dealt(
            TrickRules::texas42(),
            2,
            [
                &[(5, 0), (4, 4), (4, 3), (4, 2), (4, 0), (2, 2), (1, 1)],
                &[(5, 1), (6, 4), (6, 1), (6, 0), (4, 1), (3, 1), (3, 0)],
                &[(5, 5), (5, 4), (5, 3), (2, 1), (2, 0), (1, 0), (0, 0)],
                &[(5, 2), (6, 6), (6, 5), (6, 3), (6, 2), (3, 3), (3, 2)],
            ],
        );
        table
            .sixes_bid_30_and_named()
            .play(Action::Trick(t(5, 2)))
            .play(Action::Trick(t(5, 0)))
            .play(Action::Trick(t(5, 1)));
        // The bidder's 5-2 takes 5-0's count so far: 5-3 is enough.
        assert_eq!(table.greedy(), Action::Trick(t(5, 3)));
    }

    #[test]
    fn counts_a_trick_kept_when_the_seat_left_to_play_showed_it_has_no_trump() {
        let mut table = sixes_against_fours();
        table
            .sixes_bid_30_and_named()
            // Trumps led: seats 0 and 2 show they hold none.
            .play(Action::Trick(t(6, 6)))
            .play(Action::Trick(t(2, 2)))
            .play(Action::Trick(t(6, 0)))
            .play(Action::Trick(t(1, 0)))
            // Seat 3 leads 3-3, the top three; seat 0 follows.
            .play(Action::Trick(t(3, 3)))
            .play(Action::Trick(t(4, 3)));
        // Seat 1 must follow threes: seat 2, still to play, cannot trump,
        // so its partner keeps the trick: 3-2 gives it 5.
        assert_eq!(table.greedy(), Action::Trick(t(3, 2)));
        // Not knowing seat 2 void of trumps, it would throw its cheapest.
        assert_eq!(
            table.greedy_knowing(Default::default()),
            Action::Trick(t(3, 0))
        );
    }

    #[test]
    fn plunges_with_four_doubles_where_on_and_bids_nello_with_a_losing_hand() {
        let mut rules = TrickRules::texas42();
        rules.bidding = Bidding::Texas42 {
            plunge: true,
            splash: false,
        };
        let doubles = Table::dealt(
            rules,
            2,
            [
                &[],
                &[],
                &[],
                &[(6, 6), (5, 5), (4, 4), (3, 3), (2, 1), (1, 0), (3, 0)],
            ],
        );
        assert_eq!(doubles.greedy(), Action::Bid(Bid::Plunge(4)));
        let mut rules = TrickRules::texas42();
        rules.nello = true;
        let mut low = Table::dealt(
            rules,
            2,
            [
                &[],
                &[],
                &[],
                &[(4, 0), (4, 1), (3, 1), (3, 0), (2, 1), (2, 0), (1, 0)],
            ],
        );
        assert_eq!(low.greedy(), Action::Bid(Bid::Marks(1)));
        low.play(Action::Bid(Bid::Marks(1)))
            .play(Action::Pass)
            .play(Action::Pass)
            .play(Action::Pass);
        assert_eq!(low.greedy(), Action::Name(Contract::Nello));
        low.play(Action::Name(Contract::Nello));
        // The bidder leads his lowest tile.
        assert_eq!(low.greedy(), Action::Trick(t(1, 0)));
    }

    #[test]
    fn moons_bidder_lays_away_its_weakest_tile() {
        let mut rules = TrickRules::moon();
        rules.play_out = true;
        // Moon's 22 tiles: seat 1, the strongest, bids last (seat 1
        // shakes).
        let set: Vec<Tile> = TileSet::full(MAX_PIP)
            .iter()
            .filter(|tile| tile.low() != 0 || tile.high() == 0)
            .collect();
        let strong = [
            t(6, 6),
            t(6, 5),
            t(6, 4),
            t(6, 3),
            t(6, 2),
            t(5, 5),
            t(4, 4),
        ];
        // The widow is 2-1, the one tile of seat 1's worth laying away.
        let widow = t(2, 1);
        let rest: Vec<Tile> = set
            .iter()
            .copied()
            .filter(|tile| !strong.contains(tile) && *tile != widow)
            .collect();
        let hands: Vec<TileSet> = vec![
            rest[..7].iter().copied().collect(),
            strong.iter().copied().collect(),
            rest[7..14].iter().copied().collect(),
        ];
        let mut table = Table {
            hand: TrickHand::dealt(rules, 1, &hands, Some(widow)),
            history: Vec::new(),
        };
        // The seat to act plays greedy's move.
        let act = |table: &mut Table| {
            let action = table.greedy();
            table.play(action);
            action
        };
        // The others bid; seat 1 outbids them.
        while table.hand.stage() == Stage::Bidding {
            act(&mut table);
        }
        assert_eq!(
            table.hand.auction().standing().map(|(seat, _)| seat),
            Some(1)
        );
        assert_eq!(act(&mut table), Action::Name(Contract::Trumps(6)));
        let Action::Discard(tile) = act(&mut table) else {
            panic!("a discard");
        };
        assert_eq!(tile, widow);
    }
}
