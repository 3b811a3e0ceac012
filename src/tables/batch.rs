//! Moves committed together: every move accepted on a server goes to one
//! task that commits the moves waiting at that moment (up to 64) in
//! one transaction, and answers each whether it was committed. Each move
//! is still its own compare-and-set at its table's number (of two moves
//! at one number, in one batch or in two, only the first updates its
//! table), and none is answered before its transaction has committed; a
//! transaction that fails answers every move in it with the failure (none
//! was applied). On SQLite, whose one writer is the limit, a batch costs
//! one transaction instead of one a move; on PostgreSQL, one commit and
//! one notification to the other servers.

use std::sync::Arc;

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

/// Moves committed in one transaction at most.
const MOST: usize = 64;

/// Moves that may wait for the task (a caller beyond waits to send).
const QUEUE: usize = 1024;

/// A move to commit, owned by the batch.
#[derive(Debug)]
pub struct Move {
    /// The table.
    pub table: String,
    /// Its match.
    pub match_no: i64,
    /// The number it is made at (the table's version).
    pub number: i64,
    /// Its seat.
    pub seat: i64,
    /// The `Move` message's bytes.
    pub mv: Vec<u8>,
    /// The packed state it was made on.
    pub before: Vec<u8>,
    /// The packed state it leaves.
    pub after: Vec<u8>,
    /// Who made it: `person`, `computer` or `timeout`.
    pub by: &'static str,
    /// The mover's seat is played by the computer from now on (`Some(true)`)
    /// or by its person again (`Some(false)`).
    pub auto: Option<bool>,
    /// When the next turn is due, if it is.
    pub turn_due: Option<i64>,
    /// Now, in unix milliseconds.
    pub now: i64,
    /// What the other servers sharing a PostgreSQL database are told once
    /// it is committed (`NOTIFY`, in its transaction); empty on SQLite.
    pub told: String,
}

/// A move waiting, and where its answer goes.
type Waiting = (Move, oneshot::Sender<Result<bool, Arc<sqlx::Error>>>);

/// Where moves are sent to be committed.
#[derive(Clone, Debug)]
pub struct Batcher {
    /// The task's queue.
    queue: mpsc::Sender<Waiting>,
}

impl Batcher {
    /// Starts the task committing moves on `pool`; it ends with the last
    /// `Batcher`.
    #[must_use]
    pub fn start(pool: AnyPool) -> Batcher {
        let (queue, mut waiting) = mpsc::channel::<Waiting>(QUEUE);
        tokio::spawn(async move {
            let mut batch = Vec::with_capacity(MOST);
            while waiting.recv_many(&mut batch, MOST).await > 0 {
                let (moves, answers): (Vec<Move>, Vec<_>) = batch.drain(..).unzip();
                match commit(&pool, &moves).await {
                    Ok(committed) => {
                        for (answer, committed) in answers.into_iter().zip(committed) {
                            let _ = answer.send(Ok(committed));
                        }
                    }
                    Err(error) => {
                        let error = Arc::new(error);
                        for answer in answers {
                            let _ = answer.send(Err(Arc::clone(&error)));
                        }
                    }
                }
            }
        });
        Batcher { queue }
    }

    /// Commits `mv` with the moves waiting beside it: whether it was
    /// (another move at its number came first when it was not).
    ///
    /// # Errors
    /// A database failure (the move was not applied).
    pub async fn commit(&self, mv: Move) -> Result<bool, sqlx::Error> {
        let (answer, answered) = oneshot::channel();
        let gone = || sqlx::Error::PoolClosed;
        self.queue.send((mv, answer)).await.map_err(|_| gone())?;
        answered
            .await
            .map_err(|_| gone())?
            .map_err(|error| sqlx::Error::Protocol(error.to_string()))
    }
}

/// Commits `moves` in one transaction: whether each was. Their tables'
/// rows are locked in the order of their ids, as every server's batches
/// lock them, so that two servers' batches never wait for each other in
/// a cycle.
async fn commit(pool: &AnyPool, moves: &[Move]) -> Result<Vec<bool>, sqlx::Error> {
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by(|a, b| moves[*a].table.cmp(&moves[*b].table));
    let mut tx = pool.begin().await?;
    let mut committed = vec![false; moves.len()];
    for index in order {
        let mv = &moves[index];
        let updated = sqlx::query(
            "UPDATE game_tables SET state = $1, version = version + 1, touched_at = $2, \
             turn_due = $6 WHERE id = $3 AND version = $4 AND match_no = $5",
        )
        .bind(&mv.after)
        .bind(mv.now)
        .bind(&mv.table)
        .bind(mv.number)
        .bind(mv.match_no)
        .bind(mv.turn_due)
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() != 1 {
            continue;
        }
        if let Some(auto) = mv.auto {
            sqlx::query("UPDATE seats SET auto = $1 WHERE table_id = $2 AND seat = $3")
                .bind(i64::from(auto))
                .bind(&mv.table)
                .bind(mv.seat)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query(
            "INSERT INTO moves (table_id, match_no, number, seat, move, before, by_whom, at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&mv.table)
        .bind(mv.match_no)
        .bind(mv.number)
        .bind(mv.seat)
        .bind(&mv.mv)
        .bind(&mv.before)
        .bind(mv.by)
        .bind(mv.now)
        .execute(&mut *tx)
        .await?;
        committed[index] = true;
    }
    // The other servers hear of the committed moves as the transaction
    // commits (PostgreSQL delivers a NOTIFY then), in one notification.
    let told: Vec<&str> = moves
        .iter()
        .zip(&committed)
        .filter(|(mv, committed)| **committed && !mv.told.is_empty())
        .map(|(mv, _)| mv.told.as_str())
        .collect();
    if !told.is_empty() {
        let told = told.join("\n");
        super::store::notify(super::across::CHANNEL, &told)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(committed)
}
