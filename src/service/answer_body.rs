//! A unary answer's body read whole: its bytes and its trailers, with
//! whatever it holds of the server's budgets until it has been written or
//! dropped.
//!
//! The bytes are handed to the connection a chunk at a time: the HTTP
//! stacks take a body's next chunk only when they have room to send it (an
//! HTTP/2 stream's flow-control window, HTTP/1.1's write buffer), so an
//! answer its caller does not read stays here, counted, rather than moving
//! whole into the connection's buffers.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Bytes;
use http::HeaderMap;
use hyper::body::Frame;
use tokio::sync::OwnedSemaphorePermit;

/// The most bytes handed to the connection at once.
const CHUNK_BYTES: usize = 32 * 1024;

/// See the module.
#[derive(Debug, Default)]
pub struct AnswerBody {
    /// The answer's bytes, until sent.
    data: Option<Bytes>,
    /// Its trailers (a gRPC status), until sent.
    trailers: Option<HeaderMap>,
    /// What it holds of the answer budgets (released when it is dropped).
    held: Vec<OwnedSemaphorePermit>,
}

impl AnswerBody {
    /// A body of `data` then `trailers`.
    #[must_use]
    pub fn new(data: Bytes, trailers: Option<HeaderMap>) -> AnswerBody {
        AnswerBody {
            data: (!data.is_empty()).then_some(data),
            trailers,
            held: Vec::new(),
        }
    }

    /// The body, holding `permits` until it is dropped.
    #[must_use]
    pub fn holding(mut self, permits: Vec<OwnedSemaphorePermit>) -> AnswerBody {
        self.held.extend(permits);
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
        if let Some(data) = self.data.as_mut() {
            let chunk = if data.len() > CHUNK_BYTES {
                data.split_to(CHUNK_BYTES)
            } else {
                std::mem::take(data)
            };
            if data.is_empty() {
                self.data = None;
            }
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
