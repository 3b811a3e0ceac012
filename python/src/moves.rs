//! `Move`, one seat's move, and `Update`, what playing one did.

use pips::proto;
use pips::rules::{Action, FootPlace, Move, PlaceKind, TrainId};
use pips::service::codec::{decode_move, encode_move};
use pyo3::prelude::*;

use pips::proto::ErrorReason;
use pips::service::error::{ApiError, quote};

use crate::errors::{Refuse, refusal};
use crate::json;

/// One seat's move. Compare and hash them; `to_dict()` gives the service's
/// JSON `Move` and `Move.from_dict` reads one.
#[pyclass(module = "pips._pips", name = "Move", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyMove(pub Move);

#[pymethods]
impl PyMove {
    /// Reads a move in the service's JSON form (a dict or its text), e.g.
    /// `{"seat": 0, "play": {"tile": {"a": 6, "b": 6}}}`.
    ///
    /// Raises `pips.InvalidArgument` for a malformed move.
    #[staticmethod]
    pub(crate) fn from_dict(value: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let wire: proto::Move = json::from_python(value, "move")?;
        decode_move(Some(&wire), &|| "move".to_owned())
            .refused()
            .map(PyMove)
    }

    /// The move in the service's JSON form, as a dict.
    #[allow(clippy::wrong_self_convention)] // A Python method takes `&self`.
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        json::to_python(py, &encode_move(self.0))
    }

    /// The seat making it.
    #[getter]
    fn seat(&self) -> u8 {
        self.0.seat
    }

    /// `"play"`, `"draw"`, `"pass"` or `"end_turn"`; a trick game's
    /// `"bid"`, `"contract"`, `"discard"` or `"trick"` (its key in
    /// `to_dict()`).
    #[getter]
    fn kind(&self) -> &'static str {
        match self.0.action {
            Action::Play { .. } => "play",
            Action::Draw => "draw",
            Action::Pass => "pass",
            Action::EndTurn => "end_turn",
            Action::Bid(_) => "bid",
            Action::Name(_) => "contract",
            Action::Discard(_) => "discard",
            Action::Trick(_) => "trick",
        }
    }

    /// The tile placed, laid away or played to a trick, as `(high, low)`,
    /// or `None`.
    #[getter]
    fn tile(&self) -> Option<(u8, u8)> {
        match self.0.action {
            Action::Play { tile, .. } | Action::Discard(tile) | Action::Trick(tile) => {
                Some((tile.high(), tile.low()))
            }
            _ => None,
        }
    }

    /// Where the tile goes, or `None`: `"lead"`, an end (`"left"`,
    /// `"right"`, `"up"`, `"down"`), a train (`"train 2"`, `"mexican"`) or a
    /// chicken foot's place (`"new arm"`, `"arm 3"`).
    #[getter]
    fn place(&self) -> Option<String> {
        let Action::Play { place, .. } = self.0.action else {
            return None;
        };
        Some(match place.kind() {
            PlaceKind::Lead => "lead".to_owned(),
            PlaceKind::End(end) => end.to_string(),
            PlaceKind::Train(TrainId::Seat(seat)) => format!("train {seat}"),
            PlaceKind::Train(TrainId::Mexican) => "mexican".to_owned(),
            PlaceKind::Foot(FootPlace::NewArm) => "new arm".to_owned(),
            PlaceKind::Foot(FootPlace::Arm(arm)) => format!("arm {arm}"),
        })
    }

    /// The move as its token in the match notation (docs/notation.md):
    /// `6-4L`, `6-4@M`, `draw`, `pass`, `30`, `trumps:6`, `discard:6-4`.
    #[getter]
    fn token(&self) -> String {
        pips::rules::notation::token(self.0.action).to_string()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!(
            "Move.from_dict({})",
            json::to_text(&encode_move(self.0))?
        ))
    }
}

/// A move given to `Game.play`: a `Move`, or one in the service's JSON
/// form (a dict or its text), which is `to_act`'s when it names no seat.
///
/// # Errors
/// `pips.InvalidArgument`: for what is not a JSON object, in words saying
/// what a move looks like; for a malformed move, naming its field.
pub(crate) fn given_move(value: &Bound<'_, PyAny>, to_act: Option<u8>) -> PyResult<Move> {
    if let Ok(mv) = value.cast::<PyMove>() {
        return Ok(mv.get().0);
    }
    let text = json::text_of(value)?;
    let Ok(serde_json::Value::Object(mut fields)) = serde_json::from_str(&text) else {
        return Err(refusal(&ApiError::invalid(
            ErrorReason::MalformedJson,
            "move",
            format!(
                "{} is not a move: give a Move (one of legal_moves()), or a move in the \
                 service's JSON form, as a dict or its text, such as {{\"bid\": {{\"points\": 30}}}}, \
                 {{\"pass\": {{}}}} or {{\"seat\": 1, \"trick\": {{\"a\": 6, \"b\": 4}}}} \
                 (without a seat it is the seat to act's)",
                quote(&text)
            ),
        )));
    };
    if let Some(seat) = to_act {
        fields.entry("seat").or_insert_with(|| seat.into());
    }
    let wire: proto::Move =
        json::from_text(&serde_json::Value::Object(fields).to_string(), "move")?;
    decode_move(Some(&wire), &|| "move".to_owned()).refused()
}

/// What a move did: the events, in the service's JSON form (the `events`
/// of a `PlayResponse`), and the points each side gained.
#[pyclass(module = "pips._pips", name = "Update", frozen)]
pub struct PyUpdate {
    /// The events, as dicts.
    #[pyo3(get)]
    pub events: Py<PyAny>,
    /// Points gained per side.
    #[pyo3(get)]
    pub score_change: Vec<i32>,
}

#[pymethods]
impl PyUpdate {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Update(events={}, score_change={:?})",
            self.events.bind(py).repr()?,
            self.score_change
        ))
    }
}
