//! Outgoing HTTP of a wasm component (`wasi:http/outgoing-handler`), and the policy every
//! request passes before it leaves: the hook's `net` grant, its `secrets`, its deadline and
//! a cap on response bodies (docs/wasm.md, "Network").
//!
//! - A request goes out only to a `host:port` the hook's `net` lists, compared exactly (the
//!   host as written in the URL, lower case; no port means 80 for http, 443 for https). Any
//!   other request, and every request of a hook without `net` (an untrusted hook's `net` is
//!   dropped), is refused: the guest gets `HttpRequestDenied` and a `hookhost:` line in the
//!   hook's stderr says what was refused, so it shows in the record.
//! - `${secret:NAME}` in a header value, for a secret NAME the hook declares, is replaced by
//!   the value of the secret's environment variable (read from hookhost's environment when
//!   the request is sent) if the request goes to one of the secret's hosts (over https, or
//!   plain http to a loopback address); to another host the request is refused. Only header
//!   values are looked at, and the guest never holds the value: the request was taken out of
//!   its resource table before this runs, and the value is marked sensitive.
//! - Connecting, waiting for the answer and reading it stop at the hook's deadline; a response
//!   body longer than [`MAX_RESPONSE_BODY`] ends in `HttpResponseBodySize`.
//!
//! Not here: linking `wasi:http` (`engine.rs`), the store that carries the policy
//! (`state.rs`), where a hook may declare secrets (`config/resolve/secrets.rs`).

use crate::config::{NetTarget, Secret};
use crate::spawner::CapturedStream;
use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Request, Response, Uri};
use http_body::{Body, Frame};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;
use wasmtime_wasi_http::{Error, RequestOptions, WasiBody, WasiHttpHooks};

/// The most bytes of one response body a guest can read.
pub const MAX_RESPONSE_BODY: u64 = 16 << 20;

/// How a placeholder starts: `${secret:NAME}`.
const PLACEHOLDER: &[u8] = b"${secret:";

/// What one hook's requests may reach and carry: its `net` and `secrets`. Part of an
/// instance's grants (two runs with equal ones may share an instance made ahead).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct HttpGrant {
    /// Where requests may go (empty: nowhere).
    pub net: Vec<NetTarget>,
    /// What the host may put into their header values.
    pub secrets: Vec<Secret>,
}

type SendResult = Result<
    (
        Response<WasiBody>,
        Box<dyn Future<Output = Result<(), Error>> + Send>,
    ),
    Error,
>;

/// The request hooks of one instance: checks each request against its [`HttpGrant`], fills
/// in secrets and sends it, bounded by the run's deadline.
pub(super) struct OutgoingPolicy {
    grant: Arc<HttpGrant>,
    /// The hook's stderr, where refusals are noted.
    notes: CapturedStream,
    deadline: Instant,
}

impl OutgoingPolicy {
    pub fn new(grant: Arc<HttpGrant>, notes: CapturedStream, deadline: Instant) -> Self {
        OutgoingPolicy {
            grant,
            notes,
            deadline,
        }
    }

    /// The deadline of the event the instance is called for (an instance made ahead was
    /// made with another).
    pub fn set_deadline(&mut self, deadline: Instant) {
        self.deadline = deadline;
    }

    /// Notes `why` in the hook's stderr and the trace, and fails the request with `error`.
    fn refuse(&self, why: &str, error: Error) -> Box<dyn Future<Output = SendResult> + Send> {
        tracing::warn!(refused = why, "a wasm hook's HTTP request was refused");
        self.notes
            .push(format!("hookhost: HTTP request refused: {why}\n").as_bytes());
        Box::new(std::future::ready(Err(error)))
    }
}

