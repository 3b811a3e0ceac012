//! The work pool: where calls that cost real CPU run (`SuggestMove`'s
//! search, long `Replay`s), so that they never run on the async workers
//! that carry every connection, and never get an OS thread each.
//!
//! - A fixed number of threads, started with the pool and stopped when it
//!   is dropped, each at a lower scheduling priority than the async
//!   workers (Linux: nice 10), so that when the machine's cores are busy
//!   the transport and the cheap calls go first.
//! - A bounded queue, served round-robin by connection: a worker takes the
//!   oldest job of the connection served longest ago, so one connection's
//!   burst waits behind everyone else's next job.
//! - Admission at once: a job is refused (`RESOURCE_EXHAUSTED`,
//!   `ERROR_REASON_OVERLOADED`) when the queue is full or its connection
//!   already has its share of the pool (queued or running); a job that has
//!   not started by the time given with it is refused then, and a job
//!   whose caller has gone is dropped unrun.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

use tokio::sync::oneshot;

use super::error::ApiError;

/// The connection a call came on, set by the server on every request
/// (its extensions), so that the pool can share itself fairly among
/// connections. Calls made without one (in-process) share connection 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ConnectionId(pub u64);

/// The address a connection came from, set by the server on every
/// request, for the limits kept per client address.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Peer(pub std::net::IpAddr);

/// The instant by which a call must be answered (the server's request
/// timeout or the client's shorter deadline), set by the server on every
/// request it admits.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CallDeadline(pub Instant);

/// What the pool needs to know of a call: its connection and its
/// deadline.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Call {
    /// The connection it came on.
    pub connection: ConnectionId,
    /// When it must be answered by.
    pub deadline: Instant,
    /// The client's address, when it came over the network.
    pub peer: Option<std::net::IpAddr>,
}

/// A call's deadline when the server set none (an in-process call): the
/// server's default request timeout.
const DEFAULT_DEADLINE: std::time::Duration = std::time::Duration::from_secs(5);

impl Call {
    /// The call whose request carries these extensions.
    #[must_use]
    pub fn of(extensions: &http::Extensions) -> Call {
        Call {
            connection: extensions
                .get::<ConnectionId>()
                .copied()
                .unwrap_or_default(),
            deadline: extensions
                .get::<CallDeadline>()
                .map_or_else(|| Instant::now() + DEFAULT_DEADLINE, |d| d.0),
            peer: extensions.get::<Peer>().map(|peer| peer.0),
        }
    }
}

/// How big the pool is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PoolSize {
    /// Threads doing the work.
    pub threads: usize,
    /// Jobs that may wait for a thread, across connections.
    pub queue: usize,
}

impl PoolSize {
    /// One thread per core, and four waiting places per thread.
    #[must_use]
    pub fn for_this_machine() -> PoolSize {
        PoolSize::with_threads(std::thread::available_parallelism().map_or(1, usize::from))
    }

    /// `threads` threads, and four waiting places per thread.
    #[must_use]
    pub fn with_threads(threads: usize) -> PoolSize {
        PoolSize {
            threads,
            queue: 4 * threads,
        }
    }

    /// Jobs one connection may have queued or running at once: a quarter
    /// of what the pool holds (threads and queue), at least one, so that
    /// at least four connections always find room.
    #[must_use]
    pub fn per_connection(&self) -> usize {
        (self.threads + self.queue).div_ceil(4).max(1)
    }
}

/// A job as a worker runs it.
type Job = Box<dyn FnOnce() + Send>;

/// The queue and the counts, changed under one lock.
#[derive(Default)]
struct Queue {
    /// Queued jobs by connection, oldest first, each with its number.
    jobs: HashMap<ConnectionId, VecDeque<(u64, Job)>>,
    /// The next job's number.
    next_number: u64,
    /// Connections with queued jobs, in the order they are next served.
    turn: VecDeque<ConnectionId>,
    /// Jobs queued or running in all.
    held: usize,
    /// Jobs queued or running, by connection (absent: none).
    outstanding: HashMap<ConnectionId, usize>,
    /// Set when the pool is dropped: workers finish the queue and exit.
    closed: bool,
}

