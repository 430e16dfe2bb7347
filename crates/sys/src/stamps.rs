//! Stamps of what a read relied on, to tell later, with one `lstat` per path, that reading
//! again would give the same result (the warm engine's remembered probes, issue 43).
//!
//! A [`Stamp`] is a path's `lstat`: device, inode, type and mode, owner, link count, size,
//! modification and change times; or its absence (`ENOENT`, `ENOTDIR`) as absence. A set of
//! [`Stamps`] is taken *before* the reads it covers and is [`Stamps::unchanged`] while every
//! path still has the stamp it had. What that proves:
//!
//! - a file's bytes: writing it changes its modification time, replacing it (rename, a new
//!   file) its inode, `chmod`/`chown`/links its change time;
//! - a directory's names: creating, deleting or renaming an entry in it changes its
//!   modification time, so every name probed in it and found absent is still absent without
//!   asking for each (the agents' `.claude/`, `.env`, ... at every level of a project);
//! - a path's resolution: a stamped ancestor that is renamed away and replaced, or turned
//!   into a link, no longer has its stamp.
//!
//! Three rules keep a stamp from hiding a change:
//!
//! - **Racy stamps are not kept** ([`Stamps::usable`] is false): a time too close to when
//!   the stamps were taken (a later write in the same tick of the file system's clock would
//!   leave the time as it was). Closer than [`RACY`] on a file system with sub-second times;
//!   closer than [`RACY_COARSE`] when both times are whole seconds (ext4 with small inodes,
//!   FAT, some network file systems), which such a file system's times are.
//! - **Only directories and regular files**: a link (whose target's changes would not show),
//!   a FIFO or a device (whose bytes change without a write) makes the set unusable.
//! - **An error other than absence** (`EACCES` on a directory on the way, ...) makes the set
//!   unusable: what a read would find there is not known.
//!
//! The set is for local file systems; one whose `stat` answers from a cache that can hold
//! another client's changes back (NFS attribute caching) can show a change late, as it can
//! to a fresh read.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// A stamp closer than this to when the set was taken is racy (sub-second time stamps:
/// several ticks of the kernel's coarse clock, which stamps writes).
pub const RACY: Duration = Duration::from_millis(100);
/// A stamp closer than this is racy when its times are whole seconds.
pub const RACY_COARSE: Duration = Duration::from_secs(3);

/// One path as `lstat` saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stamp {
    /// Not there: the error (`ENOENT`, or `ENOTDIR` for a path under a file).
    Missing(i32),
    /// There: what changes whenever what a read finds there changes.
    Entry {
        /// Device and inode: which file it is.
        id: (u64, u64),
        /// File type and permission bits.
        mode: u32,
        /// Owner and group.
        owner: (u32, u32),
        /// Hard links.
        nlink: u64,
        /// Size in bytes.
        size: u64,
        /// Modification time (seconds, nanoseconds).
        mtime: (i64, i64),
        /// Change time (seconds, nanoseconds).
        ctime: (i64, i64),
    },
}

impl Stamp {
    /// `path`'s stamp (`lstat`: a link is stamped as the link); `Err` for an error other
    /// than absence.
    #[cfg(unix)]
    pub fn of(path: &Path) -> std::io::Result<Stamp> {
        use std::os::unix::fs::MetadataExt;
        match std::fs::symlink_metadata(path) {
            Ok(m) => Ok(Stamp::Entry {
                id: (m.dev(), m.ino()),
                mode: m.mode(),
                owner: (m.uid(), m.gid()),
                nlink: m.nlink(),
                size: m.size(),
                mtime: (m.mtime(), m.mtime_nsec()),
                ctime: (m.ctime(), m.ctime_nsec()),
            }),
            Err(e) => match e.raw_os_error() {
                Some(code @ (libc::ENOENT | libc::ENOTDIR)) => Ok(Stamp::Missing(code)),
                _ => Err(e),
            },
        }
    }

