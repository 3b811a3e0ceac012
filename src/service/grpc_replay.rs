//! `Replay` over gRPC (and gRPC-Web, which reaches it as gRPC), served
//! whole off the async workers: a long record's request is decoded, played,
//! its answer encoded and both dropped on the work pool, where tonic's
//! generated handler would decode and encode them (megabytes, milliseconds
//! of CPU) on the workers that carry every connection. The answer is the
//! same message, framed as tonic frames it; refusals are the same statuses.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use http::{HeaderMap, HeaderValue, header};
use prost::Message as _;
use tonic::Code;

use super::answer_body::AnswerBody;
use super::engine::{Engine, INLINE_REPLAY_MOVES};
use super::error::ApiError;
use super::http_api::read_body;
use super::pool::Call;
use crate::proto::{self, ErrorReason};

/// The path this handler serves.
pub const PATH: &str = "/pips.v1.DominoEngineService/Replay";

/// Requests of at most this many bytes hold a short record (a few hundred
/// moves): they are served on the calling task.
const INLINE_BYTES: usize = INLINE_REPLAY_MOVES * 16;

/// What the handler needs.
#[derive(Debug)]
pub struct GrpcReplay {
    /// The engine (and its work pool).
    pub engine: Engine,
    /// The largest request message, in bytes.
    pub max_request_bytes: usize,
}

/// `POST /pips.v1.DominoEngineService/Replay` with `application/grpc`.
pub async fn serve(State(replay): State<Arc<GrpcReplay>>, request: Request) -> Response {
    let call = Call::of(request.extensions());
    let limit = replay.max_request_bytes.saturating_add(5);
    let answer = match read_body(request.into_body(), limit).await {
        Ok(body) if body.len() <= INLINE_BYTES => answer(&replay.engine, &body, limit),
        Ok(body) => {
            let engine = replay.engine.clone();
            let pool = replay.engine.pool();
            pool.run(call.connection, call.deadline, move || {
                answer(&engine, &body, limit)
            })
            .await
        }
        Err(error) => Err(error),
    };
    match answer {
        Ok(frame) => {
            let mut trailers = HeaderMap::new();
            trailers.insert("grpc-status", HeaderValue::from_static("0"));
            let mut response = Response::new(Body::new(AnswerBody::new(frame, Some(trailers))));
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/grpc"),
            );
            response
        }
        Err(error) => {
            error.log();
            tonic::Status::from(error)
                .into_http::<Body>()
                .into_response()
        }
    }
}

/// The framed answer to the framed request `body`.
fn answer(engine: &Engine, body: &[u8], limit: usize) -> Result<Bytes, ApiError> {
    let request = proto::ReplayRequest::decode(unframe(body, limit)?).map_err(|e| {
        ApiError::invalid(
            ErrorReason::MalformedRequest,
            "",
            format!("the message is not valid protobuf: {e}"),
        )
    })?;
    let answer = engine.replay(&request)?;
    let length = answer.encoded_len();
    let mut frame = Vec::with_capacity(length + 5);
    frame.push(0);
    frame.extend(u32::try_from(length).unwrap_or(u32::MAX).to_be_bytes());
    answer
        .encode(&mut frame)
        .map_err(|e| ApiError::internal(format!("cannot encode the answer: {e}")))?;
    Ok(Bytes::from(frame))
}

/// The message of a gRPC request body: one uncompressed frame.
fn unframe(body: &[u8], limit: usize) -> Result<&[u8], ApiError> {
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
    if length > limit.saturating_sub(5) {
        return Err(ApiError::too_large(limit.saturating_sub(5)));
    }
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
        assert_eq!(unframe(&[0, 0, 0, 0, 2, 8, 1], 100).ok(), Some(&[8, 1][..]));
        for (body, reason) in [
            (&[][..], ErrorReason::MalformedRequest),
            (&[0, 0, 0][..], ErrorReason::MalformedRequest),
            (&[0, 0, 0, 0, 3, 8, 1][..], ErrorReason::MalformedRequest),
            (
                &[1, 0, 0, 0, 2, 8, 1][..],
                ErrorReason::UnsupportedMediaType,
            ),
            (&[0, 0, 0, 1, 0][..], ErrorReason::RequestTooLarge),
        ] {
            let error = unframe(body, 100).expect_err("refused");
            assert_eq!(error.reason, reason, "{body:?}");
        }
    }
}
