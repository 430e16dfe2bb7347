//! Registry credentials, from the usual places, in order: `HOOKHOST_REGISTRY_USERNAME` and
//! `HOOKHOST_REGISTRY_PASSWORD` (both set: used for every registry), then docker's
//! `config.json` (`$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`): the `auths`
//! entry of the registry (`auth` = base64 `user:password`, or `username`/`password`), keyed
//! by `host:port` with or without `https://`/`http://`. Credential helpers (`credsStore`)
//! are not run. Nothing here logs a secret; a malformed file is an error naming it, never
//! its content.

use super::registry::Credentials;
use crate::hooks::files::{CONFIG_LIMIT, read_bounded};
use base64::Engine;
use serde_json::Value;
use std::path::PathBuf;

/// The user name variable.
pub const USERNAME_ENV: &str = "HOOKHOST_REGISTRY_USERNAME";
/// The password (or token) variable.
pub const PASSWORD_ENV: &str = "HOOKHOST_REGISTRY_PASSWORD";

/// docker's `config.json`.
pub fn docker_config_path() -> Option<PathBuf> {
    match std::env::var_os("DOCKER_CONFIG").filter(|v| !v.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir).join("config.json")),
        None => dirs::home_dir().map(|h| h.join(".docker").join("config.json")),
    }
}

/// The credentials for `registry` (`host[:port]`): anonymous when none are configured.
pub fn for_registry(registry: &str) -> Result<Credentials, String> {
    let user = std::env::var(USERNAME_ENV).ok().filter(|v| !v.is_empty());
    let pass = std::env::var(PASSWORD_ENV).ok().filter(|v| !v.is_empty());
    match (user, pass) {
        (Some(u), Some(p)) => {
            return Ok(Credentials {
                basic: Some((u, p)),
            });
        }
        (Some(_), None) | (None, Some(_)) => {
            return Err(format!(
                "set both {USERNAME_ENV} and {PASSWORD_ENV}, or neither"
            ));
        }
        (None, None) => {}
    }
    let Some(path) = docker_config_path() else {
        return Ok(Credentials::default());
    };
    let bytes = match read_bounded(&path, CONFIG_LIMIT) {
        Ok(b) => b,
        Err(e) if e.is_not_found() => return Ok(Credentials::default()),
        Err(e) => return Err(format!("docker config: {e}")),
    };
    let doc: Value = serde_json::from_slice(&bytes)
        .map_err(|_| format!("{}: not valid JSON; fix or move it", path.display()))?;
    let auths = doc.get("auths").and_then(Value::as_object);
    let entry = auths.and_then(|a| {
        [
            registry.to_string(),
            format!("https://{registry}"),
            format!("http://{registry}"),
        ]
        .iter()
        .find_map(|k| a.get(k).or_else(|| a.get(&format!("{k}/"))))
    });
    let Some(entry) = entry else {
        return Ok(Credentials::default());
    };
    if let (Some(u), Some(p)) = (
        entry.get("username").and_then(Value::as_str),
        entry.get("password").and_then(Value::as_str),
    ) {
        return Ok(Credentials {
            basic: Some((u.to_string(), p.to_string())),
        });
    }
    let Some(auth) = entry
        .get("auth")
        .and_then(Value::as_str)
        .filter(|a| !a.is_empty())
    else {
        return Ok(Credentials::default());
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
    Ok(Credentials {
        basic: Some((u.to_string(), p.to_string())),
    })
}
