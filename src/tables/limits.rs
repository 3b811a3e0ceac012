//! The tables' limits, so that no client can fill the database or hold the
//! server's memory: tables created per client (a token bucket at each of
//! the client's widths, [`super::networks`]), tables kept per client (a
//! share at each width, kept on the database: `Store::create`); and the
//! bounds on watches ([`super::watches`] keeps them).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::proto::ErrorReason;
use crate::service::ApiError;

use super::networks::{Networks, Width};

/// The tables' limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableLimits {
    /// Tables one address may create in a minute (a burst of as many,
    /// then one every `60 / n` seconds); a network ten times as many, a
    /// block a hundred times.
    pub creations_per_minute: u32,
    /// Tables kept at once, server-wide (on a shared database: by all the
    /// servers).
    pub most_tables: u64,
    /// Tables kept at once that one address created; a network may keep
    /// ten times as many, a block a hundred times (each at most
    /// `most_tables`).
    pub tables_per_address: u64,
    /// Watches of one table's watch link at once, on one server (each
    /// seat has slots of its own besides: `watches::SEAT_WATCHES`).
    pub watchers_per_table: usize,
    /// Watches held from one address at once, on one server.
    pub watches_per_address: usize,
    /// Watches held on one server at once; `None`: from its descriptor
    /// limit (`server::descriptors`).
    pub max_watches: Option<usize>,
    /// How long a watch may send nothing before it ends (its client
    /// reconnects).
    pub watch_idle: Duration,
}

impl Default for TableLimits {
    fn default() -> TableLimits {
        TableLimits {
            creations_per_minute: 10,
            most_tables: 100_000,
            tables_per_address: 100,
            watchers_per_table: 32,
            watches_per_address: 64,
            max_watches: None,
            watch_idle: Duration::from_secs(60 * 60),
        }
    }
}

impl TableLimits {
    /// Tables a client's group at `width` may keep at once (when as many
    /// as the cap or more, the cap alone bounds it).
    #[must_use]
    pub fn share(&self, width: Width) -> u64 {
        self.tables_per_address.saturating_mul(width.times())
    }
}

/// Groups (an address, a network, a block) whose creations are
/// remembered at once; past it, those whose bucket has refilled are
/// forgotten (they hold nothing).
const MOST_GROUPS: usize = 300_000;

/// Where the limits stand.
#[derive(Debug)]
pub struct Limiter {
    /// The limits.
    pub limits: TableLimits,
    /// Each group's bucket of creations.
    buckets: Buckets<(Width, IpAddr)>,
}

/// The refusal of a call past a limit: `what` says which.
pub(super) fn refused(what: String) -> ApiError {
    ApiError {
        code: tonic::Code::ResourceExhausted,
        reason: ErrorReason::TableLimit,
        field: String::new(),
        message: what,
    }
}

impl Limiter {
    /// A limiter of `limits`.
    #[must_use]
    pub fn new(limits: TableLimits) -> Limiter {
        Limiter {
            limits,
            buckets: Buckets::new(MOST_GROUPS),
        }
    }

    /// Takes one creation from the buckets of `client` at every width.
    ///
    /// # Errors
    /// When a bucket is empty (or too many groups are creating tables at
    /// once to remember another).
    pub fn create(&self, client: &Networks, now: Instant) -> Result<(), ApiError> {
        let per_minute = f64::from(self.limits.creations_per_minute);
        let groups =
            Width::ALL.map(|width| ((width, client.at(width)), per_minute * width.times() as f64));
        self.buckets
            .take(&groups, now)
            .map_err(|Empty { index, wait }| {
                let width = Width::ALL[index.min(2)];
                match wait {
                    Some(seconds) => refused(format!(
                        "{} tables a minute may be created from one {}: retry in {seconds} s",
                        groups[index.min(2)].1,
                        width.name(),
                    )),
                    None => refused(
                        "too many addresses are creating tables at once: retry in a minute"
                            .to_owned(),
                    ),
                }
            })
    }
}

/// Why a bucket gave no token: which (its index among those asked) and
/// in how many seconds it will have one (`None`: too many buckets are
/// kept to keep another).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Empty {
    /// The bucket's index among those asked.
    pub index: usize,
    /// Seconds until it has a token, if it is kept.
    pub wait: Option<u64>,
}

/// Token buckets, one per key, each holding up to its size and refilled
/// at its size a minute (a burst of as many, then one every `60 / size`
/// seconds). At most `most` are kept; past it, those refilled (holding
/// nothing worth keeping) are forgotten.
#[derive(Debug)]
pub struct Buckets<K> {
    /// The most buckets kept.
    most: usize,
    /// Each key's tokens, when they were counted, and its size.
    kept: Mutex<HashMap<K, (f64, Instant, f64)>>,
}

impl<K: std::hash::Hash + Eq + Copy> Buckets<K> {
    /// No buckets yet, at most `most` kept.
    #[must_use]
    pub fn new(most: usize) -> Buckets<K> {
        Buckets {
            most,
            kept: Mutex::default(),
        }
    }

