//! Claude Code plugins' hooks: which installed plugins are enabled, where their
//! `hooks/hooks.json` is, and whose they are; and `${CLAUDE_PLUGIN_ROOT}` in their commands.
//!
//! Claude Code lists installed plugins in `~/.claude/plugins/installed_plugins.json`
//! (`{"plugins": {"NAME@MARKETPLACE": [{"installPath": "/abs/dir", ...}]}}`) and enables one
//! with `"enabledPlugins": {"NAME@MARKETPLACE": true}` in a settings file. A plugin's hooks
//! are `<installPath>/hooks/hooks.json`, in the settings files' `hooks` shape, and their
//! commands name the plugin's own files as `${CLAUDE_PLUGIN_ROOT}/...`.
//!
//! Rank and trust follow the file that enables the plugin: enabled in the user's
//! `~/.claude/settings.json`, its hooks are the user's; enabled only by the project's
//! `.claude/settings.json` or `settings.local.json`, they are the project's, untrusted until
//! `hookhost trust` (which pins the plugin's `hooks.json` like any project file). A project's
//! `false` never turns off a plugin the user enabled: a project cannot switch off the user's
//! hooks (as with every other switch).
//!
//! A plugin's own data directory (`CLAUDE_PLUGIN_DATA`, Claude Code 2.1.78 and later: state
//! kept across the plugin's updates) is `~/.claude/plugins/data/<id>`, the id with every
//! character but `A-Z a-z 0-9 _ -` made a `-` (`formatter@my-marketplace` is
//! `formatter-my-marketplace`), as Claude Code's plugins reference places it. hookhost puts it
//! under the user's home only (Claude Code's `CLAUDE_CODE_PLUGIN_CACHE_DIR` is a variable,
//! which a project may set: never read), and creates it, private, when a hook of the plugin
//! first starts ([`ensure_plugin_data`]).
//!
//! The options a plugin's user configured (its manifest's `userConfig`, asked for when it is
//! enabled) reach its hooks as `CLAUDE_PLUGIN_OPTION_<KEY>`, the key upper-cased, as Claude
//! Code gives them. Claude Code keeps the non-sensitive ones in the user's settings,
//! `"pluginConfigs": {"NAME@MARKETPLACE": {"options": {"KEY": value}}}`; hookhost reads them
//! from `~/.claude/settings.json` only, never from a project's settings (which could hand a
//! plugin values its user never gave). Sensitive options live in the system keychain (or
//! `~/.claude/.credentials.json`): hookhost reads no credentials store, so those are not
//! given ([`plugin_options`]).

use crate::Dialect;
use crate::config::Scope;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Settings and index files are read up to this size.
const FILE_LIMIT: u64 = 4 << 20;

/// One enabled plugin's hooks file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginHooks {
    /// `NAME@MARKETPLACE`.
    pub id: String,
    /// The plugin's directory (`${CLAUDE_PLUGIN_ROOT}`).
    pub root: PathBuf,
    /// Its `hooks/hooks.json`.
    pub file: PathBuf,
    /// The user's (enabled in the user's settings) or the project's.
    pub scope: Scope,
    /// Its data directory and configured options.
    pub env: PluginEnv,
}

/// What a Claude Code plugin's hooks get besides `CLAUDE_PLUGIN_ROOT`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PluginEnv {
    /// Its data directory (`${CLAUDE_PLUGIN_DATA}`): [`plugin_data_dir`].
    pub data: PathBuf,
    /// `(CLAUDE_PLUGIN_OPTION_<KEY>, value)`, from the user's settings: [`plugin_options`].
    pub options: Vec<(String, String)>,
}

/// What reading the plugin index found: the enabled plugins' hooks files, in the index's
/// order, and the files that could not be read (each with why).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plugins {
    /// Every enabled plugin's hooks file (whether or not it exists).
    pub hooks: Vec<PluginHooks>,
    /// Files that exist but cannot be read as JSON: (file, why).
    pub problems: Vec<(PathBuf, String)>,
}

