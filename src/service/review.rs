//! `ReviewMatch`: a match reviewed move by move with the expert's values
//! ([`crate::bots::review`]), on the work pool, each decision within the
//! server's search cap and the whole within the call's deadline.

use std::time::{Duration, Instant};

use crate::bots::review::{Decision, Grade, Summary, accuracy, decision};
use crate::bots::{self, Budget, MAX_PLAYOUTS};
use crate::proto::{self, ErrorReason};
use crate::rules::notation::token;
use crate::rules::{Game, Move, Seat};

use super::codec::encode_move;
use super::custody::Source;
use super::engine::{Engine, state_source};
use super::error::ApiError;
#[cfg(feature = "server")]
use super::pool::Call;
#[cfg(feature = "server")]
use super::streams::{Messages, Streamed};

/// The time kept before the call's deadline for handing the answer over.
#[cfg(feature = "server")]
const ANSWER_MARGIN: Duration = Duration::from_millis(100);

/// A review asked for, checked, with what its work needs (owned, so that
/// it can run on the work pool).
struct Asked {
    /// The match's first state.
    first: Game,
    /// Its moves.
    moves: Vec<Move>,
    /// The seats reviewed.
    seats: Vec<Seat>,
    /// The expert's playouts a decision.
    playouts: u32,
    /// The search's seed, if one was given.
    seed: Option<u64>,
    /// The longest one decision's search may take (none: its playouts
    /// alone bound it).
    cap: Option<Duration>,
    /// When the review stops, answered as far as it got (none: at the
    /// record's end).
    stop_at: Option<Instant>,
}

impl From<proto::StreamReviewMatchRequest> for proto::ReviewMatchRequest {
    fn from(request: proto::StreamReviewMatchRequest) -> proto::ReviewMatchRequest {
        proto::ReviewMatchRequest {
            record: request.record,
            seats: request.seats,
            playouts: request.playouts,
            seed: request.seed,
        }
    }
}

/// A grade on the wire.
const fn encode_grade(grade: Option<Grade>) -> proto::MoveGrade {
    match grade {
        None => proto::MoveGrade::Unspecified,
        Some(Grade::Best) => proto::MoveGrade::Best,
        Some(Grade::Good) => proto::MoveGrade::Good,
        Some(Grade::Inaccuracy) => proto::MoveGrade::Inaccuracy,
        Some(Grade::Mistake) => proto::MoveGrade::Mistake,
        Some(Grade::Blunder) => proto::MoveGrade::Blunder,
    }
}

impl Asked {
    /// Reviews the match: each decision of the seats asked, handed to
    /// `each` as soon as it is valued, until the moves end, the time does
    /// or `gone` says nobody waits any more; the end (each seat's summary,
    /// and whether every decision was reviewed).
    fn walk(
        self,
        mut each: impl FnMut(proto::ReviewedMove),
        gone: &dyn Fn() -> bool,
    ) -> proto::ReviewMatchEnd {
        let mut game = self.first;
        let mut reviewed: Vec<(Seat, Decision)> = Vec::new();
        let mut complete = true;
        for (index, &mv) in self.moves.iter().enumerate() {
            if self.seats.contains(&mv.seat) {
                let started = Instant::now();
                if self.stop_at.is_some_and(|stop_at| started >= stop_at) || gone() {
                    complete = false;
                    break;
                }
                // The sooner of the decision's cap and the review's end.
                let until = self
                    .cap
                    .map(|cap| started + cap)
                    .into_iter()
                    .chain(self.stop_at)
                    .min();
                let stop = || until.is_some_and(|until| Instant::now() >= until) || gone();
                let budget = Budget {
                    playouts: self.playouts,
                    stop: &stop,
                };
                let seed = self.seed.map(|seed| seed ^ index as u64);
                if let Some(decision) = decision(&game, mv, seed, budget) {
                    each(encode_decision(index, game.hand_number(), &decision));
                    reviewed.push((mv.seat, decision));
                }
            }
            // (The record was checked: every move plays.)
            if game.play(mv).is_err() {
                break;
            }
        }
        let seats = self
            .seats
            .iter()
            .map(|&seat| {
                let summary =
                    Summary::of(reviewed.iter().filter(|(s, _)| *s == seat).map(|(_, d)| d));
                proto::SeatReview {
                    seat: u32::from(seat),
                    graded: summary.graded,
                    forced: summary.forced,
                    mean_loss: summary.mean_loss,
                    accuracy: summary.accuracy,
                    grades: summary.grades.to_vec(),
                    mean_points_loss: summary.mean_points_loss,
                }
            })
            .collect();
        proto::ReviewMatchEnd { seats, complete }
    }

