//! Registry credentials, each bound to the one registry it is for. In order:
//!
//! 1. `HOOKHOST_REGISTRY_USERNAME` and `HOOKHOST_REGISTRY_PASSWORD`, for the registry named by
//!    `HOOKHOST_REGISTRY_HOST` (`host[:port]`) and no other. Set without
//!    `HOOKHOST_REGISTRY_HOST`, they are an error naming the fix: they once went to every
//!    registry, a cloned project's included, and guessing which one they are for is how
//!    they would leak.
//! 2. docker's `config.json` (`$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`):
//!    the `auths` entry keyed by the registry (`host:port`, with or without
//!    `https://`/`http://`; `auth` = base64 `user:password`, or `username`/`password`).
//!    Credential helpers (`credsStore`) are not run.
//!
//! A registry no entry names gets no credentials: a reference a cloned project's
//! `hooks.json` names is fetched anonymously unless the user's own settings say that
//! registry is theirs. The registry client sends credentials to the registry itself only,
//! never to a token service on another origin unless `HOOKHOST_REGISTRY_REALM` names that
//! origin (`registry.rs`). Nothing here logs a secret; a malformed file is an error naming
//! it, never its content.

use super::reference::{OciRef, host_of};
use base64::Engine;
use hookhost::files::{CONFIG_LIMIT, read_bounded};
use serde_json::Value;
use std::path::PathBuf;

/// Credentials for one registry (never printed: `Debug` shows only the user name and the
/// registry). Used for no other registry: a client handed credentials for another one
/// talks anonymously.
#[derive(Clone, Default)]
pub struct Credentials {
    basic: Option<(String, String)>,
    /// The registry (`host[:port]`) they are for.
    pub(crate) registry: String,
    /// Where they came from (a file or a variable), for messages.
    pub(crate) source: String,
    /// A token service origin elsewhere that may receive them (`HOOKHOST_REGISTRY_REALM`).
    pub(crate) realm: Option<String>,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.basic {
            Some((user, _)) => write!(f, "Credentials({user}:*** for {})", self.registry),
            None => f.write_str("Credentials(anonymous)"),
        }
    }
}

impl Credentials {
    /// No credentials.
    pub fn anonymous() -> Credentials {
        Credentials::default()
    }

    /// `user`/`password` for `registry` only; `source` says where they came from.
    pub fn basic(registry: &str, user: String, password: String, source: String) -> Credentials {
        Credentials {
            basic: Some((user, password)),
            registry: registry.to_string(),
            source,
            realm: None,
        }
    }

    /// Lets the token service at `origin` (a URL) receive them too.
    pub fn with_realm(mut self, origin: Option<String>) -> Credentials {
        self.realm = origin;
        self
    }

    /// Whether there are none.
    pub fn is_anonymous(&self) -> bool {
        self.basic.is_none()
    }

    /// Where they came from (empty when anonymous).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The user and password, for `r`'s registry only.
    pub(crate) fn basic_for(&self, r: &OciRef) -> Option<(&str, &str)> {
        match &self.basic {
            Some((u, p)) if same_registry(&self.registry, &r.registry) => {
                Some((u.as_str(), p.as_str()))
            }
            _ => None,
        }
    }
}

/// The user name variable.
pub const USERNAME_ENV: &str = "HOOKHOST_REGISTRY_USERNAME";
/// The password (or token) variable.
pub const PASSWORD_ENV: &str = "HOOKHOST_REGISTRY_PASSWORD";
/// The one registry (`host[:port]`) the two variables above are for.
pub const HOST_ENV: &str = "HOOKHOST_REGISTRY_HOST";
/// A token service on another origin (`https://auth.example.com`) that may receive the
/// credentials of the registry that names it (Docker Hub's and GitLab's are elsewhere).
pub const REALM_ENV: &str = "HOOKHOST_REGISTRY_REALM";

/// docker's `config.json`.
pub fn docker_config_path() -> Option<PathBuf> {
    match std::env::var_os("DOCKER_CONFIG").filter(|v| !v.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir).join("config.json")),
        None => dirs::home_dir().map(|h| h.join(".docker").join("config.json")),
    }
}

