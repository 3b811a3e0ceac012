//! Moves committed together: every move accepted on a server goes to one
//! task that commits the moves waiting at that moment (up to 256) in
//! one transaction, and answers each whether it was committed. Each move
//! is still its own compare-and-set at its table's number (of two moves
//! at one number, in one batch or in two, only the first updates its
//! table), and none is answered before its transaction has committed; a
//! transaction that fails answers every move in it with the failure (none
//! was applied). A batch is a few statements, whatever its size: one
//! update of every table it moves (each at its number), one insert of
//! every move committed, one notification to the other servers. On
//! SQLite, whose one writer is the limit (and each statement a round trip
//! to its thread), that is what lets a server play thousands of moves a
//! second; on PostgreSQL, one commit for many moves.

use std::sync::Arc;

use sqlx::AnyPool;

use super::store::placeholders;
use tokio::sync::{mpsc, oneshot};

/// Moves committed in one transaction at most.
const MOST: usize = 256;

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
    /// Starts the task committing moves on `pool` (a PostgreSQL database's
    /// when `postgres`); it ends with the last `Batcher`.
    #[must_use]
    pub fn start(pool: AnyPool, postgres: bool) -> Batcher {
        let (queue, mut waiting) = mpsc::channel::<Waiting>(QUEUE);
        tokio::spawn(async move {
            let mut batch = Vec::with_capacity(MOST);
            while waiting.recv_many(&mut batch, MOST).await > 0 {
                let (moves, answers): (Vec<Move>, Vec<_>) = batch.drain(..).unzip();
                match commit(&pool, postgres, &moves).await {
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

/// The parameters of `rows` rows of `width` columns of a multi-row
/// statement, each row in parentheses.
fn rows_of_parameters(postgres: bool, rows: usize, width: usize) -> String {
    (0..rows)
        .map(|row| format!("({})", placeholders(postgres, row * width + 1, width)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Commits `moves` in one transaction: whether each was. Of moves at one
/// table in a batch, the first is tried (the others were made at a
/// number it takes). On PostgreSQL their tables' rows are locked first
/// in the order of their ids, as every server's batches lock them, so
/// that two servers' batches never wait for each other in a cycle.
async fn commit(pool: &AnyPool, postgres: bool, moves: &[Move]) -> Result<Vec<bool>, sqlx::Error> {
    let mut seen = std::collections::HashSet::new();
    let tried: Vec<usize> = (0..moves.len())
        .filter(|index| seen.insert(moves[*index].table.as_str()))
        .collect();
    let mut committed = vec![false; moves.len()];
    let mut tx = pool.begin().await?;
    if postgres {
        let sql = format!(
            "SELECT id FROM game_tables WHERE id IN ({}) ORDER BY id FOR UPDATE",
            placeholders(true, 1, tried.len())
        );
        let mut lock = sqlx::query(&sql);
        for index in &tried {
            lock = lock.bind(&moves[*index].table);
        }
        lock.execute(&mut *tx).await?;
    }
    // Every table moved, each at its number: the ids of those updated.
    let rows = rows_of_parameters(postgres, tried.len(), 7);
    let sql = format!(
        "UPDATE game_tables SET previous_state = state, state = v.column4, \
         version = version + 1, turn_due = v.column5, \
         played_at = CASE WHEN v.column7 <> 0 THEN v.column6 ELSE played_at END \
         FROM (VALUES {rows}) AS v \
         WHERE game_tables.id = v.column1 AND game_tables.version = v.column2 \
         AND game_tables.match_no = v.column3 RETURNING game_tables.id AS id"
    );
    let mut update = sqlx::query(&sql);
    for index in &tried {
        let mv = &moves[*index];
        update = update
            .bind(&mv.table)
            .bind(mv.number)
            .bind(mv.match_no)
            .bind(&mv.after)
            .bind(mv.turn_due)
            .bind(mv.now)
            // A person's move is play: it keeps the table.
            .bind(i64::from(mv.by == super::table::PERSON));
    }
    let updated = update.fetch_all(&mut *tx).await?;
    let updated: std::collections::HashSet<String> = updated
        .iter()
        .map(|row| sqlx::Row::try_get::<String, _>(row, "id"))
        .collect::<Result<_, _>>()?;
    for index in &tried {
        committed[*index] = updated.contains(&moves[*index].table);
    }
    let done: Vec<&Move> = moves
        .iter()
        .zip(&committed)
        .filter(|(_, committed)| **committed)
        .map(|(mv, _)| mv)
        .collect();
    if done.is_empty() {
        tx.commit().await?;
        return Ok(committed);
    }
    for mv in &done {
        if let Some(auto) = mv.auto {
            sqlx::query("UPDATE seats SET auto = $1 WHERE table_id = $2 AND seat = $3")
                .bind(i64::from(auto))
                .bind(&mv.table)
                .bind(mv.seat)
                .execute(&mut *tx)
                .await?;
        }
    }
    let rows = rows_of_parameters(postgres, done.len(), 7);
    let sql = format!(
        "INSERT INTO moves (table_id, match_no, number, seat, move, by_whom, at) VALUES {rows}"
    );
    let mut insert = sqlx::query(&sql);
    for mv in &done {
        insert = insert
            .bind(&mv.table)
            .bind(mv.match_no)
            .bind(mv.number)
            .bind(mv.seat)
            .bind(&mv.mv)
            .bind(mv.by)
            .bind(mv.now);
    }
    insert.execute(&mut *tx).await?;
    // The other servers hear of the committed moves as the transaction
    // commits (PostgreSQL delivers a NOTIFY then), in one notification.
    let told: Vec<&str> = done
        .iter()
        .filter(|mv| !mv.told.is_empty())
        .map(|mv| mv.told.as_str())
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
