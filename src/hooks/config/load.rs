//! Which config files are read, in which order, and how their hooks are merged into one
//! [`HookSet`]; [`parse_file`] runs both phases over one file's text.
//!
//! The project's file, then the user's global one; a missing file is empty; a project at
//! the home directory reads its one file once, as global. Each file is read bounded
//! ([`read_bounded`]: no FIFOs, no endless files) and hashed from the exact bytes parsed, so
//! what trust compares is what runs.

use super::errors::{ConfigError, ConfigErrors};
use super::raw::{self, Entry};
use super::resolve::Resolver;
use super::types::{Hook, HookSet, Scope};
use crate::hooks::confine::{canonical_or_same, same_file};
use crate::hooks::dialect::{self, Dialect};
use crate::hooks::files::{CONFIG_LIMIT, read_bounded, sha256_hex};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where the project's hooks live, relative to the project root.
pub const PROJECT_CONFIG: &str = ".coding-agent/hooks.json";

/// Where the config files are and what the hooks run against.
#[derive(Debug, Clone)]
pub struct ConfigPaths {
    /// The project root, canonical (symlinks resolved): what hooks run against.
    pub project_dir: PathBuf,
    /// `<project>/.coding-agent/hooks.json`
    pub project_file: PathBuf,
    /// `~/.coding-agent/hooks.json`, or `None` when there is no home directory.
    pub global_file: Option<PathBuf>,
    /// The home directory, for `~/` in global hooks' module paths; `None` when there is none.
    pub home: Option<PathBuf>,
    /// Also read other agents' hook files (Claude Code, Gemini CLI, Codex, ling; DESIGN §10).
    /// On by default; the outbound adapter turns it off (it runs inside those agents).
    pub foreign: bool,
}

impl ConfigPaths {
    /// The standard locations for `project_dir`, with the home directory from `dirs` (which
    /// honours `$HOME`).
    pub fn for_project(project_dir: &Path) -> Self {
        Self::with_home(project_dir, dirs::home_dir())
    }

    /// The project directory is made canonical (symlinks resolved): every "inside the
    /// project" check compares canonical paths.
    pub fn with_home(project_dir: &Path, home: Option<PathBuf>) -> Self {
        let project_dir = canonical_or_same(project_dir);
        ConfigPaths {
            project_file: project_dir.join(PROJECT_CONFIG),
            global_file: home.as_ref().map(|h| h.join(".coding-agent/hooks.json")),
            home,
            project_dir,
            foreign: true,
        }
    }

    /// The same paths without other agents' files: only `.coding-agent/hooks.json`.
    pub fn native_only(mut self) -> Self {
        self.foreign = false;
        self
    }
}

/// Loads both files. All problems of both files are returned together.
pub fn load(paths: &ConfigPaths) -> Result<HookSet, ConfigErrors> {
    let (set, errors) = load_lenient(paths);
    if errors.is_empty() {
        Ok(set)
    } else {
        Err(ConfigErrors(errors))
    }
}

/// Loads both files, keeping the hooks that are valid alongside every problem found (what
/// `hookhost check` needs to go on checking modules and commands past a config error).
pub fn load_lenient(paths: &ConfigPaths) -> (HookSet, Vec<ConfigError>) {
    let mut hooks = Vec::new();
    let mut errors = Vec::new();
    let mut hashes = BTreeMap::new();
    let mut files = vec![paths.project_file.clone()];
    let mut sources = Vec::new();
    match &paths.global_file {
        // A project at the home directory: its "project file" *is* the user's global file,
        // which the user wrote; it loads once, as global (trusted), never as a project file.
        Some(global) if same_file(global, &paths.project_file) => {
            sources.push((global.clone(), Scope::Global));
        }
        Some(global) => {
            files.push(global.clone());
            sources.push((paths.project_file.clone(), Scope::Project));
            sources.push((global.clone(), Scope::Global));
        }
        None => sources.push((paths.project_file.clone(), Scope::Project)),
    }
    for (file, scope) in sources {
        if let Some(text) = read_text(&file, &mut hashes, &mut errors) {
            let (h, e) = parse_file(&text, &file, scope, paths);
            hooks.extend(h);
            errors.extend(e);
        }
    }
    // Other agents' files (DESIGN §10), after the native ones.
    let mut warnings = Vec::new();
    for (n, source) in dialect::foreign_sources(paths).into_iter().enumerate() {
        let file = source.path;
        files.push(file.clone());
        if let Some(text) = read_text(&file, &mut hashes, &mut errors) {
            let origin = (source.scope, u8::try_from(n + 1).unwrap_or(u8::MAX));
            let (h, e, w) = parse_foreign(&text, &file, source.dialect, origin, paths);
            hooks.extend(h);
            errors.extend(e);
            warnings.extend(w);
        }
    }
    // Run order: by event, project before global, declared order within a file.
    // Other agents' files come after the native ones, in their load order (`source`).
    hooks.sort_by_key(|h: &Hook| (h.event, h.source, h.scope == Scope::Global));
    let mut set = HookSet::from_hooks(hooks);
    set.files = files;
    set.warnings = warnings;
    set.file_hashes = hashes;
    (set, errors)
}

