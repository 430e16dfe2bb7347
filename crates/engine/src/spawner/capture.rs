//! Capturing a hook's output: [`CapturedStream`], a byte sink that keeps the first
//! [`OUTPUT_CAP`] bytes and marks the rest as dropped, and [`Capture`], the stdout/stderr pair
//! of one run that becomes its [`SpawnOutput`].
//!
//! Shared by every handler so that no hook, of any kind, can make the host buffer without
//! bound (DESIGN §4, output caps), and so that every handler ends the same way. Clones of a
//! stream share one buffer: a reader task fills it while the engine can still take what
//! arrived if it has to stop waiting. The readers that fill a stream sit here too:
//! [`drain_pipe`] (a shell hook's pipe) and [`drain_body`] (an HTTP hook's answer); a wasm
//! guest writes into one through the WASI streams of `wasm/pipes.rs`.

use super::{ExitStatus, SpawnOutput};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt};

pub use crate::output::OUTPUT_CAP;

#[derive(Debug, Default)]
struct Inner {
    bytes: Vec<u8>,
    truncated: bool,
}

/// A capped, shareable output buffer.
#[derive(Debug, Clone)]
pub struct CapturedStream {
    inner: Arc<Mutex<Inner>>,
    cap: usize,
}

impl Default for CapturedStream {
    fn default() -> Self {
        Self::with_cap(OUTPUT_CAP)
    }
}

impl CapturedStream {
    /// A stream that keeps the first `cap` bytes (the default keeps [`OUTPUT_CAP`]).
    pub fn with_cap(cap: usize) -> Self {
        CapturedStream {
            inner: Arc::default(),
            cap,
        }
    }

    /// Appends what fits under the cap; the rest is dropped and marks the stream truncated.
    pub fn push(&self, data: &[u8]) {
        let mut inner = crate::agent::sync::lock(&self.inner);
        let room = self.cap.saturating_sub(inner.bytes.len());
        let take = room.min(data.len());
        inner.bytes.extend_from_slice(&data[..take]);
        if take < data.len() {
            inner.truncated = true;
        }
    }

    /// Whether input has already been dropped at the cap (reading on is pointless).
    pub fn is_truncated(&self) -> bool {
        crate::agent::sync::lock(&self.inner).truncated
    }

    /// Takes the bytes so far and whether any were dropped.
    pub fn take(&self) -> (Vec<u8>, bool) {
        let mut inner = crate::agent::sync::lock(&self.inner);
        (std::mem::take(&mut inner.bytes), inner.truncated)
    }
}

/// The stdout and stderr of one run, each capped at [`OUTPUT_CAP`].
#[derive(Debug, Clone, Default)]
pub struct Capture {
    /// The hook's stdout.
    pub stdout: CapturedStream,
    /// The hook's stderr.
    pub stderr: CapturedStream,
}

impl Capture {
    /// Takes what was captured so far into the output of a run that ended with `status`.
    pub fn finish(&self, status: ExitStatus, duration: Duration) -> SpawnOutput {
        let (stdout, t1) = self.stdout.take();
        let (stderr, t2) = self.stderr.take();
        SpawnOutput {
            status,
            stdout,
            stderr,
            truncated: t1 || t2,
            duration,
            model: None,
        }
    }
}

/// Reads a child's pipe into `sink` until end of file or a read error. Bytes past the cap are
/// read and dropped, so the child never blocks on a full pipe.
pub async fn drain_pipe(mut pipe: impl AsyncRead + Unpin, sink: CapturedStream) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match pipe.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => sink.push(&buf[..n]),
        }
    }
}

/// Reads an HTTP answer's body into `sink`, stopping at the cap (nothing waits on the rest).
pub async fn drain_body(
    response: &mut reqwest::Response,
    sink: &CapturedStream,
) -> Result<(), reqwest::Error> {
    while let Some(chunk) = response.chunk().await? {
        sink.push(&chunk);
        if sink.is_truncated() {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_first_bytes_and_marks_truncation() {
        let s = CapturedStream::with_cap(4);
        s.push(b"ab");
        s.push(b"cdef");
        s.push(b"gh");
        assert_eq!(s.take(), (b"abcd".to_vec(), true));
    }

    #[test]
    fn exact_fit_is_not_truncated() {
        let s = CapturedStream::with_cap(4);
        s.push(b"abcd");
        assert_eq!(s.take(), (b"abcd".to_vec(), false));
    }

    #[test]
    fn finish_takes_both_streams_and_either_truncation() {
        let c = Capture {
            stdout: CapturedStream::with_cap(2),
            stderr: CapturedStream::default(),
        };
        c.stdout.push(b"abc");
        c.stderr.push(b"e");
        let out = c.finish(ExitStatus::Exited(0), Duration::from_millis(5));
        assert_eq!(
            out,
            SpawnOutput {
                status: ExitStatus::Exited(0),
                stdout: b"ab".to_vec(),
                stderr: b"e".to_vec(),
                truncated: true,
                duration: Duration::from_millis(5),
                model: None,
            }
        );
    }

    #[tokio::test]
    async fn a_pipe_is_read_to_its_end_past_the_cap() {
        let sink = CapturedStream::with_cap(3);
        let (mut tx, rx) = tokio::io::duplex(4);
        let writer = tokio::spawn(async move {
            use tokio::io::AsyncWriteExt;
            // More than the cap and the pipe buffer: the writer finishes only if the reader
            // keeps reading after the cap.
            tx.write_all(&[b'x'; 100]).await.unwrap();
        });
        drain_pipe(rx, sink.clone()).await;
        writer.await.unwrap();
        assert_eq!(sink.take(), (b"xxx".to_vec(), true));
    }
}
