//! The bearer token a registry's `WWW-Authenticate` challenge points to: the challenge
//! parsed, the realm checked (HTTPS, or plain HTTP where the registry itself is), and the
//! registry's credentials sent to it only when it is on the registry's own origin or the
//! one the user allowed (`HOOKHOST_REGISTRY_REALM`).

use super::session::{Session, failure, read_capped, send_error};
use super::{Credentials, RegistryError, TOKEN_LIMIT, credentials_hint, explain};
use crate::reference::is_loopback_host;
use std::collections::BTreeMap;

impl Session<'_> {
    /// A bearer token from the realm the registry named: with the credentials only when the
    /// realm is on the registry's own origin (or the one the user allowed).
    pub(super) async fn token(
        &self,
        params: &BTreeMap<String, String>,
        basic: Option<(&str, &str)>,
        creds: &Credentials,
        actions: &str,
    ) -> Result<String, RegistryError> {
        let r = self.r;
        let mut realm = self.realm(params)?;
        let same_origin = self.may_receive_credentials(&realm, creds)?;
        {
            let mut q = realm.query_pairs_mut();
            q.append_pair("scope", &format!("repository:{}:{actions}", r.repository));
            if let Some(service) = params.get("service") {
                q.append_pair("service", service);
            }
        }
        let mut req = self.http.get(realm.clone());
        let withheld = basic.is_some() && !same_origin;
        if let (Some((u, p)), true) = (basic, same_origin) {
            req = req.basic_auth(u, Some(p));
        }
        let resp = req.send().await.map_err(|e| explain(r, send_error(e)))?;
        if !resp.status().is_success() {
            let why = failure(resp).await;
            return Err(self.fail(refusal(&realm, &why, withheld.then_some(creds), r)));
        }
        let body = read_capped(resp, TOKEN_LIMIT, || {
            format!(
                "the token service's answer is over {} KiB; refused",
                TOKEN_LIMIT >> 10
            )
        })
        .await
        .map_err(|m| self.fail(m))?;
        token_of(&body).map_err(|m| self.fail(m.into()))
    }

    fn fail(&self, message: String) -> RegistryError {
        RegistryError {
            reference: self.r.to_string(),
            message,
        }
    }

    /// The challenge's realm: a URL, HTTPS unless it is on loopback or the registry itself
    /// is plain HTTP (`insecure`).
    fn realm(&self, params: &BTreeMap<String, String>) -> Result<reqwest::Url, RegistryError> {
        let realm_text = params.get("realm").ok_or_else(|| {
            self.fail(
                "the registry asked for a bearer token without saying where to get one (no realm)"
                    .into(),
            )
        })?;
        let realm = reqwest::Url::parse(realm_text).map_err(|_| {
            self.fail(format!(
                "the registry's token realm {realm_text:?} is not a URL"
            ))
        })?;
        let realm_host = realm.host_str().unwrap_or_default().to_string();
        let plain_ok = is_loopback_host(realm_host.trim_start_matches('[').trim_end_matches(']'))
            || (self.base.starts_with("http://") && !is_loopback_host(self.r.host()));
        if realm.scheme() != "https" && !(realm.scheme() == "http" && plain_ok) {
            return Err(self.fail(format!(
                "the registry's token realm {realm} is not HTTPS; refused"
            )));
        }
        Ok(realm)
    }

    /// Whether `realm` may receive the registry's credentials: on the registry's own origin,
    /// or the one origin the user allowed.
    fn may_receive_credentials(
        &self,
        realm: &reqwest::Url,
        creds: &Credentials,
    ) -> Result<bool, RegistryError> {
        let registry_url = reqwest::Url::parse(&self.base).map_err(|e| self.fail(e.to_string()))?;
        let allowed = creds
            .realm
            .as_deref()
            .and_then(|o| reqwest::Url::parse(o).ok())
            .is_some_and(|o| origin_of(&o) == origin_of(realm));
        Ok(origin_of(&registry_url) == origin_of(realm) || allowed)
    }
}

/// What to say when the token service refused: why, and either that the credentials were
/// withheld from it (`withheld`: they were for another origin) or how to give some.
fn refusal(
    realm: &reqwest::Url,
    why: &str,
    withheld: Option<&Credentials>,
    r: &crate::reference::OciRef,
) -> String {
    let mut message = format!("the token service {} refused: {why}", realm_origin(realm));
    match withheld {
        Some(creds) => message.push_str(&format!(
            "; your credentials for {} ({}) were not sent to it: it is another origin than the registry. If it is your registry's own token service, allow it with {}={}",
            creds.registry,
            creds.source,
            crate::credentials::REALM_ENV,
            realm_origin(realm)
        )),
        None => message.push_str(&credentials_hint(r)),
    }
    message
}

/// The token in a token service's answer (`token`, else `access_token`).
fn token_of(body: &[u8]) -> Result<String, &'static str> {
    let doc: serde_json::Value =
        serde_json::from_slice(body).map_err(|_| "the token service's answer is not JSON")?;
    doc.get("token")
        .or_else(|| doc.get("access_token"))
        .and_then(serde_json::Value::as_str)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .ok_or("the token service's answer has no token")
}

/// `scheme://host[:port]` of a URL, the default port made explicit.
fn origin_of(url: &reqwest::Url) -> (String, String, Option<u16>) {
    (
        url.scheme().to_string(),
        url.host_str().unwrap_or_default().to_ascii_lowercase(),
        url.port_or_known_default(),
    )
}

/// `scheme://host[:port]` of a URL, as text.
fn realm_origin(url: &reqwest::Url) -> String {
    let (scheme, host, port) = origin_of(url);
    match port {
        Some(p) => format!("{scheme}://{host}:{p}"),
        None => format!("{scheme}://{host}"),
    }
}

/// `Bearer realm="...",service="..."` or `Basic realm="..."`: the scheme and parameters.
pub(super) fn parse_challenge(header: &str) -> Option<(String, BTreeMap<String, String>)> {
    let header = header.trim();
    let (scheme, mut rest) = match header.split_once(char::is_whitespace) {
        Some((s, r)) => (s, r.trim_start()),
        None => (header, ""),
    };
    let mut params = BTreeMap::new();
    while !rest.is_empty() {
        let (key, after) = rest.split_once('=')?;
        let key = key
            .trim()
            .trim_start_matches(',')
            .trim()
            .to_ascii_lowercase();
        let after = after.trim_start();
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            let mut value = String::new();
            let mut chars = quoted.char_indices();
            let mut end = None;
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, c)) = chars.next() {
                            value.push(c);
                        }
                    }
                    '"' => {
                        end = Some(i + 1);
                        break;
                    }
                    c => value.push(c),
                }
            }
            (value, &quoted[end?..])
        } else {
            match after.split_once(',') {
                Some((v, n)) => (v.trim().to_string(), n),
                None => (after.trim().to_string(), ""),
            }
        };
        params.insert(key, value);
        rest = next.trim_start().trim_start_matches(',').trim_start();
    }
    Some((scheme.to_ascii_lowercase(), params))
}
