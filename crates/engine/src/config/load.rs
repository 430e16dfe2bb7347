//! Which config files are read, in which order, and how their hooks are merged into one
//! [`HookSet`]; [`parse_file`] runs both phases over one file's text.
//!
//! The machine-wide managed file first, then the project's file, then the user's global one
//! (hooks then run by rank: managed, the user's, the project's); a missing file is empty; a project at the home directory reads its one file once, as
//! global. A managed file that says `"allowManagedHooksOnly": true` (or that exists but
//! cannot be read, which fails closed) turns the project's and the user's files off. Other
//! agents' files (Claude Code, Gemini CLI, Codex, ling) load after hookhost's own, and
//! Claude Code's managed settings load with the managed file. Once every file is read, the
//! switches turn hooks off (`switches.rs`: `disableAllHooks`, the agents' own, each within
//! its file's rank and below, never managed hooks). Each file is read bounded
//! ([`read_bounded`]: no FIFOs, no endless files) and hashed from the exact bytes parsed, so
//! what trust compares is what runs.

use super::agents;
use super::http_policy::{self, HttpPolicy};
use super::model_hooks;
use super::parse::{parse_foreign, parse_source};
use super::paths::{
    CLAUDE_MANAGED_SETTINGS, CLAUDE_MANAGED_SETTINGS_ENV, ConfigPaths, MANAGED_CONFIG,
    MANAGED_CONFIG_ENV,
};
use super::raw::{DISABLE_ALL_KEY, MANAGED_ONLY_KEY};
use super::switches::{self, Reach, Switch};
use super::types::{DisabledHook, Hook, HookSet, Scope};
use crate::Dialect;
use crate::confine::{canonical_or_same, same_file};
use crate::files::{CONFIG_LIMIT, read_bounded, sha256_hex};
use crate::locations::check_root_owned;
use hookhost_protocol::{ConfigError, ConfigErrors};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
    let managed_only = loaded.read_managed(paths);
    if managed_only.is_none() {
        for (file, scope) in user_sources(paths) {
            loaded.files.push(file.clone());
            loaded.read(&file, scope, paths);
        }
        // Other agents' files (DESIGN §10), after the native ones.
        for (n, source) in agents::foreign_sources(paths).into_iter().enumerate() {
            if let Some(why) = source.problem {
                loaded.errors.push(ConfigError {
                    file: source.path,
                    hook: None,
                    message: why,
                });
                continue;
            }
            loaded.files.push(source.path.clone());
            let origin = (source.scope, u8::try_from(n + 1).unwrap_or(u8::MAX));
            loaded.read_foreign(
                &source.path,
                source.dialect,
                origin,
                paths,
                (source.plugin_root.as_deref(), source.plugin_env.as_ref()),
            );
        }
        // Skill and subagent frontmatter hooks: Claude Code's to run, named so none is
        // dropped silently.
        loaded.warnings.extend(agents::frontmatter_notes(paths));
    }
    let Loaded {
        mut hooks,
        mut disabled,
        errors,
        mut warnings,
        hashes,
        files,
        switches,
        http_policies,
        agent_files,
        model,
        require_sandbox,
    } = loaded;
    warnings.extend(model_hooks::give_model(&mut hooks, model.as_ref(), paths));
    // The switches, each over its rank and below (never managed hooks of another file).
    let (hooks, off) = switches::apply(hooks, &switches, &agent_files);
    disabled.extend(off);
    warnings.extend(switches::project_switch_notes(&switches));
    // Claude Code's `allowedHttpHookUrls` / `httpHookAllowedEnvVars`, each over its rank
    // and below.
    let (mut hooks, off) = http_policy::apply(hooks, &http_policies);
    disabled.extend(off);
    // Run order: by event, then by rank (managed, the user's, the project's: a guard of a
    // higher rank judges first, and judges again any call a lower rank rewrites); within a
    // rank hookhost's own file first, then other agents' files in their load order
    // (`source`); declared order within a file (a stable sort keeps it).
    hooks.sort_by_key(|h: &Hook| (h.event, h.scope.rank(), h.source));
    disabled.sort_by_key(|d| {
        let h = &d.hook;
        (h.event, h.scope.rank(), h.source, h.index)
    });
    let mut set = HookSet::from_hooks(hooks);
    set.files = files;
    set.file_hashes = hashes;
    set.warnings = warnings;
    set.managed_only = managed_only;
    set.require_sandbox = require_sandbox;
    set.disabled = disabled;
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

