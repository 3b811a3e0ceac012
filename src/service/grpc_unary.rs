//! The engine's RPCs over gRPC (and gRPC-Web, which reaches them as gRPC),
//! served by the same dispatch as the JSON API and Connect
//! ([`Api::run`]), with gRPC's framing as one more encoding of the same
//! messages: a small request is decoded, run and its answer encoded on
//! the calling task; a large one (a long record, a state padded with what
//! no match holds) on the work pool, where tonic's generated handler would
//! decode and encode it on the workers that carry every connection. The
//! answers are the messages tonic would frame, the refusals the same
//! statuses.

use std::convert::Infallible;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use http::{HeaderMap, HeaderValue, header};
use http_body_util::{BodyExt as _, Full};
use tonic::Code;

use super::connect::rpc_name;
use super::error::ApiError;
use super::http_api::{Api, Encoding, read_body};
use super::pool::Call;
use super::streams::STREAM_RPC_NAMES;
use crate::proto::ErrorReason;

/// `POST /pips.v1.DominoEngineService/<RpcName>` with `application/grpc`.
pub async fn serve(State(api): State<Arc<Api>>, request: Request) -> Response {
    let call = Call::of(request.extensions());
    let rpc = rpc_name(&request);
    let limit = api.max_request_bytes.saturating_add(5);
    let body = read_body(request.into_body(), limit).await;
    if STREAM_RPC_NAMES.contains(&rpc.as_str()) {
        let opened = match body {
            Ok(body) => api.open_stream(&rpc, Encoding::Grpc, body, call).await,
            Err(error) => Err(error),
        };
        return match opened {
            Ok(opened) => opened.grpc(),
            Err(error) => refused(error),
        };
    }
    let answer = match body {
        Ok(body) => api.run(rpc, Encoding::Grpc, body, call).await,
        Err(error) => Err(error),
    };
    match answer {
        Ok(frame) => {
            let body = Full::new(Bytes::from(frame)).with_trailers(std::future::ready(Some(Ok::<
                _,
                Infallible,
            >(
                ok_trailers(),
            ))));
            let mut response = Response::new(Body::new(body));
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/grpc"),
            );
            response
        }
        Err(error) => refused(error),
    }
}

/// A refusal as a gRPC answer: trailers-only, its status in the head.
fn refused(error: ApiError) -> Response {
    error.log();
    tonic::Status::from(error)
        .into_http::<Body>()
        .into_response()
}

/// The trailers of an answer that ended well.
#[must_use]
pub fn ok_trailers() -> HeaderMap {
    let mut trailers = HeaderMap::new();
    trailers.insert("grpc-status", HeaderValue::from_static("0"));
    trailers
}

/// `message` in one gRPC frame, as a gRPC answer's body carries it.
#[must_use]
pub fn frame(message: &impl prost::Message) -> Vec<u8> {
    let length = message.encoded_len();
    let mut frame = Vec::with_capacity(length + 5);
    frame.push(0);
    frame.extend(u32::try_from(length).unwrap_or(u32::MAX).to_be_bytes());
    message.encode_raw(&mut frame);
    frame
}

/// The message of a gRPC request body: one uncompressed frame.
///
/// # Errors
/// A body that is not one frame, or a compressed one.
pub fn unframe(body: &[u8]) -> Result<&[u8], ApiError> {
    let malformed = |message: String| ApiError::invalid(ErrorReason::MalformedRequest, "", message);
    let (&compressed, rest) = body
        .split_first()
        .ok_or_else(|| malformed("the request has no gRPC message".to_owned()))?;
    let (length, message) = rest
        .split_first_chunk::<4>()
        .ok_or_else(|| malformed("the gRPC frame's header is cut short".to_owned()))?;
    if compressed != 0 {
        return Err(ApiError {
            code: Code::Unimplemented,
            reason: ErrorReason::UnsupportedMediaType,
            field: String::new(),
            message: "compressed messages are not accepted; send them uncompressed".to_owned(),
        });
    }
    let length = u32::from_be_bytes(*length) as usize;
    if length != message.len() {
        return Err(malformed(format!(
            "the gRPC frame declares {length} bytes and carries {}; send one message",
            message.len()
        )));
    }
    Ok(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_read_exactly() {
        assert_eq!(unframe(&[0, 0, 0, 0, 2, 8, 1]).ok(), Some(&[8, 1][..]));
        for (body, reason) in [
            (&[][..], ErrorReason::MalformedRequest),
            (&[0, 0, 0][..], ErrorReason::MalformedRequest),
            (&[0, 0, 0, 0, 3, 8, 1][..], ErrorReason::MalformedRequest),
            (
                &[1, 0, 0, 0, 2, 8, 1][..],
                ErrorReason::UnsupportedMediaType,
            ),
            (&[0, 0, 0, 1, 0][..], ErrorReason::MalformedRequest),
        ] {
            let error = unframe(body).expect_err("refused");
            assert_eq!(error.reason, reason, "{body:?}");
        }
    }
}
