//! Commands that run another command: what `sudo -u root rm x`, `timeout -s KILL 5 rm`,
//! `env -i A=1 rm`, `xargs -I{} rm {}`, `find . -exec rm {} \;`, `bash -c 'rm x'` or `eval rm x`
//! run, read from each wrapper's own option syntax. It owns that table of wrappers and their
//! options; it does not parse shell syntax (a `-c` string goes back to the walker as a script).

use super::Word;

/// What a wrapper runs.
#[derive(Debug)]
pub(super) enum Inner {
    /// These words, as a command of their own.
    Command {
        /// The wrapper, as `via` shows it.
        label: String,
        /// The command's words.
        argv: Vec<Word>,
        /// `NAME=VALUE` the wrapper sets (`env A=1 rm`, `sudo A=1 rm`).
        assignments: Vec<(String, Word)>,
    },
    /// This text, as a script (`sh -c`, `eval`, `env -S`, `flock -c`, `trap`, `su -c`).
    Script {
        /// The wrapper, as `via` shows it.
        label: String,
        /// The script.
        text: Word,
    },
    /// What it runs cannot be told.
    Undecidable(String),
}

/// What the command `name` (argv[0]'s file name) with `args` runs, if it is a wrapper.
pub(super) fn inner(name: &str, args: &[Word]) -> Vec<Inner> {
    let command = |label: &str, from: usize| command(label, args, from);
    match name {
        "command" => command(name, options(args, "", &[])),
        "builtin" | "nohup" | "setsid" | "busybox" => command(name, options(args, "", &[])),
        "exec" => command(name, options(args, "a", &[])),
        "nice" => command(name, options(args, "n", &["adjustment"])),
        "time" => command(name, options(args, "fo", &["format", "output"])),
        "stdbuf" => command(name, options(args, "ioe", &["input", "output", "error"])),
        "ionice" => command(
            name,
            options(args, "cnpPu", &["class", "classdata", "pid", "pgid", "uid"]),
        ),
        "doas" => with_assignments(name, args, options(args, "uC", &[])),
        "sudo" => with_assignments(name, args, options(args, SUDO_SHORT, SUDO_LONG)),
        "timeout" => command(name, options(args, "sk", &["signal", "kill-after"]) + 1),
        "chrt" => {
            let at = options(
                args,
                "TPD",
                &["sched-runtime", "sched-period", "sched-deadline"],
            );
            let priority = args
                .get(at)
                .is_some_and(|w| w.text.bytes().all(|b| b.is_ascii_digit()));
            command(name, at + usize::from(priority))
        }
        "xargs" => command(name, options(args, XARGS_SHORT, XARGS_LONG)),
        "env" => env(args),
        "flock" => flock(args),
        "find" => find(args),
        "eval" => eval(args),
        "su" => su(args),
        "trap" => trap(args),
        "alias" if args.iter().any(|a| a.text.contains('=')) => vec![Inner::Undecidable(
            "an alias is defined: a later word may run anything".to_string(),
        )],
        "sh" | "bash" | "dash" | "zsh" | "ksh" | "ash" | "mksh" | "rbash" => shell(name, args),
        _ => Vec::new(),
    }
}

const SUDO_SHORT: &str = "ugCDhpRrtTU";
const SUDO_LONG: &[&str] = &[
    "user",
    "group",
    "close-from",
    "chdir",
    "host",
    "prompt",
    "chroot",
    "role",
    "type",
    "command-timeout",
    "other-user",
];
const XARGS_SHORT: &str = "adELnPs";
const XARGS_LONG: &[&str] = &[
    "arg-file",
    "delimiter",
    "max-args",
    "max-procs",
    "max-chars",
    "process-slot-var",
];

fn command(label: &str, args: &[Word], from: usize) -> Vec<Inner> {
    match args.get(from..) {
        Some(rest) if !rest.is_empty() => vec![Inner::Command {
            label: label.to_string(),
            argv: rest.to_vec(),
            assignments: Vec::new(),
        }],
        _ => Vec::new(),
    }
}

/// The command after `NAME=VALUE` words (sudo, doas, env).
fn with_assignments(label: &str, args: &[Word], from: usize) -> Vec<Inner> {
    let mut at = from;
    let mut assignments = Vec::new();
    while let Some((name, value)) = args.get(at).and_then(assignment) {
        assignments.push((name, value));
        at += 1;
    }
    let mut out = command(label, args, at);
    if let Some(Inner::Command { assignments: a, .. }) = out.first_mut() {
        *a = assignments;
    }
    out
}

fn assignment(w: &Word) -> Option<(String, Word)> {
    let (name, value) = w.text.split_once('=')?;
    let valid = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then(|| {
        (
            name.to_string(),
            Word {
                text: value.to_string(),
                dynamic: w.dynamic,
            },
        )
    })
}

/// The index of the first operand after options: `short` are the letters whose option takes a
/// value (`-u root`, `-uroot`, `-nu root`), `long` the long options that take one (`--user root`,
/// `--user=root`, a unique prefix `--us root` too). `--` ends the options.
fn options(args: &[Word], short: &str, long: &[&str]) -> usize {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let a = a.text.as_str();
        if a == "--" {
            return i + 1;
        }
        if let Some(name) = a.strip_prefix("--") {
            let takes =
                !name.contains('=') && !name.is_empty() && long.iter().any(|l| l.starts_with(name));
            i += 1 + usize::from(takes);
            continue;
        }
        match a.strip_prefix('-') {
            Some(letters) if !letters.is_empty() => {
                let takes_next = letters
                    .char_indices()
                    .find(|(_, c)| short.contains(*c))
                    .is_some_and(|(at, c)| at + c.len_utf8() == letters.len());
                i += 1 + usize::from(takes_next);
            }
            _ => return i,
        }
    }
    i
}