    /// Stamps are kept on Unix only.
    #[cfg(not(unix))]
    pub fn of(_: &Path) -> std::io::Result<Stamp> {
        Err(std::io::ErrorKind::Unsupported.into())
    }

    /// Whether it is a directory.
    pub fn is_dir(&self) -> bool {
        matches!(self, Stamp::Entry { mode, .. } if mode & FORMAT == DIRECTORY)
    }

    /// Whether it is there.
    pub fn is_present(&self) -> bool {
        matches!(self, Stamp::Entry { .. })
    }

    /// What resolving a path through it relies on: which file it is and its type (a
    /// directory's names may change meanwhile).
    fn identity(&self) -> Stamp {
        match self {
            Stamp::Missing(e) => Stamp::Missing(*e),
            Stamp::Entry { id, mode, .. } => Stamp::Entry {
                id: *id,
                mode: mode & FORMAT,
                owner: (0, 0),
                nlink: 0,
                size: 0,
                mtime: (0, 0),
                ctime: (0, 0),
            },
        }
    }

    /// Whether it is a directory or a regular file (the kinds whose stamp covers a read).
    fn is_plain(&self) -> bool {
        match self {
            Stamp::Missing(_) => true,
            Stamp::Entry { mode, .. } => matches!(mode & FORMAT, DIRECTORY | REGULAR),
        }
    }

    /// Whether a write could still leave this stamp as it is: a time closer than the racy
    /// margin to `since`, or after it.
    fn racy(&self, since: SystemTime) -> bool {
        let Stamp::Entry { mtime, ctime, .. } = self else {
            return false;
        };
        let margin = if mtime.1 == 0 && ctime.1 == 0 {
            RACY_COARSE
        } else {
            RACY
        };
        let Some(oldest_safe) = since.checked_sub(margin) else {
            return true;
        };
        [mtime, ctime]
            .into_iter()
            .any(|&(s, ns)| time_of(s, ns).is_none_or(|t| t >= oldest_safe))
    }
}

/// The file-type bits of a mode, and two of their values (POSIX, the same on every Unix).
const FORMAT: u32 = 0o170_000;
const DIRECTORY: u32 = 0o040_000;
const REGULAR: u32 = 0o100_000;

/// A stamp's time as a `SystemTime` (`None` when it cannot be one).
fn time_of(secs: i64, nanos: i64) -> Option<SystemTime> {
    let nanos = Duration::from_nanos(u64::try_from(nanos).ok()?);
    match u64::try_from(secs) {
        Ok(s) => SystemTime::UNIX_EPOCH
            .checked_add(Duration::from_secs(s))?
            .checked_add(nanos),
        Err(_) => SystemTime::UNIX_EPOCH
            .checked_sub(Duration::from_secs(secs.unsigned_abs()))?
            .checked_add(nanos),
    }
}

/// The stamps a read relied on, taken before it.
#[derive(Debug, Clone)]
pub struct Stamps {
    /// Each path, its stamp, and whether all of it counts (else only [`Stamp::identity`]).
    taken: Vec<(PathBuf, Stamp, bool)>,
    /// Where each path is in `taken`, by its bytes (a set stamps the same directories for
    /// many paths: comparing `Path`s component by component was most of its cost).
    index: std::collections::HashMap<std::ffi::OsString, usize>,
    since: SystemTime,
    usable: bool,
}

impl Default for Stamps {
    fn default() -> Self {
        Stamps::since(SystemTime::now())
    }
}

impl Stamps {
    /// An empty set whose stamps count as racy when closer than the margin to `since` (the
    /// time the reads start; tests give another).
    pub fn since(since: SystemTime) -> Stamps {
        Stamps {
            taken: Vec::new(),
            index: std::collections::HashMap::new(),
            since,
            usable: true,
        }
    }

