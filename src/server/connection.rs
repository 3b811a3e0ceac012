//! One accepted connection, served until it closes, idles too long or the
//! server shuts down.
//!
//! A connection is *idle* while no request is in flight. An idle connection
//! is closed once it has been idle for the header timeout if it has not yet
//! sent a complete request (a client that connects and sends nothing, or
//! half a header), and for the idle timeout after that (an HTTP/1.1
//! keep-alive connection between requests, an HTTP/2 connection without
//! streams). Closing is graceful first (HTTP/2 GOAWAY; HTTP/1.1 closes once
//! no request is in progress), then forced after a short grace, so a client
//! that stops reading cannot hold it open.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::sync::{Notify, Semaphore, watch};
use tokio::time::Instant;
use tower::ServiceExt;

use super::answer_body::Keeping;
use super::answers::{AnswerBudget, ConnectionAnswers};
use crate::service::pool::{ConnectionId, Peer};

/// How long an idle connection may take to close after it is told to.
const IDLE_GRACE: Duration = Duration::from_secs(1);

/// The most an HTTP/1.1 connection reads ahead (hyper's least; its default
/// is 400 KiB): a request head must fit (as nginx's default buffers
/// require), and a body is read 8 KiB at a time. Its read buffer is one of
/// the two a connection keeps while it holds a stream open (a seat
/// watching by server-sent events): without the cap it grows to 16 KiB on
/// the read that follows the request.
const HTTP1_BUFFER: usize = 8 * 1024;

/// How connections are served: the protocol settings and the timeouts.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// How long a new connection may take to send its first complete
    /// request (also hyper's HTTP/1.1 header-read timeout).
    pub header_timeout: Duration,
    /// How long a connection may stay without a request in flight.
    pub idle_timeout: Duration,
    /// Streams one HTTP/2 connection may have open at once.
    pub max_streams: u32,
    /// How often an idle HTTP/2 connection is pinged.
    pub keepalive_interval: Duration,
    /// How long a ping's answer may take before the connection is closed.
    pub keepalive_timeout: Duration,
    /// How long the calls in flight may take to finish when the server
    /// shuts down, before their connection is dropped.
    pub drain: Duration,
    /// Calls of one connection that may wait for their bodies at once (its
    /// share of the server's waiting places).
    pub waiting_per_connection: usize,
    /// Bytes of answers one connection may have unwritten at once (its
    /// share of the server's answer budget).
    pub answer_bytes_per_connection: usize,
}

/// What one connection may hold of the server's shared budgets, and its
/// identity for the work pool; set on each of its requests.
#[derive(Clone, Debug)]
pub struct ConnectionShare {
    /// Its waiting places for bodies still arriving.
    pub waiting: Arc<Semaphore>,
    /// Its share of the answer budget (and the signal to close it at once
    /// when it holds answers it does not read).
    pub answers: Arc<ConnectionAnswers>,
}

/// Marks an answer that is a stream going on after its head (a watch,
/// reflection): its connection counts as busy until the stream ends, so
/// that it is not closed as idle under it.
#[derive(Clone, Copy, Debug)]
pub struct Streaming;

/// The next connection's number.
static NEXT_CONNECTION: AtomicU64 = AtomicU64::new(1);

impl ConnectionLimits {
    /// The HTTP/1.1 and HTTP/2 settings for these limits.
    pub fn builder(&self) -> auto::Builder<TokioExecutor> {
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(self.header_timeout)
            .max_buf_size(HTTP1_BUFFER);
        builder
            .http2()
            .timer(TokioTimer::new())
            .max_concurrent_streams(self.max_streams)
            .keep_alive_interval(self.keepalive_interval)
            .keep_alive_timeout(self.keepalive_timeout);
        builder
    }
}

/// What a connection is doing, shared by its requests and its watchdog.
#[derive(Debug)]
pub struct Activity {
    /// The counts and times, changed together.
    state: Mutex<ActivityState>,
    /// Woken whenever a request starts or ends.
    changed: Notify,
    /// Told when the connection is to close (its listener, at its cap,
    /// takes a new connection in its place).
    close: Notify,
}

