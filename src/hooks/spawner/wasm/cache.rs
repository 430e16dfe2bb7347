//! The on-disk cache of compiled wasm code, so a fresh `hookhost` process does not recompile.
//!
//! Entries hold native code that runs outside the sandbox's reach if it was tampered with,
//! so the cache is treated as hostile until checked (threat model in SECURITY.md):
//! - **A private directory.** The root (`$HOOKHOST_CACHE_DIR`, else the user's cache
//!   directory) and the per-engine folder under it must be real directories (not symlinks),
//!   owned by the current user and writable by nobody else; hookhost creates them `0700`.
//!   A directory that fails the check is not used at all (a warning says why and how to
//!   fix it; modules are then compiled in memory on every run).
//! - **Bound to the source and the engine.** The folder is named by a fingerprint of the
//!   wasmtime version and the engine configuration; each entry is filed under the SHA-256 of
//!   the module's bytes *and* carries that hash and the engine fingerprint in its header, so
//!   an entry copied over another module's name is refused, not run.
//! - **Whole.** Each entry ends with a SHA-256 of everything before it; a truncated or
//!   corrupted entry is refused and rebuilt.
//! - **Written safely.** Entries are written through an unpredictable temporary file
//!   (`O_EXCL`, mode 0600, in the same private folder) and renamed into place, so a planted
//!   symlink is never followed and readers never see half an entry.

use crate::hooks::files::{CACHE_ENTRY_LIMIT, hex, private_dir, read_bounded, write_private};
use sha2::{Digest, Sha256};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use wasmtime::component::Component;
use wasmtime::{Engine, Module};

const MAGIC: &[u8; 8] = b"HKHOST02";
const HEADER: usize = 8 + 32 + 32;

/// A compiled module or component.
#[derive(Clone)]
pub enum Artifact {
    /// A core module.
    Module(Module),
    /// A component.
    Component(Component),
}

impl Artifact {
    fn extension(&self) -> &'static str {
        match self {
            Artifact::Module(_) => "module",
            Artifact::Component(_) => "component",
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

pub use crate::hooks::files::sha256_hex;

/// Where the cache lives when not configured: `$HOOKHOST_CACHE_DIR`, else the user's cache
/// directory (`~/.cache/hookhost/wasm` on Linux). `None` disables the disk cache.
pub fn default_cache_root() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("HOOKHOST_CACHE_DIR") {
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
                "hookhost {} {config_tag} {:016x}",
                env!("CARGO_PKG_VERSION"),
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

    fn path(&self, hash: &str, component: bool) -> Option<PathBuf> {
        let ext = if component { "component" } else { "module" };
        self.dir.as_ref().map(|d| d.join(format!("{hash}.{ext}")))
    }

    /// The cached artifact for the module whose bytes hash to `hash`, if a valid entry for
    /// exactly those bytes and this engine exists.
    pub fn load(&self, engine: &Engine, hash: &str, component: bool) -> Option<Artifact> {
        let path = self.path(hash, component)?;
        let data = match read_bounded(&path, CACHE_ENTRY_LIMIT) {
            Ok(d) => d,
            Err(e) if e.is_not_found() => return None,
            Err(e) => {
                tracing::warn!(error = %e, "ignoring an unreadable compiled-code cache entry; recompiling");
                return None;
            }
        };
        let Some(body) = verified_body(&data, hash, &self.fingerprint) else {
            tracing::warn!(path = %path.display(), "ignoring a compiled-code cache entry that is corrupt or not for this module and engine; recompiling");
            return None;
        };
        // SAFETY: `deserialize` trusts its input to be code produced by wasmtime for this
        // engine. These bytes sit in a directory only this user can write (checked when the
        // cache was opened), carry our magic, the SHA-256 of the very module being run and
        // this engine's fingerprint in their header, and a SHA-256 over header and body that
        // matches (so a truncated, corrupted or foreign entry is refused above); wasmtime
        // additionally rejects artifacts from another version or configuration. Whoever can
        // still forge such a file can already run code as this user.
        let result = unsafe {
            if component {
                Component::deserialize(engine, body).map(Artifact::Component)
            } else {
                Module::deserialize(engine, body).map(Artifact::Module)
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
    /// unpredictable temporary file). Failures only cost speed.
    pub fn store(&self, hash: &str, artifact: &Artifact) {
        let Some(path) = self.path(hash, matches!(artifact, Artifact::Component(_))) else {
            return;
        };
        let body = match artifact {
            Artifact::Module(m) => m.serialize(),
            Artifact::Component(c) => c.serialize(),
        };
        let result = body.map_err(|e| e.to_string()).and_then(|body| {
            let entry = entry_bytes(hash, &self.fingerprint, &body)
                .ok_or_else(|| "the module hash is not a SHA-256".to_string())?;
            write_private(&path, &entry).map_err(|e| e.to_string())
        });
        if let Err(e) = result {
            tracing::warn!(path = %path.display(), kind = artifact.extension(), error = %e, "cannot write the compiled-code cache; later runs will recompile");
        }
    }
}

/// `MAGIC | source SHA-256 | engine fingerprint | body | SHA-256 of all before`.
fn entry_bytes(source_hash: &str, fingerprint: &[u8; 32], body: &[u8]) -> Option<Vec<u8>> {
    let source = unhex(source_hash)?;
    let mut entry = Vec::with_capacity(HEADER + body.len() + 32);
    entry.extend_from_slice(MAGIC);
    entry.extend_from_slice(&source);
    entry.extend_from_slice(fingerprint);
    entry.extend_from_slice(body);
    let digest = Sha256::digest(&entry);
    entry.extend_from_slice(&digest);
    Some(entry)
}

/// The body of an entry if it is whole and was made from `source_hash` for this engine.
fn verified_body<'a>(
    data: &'a [u8],
    source_hash: &str,
    fingerprint: &[u8; 32],
) -> Option<&'a [u8]> {
    if data.len() < HEADER + 32 || &data[..8] != MAGIC {
        return None;
    }
    let (signed, digest) = data.split_at(data.len() - 32);
    if Sha256::digest(signed).as_slice() != digest {
        return None;
    }
    if signed[8..40] != unhex(source_hash)?[..] || signed[40..72] != fingerprint[..] {
        return None;
    }
    Some(&signed[HEADER..])
}

fn unhex(s: &str) -> Option<[u8; 32]> {
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
mod tests {
    use super::*;

    const A: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    const B: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

    #[test]
    fn an_entry_is_bound_to_its_module_its_engine_and_its_bytes() {
        let engine = [7u8; 32];
        let entry = entry_bytes(A, &engine, b"compiled code").unwrap();
        assert_eq!(
            verified_body(&entry, A, &engine),
            Some(&b"compiled code"[..])
        );
        assert_eq!(
            verified_body(&entry, B, &engine),
            None,
            "another module's entry"
        );
        assert_eq!(
            verified_body(&entry, A, &[8u8; 32]),
            None,
            "another engine's entry"
        );
        let mut flipped = entry.clone();
        flipped[HEADER + 3] ^= 1;
        assert_eq!(verified_body(&flipped, A, &engine), None, "a patched body");
        assert_eq!(verified_body(&entry[1..], A, &engine), None);
        assert_eq!(verified_body(b"short", A, &engine), None);
    }
}
