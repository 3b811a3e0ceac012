//! The checked constructor's steps for a table that is not a line (trains,
//! a chicken foot): a state's table and turn must be what the round's moves
//! make of the round's start. The round is rebuilt from its history (which
//! such a table keeps whole from the round's first move, drawn tiles
//! named): the hands and boneyard at the start are the present ones with
//! each placed tile given back to its placer and each drawn tile put back
//! on the boneyard, the hub is the round's, and every move is replayed as
//! the rules check it. What the replay ends with (hands, boneyard, the
//! table — trains with their markers and the unsatisfied double, or a
//! foot's arms and what it waits for —, the seat to act, a draw this turn,
//! scores and the outcome of a finished match) must be the state, or the
//! state is refused naming the first difference.

use crate::rules::deal::MAX_SEATS;
use crate::rules::errors::{SetupError, TablePart};
use crate::rules::family::Family;
use crate::rules::foot::Foot;
use crate::rules::game::Game;
use crate::rules::moves::Seat;
use crate::rules::settle::pips_counted;
use crate::rules::setup::{Setup, taken_back};
use crate::rules::table::Table;
use crate::rules::tile::{Tile, TileSet};
use crate::rules::train_game::hub_of_round;
use crate::rules::trains::Trains;

impl Game {
    /// The steps of [`Game::from_setup`] for a table other than a line,
    /// after the seats, rules, counts, tile census and the table's kind
    /// are checked: `hands` the state's hands as sets, `to_act` and
    /// `hand_leader` its seats.
    pub(in crate::rules) fn from_table_setup(
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
        let Some(given) = setup.table.as_ref() else {
            return Err(SetupError::Table(TablePart::Missing {
                rules: rules.table,
                found: None,
            }));
        };
        let hub = hub_of_round(rules.max_pip, setup.hand_number);
        match given {
            Table::Trains(trains)
                if trains.hub() != hub
                    || trains.trains().count()
                        != usize::from(players) + usize::from(rules.public_train) =>
            {
                return Err(SetupError::Table(TablePart::Hub { hub }));
            }
            Table::Foot(foot) if foot.hub() != hub || foot.hub_arms() != rules.hub_arms => {
                return Err(SetupError::Table(TablePart::FootHub {
                    hub,
                    arms: rules.hub_arms,
                }));
            }
            Table::Trains(_) | Table::Foot(_) => {}
        }
        let (start, drawn) = taken_back(hands, &setup.history)?;
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
            hand_key: crate::rules::deal::hand_key(setup.seed),
            hand_number: setup.hand_number,
            hands: start,
            boneyard,
            scores,
            to_act: hand_leader,
            hand_leader,
            required_lead: None,
            drew_this_turn: false,
            outcome: None,
            history: Vec::with_capacity(setup.history.len()),
            digest: setup.digest,
            family: Family::at_start(&rules, rules.table_at_start(hub.high(), players)),
        };
        let last = setup.history.len().saturating_sub(1);
        for (index, entry) in setup.history.iter().enumerate() {
            if let Err(error) = game.check(entry.mv) {
                return Err(SetupError::HistoryMove { index, error });
            }
            game.play_unchecked(entry.mv);
            let round_over = game.hand_number != setup.hand_number || game.outcome.is_some();
            if round_over && (index != last || setup.outcome.is_none()) {
                return Err(SetupError::HandOver { index });
            }
        }
        // The replay's history is the state's (with its drawn tiles).
        game.history = setup.history;
        let table = |part| Some(SetupError::Table(part));
        let differs = if game.outcome != setup.outcome {
            table(TablePart::Outcome)
        } else if setup.outcome.is_some() {
            (game.scores() != setup.scores.as_slice())
                .then_some(SetupError::Table(TablePart::Scores))
        } else if game.hands != hands {
            table(TablePart::Hands)
        } else if game.boneyard.iter().rev().ne(setup.boneyard.iter()) {
            table(TablePart::Boneyard)
        } else if game.to_act != to_act {
            Some(SetupError::HistoryToAct { seat: game.to_act })
        } else if game.drew_this_turn != setup.drew_this_turn {
            Some(SetupError::HistoryDrewThisTurn)
        } else {
            match (game.table(), given) {
                (Some(Table::Trains(built)), Table::Trains(given)) => {
                    trains_difference(built, given).and_then(table)
                }
                (Some(Table::Foot(built)), Table::Foot(given)) => {
                    foot_difference(built, given).and_then(table)
                }
                (_, given) => table(TablePart::Missing {
                    rules: rules.table,
                    found: Some(given.kind()),
                }),
            }
        };
        match differs {
            Some(error) => Err(error),
            None => Ok(game),
        }
    }
}

/// The first way the trains `given` differ from those the moves `built`.
fn trains_difference(built: &Trains, given: &Trains) -> Option<TablePart> {
    for (index, ((id, built), (_, given))) in built.trains().zip(given.trains()).enumerate() {
        if built.tiles() != given.tiles() {
            return Some(TablePart::Tiles { index, train: id });
        }
        if built.marker() != given.marker() {
            return Some(TablePart::Marker {
                index,
                train: id,
                up: built.marker(),
            });
        }
    }
    (built.unsatisfied() != given.unsatisfied()).then_some(TablePart::Unsatisfied {
        train: built.unsatisfied(),
    })
}

/// The first way the chicken foot `given` differs from the one the moves
/// `built` (arm by arm: the order tiles were placed across arms is the
/// history's, not the table's).
fn foot_difference(built: &Foot, given: &Foot) -> Option<TablePart> {
    if built.arm_count() != given.arm_count() {
        return Some(TablePart::ArmCount {
            arms: built.arm_count(),
        });
    }
    for arm in 0..built.arm_count() {
        let Ok(at) = u8::try_from(arm) else {
            break;
        };
        if built.root(at) != given.root(at) || built.arm_tiles(at).ne(given.arm_tiles(at)) {
            return Some(TablePart::Arm { arm });
        }
    }
    (built.waiting() != given.waiting()).then_some(TablePart::Waiting {
        waiting: built.waiting(),
    })
}
