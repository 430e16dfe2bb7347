//! The on-disk cache of compiled wasm code, so a fresh `hookhost` process does not recompile,
//! and maps what it compiled instead of reading it.
//!
//! Entries hold native code that runs outside the sandbox's reach if it was tampered with,
//! so the cache is treated as hostile until checked (threat model in SECURITY.md):
//! - **A private directory.** The root (`$HOOKHOST_CACHE_DIR`, else the user's cache
//!   directory) and the per-engine folder under it must be real directories (not symlinks),
//!   owned by the current user and writable by nobody else; hookhost creates them `0700`.
//!   A directory that fails the check is not used at all (a warning says why and how to
//!   fix it; modules are then compiled in memory on every run).
//! - **Bound to the source and the engine.** The folder is named by a fingerprint of the
//!   wasmtime version and the engine configuration. Each entry is wasmtime's own serialized
//!   code, filed as `<source SHA-256>.module|component`, next to a *seal*
//!   (`<source SHA-256>.seal`): `MAGIC | kind | source SHA-256 | engine fingerprint | the
//!   entry file's device, inode, size, mtime | SHA-256 of all before`.
//! - **Whole, cheaply.** The entry is opened without following symlinks and `fstat`ed: it
//!   must be a regular file of this user, writable by no one else, with exactly the identity
//!   the seal recorded when hookhost wrote it. A truncated, rewritten or swapped entry (even
//!   one copied over another module's name) has another size, mtime or inode and is refused
//!   and rebuilt. Hashing the ~40 MB entry on every run is what this replaces (SECURITY.md
//!   says what that gives up). wasmtime checks the artifact's header, version and settings.
//! - **Mapped, not read.** A valid entry is handed to wasmtime by its open descriptor
//!   (`deserialize_file`): the code is mapped from the page cache and the guest's initial
//!   memory is mapped copy-on-write from the same file.
//! - **Written safely.** Entries and seals are written through unpredictable temporary files
//!   (`O_EXCL`, mode 0600, in the same private folder) and renamed into place, so a planted
//!   symlink is never followed, readers never see half an entry, and a mapped entry is never
//!   rewritten in place.
//!
//! Not here: finding the source's hash without reading it (`source_index.rs`).

use super::stamp::FileStamp;
use crate::files::{CACHE_ENTRY_LIMIT, hex, private_dir, write_private};
use sha2::{Digest, Sha256};
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use wasmtime::component::Component;
use wasmtime::{Engine, Module};

const MAGIC: &[u8; 8] = b"HKHOST03";
/// `MAGIC | kind(8) | source(32) | fingerprint(32) | dev, ino, size(8 each), mtime_ns(16)`.
const SEAL_BODY: usize = 8 + 8 + 32 + 32 + 24 + 16;
const SEAL: usize = SEAL_BODY + 32;

/// A compiled module or component.
#[derive(Clone)]
pub enum Artifact {
    /// A core module.
    Module(Module),
    /// A component.
    Component(Component),
}

impl Artifact {
    fn kind(&self) -> Kind {
        match self {
            Artifact::Module(_) => Kind::Module,
            Artifact::Component(_) => Kind::Component,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Module = 1,
    Component = 2,
}

impl Kind {
    fn extension(self) -> &'static str {
        match self {
            Kind::Module => "module",
            Kind::Component => "component",
        }
    }
}

/// The identity of an entry file the seal records (no ctime: the rename into place changes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct EntryId {
    dev: u64,
    ino: u64,
    size: u64,
    mtime_ns: i128,
}

impl From<FileStamp> for EntryId {
    fn from(s: FileStamp) -> Self {
        EntryId {
            dev: s.dev,
            ino: s.ino,
            size: s.size,
            mtime_ns: s.mtime_ns,
        }
    }
}

/// The compiled-code cache directory for one engine configuration.
#[derive(Debug, Clone)]
pub struct DiskCache {
    dir: Option<PathBuf>,
    /// SHA-256 of the engine's identity (wasmtime version, settings, hookhost's tag).
    fingerprint: [u8; 32],
}

pub use crate::files::sha256_hex;

