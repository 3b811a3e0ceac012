//! The sweeper: one task per server that plays the turns that are due
//! (a person's timer run out, a computer seat's move its server left),
//! every tenth of a second, and every second writes this server's
//! presence changes (and tells the tables' watchers) and deletes the
//! tables nobody has played at for the server's expiry. Every ten seconds
//! it also refreshes this server's presence and forgets that of servers
//! that stopped refreshing theirs.
//!
//! Due turns are claimed in batches ([`Store::claim_due`]: of several
//! servers, each table goes to one), each played at the move number it was
//! due at, so that a timeout applies only to the turn that was due: a move
//! made since makes its commit stale. A batch's moves are chosen on the
//! work pool in one job (at the lowest priority, never on the threads
//! serving connections; on the sweeper's own task when the pool has no
//! room) and committed through the batcher, many to a transaction. A
//! computer seat that searches (`expert`) is played on its own, within
//! the engine's search cap.
//!
//! [`Store::claim_due`]: super::store::Store::claim_due

use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use crate::metrics::{METRICS, TurnLabels};
use crate::rules::{Event, Game, Move};
use crate::service::ApiError;
use crate::service::pool::ConnectionId;

use super::Tables;
use super::computer::{DueMove, due_move, quick_move};
use super::live::Change;
use super::settings::Settings;
use super::store::Claimed;
use super::table::{By, database, now_ms, read_state};
use super::turn::{CLAIM_MS, NextTurn, next_turn};

/// How often the sweeper looks for due turns.
pub const TICK: Duration = Duration::from_millis(100);

/// Every how many ticks presence is written and tables expire (a second).
const SECOND: u64 = 10;

/// Every how many ticks this server's presence is refreshed.
const REFRESH_EVERY: u64 = 100;

/// How long another server's presence lasts without a refresh.
const PRESENCE_STALE_MS: i64 = 30_000;

/// Due tables claimed at once.
const BATCH: usize = 256;

/// Batches one tick may claim (the next tick goes on).
const MOST_BATCHES: usize = 64;

/// The work pool's account for the sweeper's batches: no connection's
/// (connections are numbered from 1; computer seats' searches are 0).
const SWEEPER: ConnectionId = ConnectionId(u64::MAX);

/// How long a batch may wait for a thread of the work pool before it is
/// played on the sweeper's own task.
const POOL_WAIT: Duration = Duration::from_millis(200);

/// What a claimed table's due turn comes to.
enum Plan {
    /// A move, played: the new state and its events, and as whom.
    Play {
        /// The move.
        mv: Move,
        /// The match after it, and what it did.
        after: Box<(Game, Vec<Event>)>,
        /// As whom it is recorded.
        by: By,
    },
    /// A computer seat that searches: played on its own.
    Search,
    /// Nothing is to be played (a person took their seat back since):
    /// the turn's due time is set again from where it stands.
    Nothing,
}

/// The plan for `claimed`'s due turn.
fn plan(claimed: &Claimed) -> Result<Plan, ApiError> {
    let game = read_state(&claimed.table.state)?;
    let settings = Settings::from_json(&claimed.table.settings);
    let Some(DueMove { seat, level, by }) = due_move(&game, &claimed.seats, settings, true) else {
        return Ok(Plan::Nothing);
    };
    if level.searches() && by == By::Computer {
        return Ok(Plan::Search);
    }
    let level = if by == By::Timeout {
        crate::bots::Level::Greedy
    } else {
        level
    };
    let mv = quick_move(&game, seat, level)
        .ok_or_else(|| ApiError::internal("a seat to act has no move"))?;
    let mut after = game;
    let events = after.play(mv)?.events;
    Ok(Plan::Play {
        mv,
        after: Box::new((after, events)),
        by,
    })
}

