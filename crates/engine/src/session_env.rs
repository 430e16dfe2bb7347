//! `CLAUDE_ENV_FILE`: the file a Claude Code SessionStart hook appends `export` lines to, so
//! that the agent's later shell calls have those variables (Claude Code's "persist
//! environment variables"). For hookhost's own agent, [`SessionEnv`] gives each Claude-dialect
//! SessionStart hook a private file, and [`parse`] reads what the hook left there: the
//! variables become the hook's `env` effect, which the core's shell tool applies to every
//! later call. Under `hookhost hook --for claude` the hooks get Claude Code's own file
//! instead (`dialect::env`), which Claude Code reads itself.
//!
//! Where: `<cache root>/session-env/<session>/sessionstart-hook-<file>-<index>.sh` (the
//! settled compile-cache root, else a temporary directory of the runner's own), the
//! directories 0700 and the file 0600, created afresh (truncated, never through a symlink)
//! before each run; never in the project.
//!
//! The file is **read, never run** (Claude Code runs it as a shell script before each
//! command; hookhost has no shell of its own outside the tool call). One line at a time:
//! - blank lines and `#` comments are skipped;
//! - `export NAME=VALUE` or `NAME=VALUE`, with `NAME` on an **allowlist** of variables whose
//!   value no program takes as code, a command or a place to load code from
//!   ([`env_file_allows`]): the locale (`LANG`, `LANGUAGE`, `LC_*`, a value without `/`,
//!   which would name a locale file), `TZ` (a zone name, without `/..`), the terminal
//!   (`TERM`, `COLORTERM`, `COLUMNS`, `LINES`, `NO_COLOR`, `FORCE_COLOR`, `CLICOLOR`,
//!   `CLICOLOR_FORCE`), `CI`, an application's mode (`NODE_ENV`, `RAILS_ENV`, `RACK_ENV`,
//!   `APP_ENV`, `MIX_ENV`), logging and output switches (`RUST_LOG`, `RUST_BACKTRACE`,
//!   `PYTHONUNBUFFERED`, `PYTHONDONTWRITEBYTECODE`, `PYTHONIOENCODING`), and `PATH` with
//!   absolute entries only (no relative or empty entry, which would run the project's
//!   `./ls`). Everything else is refused, by name: a deny-list missed `GIT_CONFIG_*` (a
//!   `core.fsmonitor` runs at the next `git status`), `NODE_OPTIONS`, `PYTHONPATH`,
//!   `PERL5OPT`, `RUBYOPT`, `GIT_SSH_COMMAND`, `GIT_EXTERNAL_DIFF`, `PAGER`, `GCONV_PATH`,
//!   `JAVA_TOOL_OPTIONS`, and every program has more. The names are also ones the shell
//!   tool takes ([`shell_env_allows`]);
//! - `VALUE` is unquoted text (no blanks, no `;&|<>()` or backquote), `'single quoted'` (as
//!   written), `"double quoted"` (`\"`, `\\`, `\$` and `` \` `` escapes), or several of these
//!   side by side; `$NAME` and `${NAME}` outside single quotes are replaced by the value the
//!   file gave earlier, else this process's own (`export PATH="$PATH:./bin"`); a command
//!   substitution (`$(...)`, a backquote) or any other `${...}` form is refused;
//! - anything after the value but a `#` comment, and every other line, is refused.
//!
//! A refused line sets nothing and is named in the hook's record (`message`).

use crate::agent::tools::shell_env_allows;
use crate::files::{private_dir, read_bounded_nofollow};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

mod prompts;
pub use prompts::{PromptReplacement, REPLACEMENTS_LIMIT};

/// Largest env file read: 1 MiB.
pub const ENV_FILE_LIMIT: u64 = 1 << 20;

/// What a hook left in its env file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnvFileRead {
    /// The variables it sets, in order (a later one of the same name wins).
    pub vars: Vec<(String, String)>,
    /// One message per refused line.
    pub refused: Vec<String>,
}

/// Where a runner's SessionStart hooks get their env files.
#[derive(Debug, Default)]
pub struct SessionEnv {
    /// The root given (`<cache>/session-env`), or none: the runner's own temporary one.
    root: Option<PathBuf>,
    temp: OnceLock<Option<tempfile::TempDir>>,
}

impl SessionEnv {
    /// Env files under `root` (created 0700 when missing; it must be private to this user).
    pub fn under(root: PathBuf) -> Self {
        SessionEnv {
            root: Some(root),
            temp: OnceLock::new(),
        }
    }

