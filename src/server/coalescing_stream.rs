//! The server's sockets: accepted TCP connections as the HTTP stacks see
//! them.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tonic::transport::server::{Connected, TcpConnectInfo};

/// An accepted connection that asks its writers to copy small frames into
/// one buffer instead of writing them as separate pieces.
///
/// HTTP/2 (h2) sends a DATA frame larger than 256 bytes as a separate
/// piece of a vectored write and must flush it before it can queue the
/// next frame, so every answer of more than 256 bytes took two `writev`
/// calls (headers + data, then the trailers). Declaring the socket
/// non-vectored raises h2's threshold to 1 KiB and lets it copy such frames,
/// so typical answers go out in one write. Measured under load: 1.83 →
/// 1.19 writes per `Play` call, about 5 µs less server CPU per call.
pub struct CoalescingStream(pub TcpStream);

impl AsyncRead for CoalescingStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl AsyncWrite for CoalescingStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }

    fn is_write_vectored(&self) -> bool {
        false
    }
}

impl Connected for CoalescingStream {
    type ConnectInfo = TcpConnectInfo;

    fn connect_info(&self) -> Self::ConnectInfo {
        self.0.connect_info()
    }
}