/// The hooks, problems, switches and hashes of the files read so far.
#[derive(Default)]
struct Loaded {
    hooks: Vec<Hook>,
    /// Hooks their own `"enabled": false` (or their own file's agent switch) turns off.
    disabled: Vec<DisabledHook>,
    errors: Vec<ConfigError>,
    warnings: Vec<ConfigError>,
    hashes: BTreeMap<PathBuf, String>,
    files: Vec<PathBuf>,
    /// Every file's switches, applied once all files are read.
    switches: Vec<Switch>,
    /// Claude Code's limits on HTTP hooks, by file, applied once all files are read.
    http_policies: Vec<HttpPolicy>,
    /// Which agent each other agent's file read belongs to.
    agent_files: BTreeMap<PathBuf, Dialect>,
    /// The model of `prompt` and `agent` hooks: the managed file's, else the user's.
    model: Option<std::sync::Arc<super::types::ModelConfig>>,
    /// The managed file that says `"requireSandbox": true`, if one does.
    require_sandbox: Option<PathBuf>,
}

impl Loaded {
    /// The managed files (hookhost's, and Claude Code's managed settings when other agents'
    /// files are read); returns the one that turns every other file off, if one does.
    fn read_managed(&mut self, paths: &ConfigPaths) -> Option<PathBuf> {
        let mut managed_only = None;
        let claude_managed = paths
            .claude_managed_file
            .as_ref()
            .filter(|_| paths.foreign)
            .map(|f| (f, Some(Dialect::Claude)));
        let managed = paths.managed_file.as_ref().map(|f| (f, None));
        for (file, dialect) in managed.into_iter().chain(claude_managed) {
            self.files.push(file.clone());
            let from_env = paths
                .managed_from_env
                .iter()
                .find(|(f, _)| f == file)
                .map(|(_, var)| *var);
            if let Some(why) = refused_managed(file, from_env, paths) {
                // Named by a variable a project's settings `env` can set, and not the
                // administrator's: not read. An error, so PreToolUse fails closed, and never
                // "no managed policy" silently; the project's and the user's files still load
                // (a refused file is no policy that could have said "managed hooks only").
                self.errors.push(ConfigError {
                    file: file.clone(),
                    hook: None,
                    message: why,
                });
                continue;
            }
            let read = match dialect {
                None => self.read(file, Scope::Managed, paths),
                Some(d) => self.read_foreign(file, d, (Scope::Managed, 0), paths, (None, None)),
            };
            match read {
                Read::Parsed { managed_only: true } => {
                    managed_only.get_or_insert_with(|| file.clone());
                }
                // Present but unreadable: it may have said "managed hooks only", so the other
                // files stay off (fail closed); its error blocks PreToolUse. Not so for a file
                // only a variable names: a project's `env` can point it at any file of root's
                // that is no hooks file (`/etc/hostname`) to switch the user's hooks off; its
                // error still blocks PreToolUse.
                Read::Broken if from_env.is_none() => {
                    managed_only.get_or_insert_with(|| file.clone());
                }
                // Absent: no managed policy.
                Read::Missing
                | Read::Parsed {
                    managed_only: false,
                }
                | Read::Broken => {}
            }
        }
        managed_only
    }