    /// Reviews the match in one answer.
    fn review(self) -> proto::ReviewMatchResponse {
        let mut moves = Vec::new();
        let end = self.walk(|reviewed| moves.push(reviewed), &|| false);
        proto::ReviewMatchResponse {
            moves,
            seats: end.seats,
            complete: end.complete,
        }
    }
}

/// One reviewed decision on the wire.
fn encode_decision(index: usize, hand: u32, decision: &Decision) -> proto::ReviewedMove {
    proto::ReviewedMove {
        index: u32::try_from(index).unwrap_or(u32::MAX),
        seat: u32::from(decision.played.seat),
        hand,
        played: Some(encode_move(decision.played)),
        token: token(decision.played.action).to_string(),
        forced: decision.forced,
        best: Some(encode_move(decision.best)),
        best_token: token(decision.best.action).to_string(),
        played_value: decision.played_value,
        best_value: decision.best_value,
        loss: decision.loss,
        grade: encode_grade(decision.grade).into(),
        accuracy: if decision.forced {
            0.0
        } else {
            accuracy(decision.loss)
        },
        played_points: decision.played_points,
        best_points: decision.best_points,
    }
}

impl Engine {
    /// A review request checked: the record read and played through, the
    /// seats and the budget.
    fn review_asked(
        &self,
        request: &proto::ReviewMatchRequest,
        cap: Option<Duration>,
        stop_at: Option<Instant>,
    ) -> Result<Asked, ApiError> {
        let under_record = |mut error: ApiError| {
            error.field = if error.field.is_empty() {
                "record".to_owned()
            } else {
                format!("record.{}", error.field)
            };
            error
        };
        let record = request
            .record
            .as_ref()
            .ok_or_else(|| ApiError::missing("record"))?;
        let source = state_source!(record, replay_request);
        let (first, moves) = self
            .record(source, &record.moves, &record.notation)
            .map_err(under_record)?;
        // (Every move of the record must play before any is reviewed.)
        let mut played = first.clone();
        for (i, &mv) in moves.iter().enumerate() {
            played
                .play(mv)
                .map_err(|e| under_record(ApiError::from(e).at_move(i)))?;
        }
        let players = first.players();
        let mut seats = Vec::new();
        for (i, &seat) in request.seats.iter().enumerate() {
            match Seat::try_from(seat).ok().filter(|&s| s < players) {
                Some(seat) if !seats.contains(&seat) => seats.push(seat),
                Some(_) => {}
                None => {
                    return Err(ApiError::invalid(
                        ErrorReason::SeatOutOfRange,
                        format!("seats[{i}]"),
                        format!("seat {seat} does not exist with {players} players"),
                    ));
                }
            }
        }
        if seats.is_empty() {
            seats = (0..players).collect();
        }
        seats.sort_unstable();
        let playouts = request
            .playouts
            .unwrap_or_else(|| bots::default_playouts(first.rules()))
            .min(MAX_PLAYOUTS);
        Ok(Asked {
            first,
            moves,
            seats,
            playouts,
            seed: request.seed,
            cap,
            stop_at,
        })
    }

    /// Reviews a match here and now, with no time bound but the playouts
    /// (in process: Python's `pips.review`); what `ReviewMatch` answers
    /// with no deadline.
    ///
    /// # Errors
    /// A refusal of the record (as `Replay`'s) or a seat the game does not
    /// have (at `seats[i]`).
    pub fn review_now(
        &self,
        request: &proto::ReviewMatchRequest,
    ) -> Result<proto::ReviewMatchResponse, ApiError> {
        Ok(self.review_asked(request, None, None)?.review())
    }

