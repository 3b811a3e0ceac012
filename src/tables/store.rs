//! What tables keep on their database, one function per stored thing: the
//! tables (each its match's state, move number, settings and when its
//! turn is due), their seats, their moves and who watches them. SQLite or PostgreSQL through `sqlx`'s `Any` driver: one set of
//! queries (`$n` parameters, which both read) and one schema, its
//! migrations run at start.
//!
//! A move is committed in one transaction whose update carries the move
//! number it was made at (`WHERE version = $n`): of two servers (or two
//! calls) moving at one number, one updates a row and the other none, so a
//! turn is never taken twice.

use std::borrow::Cow;

use futures_util::future::BoxFuture;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::{AnyPool, Row};

use super::batch::{Batcher, Move};

/// The schema's migrations, `src/tables/migrations/<version>_<name>.sql`,
/// built into the binary: each its version, its description (the file's
/// name as sqlx reads it: underscores as spaces) and its SQL. (sqlx's
/// `migrate!` macro did the same, but its procedural macro compiled sqlx,
/// SQLite and PostgreSQL a second time for the build host: a fifth of a
/// release build.) A test holds this list to the folder.
const MIGRATIONS: [(i64, &str, &str); 2] = [
    (1, "tables", include_str!("migrations/0001_tables.sql")),
    (
        2,
        "timers presence",
        include_str!("migrations/0002_timers_presence.sql"),
    ),
];

/// [`MIGRATIONS`] as sqlx's migrations (their checksums are the SQL's
/// SHA-384, as when sqlx reads the folder, so a database migrated before
/// reads as up to date).
#[derive(Debug)]
struct Embedded;

impl MigrationSource<'static> for Embedded {
    fn resolve(self) -> BoxFuture<'static, Result<Vec<Migration>, BoxDynError>> {
        Box::pin(async {
            Ok(MIGRATIONS
                .iter()
                .map(|&(version, description, sql)| {
                    Migration::new(
                        version,
                        Cow::Borrowed(description),
                        MigrationType::Simple,
                        Cow::Borrowed(sql),
                        sql.starts_with("-- no-transaction"),
                    )
                })
                .collect())
        })
    }
}

/// The tables' database.
#[derive(Clone, Debug)]
pub struct Store {
    /// The connections that write.
    pool: AnyPool,
    /// The connections that only read: on a SQLite file, others than the
    /// one that writes (WAL lets them read beside it, and writes queue in
    /// the pool rather than in SQLite's busy wait); otherwise the same.
    reads: AnyPool,
    /// Where moves go to be committed together.
    batcher: Batcher,
    /// The database's address when it is PostgreSQL, whose `LISTEN` /
    /// `NOTIFY` tell the other servers sharing it of each change
    /// (`super::across`); `None` on SQLite, which one server holds.
    postgres: Option<String>,
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
    /// Its settings (JSON, written by the server).
    pub settings: String,
    /// When its turn is due (unix ms), if a timer runs or a computer seat
    /// is to move.
    pub turn_due: Option<i64>,
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
    /// Whether the computer plays this person's seat (its time ran out).
    pub auto: bool,
    /// Whether a stream watches from this seat, on any server (as read;
    /// not written).
    pub connected: bool,
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
    /// Its watch link's hash.
    pub watch: [u8; 32],
    /// Its settings (JSON).
    pub settings: &'a str,
    /// When its first turn is due, if it is.
    pub turn_due: Option<i64>,
    /// Now, in unix milliseconds.
    pub now: i64,
}

/// Connections that read a SQLite file beside the one that writes.
const READERS: u32 = 4;

/// The seat a watch link is kept at.
pub const WATCH_SEAT: i64 = -1;

