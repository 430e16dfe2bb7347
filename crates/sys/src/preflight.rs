//! What will break before it breaks: a shell hook whose program the shell will not run.
//!
//! A PreToolUse hook whose script is missing, not executable, or named bare (`guard.sh`,
//! which `sh` looks up on PATH, not in the current directory) exits 126/127 on every call,
//! and a failure to start blocks the call: every tool call would be blocked. `hookhost
//! check` reports these as errors on blocking events, and `run` adds the same diagnosis to
//! the message of a hook that exited 126/127. This module only looks; it runs nothing.
//!
//! It also finds two mistakes a new user makes that start a program but still fail every
//! call: a path written with Windows separators (the shell reads `\` as an escape), and a
//! script behind an interpreter (`python3 .coding-agent/hooks/guard.py`) that is not there;
//! and a native `timeout` written in seconds ([`timeout_problem`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

const BUILTINS: &[&str] = &[
    ".", ":", "[", "alias", "break", "cd", "command", "continue", "echo", "eval", "exec", "exit",
    "export", "false", "printf", "pwd", "read", "return", "set", "shift", "source", "test",
    "times", "trap", "true", "type", "ulimit", "umask", "unset", "wait", "if", "for", "while",
    "case", "until", "{", "(", "!",
];

/// Why `sh -c command`, run in `cwd`, will not find or cannot execute its program, with the
/// fix; `None` when it looks runnable (or cannot be told: variables, substitutions).
pub fn shell_program_problem(command: &str, cwd: &Path) -> Option<String> {
    let problem = program_problem(command, cwd)?;
    Some(match backslash_path(command) {
        Some((written, forward)) => format!(
            "{problem}. The command writes the path `{written}` with backslashes, which the shell reads as escapes (it never sees them as separators): write `{forward}` (forward slashes work on Windows too)"
        ),
        None => problem,
    })
}

/// [`shell_program_problem`] for a hook that just failed to start (exit 126/127): what is
/// wrong and the fix, without `check`'s prediction ("the hook would fail with exit 126 on
/// every run"), which the run's own exit code has just said.
pub fn shell_program_failure(command: &str, cwd: &Path) -> Option<String> {
    shell_program_problem(command, cwd).map(|p| without_prediction(&p))
}

/// `text` with its "; the hook would fail ..." clause cut, up to the fix that follows it
/// (`: run ...`, `: write ...`) or the next sentence.
fn without_prediction(text: &str) -> String {
    const PREDICTION: &str = "; the hook would fail";
    let Some(start) = text.find(PREDICTION) else {
        return text.to_string();
    };
    let rest = &text[start..];
    let end = [": ", ". "]
        .iter()
        .filter_map(|sep| rest.find(sep))
        .min()
        .map_or(text.len(), |i| start + i);
    format!("{}{}", &text[..start], &text[end..])
}

fn program_problem(command: &str, cwd: &Path) -> Option<String> {
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
        return missing_script(program, &words, cwd);
    }
    if find_on_path(program).is_some() {
        return missing_script(program, &words, cwd);
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

/// Where `sh` (or a `Command`) finds the bare program name `program` on `$PATH`: the first
/// directory holding an executable regular file of that name (on Windows also with each of
/// `%PATHEXT%`'s extensions); `None` when there is none. The one PATH lookup of hookhost:
/// `check`, `doctor` and `build` all ask it.
pub fn find_on_path(program: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths).find_map(|dir| {
        executable_names(program)
            .map(|name| dir.join(name))
            .find(|p| is_executable_file(p))
    })
}

/// Whether `path` (a symlink followed) is a regular file this user could execute: some
/// execute bit set (not on Unix: any regular file).
pub fn is_executable_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && is_executable(&m))
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

/// Interpreters whose first operand is the script they run, with the options after which
/// the operand is code or a module rather than a file.
const INTERPRETERS: &[(&str, &[&str])] = &[
    // `python3`, `python3.11`: the version is trimmed off first.
    ("python", &["-c", "-m"]),
    (
        "node",
        &[
            "-e",
            "--eval",
            "-p",
            "--print",
            "-r",
            "--require",
            "--import",
        ],
    ),
    ("bash", &["-c"]),
    ("sh", &["-c"]),
    ("zsh", &["-c"]),
    ("ruby", &["-e", "-r"]),
    ("perl", &["-e", "-E", "-M"]),
    ("php", &["-r"]),
];

/// `python3 .coding-agent/hooks/guard.py` with no such file: the interpreter starts and fails
/// on every call (python exits 2 for it, which blocks the call).
fn missing_script(program: &str, words: &[String], cwd: &Path) -> Option<String> {
    let base = program.rsplit('/').next().unwrap_or(program);
    let base = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let (_, code_options) = INTERPRETERS.iter().find(|(name, _)| *name == base)?;
    let after = words.iter().skip_while(|w| w.as_str() != program).skip(1);
    for word in after {
        if code_options
            .iter()
            .any(|o| word == o || word.starts_with(&format!("{o}=")))
        {
            return None;
        }
        if word.starts_with('-') {
            continue;
        }
        if word.contains(['$', '`', '*', '?']) || word.starts_with('~') || word == "-" {
            return None;
        }
        let path = cwd.join(word);
        if path.exists() {
            return None;
        }
        return Some(format!(
            "`{program}` would run the script `{word}`, which does not exist (relative to {}); the hook would fail on every run: fix the path",
            cwd.display()
        ));
    }
    None
}