/// The Claude Code plugins of `home` that the user's settings or the settings of `project`
/// enable, with their hooks files.
pub fn claude_plugins(home: &Path, project: &Path) -> Plugins {
    let mut out = Plugins::default();
    let mut json = |file: &Path| -> Option<Value> {
        let bytes = match crate::files::read_bounded(file, FILE_LIMIT) {
            Err(e) if e.is_not_found() => return None,
            Err(e) => {
                out.problems.push((file.to_path_buf(), e.to_string()));
                return None;
            }
            Ok(b) => b,
        };
        match serde_json::from_slice(&bytes) {
            Ok(v) => Some(v),
            Err(e) => {
                out.problems.push((
                    file.to_path_buf(),
                    format!(
                        "not valid JSON ({e}): {} cannot read it either",
                        Dialect::Claude.agent()
                    ),
                ));
                None
            }
        }
    };
    let Some(index) = json(&home.join(".claude/plugins/installed_plugins.json")) else {
        return out;
    };
    let user = json(&home.join(".claude/settings.json"));
    let projects: Vec<Value> = [".claude/settings.json", ".claude/settings.local.json"]
        .iter()
        .map(|rel| project.join(rel))
        // A project at the home directory: its settings.json is the user's, read above.
        .filter(|f| !crate::confine::same_file(f, &home.join(".claude/settings.json")))
        .filter_map(|f| json(&f))
        .collect();
    let enabled_in = |settings: &Value, id: &str| settings["enabledPlugins"][id] == true;
    for (id, installs) in index["plugins"].as_object().into_iter().flatten() {
        let scope = if user.as_ref().is_some_and(|u| enabled_in(u, id)) {
            Scope::Global
        } else if projects.iter().any(|p| enabled_in(p, id)) {
            Scope::Project
        } else {
            continue;
        };
        for install in installs.as_array().into_iter().flatten() {
            // The index is the user's own file; a relative path would be read against
            // whatever directory hookhost runs in: skipped.
            let Some(root) = install["installPath"].as_str().map(PathBuf::from) else {
                continue;
            };
            if !root.is_absolute() {
                continue;
            }
            out.hooks.push(PluginHooks {
                id: id.clone(),
                file: root.join("hooks/hooks.json"),
                root,
                scope,
                env: PluginEnv {
                    data: plugin_data_dir(home, id),
                    options: user
                        .as_ref()
                        .map(|u| plugin_options(u, id))
                        .unwrap_or_default(),
                },
            });
        }
    }
    out
}

/// The data directory of plugin `id` (`NAME@MARKETPLACE`) under `home`: one component made of
/// the id's letters, digits, `_` and `-` (anything else, `/` and `.` included, is a `-`), so
/// no id reaches outside `~/.claude/plugins/data`.
pub(crate) fn plugin_data_dir(home: &Path, id: &str) -> PathBuf {
    let name: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    home.join(".claude/plugins/data").join(name)
}

/// The options `settings` (the user's `~/.claude/settings.json`) holds for plugin `id`, as
/// hook environment variables: `pluginConfigs[id].options`, each key that is an identifier
/// (`^[A-Za-z_][A-Za-z0-9_]*$`, as Claude Code's manifest schema requires) as
/// `CLAUDE_PLUGIN_OPTION_<KEY upper-cased>`, a string as it is, a number or boolean as its
/// JSON text, a list (`multiple`) as its strings joined by `,`; anything else is left out.
pub(crate) fn plugin_options(settings: &Value, id: &str) -> Vec<(String, String)> {
    let Some(options) = settings["pluginConfigs"][id]["options"].as_object() else {
        return Vec::new();
    };
    let identifier = |k: &str| {
        k.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let scalar = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
        _ => None,
    };
    options
        .iter()
        .filter(|(k, _)| identifier(k))
        .filter_map(|(k, v)| {
            let value = match v {
                Value::Array(items) => items
                    .iter()
                    .map(scalar)
                    .collect::<Option<Vec<_>>>()?
                    .join(","),
                v => scalar(v)?,
            };
            // A NUL cannot be in an environment variable.
            (!value.contains('\0')).then(|| {
                (
                    format!("CLAUDE_PLUGIN_OPTION_{}", k.to_ascii_uppercase()),
                    value,
                )
            })
        })
        .collect()
}

