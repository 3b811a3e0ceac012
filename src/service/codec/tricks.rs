//! A trick game's table (`TrickTable`) in both state forms: written whole
//! for a frontend (the auction, the contract, the trick in progress with
//! its led suit and what wins it so far, what each seat has won); read
//! back only for Moon's widow as dealt, everything else following from
//! the hand's history (the checked constructor replays it).

use crate::proto;
use crate::rules::Tile;
use crate::rules::tricks::hand::{Stage, TrickHand};
use crate::rules::tricks::settle::Verdict;
use crate::rules::tricks::suit::Suit;
use crate::service::error::ApiError;

use super::wire::{
    decode_optional_tile, decode_tile_index, encode_bid, encode_contract, encode_tile,
};

/// The hand's stage on the wire.
const fn encode_stage(stage: Stage) -> proto::TrickStage {
    match stage {
        Stage::Bidding => proto::TrickStage::Bidding,
        Stage::Naming => proto::TrickStage::Naming,
        Stage::Discarding => proto::TrickStage::Discarding,
        Stage::Playing => proto::TrickStage::Playing,
        Stage::Over => proto::TrickStage::Over,
    }
}

/// A suit on the wire.
fn encode_suit(suit: Suit) -> proto::TrickSuit {
    use proto::trick_suit::Suit as Wire;
    proto::TrickSuit {
        suit: Some(match suit {
            Suit::Trumps => Wire::Trumps(true),
            Suit::Doubles => Wire::Doubles(true),
            Suit::Number(number) => Wire::Number(u32::from(number)),
        }),
    }
}

/// The table of `hand`; `with_widow`: a complete state's (Moon's widow as
/// dealt), not a seat's view.
#[must_use]
pub fn encode_trick_table(hand: &TrickHand, with_widow: bool) -> proto::TrickTable {
    let standing = hand.auction().standing();
    let (leader, trick) = hand.trick();
    let (tricks, points) = hand.taken();
    proto::TrickTable {
        shaker: u32::from(hand.shaker()),
        widow: hand.dealt_hands().1.filter(|_| with_widow).map(encode_tile),
        stage: encode_stage(hand.stage()).into(),
        auction: hand
            .calls()
            .map(|(seat, bid)| proto::AuctionCall {
                seat: u32::from(seat),
                bid: bid.map(encode_bid),
            })
            .collect(),
        bidder: standing.map(|(seat, _)| u32::from(seat)),
        bid: standing.map(|(_, bid)| encode_bid(bid)),
        declarer: hand.declarer().map(u32::from),
        contract: hand.contract().map(encode_contract),
        sits_out: hand.sits_out().map(u32::from),
        leader: u32::from(leader),
        trick: trick.iter().copied().map(encode_tile).collect(),
        led: hand.led().map(encode_suit),
        winning: hand.winning().map(u32::from),
        tricks_won: tricks.iter().copied().map(u32::from).collect(),
        points_won: points.iter().copied().map(u32::from).collect(),
        made: hand.verdict().map(|verdict| verdict == Verdict::Made),
    }
}

/// Moon's widow as a readable state at `prefix` names it.
///
/// # Errors
/// `INVALID_ARGUMENT` for a tile that is none.
pub fn decode_widow(
    table: Option<&proto::TrickTable>,
    prefix: &str,
) -> Result<Option<Tile>, ApiError> {
    let widow = table.and_then(|table| table.widow.as_ref());
    decode_optional_tile(widow, &|| format!("{prefix}.tricks.widow"))
}

