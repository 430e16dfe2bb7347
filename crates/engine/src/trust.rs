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
//! | `skip` (the default) | not run (`skipped`), named with the command that reviews it | runs sandboxed; only a block counts |
//! | `all` (explicit) | runs (the CLI warns once per hook) | runs, its answer used in full |
//! | `block` | PreToolUse: blocks the call; elsewhere skipped | runs sandboxed; only a block counts |
//!
//! Why wasm hooks still run: the sandbox keeps them from touching anything outside the
//! project or the network, and under `skip`/`block` their answer keeps only what
//! [`keeps`] allows for [`TrustLevel::Untrusted`] (an allowlist: pass, or block with a fixed
//! reason), so an untrusted module can neither rewrite a tool call, nor stop the agent, nor
//! inject text into the model's context, nor force the agent on. Blocking is the
//! conservative direction.
//!
//! Pins are checked at every event, not only when a runner is built: a trusted shell hook
//! whose script changed since `hookhost trust` is untrusted from its next event on
//! ([`ScriptPins::still_hold`]), in long-lived runners too.

use super::config::{ConfigPaths, Handler, HookId, HookSet, ModuleSource, Scope};
use super::decision::{EffectKind, EffectSet, HookFacts, Judgement, Outcome, Verdict};
use super::files::{
    SCRIPT_LIMIT, TRUST_FILE_LIMIT, read_bounded, read_bounded_nofollow, sha256_hex, write_private,
};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// What to do with untrusted project hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TrustPolicy {
    /// Run them, answers in full (an explicit choice: a cloned repository's hooks then run
    /// as you).
    All,
    /// Do not run untrusted shell/http hooks; run untrusted wasm hooks reduced (the default).
    #[default]
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
    /// Scripts named on trusted shell hooks' command lines (files inside the project).
    #[serde(default)]
    scripts: BTreeMap<PathBuf, String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct TrustFile {
    version: u32,
    #[serde(default)]
    projects: BTreeMap<PathBuf, ProjectPin>,
    /// Hook packages the user approved, by module digest (hex), with the grants approved:
    /// a pinned hook is trusted in any project when its digest is here and its config
    /// grants no more than this.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    packages: BTreeMap<String, PackageGrant>,
}

/// The grants a hook package was approved with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackageGrant {
    /// The widest filesystem access approved.
    pub fs: super::config::FsAccess,
    /// The environment variables approved.
    #[serde(default)]
    pub env: Vec<String>,
    /// The argument lists (`package.args`) approved, each exactly: a package's arguments
    /// steer what it does with its grants (`write .git/config`), so a digest approved with
    /// one list does not cover another. `hookhost add` approves none (`[]`); `hookhost
    /// trust` approves the ones the project's entries pass. Absent in files written before
    /// this field: none.
    #[serde(default = "no_args")]
    pub args: Vec<Vec<String>>,
}

fn no_args() -> Vec<Vec<String>> {
    vec![Vec::new()]
}

impl Default for PackageGrant {
    fn default() -> Self {
        PackageGrant {
            fs: super::config::FsAccess::default(),
            env: Vec::new(),
            args: no_args(),
        }
    }
}

impl PackageGrant {
    /// Whether `fs` and `env` stay within this grant and `args` is an approved list.
    fn covers(&self, fs: super::config::FsAccess, env: &[String], args: &[String]) -> bool {
        self.covers_grants(fs, env) && self.args.iter().any(|a| a == args)
    }

    fn covers_grants(&self, fs: super::config::FsAccess, env: &[String]) -> bool {
        use super::config::FsAccess::{None as NoFs, Read, Write};
        let rank = |f| match f {
            NoFs => 0,
            Read => 1,
            Write => 2,
        };
        rank(fs) <= rank(self.fs) && env.iter().all(|e| self.env.contains(e))
    }

    /// The wider of two grants.
    fn union(&self, other: &PackageGrant) -> PackageGrant {
        let mut env = self.env.clone();
        env.extend(other.env.iter().filter(|e| !self.env.contains(e)).cloned());
        let mut args = self.args.clone();
        args.extend(
            other
                .args
                .iter()
                .filter(|a| !self.args.contains(a))
                .cloned(),
        );
        PackageGrant {
            fs: if self.covers_grants(other.fs, &[]) {
                self.fs
            } else {
                other.fs
            },
            env,
            args,
        }
    }
}

/// A package hook's arguments: its argv past argv[0] (the reference).
fn package_args(argv: &[String]) -> &[String] {
    argv.get(1..).unwrap_or_default()
}

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
pub enum ChangeKind {
    /// Never trusted.
    New,
    /// Different from what was trusted.
    Changed,
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
    pin: Option<(PathBuf, ProjectPin)>,
    /// The hook packages (digest hex, grants) that trusting the project approves.
    packages: Vec<(String, PackageGrant)>,
}

/// The scripts trusted shell hooks run, with the SHA-256 they were trusted with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScriptPins {
    project: PathBuf,
    files: BTreeMap<PathBuf, String>,
}

