//! The on-disk cache of compiled wasm code, so a fresh `hookhost` process does not recompile.
//!
//! Entries live outside the project (under the user's cache directory, or
//! `HOOKHOST_CACHE_DIR`), in a folder named by a fingerprint of the wasmtime version and the
//! engine configuration, one file per module keyed by the SHA-256 of the module's bytes. Each
//! file ends with the SHA-256 of its contents and a magic tag; an entry whose digest does not
//! match (truncated, corrupted, or not written by hookhost) is ignored and rebuilt, never
//! handed to wasmtime.

use sha2::{Digest, Sha256};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use wasmtime::component::Component;
use wasmtime::{Engine, Module};

const MAGIC: &[u8; 8] = b"HKHOST01";

/// A compiled module or component.
#[derive(Clone)]
pub enum Artifact {
    Module(Module),
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
}

/// Lowercase hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

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
    /// hash (its version and code-generation settings) and `config_tag` (hookhost's settings).
    pub fn new(root: Option<PathBuf>, engine: &Engine, config_tag: &str) -> Self {
        let dir = root.map(|root| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            engine.precompile_compatibility_hash().hash(&mut h);
            let fingerprint = sha256_hex(
                format!(
                    "hookhost {} {config_tag} {:016x}",
                    env!("CARGO_PKG_VERSION"),
                    h.finish()
                )
                .as_bytes(),
            );
            root.join(&fingerprint[..16])
        });
        DiskCache { dir }
    }

    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    fn path(&self, hash: &str, component: bool) -> Option<PathBuf> {
        let ext = if component { "component" } else { "module" };
        self.dir.as_ref().map(|d| d.join(format!("{hash}.{ext}")))
    }

    /// The cached artifact for the module with this hash, if a valid entry exists.
    pub fn load(&self, engine: &Engine, hash: &str, component: bool) -> Option<Artifact> {
        let path = self.path(hash, component)?;
        let data = std::fs::read(&path).ok()?;
        let body = verified_body(&data);
        let Some(body) = body else {
            tracing::warn!(path = %path.display(), "ignoring a corrupt compiled-code cache entry; recompiling");
            return None;
        };
        // SAFETY: `deserialize` trusts its input to be code produced by wasmtime for this
        // engine. The bytes are ones hookhost itself wrote with `serialize` (they carry our
        // magic tag and a SHA-256 of the exact body, checked above, so a truncated or
        // corrupted file is rejected), in a per-user directory keyed by the wasmtime version
        // and engine config; wasmtime additionally rejects artifacts from another version or
        // configuration. Whoever could forge such a file can already run code as this user.
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

    /// Writes an entry (atomically: temp file, then rename). Failures only cost speed.
    pub fn store(&self, hash: &str, artifact: &Artifact) {
        let Some(path) = self.path(hash, matches!(artifact, Artifact::Component(_))) else {
            return;
        };
        let body = match artifact {
            Artifact::Module(m) => m.serialize(),
            Artifact::Component(c) => c.serialize(),
        };
        let result = body.map_err(|e| e.to_string()).and_then(|mut body| {
            let digest = Sha256::digest(&body);
            body.extend_from_slice(&digest);
            body.extend_from_slice(MAGIC);
            write_atomically(&path, &body).map_err(|e| e.to_string())
        });
        if let Err(e) = result {
            tracing::warn!(path = %path.display(), kind = artifact.extension(), error = %e, "cannot write the compiled-code cache; later runs will recompile");
        }
    }
}

/// The body of a cache file if its digest and magic check out.
fn verified_body(data: &[u8]) -> Option<&[u8]> {
    let tail = 32 + MAGIC.len();
    if data.len() < tail || &data[data.len() - MAGIC.len()..] != MAGIC {
        return None;
    }
    let (body, rest) = data.split_at(data.len() - tail);
    (Sha256::digest(body).as_slice() == &rest[..32]).then_some(body)
}

fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name().unwrap_or_default().to_string_lossy(),
        std::process::id()
    ));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verified_body_rejects_tampering() {
        let body = b"compiled code".to_vec();
        let mut file = body.clone();
        file.extend_from_slice(&Sha256::digest(&body));
        file.extend_from_slice(MAGIC);
        assert_eq!(verified_body(&file), Some(&body[..]));
        let mut flipped = file.clone();
        flipped[3] ^= 1;
        assert_eq!(verified_body(&flipped), None);
        assert_eq!(verified_body(&file[1..]), None);
        assert_eq!(verified_body(b"short"), None);
    }
}
