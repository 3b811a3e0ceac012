//! What tables keep on their database, one function per stored thing: the
//! tables (each its match's state and move number), their seats and their
//! moves. SQLite or PostgreSQL through `sqlx`'s `Any` driver: one set of
//! queries (`$n` parameters, which both read) and one schema, its
//! migrations run at start.
//!
//! A move is committed in one transaction whose update carries the move
//! number it was made at (`WHERE version = $n`): of two servers (or two
//! calls) moving at one number, one updates a row and the other none, so a
//! turn is never taken twice.

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::Migrator;
use sqlx::{AnyPool, Row};

/// The schema's migrations.
static MIGRATIONS: Migrator = sqlx::migrate!("src/tables/migrations");

/// The tables' database.
#[derive(Clone, Debug)]
pub struct Store {
    /// Its connections.
    pool: AnyPool,
}

/// A table as stored.
#[derive(Clone, Debug)]
pub struct TableRow {
    /// Its public id.
    pub id: String,
    /// Moves accepted so far.
    pub version: i64,
    /// The match, from 1.
    pub match_no: i64,
    /// The match's packed state now.
    pub state: Vec<u8>,
    /// The match's first packed state.
    pub first_state: Vec<u8>,
}

/// A seat as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// The seat.
    pub seat: i64,
    /// `person` or `computer`.
    pub kind: String,
    /// A computer seat's level.
    pub level: Option<String>,
}

/// A move as stored.
#[derive(Clone, Debug)]
pub struct MoveRow {
    /// The move number it was made at.
    pub number: i64,
    /// Its seat.
    pub seat: i64,
    /// The `Move` message's bytes.
    pub mv: Vec<u8>,
    /// The packed state it was made on.
    pub before: Vec<u8>,
}

/// A new table, with its seats.
#[derive(Debug)]
pub struct NewTable<'a> {
    /// Its public id.
    pub id: &'a str,
    /// Its first packed state.
    pub state: &'a [u8],
    /// Its seats: the row, and a person's link hash.
    pub seats: Vec<(SeatRow, Option<[u8; 32]>)>,
    /// Now, in unix milliseconds.
    pub now: i64,
}

/// A move to commit.
#[derive(Debug)]
pub struct NewMove<'a> {
    /// The table.
    pub table: &'a str,
    /// Its match.
    pub match_no: i64,
    /// The number it is made at (the table's version).
    pub number: i64,
    /// Its seat.
    pub seat: i64,
    /// The `Move` message's bytes.
    pub mv: &'a [u8],
    /// The packed state it was made on.
    pub before: &'a [u8],
    /// The packed state it leaves.
    pub after: &'a [u8],
    /// Who made it: `person` or `computer`.
    pub by: &'a str,
    /// Now, in unix milliseconds.
    pub now: i64,
}

impl Store {
    /// Opens the database at `url` (`sqlite://file?mode=rwc`,
    /// `sqlite::memory:`, `postgres://…`) and brings its schema up to
    /// date.
    ///
    /// # Errors
    /// When it cannot be reached, or its schema is newer than this server
    /// knows.
    pub async fn open(url: &str) -> Result<Store, sqlx::Error> {
        sqlx::any::install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        // SQLite is one file with one writer: one connection, which an
        // in-memory database needs anyway (each connection would be a
        // database of its own).
        let options = AnyPoolOptions::new().max_connections(if sqlite { 1 } else { 16 });
        let pool = options.connect(url).await?;
        if sqlite {
            for pragma in ["PRAGMA foreign_keys = ON", "PRAGMA journal_mode = WAL"] {
                sqlx::query(pragma).execute(&pool).await?;
            }
        }
        MIGRATIONS.run(&pool).await?;
        Ok(Store { pool })
    }

    /// Stores a new table and its seats.
    ///
    /// # Errors
    /// A database failure.
    pub async fn create(&self, table: NewTable<'_>) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO game_tables (id, created_at, touched_at, version, match_no, state, \
             first_state, settings) VALUES ($1, $2, $2, 0, 1, $3, $3, '{}')",
        )
        .bind(table.id)
        .bind(table.now)
        .bind(table.state)
        .execute(&mut *tx)
        .await?;
        for (seat, link) in &table.seats {
            sqlx::query(
                "INSERT INTO seats (table_id, seat, kind, level, link_hash) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(table.id)
            .bind(seat.seat)
            .bind(seat.kind.as_str())
            .bind(seat.level.as_deref())
            .bind(link.as_ref().map(|hash| hash.as_slice()))
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await
    }

    /// The table and seat a link's hash opens, if it opens one.
    ///
    /// # Errors
    /// A database failure.
    pub async fn seat_of_link(
        &self,
        hash: &[u8; 32],
    ) -> Result<Option<(String, i64)>, sqlx::Error> {
        let row = sqlx::query("SELECT table_id, seat FROM seats WHERE link_hash = $1")
            .bind(hash.as_slice())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| Ok((row.try_get("table_id")?, row.try_get("seat")?)))
            .transpose()
    }