impl ScriptPins {
    /// Whether the scripts `command` runs from `cwd` are, now, the ones trusted: every file
    /// it names is pinned and still has its pinned hash (read bounded). `Err` names the
    /// first file that is not. Called before every run of a trusted project shell hook, so
    /// an edit after `hookhost trust` is seen at the next event by long-lived runners too.
    pub fn still_hold(&self, command: &str, cwd: &Path) -> Result<(), PathBuf> {
        for script in scripts_named(command, cwd, &self.project) {
            match self.files.get(&script) {
                Some(hash) if *hash == hash_file(&script, SCRIPT_LIMIT) => {}
                _ => return Err(script),
            }
        }
        Ok(())
    }
}

/// `~/.coding-agent/trusted.json`.
#[derive(Debug, Clone)]
pub struct TrustStore {
    path: Option<PathBuf>,
    file: TrustFile,
}

impl TrustStore {
    /// Reads the store of `home` (no home: an empty store that cannot be saved). A missing
    /// file is empty; an unreadable, oversized, symlinked or malformed one is an error that
    /// says which file.
    pub fn load(home: Option<&Path>) -> Result<TrustStore, TrustError> {
        let path = home.map(|h| h.join(".coding-agent/trusted.json"));
        let file = match &path {
            None => TrustFile::default(),
            Some(p) => read_trust_file(p)?,
        };
        Ok(TrustStore { path, file })
    }

    /// Compares the project's hooks with what was trusted. The config's hash is the hash of
    /// the bytes the hooks were parsed from (`HookSet::file_hashes`), never a second read.
    pub fn assess(&self, paths: &ConfigPaths, hooks: &HookSet) -> TrustAssessment {
        let project_hooks: Vec<_> = hooks.all().filter(|h| h.scope == Scope::Project).collect();
        let mut a = TrustAssessment::default();
        if project_hooks.is_empty() {
            return a;
        }
        let mut config_hash = hooks
            .file_hashes
            .get(&paths.project_file)
            .cloned()
            .unwrap_or_default();
        // Other agents' project files (`.claude/settings.json`, ...) are pinned with the
        // native one: editing any of them makes their hooks untrusted again.
        let foreign: std::collections::BTreeSet<&PathBuf> = project_hooks
            .iter()
            .map(|h| &h.file)
            .filter(|f| **f != paths.project_file)
            .collect();
        for file in foreign {
            let hash = hooks.file_hashes.get(file).cloned().unwrap_or_default();
            config_hash.push_str(&format!(";{}={hash}", file.display()));
        }
        let key = paths.project_dir.clone();
        a.script_pins.project = key.clone();
        let pinned = self.file.projects.get(&key);
        let mut pin = ProjectPin {
            config: config_hash.clone(),
            ..ProjectPin::default()
        };
        let config_ok = pinned.is_some_and(|p| p.config == config_hash);
        // A hook package's identity is its digest: approved once (with these grants or
        // wider), it needs no approval in any project, whatever else the config says.
        // Its arguments are part of what was approved (`PackageGrant::args`).
        let approved_package = |h: &super::config::Hook| match &h.handler {
            Handler::Wasm {
                module: ModuleSource::Package(package),
                limits,
                argv,
                ..
            } => self
                .file
                .packages
                .get(package.digest().hex())
                .is_some_and(|g| g.covers(limits.fs, &limits.env, package_args(argv))),
            _ => false,
        };
        if !config_ok {
            // One change per file the project's hooks come from (its own hooks.json, and
            // other agents' files such as `.claude/settings.json`), in load order; an
            // approved package needs no new approval.
            for h in project_hooks.iter().filter(|h| !approved_package(h)) {
                match a.changes.iter_mut().find(|c| c.file == h.file) {
                    Some(c) => c.hooks.push(h.id()),
                    None => a.changes.push(TrustChange {
                        file: h.file.clone(),
                        change: ChangeKind::of(pinned.is_some()),
                        hooks: vec![h.id()],
                    }),
                }
                a.untrusted.insert(h.id());
            }
        }
        let note = |a: &mut TrustAssessment, file: &Path, recorded: bool, id: HookId| {
            a.untrusted.insert(id);
            match a.changes.iter_mut().find(|c| c.file == file) {
                Some(c) => c.hooks.push(id),
                None => a.changes.push(TrustChange {
                    file: file.to_path_buf(),
                    change: ChangeKind::of(recorded),
                    hooks: vec![id],
                }),
            }
        };
        for h in &project_hooks {
            match &h.handler {
                Handler::Wasm {
                    module: ModuleSource::Package(package),
                    limits,
                    argv,
                    ..
                } => {
                    let digest = package.digest();
                    // Pinned by digest: the runner checks the bytes against it at run time.
                    let grant = PackageGrant {
                        fs: limits.fs,
                        env: limits.env.clone(),
                        args: vec![package_args(argv).to_vec()],
                    };
                    if !approved_package(h) {
                        let known = self.file.packages.contains_key(digest.hex());
                        note(&mut a, package.path(), known, h.id());
                    }
                    a.packages.push((digest.hex().to_string(), grant));
                }
                Handler::Wasm {
                    module: ModuleSource::File(module),
                    ..
                } => {
                    // Through the source index: an unchanged module is not read again (its
                    // stat stamp gives the hash it had; SECURITY.md, "compiled-code cache").
                    let hash = crate::spawner::wasm::module_sha256(module);
                    pin.modules.insert(module.clone(), hash.clone());
                    let recorded = pinned.and_then(|p| p.modules.get(module));
                    if recorded == Some(&hash) && !hash.is_empty() {
                        if config_ok {
                            a.module_pins.insert(module.clone(), hash);
                        }
                    } else {
                        note(&mut a, module, recorded.is_some(), h.id());
                    }
                }
                Handler::Shell { command } => {
                    for script in scripts_named(command, &h.cwd, &paths.project_dir) {
                        let hash = hash_file(&script, SCRIPT_LIMIT);
                        let recorded = pinned.and_then(|p| p.scripts.get(&script));
                        // An unreadable (or oversized) script hashes to nothing, which
                        // must never match: it would stay "trusted" whatever it becomes.
                        if recorded != Some(&hash) || hash.is_empty() {
                            note(&mut a, &script, recorded.is_some(), h.id());
                        } else if config_ok {
                            a.script_pins.files.insert(script.clone(), hash.clone());
                        }
                        pin.scripts.insert(script, hash);
                    }
                }
                Handler::Http { .. } => {}
            }
        }
        a.pin = Some((key, pin));
        a
    }

