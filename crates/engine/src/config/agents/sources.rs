//! Which other agents' hook files are read, and in which order (DESIGN §10): after the
//! native files, `.ling/hooks.json`, then Claude Code's, Gemini CLI's and Codex's, project
//! before user within each agent (Claude Code: `settings.json`, `settings.local.json`, then
//! `~/.claude/settings.json`; Codex: `hooks.json`, then the `[hooks]` of `config.toml`). A project at the home directory reads each file once, as the
//! user's.

use super::plugins::PluginEnv;
use crate::Dialect;
use crate::config::{ConfigPaths, Scope};
use crate::confine::same_file;
use std::path::{Path, PathBuf};

/// One other agent's hook file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForeignSource {
    /// The project's (subject to trust) or the user's.
    pub scope: Scope,
    /// Whose format it is in.
    pub dialect: Dialect,
    /// Where it is.
    pub path: PathBuf,
    /// Why it cannot be read as a source (a directory of hook files that is too big): an
    /// error for `path`, nothing is read from it.
    pub problem: Option<String>,
    /// A Claude Code plugin's hooks file: the plugin's directory, `${CLAUDE_PLUGIN_ROOT}` in
    /// its commands.
    pub plugin_root: Option<PathBuf>,
    /// A Claude Code plugin's data directory (`${CLAUDE_PLUGIN_DATA}`, not created yet) and
    /// the options its user configured (`CLAUDE_PLUGIN_OPTION_*`).
    pub plugin_env: Option<PluginEnv>,
}

/// At most this many `*.json` files of one Copilot CLI hooks directory are read; more is an
/// error (a project must not make every run read thousands of files).
const MAX_COPILOT_FILES: usize = 64;

/// At most this many entries of a Copilot CLI hooks directory are looked at.
const MAX_COPILOT_ENTRIES: usize = 4096;

/// The other agents' files of `paths`, in load order; none when `paths.foreign` is off (the
/// outbound adapter never reads the agent's own settings).
pub fn foreign_sources(paths: &ConfigPaths) -> Vec<ForeignSource> {
    if !paths.foreign {
        return Vec::new();
    }
    let project = &paths.project_dir;
    let home = paths.home.as_ref();
    let mut out = Vec::new();
    // (dialect, path relative to the project or the home directory, project-only?)
    let table: &[(Dialect, &str, bool)] = &[
        (Dialect::Ling, ".ling/hooks.json", true),
        (Dialect::Claude, ".claude/settings.json", false),
        (Dialect::Claude, ".claude/settings.local.json", true),
        (Dialect::Gemini, ".gemini/settings.json", false),
        (Dialect::Codex, ".codex/hooks.json", false),
        // Its inline `[[hooks.<Event>]]` tables, after hooks.json of the same scope.
        (Dialect::Codex, ".codex/config.toml", false),
        (Dialect::Cursor, ".cursor/hooks.json", false),
    ];
    for &(dialect, rel, project_only) in table {
        let project_file = project.join(rel);
        let user_file = home.filter(|_| !project_only).map(|h| h.join(rel));
        match user_file {
            // The project is the home directory: the file is the user's own, read once.
            Some(user) if same_file(&user, &project_file) => out.push(ForeignSource {
                scope: Scope::Global,
                dialect,
                path: user,
                problem: None,
                plugin_root: None,
                plugin_env: None,
            }),
            user => {
                out.push(ForeignSource {
                    scope: Scope::Project,
                    dialect,
                    path: project_file,
                    problem: None,
                    plugin_root: None,
                    plugin_env: None,
                });
                if let Some(user) = user {
                    out.push(ForeignSource {
                        scope: Scope::Global,
                        dialect,
                        path: user,
                        problem: None,
                        plugin_root: None,
                        plugin_env: None,
                    });
                }
            }
        }
    }
    // Claude Code's order: the project's settings.json, its settings.local.json, then the
    // user's settings.json (read above right after the project's): move the local file up.
    if let Some(local) = out
        .iter()
        .position(|s| s.path.ends_with(".claude/settings.local.json"))
        && let Some(user) = out
            .iter()
            .position(|s| s.dialect == Dialect::Claude && s.scope == Scope::Global)
        && user < local
    {
        let l = out.remove(local);
        out.insert(user, l);
    }
    // The enabled Claude Code plugins' hooks, after Claude Code's settings files (the
    // plugin index's own problems are said by `doctor`).
    if let Some(home) = home {
        let at = out
            .iter()
            .rposition(|s| s.dialect == Dialect::Claude)
            .map_or(out.len(), |i| i + 1);
        out.splice(at..at, plugin_sources(home, project));
    }
    out.extend(copilot_files(
        Scope::Project,
        &project.join(".github/hooks"),
    ));
    if let Some(home) = home {
        out.extend(copilot_files(Scope::Global, &home.join(".copilot/hooks")));
    }
    for p in super::claude_like::PROFILES {
        out.extend(claude_like_sources(p, project, home));
    }
    out.extend(cline_sources(project, home));
    out.extend(windsurf_sources(project, home));
    out
}

