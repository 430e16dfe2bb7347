//! A connection to one repository of one registry, speaking the distribution API
//! (`/v2/`): authorization (anonymous, basic to the registry's own origin, or a bearer token
//! from `token.rs`), then manifests and blobs read with their limits and checked.

use super::{Credentials, MANIFEST_LIMIT, RegistryError, explain};
use crate::reference::{OciRef, is_loopback_host};
use futures_util::StreamExt;
use hookhost::store::{Digest, PACKAGE_LIMIT};

/// The most of an error answer that is read (and shown, cut short).
const ERROR_BODY_LIMIT: u64 = 4 << 10;

const MANIFEST_ACCEPT: &str = "application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json, application/vnd.oci.image.index.v1+json, application/vnd.docker.distribution.manifest.list.v2+json";

/// How requests to the registry are authorized.
#[derive(Clone)]
pub(super) enum Auth {
    Anonymous,
    /// HTTP basic, to the registry's own origin only.
    Basic(String, String),
    /// A bearer token from the registry's token service.
    Bearer(String),
}

/// A connection to one repository of one registry, authorized for one operation.
pub(super) struct Session<'a> {
    pub(super) r: &'a OciRef,
    pub(super) http: reqwest::Client,
    /// `scheme://registry`.
    pub(super) base: String,
    pub(super) auth: Auth,
}

/// The HTTP client of a session: timeouts, and no redirect to plain HTTP off loopback
/// (unless `insecure`).
fn http_client(insecure: bool) -> Result<reqwest::Client, String> {
    let policy = reqwest::redirect::Policy::custom(move |attempt| {
        let plain_ok = insecure
            || attempt
                .url()
                .host_str()
                .is_some_and(|h| is_loopback_host(h.trim_start_matches('[').trim_end_matches(']')));
        if attempt.previous().len() >= 5 {
            attempt.error("more than 5 redirects")
        } else if attempt.url().scheme() != "https" && !plain_ok {
            let url = attempt.url().to_string();
            attempt.error(format!("a redirect to plain HTTP ({url}) refused"))
        } else {
            // reqwest drops `Authorization` when a redirect leaves the origin.
            attempt.follow()
        }
    });
    reqwest::Client::builder()
        .connect_timeout(std::time::Duration::from_secs(10))
        .read_timeout(std::time::Duration::from_secs(60))
        .redirect(policy)
        .build()
        .map_err(|e| e.to_string())
}

