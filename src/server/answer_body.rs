//! A unary answer's body read whole: its bytes and its trailers, with what
//! it holds of the server's answer budget until each byte has been written
//! or dropped.
//!
//! The bytes are handed to the connection a chunk at a time: the HTTP
//! stacks take a body's next chunk only when they have room to send it (an
//! HTTP/2 stream's flow-control window, HTTP/1.1's write buffer), so an
//! answer its caller does not read stays here, counted, rather than moving
//! whole into the connection's buffers. Each chunk handed on keeps its part
//! of the hold until the stack drops it, once written.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Bytes;
use http::HeaderMap;
use hyper::body::Frame;

use super::answers::{ANSWER_UNIT, Held};

/// The most bytes handed to the connection at once.
const CHUNK_BYTES: usize = 32 * 1024;

/// See the module.
#[derive(Debug, Default)]
pub struct AnswerBody {
    /// The answer's bytes, until sent.
    data: Option<Bytes>,
    /// Its trailers (a gRPC status), until sent.
    trailers: Option<HeaderMap>,
    /// What the bytes not yet handed on hold of the answer budget.
    held: Option<Held>,
}

/// A chunk handed to the connection, with its part of the answer's hold
/// (released when the HTTP stack drops it, once written).
struct HeldChunk {
    /// The bytes.
    bytes: Bytes,
    /// Their part of the hold.
    _held: Option<Held>,
}

impl AsRef<[u8]> for HeldChunk {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl AnswerBody {
    /// A body of `data` then `trailers`.
    #[must_use]
    pub fn new(data: Bytes, trailers: Option<HeaderMap>) -> AnswerBody {
        AnswerBody {
            data: (!data.is_empty()).then_some(data),
            trailers,
            held: None,
        }
    }

    /// The body, its bytes holding `held` until written.
    #[must_use]
    pub fn holding(mut self, held: Held) -> AnswerBody {
        self.held = Some(held);
        self
    }
}

impl hyper::body::Body for AnswerBody {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = &mut *self;
        if let Some(data) = this.data.as_mut() {
            let chunk = if data.len() > CHUNK_BYTES {
                data.split_to(CHUNK_BYTES)
            } else {
                std::mem::take(data)
            };
            let last = data.is_empty();
            // The chunk's part of the hold: whole units for a chunk, what
            // is left for the last.
            let part = match this.held.as_mut() {
                Some(held) if last => Some(held.split(held.units())),
                Some(held) => Some(held.split(chunk.len() / ANSWER_UNIT)),
                None => None,
            };
            if last {
                this.data = None;
            }
            let chunk = Bytes::from_owner(HeldChunk {
                bytes: chunk,
                _held: part,
            });
            return Poll::Ready(Some(Ok(Frame::data(chunk))));
        }
        Poll::Ready(self.trailers.take().map(|t| Ok(Frame::trailers(t))))
    }

    fn is_end_stream(&self) -> bool {
        self.data.is_none() && self.trailers.is_none()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        let len = self.data.as_ref().map_or(0, Bytes::len) as u64;
        if self.trailers.is_none() {
            hyper::body::SizeHint::with_exact(len)
        } else {
            let mut hint = hyper::body::SizeHint::new();
            hint.set_lower(len);
            hint
        }
    }
}

/// A body, keeping `kept` (a hold of the answer budget, a connection's
/// call in flight) until it is dropped.
pub struct Keeping<T> {
    /// The body.
    pub body: axum::body::Body,
    /// What it keeps.
    pub _kept: T,
}

impl<T: Send + Unpin + 'static> hyper::body::Body for Keeping<T> {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}