/// Windsurf's workspace file, then the user's (its JetBrains plugin's `~/.codeium/hooks.json`
/// is not read).
fn windsurf_sources(project: &Path, home: Option<&PathBuf>) -> Vec<ForeignSource> {
    let file = |scope, path| ForeignSource {
        scope,
        dialect: Dialect::Windsurf,
        path,
        problem: None,
        plugin_root: None,
        plugin_env: None,
    };
    let mut out = vec![file(Scope::Project, project.join(".windsurf/hooks.json"))];
    if let Some(home) = home {
        out.push(file(
            Scope::Global,
            home.join(".codeium/windsurf/hooks.json"),
        ));
    }
    out
}

/// Cline's hook files (`cline.rs`): the project's directories, then the user's; a project at
/// the home directory reads its `.cline/hooks` once, as the user's.
fn cline_sources(project: &Path, home: Option<&PathBuf>) -> Vec<ForeignSource> {
    let at_home = home.is_some_and(|h| same_file(h, project));
    let mut out = Vec::new();
    if !at_home {
        for rel in super::cline::PROJECT_DIRS {
            out.extend(super::cline::hook_files(Scope::Project, &project.join(rel)));
        }
    }
    if let Some(home) = home {
        for rel in super::cline::USER_DIRS {
            out.extend(super::cline::hook_files(Scope::Global, &home.join(rel)));
        }
    }
    out
}

/// A Claude-like agent's files (`claude_like.rs`), project before user: its settings files
/// (a fallback one only where the file it stands in for is missing), the `*.json` files of
/// its hook directories, its plugins' `hooks/hooks.json`. A project at the home directory
/// reads each once, as the user's.
fn claude_like_sources(
    p: &super::claude_like::Profile,
    project: &Path,
    home: Option<&PathBuf>,
) -> Vec<ForeignSource> {
    let source = |scope, path| ForeignSource {
        scope,
        dialect: p.dialect,
        path,
        problem: None,
        plugin_root: None,
        plugin_env: None,
    };
    let at_home = home.is_some_and(|h| same_file(h, project));
    let scopes: Vec<(Scope, &Path)> = std::iter::once((Scope::Project, project))
        .filter(|_| !at_home)
        .chain(home.map(|h| (Scope::Global, h.as_path())))
        .collect();
    let mut out = Vec::new();
    for &(scope, dir) in &scopes {
        for &(rel, project_only) in p.files {
            if project_only && scope == Scope::Global {
                continue;
            }
            let file = dir.join(rel);
            match p.fallback.iter().find(|(main, _)| *main == rel) {
                Some((_, instead)) if !file.exists() => out.push(source(scope, dir.join(instead))),
                _ => out.push(source(scope, file)),
            }
        }
        for rel in p.hook_dirs {
            out.extend(json_files(p.dialect, scope, &dir.join(rel)));
        }
        for rel in p.plugin_dirs {
            out.extend(plugin_dir_sources(p.dialect, scope, &dir.join(rel)));
        }
    }
    out
}

/// Each plugin of a plugins directory that has a `hooks/hooks.json` (goose's
/// `.agents/plugins/NAME/`), sorted by name; its directory is the plugin root.
fn plugin_dir_sources(dialect: Dialect, scope: Scope, dir: &Path) -> Vec<ForeignSource> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut roots: Vec<PathBuf> = entries
        .take(MAX_COPILOT_ENTRIES)
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|root| root.join("hooks/hooks.json").is_file())
        .collect();
    roots.sort();
    roots
        .into_iter()
        .take(MAX_COPILOT_FILES)
        .map(|root| ForeignSource {
            scope,
            dialect,
            path: root.join("hooks/hooks.json"),
            problem: None,
            plugin_root: Some(root),
            plugin_env: None,
        })
        .collect()
}

/// The `*.json` files of a Copilot CLI hooks directory ([`json_files`]).
fn copilot_files(scope: Scope, dir: &Path) -> Vec<ForeignSource> {
    json_files(Dialect::Copilot, scope, dir)
}

