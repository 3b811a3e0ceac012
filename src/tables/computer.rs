//! Computer seats: after each accepted move, while a computer seat (or a
//! person's the computer took over) is to act, its move is chosen (by the
//! built-in bot at its level, on the engine's work pool within the
//! `SuggestMove` search cap, from what that seat may know only) and played
//! through the same commit as a person's, at the table's move number, so
//! that it can never be applied twice. A person whose time ran out is
//! moved for the same way (greedy), when the sweeper finds the turn due.

use std::sync::Arc;
use std::time::Instant;

use crate::bots::default_seed;
use crate::bots::{self, Budget, Level};
use crate::rules::{Game, Move, Seat};
use crate::service::ApiError;
use crate::service::pool::ConnectionId;

use super::Tables;
use super::settings::Settings;
use super::store::{SeatRow, TableRow};
use super::table::{By, COMPUTER, database, level_of, read_state};
use super::turn::{NextTurn, next_turn};

/// The work pool's account for computer seats' searches: no connection's
/// (connections are numbered from 1), so that they take one connection's
/// share of the pool, never a caller's.
const COMPUTERS: ConnectionId = ConnectionId(0);

/// Moves one computer seat may make in a row before it lets the table
/// rest (a match of computer seats is refused at creation, so a person
/// acts long before).
const MOST_IN_A_ROW: usize = 10_000;

impl Tables {
    /// Plays the computer seats of table `id` while one is to act, in the
    /// background.
    pub(super) fn play_computers(self: &Arc<Self>, id: String) {
        let tables = Arc::clone(self);
        tokio::spawn(async move {
            for _ in 0..MOST_IN_A_ROW {
                match tables.play_one_computer(&id).await {
                    Ok(true) => {}
                    Ok(false) => return,
                    Err(error) => {
                        if let Some(more) = crate::logs::TURNS.admit() {
                            tracing::warn!(message = %error.message, more, "a computer seat could not move");
                        }
                        return;
                    }
                }
            }
        });
    }

    /// Plays one move of the computer seat to act at table `id`, if one
    /// is; whether it did (or another move came first, so that the table
    /// is to be looked at again).
    pub(super) async fn play_one_computer(&self, id: &str) -> Result<bool, ApiError> {
        let Some(table) = self.store.table(id).await.map_err(|e| database(&e))? else {
            return Ok(false);
        };
        let seats = self.seat_rows(id).await?;
        self.play_turn(&table, &seats, false).await
    }

    /// Plays the turn of `table` (whose seats are `seats`) as it stands,
    /// at its number: a computer seat's move, or, when the turn is
    /// `overdue`, a person's whose timer ran out; whether one was to be
    /// played (committed, or another move came first).
    pub(super) async fn play_turn(
        &self,
        table: &TableRow,
        seats: &[SeatRow],
        overdue: bool,
    ) -> Result<bool, ApiError> {
        let game = read_state(&table.state)?;
        let settings = Settings::from_json(&table.settings);
        let Some(DueMove { seat, level, by }) = due_move(&game, seats, settings, overdue) else {
            return Ok(false);
        };
        let mv = self.choose(&game, seat, level).await?;
        let mut next = game;
        let events = next.play(mv)?.events;
        // Committed, or another move came first: either way, look again.
        self.commit(table, seats, mv, (next, events), by).await?;
        Ok(true)
    }

    /// The move `level` chooses for `seat`: a search on the work pool
    /// within the engine's cap (greedy's move when the pool has no room).
    async fn choose(&self, game: &Game, seat: Seat, level: Level) -> Result<Move, ApiError> {
        let no_move = || ApiError::internal("a computer seat to act has no move");
        let greedy = |game: &Game| {
            let view = game.view(seat).ok_or_else(no_move)?;
            bots::suggest(view, Level::Greedy, 0, unlimited())
                .map(|suggestion| suggestion.mv)
                .ok_or_else(no_move)
        };
        if !level.searches() {
            return quick_move(game, seat, level).ok_or_else(no_move);
        }
        let cap = self.engine.suggest_cap();
        let stop_at = Instant::now() + cap;
        let searched = game.clone();
        let search = self.engine.pool().run(COMPUTERS, stop_at, move || {
            let view = searched.view(seat).ok_or_else(no_move)?;
            let stop = || Instant::now() >= stop_at;
            let budget = Budget {
                playouts: bots::default_playouts(searched.rules()),
                stop: &stop,
            };
            bots::suggest(view, level, default_seed(&searched, seat), budget)
                .map(|suggestion| suggestion.mv)
                .ok_or_else(no_move)
        });
        match search.await {
            Ok(mv) => Ok(mv),
            // The pool had no room in time: greedy's move, at once.
            Err(_) => greedy(game),
        }
    }
}

/// A move the computer is to make at a table: whose, at what level, and
/// as whom it is recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DueMove {
    /// The seat to act.
    pub seat: Seat,
    /// The level it plays at (greedy for a person whose time ran out).
    pub level: Level,
    /// A computer seat's move (or a person's it took over), or a
    /// timeout's.
    pub by: By,
}

/// The move the computer is to make after `game` at a table whose seats
/// are `seats`, if any: a computer seat's (or a person's it took over),
/// or, when the turn is `overdue`, that of a person whose timer ran out.
#[must_use]
pub fn due_move(
    game: &Game,
    seats: &[SeatRow],
    settings: Settings,
    overdue: bool,
) -> Option<DueMove> {
    let seat = game.to_act();
    let level = seats
        .iter()
        .find(|row| row.seat == i64::from(seat) && row.kind == COMPUTER)
        .map_or(Level::Greedy, |row| level_of(row.level.as_deref()));
    let by = match next_turn(game, seats, settings) {
        NextTurn::Computer => By::Computer,
        NextTurn::TimedPerson(_) if overdue => By::Timeout,
        NextTurn::TimedPerson(_) | NextTurn::Person | NextTurn::Over => return None,
    };
    Some(DueMove { seat, level, by })
}

/// The move of a level that does not search (random, greedy), made at
/// once from what `seat` may know.
#[must_use]
pub fn quick_move(game: &Game, seat: Seat, level: Level) -> Option<Move> {
    let view = game.view(seat)?;
    let seed = default_seed(game, seat);
    bots::suggest(view, level, seed, unlimited()).map(|suggestion| suggestion.mv)
}

/// The budget of a level that does not search.
fn unlimited() -> Budget<'static> {
    Budget {
        playouts: 0,
        stop: &|| false,
    }
}
