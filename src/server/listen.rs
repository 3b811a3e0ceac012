//! The accept loop: takes connections while the server runs, at most
//! `max_connections` at once, backs off when the process runs out of file
//! descriptors instead of spinning, and on shutdown lets every connection
//! finish what it has in flight.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_rustls::TlsAcceptor;

use super::answers::AnswerBudget;
use super::coalescing_stream::CoalescingStream;
use super::connection::{self, Accepted, Activity, ConnectionLimits, MadeWay, Roster};
use crate::service::pool::Peer;

/// The first pause after an accept error that will repeat until something
/// changes (no descriptors or memory left).
const FIRST_BACKOFF: Duration = Duration::from_millis(5);
/// The longest pause between accept attempts while they keep failing.
const MAX_BACKOFF: Duration = Duration::from_secs(1);
/// The least time between two warnings about failing accepts.
const WARN_EVERY: Duration = Duration::from_secs(10);

/// Whether an accept error is about the whole process (it repeats at once
/// if retried) rather than one connection that went away.
fn is_resource_error(error: &io::Error) -> bool {
    const EMFILE: i32 = 24;
    const ENFILE: i32 = 23;
    const ENOBUFS: i32 = 105;
    const ENOMEM: i32 = 12;
    matches!(
        error.raw_os_error(),
        Some(EMFILE | ENFILE | ENOBUFS | ENOMEM)
    )
}

/// Accept errors and how often to report them.
struct Backoff {
    /// The pause before the next attempt.
    pause: Duration,
    /// Errors since the last warning.
    errors: u64,
    /// When the last warning was written.
    warned: Option<Instant>,
}

impl Backoff {
    fn new() -> Backoff {
        Backoff {
            pause: FIRST_BACKOFF,
            errors: 0,
            warned: None,
        }
    }

    /// Records `error`; the pause to take before accepting again.
    fn failed(&mut self, error: &io::Error) -> Duration {
        self.errors += 1;
        let now = Instant::now();
        if self.warned.is_none_or(|at| now - at >= WARN_EVERY) {
            tracing::warn!(
                %error,
                errors = self.errors,
                "cannot accept connections (descriptor or memory limit); backing off"
            );
            self.warned = Some(now);
            self.errors = 0;
        }
        let pause = self.pause;
        self.pause = (self.pause * 2).min(MAX_BACKOFF);
        pause
    }

    fn succeeded(&mut self) {
        self.pause = FIRST_BACKOFF;
    }
}

/// Counts a connection as open (`pips_connections_open`) until dropped,
/// if it is counted.
struct OpenConnection(bool);

impl OpenConnection {
    fn new(counted: bool) -> OpenConnection {
        if counted {
            crate::metrics::METRICS.connections.inc();
        }
        OpenConnection(counted)
    }
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        if self.0 {
            crate::metrics::METRICS.connections.dec();
        }
    }
}

/// How a listener serves its connections.
pub struct Listening {
    /// The protocol settings and timeouts of each connection.
    pub limits: ConnectionLimits,
    /// The answer budget its connections hold their unwritten answers of.
    pub answers: Arc<AnswerBudget>,
    /// Connections served at once. At the cap a new connection is taken
    /// in place of the connection idle longest (closed, once idle a fifth
    /// of a second), so that idle connections cannot keep everyone else
    /// out; when none is idle, it waits for a place.
    pub max_connections: Option<usize>,
    /// TLS, if the listener speaks it.
    pub tls: Option<TlsAcceptor>,
    /// Whether its connections count in `pips_connections_open` (the
    /// API's do, the metrics listener's do not).
    pub counted: bool,
}

/// A place under the cap for a connection just accepted. At the cap, the
/// connection idle longest is closed to make way for it once it has been
/// idle [`connection::MAKE_WAY_AFTER`] (so that one just accepted is never closed
/// before it could send its first request); while every connection has a
/// request in flight, it waits for one to end.
async fn make_way(slots: &Arc<Semaphore>, roster: &Roster) -> Option<OwnedSemaphorePermit> {
    loop {
        if let Ok(permit) = Arc::clone(slots).try_acquire_owned() {
            return Some(permit);
        }
        match roster.close_longest_idle() {
            MadeWay::After(at) => tokio::select! {
                permit = Arc::clone(slots).acquire_owned() => return permit.ok(),
                () = tokio::time::sleep_until(at) => {}
            },
            MadeWay::Closed | MadeWay::Busy => {
                return Arc::clone(slots).acquire_owned().await.ok();
            }
        }
    }
}

