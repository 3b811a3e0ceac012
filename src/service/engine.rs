//! The `pips.v1.DominoEngineService` RPCs: each reads the state of its
//! request, runs the rules and answers. It holds no state. Every protocol
//! (gRPC, gRPC-Web, Connect, the JSON API) reaches them through one
//! dispatch ([`super::http_api::Api::run`]).

#[cfg(feature = "server")]
use std::sync::{Arc, OnceLock};

use crate::proto::{self, ErrorReason};
use crate::rules::presets::{PRESETS, known_ids, preset};
use crate::rules::{Event, Game, Move, Report, Seat, View};

use super::codec::{
    Outlook, decode_move, decode_rules, decode_seat, encode_events, encode_legal_moves,
    encode_outlook, encode_rules, encode_view,
};
use super::custody::{Authority, Custody, Source};
use super::error::{ApiError, QUOTE_CHARS, clip, quote};
use super::notation;
#[cfg(feature = "server")]
use super::pool::{PoolSize, WorkPool};

/// The engine service. It keeps nothing between calls; its only
/// configuration is how states are kept ([`Custody`]).
#[derive(Clone, Debug)]
pub struct Engine {
    /// Tags, seals and reads states.
    custody: Custody,
    /// The longest a `SuggestMove` search may take.
    suggest_cap: std::time::Duration,
    /// Where searches and long replays run (started on first use, shared
    /// by every clone). The server's alone: in-process callers do not search
    /// or replay on a pool.
    #[cfg(feature = "server")]
    work: Arc<Work>,
}

/// The work pool of an engine and its clones, started on first use so that
/// an engine used for its cheap calls alone (the arena's, a test's) starts
/// no threads.
#[cfg(feature = "server")]
#[derive(Debug)]
struct Work {
    /// The pool's size.
    size: PoolSize,
    /// The pool, once started.
    pool: OnceLock<WorkPool>,
}

/// The default of [`Engine::with_suggest_cap`].
pub const DEFAULT_SUGGEST_CAP: std::time::Duration = std::time::Duration::from_millis(200);

