//! What a trick hand's public play shows of the hands (docs/rules.md#moon,
//! "Revealed to whom": bids, the contract and every played tile are
//! public): a seat that did not follow the led suit holds none of it; under
//! sevens, a seat that played a tile so far from 7 holds none nearer. The
//! search bots sample deals within it, as the placing games' `Knowledge`
//! does with a pass or a draw.

use crate::rules::game::HistoryEntry;
use crate::rules::moves::{Action, Seat};
use crate::rules::tile::{Tile, TileSet};

use super::hand::TrickHand;

use super::contract::Contract;
use super::hand::MAX_SEATS;
use super::suit::{MAX_PIP, Suits, from_seven};

/// The tiles each seat has shown it does not hold, from `tricks`: each
/// trick's tiles with their seats, in the order played (the one in
/// progress last). (Played tiles are everyone's to rule out as well; these
/// are what the play says beyond them.)
#[must_use]
pub fn shown_void<'a>(
    suits: Suits,
    tricks: impl IntoIterator<Item = &'a [(Seat, Tile)]>,
) -> [TileSet; MAX_SEATS] {
    let mut void = [TileSet::EMPTY; MAX_SEATS];
    let sevens = suits.contract() == Contract::Sevens;
    for trick in tricks {
        let Some(&(_, lead)) = trick.first() else {
            continue;
        };
        for &(seat, tile) in trick {
            let Some(held) = void.get_mut(usize::from(seat)) else {
                continue;
            };
            let lacks = if sevens {
                // Every seat, the leader too, plays a tile nearest 7.
                nearer_seven_than(tile)
            } else {
                match suits.led_by(lead) {
                    Some(suit) if !suits.belongs(tile, suit) => suits.suit_tiles(suit),
                    _ => TileSet::EMPTY,
                }
            };
            *held = held.or(lacks);
        }
    }
    void
}

/// The tiles each seat of `hand` has shown it does not hold, from the
/// tricks `history` (the hand's moves) played: [`shown_void`] under the
/// hand's contract, none before it is named.
#[must_use]
pub fn voids_in(
    hand: &TrickHand,
    history: impl IntoIterator<Item = HistoryEntry>,
) -> [TileSet; MAX_SEATS] {
    let Some(contract) = hand.contract() else {
        return [TileSet::EMPTY; MAX_SEATS];
    };
    let rules = hand.rules();
    let suits = Suits::new(contract, rules.follow_me_doubles, rules.nello_doubles);
    let (tricks, _) = hand.taken();
    let size = tricks.len() - usize::from(hand.sits_out().is_some());
    let played: Vec<(Seat, Tile)> = played_to_tricks(history).collect();
    shown_void(suits, played.chunks(size.max(1)))
}

/// The tiles a hand's moves (`history`) played to tricks.
pub fn played_tiles(history: impl IntoIterator<Item = HistoryEntry>) -> TileSet {
    played_to_tricks(history).map(|(_, tile)| tile).collect()
}

/// The tiles a hand's moves (`history`) played to tricks, with their
/// seats, in the order played.
pub fn played_to_tricks(
    history: impl IntoIterator<Item = HistoryEntry>,
) -> impl Iterator<Item = (Seat, Tile)> {
    history
        .into_iter()
        .filter_map(|entry| match entry.mv.action {
            Action::Trick(tile) => Some((entry.mv.seat, tile)),
            _ => None,
        })
}

