//! The files the host reads and writes: one bounded reader for every file it reads on a
//! config's word (`hooks.json`, wasm modules, scripts trust pins, `trusted.json`,
//! compiled-code cache entries, `--payload FILE`), and private, atomic writes for the files
//! it owns (`trusted.json`, cache entries).
//!
//! A path named by a config is hostile until checked: it may be a symlink to `/dev/zero`
//! (an endless read), a FIFO or `/dev/stdin` (a read that never returns), or a 50 GB file.
//! [`read_bounded`] opens without blocking (`O_NONBLOCK`, so opening a FIFO with no writer
//! returns at once), refuses anything that is not a regular file, refuses files larger than
//! the caller's limit before reading, and never reads more than `limit + 1` bytes even if
//! the file grows while it is read. It does not decide what a path may name (that is
//! `config` and `confine`), only that reading it is bounded in size and time.

use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Writes `bytes` to `path` through a fresh, unpredictably named temporary file in the same
/// directory (created exclusively, mode 0600), then renames it into place: readers never see
/// half a file, and a symlink planted at `path` is replaced, never followed.
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".hookhost-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_data()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Makes sure `dir` is a directory private to this user: creates it (0700) if missing;
/// refuses a symlink, a directory owned by someone else, or one others can write.
pub fn private_dir(dir: &Path) -> Result<(), DirError> {
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut b = std::fs::DirBuilder::new();
            b.recursive(true);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
            b.create(dir).map_err(|source| DirError::Create {
                dir: dir.to_path_buf(),
                source,
            })?;
        }
        Err(source) => {
            return Err(DirError::Inspect {
                dir: dir.to_path_buf(),
                source,
            });
        }
        Ok(_) => {}
    }
    check_private_dir(dir)
}

/// Why a directory is not private to this user; each says how to fix it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DirError {
    /// It is missing and cannot be created.
    #[error("cannot create {}: {source}", dir.display())]
    Create {
        /// The directory.
        dir: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// Its metadata cannot be read.
    #[error("cannot inspect {}: {source}", dir.display())]
    Inspect {
        /// The directory.
        dir: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// It is a symlink.
    #[error("{} is a symlink; use a real directory of your own", .0.display())]
    Symlink(PathBuf),
    /// It is not a directory.
    #[error("{} is not a directory", .0.display())]
    NotADirectory(PathBuf),
    /// Another user owns it.
    #[error("{} belongs to user {owner}, not to you (user {me}); use a directory of your own", dir.display())]
    NotYours {
        /// The directory.
        dir: PathBuf,
        /// Its owner.
        owner: u32,
        /// This process's effective user.
        me: u32,
    },
    /// Others can write to it.
    #[error("{} is writable by other users (mode {mode:o}); run `chmod 700 {}`", dir.display(), dir.display())]
    WritableByOthers {
        /// The directory.
        dir: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
}

/// Whether the existing `dir` is private to this user (what [`private_dir`] requires, without
/// creating anything): a real directory (not a symlink), owned by the current user, writable
/// by no one else. `Err` says why not and how to fix it.
pub fn check_private_dir(dir: &Path) -> Result<(), DirError> {
    let meta = std::fs::symlink_metadata(dir).map_err(|source| DirError::Inspect {
        dir: dir.to_path_buf(),
        source,
    })?;
    if meta.file_type().is_symlink() {
        return Err(DirError::Symlink(dir.to_path_buf()));
    }
    if !meta.is_dir() {
        return Err(DirError::NotADirectory(dir.to_path_buf()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let me = hookhost_core::process::effective_uid();
        if meta.uid() != me {
            return Err(DirError::NotYours {
                dir: dir.to_path_buf(),
                owner: meta.uid(),
                me,
            });
        }
        if meta.mode() & 0o022 != 0 {
            return Err(DirError::WritableByOthers {
                dir: dir.to_path_buf(),
                mode: meta.mode() & 0o777,
            });
        }
    }
    Ok(())
}

/// Largest `hooks.json` (or other agent's settings file) the host reads: 8 MiB.
pub const CONFIG_LIMIT: u64 = 8 << 20;
/// Largest wasm module or component the host loads: 256 MiB (the Python component is 18 MB).
pub const MODULE_LIMIT: u64 = 256 << 20;
/// Largest `trusted.json`: 16 MiB.
pub const TRUST_FILE_LIMIT: u64 = 16 << 20;
/// Largest script a trusted shell hook names that trust pins: 16 MiB.
pub const SCRIPT_LIMIT: u64 = 16 << 20;
/// Largest payload `hookhost run --payload` reads: 64 MiB.
pub const PAYLOAD_LIMIT: u64 = 64 << 20;
/// Largest compiled-code cache entry: 1 GiB.
pub const CACHE_ENTRY_LIMIT: u64 = 1 << 30;

/// Why a bounded read failed.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file does not exist.
    #[error("{}: no such file", .0.display())]
    NotFound(PathBuf),
    /// It exists but is a directory, FIFO, socket or device.
    #[error("{}: not a regular file ({kind}); point it at a regular file", path.display())]
    NotAFile {
        /// The path as given.
        path: PathBuf,
        /// What it is instead.
        kind: &'static str,
    },
    /// It is larger than the limit for its kind of file.
    #[error("{}: larger than the {} MiB limit for this kind of file", path.display(), limit >> 20)]
    TooLarge {
        /// The path as given.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
    },
    /// Any other I/O error (permissions, ...).
    #[error("{}: {source}", path.display())]
    Io {
        /// The path as given.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

impl ReadError {
    /// Whether the file simply does not exist (a missing config file is an empty one).
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::NotFound(_))
    }
}

/// Reads a regular file of at most `limit` bytes. See the module docs for what it refuses.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    read_with(path, limit, false)
}

/// Like [`read_bounded`], but a symlink at `path` itself is refused (for files the host
/// writes as well as reads, such as `trusted.json`, where a planted link must not redirect
/// it).
pub fn read_bounded_nofollow(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    read_with(path, limit, true)
}

fn read_with(path: &Path, limit: u64, nofollow: bool) -> Result<Vec<u8>, ReadError> {
    let io = |source: std::io::Error| {
        if source.kind() == std::io::ErrorKind::NotFound {
            ReadError::NotFound(path.to_path_buf())
        } else {
            ReadError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    };
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let mut flags = libc::O_NONBLOCK | libc::O_NOCTTY;
        if nofollow {
            flags |= libc::O_NOFOLLOW;
        }
        options.custom_flags(flags);
    }
    #[cfg(not(unix))]
    if nofollow
        && std::fs::symlink_metadata(path)
            .map(|m| m.file_type().is_symlink())
            .unwrap_or(false)
    {
        return Err(ReadError::NotAFile {
            path: path.to_path_buf(),
            kind: "a symlink",
        });
    }
    let file = options.open(path).map_err(|e| {
        #[cfg(unix)]
        if nofollow && e.raw_os_error() == Some(libc::ELOOP) {
            return ReadError::NotAFile {
                path: path.to_path_buf(),
                kind: "a symlink",
            };
        }
        io(e)
    })?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile {
            path: path.to_path_buf(),
            kind: kind_of(&meta),
        });
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}

/// Reads at most `limit` bytes from a stream (stdin), refusing more.
pub fn read_stream_bounded(
    mut reader: impl Read,
    limit: u64,
    what: &str,
) -> Result<Vec<u8>, StreamError> {
    let mut bytes = Vec::new();
    (&mut reader)
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| StreamError::Read {
            what: what.to_string(),
            source,
        })?;
    if bytes.len() as u64 > limit {
        return Err(StreamError::TooLarge {
            what: what.to_string(),
            limit,
        });
    }
    Ok(bytes)
}

