//! From a `.wasm` file to a [`Prepared`] guest: find the file's hash (by its stamp in the
//! source index, else by reading it once, bounded), take the compiled code from the disk cache
//! or compile it (telling a core module from a component by the header, and caching it), link it against WASI and tell the three guest shapes apart.
//!
//! Which tier: the optimised (cranelift) cache entry if there is one; else, for a module of at
//! least `BASELINE_MIN_BYTES` with tiering on, the baseline (winch) cache entry or a winch
//! compile; else (small modules, tiering off, or a module winch cannot compile) cranelift.
//! Each tier is a [`Compiler`]: an engine, its linkers and its own cache folder.
//! Blocking: callers run it off the async runtime.
//!
//! Not here: when to load (once per file and edit, one compile at a time: `modules.rs`), the
//! disk cache's safety checks (`cache.rs`), running what was prepared (`run.rs`).

use super::cache::{Artifact, DiskCache, sha256_hex};
use super::engine::{BASELINE_MIN_BYTES, Linkers, Tiering, WasmEngineConfig, WasmError};
use super::hook_world;
use super::modules::WasmStats;
use super::source_index::SourceIndex;
use super::state::{P1State, P2State};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
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

/// Which compiler made a module's code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tier {
    /// Cranelift: the code every module ends up with.
    Optimised,
    /// Winch: a big module's first runs until its optimised build is cached (`Tiering`).
    Baseline,
}

/// A guest ready to instantiate (its stores come from the engine that compiled it), the
/// SHA-256 of the bytes it came from and the tier that compiled it.
#[derive(Clone)]
pub(super) struct Loaded {
    pub prepared: Prepared,
    pub sha256: String,
    pub tier: Tier,
}

/// One engine with its WASI linkers and its compiled-code cache folder.
pub(super) struct Compiler {
    pub engine: Engine,
    pub linkers: Linkers,
    pub disk: DiskCache,
}

impl Compiler {
    pub fn new(engine: Engine, cache_root: Option<PathBuf>, tag: &str) -> Result<Self, WasmError> {
        Ok(Compiler {
            linkers: Linkers::new(&engine)?,
            disk: DiskCache::new(cache_root, &engine, tag),
            engine,
        })
    }

    /// Compiles `bytes` with this engine's compiler.
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
}

/// Everything needed to turn a file into a [`Prepared`] guest; shared with the compiles
/// that go on in the background.
pub(super) struct Loader {
    pub optimised: Compiler,
    /// The baseline tier, made on first use (a process that runs only small guests never pays
    /// for it); `None` inside when winch cannot be set up (then every module is optimised).
    baseline: OnceLock<Option<Compiler>>,
    config: WasmEngineConfig,
    pub index: SourceIndex,
}

impl Loader {
    pub fn new(optimised: Compiler, config: WasmEngineConfig) -> Self {
        Loader {
            optimised,
            baseline: OnceLock::new(),
            index: SourceIndex::new(config.cache_root.as_deref()),
            config,
        }
    }

    pub fn tiering(&self) -> Tiering {
        self.config.tiering
    }

    /// The baseline engine if it was made (for the epoch ticker).
    pub fn baseline_engine(&self) -> Option<&Engine> {
        self.baseline.get()?.as_ref().map(|c| &c.engine)
    }

    fn baseline(&self) -> Option<&Compiler> {
        self.baseline
            .get_or_init(|| {
                let made = self.config.baseline_engine().and_then(|engine| {
                    Compiler::new(
                        engine,
                        self.config.cache_root.clone(),
                        self.config.baseline_cache_tag(),
                    )
                });
                made.map_err(|e| tracing::warn!(error = %e, "the baseline (winch) tier is unavailable; big modules compile with cranelift")).ok()
            })
            .as_ref()
    }

