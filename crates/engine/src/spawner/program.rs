//! What a command hook's process is: the shell form's interpreter (`sh`, or the `shell` the
//! hook names: `bash`, PowerShell) and the exec form's program (`"command": "node", "args":
//! [...]`), found on `PATH` the way `execvp` finds it, with the placeholders Claude Code fills
//! in the exec form's words.
//!
//! Claude Code's hooks reference ("Exec form and shell form"): with `args`, `command` is
//! resolved as an executable and spawned directly with `args` as its argument vector, no
//! shell involved, so nothing expands `$VAR` in them; Claude Code substitutes its own path
//! placeholders (`${CLAUDE_PROJECT_DIR}`, `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}`)
//! in `command` and in each argument. hookhost does the same for exactly those names (and
//! its own `${HOOK_PROJECT_DIR}`), with the values it gives the hook itself, never from its
//! own environment; any other `$NAME` stays as written.

use crate::config::EXEC_PLACEHOLDERS;
use crate::config::ShellKind;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// `word` with each placeholder of [`EXEC_PLACEHOLDERS`] that `value` knows replaced; every
/// other `$` stays as written.
pub fn fill_placeholders<'a>(word: &str, value: impl Fn(&str) -> Option<&'a str>) -> String {
    let mut out = String::with_capacity(word.len());
    let mut rest = word;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let hit = EXEC_PLACEHOLDERS.iter().find_map(|name| {
            if let Some(tail) = after.strip_prefix('{').and_then(|a| a.strip_prefix(name))
                && let Some(tail) = tail.strip_prefix('}')
            {
                return Some((*name, tail));
            }
            let tail = after.strip_prefix(name)?;
            let ends = !tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
            ends.then_some((*name, tail))
        });
        match hit.and_then(|(name, tail)| value(name).map(|v| (v, tail))) {
            Some((v, tail)) => {
                out.push_str(v);
                rest = tail;
            }
            None => {
                out.push('$');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Why a command hook's program cannot be started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProgramError {
    /// A bare name found in no directory of `PATH`.
    #[error(
        "cannot start `{0}`: there is no program of that name on PATH; install it, or give its full path in `command` (with `args`, `command` is the program, started without a shell)"
    )]
    NotOnPath(String),
    /// A path that names no file.
    #[error(
        "cannot start `{program}`: {} does not exist; fix `command` (a relative path is relative to the hook's `cwd`)",
        path.display()
    )]
    NoSuchFile {
        /// As written.
        program: String,
        /// Where it was looked for.
        path: PathBuf,
    },
    /// A file that cannot be executed.
    #[error(
        "cannot start `{program}`: {} is not an executable file; make it executable (chmod +x), or name its interpreter as the program (\"command\": \"node\", \"args\": [\"{program}\"])",
        path.display()
    )]
    NotExecutable {
        /// As written.
        program: String,
        /// The file.
        path: PathBuf,
    },
    /// The `shell` the hook names is not installed.
    #[error(
        "the hook's `shell` is \"{shell}\", but there is no `{program}` on PATH; install it, or remove `shell` to run the command with sh"
    )]
    NoShell {
        /// The `shell` value.
        shell: &'static str,
        /// The interpreter looked for.
        program: &'static str,
    },
}

/// The file `program` names, looked up as `execvp` does: a name with a path separator is a
/// path (relative to `cwd`); a bare name is searched in each directory of `path` (an empty
/// entry is the working directory), the first executable file wins.
pub fn find_program(
    program: &str,
    cwd: &Path,
    path: Option<&OsStr>,
) -> Result<PathBuf, ProgramError> {
    let has_separator = program.contains('/') || (cfg!(windows) && program.contains('\\'));
    if has_separator {
        let file = cwd.join(program);
        return if !file.is_file() {
            Err(ProgramError::NoSuchFile {
                program: program.to_string(),
                path: file,
            })
        } else if !is_executable(&file) {
            Err(ProgramError::NotExecutable {
                program: program.to_string(),
                path: file,
            })
        } else {
            Ok(file)
        };
    }
    let dirs = path.map(std::env::split_paths).into_iter().flatten();
    for dir in dirs {
        let dir = if dir.as_os_str().is_empty() {
            cwd.to_path_buf()
        } else {
            dir
        };
        for name in candidates(program) {
            let file = dir.join(&name);
            if file.is_file() && is_executable(&file) {
                return Ok(file);
            }
        }
    }
    Err(ProgramError::NotOnPath(program.to_string()))
}

/// The names a bare program may have on disk (Windows: with the usual executable suffixes).
fn candidates(program: &str) -> Vec<String> {
    if cfg!(windows) && Path::new(program).extension().is_none() {
        [".exe", ".cmd", ".bat", ".com"]
            .iter()
            .map(|ext| format!("{program}{ext}"))
            .collect()
    } else {
        vec![program.to_string()]
    }
}

#[cfg(unix)]
fn is_executable(file: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    file.metadata()
        .is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(_file: &Path) -> bool {
    true
}

/// The interpreter and its leading arguments for a shell-form command run by `shell`, other
/// than `sh` (which keeps its own start-up, `shell.rs`).
pub fn interpreter(shell: ShellKind) -> Option<(&'static str, &'static [&'static str])> {
    match shell {
        ShellKind::Sh => None,
        ShellKind::Bash => Some(("bash", &["-c"])),
        ShellKind::Powershell if cfg!(windows) => {
            Some(("powershell.exe", &["-NoProfile", "-Command"]))
        }
        ShellKind::Powershell => Some(("pwsh", &["-NoProfile", "-Command"])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_filled_and_nothing_else() {
        let value = |n: &str| (n == "CLAUDE_PROJECT_DIR").then_some("/p q");
        assert_eq!(
            fill_placeholders("${CLAUDE_PROJECT_DIR}/g.js", value),
            "/p q/g.js"
        );
        assert_eq!(fill_placeholders("$CLAUDE_PROJECT_DIR/g", value), "/p q/g");
        // Not the placeholder's whole name, another name, one with no value: as written.
        assert_eq!(
            fill_placeholders("$CLAUDE_PROJECT_DIRX $HOME ${CLAUDE_PLUGIN_ROOT} $", value),
            "$CLAUDE_PROJECT_DIRX $HOME ${CLAUDE_PLUGIN_ROOT} $"
        );
        assert_eq!(fill_placeholders("a$$CLAUDE_PROJECT_DIR", value), "a$/p q");
    }

    #[cfg(unix)]
    #[test]
    fn programs_are_found_as_execvp_finds_them() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        let tool = bin.join("tool");
        std::fs::write(&tool, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(bin.join("data"), "").unwrap();
        let path = std::env::join_paths([dir.path().join("none"), bin.clone()]).unwrap();
        assert_eq!(
            find_program("tool", dir.path(), Some(&path)),
            Ok(tool.clone())
        );
        assert_eq!(
            find_program("data", dir.path(), Some(&path)),
            Err(ProgramError::NotOnPath("data".into()))
        );
        assert_eq!(find_program("bin/tool", dir.path(), None), Ok(tool));
        assert!(matches!(
            find_program("bin/data", dir.path(), None),
            Err(ProgramError::NotExecutable { .. })
        ));
        assert!(matches!(
            find_program("./gone", dir.path(), Some(&path)),
            Err(ProgramError::NoSuchFile { .. })
        ));
    }
}