/// A table's next match, to deal.
#[derive(Debug)]
pub struct Rematch<'a> {
    /// The table.
    pub table: &'a str,
    /// The number it is asked at (the table's version).
    pub number: i64,
    /// The new match's first packed state.
    pub state: &'a [u8],
    /// When its first turn is due, if it is.
    pub turn_due: Option<i64>,
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
        // SQLite is one file with one writer, and readers beside it (WAL):
        // one connection writes and a few read; an in-memory database has
        // one connection (each would be a database of its own).
        let memory = url.contains(":memory:") || url.contains("mode=memory");
        let options = |connections| {
            AnyPoolOptions::new()
                .max_connections(connections)
                .after_connect(move |connection, _| {
                    Box::pin(async move {
                        // (Per connection: a reconnected pool keeps them.)
                        if sqlite {
                            for pragma in [
                                "PRAGMA foreign_keys = ON",
                                "PRAGMA journal_mode = WAL",
                                "PRAGMA synchronous = NORMAL",
                            ] {
                                sqlx::query(pragma).execute(&mut *connection).await?;
                            }
                        }
                        Ok(())
                    })
                })
        };
        let pool = options(if sqlite { 1 } else { 16 }).connect(url).await?;
        Migrator::new(Embedded).await?.run(&pool).await?;
        let reads = if sqlite && !memory {
            options(READERS).connect(url).await?
        } else {
            pool.clone()
        };
        let postgres = (url.starts_with("postgres:") || url.starts_with("postgresql:"))
            .then(|| url.to_owned());
        Ok(Store {
            batcher: Batcher::start(pool.clone()),
            pool,
            reads,
            postgres,
        })
    }

    /// The PostgreSQL database's address, where the servers sharing it
    /// tell each other of changes; `None` on SQLite.
    #[must_use]
    pub fn postgres(&self) -> Option<&str> {
        self.postgres.as_deref()
    }

    /// Tells every server listening on `channel` (PostgreSQL's `NOTIFY`)
    /// `payload`. Does nothing on SQLite.
    ///
    /// # Errors
    /// A database failure.
    pub async fn notify(&self, channel: &str, payload: &str) -> Result<(), sqlx::Error> {
        if self.postgres.is_some() {
            notify(channel, payload).execute(&self.pool).await?;
        }
        Ok(())
    }

    /// Stores a new table and its seats.
    ///
    /// # Errors
    /// A database failure.
    pub async fn create(&self, table: NewTable<'_>) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO game_tables (id, created_at, touched_at, version, match_no, state, \
             first_state, settings, turn_due) VALUES ($1, $2, $2, 0, 1, $3, $3, $4, $5)",
        )
        .bind(table.id)
        .bind(table.now)
        .bind(table.state)
        .bind(table.settings)
        .bind(table.turn_due)
        .execute(&mut *tx)
        .await?;
        let watch = SeatRow {
            seat: WATCH_SEAT,
            kind: "watch".to_owned(),
            level: None,
            auto: false,
            connected: false,
        };
        for (seat, link) in table
            .seats
            .iter()
            .chain(std::iter::once(&(watch, Some(table.watch))))
        {
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
    ) -> Result<Option<(TableRow, i64)>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT s.seat, t.id, t.version, t.match_no, t.state, t.first_state, t.settings, \
             t.turn_due FROM seats s JOIN game_tables t ON t.id = s.table_id \
             WHERE s.link_hash = $1",
        )
        .bind(hash.as_slice())
        .fetch_optional(&self.reads)
        .await?;
        row.map(|row| Ok((table_row(&row)?, row.try_get("seat")?)))
            .transpose()
    }

    /// A table, if it is stored.
    ///
    /// # Errors
    /// A database failure.
    pub async fn table(&self, id: &str) -> Result<Option<TableRow>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT id, version, match_no, state, first_state, settings, turn_due \
             FROM game_tables WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.reads)
        .await?;
        row.map(|row| table_row(&row)).transpose()
    }

    /// A table's seats, in seat order (not its watch link's).
    ///
    /// # Errors
    /// A database failure.
    pub async fn seats(&self, id: &str) -> Result<Vec<SeatRow>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT seat, kind, level, auto, CAST(CASE WHEN EXISTS (SELECT 1 FROM presence p \
             WHERE p.table_id = s.table_id AND p.seat = s.seat) THEN 1 ELSE 0 END AS BIGINT) \
             AS connected FROM seats s WHERE table_id = $1 AND seat >= 0 ORDER BY seat",
        )
        .bind(id)
        .fetch_all(&self.reads)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(SeatRow {
                    seat: row.try_get("seat")?,
                    kind: row.try_get("kind")?,
                    level: row.try_get("level")?,
                    auto: row.try_get::<i64, _>("auto")? != 0,
                    connected: row.try_get::<i64, _>("connected")? != 0,
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
        .fetch_all(&self.reads)
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
        .fetch_optional(&self.reads)
        .await?;
        row.as_ref().map(move_row).transpose()
    }

    /// Commits a move made at its number, in a transaction with the
    /// moves made beside it ([`super::batch`]): whether it was (another
    /// move at that number came first when it was not).
    ///
    /// # Errors
    /// A database failure.
    pub async fn commit_move(&self, mv: Move) -> Result<bool, sqlx::Error> {
        self.batcher.commit(mv).await
    }
}

