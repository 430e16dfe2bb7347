//! What will break before it breaks: a shell hook whose program the shell will not run.
//!
//! A PreToolUse hook whose script is missing, not executable, or named bare (`guard.sh`,
//! which `sh` looks up on PATH, not in the current directory) exits 126/127 on every call,
//! and a failure to start blocks the call: every tool call would be blocked. `hookhost
//! check` reports these as errors on blocking events, and `run` adds the same diagnosis to
//! the message of a hook that exited 126/127. This module only looks; it runs nothing.

use std::path::Path;

const BUILTINS: &[&str] = &[
    ".", ":", "[", "alias", "break", "cd", "command", "continue", "echo", "eval", "exec", "exit",
    "export", "false", "printf", "pwd", "read", "return", "set", "shift", "source", "test",
    "times", "trap", "true", "type", "ulimit", "umask", "unset", "wait", "if", "for", "while",
    "case", "until", "{", "(", "!",
];

/// Why `sh -c command`, run in `cwd`, will not find or cannot execute its program, with the
/// fix; `None` when it looks runnable (or cannot be told: variables, substitutions).
pub fn shell_program_problem(command: &str, cwd: &Path) -> Option<String> {
    let words = shlex::split(command)?;
    // Skip leading `NAME=value` assignments.
    let program = words
        .iter()
        .find(|w| !(w.contains('=') && !w.starts_with('=') && !w.contains('/')))?;
    if BUILTINS.contains(&program.as_str())
        || program.contains(['$', '`', '*', '?'])
        || program.starts_with('~')
    {
        return None;
    }
    if program.contains('/') {
        let path = cwd.join(program);
        let Ok(meta) = std::fs::metadata(&path) else {
            return Some(format!(
                "`{program}` does not exist (relative to {}); the hook would fail with exit 127 on every run: fix the path",
                cwd.display()
            ));
        };
        if meta.is_dir() {
            return Some(format!(
                "`{program}` is a directory, not a program; the hook would fail with exit 126 on every run"
            ));
        }
        if !is_executable(&meta) {
            return Some(format!(
                "`{program}` is not executable; the hook would fail with exit 126 on every run: run `chmod +x {program}` (or start the command with `sh {program}`)"
            ));
        }
        return None;
    }
    let on_path = std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| {
            executable_names(program).any(|name| {
                std::fs::metadata(dir.join(name)).is_ok_and(|m| m.is_file() && is_executable(&m))
            })
        })
    });
    if on_path {
        return None;
    }
    if cwd.join(program).is_file() {
        return Some(format!(
            "`{program}` is a file in {} but the shell looks bare names up on PATH only; the hook would fail with exit 127: write `./{program}`",
            cwd.display()
        ));
    }
    Some(format!(
        "`{program}` is not a shell builtin, not on PATH and not a file (relative to {}); the hook would fail with exit 127 on every run",
        cwd.display()
    ))
}

/// The file names a bare program name is looked up as on PATH: the name itself, and on
/// Windows also with each of `%PATHEXT%`'s extensions (`cmd` is `cmd.exe` there).
fn executable_names(program: &str) -> impl Iterator<Item = String> + '_ {
    #[cfg(windows)]
    let exts: Vec<String> = std::env::var("PATHEXT")
        .unwrap_or_else(|_| ".COM;.EXE;.BAT;.CMD".into())
        .split(';')
        .filter(|e| !e.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    #[cfg(not(windows))]
    let exts: Vec<String> = Vec::new();
    std::iter::once(program.to_owned())
        .chain(exts.into_iter().map(move |e| format!("{program}{e}")))
}

#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &std::fs::Metadata) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_fix_for_each_mistake() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("guard.sh"), "#!/bin/sh\nexit 0\n").unwrap();
        let msg = shell_program_problem("./guard.sh", d).unwrap();
        assert!(msg.contains("chmod +x ./guard.sh"), "{msg}");
        let msg = shell_program_problem("guard.sh", d).unwrap();
        assert!(msg.contains("./guard.sh"), "{msg}");
        let msg = shell_program_problem("./missing.sh --x", d).unwrap();
        assert!(msg.contains("does not exist"), "{msg}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(d.join("guard.sh"), std::fs::Permissions::from_mode(0o755))
                .unwrap();
            assert_eq!(shell_program_problem("./guard.sh", d), None);
        }
        assert_eq!(shell_program_problem("sh -c 'exit 0'", d), None);
        assert_eq!(shell_program_problem("X=1 echo hi", d), None);
        assert_eq!(shell_program_problem("$HOME/x.sh", d), None);
    }
}