/// Whether two `host[:port]`s are the same registry (host names compare without case).
pub fn same_registry(a: &str, b: &str) -> bool {
    let a = a.trim().trim_end_matches('/');
    let b = b.trim().trim_end_matches('/');
    let port = |s: &str| {
        let host = host_of(s);
        s[s.find(host).map_or(0, |i| i + host.len())..]
            .trim_start_matches(']')
            .to_string()
    };
    host_of(a).eq_ignore_ascii_case(host_of(b)) && port(a) == port(b)
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The credentials for `registry` (`host[:port]`): anonymous when none are configured for it.
pub fn for_registry(registry: &str) -> Result<Credentials, String> {
    let realm = var(REALM_ENV);
    match (var(USERNAME_ENV), var(PASSWORD_ENV)) {
        (Some(u), Some(p)) => {
            let Some(host) = var(HOST_ENV) else {
                return Err(format!(
                    "{USERNAME_ENV} and {PASSWORD_ENV} are set but {HOST_ENV} is not: set {HOST_ENV} to the registry they are for (host[:port], e.g. ghcr.io); hookhost sends them to that registry only, never to one a project names"
                ));
            };
            if same_registry(&host, registry) {
                return Ok(Credentials::basic(registry, u, p, HOST_ENV.into()).with_realm(realm));
            }
        }
        (Some(_), None) | (None, Some(_)) => {
            return Err(format!(
                "set both {USERNAME_ENV} and {PASSWORD_ENV} (with {HOST_ENV}), or neither"
            ));
        }
        (None, None) => {}
    }
    let Some(path) = docker_config_path() else {
        return Ok(Credentials::anonymous());
    };
    let bytes = match read_bounded(&path, CONFIG_LIMIT) {
        Ok(b) => b,
        Err(e) if e.is_not_found() => return Ok(Credentials::anonymous()),
        Err(e) => return Err(format!("docker config: {e}")),
    };
    let doc: Value = serde_json::from_slice(&bytes)
        .map_err(|_| format!("{}: not valid JSON; fix or move it", path.display()))?;
    let auths = doc.get("auths").and_then(Value::as_object);
    let entry = auths.and_then(|a| {
        a.iter().find_map(|(key, v)| {
            let k = key
                .strip_prefix("https://")
                .or_else(|| key.strip_prefix("http://"))
                .unwrap_or(key)
                .trim_end_matches('/');
            same_registry(k, registry).then_some(v)
        })
    });
    let Some(entry) = entry else {
        return Ok(Credentials::anonymous());
    };
    let source = path.display().to_string();
    if let (Some(u), Some(p)) = (
        entry.get("username").and_then(Value::as_str),
        entry.get("password").and_then(Value::as_str),
    ) {
        return Ok(Credentials::basic(registry, u.into(), p.into(), source).with_realm(realm));
    }
    let Some(auth) = entry
        .get("auth")
        .and_then(Value::as_str)
        .filter(|a| !a.is_empty())
    else {
        return Ok(Credentials::anonymous());
    };
    let malformed = || {
        format!(
            "{}: the `auth` of {registry} is not base64 of user:password; run `docker login {registry}` again",
            path.display()
        )
    };
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(auth.trim())
        .map_err(|_| malformed())?;
    let text = String::from_utf8(decoded).map_err(|_| malformed())?;
    let (u, p) = text.split_once(':').ok_or_else(malformed)?;
    Ok(Credentials::basic(registry, u.into(), p.into(), source).with_realm(realm))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registries_compare_by_host_without_case_and_by_port() {
        assert!(same_registry("ghcr.io", "GHCR.io"));
        assert!(same_registry("127.0.0.1:5000", "127.0.0.1:5000"));
        assert!(!same_registry("127.0.0.1:5000", "127.0.0.1:5001"));
        assert!(!same_registry("127.0.0.1:5000", "127.0.0.1"));
        assert!(!same_registry("ghcr.io", "ghcr.io.evil.example"));
        assert!(!same_registry("evil.ghcr.io", "ghcr.io"));
        assert!(same_registry("[::1]:5000", "[::1]:5000"));
        assert!(!same_registry("[::1]:5000", "[::1]:5001"));
    }
}
