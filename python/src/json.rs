//! JSON between the service's messages and Python values.
//!
//! The service's messages become Python values through their JSON (the
//! same pbjson encoding the HTTP API answers with) and Python's `json`
//! module; a client's JSON becomes a message through the HTTP API's own
//! parser, so that a malformed one is refused with the same reason and
//! field as the server's.

use pips::service::error::ApiError;
use pips::service::json::parse_json;
use pyo3::prelude::*;
use pyo3::types::PyString;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::errors::refusal;

/// A message as a Python value (dicts, lists, strings, numbers).
pub fn to_python<T: Serialize>(py: Python<'_>, message: &T) -> PyResult<Py<PyAny>> {
    let text = to_text(message)?;
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

/// A message as JSON text.
pub fn to_text<T: Serialize>(message: &T) -> PyResult<String> {
    serde_json::to_string(message).map_err(|error| {
        pyo3::exceptions::PyRuntimeError::new_err(format!("cannot write JSON: {error}"))
    })
}

/// A message from JSON text or from a Python value that `json.dumps`
/// writes (a dict, say); a refusal names the field at fault under
/// `prefix` (`state.hands[1]`).
pub fn from_python<T: DeserializeOwned>(value: &Bound<'_, PyAny>, prefix: &str) -> PyResult<T> {
    from_text(&text_of(value)?, prefix)
}

/// A message from JSON text, refused as [`from_python`] is.
pub fn from_text<T: DeserializeOwned>(text: &str, prefix: &str) -> PyResult<T> {
    parse_json(text.as_bytes()).map_err(|error| refusal(&under(error, prefix)))
}

/// The JSON text of a Python value: a string as it is, anything else as
/// `json.dumps` writes it.
pub fn text_of(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = value.cast::<PyString>() {
        return Ok(text.to_cow()?.into_owned());
    }
    value
        .py()
        .import("json")?
        .call_method1("dumps", (value,))?
        .extract::<String>()
}

/// `error` with its field put under `prefix`.
fn under(mut error: ApiError, prefix: &str) -> ApiError {
    error.field = match (prefix.is_empty(), error.field.is_empty()) {
        (true, _) => error.field,
        (false, true) => prefix.to_owned(),
        (false, false) => format!("{prefix}.{}", error.field),
    };
    error
}
