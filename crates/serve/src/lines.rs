//! Reading newline-delimited messages with a bound: a line longer than the limit is skipped
//! (read and thrown away up to its newline, never held in memory) and reported, so a peer
//! that sends a 10 GB line costs the server at most `limit` bytes and the connection stays
//! usable. The bytes of the line being read are charged to the connection's memory budget
//! too (a line the budget has no room for is skipped the same way). Cancel-safe: every byte
//! consumed is kept in the reader, so a `select!` that drops [`LineReader::next`] loses
//! nothing.

use super::memory::{Budget, Charge};
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One item read.
#[derive(Debug)]
pub enum Line {
    /// A whole line, without its newline, and the charge for its bytes.
    Message(Vec<u8>, Charge),
    /// A line longer than the limit was skipped; this many bytes of it were read.
    TooLong(u64),
    /// A line the memory budget had no room for was skipped; this many bytes were read.
    NoRoom(u64),
    /// The peer closed its side (a last unterminated line is still returned first).
    Eof,
}

/// A bounded line reader over a buffered stream.
pub struct LineReader<R> {
    inner: R,
    limit: usize,
    budget: Budget,
    buf: Vec<u8>,
    /// What `buf` holds, charged.
    charge: Charge,
    /// Inside a skipped line: bytes thrown away so far, and whether it was for want of room.
    skipping: Option<(u64, bool)>,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    /// Lines of at most `limit` bytes (the newline not counted), held on `budget`.
    pub fn new(inner: R, limit: usize, budget: Budget) -> Self {
        LineReader {
            inner,
            limit,
            charge: budget.charge(),
            budget,
            buf: Vec::new(),
            skipping: None,
        }
    }

    fn skipped((n, no_room): (u64, bool)) -> Line {
        if no_room {
            Line::NoRoom(n)
        } else {
            Line::TooLong(n)
        }
    }

    fn take_line(&mut self) -> Line {
        let line = std::mem::take(&mut self.buf);
        Line::Message(
            line,
            std::mem::replace(&mut self.charge, self.budget.charge()),
        )
    }

    /// The next line.
    pub async fn next(&mut self) -> std::io::Result<Line> {
        loop {
            let chunk = self.inner.fill_buf().await?;
            if chunk.is_empty() {
                if let Some(s) = self.skipping.take() {
                    return Ok(Self::skipped(s));
                }
                if self.buf.is_empty() {
                    return Ok(Line::Eof);
                }
                return Ok(self.take_line());
            }
            let newline = chunk.iter().position(|&b| b == b'\n');
            let take = newline.map_or(chunk.len(), |i| i + 1);
            let body = &chunk[..newline.unwrap_or(chunk.len())];
            let wanted = self.buf.len() + body.len();
            if let Some((n, _)) = &mut self.skipping {
                *n += body.len() as u64;
            } else if wanted > self.limit || !self.charge.grow_to(wanted) {
                self.skipping = Some((wanted as u64, wanted <= self.limit));
                self.buf = Vec::new();
                self.charge = self.budget.charge();
            } else {
                self.buf.extend_from_slice(body);
            }
            self.inner.consume(take);
            if newline.is_some() {
                if let Some(s) = self.skipping.take() {
                    return Ok(Self::skipped(s));
                }
                if self.buf.last() == Some(&b'\r') {
                    self.buf.pop();
                }
                return Ok(self.take_line());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::memory::Pool;
    use super::*;

    /// What was read, with the messages as text.
    #[derive(Debug, PartialEq, Eq)]
    enum Got {
        Message(Vec<u8>),
        TooLong(u64),
        NoRoom(u64),
        Eof,
    }

    async fn lines(input: &[u8], limit: usize, budget: Budget) -> Vec<Got> {
        let mut r = LineReader::new(tokio::io::BufReader::with_capacity(4, input), limit, budget);
        let mut out = Vec::new();
        loop {
            let got = match r.next().await.unwrap() {
                Line::Message(m, charge) => {
                    assert!(charge.held() >= m.len());
                    Got::Message(m)
                }
                Line::TooLong(n) => Got::TooLong(n),
                Line::NoRoom(n) => Got::NoRoom(n),
                Line::Eof => Got::Eof,
            };
            let end = got == Got::Eof;
            out.push(got);
            if end {
                return out;
            }
        }
    }

    #[tokio::test]
    async fn splits_lines_and_skips_long_ones_whole() {
        let got = lines(b"ab\r\n0123456789abc\nxy\nlast", 8, Budget::unbounded()).await;
        assert_eq!(
            got,
            vec![
                Got::Message(b"ab".to_vec()),
                Got::TooLong(13),
                Got::Message(b"xy".to_vec()),
                Got::Message(b"last".to_vec()),
                Got::Eof
            ]
        );
    }

    #[tokio::test]
    async fn a_line_of_exactly_the_limit_is_kept() {
        let got = lines(b"12345678\n", 8, Budget::unbounded()).await;
        assert_eq!(got, vec![Got::Message(b"12345678".to_vec()), Got::Eof]);
    }

    #[tokio::test]
    async fn a_line_the_budget_has_no_room_for_is_skipped_and_charges_are_given_back() {
        let conn = Pool::new(6);
        let budget = Budget::new(conn.clone(), Pool::new(usize::MAX));
        let got = lines(b"abc\n0123456789\nxyz\n", 100, budget).await;
        assert_eq!(
            got,
            vec![
                Got::Message(b"abc".to_vec()),
                Got::NoRoom(10),
                Got::Message(b"xyz".to_vec()),
                Got::Eof
            ]
        );
        assert_eq!(conn.used(), 0);
    }
}