/// Where the cache lives when not configured: the root this process settled on
/// ([`crate::locations::settle`]: `$HOOKHOST_CACHE_DIR` when it is not inside the
/// project, ...), else `$HOOKHOST_CACHE_DIR`, else the user's cache directory
/// (`~/.cache/hookhost/wasm` on Linux). `None` disables the disk cache.
pub fn default_cache_root() -> Option<PathBuf> {
    if let Some(roots) = crate::locations::settled() {
        return roots.cache;
    }
    if let Some(dir) = crate::host_env::var_os("HOOKHOST_CACHE_DIR", "the default cache") {
        return Some(PathBuf::from(dir));
    }
    dirs::cache_dir().map(|d| d.join("hookhost").join("wasm"))
}

impl DiskCache {
    /// A cache under `root` for `engine`: the folder name hashes wasmtime's own compatibility
    /// hash (its version and code-generation settings) and `config_tag` (hookhost's
    /// settings). A root that is not private to this user disables the cache, with a warning.
    pub fn new(root: Option<PathBuf>, engine: &Engine, config_tag: &str) -> Self {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        engine.precompile_compatibility_hash().hash(&mut h);
        let fingerprint: [u8; 32] = Sha256::digest(
            format!(
                "hookhost {} {} {config_tag} {:016x}",
                env!("CARGO_PKG_VERSION"),
                String::from_utf8_lossy(MAGIC),
                h.finish()
            )
            .as_bytes(),
        )
        .into();
        let dir = root.and_then(|root| {
            // A relative root resolves against the working directory, which is the project:
            // a cloned repository could ship the folder with forged entries.
            if !root.is_absolute() {
                tracing::warn!("not using the compiled-code cache: its directory {} is relative (it would resolve inside the project); set HOOKHOST_CACHE_DIR to an absolute path", root.display());
                return None;
            }
            let dir = root.join(&hex(&fingerprint)[..16]);
            match private_dir(&root).and_then(|()| private_dir(&dir)) {
                Ok(()) => Some(dir),
                Err(why) => {
                    tracing::warn!("not using the compiled-code cache: {why}; modules are compiled on every run until it is fixed");
                    None
                }
            }
        });
        DiskCache { dir, fingerprint }
    }

    /// The folder in use, if the cache is enabled.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    fn entry_path(&self, hash: &str, kind: Kind) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .map(|d| d.join(format!("{hash}.{}", kind.extension())))
    }

    fn seal_path(&self, hash: &str) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(format!("{hash}.seal")))
    }

    /// The cached artifact for the module whose bytes hash to `hash`, if a valid entry for
    /// exactly those bytes and this engine exists. Maps the entry; reads only its seal.
    #[allow(unsafe_code)]
    pub fn load(&self, engine: &Engine, hash: &str) -> Option<Artifact> {
        let seal_path = self.seal_path(hash)?;
        let seal = match crate::files::read_bounded_nofollow(&seal_path, SEAL as u64) {
            Ok(d) => d,
            Err(e) if e.is_not_found() => return None,
            Err(e) => {
                tracing::warn!(error = %e, "ignoring an unreadable compiled-code cache seal; recompiling");
                return None;
            }
        };
        let Some((kind, id)) = parse_seal(&seal, hash, &self.fingerprint) else {
            tracing::warn!(path = %seal_path.display(), "ignoring a compiled-code cache seal that is corrupt or not for this module and engine; recompiling");
            return None;
        };
        let path = self.entry_path(hash, kind)?;
        let file = match open_entry(&path, id) {
            Ok(f) => f,
            Err(why) => {
                tracing::warn!(path = %path.display(), "ignoring a compiled-code cache entry: {why}; recompiling");
                return None;
            }
        };
        // SAFETY: `deserialize_*` trusts its input to be code produced by wasmtime for this
        // engine, and the mapped file not to change while it is in use. This file sits in a
        // directory only this user can write (checked when the cache was opened), is a
        // regular file of this user writable by no one else, and has exactly the device,
        // inode, size and mtime that the seal recorded when hookhost wrote it; the seal
        // carries the SHA-256 of the very module being run and this engine's fingerprint and
        // is itself whole (its own SHA-256 matches). Entries are only ever replaced by rename,
        // never rewritten in place, so a mapping stays valid. wasmtime additionally rejects
        // artifacts from another version or configuration. Whoever can still forge such a
        // file can already run code as this user.
        let result = unsafe {
            match kind {
                Kind::Module => Module::deserialize_open_file(engine, file).map(Artifact::Module),
                Kind::Component => {
                    component_from_open_file(engine, &path, &file).map(Artifact::Component)
                }
            }
        };
        match result {
            Ok(a) => Some(a),
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "compiled-code cache entry rejected; recompiling");
                None
            }
        }
    }

    /// Writes the entry for the module whose bytes hash to `hash` (atomically, through an
    /// unpredictable temporary file), then its seal. Failures only cost speed.
    pub fn store(&self, hash: &str, artifact: &Artifact) {
        let kind = artifact.kind();
        let (Some(path), Some(seal_path)) = (self.entry_path(hash, kind), self.seal_path(hash))
        else {
            return;
        };
        let result = (|| -> Result<(), String> {
            let body = match artifact {
                Artifact::Module(m) => m.serialize(),
                Artifact::Component(c) => c.serialize(),
            }
            .map_err(|e| e.to_string())?;
            let dir = path.parent().unwrap_or(Path::new("."));
            let mut tmp = tempfile::Builder::new()
                .prefix(".hookhost-")
                .suffix(".tmp")
                .tempfile_in(dir)
                .map_err(|e| e.to_string())?;
            tmp.write_all(&body).map_err(|e| e.to_string())?;
            tmp.as_file().sync_data().map_err(|e| e.to_string())?;
            let meta = tmp.as_file().metadata().map_err(|e| e.to_string())?;
            let id = EntryId::from(FileStamp::from_metadata(&meta));
            tmp.persist(&path).map_err(|e| e.error.to_string())?;
            let seal = seal_bytes(kind, hash, &self.fingerprint, id)
                .ok_or_else(|| "the module hash is not a SHA-256".to_string())?;
            write_private(&seal_path, &seal).map_err(|e| e.to_string())
        })();
        if let Err(e) = result {
            tracing::warn!(path = %path.display(), kind = kind.extension(), error = %e, "cannot write the compiled-code cache; later runs will recompile");
        }
    }
}

