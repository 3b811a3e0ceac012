//! A match's review and its notation: `pips.review`, `pips.write_notation`
//! and `pips.read_notation`.

use pips::proto;
use pips::rules::Move;
use pips::service::custody::Source;
use pips::service::engine::Engine;
use pips::service::error::ApiError;
use pips::service::notation::write;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::{Refuse, Seed, refusal};
use crate::game::PyGame;
use crate::json;
use crate::moves::{PyMove, given_move};

/// A match's record as `Replay` takes it: notation text, or the service's
/// JSON `ReplayRequest` (a dict or its text: `{"state": …, "moves": […]}`
/// or `{"notation": …}`).
fn record_of(record: &Bound<'_, PyAny>) -> PyResult<proto::ReplayRequest> {
    if let Ok(text) = record.cast::<PyString>() {
        let text = text.to_cow()?;
        if !text.trim_start().starts_with('{') {
            return Ok(proto::ReplayRequest {
                notation: text.into_owned(),
                ..proto::ReplayRequest::default()
            });
        }
    }
    json::from_python(record, "record")
}

/// Reviews a match move by move, as the service's `ReviewMatch` does: each
/// decision of `seats` (default: every seat) valued by the expert from what
/// its seat knew then, the move played against the best one, the loss in
/// winning chance, a grade, and per seat an accuracy and the count of each
/// grade. `record` is the match's notation, or the service's JSON
/// `ReplayRequest` (a dict or its text). `playouts` is the expert's budget a
/// decision (default: the service's), `seed` makes it reproducible (default:
/// each decision's from its position). The answer is the service's JSON
/// `ReviewMatchResponse` as a dict; the GIL is released while it searches.
///
/// Raises `pips.InvalidArgument` for a record that does not read (its
/// reason and field as the service's) or a seat the game does not have,
/// and `pips.IllegalMove` for a move that is not legal when played.
#[pyfunction]
#[pyo3(signature = (record, seats = None, playouts = None, seed = None))]
pub fn review(
    py: Python<'_>,
    record: &Bound<'_, PyAny>,
    seats: Option<Vec<u32>>,
    playouts: Option<u32>,
    seed: Option<Seed>,
) -> PyResult<Py<PyAny>> {
    let request = proto::ReviewMatchRequest {
        record: Some(record_of(record)?),
        seats: seats.unwrap_or_default(),
        playouts,
        seed: seed.map(|s| s.0),
    };
    let answer = py
        .detach(|| Engine::default().review_now(&request))
        .refused()?;
    json::to_python(py, &answer)
}

/// The notation of a match (docs/notation.md): `first` as it was dealt
/// (from a preset, by `Game(variant, players, seed, rules)`) and the
/// `moves` played since (each a `Move`, or one in the service's JSON
/// form).
///
/// Raises `ValueError` for a match of no preset (it could not be dealt
/// again) and `pips.IllegalMove` for a move that is not legal when played.
#[pyfunction]
pub fn write_notation(first: PyRef<'_, PyGame>, moves: Vec<Bound<'_, PyAny>>) -> PyResult<String> {
    let first = first.game();
    let mut game = first.clone();
    let mut played: Vec<Move> = Vec::with_capacity(moves.len());
    for (i, value) in moves.iter().enumerate() {
        let to_act = game.outcome().is_none().then(|| game.to_act());
        let mv = given_move(value, to_act)?;
        game.play(mv).map_err(|error| {
            let mut error = ApiError::from(error);
            error.field = format!("moves[{i}]");
            refusal(&error)
        })?;
        played.push(mv);
    }
    write(first, first.seed(), &played)
        .map_err(|error| pyo3::exceptions::PyValueError::new_err(error.to_string()))
}

/// A match read from its notation: the game as dealt and every move, each
/// checked as it is played.
///
/// Raises `pips.InvalidArgument` (`ERROR_REASON_MALFORMED_NOTATION`,
/// naming the line at fault) for a text that does not read.
#[pyfunction]
pub fn read_notation(text: &str) -> PyResult<(PyGame, Vec<PyMove>)> {
    let (first, moves) = Engine::default()
        .record(Source::Missing, &[], text)
        .refused()?;
    Ok((
        PyGame::from_game(first),
        moves.into_iter().map(PyMove).collect(),
    ))
}