    /// A native hooks file.
    fn read(&mut self, file: &Path, scope: Scope, paths: &ConfigPaths) -> Read {
        let text = match self.read_text(file) {
            Ok(text) => text,
            Err(read) => return read,
        };
        let parsed = parse_source(&text, file, scope, paths);
        self.hooks.extend(parsed.hooks);
        self.disabled
            .extend(parsed.disabled.into_iter().map(|hook| DisabledHook {
                hook: std::sync::Arc::new(hook),
                by: file.to_path_buf(),
                why: "\"enabled\": false".into(),
            }));
        if parsed.disable_all {
            self.switches.push(Switch {
                file: file.to_path_buf(),
                scope,
                reach: Reach::Every,
                names: None,
                why: format!("\"{DISABLE_ALL_KEY}\": true"),
            });
        }
        self.errors.extend(parsed.errors);
        if parsed.require_sandbox {
            self.require_sandbox
                .get_or_insert_with(|| file.to_path_buf());
        }
        if let Some(m) = parsed.model {
            // Managed files are read first: the administrator's model wins.
            self.model.get_or_insert_with(|| std::sync::Arc::new(m));
        }
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
        plugin: (Option<&Path>, Option<&agents::PluginEnv>),
    ) -> Read {
        let text = match self.read_text(file) {
            Ok(text) => text,
            Err(read) => return read,
        };
        self.agent_files.insert(file.to_path_buf(), d);
        let parsed = parse_foreign(&text, file, d, origin, paths, plugin);
        self.hooks.extend(parsed.hooks);
        self.disabled
            .extend(parsed.disabled.into_iter().map(|(hook, why)| DisabledHook {
                hook: std::sync::Arc::new(hook),
                by: file.to_path_buf(),
                why,
            }));
        self.errors.extend(parsed.errors);
        self.warnings.extend(parsed.warnings);
        let limits = parsed.http_limits;
        if limits.urls.is_some() || limits.env_vars.is_some() {
            self.http_policies.push(HttpPolicy {
                file: file.to_path_buf(),
                scope: origin.0,
                urls: limits.urls,
                env_vars: limits.env_vars,
            });
        }
        for s in parsed.switches {
            if s.user_only && origin.0 != Scope::Global {
                self.warnings.push(ConfigError {
                    file: file.to_path_buf(),
                    hook: Some("hooks.state".into()),
                    message: format!(
                        "{}: {} reads this from the user's file only; ignored here",
                        s.why,
                        agents::agent_name(d)
                    ),
                });
                continue;
            }
            self.switches.push(Switch {
                file: file.to_path_buf(),
                scope: origin.0,
                reach: Reach::AgentFiles(d),
                names: s.names,
                why: s.why,
            });
        }
        if origin.0 != Scope::Managed {
            return Read::Parsed {
                managed_only: false,
            };
        }
        let text = match d {
            Dialect::Gemini => crate::jsonc::strip_comments(&text),
            _ => std::borrow::Cow::Borrowed(text.as_str()),
        };
        match serde_json::from_str::<serde_json::Value>(&text).ok() {
            Some(serde_json::Value::Object(root)) => Read::Parsed {
                // Claude Code's managed settings say "managed hooks only" with the same key.
                managed_only: root.get(MANAGED_ONLY_KEY) == Some(&serde_json::Value::Bool(true)),
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_model_comes_from_the_managed_file_else_the_users_never_the_projects() {
        use crate::config::Handler;
        let dir = tempfile::TempDir::new().unwrap();
        let project = dir.path().join("p");
        let home = dir.path().join("home");
        std::fs::create_dir_all(home.join(".coding-agent")).unwrap();
        std::fs::create_dir_all(project.join(".coding-agent")).unwrap();
        let block = |name: &str| {
            format!(
                r#""model": {{"api": "openai", "url": "http://127.0.0.1:9/v1", "name": "{name}"}}"#
            )
        };
        std::fs::write(
            project.join(".coding-agent/hooks.json"),
            r#"{"hooks": {"Stop": [{"prompt": "done? $ARGUMENTS"}]}}"#,
        )
        .unwrap();
        std::fs::write(
            home.join(".coding-agent/hooks.json"),
            format!("{{{}}}", block("users")),
        )
        .unwrap();
        let paths = ConfigPaths::with_home(&project, Some(home.clone()));
        let model_of = |set: &HookSet| match &set.all().next().unwrap().handler {
            Handler::Model { model, .. } => model.as_ref().map(|m| m.name.clone()),
            other => panic!("{other:?}"),
        };
        let (set, errors) = load_lenient(&paths);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(model_of(&set).as_deref(), Some("users"));

        // The managed file's wins.
        let managed = dir.path().join("managed.json");
        std::fs::write(&managed, format!("{{{}}}", block("managed"))).unwrap();
        let (set, errors) = load_lenient(&paths.clone().with_managed(Some(managed)));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(model_of(&set).as_deref(), Some("managed"));

        // A project's block is an error and is not used; with no other, the hook has none
        // and `check` is warned.
        std::fs::remove_file(home.join(".coding-agent/hooks.json")).unwrap();
        std::fs::write(
            project.join(".coding-agent/hooks.json"),
            format!(
                r#"{{{}, "hooks": {{"Stop": [{{"prompt": "done?"}}]}}}}"#,
                block("project")
            ),
        )
        .unwrap();
        let (set, errors) = load_lenient(&paths);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0]
                .message
                .contains("may only be set in your own file")
        );
        assert_eq!(model_of(&set), None);
        assert!(
            set.warnings
                .iter()
                .any(|w| w.message.contains("no model is configured")),
            "{:?}",
            set.warnings
        );
    }
}