/// The `*.json` files of an agent's hooks directory (Copilot CLI's, Grok CLI's), sorted by
/// name (none when it is missing or not a directory); too many is one source carrying the
/// error.
fn json_files(dialect: Dialect, scope: Scope, dir: &Path) -> Vec<ForeignSource> {
    let source = |path: PathBuf, problem: Option<String>| ForeignSource {
        scope,
        dialect,
        path,
        problem,
        plugin_root: None,
        plugin_env: None,
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    let mut too_many = false;
    for (n, entry) in entries.enumerate() {
        if n >= MAX_COPILOT_ENTRIES || files.len() > MAX_COPILOT_FILES {
            too_many = true;
            break;
        }
        let Ok(entry) = entry else { continue };
        let name = entry.file_name();
        let is_json = name.to_str().is_some_and(|n| {
            n.len() > ".json".len() && n.ends_with(".json") && !n.starts_with('.')
        });
        // A directory named `x.json` is no hook file (a symlink is read, bounded, as any file).
        if is_json && !entry.file_type().is_ok_and(|t| t.is_dir()) {
            files.push(entry.path());
        }
    }
    if too_many || files.len() > MAX_COPILOT_FILES {
        return vec![source(
            dir.to_path_buf(),
            Some(format!(
                "more than {MAX_COPILOT_FILES} hook files (or {MAX_COPILOT_ENTRIES} entries) in this directory; hookhost reads none of them: keep {}'s hooks in fewer files",
                if dialect == Dialect::Copilot {
                    "Copilot CLI"
                } else {
                    dialect.agent()
                }
            )),
        )];
    }
    files.sort();
    files.into_iter().map(|p| source(p, None)).collect()
}

/// The hooks files of the Claude Code plugins enabled for `project` ([`super::plugins`]).
fn plugin_sources(home: &Path, project: &Path) -> Vec<ForeignSource> {
    super::plugins::claude_plugins(home, project)
        .hooks
        .into_iter()
        .map(|p| ForeignSource {
            scope: p.scope,
            dialect: Dialect::Claude,
            path: p.file,
            problem: None,
            plugin_root: Some(p.root),
            plugin_env: Some(p.env),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_order_is_ling_claude_gemini_codex_project_before_user() {
        let paths =
            ConfigPaths::with_home(Path::new("/nonexistent/p"), Some("/nonexistent/h".into()));
        let got: Vec<(Scope, Dialect, String)> = foreign_sources(&paths)
            .into_iter()
            .filter(|s| !s.dialect.is_claude_like() && s.dialect != Dialect::Windsurf)
            .map(|s| (s.scope, s.dialect, s.path.display().to_string()))
            .collect();
        let want = [
            (
                Scope::Project,
                Dialect::Ling,
                "/nonexistent/p/.ling/hooks.json",
            ),
            (
                Scope::Project,
                Dialect::Claude,
                "/nonexistent/p/.claude/settings.json",
            ),
            (
                Scope::Project,
                Dialect::Claude,
                "/nonexistent/p/.claude/settings.local.json",
            ),
            (
                Scope::Global,
                Dialect::Claude,
                "/nonexistent/h/.claude/settings.json",
            ),
            (
                Scope::Project,
                Dialect::Gemini,
                "/nonexistent/p/.gemini/settings.json",
            ),
            (
                Scope::Global,
                Dialect::Gemini,
                "/nonexistent/h/.gemini/settings.json",
            ),
            (
                Scope::Project,
                Dialect::Codex,
                "/nonexistent/p/.codex/hooks.json",
            ),
            (
                Scope::Global,
                Dialect::Codex,
                "/nonexistent/h/.codex/hooks.json",
            ),
            (
                Scope::Project,
                Dialect::Codex,
                "/nonexistent/p/.codex/config.toml",
            ),
            (
                Scope::Global,
                Dialect::Codex,
                "/nonexistent/h/.codex/config.toml",
            ),
            (
                Scope::Project,
                Dialect::Cursor,
                "/nonexistent/p/.cursor/hooks.json",
            ),
            (
                Scope::Global,
                Dialect::Cursor,
                "/nonexistent/h/.cursor/hooks.json",
            ),
        ]
        .map(|(s, d, p)| (s, d, p.to_string()));
        assert_eq!(got, want);
        assert!(foreign_sources(&paths.native_only()).is_empty());
    }

    #[test]
    fn windsurfs_workspace_file_then_the_users() {
        let paths =
            ConfigPaths::with_home(Path::new("/nonexistent/p"), Some("/nonexistent/h".into()));
        let got: Vec<(Scope, String)> = foreign_sources(&paths)
            .into_iter()
            .filter(|s| s.dialect == Dialect::Windsurf)
            .map(|s| (s.scope, s.path.display().to_string()))
            .collect();
        assert_eq!(
            got,
            [
                (Scope::Project, "/nonexistent/p/.windsurf/hooks.json".into()),
                (
                    Scope::Global,
                    "/nonexistent/h/.codeium/windsurf/hooks.json".into()
                ),
            ]
        );
    }

    #[test]
    fn the_claude_like_agents_files_project_before_user() {
        let dir = tempfile::tempdir().unwrap();
        let (p, h) = (dir.path().join("p"), dir.path().join("h"));
        for f in [
            p.join(".grok/hooks/a.json"),
            h.join(".grok/hooks/u.json"),
            p.join(".agents/plugins/guard/hooks/hooks.json"),
            h.join(".factory/hooks.json"),
        ] {
            std::fs::create_dir_all(f.parent().unwrap()).unwrap();
            std::fs::write(&f, "{}").unwrap();
        }
        // A plugin without hooks/hooks.json is none.
        std::fs::create_dir_all(p.join(".agents/plugins/empty")).unwrap();
        let paths = ConfigPaths::with_home(&p, Some(h.clone()));
        let got: Vec<(Scope, Dialect, String, bool)> = foreign_sources(&paths)
            .into_iter()
            .filter(|s| s.dialect.is_claude_like())
            .map(|s| {
                let rel = s
                    .path
                    .strip_prefix(dir.path())
                    .unwrap()
                    .display()
                    .to_string();
                (s.scope, s.dialect, rel, s.plugin_root.is_some())
            })
            .collect();
        // scope, dialect, path, a plugin root (no project hooks.json: Droid reads the
        // project's settings.json instead).
        let want: Vec<(Scope, Dialect, String, bool)> = "\
            P qwen p/.qwen/settings.json -|G qwen h/.qwen/settings.json -|\
            P qoder p/.qoder/settings.json -|P qoder p/.qoder/settings.local.json -|\
            G qoder h/.qoder/settings.json -|P grok p/.grok/hooks/a.json -|\
            G grok h/.grok/hooks/u.json -|P droid p/.factory/settings.json -|\
            G droid h/.factory/hooks.json -|P auggie p/.augment/settings.json -|\
            P auggie p/.augment/settings.local.json -|G auggie h/.augment/settings.json -|\
            P goose p/.agents/plugins/guard/hooks/hooks.json root"
            .split('|')
            .map(|row| {
                let w: Vec<&str> = row.split_whitespace().collect();
                let scope = if w[0] == "P" {
                    Scope::Project
                } else {
                    Scope::Global
                };
                (
                    scope,
                    w[1].parse().unwrap(),
                    w[2].to_string(),
                    w[3] == "root",
                )
            })
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn copilot_reads_every_json_file_of_its_directories_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let (p, h) = (dir.path().join("p"), dir.path().join("h"));
        let hooks = p.join(".github/hooks");
        std::fs::create_dir_all(hooks.join("dir.json")).unwrap();
        std::fs::create_dir_all(h.join(".copilot/hooks")).unwrap();
        for name in ["b.json", "a.json", ".hidden.json", "notes.txt", ".json"] {
            std::fs::write(hooks.join(name), "{}").unwrap();
        }
        std::fs::write(h.join(".copilot/hooks/u.json"), "{}").unwrap();
        let paths = ConfigPaths::with_home(&p, Some(h.clone()));
        let got: Vec<(Scope, String)> = foreign_sources(&paths)
            .into_iter()
            .filter(|s| s.dialect == Dialect::Copilot)
            .map(|s| {
                assert!(s.problem.is_none());
                (
                    s.scope,
                    s.path.file_name().unwrap().to_string_lossy().into_owned(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (Scope::Project, "a.json".to_string()),
                (Scope::Project, "b.json".to_string()),
                (Scope::Global, "u.json".to_string()),
            ]
        );
        for n in 0..=MAX_COPILOT_FILES {
            std::fs::write(hooks.join(format!("x{n}.json")), "{}").unwrap();
        }
        let copilot: Vec<ForeignSource> = foreign_sources(&paths)
            .into_iter()
            .filter(|s| s.dialect == Dialect::Copilot && s.scope == Scope::Project)
            .collect();
        assert_eq!(copilot.len(), 1);
        assert_eq!(copilot[0].path, hooks);
        assert!(copilot[0].problem.as_deref().unwrap().contains("more than"));
    }
}