/// Creates a plugin's data directory when it is missing: `data` and the directory itself
/// private to the user (0700), as a plugin's state may be a token. A path that exists is left
/// as it is (the user's to have chosen); one that is not a directory is an error.
pub(crate) fn ensure_plugin_data(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)?;
    if dir.is_dir() {
        Ok(())
    } else {
        Err(std::io::Error::other("exists and is not a directory"))
    }
}

/// `${CLAUDE_PLUGIN_ROOT}` (and `$CLAUDE_PLUGIN_ROOT`) in a plugin hook's `command` and
/// `args` replaced by the plugin's directory, as Claude Code expands it. A shell command also
/// gets the variable in its environment (a script that reads `$CLAUDE_PLUGIN_ROOT` itself
/// sees it, set by the `export` this prepends); an exec-form hook (`args`) and a wasm module
/// (which get no host environment) only the expansion.
pub fn expand_plugin_root(hook: &mut Value, root: &Path) {
    expand_root_variable(hook, root, "CLAUDE_PLUGIN_ROOT");
}

/// [`expand_plugin_root`] for a plugin whose agent names its directory by `var` (goose's
/// `PLUGIN_ROOT`).
pub(crate) fn expand_root_variable(hook: &mut Value, root: &Path, var: &str) {
    let root_text = root.display().to_string();
    let (braced, bare) = (format!("${{{var}}}"), format!("${var}"));
    let expand = |s: &str| s.replace(&braced, &root_text).replace(&bare, &root_text);
    let exec_form = hook.get("args").is_some();
    if let Some(Value::String(command)) = hook.get_mut("command") {
        let expanded = expand(command);
        *command = match shlex::try_quote(&root_text) {
            Ok(quoted) if !exec_form && hook_is_shell(&expanded) => {
                format!("export {var}={quoted}; {expanded}")
            }
            _ => expanded,
        };
    }
    if let Some(Value::Array(args)) = hook.get_mut("args") {
        for a in args.iter_mut() {
            if let Value::String(s) = a {
                *s = expand(s);
            }
        }
    }
}