    /// Records the project's current hooks as trusted and saves the file: under an exclusive
    /// lock, re-reading the file inside it (so concurrent `trust` runs of other projects are
    /// all kept), written to a private temporary file and renamed into place (mode 0600; a
    /// symlink at the path is refused on read and replaced, never followed, on write).
    pub fn trust(&mut self, assessment: &TrustAssessment) -> Result<(), TrustError> {
        let Some((key, pin)) = &assessment.pin else {
            return Ok(());
        };
        self.update(|file| {
            file.projects.insert(key.clone(), pin.clone());
            for (digest, grant) in &assessment.packages {
                approve(file, digest, grant);
            }
        })
    }

    /// Applies `change` to the file on disk and saves it: under an exclusive lock,
    /// re-reading the file inside it (so concurrent writers are all kept), written to a
    /// private temporary file and renamed into place (mode 0600; a symlink at the path is
    /// refused on read and replaced, never followed, on write).
    fn update(&mut self, change: impl FnOnce(&mut TrustFile)) -> Result<(), TrustError> {
        let Some(path) = self.path.clone() else {
            return Err(TrustError::NoHome);
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| TrustError::Write {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        let _lock = FileLock::exclusive(&path.with_extension("json.lock"))?;
        let mut file = read_trust_file(&path)?;
        file.version = 1;
        change(&mut file);
        let text = serde_json::to_string_pretty(&file).unwrap_or_default();
        write_private(&path, (text + "\n").as_bytes()).map_err(|source| TrustError::Write {
            path: path.clone(),
            source,
        })?;
        self.file = file;
        Ok(())
    }
}

impl TrustStore {
    /// Records the hook package with module digest `digest` (hex) as approved with `grant`
    /// (widening an earlier approval), under the same lock and atomic write as
    /// [`TrustStore::trust`]: what `hookhost add` does once the user said yes.
    pub fn approve_package(
        &mut self,
        digest: &str,
        grant: &PackageGrant,
    ) -> Result<(), TrustError> {
        self.update(|file| approve(file, digest, grant))
    }

    /// Whether the package with `digest` (hex) was approved with grants covering these,
    /// run without arguments.
    pub fn package_approved(
        &self,
        digest: &str,
        fs: super::config::FsAccess,
        env: &[String],
    ) -> bool {
        self.file
            .packages
            .get(digest)
            .is_some_and(|g| g.covers(fs, env, &[]))
    }
}

fn approve(file: &mut TrustFile, digest: &str, grant: &PackageGrant) {
    let merged = match file.packages.get(digest) {
        Some(old) => old.union(grant),
        None => grant.clone(),
    };
    file.packages.insert(digest.to_string(), merged);
}

/// Why the trust file could not be read or recorded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TrustError {
    /// It exists but cannot be read (permissions, a symlink, a FIFO, too large).
    #[error("cannot read the trust file: {0}")]
    Read(#[from] crate::files::ReadError),
    /// It is not a trust file hookhost wrote.
    #[error("{}: not a valid trust file ({message}); delete it and run `hookhost trust` again", path.display())]
    Malformed {
        /// The trust file.
        path: PathBuf,
        /// What the JSON parser said.
        message: String,
    },
    /// There is no home directory to keep it in.
    #[error("no home directory: cannot record trust")]
    NoHome,
    /// It (or its directory) cannot be written.
    #[error("{}: cannot write: {source}", path.display())]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Its lock file cannot be opened or locked.
    #[error("{}: cannot lock: {source}", path.display())]
    Lock {
        /// The lock file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

fn read_trust_file(p: &Path) -> Result<TrustFile, TrustError> {
    match read_bounded_nofollow(p, TRUST_FILE_LIMIT) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| TrustError::Malformed {
            path: p.to_path_buf(),
            message: e.to_string(),
        }),
        Err(e) if e.is_not_found() => Ok(TrustFile::default()),
        Err(e) => Err(TrustError::Read(e)),
    }
}

/// SHA-256 of a file read with a bound; empty when it cannot be read (never trusted).
fn hash_file(path: &Path, limit: u64) -> String {
    read_bounded(path, limit)
        .map(|b| sha256_hex(&b))
        .unwrap_or_default()
}

/// Interpreters whose first non-option argument is the script they run.
const INTERPRETERS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "fish", "python", "python3", "node", "deno", "bun", "ruby",
    "perl", "php", "pwsh", "tsx", "ts-node", "lua", "Rscript",
];

/// The scripts a shell command runs, which trust pins besides the config: in every simple
/// command of it (split at `;`, `&&`, `||`, `|`, `&`, parentheses and newlines, and inside
/// `sh -c '...'`), past `NAME=value` assignments and wrappers (`env`, `exec`, `nice`,
/// `timeout`, `command`, `nohup`, `builtin`), the program when it is a path (`./guard.sh`),
/// the file `.`/`source` reads, and for an interpreter (`python3`, `bash`, `node`, ...) every
/// later word that names a file and the file fed with `<`. Programs that run a file no word
/// names have it pinned too: `make`'s makefile (`-f`, `-C`, else `GNUmakefile`, `makefile`,
/// `Makefile`), the module of `python -m pkg.mod` (and its packages' `__init__.py`), the
/// `package.json` (and `.npmrc`, yarn's and pnpm's config) of `npm`, `npx`, `yarn`, `pnpm`,
/// `bun`, and `just`'s justfile; every candidate that exists is pinned, so one added later
/// (a `GNUmakefile` before the trusted `Makefile`) is untrusted. Files written with `>`/`>>`
/// and other programs' arguments are data, not pinned (a hook's own log would untrust it on
/// every run); files the scripts source, include or import in turn are not followed (see
/// [`unpinned_programs`] for programs whose whole tree is code). A relative path is pinned
/// at its real target, even when a symlink in the project leads out of it.
fn scripts_named(command: &str, cwd: &Path, project: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut base = cwd.to_path_buf();
    scan_commands(command, &mut base, project, &mut found, 0);
    found
}

/// Wrappers that run the rest of their words as a command (their options skipped).
const WRAPPERS: &[&str] = &[
    "env", "exec", "nice", "timeout", "command", "nohup", "builtin",
];

fn scan_commands(
    text: &str,
    base: &mut PathBuf,
    project: &Path,
    found: &mut Vec<PathBuf>,
    depth: u8,
) {
    for words in simple_commands(text) {
        scan_command(&words, base, project, found, depth);
    }
}

/// The variables a shell hook gets set to the project root (`HOOK_PROJECT_DIR`, and the ones
/// Claude Code's and Gemini CLI's hooks read): a path built on one is the project's file.
const PROJECT_DIR_VARS: [&str; 3] = [
    "HOOK_PROJECT_DIR",
    "CLAUDE_PROJECT_DIR",
    "GEMINI_PROJECT_DIR",
];

/// `word` with a leading `$VAR` / `${VAR}` of [`PROJECT_DIR_VARS`] replaced by the project
/// root (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`, the form Claude Code documents).
fn expand_project_dir(word: &str, project: &Path) -> Option<String> {
    PROJECT_DIR_VARS.iter().find_map(|v| {
        let rest = word.strip_prefix(&format!("${{{v}}}")).or_else(|| {
            // `$CLAUDE_PROJECT_DIRS` is another variable.
            word.strip_prefix(&format!("${v}"))
                .filter(|r| r.is_empty() || r.starts_with('/'))
        })?;
        Some(format!("{}{rest}", project.display()))
    })
}

/// Pins `word` (relative to `base`) if it names a file.
fn pin(word: &str, base: &Path, project: &Path, found: &mut Vec<PathBuf>) {
    let expanded = expand_project_dir(word, project);
    let word = expanded.as_deref().unwrap_or(word);
    if word.is_empty() || word.contains(['$', '`', '*', '?']) {
        return;
    }
    // A relative path is the project's own file even when a symlink in it leads out.
    if let Ok(real) = base.join(word).canonicalize()
        && real.is_file()
        && (real.starts_with(project) || Path::new(word).is_relative())
        && !found.contains(&real)
    {
        found.push(real);
    }
}

fn scan_command(
    words: &[Token],
    base: &mut PathBuf,
    project: &Path,
    found: &mut Vec<PathBuf>,
    depth: u8,
) {
    let word_at = |i: usize| match words.get(i) {
        Some(Token::Word(w)) => Some(w.as_str()),
        _ => None,
    };
    let basename = |w: &str| w.rsplit('/').next().unwrap_or(w).to_string();
    let mut i = 0;
    // Assignments and wrappers (with their options and, for timeout/nice, a value).
    while let Some(w) = word_at(i) {
        if w.contains('=') && !w.starts_with('=') && !w.contains('/') {
            i += 1;
            continue;
        }
        let name = basename(w);
        if !WRAPPERS.contains(&name.as_str()) {
            break;
        }
        i += 1;
        while let Some(opt) = word_at(i).filter(|o| o.starts_with('-')) {
            i += 1;
            if name == "nice" && opt == "-n" {
                i += 1;
            }
        }
        if name == "timeout"
            && word_at(i).is_some_and(|d| d.starts_with(|c: char| c.is_ascii_digit()))
        {
            i += 1;
        }
    }
    let Some(program) = word_at(i) else {
        return;
    };
    let name = basename(program);
    let rest = &words[i + 1..];
    match name.as_str() {
        "cd" => {
            if let Some(Token::Word(dir)) = rest.first() {
                *base = base.join(dir);
            }
        }
        "." | "source" => {
            if let Some(Token::Word(file)) = rest.first() {
                pin(file, base, project, found);
            }
        }
        "make" | "gmake" | "bmake" => pin_makefiles(&name, rest, base, project, found),
        "just" => pin_justfile(rest, base, project, found),
        _ if is_interpreter(&name) => {
            if JS_RUNNERS.contains(&name.as_str()) {
                pin_js_manifests(base, project, found);
            }
            let python = is_python(&name);
            let mut k = 0;
            while k < rest.len() {
                match &rest[k] {
                    // `python -m pkg.mod` (or `-mpkg.mod`): the module it runs.
                    Token::Word(w) if python && w.starts_with("-m") => {
                        let module = match &w[2..] {
                            "" => {
                                k += 1;
                                word_at(i + 1 + k).unwrap_or_default()
                            }
                            joined => joined,
                        };
                        pin_python_module(module, base, project, found);
                    }
                    // The file after `>` or `>>` is data the hook writes.
                    Token::Redirect(true) => k += 1,
                    Token::Redirect(false) => {
                        if let Some(Token::Word(file)) = rest.get(k + 1) {
                            pin(file, base, project, found);
                        }
                        k += 1;
                    }
                    Token::Word(w) if w == "-c" && depth < 4 => {
                        if let Some(Token::Word(inner)) = rest.get(k + 1) {
                            let mut inner_base = base.clone();
                            scan_commands(inner, &mut inner_base, project, found, depth + 1);
                        }
                        k += 1;
                    }
                    Token::Word(w) => pin(w, base, project, found),
                }
                k += 1;
            }
        }
        _ if JS_RUNNERS.contains(&name.as_str()) => {
            pin_js_manifests(base, project, found);
            // `npx eslint`: the project's own copy of the program, when it has one.
            if name == "npx"
                && let Some(Token::Word(bin)) = rest
                    .iter()
                    .find(|t| matches!(t, Token::Word(w) if !w.starts_with('-')))
                && !bin.contains('/')
            {
                pin(&format!("node_modules/.bin/{bin}"), base, project, found);
            }
        }
        _ => pin(program, base, project, found),
    }
}

/// Interpreters and their versioned names (`python3.12`, `pypy3`).
fn is_interpreter(name: &str) -> bool {
    INTERPRETERS.contains(&name) || is_python(name)
}

/// `python`, `python3`, `python3.12`, `pypy`, `pypy3`.
fn is_python(name: &str) -> bool {
    ["python", "pypy"].iter().any(|p| {
        name.strip_prefix(p)
            .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
    })
}

/// Programs that run what a `package.json` (or their own config) says.
const JS_RUNNERS: &[&str] = &[
    "npm", "npx", "yarn", "pnpm", "pnpx", "corepack", "bun", "bunx", "deno",
];

/// The directories from `base` up to the project root (just `base` when it lies outside).
fn dirs_up_to_project(base: &Path, project: &Path) -> Vec<PathBuf> {
    let Ok(real) = base.canonicalize() else {
        return Vec::new();
    };
    if !real.starts_with(project) {
        return vec![real];
    }
    real.ancestors()
        .take_while(|d| d.starts_with(project))
        .map(Path::to_path_buf)
        .collect()
}

/// A JavaScript package runner's manifests and config, in `base` and each directory above
/// it in the project (npm, yarn and pnpm look upwards for the package): `package.json`,
/// `.npmrc` (which can name the shell scripts run in), `.yarnrc`, `.yarnrc.yml` and the
/// `yarnPath` release it runs, pnpm's `.pnpmfile.cjs` and workspace file, `bunfig.toml`
/// (preloads), `deno.json`.
fn pin_js_manifests(base: &Path, project: &Path, found: &mut Vec<PathBuf>) {
    const FILES: &[&str] = &[
        "package.json",
        ".npmrc",
        ".yarnrc",
        ".yarnrc.yml",
        ".pnpmfile.cjs",
        "pnpm-workspace.yaml",
        "bunfig.toml",
        "deno.json",
        "deno.jsonc",
    ];
    for dir in dirs_up_to_project(base, project) {
        for f in FILES {
            pin(f, &dir, project, found);
        }
        let yarnrc = dir.join(".yarnrc.yml");
        if let Ok(text) = read_bounded(&yarnrc, 1 << 20) {
            for line in String::from_utf8_lossy(&text).lines() {
                if let Some(v) = line.trim().strip_prefix("yarnPath:") {
                    pin(v.trim().trim_matches(['"', '\'']), &dir, project, found);
                }
            }
        }
    }
}

/// The makefiles `make` reads: `-f FILE` (relative to the directory after every `-C DIR`),
/// else every one of `GNUmakefile`, `makefile`, `Makefile` (`BSDmakefile` for bmake) there.
fn pin_makefiles(
    name: &str,
    rest: &[Token],
    base: &Path,
    project: &Path,
    found: &mut Vec<PathBuf>,
) {
    let mut dir = base.to_path_buf();
    let mut files: Vec<String> = Vec::new();
    let words: Vec<&str> = rest
        .iter()
        .map_while(|t| match t {
            Token::Word(w) => Some(w.as_str()),
            Token::Redirect(_) => None,
        })
        .collect();
    let mut k = 0;
    let value = |k: &mut usize, joined: &str| -> Option<String> {
        if joined.is_empty() {
            *k += 1;
            words.get(*k).map(|s| s.to_string())
        } else {
            Some(joined.to_string())
        }
    };
    while k < words.len() {
        let w = words[k];
        if let Some(long) = w.strip_prefix("--") {
            let (opt, joined) = long.split_once('=').unwrap_or((long, ""));
            match opt {
                "file" | "makefile" => files.extend(value(&mut k, joined)),
                "directory" => {
                    if let Some(d) = value(&mut k, joined) {
                        dir = dir.join(d);
                    }
                }
                "include-dir" | "what-if" | "new-file" | "assume-new" | "old-file"
                | "assume-old"
                    if joined.is_empty() =>
                {
                    k += 1
                }
                _ => {}
            }
        } else if let Some(short) = w.strip_prefix('-').filter(|s| !s.is_empty()) {
            // Bundled flags (`-sC dir`, `-fbuild.mk`): an option that takes a value takes
            // the rest of the word, or the next word.
            for (at, c) in short.char_indices() {
                let joined = &short[at + c.len_utf8()..];
                match c {
                    'f' => {
                        files.extend(value(&mut k, joined));
                        break;
                    }
                    'C' => {
                        if let Some(d) = value(&mut k, joined) {
                            dir = dir.join(d);
                        }
                        break;
                    }
                    'I' | 'o' | 'W' => {
                        let _ = value(&mut k, joined);
                        break;
                    }
                    _ => {}
                }
            }
        }
        k += 1;
    }
    if files.is_empty() {
        let defaults: &[&str] = if name == "bmake" {
            &["BSDmakefile", "makefile", "Makefile"]
        } else {
            &["GNUmakefile", "makefile", "Makefile"]
        };
        files.extend(defaults.iter().map(|f| f.to_string()));
    }
    for f in files.iter().filter(|f| *f != "-") {
        pin(f, &dir, project, found);
    }
}

/// The files `python -m a.b.c` runs from `base` (the first entry of its module path):
/// `a/__init__.py`, `a/b/__init__.py`, then `a/b/c.py`, `a/b/c/__init__.py` and
/// `a/b/c/__main__.py`, and a compiled `a/b/c.pyc` or extension `a/b/c*.so` in its place.
fn pin_python_module(module: &str, base: &Path, project: &Path, found: &mut Vec<PathBuf>) {
    let parts: Vec<&str> = module.split('.').collect();
    if parts
        .iter()
        .any(|p| p.is_empty() || !p.chars().all(|c| c.is_alphanumeric() || c == '_'))
    {
        return;
    }
    let mut dir = String::new();
    for (n, part) in parts.iter().enumerate() {
        let path = format!("{dir}{part}");
        pin(&format!("{path}/__init__.py"), base, project, found);
        if n + 1 == parts.len() {
            for suffix in [".py", ".pyc", ".so", "/__main__.py"] {
                pin(&format!("{path}{suffix}"), base, project, found);
            }
            if let Ok(entries) = std::fs::read_dir(base.join(&dir)) {
                for e in entries.flatten() {
                    let file = e.file_name().to_string_lossy().into_owned();
                    if file.starts_with(&format!("{part}.")) && file.ends_with(".so") {
                        pin(&format!("{dir}{file}"), base, project, found);
                    }
                }
            }
        }
        dir = format!("{path}/");
    }
}

/// `just`'s justfile: `-f`/`--justfile FILE`, else the first directory from `base` (after
/// `-d`/`--working-directory`) upwards in the project with a `justfile` (any case) or
/// `.justfile`; every such file there is pinned.
fn pin_justfile(rest: &[Token], base: &Path, project: &Path, found: &mut Vec<PathBuf>) {
    let words: Vec<&str> = rest
        .iter()
        .filter_map(|t| match t {
            Token::Word(w) => Some(w.as_str()),
            Token::Redirect(_) => None,
        })
        .collect();
    let mut dir = base.to_path_buf();
    let mut file = None;
    let mut k = 0;
    while k < words.len() {
        let (opt, joined) = words[k].split_once('=').unwrap_or((words[k], ""));
        let mut value = || {
            if joined.is_empty() {
                k += 1;
                words.get(k).map(|s| s.to_string())
            } else {
                Some(joined.to_string())
            }
        };
        match opt {
            "-f" | "--justfile" => file = value(),
            "-d" | "--working-directory" => {
                if let Some(d) = value() {
                    dir = dir.join(d);
                }
            }
            _ => {}
        }
        k += 1;
    }
    if let Some(f) = file {
        pin(&f, base, project, found);
        return;
    }
    for d in dirs_up_to_project(&dir, project) {
        let before = found.len();
        if let Ok(entries) = std::fs::read_dir(&d) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let lower = name.to_ascii_lowercase();
                if lower == "justfile" || lower == ".justfile" {
                    pin(&name, &d, project, found);
                }
            }
        }
        if found.len() > before {
            return;
        }
    }
}

