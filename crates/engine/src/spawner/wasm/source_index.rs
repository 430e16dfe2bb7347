//! [`SourceIndex`]: which SHA-256 a module file's bytes have, found by the file's
//! [`FileStamp`] instead of reading and hashing the file on every run.
//!
//! One small record per stamp, in an `index` folder of the private cache root (checked like
//! the cache itself, see `cache.rs`): `MAGIC | stamp | SHA-256 | SHA-256 of all before`, in a
//! file named by a hash of the stamp. A record is only believed when the stamp in it is the
//! file's current stamp, so any change to the file (size, mtime, ctime, inode, device) is a
//! miss and the file is read and hashed again. Records are only written for stamps that were
//! the same before and after the read and are [settled](FileStamp::settled), so a write racing
//! the read, or landing within the timestamp granularity after it, is never indexed.
//!
//! This is what the trust pin is compared with (`WasmSpawner::spawn`, `trust.rs`): a pinned
//! module runs only if the hash the index or the read gives equals the pin, and the compiled
//! code is looked up by that same hash. SECURITY.md explains why a stamp is as good as a hash
//! here.
//!
//! Not here: the compiled code (`cache.rs`).

use super::stamp::FileStamp;
use crate::files::{MODULE_LIMIT, hex, private_dir, read_bounded, sha256_hex};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

const MAGIC: &[u8; 8] = b"HKIDX001";
const RECORD: usize = 8 + 56 + 32 + 32;

/// How long after its last change a file must be before its stamp is indexed.
pub(crate) const SETTLE: Duration = Duration::from_secs(1);

/// The stamp-to-hash index under a cache root; without a usable root every lookup misses.
#[derive(Debug, Clone)]
pub(crate) struct SourceIndex {
    dir: Option<PathBuf>,
    settle: Duration,
}

/// A module file's bytes (when they had to be read) and their SHA-256.
pub(crate) struct Source {
    /// `None` when the hash came from the index (the file was not read).
    pub bytes: Option<Vec<u8>>,
    pub sha256: String,
}

impl SourceIndex {
    /// The index under the cache root `root` (its `index` folder), if the root is absolute
    /// and private to this user; else an index that never hits (reasons are logged by the
    /// cache, which checks the same root).
    pub fn new(root: Option<&Path>) -> Self {
        // Without a change time (not Unix) an in-place edit that keeps the size and restores
        // the mtime would keep the stamp: no index there, every run hashes.
        let root = root.filter(|_| cfg!(unix));
        let dir = root.filter(|r| r.is_absolute()).and_then(|root| {
            let dir = root.join("index");
            private_dir(root).and_then(|()| private_dir(&dir)).ok()?;
            Some(dir)
        });
        SourceIndex {
            dir,
            settle: SETTLE,
        }
    }

    /// The index under the default cache root ([`super::cache::default_cache_root`]).
    pub fn default_root() -> Self {
        Self::new(super::cache::default_cache_root().as_deref())
    }

    #[cfg(test)]
    fn with_settle(mut self, settle: Duration) -> Self {
        self.settle = settle;
        self
    }

    fn record_path(&self, stamp: &FileStamp) -> Option<PathBuf> {
        let key = Sha256::digest(stamp.to_bytes());
        self.dir.as_ref().map(|d| d.join(&hex(&key)[..32]))
    }

    /// The SHA-256 recorded for exactly this stamp, if any.
    pub fn lookup(&self, stamp: &FileStamp) -> Option<String> {
        let path = self.record_path(stamp)?;
        let data = crate::files::read_bounded_nofollow(&path, RECORD as u64).ok()?;
        parse_record(&data, stamp)
    }

    /// Records that the file with `stamp` hashes to `sha256`, if the stamp is settled.
    /// Failures only cost speed.
    pub fn record(&self, stamp: &FileStamp, sha256: &str) {
        if !stamp.settled(SystemTime::now(), self.settle) {
            return;
        }
        let (Some(path), Some(record)) = (self.record_path(stamp), record_bytes(stamp, sha256))
        else {
            return;
        };
        if let Err(e) = crate::files::write_private(&path, &record) {
            tracing::debug!(path = %path.display(), error = %e, "cannot write a source index record");
        }
    }

