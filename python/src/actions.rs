//! Actions (moves as integers) between Python and the rules, shared by
//! `Game` and `Batch`.

use std::fmt::Display;

use pips::proto::ErrorReason;
use pips::rules::{ActionSpace, Game, Move, Seat};
use pips::service::error::{ApiError, clip};

/// The move of `seat` (the seat to act) that action `number` names
/// (`None`: a number that is no `u32`), refused at `field` past the space;
/// `shown` is the action as the caller gave it (quoted cut short: a Python
/// integer has no bound). `field` is called only on a refusal.
pub fn decode(
    space: &ActionSpace,
    seat: Seat,
    number: Option<u32>,
    shown: impl Display,
    field: impl FnOnce() -> String,
) -> Result<Move, ApiError> {
    number
        .and_then(|number| space.decode(number, seat))
        .ok_or_else(|| {
            ApiError::invalid(
                ErrorReason::MalformedMove,
                field(),
                format!(
                    "{} is not an action of this game: actions are 0 to {}",
                    clip(&shown.to_string(), 24),
                    space.len() - 1
                ),
            )
        })
}

/// Calls `each` with every legal action of `game`'s seat to act; `moves` is
/// scratch room.
pub fn for_each_legal(
    game: &Game,
    space: &ActionSpace,
    moves: &mut Vec<Move>,
    mut each: impl FnMut(u32),
) {
    game.legal_moves_into(moves);
    for action in moves.iter().filter_map(|&mv| space.encode(mv)) {
        each(action);
    }
}

/// Sets `mask` (`space.len()` cells, cleared by the caller) true at each
/// legal action of `game`'s seat to act; `moves` is scratch room.
pub fn write_mask(game: &Game, space: &ActionSpace, moves: &mut Vec<Move>, mask: &mut [bool]) {
    for_each_legal(game, space, moves, |action| {
        if let Some(cell) = mask.get_mut(action as usize) {
            *cell = true;
        }
    });
}