impl Tables {
    /// Starts this server's sweeper; it ends when the server shuts down
    /// (or the tables are dropped).
    pub(super) fn start_sweeper(self: &Arc<Self>) {
        let tables: Weak<Tables> = Arc::downgrade(self);
        let mut closing = self.closing.subscribe();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(TICK);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            for run in 0u64.. {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = closing.wait_for(|closing| *closing) => return,
                }
                let Some(tables) = tables.upgrade() else {
                    return;
                };
                // (A database failure is written to the log where it
                // happens, at most once a second.)
                let _ = tables.play_due().await;
                if run % SECOND == 0 {
                    let _ = tables.sweep(run % REFRESH_EVERY == 0).await;
                }
            }
        });
    }

    /// Presence and expiry: once a second.
    async fn sweep(self: &Arc<Self>, refresh: bool) -> Result<(), ApiError> {
        let now = now_ms();
        for ((table, seat), streams) in self.live.take_changed() {
            self.store
                .set_presence(&table, seat, &self.server, streams, now)
                .await
                .map_err(|e| database(&e))?;
            self.tell(&table, Change::Presence).await;
        }
        if refresh {
            self.store
                .refresh_presence(&self.server, now, now - PRESENCE_STALE_MS)
                .await
                .map_err(|e| database(&e))?;
        }
        let expiry = i64::try_from(self.expire_after.as_millis()).unwrap_or(i64::MAX);
        let expired = self
            .store
            .expire(now.saturating_sub(expiry))
            .await
            .map_err(|e| database(&e))?;
        for id in expired {
            self.tell(&id, Change::Gone).await;
        }
        Ok(())
    }

    /// Claims the tables whose turn is due, a batch at a time, and plays
    /// them, until a batch comes back less than full.
    async fn play_due(self: &Arc<Self>) -> Result<(), ApiError> {
        for _ in 0..MOST_BATCHES {
            let now = now_ms();
            let most = i64::try_from(BATCH).unwrap_or(i64::MAX);
            let claimed = self
                .store
                .claim_due(now, now + CLAIM_MS, most)
                .await
                .map_err(|e| database(&e))?;
            let full = claimed.len() == BATCH;
            if !claimed.is_empty() {
                self.play_claimed(Arc::new(claimed)).await;
            }
            if !full {
                break;
            }
        }
        Ok(())
    }

    /// Plays the due turns of `claimed`: their moves chosen in one job on
    /// the work pool, then committed together, each at the number it was
    /// claimed at.
    async fn play_claimed(self: &Arc<Self>, claimed: Arc<Vec<Claimed>>) {
        let planned = {
            let claimed = Arc::clone(&claimed);
            self.engine
                .pool()
                .run(SWEEPER, Instant::now() + POOL_WAIT, move || {
                    Ok(claimed.iter().map(plan).collect::<Vec<_>>())
                })
                .await
        };
        // The pool had no room in time: the moves are quick, made here.
        let planned = planned.unwrap_or_else(|_| claimed.iter().map(plan).collect());
        let commits = claimed.iter().zip(planned).map(|(claimed, plan)| {
            let tables = Arc::clone(self);
            async move {
                let id = &claimed.table.id;
                let result = match plan {
                    Ok(Plan::Play { mv, after, by }) => {
                        tables.commit_due(claimed, mv, *after, by).await
                    }
                    Ok(Plan::Search) => {
                        tables.claim_apart(claimed).await;
                        let tables = Arc::clone(&tables);
                        let claimed = claimed.clone();
                        tokio::spawn(async move {
                            let played = tables
                                .play_turn(&claimed.table, &claimed.seats, true)
                                .await;
                            match played {
                                Ok(true) => tables.play_computers(claimed.table.id.clone()),
                                Ok(false) => {}
                                Err(error) => {
                                    if let Some(more) = crate::logs::TURNS.admit() {
                                        tracing::warn!(
                                            message = %error.message,
                                            more,
                                            "a computer seat could not move"
                                        );
                                    }
                                }
                            }
                        });
                        Ok(())
                    }
                    Ok(Plan::Nothing) => tables.due_again(&claimed.table).await,
                    Err(error) => {
                        // Not looked at again before a claim's time.
                        tables.claim_apart(claimed).await;
                        Err(error)
                    }
                };
                if let Err(error) = result {
                    if let Some(more) = crate::logs::TURNS.admit() {
                        tracing::warn!(table = %id, message = %error.message, more, "a due turn could not be played");
                    }
                }
            }
        });
        futures_util::future::join_all(commits).await;
    }

    /// Claims `claimed` for a claim's time (on SQLite, where a batch's
    /// tables are not claimed as they are read): its turn is played apart,
    /// or cannot be played.
    async fn claim_apart(&self, claimed: &Claimed) {
        let until = now_ms() + CLAIM_MS;
        if let Err(error) = self
            .store
            .set_due(&claimed.table.id, claimed.table.version, Some(until))
            .await
        {
            database(&error);
        }
    }

    /// Commits a due turn's move (`after` the match it leaves), at the
    /// number its table was claimed at; the computer seats after it play
    /// on.
    async fn commit_due(
        self: &Arc<Self>,
        claimed: &Claimed,
        mv: Move,
        after: (Game, Vec<Event>),
        by: By,
    ) -> Result<(), ApiError> {
        let due = claimed.table.turn_due.unwrap_or_default();
        let committed = self
            .commit(&claimed.table, &claimed.seats, mv, after, by)
            .await?;
        let Some(Some(snapshot)) = committed.as_deref() else {
            // A move came first: the turn that was due is not due now.
            return Ok(());
        };
        let late = (now_ms() - due).max(0);
        METRICS
            .turn_lateness
            .get_or_create(&TurnLabels {
                kind: if by == By::Timeout {
                    "timeout"
                } else {
                    "computer"
                },
            })
            .observe(late as f64 / 1000.0);
        let settings = Settings::from_json(&snapshot.table.settings);
        if next_turn(snapshot.game(), &snapshot.seats, settings) == NextTurn::Computer {
            self.play_computers(claimed.table.id.clone());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto;
    use crate::service::Engine;
    use crate::service::custody::Custody;
    use crate::tables::limits::TableLimits;
    use crate::tables::watches::WatchLimits;

    /// A muggins table of two people on `seconds` timers, the computer
    /// playing one move for a late seat: its tables, its links and the
    /// table as created.
    async fn timed_table(seconds: u32) -> (Arc<Tables>, Vec<String>) {
        let tables = Tables::open(
            "sqlite::memory:",
            Engine::new(Custody::new(None)),
            Duration::from_secs(3600),
            TableLimits::default(),
            WatchLimits::of(&TableLimits::default(), 100),
        )
        .await
        .expect("opened");
        let person = proto::SeatPlan {
            who: Some(proto::seat_plan::Who::Person(proto::PersonSeat {})),
        };
        let created = tables
            .create(
                &proto::CreateTableRequest {
                    variant: "muggins".to_owned(),
                    players: 2,
                    seats: vec![person, person],
                    settings: Some(proto::TableSettings {
                        turn_seconds: seconds,
                        on_timeout: proto::TimeoutRule::OneMove as i32,
                    }),
                    ..Default::default()
                },
                None,
            )
            .await
            .expect("created");
        let links = created.seat_links.into_iter().map(|l| l.link).collect();
        (tables, links)
    }

    /// Makes table `id`'s turn at move `number` overdue, and claims the
    /// tables due as the sweeper does.
    async fn due_now(tables: &Tables, id: &str, number: i64) -> Vec<Claimed> {
        tables
            .store
            .set_due(id, number, Some(now_ms() - 10))
            .await
            .expect("due");
        tables
            .store
            .claim_due(now_ms(), now_ms() + CLAIM_MS, 10)
            .await
            .expect("claimed")
    }

    /// A timeout claimed while its seat was to act, played after the seat
    /// moved: it is not applied to the next seat's turn.
    #[tokio::test]
    async fn a_timeout_applies_only_to_the_turn_that_was_due() {
        let (tables, links) = timed_table(60).await;
        let opened = tables
            .open_seat(&proto::OpenSeatRequest {
                link: links[0].clone(),
            })
            .await
            .expect("opened")
            .update
            .expect("an update");
        let to_act = opened.view.as_ref().and_then(|v| v.to_act).expect("a seat");
        let link = &links[usize::try_from(to_act).expect("a seat")];
        let table_id = opened.table_id.clone();
        // The seat's time is up: the sweeper claims the turn ...
        let claimed = due_now(&tables, &table_id, 0).await;
        assert_eq!(claimed.len(), 1);
        // ... but the seat moves before its timeout is played.
        let mine = tables
            .open_seat(&proto::OpenSeatRequest { link: link.clone() })
            .await
            .expect("opened")
            .update
            .expect("an update");
        let mv = mine.view.as_ref().expect("a view").legal_moves[0];
        let acted = tables
            .act(&proto::ActRequest {
                link: link.clone(),
                number: 0,
                r#move: Some(mv),
            })
            .await
            .expect("acted");
        assert!(!acted.stale);
        tables.play_claimed(Arc::new(claimed)).await;
        // The table stands at the seat's move: the other seat, whose timer
        // has just started, was not timed out.
        let table = tables.reread(&table_id).await.expect("there");
        assert_eq!(table.version, 1);
        let due = table.turn_due.expect("a timer runs");
        assert!(due > now_ms() + 50_000, "the next seat's timer runs whole");
        // A turn still due when its timeout is played is played.
        let claimed = due_now(&tables, &table_id, 1).await;
        tables.play_claimed(Arc::new(claimed)).await;
        assert_eq!(tables.reread(&table_id).await.expect("there").version, 2);
    }
}
