//! Which paths a tool call would change, by the shape of its tool: a shell command (any
//! tool with a `command` or `cmd` string, or an argv array: `shell.rs`), a patch (Codex's
//! `apply_patch`, or a `*** Begin Patch` text anywhere), a file tool of any dialect (its
//! path arguments), and any other tool that is not a known reader (every argument that looks
//! like a path).

use super::{Denial, Protected, Reach};
use serde_json::Value;
use std::path::Path;

/// Tools that only read, in every dialect's names: their paths are not judged.
const READERS: &[&str] = &[
    "Read",
    "read_file",
    "read_many_files",
    "view",
    "Grep",
    "grep",
    "search_file_content",
    "Glob",
    "glob",
    "LS",
    "list_directory",
    "ls",
    "NotebookRead",
    "WebFetch",
    "web_fetch",
    "WebSearch",
    "google_web_search",
    "TodoWrite",
    "TodoRead",
    "Task",
    "Agent",
    "ExitPlanMode",
    "AskUserQuestion",
];

/// Argument keys that name the file a tool changes, in every dialect.
const PATH_KEYS: &[&str] = &[
    "path",
    "file_path",
    "filePath",
    "notebook_path",
    "absolute_path",
    "target_file",
    "targetFile",
    "destination",
    "dest",
    "target",
    "source",
    "new_path",
    "old_path",
    "directory",
    "dir_path",
];

/// The denial for a call of `tool` with `args` in `cwd`, if any.
pub(super) fn judge(p: &Protected, tool: &str, args: &Value, cwd: &Path) -> Option<Denial> {
    if let Some(d) = shell_of(args).and_then(|c| p.judge_shell(&c, cwd)) {
        return Some(d);
    }
    if let Some(d) = patches(args).find_map(|text| judge_patch(p, text, cwd)) {
        return Some(d);
    }
    if READERS.contains(&tool) {
        return None;
    }
    let Value::Object(map) = args else {
        return None;
    };
    for (key, value) in map {
        let named = PATH_KEYS.contains(&key.as_str());
        for s in strings(value) {
            if (named || looks_like_path(s))
                && let Some(d) = p.check_path(cwd, s, Reach::Inside)
            {
                return Some(d);
            }
        }
    }
    None
}

/// The shell command a call runs: a `command`/`cmd` string, or an argv array (Codex's
/// `["bash", "-lc", "..."]`) quoted back into one line.
fn shell_of(args: &Value) -> Option<String> {
    let v = args.get("command").or_else(|| args.get("cmd"))?;
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(words) => {
            let words: Vec<&str> = words.iter().filter_map(Value::as_str).collect();
            (!words.is_empty())
                .then(|| shlex::try_join(words.iter().copied()).unwrap_or_else(|_| words.join(" ")))
        }
        _ => None,
    }
}

/// Every string value in `v` (nested arrays and objects too), depth-bounded.
fn strings(v: &Value) -> Vec<&str> {
    fn walk<'a>(v: &'a Value, depth: usize, out: &mut Vec<&'a str>) {
        if depth > 8 || out.len() > 256 {
            return;
        }
        match v {
            Value::String(s) => out.push(s),
            Value::Array(a) => a.iter().for_each(|x| walk(x, depth + 1, out)),
            Value::Object(m) => m.values().for_each(|x| walk(x, depth + 1, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, 0, &mut out);
    out
}

/// A string that reads as one path: absolute, under `~`, or relative with a `/`, without
/// whitespace.
fn looks_like_path(s: &str) -> bool {
    !s.is_empty()
        && s.len() < 4096
        && !s.chars().any(char::is_whitespace)
        && (s.starts_with('/') || s.starts_with('~') || s.starts_with("$HOME") || s.contains('/'))
}

/// Patch texts anywhere in the arguments (`*** Begin Patch`).
fn patches(args: &Value) -> impl Iterator<Item = &str> {
    strings(args)
        .into_iter()
        .filter(|s| s.contains("*** Begin Patch"))
}

/// A patch's files: `*** Add File:`, `*** Update File:`, `*** Delete File:`, `*** Move to:`.
fn judge_patch(p: &Protected, text: &str, cwd: &Path) -> Option<Denial> {
    text.lines().find_map(|line| {
        let line = line.trim();
        let file = [
            "*** Add File:",
            "*** Update File:",
            "*** Delete File:",
            "*** Move to:",
        ]
        .iter()
        .find_map(|h| line.strip_prefix(h))?;
        p.check_path(cwd, file.trim(), Reach::Inside)
    })
}
