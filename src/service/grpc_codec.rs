//! The protobuf codec of the generated gRPC code: prost's, except that a
//! request that is not valid protobuf for its message is refused as the
//! caller's fault (`INVALID_ARGUMENT`, `ERROR_REASON_MALFORMED_REQUEST`, with the usual
//! `ErrorInfo`) instead of prost's INTERNAL without a reason.
//!
//! The generated clients use it too; for them the same status reports an
//! answer that does not decode.

use tonic::Status;
use tonic::codec::{BufferSettings, Codec, DecodeBuf, Decoder};
use tonic_prost::{ProstCodec, ProstDecoder, ProstEncoder};

use crate::proto::ErrorReason;

use super::error::ApiError;

/// prost's codec with refusals of malformed messages.
#[derive(Debug, Clone, Default)]
pub struct PipsCodec<T, U> {
    /// The codec doing the work.
    inner: ProstCodec<T, U>,
}

impl<T, U> Codec for PipsCodec<T, U>
where
    T: prost::Message + Send + 'static,
    U: prost::Message + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = ProstEncoder<T>;
    type Decoder = RequestDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        self.inner.encoder()
    }

    fn decoder(&mut self) -> Self::Decoder {
        RequestDecoder(self.inner.decoder())
    }
}

/// prost's decoder, refusing malformed bytes with `ERROR_REASON_MALFORMED_REQUEST`.
#[derive(Debug, Clone, Default)]
pub struct RequestDecoder<U>(ProstDecoder<U>);

impl<U: prost::Message + Default> Decoder for RequestDecoder<U> {
    type Item = U;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<U>, Status> {
        self.0.decode(buf).map_err(|status| {
            let error = ApiError::invalid(
                ErrorReason::MalformedRequest,
                "",
                format!("the message is not valid protobuf: {}", status.message()),
            );
            error.log();
            Status::from(error)
        })
    }

    fn buffer_settings(&self) -> BufferSettings {
        self.0.buffer_settings()
    }
}

/// The timeout a gRPC client sent (`grpc-timeout`: up to 8 digits and a
/// unit, one of H, M, S, m, u, n), if it sent a valid one.
#[must_use]
pub fn grpc_timeout(headers: &http::HeaderMap) -> Option<std::time::Duration> {
    use std::time::Duration;
    let value = headers.get("grpc-timeout")?.to_str().ok()?;
    let split = value.len().checked_sub(1)?;
    let (digits, unit) = (value.get(..split)?, value.get(split..)?);
    if digits.is_empty() || digits.len() > 8 {
        return None;
    }
    let amount: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(amount.saturating_mul(3600)),
        "M" => Duration::from_secs(amount.saturating_mul(60)),
        "S" => Duration::from_secs(amount),
        "m" => Duration::from_millis(amount),
        "u" => Duration::from_micros(amount),
        "n" => Duration::from_nanos(amount),
        _ => return None,
    })
}
