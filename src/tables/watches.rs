//! Every watch of a table held on this server, and what bounds them:
//! each seat's own slots (a seat always gets its own live updates: its
//! newest watch takes the place of its oldest, and nobody else's watch
//! counts against them), the watch link's slots, each address's share and
//! the server's bound, which the descriptor limit sets (a watch holds a
//! connection). At the server's bound, the address holding the most
//! watches gives up the one that has sent nothing for longest, so that no
//! few addresses can keep everyone else's watches out.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use crate::metrics::{EndedLabels, METRICS};
use crate::service::ApiError;

use super::limits::{Buckets, Empty, refused};
use super::networks::{Networks, Width};
use super::store::WATCH_SEAT;

/// Addresses whose watch openings are remembered at once.
const MOST_OPENERS: usize = 100_000;

/// Watches one seat may hold at once (a person's phone, laptop and a tab
/// or two); another takes the place of the one of them idle longest.
pub const SEAT_WATCHES: usize = 4;

/// The bounds on watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchLimits {
    /// Watches of one table's watch link at once (people watching, not
    /// playing); past it, a watch of it is refused.
    pub per_watch_link: usize,
    /// Watches from one address (IPv6: its /64) at once.
    pub per_address: usize,
    /// Watches on the server at once.
    pub most: usize,
    /// How long a watch may send nothing before it ends (its client
    /// reconnects, and resumes where the table stands).
    pub idle: Duration,
}

impl WatchLimits {
    /// The bounds `limits` set, the server holding at most `most` watches.
    #[must_use]
    pub fn of(limits: &super::limits::TableLimits, most: usize) -> WatchLimits {
        WatchLimits {
            per_watch_link: limits.watchers_per_table,
            per_address: limits.watches_per_address,
            most,
            idle: limits.watch_idle,
        }
    }
}

/// Why a watch was ended by the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Its seat opened a newer watch with all its slots held.
    Replaced,
    /// The server held as many watches as it may, and its address held
    /// the most.
    Evicted,
    /// It sent nothing for the idle time.
    Idle,
}

impl Ended {
    /// As the metrics name it.
    fn name(self) -> &'static str {
        match self {
            Ended::Replaced => "replaced",
            Ended::Evicted => "evicted",
            Ended::Idle => "idle",
        }
    }

    /// Counts a watch ended so (`pips_table_watches_ended_total`).
    pub fn count(self) {
        METRICS
            .watches_ended
            .get_or_create(&EndedLabels {
                reason: self.name(),
            })
            .inc();
    }
}

/// The watches held on this server.
#[derive(Debug)]
pub struct Watches {
    /// The bounds.
    limits: WatchLimits,
    /// When the registry began: a watch's last activity counts from it.
    epoch: Instant,
    /// The watches, by place and by address.
    registry: Mutex<Registry>,
    /// Each address's bucket of watches opened: a burst of its share,
    /// then as many a minute, so that watches ended by the server are
    /// not opened again as fast as a script can.
    opens: Buckets<IpAddr>,
}

/// The watches, indexed.
#[derive(Debug, Default)]
struct Registry {
    /// The next watch's number.
    next: u64,
    /// Every watch, by number.
    entries: HashMap<u64, Entry>,
    /// The watches of each table's seat (the watch link's: `WATCH_SEAT`).
    by_place: HashMap<(String, i64), Vec<u64>>,
    /// The watches from each address.
    by_address: HashMap<IpAddr, Vec<u64>>,
}

/// One watch.
#[derive(Debug)]
struct Entry {
    /// Its table.
    table: String,
    /// Its seat (the watch link's: `WATCH_SEAT`).
    seat: i64,
    /// The address it counts by.
    address: IpAddr,
    /// When it last sent an update (ms from the registry's epoch).
    active: Arc<AtomicU64>,
    /// Told when the server ends it.
    end: Arc<Notify>,
}

