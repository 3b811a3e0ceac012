//! Requests in proto3 JSON: parsed with the JSON path of a fault, in the
//! API's words. The HTTP API, Connect's JSON and the Python package read
//! JSON through here.

use serde::de::DeserializeOwned;

use super::error::{ApiError, QUOTE_CHARS, clip};
use crate::proto::ErrorReason;

/// Parses a request message from proto3 JSON; an empty body is `{}`.
/// Errors name the JSON path at fault and, for unknown fields, the field.
///
/// # Errors
/// `ERROR_REASON_MALFORMED_JSON` with the JSON path at fault.
pub fn parse_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let body: &[u8] = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        body
    };
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    let parsed = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        // (Both quote the request: field names, values.)
        let path = error.path().to_string();
        // "." is the whole body; "?" a body that is not JSON at all (no
        // field was reached): neither names a field.
        let field = if path == "." || path == "?" {
            String::new()
        } else {
            path
        };
        let message = in_our_words(&error.inner().to_string(), &field);
        ApiError::invalid(
            ErrorReason::MalformedJson,
            clip(&field, QUOTE_CHARS),
            clip(&message, 3 * QUOTE_CHARS),
        )
    })?;
    deserializer.end().map_err(|error| {
        let message = error.to_string();
        ApiError::invalid(
            ErrorReason::MalformedJson,
            "",
            clip(&message, 3 * QUOTE_CHARS),
        )
    })?;
    Ok(parsed)
}

/// serde's message in the API's words: an unknown enum value is an
/// "unknown value … for `field`; expected one of …" (serde says "variant",
/// which in pips means a game), without the proto3 `_UNSPECIFIED` value,
/// which is never valid.
fn in_our_words(message: &str, field: &str) -> String {
    // A number the field's type cannot hold (2^40 for a `uint32`), or a
    // value of another kind: serde's words name its own internals.
    if let Some(rest) = message.strip_prefix("data did not match any variant of untagged enum") {
        let position = rest.find(" at line ").map_or("", |at| &rest[at..]);
        return format!(
            "`{field}` cannot hold this value: not an integer of its type (too large, negative where it cannot be, or not a number){position}"
        );
    }
    let Some(rest) = message.strip_prefix("unknown variant ") else {
        return message.to_owned();
    };
    let (rest, position) = match rest.rfind(" at line ") {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    let Some((value, expected)) = rest.split_once(", expected ") else {
        return message.to_owned();
    };
    let expected = match expected.strip_prefix("one of ") {
        Some(values) => values
            .split(", ")
            .filter(|value| !value.ends_with("_UNSPECIFIED`"))
            .collect::<Vec<_>>()
            .join(", "),
        None => expected.to_owned(),
    };
    format!("unknown value {value} for `{field}`; expected one of {expected}{position}")
}