/// The connections of a listener that, at its cap, makes room for a new
/// connection by closing the one idle longest.
#[derive(Debug, Default)]
pub struct Roster {
    /// The connections served, by number.
    connections: Mutex<std::collections::HashMap<u64, Arc<Activity>>>,
}

impl Roster {
    /// Puts a connection just accepted on the roster (before its task
    /// runs, so that a burst of connections finds each of them there);
    /// it stays until the returned place is dropped.
    pub fn enter(self: &Arc<Self>, id: ConnectionId, activity: &Arc<Activity>) -> OnRoster {
        if let Ok(mut connections) = self.connections.lock() {
            connections.insert(id.0, Arc::clone(activity));
        }
        OnRoster(Arc::clone(self), id.0)
    }

    /// Tells the connection idle longest (no request in flight, not told
    /// already) to close, if it has been idle for [`MAKE_WAY_AFTER`] at
    /// least: [`MadeWay::Closed`] if one was told, [`MadeWay::After`] the
    /// moment the longest idle will have been idle that long, or
    /// [`MadeWay::Busy`] when every connection has a request in flight.
    pub fn close_longest_idle(&self) -> MadeWay {
        let Ok(connections) = self.connections.lock() else {
            return MadeWay::Busy;
        };
        let idle = connections
            .values()
            .filter_map(|activity| {
                let state = *activity.state.lock().ok()?;
                (state.in_flight == 0 && !state.closing).then_some((state.idle_since, activity))
            })
            .min_by_key(|(since, _)| *since);
        match idle {
            Some((since, _)) if since + MAKE_WAY_AFTER > Instant::now() => {
                MadeWay::After(since + MAKE_WAY_AFTER)
            }
            Some((_, activity)) => {
                activity.update(|state| state.closing = true);
                activity.close.notify_one();
                MadeWay::Closed
            }
            None => MadeWay::Busy,
        }
    }
}

/// The least time a connection has been idle (or silent since it was
/// accepted) before it is closed to make way for another: a connection
/// just accepted has that long to send its first request, however fast
/// others arrive after it (a scrape among a burst of silent connections
/// is then served, not closed before its request was read). A burst is
/// let in at the cap's size every this long.
pub const MAKE_WAY_AFTER: Duration = Duration::from_millis(200);

/// What [`Roster::close_longest_idle`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MadeWay {
    /// A connection was told to close.
    Closed,
    /// None yet: the connection idle longest may be closed at this moment.
    After(Instant),
    /// None: every connection has a request in flight.
    Busy,
}

/// A connection's place on its listener's roster, left when dropped.
pub struct OnRoster(Arc<Roster>, u64);

impl Drop for OnRoster {
    fn drop(&mut self) {
        if let Ok(mut connections) = self.0.connections.lock() {
            connections.remove(&self.1);
        }
    }
}

/// See [`Activity`].
#[derive(Clone, Copy, Debug)]
struct ActivityState {
    /// Requests in flight.
    in_flight: usize,
    /// When the connection last became idle (or was accepted).
    idle_since: Instant,
    /// Whether it has sent a complete request since it was accepted.
    seen_request: bool,
    /// Whether it has been told to close (to make way for another).
    closing: bool,
}

impl Activity {
    /// A connection's activity from its acceptance.
    pub fn new() -> Activity {
        Activity {
            state: Mutex::new(ActivityState {
                in_flight: 0,
                idle_since: Instant::now(),
                seen_request: false,
                closing: false,
            }),
            changed: Notify::new(),
            close: Notify::new(),
        }
    }

    /// Changes the state, then wakes the watchdog.
    fn update(&self, change: impl FnOnce(&mut ActivityState)) {
        if let Ok(mut state) = self.state.lock() {
            change(&mut state);
        }
        self.changed.notify_waiters();
    }

    /// A request has arrived (its head is complete); it is in flight until
    /// the returned guard is dropped.
    fn begin(self: &Arc<Self>) -> InFlight {
        self.update(|state| {
            state.in_flight += 1;
            state.seen_request = true;
        });
        InFlight(Arc::clone(self))
    }

    /// A request has been answered.
    fn end(&self) {
        self.update(|state| {
            state.in_flight = state.in_flight.saturating_sub(1);
            if state.in_flight == 0 {
                state.idle_since = Instant::now();
            }
        });
    }

