//! A byte sink that keeps the first [`OUTPUT_CAP`] bytes and counts the rest.
//!
//! Shared by every handler so that no hook, of any kind, can make the host buffer without
//! bound (DESIGN §4, output caps). Clones share one buffer: a reader task fills it while the
//! engine can still take what arrived if it has to stop waiting.

use std::sync::{Arc, Mutex};

/// Bytes kept per stream per hook: 1 MiB.
pub const OUTPUT_CAP: usize = 1 << 20;

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
    pub fn with_cap(cap: usize) -> Self {
        CapturedStream {
            inner: Arc::default(),
            cap,
        }
    }

    /// Appends what fits under the cap; the rest is dropped and marks the stream truncated.
    pub fn push(&self, data: &[u8]) {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let room = self.cap.saturating_sub(inner.bytes.len());
        let take = room.min(data.len());
        inner.bytes.extend_from_slice(&data[..take]);
        if take < data.len() {
            inner.truncated = true;
        }
    }

    /// Whether input has already been dropped at the cap (reading on is pointless).
    pub fn is_truncated(&self) -> bool {
        self.inner
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .truncated
    }

    /// Takes the bytes so far and whether any were dropped.
    pub fn take(&self) -> (Vec<u8>, bool) {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        (std::mem::take(&mut inner.bytes), inner.truncated)
    }
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
}
