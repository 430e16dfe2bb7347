//! Which config files are read, in which order, and how their hooks are merged into one
//! [`HookSet`]; [`parse_file`] runs both phases over one file's text.
//!
//! The machine-wide managed file first, then the project's file, then the user's global one
//! (hooks then run by rank: managed, the user's, the project's); a missing file is empty; a project at the home directory reads its one file once, as
//! global. A managed file that says `"allowManagedHooksOnly": true` (or that exists but
//! //! cannot be read, which fails closed) turns the project's and the user's files off. Other
//! agents' files (Claude Code, Gemini CLI, Codex, ling) load after hookhost's own, and
//! Claude Code's managed settings load with the managed file. Each file is read bounded
//! ([`read_bounded`]: no FIFOs, no endless files) and hashed from the exact bytes parsed, so
//! what trust compares is what runs.

use super::errors::{ConfigError, ConfigErrors};
use super::raw::{self, Entry, MANAGED_ONLY_KEY};
use super::resolve::Resolver;
use super::types::{Hook, HookSet, Scope};
use crate::confine::{canonical_or_same, same_file};
use crate::dialect::{self, Dialect};
use crate::files::{CONFIG_LIMIT, read_bounded, sha256_hex};
use crate::locations::check_root_owned;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where the project's hooks live, relative to the project root.
pub const PROJECT_CONFIG: &str = ".coding-agent/hooks.json";

/// The machine-wide managed file: hooks an administrator installs for every user and
/// project of the machine.
pub const MANAGED_CONFIG: &str = "/etc/coding-agent/hooks.json";

/// Environment variable naming another managed file (packaging, tests), honoured only when
/// the machine has none at [`MANAGED_CONFIG`], and only when the file it names is root's (the
/// file and its directory owned by root, writable by no one else) and not inside the project:
/// a file it names that is refused is a config error (PreToolUse fails closed), and the
/// project's and the user's files still load. It does not make the file optional for
/// project or user files: those can never turn it off.
pub const MANAGED_CONFIG_ENV: &str = "HOOKHOST_MANAGED_CONFIG";

/// Claude Code's managed settings file on this platform; its `hooks` load as managed hooks in
/// the Claude dialect.
pub const CLAUDE_MANAGED_SETTINGS: &str = if cfg!(target_os = "macos") {
    "/Library/Application Support/ClaudeCode/managed-settings.json"
} else {
    "/etc/claude-code/managed-settings.json"
};

/// Environment variable naming another Claude Code managed settings file (tests, packaging).
pub const CLAUDE_MANAGED_SETTINGS_ENV: &str = "HOOKHOST_CLAUDE_MANAGED_SETTINGS";

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
    /// The machine-wide managed file (`/etc/coding-agent/hooks.json`, or
    /// `$HOOKHOST_MANAGED_CONFIG`), read first; `None` reads none (what
    /// [`with_home`](Self::with_home) gives, for isolation).
    pub managed_file: Option<PathBuf>,
    /// Claude Code's managed settings (`/etc/claude-code/managed-settings.json`, or
    /// `$HOOKHOST_CLAUDE_MANAGED_SETTINGS`), read with the managed file when other agents'
    /// files are read.
    pub claude_managed_file: Option<PathBuf>,
    /// Also read other agents' hook files (Claude Code, Gemini CLI, Codex, ling; DESIGN §10).
    /// On by default; the outbound adapter turns it off (it runs inside those agents).
    pub foreign: bool,
    /// The managed files above that a variable named (`$HOOKHOST_MANAGED_CONFIG`,
    /// `$HOOKHOST_CLAUDE_MANAGED_SETTINGS`), with the variable: a project's settings `env`
    /// can set those, so such a file must be root's, and one that is present but cannot be
    /// read does not turn the other files off (it is an error, which blocks PreToolUse).
    pub managed_from_env: Vec<(PathBuf, &'static str)>,
}

impl ConfigPaths {
    /// The standard locations for `project_dir`: the managed files, the project's, and the
    /// user's with the home directory from `dirs` (which honours `$HOME`: what the commands a
    /// user runs use; the adapter and the long-lived runners use
    /// [`for_project_with_home`](Self::for_project_with_home)).
    pub fn for_project(project_dir: &Path) -> Self {
        Self::for_project_with_home(project_dir, dirs::home_dir())
    }

    /// The standard locations for `project_dir` with the user's files under `home` (see
    /// [`crate::locations::runner_home`]), and the managed files.
    pub fn for_project_with_home(project_dir: &Path, home: Option<PathBuf>) -> Self {
        let mut paths = Self::with_home(project_dir, home);
        for (var, default) in [
            (MANAGED_CONFIG_ENV, MANAGED_CONFIG),
            (CLAUDE_MANAGED_SETTINGS_ENV, CLAUDE_MANAGED_SETTINGS),
        ] {
            let file = managed_location(std::env::var_os(var), default);
            if file != Path::new(default) {
                paths.managed_from_env.push((file.clone(), var));
            }
            if var == MANAGED_CONFIG_ENV {
                paths.managed_file = Some(file);
            } else {
                paths.claude_managed_file = Some(file);
            }
        }
        paths
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
            claude_managed_file: None,
            foreign: true,
            managed_from_env: Vec::new(),
        }
    }

    /// The same paths with `file` as the machine-wide managed file (`None`: none).
    pub fn with_managed(mut self, file: Option<PathBuf>) -> Self {
        self.managed_file = file;
        self
    }

    /// The same paths without other agents' files: only `.coding-agent/hooks.json` (and the
    /// managed one).
    pub fn native_only(mut self) -> Self {
        self.foreign = false;
        self
    }
}

