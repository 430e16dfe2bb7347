//! Which config files are read, in which order, and how their hooks are merged into one
//! [`HookSet`]; [`parse_file`] runs both phases over one file's text.
//!
//! The machine-wide managed file first, then the project's file, then the user's global one;
//! a missing file is empty; a project at the home directory reads its one file once, as
//! global. A managed file that says `"allowManagedHooksOnly": true` (or that exists but
//! cannot be read, which fails closed) turns the project's and the user's files off. Each file is read bounded
//! ([`read_bounded`]: no FIFOs, no endless files) and hashed from the exact bytes parsed, so
//! what trust compares is what runs.

use super::errors::{ConfigError, ConfigErrors};
use super::raw::{self, Entry, MANAGED_ONLY_KEY};
use super::resolve::Resolver;
use super::types::{Hook, HookSet, Scope};
use crate::hooks::confine::{canonical_or_same, same_file};
use crate::hooks::files::{CONFIG_LIMIT, read_bounded, sha256_hex};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where the project's hooks live, relative to the project root.
pub const PROJECT_CONFIG: &str = ".coding-agent/hooks.json";

/// The machine-wide managed file: hooks an administrator installs for every user and
/// project of the machine.
pub const MANAGED_CONFIG: &str = "/etc/coding-agent/hooks.json";

/// Environment variable naming another managed file (packaging, tests). It moves the file,
/// it does not make it optional for project or user files: those can never turn it off.
pub const MANAGED_CONFIG_ENV: &str = "HOOKHOST_MANAGED_CONFIG";

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
    /// The machine-wide managed file ([`MANAGED_CONFIG`], or `$HOOKHOST_MANAGED_CONFIG`), read
    /// first; `None` reads none (what [`with_home`](Self::with_home) gives, for isolation).
    pub managed_file: Option<PathBuf>,
}

impl ConfigPaths {
    /// The standard locations for `project_dir`: the managed file, the project's, and the
    /// user's with the home directory from `dirs` (which honours `$HOME`).
    pub fn for_project(project_dir: &Path) -> Self {
        Self::with_home(project_dir, dirs::home_dir()).with_managed(Some(default_managed_file()))
    }

    /// The project's and the user's files, and no managed file (add one with
    /// [`with_managed`](Self::with_managed)). The project directory is made canonical
    /// (symlinks resolved): every "inside the project" check compares canonical paths.
    pub fn with_home(project_dir: &Path, home: Option<PathBuf>) -> Self {
        let project_dir = canonical_or_same(project_dir);
        ConfigPaths {
            project_file: project_dir.join(PROJECT_CONFIG),
            global_file: home.as_ref().map(|h| h.join(".coding-agent/hooks.json")),
            home,
            project_dir,
            managed_file: None,
        }
    }

    /// The same paths with `file` as the machine-wide managed file (`None`: none).
    pub fn with_managed(mut self, file: Option<PathBuf>) -> Self {
        self.managed_file = file;
        self
    }
}

