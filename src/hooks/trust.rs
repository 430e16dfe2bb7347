//! Trust pinning of project hooks (a cloned repository must not run code just because it
//! ships a `.coding-agent/hooks.json`).
//!
//! `~/.coding-agent/trusted.json` records, per project directory, the SHA-256 of its
//! hooks.json and of every wasm module it names. A project hook is trusted when the config
//! and (for a wasm hook) its module still have the recorded hashes; global hooks, which the
//! user wrote, are always trusted. `hookhost trust` shows what is new or changed and records
//! it. What an untrusted hook may do is the embedder's [`TrustPolicy`]:
//!
//! | policy | untrusted shell / http hook | untrusted wasm hook |
//! |---|---|---|
//! | `all` (CLI default) | runs (the CLI warns once per hook) | runs |
//! | `skip` | skipped, with a warning | runs sandboxed; only a block counts |
//! | `block` | PreToolUse: blocks the call; elsewhere skipped | runs sandboxed; only a block counts |
//!
//! Why wasm hooks still run: the sandbox keeps them from touching anything outside the
//! project or the network, and under `skip`/`block` their output is reduced to "pass or
//! block", so an untrusted module can neither rewrite a tool call, nor inject text into the
//! model's context, nor force the agent on. Blocking is the conservative direction.

use super::config::{ConfigPaths, Handler, HookSet, Scope};
use super::spawner::wasm::cache::sha256_hex;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// What to do with untrusted project hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TrustPolicy {
    /// Run them (existing setups keep working).
    #[default]
    All,
    /// Do not run untrusted shell/http hooks.
    Skip,
    /// Fail closed: an untrusted shell/http PreToolUse hook blocks the call.
    Block,
}

impl FromStr for TrustPolicy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "all" => Ok(TrustPolicy::All),
            "skip" => Ok(TrustPolicy::Skip),
            "block" => Ok(TrustPolicy::Block),
            other => Err(format!(
                "unknown trust policy {other:?}; use all, skip or block"
            )),
        }
    }
}

/// The environment variable that sets the CLI's policy when `--trust` is not given.
pub const TRUST_ENV: &str = "HOOKHOST_TRUST";

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ProjectPin {
    config: String,
    #[serde(default)]
    modules: BTreeMap<PathBuf, String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct TrustFile {
    version: u32,
    #[serde(default)]
    projects: BTreeMap<PathBuf, ProjectPin>,
}

/// One thing that is not (or no longer) trusted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrustChange {
    /// The file: the project's hooks.json or a wasm module.
    pub file: PathBuf,
    /// `new` (never trusted) or `changed` (differs from what was trusted).
    pub change: &'static str,
    /// The hooks this affects, as `Event[index]`.
    pub hooks: Vec<String>,
}

/// The trust state of one project's hooks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustAssessment {
    /// Labels (`PreToolUse[0]`) of untrusted project hooks.
    pub untrusted: HashSet<String>,
    pub changes: Vec<TrustChange>,
    pin: Option<(PathBuf, ProjectPin)>,
}

/// `~/.coding-agent/trusted.json`.
#[derive(Debug, Clone)]
pub struct TrustStore {
    path: Option<PathBuf>,
    file: TrustFile,
}

impl TrustStore {
    /// Reads the store of `home` (no home: an empty store that cannot be saved). A missing
    /// file is empty; an unreadable or malformed one is an error that says which file.
    pub fn load(home: Option<&Path>) -> Result<TrustStore, String> {
        let path = home.map(|h| h.join(".coding-agent/trusted.json"));
        let file = match &path {
            None => TrustFile::default(),
            Some(p) => match std::fs::read_to_string(p) {
                Ok(text) => serde_json::from_str(&text).map_err(|e| {
                    format!(
                        "{}: not a valid trust file ({e}); delete it and run `hookhost trust` again",
                        p.display()
                    )
                })?,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => TrustFile::default(),
                Err(e) => return Err(format!("{}: cannot read: {e}", p.display())),
            },
        };
        Ok(TrustStore { path, file })
    }

    /// Compares the project's hooks with what was trusted.
    pub fn assess(&self, paths: &ConfigPaths, hooks: &HookSet) -> TrustAssessment {
        let project_hooks: Vec<_> = hooks.all().filter(|h| h.scope == Scope::Project).collect();
        let mut a = TrustAssessment::default();
        if project_hooks.is_empty() {
            return a;
        }
        let config_hash = std::fs::read(&paths.project_file)
            .map(|b| sha256_hex(&b))
            .unwrap_or_default();
        let key = paths.project_dir.clone();
        let pinned = self.file.projects.get(&key);
        let mut pin = ProjectPin {
            config: config_hash.clone(),
            modules: BTreeMap::new(),
        };
        let config_ok = pinned.is_some_and(|p| p.config == config_hash);
        if !config_ok {
            a.changes.push(TrustChange {
                file: paths.project_file.clone(),
                change: if pinned.is_some() { "changed" } else { "new" },
                hooks: project_hooks.iter().map(|h| h.label()).collect(),
            });
            a.untrusted.extend(project_hooks.iter().map(|h| h.label()));
        }
        for h in &project_hooks {
            let Handler::Wasm { module, .. } = &h.handler else {
                continue;
            };
            let hash = std::fs::read(module)
                .map(|b| sha256_hex(&b))
                .unwrap_or_default();
            pin.modules.insert(module.clone(), hash.clone());
            let recorded = pinned.and_then(|p| p.modules.get(module));
            if recorded != Some(&hash) {
                a.untrusted.insert(h.label());
                match a.changes.iter_mut().find(|c| &c.file == module) {
                    Some(c) => c.hooks.push(h.label()),
                    None => a.changes.push(TrustChange {
                        file: module.clone(),
                        change: if recorded.is_some() { "changed" } else { "new" },
                        hooks: vec![h.label()],
                    }),
                }
            }
        }
        a.pin = Some((key, pin));
        a
    }

    /// Records the project's current hooks as trusted and saves the file.
    pub fn trust(&mut self, assessment: &TrustAssessment) -> Result<(), String> {
        let Some((key, pin)) = &assessment.pin else {
            return Ok(());
        };
        self.file.version = 1;
        self.file.projects.insert(key.clone(), pin.clone());
        let Some(path) = &self.path else {
            return Err("no home directory: cannot record trust".into());
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let text = serde_json::to_string_pretty(&self.file).unwrap_or_default();
        std::fs::write(path, text + "\n")
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))
    }
}
