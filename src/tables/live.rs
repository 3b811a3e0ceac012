//! Live updates: each accepted move is published to the seats watching its
//! table on this server, each of which then reads the table once and sends
//! its own view. A channel per watched table, made by its first watcher
//! and dropped with its last; what goes through it is the table's new move
//! number (or that a seat came or went), never a view (each seat's is its
//! own). It also counts the streams held of each seat, which the sweeper
//! writes to the database as the seats' presence.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

/// Move numbers a slow watcher may fall behind by before it skips to the
/// newest (updates are whole views: a skipped one loses nothing).
const BACKLOG: usize = 16;

/// What changed at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// It is at this move number now.
    Moved(i64),
    /// A seat's presence changed.
    Presence,
    /// The table is gone (it expired).
    Gone,
}

/// A table's seat, or its watch link's (`store::WATCH_SEAT`).
pub type SeatKey = (String, i64);

/// The tables watched on this server.
#[derive(Debug, Default)]
pub struct Live {
    /// Each watched table's channel, by table id.
    channels: Mutex<HashMap<String, broadcast::Sender<Change>>>,
    /// Streams held of each seat, and the seats whose count changed since
    /// the sweeper last wrote them.
    streams: Mutex<Streams>,
}

/// Streams held of each seat on this server.
#[derive(Debug, Default)]
struct Streams {
    /// How many, by seat.
    held: HashMap<SeatKey, i64>,
    /// The seats whose count changed since last taken.
    changed: HashSet<SeatKey>,
}

/// One watcher's place on a table's channel; leaving it drops the channel
/// with its last watcher.
#[derive(Debug)]
pub struct Watcher {
    /// The channel's end.
    pub changes: broadcast::Receiver<Change>,
    /// The table.
    table: String,
    /// The seat watched from (`store::WATCH_SEAT`: the watch link).
    seat: i64,
    /// Where the channel is listed.
    live: Arc<Live>,
}

impl Live {
    /// A watcher of `table`'s changes from now on, from `seat`.
    #[must_use]
    pub fn watch(self: &Arc<Self>, table: &str, seat: i64) -> Watcher {
        self.count(table, seat, 1);
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
            seat,
            live: Arc::clone(self),
        }
    }

    /// Counts a stream of `seat` at `table` in (`1`) or out (`-1`).
    fn count(&self, table: &str, seat: i64, by: i64) {
        if let Ok(mut streams) = self.streams.lock() {
            let key = (table.to_owned(), seat);
            let held = streams.held.entry(key.clone()).or_insert(0);
            *held += by;
            if *held <= 0 {
                streams.held.remove(&key);
            }
            streams.changed.insert(key);
        }
    }

    /// The seats whose count of streams changed since last asked, with
    /// their count now (0: none left).
    pub fn take_changed(&self) -> Vec<(SeatKey, i64)> {
        let Ok(mut streams) = self.streams.lock() else {
            return Vec::new();
        };
        let changed = std::mem::take(&mut streams.changed);
        changed
            .into_iter()
            .map(|key| {
                let held = streams.held.get(&key).copied().unwrap_or(0);
                (key, held)
            })
            .collect()
    }

    /// Tells `table`'s watchers what changed.
    pub fn publish(&self, table: &str, change: Change) {
        if let Ok(channels) = self.channels.lock() {
            if let Some(channel) = channels.get(table) {
                let _ = channel.send(change);
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
        self.live.count(&self.table, self.seat, -1);
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
        let mut one = live.watch("a", 0);
        let mut two = live.watch("a", 1);
        let mut other = live.watch("b", 0);
        live.publish("a", Change::Moved(3));
        assert_eq!(one.changes.recv().await.ok(), Some(Change::Moved(3)));
        assert_eq!(two.changes.recv().await.ok(), Some(Change::Moved(3)));
        assert!(other.changes.try_recv().is_err(), "another table's move");
        assert_eq!(live.watched(), 2);
        drop(one);
        assert_eq!(live.watched(), 2);
        drop(two);
        assert_eq!(live.watched(), 1);
        drop(other);
        assert_eq!(live.watched(), 0);
        live.publish("a", Change::Moved(4));
    }

    #[test]
    fn streams_are_counted_per_seat_and_each_change_taken_once() {
        let live = Arc::new(Live::default());
        let one = live.watch("a", 0);
        let again = live.watch("a", 0);
        let mut changed = live.take_changed();
        changed.sort();
        assert_eq!(changed, [(("a".to_owned(), 0), 2)]);
        assert!(live.take_changed().is_empty());
        drop(one);
        assert_eq!(live.take_changed(), [(("a".to_owned(), 0), 1)]);
        drop(again);
        assert_eq!(live.take_changed(), [(("a".to_owned(), 0), 0)]);
    }
}
