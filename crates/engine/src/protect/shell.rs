//! Judging a shell command by its parse (`shell_parse`): every simple command the line would
//! run, wrappers unwrapped and nested ones included, is looked at.
//!
//! - A redirection that writes (`>`, `>>`, `&>`, `<>`) to a protected place: denied.
//! - `hookhost` (also through `npx`, `bunx`, `uvx`, `python -m`) with a subcommand that
//!   changes trust, packages or config, or one it does not know: denied.
//! - Any other command that is not a known reader, with an argument (or the value of an
//!   `--opt=value`) that resolves to a protected place: denied; for `rm`, `mv`, `chmod`,
//!   `chown` and the like also an argument above one (`rm -rf ~`).
//! - Inline code (`python -c`, `node -e`, `perl -e`, a `sed`/`awk` script) or a word built
//!   at run time (`$X/.claude/settings.json`) that names a protected place: denied.
//! - `cd DIR` moves where later relative paths are read from (every directory a `cd` names
//!   is tried).
//! - A line that cannot be decided statically (`eval "$X"`, `$CMD args`) is denied when its
//!   text names a protected place or hookhost.

use super::{Denial, Protected, Reach};
use crate::shell_parse::{self, RedirectKind, SimpleCommand, Word};
use std::path::{Path, PathBuf};

/// Commands that only read files: their arguments are not judged (their redirections are).
const READERS: &[&str] = &[
    "cat",
    "less",
    "more",
    "head",
    "tail",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ag",
    "ls",
    "stat",
    "file",
    "wc",
    "diff",
    "cmp",
    "jq",
    "du",
    "df",
    "realpath",
    "readlink",
    "dirname",
    "basename",
    "test",
    "[",
    "echo",
    "printf",
    "bat",
    "tree",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "b2sum",
    "cksum",
    "od",
    "hexdump",
    "xxd",
    "strings",
    "nl",
    "sort",
    "uniq",
    "cut",
    "tr",
    "column",
    "fold",
    "comm",
    "join",
    "paste",
    "which",
    "whereis",
    "type",
    "true",
    "false",
    "pwd",
    "id",
    "whoami",
    "date",
    ":",
    "cd",
    "pushd",
    "popd",
    "exit",
    "return",
];

/// Commands whose arguments are removed, moved or re-permissioned with what is below them.
const DESTRUCTIVE: &[&str] = &[
    "rm", "rmdir", "unlink", "shred", "mv", "chmod", "chown", "chgrp", "chattr", "setfacl",
    "rsync", "truncate", "find",
];

/// Interpreters and the options that take inline code.
const INLINE_CODE: &[(&str, &[&str])] = &[
    ("python", &["-c"]),
    ("node", &["-e", "--eval", "-p", "--print"]),
    ("nodejs", &["-e", "--eval", "-p", "--print"]),
    ("deno", &["eval"]),
    ("bun", &["-e", "--eval"]),
    ("perl", &["-e", "-E"]),
    ("ruby", &["-e"]),
    ("php", &["-r"]),
    ("lua", &["-e"]),
    ("pwsh", &["-c", "-Command"]),
    ("powershell", &["-c", "-Command"]),
    ("osascript", &["-e"]),
];

/// `hookhost` subcommands that change nothing of hookhost's state.
const HOOKHOST_READ_ONLY: &[&str] = &[
    "run",
    "hook",
    "check",
    "list",
    "explain",
    "log",
    "replay",
    "doctor",
    "inspect",
    "demo",
    "new",
    "build",
    "test",
    "pack",
    "compile",
    "serve",
    "warm-serve",
    "completions",
    "man",
    "help",
    "version",
];

/// `find` actions that change files.
const FIND_ACTIONS: &[&str] = &[
    "-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprintf", "-fls", "-fprint0",
];

