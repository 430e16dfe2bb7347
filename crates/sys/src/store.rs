//! The content-addressed store of hook packages: `<root>/sha256/<hex>`, one file per module,
//! named by the SHA-256 of its bytes.
//!
//! The root is `$HOOKHOST_STORE_DIR`, else `<user cache>/hookhost/store`
//! (`~/.cache/hookhost/store` on Linux). Both it and `sha256/` are private directories
//! (0700, ours, not symlinks: [`private_dir`]). Files are written through a temporary file
//! and renamed into place, and every read checks the bytes against the name. Nothing else is
//! trusted about a file found here: a stray or damaged file is never run, because the wasm
//! spawner checks the bytes it loads against the digest the config pins the package by
//! (`config::ModuleSource::Package`) and `hookhost fetch`
//! downloads it again. What this module does not do: network (`registry.rs`, `https.rs`).

use crate::files::{MODULE_LIMIT, private_dir, read_bounded_nofollow, sha256_hex, write_private};
use std::path::PathBuf;

pub use crate::locations::STORE_ENV;

/// Largest package accepted into the store, in bytes: 64 MiB (the Python component is
/// about 18 MB). A registry layer or download above it is refused before it is read.
pub const PACKAGE_LIMIT: u64 = 64 << 20;

/// A `sha256:<64 lowercase hex>` digest, checked.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest(String);

impl Digest {
    /// Parses `sha256:<hex>` (or bare hex); uppercase hex is lowered.
    pub fn parse(text: &str) -> Result<Digest, StoreError> {
        let hex = text
            .strip_prefix("sha256:")
            .unwrap_or(text)
            .to_ascii_lowercase();
        if hex.len() == 64 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
            Ok(Digest(hex))
        } else {
            Err(StoreError::BadDigest(text.to_string()))
        }
    }

    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> Digest {
        Digest(sha256_hex(bytes))
    }

    /// The 64 hex digits.
    pub fn hex(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Digest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "sha256:{}", self.0)
    }
}

/// What went wrong with the store.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// A digest that is not `sha256:` and 64 hex digits.
    #[error("{0:?} is not a digest; write sha256: followed by 64 hex digits")]
    BadDigest(String),
    /// The store directory is unusable.
    #[error("the hook store: {0}")]
    Dir(#[from] crate::files::DirError),
    /// There is no directory to keep it in.
    #[error("the hook store: no user cache directory; set {STORE_ENV}")]
    NoCacheDir,
    /// The package is not in the store.
    #[error("hook package {digest} is not in the store ({}); run `hookhost fetch` to download the pinned packages, or `hookhost add REF` again", path.display())]
    Missing {
        /// The digest pinned.
        digest: Digest,
        /// Where it should be.
        path: PathBuf,
    },
    /// The file's bytes do not hash to its name.
    #[error("hook package {digest} in the store ({}) is damaged: its bytes hash to {actual}; run `hookhost fetch` to download it again", path.display())]
    Damaged {
        /// The digest pinned.
        digest: Digest,
        /// Where it is.
        path: PathBuf,
        /// What the bytes hash to.
        actual: Digest,
    },
    /// The bytes are larger than [`PACKAGE_LIMIT`].
    #[error("the package is {size} bytes, over the {} MiB limit for hook packages", PACKAGE_LIMIT >> 20)]
    TooLarge {
        /// Its size.
        size: u64,
    },
    /// Reading or writing failed.
    #[error("the hook store ({}): {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
}

/// The store at one root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Store {
    root: PathBuf,
}

impl Store {
    /// The store root this process settled on ([`crate::locations::settle`]), else
    /// `$HOOKHOST_STORE_DIR`, else `<user cache>/hookhost/store`; `None` when there is neither
    /// (no home directory).
    pub fn default_root() -> Option<PathBuf> {
        if let Some(roots) = crate::locations::settled() {
            return roots.store;
        }
        match crate::host_env::var_os(STORE_ENV, "the default store") {
            Some(dir) => Some(PathBuf::from(dir)),
            None => dirs::cache_dir().map(|c| c.join("hookhost").join("store")),
        }
    }

    /// The default store; an error when there is no user cache directory.
    pub fn open_default() -> Result<Store, StoreError> {
        Store::default_root()
            .map(Store::at)
            .ok_or(StoreError::NoCacheDir)
    }

    /// The store at `root` (nothing is created until something is written).
    pub fn at(root: PathBuf) -> Store {
        Store { root }
    }

    /// Where the package with `digest` lies (whether or not it is there).
    pub fn path(&self, digest: &Digest) -> PathBuf {
        self.root.join("sha256").join(digest.hex())
    }

    /// Puts `bytes` into the store and returns their digest; checks them against
    /// `expected` first when given (nothing is written on a mismatch).
    pub fn put(&self, bytes: &[u8], expected: Option<&Digest>) -> Result<Digest, StoreError> {
        if bytes.len() as u64 > PACKAGE_LIMIT {
            return Err(StoreError::TooLarge {
                size: bytes.len() as u64,
            });
        }
        let digest = Digest::of(bytes);
        if let Some(want) = expected
            && *want != digest
        {
            return Err(StoreError::Damaged {
                digest: want.clone(),
                path: self.path(want),
                actual: digest,
            });
        }
        let dir = self.root.join("sha256");
        private_dir(&self.root)?;
        private_dir(&dir)?;
        let path = self.path(&digest);
        write_private(&path, bytes).map_err(|e| StoreError::Io {
            path: path.clone(),
            message: e.to_string(),
        })?;
        Ok(digest)
    }

    /// The bytes of `digest`, verified.
    pub fn get(&self, digest: &Digest) -> Result<Vec<u8>, StoreError> {
        let path = self.path(digest);
        let bytes = match read_bounded_nofollow(&path, MODULE_LIMIT) {
            Ok(b) => b,
            Err(e) if e.is_not_found() => {
                return Err(StoreError::Missing {
                    digest: digest.clone(),
                    path,
                });
            }
            Err(e) => {
                return Err(StoreError::Io {
                    path,
                    message: e.to_string(),
                });
            }
        };
        let actual = Digest::of(&bytes);
        if actual != *digest {
            return Err(StoreError::Damaged {
                digest: digest.clone(),
                path,
                actual,
            });
        }
        Ok(bytes)
    }

    /// Whether `digest` is present with the right bytes.
    pub fn verify(&self, digest: &Digest) -> Result<(), StoreError> {
        self.get(digest).map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_get_and_tamper() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path().join("store"));
        let d = store.put(b"hello", None).unwrap();
        assert_eq!(store.get(&d).unwrap(), b"hello");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join("store/sha256"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        std::fs::write(store.path(&d), b"evil").unwrap();
        assert!(matches!(store.get(&d), Err(StoreError::Damaged { .. })));
        std::fs::remove_file(store.path(&d)).unwrap();
        let e = store.get(&d).unwrap_err();
        assert!(e.to_string().contains("hookhost fetch"), "{e}");
        let wrong = Digest::of(b"other");
        assert!(store.put(b"hello", Some(&wrong)).is_err());
        assert!(!store.path(&wrong).exists());
    }

    #[test]
    fn digests_are_checked() {
        assert!(Digest::parse("sha256:abc").is_err());
        let hex = "A".repeat(64);
        assert_eq!(Digest::parse(&hex).unwrap().hex(), "a".repeat(64));
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_store_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("real")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("store")).unwrap();
        let store = Store::at(dir.path().join("store"));
        assert!(matches!(store.put(b"x", None), Err(StoreError::Dir(_))));
    }
}