impl Store {
    /// Deals a table's next match at its number: whether it did (another
    /// ask came first when it did not). The number goes on, counting the
    /// deal.
    ///
    /// # Errors
    /// A database failure.
    pub async fn rematch(&self, rematch: Rematch<'_>) -> Result<bool, sqlx::Error> {
        let updated = sqlx::query(
            "UPDATE game_tables SET state = $1, first_state = $1, match_no = match_no + 1, \
             version = version + 1, touched_at = $2, turn_due = $3 WHERE id = $4 AND version = $5",
        )
        .bind(rematch.state)
        .bind(rematch.now)
        .bind(rematch.turn_due)
        .bind(rematch.table)
        .bind(rematch.number)
        .execute(&self.pool)
        .await?;
        Ok(updated.rows_affected() == 1)
    }

    /// Hands a person's seat back from the computer: whether it was the
    /// computer's.
    ///
    /// # Errors
    /// A database failure.
    pub async fn take_back(&self, table: &str, seat: i64) -> Result<bool, sqlx::Error> {
        // Read first: a seat is rarely the computer's, and every open and
        // watch asks, so the one writing connection is spared the asking.
        let auto = sqlx::query(
            "SELECT 1 AS auto FROM seats WHERE table_id = $1 AND seat = $2 AND auto <> 0",
        )
        .bind(table)
        .bind(seat)
        .fetch_optional(&self.reads)
        .await?;
        if auto.is_none() {
            return Ok(false);
        }
        let updated = sqlx::query(
            "UPDATE seats SET auto = 0 WHERE table_id = $1 AND seat = $2 AND auto <> 0",
        )
        .bind(table)
        .bind(seat)
        .execute(&self.pool)
        .await?;
        Ok(updated.rows_affected() == 1)
    }

    /// How many tables are kept.
    ///
    /// # Errors
    /// A database failure.
    pub async fn count(&self) -> Result<u64, sqlx::Error> {
        let row = sqlx::query("SELECT COUNT(*) AS kept FROM game_tables")
            .fetch_one(&self.reads)
            .await?;
        Ok(u64::try_from(row.try_get::<i64, _>("kept")?).unwrap_or(0))
    }

    /// Notes that a table was opened now (its expiry counts from here).
    ///
    /// # Errors
    /// A database failure.
    pub async fn touch(&self, id: &str, now: i64) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE game_tables SET touched_at = $1 WHERE id = $2")
            .bind(now)
            .bind(id)
            .execute(&self.pool)
            .await
            .map(drop)
    }

    /// Up to `most` tables whose turn was due by `now`, with when it was,
    /// the most overdue first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn due(&self, now: i64, most: i64) -> Result<Vec<(String, i64)>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT id, turn_due FROM game_tables WHERE turn_due <= $1 ORDER BY turn_due LIMIT $2",
        )
        .bind(now)
        .bind(most)
        .fetch_all(&self.reads)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("id")?, row.try_get("turn_due")?)))
            .collect()
    }

    /// Claims a due table for this server until `until`: whether it did
    /// (of servers claiming it at once, one does: the others see it moved
    /// on).
    ///
    /// # Errors
    /// A database failure.
    pub async fn claim(&self, id: &str, due: i64, until: i64) -> Result<bool, sqlx::Error> {
        let updated =
            sqlx::query("UPDATE game_tables SET turn_due = $1 WHERE id = $2 AND turn_due = $3")
                .bind(until)
                .bind(id)
                .bind(due)
                .execute(&self.pool)
                .await?;
        Ok(updated.rows_affected() == 1)
    }

    /// Sets when a table's turn is due, at its number.
    ///
    /// # Errors
    /// A database failure.
    pub async fn set_due(
        &self,
        id: &str,
        number: i64,
        due: Option<i64>,
    ) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE game_tables SET turn_due = $1 WHERE id = $2 AND version = $3")
            .bind(due)
            .bind(id)
            .bind(number)
            .execute(&self.pool)
            .await
            .map(drop)
    }

    /// Deletes the tables not touched since `before` (their seats, moves
    /// and presence with them): the ids deleted.
    ///
    /// # Errors
    /// A database failure.
    pub async fn expire(&self, before: i64) -> Result<Vec<String>, sqlx::Error> {
        let rows = sqlx::query(
            "DELETE FROM game_tables WHERE touched_at < $1 \
             AND NOT EXISTS (SELECT 1 FROM presence p WHERE p.table_id = game_tables.id) \
             RETURNING id",
        )
        .bind(before)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|row| row.try_get("id")).collect()
    }

    /// Records how many streams this `server` holds of a table's seat (0:
    /// none, its row goes).
    ///
    /// # Errors
    /// A database failure.
    pub async fn set_presence(
        &self,
        table: &str,
        seat: i64,
        server: &str,
        streams: i64,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        if streams <= 0 {
            sqlx::query("DELETE FROM presence WHERE table_id = $1 AND seat = $2 AND server = $3")
                .bind(table)
                .bind(seat)
                .bind(server)
                .execute(&self.pool)
                .await?;
            // Watched until now: its time to expire starts now. (One row,
            // in a statement of its own: it waits for no other lock.)
            return self.touch(table, now).await;
        }
        sqlx::query(
            "INSERT INTO presence (table_id, seat, server, streams, seen_at) \
             SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM game_tables WHERE id = $1) \
             ON CONFLICT (table_id, seat, server) DO UPDATE SET streams = $4, seen_at = $5",
        )
        .bind(table)
        .bind(seat)
        .bind(server)
        .bind(streams)
        .bind(now)
        .execute(&self.pool)
        .await
        .map(drop)
    }

    /// Refreshes this `server`'s presence rows (a table watched does not
    /// expire); forgets every server's rows not refreshed since `stale` (a
    /// server that died). The tables are not written: a statement that
    /// locked many tables' rows at once would deadlock with the moves'
    /// commits, which lock them in table order.
    ///
    /// # Errors
    /// A database failure.
    pub async fn refresh_presence(
        &self,
        server: &str,
        now: i64,
        stale: i64,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE presence SET seen_at = $1 WHERE server = $2")
            .bind(now)
            .bind(server)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM presence WHERE seen_at < $1")
            .bind(stale)
            .execute(&mut *tx)
            .await?;
        tx.commit().await
    }
}

