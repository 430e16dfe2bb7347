//! From a `.wasm` file to a [`Prepared`] guest: find the file's hash (by its stamp in the
//! source index, else by reading it once, bounded), take the compiled code from the disk cache
//! or compile it (telling a core module from a component by the header, and caching it), link it against WASI and tell the three guest shapes apart.
//! Blocking: callers run it off the async runtime.
//!
//! Not here: when to load (once per file and edit, one compile at a time: `modules.rs`), the
//! disk cache's safety checks (`cache.rs`), running what was prepared (`run.rs`).

use super::cache::{Artifact, DiskCache, sha256_hex};
use super::engine::Linkers;
use super::hook_world;
use super::modules::WasmStats;
use super::source_index::SourceIndex;
use super::state::{P1State, P2State};
use std::path::Path;
use std::sync::atomic::Ordering;
use wasmtime::{Engine, InstancePre};
use wasmtime_wasi::p2::bindings::CommandPre;

/// A guest ready to instantiate, by shape.
#[derive(Clone)]
pub(super) enum Prepared {
    /// A WASI preview 1 command module (`_start`).
    Module(InstancePre<P1State>),
    /// A WASI preview 2 command component (`wasi:cli/run`).
    Command(CommandPre<P2State>),
    /// A component of the typed `hook` world.
    Hook(hook_world::HookPre<P2State>),
}

/// Everything needed to turn a file into a [`Prepared`] guest; shared with the compiles
/// that go on in the background.
pub(super) struct Loader {
    pub engine: Engine,
    pub linkers: Linkers,
    pub disk: DiskCache,
    pub index: SourceIndex,
}

impl Loader {
    /// Compiles (or loads from disk) and links one file, returning the SHA-256 of its bytes.
    /// On a cached run the file is not read at all: its stamp finds its hash in the source
    /// index and the hash finds the compiled code, which is mapped. Blocking.
    pub fn load(&self, path: &Path, stats: &WasmStats) -> Result<(Prepared, String), String> {
        let source = self
            .index
            .source(path)
            .map_err(|e| missing_file(path, &e))?;
        if let Some(artifact) = self.disk.load(&self.engine, &source.sha256) {
            stats.disk_hits.fetch_add(1, Ordering::Relaxed);
            return Ok((self.link(path, artifact)?, source.sha256));
        }
        // Not cached: the bytes are needed (read now if the index spared the read).
        let bytes = match source.bytes {
            Some(b) => b,
            None => {
                let b = crate::hooks::files::read_bounded(path, crate::hooks::files::MODULE_LIMIT)
                    .map_err(|e| missing_file(path, &e))?;
                if sha256_hex(&b) != source.sha256 {
                    return Err(format!(
                        "{} changed while it was being loaded; run the hook again",
                        path.display()
                    ));
                }
                b
            }
        };
        let component = match wasm_kind(&bytes) {
            Some(WasmKind::Module) => false,
            Some(WasmKind::Component) => true,
            None => {
                return Err(format!(
                    "{} is not a WebAssembly binary (it does not start with the \\0asm header); build the hook for wasm32-wasip1 or wasm32-wasip2",
                    path.display()
                ));
            }
        };
        let artifact = self.compile(path, &bytes, component)?;
        stats.compiled.fetch_add(1, Ordering::Relaxed);
        self.disk.store(&source.sha256, &artifact);
        Ok((self.link(path, artifact)?, source.sha256))
    }

    /// Compiles `bytes` with the engine's optimising compiler.
    fn compile(&self, path: &Path, bytes: &[u8], component: bool) -> Result<Artifact, String> {
        let compiled = if component {
            wasmtime::component::Component::new(&self.engine, bytes).map(Artifact::Component)
        } else {
            wasmtime::Module::new(&self.engine, bytes).map(Artifact::Module)
        };
        compiled.map_err(|e| {
            format!(
                "{} is not a valid WebAssembly {}: {e:#}",
                path.display(),
                if component { "component" } else { "module" }
            )
        })
    }

    /// Links compiled code against the sandbox's WASI and tells the guest shapes apart.
    fn link(&self, path: &Path, artifact: Artifact) -> Result<Prepared, String> {
        match artifact {
            Artifact::Module(m) => self.linkers.p1.instantiate_pre(&m).map(Prepared::Module).map_err(|e| {
                format!(
                    "{} imports something hookhost does not provide ({e:#}); a module hook may import only WASI preview 1 (wasi_snapshot_preview1)",
                    path.display()
                )
            }),
            Artifact::Component(c) => {
                let pre = self.linkers.p2.instantiate_pre(&c).map_err(|e| {
                    format!(
                        "{} imports something hookhost does not provide ({e:#}); a component hook may import only WASI preview 2 (wasi:cli, wasi:filesystem, wasi:io, wasi:clocks, wasi:random)",
                        path.display()
                    )
                })?;
                if let Ok(command) = CommandPre::new(pre.clone()) {
                    return Ok(Prepared::Command(command));
                }
                hook_world::HookPre::new(pre).map(Prepared::Hook).map_err(|e| {
                    format!(
                        "{} is a component but neither a WASI command (wasi:cli/run) nor a `hook`-world component (wit/hook.wit: export handle): {e:#}",
                        path.display()
                    )
                })
            }
        }
    }
}

/// The spawn failure for a module file that cannot be read.
pub(super) fn missing_file(path: &Path, e: &dyn std::fmt::Display) -> String {
    format!(
        "cannot read wasm module {}: {e}; the path is relative to the hook's cwd (default: the project root)",
        path.display()
    )
}

#[derive(Debug, PartialEq, Eq)]
enum WasmKind {
    Module,
    Component,
}

/// Core module or component, from the binary header (magic, then version and layer).
fn wasm_kind(bytes: &[u8]) -> Option<WasmKind> {
    if bytes.len() < 8 || &bytes[..4] != b"\0asm" {
        return None;
    }
    match bytes[6..8] {
        [0, 0] => Some(WasmKind::Module),
        [1, 0] => Some(WasmKind::Component),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_tells_modules_from_components() {
        assert_eq!(wasm_kind(b"\0asm\x01\0\0\0"), Some(WasmKind::Module));
        assert_eq!(wasm_kind(b"\0asm\x0d\0\x01\0"), Some(WasmKind::Component));
        assert_eq!(wasm_kind(b"\0asm\x01\0\x02\0"), None);
        assert_eq!(wasm_kind(b"\0asm"), None);
        assert_eq!(wasm_kind(b"#!/bin/sh\necho"), None);
    }
}
