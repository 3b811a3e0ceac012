//! The checked constructor's steps for a trick game (docs/design/families.md):
//! a state's hand must be what its moves make of its deal. The deal is
//! rebuilt from the state (each seat's tiles with those it played to
//! tricks or laid away given back, Moon's widow taken back from its
//! bidder), every tile of the game's set exactly once; the shaker sits on
//! the right of the hand's leader, who bids first; then every move of the hand is
//! replayed as the rules check it. What the replay ends with (the seat to
//! act, a hand still in play, or the hand that ended the match) must be
//! the state, or the state is refused naming the first difference.

use crate::rules::deal::{MAX_SEATS, hand_key};
use crate::rules::errors::{PlayError, SetupError, TablePart, TilePlace};
use crate::rules::events::Outcome;
use crate::rules::family::Family;
use crate::rules::game::Game;
use crate::rules::moves::{Action, Seat};
use crate::rules::setup::{Setup, TileCensus};
use crate::rules::tile::TileSet;

use super::auction::MOON_POINTS;
use super::deal::{HAND_TILES, tile_set};
use super::hand::{Stage, TrickHand};
use super::trick_game::match_hands;

impl Game {
    /// The steps of [`Game::from_setup`] for a trick game, after the
    /// seats, rules and counts are checked: `to_act` and `hand_leader` the
    /// state's seats.
    pub(in crate::rules) fn from_trick_setup(
        setup: Setup,
        players: u8,
        (to_act, hand_leader): (Seat, Seat),
    ) -> Result<Game, SetupError> {
        let rules = setup.rules;
        let Some(options) = rules.tricks else {
            return Err(SetupError::Table(TablePart::Missing {
                rules: rules.table,
                found: None,
            }));
        };
        let has_line = setup.lead.is_some()
            || setup.spinner.is_some()
            || [&setup.left, &setup.right, &setup.up, &setup.down]
                .iter()
                .any(|arm| !arm.is_empty());
        if has_line || setup.table.is_some() {
            return Err(SetupError::Table(TablePart::Missing {
                rules: rules.table,
                found: setup.table.as_ref().map(crate::rules::table::Table::kind),
            }));
        }
        if !setup.boneyard.is_empty() {
            return Err(SetupError::TrickBoneyard {
                tiles: setup.boneyard.len(),
            });
        }
        if setup.required_lead.is_some() {
            return Err(SetupError::ForcedLeadByLot);
        }
        if options.is_moon() {
            check_moon_scores(&setup)?;
        }
        if setup.drew_this_turn {
            return Err(SetupError::DrawNotRecordable);
        }
        let moon = options.is_moon();
        if setup.widow.is_some() != moon {
            return Err(SetupError::Widow { moon });
        }
        let dealt = rebuild_deal(&setup, players, moon)?;
        let key = hand_key(setup.seed);
        // The hand's leader bids first: the shaker sits on his right.
        let shaker = (hand_leader + players - 1) % players;
        let mut hand = TrickHand::dealt(
            options.hand,
            shaker,
            &dealt[..usize::from(players)],
            setup.widow,
        );
        let last = setup.history.len().saturating_sub(1);
        for (index, entry) in setup.history.iter().enumerate() {
            let mv = entry.mv;
            if mv.seat >= players {
                return Err(SetupError::HistoryMove {
                    index,
                    error: PlayError::SeatOutOfRange {
                        seat: mv.seat,
                        players,
                    },
                });
            }
            if hand.stage() == Stage::Over {
                return Err(SetupError::HandOver {
                    index: index.saturating_sub(1),
                });
            }
            if let Err(error) = hand.play(mv.seat, mv.action) {
                return Err(SetupError::HistoryMove {
                    index,
                    error: PlayError::Trick(error),
                });
            }
        }
        let over = hand.stage() == Stage::Over;
        if over && setup.outcome.is_none() {
            // A hand over is scored and the next one shaken at once.
            return Err(SetupError::HandOver { index: last });
        }
        if !over && setup.outcome.is_some() {
            return Err(SetupError::Table(TablePart::Outcome));
        }
        if let Some(seat) = hand.to_act().filter(|&seat| seat != to_act) {
            return Err(SetupError::HistoryToAct { seat });
        }
        let mut scores = [0; MAX_SEATS];
        for (slot, &score) in scores.iter_mut().zip(&setup.scores) {
            *slot = score;
        }
        let hands = match_hands(&hand);
        let bidder = hand.auction().standing().map(|(seat, _)| seat);
        let game = Game {
            variant: setup.variant,
            rules,
            players,
            seed: setup.seed,
            hand_key: key,
            hand_number: setup.hand_number,
            hands,
            boneyard: Vec::new(),
            scores,
            to_act,
            hand_leader,
            required_lead: None,
            drew_this_turn: false,
            outcome: setup.outcome,
            history: setup.history,
            digest: setup.digest,
            family: Family::Tricks(Box::new(hand)),
        };
        // A match in play has no winner yet; a finished one is won (or
        // drawn) as its scores say, or ended at the last hand a match may
        // last.
        let ends = game.trick_match_outcome(options, bidder);
        match (game.outcome, ends) {
            (None, None) => Ok(game),
            (None, Some(Outcome::Winner(side))) => Err(SetupError::TargetReachedInPlay { side }),
            (None, Some(Outcome::Draw)) => Err(SetupError::TargetReachedInPlay { side: 0 }),
            (Some(outcome), Some(ends)) if outcome == ends => Ok(game),
            (Some(outcome), None)
                if game.hand_number >= crate::rules::game::MAX_HANDS
                    && outcome == game.best_score_wins() =>
            {
                Ok(game)
            }
            (Some(_), _) => Err(SetupError::Table(TablePart::Outcome)),
        }
    }
}

