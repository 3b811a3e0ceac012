//! A seat's watch of its table: where the table stands, then an update
//! after every move, each read once from the database as the move is
//! published ([`super::live`]) and shown as the seat may see it. A watcher
//! that falls behind skips to the newest move: updates are whole views.

use std::sync::Arc;
use std::time::Duration;

use futures_util::Stream;
use tokio::sync::broadcast::error::RecvError;

use crate::proto;
use crate::rules::Seat;
use crate::service::ApiError;

use super::Tables;
use super::live::Watcher;
use super::table::database;

/// How long a watch may be silent before it says it is still there (a
/// server-sent events comment), so that proxies keep it open.
pub const HEARTBEAT: Duration = Duration::from_secs(15);

/// What a watch sends next.
#[derive(Debug)]
pub enum Watched {
    /// The table as the seat sees it now.
    Update(Box<proto::TableUpdate>),
    /// Nothing has happened for [`HEARTBEAT`].
    Heartbeat,
}

/// Where a watch stands between two updates.
struct Watching {
    /// The tables.
    tables: Arc<Tables>,
    /// Its place on the table's channel.
    watcher: Watcher,
    /// The table.
    table: String,
    /// The seat.
    seat: Seat,
    /// The move number of the last update sent.
    sent: i64,
    /// The first update, until sent.
    first: Option<proto::TableUpdate>,
    /// Whether the stream has ended (after an error).
    ended: bool,
    /// Set when the server shuts down.
    closing: tokio::sync::watch::Receiver<bool>,
}

impl Tables {
    /// The watch of the seat a link names: its first update is where the
    /// table stands; then one per move (and a heartbeat while nothing
    /// happens), until the caller drops it. A database failure ends it
    /// with its refusal.
    ///
    /// # Errors
    /// A link that opens no table, or a database failure.
    pub async fn watch(
        self: &Arc<Self>,
        request: &proto::WatchRequest,
    ) -> Result<impl Stream<Item = Result<Watched, ApiError>> + Send + 'static, ApiError> {
        let (table, seat) = self.seat_of(&request.link, "link").await?;
        // Listening before the table is read: no move falls between.
        let watcher = self.live.watch(&table.id);
        let first = self.update(&table, seat).await?;
        let watching = Watching {
            tables: Arc::clone(self),
            watcher,
            table: table.id,
            seat,
            sent: table.version,
            first: Some(first),
            ended: false,
            closing: self.closing.subscribe(),
        };
        Ok(futures_util::stream::unfold(watching, next))
    }
}

/// The next thing `watching` sends, and where it then stands.
async fn next(mut watching: Watching) -> Option<(Result<Watched, ApiError>, Watching)> {
    if watching.ended {
        return None;
    }
    if let Some(first) = watching.first.take() {
        return Some((Ok(Watched::Update(Box::new(first))), watching));
    }
    loop {
        let change = tokio::select! {
            change = tokio::time::timeout(HEARTBEAT, watching.watcher.changes.recv()) => change,
            _ = watching.closing.wait_for(|closing| *closing) => return None,
        };
        match change {
            Err(_) => return Some((Ok(Watched::Heartbeat), watching)),
            Ok(Err(RecvError::Closed)) => return None,
            Ok(Ok(number)) if number <= watching.sent => {}
            Ok(Ok(_) | Err(RecvError::Lagged(_))) => {
                let table = match watching.tables.store.table(&watching.table).await {
                    Ok(Some(table)) => table,
                    // The table is gone (expired): the watch ends.
                    Ok(None) => return None,
                    Err(error) => {
                        watching.ended = true;
                        return Some((Err(database(&error)), watching));
                    }
                };
                if table.version <= watching.sent {
                    continue;
                }
                let update = watching.tables.update(&table, watching.seat).await;
                watching.sent = table.version;
                watching.ended = update.is_err();
                return Some((update.map(|u| Watched::Update(Box::new(u))), watching));
            }
        }
    }
}