impl DiskCache {
    /// Removes the entry (either kind) and seal for the module whose bytes hash to `hash`, if
    /// any: the seal first, so no reader trusts a half-removed entry. A process that has the
    /// entry mapped keeps its mapping. Failures only cost disk space.
    pub fn remove(&self, hash: &str) {
        let Some(seal) = self.seal_path(hash) else {
            return;
        };
        if std::fs::remove_file(&seal).is_err() {
            return;
        }
        for kind in [Kind::Module, Kind::Component] {
            if let Some(entry) = self.entry_path(hash, kind) {
                let _ = std::fs::remove_file(entry);
            }
        }
    }

    /// Takes the exclusive, non-blocking lock named `key` (a hex digest) in the private
    /// folder: `<key>.lock`, opened without following a symlink, mode 0600. `None` when the
    /// cache is disabled, the lock is held by another process (or handle), or it cannot be
    /// taken. Released when the file is dropped (or its process ends, however it ends).
    pub fn try_lock(&self, key: &str) -> Option<std::fs::File> {
        if key.len() != 64 || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let path = self.dir.as_ref()?.join(format!("{key}.lock"));
        let mut options = std::fs::OpenOptions::new();
        options.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
        }
        let file = options
            .open(&path)
            .map_err(
                |e| tracing::debug!(path = %path.display(), error = %e, "cannot open a lock file"),
            )
            .ok()?;
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            return None;
        }
        file.try_lock().ok()?;
        Some(file)
    }

    /// Adopts `file` as the lock of [`Self::try_lock`] for `key` when it is that very lock
    /// file (same device and inode as the path) and its lock is, or can be, held through it:
    /// how a background compile keeps the claim its parent took before starting it (a lock
    /// held through an inherited descriptor is the parent's own, so locking it again
    /// succeeds; any other descriptor of the file fails while someone holds the lock).
    /// A refused `file` comes back untouched (the caller may not own what it names).
    pub fn adopt_lock(
        &self,
        key: &str,
        file: std::fs::File,
    ) -> Result<std::fs::File, std::fs::File> {
        let valid = key.len() == 64 && key.bytes().all(|b| b.is_ascii_hexdigit());
        let Some(dir) = self.dir.as_ref().filter(|_| valid) else {
            return Err(file);
        };
        if !same_file(&file, &dir.join(format!("{key}.lock"))) || file.try_lock().is_err() {
            return Err(file);
        }
        Ok(file)
    }
}