/// Reads one file bounded, records its hash, and returns its text; `None` when it is absent
/// or unreadable (then the problem is in `errors`).
fn read_text(
    file: &Path,
    hashes: &mut BTreeMap<PathBuf, String>,
    errors: &mut Vec<ConfigError>,
) -> Option<String> {
    match read_bounded(file, CONFIG_LIMIT) {
        Ok(bytes) => {
            hashes.insert(file.to_path_buf(), sha256_hex(&bytes));
            match String::from_utf8(bytes) {
                Ok(t) => Some(t),
                Err(_) => {
                    errors.push(ConfigError {
                        file: file.to_path_buf(),
                        hook: None,
                        message: "the file is not UTF-8 text; save it as UTF-8 JSON".into(),
                    });
                    None
                }
            }
        }
        Err(e) if e.is_not_found() => None,
        Err(e) => {
            errors.push(ConfigError {
                file: file.to_path_buf(),
                hook: None,
                message: format!("cannot read the file: {e}"),
            });
            None
        }
    }
}

/// Parses another agent's file: its hooks become native hook objects
/// ([`dialect::read_settings`]), validated by the native reader. Returns the valid hooks,
/// the errors and the warnings (keys accepted but not implemented).
fn parse_foreign(
    text: &str,
    file: &Path,
    d: Dialect,
    (scope, source): (Scope, u8),
    paths: &ConfigPaths,
) -> (Vec<Hook>, Vec<ConfigError>, Vec<ConfigError>) {
    let resolver = Resolver {
        file,
        scope,
        paths,
        source,
    };
    let at = |hook: Option<String>, message: String| ConfigError {
        file: file.to_path_buf(),
        hook,
        message,
    };
    let foreign = dialect::read_settings(d, text);
    let mut errors: Vec<ConfigError> = foreign
        .problems
        .into_iter()
        .map(|(h, m)| at(h, m))
        .collect();
    let warnings = foreign
        .warnings
        .into_iter()
        .map(|(h, m)| at(h, m))
        .collect();
    let mut hooks = Vec::new();
    for fh in foreign.hooks {
        let resolved = match raw::read_hook(fh.event, fh.index, &fh.hook) {
            Entry::Problem { message, .. } => Err(vec![message]),
            Entry::Hook(raw) => resolver.resolve(*raw),
        };
        match resolved {
            Ok(hook) => hooks.push(hook),
            Err(problems) => {
                errors.extend(problems.into_iter().map(|m| at(Some(fh.label.clone()), m)))
            }
        }
    }
    (hooks, errors, warnings)
}

/// Parses one file's text. Returns the hooks that were valid and every problem found, in
/// document order.
pub fn parse_file(
    text: &str,
    file: &Path,
    scope: Scope,
    paths: &ConfigPaths,
) -> (Vec<Hook>, Vec<ConfigError>) {
    let resolver = Resolver {
        file,
        scope,
        paths,
        source: 0,
    };
    let error = |hook: Option<String>, message: String| ConfigError {
        file: file.to_path_buf(),
        hook,
        message,
    };
    let mut hooks = Vec::new();
    let mut errors = Vec::new();
    for entry in raw::read_file(text) {
        match entry {
            Entry::Problem { hook, message } => errors.push(error(hook, message)),
            Entry::Hook(raw) => {
                let label = raw.label();
                match resolver.resolve(*raw) {
                    Ok(hook) => hooks.push(hook),
                    Err(problems) => errors.extend(
                        problems
                            .into_iter()
                            .map(|message| error(Some(label.clone()), message)),
                    ),
                }
            }
        }
    }
    (hooks, errors)
}