/// Programs whose command line trust cannot pin what they run: they build or load code from
/// the whole tree (`cargo run` compiles the crate and its `build.rs`, `pytest` imports every
/// `conftest.py`, `go run`, `gradle`, `tox`, `pre-commit`, `docker compose`, ...). A change
/// there does not untrust the hook; `hookhost trust` names them so the reviewer knows.
const TREE_RUNNERS: &[&str] = &[
    "cargo",
    "go",
    "gradle",
    "gradlew",
    "mvn",
    "mvnw",
    "ant",
    "sbt",
    "bazel",
    "bazelisk",
    "buck2",
    "cmake",
    "ninja",
    "meson",
    "tox",
    "nox",
    "pytest",
    "py.test",
    "pre-commit",
    "docker",
    "docker-compose",
    "podman",
    "rake",
    "bundle",
    "composer",
    "mix",
    "dotnet",
    "swift",
    "zig",
    "uv",
    "uvx",
    "poetry",
    "pipenv",
    "pdm",
    "hatch",
    "rye",
    "tsc",
    "jest",
    "vitest",
    "eslint",
    "prettier",
    "ruff",
    "mypy",
    "rustc",
    "gcc",
    "cc",
    "clang",
    "javac",
];

/// The programs of `command` (each simple command's, past assignments and wrappers) that run
/// code trust does not pin ([`TREE_RUNNERS`]), by name, each once.
pub fn unpinned_programs(command: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    collect_unpinned(command, &mut out, 0);
    out
}