    /// Compiles (or loads from disk) and links one file of `size` bytes (its stamp's). On a
    /// cached run the file is not read at all: its stamp finds its hash in the source index
    /// and the hash finds the compiled code, which is mapped. With `tiering` and a file of at
    /// least [`BASELINE_MIN_BYTES`] whose optimised code is not cached, the baseline tier's
    /// cache or compiler provides the code (cranelift when winch cannot compile the module).
    /// Blocking.
    pub fn load(
        &self,
        path: &Path,
        size: u64,
        tiering: bool,
        stats: &WasmStats,
    ) -> Result<Loaded, String> {
        let source = self
            .index
            .source(path)
            .map_err(|e| missing_file(path, &e))?;
        let opt = &self.optimised;
        if let Some(artifact) = opt.disk.load(&opt.engine, &source.sha256) {
            stats.disk_hits.fetch_add(1, Ordering::Relaxed);
            return self.loaded(path, opt, artifact, source.sha256, Tier::Optimised);
        }
        let baseline = (tiering && size >= BASELINE_MIN_BYTES)
            .then(|| self.baseline())
            .flatten();
        if let Some(base) = baseline
            && let Some(artifact) = base.disk.load(&base.engine, &source.sha256)
        {
            stats.baseline_disk_hits.fetch_add(1, Ordering::Relaxed);
            return self.loaded(path, base, artifact, source.sha256, Tier::Baseline);
        }
        // Not cached: the bytes are needed (read now if the index spared the read).
        let bytes = match source.bytes {
            Some(b) => b,
            None => {
                let b = crate::files::read_bounded(path, crate::files::MODULE_LIMIT)
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
        if let Some(base) = baseline {
            match base.compile(path, &bytes, component) {
                Ok(artifact) => {
                    stats.baseline_compiled.fetch_add(1, Ordering::Relaxed);
                    base.disk.store(&source.sha256, &artifact);
                    return self.loaded(path, base, artifact, source.sha256, Tier::Baseline);
                }
                // Proposals winch lacks (exceptions, tail calls, GC, ...), or an invalid
                // module: cranelift decides, and its error is the one reported.
                Err(e) => {
                    tracing::debug!(error = %e, "the baseline tier cannot compile this module; compiling it with cranelift");
                }
            }
        }
        let artifact = opt.compile(path, &bytes, component)?;
        stats.compiled.fetch_add(1, Ordering::Relaxed);
        opt.disk.store(&source.sha256, &artifact);
        // The optimised entry supersedes a baseline one (tens of MB): drop it.
        if size >= BASELINE_MIN_BYTES
            && opt.disk.dir().is_some()
            && let Some(base) = self.baseline()
        {
            base.disk.remove(&source.sha256);
        }
        self.loaded(path, opt, artifact, source.sha256, Tier::Optimised)
    }

    fn loaded(
        &self,
        path: &Path,
        by: &Compiler,
        artifact: Artifact,
        sha256: String,
        tier: Tier,
    ) -> Result<Loaded, String> {
        Ok(Loaded {
            prepared: link(&by.linkers, path, artifact)?,
            sha256,
            tier,
        })
    }
}

/// Links compiled code against the sandbox's WASI and tells the guest shapes apart.
fn link(linkers: &Linkers, path: &Path, artifact: Artifact) -> Result<Prepared, String> {
    match artifact {
            Artifact::Module(m) => linkers.p1.instantiate_pre(&m).map(Prepared::Module).map_err(|e| {
                format!(
                    "{} imports something hookhost does not provide ({e:#}); a module hook may import only WASI preview 1 (wasi_snapshot_preview1)",
                    path.display()
                )
            }),
            Artifact::Component(c) => {
                let pre = linkers.p2.instantiate_pre(&c).map_err(|e| {
                    format!(
                        "{} imports something hookhost does not provide ({e:#}); a component hook may import only WASI preview 2 (wasi:cli, wasi:filesystem, wasi:io, wasi:clocks, wasi:random, wasi:http)",
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

/// The spawn failure for a module file that cannot be read: for a missing file exactly
/// [`missing_module`]'s text (the runner recognises it: an untrusted hook whose module is not
/// there never ran, so the reason is hookhost's own and is shown, not withheld).
pub(super) fn missing_file(path: &Path, e: &crate::files::ReadError) -> String {
    if e.is_not_found() {
        return missing_module(path);
    }
    // The read error names the path itself: said once.
    let why = e.to_string();
    let shown = path.display().to_string();
    let why = why
        .strip_prefix(&format!("{shown}: "))
        .unwrap_or(&why)
        .to_string();
    format!("cannot read wasm module {shown}: {why}")
}

/// [`missing_file`] for the `stat` of a module file.
pub(super) fn missing_file_io(path: &Path, e: std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::NotFound {
        return missing_module(path);
    }
    format!("cannot read wasm module {}: {e}", path.display())
}

/// What a wasm hook whose module file does not exist says, wherever it is said (`run`,
/// `check`, the adapter, serve).
pub fn missing_module(path: &Path) -> String {
    format!(
        "cannot read wasm module {}: no such file; create it (`hookhost new` or your build), or fix the path: it is relative to the hook's cwd (default: the project root)",
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
