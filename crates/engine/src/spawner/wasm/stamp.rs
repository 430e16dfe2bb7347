//! [`FileStamp`]: the identity of a file as `stat` sees it (device, inode, size, modification
//! and change times to the nanosecond), to notice that a module file changed without reading
//! it. Used by the in-memory modules (`modules.rs`) and the on-disk source index
//! (`source_index.rs`).
//!
//! Why these fields: an edit in place changes the size or the modification time, and always
//! the change time (`ctime`), which only the kernel sets (a user cannot set it back short of
//! changing the system clock); a replaced file has another inode. What the stamp cannot see
//! is a second write inside the file system's timestamp granularity (a few milliseconds on
//! Linux) right after the stamp was taken; [`FileStamp::settled`] tells when a stamp is old
//! enough to be trusted for that.

use std::path::Path;
use std::time::{Duration, SystemTime};

/// The identity of a file's current contents, from its metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct FileStamp {
    pub dev: u64,
    pub ino: u64,
    pub size: u64,
    pub mtime_ns: i128,
    pub ctime_ns: i128,
}

impl FileStamp {
    /// The stamp of the file `path` names (symlinks followed, as when it is read).
    pub fn of(path: &Path) -> std::io::Result<Self> {
        Ok(Self::from_metadata(&std::fs::metadata(path)?))
    }

    /// The stamp of already-read metadata.
    pub fn from_metadata(m: &std::fs::Metadata) -> Self {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            FileStamp {
                dev: m.dev(),
                ino: m.ino(),
                size: m.size(),
                mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
                ctime_ns: i128::from(m.ctime()) * 1_000_000_000 + i128::from(m.ctime_nsec()),
            }
        }
        #[cfg(not(unix))]
        {
            let ns = |t: std::io::Result<SystemTime>| {
                t.ok()
                    .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos() as i128)
            };
            FileStamp {
                dev: 0,
                ino: 0,
                size: m.len(),
                mtime_ns: ns(m.modified()),
                // No change time here: the creation time stands in (a replaced file differs).
                ctime_ns: ns(m.created()),
            }
        }
    }

    /// Whether the file's last change lies at least `margin` before `now`: a later write
    /// within the file system's timestamp granularity could otherwise leave the stamp
    /// unchanged. Only settled stamps are recorded in the source index.
    pub fn settled(&self, now: SystemTime, margin: Duration) -> bool {
        let Ok(now) = now.duration_since(SystemTime::UNIX_EPOCH) else {
            return false;
        };
        let now = i128::try_from(now.as_nanos()).unwrap_or(i128::MAX);
        let margin = i128::try_from(margin.as_nanos()).unwrap_or(i128::MAX);
        self.ctime_ns.max(self.mtime_ns).saturating_add(margin) <= now
    }

    /// The stamp as bytes, for the index file name and record.
    pub fn to_bytes(self) -> [u8; 56] {
        let mut out = [0u8; 56];
        out[..8].copy_from_slice(&self.dev.to_le_bytes());
        out[8..16].copy_from_slice(&self.ino.to_le_bytes());
        out[16..24].copy_from_slice(&self.size.to_le_bytes());
        out[24..40].copy_from_slice(&self.mtime_ns.to_le_bytes());
        out[40..56].copy_from_slice(&self.ctime_ns.to_le_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_in_place_changes_the_stamp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.wasm");
        std::fs::write(&path, b"one").unwrap();
        let before = FileStamp::of(&path).unwrap();
        // Same size, mtime set back to what it was: only the change time can tell.
        let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&path, b"two").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(mtime)
            .unwrap();
        let after = FileStamp::of(&path).unwrap();
        assert_eq!(before.size, after.size);
        assert_eq!(before.mtime_ns, after.mtime_ns);
        assert_ne!(before, after, "the change time must differ");
    }

    #[test]
    fn a_fresh_stamp_is_not_settled() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.wasm");
        std::fs::write(&path, b"x").unwrap();
        let s = FileStamp::of(&path).unwrap();
        let now = SystemTime::now();
        assert!(!s.settled(now, Duration::from_secs(60)));
        assert!(s.settled(now + Duration::from_secs(61), Duration::from_secs(60)));
    }
}