impl Protected {
    /// The denial for the shell command `line` run in `cwd`, if any.
    pub(super) fn judge_shell(&self, line: &str, cwd: &Path) -> Option<Denial> {
        let analysis = plain(line).unwrap_or_else(|| shell_parse::analyze(line));
        let bases = self.bases(&analysis.commands, cwd);
        let from_stdin = analysis
            .commands
            .iter()
            .any(|c| c.via.iter().any(|w| w == "xargs") && !is_reader(c));
        for c in &analysis.commands {
            if let Some(d) = self.judge_command(c, &bases, from_stdin) {
                return Some(d);
            }
        }
        if let (true, Some(why)) = (analysis.cut_short, &analysis.undecidable) {
            // What comes after the point the parse stopped was never judged: fail closed.
            return Some(Denial {
                target: "what this command line runs".into(),
                what: format!(
                    "it cannot be checked for hookhost's protected files: {why}; split it or write it plainly"
                ),
            });
        }
        if analysis.undecidable.is_some() {
            if let Some(d) = self.named_in(line) {
                return Some(d);
            }
            if mentions_hookhost(line) {
                return Some(hookhost_denial(line.trim()));
            }
        }
        None
    }

    /// The directories relative paths are read from: `cwd`, and each directory a `cd` or
    /// `pushd` names (relative ones under `cwd` and under each earlier one).
    fn bases(&self, commands: &[SimpleCommand], cwd: &Path) -> Vec<PathBuf> {
        let mut bases = vec![cwd.to_path_buf()];
        for c in commands
            .iter()
            .filter(|c| matches!(c.name(), "cd" | "pushd"))
        {
            let target = c.argv.iter().skip(1).find(|w| !w.text.starts_with('-'));
            let dir = match target {
                None => self.home.clone(),
                Some(w) if w.dynamic => None,
                Some(w) => self.expand_home(&w.text),
            };
            if let Some(dir) = dir {
                let more: Vec<PathBuf> = bases.iter().map(|b| b.join(&dir)).collect();
                for m in more {
                    if !bases.contains(&m) && bases.len() < 32 {
                        bases.push(m);
                    }
                }
            }
        }
        bases
    }

    fn judge_command(
        &self,
        c: &SimpleCommand,
        bases: &[PathBuf],
        from_stdin: bool,
    ) -> Option<Denial> {
        for r in &c.redirects {
            if r.kind != RedirectKind::Read
                && let Some(d) = self.judge_word(&r.target, bases, Reach::Inside)
            {
                return Some(d);
            }
        }
        let name = c.name();
        if let Some(d) = package_manager_change(c) {
            return Some(d);
        }
        if let Some(sub) = hookhost_subcommand(c) {
            return match sub {
                None => None,
                Some(s) if HOOKHOST_READ_ONLY.contains(&s.as_str()) => None,
                Some(_) => Some(hookhost_denial(&c.line())),
            };
        }
        if let Some(code) = inline_code(c) {
            if let Some(d) = self.named_in(&code) {
                return Some(d);
            }
            if mentions_hookhost(&code) {
                return Some(hookhost_denial(&c.line()));
            }
        }
        if let Some(d) = script_words(c).find_map(|w| self.named_in(&w.text)) {
            // `sed 's/x/y/w ~/.claude/settings.json'`, awk's `print > "..."`
            return Some(d);
        }
        if is_reader(c) && !from_stdin {
            return None;
        }
        let reach = if DESTRUCTIVE.contains(&name) {
            Reach::InsideOrAbove
        } else {
            Reach::Inside
        };
        if name == "cp"
            && let Some(dest) = cp_destination(c)
        {
            // `cp` reads its sources: only where it writes is judged.
            return self.judge_argument(dest, bases, reach);
        }
        c.argv
            .iter()
            .skip(1)
            .find_map(|w| self.judge_argument(w, bases, reach))
    }

    /// An argument: an option's `=value`, or the word itself unless it is an option.
    fn judge_argument(&self, w: &Word, bases: &[PathBuf], reach: Reach) -> Option<Denial> {
        if let Some(opt) = w.text.strip_prefix('-') {
            let value = opt.split_once('=').map(|(_, v)| v)?;
            let w = Word {
                text: value.to_string(),
                dynamic: w.dynamic,
            };
            return self.judge_word(&w, bases, reach);
        }
        if let Some((_, value)) = w.text.split_once('=')
            && let Some(d) = self.judge_word(
                &Word {
                    text: value.to_string(),
                    dynamic: w.dynamic,
                },
                bases,
                Reach::Inside,
            )
        {
            // `of=~/.claude/settings.json` (dd)
            return Some(d);
        }
        self.judge_word(w, bases, reach)
    }