    /// Reviews a match move by move on the work pool: each decision of the
    /// seats asked valued by the expert from its seat's view, within the
    /// server's search cap a decision, until the call's deadline (then
    /// answered as far as it got, `complete` false).
    ///
    /// # Errors
    /// A refusal of the record (as `Replay`'s), a seat the game does not
    /// have (at `seats[i]`), or the work pool's refusal
    /// (`ERROR_REASON_OVERLOADED`).
    #[cfg(feature = "server")]
    pub async fn review_match(
        &self,
        request: &proto::ReviewMatchRequest,
        call: Call,
    ) -> Result<proto::ReviewMatchResponse, ApiError> {
        self.pool().check_room(call.connection)?;
        let stop_at = call
            .deadline
            .checked_sub(ANSWER_MARGIN)
            .unwrap_or_else(Instant::now);
        let asked = self.review_asked(request, Some(self.suggest_cap()), Some(stop_at))?;
        self.pool()
            .run(call.connection, call.deadline, move || Ok(asked.review()))
            .await
    }

    /// A streamed review, checked and ready to run: within the server's
    /// search cap a decision, until the call's deadline (for
    /// `StreamReviewMatch`, the server's `--max-review-ms` or the
    /// caller's, if sooner).
    ///
    /// # Errors
    /// As [`Engine::review_match`]'s.
    #[cfg(feature = "server")]
    pub fn review_for_stream(
        &self,
        request: &proto::ReviewMatchRequest,
        call: Call,
    ) -> Result<StreamedReview, ApiError> {
        self.pool().check_room(call.connection)?;
        let asked = self.review_asked(request, Some(self.suggest_cap()), Some(call.deadline))?;
        Ok(StreamedReview(asked))
    }
}

/// A review to stream ([`Engine::review_for_stream`]).
#[cfg(feature = "server")]
pub struct StreamedReview(Asked);

/// A streamed review's steps, as they are sent.
#[cfg(feature = "server")]
type Step = Result<Streamed<proto::StreamReviewMatchResponse>, ApiError>;

#[cfg(feature = "server")]
impl StreamedReview {
    /// The review's steps; the job that values them (for the work pool),
    /// sending each decision as soon as it is valued, then the end; and
    /// what ends the steps with the pool's refusal if the job never runs.
    /// The steps are as many as the decisions reviewed and the end, which
    /// the channel holds all of (the record bounds them): the job never
    /// waits for a slow reader. It stops when nobody reads any more (the
    /// call was cancelled), or when the time is up (the end then says
    /// `complete: false`).
    pub fn start(
        self,
    ) -> (
        Messages<proto::StreamReviewMatchResponse>,
        impl FnOnce() -> Result<(), ApiError> + Send + 'static,
        impl FnOnce(ApiError) + Send + 'static,
    ) {
        let asked = self.0;
        let steps = asked
            .moves
            .iter()
            .filter(|mv| asked.seats.contains(&mv.seat))
            .count();
        // Every decision, the end, or a refusal.
        let (sender, receiver) = tokio::sync::mpsc::channel::<Step>(steps + 1);
        let failed = sender.clone();
        let job = move || {
            let send = |step| {
                let _ = sender.try_send(Ok(Streamed::Message(proto::StreamReviewMatchResponse {
                    step: Some(step),
                })));
            };
            let gone = || sender.is_closed();
            let end = asked.walk(
                |reviewed| send(proto::stream_review_match_response::Step::Move(reviewed)),
                &gone,
            );
            send(proto::stream_review_match_response::Step::End(end));
            Ok(())
        };
        let refuse = move |error: ApiError| {
            let _ = failed.try_send(Err(error));
        };
        let messages: Messages<proto::StreamReviewMatchResponse> = Box::pin(
            futures_util::stream::unfold(receiver, |mut receiver| async move {
                receiver.recv().await.map(|step| (step, receiver))
            }),
        );
        (messages, job, refuse)
    }
}
