//! Paths as the kernel resolves them, without requiring them to exist: each existing symlink
//! followed (dangling ones too: a link to an absent file is where a write lands), `..` taken
//! after the link it follows, as `open(2)` does. What the protected-state guard and the `if`
//! rules of a config compare, so a spelling of a path (a link, `link/..`) cannot differ from
//! the file it names. Never fails: what does not exist is appended as written.

use std::path::{Component, Path, PathBuf};

/// `path` lexically normalised (`.` dropped, `..` taken back).
pub fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// `path` (absolute) resolved as far as it exists: each existing symlink followed, dangling
/// ones too (a link to an absent settings file is where a write would land), `..` taken
/// after resolving; at most 40 links followed. Never fails.
pub fn resolve(path: &Path) -> PathBuf {
    if !path.is_absolute() {
        return normalise(path);
    }
    resolve_from(PathBuf::from("/"), path)
}

/// `rest` resolved as [`resolve`] does, starting at `start`, a directory already resolved
/// (no symlink in it): only `rest`'s components are looked up.
pub fn resolve_from(start: PathBuf, rest: &Path) -> PathBuf {
    use std::collections::VecDeque;
    use std::ffi::OsString;
    let mut out = start;
    let mut queue: VecDeque<OsString> = rest
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            _ => None,
        })
        .collect();
    let mut hops = 0;
    // Once a component is missing, nothing below it exists: no more lookups.
    let mut exists = true;
    while let Some(name) = queue.pop_front() {
        if name == ".." {
            out.pop();
            continue;
        }
        let next = out.join(&name);
        if exists {
            match std::fs::symlink_metadata(&next) {
                Ok(m) if m.file_type().is_symlink() && hops < 40 => {
                    hops += 1;
                    if let Ok(target) = std::fs::read_link(&next) {
                        if target.is_absolute() {
                            out = PathBuf::from("/");
                        }
                        for c in target.components().rev() {
                            match c {
                                Component::Normal(n) => queue.push_front(n.to_os_string()),
                                Component::ParentDir => queue.push_front(OsString::from("..")),
                                _ => {}
                            }
                        }
                        continue;
                    }
                }
                Ok(_) => {}
                Err(_) => exists = false,
            }
        }
        out = next;
    }
    out
}