    /// A word naming a path, read under each base; a word built at run time is judged by
    /// the protected places its text names.
    fn judge_word(&self, w: &Word, bases: &[PathBuf], reach: Reach) -> Option<Denial> {
        let text = w.text.as_str();
        let static_home = ["~", "$HOME", "${HOME}"].iter().any(|p| {
            text.strip_prefix(p)
                .is_some_and(|r| !r.contains('$') && !r.contains('`'))
        });
        if w.dynamic && !static_home {
            return self.named_in(text);
        }
        bases.iter().find_map(|b| self.check_path(b, text, reach))
    }
}

/// A line of one simple command with no quoting, expansion, redirection, operator or glob
/// (`cargo test --workspace`, `git status`, `ls -la src/`): its words are what the shell
/// would see, split at blanks, so the parser is not needed. `None` for anything else.
fn plain(line: &str) -> Option<shell_parse::Analysis> {
    let safe = |c: char| c.is_ascii_alphanumeric() || " \t_-./=:,@+%".contains(c);
    if line.len() > 4096 || !line.chars().all(safe) {
        return None;
    }
    let argv: Vec<Word> = line
        .split([' ', '\t'])
        .filter(|w| !w.is_empty())
        .map(|w| Word {
            text: w.to_string(),
            dynamic: false,
        })
        .collect();
    // `NAME=value cmd`: the parser says what an assignment is; a wrapper (`sudo`, `env`,
    // `nohup`, `find -exec`) runs another command the parser unwraps.
    if argv.is_empty() || argv[0].text.contains('=') {
        return None;
    }
    let name = argv[0].text.rsplit('/').next().unwrap_or_default();
    if shell_parse::runs_another(name, &argv[1..]) {
        return None;
    }
    Some(shell_parse::Analysis {
        commands: vec![SimpleCommand {
            argv,
            ..SimpleCommand::default()
        }],
        undecidable: None,
        cut_short: false,
    })
}

/// The words of a `sed` or `awk` command that are its program (`-e` values, else the first
/// operand), not the files it reads.
fn script_words(c: &SimpleCommand) -> impl Iterator<Item = &Word> {
    let name = c.name();
    let scripted = matches!(name, "sed" | "gsed" | "awk" | "gawk" | "mawk" | "nawk");
    let args: &[Word] = if scripted { &c.argv[1..] } else { &[] };
    let mut out: Vec<&Word> = Vec::new();
    let mut expect = false;
    let mut has_e = false;
    for w in args {
        if expect {
            out.push(w);
            expect = false;
        } else if matches!(w.text.as_str(), "-e" | "--expression") {
            expect = true;
            has_e = true;
        }
    }
    if !has_e && let Some(first) = args.iter().find(|w| !w.text.starts_with('-')) {
        out.push(first);
    }
    out.into_iter()
}

/// A package manager told to remove, replace or relink hookhost (`npm uninstall -g
/// hookhost`, `pipx uninstall hookhost`, `cargo install hookhost-cli --force`).
fn package_manager_change(c: &SimpleCommand) -> Option<Denial> {
    let managers = [
        "npm", "pnpm", "yarn", "bun", "pip", "pip3", "pipx", "uv", "cargo", "brew", "gem",
    ];
    if !managers.contains(&c.name()) {
        return None;
    }
    let verbs = [
        "uninstall",
        "remove",
        "rm",
        "un",
        "r",
        "i",
        "install",
        "add",
        "update",
        "upgrade",
        "up",
        "link",
        "unlink",
        "ln",
    ];
    let words: Vec<&str> = c.argv.iter().skip(1).map(|w| w.text.as_str()).collect();
    let names_hookhost = words
        .iter()
        .any(|w| w.to_ascii_lowercase().contains("hookhost"));
    (names_hookhost && words.iter().any(|w| verbs.contains(w))).then(|| hookhost_denial(&c.line()))
}

/// Where `cp` writes: `-t DIR` / `--target-directory=DIR`, else its last operand; `None`
/// when that cannot be told (then every word is judged).
fn cp_destination(c: &SimpleCommand) -> Option<&Word> {
    let args = &c.argv[1..];
    for (i, w) in args.iter().enumerate() {
        if w.text == "-t" || w.text == "--target-directory" {
            return args.get(i + 1);
        }
        if w.text.starts_with("--target-directory=")
            || (w.text.starts_with("-t") && w.text.len() > 2)
        {
            return None;
        }
    }
    let last = args.last()?;
    (!last.text.starts_with('-') && args.len() >= 2).then_some(last)
}

