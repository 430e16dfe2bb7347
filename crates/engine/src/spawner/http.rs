//! [`HttpSpawner`]: POSTs the payload as JSON to a hook's `url` (DESIGN §5).
//!
//! A 2xx answer is exit 0 with the body read like stdout (so the JSON protocol applies); any
//! other status or a connection failure is a spawn failure (the body, if any, goes to
//! stderr); past the timeout is a timeout. Header values may name environment variables as
//! `$NAME` / `${NAME}`, only for names in the hook's `allowedEnv`; header values are never
//! logged or reported. The body is capped at 1 MiB like any output, and redirects are not
//! followed (a hook endpoint that moves should be reconfigured, not chased).

use super::capture::{Capture, CapturedStream, drain_body};
use super::{ExitStatus, SpawnOutput, SpawnRequest, Spawner};
use crate::config::Handler;
pub use crate::config::headers::{HeaderError, expand_with};
use async_trait::async_trait;
use std::time::Duration;
use tokio::time::Instant;

/// Runs `url` hooks with one shared connection pool, and one more for hooks held to public
/// addresses.
#[derive(Debug, Clone)]
pub struct HttpSpawner {
    client: reqwest::Client,
    public: reqwest::Client,
}

impl Default for HttpSpawner {
    fn default() -> Self {
        HttpSpawner {
            client: hook_client(),
            public: public_client(),
        }
    }
}

/// The client of HTTP hooks held to public addresses: names resolved by
/// [`PublicOnly`](super::public_net::PublicOnly), and no proxy (a proxy would resolve the
/// name itself, past the check).
fn public_client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("hookhost/", env!("CARGO_PKG_VERSION")))
        .no_proxy()
        .dns_resolver(std::sync::Arc::new(super::public_net::PublicOnly))
        .build()
        .unwrap_or_default()
}

/// Why `url` may not be requested by a hook held to public addresses: its host is an
/// address that is not (a name is checked when it is resolved).
fn refused_literal(url: &str) -> Option<String> {
    let parsed = reqwest::Url::parse(url).ok()?;
    let host = parsed.host_str()?;
    // An IPv6 host comes in brackets; a name does not parse as an address.
    let ip: std::net::IpAddr = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse()
        .ok()?;
    super::public_net::refused(ip).map(|why| {
        format!(
            "{url} is {why}; this HTTP hook may reach public addresses and loopback only (as Claude Code's HTTP hooks); move the hook into your own ~/.coding-agent/hooks.json to reach a private address"
        )
    })
}

/// The HTTP client of every hook that speaks HTTP (HTTP hooks, MCP servers over HTTP, model
/// hooks): no redirects, and hookhost's own reading of the proxy variables, never reqwest's
/// (a project's settings can set them: `host_env`; a loopback URL never goes through a
/// proxy). Should that client fail to build, one with no proxy at all.
pub(crate) fn hook_client() -> reqwest::Client {
    let builder = || {
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("hookhost/", env!("CARGO_PKG_VERSION")))
    };
    builder()
        .proxy(crate::host_env::reqwest_proxy())
        .build()
        .or_else(|_| builder().no_proxy().build())
        .unwrap_or_default()
}

/// Expands `$NAME` and `${NAME}` in a header value from the environment, for names in
/// `allowed` only. The error names the variable, never the value.
pub fn expand_header(value: &str, allowed: &[String]) -> Result<String, HeaderError> {
    expand_with(value, allowed, |name| std::env::var(name).ok())
}

#[async_trait]
impl Spawner for HttpSpawner {
    async fn spawn(&self, req: SpawnRequest) -> SpawnOutput {
        let start = Instant::now();
        let Handler::Http {
            url,
            headers,
            allowed_env,
            public_only,
        } = &req.handler
        else {
            return SpawnOutput::spawn_failed("HttpSpawner got a non-HTTP hook", Duration::ZERO);
        };
        if *public_only && let Some(why) = refused_literal(url) {
            return SpawnOutput::spawn_failed(why, start.elapsed());
        }
        let client = if *public_only {
            &self.public
        } else {
            &self.client
        };
        let mut request = client
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header("X-Hook-Event", req.event.as_str())
            .body(req.stdin.to_vec());
        for (name, value) in headers {
            match expand_header(value, allowed_env) {
                Ok(v) => request = request.header(name.as_str(), v),
                Err(e) => {
                    return SpawnOutput::spawn_failed(
                        format!("header `{name}`: {e}"),
                        start.elapsed(),
                    );
                }
            }
        }
        let body = CapturedStream::default();
        let sink = body.clone();
        let exchange = async move {
            let mut response = request
                .send()
                .await
                .map_err(|e| format!("cannot reach {url}: {}", without_url(&e)))?;
            let status = response.status();
            drain_body(&mut response, &sink)
                .await
                .map_err(|e| format!("reading the answer of {url} failed: {}", without_url(&e)))?;
            Ok::<_, String>(status)
        };
        let result = tokio::time::timeout_at(start + req.timeout, exchange).await;
        // The body is read like stdout on success (and on a timeout, for what arrived), and
        // goes to stderr when the hook failed.
        let as_stdout = || Capture {
            stdout: body.clone(),
            stderr: CapturedStream::default(),
        };
        let as_stderr = || Capture {
            stdout: CapturedStream::default(),
            stderr: body.clone(),
        };
        let (status, capture) = match result {
            Err(_) => (ExitStatus::TimedOut, as_stdout()),
            Ok(Err(e)) => (ExitStatus::SpawnFailed(e), as_stderr()),
            Ok(Ok(s)) if s.is_success() => (ExitStatus::Exited(0), as_stdout()),
            Ok(Ok(s)) => (
                ExitStatus::SpawnFailed(format!(
                    "{url} answered HTTP {s}; a hook endpoint must answer 2xx"
                )),
                as_stderr(),
            ),
        };
        capture.finish(status, start.elapsed())
    }
}

/// reqwest's error text without the URL (already in our message) and with its cause chain.
pub(super) fn error_chain(e: &reqwest::Error) -> String {
    without_url(e)
}

fn without_url(e: &reqwest::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_only_allowed_names() {
        let allowed = vec!["PATH".to_string()];
        let path = std::env::var("PATH").unwrap();
        assert_eq!(
            expand_header("a $PATH b", &allowed).unwrap(),
            format!("a {path} b")
        );
        assert_eq!(
            expand_header("x${PATH}y", &allowed).unwrap(),
            format!("x{path}y")
        );
        assert_eq!(expand_header("costs $5", &[]).unwrap(), "costs $5");
        assert!(
            expand_header("$HOME", &allowed)
                .unwrap_err()
                .to_string()
                .contains("not listed")
        );
        assert_eq!(expand_header("plain", &[]).unwrap(), "plain");
        assert_eq!(expand_header("$", &[]).unwrap(), "$");
    }
}