/// Moon's widow as a packed state at `prefix` names it.
///
/// # Errors
/// `INVALID_ARGUMENT` for an index that is no tile.
pub fn decode_packed_widow(widow: Option<u32>, prefix: &str) -> Result<Option<Tile>, ApiError> {
    widow
        .map(|index| decode_tile_index(index, &|| format!("{prefix}.widow")))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::history_entry::Action as WireAction;
    use crate::rules::tricks::options::TrickOptions;
    use crate::rules::{Action, Game, Rules};
    use crate::service::codec::{
        decode_packed, decode_state, encode_packed, encode_state, encode_view,
    };

    /// A match of `options` to `target` played from `seed`, the seat to
    /// act choosing its last legal move (the highest bid, and so on),
    /// passing now and then; every state on the way.
    fn states(options: TrickOptions, target: u32, players: u8, seed: u64) -> Vec<Game> {
        let rules = Rules::tricks(options, target);
        let (mut game, _) = Game::new("tricks", rules, players, seed).expect("valid");
        let mut all = vec![game.clone()];
        let mut turn = seed;
        while game.outcome().is_none() && all.len() < 400 {
            let moves = game.legal_moves();
            turn = turn.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let mv = moves[(turn >> 33) as usize % moves.len()];
            game.play(mv).expect("legal");
            all.push(game.clone());
        }
        all
    }

    #[test]
    fn every_state_of_both_games_round_trips_through_both_forms() {
        for (options, target, players) in [
            (TrickOptions::texas42(), 7, 4),
            (TrickOptions::moon(), 21, 3),
        ] {
            for game in states(options, target, players, 11) {
                let readable = encode_state(&game);
                assert_eq!(readable.format_version, 3);
                assert_eq!(decode_state(Some(&readable), "state").as_ref(), Ok(&game));
                let packed = encode_packed(&game);
                assert_eq!(packed.history.len(), 3 * game.history().len());
                assert_eq!(decode_packed(&packed, "state_token").as_ref(), Ok(&game));
            }
        }
    }

    #[test]
    fn a_view_shows_neither_the_widow_nor_another_seats_discard() {
        let mut seen_discard = false;
        for game in states(TrickOptions::moon(), 21, 3, 5) {
            let state = encode_state(&game);
            let table = state.tricks.as_ref().expect("a trick table");
            assert!(table.widow.is_some(), "the state holds the widow");
            for seat in 0..3 {
                let view = encode_view(game.view(seat).expect("a seat"));
                let table = view.tricks.as_ref().expect("a trick table");
                assert!(table.widow.is_none());
                for (entry, wire) in game.history().iter().zip(&view.history) {
                    if let (Action::Discard(_), Some(WireAction::Discard(discard))) =
                        (entry.mv.action, &wire.action)
                    {
                        seen_discard = true;
                        assert_eq!(discard.tile.is_some(), entry.mv.seat == seat);
                    }
                }
            }
        }
        assert!(seen_discard, "a discard was seen");
    }

    #[test]
    fn a_state_that_play_cannot_reach_is_refused_naming_the_field() {
        let game = states(TrickOptions::texas42(), 7, 4, 3)
            .into_iter()
            .find(|game| game.history().len() > 6)
            .expect("a hand under way");
        let mut state = encode_state(&game);
        // A tile moved from one hand to another: seat 0 was dealt 8.
        let tile = state.hands[1].tiles.pop().expect("a tile");
        state.hands[0].tiles.push(tile);
        let error = decode_state(Some(&state), "state").expect_err("refused");
        assert!(error.field.starts_with("state.hands"), "{error:?}");
        // A widow at Texas 42.
        let mut state = encode_state(&game);
        if let Some(table) = state.tricks.as_mut() {
            table.widow = Some(encode_tile(Tile::new(0, 0)));
        }
        let error = decode_state(Some(&state), "state").expect_err("refused");
        assert_eq!(error.field, "state.tricks.widow");
        // The leader of the hand bids first: another leader, another
        // auction, which the history's first bid does not follow.
        let mut state = encode_state(&game);
        state.hand_leader = (state.hand_leader + 1) % 4;
        let error = decode_state(Some(&state), "state").expect_err("refused");
        assert_eq!(error.field, "state.history[0]");
    }
}