impl Queue {
    /// The next job to run: the oldest of the connection whose turn it is.
    fn next(&mut self) -> Option<Job> {
        let connection = self.turn.pop_front()?;
        let jobs = self.jobs.get_mut(&connection)?;
        let job = jobs.pop_front();
        if jobs.is_empty() {
            self.jobs.remove(&connection);
        } else {
            self.turn.push_back(connection);
        }
        job.map(|(_, job)| job)
    }

    /// Takes job `number` of `connection` off the queue if it is still
    /// there (its caller has gone); whether it was.
    fn withdraw(&mut self, connection: ConnectionId, number: u64) -> bool {
        let Some(jobs) = self.jobs.get_mut(&connection) else {
            return false;
        };
        let Some(at) = jobs.iter().position(|(n, _)| *n == number) else {
            return false;
        };
        jobs.remove(at);
        if jobs.is_empty() {
            self.jobs.remove(&connection);
            self.turn.retain(|c| *c != connection);
        }
        self.finished(connection);
        true
    }

    /// A job of `connection` has finished (run or dropped).
    fn finished(&mut self, connection: ConnectionId) {
        self.held = self.held.saturating_sub(1);
        if let Some(count) = self.outstanding.get_mut(&connection) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.outstanding.remove(&connection);
            }
        }
    }
}

/// What the pool's handle and its workers share.
struct Shared {
    /// The queue.
    queue: Mutex<Queue>,
    /// Woken when a job is queued or the pool closes.
    work: Condvar,
    /// The pool's size.
    size: PoolSize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // A job never runs under the lock, so a poisoned lock only means a
        // panic between two of these short sections: the counts stand.
        self.queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The pool. Dropping it lets its threads finish the queue and exit.
pub struct WorkPool {
    /// The queue and its workers' wake-up.
    shared: Arc<Shared>,
}

impl std::fmt::Debug for WorkPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorkPool")
            .field("size", &self.shared.size)
            .finish_non_exhaustive()
    }
}

impl WorkPool {
    /// A pool of `size.threads` threads (at least one) named
    /// `pips-work-N`.
    ///
    /// # Panics
    /// When the operating system cannot start a thread at start-up.
    #[must_use]
    pub fn new(size: PoolSize) -> WorkPool {
        let size = PoolSize {
            threads: size.threads.max(1),
            ..size
        };
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            work: Condvar::new(),
            size,
        });
        for n in 0..size.threads {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name(format!("pips-work-{n}"))
                .spawn(move || work(&shared))
                .expect("the work pool's threads start with the server");
        }
        WorkPool { shared }
    }

    /// The pool's size.
    #[must_use]
    pub fn size(&self) -> PoolSize {
        self.shared.size
    }

    /// Runs `job` on a pool thread for a call of `connection` and waits for
    /// its answer. The job is refused at once when the pool has no room for
    /// it, and refused unrun if no thread takes it by `start_by`; if the
    /// caller stops waiting (the call was cancelled), a job not yet started
    /// is dropped.
    ///
    /// # Errors
    /// `ERROR_REASON_OVERLOADED` when the job was refused, or the job's own
    /// refusal.
    pub async fn run<T: Send + 'static>(
        &self,
        connection: ConnectionId,
        start_by: Instant,
        job: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let (answer, answered) = oneshot::channel();
        let shared = Arc::clone(&self.shared);
        let wrapped: Job = Box::new(move || {
            // The caller gone (and its job not yet withdrawn): nothing to
            // run for.
            let result = (!answer.is_closed()).then(|| {
                if Instant::now() > start_by {
                    Err(ApiError::overloaded(
                        "no worker was free in time for this call; retry later",
                    ))
                } else {
                    job()
                }
            });
            // Its place is free before the caller hears back, so that the
            // caller's next call finds it free.
            shared.lock().finished(connection);
            if let Some(result) = result {
                let _ = answer.send(result);
            }
        });
        let number = self.submit(connection, wrapped)?;
        // Should the caller stop waiting, its job leaves the queue at once
        // (its place is free for the caller's next call).
        let _withdraw = Withdraw {
            shared: &self.shared,
            connection,
            number,
        };
        answered
            .await
            .unwrap_or_else(|_| Err(ApiError::internal("the work failed")))
    }

    /// Whether a job of `connection` would be admitted now: a cheap look
    /// before decoding a request whose work would be refused anyway.
    ///
    /// # Errors
    /// The refusal [`WorkPool::run`] would answer.
    pub fn check_room(&self, connection: ConnectionId) -> Result<(), ApiError> {
        let queue = self.shared.lock();
        self.room(&queue, connection)
    }

    /// Whether `queue` has room for one more job of `connection`.
    fn room(&self, queue: &Queue, connection: ConnectionId) -> Result<(), ApiError> {
        let size = self.shared.size;
        let mine = queue.outstanding.get(&connection).copied().unwrap_or(0);
        if mine >= size.per_connection() {
            return Err(ApiError::overloaded(format!(
                "this connection already has {mine} calls for the server's {} search and \
                 replay threads, its share; retry when one is answered",
                size.threads
            )));
        }
        if queue.held >= size.threads + size.queue {
            return Err(ApiError::overloaded(
                "every search and replay thread is busy and the queue is full; retry later",
            ));
        }
        Ok(())
    }

    /// Queues `job` for `connection`, or refuses it.
    fn submit(&self, connection: ConnectionId, job: Job) -> Result<u64, ApiError> {
        let mut queue = self.shared.lock();
        self.room(&queue, connection)?;
        let queue = &mut *queue;
        *queue.outstanding.entry(connection).or_insert(0) += 1;
        queue.held += 1;
        let jobs = queue.jobs.entry(connection).or_default();
        if jobs.is_empty() {
            queue.turn.push_back(connection);
        }
        let number = queue.next_number;
        queue.next_number += 1;
        jobs.push_back((number, job));
        self.shared.work.notify_one();
        Ok(number)
    }
}

