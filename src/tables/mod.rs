//! Tables that keep a match for its seats, so that people play each other
//! by a link (see `docs/design/tables.md`). A table is a client of the
//! rules, as a backend built on pips would be: it stores a match's state,
//! asks the engine to play each move on it and shows each seat its view;
//! the engine itself stays stateless and adds no rule.
//!
//! - [`database`]: the database as `--tables-db` names it, and why one
//!   cannot be used, with the fix.
//! - [`link`]: links (128 random bits, kept only as their hash) and
//!   table ids.
//! - [`store`]: what tables keep on their database (SQLite or
//!   PostgreSQL), one function per stored thing; [`batch`]: the moves
//!   made at once, committed in one transaction.
//! - [`table`]: the `TableService` RPCs: create, open a seat, act,
//!   rematch, the record.
//! - [`settings`]: a table's turn timer and what a timeout does.
//! - [`computer`]: computer seats, which move on their own after each
//!   move, on the engine's work pool; [`turn`]: when a turn is due.
//! - [`live`]: each accepted move published to the seats watching its
//!   table; [`watch`]: a seat's stream of updates; [`watches`]: every
//!   watch held on this server and what bounds them.
//! - [`across`]: on PostgreSQL, each change told to the other servers
//!   sharing the database, and theirs heard.
//! - [`sweeper`]: due turns, expiry and presence, every second.
//! - [`limits`]: tables created per client, kept per client and in all,
//!   watches held; [`networks`]: a client's address, network and block,
//!   the widths its shares are kept at.

pub mod across;
pub mod batch;
pub mod computer;
pub mod database;
pub mod limits;
pub mod link;
pub mod live;
pub mod networks;
pub mod settings;
pub mod store;
pub mod sweeper;
pub mod table;
pub mod turn;
pub mod watch;
pub mod watches;

use std::sync::Arc;
use std::time::Duration;

use crate::service::Engine;

use self::limits::{Limiter, TableLimits};
use self::store::Store;
use self::watches::{WatchLimits, Watches};

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
    /// This server's random id, under which it records the streams it
    /// holds (presence), so that servers sharing a database tell theirs
    /// apart.
    server: String,
    /// How long a table nobody plays (no person's move, no rematch) is
    /// kept.
    expire_after: Duration,
    /// The limits on creating and keeping tables, and where they stand.
    limiter: Arc<Limiter>,
    /// The watches held on this server, within their bounds.
    watches: Arc<Watches>,
}

/// The default of how long a table nobody plays is kept: a day.
pub const DEFAULT_EXPIRE_AFTER: Duration = Duration::from_secs(24 * 60 * 60);

impl Tables {
    /// The tables kept at `database` (`sqlite://pips-tables.db?mode=rwc`,
    /// `sqlite::memory:`, `postgres://…`), refereed by `engine`, each
    /// deleted when nobody has played at it for `expire_after`, within
    /// `limits` (and `watches` for the watches, their server-wide bound
    /// resolved). Starts the sweeper.
    ///
    /// # Errors
    /// When the database cannot be opened or its schema brought up to date.
    pub async fn open(
        database: &str,
        engine: Engine,
        expire_after: Duration,
        limits: TableLimits,
        watches: WatchLimits,
    ) -> Result<Arc<Tables>, sqlx::Error> {
        let server =
            link::table_id().map_err(|error| sqlx::Error::Io(std::io::Error::other(error)))?;
        let tables = Arc::new(Tables {
            store: Store::open(database).await?,
            engine,
            live: Arc::default(),
            closing: tokio::sync::watch::Sender::new(false),
            server,
            expire_after,
            limiter: Arc::new(Limiter::new(limits)),
            watches: Arc::new(Watches::new(watches)),
        });
        tables.start_sweeper();
        tables.start_listening();
        Ok(tables)
    }

    /// Ends every watch: the server is shutting down.
    pub fn close(&self) {
        self.closing.send_replace(true);
    }
}
