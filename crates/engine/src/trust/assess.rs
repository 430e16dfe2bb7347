//! Comparing a project's hooks with what was trusted ([`TrustStore::assess`]): the config's
//! hash, each wasm module's, each script a shell hook runs, and the hook packages approved by
//! digest. What is new or changed is a [`TrustChange`]; what still holds becomes the pins the
//! runner checks at run time.

use super::grant::{PackageGrant, package_args};
use super::scripts::{ScriptPins, hash_file, scripts_named};
use super::store::{ProjectPin, TrustFile, TrustStore};
use crate::config::{
    ConfigPaths, Handler, Hook, HookId, HookSet, ModuleSource, PackageModule, Scope, WasmLimits,
};
use crate::files::SCRIPT_LIMIT;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};

/// One thing that is not (or no longer) trusted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrustChange {
    /// The file: the project's hooks.json, a wasm module or a script a shell hook names.
    pub file: PathBuf,
    /// Never trusted, or different from what was trusted.
    pub change: ChangeKind,
    /// The hooks this affects.
    pub hooks: Vec<HookId>,
}

/// How a file differs from what was trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ChangeKind {
    /// Never trusted.
    New,
    /// Different from what was trusted.
    Changed,
    /// A wasm module a project hook names that does not exist: not a trust question (there
    /// is nothing to review), never pinned, and the hook fails with "cannot read wasm module
    /// ...: no such file" until the file is there; then it is new. Only in
    /// [`TrustAssessment::missing`].
    Missing,
}

impl std::fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `A, B, C` for a list of hooks.
pub fn join_ids(ids: &[HookId]) -> String {
    ids.iter()
        .map(HookId::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl ChangeKind {
    fn of(recorded: bool) -> Self {
        if recorded {
            ChangeKind::Changed
        } else {
            ChangeKind::New
        }
    }

    /// `new` or `changed`.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::New => "new",
            ChangeKind::Changed => "changed",
            ChangeKind::Missing => "missing",
        }
    }
}

/// The trust state of one project's hooks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustAssessment {
    /// The untrusted project hooks.
    pub untrusted: HashSet<HookId>,
    /// Why they are untrusted: one entry per new or changed file, with the hooks it affects.
    pub changes: Vec<TrustChange>,
    /// Trusted wasm modules and the SHA-256 they were trusted with: the spawner refuses to
    /// run a module whose bytes, read once at run time, hash to anything else.
    pub module_pins: BTreeMap<PathBuf, String>,
    /// Trusted scripts and their SHA-256, re-checked before each run of a shell hook.
    pub script_pins: ScriptPins,
    /// Wasm modules named by project hooks that do not exist: named by `hookhost trust`,
    /// never recorded.
    pub missing: Vec<TrustChange>,
    pub(super) pin: Option<(PathBuf, ProjectPin)>,
    /// The hook packages (digest hex, grants) that trusting the project approves.
    pub(super) packages: Vec<(String, PackageGrant)>,
}

impl TrustStore {
    /// Compares the project's hooks with what was trusted. The config's hash is the hash of
    /// the bytes the hooks were parsed from (`HookSet::file_hashes`), never a second read.
    pub fn assess(&self, paths: &ConfigPaths, hooks: &HookSet) -> TrustAssessment {
        let project_hooks: Vec<&Hook> = hooks
            .all()
            .map(|h| &**h)
            .filter(|h| h.scope == Scope::Project)
            .collect();
        if project_hooks.is_empty() {
            return TrustAssessment::default();
        }
        let config = config_hash(paths, hooks, &project_hooks);
        let key = paths.project_dir.clone();
        let pinned = self.file.projects.get(&key);
        let mut run = Assessing {
            trusted: &self.file,
            pinned,
            config_ok: pinned.is_some_and(|p| p.config == config),
            project: &paths.project_dir,
            a: TrustAssessment::default(),
            pin: ProjectPin {
                config,
                ..ProjectPin::default()
            },
        };
        run.a.script_pins.project = key.clone();
        if !run.config_ok {
            // One change per file the project's hooks come from (its own hooks.json, and
            // other agents' files such as `.claude/settings.json`), in load order; an
            // approved package needs no new approval.
            let unapproved: Vec<&Hook> = project_hooks
                .iter()
                .copied()
                .filter(|h| !run.approved_package(h))
                .collect();
            for h in unapproved {
                run.note(&h.file, pinned.is_some(), h.id());
                if let Handler::Mcp { server, .. } = &h.handler
                    && server.scope == Scope::Project
                    && server.defined_in != h.file
                {
                    run.note(&server.defined_in, pinned.is_some(), h.id());
                }
            }
        }
        for h in &project_hooks {
            run.hook(h);
        }
        let Assessing { mut a, pin, .. } = run;
        a.pin = Some((key, pin));
        a
    }
}

/// The hash trust pins for the project's config: its hooks.json's, and that of every other
/// agent's project file (`.claude/settings.json`, ...) its hooks come from, so editing any
/// of them makes their hooks untrusted again.
fn config_hash(paths: &ConfigPaths, hooks: &HookSet, project_hooks: &[&Hook]) -> String {
    let mut config_hash = hooks
        .file_hashes
        .get(&paths.project_file)
        .cloned()
        .unwrap_or_default();
    let foreign: BTreeSet<&PathBuf> = project_hooks
        .iter()
        .map(|h| &h.file)
        .filter(|f| **f != paths.project_file)
        .collect();
    for file in foreign {
        let hash = hooks.file_hashes.get(file).cloned().unwrap_or_default();
        config_hash.push_str(&format!(";{}={hash}", file.display()));
    }
    // The definitions of the project's MCP servers its hooks call (`.mcp.json`, Codex's
    // `config.toml`): editing one makes the hooks that call it untrusted again.
    let servers: BTreeSet<(String, String, String)> = project_hooks
        .iter()
        .filter_map(|h| match &h.handler {
            Handler::Mcp { server, .. } if server.scope == Scope::Project => Some((
                server.defined_in.display().to_string(),
                server.name.clone(),
                server.fingerprint(),
            )),
            _ => None,
        })
        .collect();
    for (file, name, definition) in servers {
        let hash = crate::files::sha256_hex(definition.as_bytes());
        config_hash.push_str(&format!(";mcp:{file}#{name}={hash}"));
    }
    config_hash
}