    /// The default root: `session-env` under the compile-cache root this process settled,
    /// else a temporary directory of this value's own (removed when it is dropped).
    pub fn default_root() -> Self {
        match crate::locations::settled().and_then(|r| r.cache) {
            Some(cache) => Self::under(cache.join("session-env")),
            None => Self::default(),
        }
    }

    fn root(&self) -> Option<PathBuf> {
        if let Some(root) = &self.root {
            return Some(root.clone());
        }
        let temp = self.temp.get_or_init(|| {
            tempfile::Builder::new()
                .prefix("hookhost-session-env-")
                .tempdir()
                .ok()
        });
        temp.as_ref().map(|t| t.path().to_path_buf())
    }

    /// A fresh, empty, private file named `name` for `session`: `Err` says why there is
    /// none (the hook then runs without `CLAUDE_ENV_FILE`).
    pub fn file(&self, session: &str, name: &str) -> Result<PathBuf, String> {
        let root = self
            .root()
            .ok_or("no cache directory and no temporary directory for CLAUDE_ENV_FILE")?;
        let dir = root.join(dir_name(session));
        session_dir(&root, &dir).map_err(|e| e.to_string())?;
        let path = dir.join(name);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
        }
        let mut file = options
            .open(&path)
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        file.flush()
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(path)
    }
}

impl SessionEnv {
    /// Claims the one run of a `once` hook in `session`: `Ok(true)` the first time (the mark
    /// `once-<key>` is created, atomically, so two processes of one session cannot both
    /// claim it), `Ok(false)` ever after; `Err` says why there is no mark to keep (the hook
    /// then runs).
    ///
    /// Where: beside the session's env files, `<root>/<session>/once-<key>` (the root is
    /// under the settled cache root, hookhost's own state: protected from the agent, never
    /// in the project).
    pub fn claim_once(&self, session: &str, key: &str) -> Result<bool, String> {
        let root = self
            .root()
            .ok_or("no cache directory and no temporary directory for the `once` mark")?;
        let dir = root.join(dir_name(session));
        session_dir(&root, &dir).map_err(|e| e.to_string())?;
        let path = dir.join(format!("once-{key}"));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
        }
        match options.open(&path) {
            Ok(_) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(format!("cannot create {}: {e}", path.display())),
        }
    }
}

impl SessionEnv {
    /// A fresh private directory for one background (`asyncRewake`) run of a hook in
    /// `session`: `<root>/<session>/rewake/<name>/`.
    pub fn rewake_job(&self, session: &str, name: &str) -> Result<PathBuf, String> {
        let jobs = self.rewake_jobs(session)?;
        let dir = jobs.join(name);
        private_dir(&dir).map_err(|e| e.to_string())?;
        Ok(dir)
    }

    /// The directory of `session`'s background runs, if any was started (nothing is
    /// created: most events look and find none).
    pub fn rewake_jobs_started(&self, session: &str) -> Option<PathBuf> {
        let jobs = self.root()?.join(dir_name(session)).join("rewake");
        jobs.is_dir().then_some(jobs)
    }

    /// The directory of `session`'s background runs (created private when missing).
    fn rewake_jobs(&self, session: &str) -> Result<PathBuf, String> {
        let root = self
            .root()
            .ok_or("no cache directory and no temporary directory for a background hook")?;
        let dir = root.join(dir_name(session));
        let jobs = dir.join("rewake");
        session_dir(&root, &dir)
            .and_then(|()| private_dir(&jobs))
            .map_err(|e| e.to_string())?;
        Ok(jobs)
    }
}

/// A session's state older than this (by its directory's last change) is removed when a new
/// session's directory is made: the `once` marks, asyncRewake results and prompt pairs of
/// sessions long over do not pile up. A session resumed after it runs its `once` hooks again.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(30 * 24 * 3600);
/// At most this many entries of the root are looked at per sweep.
const SWEEP_LIMIT: usize = 256;

/// The root and `dir` (one session's) created private; when `dir` is new, the stale sessions
/// beside it are removed first ([`STALE_AFTER`]).
pub(crate) fn session_dir(root: &Path, dir: &Path) -> Result<(), crate::files::DirError> {
    private_dir(root)?;
    if dir.symlink_metadata().is_err() {
        sweep(root, std::time::SystemTime::now());
    }
    private_dir(dir)
}