/// Serves `app` on `listener` as `how` says until `shutdown` completes,
/// then stops accepting and waits for the connections to close (each
/// within its drain time).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    how: Listening,
    shutdown: impl Future<Output = ()>,
) {
    let Listening {
        limits,
        answers,
        max_connections,
        tls,
        counted,
    } = how;
    // Under a cap: its places, and the roster of the connections that
    // may make way.
    let capped =
        max_connections.map(|n| (Arc::new(Semaphore::new(n)), Arc::new(Roster::default())));
    let builder = Arc::new(limits.builder());
    let (stop, stopping) = watch::channel(false);
    let mut connections = JoinSet::new();
    let mut backoff = Backoff::new();
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
            // Reap finished connections so the set does not grow.
            Some(_) = connections.join_next(), if !connections.is_empty() => continue,
        };
        let (stream, peer) = match accepted {
            Ok((stream, address)) => (stream, Peer(address.ip().to_canonical())),
            Err(error) if is_resource_error(&error) => {
                let pause = backoff.failed(&error);
                tokio::select! {
                    () = tokio::time::sleep(pause) => {}
                    () = &mut shutdown => break,
                }
                continue;
            }
            Err(error) => {
                tracing::debug!(%error, "a connection failed while being accepted");
                continue;
            }
        };
        backoff.succeeded();
        // At the cap, the connection idle longest makes way for this one.
        let slot = match &capped {
            Some((slots, roster)) => tokio::select! {
                permit = make_way(slots, roster) => permit,
                () = &mut shutdown => break,
            },
            None => None,
        };
        // Small request/response pairs: without TCP_NODELAY, Nagle's
        // algorithm and delayed ACKs add tens of milliseconds to every call.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "cannot set TCP_NODELAY");
        }
        let (app, builder, stopping) = (app.clone(), Arc::clone(&builder), stopping.clone());
        let answers = Arc::clone(&answers);
        // On the roster at once, before its task runs: a burst of
        // connections finds every one of them there to make way.
        let activity = Arc::new(Activity::new());
        let id = connection::next_id();
        let accepted = Accepted {
            id,
            on_roster: capped
                .as_ref()
                .map(|(_, roster)| roster.enter(id, &activity)),
            activity,
        };
        let open = OpenConnection::new(counted);
        let stream = CoalescingStream(stream);
        match tls.clone() {
            None => {
                connections.spawn(async move {
                    connection::serve(
                        (stream, peer),
                        accepted,
                        app,
                        builder,
                        limits,
                        &answers,
                        stopping,
                    )
                    .await;
                    drop((slot, open));
                });
            }
            Some(acceptor) => {
                connections.spawn(async move {
                    // The handshake counts against the header timeout.
                    let handshake =
                        tokio::time::timeout(limits.header_timeout, acceptor.accept(stream));
                    match handshake.await {
                        Ok(Ok(stream)) => {
                            connection::serve(
                                (stream, peer),
                                accepted,
                                app,
                                builder,
                                limits,
                                &answers,
                                stopping,
                            )
                            .await;
                        }
                        Ok(Err(error)) => tracing::debug!(%error, "TLS handshake failed"),
                        Err(_) => tracing::debug!("TLS handshake timed out"),
                    }
                    drop((slot, open));
                });
            }
        }
    }
    let _ = stop.send(true);
    while connections.join_next().await.is_some() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_out_of_descriptors_backs_off_and_warns_rarely() {
        let error = io::Error::from_raw_os_error(24);
        assert!(is_resource_error(&error));
        assert!(!is_resource_error(&io::Error::from(
            io::ErrorKind::ConnectionAborted
        )));
        let mut backoff = Backoff::new();
        let pauses: Vec<Duration> = (0..10).map(|_| backoff.failed(&error)).collect();
        assert_eq!(pauses[0], FIRST_BACKOFF);
        assert!(pauses.windows(2).all(|pair| pair[1] >= pair[0]));
        assert_eq!(pauses[9], MAX_BACKOFF);
        assert_eq!(backoff.errors, 9, "one warning for the ten errors");
        backoff.succeeded();
        assert_eq!(backoff.pause, FIRST_BACKOFF);
    }
}