impl WasiHttpHooks for OutgoingPolicy {
    fn send_request(
        &mut self,
        mut request: Request<WasiBody>,
        options: Option<RequestOptions>,
        _fut: Box<dyn Future<Output = Result<(), Error>> + Send>,
    ) -> Box<dyn Future<Output = SendResult> + Send> {
        let Some((target, https)) = target_of(request.uri()) else {
            let why = format!("{} is not an http(s) URL with a host", request.uri());
            return self.refuse(&why, Error::HttpRequestUriInvalid);
        };
        if !self.grant.net.contains(&target) {
            let why = if self.grant.net.is_empty() {
                format!("{target}: the hook has no `net` grant")
            } else {
                format!("{target} is not in the hook's `net`")
            };
            return self.refuse(&why, Error::HttpRequestDenied);
        }
        if let Err(refusal) = inject(&self.grant.secrets, &target, https, request.headers_mut()) {
            return match refusal {
                Refusal::Denied(why) => self.refuse(&why, Error::HttpRequestDenied),
                Refusal::Unset(why) => {
                    let guest_sees = Error::InternalError(Some(format!("hookhost: {why}")));
                    self.refuse(&why, guest_sees)
                }
            };
        }
        let deadline = self.deadline;
        let Some(left) = deadline.checked_duration_since(Instant::now()) else {
            return self.refuse("the hook's timeout has passed", Error::ConnectionTimeout);
        };
        let bounded = |t: Option<std::time::Duration>| Some(t.map_or(left, |t| t.min(left)));
        let options = RequestOptions {
            connect_timeout: bounded(options.and_then(|o| o.connect_timeout)),
            first_byte_timeout: bounded(options.and_then(|o| o.first_byte_timeout)),
            between_bytes_timeout: bounded(options.and_then(|o| o.between_bytes_timeout)),
        };
        Box::new(async move {
            let sent = wasmtime_wasi_http::default_send_request(request, Some(options));
            let (response, io) = tokio::time::timeout_at(deadline.into(), sent)
                .await
                .map_err(|_| Error::HttpResponseTimeout)??;
            let response = response.map(|body| {
                use http_body_util::BodyExt;
                CappedBody {
                    inner: body.boxed_unsync(),
                    left: MAX_RESPONSE_BODY,
                }
                .boxed_unsync()
            });
            // The connection's driver stops at the deadline too.
            let io = async move {
                tokio::time::timeout_at(deadline.into(), io)
                    .await
                    .unwrap_or(Ok(()))
            };
            Ok((response, Box::new(io) as Box<dyn Future<Output = _> + Send>))
        })
    }
}

/// The `host:port` a request goes to (the port its scheme implies when the URL has none)
/// and whether it is https; `None` for a URL with user info, no host or another scheme.
fn target_of(uri: &Uri) -> Option<(NetTarget, bool)> {
    let https = match uri.scheme_str()? {
        "https" => true,
        "http" => false,
        _ => return None,
    };
    let authority = uri.authority()?;
    if authority.as_str().contains('@') {
        return None;
    }
    let host = authority.host();
    let host = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    if host.is_empty() {
        return None;
    }
    let port = authority.port_u16().unwrap_or(if https { 443 } else { 80 });
    Some((
        NetTarget {
            host: host.to_ascii_lowercase(),
            port,
        },
        https,
    ))
}

/// Why secrets could not be put into a request.
#[derive(Debug, PartialEq, Eq)]
enum Refusal {
    /// The request may not carry a secret it names.
    Denied(String),
    /// A secret's variable is not set (or not a valid header value).
    Unset(String),
}

/// Replaces each `${secret:NAME}` of a declared secret in `headers`' values with its value,
/// when the request to `target` may carry it.
fn inject(
    secrets: &[Secret],
    target: &NetTarget,
    https: bool,
    headers: &mut HeaderMap,
) -> Result<(), Refusal> {
    if secrets.is_empty() {
        return Ok(());
    }
    for value in headers.values_mut() {
        let Some(filled) = fill(value.as_bytes(), secrets, target, https)? else {
            continue;
        };
        let mut filled = HeaderValue::from_bytes(&filled).map_err(|_| {
            Refusal::Unset(
                "a secret's value is not a valid header value (it has a line break or a control character)".into(),
            )
        })?;
        filled.set_sensitive(true);
        *value = filled;
    }
    Ok(())
}

