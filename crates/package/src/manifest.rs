//! A hook's manifest: what a packed `.wasm` says about itself (name, version, events, the
//! capabilities it asks for), read from `hook.json` by `hookhost pack` and from the
//! `hookhost:manifest` section of a packed module by everything else.
//!
//! The manifest asks; the config grants. Nothing here gives a hook anything: `hookhost add`
//! shows the request and writes it into `hooks.json` as grants the user approved, and at run
//! time only the config counts ([`Capabilities::exceeds`] is what `check` reports). The
//! schema is `schema/hook-manifest.schema.json`.

use hookhost::Event;
use hookhost::config::{FsAccess, MAX_MEMORY_MIB, MAX_TIMEOUT_MS};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// Largest manifest accepted, in bytes (in `hook.json` or in a section).
pub const MANIFEST_LIMIT: usize = 64 << 10;

/// A hook's manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    /// The hook's name: lowercase letters, digits, `-` and `_`.
    pub name: String,
    /// Its version (free text, semver recommended).
    pub version: String,
    /// What it does, in a sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Who wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// Its licence (an SPDX expression).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// The language it was written in (informational; `hookhost new` writes it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// The events it is meant for (at least one).
    pub events: Vec<String>,
    /// The default `match` (tool-name regex) for PreToolUse/PostToolUse.
    #[serde(default, rename = "match", skip_serializing_if = "Option::is_none")]
    pub matcher: Option<String>,
    /// What it asks to be granted.
    #[serde(default)]
    pub capabilities: Capabilities,
    /// Keys hookhost does not know (kept out of the packed manifest; `pack` warns).
    #[serde(flatten, skip_serializing)]
    pub unknown: BTreeMap<String, Value>,
}

/// The grants a hook asks for. Absent means "nothing special": no filesystem, no
/// environment, the default memory cap and timeout.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Capabilities {
    /// Project directory access: `none` (default), `read` or `write`.
    #[serde(default = "fs_none")]
    pub fs: FsAccess,
    /// Host environment variables it wants to read.
    #[serde(default)]
    pub env: Vec<String>,
    /// Memory cap in MiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<u64>,
    /// Timeout in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u64>,
    /// Fuel budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuel: Option<u64>,
}

fn fs_none() -> FsAccess {
    FsAccess::None
}

/// What a config grants a hook, to compare with what its manifest asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grants {
    /// `fs`.
    pub fs: FsAccess,
    /// `env`.
    pub env: Vec<String>,
    /// `memory`, MiB.
    pub memory: u64,
    /// `timeout`, ms.
    pub timeout: u64,
    /// `fuel`.
    pub fuel: Option<u64>,
}

/// Why a manifest is not valid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ManifestError(pub String);

fn fs_rank(fs: FsAccess) -> u8 {
    match fs {
        FsAccess::None => 0,
        FsAccess::Read => 1,
        FsAccess::Write => 2,
    }
}

/// `none`, `read` or `write`.
pub fn fs_name(fs: FsAccess) -> &'static str {
    match fs {
        FsAccess::None => "none",
        FsAccess::Read => "read",
        FsAccess::Write => "write",
    }
}

impl Capabilities {
    /// What the manifest asks beyond `grants`, one sentence each (empty: the config grants
    /// at least as much as asked).
    pub fn exceeds(&self, grants: &Grants) -> Vec<String> {
        let mut out = Vec::new();
        if fs_rank(self.fs) > fs_rank(grants.fs) {
            out.push(format!(
                "asks for fs: {} but the config grants fs: {}",
                fs_name(self.fs),
                fs_name(grants.fs)
            ));
        }
        let missing: Vec<_> = self
            .env
            .iter()
            .filter(|e| !grants.env.contains(e))
            .cloned()
            .collect();
        if !missing.is_empty() {
            out.push(format!(
                "asks for env {} which the config does not pass",
                missing.join(", ")
            ));
        }
        if let Some(m) = self.memory.filter(|m| *m > grants.memory) {
            out.push(format!(
                "asks for memory: {m} MiB but the config caps it at {} MiB",
                grants.memory
            ));
        }
        if let Some(t) = self.timeout.filter(|t| *t > grants.timeout) {
            out.push(format!(
                "asks for timeout: {t} ms but the config allows {} ms",
                grants.timeout
            ));
        }
        if let (Some(f), Some(g)) = (self.fuel, grants.fuel)
            && f > g
        {
            out.push(format!("asks for fuel: {f} but the config allows {g}"));
        }
        out
    }

