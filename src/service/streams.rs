//! `TableService.Watch`, a stream of updates, as the transports carry it:
//! gRPC (and gRPC-Web) frames ending in the call's status; Connect's
//! envelopes (JSON or protobuf) ending in its end-of-stream message; or
//! server-sent events for HTTP (each event's data a `WatchResponse` as
//! JSON; a comment while nothing happens; a refusal as an `error` event).

use std::pin::Pin;

use axum::body::{Body, Bytes};
use axum::response::Response;
use futures_util::{Stream, StreamExt as _};
use http::{HeaderValue, header};
use hyper::body::Frame;

use crate::proto;
use crate::tables::watch::Watched;

use super::error::ApiError;
use super::grpc_unary::{frame, ok_trailers};

/// A watch, as [`crate::tables::Tables::watch`] answers it.
pub type Watch = Pin<Box<dyn Stream<Item = Result<Watched, ApiError>> + Send>>;

/// The frames of a stream's body.
type Frames = Pin<Box<dyn Stream<Item = Result<Frame<Bytes>, std::convert::Infallible>> + Send>>;

/// Where a watch's body stands.
struct Sending {
    /// The watch.
    watch: Watch,
    /// Whether its last frame (the status, or the end) has gone.
    done: bool,
}

/// The watch as a gRPC answer: a frame per update, then `grpc-status` in
/// the trailers (0, or the refusal that ended it).
#[must_use]
pub fn grpc(watch: Watch) -> Response {
    let frames: Frames = Box::pin(futures_util::stream::unfold(
        Sending { watch, done: false },
        |mut sending| async move {
            loop {
                if sending.done {
                    return None;
                }
                let frame = match sending.watch.next().await {
                    Some(Ok(Watched::Update(update))) => {
                        Frame::data(Bytes::from(frame(&proto::WatchResponse {
                            update: Some(*update),
                        })))
                    }
                    Some(Ok(Watched::Heartbeat)) => continue,
                    Some(Err(error)) => {
                        sending.done = true;
                        error.log();
                        // The status as a trailers-only answer would
                        // carry it, now as the stream's trailers.
                        let mut status = tonic::Status::from(error)
                            .into_http::<Body>()
                            .headers()
                            .clone();
                        status.remove(header::CONTENT_TYPE);
                        Frame::trailers(status)
                    }
                    None => {
                        sending.done = true;
                        Frame::trailers(ok_trailers())
                    }
                };
                return Some((Ok(frame), sending));
            }
        },
    ));
    let mut response = Response::new(Body::new(http_body_util::StreamBody::new(frames)));
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/grpc"),
    );
    response
}

/// A Connect envelope: its flags, the message's length, the message.
fn envelope(flags: u8, message: &[u8]) -> Bytes {
    let mut bytes = Vec::with_capacity(5 + message.len());
    bytes.push(flags);
    bytes.extend_from_slice(
        &u32::try_from(message.len())
            .unwrap_or(u32::MAX)
            .to_be_bytes(),
    );
    bytes.extend_from_slice(message);
    Bytes::from(bytes)
}

/// Flags an envelope as the end of the stream.
const END_STREAM: u8 = 0x02;

/// The watch (or its refusal) as a Connect stream: an envelope per update
/// (JSON, or with `json` false protobuf), then the end-of-stream envelope,
/// with the refusal that ended the stream if one did. The HTTP status is
/// 200 even for a refusal, as Connect's streams have it.
#[must_use]
pub fn connect(watch: Result<Watch, ApiError>, json: bool) -> Response {
    let (watch, refused) = match watch {
        Ok(watch) => (Some(watch), None),
        Err(error) => {
            error.log();
            (None, Some(error))
        }
    };
    // The last envelope, and the state after it: the stream is done.
    let end = |error: Option<&ApiError>| {
        let end = envelope(END_STREAM, &super::connect::end_of_stream(error));
        Some((Ok(Frame::data(end)), (None, None, true)))
    };
    let frames: Frames = Box::pin(futures_util::stream::unfold(
        (watch, refused, false),
        move |(mut watch, refused, done)| async move {
            if done {
                return None;
            }
            let Some(stream) = watch.as_mut() else {
                return end(refused.as_ref());
            };
            loop {
                let bytes = match stream.next().await {
                    Some(Ok(Watched::Update(update))) => {
                        let message = proto::WatchResponse {
                            update: Some(*update),
                        };
                        let body = if json {
                            serde_json::to_vec(&message).unwrap_or_default()
                        } else {
                            prost::Message::encode_to_vec(&message)
                        };
                        envelope(0, &body)
                    }
                    Some(Ok(Watched::Heartbeat)) => continue,
                    Some(Err(error)) => {
                        error.log();
                        return end(Some(&error));
                    }
                    None => return end(None),
                };
                return Some((Ok(Frame::data(bytes)), (watch, None, false)));
            }
        },
    ));
    let mut response = Response::new(Body::new(http_body_util::StreamBody::new(frames)));
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(if json {
            "application/connect+json"
        } else {
            "application/connect+proto"
        }),
    );
    response
}

/// The watch as server-sent events.
#[must_use]
pub fn events(watch: Watch) -> Response {
    let frames: Frames = Box::pin(futures_util::stream::unfold(
        Sending { watch, done: false },
        |mut sending| async move {
            if sending.done {
                return None;
            }
            let text = match sending.watch.next().await {
                Some(Ok(Watched::Update(update))) => {
                    let message = proto::WatchResponse {
                        update: Some(*update),
                    };
                    let json = serde_json::to_string(&message).unwrap_or_default();
                    format!("data: {json}\n\n")
                }
                Some(Ok(Watched::Heartbeat)) => ": still here\n\n".to_owned(),
                Some(Err(error)) => {
                    sending.done = true;
                    error.log();
                    let json = serde_json::to_string(&error.http_body()).unwrap_or_default();
                    format!("event: error\ndata: {json}\n\n")
                }
                None => return None,
            };
            Some((Ok(Frame::data(Bytes::from(text))), sending))
        },
    ));
    let mut response = Response::new(Body::new(http_body_util::StreamBody::new(frames)));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    // (nginx would otherwise buffer the stream.)
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}
