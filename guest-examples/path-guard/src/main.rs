//! PreToolUse guard for file tools: denies writes to protected paths (`.env`, `.git/`, and
//! any given as arguments, e.g. `path-guard.wasm secrets/ Cargo.lock`).
use hookhost_guest::{block, pass, Event, Hook};

const WRITE_TOOLS: &[&str] = &["write_file", "edit_file", "Write", "Edit", "MultiEdit"];
const DEFAULT_PROTECTED: &[&str] = &[".env", ".git/"];

/// Whether `path` (relative to the project, or absolute under `root`) is protected by `rule`:
/// a rule ending in `/` protects a directory, any other rule a file name anywhere.
fn protected(path: &str, root: &str, rule: &str) -> bool {
    let rel = path
        .strip_prefix(root)
        .map(|p| p.trim_start_matches('/'))
        .unwrap_or(path)
        .trim_start_matches("./");
    if let Some(dir) = rule.strip_suffix('/') {
        rel == dir || rel.starts_with(rule) || rel.contains(&format!("/{rule}"))
    } else {
        rel == rule || rel.ends_with(&format!("/{rule}"))
    }
}

fn main() {
    let hook = Hook::read();
    if hook.event() != Event::PreToolUse || !WRITE_TOOLS.contains(&hook.tool_name().unwrap_or("")) {
        pass();
    }
    let Some(path) = hook.arg_str("path").or_else(|| hook.arg_str("file_path")) else {
        pass();
    };
    let extra: Vec<String> = std::env::args().skip(1).collect();
    let rules = DEFAULT_PROTECTED.iter().copied().chain(extra.iter().map(String::as_str));
    for rule in rules {
        if protected(path, hook.cwd(), rule) {
            block(&format!("path-guard: {path} is protected ({rule}); do not modify it"));
        }
    }
    pass();
}
