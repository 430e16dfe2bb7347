//! The guest's standard streams. Stdout/stderr are WASI streams over [`CapturedStream`]: the
//! same 1 MiB cap as process hooks. Writes past the cap are accepted and dropped (the guest
//! keeps running, the output is marked truncated) rather than failing, so a chatty guest
//! behaves like a chatty process. Stdin is a [`GuestInput`], given the payload when the event
//! comes (an instance can be made before its event).

use crate::spawner::CapturedStream;
use bytes::Bytes;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use wasmtime_wasi::cli::{IsTerminal, StdinStream, StdoutStream};
use wasmtime_wasi::p2::{InputStream, OutputStream, Pollable, StreamError, StreamResult};

/// A WASI output stream writing into a capped capture buffer.
#[derive(Clone)]
pub struct GuestOutput(pub CapturedStream);

impl IsTerminal for GuestOutput {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for GuestOutput {
    fn async_stream(&self) -> Box<dyn AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for GuestOutput {
    async fn ready(&mut self) {}
}

impl OutputStream for GuestOutput {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        self.0.push(&bytes);
        Ok(())
    }
    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }
    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(64 * 1024)
    }
}

impl AsyncWrite for GuestOutput {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.0.push(buf);
        Poll::Ready(Ok(buf.len()))
    }
    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// The guest's stdin, given its bytes only when the event is known: an instance made ahead
/// of its event (`warm.rs`) reads end of file until then. Clones share the one buffer.
#[derive(Clone, Default)]
pub struct GuestInput(Arc<Mutex<Bytes>>);

impl GuestInput {
    /// Sets what the guest reads from now on (the event's payload).
    pub fn give(&self, bytes: Bytes) {
        *crate::agent::sync::lock(&self.0) = bytes;
    }

    fn take(&self, max: usize) -> Bytes {
        let mut buffer = crate::agent::sync::lock(&self.0);
        let n = max.min(buffer.len());
        buffer.split_to(n)
    }
}

impl IsTerminal for GuestInput {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdinStream for GuestInput {
    fn async_stream(&self) -> Box<dyn AsyncRead + Send + Sync> {
        Box::new(self.clone())
    }
    fn p2_stream(&self) -> Box<dyn InputStream> {
        Box::new(self.clone())
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for GuestInput {
    async fn ready(&mut self) {}
}

impl InputStream for GuestInput {
    fn read(&mut self, size: usize) -> StreamResult<Bytes> {
        let read = self.take(size);
        if read.is_empty() && size > 0 {
            return Err(StreamError::Closed);
        }
        Ok(read)
    }
}

impl AsyncRead for GuestInput {
    fn poll_read(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let read = self.take(buf.remaining());
        buf.put_slice(&read);
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_reads_end_of_file_until_given_then_the_bytes_once() {
        let input = GuestInput::default();
        let mut stream = input.p2_stream();
        assert!(matches!(stream.read(16), Err(StreamError::Closed)));
        input.give(Bytes::from_static(b"{\"a\":1}"));
        assert_eq!(&stream.read(3).unwrap()[..], b"{\"a");
        assert_eq!(&stream.read(16).unwrap()[..], b"\":1}");
        assert!(matches!(stream.read(16), Err(StreamError::Closed)));
    }
}
