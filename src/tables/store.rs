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
use std::sync::Arc;

use futures_util::future::BoxFuture;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::{AnyPool, Connection, Row};

use super::batch::{Batcher, Move};
use super::networks::Width;

/// The schema's migrations, `src/tables/migrations/<version>_<name>.sql`,
/// built into the binary: each its version, its description (the file's
/// name as sqlx reads it: underscores as spaces) and its SQL. (sqlx's
/// `migrate!` macro did the same, but its procedural macro compiled sqlx,
/// SQLite and PostgreSQL a second time for the build host: a fifth of a
/// release build.) A test holds this list to the folder.
const MIGRATIONS: [(i64, &str, &str); 3] = [
    (1, "tables", include_str!("migrations/0001_tables.sql")),
    (
        2,
        "timers presence",
        include_str!("migrations/0002_timers_presence.sql"),
    ),
    (
        3,
        "play and creators",
        include_str!("migrations/0003_play_and_creators.sql"),
    ),
];

/// The first so many of [`MIGRATIONS`] (all of them but in tests of a
/// migration) as sqlx's migrations (their checksums are the SQL's
/// SHA-384, as when sqlx reads the folder, so a database migrated before
/// reads as up to date).
#[derive(Debug)]
struct Embedded(usize);

impl MigrationSource<'static> for Embedded {
    fn resolve(self) -> BoxFuture<'static, Result<Vec<Migration>, BoxDynError>> {
        Box::pin(async move {
            Ok(MIGRATIONS
                .iter()
                .take(self.0)
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
    /// One creation at a time on this server: creations are serialised on
    /// the database anyway (the cap), and one waiting here holds no
    /// connection the moves and the sweeper need.
    creating: Arc<tokio::sync::Semaphore>,
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
    /// Who created it: its keys at each width (address, network, block).
    pub creator: [String; 3],
}

/// How many tables may be kept: in all, and by one creator at each width
/// (address, network, block).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shares {
    /// In all.
    pub most: u64,
    /// By one creator's address, network and block.
    pub per_width: [u64; 3],
}

/// What became of a table asked to be stored.
#[derive(Debug, PartialEq, Eq)]
pub enum Created {
    /// It is stored; to make room, the table with this id was deleted.
    Stored {
        /// The table deleted to make room at the cap, if one was.
        evicted: Option<String>,
    },
    /// Its creator keeps its share at this width already: nothing was
    /// stored.
    OverShare(Width),
    /// The tables are at the cap and its creator keeps as many as anyone
    /// at every width: nothing was stored.
    Full,
}

/// Each width's column of a table's creator, narrowest first.
const CREATOR: [&str; 3] = ["creator_address", "creator_network", "creator_block"];

/// Whether a group keeping `theirs` tables has more than its fair part
/// beside one keeping `mine`: giving one of its tables to the other would
/// not make the other the larger (a group one ahead is as fair as it
/// gets).
#[must_use]
pub fn keeps_more(theirs: u64, mine: u64) -> bool {
    theirs > mine.saturating_add(1)
}

/// A table claimed by a sweep, as it stood when claimed.
#[derive(Clone, Debug)]
pub struct Claimed {
    /// The table (its `turn_due` as it was: when the turn was due).
    pub table: TableRow,
    /// Its seats, in seat order.
    pub seats: Vec<SeatRow>,
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

/// Brings the schema of the database `connection` is to up to date.
/// (Boxed as `Send`: the server's future, spawned, holds it across an
/// await, and the migrator's future over a borrowed connection is not
/// proven `Send` for every lifetime otherwise.)
fn migrate_one(connection: &mut sqlx::AnyConnection) -> BoxFuture<'_, Result<(), sqlx::Error>> {
    Box::pin(async move {
        Migrator::new(Embedded(MIGRATIONS.len()))
            .await?
            .run_direct(connection)
            .await?;
        Ok(())
    })
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
        // The writing connection keeps 64 MiB of pages and a WAL of up to
        // 64 MiB before it is written back (tables' rows are rewritten at
        // every move, and a page written many times is written back once);
        // the reading ones SQLite's 2 MiB each.
        let options = |connections, writes: bool| {
            AnyPoolOptions::new()
                .max_connections(connections)
                .after_connect(move |connection, _| {
                    Box::pin(async move {
                        // (Per connection: a reconnected pool keeps them.)
                        if sqlite {
                            let writing: &[&str] = if writes {
                                &[
                                    "PRAGMA cache_size = -16384",
                                    "PRAGMA wal_autocheckpoint = 16384",
                                ]
                            } else {
                                &[]
                            };
                            for pragma in [
                                "PRAGMA foreign_keys = ON",
                                "PRAGMA journal_mode = WAL",
                                "PRAGMA synchronous = NORMAL",
                            ]
                            .iter()
                            .chain(writing)
                            {
                                sqlx::query(pragma).execute(&mut *connection).await?;
                            }
                        }
                        Ok(())
                    })
                })
        };
        // First one connection of its own, brought up to date: a database
        // that cannot be opened or written says why at once (a pool would
        // retry until its timeout, and then say only that it timed out).
        let mut first = sqlx::AnyConnection::connect(url).await?;
        if sqlite {
            for pragma in ["PRAGMA foreign_keys = ON", "PRAGMA journal_mode = WAL"] {
                sqlx::query(pragma).execute(&mut first).await?;
            }
        }
        migrate_one(&mut first).await?;
        let pool = options(if sqlite { 1 } else { 16 }, true)
            .connect(url)
            .await?;
        // (An in-memory database is the pool's own: it is brought up to
        // date again there, as a file already is.)
        drop(first);
        Migrator::new(Embedded(MIGRATIONS.len()))
            .await?
            .run(&pool)
            .await?;
        let reads = if sqlite && !memory {
            options(READERS, false).connect(url).await?
        } else {
            pool.clone()
        };
        let postgres = (url.starts_with("postgres:") || url.starts_with("postgresql:"))
            .then(|| url.to_owned());
        Ok(Store {
            batcher: Batcher::start(pool.clone(), postgres.is_some()),
            creating: Arc::new(tokio::sync::Semaphore::new(1)),
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

    /// Stores a new table and its seats, within `shares`: its creator's
    /// share at each width, and the cap, where room is made by deleting
    /// the table played least recently of the largest holder that keeps
    /// more than the creator (widest first; see `keeps_more`). Creators
    /// are serialised (on PostgreSQL by an advisory lock every server
    /// takes; on SQLite by its one writing connection), so that the cap
    /// is exact.
    ///
    /// # Errors
    /// A database failure.
    pub async fn create(
        &self,
        table: NewTable<'_>,
        shares: Shares,
    ) -> Result<Created, sqlx::Error> {
        let _one = self
            .creating
            .acquire()
            .await
            .map_err(|_| sqlx::Error::PoolClosed)?;
        let mut tx = self.pool.begin().await?;
        if self.postgres.is_some() {
            sqlx::query("SELECT count(*) FROM (SELECT pg_advisory_xact_lock($1)) AS locked")
                .bind(CREATE_LOCK)
                .execute(&mut *tx)
                .await?;
        }
        let mut mine = [0u64; 3];
        for (width, (column, key)) in CREATOR.iter().zip(&table.creator).enumerate() {
            mine[width] = count_where(&mut tx, column, key).await?;
            // (A share as wide as the cap is the cap's to keep.)
            if shares.per_width[width] < shares.most && mine[width] >= shares.per_width[width] {
                return Ok(Created::OverShare(Width::ALL[width]));
            }
        }
        let lock = if self.postgres.is_some() {
            " FOR UPDATE"
        } else {
            ""
        };
        let row = sqlx::query(&format!("SELECT kept FROM table_count{lock}"))
            .fetch_one(&mut *tx)
            .await?;
        let kept = u64::try_from(row.try_get::<i64, _>("kept")?).unwrap_or(0);
        let evicted = if kept >= shares.most {
            let Some(victim) = victim(&mut tx, &table.creator, mine).await? else {
                return Ok(Created::Full);
            };
            sqlx::query("DELETE FROM game_tables WHERE id = $1")
                .bind(&victim)
                .execute(&mut *tx)
                .await?;
            Some(victim)
        } else {
            sqlx::query("UPDATE table_count SET kept = kept + 1")
                .execute(&mut *tx)
                .await?;
            None
        };
        sqlx::query(
            "INSERT INTO game_tables (id, created_at, played_at, version, match_no, state, \
             first_state, settings, turn_due, creator_address, creator_network, creator_block) \
             VALUES ($1, $2, $2, 0, 1, $3, $3, $4, $5, $6, $7, $8)",
        )
        .bind(table.id)
        .bind(table.now)
        .bind(table.state)
        .bind(table.settings)
        .bind(table.turn_due)
        .bind(&table.creator[0])
        .bind(&table.creator[1])
        .bind(&table.creator[2])
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
        tx.commit().await?;
        Ok(Created::Stored { evicted })
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
        rows.iter().map(seat_row).collect()
    }

    /// The moves of a table's match, in order.
    ///
    /// # Errors
    /// A database failure.
    pub async fn moves(&self, id: &str, match_no: i64) -> Result<Vec<MoveRow>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT number, seat, move FROM moves WHERE table_id = $1 AND match_no = $2 \
             ORDER BY number",
        )
        .bind(id)
        .bind(match_no)
        .fetch_all(&self.reads)
        .await?;
        rows.iter().map(move_row).collect()
    }

    /// The last move of a table's match, if it has one, and the packed
    /// state it was made on.
    ///
    /// # Errors
    /// A database failure.
    pub async fn last_move(
        &self,
        id: &str,
        match_no: i64,
    ) -> Result<Option<(MoveRow, Vec<u8>)>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT m.number, m.seat, m.move, t.previous_state FROM moves m \
             JOIN game_tables t ON t.id = m.table_id \
             WHERE m.table_id = $1 AND m.match_no = $2 ORDER BY m.number DESC LIMIT 1",
        )
        .bind(id)
        .bind(match_no)
        .fetch_optional(&self.reads)
        .await?;
        row.map(|row| {
            let before: Option<Vec<u8>> = row.try_get("previous_state")?;
            Ok((move_row(&row)?, before.unwrap_or_default()))
        })
        .transpose()
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
            "UPDATE game_tables SET state = $1, first_state = $1, previous_state = NULL, \
             match_no = match_no + 1, version = version + 1, played_at = $2, turn_due = $3 WHERE id = $4 AND version = $5",
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

    /// Claims up to `most` tables whose turn was due by `now` for this
    /// server until `until` (the most overdue first), with their seats:
    /// each as it stood when claimed, its `turn_due` when its turn was
    /// due. On PostgreSQL, of servers claiming at once, each table goes to
    /// one (`FOR UPDATE SKIP LOCKED`), and a claimer that dies leaves its
    /// tables to the sweeps after `until`. SQLite is one server's, whose
    /// sweeper plays its due turns one batch after another: the tables
    /// are only read (their commits move their due times on; one the
    /// sweeper sets aside it claims by setting its due time on, with
    /// [`Store::set_due`]), which halves what a timeout writes.
    ///
    /// # Errors
    /// A database failure.
    pub async fn claim_due(
        &self,
        now: i64,
        until: i64,
        most: i64,
    ) -> Result<Vec<Claimed>, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let lock = if self.postgres.is_some() {
            " FOR UPDATE SKIP LOCKED"
        } else {
            ""
        };
        let rows = sqlx::query(&format!(
            "SELECT id, version, match_no, state, first_state, settings, turn_due \
             FROM game_tables WHERE turn_due <= $1 ORDER BY turn_due LIMIT $2{lock}"
        ))
        .bind(now)
        .bind(most)
        .fetch_all(&mut *tx)
        .await?;
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        let tables = rows.iter().map(table_row).collect::<Result<Vec<_>, _>>()?;
        if self.postgres.is_some() {
            let list = placeholders(true, 2, tables.len());
            let sql = format!("UPDATE game_tables SET turn_due = $1 WHERE id IN ({list})");
            let mut query = sqlx::query(&sql).bind(until);
            for table in &tables {
                query = query.bind(&table.id);
            }
            query.execute(&mut *tx).await?;
        }
        let sql = format!(
            // (Who is connected does not matter to a due turn.)
            "SELECT table_id, seat, kind, level, auto, CAST(0 AS BIGINT) AS connected \
             FROM seats WHERE table_id IN ({}) AND seat >= 0 ORDER BY table_id, seat",
            placeholders(self.postgres.is_some(), 1, tables.len())
        );
        let mut query = sqlx::query(&sql);
        for table in &tables {
            query = query.bind(&table.id);
        }
        let seat_rows = query.fetch_all(&mut *tx).await?;
        tx.commit().await?;
        let mut seats: std::collections::HashMap<String, Vec<SeatRow>> =
            std::collections::HashMap::new();
        for row in &seat_rows {
            let table: String = row.try_get("table_id")?;
            seats.entry(table).or_default().push(seat_row(row)?);
        }
        Ok(tables
            .into_iter()
            .map(|table| Claimed {
                seats: seats.remove(&table.id).unwrap_or_default(),
                table,
            })
            .collect())
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

    /// Deletes the tables not played since `before` (their seats, moves
    /// and presence with them): the ids deleted.
    ///
    /// # Errors
    /// A database failure.
    pub async fn expire(&self, before: i64) -> Result<Vec<String>, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let rows = sqlx::query("DELETE FROM game_tables WHERE played_at < $1 RETURNING id")
            .bind(before)
            .fetch_all(&mut *tx)
            .await?;
        if !rows.is_empty() {
            sqlx::query("UPDATE table_count SET kept = kept - $1")
                .bind(i64::try_from(rows.len()).unwrap_or(i64::MAX))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
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
            return Ok(());
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

    /// Refreshes this `server`'s presence rows; forgets every server's rows not refreshed since `stale` (a
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

/// `count` parameters from the `first`, comma-separated: numbered on
/// PostgreSQL (`$2, $3`), SQLite's anonymous `?` otherwise (SQLite looks a
/// numbered parameter's name up in a list, and a statement of a thousand
/// of them spent a tenth of a busy server's time doing so).
pub(super) fn placeholders(postgres: bool, first: usize, count: usize) -> String {
    let one = |n: usize| {
        if postgres {
            format!("${n}")
        } else {
            "?".to_owned()
        }
    };
    (first..first + count)
        .map(one)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The advisory lock PostgreSQL's creators take (any number, the same
/// on every server: "pips" in ASCII).
const CREATE_LOCK: i64 = 0x7069_7073;

/// A transaction on the tables' database.
type Tx = sqlx::Transaction<'static, sqlx::Any>;

/// Tables whose creator's `column` is `key`.
async fn count_where(tx: &mut Tx, column: &str, key: &str) -> Result<u64, sqlx::Error> {
    let row = sqlx::query(&format!(
        "SELECT COUNT(*) AS kept FROM game_tables WHERE {column} = $1"
    ))
    .bind(key)
    .fetch_one(&mut **tx)
    .await?;
    Ok(u64::try_from(row.try_get::<i64, _>("kept")?).unwrap_or(0))
}

/// The group of `column` keeping the most tables within `within` (the
/// wider column and its key), other than `not`: its key and count.
async fn largest(
    tx: &mut Tx,
    column: &str,
    within: Option<(&str, &str)>,
    not: Option<&str>,
) -> Result<Option<(String, u64)>, sqlx::Error> {
    let mut sql =
        format!("SELECT {column} AS k, COUNT(*) AS n FROM game_tables WHERE {column} IS NOT NULL");
    if let Some((wider, _)) = within {
        sql.push_str(&format!(" AND {wider} = $1"));
    }
    if not.is_some() {
        let number = if within.is_some() { 2 } else { 1 };
        sql.push_str(&format!(" AND {column} <> ${number}"));
    }
    sql.push_str(&format!(" GROUP BY {column} ORDER BY n DESC, k LIMIT 1"));
    let mut query = sqlx::query(&sql);
    if let Some((_, key)) = within {
        query = query.bind(key);
    }
    if let Some(not) = not {
        query = query.bind(not);
    }
    let row = query.fetch_optional(&mut **tx).await?;
    row.map(|row| {
        let count: i64 = row.try_get("n")?;
        Ok((row.try_get("k")?, u64::try_from(count).unwrap_or(0)))
    })
    .transpose()
}

/// The table to delete to make room at the cap for a table of `creator`,
/// who keeps `mine` at each width: from the widest width in, the first
/// group beside the creator's own (within the creator's wider group) that
/// keeps more than the creator's ([`keeps_more`]); within it, its largest
/// group at each narrower width; of that address, the table played least
/// recently. None: the creator keeps as many as anyone at every width.
async fn victim(
    tx: &mut Tx,
    creator: &[String; 3],
    mine: [u64; 3],
) -> Result<Option<String>, sqlx::Error> {
    let mut found: Option<(usize, String)> = None;
    for width in (0..3).rev() {
        let within = (width < 2).then(|| (CREATOR[width + 1], creator[width + 1].as_str()));
        let other = largest(tx, CREATOR[width], within, Some(&creator[width])).await?;
        if let Some((key, count)) = other {
            if keeps_more(count, mine[width]) {
                found = Some((width, key));
                break;
            }
        }
    }
    let Some((mut width, mut key)) = found else {
        return Ok(None);
    };
    while width > 0 {
        let within = Some((CREATOR[width], key.as_str()));
        let Some((narrower, _)) = largest(tx, CREATOR[width - 1], within, None).await? else {
            return Ok(None);
        };
        (width, key) = (width - 1, narrower);
    }
    let row = sqlx::query(
        "SELECT id FROM game_tables WHERE creator_address = $1 ORDER BY played_at, id LIMIT 1",
    )
    .bind(&key)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|row| row.try_get("id")).transpose()
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

/// A seat from its row.
fn seat_row(row: &AnyRow) -> Result<SeatRow, sqlx::Error> {
    Ok(SeatRow {
        seat: row.try_get("seat")?,
        kind: row.try_get("kind")?,
        level: row.try_get("level")?,
        auto: row.try_get::<i64, _>("auto")? != 0,
        connected: row.try_get::<i64, _>("connected")? != 0,
    })
}

/// A move from its row.
fn move_row(row: &AnyRow) -> Result<MoveRow, sqlx::Error> {
    Ok(MoveRow {
        number: row.try_get("number")?,
        seat: row.try_get("seat")?,
        mv: row.try_get("move")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::networks::Networks;

    /// The migrations built in are the folder's, as sqlx reads a folder:
    /// the same versions, descriptions, SQL and checksums, none missing.
    #[tokio::test]
    async fn the_built_in_migrations_are_the_folders() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tables/migrations");
        let read = Migrator::new(folder).await.expect("the folder");
        let built = Migrator::new(Embedded(MIGRATIONS.len()))
            .await
            .expect("built in");
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
        let created = store
            .create(
                NewTable {
                    id: "t1",
                    state: b"first",
                    seats: seats.clone(),
                    watch: [9; 32],
                    settings: "{}",
                    turn_due: None,
                    now: 1,
                    creator: Networks::of(None).keys(),
                },
                Shares {
                    most: 10,
                    per_width: [10; 3],
                },
            )
            .await
            .expect("created");
        assert_eq!(created, Created::Stored { evicted: None });
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
                .map(|(m, _)| m.number),
            Some(0)
        );
    }

    /// Stores table `id` of one person's seat, made by `creator` at
    /// `now`, within `shares`.
    async fn create_by(
        store: &Store,
        id: &str,
        creator: &str,
        now: i64,
        shares: Shares,
    ) -> Created {
        let person = SeatRow {
            seat: 0,
            kind: "person".to_owned(),
            level: None,
            auto: false,
            connected: false,
        };
        let mut watch = [0; 32];
        watch[..id.len().min(32)].copy_from_slice(&id.as_bytes()[..id.len().min(32)]);
        let mut link = watch;
        link[31] = 1;
        store
            .create(
                NewTable {
                    id,
                    state: b"state",
                    seats: vec![(person, Some(link))],
                    watch,
                    settings: "{}",
                    turn_due: None,
                    now,
                    creator: Networks::of(Some(creator.parse().expect("an address"))).keys(),
                },
                shares,
            )
            .await
            .expect("no database failure")
    }

    async fn ids(store: &Store) -> Vec<String> {
        let rows = sqlx::query("SELECT id FROM game_tables ORDER BY id")
            .fetch_all(&store.pool)
            .await
            .expect("read");
        rows.iter()
            .map(|row| row.try_get("id").expect("an id"))
            .collect()
    }

    #[tokio::test]
    async fn each_creator_keeps_its_share_and_the_cap_makes_room_from_the_largest() {
        let store = Store::open("sqlite::memory:").await.expect("opened");
        let shares = Shares {
            most: 4,
            per_width: [3, 30, 300],
        };
        // A keeps three (its share), B one: the cap.
        for (id, at) in [("a1", 10), ("a2", 20), ("a3", 30)] {
            let created = create_by(&store, id, "10.0.0.1", at, shares).await;
            assert_eq!(created, Created::Stored { evicted: None });
        }
        assert_eq!(
            create_by(&store, "a4", "10.0.0.1", 40, shares).await,
            Created::OverShare(Width::Address),
            "past the address's share"
        );
        create_by(&store, "b1", "10.0.0.2", 50, shares).await;
        // C, of another network: the network keeping the most beside C's
        // gives up its largest address's table played least recently.
        assert_eq!(
            create_by(&store, "c1", "10.0.1.1", 60, shares).await,
            Created::Stored {
                evicted: Some("a1".to_owned())
            }
        );
        assert_eq!(ids(&store).await, ["a2", "a3", "b1", "c1"]);
        // A person's move keeps a table: a2 is played now, so a3 goes
        // next.
        sqlx::query("UPDATE game_tables SET played_at = 70 WHERE id = 'a2'")
            .execute(&store.pool)
            .await
            .expect("played");
        assert_eq!(
            create_by(&store, "d1", "10.1.0.1", 80, shares).await,
            Created::Stored {
                evicted: Some("a3".to_owned())
            }
        );
        // D's block keeps one, 10.0/16 three: it gives up one more.
        assert_eq!(
            create_by(&store, "d2", "10.1.0.1", 90, shares).await,
            Created::Stored {
                evicted: Some("a2".to_owned())
            }
        );
        // Every group now keeps at most one more than D's: D is refused.
        assert_eq!(
            create_by(&store, "d3", "10.1.0.1", 100, shares).await,
            Created::Full
        );
        assert_eq!(ids(&store).await, ["b1", "c1", "d1", "d2"]);
        // Expiry counts from play.
        let mut expired = store.expire(61).await.expect("expired");
        expired.sort();
        assert_eq!(expired, ["b1", "c1"]);
    }

    #[tokio::test]
    async fn the_cap_is_exact_under_concurrent_creators() {
        let store = Store::open("sqlite::memory:").await.expect("opened");
        let shares = Shares {
            most: 5,
            per_width: [10, 100, 1000],
        };
        let creators =
            (0..8).map(|n| {
                let store = store.clone();
                async move {
                    create_by(&store, &format!("t{n}"), &format!("10.{n}.0.1"), 1, shares).await
                }
            });
        let created = futures_util::future::join_all(creators).await;
        let stored = created
            .iter()
            .filter(|c| matches!(c, Created::Stored { .. }))
            .count();
        assert_eq!(stored, 5);
        assert_eq!(ids(&store).await.len(), 5);
        let kept = sqlx::query("SELECT kept FROM table_count")
            .fetch_one(&store.pool)
            .await
            .expect("counted");
        assert_eq!(kept.try_get::<i64, _>("kept").expect("a count"), 5);
    }

    /// A database of the schema before tables were kept by play (version
    /// 2), with a table mid-match, brought up to date: the table was last
    /// played when it was last touched, its previous state is its last
    /// move's, and the count of tables is right.
    #[tokio::test]
    async fn a_database_of_version_2_is_brought_up_to_date() {
        let folder = std::env::temp_dir().join(format!("pips-migrate-{}", std::process::id()));
        std::fs::create_dir_all(&folder).expect("a folder");
        let url = format!("sqlite://{}?mode=rwc", folder.join("t.db").display());
        sqlx::any::install_default_drivers();
        let old = AnyPoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .expect("opened");
        Migrator::new(Embedded(2))
            .await
            .expect("two")
            .run(&old)
            .await
            .expect("version 2");
        for sql in [
            "INSERT INTO game_tables (id, created_at, touched_at, version, match_no, state, \
             first_state, settings) VALUES ('t', 1, 42, 2, 1, X'03', X'01', '{}')",
            "INSERT INTO moves (table_id, match_no, number, seat, move, before, by_whom, at) \
             VALUES ('t', 1, 0, 0, X'00', X'01', 'person', 5)",
            "INSERT INTO moves (table_id, match_no, number, seat, move, before, by_whom, at) \
             VALUES ('t', 1, 1, 1, X'00', X'02', 'person', 6)",
        ] {
            sqlx::query(sql).execute(&old).await.expect("old rows");
        }
        old.close().await;
        let store = Store::open(&url).await.expect("brought up to date");
        let row = sqlx::query("SELECT played_at, previous_state FROM game_tables")
            .fetch_one(&store.pool)
            .await
            .expect("read");
        assert_eq!(row.try_get::<i64, _>("played_at").expect("played"), 42);
        let previous: Vec<u8> = row.try_get("previous_state").expect("previous");
        assert_eq!(previous, [2]);
        let (last, before) = store
            .last_move("t", 1)
            .await
            .expect("read")
            .expect("a move");
        assert_eq!((last.number, before), (1, vec![2]));
        let kept = sqlx::query("SELECT kept FROM table_count")
            .fetch_one(&store.pool)
            .await
            .expect("counted");
        assert_eq!(kept.try_get::<i64, _>("kept").expect("a count"), 1);
        let _ = std::fs::remove_dir_all(&folder);
    }
}