/// Whether the command only reads its arguments.
fn is_reader(c: &SimpleCommand) -> bool {
    let name = c.name();
    if name == "find" {
        return !c
            .argv
            .iter()
            .any(|w| FIND_ACTIONS.contains(&w.text.as_str()));
    }
    if name == "sed" {
        return !c
            .argv
            .iter()
            .any(|w| w.text.starts_with("-i") || w.text.starts_with("--in-place"));
    }
    READERS.contains(&name)
}

/// The inline code an interpreter runs (`python3 -c CODE`), if any.
fn inline_code(c: &SimpleCommand) -> Option<String> {
    let name = c.name();
    let family = name.trim_end_matches(|ch: char| ch.is_ascii_digit() || ch == '.');
    let (_, options) = INLINE_CODE
        .iter()
        .find(|(n, _)| *n == family || *n == name)?;
    let mut words = c.argv.iter().skip(1);
    let mut code = String::new();
    while let Some(w) = words.next() {
        if options.contains(&w.text.as_str()) {
            if let Some(v) = words.next() {
                code.push_str(&v.text);
                code.push('\n');
            }
        } else if let Some((opt, v)) = w.text.split_once('=')
            && options.contains(&opt)
        {
            code.push_str(v);
            code.push('\n');
        } else if w.text.len() > 2
            && options
                .iter()
                .any(|o| o.len() == 2 && w.text.starts_with(o))
        {
            // `-cCODE`, `-eCODE`
            code.push_str(&w.text[2..]);
            code.push('\n');
        }
    }
    (!code.is_empty()).then_some(code)
}

/// For a command that runs hookhost: `Some(subcommand)` (`None` inside when there is none
/// to read); `None` when the command does not run hookhost.
fn hookhost_subcommand(c: &SimpleCommand) -> Option<Option<String>> {
    let words: Vec<&str> = c.argv.iter().map(|w| w.text.as_str()).collect();
    let base = |w: &str| w.rsplit('/').next().unwrap_or(w).to_string();
    let is_hookhost = |w: &str| {
        let b = base(w);
        b == "hookhost" || b == "hookhost.exe" || b == "hookhost-cli"
    };
    let start = if is_hookhost(c.name()) {
        1
    } else {
        // `npx hookhost ...`, `pnpm dlx hookhost`, `python3 -m hookhost`, `pipx run hookhost`
        let name = c.name();
        let runner = matches!(
            name,
            "npx" | "pnpx" | "bunx" | "uvx" | "pipx" | "pnpm" | "yarn" | "npm" | "bun" | "uv"
        ) || name.starts_with("python");
        if !runner {
            return None;
        }
        let at = words.iter().skip(1).position(|w| {
            let w = w.trim_end_matches(|ch: char| ch == '@' || ch.is_ascii_digit() || ch == '.');
            is_hookhost(w) || w == "hookhost_cli" || w.starts_with("hookhost@")
        })?;
        at + 2
    };
    let sub = words
        .iter()
        .skip(start)
        .find(|w| !w.starts_with('-'))
        .map(|w| (*w).to_string());
    let help = words
        .iter()
        .skip(start)
        .any(|w| matches!(*w, "--help" | "-h" | "--version" | "-V"));
    Some(if help && sub.is_none() {
        Some("help".into())
    } else {
        sub
    })
}

/// Whether text (code, an undecidable line) runs hookhost with a subcommand that changes
/// its state.
fn mentions_hookhost(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.contains("hookhost")
        && [
            "trust", "add", "update", "remove", "import", "fetch", "publish", "install",
        ]
        .iter()
        .any(|s| {
            lower
                .split(|ch: char| !ch.is_ascii_alphanumeric() && ch != '-')
                .any(|w| w == *s)
        })
}

fn hookhost_denial(command: &str) -> Denial {
    let mut shown: String = command.chars().take(120).collect();
    if shown.len() < command.len() {
        shown.push('…');
    }
    Denial {
        target: format!("hookhost's state by running `{shown}`"),
        what: "a hookhost subcommand that changes trust, packages or config".into(),
    }
}
