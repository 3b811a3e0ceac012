//! Across servers: on PostgreSQL, each server tells the others sharing
//! the database of every change at a table (a move, a seat's presence,
//! the table gone) with `NOTIFY`, and hears theirs with `LISTEN`, so that
//! a move made through one server reaches the seats watching from
//! another. What crosses is what [`super::live`] publishes on one server:
//! the table and what changed, never a view. On SQLite, which one server
//! holds, nothing crosses.
//!
//! A notification is lost while a server's listening connection is down;
//! once it is back, every table watched on that server is read again, so
//! its watchers lose nothing that was committed meanwhile.

use std::sync::{Arc, Weak};
use std::time::Duration;

use sqlx::postgres::PgListener;

use super::Tables;
use super::live::Change;
use super::table::Snapshot;

/// The channel the servers tell each other on.
pub const CHANNEL: &str = "pips_tables";

/// How long a server waits before listening again after its database
/// refused.
const RETRY: Duration = Duration::from_secs(1);

/// A change as told to the other servers (a line of a notification):
/// `server table what`, `what`
/// being `m` and the move number, `p` (presence) or `g` (gone). Ids and
/// server ids are base64url, which has no space.
fn payload(server: &str, table: &str, change: Change) -> String {
    match change {
        Change::Moved(number) => format!("{server} {table} m{number}"),
        Change::Presence => format!("{server} {table} p"),
        Change::Gone => format!("{server} {table} g"),
    }
}

/// The server, table and change a payload tells, if it is one.
fn read(payload: &str) -> Option<(&str, &str, Change)> {
    let mut parts = payload.split(' ');
    let (server, table, what) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let change = match what {
        "p" => Change::Presence,
        "g" => Change::Gone,
        _ => Change::Moved(what.strip_prefix('m')?.parse().ok()?),
    };
    Some((server, table, change))
}

impl Tables {
    /// Tells `table`'s watchers of `change`: on this server, and on
    /// PostgreSQL on every server sharing its database. The change is
    /// committed already: a notification that fails is logged, and the
    /// other servers' watchers see the table as it is at its next change.
    pub(super) async fn tell(&self, table: &str, change: Change) {
        self.live.publish(table, change);
        self.tell_others(table, change).await;
    }

    /// Tells `table`'s watchers here that it is at move `number`, as
    /// `snapshot` shows it: they see it without reading the table again.
    /// (The other servers were told as the move was committed:
    /// [`Tables::told`].)
    pub(super) async fn tell_read(
        &self,
        table: &str,
        number: i64,
        snapshot: Arc<Option<Snapshot>>,
    ) {
        self.live.publish_read(table, number, snapshot).await;
    }

    /// What the other servers are to be told of `table` at its `change`,
    /// committed with it (empty: there are none to tell, on SQLite).
    pub(super) fn told(&self, table: &str, change: Change) -> String {
        if self.store.postgres().is_some() {
            payload(&self.server, table, change)
        } else {
            String::new()
        }
    }

    /// Tells the other servers sharing the database of `change`.
    async fn tell_others(&self, table: &str, change: Change) {
        let told = payload(&self.server, table, change);
        if let Err(error) = self.store.notify(CHANNEL, &told).await {
            if let Some(more) = crate::logs::DATABASE.admit() {
                tracing::warn!(%error, more, "the other servers could not be told of a change");
            }
        }
    }

    /// On PostgreSQL, starts listening to the other servers' changes and
    /// publishing them to this server's watchers; it ends when the server
    /// shuts down (or the tables are dropped).
    pub(super) fn start_listening(self: &Arc<Self>) {
        let Some(url) = self.store.postgres().map(str::to_owned) else {
            return;
        };
        let tables: Weak<Tables> = Arc::downgrade(self);
        let server = self.server.clone();
        let mut closing = self.closing.subscribe();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    () = listen(&url, &tables, &server) => {}
                    _ = closing.wait_for(|closing| *closing) => return,
                }
                if tables.strong_count() == 0 {
                    return;
                }
                tokio::select! {
                    () = tokio::time::sleep(RETRY) => {}
                    _ = closing.wait_for(|closing| *closing) => return,
                }
            }
        });
    }
}

/// Listens at `url` and publishes each other server's change to this
/// server's watchers, until the database fails or the tables are dropped.
async fn listen(url: &str, tables: &Weak<Tables>, server: &str) {
    let mut listener = match PgListener::connect(url).await {
        Ok(listener) => listener,
        Err(error) => {
            tracing::warn!(%error, "the tables cannot hear the other servers");
            return;
        }
    };
    if let Err(error) = listener.listen(CHANNEL).await {
        tracing::warn!(%error, "the tables cannot hear the other servers");
        return;
    }
    loop {
        // Listening (again): whatever was told meanwhile is read afresh.
        let Some(live) = tables.upgrade().map(|tables| Arc::clone(&tables.live)) else {
            return;
        };
        live.publish_everywhere(Change::Presence);
        drop(live);
        // Until the connection is lost (`None`: `try_recv` connects again
        // at its next call) or cannot be made again (an error).
        loop {
            match listener.try_recv().await {
                Ok(Some(notification)) => {
                    let Some(tables) = tables.upgrade() else {
                        return;
                    };
                    // (A batch of moves is told in one notification, a
                    // change a line.)
                    for line in notification.payload().lines() {
                        match read(line) {
                            Some((from, _, _)) if from == server => {}
                            Some((_, table, change)) => tables.live.publish(table, change),
                            None => tracing::warn!("a notification the tables do not read"),
                        }
                    }
                }
                Ok(None) => break,
                Err(error) => {
                    tracing::warn!(%error, "the tables lost the other servers");
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_change_reads_back_as_told() {
        for change in [
            Change::Moved(0),
            Change::Moved(417),
            Change::Presence,
            Change::Gone,
        ] {
            let told = payload("srv", "tbl-_9", change);
            assert_eq!(read(&told), Some(("srv", "tbl-_9", change)));
        }
        for bad in ["", "a b", "a b c d", "a b m", "a b mx", "a b q", "a b m-"] {
            assert_eq!(read(bad), None, "{bad:?}");
        }
    }
}
