//! A seat's watch of its table: where the table stands, then an update
//! after every move, the table read from the database once per move for
//! all its watchers on this server ([`super::live`]) and shown as each
//! seat may see it. A watcher
//! that falls behind skips to the newest move: updates are whole views.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::Stream;
use tokio::sync::broadcast::error::RecvError;

use crate::proto;
use crate::service::ApiError;

use super::Tables;
use super::live::{Change, Watcher};
use super::table::{Snapshot, Viewer, database, not_found, show};
use super::watches::{Ended, WatchPermit};

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
    /// The seat, or a watcher.
    viewer: Viewer,
    /// The move number of the last update sent.
    sent: i64,
    /// The first update, until sent (boxed: a watch is held for hours,
    /// and this is gone after its first moment).
    first: Option<Box<proto::TableUpdate>>,
    /// Whether the stream has ended (after an error).
    ended: bool,
    /// Set when the server shuts down.
    closing: tokio::sync::watch::Receiver<bool>,
    /// Its place among the watches (the server may end it), which knows
    /// when it last sent an update (an idle watch ends).
    permit: WatchPermit,
}

impl Tables {
    /// The watch of the seat a link names (a person back at a seat the
    /// computer took over takes it back): its first update is where the
    /// table stands; then one per move (and a heartbeat while nothing
    /// happens), until the caller drops it. A database failure ends it
    /// with its refusal.
    ///
    /// # Errors
    /// A link that opens no table, the limits on watches (of the table,
    /// from `peer`'s address: `RESOURCE_EXHAUSTED`), or a database failure.
    pub async fn watch(
        self: &Arc<Self>,
        request: &proto::WatchRequest,
        peer: Option<IpAddr>,
    ) -> Result<impl Stream<Item = Result<Watched, ApiError>> + Send + 'static, ApiError> {
        // (Before the table is looked up: a flood of openings costs no
        // reading.)
        self.watches.may_open(peer)?;
        let (table, viewer) = self.seat_of(&request.link, "link").await?;
        let permit = self.watches.admit(&table.id, viewer.stored(), peer)?;
        self.resume(&table, viewer).await?;
        // Listening before the table is read: no move falls between. The
        // seats of a table opening their watches at once share one reading.
        let watcher = self.live.watch(&table.id, viewer.stored());
        let snapshot = current(self, &watcher, &table.id).await?;
        let Some(snapshot) = snapshot.as_ref() else {
            return Err(not_found("link"));
        };
        let first = show(snapshot, viewer)?;
        let watching = Watching {
            tables: Arc::clone(self),
            watcher,
            table: table.id,
            viewer,
            sent: snapshot.table.version,
            first: Some(Box::new(first)),
            ended: false,
            closing: self.closing.subscribe(),
            permit,
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
        watching.permit.sent();
        return Some((Ok(Watched::Update(first)), watching));
    }
    loop {
        let idle_until = tokio::time::Instant::now() + watching.permit.idle_left();
        let wake = (tokio::time::Instant::now() + HEARTBEAT).min(idle_until);
        let change = tokio::select! {
            change = tokio::time::timeout_at(wake, watching.watcher.changes.recv()) => change,
            _ = watching.closing.wait_for(|closing| *closing) => return None,
            // A newer watch took its seat's slot, or its address gave it
            // up at the server's bound.
            () = watching.permit.ended() => return None,
        };
        match change {
            Err(_) if tokio::time::Instant::now() >= idle_until => {
                // Nothing for the idle time: it ends (its client reconnects).
                Ended::Idle.count();
                return None;
            }
            Err(_) => return Some((Ok(Watched::Heartbeat), watching)),
            Ok(Err(RecvError::Closed) | Ok(Change::Gone)) => return None,
            Ok(Ok(Change::Moved(number))) if number <= watching.sent => {}
            Ok(change @ (Ok(Change::Moved(_) | Change::Presence) | Err(RecvError::Lagged(_)))) => {
                // A presence change shows at the same move number.
                let again = matches!(change, Ok(Change::Presence) | Err(_));
                let snapshot = current(&watching.tables, &watching.watcher, &watching.table).await;
                let snapshot = match snapshot {
                    Ok(snapshot) => snapshot,
                    Err(error) => {
                        watching.ended = true;
                        return Some((Err(error), watching));
                    }
                };
                // The table is gone (expired): the watch ends.
                let Some(snapshot) = snapshot.as_ref() else {
                    return None;
                };
                if snapshot.table.version <= watching.sent && !again {
                    continue;
                }
                let update = show(snapshot, watching.viewer);
                watching.sent = snapshot.table.version;
                watching.permit.sent();
                watching.ended = update.is_err();
                return Some((update.map(|u| Watched::Update(Box::new(u))), watching));
            }
        }
    }
}

/// `table` as it stands after every change its channel has published (`None`:
/// it is gone): the snapshot another of its watchers read since, or one
/// read now (boxed: the reading is large, and a watch that held it inline
/// would keep its room while it waits for the next move).
async fn current(
    tables: &Arc<Tables>,
    watcher: &Watcher,
    table: &str,
) -> Result<Arc<Option<Snapshot>>, ApiError> {
    let (tables, id) = (Arc::clone(tables), table.to_owned());
    Box::pin(watcher.channel.current(|| async move {
        match tables.store.table(&id).await {
            Ok(Some(table)) => tables.snapshot(table).await.map(Some),
            Ok(None) => Ok(None),
            Err(error) => Err(database(&error)),
        }
    }))
    .await
}
