//! The answer budget: every byte of an answer the server has made and not
//! yet written to its connection is held against a server-wide budget and
//! its connection's share of it, whatever the answer's size or protocol,
//! so that answers nobody reads cannot pile up.
//!
//! An answer's bytes are held from when it is made until the connection
//! takes them to write, chunk by chunk ([`Held::split`]): a chunk handed to
//! the HTTP stack keeps its part of the hold until the stack drops it
//! (written, or its stream gone). A streamed answer (gRPC reflection, a
//! health watch), whose messages are made as the stream goes, holds a
//! fixed reservation for its life instead.
//!
//! A connection that has its share unread is refused more answers. When
//! the server's budget is spent, the connection holding the most unread
//! answers is closed at once (its answers go with it) and the call waits
//! briefly for the room this frees: a client that does not read cannot
//! hold the budget against those that do.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::{Notify, Semaphore};

/// The budget is counted in these units (semaphore permits); every
/// answer holds at least one.
pub const ANSWER_UNIT: usize = 1024;

/// What a streamed answer (reflection, a health watch) holds for its
/// life: more than it can have made and not yet written (a reflection
/// stream's answer in the making, the one waiting to be sent and the
/// one being written, each at most the descriptors' size).
pub const STREAM_RESERVE: usize = 512 * 1024;

/// What a watch (a table's updates, a health watch) holds for its life:
/// about one update, which is all it makes before the last is taken (a
/// line game's update is 1–3 KB; a train table's of eight seats late in
/// a hand, more), and little enough that ten thousand watching seats
/// hold a small part of the server's budget.
pub const WATCH_RESERVE: usize = 4 * 1024;

/// How long a call waits for the room an eviction frees.
const EVICTION_WAIT: Duration = Duration::from_millis(500);

/// How many connections one call may close to find room.
const EVICTIONS_PER_CALL: usize = 2;

/// Every how many connections the list of holders forgets those gone.
const PRUNE_EVERY: u64 = 1024;

/// The server's answer budget and the connections that hold part of it.
#[derive(Debug)]
pub struct AnswerBudget {
    /// One permit per unit not held, server-wide.
    total: Arc<Semaphore>,
    /// The connections holding answers, by number, for eviction: each
    /// while it is served, and after it closed while any of its answers
    /// are still held (an HTTP/2 stream's task can outlive its
    /// connection's), so that what it holds still counts in choosing the
    /// connection to close.
    holders: Mutex<HashMap<u64, Weak<ConnectionAnswers>>>,
    /// The next connection's number.
    next: AtomicU64,
}

/// One connection's share of the budget.
#[derive(Debug)]
pub struct ConnectionAnswers {
    /// Its number in the budget's list.
    id: u64,
    /// One permit per unit of its share not held.
    share: Arc<Semaphore>,
    /// Its share, in units.
    units: usize,
    /// Told when the connection is to be closed at once.
    close: Notify,
}

/// Why an answer could not be held.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Full {
    /// The connection has its share unread: `left` units remain of it.
    Connection {
        /// Units of the share not held.
        left: usize,
    },
    /// The server's budget is spent (`left` units remain) and no other
    /// connection holds answers to close.
    Server {
        /// Units of the budget not held.
        left: usize,
    },
}

/// Units of the budget (and of a connection's share) held until dropped.
#[derive(Debug)]
pub struct Held {
    /// Units held.
    units: usize,
    /// The connection whose share they are held of, if any.
    share: Option<Arc<ConnectionAnswers>>,
    /// The server's budget.
    total: Arc<Semaphore>,
}

impl Held {
    /// Units held.
    #[must_use]
    pub fn units(&self) -> usize {
        self.units
    }

    /// Takes `units` (at most all) of this hold into a hold of their own.
    #[must_use]
    pub fn split(&mut self, units: usize) -> Held {
        let units = units.min(self.units);
        self.units -= units;
        Held {
            units,
            share: self.share.clone(),
            total: Arc::clone(&self.total),
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if self.units == 0 {
            return;
        }
        if let Some(share) = &self.share {
            share.share.add_permits(self.units);
        }
        self.total.add_permits(self.units);
    }
}

/// A connection's place in the budget's list, left when dropped.
#[derive(Debug)]
pub struct Registered {
    /// The budget.
    budget: Arc<AnswerBudget>,
    /// The connection's share.
    answers: Arc<ConnectionAnswers>,
}

impl Registered {
    /// The connection's share.
    #[must_use]
    pub fn answers(&self) -> &Arc<ConnectionAnswers> {
        &self.answers
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        // Listed on while answers of it are still held (the list forgets
        // it once they are dropped).
        if self.answers.held() == 0 {
            if let Ok(mut holders) = self.budget.holders.lock() {
                holders.remove(&self.answers.id);
            }
        }
    }
}

impl ConnectionAnswers {
    /// Units of its share held now.
    fn held(&self) -> usize {
        self.units.saturating_sub(self.share.available_permits())
    }

