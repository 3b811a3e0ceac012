//! The sweeper: one task per server that, every second, writes this
//! server's presence changes (and tells the tables' watchers), plays the
//! turns that are due (claimed first, so that of several servers one
//! plays each), and deletes the tables nobody has touched for the
//! server's expiry. Every ten seconds it also refreshes this server's
//! presence and forgets that of servers that stopped refreshing theirs.

use std::sync::{Arc, Weak};
use std::time::Duration;

use crate::service::ApiError;

use super::Tables;
use super::live::Change;
use super::table::{database, now_ms};
use super::turn::CLAIM_MS;

/// How often the sweeper runs.
pub const TICK: Duration = Duration::from_secs(1);

/// Every how many runs this server's presence is refreshed.
const REFRESH_EVERY: u64 = 10;

/// How long another server's presence lasts without a refresh.
const PRESENCE_STALE_MS: i64 = 30_000;

/// Due tables taken in one run.
const MOST_DUE: i64 = 32;

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
                if let Err(error) = tables.sweep(run % REFRESH_EVERY == 0).await {
                    tracing::warn!(message = %error.message, "the tables' sweeper");
                }
            }
        });
    }

    /// One run of the sweeper.
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
        let due = self
            .store
            .due(now, MOST_DUE)
            .await
            .map_err(|e| database(&e))?;
        for (id, when) in due {
            let claimed = self
                .store
                .claim(&id, when, now + CLAIM_MS)
                .await
                .map_err(|e| database(&e))?;
            if claimed {
                let tables = Arc::clone(self);
                tokio::spawn(async move {
                    if let Err(error) = tables.play_due(&id).await {
                        tracing::warn!(message = %error.message, "a due turn could not be played");
                    }
                });
            }
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
}