/// One assessment in progress: what was trusted, and what is found so far.
struct Assessing<'a> {
    trusted: &'a TrustFile,
    /// What was trusted for this project, if anything.
    pinned: Option<&'a ProjectPin>,
    /// The config is the one trusted.
    config_ok: bool,
    project: &'a Path,
    a: TrustAssessment,
    /// What trusting the project now would record.
    pin: ProjectPin,
}

impl Assessing<'_> {
    /// A hook package's identity is its digest: approved once (with these grants or wider),
    /// it needs no approval in any project, whatever else the config says. Its arguments are
    /// part of what was approved (`PackageGrant::args`).
    fn approved_package(&self, h: &Hook) -> bool {
        match &h.handler {
            Handler::Wasm {
                module: ModuleSource::Package(package),
                limits,
                argv,
                ..
            } => self
                .trusted
                .packages
                .get(package.digest().hex())
                .is_some_and(|g| g.covers(limits.fs, &limits.env, package_args(argv))),
            _ => false,
        }
    }

    /// `id` is untrusted because of `file` (new, or changed when `recorded`).
    fn note(&mut self, file: &Path, recorded: bool, id: HookId) {
        self.a.untrusted.insert(id);
        match self.a.changes.iter_mut().find(|c| c.file == file) {
            Some(c) => c.hooks.push(id),
            None => self.a.changes.push(TrustChange {
                file: file.to_path_buf(),
                change: ChangeKind::of(recorded),
                hooks: vec![id],
            }),
        }
    }

    fn hook(&mut self, h: &Hook) {
        match &h.handler {
            Handler::Wasm {
                module: ModuleSource::Package(package),
                limits,
                argv,
                ..
            } => self.package(h, package, limits, argv),
            Handler::Wasm {
                module: ModuleSource::File(module),
                ..
            } => self.module_file(h, module),
            Handler::Shell { command, .. } | Handler::Exec { command, .. } => {
                self.scripts(h, command);
            }
            Handler::Http { .. } | Handler::Model { .. } => {}
            // A project's stdio server is project code: the scripts its command line names
            // are pinned like a shell hook's (its definition is in the config hash).
            Handler::Mcp { server, .. } => {
                if let (Scope::Project, Some(line)) = (server.scope, server.command_line()) {
                    self.scripts(h, &line);
                }
            }
        }
    }

    /// A package is pinned by digest (the runner checks the bytes against it at run time);
    /// trusting the project approves it with the grants and arguments it is given here.
    fn package(&mut self, h: &Hook, package: &PackageModule, limits: &WasmLimits, argv: &[String]) {
        let digest = package.digest().hex();
        if !self.approved_package(h) {
            let known = self.trusted.packages.contains_key(digest);
            self.note(package.path(), known, h.id());
        }
        let grant = PackageGrant {
            fs: limits.fs,
            env: limits.env.clone(),
            args: vec![package_args(argv).to_vec()],
        };
        self.a.packages.push((digest.to_string(), grant));
    }

    /// A module file is trusted with the hash it has now.
    fn module_file(&mut self, h: &Hook, module: &Path) {
        // A module that is not there is not pinned (an empty hash would be "changed" at
        // every later `hookhost trust`, a loop): the hook fails saying the file is missing.
        if matches!(module.try_exists(), Ok(false)) {
            match self.a.missing.iter_mut().find(|m| m.file == module) {
                Some(m) => m.hooks.push(h.id()),
                None => self.a.missing.push(TrustChange {
                    file: module.to_path_buf(),
                    change: ChangeKind::Missing,
                    hooks: vec![h.id()],
                }),
            }
            return;
        }
        // Through the source index: an unchanged module is not read again (its stat stamp
        // gives the hash it had; SECURITY.md, "compiled-code cache").
        let hash = crate::spawner::wasm::module_sha256(module);
        self.pin.modules.insert(module.to_path_buf(), hash.clone());
        let recorded = self.pinned.and_then(|p| p.modules.get(module));
        if recorded == Some(&hash) && !hash.is_empty() {
            if self.config_ok {
                self.a.module_pins.insert(module.to_path_buf(), hash);
            }
        } else {
            let recorded = recorded.is_some();
            self.note(module, recorded, h.id());
        }
    }

    /// Each script a shell hook runs is trusted with the hash it has now.
    fn scripts(&mut self, h: &Hook, command: &str) {
        for script in scripts_named(command, &h.cwd, self.project) {
            let hash = hash_file(&script, SCRIPT_LIMIT);
            let recorded = self.pinned.and_then(|p| p.scripts.get(&script));
            // An unreadable (or oversized) script hashes to nothing, which must never match:
            // it would stay "trusted" whatever it becomes.
            if recorded != Some(&hash) || hash.is_empty() {
                let recorded = recorded.is_some();
                self.note(&script, recorded, h.id());
            } else if self.config_ok {
                self.a
                    .script_pins
                    .files
                    .insert(script.clone(), hash.clone());
            }
            self.pin.scripts.insert(script, hash);
        }
    }
}