/// A watch's place among the watches, given back when it is dropped.
#[derive(Debug)]
pub struct WatchPermit {
    /// The registry.
    watches: Arc<Watches>,
    /// Its number.
    id: u64,
    /// When it last sent an update.
    active: Arc<AtomicU64>,
    /// Told when the server ends it.
    end: Arc<Notify>,
}

impl WatchPermit {
    /// Notes that the watch sent an update now.
    pub fn sent(&self) {
        self.active.store(self.watches.now(), Ordering::Relaxed);
    }

    /// Completes when the server ends the watch (a newer one took its
    /// seat's slot, or its address gave it up at the server's bound).
    pub async fn ended(&self) {
        self.end.notified().await;
    }

    /// How much longer the watch may send nothing before it ends (zero:
    /// it has been idle for its time).
    #[must_use]
    pub fn idle_left(&self) -> Duration {
        let quiet = self
            .watches
            .now()
            .saturating_sub(self.active.load(Ordering::Relaxed));
        self.watches
            .limits
            .idle
            .saturating_sub(Duration::from_millis(quiet))
    }
}

impl Drop for WatchPermit {
    fn drop(&mut self) {
        if let Ok(mut registry) = self.watches.registry.lock() {
            registry.remove(self.id);
            METRICS.watches.set(gauge(registry.entries.len()));
        }
    }
}

/// A count as the gauge takes it.
fn gauge(count: usize) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

impl Registry {
    /// Forgets watch `id`; what it was, if it was held.
    fn remove(&mut self, id: u64) -> Option<Entry> {
        let entry = self.entries.remove(&id)?;
        let place = (entry.table.clone(), entry.seat);
        unlist(&mut self.by_place, &place, id);
        unlist(&mut self.by_address, &entry.address, id);
        Some(entry)
    }

    /// Of `ids` (not in `skip`), the one that sent nothing for longest
    /// (the oldest of equals).
    fn idle_longest(&self, ids: Option<&Vec<u64>>, skip: &[u64]) -> Option<u64> {
        ids?.iter()
            .filter(|id| !skip.contains(id))
            .filter_map(|id| {
                let entry = self.entries.get(id)?;
                Some((entry.active.load(Ordering::Relaxed), *id))
            })
            .min()
            .map(|(_, id)| id)
    }

    /// Watches from `address` once those of `skip` are gone.
    fn held_by(&self, address: &IpAddr, skip: &[u64]) -> usize {
        self.by_address
            .get(address)
            .map_or(0, |ids| ids.iter().filter(|id| !skip.contains(id)).count())
    }
}

/// Takes `id` off `key`'s list, and the list with its last.
fn unlist<K: std::hash::Hash + Eq + Clone>(lists: &mut HashMap<K, Vec<u64>>, key: &K, id: u64) {
    if let Some(ids) = lists.get_mut(key) {
        ids.retain(|held| *held != id);
        if ids.is_empty() {
            lists.remove(key);
        }
    }
}

impl Watches {
    /// No watches yet, within `limits`.
    #[must_use]
    pub fn new(limits: WatchLimits) -> Watches {
        Watches {
            limits,
            epoch: Instant::now(),
            registry: Mutex::default(),
            opens: Buckets::new(MOST_OPENERS),
        }
    }

    /// The bounds.
    #[must_use]
    pub fn limits(&self) -> WatchLimits {
        self.limits
    }

    /// Takes one of `peer`'s watch openings (asked before anything of
    /// the watch is looked up).
    ///
    /// # Errors
    /// The address opened as many watches as it may lately.
    pub fn may_open(&self, peer: Option<IpAddr>) -> Result<(), ApiError> {
        let address = Networks::of(peer).at(Width::Address);
        let share = self.limits.per_address as f64;
        self.opens
            .take(&[(address, share)], Instant::now())
            .map_err(|Empty { wait, .. }| {
                refused(match wait {
                    Some(seconds) => format!(
                        "{} watches a minute may be opened from one address: retry in {seconds} s",
                        self.limits.per_address
                    ),
                    None => "too many addresses are opening watches at once: retry in a minute"
                        .to_owned(),
                })
            })
    }