    /// Stamps `path` (absent included) and returns its stamp; `None` when it cannot be
    /// stamped (the set is then unusable).
    pub fn take(&mut self, path: &Path) -> Option<Stamp> {
        self.stamp(path, true, true)
    }

    /// Stamps `path` when it is there (its absence is covered by its parent directory's
    /// stamp, which must be in the set) and returns its stamp.
    pub fn take_present(&mut self, path: &Path) -> Option<Stamp> {
        self.stamp(path, false, true)
    }

    /// What resolving `path` (absolute; a relative one makes the set unusable) relies on:
    /// the identity and type of it and of each directory above it, none of them a link (so
    /// it resolves to the same file by the same canonical path). Their names and times are
    /// not stamped: a file created beside the path does not change where it leads. From the
    /// root down, up to the first that is not a directory: what lies below a missing name or
    /// a file stays missing while that one's stamp holds.
    pub fn take_route(&mut self, path: &Path) {
        if !path.is_absolute() {
            self.usable = false;
            return;
        }
        let route: Vec<&Path> = path.ancestors().collect();
        for p in route.into_iter().rev() {
            if !self.stamp(p, true, false).is_some_and(|s| s.is_dir()) {
                break;
            }
        }
    }

    fn stamp(&mut self, path: &Path, absent_too: bool, full: bool) -> Option<Stamp> {
        if let Some(&i) = self.index.get(path.as_os_str()) {
            // Stamped already; all of it counts if either asks.
            self.taken[i].2 |= full;
            return Some(self.taken[i].1.clone());
        }
        let Ok(stamp) = Stamp::of(path) else {
            self.usable = false;
            return None;
        };
        if !stamp.is_plain() || (full && stamp.racy(self.since)) {
            self.usable = false;
        }
        if absent_too || stamp.is_present() {
            self.index
                .insert(path.as_os_str().to_os_string(), self.taken.len());
            self.taken.push((path.to_path_buf(), stamp.clone(), full));
        }
        Some(stamp)
    }

    /// Gives up on the set (something read could not be stamped).
    pub fn give_up(&mut self) {
        self.usable = false;
    }

    /// Whether the set covers what was read (nothing racy, linked or unreadable).
    pub fn usable(&self) -> bool {
        self.usable
    }

    /// How many paths it stamps.
    pub fn len(&self) -> usize {
        self.taken.len()
    }

    /// Whether it stamps nothing.
    pub fn is_empty(&self) -> bool {
        self.taken.is_empty()
    }

