//! The `pips.v1.DominoEngine` gRPC service: each RPC decodes its request,
//! runs the rules and encodes the answer. It holds no state.

use tonic::{Request, Response, Status};

use crate::proto::domino_engine_server::DominoEngine;
use crate::proto::{self, ErrorReason};
use crate::rules::presets::{PRESETS, preset};
use crate::rules::{Game, Seat};

use super::codec::{
    decode_move, decode_rules, decode_seat, encode_legal_moves, encode_rules, encode_update,
    encode_view,
};
use super::custody::{Authority, Custody};
use super::error::{ApiError, quote};

/// The engine service. It keeps nothing between calls; its only
/// configuration is how states are kept ([`Custody`]).
#[derive(Clone, Debug, Default)]
pub struct Engine {
    /// Tags, seals and reads states.
    custody: Custody,
}

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

impl Engine {
    /// An engine keeping states under `custody`.
    #[must_use]
    pub fn new(custody: Custody) -> Engine {
        Engine { custody }
    }

    /// Fills in the state of an answer for `authority`: the readable state,
    /// or a token, plus (when tokens are sealed) seat tokens for a
    /// full-authority one.
    fn deliver(
        &self,
        game: &Game,
        mut update: proto::GameUpdate,
        authority: Authority,
        as_token: bool,
    ) -> Result<proto::GameUpdate, ApiError> {
        match (authority, as_token) {
            (Authority::Full, false) => update.state = Some(self.custody.write_state(game)?),
            (Authority::Full, true) => {
                update.state_token = self.custody.write_token(game, Authority::Full)?;
                if self.custody.seals_tokens() {
                    update.seat_tokens = (0..game.players())
                        .map(|seat| self.custody.write_token(game, Authority::Seat(seat)))
                        .collect::<Result<_, _>>()?;
                }
            }
            (Authority::Seat(_), _) => {
                update.state_token = self.custody.write_token(game, authority)?;
            }
        }
        Ok(update)
    }

    /// Deals a new match.
    ///
    /// # Errors
    /// `UNKNOWN_VARIANT`, `PLAYERS_NOT_ALLOWED` or a refusal of the rules.
    pub fn new_game(&self, request: &proto::NewGameRequest) -> Result<proto::GameUpdate, ApiError> {
        let preset = preset(&request.variant).ok_or_else(|| {
            let known: Vec<&str> = PRESETS.iter().map(|p| p.id).collect();
            ApiError::invalid(
                ErrorReason::UnknownVariant,
                "variant",
                format!(
                    "no preset is called {}; known: {}",
                    quote(&request.variant),
                    known.join(", ")
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
        let (game, events) = Game::new(preset.id, rules, players, seed)
            .map_err(|e| ApiError::from_rules(&e, "rules"))?;
        let score_change = vec![0; game.scores().len()];
        let update = encode_update(&game, &events, score_change, None);
        self.deliver(&game, update, Authority::Full, request.as_token)
    }

    /// Applies one move.
    ///
    /// # Errors
    /// A refusal of the state or the move (`FAILED_PRECONDITION` for a move
    /// that is illegal now).
    pub fn play(&self, request: &proto::PlayRequest) -> Result<proto::GameUpdate, ApiError> {
        let (mut game, authority) = self
            .custody
            .read(request.state.as_ref(), &request.state_token)?;
        let mv = decode_move(request.r#move.as_ref(), &|| "move".to_owned())?;
        if let Authority::Seat(seat) = authority {
            if mv.seat != seat {
                return Err(not_permitted("move.seat", seat));
            }
        }
        let as_token = request.as_token || !request.state_token.is_empty();
        let report = game.play(mv)?;
        let viewer = authority.seat();
        let update = encode_update(&game, &report.events, report.score_change, viewer);
        self.deliver(&game, update, authority, as_token)
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
            .read(request.state.as_ref(), &request.state_token)?;
        let viewer = authority.seat();
        Ok(encode_legal_moves(&game, viewer))
    }

    /// One seat's view.
    ///
    /// # Errors
    /// A refusal of the state, a seat the game does not have, or a seat token
    /// of another seat.
    pub fn view(&self, request: &proto::ViewRequest) -> Result<proto::ViewResponse, ApiError> {
        let (game, authority) = self
            .custody
            .read(request.state.as_ref(), &request.state_token)?;
        let seat = decode_seat(request.seat, &|| "seat".to_owned())?;
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
        Ok(encode_view(view))
    }
}

/// A seat token used for another seat.
fn not_permitted(field: &str, own: Seat) -> ApiError {
    ApiError {
        code: tonic::Code::PermissionDenied,
        reason: ErrorReason::SeatNotPermitted,
        field: field.to_owned(),
        message: format!("this token speaks for seat {own} only"),
    }
}

/// Wraps a handler's result as a gRPC answer, logging refusals.
fn respond<T>(result: Result<T, ApiError>) -> Result<Response<T>, Status> {
    match result {
        Ok(answer) => {
            tracing::debug!("answered");
            Ok(Response::new(answer))
        }
        Err(error) => {
            error.log();
            Err(Status::from(error))
        }
    }
}

#[tonic::async_trait]
impl DominoEngine for Engine {
    async fn list_variants(
        &self,
        _request: Request<proto::ListVariantsRequest>,
    ) -> Result<Response<proto::ListVariantsResponse>, Status> {
        Ok(Response::new(list_variants()))
    }

    async fn new_game(
        &self,
        request: Request<proto::NewGameRequest>,
    ) -> Result<Response<proto::GameUpdate>, Status> {
        respond(Engine::new_game(self, request.get_ref()))
    }

    async fn play(
        &self,
        request: Request<proto::PlayRequest>,
    ) -> Result<Response<proto::GameUpdate>, Status> {
        respond(Engine::play(self, request.get_ref()))
    }

    async fn legal_moves(
        &self,
        request: Request<proto::LegalMovesRequest>,
    ) -> Result<Response<proto::LegalMovesResponse>, Status> {
        respond(Engine::legal_moves(self, request.get_ref()))
    }

    async fn view(
        &self,
        request: Request<proto::ViewRequest>,
    ) -> Result<Response<proto::ViewResponse>, Status> {
        respond(Engine::view(self, request.get_ref()))
    }
}