/// Every preset, as `ListVariants` answers.
#[must_use]
pub fn list_variants() -> proto::ListVariantsResponse {
    proto::ListVariantsResponse {
        variants: PRESETS
            .iter()
            .map(|p| proto::Variant {
                id: p.id.to_owned(),
                title: p.title.to_owned(),
                description: p.description.to_owned(),
                source: p.source.to_owned(),
                players: p.players.clone().map(u32::from).collect(),
                defaults: p
                    .players
                    .clone()
                    .map(|players| proto::VariantDefaults {
                        players: u32::from(players),
                        rules: Some(encode_rules(&p.rules(players, None))),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// The state of an answer: the readable state, or a token (and, for a
/// full-authority token on a server with a key, one token per seat).
#[derive(Debug, Default)]
struct Delivery {
    /// The readable state, unless tokens were asked for.
    state: Option<proto::GameState>,
    /// The token, if tokens were asked for.
    state_token: Vec<u8>,
    /// Seat tokens, with a full-authority sealed token.
    seat_tokens: Vec<Vec<u8>>,
}

/// The state a request carries, in whichever form.
macro_rules! state_source {
    ($request:expr, $module:ident) => {
        match &$request.state_source {
            Some(proto::$module::StateSource::State(state)) => Source::State(state),
            Some(proto::$module::StateSource::StateToken(token)) => Source::Token(token),
            None => Source::Missing,
        }
    };
}
pub(super) use state_source;

/// The view of the seat a request names at `seat`, which a seat token may
/// name only for its own seat.
///
/// # Errors
/// A seat the game does not have, or another seat than a seat token's.
pub fn seat_view(game: &Game, seat: u32, authority: Authority) -> Result<View<'_>, ApiError> {
    let seat = decode_seat(seat, &|| "seat".to_owned())?;
    let view = game.view(seat).ok_or_else(|| {
        ApiError::invalid(
            ErrorReason::SeatOutOfRange,
            "seat",
            format!("seat {seat} does not exist with {} players", game.players()),
        )
    })?;
    if let Authority::Seat(own) = authority {
        if seat != own {
            return Err(not_permitted("seat", own));
        }
    }
    Ok(view)
}

impl Engine {
    /// An engine keeping states under `custody`.
    #[must_use]
    pub fn new(custody: Custody) -> Engine {
        Engine {
            custody,
            suggest_cap: DEFAULT_SUGGEST_CAP,
            #[cfg(feature = "server")]
            work: Arc::new(Work {
                size: PoolSize::for_this_machine(),
                pool: OnceLock::new(),
            }),
        }
    }

    /// The engine with searches and long replays run on a pool of this
    /// size (default: [`PoolSize::for_this_machine`]).
    #[cfg(feature = "server")]
    #[must_use]
    pub fn with_pool_size(self, size: PoolSize) -> Engine {
        Engine {
            work: Arc::new(Work {
                size,
                pool: OnceLock::new(),
            }),
            ..self
        }
    }

    /// The work pool, started on first use.
    #[cfg(feature = "server")]
    pub fn pool(&self) -> &WorkPool {
        self.work.pool.get_or_init(|| WorkPool::new(self.work.size))
    }

    /// The engine with `SuggestMove` searches capped at `cap`, so that no
    /// caller can pin a core.
    #[must_use]
    pub fn with_suggest_cap(self, cap: std::time::Duration) -> Engine {
        Engine {
            suggest_cap: cap,
            ..self
        }
    }

    /// How states are kept.
    pub fn custody(&self) -> &Custody {
        &self.custody
    }

    /// The longest a `SuggestMove` search may take.
    pub fn suggest_cap(&self) -> std::time::Duration {
        self.suggest_cap
    }

    /// The state of an answer for `authority`: the readable state, or a
    /// token, plus (when tokens are sealed) seat tokens for a full-authority
    /// one.
    fn deliver(
        &self,
        game: &Game,
        authority: Authority,
        as_token: bool,
    ) -> Result<Delivery, ApiError> {
        let mut delivery = Delivery::default();
        match (authority, as_token) {
            (Authority::Full, false) => delivery.state = Some(self.custody.write_state(game)?),
            (Authority::Full, true) => {
                delivery.state_token = self.custody.write_token(game, Authority::Full)?;
                if self.custody.seals_tokens() {
                    delivery.seat_tokens = (0..game.players())
                        .map(|seat| self.custody.write_token(game, Authority::Seat(seat)))
                        .collect::<Result<_, _>>()?;
                }
            }
            (Authority::Seat(_), _) => {
                delivery.state_token = self.custody.write_token(game, authority)?;
            }
        }
        Ok(delivery)
    }

    /// The answer to a move (or to a deal): the events as the authority may
    /// see them, the score change, the new state and what comes next.
    fn answer(
        &self,
        game: &Game,
        report: &Report,
        authority: Authority,
        as_token: bool,
    ) -> Result<proto::PlayResponse, ApiError> {
        let viewer = authority.seat();
        let Delivery {
            state,
            state_token,
            seat_tokens,
        } = self.deliver(game, authority, as_token)?;
        let Outlook {
            to_act,
            legal_moves,
            match_digest,
        } = encode_outlook(game, viewer);
        Ok(proto::PlayResponse {
            state,
            events: encode_events(&report.events, game, viewer),
            score_change: report.score_change.clone(),
            to_act,
            legal_moves,
            state_token,
            seat_tokens,
            match_digest,
        })
    }

    /// Deals a new match.
    ///
    /// # Errors
    /// As [`Engine::deal`], or a refusal to write the state.
    pub fn new_game(
        &self,
        request: &proto::NewGameRequest,
    ) -> Result<proto::NewGameResponse, ApiError> {
        let (game, events) = self.deal(request)?;
        let report = Report {
            events,
            score_change: vec![0; game.scores().len()],
        };
        let answer = self.answer(&game, &report, Authority::Full, request.as_token)?;
        Ok(answer.into())
    }

    /// The match a `NewGame` request deals, with the events of its deal.
    ///
    /// # Errors
    /// `ERROR_REASON_UNKNOWN_VARIANT`, `ERROR_REASON_PLAYERS_NOT_ALLOWED` or a refusal of the rules.
    pub fn deal(&self, request: &proto::NewGameRequest) -> Result<(Game, Vec<Event>), ApiError> {
        let preset = preset(&request.variant).ok_or_else(|| {
            ApiError::invalid(
                ErrorReason::UnknownVariant,
                "variant",
                format!(
                    "no preset is called {}; known: {}",
                    quote(&request.variant),
                    known_ids()
                ),
            )
        })?;
        let players = u8::try_from(request.players)
            .ok()
            .filter(|n| preset.players.contains(n))
            .ok_or_else(|| {
                ApiError::invalid(
                    ErrorReason::PlayersNotAllowed,
                    "players",
                    format!(
                        "{} players: {} is played by {} to {}",
                        request.players,
                        preset.id,
                        preset.players.start(),
                        preset.players.end()
                    ),
                )
            })?;
        let overrides = request.rules.unwrap_or_default();
        let base = preset.rules(players, overrides.partnerships);
        let rules = decode_rules(&overrides, Some(&base), "rules")?;
        let seed = self.custody.deal_seed(request.seed)?;
        let commitment = self.custody.seed_commitment(seed);
        Game::new_committed(preset.id, rules, players, seed, &commitment)
            .map_err(|e| ApiError::from_rules(&e, "rules"))
    }

    /// Applies one move.
    ///
    /// # Errors
    /// A refusal of the state or the move (`FAILED_PRECONDITION` for a move
    /// that is illegal now).
    pub fn play(&self, request: &proto::PlayRequest) -> Result<proto::PlayResponse, ApiError> {
        let source = state_source!(request, play_request);
        let (mut game, authority) = self.custody.read(source)?;
        let mv = decode_move(request.r#move.as_ref(), &|| "move".to_owned())?;
        if let Authority::Seat(seat) = authority {
            if mv.seat != seat {
                return Err(not_permitted("move.seat", seat));
            }
        }
        let as_token = request.as_token || source.is_token();
        let report = game.play(mv)?;
        self.answer(&game, &report, authority, as_token)
    }

    /// Applies a list of moves, each checked, from a full-authority state.
    ///
    /// # Errors
    /// A refusal of the state, `ERROR_REASON_SEAT_NOT_PERMITTED` for a seat token, or
    /// the refusal of the first move that cannot be played, at `moves[i]`.
    pub fn replay(
        &self,
        request: &proto::ReplayRequest,
    ) -> Result<proto::ReplayResponse, ApiError> {
        let source = state_source!(request, replay_request);
        let (mut game, moves) = self.record(source, &request.moves, &request.notation)?;
        let first = game.clone();
        let mut hands = Vec::with_capacity(moves.len());
        let as_token = request.as_token || source.is_token();
        let steps = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                hands.push(game.hand_number());
                let report = game.play(mv).map_err(|e| ApiError::from(e).at_move(i))?;
                Ok(proto::ReplayStep {
                    events: encode_events(&report.events, &game, None),
                    score_change: report.score_change,
                    match_digest: game.digest().0.to_vec(),
                })
            })
            .collect::<Result<Vec<_>, ApiError>>()?;
        let Delivery {
            state, state_token, ..
        } = self.deliver(&game, Authority::Full, as_token)?;
        let Outlook {
            to_act,
            legal_moves,
            match_digest,
        } = encode_outlook(&game, None);
        let notation = notation::write_if_dealt(
            &first,
            hands.into_iter().zip(moves.iter().copied()),
            |deal| self.deal(deal).map(|(game, _)| game),
        );
        Ok(proto::ReplayResponse {
            steps,
            state,
            state_token,
            match_digest,
            to_act,
            legal_moves,
            notation,
        })
    }

    /// A match record as `Replay` takes it: the first state (with full
    /// authority) and the moves, or the match's notation (dealt as this
    /// server's `NewGame` deals it); the first state and the moves read.
    ///
    /// # Errors
    /// A refusal of the state, a seat token, a malformed move (at
    /// `moves[i]`), or a notation that does not read, or given with a
    /// state or moves (`ERROR_REASON_MALFORMED_NOTATION`).
    pub fn record(
        &self,
        source: Source<'_>,
        moves: &[proto::Move],
        notation: &str,
    ) -> Result<(Game, Vec<Move>), ApiError> {
        if notation.is_empty() {
            let (game, authority) = self.custody.read(source)?;
            if let Authority::Seat(own) = authority {
                return Err(ApiError {
                    message: format!(
                        "this token speaks for seat {own} only; a replay needs a state with full authority"
                    ),
                    ..not_permitted("state_token", own)
                });
            }
            let moves = moves
                .iter()
                .enumerate()
                .map(|(i, mv)| decode_move(Some(mv), &|| format!("moves[{i}]")))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok((game, moves));
        }
        if !matches!(source, Source::Missing) || !moves.is_empty() {
            return Err(ApiError::invalid(
                ErrorReason::MalformedNotation,
                "notation",
                "give a notation, or a state and moves, not both",
            ));
        }
        let notated = notation::read(notation, |deal| self.deal(deal).map(|(game, _)| game))
            .map_err(|error| {
                ApiError::invalid(
                    ErrorReason::MalformedNotation,
                    "notation",
                    clip(&error.to_string(), 3 * QUOTE_CHARS),
                )
            })?;
        Ok((notated.first, notated.moves))
    }

    /// Lists the legal moves.
    ///
    /// # Errors
    /// A refusal of the state.
    pub fn legal_moves(
        &self,
        request: &proto::LegalMovesRequest,
    ) -> Result<proto::LegalMovesResponse, ApiError> {
        let (game, authority) = self
            .custody
            .read(state_source!(request, legal_moves_request))?;
        let viewer = authority.seat();
        Ok(encode_legal_moves(&game, viewer))
    }

    /// One seat's view.
    ///
    /// # Errors
    /// A refusal of the state, a seat the game does not have, or a seat token
    /// of another seat.
    pub fn view(&self, request: &proto::ViewRequest) -> Result<proto::ViewResponse, ApiError> {
        let (game, authority) = self.custody.read(state_source!(request, view_request))?;
        Ok(encode_view(seat_view(&game, request.seat, authority)?))
    }
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(Custody::default())
    }
}

/// A seat token used for another seat.
pub fn not_permitted(field: &str, own: Seat) -> ApiError {
    ApiError {
        code: tonic::Code::PermissionDenied,
        reason: ErrorReason::SeatNotPermitted,
        field: field.to_owned(),
        message: format!("this token speaks for seat {own} only"),
    }
}
