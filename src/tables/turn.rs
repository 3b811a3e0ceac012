//! When a table's turn is due, and what happens when it is: a computer
//! seat's move is due at once (its server plays it; the sweeper of any
//! server plays it if that server died first), a person's when their
//! timer runs out (the computer then moves for them).

use crate::rules::Game;
use crate::service::ApiError;

use super::Tables;
use super::live::Change;
use super::settings::Settings;
use super::store::{SeatRow, TableRow};
use super::table::{COMPUTER, Viewer, database, now_ms, read_state};

/// How long a computer seat's move may wait on the server that committed
/// the move before it before any server's sweeper plays it.
pub const COMPUTER_GRACE_MS: i64 = 5_000;

/// How long a sweeper's claim of a due table lasts: if its server dies
/// before moving, another server's sweeper takes the table after it.
pub const CLAIM_MS: i64 = 30_000;

/// Who is to move after `game`, at a table whose seats are `seats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextTurn {
    /// No one: the match is over.
    Over,
    /// The computer: a computer seat, or a person's it took over.
    Computer,
    /// A person, with `settings`' timer running for the turn.
    TimedPerson(i64),
    /// A person, with no timer.
    Person,
}

/// Who is to move after `game` (at a table whose seats are `seats`).
#[must_use]
pub fn next_turn(game: &Game, seats: &[SeatRow], settings: Settings) -> NextTurn {
    if game.outcome().is_some() {
        return NextTurn::Over;
    }
    let seat = i64::from(game.to_act());
    match seats.iter().find(|row| row.seat == seat) {
        None => NextTurn::Over,
        Some(row) if row.kind == COMPUTER || row.auto => NextTurn::Computer,
        Some(_) => settings
            .turn_ms()
            .map_or(NextTurn::Person, NextTurn::TimedPerson),
    }
}

/// When the turn after `game` (at a table whose seats are `seats`) is due,
/// from `now`: a computer's move after a grace, a person's at their timer's
/// end; never once the match is over or for a person without a timer.
#[must_use]
pub fn due_after(game: &Game, seats: &[SeatRow], settings: Settings, now: i64) -> Option<i64> {
    match next_turn(game, seats, settings) {
        NextTurn::Computer => Some(now + COMPUTER_GRACE_MS),
        NextTurn::TimedPerson(ms) => Some(now + ms),
        NextTurn::Over | NextTurn::Person => None,
    }
}

impl Tables {
    /// Sets when `table`'s turn is due from where it stands (at its
    /// number: a move since has set it already).
    pub(super) async fn due_again(&self, table: &TableRow) -> Result<(), ApiError> {
        let game = read_state(&table.state)?;
        let seats = self.seat_rows(&table.id).await?;
        let due = due_after(
            &game,
            &seats,
            Settings::from_json(&table.settings),
            now_ms(),
        );
        self.store
            .set_due(&table.id, table.version, due)
            .await
            .map_err(|e| database(&e))
    }

    /// A person back at their seat (its link opened again): the computer
    /// that took the seat over when their time ran out hands it back, and
    /// their timer runs again if it is their turn. Whether it did.
    pub(super) async fn resume(&self, table: &TableRow, viewer: Viewer) -> Result<bool, ApiError> {
        let Viewer::Seat(seat) = viewer else {
            return Ok(false);
        };
        let taken_back = self
            .store
            .take_back(&table.id, i64::from(seat))
            .await
            .map_err(|e| database(&e))?;
        if !taken_back {
            return Ok(false);
        }
        self.due_again(table).await?;
        self.tell(&table.id, Change::Presence).await;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets::preset;

    fn seat(seat: i64, kind: &str, auto: bool) -> SeatRow {
        SeatRow {
            seat,
            kind: kind.to_owned(),
            level: None,
            auto,
            connected: false,
        }
    }

    #[test]
    fn a_turn_is_due_for_computers_at_once_and_for_people_by_their_timer() {
        let rules = preset("muggins").expect("a preset").rules(2, None);
        let (game, _) = Game::new("muggins", rules, 2, 7).expect("dealt");
        let to_act = i64::from(game.to_act());
        let other = 1 - to_act;
        let timer = Settings {
            turn_seconds: 30,
            ..Settings::default()
        };
        let people = [seat(to_act, "person", false), seat(other, "person", false)];
        assert_eq!(due_after(&game, &people, Settings::default(), 100), None);
        assert_eq!(due_after(&game, &people, timer, 100), Some(30_100));
        let computer = [seat(to_act, COMPUTER, false), seat(other, "person", false)];
        assert_eq!(
            due_after(&game, &computer, Settings::default(), 100),
            Some(100 + COMPUTER_GRACE_MS)
        );
        let taken_over = [seat(to_act, "person", true), seat(other, "person", false)];
        assert_eq!(
            due_after(&game, &taken_over, timer, 100),
            Some(100 + COMPUTER_GRACE_MS)
        );
    }
}