/// Withdraws a queued job when its caller stops waiting (a job already
/// taken by a worker is not found, and runs to its end).
struct Withdraw<'a> {
    /// The pool's queue.
    shared: &'a Shared,
    /// The job's connection.
    connection: ConnectionId,
    /// The job's number.
    number: u64,
}

impl Drop for Withdraw<'_> {
    fn drop(&mut self) {
        self.shared.lock().withdraw(self.connection, self.number);
    }
}

impl Drop for WorkPool {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.work.notify_all();
    }
}

/// A worker: lowers its own priority, then runs jobs until the pool
/// closes and its queue is empty.
fn work(shared: &Shared) {
    lower_priority();
    loop {
        let job = {
            let mut queue = shared.lock();
            loop {
                if let Some(job) = queue.next() {
                    break job;
                }
                if queue.closed {
                    return;
                }
                queue = shared
                    .work
                    .wait(queue)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        };
        job();
    }
}

/// Lowers the calling thread's scheduling priority to the least there is
/// (Linux's `SCHED_IDLE`: it runs when no thread of normal priority wants
/// the core), so that connections and cheap calls are served first when
/// the cores are busy, while the pool still has the cores whenever they are
/// idle.
#[cfg(target_os = "linux")]
fn lower_priority() {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: `sched_setscheduler` reads the `sched_param` we pass and
    // keeps nothing; `pid = 0` names the calling thread.
    let result = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &raw const param) };
    if result != 0 {
        tracing::debug!("cannot lower the work pool's thread priority");
    }
}