/// Where the managed file is: `var` (the variable's value) when set and not empty, unless
/// the standard file `default` exists: a variable cannot hide the machine's own policy (a
/// project's Claude Code settings can set `env` for the hooks the adapter runs in).
fn managed_location(var: Option<std::ffi::OsString>, default: &str) -> PathBuf {
    let default = PathBuf::from(default);
    match var {
        Some(p) if !p.is_empty() && default.symlink_metadata().is_err() => PathBuf::from(p),
        _ => default,
    }
}

/// Loads every file. All problems of all files are returned together.
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
    let claude_managed = paths
        .claude_managed_file
        .as_ref()
        .filter(|_| paths.foreign)
        .map(|f| (f, Some(Dialect::Claude)));
    let managed = paths.managed_file.as_ref().map(|f| (f, None));
    for (file, dialect) in managed.into_iter().chain(claude_managed) {
        loaded.files.push(file.clone());
        let from_env = paths
            .managed_from_env
            .iter()
            .find(|(f, _)| f == file)
            .map(|(_, var)| *var);
        if let Some(why) = refused_managed(file, from_env, paths) {
            // Named by a variable a project's settings `env` can set, and not the
            // administrator's: not read. An error, so PreToolUse fails closed, and never "no
            // managed policy" silently; the project's and the user's files still load (a
            // refused file is no policy that could have said "managed hooks only").
            loaded.errors.push(ConfigError {
                file: file.clone(),
                hook: None,
                message: why,
            });
            continue;
        }
        let read = match dialect {
            None => loaded.read(file, Scope::Managed, paths),
            Some(d) => loaded.read_foreign(file, d, (Scope::Managed, 0), paths),
        };
        match read {
            // Absent: no managed policy.
            Read::Missing => {}
            Read::Parsed { managed_only: true } => {
                managed_only.get_or_insert_with(|| file.clone());
            }
            Read::Parsed {
                managed_only: false,
            } => {}
            // Present but unreadable: it may have said "managed hooks only", so the other
            // files stay off (fail closed); its error blocks PreToolUse. Not so for a file
            // only a variable names: a project's `env` can point it at any file of root's
            // that is no hooks file (`/etc/hostname`) to switch the user's hooks off; its
            // error still blocks PreToolUse.
            Read::Broken if from_env.is_none() => {
                managed_only.get_or_insert_with(|| file.clone());
            }
            Read::Broken => {}
        }
    }
    if managed_only.is_none() {
        for (file, scope) in user_sources(paths) {
            loaded.files.push(file.clone());
            loaded.read(&file, scope, paths);
        }
        // Other agents' files (DESIGN §10), after the native ones.
        for (n, source) in dialect::foreign_sources(paths).into_iter().enumerate() {
            loaded.files.push(source.path.clone());
            let origin = (source.scope, u8::try_from(n + 1).unwrap_or(u8::MAX));
            loaded.read_foreign(&source.path, source.dialect, origin, paths);
        }
    }
    let Loaded {
        mut hooks,
        errors,
        warnings,
        hashes,
        files,
    } = loaded;
    // Run order: by event, then by rank (managed, the user's, the project's: a guard of a
    // higher rank judges first, and judges again any call a lower rank rewrites); within a
    // rank hookhost's own file first, then other agents' files in their load order
    // (`source`); declared order within a file (a stable sort keeps it).
    hooks.sort_by_key(|h: &Hook| (h.event, h.scope.rank(), h.source));
    let mut set = HookSet::from_hooks(hooks);
    set.files = files;
    set.file_hashes = hashes;
    set.warnings = warnings;
    set.managed_only = managed_only;
    (set, errors)
}

/// Why the managed file `file` is not read, if it is not: named by the variable `from_env` (or
/// by code: `None`) and not at the machine's standard path, it lies inside the project; named
/// by a variable, it is not root's ([`check_root_owned`]).
fn refused_managed(
    file: &Path,
    from_env: Option<&'static str>,
    paths: &ConfigPaths,
) -> Option<String> {
    let standard = [MANAGED_CONFIG, CLAUDE_MANAGED_SETTINGS].map(Path::new);
    if standard.contains(&file) {
        return None;
    }
    let unset = from_env.map_or_else(
        || format!("unset {MANAGED_CONFIG_ENV} / {CLAUDE_MANAGED_SETTINGS_ENV}"),
        |var| format!("unset {var}"),
    );
    if canonical_or_same(file).starts_with(&paths.project_dir) {
        return Some(format!(
            "a managed file must not lie inside the project {} (a project cannot supply managed hooks); {unset}",
            paths.project_dir.display()
        ));
    }
    let var = from_env?;
    check_root_owned(file).err().map(|why| {
        format!(
            "not used as the managed file named by {var}: {why}; a managed file is the administrator's (owned by root, in a directory of root's, writable by no one else), and a project's settings `env` can set {var}; {unset}, or `chown root` and `chmod go-w` the file and its directory"
        )
    })
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
    warnings: Vec<ConfigError>,
    hashes: BTreeMap<PathBuf, String>,
    files: Vec<PathBuf>,
}