/// PostgreSQL's `NOTIFY channel, payload`, to run on a connection or in a
/// transaction (which delivers it as it commits).
pub(super) fn notify<'q>(
    channel: &'q str,
    payload: &'q str,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    // (Counted, as `pg_notify`'s own answer is `void`, which the `Any`
    // driver does not read.)
    sqlx::query("SELECT count(*) FROM (SELECT pg_notify($1, $2)) AS told")
        .bind(channel)
        .bind(payload)
}

/// A table from its row.
fn table_row(row: &AnyRow) -> Result<TableRow, sqlx::Error> {
    Ok(TableRow {
        id: row.try_get("id")?,
        version: row.try_get("version")?,
        match_no: row.try_get("match_no")?,
        state: row.try_get("state")?,
        first_state: row.try_get("first_state")?,
        settings: row.try_get("settings")?,
        turn_due: row.try_get("turn_due")?,
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

    /// The migrations built in are the folder's, as sqlx reads a folder:
    /// the same versions, descriptions, SQL and checksums, none missing.
    #[tokio::test]
    async fn the_built_in_migrations_are_the_folders() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tables/migrations");
        let read = Migrator::new(folder).await.expect("the folder");
        let built = Migrator::new(Embedded).await.expect("built in");
        let parts = |m: &Migrator| -> Vec<_> {
            m.iter()
                .map(|m| {
                    (
                        m.version,
                        m.description.clone(),
                        m.sql.clone(),
                        m.checksum.clone(),
                        m.no_tx,
                    )
                })
                .collect()
        };
        assert_eq!(parts(&built), parts(&read));
        assert_eq!(built.iter().count(), MIGRATIONS.len());
    }

    #[tokio::test]
    async fn a_move_is_committed_once_at_its_number() {
        let store = Store::open("sqlite::memory:").await.expect("opened");
        let seats = vec![
            (
                SeatRow {
                    seat: 0,
                    kind: "person".to_owned(),
                    level: None,
                    auto: false,
                    connected: false,
                },
                Some([7; 32]),
            ),
            (
                SeatRow {
                    seat: 1,
                    kind: "computer".to_owned(),
                    level: Some("greedy".to_owned()),
                    auto: false,
                    connected: false,
                },
                None,
            ),
        ];
        store
            .create(NewTable {
                id: "t1",
                state: b"first",
                seats: seats.clone(),
                watch: [9; 32],
                settings: "{}",
                turn_due: None,
                now: 1,
            })
            .await
            .expect("created");
        let opened = store.seat_of_link(&[7; 32]).await.expect("read");
        assert_eq!(
            opened.map(|(table, seat)| (table.id, table.version, seat)),
            Some(("t1".to_owned(), 0, 0))
        );
        assert!(store.seat_of_link(&[8; 32]).await.expect("read").is_none());
        let wanted: Vec<SeatRow> = seats.into_iter().map(|(row, _)| row).collect();
        assert_eq!(store.seats("t1").await.expect("read"), wanted);
        let mv = |number, after: &'static [u8]| Move {
            table: "t1".to_owned(),
            match_no: 1,
            number,
            seat: 0,
            mv: b"mv".to_vec(),
            before: b"first".to_vec(),
            after: after.to_vec(),
            by: "person",
            auto: None,
            turn_due: None,
            now: 2,
            told: String::new(),
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
