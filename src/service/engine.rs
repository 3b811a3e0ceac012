//! The `pips.v1.DominoEngine` gRPC service: each RPC decodes its request,
//! runs the rules and encodes the answer. It holds no state.

use rand::TryRng;
use rand::rngs::SysRng;
use tonic::{Request, Response, Status};

use crate::proto::domino_engine_server::DominoEngine;
use crate::proto::{self, ErrorReason};
use crate::rules::Game;
use crate::rules::presets::{PRESETS, preset};

use super::error::ApiError;
use super::rules_codec::{decode_rules, encode_rules};
use super::state_codec::{
    decode_move, decode_seat, decode_state, encode_legal_moves, encode_update, encode_view,
};

/// The engine service. It keeps nothing between calls.
#[derive(Clone, Copy, Debug, Default)]
pub struct Engine;

/// Every preset, as `ListVariants` answers.
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

/// Deals a new match.
pub fn new_game(request: &proto::NewGameRequest) -> Result<proto::GameUpdate, ApiError> {
    let preset = preset(&request.variant).ok_or_else(|| {
        let known: Vec<&str> = PRESETS.iter().map(|p| p.id).collect();
        ApiError::invalid(
            ErrorReason::UnknownVariant,
            "variant",
            format!(
                "no preset is called {:?}; known: {}",
                request.variant,
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
    let seed = match request.seed {
        Some(seed) => seed,
        None => SysRng.try_next_u64().map_err(|e| ApiError {
            code: tonic::Code::Unavailable,
            reason: ErrorReason::Unspecified,
            field: String::new(),
            message: format!("the operating system gave no random seed ({e}); send a seed"),
        })?,
    };
    let (game, events) =
        Game::new(preset.id, rules, players, seed).map_err(|e| ApiError::from_rules(e, "rules"))?;
    let score_change = vec![0; game.scores().len()];
    Ok(encode_update(&game, &events, score_change))
}

/// Applies one move.
pub fn play(request: &proto::PlayRequest) -> Result<proto::GameUpdate, ApiError> {
    let mut game = decode_state(request.state.as_ref(), "state")?;
    let mv = decode_move(request.r#move.as_ref(), &|| "move".to_owned())?;
    let report = game.play(mv)?;
    Ok(encode_update(&game, &report.events, report.score_change))
}

/// Lists the legal moves.
pub fn legal_moves(
    request: &proto::LegalMovesRequest,
) -> Result<proto::LegalMovesResponse, ApiError> {
    let game = decode_state(request.state.as_ref(), "state")?;
    Ok(encode_legal_moves(&game))
}

/// One seat's view.
pub fn view(request: &proto::ViewRequest) -> Result<proto::ViewResponse, ApiError> {
    let game = decode_state(request.state.as_ref(), "state")?;
    let seat = decode_seat(request.seat, &|| "seat".to_owned())?;
    if seat >= game.players() {
        return Err(ApiError::invalid(
            ErrorReason::SeatOutOfRange,
            "seat",
            format!("seat {seat} does not exist with {} players", game.players()),
        ));
    }
    Ok(encode_view(&game, seat))
}

/// Wraps a handler's result as a gRPC answer, logging refusals.
fn respond<T>(result: Result<T, ApiError>) -> Result<Response<T>, Status> {
    match result {
        Ok(answer) => {
            tracing::debug!("answered");
            Ok(Response::new(answer))
        }
        Err(error) => {
            tracing::info!(
                code = ?error.code,
                reason = error.reason.as_str_name(),
                field = %error.field,
                "refused"
            );
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
        respond(new_game(request.get_ref()))
    }

    async fn play(
        &self,
        request: Request<proto::PlayRequest>,
    ) -> Result<Response<proto::GameUpdate>, Status> {
        respond(play(request.get_ref()))
    }

    async fn legal_moves(
        &self,
        request: Request<proto::LegalMovesRequest>,
    ) -> Result<Response<proto::LegalMovesResponse>, Status> {
        respond(legal_moves(request.get_ref()))
    }

    async fn view(
        &self,
        request: Request<proto::ViewRequest>,
    ) -> Result<Response<proto::ViewResponse>, Status> {
        respond(view(request.get_ref()))
    }
}
