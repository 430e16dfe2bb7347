//! The read-only tools of an `agent` hook: read a file, list a directory, grep, all inside
//! the project. Every path is resolved once, canonically, against the project root
//! ([`crate::confine::resolve_inside`]): anything outside it (absolute elsewhere, `..`, a
//! symlink that leads out) is refused, and the refusal is what the model reads. Each result
//! is capped, so a model cannot make the host read a whole disk.

use crate::confine::resolve_inside;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The most bytes of a file `read_file` returns.
pub const READ_CAP: usize = 64 * 1024;
/// The most entries `list_dir` returns.
const LIST_CAP: usize = 500;
/// The most matching lines `grep` returns.
const GREP_CAP: usize = 200;
/// The most files `grep` opens.
const GREP_FILES: usize = 5_000;
/// Files larger than this are not searched.
const GREP_FILE_LIMIT: u64 = 1 << 20;
/// The most bytes one `grep` reads in all (a tool call cannot be stopped once it runs).
const GREP_BUDGET: u64 = 64 << 20;
/// The most directory entries `list_dir` reads before sorting.
const LIST_READ: usize = 20_000;

/// The tools, as the model is told about them.
pub fn specs() -> Vec<super::api::ToolSpec> {
    let path = |what: &str| json!({"type": "string", "description": what});
    vec![
        (
            "read_file",
            "Read a text file of the project (at most 64 KiB). Paths are relative to the project root.",
            json!({"type": "object", "properties": {"path": path("the file, relative to the project root")}, "required": ["path"]}),
        ),
        (
            "list_dir",
            "List a directory of the project; directories end in /. Paths are relative to the project root.",
            json!({"type": "object", "properties": {"path": path("the directory, relative to the project root (\".\" for the root)")}, "required": ["path"]}),
        ),
        (
            "grep",
            "Search the project's files for a regular expression; answers path:line: text.",
            json!({"type": "object", "properties": {
                "pattern": {"type": "string", "description": "a regular expression"},
                "path": path("a file or directory to search, relative to the project root (default: the whole project)")
            }, "required": ["pattern"]}),
        ),
    ]
}

/// Runs one tool call; the text is what the model reads (a refusal or an error too).
pub fn call(project: &Path, name: &str, input: &Value) -> String {
    let arg = |key: &str| input.get(key).and_then(Value::as_str);
    match name {
        "read_file" => match arg("path") {
            Some(p) => inside(project, p).map_or_else(|e| e, |f| read_file(&f, p)),
            None => "error: read_file needs {\"path\": \"...\"}".into(),
        },
        "list_dir" => {
            let p = arg("path").unwrap_or(".");
            inside(project, p).map_or_else(|e| e, |d| list_dir(&d, p))
        }
        "grep" => match arg("pattern").map(regex::Regex::new) {
            Some(Ok(re)) => {
                let p = arg("path").unwrap_or(".");
                inside(project, p).map_or_else(|e| e, |at| grep(project, &at, &re))
            }
            Some(Err(e)) => format!("error: the pattern is not a valid regular expression: {e}"),
            None => "error: grep needs {\"pattern\": \"...\"}".into(),
        },
        other => {
            format!("error: there is no tool {other:?}; the tools are read_file, list_dir and grep")
        }
    }
}

/// `path` resolved inside the project, or the refusal the model reads.
fn inside(project: &Path, path: &str) -> Result<PathBuf, String> {
    resolve_inside(project, project, Path::new(path)).map_err(|why| {
        format!("refused: {path:?} {why}; only paths inside the project can be read")
    })
}

fn read_file(file: &Path, shown: &str) -> String {
    match crate::files::read_bounded(file, (READ_CAP + 1) as u64) {
        Ok(bytes) => {
            let cut = bytes.len() > READ_CAP;
            let text = String::from_utf8_lossy(&bytes[..bytes.len().min(READ_CAP)]);
            if cut {
                format!("{text}\n[cut at {READ_CAP} bytes]")
            } else {
                text.into_owned()
            }
        }
        Err(_) if file.is_dir() => {
            format!("error: {shown:?} is a directory; use list_dir")
        }
        Err(e) => format!("error: cannot read {shown:?}: {e}"),
    }
}

