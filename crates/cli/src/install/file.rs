//! Reading an agent's settings file for install (refusing what the agent could not read
//! either, and comments, which a rewrite would lose) and writing it back atomically: a
//! temporary file in the same directory, renamed over the file (through a symlink, to the
//! file it names, so a dotfiles link stays a link), with the file's mode, and a copy of the
//! original as `FILE.hookhost-backup` the first time hookhost changes it.

use super::ordered::Json;
use hookhost::jsonc;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A settings file larger than this is refused.
const FILE_LIMIT: u64 = 4 << 20;

/// Why a settings file cannot be changed.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("cannot read {file}: {why}")]
    Read { file: PathBuf, why: String },
    #[error(
        "{file} is not valid JSON ({why}); nothing was changed: fix the file (the agent cannot read it either), then run this again"
    )]
    Invalid { file: PathBuf, why: String },
    #[error(
        "{file} has comments (the first at line {line}), which rewriting the file would lose; nothing was changed: remove the comments and run this again, or add by hand the entries `--dry-run` shows"
    )]
    Comments { file: PathBuf, line: usize },
    #[error(
        "{file}: {why}; nothing was changed: fix the file (the agent would not read it either)"
    )]
    Shape { file: PathBuf, why: String },
    #[error("cannot write {file}: {why}")]
    Write { file: PathBuf, why: String },
}

/// The file's document (`Json::Null` when there is no file). A file with comments (where the
/// agent allows them) is refused unless `dry_run`: then read without them, to show the entries.
pub fn read(file: &Path, comments_allowed: bool, dry_run: bool) -> Result<Json, FileError> {
    let bytes = match hookhost::files::read_bounded(file, FILE_LIMIT) {
        Err(e) if e.is_not_found() => return Ok(Json::Null),
        Err(e) => {
            return Err(FileError::Read {
                file: file.into(),
                why: e.to_string(),
            });
        }
        Ok(b) => b,
    };
    let text = String::from_utf8(bytes).map_err(|e| FileError::Invalid {
        file: file.into(),
        why: format!("not UTF-8 at byte {}", e.utf8_error().valid_up_to()),
    })?;
    if text.trim().is_empty() {
        return Ok(Json::Null);
    }
    if comments_allowed && let Some(line) = jsonc::first_comment(&text) {
        // Say where a parse error is first: the comments are the lesser problem.
        let stripped = jsonc::strip_comments(&text);
        if let Err(e) = serde_json::from_str::<Json>(&stripped) {
            return Err(FileError::Invalid {
                file: file.into(),
                why: jsonc::json_error(&e),
            });
        }
        if !dry_run {
            return Err(FileError::Comments {
                file: file.into(),
                line,
            });
        }
        return serde_json::from_str(&stripped).map_err(|e| FileError::Invalid {
            file: file.into(),
            why: jsonc::json_error(&e),
        });
    }
    serde_json::from_str(&text).map_err(|e| FileError::Invalid {
        file: file.into(),
        why: format!(
            "{}{}",
            jsonc::json_error(&e),
            jsonc::no_comments_hint(&text).unwrap_or_default()
        ),
    })
}

/// Where a write of `file` lands: the file a symlink names (relative to the link's
/// directory), else `file`.
fn target(file: &Path) -> PathBuf {
    match std::fs::read_link(file) {
        Ok(to) if to.is_absolute() => to,
        Ok(to) => file.parent().map_or(to.clone(), |dir| dir.join(to)),
        Err(_) => file.to_path_buf(),
    }
}

/// The backup's path: `FILE.hookhost-backup`.
pub fn backup_path(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".hookhost-backup");
    PathBuf::from(name)
}

/// Writes `text` to `file` atomically; the first time, the original (if any) is copied to
/// its backup first. Returns the backup when this call made it.
pub fn write(file: &Path, text: &str) -> Result<Option<PathBuf>, FileError> {
    write_with(file, text, true)
}

/// Writes `text` to `file` atomically, with no backup (a file that is hookhost's own).
pub fn write_own(file: &Path, text: &str) -> Result<(), FileError> {
    write_with(file, text, false).map(|_| ())
}

fn write_with(file: &Path, text: &str, back_up: bool) -> Result<Option<PathBuf>, FileError> {
    let err = |why: std::io::Error| FileError::Write {
        file: file.into(),
        why: why.to_string(),
    };
    let real = target(file);
    let dir = real.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(err)?;
    let mut made = None;
    let backup = backup_path(file);
    let old = std::fs::metadata(&real).ok();
    if back_up && old.is_some() && std::fs::symlink_metadata(&backup).is_err() {
        std::fs::copy(&real, &backup).map_err(err)?;
        made = Some(backup);
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(".hookhost-install-")
        .tempfile_in(dir)
        .map_err(err)?;
    tmp.write_all(text.as_bytes()).map_err(err)?;
    tmp.as_file().sync_all().map_err(err)?;
    if let Some(meta) = &old {
        std::fs::set_permissions(tmp.path(), meta.permissions()).map_err(err)?;
    }
    tmp.persist(&real).map_err(|e| err(e.error))?;
    Ok(made)
}

/// Removes `file` (uninstall of a file install owns).
pub fn remove(file: &Path) -> Result<(), FileError> {
    match std::fs::remove_file(file) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(FileError::Write {
            file: file.into(),
            why: e.to_string(),
        }),
        _ => Ok(()),
    }
}