/// Moon's scores are no lower than its hands can take a seat: a set
/// bidder loses at most the moon's worth a hand, over the hands scored
/// (those before this one, and this one too once the match is over).
fn check_moon_scores(setup: &Setup) -> Result<(), SetupError> {
    let hands = setup
        .hand_number
        .saturating_sub(u32::from(setup.outcome.is_none()));
    let floor = -i64::from(MOON_POINTS) * i64::from(hands);
    match setup
        .scores
        .iter()
        .position(|&score| i64::from(score) < floor)
    {
        Some(side) => Err(SetupError::ScoreBelowReach {
            side,
            score: setup.scores.get(side).copied().unwrap_or(0),
            floor,
            hands,
        }),
        None => Ok(()),
    }
}

/// Each seat's tiles as dealt: the tiles it holds, those it played to
/// tricks and the one it laid away, less Moon's widow where its bidder
/// took it; every tile of the game's set exactly once across the hands,
/// the history and an untaken widow, and seven tiles a seat.
fn rebuild_deal(
    setup: &Setup,
    players: u8,
    moon: bool,
) -> Result<[TileSet; MAX_SEATS], SetupError> {
    let mut census = TileCensus {
        max_pip: setup.rules.max_pip,
        seen: TileSet::EMPTY,
    };
    let mut dealt = [TileSet::EMPTY; MAX_SEATS];
    for ((seat, tiles), hand) in setup.hands.iter().enumerate().zip(&mut dealt) {
        for (index, &tile) in tiles.iter().enumerate() {
            census.count(tile, || TilePlace::Hand { seat, index })?;
            hand.insert(tile);
        }
    }
    let mut named = false;
    let mut bidder = None;
    for (index, entry) in setup.history.iter().enumerate() {
        let seat = usize::from(entry.mv.seat);
        match entry.mv.action {
            Action::Trick(tile) | Action::Discard(tile) => {
                let discard = matches!(entry.mv.action, Action::Discard(_));
                census.count(tile, || {
                    if discard {
                        TilePlace::Discard { index }
                    } else {
                        TilePlace::Trick { index }
                    }
                })?;
                if let Some(hand) = dealt.get_mut(seat) {
                    hand.insert(tile);
                }
            }
            Action::Bid(_) => bidder = Some(seat),
            Action::Name(_) => named = true,
            Action::Pass | Action::Play { .. } | Action::Draw | Action::EndTurn => {}
        }
    }
    if let Some(widow) = setup.widow {
        match bidder.filter(|_| named) {
            // The bidder took it: it is among his tiles, which were
            // dealt without it.
            Some(seat) => {
                if let Some(hand) = dealt.get_mut(seat) {
                    if !hand.remove(widow) {
                        return Err(SetupError::WidowNotTaken { seat, tile: widow });
                    }
                }
            }
            None => census.count(widow, || TilePlace::Widow)?,
        }
    }
    let set = tile_set(moon);
    if let Some(tile) = census.seen.minus(set).iter().next() {
        return Err(SetupError::NotInSet {
            at: where_is(setup, tile),
            tile,
        });
    }
    let missing = set.minus(census.seen);
    if !missing.is_empty() {
        return Err(SetupError::TileMissing {
            tiles: missing,
            boneyard: 0,
        });
    }
    for (seat, hand) in dealt.iter().enumerate().take(usize::from(players)) {
        if hand.len() as usize != HAND_TILES {
            return Err(SetupError::DealtHand {
                seat,
                tiles: hand.len(),
            });
        }
    }
    Ok(dealt)
}

/// Where in the state `tile` lies (a hand, the history, or the widow).
fn where_is(setup: &Setup, tile: crate::rules::tile::Tile) -> TilePlace {
    for (seat, tiles) in setup.hands.iter().enumerate() {
        if let Some(index) = tiles.iter().position(|&t| t == tile) {
            return TilePlace::Hand { seat, index };
        }
    }
    for (index, entry) in setup.history.iter().enumerate() {
        match entry.mv.action {
            Action::Trick(t) if t == tile => return TilePlace::Trick { index },
            Action::Discard(t) if t == tile => return TilePlace::Discard { index },
            _ => {}
        }
    }
    TilePlace::Widow
}