    /// Whether it is usable and every path still has its stamp: a read now would find what
    /// the stamped one found.
    pub fn unchanged(&self) -> bool {
        self.usable
            && self.taken.iter().all(|(p, s, full)| {
                Stamp::of(p).is_ok_and(|now| {
                    if *full {
                        now == *s
                    } else {
                        now.identity() == s.identity()
                    }
                })
            })
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// A set whose stamps are never racy: the reads "start" a minute from now.
    fn settled() -> Stamps {
        Stamps::since(SystemTime::now() + Duration::from_secs(60))
    }

    #[test]
    fn every_change_of_a_stamped_path_shows() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("f");
        std::fs::write(&f, "a").unwrap();
        let changes: [&dyn Fn(); 5] = [
            &|| std::fs::write(&f, "b").unwrap(),
            &|| std::fs::write(&f, "longer").unwrap(),
            &|| {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).unwrap();
            },
            &|| {
                std::fs::write(d.path().join("g"), "b").unwrap();
                std::fs::rename(d.path().join("g"), &f).unwrap();
            },
            &|| std::fs::remove_file(&f).unwrap(),
        ];
        for change in changes {
            let mut s = settled();
            s.take(&f);
            assert!(s.unchanged());
            change();
            assert!(!s.unchanged());
            if !f.exists() {
                std::fs::write(&f, "a").unwrap();
            }
        }
    }

    #[test]
    fn a_name_created_in_a_stamped_directory_shows_there() {
        let d = tempfile::tempdir().unwrap();
        let mut s = settled();
        s.take(d.path());
        assert_eq!(
            s.take_present(&d.path().join(".env")),
            Some(Stamp::Missing(libc::ENOENT))
        );
        assert_eq!(s.len(), 1, "absence is the directory's stamp");
        assert!(s.unchanged());
        std::fs::create_dir(d.path().join(".claude")).unwrap();
        assert!(!s.unchanged());
    }

    #[test]
    fn an_ancestor_replaced_or_linked_shows() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a/b");
        std::fs::create_dir_all(&p).unwrap();
        let mut s = settled();
        s.take_route(&p);
        assert!(s.usable() && s.unchanged());
        std::fs::write(d.path().join("a/beside"), "x").unwrap();
        assert!(s.unchanged(), "a name beside the route does not move it");
        // Renamed away, and another directory of the same shape put in its place.
        std::fs::rename(d.path().join("a"), d.path().join("moved")).unwrap();
        std::fs::create_dir_all(&p).unwrap();
        assert!(!s.unchanged());
        // A link to the moved directory: the same inode at the end of the path, but a link
        // on the way, which is never stamped as plain.
        std::fs::remove_dir_all(d.path().join("a")).unwrap();
        std::os::unix::fs::symlink(d.path().join("moved"), d.path().join("a")).unwrap();
        assert!(!s.unchanged());
        let mut linked = settled();
        linked.take_route(&p);
        assert!(!linked.usable());
    }

    #[test]
    fn a_route_stops_at_its_first_missing_name_and_still_sees_it_appear() {
        let d = tempfile::tempdir().unwrap();
        let deep = d.path().join("a/b/c/settings.json");
        let mut s = settled();
        s.take_route(&deep);
        assert!(s.usable() && s.unchanged());
        let below_root = d.path().ancestors().count();
        assert_eq!(s.len(), below_root + 1, "stamped down to `a`, not below it");
        std::fs::create_dir(d.path().join("a")).unwrap();
        assert!(!s.unchanged(), "the missing name appeared");
        // A file where a directory would be: what is below it cannot be there.
        std::fs::remove_dir(d.path().join("a")).unwrap();
        std::fs::write(d.path().join("a"), "x").unwrap();
        let mut f = settled();
        f.take_route(&deep);
        assert!(f.usable() && f.unchanged());
        std::fs::remove_file(d.path().join("a")).unwrap();
        std::fs::create_dir_all(d.path().join("a/b/c")).unwrap();
        assert!(!f.unchanged(), "the file became a directory");
    }

    #[test]
    fn fresh_stamps_links_and_fifos_are_not_kept() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("f");
        std::fs::write(&f, "a").unwrap();
        let mut now = Stamps::default();
        now.take(&f);
        assert!(!now.usable(), "written just now: racy");
        assert!(!now.unchanged());
        let fifo = d.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid C string; mkfifo has no other precondition.
        #[allow(unsafe_code)]
        let rc = unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
        assert_eq!(rc, 0);
        let mut s = settled();
        s.take(&fifo);
        assert!(!s.usable());
        let mut rel = settled();
        rel.take_route(Path::new("relative/path"));
        assert!(!rel.usable());
    }

    #[test]
    fn whole_second_times_get_the_coarse_margin() {
        let s = Stamp::Entry {
            id: (1, 1),
            mode: REGULAR,
            owner: (0, 0),
            nlink: 1,
            size: 0,
            mtime: (1_000, 0),
            ctime: (1_000, 0),
        };
        let at = |secs: u64| SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
        assert!(s.racy(at(1_002)));
        assert!(!s.racy(at(1_004)));
        let fine = Stamp::Entry {
            id: (1, 1),
            mode: REGULAR,
            owner: (0, 0),
            nlink: 1,
            size: 0,
            mtime: (1_000, 5),
            ctime: (1_000, 5),
        };
        assert!(!fine.racy(at(1_001)));
    }
}
