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

/// An integer argument of `T` from a Python int: out of `T`'s range (or
/// not an int at all), an error naming the argument and what it takes.
/// (pyo3's own, "can't convert negative int to unsigned" or "out of range
/// integral type conversion attempted", name neither.)
fn whole<T: TryFrom<i128>>(value: &Bound<'_, PyAny>, name: &str, takes: &str) -> PyResult<T> {
    if !value.is_instance_of::<pyo3::types::PyInt>() {
        let kind = value.get_type().name()?;
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{name} must be an integer ({takes}), not {kind}"
        )));
    }
    let refused = || {
        let shown = value.str().map(|s| s.to_string()).unwrap_or_default();
        let shown: String = shown.chars().take(40).collect();
        pyo3::exceptions::PyValueError::new_err(format!("{name} must be {takes}, not {shown}"))
    };
    let wide: i128 = value.extract().map_err(|_| refused())?;
    T::try_from(wide).map_err(|_| refused())
}

/// A newtype for one integer argument, read by [`whole`].
macro_rules! whole_argument {
    ($(#[$doc:meta])* $type:ident($inner:ty), $name:literal, $takes:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $type(pub $inner);

        impl<'a, 'py> FromPyObject<'a, 'py> for $type {
            type Error = PyErr;

            fn extract(value: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
                whole(&value, $name, &$takes).map($type)
            }
        }
    };
}

whole_argument!(
    /// `players`: a seat count (which ones a preset allows, it says).
    Players(u32),
    "players",
    "a number of seats, 2 to 8"
);
whole_argument!(
    /// `seed`: any 64-bit unsigned integer.
    Seed(u64),
    "seed",
    "from 0 to 2**64 - 1"
);
whole_argument!(
    /// `size`: the games of a batch.
    Size(usize),
    "size",
    format!("from 1 to {} games", crate::batch::MAX_SIZE)
);