/// Removes the directories under `root` last changed [`STALE_AFTER`] before `now` (never
/// following a link: a symlink there is removed as a link).
fn sweep(root: &Path, now: std::time::SystemTime) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.filter_map(Result::ok).take(SWEEP_LIMIT) {
        let Ok(meta) = entry.path().symlink_metadata() else {
            continue;
        };
        let stale = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .is_some_and(|age| age > STALE_AFTER);
        if stale && meta.file_type().is_dir() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The directory of a session: its id when that is a plain name (letters, digits, `-`,
/// `_`, `.`, at most 64, not starting with a dot), else its SHA-256 (a payload's session id
/// is not a path).
fn dir_name(session: &str) -> String {
    let plain = !session.is_empty()
        && session.len() <= 64
        && !session.starts_with('.')
        && session
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if plain {
        session.to_string()
    } else {
        crate::files::sha256_hex(session.as_bytes())[..32].to_string()
    }
}

/// What a hook left in its env file, read strictly (see the module's rules).
pub fn read(path: &Path) -> EnvFileRead {
    match read_bounded_nofollow(path, ENV_FILE_LIMIT) {
        Ok(bytes) => parse(&String::from_utf8_lossy(&bytes), &|name| {
            std::env::var(name).ok()
        }),
        Err(e) if e.is_not_found() => EnvFileRead::default(),
        Err(e) => EnvFileRead {
            vars: Vec::new(),
            refused: vec![format!("CLAUDE_ENV_FILE not read: {e}")],
        },
    }
}

/// The variables `text` sets, in order, and one message per refused line; `$NAME` is looked
/// up in the earlier lines, then with `host`.
pub fn parse(text: &str, host: &dyn Fn(&str) -> Option<String>) -> EnvFileRead {
    let mut vars: Vec<(String, String)> = Vec::new();
    let mut problems = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let lookup = |name: &str| {
            vars.iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .or_else(|| host(name))
                .unwrap_or_default()
        };
        match assignment(line, &lookup) {
            Ok((name, value)) => vars.push((name, value)),
            Err(why) => problems.push(format!("CLAUDE_ENV_FILE line {}: {why}", n + 1)),
        }
    }
    EnvFileRead {
        vars,
        refused: problems,
    }
}

/// One `export NAME=VALUE` line.
fn assignment(line: &str, lookup: &dyn Fn(&str) -> String) -> Result<(String, String), String> {
    let plain =
        "not a plain `export NAME=value` (hookhost reads this file, it never runs it); ignored";
    let rest = line
        .strip_prefix("export")
        .filter(|r| r.starts_with([' ', '\t']))
        .map_or(line, str::trim_start);
    let (name, value) = rest.split_once('=').ok_or(plain)?;
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') || name.is_empty() {
        return Err(plain.to_string());
    }
    if !shell_env_allows(name) || !ALLOWED.contains(&name) && !name.starts_with("LC_") {
        return Err(format!(
            "`{name}` is not taken: only variables that cannot make later commands run code no PreToolUse hook sees are (the locale, TZ, the terminal, NODE_ENV, PATH with absolute entries, ...: see SECURITY.md); ignored"
        ));
    }
    let value =
        word(value, lookup).map_err(|why| format!("the value of `{name}` {why}; ignored"))?;
    env_file_allows(name, &value)
        .map_err(|why| format!("`{name}` is not taken: {why}; ignored"))?;
    Ok((name.to_string(), value))
}

/// The names a `CLAUDE_ENV_FILE` may set (and every `LC_*`): see the module's rules.
pub const ALLOWED: [&str; 25] = [
    "PATH",
    "LANG",
    "LANGUAGE",
    "TZ",
    "TERM",
    "COLORTERM",
    "COLUMNS",
    "LINES",
    "NO_COLOR",
    "FORCE_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "CI",
    "NODE_ENV",
    "RAILS_ENV",
    "RACK_ENV",
    "APP_ENV",
    "MIX_ENV",
    "RUST_LOG",
    "RUST_BACKTRACE",
    "PYTHONUNBUFFERED",
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONIOENCODING",
    "LC_ALL",
    "LC_CTYPE",
];

/// Whether `name=value` may be taken from a `CLAUDE_ENV_FILE`: `name` on [`ALLOWED`] (or
/// `LC_*`) and a shell name the shell tool takes; `PATH` with absolute entries only; a
/// locale without `/` (a path would load a locale file of the project's); a `TZ` without
/// `..`. `Err` says why not.
pub fn env_file_allows(name: &str, value: &str) -> Result<(), String> {
    if !shell_env_allows(name) || !(ALLOWED.contains(&name) || name.starts_with("LC_")) {
        return Err("it is not on the allowlist of variables that cannot run code".into());
    }
    match name {
        "PATH" => match value.split(':').find(|e| !e.starts_with('/')) {
            Some("") => Err(
                "an empty entry in PATH runs programs from the current directory; give absolute directories only"
                    .into(),
            ),
            Some(e) => Err(format!(
                "the entry `{e}` is relative: it would run the project's programs from wherever a command runs; give absolute directories only"
            )),
            None => Ok(()),
        },
        "LANG" | "LANGUAGE" => no_slash(value),
        _ if name.starts_with("LC_") => no_slash(value),
        "TZ" if value.contains("..") => Err("a TZ with `..` names a file outside the zone database".into()),
        _ => Ok(()),
    }
}