impl Loaded {
    /// A native hooks file.
    fn read(&mut self, file: &Path, scope: Scope, paths: &ConfigPaths) -> Read {
        let text = match self.read_text(file) {
            Ok(text) => text,
            Err(read) => return read,
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

    /// Another agent's settings file.
    fn read_foreign(
        &mut self,
        file: &Path,
        d: Dialect,
        origin: (Scope, u8),
        paths: &ConfigPaths,
    ) -> Read {
        let text = match self.read_text(file) {
            Ok(text) => text,
            Err(read) => return read,
        };
        let root = serde_json::from_str::<serde_json::Value>(&text).ok();
        let (h, e, w) = parse_foreign(&text, file, d, origin, paths);
        self.hooks.extend(h);
        self.errors.extend(e);
        self.warnings.extend(w);
        match root {
            Some(serde_json::Value::Object(root)) => Read::Parsed {
                // Claude Code's managed settings say "managed hooks only" with the same key.
                managed_only: origin.0 == Scope::Managed
                    && root.get(MANAGED_ONLY_KEY) == Some(&serde_json::Value::Bool(true)),
            },
            _ => Read::Broken,
        }
    }

    /// Reads one file bounded and records its hash; `Err` when it is absent or unreadable
    /// (then the problem is recorded).
    fn read_text(&mut self, file: &Path) -> Result<String, Read> {
        let problem = |message: String| ConfigError {
            file: file.to_path_buf(),
            hook: None,
            message,
        };
        let bytes = match read_bounded(file, CONFIG_LIMIT) {
            Ok(bytes) => bytes,
            Err(e) if e.is_not_found() => return Err(Read::Missing),
            Err(e) => {
                self.errors
                    .push(problem(format!("cannot read the file: {e}")));
                return Err(Read::Broken);
            }
        };
        self.hashes.insert(file.to_path_buf(), sha256_hex(&bytes));
        String::from_utf8(bytes).map_err(|_| {
            self.errors.push(problem(
                "the file is not UTF-8 text; save it as UTF-8 JSON".into(),
            ));
            Read::Broken
        })
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
            Entry::Hook(raw) => resolver.resolve(*raw),
            Entry::Problem { message, .. } | Entry::Unreadable(message) => Err(vec![message]),
            // `read_hook` reads one hook object; a file-level setting never comes back.
            Entry::ManagedOnly(_) => Err(vec!["not a hook object".into()]),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variable_moves_the_managed_file_only_where_the_machine_has_none() {
        let dir = tempfile::TempDir::new().unwrap();
        let standard = dir.path().join("hooks.json");
        let standard = standard.to_str().unwrap();
        let moved = || Some(std::ffi::OsString::from("/elsewhere/hooks.json"));
        assert_eq!(
            managed_location(moved(), standard),
            PathBuf::from("/elsewhere/hooks.json")
        );
        assert_eq!(
            managed_location(Some("".into()), standard),
            PathBuf::from(standard)
        );
        std::fs::write(standard, "{}").unwrap();
        assert_eq!(managed_location(moved(), standard), PathBuf::from(standard));
    }

    #[test]
    fn a_broken_managed_file_turns_the_others_off_only_when_no_variable_named_it() {
        let dir = tempfile::TempDir::new().unwrap();
        let project = dir.path().join("p");
        let home = dir.path().join("home");
        std::fs::create_dir_all(home.join(".coding-agent")).unwrap();
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(
            home.join(".coding-agent/hooks.json"),
            r#"{"hooks": {"Stop": [{"command": "true"}]}}"#,
        )
        .unwrap();
        let managed = dir.path().join("hostname");
        std::fs::write(&managed, "buildhost\n").unwrap();
        let by_code = ConfigPaths::with_home(&project, Some(home.clone()))
            .with_managed(Some(managed.clone()));
        let (set, errors) = load_lenient(&by_code);
        assert_eq!((set.len(), errors.len()), (0, 1), "by code: fails closed");
        assert!(set.managed_only.is_some());
        let mut by_var = by_code.clone();
        by_var.managed_from_env = vec![(managed.clone(), MANAGED_CONFIG_ENV)];
        let (set, errors) = load_lenient(&by_var);
        assert_eq!(errors.len(), 1, "{errors:?}");
        // Root's file (when the test is root): read, broken; else refused (not root's).
        // Either way the user's hook still loads.
        assert_eq!(set.len(), 1, "{errors:?}");
        assert!(set.managed_only.is_none());
    }
}