/// `env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=VALUE]... [COMMAND [ARG]...]`.
fn env(args: &[Word]) -> Vec<Inner> {
    let mut i = 0;
    let mut split: Option<Word> = None;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        if t == "--" {
            i += 1;
            break;
        }
        let value_of = |attached: &str| -> (Option<Word>, usize) {
            if attached.is_empty() {
                (args.get(i + 1).cloned(), 2)
            } else {
                let w = Word {
                    text: attached.to_string(),
                    dynamic: a.dynamic,
                };
                (Some(w), 1)
            }
        };
        if let Some(rest) = t.strip_prefix("--split-string") {
            let (w, n) = value_of(rest.strip_prefix('=').unwrap_or(rest));
            split = w;
            i += n;
        } else if t == "--unset" || t == "--chdir" {
            i += 2;
        } else if t.starts_with("--") {
            i += 1;
        } else if let Some(letters) = t.strip_prefix('-').filter(|l| !l.is_empty()) {
            match letters
                .char_indices()
                .find(|(_, c)| matches!(c, 'u' | 'C' | 'S'))
            {
                Some((at, c)) => {
                    let (w, n) = value_of(&letters[at + c.len_utf8()..]);
                    if c == 'S' {
                        split = w;
                    }
                    i += n;
                }
                None => i += 1,
            }
        } else if t == "-" {
            i += 1;
        } else {
            break;
        }
    }
    let rest = args.get(i..).unwrap_or_default();
    if let Some(s) = split {
        let mut text = s;
        for w in rest {
            text.text.push(' ');
            text.text.push_str(&w.text);
            text.dynamic |= w.dynamic;
        }
        return vec![Inner::Script {
            label: "env -S".to_string(),
            text,
        }];
    }
    with_assignments("env", rest, 0)
}

/// `flock [options] FILE|FD [-c STRING | COMMAND [ARG]...]`.
fn flock(args: &[Word]) -> Vec<Inner> {
    let mut i = 0;
    let mut file_seen = false;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        if t == "-c" || t == "--command" {
            return args
                .get(i + 1)
                .map(|w| script("flock -c", w.clone()))
                .into_iter()
                .collect();
        }
        if let Some(s) = t.strip_prefix("--command=") {
            let w = Word {
                text: s.to_string(),
                dynamic: a.dynamic,
            };
            return vec![script("flock -c", w)];
        }
        if t == "-w" || t == "-E" || t == "--timeout" || t == "--conflict-exit-code" {
            i += 2;
        } else if t.starts_with('-') && t.len() > 1 {
            i += 1;
        } else if !file_seen {
            file_seen = true;
            i += 1;
        } else {
            return command("flock", args, i);
        }
    }
    Vec::new()
}

/// Every `-exec`/`-execdir`/`-ok`/`-okdir COMMAND ... ;|+` of a `find`.
fn find(args: &[Word]) -> Vec<Inner> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if matches!(a.text.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            let start = i;
            while args.get(i).is_some_and(|w| w.text != ";" && w.text != "+") {
                i += 1;
            }
            out.extend(command(&format!("find {}", a.text), &args[..i], start));
        }
    }
    out
}

/// `eval WORDS`: the words joined, as a script, when they are literal.
fn eval(args: &[Word]) -> Vec<Inner> {
    let args = &args[options(args, "", &[]).min(args.len())..];
    if args.is_empty() {
        return Vec::new();
    }
    let text = Word {
        text: args
            .iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        dynamic: args.iter().any(|w| w.dynamic),
    };
    vec![script("eval", text)]
}

/// `su [options] [-c STRING] [USER]`.
fn su(args: &[Word]) -> Vec<Inner> {
    let at = args
        .iter()
        .position(|w| w.text == "-c" || w.text == "--command");
    at.and_then(|i| args.get(i + 1))
        .map(|w| script("su -c", w.clone()))
        .into_iter()
        .collect()
}

/// `trap STRING SIGNAL...`: the string runs on the signal.
fn trap(args: &[Word]) -> Vec<Inner> {
    let args = &args[options(args, "", &[]).min(args.len())..];
    match args {
        [action, _, ..] if action.text != "-" => vec![script("trap", action.clone())],
        _ => Vec::new(),
    }
}

/// `sh [options] -c STRING [NAME [ARG]...]`, or a script file, or commands from standard input.
fn shell(name: &str, args: &[Word]) -> Vec<Inner> {
    let mut i = 0;
    let mut has_c = false;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        if t == "--" || t == "-" {
            i += 1;
            break;
        }
        if matches!(t, "--version" | "--help") {
            return Vec::new();
        }
        if matches!(t, "--rcfile" | "--init-file") {
            i += 2;
            continue;
        }
        if t.starts_with("--") {
            i += 1;
            continue;
        }
        match t.strip_prefix('-').or_else(|| t.strip_prefix('+')) {
            Some(letters) if !letters.is_empty() => {
                has_c |= t.starts_with('-') && letters.contains('c');
                // `-o OPTION`, `-O SHOPT`: the next word is the option's name.
                let takes = letters.ends_with('o') || letters.ends_with('O');
                i += 1 + usize::from(takes);
            }
            _ => break,
        }
    }
    match args.get(i) {
        Some(text) if has_c => vec![script(&format!("{name} -c"), text.clone())],
        // A script file: what it holds is not on the line, like any program's code.
        Some(_) => Vec::new(),
        None => vec![Inner::Undecidable(format!(
            "`{name}` reads its commands from standard input"
        ))],
    }
}

fn script(label: &str, text: Word) -> Inner {
    Inner::Script {
        label: label.to_string(),
        text,
    }
}