/// Whether `file` is the regular file at `path` (same device and inode; never on other
/// systems, where no claim is handed down).
fn same_file(file: &std::fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::symlink_metadata(path)) {
            (Ok(held), Ok(named)) => {
                held.is_file() && (held.dev(), held.ino()) == (named.dev(), named.ino())
            }
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        false
    }
}

/// Opens an entry without following a symlink and checks that it is the file the seal
/// describes: a regular file of this user, writable by no one else, with that identity.
fn open_entry(path: &Path, sealed: EntryId) -> Result<std::fs::File, String> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options
        .open(path)
        .map_err(|e| format!("cannot open it: {e}"))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot stat it: {e}"))?;
    if !meta.is_file() {
        return Err("it is not a regular file".into());
    }
    if meta.len() > CACHE_ENTRY_LIMIT {
        return Err("it is larger than any entry hookhost writes".into());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let me = crate::agent::process::effective_uid();
        if meta.uid() != me || meta.mode() & 0o022 != 0 {
            return Err("it is not a file of yours writable only by you".into());
        }
    }
    if EntryId::from(FileStamp::from_metadata(&meta)) != sealed {
        return Err("it is not the file hookhost wrote (size, mtime or inode changed)".into());
    }
    Ok(file)
}

/// Maps a component from an already opened (and checked) file. wasmtime opens components by
/// path only; on Linux `/proc/self/fd/N` names exactly the inode checked, elsewhere the path
/// is opened again (the folder is private, see the module docs).
///
/// # Safety
/// As [`Component::deserialize_file`].
#[allow(unsafe_code)]
unsafe fn component_from_open_file(
    engine: &Engine,
    path: &Path,
    file: &std::fs::File,
) -> wasmtime::Result<Component> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let by_fd = PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()));
        if by_fd.exists() {
            // SAFETY: the caller's contract.
            return unsafe { Component::deserialize_file(engine, by_fd) };
        }
    }
    let _ = file;
    // SAFETY: the caller's contract.
    unsafe { Component::deserialize_file(engine, path) }
}

fn seal_bytes(
    kind: Kind,
    source_hash: &str,
    fingerprint: &[u8; 32],
    id: EntryId,
) -> Option<Vec<u8>> {
    let source = unhex(source_hash)?;
    let mut seal = Vec::with_capacity(SEAL);
    seal.extend_from_slice(MAGIC);
    seal.extend_from_slice(&(kind as u64).to_le_bytes());
    seal.extend_from_slice(&source);
    seal.extend_from_slice(fingerprint);
    seal.extend_from_slice(&id.dev.to_le_bytes());
    seal.extend_from_slice(&id.ino.to_le_bytes());
    seal.extend_from_slice(&id.size.to_le_bytes());
    seal.extend_from_slice(&id.mtime_ns.to_le_bytes());
    let digest = Sha256::digest(&seal);
    seal.extend_from_slice(&digest);
    Some(seal)
}

/// The kind and entry identity of a seal that is whole and was made for `source_hash` and
/// this engine.
fn parse_seal(data: &[u8], source_hash: &str, fingerprint: &[u8; 32]) -> Option<(Kind, EntryId)> {
    if data.len() != SEAL || &data[..8] != MAGIC {
        return None;
    }
    let (signed, digest) = data.split_at(SEAL_BODY);
    if Sha256::digest(signed).as_slice() != digest {
        return None;
    }
    if signed[16..48] != unhex(source_hash)?[..] || signed[48..80] != fingerprint[..] {
        return None;
    }
    let u64_at = |i: usize| u64::from_le_bytes(signed[i..i + 8].try_into().unwrap_or([0; 8]));
    let kind = match u64_at(8) {
        1 => Kind::Module,
        2 => Kind::Component,
        _ => return None,
    };
    let id = EntryId {
        dev: u64_at(80),
        ino: u64_at(88),
        size: u64_at(96),
        mtime_ns: i128::from_le_bytes(signed[104..120].try_into().unwrap_or([0; 16])),
    };
    Some((kind, id))
}

/// The 32 bytes of a hex SHA-256.
pub(crate) fn unhex(s: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    if s.len() != 64 {
        return None;
    }
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
#[path = "cache_tests.rs"]
mod tests;
