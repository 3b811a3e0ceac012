//! The checked constructor's steps for a train table: a state's table and
//! turn must be what the round's moves make of the round's start. The round
//! is rebuilt from its history (which a train table keeps whole from the
//! round's first move, drawn tiles named): the hands and boneyard at the
//! start are the present ones with each placed tile given back to its
//! placer and each drawn tile put back on the boneyard, the hub is the
//! round's, and every move is replayed as the rules check it. What the
//! replay ends with (hands, boneyard, trains with their markers and the
//! unsatisfied double, the seat to act, a draw this turn, scores and the
//! outcome of a finished match) must be the state, or the state is refused
//! naming the first difference.

use super::deal::MAX_SEATS;
use super::errors::{SetupError, TrainTablePart};
use super::game::Game;
use super::layout::Layout;
use super::moves::{Action, Seat};
use super::settle::pips_counted;
use super::setup::Setup;
use super::tile::{Tile, TileSet};
use super::train_game::{TurnState, hub_of_round};
use super::trains::Trains;

impl Game {
    /// The train-table steps of [`Game::from_setup`], after the seats,
    /// rules, counts and tile census are checked: `hands` the state's hands
    /// as sets, `to_act` and `hand_leader` its seats.
    pub(super) fn from_train_setup(
        setup: Setup,
        players: u8,
        hands: [TileSet; MAX_SEATS],
        (to_act, hand_leader): (Seat, Seat),
    ) -> Result<Game, SetupError> {
        let rules = setup.rules;
        if setup.hand_number > u32::from(rules.rounds) {
            return Err(SetupError::HandNumber {
                hand: setup.hand_number,
                max: u32::from(rules.rounds),
            });
        }
        let Some(given) = setup.trains.as_ref() else {
            return Err(SetupError::TrainTable(TrainTablePart::Missing));
        };
        let hub = hub_of_round(rules.max_pip, setup.hand_number);
        if given.hub() != hub
            || given.trains().count() != usize::from(players) + usize::from(rules.public_train)
        {
            return Err(SetupError::TrainTable(TrainTablePart::Hub { hub }));
        }
        // The round's start: tiles placed go back to their placers, drawn
        // ones back on the boneyard in the order they were drawn.
        // (A tile drawn and then placed is given back, then taken away.)
        let mut start = hands;
        let mut taken = [TileSet::EMPTY; MAX_SEATS];
        let mut drawn = Vec::new();
        for (index, entry) in setup.history.iter().enumerate() {
            let seat = usize::from(entry.mv.seat);
            match (entry.mv.action, entry.drawn) {
                (Action::Play { tile, .. }, _) => {
                    if let Some(hand) = start.get_mut(seat) {
                        hand.insert(tile);
                    }
                }
                (Action::Draw, Some(tile)) => {
                    if let Some(taken) = taken.get_mut(seat) {
                        taken.insert(tile);
                    }
                    drawn.push(tile);
                }
                (Action::Draw, None) => {
                    return Err(SetupError::TrainTable(TrainTablePart::DrawUnnamed {
                        index,
                    }));
                }
                (Action::Pass | Action::EndTurn, _) => {}
            }
        }
        for (hand, taken) in start.iter_mut().zip(taken) {
            *hand = hand.minus(taken);
        }
        let mut scores = [0; MAX_SEATS];
        for (slot, &score) in scores.iter_mut().zip(&setup.scores) {
            *slot = score;
        }
        if setup.outcome.is_some() {
            // A finished match's scores include its last round's pips.
            for (seat, score) in scores.iter_mut().enumerate().take(usize::from(players)) {
                let held = hands.get(seat).copied().unwrap_or(TileSet::EMPTY);
                *score = score
                    .saturating_sub(i32::try_from(pips_counted(&rules, held)).unwrap_or(i32::MAX));
            }
        }
        let mut boneyard: Vec<Tile> = setup.boneyard.iter().rev().copied().collect();
        boneyard.extend(drawn.iter().rev());
        let mut game = Game {
            variant: setup.variant,
            rules,
            players,
            seed: setup.seed,
            hand_key: super::deal::hand_key(setup.seed),
            hand_number: setup.hand_number,
            hands: start,
            boneyard,
            layout: Layout::default(),
            scores,
            to_act: hand_leader,
            hand_leader,
            required_lead: None,
            drew_this_turn: false,
            outcome: None,
            history: Vec::with_capacity(setup.history.len()),
            digest: setup.digest,
            table: rules.table_at_start(hub.high(), players),
            turn: TurnState::default(),
        };
        let last = setup.history.len().saturating_sub(1);
        for (index, entry) in setup.history.iter().enumerate() {
            if let Err(error) = game.check(entry.mv) {
                return Err(SetupError::TrainTable(TrainTablePart::Move {
                    index,
                    error,
                }));
            }
            game.play_unchecked(entry.mv);
            let round_over = game.hand_number != setup.hand_number || game.outcome.is_some();
            if round_over && (index != last || setup.outcome.is_none()) {
                return Err(SetupError::TrainTable(TrainTablePart::RoundOver { index }));
            }
        }
        // The replay's history is the state's (with its drawn tiles).
        game.history = setup.history;
        let differs = if game.outcome != setup.outcome {
            Some(TrainTablePart::Outcome)
        } else if setup.outcome.is_some() {
            (game.scores() != setup.scores.as_slice()).then_some(TrainTablePart::Scores)
        } else if game.hands != hands {
            Some(TrainTablePart::Hands)
        } else if game.boneyard.iter().rev().ne(setup.boneyard.iter()) {
            Some(TrainTablePart::Boneyard)
        } else if game.to_act != to_act {
            Some(TrainTablePart::ToAct { seat: game.to_act })
        } else if game.drew_this_turn != setup.drew_this_turn {
            Some(TrainTablePart::DrewThisTurn)
        } else {
            game.trains()
                .and_then(|built| table_difference(built, given))
        };
        match differs {
            Some(part) => Err(SetupError::TrainTable(part)),
            None => Ok(game),
        }
    }
}

/// The first way `given` differs from the table the moves `built`.
fn table_difference(built: &Trains, given: &Trains) -> Option<TrainTablePart> {
    for (index, ((id, built), (_, given))) in built.trains().zip(given.trains()).enumerate() {
        if built.tiles() != given.tiles() {
            return Some(TrainTablePart::Tiles { index, train: id });
        }
        if built.marker() != given.marker() {
            return Some(TrainTablePart::Marker {
                index,
                train: id,
                up: built.marker(),
            });
        }
    }
    (built.unsatisfied() != given.unsatisfied()).then_some(TrainTablePart::Unsatisfied {
        train: built.unsatisfied(),
    })
}
