//! The tables' limits, so that no client can fill the database or hold the
//! server's memory: tables created per client address (a token bucket),
//! tables kept in all, and watches held per table and per address. An IPv6
//! client counts by its /64, which one host commonly holds whole.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::proto::ErrorReason;
use crate::service::ApiError;

/// The tables' limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableLimits {
    /// Tables one address may create in a minute (a burst of as many,
    /// then one every `60 / n` seconds).
    pub creations_per_minute: u32,
    /// Tables kept at once, server-wide (on a shared database: by all the
    /// servers).
    pub most_tables: u64,
    /// Watches held of one table at once, on one server.
    pub streams_per_table: usize,
    /// Watches held from one address at once, on one server.
    pub streams_per_address: usize,
}

impl Default for TableLimits {
    fn default() -> TableLimits {
        TableLimits {
            creations_per_minute: 10,
            most_tables: 100_000,
            streams_per_table: 32,
            streams_per_address: 64,
        }
    }
}

/// Addresses whose creations are remembered at once; past it, those whose
/// bucket has refilled are forgotten (they hold nothing).
const MOST_ADDRESSES: usize = 100_000;

/// Where the limits stand.
#[derive(Debug)]
pub struct Limiter {
    /// The limits.
    pub limits: TableLimits,
    /// Each address's bucket: its tokens and when they were counted.
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
    /// Watches held, by table and by address.
    streams: Mutex<Streams>,
}

/// Watches held.
#[derive(Debug, Default)]
struct Streams {
    /// By table id.
    by_table: HashMap<String, usize>,
    /// By address.
    by_address: HashMap<IpAddr, usize>,
}

/// A watch's place within the limits, given back when it ends.
#[derive(Debug)]
pub struct StreamPermit {
    /// The limiter.
    limiter: Arc<Limiter>,
    /// The table.
    table: String,
    /// The address.
    address: IpAddr,
}

/// The refusal of a call past a limit: `what` says which.
fn refused(what: String) -> ApiError {
    ApiError {
        code: tonic::Code::ResourceExhausted,
        reason: ErrorReason::TableLimit,
        field: String::new(),
        message: what,
    }
}

/// The address a client counts by: an IPv6 address's /64 (IPv4 whole; no
/// address, for a call from within the process: the unspecified one).
fn counted(peer: Option<IpAddr>) -> IpAddr {
    match peer.map(|peer| peer.to_canonical()) {
        Some(IpAddr::V6(v6)) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(bits.into())
        }
        Some(v4) => v4,
        None => IpAddr::from([0, 0, 0, 0]),
    }
}

/// Decrements `key`'s count, forgetting it at zero.
fn release<K: std::hash::Hash + Eq>(counts: &mut HashMap<K, usize>, key: &K) {
    if let Some(count) = counts.get_mut(key) {
        *count = count.saturating_sub(1);
        if *count == 0 {
            counts.remove(key);
        }
    }
}

impl Limiter {
    /// A limiter of `limits`.
    #[must_use]
    pub fn new(limits: TableLimits) -> Limiter {
        Limiter {
            limits,
            buckets: Mutex::default(),
            streams: Mutex::default(),
        }
    }

    /// Takes one creation from `peer`'s bucket.
    ///
    /// # Errors
    /// When the bucket is empty (or too many addresses are creating
    /// tables at once to remember another).
    pub fn create(&self, peer: Option<IpAddr>, now: Instant) -> Result<(), ApiError> {
        let per_minute = f64::from(self.limits.creations_per_minute);
        let refill = |(tokens, at): (f64, Instant)| {
            let minutes = now.saturating_duration_since(at).as_secs_f64() / 60.0;
            (tokens + minutes * per_minute).min(per_minute)
        };
        let Ok(mut buckets) = self.buckets.lock() else {
            return Err(refused("the tables' limits are unavailable".to_owned()));
        };
        let address = counted(peer);
        if !buckets.contains_key(&address) && buckets.len() >= MOST_ADDRESSES {
            buckets.retain(|_, bucket| refill(*bucket) < per_minute);
            if buckets.len() >= MOST_ADDRESSES {
                return Err(refused(
                    "too many addresses are creating tables at once: retry in a minute".to_owned(),
                ));
            }
        }
        let bucket = buckets.entry(address).or_insert((per_minute, now));
        let tokens = refill(*bucket);
        if tokens < 1.0 {
            return Err(refused(format!(
                "{} tables a minute may be created from one address: retry in {} s",
                self.limits.creations_per_minute,
                ((1.0 - tokens) / per_minute * 60.0).ceil()
            )));
        }
        *bucket = (tokens - 1.0, now);
        Ok(())
    }

