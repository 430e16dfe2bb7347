//! The HTTP/1.1 the model server needs: a request's head and body (`Content-Length` or
//! chunked), bounded; a response with `Content-Length` (keep-alive unless the client said
//! `Connection: close`).

use std::io::{BufRead, Write};
use std::net::TcpStream;

/// A request body larger than this ends the connection.
const BODY_LIMIT: usize = 64 << 20;
/// A head larger than this ends the connection.
const HEAD_LIMIT: usize = 64 << 10;

/// One request.
#[derive(Debug)]
pub struct HttpRequest {
    pub method: String,
    pub path: String,
    pub body: Vec<u8>,
    /// The client asked to close the connection after this one.
    pub close: bool,
}

/// The next request from `reader` (one per connection, kept across its requests); `None`
/// when the client closed the connection.
pub fn read_from(reader: &mut impl BufRead) -> std::io::Result<Option<HttpRequest>> {
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    let mut parts = line.split_whitespace();
    let (Some(method), Some(path)) = (parts.next(), parts.next()) else {
        return Err(bad("no request line"));
    };
    let (method, path) = (method.to_string(), path.to_string());
    let (mut length, mut chunked, mut close, mut head) = (0usize, false, false, line.len());
    loop {
        line.clear();
        head += reader.read_line(&mut line)?;
        if head > HEAD_LIMIT {
            return Err(bad("head too large"));
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let Some((name, value)) = l.split_once(':') else {
            continue;
        };
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
        match name.as_str() {
            "content-length" => length = value.parse().map_err(|_| bad("content-length"))?,
            "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
            "connection" => close = value.eq_ignore_ascii_case("close"),
            _ => {}
        }
    }
    let body = if chunked {
        read_chunked(reader)?
    } else {
        if length > BODY_LIMIT {
            return Err(bad("body too large"));
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body)?;
        body
    };
    Ok(Some(HttpRequest {
        method,
        path,
        body,
        close,
    }))
}

/// A chunked body.
fn read_chunked(reader: &mut impl BufRead) -> std::io::Result<Vec<u8>> {
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
    let mut body = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let size = line.trim().split(';').next().unwrap_or_default();
        let size = usize::from_str_radix(size, 16).map_err(|_| bad("chunk size"))?;
        if body.len() + size > BODY_LIMIT {
            return Err(bad("body too large"));
        }
        if size == 0 {
            // Trailers, up to the blank line.
            loop {
                line.clear();
                if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
                    return Ok(body);
                }
            }
        }
        let start = body.len();
        body.resize(start + size, 0);
        reader.read_exact(&mut body[start..])?;
        line.clear();
        reader.read_line(&mut line)?;
    }
}

/// Writes one response.
pub fn write_response(
    stream: &mut TcpStream,
    status: u16,
    content_type: &str,
    body: &[u8],
) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        404 => "Not Found",
        _ => "Error",
    };
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_length_and_chunked_bodies_in_turn() {
        let wire = b"POST /v1/messages HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}\
POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
        let mut r = std::io::BufReader::new(&wire[..]);
        let a = read_from(&mut r).unwrap().unwrap();
        assert_eq!(
            (a.method.as_str(), a.path.as_str()),
            ("POST", "/v1/messages")
        );
        assert_eq!(a.body, b"{}");
        assert!(!a.close);
        let b = read_from(&mut r).unwrap().unwrap();
        assert_eq!(b.body, b"abcde");
        assert!(b.close);
        assert!(read_from(&mut r).unwrap().is_none());
    }
}
