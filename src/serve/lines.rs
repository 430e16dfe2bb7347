//! Reading newline-delimited messages with a bound: a line longer than the limit is skipped
//! (read and thrown away up to its newline, never held in memory) and reported, so a peer
//! that sends a 10 GB line costs the server at most `limit` bytes and the connection stays
//! usable. Cancel-safe: every byte consumed is kept in the reader, so a `select!` that drops
//! [`LineReader::next`] loses nothing.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One item read.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A whole line, without its newline.
    Message(Vec<u8>),
    /// A line longer than the limit was skipped; this many bytes of it were read.
    TooLong(u64),
    /// The peer closed its side (a last unterminated line is still returned first).
    Eof,
}

/// A bounded line reader over a buffered stream.
pub struct LineReader<R> {
    inner: R,
    limit: usize,
    buf: Vec<u8>,
    /// Inside an over-long line: bytes thrown away so far.
    skipping: Option<u64>,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    /// Lines of at most `limit` bytes (the newline not counted).
    pub fn new(inner: R, limit: usize) -> Self {
        LineReader {
            inner,
            limit,
            buf: Vec::new(),
            skipping: None,
        }
    }

    /// The next line.
    pub async fn next(&mut self) -> std::io::Result<Line> {
        loop {
            let chunk = self.inner.fill_buf().await?;
            if chunk.is_empty() {
                if let Some(n) = self.skipping.take() {
                    return Ok(Line::TooLong(n));
                }
                if self.buf.is_empty() {
                    return Ok(Line::Eof);
                }
                return Ok(Line::Message(std::mem::take(&mut self.buf)));
            }
            let newline = chunk.iter().position(|&b| b == b'\n');
            let take = newline.map_or(chunk.len(), |i| i + 1);
            let body = &chunk[..newline.unwrap_or(chunk.len())];
            if let Some(n) = &mut self.skipping {
                *n += body.len() as u64;
            } else if self.buf.len() + body.len() > self.limit {
                self.skipping = Some((self.buf.len() + body.len()) as u64);
                self.buf = Vec::new();
            } else {
                self.buf.extend_from_slice(body);
            }
            self.inner.consume(take);
            if newline.is_some() {
                if let Some(n) = self.skipping.take() {
                    return Ok(Line::TooLong(n));
                }
                let mut line = std::mem::take(&mut self.buf);
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(Line::Message(line));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines(input: &[u8], limit: usize) -> Vec<Line> {
        let mut r = LineReader::new(tokio::io::BufReader::with_capacity(4, input), limit);
        let mut out = Vec::new();
        loop {
            let l = r.next().await.unwrap();
            let end = l == Line::Eof;
            out.push(l);
            if end {
                return out;
            }
        }
    }

    #[tokio::test]
    async fn splits_lines_and_skips_long_ones_whole() {
        let got = lines(b"ab\r\n0123456789abc\nxy\nlast", 8).await;
        assert_eq!(
            got,
            vec![
                Line::Message(b"ab".to_vec()),
                Line::TooLong(13),
                Line::Message(b"xy".to_vec()),
                Line::Message(b"last".to_vec()),
                Line::Eof
            ]
        );
    }

    #[tokio::test]
    async fn a_line_of_exactly_the_limit_is_kept() {
        let got = lines(b"12345678\n", 8).await;
        assert_eq!(got, vec![Line::Message(b"12345678".to_vec()), Line::Eof]);
    }
}