    /// When the connection will have been idle too long, if it is idle.
    fn deadline(&self, limits: ConnectionLimits) -> Option<Instant> {
        let state = *self.state.lock().ok()?;
        let limit = if state.seen_request {
            limits.idle_timeout
        } else {
            limits.header_timeout
        };
        (state.in_flight == 0).then(|| state.idle_since + limit)
    }

    /// Completes once the connection has been idle for too long.
    async fn idle_too_long(&self, limits: ConnectionLimits) {
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            match self.deadline(limits) {
                None => changed.await,
                Some(deadline) if deadline <= Instant::now() => return,
                Some(deadline) => tokio::select! {
                    () = tokio::time::sleep_until(deadline) => {}
                    () = changed => {}
                },
            }
        }
    }
}

/// Ends a request's activity when dropped, whether it was answered or
/// cancelled.
struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.end();
    }
}

/// The number a new connection goes by.
pub fn next_id() -> ConnectionId {
    ConnectionId(NEXT_CONNECTION.fetch_add(1, Ordering::Relaxed))
}

/// A connection accepted: its number, what it is doing, its place on
/// its listener's roster (if the listener keeps one: it is closed when the
/// listener takes a new connection in its place).
pub struct Accepted {
    /// Its number.
    pub id: ConnectionId,
    /// What it is doing.
    pub activity: Arc<Activity>,
    /// Its place on the roster.
    pub on_roster: Option<OnRoster>,
}

/// Serves `stream` with `app` until the connection closes, idles too long,
/// or `shutdown` changes (then it finishes what is in flight, within the
/// grace); its share of `answers` is listed while it is served, and it is
/// closed at once should the budget evict it, or its listener take a new
/// connection in its place.
pub async fn serve<S>(
    (stream, peer): (S, Peer),
    accepted: Accepted,
    app: Router,
    builder: Arc<auto::Builder<TokioExecutor>>,
    limits: ConnectionLimits,
    answers: &Arc<AnswerBudget>,
    mut shutdown: watch::Receiver<bool>,
) where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let Accepted {
        id,
        activity,
        on_roster: _on_roster,
    } = accepted;
    let requests = Arc::clone(&activity);
    let place = answers.connection(limits.answer_bytes_per_connection);
    let share = ConnectionShare {
        waiting: Arc::new(Semaphore::new(limits.waiting_per_connection)),
        answers: Arc::clone(place.answers()),
    };
    let service = hyper::service::service_fn(move |mut request: http::Request<Incoming>| {
        let in_flight = requests.begin();
        let app = app.clone();
        request.extensions_mut().insert(id);
        request.extensions_mut().insert(peer);
        request.extensions_mut().insert(share.clone());
        async move {
            match app.oneshot(request.map(Body::new)).await {
                Ok(answer) if answer.extensions().get::<Streaming>().is_some() => {
                    Ok(answer.map(|body| {
                        Body::new(Keeping {
                            body,
                            _kept: in_flight,
                        })
                    }))
                }
                answer => {
                    drop(in_flight);
                    answer
                }
            }
        }
    });
    // Boxed: kept inline, the connection's state (1.5 KiB) was held twice
    // in this function's (the pinned copy and the one it was moved from),
    // for every connection the server holds.
    let mut connection =
        Box::pin(builder.serve_connection_with_upgrades(TokioIo::new(stream), service));
    let (closing, grace) = tokio::select! {
        result = connection.as_mut() => {
            if let Err(error) = result {
                tracing::debug!(%error, "connection ended with an error");
            }
            return;
        }
        () = place.answers().closed() => {
            // It holds answers it does not read while the budget is spent:
            // dropped at once, with them.
            tracing::debug!("connection evicted");
            return;
        }
        () = activity.idle_too_long(limits) => ("idle", IDLE_GRACE),
        () = activity.close.notified() => {
            // Idle, and another connection waits for its place: closed at
            // once.
            tracing::debug!("connection replaced");
            return;
        }
        _ = shutdown.wait_for(|&stop| stop) => ("shutdown", limits.drain),
    };
    tracing::debug!(reason = closing, "closing connection");
    connection.as_mut().graceful_shutdown();
    if tokio::time::timeout(grace, connection).await.is_err() {
        tracing::debug!("connection did not close within its grace; dropped");
    }
}
