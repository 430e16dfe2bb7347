//! `~/.coding-agent/trusted.json`: what was trusted (per project, the hashes of its config,
//! modules and scripts; the hook packages approved with their grants), read bounded and
//! written under a lock, privately and atomically.

use super::assess::TrustAssessment;
use super::grant::PackageGrant;
use crate::config::FsAccess;
use crate::files::{ReadError, TRUST_FILE_LIMIT, read_bounded_nofollow, write_private};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ProjectPin {
    pub(super) config: String,
    #[serde(default)]
    pub(super) modules: BTreeMap<PathBuf, String>,
    /// Scripts named on trusted shell hooks' command lines (files inside the project).
    #[serde(default)]
    pub(super) scripts: BTreeMap<PathBuf, String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct TrustFile {
    version: u32,
    #[serde(default)]
    pub(super) projects: BTreeMap<PathBuf, ProjectPin>,
    /// Hook packages the user approved, by module digest (hex), with the grants approved:
    /// a pinned hook is trusted in any project when its digest is here and its config
    /// grants no more than this.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) packages: BTreeMap<String, PackageGrant>,
}

/// `~/.coding-agent/trusted.json`.
#[derive(Debug, Clone)]
pub struct TrustStore {
    path: Option<PathBuf>,
    pub(super) file: TrustFile,
}

impl TrustStore {
    /// Reads the store of `home` (no home: an empty store that cannot be saved). A missing
    /// file is empty; an unreadable, oversized, symlinked or malformed one is an error that
    /// says which file.
    pub fn load(home: Option<&Path>) -> Result<TrustStore, TrustError> {
        let path = home.map(|h| h.join(".coding-agent/trusted.json"));
        let file = match &path {
            None => TrustFile::default(),
            Some(p) => read_trust_file(p)?,
        };
        Ok(TrustStore { path, file })
    }

    /// The file this store is read from and saved to (`None`: no home directory).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Records the project's current hooks as trusted and saves the file: under an exclusive
    /// lock, re-reading the file inside it (so concurrent `trust` runs of other projects are
    /// all kept), written to a private temporary file and renamed into place (mode 0600; a
    /// symlink at the path is refused on read and replaced, never followed, on write).
    pub fn trust(&mut self, assessment: &TrustAssessment) -> Result<(), TrustError> {
        let Some((key, pin)) = &assessment.pin else {
            return Ok(());
        };
        self.update(|file| {
            file.projects.insert(key.clone(), pin.clone());
            for (digest, grant) in &assessment.packages {
                approve(file, digest, grant);
            }
        })
    }

    /// Applies `change` to the file on disk and saves it: under an exclusive lock,
    /// re-reading the file inside it (so concurrent writers are all kept), written to a
    /// private temporary file and renamed into place (mode 0600; a symlink at the path is
    /// refused on read and replaced, never followed, on write).
    fn update(&mut self, change: impl FnOnce(&mut TrustFile)) -> Result<(), TrustError> {
        let Some(path) = self.path.clone() else {
            return Err(TrustError::NoHome);
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| TrustError::Write {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        let _lock = FileLock::exclusive(&path.with_extension("json.lock"))?;
        let mut file = read_trust_file(&path)?;
        file.version = 1;
        change(&mut file);
        let text = serde_json::to_string_pretty(&file).unwrap_or_default();
        write_private(&path, (text + "\n").as_bytes()).map_err(|source| TrustError::Write {
            path: path.clone(),
            source,
        })?;
        self.file = file;
        Ok(())
    }
}

impl TrustStore {
    /// Records the hook package with module digest `digest` (hex) as approved with `grant`
    /// (widening an earlier approval), under the same lock and atomic write as
    /// [`TrustStore::trust`]: what `hookhost add` does once the user said yes.
    pub fn approve_package(
        &mut self,
        digest: &str,
        grant: &PackageGrant,
    ) -> Result<(), TrustError> {
        self.update(|file| approve(file, digest, grant))
    }

    /// Whether the package with `digest` (hex) was approved with grants covering these,
    /// run without arguments.
    pub fn package_approved(&self, digest: &str, fs: FsAccess, env: &[String]) -> bool {
        self.file
            .packages
            .get(digest)
            .is_some_and(|g| g.covers(fs, env, &[]))
    }
}

fn approve(file: &mut TrustFile, digest: &str, grant: &PackageGrant) {
    let merged = match file.packages.get(digest) {
        Some(old) => old.union(grant),
        None => grant.clone(),
    };
    file.packages.insert(digest.to_string(), merged);
}

/// Why the trust file could not be read or recorded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TrustError {
    /// It exists but cannot be read (permissions, a symlink, a FIFO, too large).
    #[error("cannot read the trust file: {0}")]
    Read(#[from] ReadError),
    /// It is not a trust file hookhost wrote.
    #[error("{}: not a valid trust file ({message}); delete it and run `hookhost trust` again", path.display())]
    Malformed {
        /// The trust file.
        path: PathBuf,
        /// What the JSON parser said.
        message: String,
    },
    /// There is no home directory to keep it in.
    #[error("no home directory: cannot record trust")]
    NoHome,
    /// It (or its directory) cannot be written.
    #[error("{}: cannot write: {source}", path.display())]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Its lock file cannot be opened or locked.
    #[error("{}: cannot lock: {source}", path.display())]
    Lock {
        /// The lock file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

fn read_trust_file(p: &Path) -> Result<TrustFile, TrustError> {
    match read_bounded_nofollow(p, TRUST_FILE_LIMIT) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| TrustError::Malformed {
            path: p.to_path_buf(),
            message: e.to_string(),
        }),
        Err(e) if e.is_not_found() => Ok(TrustFile::default()),
        Err(e) => Err(TrustError::Read(e)),
    }
}

/// An exclusive advisory lock on a lock file, released on drop.
struct FileLock(#[allow(dead_code)] std::fs::File);

impl FileLock {
    fn exclusive(path: &Path) -> Result<FileLock, TrustError> {
        let mut options = std::fs::OpenOptions::new();
        options.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
        }
        let file = options.open(path).map_err(|source| TrustError::Lock {
            path: path.to_path_buf(),
            source,
        })?;
        file.lock().map_err(|source| TrustError::Lock {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(FileLock(file))
    }
}