/// Elsewhere the pool's threads keep the default priority.
#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::ErrorReason;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    fn later() -> Instant {
        Instant::now() + Duration::from_secs(30)
    }

    #[tokio::test]
    async fn jobs_run_on_the_pools_threads() {
        let pool = WorkPool::new(PoolSize {
            threads: 2,
            queue: 4,
        });
        let name = pool
            .run(ConnectionId(1), later(), || {
                Ok(std::thread::current().name().map(str::to_owned))
            })
            .await
            .expect("ran");
        assert!(name.is_some_and(|n| n.starts_with("pips-work-")));
    }

    /// A job that holds its thread until `release` is set.
    fn blocking(
        release: &Arc<(Mutex<bool>, Condvar)>,
    ) -> impl FnOnce() -> Result<(), ApiError> + Send + use<> {
        let release = Arc::clone(release);
        move || {
            let (lock, cvar) = &*release;
            let mut released = lock.lock().expect("lock");
            while !*released {
                released = cvar.wait(released).expect("wait");
            }
            Ok(())
        }
    }

    fn release(gate: &Arc<(Mutex<bool>, Condvar)>) {
        *gate.0.lock().expect("lock") = true;
        gate.1.notify_all();
    }

    #[tokio::test]
    async fn a_connection_gets_its_share_and_the_queue_is_bounded() {
        let pool = Arc::new(WorkPool::new(PoolSize {
            threads: 1,
            queue: 3,
        }));
        assert_eq!(pool.size().per_connection(), 1);
        let gate = Arc::new((Mutex::new(false), Condvar::new()));
        let mut held = Vec::new();
        for connection in 1..=4 {
            let (pool, job) = (Arc::clone(&pool), blocking(&gate));
            held.push(tokio::spawn(async move {
                pool.run(ConnectionId(connection), later(), job).await
            }));
        }
        // Let the four be queued (one running, three waiting).
        tokio::time::sleep(Duration::from_millis(100)).await;
        let mine = pool.run(ConnectionId(1), later(), || Ok(())).await;
        let error = mine.expect_err("connection 1 has its share");
        assert_eq!(error.reason, ErrorReason::Overloaded);
        assert!(error.message.contains("share"), "{}", error.message);
        let full = pool.run(ConnectionId(9), later(), || Ok(())).await;
        let error = full.expect_err("the queue is full");
        assert!(error.message.contains("queue is full"), "{}", error.message);
        release(&gate);
        for call in held {
            call.await.expect("joined").expect("ran");
        }
        // Room again.
        pool.run(ConnectionId(1), later(), || Ok(()))
            .await
            .expect("ran");
    }

    #[tokio::test]
    async fn connections_take_turns() {
        let pool = Arc::new(WorkPool::new(PoolSize {
            threads: 1,
            queue: 16,
        }));
        let gate = Arc::new((Mutex::new(false), Condvar::new()));
        let first = {
            let (pool, job) = (Arc::clone(&pool), blocking(&gate));
            tokio::spawn(async move { pool.run(ConnectionId(0), later(), job).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut calls = Vec::new();
        // Connection 1 queues three jobs, then connection 2 one.
        for connection in [1, 1, 1, 2] {
            let (pool, order) = (Arc::clone(&pool), Arc::clone(&order));
            calls.push(tokio::spawn(async move {
                pool.run(ConnectionId(connection), later(), move || {
                    order.lock().expect("lock").push(connection);
                    Ok(())
                })
                .await
            }));
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        release(&gate);
        first.await.expect("joined").expect("ran");
        for call in calls {
            call.await.expect("joined").expect("ran");
        }
        assert_eq!(*order.lock().expect("lock"), vec![1, 2, 1, 1]);
    }

    #[tokio::test]
    async fn a_job_not_started_in_time_or_whose_caller_left_is_not_run() {
        let pool = Arc::new(WorkPool::new(PoolSize {
            threads: 1,
            queue: 8,
        }));
        let gate = Arc::new((Mutex::new(false), Condvar::new()));
        let first = {
            let (pool, job) = (Arc::clone(&pool), blocking(&gate));
            tokio::spawn(async move { pool.run(ConnectionId(0), later(), job).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        let ran = Arc::new(AtomicUsize::new(0));
        let late = {
            let (pool, ran) = (Arc::clone(&pool), Arc::clone(&ran));
            tokio::spawn(async move {
                pool.run(ConnectionId(1), Instant::now(), move || {
                    ran.fetch_add(1, Ordering::SeqCst);
                    Ok(())
                })
                .await
            })
        };
        let gone = {
            let (pool, ran) = (Arc::clone(&pool), Arc::clone(&ran));
            tokio::spawn(async move {
                pool.run(ConnectionId(2), later(), move || {
                    ran.fetch_add(1, Ordering::SeqCst);
                    Ok(())
                })
                .await
            })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        gone.abort();
        tokio::time::sleep(Duration::from_millis(20)).await;
        release(&gate);
        first.await.expect("joined").expect("ran");
        let error = late.await.expect("joined").expect_err("too late");
        assert_eq!(error.reason, ErrorReason::Overloaded);
        // Both are dequeued; neither ran, and their places are free.
        pool.run(ConnectionId(2), later(), || Ok(()))
            .await
            .expect("ran");
        assert_eq!(ran.load(Ordering::SeqCst), 0);
        assert!(pool.shared.lock().outstanding.is_empty());
    }
}