/// Whether a command runs through the shell (not a `.wasm` module, whose command is split
/// into words without one).
fn hook_is_shell(command: &str) -> bool {
    !matches!(crate::config::wasm_words(command), Ok(Some(_)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn write(path: &Path, v: &Value) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, v.to_string()).unwrap();
    }

    #[test]
    fn enabled_plugins_rank_as_the_file_that_enables_them() {
        let t = tempfile::TempDir::new().unwrap();
        let (home, project) = (t.path().join("home"), t.path().join("p"));
        let install = |name: &str| t.path().join("cache").join(name);
        write(
            &home.join(".claude/plugins/installed_plugins.json"),
            &json!({"version": 2, "plugins": {
                "mine@m": [{"installPath": install("mine")}],
                "theirs@m": [{"installPath": install("theirs")}],
                "off@m": [{"installPath": install("off")}],
                "relative@m": [{"installPath": "plugins/relative"}],
            }}),
        );
        write(
            &home.join(".claude/settings.json"),
            &json!({"enabledPlugins": {"mine@m": true, "relative@m": true}}),
        );
        // The project turns the user's plugin off (not obeyed) and its own on.
        write(
            &project.join(".claude/settings.json"),
            &json!({"enabledPlugins": {"mine@m": false, "theirs@m": true, "off@m": false}}),
        );
        let found = claude_plugins(&home, &project);
        assert!(found.problems.is_empty(), "{:?}", found.problems);
        let got: Vec<(&str, Scope)> = found
            .hooks
            .iter()
            .map(|p| (p.id.as_str(), p.scope))
            .collect();
        assert_eq!(
            got,
            [("mine@m", Scope::Global), ("theirs@m", Scope::Project)]
        );
        assert_eq!(
            found.hooks[0].file,
            install("mine").join("hooks/hooks.json")
        );
        assert_eq!(
            found.hooks[0].env.data,
            home.join(".claude/plugins/data/mine-m")
        );
    }

    #[test]
    fn plugin_options_come_from_the_users_settings_only() {
        let settings = json!({"pluginConfigs": {"p@m": {"options": {
            "api_url": "https://x.example", "retries": 3, "strict": true,
            "paths": ["a", "b"], "nested": {"x": 1}, "bad-key": "v", "1st": "v",
            "nul": "a\u{0}b"
        }}, "other@m": {"options": {"leak": "no"}}}});
        let mut got = plugin_options(&settings, "p@m");
        got.sort();
        let want: Vec<(String, String)> = [
            ("CLAUDE_PLUGIN_OPTION_API_URL", "https://x.example"),
            ("CLAUDE_PLUGIN_OPTION_PATHS", "a,b"),
            ("CLAUDE_PLUGIN_OPTION_RETRIES", "3"),
            ("CLAUDE_PLUGIN_OPTION_STRICT", "true"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .into();
        assert_eq!(got, want);
        assert!(plugin_options(&json!({}), "p@m").is_empty());

        // Through the index: the user's settings give options; a project's pluginConfigs
        // (which could hand a plugin values its user never gave) are not read.
        let t = tempfile::TempDir::new().unwrap();
        let (home, project) = (t.path().join("home"), t.path().join("p"));
        write(
            &home.join(".claude/plugins/installed_plugins.json"),
            &json!({"plugins": {
                "mine@m": [{"installPath": t.path().join("mine")}],
                "theirs@m": [{"installPath": t.path().join("theirs")}],
            }}),
        );
        write(
            &home.join(".claude/settings.json"),
            &json!({"enabledPlugins": {"mine@m": true},
                "pluginConfigs": {"mine@m": {"options": {"level": "strict"}}}}),
        );
        write(
            &project.join(".claude/settings.json"),
            &json!({"enabledPlugins": {"theirs@m": true},
                "pluginConfigs": {"mine@m": {"options": {"level": "off", "extra": "x"}},
                    "theirs@m": {"options": {"token": "planted"}}}}),
        );
        let found = claude_plugins(&home, &project);
        let options: Vec<(&str, &[(String, String)])> = found
            .hooks
            .iter()
            .map(|p| (p.id.as_str(), p.env.options.as_slice()))
            .collect();
        assert_eq!(
            options,
            [
                (
                    "mine@m",
                    &[(
                        "CLAUDE_PLUGIN_OPTION_LEVEL".to_string(),
                        "strict".to_string()
                    )][..]
                ),
                ("theirs@m", &[][..])
            ]
        );
    }

    #[test]
    fn a_plugin_data_directory_is_one_private_component_under_the_home() {
        let home = Path::new("/h");
        assert_eq!(
            plugin_data_dir(home, "formatter@my-marketplace"),
            Path::new("/h/.claude/plugins/data/formatter-my-marketplace")
        );
        // No id leaves the data directory.
        assert_eq!(
            plugin_data_dir(home, "../../x@m/y"),
            Path::new("/h/.claude/plugins/data/------x-m-y")
        );
        let t = tempfile::TempDir::new().unwrap();
        let dir = plugin_data_dir(t.path(), "p@m");
        ensure_plugin_data(&dir).unwrap();
        ensure_plugin_data(&dir).unwrap();
        #[cfg(unix)]
        for d in [&dir, &t.path().join(".claude/plugins/data")] {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(d).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o700, "{}", d.display());
        }
        let file = plugin_data_dir(t.path(), "f@m");
        std::fs::write(&file, "").unwrap();
        assert!(ensure_plugin_data(&file).is_err());
    }

    #[test]
    fn the_plugin_root_is_expanded_and_exported() {
        let mut h = json!({"command": "${CLAUDE_PLUGIN_ROOT}/scripts/guard.sh --x"});
        expand_plugin_root(&mut h, Path::new("/plug ins/g"));
        assert_eq!(
            h["command"],
            "export CLAUDE_PLUGIN_ROOT='/plug ins/g'; /plug ins/g/scripts/guard.sh --x"
        );
        // The exec form: expanded, no shell to export in.
        let mut e = json!({"command": "node", "args": ["$CLAUDE_PLUGIN_ROOT/a.js"]});
        expand_plugin_root(&mut e, Path::new("/plug ins/g"));
        assert_eq!(
            (&e["command"], &e["args"][0]),
            (&json!("node"), &json!("/plug ins/g/a.js"))
        );
        let mut w = json!({"command": "${CLAUDE_PLUGIN_ROOT}/g.wasm"});
        expand_plugin_root(&mut w, Path::new("/p"));
        assert_eq!(w["command"], "/p/g.wasm");
    }
}