fn collect_unpinned(text: &str, out: &mut Vec<String>, depth: u8) {
    for words in simple_commands(text) {
        let mut i = 0;
        let word = |i: usize| match words.get(i) {
            Some(Token::Word(w)) => Some(w.as_str()),
            _ => None,
        };
        while let Some(w) = word(i) {
            let name = w.rsplit('/').next().unwrap_or(w);
            let assignment = w.contains('=') && !w.starts_with('=') && !w.contains('/');
            let option_or_value =
                w.starts_with(['-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
            if assignment || WRAPPERS.contains(&name) || option_or_value {
                i += 1;
                continue;
            }
            break;
        }
        let Some(program) = word(i) else { continue };
        let name = program.rsplit('/').next().unwrap_or(program);
        if TREE_RUNNERS.contains(&name) && !out.iter().any(|o| o == name) {
            out.push(name.to_string());
        }
        if is_interpreter(name) && depth < 4 {
            let mut k = i + 1;
            while let Some(w) = word(k) {
                if w == "-c"
                    && let Some(inner) = word(k + 1)
                {
                    collect_unpinned(inner, out, depth + 1);
                }
                // `python -m pytest`: the module is such a program.
                if is_python(name) && w.starts_with("-m") {
                    let module = if w == "-m" {
                        word(k + 1)
                    } else {
                        Some(&w[2..])
                    };
                    let top = module.and_then(|m| m.split('.').next()).unwrap_or_default();
                    if TREE_RUNNERS.contains(&top) && !out.iter().any(|o| o == top) {
                        out.push(top.to_string());
                    }
                }
                k += 1;
            }
        }
    }
}

/// A word, or a redirection (`true` for output: `>`, `>>`).
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String),
    Redirect(bool),
}

