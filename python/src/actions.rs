//! Actions (moves as integers) between Python and the rules, shared by
//! `Game` and `Batch`.

use std::fmt::Display;

use pips::proto::ErrorReason;
use pips::rules::{ActionSpace, Game, Move};
use pips::service::error::{ApiError, clip};

/// The move of `game`'s seat to act that action `number` names (`None`: a
/// number that is no `u32`), refused at `field` past the space; `shown` is
/// the action as the caller gave it (quoted cut short: a Python integer has
/// no bound).
pub fn decode(
    space: &ActionSpace,
    game: &Game,
    number: Option<u32>,
    shown: impl Display,
    field: String,
) -> Result<Move, ApiError> {
    number
        .and_then(|number| space.decode(number, game.to_act()))
        .ok_or_else(|| {
            ApiError::invalid(
                ErrorReason::MalformedMove,
                field,
                format!(
                    "{} is not an action of this game: actions are 0 to {}",
                    clip(&shown.to_string(), 24),
                    space.len() - 1
                ),
            )
        })
}

/// Sets `mask` (`space.len()` cells, cleared by the caller) true at each
/// legal action of `game`'s seat to act; `moves` is scratch room.
pub fn write_mask(game: &Game, space: &ActionSpace, moves: &mut Vec<Move>, mask: &mut [bool]) {
    game.legal_moves_into(moves);
    for action in moves.iter().filter_map(|&mv| space.encode(mv)) {
        if let Some(cell) = mask.get_mut(action as usize) {
            *cell = true;
        }
    }
}
