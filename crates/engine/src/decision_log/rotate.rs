//! Bounding the log by size: when the next line would take the file past its bound, the file
//! becomes `<name>.1` (the previous `.1` is dropped) and a fresh file is started. Two files of
//! at most the bound each: the log never holds more than twice the bound.

use std::path::{Path, PathBuf};

/// The default bound of one file: 10 MiB.
pub const DEFAULT_MAX_BYTES: u64 = 10 * 1024 * 1024;

/// The rotated file of `path`: `<path>.1`.
pub fn rotated(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".1");
    PathBuf::from(name)
}

/// Whether a file of `size` bytes must rotate before `next` more bytes are appended.
pub fn due(size: u64, next: usize, max: u64) -> bool {
    size > 0 && size.saturating_add(next as u64) > max
}

/// Moves `path` to `<path>.1`, replacing it (a rename: atomic, and never follows a link at
/// the destination).
pub fn rotate(path: &Path) -> std::io::Result<()> {
    std::fs::rename(path, rotated(path))
}

/// The files of the log at `path`, oldest first (those that exist).
pub fn files(path: &Path) -> Vec<PathBuf> {
    [rotated(path), path.to_path_buf()]
        .into_iter()
        .filter(|p| p.is_file())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotates_only_past_the_bound() {
        assert!(!due(0, 100, 10));
        assert!(!due(5, 5, 10));
        assert!(due(6, 5, 10));
        assert_eq!(rotated(Path::new("/x/d.jsonl")), Path::new("/x/d.jsonl.1"));
    }
}