    /// Completes when the connection is to be closed at once.
    pub async fn closed(&self) {
        self.close.notified().await;
    }
}

/// Units for `bytes` (at least one).
fn units_of(bytes: usize) -> usize {
    bytes.div_ceil(ANSWER_UNIT).max(1)
}

/// `units` permits of `semaphore`, taken now and kept (released by
/// [`Held`]'s drop), if it has them.
fn take(semaphore: &Semaphore, units: usize) -> bool {
    u32::try_from(units)
        .ok()
        .and_then(|units| semaphore.try_acquire_many(units).ok())
        .map(tokio::sync::SemaphorePermit::forget)
        .is_some()
}

impl AnswerBudget {
    /// A budget of `bytes`.
    #[must_use]
    pub fn new(bytes: usize) -> Arc<AnswerBudget> {
        Arc::new(AnswerBudget {
            total: Arc::new(Semaphore::new(bytes / ANSWER_UNIT)),
            holders: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
        })
    }

    /// A new connection's share of `bytes`, listed until the returned
    /// place is dropped.
    #[must_use]
    pub fn connection(self: &Arc<Self>, bytes: usize) -> Registered {
        let units = bytes / ANSWER_UNIT;
        let answers = Arc::new(ConnectionAnswers {
            id: self.next.fetch_add(1, Ordering::Relaxed),
            share: Arc::new(Semaphore::new(units)),
            units,
            close: Notify::new(),
        });
        if let Ok(mut holders) = self.holders.lock() {
            // Now and then, connections gone with nothing held any more
            // are forgotten.
            if answers.id % PRUNE_EVERY == 0 {
                holders.retain(|_, held| held.strong_count() > 0);
            }
            holders.insert(answers.id, Arc::downgrade(&answers));
        }
        Registered {
            budget: Arc::clone(self),
            answers,
        }
    }

    /// Holds `bytes` of an answer of the connection `mine` (none: an
    /// answer of no connection's, held of the server's budget alone).
    /// When the server's budget is spent, closes the connection that holds
    /// the most unread answers and waits briefly for the room.
    ///
    /// # Errors
    /// The connection's share or the server's budget has no room.
    pub async fn hold(
        &self,
        mine: Option<&Arc<ConnectionAnswers>>,
        bytes: usize,
    ) -> Result<Held, Full> {
        let units = units_of(bytes);
        if let Some(mine) = mine {
            if !take(&mine.share, units) {
                return Err(Full::Connection {
                    left: mine.share.available_permits(),
                });
            }
        }
        // From here the share's units are held: released on every way out.
        let mut held = Held {
            units,
            share: mine.map(Arc::clone),
            total: Arc::clone(&self.total),
        };
        if take(&self.total, units) {
            return Ok(held);
        }
        for _ in 0..EVICTIONS_PER_CALL {
            if !self.evict(mine.map(|mine| mine.id)) {
                break;
            }
            let Ok(wanted) = u32::try_from(units) else {
                break;
            };
            if let Ok(Ok(permit)) =
                tokio::time::timeout(EVICTION_WAIT, self.total.acquire_many(wanted)).await
            {
                permit.forget();
                return Ok(held);
            }
        }
        // The server's units were never taken: only the share's go back.
        let left = self.total.available_permits();
        if let Some(share) = held.share.take() {
            share.share.add_permits(held.units);
        }
        held.units = 0;
        Err(Full::Server { left })
    }

    /// Holds `bytes` as [`AnswerBudget::hold`] does where there is room
    /// now, without closing any connection to make it.
    #[must_use]
    pub fn try_hold(&self, mine: Option<&Arc<ConnectionAnswers>>, bytes: usize) -> Option<Held> {
        let units = units_of(bytes);
        let share = match mine {
            Some(mine) if !take(&mine.share, units) => return None,
            Some(mine) => Some(Arc::clone(mine)),
            None => None,
        };
        if take(&self.total, units) {
            return Some(Held {
                units,
                share,
                total: Arc::clone(&self.total),
            });
        }
        if let Some(share) = share {
            share.share.add_permits(units);
        }
        None
    }