    /// One line per capability, for `inspect` and `add`.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!(
            "fs: {}{}",
            fs_name(self.fs),
            if self.fs == FsAccess::Write {
                "  (WRITES TO YOUR PROJECT)"
            } else {
                ""
            }
        )];
        out.push(format!(
            "env: {}",
            if self.env.is_empty() {
                "none".to_string()
            } else {
                self.env.join(", ")
            }
        ));
        if let Some(m) = self.memory {
            out.push(format!("memory: {m} MiB"));
        }
        if let Some(t) = self.timeout {
            out.push(format!("timeout: {t} ms"));
        }
        if let Some(f) = self.fuel {
            out.push(format!("fuel: {f}"));
        }
        out
    }

    /// What changed from `old` to `self`, capabilities that grow first and loudest.
    pub fn diff(&self, old: &Capabilities) -> Vec<String> {
        let mut out = Vec::new();
        if self.fs != old.fs {
            let loud = if self.fs == FsAccess::Write {
                "  <-- NOW WANTS TO WRITE TO YOUR PROJECT"
            } else {
                ""
            };
            out.push(format!(
                "fs: {} -> {}{loud}",
                fs_name(old.fs),
                fs_name(self.fs)
            ));
        }
        let added: Vec<_> = self
            .env
            .iter()
            .filter(|e| !old.env.contains(e))
            .cloned()
            .collect();
        let removed: Vec<_> = old
            .env
            .iter()
            .filter(|e| !self.env.contains(e))
            .cloned()
            .collect();
        if !added.is_empty() {
            out.push(format!("env: + {}", added.join(", ")));
        }
        if !removed.is_empty() {
            out.push(format!("env: - {}", removed.join(", ")));
        }
        let num = |name: &str, a: Option<u64>, b: Option<u64>, out: &mut Vec<String>| {
            if a != b {
                let show = |v: Option<u64>| v.map_or("default".to_string(), |v| v.to_string());
                out.push(format!("{name}: {} -> {}", show(a), show(b)));
            }
        };
        num("memory", old.memory, self.memory, &mut out);
        num("timeout", old.timeout, self.timeout, &mut out);
        num("fuel", old.fuel, self.fuel, &mut out);
        out
    }
}

impl Manifest {
    /// Parses and validates a manifest's JSON text.
    pub fn from_json(bytes: &[u8]) -> Result<Manifest, ManifestError> {
        if bytes.len() > MANIFEST_LIMIT {
            return Err(ManifestError(format!(
                "the manifest is larger than {} KiB",
                MANIFEST_LIMIT >> 10
            )));
        }
        let m: Manifest = serde_json::from_slice(bytes).map_err(|e| {
            ManifestError(format!(
                "invalid manifest at line {}, column {}: {e}",
                e.line(),
                e.column()
            ))
        })?;
        m.validate()?;
        Ok(m)
    }

    /// The compact JSON stored in the section (unknown keys dropped).
    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Checks every field's content, not only its type.
    pub fn validate(&self) -> Result<(), ManifestError> {
        self.validate_identity()?;
        self.validate_text()?;
        self.validate_events()?;
        self.capabilities.validate()
    }

    /// `name` and `version`.
    fn validate_identity(&self) -> Result<(), ManifestError> {
        let name_ok = !self.name.is_empty()
            && self.name.len() <= 64
            && self
                .name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        if !name_ok {
            return bad(format!(
                "`name` {:?} must be 1 to 64 lowercase letters, digits, `-` or `_`",
                self.name
            ));
        }
        if self.version.is_empty()
            || self.version.len() > 64
            || self.version.chars().any(char::is_control)
        {
            return bad(format!(
                "`version` {:?} must be a short, non-empty string like \"0.1.0\"",
                self.version
            ));
        }
        Ok(())
    }

    /// The free-text fields, shown on the user's terminal before they approve: no escape
    /// sequences, no line breaks that could fake a capability line.
    fn validate_text(&self) -> Result<(), ManifestError> {
        let unfit = |s: &String| s.len() > 1024 || s.chars().any(char::is_control);
        for (key, v) in [
            ("description", &self.description),
            ("author", &self.author),
            ("license", &self.license),
            ("language", &self.language),
        ] {
            if v.as_ref().is_some_and(unfit) {
                return bad(format!(
                    "`{key}` must be one line of at most 1024 characters, without control characters"
                ));
            }
        }
        if self.matcher.as_ref().is_some_and(unfit) {
            return bad(
                "`match` must be one line of at most 1024 characters, without control characters"
                    .into(),
            );
        }
        Ok(())
    }