fn no_slash(value: &str) -> Result<(), String> {
    if value.contains('/') {
        Err(
            "a locale with `/` is a path to locale files; give a locale name (`en_US.UTF-8`)"
                .into(),
        )
    } else {
        Ok(())
    }
}

/// A shell word: unquoted, single- and double-quoted parts side by side, then nothing but
/// blanks and a `#` comment.
fn word(text: &str, lookup: &dyn Fn(&str) -> String) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => loop {
                match chars.next() {
                    Some('\'') => break,
                    Some(c) => out.push(c),
                    None => return Err("has an unterminated single quote".into()),
                }
            },
            '"' => loop {
                match chars.next() {
                    Some('"') => break,
                    Some('\\') => match chars.next() {
                        Some(c @ ('"' | '\\' | '$' | '`')) => out.push(c),
                        Some(c) => {
                            out.push('\\');
                            out.push(c);
                        }
                        None => return Err("has an unterminated double quote".into()),
                    },
                    Some('$') => out.push_str(&expand(&mut chars, lookup)?),
                    Some('`') => return Err("runs a command (a backquote)".into()),
                    Some(c) => out.push(c),
                    None => return Err("has an unterminated double quote".into()),
                }
            },
            '$' => out.push_str(&expand(&mut chars, lookup)?),
            '\\' => match chars.next() {
                Some(c) => out.push(c),
                None => return Err("ends with a backslash".into()),
            },
            ' ' | '\t' => {
                let rest: String = chars.collect();
                let rest = rest.trim_start();
                return if rest.is_empty() || rest.starts_with('#') {
                    Ok(out)
                } else {
                    Err(format!("is followed by more than a comment (`{rest}`)"))
                };
            }
            ';' | '&' | '|' | '<' | '>' | '(' | ')' | '`' => {
                return Err(format!("has an unquoted `{c}`"));
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

/// `$NAME` or `${NAME}` after the `$`: its value; `$(...)` and other `${...}` forms are
/// refused; a `$` before anything else is itself.
fn expand(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    lookup: &dyn Fn(&str) -> String,
) -> Result<String, String> {
    let name_char = |c: &char| c.is_ascii_alphanumeric() || *c == '_';
    match chars.peek() {
        Some('(') => Err("runs a command (`$(`)".into()),
        Some('{') => {
            chars.next();
            let mut name = String::new();
            for c in chars.by_ref() {
                if c == '}' {
                    return if name.is_empty() || !name.chars().all(|c| name_char(&c)) {
                        Err(format!(
                            "uses `${{{name}}}`, which hookhost does not expand"
                        ))
                    } else {
                        Ok(lookup(&name))
                    };
                }
                name.push(c);
            }
            Err("has an unterminated `${`".into())
        }
        Some(c) if c.is_ascii_alphabetic() || *c == '_' => {
            let mut name = String::new();
            while let Some(c) = chars.next_if(name_char) {
                name.push(c);
            }
            Ok(lookup(&name))
        }
        _ => Ok("$".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> (Vec<(String, String)>, Vec<String>) {
        let r = parse(text, &|name| {
            (name == "PATH").then(|| "/usr/bin".to_string())
        });
        (r.vars, r.refused)
    }

    #[test]
    fn export_lines_are_read_and_nothing_is_run() {
        let (vars, problems) = parsed(
            "# set by load-context.sh\n\
             export NODE_ENV=production\n\
             export LANG='en_US.UTF-8'\n\
             TZ=\"Europe/Paris\"   # the office's\n\
             export PATH=\"$PATH:/opt/node/bin\"\n\
             export RUST_LOG=a'b c'\"d\\\"e\"${NODE_ENV}\n\
             \n",
        );
        assert_eq!(problems, [] as [String; 0]);
        assert_eq!(
            vars,
            [
                ("NODE_ENV".into(), "production".into()),
                ("LANG".into(), "en_US.UTF-8".into()),
                ("TZ".into(), "Europe/Paris".into()),
                ("PATH".into(), "/usr/bin:/opt/node/bin".into()),
                ("RUST_LOG".into(), "ab cd\"eproduction".into()),
            ]
        );
    }

    #[test]
    fn anything_that_would_run_code_is_refused_by_line() {
        let (vars, problems) = parsed(
            "export A=$(touch /tmp/pwned)\n\
             export B=`id`\n\
             export C=\"$(id)\"\n\
             export D=ok; rm -rf ~\n\
             export LD_PRELOAD=/tmp/x.so\n\
             export BASH_ENV=/tmp/x.sh\n\
             export HOOKHOST_TRUST=all\n\
             source ~/.bashrc\n\
             export E=${F:-x}\n\
             export 1X=y\n\
             export G='unterminated\n\
             export CI=1\n",
        );
        assert_eq!(vars, [("CI".to_string(), "1".to_string())]);
        assert_eq!(problems.len(), 11, "{problems:#?}");
        assert!(problems[0].starts_with("CLAUDE_ENV_FILE line 1: "));
        assert!(
            problems[4].contains("`LD_PRELOAD` is not taken"),
            "{}",
            problems[4]
        );
    }

    #[test]
    fn only_names_that_cannot_run_code_are_taken() {
        let (vars, problems) = parsed(
            "export GIT_CONFIG_COUNT=1\n\
             export GIT_CONFIG_KEY_0=core.fsmonitor\n\
             export NODE_OPTIONS=--require=./x.js\n\
             export PYTHONPATH=/tmp\n\
             export PERL5OPT=-Mx\n\
             export RUBYOPT=-rx\n\
             export GIT_SSH_COMMAND=x\n\
             export GIT_EXTERNAL_DIFF=x\n\
             export PAGER=x\n\
             export GCONV_PATH=/tmp\n\
             export JAVA_TOOL_OPTIONS=-javaagent:x\n\
             export PATH=bin:/usr/bin\n\
             export PATH=/usr/bin::/bin\n\
             export LC_ALL=../../tmp/x\n\
             export LC_TIME=C\n\
             export PATH=/usr/local/bin:/usr/bin\n",
        );
        assert_eq!(problems.len(), 14, "{problems:#?}");
        assert!(problems[0].contains("`GIT_CONFIG_COUNT` is not taken"));
        assert!(problems[11].contains("`bin` is relative"), "{problems:#?}");
        assert!(problems[12].contains("empty entry"), "{problems:#?}");
        assert_eq!(
            vars,
            [
                ("LC_TIME".to_string(), "C".to_string()),
                ("PATH".to_string(), "/usr/local/bin:/usr/bin".to_string())
            ]
        );
    }

    #[test]
    fn a_new_sessions_directory_sweeps_sessions_long_over() {
        let root = tempfile::tempdir().unwrap();
        let (old, recent) = (root.path().join("old"), root.path().join("recent"));
        for d in [&old, &recent] {
            std::fs::create_dir_all(d).unwrap();
            std::fs::write(d.join("once-x"), "").unwrap();
        }
        let long_ago =
            std::time::SystemTime::now() - STALE_AFTER - std::time::Duration::from_secs(60);
        std::fs::File::open(&old)
            .unwrap()
            .set_modified(long_ago)
            .unwrap();
        // An existing session's directory sweeps nothing.
        session_dir(root.path(), &recent).unwrap();
        assert!(old.exists());
        // A new one removes what is stale, and keeps what is not.
        session_dir(root.path(), &root.path().join("new")).unwrap();
        assert!(!old.exists());
        assert!(recent.join("once-x").exists());
    }

    #[test]
    fn a_session_gets_a_private_file_outside_any_project() {
        let root = tempfile::tempdir().unwrap();
        let env = SessionEnv::under(root.path().join("session-env"));
        let file = env.file("../../etc", "sessionstart-hook-0-0.sh").unwrap();
        assert!(file.starts_with(root.path().join("session-env")));
        assert_eq!(
            file.parent().unwrap().parent().unwrap(),
            root.path().join("session-env")
        );
        std::fs::write(&file, "export CI=1\n").unwrap();
        assert_eq!(read(&file).vars, [("CI".to_string(), "1".to_string())]);
        // Created afresh each time.
        let again = env.file("../../etc", "sessionstart-hook-0-0.sh").unwrap();
        assert_eq!(std::fs::read(&again).unwrap(), b"");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&again), 0o600);
            assert_eq!(mode(again.parent().unwrap()), 0o700);
            // A symlink planted where the file goes is not followed.
            let target = root.path().join("elsewhere");
            std::fs::remove_file(&again).unwrap();
            std::os::unix::fs::symlink(&target, &again).unwrap();
            assert!(env.file("../../etc", "sessionstart-hook-0-0.sh").is_err());
            assert!(!target.exists());
        }
        assert_eq!(dir_name("abc-123"), "abc-123");
        assert_eq!(dir_name("../x").len(), 32);
    }
}