    /// A table, if it is stored.
    ///
    /// # Errors
    /// A database failure.
    pub async fn table(&self, id: &str) -> Result<Option<TableRow>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT id, version, match_no, state, first_state FROM game_tables WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| table_row(&row)).transpose()
    }

    /// A table's seats, in seat order.
    ///
    /// # Errors
    /// A database failure.
    pub async fn seats(&self, id: &str) -> Result<Vec<SeatRow>, sqlx::Error> {
        let rows =
            sqlx::query("SELECT seat, kind, level FROM seats WHERE table_id = $1 ORDER BY seat")
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
        rows.iter()
            .map(|row| {
                Ok(SeatRow {
                    seat: row.try_get("seat")?,
                    kind: row.try_get("kind")?,
                    level: row.try_get("level")?,
                })
            })
            .collect()
    }

    /// The moves of a table's match, in order.
    ///
    /// # Errors
    /// A database failure.
    pub async fn moves(&self, id: &str, match_no: i64) -> Result<Vec<MoveRow>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT number, seat, move, before FROM moves WHERE table_id = $1 AND match_no = $2 \
             ORDER BY number",
        )
        .bind(id)
        .bind(match_no)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(move_row).collect()
    }

    /// The last move of a table's match, if it has one.
    ///
    /// # Errors
    /// A database failure.
    pub async fn last_move(&self, id: &str, match_no: i64) -> Result<Option<MoveRow>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT number, seat, move, before FROM moves WHERE table_id = $1 AND match_no = $2 \
             ORDER BY number DESC LIMIT 1",
        )
        .bind(id)
        .bind(match_no)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(move_row).transpose()
    }

    /// Commits a move made at its number: whether it was (another move at
    /// that number came first when it was not).
    ///
    /// # Errors
    /// A database failure.
    pub async fn commit_move(&self, mv: NewMove<'_>) -> Result<bool, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let updated = sqlx::query(
            "UPDATE game_tables SET state = $1, version = version + 1, touched_at = $2 \
             WHERE id = $3 AND version = $4 AND match_no = $5",
        )
        .bind(mv.after)
        .bind(mv.now)
        .bind(mv.table)
        .bind(mv.number)
        .bind(mv.match_no)
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO moves (table_id, match_no, number, seat, move, before, by_whom, at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(mv.table)
        .bind(mv.match_no)
        .bind(mv.number)
        .bind(mv.seat)
        .bind(mv.mv)
        .bind(mv.before)
        .bind(mv.by)
        .bind(mv.now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }
}

/// A table from its row.
fn table_row(row: &AnyRow) -> Result<TableRow, sqlx::Error> {
    Ok(TableRow {
        id: row.try_get("id")?,
        version: row.try_get("version")?,
        match_no: row.try_get("match_no")?,
        state: row.try_get("state")?,
        first_state: row.try_get("first_state")?,
    })
}

/// A move from its row.
fn move_row(row: &AnyRow) -> Result<MoveRow, sqlx::Error> {
    Ok(MoveRow {
        number: row.try_get("number")?,
        seat: row.try_get("seat")?,
        mv: row.try_get("move")?,
        before: row.try_get("before")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_move_is_committed_once_at_its_number() {
        let store = Store::open("sqlite::memory:").await.expect("opened");
        let seats = vec![
            (
                SeatRow {
                    seat: 0,
                    kind: "person".to_owned(),
                    level: None,
                },
                Some([7; 32]),
            ),
            (
                SeatRow {
                    seat: 1,
                    kind: "computer".to_owned(),
                    level: Some("greedy".to_owned()),
                },
                None,
            ),
        ];
        store
            .create(NewTable {
                id: "t1",
                state: b"first",
                seats: seats.clone(),
                now: 1,
            })
            .await
            .expect("created");
        assert_eq!(
            store.seat_of_link(&[7; 32]).await.expect("read"),
            Some(("t1".to_owned(), 0))
        );
        assert_eq!(store.seat_of_link(&[8; 32]).await.expect("read"), None);
        let wanted: Vec<SeatRow> = seats.into_iter().map(|(row, _)| row).collect();
        assert_eq!(store.seats("t1").await.expect("read"), wanted);
        let mv = |number, after: &'static [u8]| NewMove {
            table: "t1",
            match_no: 1,
            number,
            seat: 0,
            mv: b"mv",
            before: b"first",
            after,
            by: "person",
            now: 2,
        };
        assert!(
            store
                .commit_move(mv(0, b"second"))
                .await
                .expect("committed")
        );
        // The same number again: another move came first.
        assert!(!store.commit_move(mv(0, b"other")).await.expect("refused"));
        let table = store.table("t1").await.expect("read").expect("there");
        assert_eq!((table.version, table.state.as_slice()), (1, &b"second"[..]));
        assert_eq!(table.first_state, b"first");
        let moves = store.moves("t1", 1).await.expect("read");
        assert_eq!(moves.len(), 1);
        assert_eq!(
            store
                .last_move("t1", 1)
                .await
                .expect("read")
                .map(|m| m.number),
            Some(0)
        );
    }
}
