//! What the server writes to its log, bounded: a line written for each of
//! an event that a client can cause at will (a refusal, a connection
//! closed for the answers it does not read, a failed turn of a table)
//! would let a flood of them write as fast as it comes (2,751 links that
//! open nothing a second wrote 412 KB/s). Each kind writes at most a line
//! a second: the first of a second is written with how many of its kind
//! were not written since the line before; the rest are counted, and
//! [`flush_every_second`] writes what is left counted once a second has
//! passed, so that a flood's size still shows.

use std::sync::LazyLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How often a kind may write a line.
const EVERY_MS: u64 = 1000;

/// When the process began counting: a kind's last line counts from it.
static EPOCH: LazyLock<Instant> = LazyLock::new(Instant::now);

/// One kind of line, written at most once a second.
#[derive(Debug)]
pub struct Kind {
    /// When its last line was written ([`now`]'s count; 0 for never).
    written: AtomicU64,
    /// Lines of it not written since.
    held_back: AtomicU64,
}

/// Now, in ms from the epoch plus a second (never 0, and a second before
/// is a time too).
fn now() -> u64 {
    u64::try_from(EPOCH.elapsed().as_millis())
        .unwrap_or(u64::MAX - EVERY_MS)
        .saturating_add(EVERY_MS)
}

impl Kind {
    /// A kind that has written nothing yet.
    #[must_use]
    pub const fn new() -> Kind {
        Kind {
            written: AtomicU64::new(0),
            held_back: AtomicU64::new(0),
        }
    }

    /// Whether a line of this kind is to be written now, and if so how
    /// many of its kind were held back since the line before (which it
    /// says); if not, it is counted.
    pub fn admit(&self) -> Option<u64> {
        let now = now();
        let written = self.written.load(Ordering::Relaxed);
        let due = written == 0 || now.saturating_sub(written) >= EVERY_MS;
        if due
            && self
                .written
                .compare_exchange(written, now, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        {
            return Some(self.held_back.swap(0, Ordering::AcqRel));
        }
        self.held_back.fetch_add(1, Ordering::Relaxed);
        None
    }

    /// How many of its kind were held back, if a second has passed since
    /// its last line and some were: they are then reported (and the kind
    /// counts as having written a line now).
    fn take_held_back(&self) -> Option<u64> {
        let now = now();
        let written = self.written.load(Ordering::Relaxed);
        if self.held_back.load(Ordering::Relaxed) == 0 || now.saturating_sub(written) < EVERY_MS {
            return None;
        }
        self.written
            .compare_exchange(written, now, Ordering::AcqRel, Ordering::Relaxed)
            .ok()?;
        Some(self.held_back.swap(0, Ordering::AcqRel))
    }
}

impl Default for Kind {
    fn default() -> Kind {
        Kind::new()
    }
}

/// Kinds of refusal, one per `ErrorReason` number (the reasons are
/// numbered below 256; a larger number shares the last kind).
const REFUSAL_KINDS: usize = 256;

/// Each refusal's kind, by its reason's number.
pub static REFUSALS: [Kind; REFUSAL_KINDS] = [const { Kind::new() }; REFUSAL_KINDS];

/// The kind of a refusal for the reason numbered `reason`.
#[must_use]
pub fn refusal(reason: i32) -> &'static Kind {
    let index = usize::try_from(reason).unwrap_or(0).min(REFUSAL_KINDS - 1);
    &REFUSALS[index]
}

/// Connections closed for holding answers they did not read.
pub static EVICTIONS: Kind = Kind::new();

/// The tables' database failing.
pub static DATABASE: Kind = Kind::new();

/// A table's due turn, or a computer seat's move, that could not be made.
pub static TURNS: Kind = Kind::new();

/// Writes, once a second until the process ends, what each kind held
/// back and has not yet said (a flood that stopped).
pub async fn flush_every_second() {
    let mut tick = tokio::time::interval(Duration::from_millis(EVERY_MS));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        for (number, kind) in REFUSALS.iter().enumerate() {
            if let Some(more) = kind.take_held_back() {
                let reason = i32::try_from(number)
                    .ok()
                    .filter(|_| number < REFUSAL_KINDS - 1)
                    .and_then(|number| crate::proto::ErrorReason::try_from(number).ok())
                    .map_or("other", |reason| reason.as_str_name());
                tracing::info!(
                    reason,
                    more,
                    "refused (held back from the log: this many more)"
                );
            }
        }
        for (kind, what) in [
            (
                &EVICTIONS,
                "connections closed for answers they did not read",
            ),
            (&DATABASE, "the tables' database failed"),
            (&TURNS, "tables' turns that could not be played"),
        ] {
            if let Some(more) = kind.take_held_back() {
                tracing::warn!(more, "{what} (held back from the log: this many more)");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_has_a_kind_of_its_own() {
        let numbers: Vec<i32> = (0..1000)
            .filter(|number| crate::proto::ErrorReason::try_from(*number).is_ok())
            .collect();
        assert!(
            numbers
                .iter()
                .all(|number| *number < (REFUSAL_KINDS - 1) as i32)
        );
        assert!(std::ptr::eq(refusal(5_000), refusal(REFUSAL_KINDS as i32)));
    }

    #[test]
    fn a_kind_writes_at_most_a_line_a_second_and_counts_the_rest() {
        let kind = Kind::new();
        assert_eq!(kind.admit(), Some(0), "the first is written");
        for _ in 0..999 {
            assert_eq!(kind.admit(), None);
        }
        assert_eq!(kind.take_held_back(), None, "not a second yet");
        // A second on: the next line says how many were held back.
        kind.written.fetch_sub(EVERY_MS, Ordering::Relaxed);
        assert_eq!(kind.admit(), Some(999));
        assert_eq!(kind.admit(), None);
        kind.written.fetch_sub(EVERY_MS, Ordering::Relaxed);
        assert_eq!(kind.take_held_back(), Some(1), "the flood stopped: said");
        assert_eq!(kind.take_held_back(), None);
    }
}
