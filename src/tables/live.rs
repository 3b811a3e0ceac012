//! Live updates: each accepted move is published to the seats watching its
//! table on this server, each of which then reads the table once and sends
//! its own view. A channel per watched table, made by its first watcher
//! and dropped with its last; what goes through it is the table's new move
//! number, never a view (each seat's is its own).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

/// Move numbers a slow watcher may fall behind by before it skips to the
/// newest (updates are whole views: a skipped one loses nothing).
const BACKLOG: usize = 16;

/// The tables watched on this server.
#[derive(Debug, Default)]
pub struct Live {
    /// Each watched table's channel, by table id.
    channels: Mutex<HashMap<String, broadcast::Sender<i64>>>,
}

/// One watcher's place on a table's channel; leaving it drops the channel
/// with its last watcher.
#[derive(Debug)]
pub struct Watcher {
    /// The channel's end.
    pub changes: broadcast::Receiver<i64>,
    /// The table.
    table: String,
    /// Where the channel is listed.
    live: Arc<Live>,
}

impl Live {
    /// A watcher of `table`'s changes from now on.
    #[must_use]
    pub fn watch(self: &Arc<Self>, table: &str) -> Watcher {
        let changes = match self.channels.lock() {
            Ok(mut channels) => channels
                .entry(table.to_owned())
                .or_insert_with(|| broadcast::channel(BACKLOG).0)
                .subscribe(),
            // (A poisoned list: a watcher of its own that hears nothing.)
            Err(_) => broadcast::channel(1).1,
        };
        Watcher {
            changes,
            table: table.to_owned(),
            live: Arc::clone(self),
        }
    }

    /// Tells `table`'s watchers that it is at move `number` now.
    pub fn publish(&self, table: &str, number: i64) {
        if let Ok(channels) = self.channels.lock() {
            if let Some(channel) = channels.get(table) {
                let _ = channel.send(number);
            }
        }
    }

    /// Tables watched now.
    #[must_use]
    pub fn watched(&self) -> usize {
        self.channels.lock().map_or(0, |channels| channels.len())
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        if let Ok(mut channels) = self.live.channels.lock() {
            // This watcher's receiver still counts until it is dropped,
            // after this: the last one leaves one.
            let last = channels
                .get(&self.table)
                .is_some_and(|channel| channel.receiver_count() <= 1);
            if last {
                channels.remove(&self.table);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn watchers_hear_their_tables_moves_and_the_last_one_out_closes_it() {
        let live = Arc::new(Live::default());
        let mut one = live.watch("a");
        let mut two = live.watch("a");
        let mut other = live.watch("b");
        live.publish("a", 3);
        assert_eq!(one.changes.recv().await.ok(), Some(3));
        assert_eq!(two.changes.recv().await.ok(), Some(3));
        assert!(other.changes.try_recv().is_err(), "another table's move");
        assert_eq!(live.watched(), 2);
        drop(one);
        assert_eq!(live.watched(), 2);
        drop(two);
        assert_eq!(live.watched(), 1);
        drop(other);
        assert_eq!(live.watched(), 0);
        live.publish("a", 4);
    }
}