    /// `events` (at least one, each known) and `match` (a regex, on a tool event).
    fn validate_events(&self) -> Result<(), ManifestError> {
        if self.events.is_empty() {
            return bad("`events` must name at least one event, e.g. [\"PreToolUse\"]".into());
        }
        let mut tool_event = false;
        for e in &self.events {
            let event: Event = e
                .parse()
                .map_err(|err| ManifestError(format!("`events`: {err}")))?;
            tool_event |= event.takes_tool_matcher();
        }
        if let Some(m) = &self.matcher {
            if !tool_event {
                return bad("`match` applies to PreToolUse/PostToolUse only; remove it or add one of them to `events`".into());
            }
            if let Err(e) = regex::Regex::new(m) {
                return bad(format!("`match` is not a valid regex: {e}"));
            }
        }
        Ok(())
    }
}

impl Capabilities {
    /// `env` names, and `memory`, `timeout` and `fuel` within their bounds.
    fn validate(&self) -> Result<(), ManifestError> {
        for name in &self.env {
            let ok = !name.is_empty()
                && !name.starts_with(|ch: char| ch.is_ascii_digit())
                && name
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
            if !ok {
                return bad(format!(
                    "`capabilities.env`: {name:?} is not an environment variable name"
                ));
            }
        }
        if self
            .memory
            .is_some_and(|m| !(1..=MAX_MEMORY_MIB).contains(&m))
        {
            return bad(format!(
                "`capabilities.memory` must be between 1 and {MAX_MEMORY_MIB} MiB"
            ));
        }
        if self
            .timeout
            .is_some_and(|t| !(1..=MAX_TIMEOUT_MS).contains(&t))
        {
            return bad(format!(
                "`capabilities.timeout` must be between 1 and {MAX_TIMEOUT_MS} ms"
            ));
        }
        if self.fuel == Some(0) {
            return bad("`capabilities.fuel` must be positive".into());
        }
        Ok(())
    }
}

/// A validation failure saying `message`.
fn bad(message: String) -> Result<(), ManifestError> {
    Err(ManifestError(message))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template() -> &'static str {
        r#"{"name": "guard", "version": "0.1.0", "description": "d", "language": "rust",
            "events": ["PreToolUse"], "match": "bash",
            "capabilities": { "fs": "none", "env": [], "memory": 64, "timeout": 5000 }}"#
    }

    #[test]
    fn the_template_manifest_reads_and_round_trips() {
        let m = Manifest::from_json(template().as_bytes()).unwrap();
        assert_eq!(
            (m.name.as_str(), m.capabilities.memory),
            ("guard", Some(64))
        );
        assert_eq!(Manifest::from_json(&m.to_json()).unwrap(), m);
    }

    #[test]
    fn bad_manifests_say_what_is_wrong() {
        let cases = [
            (
                r#"{"name":"Bad Name","version":"1","events":["Stop"]}"#,
                "name",
            ),
            (r#"{"name":"a","version":"1","events":[]}"#, "events"),
            (r#"{"name":"a","version":"1","events":["Nope"]}"#, "events"),
            (
                r#"{"name":"a","version":"1","events":["Stop"],"match":"x"}"#,
                "match",
            ),
            (
                r#"{"name":"a","version":"1","events":["Stop"],"capabilities":{"fs":"all"}}"#,
                "`all`",
            ),
            (
                r#"{"name":"a","version":"1","events":["Stop"],"capabilities":{"net":true}}"#,
                "net",
            ),
            (
                r#"{"name":"a","version":"1","events":["Stop"],"capabilities":{"env":["A B"]}}"#,
                "env",
            ),
            (
                r#"{"name":"a","version":"1","events":["Stop"],"description":"ok\n    fs: none"}"#,
                "description",
            ),
            (
                r#"{"name":"a","version":"1","events":["Stop"],"author":"\u001b[2J"}"#,
                "author",
            ),
        ];
        for (text, word) in cases {
            let e = Manifest::from_json(text.as_bytes()).unwrap_err();
            assert!(e.0.contains(word), "{text}: {e}");
        }
    }

    #[test]
    fn the_config_wins_and_the_excess_is_named() {
        let asks = Capabilities {
            fs: FsAccess::Write,
            env: vec!["TOKEN".into()],
            memory: Some(512),
            timeout: Some(1000),
            fuel: None,
        };
        let grants = Grants {
            fs: FsAccess::Read,
            env: vec![],
            memory: 128,
            timeout: 5000,
            fuel: None,
        };
        let over = asks.exceeds(&grants);
        assert_eq!(over.len(), 3, "{over:?}");
        assert!(over[0].contains("fs: write"));
        let diff = asks.diff(&Capabilities::default());
        assert!(diff[0].contains("NOW WANTS TO WRITE"), "{diff:?}");
    }
}
