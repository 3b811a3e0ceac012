//! The server's streams (`TableService.Watch`'s updates,
//! `StreamReviewMatch`'s steps) as the transports carry them: gRPC (and
//! gRPC-Web) frames ending in the call's status; Connect's envelopes (JSON
//! or protobuf) ending in its end-of-stream message; or server-sent events
//! for HTTP (each event's data a message as JSON; a comment while nothing
//! happens; a refusal as an `error` event).

use std::pin::Pin;

use axum::body::{Body, Bytes};
use axum::response::Response;
use futures_util::{Stream, StreamExt as _};
use http::{HeaderValue, header};
use hyper::body::Frame;

use serde::Serialize;

use crate::proto;
use crate::tables::watch::Watched;

use super::error::ApiError;
use super::grpc_unary::{frame, ok_trailers};

/// One item of a stream: a message, or a sign of life while nothing
/// happens (written only where the transport has a way to say nothing).
pub enum Streamed<M> {
    /// A message of the stream.
    Message(M),
    /// Nothing yet: server-sent events write a comment, so that proxies
    /// see the stream alive; gRPC and Connect write nothing.
    Heartbeat,
}

/// A stream of messages `M`, ended by the end of the stream or by the
/// refusal that ended it.
pub type Messages<M> = Pin<Box<dyn Stream<Item = Result<Streamed<M>, ApiError>> + Send>>;

/// A watch's updates, as [`crate::tables::Tables::watch`] answers them.
pub type Watch = Pin<Box<dyn Stream<Item = Result<Watched, ApiError>> + Send>>;

/// A message the transports can write: protobuf for gRPC and Connect's
/// proto, JSON for Connect's JSON and server-sent events.
pub trait StreamMessage: prost::Message + Serialize + Send + 'static {}

impl<M: prost::Message + Serialize + Send + 'static> StreamMessage for M {}

/// A watch's updates as the messages of `Watch`'s stream.
#[must_use]
pub fn watch_messages(watch: Watch) -> Messages<proto::WatchResponse> {
    Box::pin(watch.map(|item| {
        item.map(|watched| match watched {
            Watched::Update(update) => Streamed::Message(proto::WatchResponse {
                update: Some(*update),
            }),
            Watched::Heartbeat => Streamed::Heartbeat,
        })
    }))
}

/// The frames of a stream's body.
type Frames = Pin<Box<dyn Stream<Item = Result<Frame<Bytes>, std::convert::Infallible>> + Send>>;

/// Where a stream's body stands.
struct Sending<M> {
    /// The stream.
    watch: Messages<M>,
    /// Whether its last frame (the status, or the end) has gone.
    done: bool,
}

/// The stream as a gRPC answer: a frame per message, then `grpc-status`
/// in the trailers (0, or the refusal that ended it).
#[must_use]
pub fn grpc<M: StreamMessage>(watch: Messages<M>) -> Response {
    let frames: Frames = Box::pin(futures_util::stream::unfold(
        Sending { watch, done: false },
        |mut sending| async move {
            loop {
                if sending.done {
                    return None;
                }
                let frame = match sending.watch.next().await {
                    Some(Ok(Streamed::Message(message))) => {
                        Frame::data(Bytes::from(frame(&message)))
                    }
                    Some(Ok(Streamed::Heartbeat)) => continue,
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

/// The stream (or its refusal) as a Connect stream: an envelope per message
/// (JSON, or with `json` false protobuf), then the end-of-stream envelope,
/// with the refusal that ended the stream if one did. The HTTP status is
/// 200 even for a refusal, as Connect's streams have it.
#[must_use]
pub fn connect<M: StreamMessage>(watch: Result<Messages<M>, ApiError>, json: bool) -> Response {
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
                    Some(Ok(Streamed::Message(message))) => {
                        let body = if json {
                            serde_json::to_vec(&message).unwrap_or_default()
                        } else {
                            prost::Message::encode_to_vec(&message)
                        };
                        envelope(0, &body)
                    }
                    Some(Ok(Streamed::Heartbeat)) => continue,
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

/// The stream as server-sent events.
#[must_use]
pub fn events<M: StreamMessage>(watch: Messages<M>) -> Response {
    let frames: Frames = Box::pin(futures_util::stream::unfold(
        Sending { watch, done: false },
        |mut sending| async move {
            if sending.done {
                return None;
            }
            let text = match sending.watch.next().await {
                Some(Ok(Streamed::Message(message))) => {
                    let json = serde_json::to_string(&message).unwrap_or_default();
                    format!("data: {json}\n\n")
                }
                Some(Ok(Streamed::Heartbeat)) => ": still here\n\n".to_owned(),
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

/// A stream opened by one of the streaming RPCs ([`STREAM_RPC_NAMES`]),
/// for the caller's transport to carry.
pub enum Opened {
    /// `TableService.Watch`'s updates.
    Watch(Messages<proto::WatchResponse>),
    /// `StreamReviewMatch`'s steps.
    Review(Messages<proto::StreamReviewMatchResponse>),
}

/// The RPCs whose answer is a stream, as they appear in `/v1/<RpcName>`.
pub const STREAM_RPC_NAMES: [&str; 2] = ["Watch", "StreamReviewMatch"];

impl Opened {
    /// The stream as a gRPC answer ([`grpc`]).
    #[must_use]
    pub fn grpc(self) -> Response {
        match self {
            Opened::Watch(messages) => grpc(messages),
            Opened::Review(messages) => grpc(messages),
        }
    }

    /// The stream as server-sent events ([`events`]).
    #[must_use]
    pub fn events(self) -> Response {
        match self {
            Opened::Watch(messages) => events(messages),
            Opened::Review(messages) => events(messages),
        }
    }

    /// The stream, or its refusal, as a Connect stream ([`connect`]).
    #[must_use]
    pub fn connect(opened: Result<Opened, ApiError>, json: bool) -> Response {
        match opened {
            Ok(Opened::Watch(messages)) => connect(Ok(messages), json),
            Ok(Opened::Review(messages)) => connect(Ok(messages), json),
            // (The refusal's stream is of no message at all.)
            Err(error) => connect::<proto::WatchResponse>(Err(error), json),
        }
    }
}