/// The tiles nearer 7 pips than `tile`.
fn nearer_seven_than(tile: Tile) -> TileSet {
    let distance = from_seven(tile);
    TileSet::full(MAX_PIP)
        .iter()
        .filter(|&other| from_seven(other) < distance)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tricks::contract::DoublesRank;

    fn suits(contract: Contract) -> Suits {
        Suits::new(contract, DoublesRank::High, DoublesRank::OwnSuit)
    }

    #[test]
    fn a_seat_that_does_not_follow_holds_none_of_the_led_suit() {
        // Fives are trumps; 6-4 leads sixes; seat 1 plays 3-2.
        let fives = suits(Contract::Trumps(5));
        let trick = [
            (0, Tile::new(6, 4)),
            (1, Tile::new(3, 2)),
            (2, Tile::new(6, 6)),
            (3, Tile::new(5, 0)),
        ];
        let void = shown_void(fives, [&trick[..]]);
        // Sixes but 6-5, a trump: seat 1 and seat 3 (trumped) hold none.
        let sixes: TileSet = (0..=6)
            .filter(|&n| n != 5)
            .map(|n| Tile::new(6, n))
            .collect();
        assert_eq!(void[1], sixes);
        assert_eq!(void[3], sixes);
        assert!(void[0].is_empty() && void[2].is_empty());
    }

    #[test]
    fn a_trump_led_is_followed_by_trumps_only() {
        let fives = suits(Contract::Trumps(5));
        let trick = [(2, Tile::new(5, 1)), (3, Tile::new(6, 1))];
        let void = shown_void(fives, [&trick[..]]);
        assert_eq!(void[3], TileSet::showing(5).and(TileSet::full(6)));
    }

    #[test]
    fn under_sevens_a_seat_holds_nothing_nearer_7_than_it_played() {
        let trick = [(0, Tile::new(4, 3)), (1, Tile::new(6, 6))];
        let void = shown_void(suits(Contract::Sevens), [&trick[..]]);
        assert!(void[0].is_empty(), "distance 0: nothing is nearer");
        // 6-6 is 5 from 7: seat 1 holds nothing 0 to 4 from 7.
        assert!(void[1].contains(Tile::new(5, 2)) && void[1].contains(Tile::new(2, 1)));
        // 1-1 and 6-6 are 5 from 7 too, 1-0 is 6: none is nearer.
        for tile in [Tile::new(1, 1), Tile::new(6, 6), Tile::new(1, 0)] {
            assert!(!void[1].contains(tile), "{tile}");
        }
    }
}

#[cfg(test)]
mod plunges {
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;

    use crate::rules::tricks::auction::{Bid, Bidding};
    use crate::rules::tricks::options::TrickOptions;
    use crate::rules::{Action, Game, Move, Rules};

    /// After another seat's plunge (four doubles held), the seats that did
    /// not bid it still sample deals: the plunger is dealt his doubles.
    #[test]
    fn deals_after_a_plunge_give_the_plunger_his_doubles() {
        let mut options = TrickOptions::texas42();
        options.hand.bidding = Bidding::Texas42 {
            plunge: true,
            splash: false,
        };
        let rules = Rules::tricks(options, 7);
        let mut checked = 0;
        for seed in 0..400 {
            let (mut game, _) = Game::new("t", rules, 4, seed).expect("deals");
            let plunge = game
                .legal_moves()
                .into_iter()
                .find(|mv| matches!(mv.action, Action::Bid(Bid::Plunge(_))));
            let Some(plunge) = plunge else {
                continue;
            };
            game.play(plunge).expect("legal");
            while game
                .trick_hand()
                .is_some_and(|hand| hand.auction().end().is_none())
            {
                let seat = game.to_act();
                game.play(Move::pass(seat)).expect("a pass");
            }
            // Each other seat but the plunger samples.
            for seat in (0..4).filter(|&seat| seat != plunge.seat) {
                let view = game.view(seat).expect("seat");
                let knowledge = view.knowledge();
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let world = knowledge
                    .sample(&mut rng)
                    .expect("a deal consistent with the plunge");
                let doubles = world.hand(plunge.seat).and(crate::rules::TileSet::DOUBLES);
                assert!(doubles.len() >= 4, "{doubles:?}");
            }
            checked += 1;
            if checked == 5 {
                break;
            }
        }
        assert_eq!(checked, 5);
    }
}