    /// Now, in ms from the epoch.
    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// A place for a watch of `table`'s `seat` (the watch link's:
    /// `WATCH_SEAT`) from `peer`, ending what must make way for it: the
    /// seat's own watch idle longest when it holds all its slots; at the
    /// server's bound, the watch idle longest of the address holding the
    /// most (or of the newcomer's own, when none holds more than one
    /// beyond it).
    ///
    /// # Errors
    /// The watch link's slots all held, the address's share held, or the
    /// server's bound reached with every address holding one.
    pub fn admit(
        self: &Arc<Self>,
        table: &str,
        seat: i64,
        peer: Option<IpAddr>,
    ) -> Result<WatchPermit, ApiError> {
        let address = Networks::of(peer).at(Width::Address);
        let Ok(mut registry) = self.registry.lock() else {
            return Err(refused("the tables' limits are unavailable".to_owned()));
        };
        let place = (table.to_owned(), seat);
        let mut ending: Vec<(u64, Ended)> = Vec::new();
        let at_place = registry.by_place.get(&place).map_or(0, Vec::len);
        if seat == WATCH_SEAT {
            if at_place >= self.limits.per_watch_link {
                return Err(refused(format!(
                    "this table's watch link is watched {} times at once, as many as it may be",
                    self.limits.per_watch_link
                )));
            }
        } else if at_place >= SEAT_WATCHES {
            if let Some(oldest) = registry.idle_longest(registry.by_place.get(&place), &[]) {
                ending.push((oldest, Ended::Replaced));
            }
        }
        let skip: Vec<u64> = ending.iter().map(|(id, _)| *id).collect();
        let mine = registry.held_by(&address, &skip);
        if mine >= self.limits.per_address {
            return Err(refused(format!(
                "{} watches at once may come from one address",
                self.limits.per_address
            )));
        }
        if registry.entries.len() - ending.len() >= self.limits.most {
            let largest = registry
                .by_address
                .keys()
                .filter(|other| **other != address)
                .map(|other| (registry.held_by(other, &skip), *other))
                .max();
            let giver = match largest {
                Some((theirs, other)) if theirs > mine + 1 => other,
                _ if mine > 0 => address,
                _ => {
                    return Err(refused(format!(
                        "the server holds {} watches, as many as it may, each address one or \
                         fewer than this one: retry in a minute",
                        self.limits.most
                    )));
                }
            };
            if let Some(id) = registry.idle_longest(registry.by_address.get(&giver), &skip) {
                ending.push((id, Ended::Evicted));
            }
        }
        for (id, why) in ending {
            if let Some(entry) = registry.remove(id) {
                why.count();
                entry.end.notify_one();
            }
        }
        let id = registry.next;
        registry.next += 1;
        let active = Arc::new(AtomicU64::new(self.now()));
        let end = Arc::new(Notify::new());
        registry.entries.insert(
            id,
            Entry {
                table: table.to_owned(),
                seat,
                address,
                active: Arc::clone(&active),
                end: Arc::clone(&end),
            },
        );
        registry.by_place.entry(place).or_default().push(id);
        registry.by_address.entry(address).or_default().push(id);
        METRICS.watches.set(gauge(registry.entries.len()));
        Ok(WatchPermit {
            watches: Arc::clone(self),
            id,
            active,
            end,
        })
    }