/// `$HOOKHOST_MANAGED_CONFIG` when set and not empty, else [`MANAGED_CONFIG`].
pub fn default_managed_file() -> PathBuf {
    match std::env::var_os(MANAGED_CONFIG_ENV) {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => PathBuf::from(MANAGED_CONFIG),
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

/// Loads every file, keeping the hooks that are valid alongside every problem found (what
/// `hookhost check` needs to go on checking modules and commands past a config error). A
/// broken file costs its own hooks only: the other files' hooks still load.
pub fn load_lenient(paths: &ConfigPaths) -> (HookSet, Vec<ConfigError>) {
    let mut loaded = Loaded::default();
    let mut managed_only = None;
    if let Some(managed) = &paths.managed_file {
        loaded.files.push(managed.clone());
        match loaded.read(managed, Scope::Managed, paths) {
            // Absent: no managed policy.
            Read::Missing => {}
            Read::Parsed { managed_only: true } => managed_only = Some(managed.clone()),
            Read::Parsed {
                managed_only: false,
            } => {}
            // Present but unreadable: it may have said "managed hooks only", so the other
            // files stay off (fail closed); its error blocks PreToolUse.
            Read::Broken => managed_only = Some(managed.clone()),
        }
    }
    if managed_only.is_none() {
        for (file, scope) in user_sources(paths) {
            loaded.files.push(file.clone());
            loaded.read(&file, scope, paths);
        }
    }
    let Loaded {
        mut hooks,
        errors,
        hashes,
        files,
    } = loaded;
    // Run order: by event; managed first, then project, then global; declared order within
    // a file (a stable sort keeps it).
    hooks.sort_by_key(|h: &Hook| (h.event, source_rank(h.scope)));
    let mut set = HookSet::from_hooks(hooks);
    set.files = files;
    set.file_hashes = hashes;
    set.managed_only = managed_only;
    (set, errors)
}

/// The project's file and the user's, in that order. A project at the home directory: its
/// "project file" *is* the user's global file, which the user wrote; it loads once, as
/// global (trusted), never as a project file.
fn user_sources(paths: &ConfigPaths) -> Vec<(PathBuf, Scope)> {
    match &paths.global_file {
        Some(global) if same_file(global, &paths.project_file) => {
            vec![(global.clone(), Scope::Global)]
        }
        Some(global) => vec![
            (paths.project_file.clone(), Scope::Project),
            (global.clone(), Scope::Global),
        ],
        None => vec![(paths.project_file.clone(), Scope::Project)],
    }
}

/// Where a source runs among the others for one event.
fn source_rank(scope: Scope) -> u8 {
    match scope {
        Scope::Managed => 0,
        Scope::Project => 1,
        Scope::Global => 2,
        _ => 3,
    }
}

/// What reading one file gave.
enum Read {
    Missing,
    /// Read and parsed (its hooks and problems are recorded); whether it asked for
    /// managed hooks only.
    Parsed {
        managed_only: bool,
    },
    /// Present, but not readable or not a JSON object at all.
    Broken,
}

/// The hooks, problems and hashes of the files read so far.
#[derive(Default)]
struct Loaded {
    hooks: Vec<Hook>,
    errors: Vec<ConfigError>,
    hashes: BTreeMap<PathBuf, String>,
    files: Vec<PathBuf>,
}

impl Loaded {
    fn read(&mut self, file: &Path, scope: Scope, paths: &ConfigPaths) -> Read {
        let problem = |message: String| ConfigError {
            file: file.to_path_buf(),
            hook: None,
            message,
        };
        let bytes = match read_bounded(file, CONFIG_LIMIT) {
            Ok(bytes) => bytes,
            Err(e) if e.is_not_found() => return Read::Missing,
            Err(e) => {
                self.errors
                    .push(problem(format!("cannot read the file: {e}")));
                return Read::Broken;
            }
        };
        self.hashes.insert(file.to_path_buf(), sha256_hex(&bytes));
        let Ok(text) = String::from_utf8(bytes) else {
            self.errors.push(problem(
                "the file is not UTF-8 text; save it as UTF-8 JSON".into(),
            ));
            return Read::Broken;
        };
        let parsed = parse_source(&text, file, scope, paths);
        self.hooks.extend(parsed.hooks);
        self.errors.extend(parsed.errors);
        if parsed.unreadable {
            Read::Broken
        } else {
            Read::Parsed {
                managed_only: parsed.managed_only,
            }
        }
    }
}

/// Parses one file's text. Returns the hooks that were valid and every problem found, in
/// document order.
pub fn parse_file(
    text: &str,
    file: &Path,
    scope: Scope,
    paths: &ConfigPaths,
) -> (Vec<Hook>, Vec<ConfigError>) {
    let parsed = parse_source(text, file, scope, paths);
    (parsed.hooks, parsed.errors)
}

/// One file's text, parsed.
struct Parsed {
    hooks: Vec<Hook>,
    errors: Vec<ConfigError>,
    /// `"allowManagedHooksOnly": true` in a managed file.
    managed_only: bool,
    /// Not a JSON object at all (nothing in it could be read).
    unreadable: bool,
}

fn parse_source(text: &str, file: &Path, scope: Scope, paths: &ConfigPaths) -> Parsed {
    let resolver = Resolver { file, scope, paths };
    let error = |hook: Option<String>, message: String| ConfigError {
        file: file.to_path_buf(),
        hook,
        message,
    };
    let mut parsed = Parsed {
        hooks: Vec::new(),
        errors: Vec::new(),
        managed_only: false,
        unreadable: false,
    };
    for entry in raw::read_file(text) {
        match entry {
            Entry::Unreadable(message) => {
                parsed.unreadable = true;
                parsed.errors.push(error(None, message));
            }
            Entry::Problem { hook, message } => parsed.errors.push(error(hook, message)),
            Entry::ManagedOnly(on) if scope == Scope::Managed => parsed.managed_only = on,
            Entry::ManagedOnly(_) => parsed.errors.push(error(
                None,
                format!(
                    "\"{MANAGED_ONLY_KEY}\" only has a meaning in the machine-wide managed file ({MANAGED_CONFIG}); remove it from this file"
                ),
            )),
            Entry::Hook(raw) => {
                let label = raw.label();
                match resolver.resolve(*raw) {
                    Ok(hook) => parsed.hooks.push(hook),
                    Err(problems) => parsed.errors.extend(
                        problems
                            .into_iter()
                            .map(|message| error(Some(label.clone()), message)),
                    ),
                }
            }
        }
    }
    parsed
}
