//! The process's descriptors, and the bounds they set. Every connection
//! holds one, and a watch of a table holds its connection for as long as
//! the seat watches, so without bounds a few hundred addresses watching
//! could take every descriptor, and with them every new connection (engine
//! calls and health checks included). At start the binary raises its
//! limit from the soft to the hard one ([`raise`]); the server then serves
//! at most [`connections_for`] connections (leaving room for its database,
//! listeners and files) and holds at most [`watches_for`] watches (a
//! quarter of the connections never being a watch's).

/// Descriptors kept for what is not a client's connection: the database's
/// connections, the listeners, the log, the files SQLite opens.
pub const KEPT_APART: usize = 64;

/// The fewest connections a limit leaves (a limit lower than this and
/// [`KEPT_APART`] is taken as it is).
const FEWEST: usize = 16;

/// The most watches the bound derived from the descriptors allows by
/// default: each costs memory as well (its connection's buffers and
/// state, about 40 KiB with an HTTP/1.1 connection of its own).
pub const MOST_WATCHES: usize = 20_000;

/// The process's limit on open descriptors now (its soft limit), if it
/// can be read.
#[cfg(unix)]
#[must_use]
pub fn limit() -> Option<usize> {
    read().map(|limit| usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX))
}

/// The process's limit on open descriptors now (none on this platform).
#[cfg(not(unix))]
#[must_use]
pub fn limit() -> Option<usize> {
    None
}

/// The process's soft and hard limits on open descriptors.
#[cfg(unix)]
fn read() -> Option<libc::rlimit> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` writes the limit into the struct it is given,
    // which lives for the call.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut limit) };
    (read == 0).then_some(limit)
}

/// Raises the soft limit on open descriptors to the hard one: the limits
/// before and after, if they can be read (the soft one is left as it was
/// when it cannot be raised).
#[cfg(unix)]
#[must_use]
pub fn raise() -> Option<(usize, usize)> {
    let limit = read()?;
    if limit.rlim_cur < limit.rlim_max {
        let raised = libc::rlimit {
            rlim_cur: limit.rlim_max,
            rlim_max: limit.rlim_max,
        };
        // SAFETY: `setrlimit` reads the struct it is given; raising the
        // soft limit up to the hard one needs no privilege.
        unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raw const raised) };
    }
    let before = usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX);
    Some((before, self::limit()?))
}

/// Raises the descriptor limit (nothing to raise on this platform).
#[cfg(not(unix))]
#[must_use]
pub fn raise() -> Option<(usize, usize)> {
    None
}

/// The connections a server with `limit` descriptors serves at once.
#[must_use]
pub fn connections_for(limit: usize) -> usize {
    limit.saturating_sub(KEPT_APART).max(FEWEST)
}

/// The watches a server with `limit` descriptors holds at once: three
/// quarters of its connections (the rest are always there for engine
/// calls, moves and health checks), at most [`MOST_WATCHES`].
#[must_use]
pub fn watches_for(limit: usize) -> usize {
    let connections = connections_for(limit);
    (connections - connections / 4).min(MOST_WATCHES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_bound_connections_and_watches() {
        assert_eq!(connections_for(1024), 960);
        assert_eq!(watches_for(1024), 720);
        assert_eq!(watches_for(1 << 20), MOST_WATCHES);
        assert_eq!(connections_for(32), FEWEST);
        assert_eq!(watches_for(32), 12);
        let (before, after) = raise().expect("the limit is read");
        assert!(after >= before);
        assert_eq!(limit(), Some(after));
    }
}