fn list_dir(dir: &Path, shown: &str) -> String {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => return format!("error: cannot list {shown:?}: {e}"),
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .take(LIST_READ)
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                format!("{name}/")
            } else {
                name
            }
        })
        .collect();
    names.sort();
    let more = names.len().saturating_sub(LIST_CAP);
    names.truncate(LIST_CAP);
    if more > 0 {
        names.push(format!("[{more} more]"));
    }
    if names.is_empty() {
        "(empty)".into()
    } else {
        names.join("\n")
    }
}

/// Searches `at` (a file, or a directory walked without following symlinks, `.git` skipped).
fn grep(project: &Path, at: &Path, re: &regex::Regex) -> String {
    let root = crate::confine::canonical_or_same(project);
    let mut files = Vec::new();
    let mut budget = GREP_BUDGET;
    let mut stack = vec![at.to_path_buf()];
    while let Some(p) = stack.pop() {
        if files.len() >= GREP_FILES {
            break;
        }
        let Ok(meta) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        if meta.is_dir() {
            if p.file_name().is_some_and(|n| n == ".git") {
                continue;
            }
            if let Ok(entries) = std::fs::read_dir(&p) {
                let mut children: Vec<PathBuf> =
                    entries.filter_map(Result::ok).map(|e| e.path()).collect();
                children.sort();
                stack.extend(children.into_iter().rev());
            }
        } else if meta.is_file() && meta.len() <= GREP_FILE_LIMIT {
            if budget < meta.len() {
                break;
            }
            budget -= meta.len();
            files.push(p);
        }
    }
    let mut out = Vec::new();
    'files: for f in files {
        let Ok(bytes) = crate::files::read_bounded_nofollow(&f, GREP_FILE_LIMIT) else {
            continue;
        };
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        let shown = f.strip_prefix(&root).unwrap_or(&f).display().to_string();
        for (n, line) in text.lines().enumerate() {
            if re.is_match(line) {
                let line: String = line.chars().take(300).collect();
                out.push(format!("{shown}:{}: {line}", n + 1));
                if out.len() >= GREP_CAP {
                    out.push(format!("[stopped at {GREP_CAP} matches]"));
                    break 'files;
                }
            }
        }
    }
    if out.is_empty() {
        "no match".into()
    } else {
        out.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_read_inside_and_refuse_outside() {
        let dir = tempfile::TempDir::new().unwrap();
        let project = dir.path().join("p");
        std::fs::create_dir_all(project.join("src")).unwrap();
        std::fs::write(project.join("src/a.rs"), "fn main() {}\n// TODO: x\n").unwrap();
        std::fs::write(dir.path().join("secret"), "s3cret").unwrap();
        assert_eq!(
            call(&project, "read_file", &json!({"path": "src/a.rs"})),
            "fn main() {}\n// TODO: x\n"
        );
        assert_eq!(call(&project, "list_dir", &json!({"path": "."})), "src/");
        let found = call(&project, "grep", &json!({"pattern": "TODO"}));
        assert_eq!(found, "src/a.rs:2: // TODO: x");
        for path in ["../secret", dir.path().join("secret").to_str().unwrap()] {
            let refused = call(&project, "read_file", &json!({"path": path}));
            assert!(refused.starts_with("refused:"), "{refused}");
            assert!(!refused.contains("s3cret"));
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("secret"), project.join("link")).unwrap();
            let refused = call(&project, "read_file", &json!({"path": "link"}));
            assert!(refused.starts_with("refused:"), "{refused}");
            // grep walks without following the link.
            assert_eq!(
                call(&project, "grep", &json!({"pattern": "s3cret"})),
                "no match"
            );
        }
        assert!(call(&project, "write_file", &json!({})).contains("no tool"));
    }
}
