//! Which other agents' hook files are read, and in which order (DESIGN §10): after the
//! native files, `.ling/hooks.json`, then Claude Code's, Gemini CLI's and Codex's, project
//! before user within each agent (Claude Code: `settings.json`, `settings.local.json`, then
//! `~/.claude/settings.json`; Codex: `hooks.json`, then the `[hooks]` of `config.toml`). A project at the home directory reads each file once, as the
//! user's.

use super::Dialect;
use crate::config::{ConfigPaths, Scope};
use crate::confine::same_file;
use std::path::PathBuf;

/// One other agent's hook file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForeignSource {
    /// The project's (subject to trust) or the user's.
    pub scope: Scope,
    /// Whose format it is in.
    pub dialect: Dialect,
    /// Where it is.
    pub path: PathBuf,
}

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
            }),
            user => {
                out.push(ForeignSource {
                    scope: Scope::Project,
                    dialect,
                    path: project_file,
                });
                if let Some(user) = user {
                    out.push(ForeignSource {
                        scope: Scope::Global,
                        dialect,
                        path: user,
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
    out
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
        ]
        .map(|(s, d, p)| (s, d, p.to_string()));
        assert_eq!(got, want);
        assert!(foreign_sources(&paths.native_only()).is_empty());
    }
}
