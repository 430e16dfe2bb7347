//! The scripts a trusted shell hook runs, which trust pins besides the config: found by
//! reading the command line ([`scripts_named`]), hashed when the project is trusted, and
//! re-checked before every run ([`ScriptPins::still_hold`]).

use super::pin::pin;
use super::program_files::{
    JS_RUNNERS, pin_js_manifests, pin_js_runner, pin_justfile, pin_makefiles, pin_python_module,
};
use super::shell_words::{Token, WRAPPERS, is_interpreter, is_python, simple_commands};
use crate::files::{SCRIPT_LIMIT, read_bounded, sha256_hex};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The scripts trusted shell hooks run, with the SHA-256 they were trusted with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScriptPins {
    pub(super) project: PathBuf,
    pub(super) files: BTreeMap<PathBuf, String>,
}

impl ScriptPins {
    /// Whether the scripts `command` runs from `cwd` are, now, the ones trusted: every file
    /// it names is pinned and still has its pinned hash (read bounded). `Err` names the
    /// first file that is not. Called before every run of a trusted project shell hook, so
    /// an edit after `hookhost trust` is seen at the next event by long-lived runners too.
    pub fn still_hold(&self, command: &str, cwd: &Path) -> Result<(), PathBuf> {
        for script in scripts_named(command, cwd, &self.project) {
            match self.files.get(&script) {
                Some(hash) if *hash == hash_file(&script, SCRIPT_LIMIT) => {}
                _ => return Err(script),
            }
        }
        Ok(())
    }
}

/// SHA-256 of a file read with a bound; empty when it cannot be read (never trusted).
pub(super) fn hash_file(path: &Path, limit: u64) -> String {
    read_bounded(path, limit)
        .map(|b| sha256_hex(&b))
        .unwrap_or_default()
}

/// The scripts a shell command runs, which trust pins besides the config: in every simple
/// command of it (split at `;`, `&&`, `||`, `|`, `&`, parentheses and newlines, and inside
/// `sh -c '...'`), past `NAME=value` assignments and wrappers (`env`, `exec`, `nice`,
/// `timeout`, `command`, `nohup`, `builtin`), the program when it is a path (`./guard.sh`),
/// the file `.`/`source` reads, and for an interpreter (`python3`, `bash`, `node`, ...) every
/// later word that names a file and the file fed with `<`. Programs that run a file no word
/// names have it pinned too: `make`'s makefile (`-f`, `-C`, else `GNUmakefile`, `makefile`,
/// `Makefile`), the module of `python -m pkg.mod` (and its packages' `__init__.py`), the
/// `package.json` (and `.npmrc`, yarn's and pnpm's config) of `npm`, `npx`, `yarn`, `pnpm`,
/// `bun`, and `just`'s justfile; every candidate that exists is pinned, so one added later
/// (a `GNUmakefile` before the trusted `Makefile`) is untrusted. Files written with `>`/`>>`
/// and other programs' arguments are data, not pinned (a hook's own log would untrust it on
/// every run); files the scripts source, include or import in turn are not followed (see
/// [`unpinned_programs`](super::unpinned_programs) for programs whose whole tree is code). A
/// relative path is pinned at its real target, even when a symlink in the project leads out
/// of it.
pub(super) fn scripts_named(command: &str, cwd: &Path, project: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut base = cwd.to_path_buf();
    scan_commands(command, &mut base, project, &mut found, 0);
    found
}

fn scan_commands(
    text: &str,
    base: &mut PathBuf,
    project: &Path,
    found: &mut Vec<PathBuf>,
    depth: u8,
) {
    for words in simple_commands(text) {
        scan_command(&words, base, project, found, depth);
    }
}

fn basename(w: &str) -> &str {
    w.rsplit('/').next().unwrap_or(w)
}

/// Where the program of a simple command is: past assignments and wrappers (with their
/// options and, for timeout/nice, a value).
fn program_index(words: &[Token]) -> usize {
    let word_at = |i: usize| match words.get(i) {
        Some(Token::Word(w)) => Some(w.as_str()),
        _ => None,
    };
    let mut i = 0;
    while let Some(w) = word_at(i) {
        if w.contains('=') && !w.starts_with('=') && !w.contains('/') {
            i += 1;
            continue;
        }
        let name = basename(w);
        if !WRAPPERS.contains(&name) {
            break;
        }
        i += 1;
        while let Some(opt) = word_at(i).filter(|o| o.starts_with('-')) {
            i += 1;
            if name == "nice" && opt == "-n" {
                i += 1;
            }
        }
        if name == "timeout"
            && word_at(i).is_some_and(|d| d.starts_with(|c: char| c.is_ascii_digit()))
        {
            i += 1;
        }
    }
    i
}

/// The files one simple command runs; `cd` moves `base` for the commands after it.
fn scan_command(
    words: &[Token],
    base: &mut PathBuf,
    project: &Path,
    found: &mut Vec<PathBuf>,
    depth: u8,
) {
    let i = program_index(words);
    let Some(Token::Word(program)) = words.get(i) else {
        return;
    };
    let name = basename(program);
    let rest = &words[i + 1..];
    match name {
        "cd" => {
            if let Some(Token::Word(dir)) = rest.first() {
                *base = base.join(dir);
            }
        }
        "." | "source" => {
            if let Some(Token::Word(file)) = rest.first() {
                pin(file, base, project, found);
            }
        }
        "make" | "gmake" | "bmake" => pin_makefiles(name, rest, base, project, found),
        "just" => pin_justfile(rest, base, project, found),
        _ if is_interpreter(name) => scan_interpreter(name, rest, base, project, found, depth),
        _ if JS_RUNNERS.contains(&name) => pin_js_runner(name, rest, base, project, found),
        _ => pin(program, base, project, found),
    }
}

/// An interpreter's words: every one that names a file, the file fed with `<` (not the one
/// written with `>`), the module of `python -m`, and the commands of `-c` (scanned in turn,
/// a few levels deep).
fn scan_interpreter(
    name: &str,
    rest: &[Token],
    base: &Path,
    project: &Path,
    found: &mut Vec<PathBuf>,
    depth: u8,
) {
    if JS_RUNNERS.contains(&name) {
        pin_js_manifests(base, project, found);
    }
    let python = is_python(name);
    let mut k = 0;
    while k < rest.len() {
        match &rest[k] {
            // `python -m pkg.mod` (or `-mpkg.mod`): the module it runs.
            Token::Word(w) if python && w.starts_with("-m") => {
                let module = match &w[2..] {
                    "" => {
                        k += 1;
                        match rest.get(k) {
                            Some(Token::Word(m)) => m.as_str(),
                            _ => "",
                        }
                    }
                    joined => joined,
                };
                pin_python_module(module, base, project, found);
            }
            // The file after `>` or `>>` is data the hook writes.
            Token::Redirect(true) => k += 1,
            Token::Redirect(false) => {
                if let Some(Token::Word(file)) = rest.get(k + 1) {
                    pin(file, base, project, found);
                }
                k += 1;
            }
            Token::Word(w) if w == "-c" && depth < 4 => {
                if let Some(Token::Word(inner)) = rest.get(k + 1) {
                    let mut inner_base = base.to_path_buf();
                    scan_commands(inner, &mut inner_base, project, found, depth + 1);
                }
                k += 1;
            }
            Token::Word(w) => pin(w, base, project, found),
        }
        k += 1;
    }
}
