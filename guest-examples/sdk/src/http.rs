//! Outgoing HTTP from a hook (`wasm32-wasip2` only): [`post_json`] sends one request through
//! `wasi:http` and reads the answer. The host sends it only to a `host:port` the hook's `net`
//! lists; anything else fails with `HttpRequestDenied` (an [`Error`] here).
//!
//! Secrets: write [`secret`]`("TOKEN")` (the text `${secret:TOKEN}`) in a header value and
//! the host replaces it with the value of the secret the hook's config declares, when the
//! request goes to one of that secret's hosts. The hook never sees the value.
//!
//! ```no_run
//! use hookhost_guest::http::{post_json, secret};
//! let auth = format!("Bearer {}", secret("POLICY_TOKEN"));
//! let answer = post_json("https://policy.example.com/check", b"{}", &[("authorization", &auth)]);
//! ```

use wasip2::http::outgoing_handler;
use wasip2::http::types::{Fields, Method, OutgoingBody, OutgoingRequest, Scheme};
use wasip2::io::streams::StreamError;

/// The most bytes of an answer [`post_json`] reads.
pub const MAX_ANSWER: usize = 1 << 20;

/// The placeholder the host replaces with secret `name`'s value: `${secret:NAME}`.
pub fn secret(name: &str) -> String {
    format!("${{secret:{name}}}")
}

/// An answer: its status, headers and body.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, Vec<u8>)>,
    pub body: Vec<u8>,
}

/// Why a request failed: the host's `wasi:http` error code (`HttpRequestDenied` for a host
/// the hook's `net` does not list), or what else went wrong.
#[derive(Debug, Clone)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn err(what: impl std::fmt::Debug) -> Error {
    Error(format!("{what:?}"))
}

/// POSTs `body` (JSON) to `url` (`http://` or `https://`) with `headers` besides
/// `content-type: application/json` and its `content-length`, and reads the answer (at most [`MAX_ANSWER`] bytes).
pub fn post_json(url: &str, body: &[u8], headers: &[(&str, &str)]) -> Result<Answer, Error> {
    let (scheme, rest) = if let Some(rest) = url.strip_prefix("https://") {
        (Scheme::Https, rest)
    } else if let Some(rest) = url.strip_prefix("http://") {
        (Scheme::Http, rest)
    } else {
        return Err(Error(format!("{url} is not an http:// or https:// URL")));
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let mut list = vec![
        ("content-type".to_string(), b"application/json".to_vec()),
        ("content-length".to_string(), body.len().to_string().into_bytes()),
    ];
    list.extend(headers.iter().map(|(k, v)| (k.to_string(), v.as_bytes().to_vec())));
    let fields = Fields::from_list(&list).map_err(err)?;
    let request = OutgoingRequest::new(fields);
    request.set_method(&Method::Post).map_err(err)?;
    request.set_scheme(Some(&scheme)).map_err(err)?;
    request.set_authority(Some(authority)).map_err(err)?;
    request.set_path_with_query(Some(path)).map_err(err)?;
    let outgoing = request.body().map_err(err)?;
    let pending = outgoing_handler::handle(request, None).map_err(err)?;
    // A refused request fails the body too: its error code, read below, says why.
    let sent = write_body(outgoing, body);
    pending.subscribe().block();
    let response = match pending.get() {
        Some(Ok(Ok(response))) => response,
        Some(Ok(Err(code))) => return Err(err(code)),
        _ => return Err(Error("no answer".into())),
    };
    sent?;
    let status = response.status();
    let headers = response
        .headers()
        .entries()
        .into_iter()
        .collect::<Vec<(String, Vec<u8>)>>();
    let incoming = response.consume().map_err(err)?;
    let stream = incoming.stream().map_err(err)?;
    let mut body = Vec::new();
    loop {
        match stream.blocking_read(4096) {
            Ok(bytes) if body.len() + bytes.len() > MAX_ANSWER => {
                return Err(Error(format!("the answer is over {MAX_ANSWER} bytes")));
            }
            Ok(bytes) => body.extend_from_slice(&bytes),
            Err(StreamError::Closed) => break,
            Err(StreamError::LastOperationFailed(e)) => return Err(Error(e.to_debug_string())),
        }
    }
    Ok(Answer {
        status,
        headers,
        body,
    })
}

fn write_body(outgoing: OutgoingBody, body: &[u8]) -> Result<(), Error> {
    {
        let stream = outgoing.write().map_err(err)?;
        for chunk in body.chunks(4096) {
            stream.blocking_write_and_flush(chunk).map_err(err)?;
        }
    }
    OutgoingBody::finish(outgoing, None).map_err(err)
}
