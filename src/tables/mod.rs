//! Tables that keep a match for its seats, so that people play each other
//! by a link (see `docs/design/tables.md`). A table is a client of the
//! rules, as a backend built on pips would be: it stores a match's state,
//! asks the engine to play each move on it and shows each seat its view;
//! the engine itself stays stateless and adds no rule.
//!
//! - [`link`]: links (128 random bits, kept only as their hash) and
//!   table ids.
//! - [`store`]: what tables keep on their database (SQLite or
//!   PostgreSQL), one function per stored thing.
//! - [`table`]: the `TableService` RPCs: create, open a seat, act, the
//!   record.
//! - [`computer`]: computer seats, which move on their own after each
//!   move, on the engine's work pool.
//! - [`live`]: each accepted move published to the seats watching its
//!   table; [`watch`]: a seat's stream of updates.

pub mod computer;
pub mod link;
pub mod live;
pub mod store;
pub mod table;
pub mod watch;

use std::sync::Arc;

use crate::service::Engine;

use self::store::Store;

/// Every table of a server: their database and the engine that referees
/// their moves.
#[derive(Debug)]
pub struct Tables {
    /// Where the tables are kept.
    store: Store,
    /// The engine (its custody of states, its work pool and its search
    /// cap, shared with `DominoEngineService`).
    engine: Engine,
    /// The tables watched on this server, to tell of each move.
    live: Arc<live::Live>,
    /// Set when the server shuts down: every watch ends (its client
    /// reconnects to another server, or to this one restarted).
    closing: tokio::sync::watch::Sender<bool>,
}

impl Tables {
    /// The tables kept at `database` (`sqlite://pips-tables.db?mode=rwc`,
    /// `sqlite::memory:`, `postgres://…`), refereed by `engine`.
    ///
    /// # Errors
    /// When the database cannot be opened or its schema brought up to date.
    pub async fn open(database: &str, engine: Engine) -> Result<Arc<Tables>, sqlx::Error> {
        Ok(Arc::new(Tables {
            store: Store::open(database).await?,
            engine,
            live: Arc::default(),
            closing: tokio::sync::watch::Sender::new(false),
        }))
    }

    /// Ends every watch: the server is shutting down.
    pub fn close(&self) {
        self.closing.send_replace(true);
    }
}
