//! A trick game's table (`TrickTable`) in both state forms: written whole
//! for a frontend (the auction, the contract, the trick in progress with
//! its led suit and what wins it so far, what each seat has won); read
//! back for Moon's widow as dealt, everything else following from the
//! hand's history (the checked constructor replays it) and, where given,
//! checked against it.

use crate::proto;
use crate::proto::ErrorReason;
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
    let (_, trick) = hand.trick();
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
        // (Unset, read as 0, while the auction runs: nobody leads yet.)
        leader: hand.trick_leader().map_or(0, u32::from),
        trick: trick.iter().copied().map(encode_tile).collect(),
        led: hand.led().map(encode_suit),
        winning: hand.winning().map(u32::from),
        tricks_won: tricks.iter().copied().map(u32::from).collect(),
        points_won: points.iter().copied().map(u32::from).collect(),
        made: hand.verdict().map(|verdict| verdict == Verdict::Made),
    }
}

/// Checks the table a readable state at `prefix` gave against the one its
/// hand's history makes: left empty but for the widow, or as the server
/// writes it.
///
/// # Errors
/// `INVALID_ARGUMENT` (`TRICK_TABLE_MISMATCH`) naming the first part that
/// differs.
pub fn check_trick_table(
    given: &proto::TrickTable,
    hand: &TrickHand,
    prefix: &str,
) -> Result<(), ApiError> {
    let left_empty = proto::TrickTable {
        widow: given.widow,
        ..proto::TrickTable::default()
    };
    if *given == left_empty {
        return Ok(());
    }
    let made = encode_trick_table(hand, true);
    // A state written before the declarer and the leader were set only
    // once true named the first bidder as both from the first bid (the
    // leader until the contract was named): read it as it was written.
    let first_bidder = (hand.shaker() + 1) % hand.players();
    let earlier = proto::TrickTable {
        declarer: match hand.stage() {
            Stage::Bidding => made.bidder.map(|_| u32::from(first_bidder)),
            _ => made.declarer,
        },
        leader: if hand.trick_leader().is_none()
            || matches!(hand.stage(), Stage::Naming | Stage::Discarding)
        {
            u32::from(first_bidder)
        } else {
            made.leader
        },
        ..made.clone()
    };
    if *given == earlier {
        return Ok(());
    }
    let parts = [
        ("shaker", given.shaker == made.shaker),
        ("widow", given.widow == made.widow),
        ("stage", given.stage == made.stage),
        ("auction", given.auction == made.auction),
        ("bidder", given.bidder == made.bidder),
        ("bid", given.bid == made.bid),
        ("declarer", given.declarer == made.declarer),
        ("contract", given.contract == made.contract),
        ("sits_out", given.sits_out == made.sits_out),
        ("leader", given.leader == made.leader),
        ("trick", given.trick == made.trick),
        ("led", given.led == made.led),
        ("winning", given.winning == made.winning),
        ("tricks_won", given.tricks_won == made.tricks_won),
        ("points_won", given.points_won == made.points_won),
        ("made", given.made == made.made),
    ];
    match parts.iter().find(|(_, same)| !same) {
        None => Ok(()),
        Some((part, _)) => Err(ApiError::invalid(
            ErrorReason::TrickTableMismatch,
            format!("{prefix}.tricks.{part}"),
            "the trick table given does not follow from the hand's history; \
             leave it empty (but for Moon's widow) or send it as the server wrote it",
        )),
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
    use crate::rules::tricks::random_matches::every_combination;
    use crate::rules::{Action, Game, Rules};
    use crate::service::codec::{
        decode_packed, decode_state, encode_packed, encode_state, encode_view,
    };

    /// A match of `options` to `target` played from `seed`, the seat to
    /// act choosing its last legal move (the highest bid, and so on),
    /// passing now and then; every state on the way.
    fn states(options: TrickOptions, target: u32, players: u8, seed: u64) -> Vec<Game> {
        states_up_to(options, target, players, seed, 400)
    }

    /// [`states`], at most `limit` of them.
    fn states_up_to(
        options: TrickOptions,
        target: u32,
        players: u8,
        seed: u64,
        limit: usize,
    ) -> Vec<Game> {
        let rules = Rules::tricks(options, target);
        let (mut game, _) = Game::new("tricks", rules, players, seed).expect("valid");
        let mut all = vec![game.clone()];
        let mut turn = seed;
        while game.outcome().is_none() && all.len() < limit {
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

    /// Any state pips hands out, pips accepts, whatever the options: a
    /// match of every combination the rules take, each state through both
    /// forms (and the readable one with its table left empty but for the
    /// widow).
    #[test]
    fn states_of_every_option_combination_round_trip_through_both_forms() {
        let combinations = every_combination();
        assert!(combinations.len() > 300, "{}", combinations.len());
        let mut checked = 0;
        for (i, &(options, target)) in combinations.iter().enumerate() {
            let players = if options.is_moon() { 3 } else { 4 };
            for game in states_up_to(options, target, players, i as u64, 120) {
                checked += 1;
                let mut readable = encode_state(&game);
                assert_eq!(
                    decode_state(Some(&readable), "state").as_ref(),
                    Ok(&game),
                    "{options:?}"
                );
                let packed = encode_packed(&game);
                assert_eq!(
                    decode_packed(&packed, "state_token").as_ref(),
                    Ok(&game),
                    "{options:?}"
                );
                if let Some(table) = readable.tricks.as_mut() {
                    *table = proto::TrickTable {
                        widow: table.widow,
                        ..proto::TrickTable::default()
                    };
                }
                assert_eq!(decode_state(Some(&readable), "state").as_ref(), Ok(&game));
            }
        }
        eprintln!("{checked} states");
        assert!(checked > 20_000, "{checked} states");
    }

    /// A state of `options` whose history has at least `moves` moves and
    /// satisfies `wanted`.
    fn a_state(
        options: TrickOptions,
        target: u32,
        players: u8,
        wanted: impl Fn(&Game) -> bool,
    ) -> Game {
        (0..200)
            .flat_map(|seed| states(options, target, players, seed))
            .find(|game| game.outcome().is_none() && wanted(game))
            .expect("a state as wanted")
    }

    /// The refusal of `state`: its reason and field.
    fn refusal(state: &proto::GameState) -> (ErrorReason, String) {
        let error = decode_state(Some(state), "state").expect_err("refused");
        (error.reason, error.field)
    }

    #[test]
    fn a_trick_table_given_otherwise_than_the_history_makes_it_is_refused_naming_the_part() {
        let game = a_state(TrickOptions::texas42(), 7, 4, |game| {
            game.trick_hand().is_some_and(|hand| {
                hand.taken().1.iter().any(|&p| p > 0) && !hand.trick().1.is_empty()
            })
        });
        let state = encode_state(&game);
        assert_eq!(decode_state(Some(&state), "state").as_ref(), Ok(&game));
        /// A change to a table.
        type Tamper = fn(&mut proto::TrickTable);
        let cases: [(&str, Tamper); 6] = [
            ("points_won", |t| t.points_won[0] += 1),
            ("tricks_won", |t| t.tricks_won.reverse()),
            ("winning", |t| t.winning = t.winning.map(|w| (w + 1) % 4)),
            ("leader", |t| t.leader = (t.leader + 1) % 4),
            ("stage", |t| t.stage = proto::TrickStage::Bidding as i32),
            ("contract", |t| t.contract = None),
        ];
        for (part, tamper) in cases {
            let mut state = state.clone();
            if let Some(table) = state.tricks.as_mut() {
                tamper(table);
            }
            assert_eq!(
                refusal(&state),
                (
                    ErrorReason::TrickTableMismatch,
                    format!("state.tricks.{part}")
                ),
                "{part}"
            );
        }
    }

    /// A state written before the declarer and the leader were set only
    /// once true (both the first bidder from the first bid, the leader
    /// until the contract was named) is read; another seat there is not.
    #[test]
    fn a_table_written_before_the_declarer_was_set_only_once_true_is_read() {
        for stage in [Stage::Bidding, Stage::Naming] {
            let game = a_state(TrickOptions::texas42(), 7, 4, |game| {
                game.trick_hand().is_some_and(|hand| {
                    hand.stage() == stage && hand.auction().standing().is_some()
                })
            });
            let hand = game.trick_hand().expect("a trick hand");
            let first = u32::from((hand.shaker() + 1) % 4);
            let mut state = encode_state(&game);
            let table = state.tricks.as_mut().expect("a table");
            if stage == Stage::Bidding {
                assert_eq!((table.declarer, table.leader), (None, 0));
                table.declarer = Some(first);
            } else {
                assert_eq!(table.leader, table.declarer.expect("a declarer"));
            }
            table.leader = first;
            assert_eq!(decode_state(Some(&state), "state").as_ref(), Ok(&game));
            let table = state.tricks.as_mut().expect("a table");
            let declarer = table.declarer;
            table.leader = (0..4)
                .find(|&seat| seat != first && Some(seat) != declarer)
                .expect("another seat");
            assert_eq!(refusal(&state).0, ErrorReason::TrickTableMismatch);
        }
    }

    #[test]
    fn a_moon_state_whose_bidder_lacks_the_widow_he_took_is_refused() {
        let game = a_state(TrickOptions::moon(), 21, 3, |game| {
            game.trick_hand()
                .is_some_and(|hand| hand.stage() == Stage::Playing && hand.widow().is_none())
        });
        let hand = game.trick_hand().expect("a trick hand");
        let bidder = hand.auction().standing().expect("a bidder").0;
        let widow = hand.dealt_hands().1.expect("a widow");
        let mut state = encode_state(&game);
        // Another tile of the set named the widow: it is not among the
        // bidder's tiles, and the real widow is nowhere.
        let other = state.hands[usize::from((bidder + 1) % 3)].tiles[0];
        if let Some(table) = state.tricks.as_mut() {
            table.widow = Some(other);
        }
        assert_ne!(Some(other), Some(encode_tile(widow)));
        assert_eq!(
            refusal(&state),
            (
                ErrorReason::InconsistentState,
                "state.tricks.widow".to_owned()
            )
        );
        // A Moon state without its widow.
        let mut state = encode_state(&game);
        if let Some(table) = state.tricks.as_mut() {
            table.widow = None;
        }
        assert_eq!(refusal(&state).1, "state.tricks.widow");
    }

    #[test]
    fn a_history_the_rules_do_not_allow_is_refused_at_its_move() {
        let game = a_state(TrickOptions::texas42(), 7, 4, |game| {
            game.trick_hand()
                .is_some_and(|hand| hand.stage() == Stage::Playing && hand.trick().1.len() >= 2)
        });
        let base = encode_state(&game);
        let bids: Vec<usize> = game
            .history()
            .iter()
            .enumerate()
            .filter(|(_, entry)| matches!(entry.mv.action, Action::Bid(_)))
            .map(|(i, _)| i)
            .collect();
        // A bid not above the standing one: the first bid repeated later
        // is not open (or, the first bid made 29, no bid at all).
        let first_bid = *bids.first().expect("a bid");
        let mut state = base.clone();
        if let Some(WireAction::Bid(bid)) = state.history[first_bid].action.as_mut() {
            bid.bid = Some(proto::bid::Bid::Points(29));
        }
        assert_eq!(
            refusal(&state),
            (
                ErrorReason::InconsistentState,
                format!("state.history[{first_bid}]")
            )
        );
        // A tile played that its seat was never dealt twice over: the last
        // trick's tile swapped for a tile another seat holds.
        let last = base.history.len() - 1;
        let holder = (game.history()[last].mv.seat as usize + 1) % 4;
        let mut state = base.clone();
        let tile = state.hands[holder].tiles[0];
        state.history[last].action = Some(WireAction::Trick(tile));
        let (reason, _) = refusal(&state);
        assert_eq!(reason, ErrorReason::TileDuplicated);
        // A seat to act that the history does not give.
        let mut state = base.clone();
        state.to_act = (state.to_act + 1) % 4;
        assert_eq!(refusal(&state).1, "state.to_act");
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