/// Why a bounded read of a stream failed; `what` names the stream ("the payload on stdin").
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// Reading failed.
    #[error("reading {what}: {source}")]
    Read {
        /// The stream.
        what: String,
        /// What failed.
        source: std::io::Error,
    },
    /// It holds more than the limit.
    #[error("{what} is larger than {} MiB", limit >> 20)]
    TooLarge {
        /// The stream.
        what: String,
        /// The limit in bytes.
        limit: u64,
    },
}

fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
    }
    "not a regular file"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_small_file_and_refuses_a_large_one() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        std::fs::write(&f, b"12345").unwrap();
        assert_eq!(read_bounded(&f, 5).unwrap(), b"12345");
        assert!(matches!(
            read_bounded(&f, 4),
            Err(ReadError::TooLarge { .. })
        ));
        assert!(
            read_bounded(&dir.path().join("nope"), 5)
                .unwrap_err()
                .is_not_found()
        );
    }

    #[cfg(unix)]
    #[test]
    #[allow(unsafe_code)]
    fn refuses_devices_fifos_directories_and_symlinks_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let zero = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        assert!(matches!(
            read_bounded(&zero, 1 << 20),
            Err(ReadError::NotAFile {
                kind: "a device",
                ..
            })
        ));
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(matches!(
            read_bounded(&fifo, 1 << 20),
            Err(ReadError::NotAFile { kind: "a FIFO", .. })
        ));
        assert!(matches!(
            read_bounded(dir.path(), 1 << 20),
            Err(ReadError::NotAFile { .. })
        ));
        let real = dir.path().join("real");
        std::fs::write(&real, b"x").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert_eq!(read_bounded(&link, 1).unwrap(), b"x");
        assert!(matches!(
            read_bounded_nofollow(&link, 1),
            Err(ReadError::NotAFile {
                kind: "a symlink",
                ..
            })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn only_a_private_directory_is_accepted_and_writes_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let fresh = root.path().join("a/b");
        private_dir(&fresh).unwrap();
        let mode = std::fs::metadata(&fresh).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        let file = fresh.join("f");
        let victim = root.path().join("victim");
        std::fs::write(&victim, "untouched").unwrap();
        std::os::unix::fs::symlink(&victim, &file).unwrap();
        write_private(&file, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched");
        assert_eq!(std::fs::read(&file).unwrap(), b"new");
        let mode = std::fs::symlink_metadata(&file)
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        std::fs::set_permissions(&fresh, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(
            private_dir(&fresh)
                .unwrap_err()
                .to_string()
                .contains("writable by other users")
        );
        let link = root.path().join("link");
        std::os::unix::fs::symlink(root.path(), &link).unwrap();
        assert!(
            private_dir(&link)
                .unwrap_err()
                .to_string()
                .contains("symlink")
        );
    }
}