    /// The SHA-256 of the module file at `path`: from the index when its stamp is indexed,
    /// else read (bounded) and hashed, and indexed for next time. The bytes are returned when
    /// they were read.
    pub fn source(&self, path: &Path) -> Result<Source, crate::files::ReadError> {
        let stat_err = |e: std::io::Error| {
            if e.kind() == std::io::ErrorKind::NotFound {
                crate::files::ReadError::NotFound(path.to_path_buf())
            } else {
                crate::files::ReadError::Io {
                    path: path.to_path_buf(),
                    source: e,
                }
            }
        };
        let before = FileStamp::of(path).map_err(stat_err)?;
        if let Some(sha256) = self.lookup(&before) {
            return Ok(Source {
                bytes: None,
                sha256,
            });
        }
        let bytes = read_bounded(path, MODULE_LIMIT)?;
        let sha256 = sha256_hex(&bytes);
        // Indexed only if nothing changed the file while it was read.
        if FileStamp::of(path).ok() == Some(before) {
            self.record(&before, &sha256);
        }
        Ok(Source {
            bytes: Some(bytes),
            sha256,
        })
    }
}

/// The SHA-256 of a module file, through the index under the default cache root (what the
/// trust store compares with its pins); empty when the file cannot be read (never trusted).
pub fn module_sha256(path: &Path) -> String {
    SourceIndex::default_root()
        .source(path)
        .map(|s| s.sha256)
        .unwrap_or_default()
}

fn record_bytes(stamp: &FileStamp, sha256: &str) -> Option<Vec<u8>> {
    let sha = super::cache::unhex(sha256)?;
    let mut out = Vec::with_capacity(RECORD);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&stamp.to_bytes());
    out.extend_from_slice(&sha);
    let digest = Sha256::digest(&out);
    out.extend_from_slice(&digest);
    Some(out)
}

fn parse_record(data: &[u8], stamp: &FileStamp) -> Option<String> {
    if data.len() != RECORD || &data[..8] != MAGIC {
        return None;
    }
    let (signed, digest) = data.split_at(RECORD - 32);
    if Sha256::digest(signed).as_slice() != digest || signed[8..64] != stamp.to_bytes() {
        return None;
    }
    Some(hex(&signed[64..96]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(root: &Path) -> SourceIndex {
        SourceIndex::new(Some(root)).with_settle(Duration::ZERO)
    }

    #[test]
    fn a_second_lookup_of_an_unchanged_file_does_not_read_it() {
        let cache = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.wasm");
        std::fs::write(&path, b"module bytes").unwrap();
        let idx = index(cache.path());
        let first = idx.source(&path).unwrap();
        assert!(first.bytes.is_some(), "first lookup reads the file");
        assert_eq!(first.sha256, sha256_hex(b"module bytes"));
        let second = idx.source(&path).unwrap();
        assert!(second.bytes.is_none(), "second lookup comes from the index");
        assert_eq!(second.sha256, first.sha256);
    }

    #[test]
    fn an_edited_file_is_read_and_hashed_again() {
        let cache = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.wasm");
        std::fs::write(&path, b"one").unwrap();
        let idx = index(cache.path());
        idx.source(&path).unwrap();
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&path, b"two").unwrap();
        let again = idx.source(&path).unwrap();
        assert!(again.bytes.is_some());
        assert_eq!(again.sha256, sha256_hex(b"two"));
    }

    #[test]
    fn an_unsettled_file_is_not_indexed() {
        let cache = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.wasm");
        std::fs::write(&path, b"fresh").unwrap();
        let idx = SourceIndex::new(Some(cache.path())).with_settle(Duration::from_secs(3600));
        idx.source(&path).unwrap();
        assert!(idx.source(&path).unwrap().bytes.is_some());
    }

    #[test]
    fn a_forged_or_foreign_record_is_refused() {
        let stamp = FileStamp {
            dev: 1,
            ino: 2,
            size: 3,
            mtime_ns: 4,
            ctime_ns: 5,
        };
        let sha = sha256_hex(b"x");
        let record = record_bytes(&stamp, &sha).unwrap();
        assert_eq!(parse_record(&record, &stamp), Some(sha));
        let other = FileStamp {
            ctime_ns: 6,
            ..stamp
        };
        assert_eq!(parse_record(&record, &other), None, "another stamp");
        let mut flipped = record.clone();
        flipped[70] ^= 1;
        assert_eq!(parse_record(&flipped, &stamp), None, "a patched hash");
        assert_eq!(parse_record(&record[1..], &stamp), None);
    }
}
