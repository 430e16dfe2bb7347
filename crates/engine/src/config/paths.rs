//! Where the config files are ([`ConfigPaths`]): the machine-wide managed files (and the
//! variables that may move them), the project's file, the user's, and whether other agents'
//! files are read too.

use crate::confine::canonical_or_same;
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
            let file = managed_location(
                crate::host_env::var_os(var, &format!("the standard {default}")),
                default,
            );
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
}