/// `value` with its placeholders filled in, or `None` when it names no declared secret.
fn fill(
    value: &[u8],
    secrets: &[Secret],
    target: &NetTarget,
    https: bool,
) -> Result<Option<Vec<u8>>, Refusal> {
    let mut out = Vec::with_capacity(value.len());
    let mut rest = value;
    let mut filled = false;
    while let Some(at) = find(rest, PLACEHOLDER) {
        out.extend_from_slice(&rest[..at]);
        let after = &rest[at + PLACEHOLDER.len()..];
        let secret = find(after, b"}").and_then(|end| {
            let name = std::str::from_utf8(&after[..end]).ok()?;
            secrets.iter().find(|s| s.name == name).map(|s| (s, end))
        });
        let Some((secret, end)) = secret else {
            // Not one of the hook's secrets: left as written.
            out.extend_from_slice(PLACEHOLDER);
            rest = after;
            continue;
        };
        out.extend_from_slice(value_for(secret, target, https)?.as_bytes());
        filled = true;
        rest = &after[end + 1..];
    }
    out.extend_from_slice(rest);
    Ok(filled.then_some(out))
}

/// The value of `secret` for a request to `target`, if it may carry it.
fn value_for(secret: &Secret, target: &NetTarget, https: bool) -> Result<String, Refusal> {
    if !secret.hosts.contains(&target.host) {
        return Err(Refusal::Denied(format!(
            "{target} may not carry secret `{}` (its hosts: {})",
            secret.name,
            secret.hosts.join(", ")
        )));
    }
    if !https && !is_loopback(&target.host) {
        return Err(Refusal::Denied(format!(
            "secret `{}` goes only over https (or plain http to this machine), not http://{target}",
            secret.name
        )));
    }
    // Not a value a project's agent settings set (`host_env`): the project would choose
    // whose credentials the user's policy server sees.
    crate::host_env::var(&secret.env, "no value: the request is refused").ok_or_else(|| {
        Refusal::Unset(format!(
            "secret `{}`: the environment variable {} is not set (or not UTF-8, or set by a project's agent settings) in hookhost's environment",
            secret.name, secret.env
        ))
    })
}

fn is_loopback(host: &str) -> bool {
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// A response body that fails with `HttpResponseBodySize` past [`MAX_RESPONSE_BODY`] bytes.
struct CappedBody {
    inner: WasiBody,
    left: u64,
}

impl Body for CappedBody {
    type Data = Bytes;
    type Error = Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if let Poll::Ready(Some(Ok(frame))) = &polled
            && let Some(data) = frame.data_ref()
        {
            let len = u64::try_from(data.len()).unwrap_or(u64::MAX);
            if len > self.left {
                return Poll::Ready(Some(Err(Error::HttpResponseBodySize(Some(
                    MAX_RESPONSE_BODY,
                )))));
            }
            self.left -= len;
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret() -> Vec<Secret> {
        vec![Secret {
            name: "TOKEN".into(),
            env: "HOOKHOST_TEST_HTTP_SECRET".into(),
            hosts: vec!["api.example.com".into(), "127.0.0.1".into()],
        }]
    }

    fn target(host: &str, port: u16) -> NetTarget {
        NetTarget {
            host: host.into(),
            port,
        }
    }

    #[test]
    fn the_target_is_the_host_and_port_of_the_url_with_the_scheme_default() {
        let t = |u: &str| target_of(&u.parse().unwrap());
        assert_eq!(
            t("https://API.example.com/x"),
            Some((target("api.example.com", 443), true))
        );
        assert_eq!(
            t("http://127.0.0.1:8080/"),
            Some((target("127.0.0.1", 8080), false))
        );
        assert_eq!(t("http://[::1]/"), Some((target("::1", 80), false)));
        assert_eq!(t("http://user@example.com/"), None);
        assert_eq!(t("ftp://example.com/"), None);
    }

    #[test]
    fn placeholders_are_filled_only_for_the_secrets_hosts() {
        let secrets = secret();
        let api = target("api.example.com", 443);
        let other = target("evil.example.com", 443);
        let value = b"Bearer ${secret:TOKEN}";
        // Unset: the request fails, saying which variable.
        assert!(matches!(
            fill(value, &secrets, &api, true),
            Err(Refusal::Unset(why)) if why.contains("HOOKHOST_TEST_HTTP_SECRET")
        ));
        assert!(matches!(
            fill(value, &secrets, &other, true),
            Err(Refusal::Denied(_))
        ));
        assert!(matches!(
            fill(value, &secrets, &api, false),
            Err(Refusal::Denied(why)) if why.contains("https")
        ));
        // Undeclared names and text without placeholders are left alone.
        assert_eq!(fill(b"${secret:OTHER} x", &secrets, &other, true), Ok(None));
        assert_eq!(fill(b"plain", &secrets, &other, true), Ok(None));
    }
}