/// The simple commands of a shell text, each as its words and redirections: quotes and
/// backslashes honoured, nothing expanded.
fn simple_commands(text: &str) -> Vec<Vec<Token>> {
    let mut commands: Vec<Vec<Token>> = vec![Vec::new()];
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars().peekable();
    fn end_word(word: &mut String, in_word: &mut bool, cmd: &mut Vec<Token>) {
        if *in_word {
            cmd.push(Token::Word(std::mem::take(word)));
            *in_word = false;
        }
    }
    while let Some(c) = chars.next() {
        let cmd = commands.last_mut().expect("never empty");
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            ';' | '&' | '|' | '(' | ')' | '\n' => {
                end_word(&mut word, &mut in_word, cmd);
                commands.push(Vec::new());
            }
            '>' | '<' => {
                // `2>` and the like: the digits belong to the redirection.
                if in_word && word.chars().all(|d| d.is_ascii_digit()) {
                    word.clear();
                    in_word = false;
                }
                end_word(&mut word, &mut in_word, cmd);
                if matches!(chars.peek(), Some('>' | '&')) {
                    chars.next();
                }
                cmd.push(Token::Redirect(c == '>'));
            }
            c if c.is_whitespace() => end_word(&mut word, &mut in_word, cmd),
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if let Some(cmd) = commands.last_mut() {
        end_word(&mut word, &mut in_word, cmd);
    }
    commands.retain(|c| !c.is_empty());
    commands
}

/// An exclusive advisory lock on a lock file, released on drop.
struct FileLock(#[allow(dead_code)] std::fs::File);

impl FileLock {
    fn exclusive(path: &Path) -> Result<FileLock, TrustError> {
        let mut options = std::fs::OpenOptions::new();
        options.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
        }
        let file = options.open(path).map_err(|source| TrustError::Lock {
            path: path.to_path_buf(),
            source,
        })?;
        file.lock().map_err(|source| TrustError::Lock {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(FileLock(file))
    }
}

/// What the trust policy lets one hook do: the one trust decision the runner applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Gate {
    /// Trusted (or the policy runs everything): run it as configured.
    Run,
    /// An untrusted wasm hook under `skip`/`block`: run it with the minimum grants
    /// ([`reduce_request`]) and only a pass or a fixed-reason block counts
    /// ([`reduce_judgement`]).
    RunReduced,
    /// Not run (outcome `skipped`).
    Skip,
    /// Not run; blocks the call (an untrusted shell/http PreToolUse hook under `block`).
    Block,
}

/// The longest an untrusted wasm hook may run under the `skip` and `block` policies,
/// whatever its config asks for (its fuel is derived from this too).
pub const UNTRUSTED_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// The gate for a hook of `kind` on `event`, untrusted or not, under `policy`.
pub(crate) fn gate(
    policy: TrustPolicy,
    untrusted: bool,
    kind: super::config::HookKind,
    event: super::event::Event,
) -> Gate {
    use super::config::HookKind;
    if !untrusted {
        return Gate::Run;
    }
    match (policy, kind) {
        (TrustPolicy::All, _) => Gate::Run,
        (_, HookKind::Wasm) => Gate::RunReduced,
        (TrustPolicy::Block, _) if event.class() == super::event::EventClass::Blocking => {
            Gate::Block
        }
        _ => Gate::Skip,
    }
}

/// The minimum grants of an untrusted module: no `fs: "write"` (read-only at most), no host
/// environment, at most [`UNTRUSTED_TIMEOUT`] and the fuel that buys, and no more memory than
/// the default (a cloned repository must not get 4 GiB of the user's RAM per event).
pub(crate) fn reduce_request(request: &mut super::spawner::SpawnRequest) {
    use super::config::{FsAccess, Handler};
    if let Handler::Wasm { limits, .. } = &mut request.handler {
        if limits.fs == FsAccess::Write {
            limits.fs = FsAccess::Read;
        }
        limits.env.clear();
        limits.fuel = None;
        limits.memory_mib = limits.memory_mib.min(super::config::DEFAULT_MEMORY_MIB);
    }
    request.timeout = request.timeout.min(UNTRUSTED_TIMEOUT);
    request.module_sha256 = None;
    request.untrusted = true;
}

/// How far a hook's answer is trusted: what [`keeps`] lets its effects do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrustLevel {
    /// A managed, user, in-process or trusted project hook: every effect is kept.
    Trusted,
    /// An untrusted project wasm hook, run reduced: it can pass, or block with a fixed reason.
    Untrusted,
}

/// The effects a trust level keeps: an allowlist, so an effect added to
/// [`Effects`](crate::agent::Effects) is dropped for untrusted hooks until it is named here.
pub const fn keeps(level: TrustLevel) -> EffectSet {
    match level {
        TrustLevel::Trusted => EffectSet::ALL,
        TrustLevel::Untrusted => EffectSet::of(&[EffectKind::Block]),
    }
}

/// The effects a re-run on a rewritten call keeps (`Runner::fire`'s second pass): a block.
pub const REJUDGE_KEEPS: EffectSet = EffectSet::of(&[EffectKind::Block]);

/// Keeps what the hook's trust level (and a re-run) allows of a judgement, the last step of
/// `decision::judge`. An untrusted hook's block carries a fixed reason: its own text stays in
/// the record for the user; neither it nor the hook's command line, both the untrusted
/// author's words, reach the model.
pub(crate) fn keep(t: &HookFacts, mut j: Judgement) -> Judgement {
    let mut allowed = keeps(t.trust);
    if t.rejudge {
        allowed = allowed.intersect(REJUDGE_KEEPS);
    }
    let decided = matches!(j.outcome, Outcome::Block | Outcome::Force);
    let (mut effects, dropped) = j.effects.keep(allowed);
    if t.trust == TrustLevel::Untrusted
        && let Verdict::Block(_) = effects.verdict
    {
        effects.verdict = Verdict::Block(format!(
            "blocked by the untrusted project wasm hook {}; its own reason is withheld until you review it and run `hookhost trust`",
            t.id
        ));
    }
    if !dropped.is_empty() {
        let whose = if t.rejudge {
            "re-run on the rewritten call: only a block counts"
        } else {
            "untrusted hook: only its pass/block decision is used"
        };
        let note = format!("{whose} (ignored: {dropped})");
        j.message = Some(match j.message.take() {
            Some(m) => format!("{m}; {note}"),
            None => note,
        });
        if decided && effects.verdict == Verdict::Pass {
            j.outcome = Outcome::Warn;
        }
    }
    j.effects = effects;
    j
}

#[cfg(test)]
#[path = "trust_keep_tests.rs"]
mod keep_tests;

/// The judgement of an untrusted hook that was not run: skipped, or (under `block`, on
/// PreToolUse) blocking the call.
pub(crate) fn not_run(hook: &super::config::Hook, block: bool) -> Judgement {
    let why = format!(
        "untrusted project hook {} ({}) was not run: review {} and run `hookhost trust`",
        hook.label(),
        hook.handler.display(),
        hook.file.display()
    );
    if block {
        Judgement::not_run(Outcome::Block, Verdict::Block(why.clone()), why)
    } else {
        Judgement::not_run(Outcome::Skipped, Verdict::Pass, why)
    }
}
