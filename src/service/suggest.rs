//! `SuggestMove`: a computer opponent's move for the seat to act, from
//! what that seat may know only, within the server's time cap.

use std::time::{Duration, Instant};

use crate::bots::{self, Budget, Level, default_seed};
use crate::proto::{self, ErrorReason};
use crate::rules::{Game, PlayError, Seat};

use super::codec::encode_move;
use super::custody::Source;
use super::engine::{Engine, seat_view, state_source};
use super::error::ApiError;
use super::pool::Call;

pub use crate::bots::MAX_PLAYOUTS;

/// The level asked for (greedy when not given).
fn decode_level(value: i32) -> Result<Level, ApiError> {
    match proto::BotLevel::try_from(value) {
        Ok(proto::BotLevel::Random) => Ok(Level::Random),
        Ok(proto::BotLevel::Unspecified | proto::BotLevel::Greedy) => Ok(Level::Greedy),
        Ok(proto::BotLevel::Expert) => Ok(Level::Expert),
        Err(_) => Err(ApiError::invalid(
            ErrorReason::MalformedMove,
            "level",
            format!("{value} is not a BotLevel"),
        )),
    }
}

/// The least and the most time kept for handing an answer over before
/// the call's deadline (encoding and writing it, and a busy machine's
/// delays): a third of the time the call has left, within these bounds.
/// The search stops one margin before the answer is due, the answer is due
/// one margin before the deadline.
const MIN_MARGIN: Duration = Duration::from_millis(8);
/// See [`MIN_MARGIN`].
const MAX_MARGIN: Duration = Duration::from_millis(50);

/// A suggestion request, checked, with what its search needs (owned, so
/// that the search can run on the work pool).
struct Asked {
    /// The game, as the state says.
    game: Game,
    /// The seat to act, whose view the bot sees.
    seat: Seat,
    /// The bot.
    level: Level,
    /// The search's seed.
    seed: u64,
    /// The most playouts the search may spend.
    playouts: u32,
    /// The longest the search may take (the caller's budget within the
    /// server's cap).
    allowed: Duration,
}

impl Asked {
    /// The move `level` suggests, the search stopped at `stop_at` if given.
    fn answer(
        &self,
        level: Level,
        stop_at: Option<Instant>,
    ) -> Result<proto::SuggestMoveResponse, ApiError> {
        let no_move =
            || ApiError::invalid(ErrorReason::NotYourTurn, "seat", "the seat has no move");
        let view = self.game.view(self.seat).ok_or_else(no_move)?;
        let stop = || stop_at.is_some_and(|at| Instant::now() >= at);
        let budget = Budget {
            playouts: self.playouts,
            stop: &stop,
        };
        let suggestion = bots::suggest(view, level, self.seed, budget).ok_or_else(no_move)?;
        Ok(proto::SuggestMoveResponse {
            r#move: Some(encode_move(suggestion.mv)),
            values: suggestion
                .values
                .iter()
                .map(|v| proto::MoveValue {
                    r#move: Some(encode_move(v.mv)),
                    value: v.value,
                    playouts: v.playouts,
                })
                .collect(),
            playouts: suggestion.playouts,
        })
    }
}

impl Engine {
    /// Checks a suggestion request: the state, the seat (a seat token
    /// speaks for its own seat only), the level, and that the seat is to act
    /// in a match still running.
    fn asked(&self, request: &proto::SuggestMoveRequest) -> Result<Asked, ApiError> {
        let source = state_source!(request, suggest_move_request);
        let (game, authority) = self.custody().read(source)?;
        let view = seat_view(&game, request.seat, authority)?;
        let seat = view.seat();
        let level = decode_level(request.level)?;
        if game.outcome().is_some() {
            return Err(ApiError::from(PlayError::MatchOver));
        }
        if !view.is_own_turn() {
            let mut error = ApiError::from(PlayError::NotYourTurn {
                seat,
                to_act: game.to_act(),
            });
            error.field = "seat".to_owned();
            return Err(error);
        }
        let cap = self.suggest_cap();
        let allowed = request
            .time_budget_ms
            .map_or(cap, |ms| Duration::from_millis(u64::from(ms)).min(cap));
        let seed = request.seed.unwrap_or_else(|| default_seed(&game, seat));
        let playouts = request
            .playouts
            .unwrap_or_else(|| bots::default_playouts(game.rules()))
            .min(MAX_PLAYOUTS);
        Ok(Asked {
            game,
            seat,
            level,
            seed,
            playouts,
            allowed,
        })
    }

    /// A computer opponent's move. `random` and `greedy` answer at once.
    /// `expert` searches on the work pool until its time budget (within the
    /// server's cap) or shortly before the call's deadline, whichever is
    /// first, and answers with the best move so far; when the pool could not
    /// start the search in time, the answer is `greedy`'s move (with no
    /// playouts), so that a call with a deadline is answered with a move
    /// before it.
    ///
    /// # Errors
    /// A refusal of the state, a seat token of another seat, a seat that is
    /// not to act (`NOT_YOUR_TURN` at `seat`), a finished match, or the work
    /// pool's refusal (`ERROR_REASON_OVERLOADED`) when it has no room.
    pub async fn suggest_move(
        &self,
        request: &proto::SuggestMoveRequest,
        call: Call,
    ) -> Result<proto::SuggestMoveResponse, ApiError> {
        // A search the pool has no room for is refused before its state is
        // decoded: a flood of refused searches costs little.
        if request.level == proto::BotLevel::Expert as i32 {
            self.pool().check_room(call.connection)?;
        }
        let asked = self.asked(request)?;
        if asked.level != Level::Expert {
            return asked.answer(asked.level, None);
        }
        let now = Instant::now();
        let left = call.deadline.saturating_duration_since(now);
        let margin = (left / 3).clamp(MIN_MARGIN, MAX_MARGIN);
        let answer_by = call.deadline.checked_sub(margin).unwrap_or(now);
        let stop_at = (now + asked.allowed).min(answer_by.checked_sub(margin).unwrap_or(now));
        let search = self.pool().run(call.connection, call.deadline, move || {
            asked.answer(Level::Expert, Some(stop_at))
        });
        match tokio::time::timeout_at(answer_by.into(), search).await {
            Ok(answer) => answer,
            // No answer in time: greedy's move, worked out now (a few
            // microseconds; the checked request is checked again).
            Err(_) => self.asked(request)?.answer(Level::Greedy, None),
        }
    }
}
