//! Refusals as the package's exceptions (`pips.errors`), carrying the
//! service's gRPC code name, `ErrorReason` name and field.

use pips::service::error::{ApiError, grpc_code_name};
use pyo3::prelude::*;

/// The exception class of a gRPC code, in `pips.errors`.
fn class_name(code: &str) -> &'static str {
    match code {
        "INVALID_ARGUMENT" => "InvalidArgument",
        "FAILED_PRECONDITION" => "IllegalMove",
        "PERMISSION_DENIED" => "PermissionDenied",
        "UNAUTHENTICATED" => "Unauthenticated",
        _ => "PipsError",
    }
}

/// The Python exception of a refusal: `pips.errors.<Class>(message, code,
/// reason, field)`.
pub fn refusal(error: &ApiError) -> PyErr {
    Python::attach(|py| {
        let code = grpc_code_name(error.code);
        let made = py
            .import("pips.errors")
            .and_then(|module| module.getattr(class_name(code)))
            .and_then(|class| {
                class.call1((
                    error.message.as_str(),
                    code,
                    error.reason.as_str_name(),
                    error.field.as_str(),
                ))
            });
        match made {
            Ok(exception) => PyErr::from_value(exception),
            Err(failure) => failure,
        }
    })
}

/// A refusal in the package's words, for `Result`s of the service.
pub trait Refuse<T> {
    /// The value, or the refusal as an exception.
    fn refused(self) -> PyResult<T>;
}

impl<T, E: Into<ApiError>> Refuse<T> for Result<T, E> {
    fn refused(self) -> PyResult<T> {
        self.map_err(|error| refusal(&error.into()))
    }
}