    /// Closes the connection (other than `mine`) holding the most unread
    /// answers, counting those closed already whose answers are still
    /// held (closing one of them again frees nothing sooner, but a
    /// connection that holds less is not closed for them); whether there
    /// was one.
    fn evict(&self, mine: Option<u64>) -> bool {
        let Ok(mut holders) = self.holders.lock() else {
            return false;
        };
        holders.retain(|_, held| held.strong_count() > 0);
        let fattest = holders
            .values()
            .filter_map(Weak::upgrade)
            .filter(|answers| Some(answers.id) != mine && answers.held() > 0)
            .max_by_key(|answers| answers.held());
        let Some(answers) = fattest else {
            return false;
        };
        if let Some(more) = crate::logs::EVICTIONS.admit() {
            tracing::info!(
                held_kib = answers.held(),
                more,
                "closing a connection that holds answers it does not read: the answer budget is spent"
            );
        }
        crate::metrics::METRICS.evicted.inc();
        answers.close.notify_one();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn every_answer_holds_its_units_until_dropped() {
        let budget = AnswerBudget::new(10 * ANSWER_UNIT);
        let place = budget.connection(4 * ANSWER_UNIT);
        let mine = place.answers();
        let small = budget.hold(Some(mine), 10).await.expect("room");
        assert_eq!(small.units(), 1, "a small answer holds one unit");
        let mut large = budget
            .hold(Some(mine), 3 * ANSWER_UNIT)
            .await
            .expect("room");
        assert_eq!(mine.held(), 4);
        assert_eq!(
            budget.hold(Some(mine), 1).await.err(),
            Some(Full::Connection { left: 0 })
        );
        // A chunk handed on keeps its part until it is dropped.
        let chunk = large.split(2);
        drop(large);
        assert_eq!(mine.held(), 3);
        drop((chunk, small));
        assert_eq!(mine.held(), 0);
        assert_eq!(budget.total.available_permits(), 10);
    }

    #[tokio::test]
    async fn a_spent_budget_closes_the_connection_holding_the_most() {
        let budget = AnswerBudget::new(6 * ANSWER_UNIT);
        let reader = budget.connection(10 * ANSWER_UNIT);
        let hoarder = budget.connection(6 * ANSWER_UNIT);
        let small = budget
            .hold(Some(reader.answers()), ANSWER_UNIT)
            .await
            .expect("room");
        let hoarded = budget
            .hold(Some(hoarder.answers()), 5 * ANSWER_UNIT)
            .await
            .expect("room");
        // The hoarder is told to close; once its answers go, the call is
        // served.
        let hoarder_answers = Arc::clone(hoarder.answers());
        let closing = tokio::spawn(async move {
            hoarder_answers.closed().await;
            drop(hoarded);
        });
        let served = budget
            .hold(Some(reader.answers()), 2 * ANSWER_UNIT)
            .await
            .expect("room after the eviction");
        closing.await.expect("closed");
        assert_eq!(served.units(), 2);
        // Nobody else holds anything: refused.
        drop(small);
        let alone = budget.hold(Some(reader.answers()), 5 * ANSWER_UNIT).await;
        assert_eq!(alone.err(), Some(Full::Server { left: 4 }));
        assert_eq!(reader.answers().held(), 2, "the refused call holds nothing");
    }

    #[tokio::test]
    async fn a_closed_connections_answers_still_held_count_in_choosing() {
        let budget = AnswerBudget::new(6 * ANSWER_UNIT);
        let reader = budget.connection(10 * ANSWER_UNIT);
        let small = budget
            .hold(Some(reader.answers()), ANSWER_UNIT)
            .await
            .expect("room");
        // A connection closed while its stream's task still holds five
        // units of answers.
        let gone = budget.connection(10 * ANSWER_UNIT);
        let orphaned = budget
            .hold(Some(gone.answers()), 5 * ANSWER_UNIT)
            .await
            .expect("room");
        drop(gone);
        // The budget is spent: the reader, holding far less, is not closed
        // for the orphan's answers; the call waits, and is refused.
        let third = budget.connection(10 * ANSWER_UNIT);
        let reader_closed = reader.answers().closed();
        tokio::pin!(reader_closed);
        let refused = budget.hold(Some(third.answers()), 2 * ANSWER_UNIT).await;
        assert!(matches!(refused, Err(Full::Server { .. })));
        let closed = futures_util::FutureExt::now_or_never(reader_closed.as_mut());
        assert!(closed.is_none(), "the reader was closed");
        // Once the orphan's answers go, the list forgets it.
        drop(orphaned);
        let served = budget
            .hold(Some(third.answers()), 2 * ANSWER_UNIT)
            .await
            .expect("room");
        drop((served, small));
        budget
            .holders
            .lock()
            .expect("list")
            .retain(|_, held| held.strong_count() > 0);
        assert_eq!(budget.holders.lock().expect("list").len(), 2);
    }
}