/// The first word of `command` that is a path written with backslashes
/// (`.coding-agent\hooks\x.sh`), and the same path with forward slashes.
fn backslash_path(command: &str) -> Option<(String, String)> {
    command
        .split_whitespace()
        .map(|w| w.trim_matches(|c| c == '"' || c == '\''))
        .find(|w| !w.contains('/') && looks_like_a_windows_path(w))
        .map(|w| (w.to_string(), w.replace('\\', "/")))
}

/// `C:\x`, `.\x`, `a\b\c`, or `dir\file.ext`; not a regex or an escaped space.
fn looks_like_a_windows_path(word: &str) -> bool {
    let name = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
    };
    let parts: Vec<&str> = word.split('\\').collect();
    let drive = word.len() > 3 && word.as_bytes()[1] == b':' && word.as_bytes()[2] == b'\\';
    parts.len() >= 2
        && (drive
            || parts[0] == "."
            || parts[0] == ".."
            || (parts.iter().all(|p| name(p))
                && (parts.len() >= 3 || parts[1].contains('.') && !parts[1].starts_with('.'))))
}

/// A native `timeout` under 100 ms: almost always seconds written where the unit is
/// milliseconds (`"timeout": 5`, Claude Code's unit), which kills the hook at once. `blocks`:
/// whether a timeout blocks where this hook runs (PreToolUse, or `onError: "block"`); else the
/// timeout is only a warning and the hook never does its job. The suggestion is the same
/// number of seconds in milliseconds.
pub fn timeout_problem(timeout: Duration, blocks: bool) -> Option<String> {
    let ms = timeout.as_millis();
    let then = if blocks {
        "and a timeout blocks the call"
    } else {
        "so it never does its job (a timeout here is only a warning)"
    };
    (ms < 100).then(|| {
        format!(
            "`timeout` is {ms} ms (hookhost's unit is milliseconds): the hook is killed almost at once, {then}; did you mean {}?",
            ms * 1000
        )
    })
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
    fn a_failure_at_run_time_drops_checks_prediction_and_keeps_the_fix() {
        assert_eq!(
            without_prediction(
                "`./g.sh` is not executable; the hook would fail with exit 126 on every run: run `chmod +x ./g.sh`"
            ),
            "`./g.sh` is not executable: run `chmod +x ./g.sh`"
        );
        assert_eq!(
            without_prediction(
                "`d` is a directory, not a program; the hook would fail with exit 126 on every run. The command writes"
            ),
            "`d` is a directory, not a program. The command writes"
        );
        assert_eq!(
            without_prediction(
                "`x` is not on PATH; the hook would fail with exit 127 on every run"
            ),
            "`x` is not on PATH"
        );
        assert_eq!(without_prediction("no prediction"), "no prediction");
    }

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

    #[test]
    fn a_windows_path_is_named_with_its_forward_slash_form() {
        let dir = tempfile::tempdir().unwrap();
        let msg = shell_program_problem(r".coding-agent\hooks\x.sh", dir.path()).unwrap();
        assert!(
            msg.contains("`.coding-agenthooksx.sh` is not a shell builtin"),
            "{msg}"
        );
        assert!(
            msg.contains(r"`.coding-agent\hooks\x.sh` with backslashes")
                && msg.contains("write `.coding-agent/hooks/x.sh`"),
            "{msg}"
        );
        let msg = shell_program_problem(r"python3 .coding-agent\hooks\x.py", dir.path()).unwrap();
        assert!(msg.contains("write `.coding-agent/hooks/x.py`"), "{msg}");
        // A backslash that escapes a character is not a path.
        assert_eq!(backslash_path(r"echo a\ b"), None);
        assert_eq!(backslash_path(r"grep 'x\.y' f"), None);
    }

    #[test]
    fn a_missing_script_behind_an_interpreter_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let msg = shell_program_problem("python3 .coding-agent/hooks/x.py", d).unwrap();
        assert!(
            msg.contains(
                "`python3` would run the script `.coding-agent/hooks/x.py`, which does not exist"
            ),
            "{msg}"
        );
        assert!(shell_program_problem("node -r dotenv/config missing.js", d).is_none());
        assert!(shell_program_problem("/usr/bin/python3.11 -u gone.py", d).is_some());
        std::fs::write(d.join("here.py"), "").unwrap();
        assert_eq!(shell_program_problem("python3 -u here.py --flag", d), None);
        assert_eq!(shell_program_problem("python3 -c 'print(1)'", d), None);
        assert_eq!(shell_program_problem("python3 -m json.tool", d), None);
        assert_eq!(shell_program_problem("bash -c 'exit 0'", d), None);
        assert_eq!(shell_program_problem("node $HOME/x.js", d), None);
        assert_eq!(shell_program_problem("sh", d), None);
    }

    #[test]
    fn a_timeout_in_seconds_is_caught() {
        let msg = timeout_problem(Duration::from_millis(5), true).unwrap();
        assert!(msg.contains("did you mean 5000?"), "{msg}");
        assert!(msg.contains("a timeout blocks the call"), "{msg}");
        let msg = timeout_problem(Duration::from_millis(5), false).unwrap();
        assert!(msg.contains("only a warning"), "{msg}");
        assert_eq!(timeout_problem(Duration::from_millis(100), true), None);
        assert_eq!(timeout_problem(Duration::from_secs(10), true), None);
    }
}