    /// Whether another table may be kept, `kept` being kept now.
    ///
    /// # Errors
    /// When the server keeps as many as it may.
    pub fn keep(&self, kept: u64) -> Result<(), ApiError> {
        if kept >= self.limits.most_tables {
            return Err(refused(format!(
                "the server keeps {} tables, as many as it may: retry once some have expired",
                self.limits.most_tables
            )));
        }
        Ok(())
    }

    /// A place for a watch of `table` from `peer`.
    ///
    /// # Errors
    /// When the table, or the address, holds as many watches as it may.
    pub fn stream(
        self: &Arc<Self>,
        table: &str,
        peer: Option<IpAddr>,
    ) -> Result<StreamPermit, ApiError> {
        let Ok(mut streams) = self.streams.lock() else {
            return Err(refused("the tables' limits are unavailable".to_owned()));
        };
        let address = counted(peer);
        if streams.by_table.get(table).copied().unwrap_or(0) >= self.limits.streams_per_table {
            return Err(refused(format!(
                "this table is watched {} times at once, as many as it may be",
                self.limits.streams_per_table
            )));
        }
        if streams.by_address.get(&address).copied().unwrap_or(0) >= self.limits.streams_per_address
        {
            return Err(refused(format!(
                "{} watches at once may come from one address",
                self.limits.streams_per_address
            )));
        }
        *streams.by_table.entry(table.to_owned()).or_insert(0) += 1;
        *streams.by_address.entry(address).or_insert(0) += 1;
        Ok(StreamPermit {
            limiter: Arc::clone(self),
            table: table.to_owned(),
            address,
        })
    }
}

impl Drop for StreamPermit {
    fn drop(&mut self) {
        if let Ok(mut streams) = self.limiter.streams.lock() {
            release(&mut streams.by_table, &self.table);
            release(&mut streams.by_address, &self.address);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn limiter(creations_per_minute: u32) -> Arc<Limiter> {
        Arc::new(Limiter::new(TableLimits {
            creations_per_minute,
            most_tables: 5,
            streams_per_table: 2,
            streams_per_address: 3,
        }))
    }

    #[test]
    fn creations_come_in_a_burst_then_at_the_rate() {
        let limiter = limiter(6);
        let start = Instant::now();
        let one: IpAddr = [10, 0, 0, 1].into();
        for _ in 0..6 {
            limiter.create(Some(one), start).expect("within the burst");
        }
        let refused = limiter.create(Some(one), start).expect_err("past it");
        assert_eq!(refused.code, tonic::Code::ResourceExhausted);
        assert_eq!(refused.reason, ErrorReason::TableLimit);
        assert!(
            refused.message.contains("retry in 10 s"),
            "{}",
            refused.message
        );
        // Another address has its own bucket; ten seconds bring one more.
        limiter
            .create(Some([10, 0, 0, 2].into()), start)
            .expect("another");
        limiter
            .create(Some(one), start + Duration::from_secs(10))
            .expect("refilled");
        assert!(
            limiter
                .create(Some(one), start + Duration::from_secs(10))
                .is_err()
        );
    }

    #[test]
    fn an_ipv6_client_counts_by_its_64() {
        let limiter = limiter(1);
        let now = Instant::now();
        let a: IpAddr = "2001:db8::1".parse().expect("an address");
        let b: IpAddr = "2001:db8::ffff:2".parse().expect("an address");
        let other: IpAddr = "2001:db8:0:1::1".parse().expect("an address");
        limiter.create(Some(a), now).expect("first");
        assert!(limiter.create(Some(b), now).is_err(), "the same /64");
        limiter.create(Some(other), now).expect("another /64");
        let mapped: IpAddr = "::ffff:10.0.0.9".parse().expect("an address");
        limiter.create(Some(mapped), now).expect("IPv4");
        assert!(
            limiter.create(Some([10, 0, 0, 9].into()), now).is_err(),
            "the same IPv4"
        );
    }

    #[test]
    fn tables_and_watches_are_capped_and_given_back() {
        let limiter = limiter(1);
        limiter.keep(4).expect("room");
        assert!(limiter.keep(5).is_err());
        let here: IpAddr = [10, 0, 0, 1].into();
        let first = limiter.stream("t", Some(here)).expect("a watch");
        let second = limiter.stream("t", Some(here)).expect("a watch");
        let full = limiter
            .stream("t", Some([10, 0, 0, 2].into()))
            .expect_err("per table");
        assert!(full.message.contains("this table"));
        let third = limiter.stream("u", Some(here)).expect("another table");
        let address = limiter.stream("v", Some(here)).expect_err("per address");
        assert!(address.message.contains("one address"));
        drop((first, third));
        let _again = limiter.stream("t", Some(here)).expect("given back");
        drop(second);
    }
}