/// Reads at most `limit` bytes of `resp`: refused at once when its `Content-Length` says
/// more, cut off when the stream goes past it.
pub(super) async fn read_capped(
    resp: reqwest::Response,
    limit: u64,
    too_big: impl Fn() -> String,
) -> Result<Vec<u8>, String> {
    if resp.content_length().is_some_and(|n| n > limit) {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    let mut stream = resp.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| format!("the download failed: {e}"))?;
        if (bytes.len() + chunk.len()) as u64 > limit {
            return Err(too_big());
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// What a failed answer said, short and on one line.
pub(super) async fn failure(resp: reqwest::Response) -> String {
    let status = resp.status();
    let body = read_capped(resp, ERROR_BODY_LIMIT, String::new)
        .await
        .unwrap_or_default();
    let text: String = String::from_utf8_lossy(&body)
        .chars()
        .filter(|c| !c.is_control())
        .take(200)
        .collect();
    if text.trim().is_empty() {
        format!("the registry answered {status}")
    } else {
        format!("the registry answered {status}: {}", text.trim())
    }
}

/// A send error with its causes, on one line.
pub(super) fn send_error(e: reqwest::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        text.push_str(&format!(": {s}"));
        source = s.source();
    }
    text
}

impl<'a> Session<'a> {
    /// Connects to `r`'s registry and authorizes `actions` (`pull`, or `pull,push`) on its
    /// repository with `creds` (when they are for this registry).
    pub(super) async fn open(
        r: &'a OciRef,
        creds: &Credentials,
        insecure: bool,
        actions: &str,
    ) -> Result<Session<'a>, RegistryError> {
        let fail = |message: String| RegistryError {
            reference: r.to_string(),
            message,
        };
        let scheme = if insecure || is_loopback_host(r.host()) {
            "http"
        } else {
            "https"
        };
        let base = format!("{scheme}://{}", r.registry);
        let http = http_client(insecure).map_err(fail)?;
        let mut s = Session {
            r,
            http,
            base,
            auth: Auth::Anonymous,
        };
        let basic = creds.basic_for(r);
        let resp = s
            .http
            .get(format!("{}/v2/", s.base))
            .send()
            .await
            .map_err(|e| explain(r, send_error(e)))?;
        if resp.status() != reqwest::StatusCode::UNAUTHORIZED {
            return Ok(s);
        }
        let challenges: Vec<String> = resp
            .headers()
            .get_all(reqwest::header::WWW_AUTHENTICATE)
            .iter()
            .filter_map(|v| v.to_str().ok().map(str::to_string))
            .collect();
        let parsed: Vec<_> = challenges
            .iter()
            .filter_map(|c| super::token::parse_challenge(c))
            .collect();
        if let Some((_, params)) = parsed.iter().find(|(scheme, _)| scheme == "bearer") {
            let token = s.token(params, basic, creds, actions).await?;
            s.auth = Auth::Bearer(token);
        } else if let Some((u, p)) = basic {
            // Basic: the credentials go to the registry's own origin, nowhere else.
            s.auth = Auth::Basic(u.to_string(), p.to_string());
        }
        Ok(s)
    }

    /// A GET of `path` in the repository, authorized.
    fn get(&self, path: &str) -> reqwest::RequestBuilder {
        let url = format!("{}/v2/{}/{path}", self.base, self.r.repository);
        let req = self.http.get(url);
        match &self.auth {
            Auth::Anonymous => req,
            Auth::Basic(u, p) => req.basic_auth(u, Some(p)),
            Auth::Bearer(t) => req.bearer_auth(t),
        }
    }

    /// The manifest `reference` names (a tag or a digest) and the SHA-256 of its bytes.
    pub(super) async fn manifest(
        &self,
        reference: &str,
    ) -> Result<(Vec<u8>, String), RegistryError> {
        let r = self.r;
        let fail = |message: String| RegistryError {
            reference: r.to_string(),
            message,
        };
        let resp = self
            .get(&format!("manifests/{reference}"))
            .header(reqwest::header::ACCEPT, MANIFEST_ACCEPT)
            .send()
            .await
            .map_err(|e| explain(r, send_error(e)))?;
        if !resp.status().is_success() {
            return Err(explain(r, failure(resp).await));
        }
        let body = read_capped(resp, MANIFEST_LIMIT, || {
            format!(
                "its manifest is over the {} MiB limit for manifests; refused without reading it",
                MANIFEST_LIMIT >> 20
            )
        })
        .await
        .map_err(fail)?;
        let digest = format!("sha256:{}", hookhost::files::sha256_hex(&body));
        Ok((body, digest))
    }

    /// The blob `digest`, at most `limit` bytes, checked against the digest.
    pub(super) async fn blob(&self, digest: &Digest, limit: u64) -> Result<Vec<u8>, RegistryError> {
        let r = self.r;
        let fail = |message: String| RegistryError {
            reference: r.to_string(),
            message,
        };
        let resp = self
            .get(&format!("blobs/{digest}"))
            .send()
            .await
            .map_err(|e| explain(r, send_error(e)))?;
        if !resp.status().is_success() {
            return Err(explain(r, failure(resp).await));
        }
        let bytes = read_capped(resp, limit, || {
            format!(
                "the registry sent more than the {limit} bytes declared for {digest} (the limit for hook packages is {} MiB); refused",
                PACKAGE_LIMIT >> 20
            )
        })
        .await
        .map_err(fail)?;
        let actual = Digest::of(&bytes);
        if actual != *digest {
            return Err(fail(format!(
                "the module's bytes hash to {actual}, not its digest {digest}; refused"
            )));
        }
        Ok(bytes)
    }
}
