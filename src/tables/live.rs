//! Live updates: each accepted move is published to the seats watching its
//! table on this server, which then send their own views of it. A channel
//! per watched table, made by its first watcher and dropped with its last;
//! what goes through it is the table's new move number (or that a seat
//! came or went), never a view (each seat's is its own). The table as it
//! stands is read from the database once per change, by the first of its
//! watchers to need it, and shared with the others (the channel's latest
//! [`Snapshot`]). It also counts the streams held of each seat, which the
//! sweeper writes to the database as the seats' presence.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

use super::table::Snapshot;

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
    channels: Mutex<HashMap<String, Arc<Channel>>>,
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

/// A watched table's channel, and the table as last read for its
/// watchers.
#[derive(Debug)]
pub struct Channel {
    /// Where its changes go.
    sender: broadcast::Sender<Change>,
    /// Changes published so far: a snapshot read before the latest is
    /// read again.
    published: AtomicU64,
    /// The latest snapshot, and how many changes had been published when
    /// its reading began; locked while one watcher reads, so that the
    /// others wait for it rather than read too.
    latest: tokio::sync::Mutex<Option<(u64, Arc<Option<Snapshot>>)>>,
}

impl Channel {
    fn new() -> Channel {
        Channel {
            sender: broadcast::channel(BACKLOG).0,
            published: AtomicU64::new(0),
            latest: tokio::sync::Mutex::new(None),
        }
    }

    /// The table as it stands after every change published so far (`None`:
    /// it is gone): the snapshot another watcher read since, or one `read`
    /// now.
    ///
    /// # Errors
    /// `read`'s.
    pub async fn current<E, F>(&self, read: impl FnOnce() -> F) -> Result<Arc<Option<Snapshot>>, E>
    where
        F: Future<Output = Result<Option<Snapshot>, E>>,
    {
        let mut latest = self.latest.lock().await;
        let published = self.published.load(Ordering::Acquire);
        if let Some((read_at, snapshot)) = latest.as_ref() {
            if *read_at >= published {
                return Ok(Arc::clone(snapshot));
            }
        }
        let snapshot = Arc::new(read().await?);
        *latest = Some((published, Arc::clone(&snapshot)));
        Ok(snapshot)
    }
}

/// One watcher's place on a table's channel; leaving it drops the channel
/// with its last watcher.
#[derive(Debug)]
pub struct Watcher {
    /// The channel's end.
    pub changes: broadcast::Receiver<Change>,
    /// The channel, for the table as it stands.
    pub channel: Arc<Channel>,
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
        let channel = match self.channels.lock() {
            Ok(mut channels) => Arc::clone(
                channels
                    .entry(table.to_owned())
                    .or_insert_with(|| Arc::new(Channel::new())),
            ),
            // (A poisoned list: a channel of its own that hears nothing.)
            Err(_) => Arc::new(Channel::new()),
        };
        Watcher {
            changes: channel.sender.subscribe(),
            channel,
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
                channel.published.fetch_add(1, Ordering::AcqRel);
                let _ = channel.sender.send(change);
            }
        }
    }

    /// Tells `table`'s watchers that it is at move `number`, as `snapshot`
    /// shows it (unless a later move's is there already): they need not
    /// read it again.
    pub async fn publish_read(&self, table: &str, number: i64, snapshot: Arc<Option<Snapshot>>) {
        let channel = match self.channels.lock() {
            Ok(channels) => channels.get(table).map(Arc::clone),
            Err(_) => None,
        };
        let Some(channel) = channel else {
            return;
        };
        let mut latest = channel.latest.lock().await;
        let published = channel.published.fetch_add(1, Ordering::AcqRel) + 1;
        let newer = latest
            .as_ref()
            .and_then(|(_, cached)| cached.as_ref().as_ref())
            .is_none_or(|cached| cached.table.version < number);
        if newer {
            *latest = Some((published, snapshot));
        }
        drop(latest);
        let _ = channel.sender.send(Change::Moved(number));
    }

    /// Tells every table watched on this server of `change`.
    pub fn publish_everywhere(&self, change: Change) {
        if let Ok(channels) = self.channels.lock() {
            for channel in channels.values() {
                channel.published.fetch_add(1, Ordering::AcqRel);
                let _ = channel.sender.send(change);
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
                .is_some_and(|channel| channel.sender.receiver_count() <= 1);
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