    /// Watches held now.
    #[must_use]
    pub fn held(&self) -> usize {
        self.registry
            .lock()
            .map_or(0, |registry| registry.entries.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn watches(most: usize) -> Arc<Watches> {
        Arc::new(Watches::new(WatchLimits {
            per_watch_link: 2,
            per_address: 5,
            most,
            idle: Duration::from_secs(60),
        }))
    }

    fn from(text: &str) -> Option<IpAddr> {
        Some(text.parse().expect("an address"))
    }

    /// Whether `permit` was ended by the server.
    fn was_ended(permit: &WatchPermit) -> bool {
        let ended = permit.ended();
        futures_util::pin_mut!(ended);
        let waker = futures_util::task::noop_waker();
        let mut context = std::task::Context::from_waker(&waker);
        ended.as_mut().poll(&mut context).is_ready()
    }

    #[test]
    fn a_seat_always_gets_its_own_updates() {
        let watches = watches(100);
        // Another seat (five times: its own four held) and the watch link
        // hold what they may: the seat's own slots are untouched.
        let _others: Vec<_> = (0..5)
            .map(|_| watches.admit("t", 1, from("10.0.0.2")).expect("seat 1"))
            .collect();
        let _link: Vec<_> = (0..2)
            .map(|_| {
                watches
                    .admit("t", WATCH_SEAT, from("10.0.0.3"))
                    .expect("the link")
            })
            .collect();
        assert!(watches.admit("t", WATCH_SEAT, from("10.0.0.4")).is_err());
        let mine: Vec<_> = (0..SEAT_WATCHES)
            .map(|_| watches.admit("t", 0, from("10.0.0.1")).expect("seat 0"))
            .collect();
        // A fifth takes the place of the one idle longest.
        let fifth = watches.admit("t", 0, from("10.0.0.1")).expect("a fifth");
        assert!(was_ended(&mine[0]));
        assert!(!mine[1..].iter().any(was_ended));
        assert!(!was_ended(&fifth));
        assert_eq!(watches.held(), SEAT_WATCHES + 2 + SEAT_WATCHES);
    }

    #[test]
    fn at_the_servers_bound_the_largest_holder_gives_way() {
        let watches = watches(6);
        let hoard: Vec<_> = (0..5)
            .map(|n| {
                watches
                    .admit(&format!("h{n}"), 0, from("10.0.0.9"))
                    .expect("hoarded")
            })
            .collect();
        let _one = watches.admit("a", 0, from("10.0.0.1")).expect("one");
        // Full: a newcomer takes the place of the hoarder's idle longest.
        let _two = watches.admit("b", 0, from("10.0.0.2")).expect("room made");
        assert!(was_ended(&hoard[0]));
        assert_eq!(watches.held(), 6);
        // The hoarder itself, at the bound, gives up its own.
        let _again = watches.admit("h9", 0, from("10.0.0.9")).expect("its own");
        assert!(was_ended(&hoard[1]));
        assert!(!hoard[2..].iter().any(was_ended));
        assert_eq!(watches.held(), 6);
    }

    #[test]
    fn every_address_holding_one_a_newcomer_is_refused_and_places_come_back() {
        let watches = watches(2);
        let one = watches.admit("a", 0, from("10.0.0.1")).expect("one");
        let _two = watches.admit("b", 0, from("10.0.0.2")).expect("two");
        let refused = watches
            .admit("c", 0, from("10.0.0.3"))
            .expect_err("nobody holds more");
        assert_eq!(refused.code, tonic::Code::ResourceExhausted);
        drop(one);
        watches.admit("c", 0, from("10.0.0.3")).expect("given back");
        // An address's share.
        let roomy = Arc::new(Watches::new(WatchLimits {
            most: 100,
            ..watches.limits()
        }));
        let _five: Vec<_> = (0..5)
            .map(|n| {
                roomy
                    .admit(&format!("t{n}"), 0, from("10.0.0.1"))
                    .expect("within")
            })
            .collect();
        let sixth = roomy.admit("t5", 0, from("10.0.0.1")).expect_err("past it");
        assert!(sixth.message.contains("one address"), "{}", sixth.message);
    }

    #[test]
    fn an_address_opens_its_share_in_a_burst_then_as_many_a_minute() {
        let watches = watches(100);
        for _ in 0..5 {
            watches
                .may_open(from("10.0.0.1"))
                .expect("within the burst");
        }
        let refused = watches.may_open(from("10.0.0.1")).expect_err("past it");
        assert!(
            refused.message.contains("5 watches a minute"),
            "{}",
            refused.message
        );
        watches.may_open(from("10.0.0.2")).expect("another address");
    }
}