    /// Takes a token from each of `keys` (each with its bucket's size),
    /// from all of them or from none.
    ///
    /// # Errors
    /// The first bucket without a token.
    pub fn take(&self, keys: &[(K, f64)], now: Instant) -> Result<(), Empty> {
        let refill = |(tokens, at, full): (f64, Instant, f64)| {
            let minutes = now.saturating_duration_since(at).as_secs_f64() / 60.0;
            (tokens + minutes * full).min(full)
        };
        let Ok(mut kept) = self.kept.lock() else {
            return Err(Empty {
                index: 0,
                wait: None,
            });
        };
        let new = keys
            .iter()
            .filter(|(key, _)| !kept.contains_key(key))
            .count();
        if kept.len() + new > self.most {
            kept.retain(|_, bucket| refill(*bucket) < bucket.2);
            if kept.len() + new > self.most {
                return Err(Empty {
                    index: 0,
                    wait: None,
                });
            }
        }
        let mut tokens = Vec::with_capacity(keys.len());
        for (index, (key, full)) in keys.iter().enumerate() {
            let (had, at, _) = kept.get(key).copied().unwrap_or((*full, now, *full));
            let left = refill((had, at, *full));
            if left < 1.0 {
                let wait = ((1.0 - left) / full * 60.0).ceil();
                return Err(Empty {
                    index,
                    wait: Some(wait as u64),
                });
            }
            tokens.push(left);
        }
        for ((key, full), left) in keys.iter().zip(tokens) {
            kept.insert(*key, (left - 1.0, now, *full));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn limiter(creations_per_minute: u32) -> Arc<Limiter> {
        Arc::new(Limiter::new(TableLimits {
            creations_per_minute,
            most_tables: 5,
            tables_per_address: 2,
            ..TableLimits::default()
        }))
    }

    fn client(text: &str) -> Networks {
        Networks::of(Some(text.parse().expect("an address")))
    }

    #[test]
    fn creations_come_in_a_burst_then_at_the_rate() {
        let limiter = limiter(6);
        let start = Instant::now();
        let one = client("10.0.0.1");
        for _ in 0..6 {
            limiter.create(&one, start).expect("within the burst");
        }
        let refused = limiter.create(&one, start).expect_err("past it");
        assert_eq!(refused.code, tonic::Code::ResourceExhausted);
        assert_eq!(refused.reason, ErrorReason::TableLimit);
        assert!(
            refused.message.contains("one address: retry in 10 s"),
            "{}",
            refused.message
        );
        // Another address has its own bucket; ten seconds bring one more.
        limiter.create(&client("10.0.0.2"), start).expect("another");
        limiter
            .create(&one, start + Duration::from_secs(10))
            .expect("refilled");
        assert!(
            limiter
                .create(&one, start + Duration::from_secs(10))
                .is_err()
        );
    }

    #[test]
    fn a_network_and_a_block_have_buckets_of_their_own() {
        let limiter = limiter(1);
        let now = Instant::now();
        // Ten addresses of one /24 create one each; the eleventh of that
        // network is refused for its network, one of another network not.
        for host in 1..=10 {
            limiter
                .create(&client(&format!("10.0.0.{host}")), now)
                .expect("its own");
        }
        let refused = limiter
            .create(&client("10.0.0.11"), now)
            .expect_err("the network's");
        assert!(refused.message.contains("network"), "{}", refused.message);
        for network in 1..=9 {
            for host in 1..=10 {
                limiter
                    .create(&client(&format!("10.0.{network}.{host}")), now)
                    .expect("another network");
            }
        }
        // A hundred from the /16 in all: its block is spent.
        let refused = limiter
            .create(&client("10.0.10.1"), now)
            .expect_err("the block's");
        assert!(refused.message.contains("block"), "{}", refused.message);
        limiter
            .create(&client("10.1.0.1"), now)
            .expect("another block");
    }

    #[test]
    fn an_ipv6_client_counts_by_its_64() {
        let limiter = limiter(1);
        let now = Instant::now();
        limiter.create(&client("2001:db8::1"), now).expect("first");
        assert!(
            limiter.create(&client("2001:db8::ffff:2"), now).is_err(),
            "the same /64"
        );
        limiter
            .create(&client("2001:db8:0:1::1"), now)
            .expect("another /64");
        limiter
            .create(&client("::ffff:10.0.0.9"), now)
            .expect("IPv4");
        assert!(
            limiter.create(&client("10.0.0.9"), now).is_err(),
            "the same IPv4"
        );
    }

    #[test]
    fn shares_widen_by_ten() {
        let limits = limiter(1).limits;
        assert_eq!(limits.share(Width::Address), 2);
        assert_eq!(limits.share(Width::Network), 20);
        assert_eq!(limits.share(Width::Block), 200);
    }
}
