//! [`WasmSpawner`]: runs a hook whose command names a `.wasm` file inside wasmtime, with the
//! same stdin / exit-code / output semantics as a process (DESIGN §5).
//!
//! One optimising [`wasmtime::Engine`] per spawner (cranelift; fuel metering, epoch
//! interruption, pooling allocator), and a baseline one (winch, same fuel and epochs, on-demand
//! allocation) made on first use for the first runs of big modules ([`Tiering`]). Each module
//! is compiled once per tier: kept in memory as a pre-linked `InstancePre`
//! (re-checked against the file's stat stamp, so an edited `.wasm` is picked up)
//! and on disk in [`cache::DiskCache`]. Each run gets a fresh instance in a fresh `Store` with
//! the sandbox of `sandbox.rs`, a fuel budget, a memory cap and a wall-clock deadline; a
//! long-lived spawner makes it ahead of the event (`warm.rs`).
//!
//! This file is the spawner and the order of a run; each step lives in a file of its own:
//!
//! | file | owns |
//! |---|---|
//! | `engine.rs` | [`WasmEngineConfig`], [`Tiering`], the constants, both engines' wasmtime `Config`s and the WASI linkers |
//! | `ticker.rs` | the epoch ticker thread (both engines), stopped and joined when the spawner is dropped |
//! | `modules.rs` | the in-memory modules by file: one compile per edit, the compile bound, the in-process tier-up or the deferred list |
//! | `load.rs` | file to guest: bounded read, which tier, compile or disk cache, link, guest shape |
//! | `cache.rs` | the on-disk compiled-code cache (one folder per engine), its safety checks, the optimisation lock |
//! | `source_index.rs`, `stamp.rs` | a module file's hash by its stat stamp, without reading it |
//! | `sandbox.rs` | what a guest may reach: the WASI context of one run |
//! | `http.rs` | a component's outgoing HTTP: the `net` grant, injected `secrets`, deadline and body cap |
//! | `state.rs`, `limiter.rs` | a store's data and its one memory budget |
//! | `run.rs` | one instance: store, fuel, deadline, instantiation, the call of each guest shape, exit status |
//! | `warm.rs` | instances made ahead of their events in a long-lived spawner |
//! | `pipes.rs`, `hook_world.rs` | guest output into the capture; the typed `hook` world |
//!
//! | guest does | [`ExitStatus`] |
//! |---|---|
//! | returns from `_start` / `run` returns ok | `Exited(0)` |
//! | `proc_exit(n)` / `exit-with-code(n)`, n < 126 | `Exited(n)` |
//! | `proc_exit(n)`, n >= 126 (not representable in WASI p1) | `Crashed` |
//! | `run` returns err | `Exited(1)` |
//! | traps (unreachable, out of bounds, stack overflow, memory cap) | `Crashed`, trap in stderr |
//! | out of fuel, or past the wall-clock deadline | `TimedOut` |
//! | missing file, invalid module, unsatisfied imports, instantiation fails | `SpawnFailed` |

pub mod cache;
mod engine;
mod hook_world;
mod http;
mod limiter;
mod load;
mod modules;
mod pipes;
mod run;
mod sandbox;
mod source_index;
mod stamp;
mod state;
mod ticker;
mod warm;

pub use engine::{
    BASELINE_MIN_BYTES, COMPILE_TIMEOUT, COMPILE_TIMEOUT_ENV, FUEL_PER_MS, MAKE_AHEAD_ABOVE,
    POOL_SLOTS, TIERING_ENV, Tiering, WasmEngineConfig, WasmError,
};
pub use load::missing_module;
pub use modules::WasmStats;
pub(crate) use source_index::module_sha256;

use super::{ExitStatus, SpawnOutput, SpawnRequest, Spawner};
use crate::config::Handler;
use async_trait::async_trait;
use load::{Compiler, Loader};
use modules::Modules;
use sandbox::Grants;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use ticker::Ticker;
use warm::{Warm, WarmKey};

struct Inner {
    modules: Modules,
    fuel_per_ms: u64,
    /// Whether the engine meters fuel.
    metered: bool,
    compile_timeout: Option<Duration>,
    /// Live instances, running or made ahead (the pool's size when pooling).
    slots: Arc<tokio::sync::Semaphore>,
    /// Instances made ahead of their events, when the spawner is long-lived, for hooks whose
    /// run takes at least this long (`WasmEngineConfig::prewarm`).
    warm: Option<(Arc<Warm>, Duration)>,
    /// Advances the engines' epochs; stopped and joined when the last clone is dropped.
    _ticker: Ticker,
}

/// A claim on optimising one module ([`WasmSpawner::claim_optimisation`]); dropping it
/// releases the claim.
#[derive(Debug)]
pub struct OptimisationClaim {
    file: std::fs::File,
}

impl OptimisationClaim {
    /// The locked file, whose descriptor a background compile inherits to keep the claim
    /// ([`WasmSpawner::adopt_optimisation`]).
    pub fn file(&self) -> &std::fs::File {
        &self.file
    }
}

/// Runs `.wasm` hooks. Cheap to clone; clones share the engine and caches.
#[derive(Clone)]
pub struct WasmSpawner {
    inner: Arc<Inner>,
}

impl WasmSpawner {
    /// Creates the engine as `config` says; fails when wasmtime cannot.
    pub fn new(config: WasmEngineConfig) -> Result<Self, WasmError> {
        let optimised = Compiler::new(
            config.engine()?,
            config.cache_root.clone(),
            config.cache_tag(),
        )?;
        let loader = Arc::new(Loader::new(optimised, config.clone()));
        let slots = Arc::new(tokio::sync::Semaphore::new(if config.pooling {
            POOL_SLOTS as usize
        } else {
            tokio::sync::Semaphore::MAX_PERMITS
        }));
        Ok(WasmSpawner {
            inner: Arc::new(Inner {
                _ticker: Ticker::for_loader(loader.clone()),
                modules: Modules::new(loader),
                fuel_per_ms: config.fuel_per_ms,
                metered: config.fuel,
                compile_timeout: config.compile_timeout,
                slots,
                warm: config.prewarm.map(|above| (Arc::default(), above)),
            }),
        })
    }

    /// Counts of compiles and cache hits since the spawner was created.
    pub fn stats(&self) -> &WasmStats {
        self.inner.modules.stats()
    }

    /// The compiled-code cache directory in use, if any.
    pub fn cache_dir(&self) -> Option<&Path> {
        self.inner.modules.loader().optimised.disk.dir()
    }

    /// The module files that ran from the baseline tier and whose optimised build this
    /// spawner left to its caller ([`Tiering::Deferred`]; nothing when the disk cache is
    /// disabled). Each file is returned once; the list is emptied.
    pub fn deferred(&self) -> Vec<std::path::PathBuf> {
        self.inner.modules.take_deferred()
    }

    /// The compiled-code cache root in use (the folder above [`Self::cache_dir`]), if any: what
    /// a background `hookhost compile` must be given to fill the same cache.
    pub fn cache_root(&self) -> Option<&Path> {
        self.cache_dir().and_then(Path::parent)
    }

    /// Claims the optimisation of `module` (an absolute path) among processes sharing this
    /// cache: an exclusive lock file in the private cache folder, keyed by the path, released
    /// when the claim is dropped or its process ends. `None` when another process holds it or
    /// the disk cache is disabled: then nobody else should start optimising `module`.
    pub fn claim_optimisation(&self, module: &Path) -> Option<OptimisationClaim> {
        self.inner
            .modules
            .loader()
            .optimised
            .disk
            .try_lock(&module_key(module))
            .map(|file| OptimisationClaim { file })
    }

    /// Takes over the claim on `module` that a parent took and handed down as `file` (an
    /// inherited descriptor): `None` unless `file` is that module's lock file and the lock is
    /// held through it (or free). Closing the race of probing and then starting: at most one
    /// background compile per module runs, and none is started only to give way. A refused
    /// `file` comes back untouched.
    pub fn adopt_optimisation(
        &self,
        module: &Path,
        file: std::fs::File,
    ) -> Result<OptimisationClaim, std::fs::File> {
        self.inner
            .modules
            .loader()
            .optimised
            .disk
            .adopt_lock(&module_key(module), file)
            .map(|file| OptimisationClaim { file })
    }

    /// Records that optimising `module` failed (the background compile could not build it, or
    /// has not finished: it marks before it starts and clears when done, so a compile killed
    /// at its CPU limit stays marked), so that runs stop handing it off until the file
    /// changes. Failures only cost speed.
    pub fn mark_optimisation_failed(&self, module: &Path) {
        if let Some(marker) = self.failure_marker(module)
            && let Err(e) = crate::files::write_private(&marker, b"")
        {
            tracing::debug!(path = %marker.display(), error = %e, "cannot record a failed optimisation");
        }
    }

    /// Removes the mark of [`Self::mark_optimisation_failed`].
    pub fn clear_optimisation_failed(&self, module: &Path) {
        if let Some(marker) = self.failure_marker(module) {
            let _ = std::fs::remove_file(marker);
        }
    }

    /// Whether optimising `module` failed since it last changed
    /// ([`Self::mark_optimisation_failed`]).
    pub fn optimisation_failed(&self, module: &Path) -> bool {
        let Some(marker) = self.failure_marker(module) else {
            return false;
        };
        let modified = |p: &Path| std::fs::symlink_metadata(p).and_then(|m| m.modified());
        match (modified(&marker), modified(module)) {
            (Ok(failed), Ok(changed)) => failed >= changed,
            _ => false,
        }
    }

    fn failure_marker(&self, module: &Path) -> Option<std::path::PathBuf> {
        let key = module_key(module);
        self.cache_dir().map(|d| d.join(format!("{key}.failed")))
    }

    /// The fuel a run gets for `timeout` when the hook sets no `fuel`.
    pub fn fuel_for(&self, timeout: Duration) -> u64 {
        let ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        ms.saturating_mul(self.inner.fuel_per_ms).max(1)
    }

    /// Compiles (or loads from cache) and links a module without running it, waiting as long
    /// as compiling takes: what `check` does. The error says what is wrong with the file.
    pub async fn prepare_file(&self, path: &Path) -> Result<(), String> {
        self.inner.modules.prepared(path, None).await.map(|_| ())
    }
}

#[async_trait]
impl Spawner for WasmSpawner {
    async fn spawn(&self, req: SpawnRequest) -> SpawnOutput {
        let start = Instant::now();
        let Handler::Wasm {
            module,
            argv,
            limits,
            ..
        } = &req.handler
        else {
            return SpawnOutput::spawn_failed("WasmSpawner got a non-wasm hook", Duration::ZERO);
        };
        if let Some(failed) = req.missing_cwd(start) {
            return failed;
        }
        // The cwd becomes the guest's `.`: resolved again now (a symlink planted since the
        // config was loaded is caught here) and refused unless it lies inside the project.
        let confined = match crate::confine::confine_run(&req.project_dir, &req.cwd) {
            Ok(dir) => dir,
            Err(e) => return SpawnOutput::spawn_failed(e.to_string(), start.elapsed()),
        };
        let ready = match self.ready(&req, module.path()).await {
            Ok(r) => r,
            Err(e) => return SpawnOutput::spawn_failed(e, start.elapsed()),
        };
        if !limits.net.is_empty() && matches!(ready.prepared, load::Prepared::Module(_)) {
            return SpawnOutput::spawn_failed(needs_component(module.path()), start.elapsed());
        }
        let key = WarmKey {
            module: module.path().to_path_buf(),
            sha256: ready.sha256.clone(),
            event: req.event,
            grants: Grants::of(&req, &confined, argv, limits),
            memory_mib: limits.memory_mib,
            fuel: self
                .inner
                .metered
                .then(|| limits.fuel.unwrap_or_else(|| self.fuel_for(req.timeout))),
            timeout: req.timeout,
        };
        // Waiting for an instance being made ahead, instantiating and running all count
        // against the hook's one timeout.
        let run_start = Instant::now();
        let deadline = run_start + req.timeout;
        let mut instance = match self.instance(&key, &ready, deadline).await {
            Ok(instance) => instance,
            Err(Unstarted::TimedOut) => {
                return SpawnOutput::bare(ExitStatus::TimedOut, run_start.elapsed());
            }
            Err(Unstarted::ShuttingDown) => {
                return SpawnOutput::spawn_failed(
                    "the wasm engine is shutting down",
                    start.elapsed(),
                );
            }
            Err(Unstarted::Failed(status, capture)) => {
                return capture.finish(status, run_start.elapsed());
            }
        };
        let status = instance.call(req.event, &req.stdin, deadline).await;
        let took = run_start.elapsed();
        let output = instance.capture().finish(status, took);
        // A run this quick is cheaper than handing its next instance (and freeing this one)
        // to another thread: that stays at the event.
        if let Some((warm, above)) = &self.inner.warm
            && took >= *above
        {
            warm.refill(key, ready.prepared, instance, &self.inner.slots);
        }
        output
    }
}

/// Why a run got no instance.
enum Unstarted {
    /// Its instance, made ahead, was still starting up at the deadline.
    TimedOut,
    /// The engine is going away.
    ShuttingDown,
    /// Instantiating failed (a trap in a start function, the memory cap, ...).
    Failed(ExitStatus, super::Capture),
}

impl WasmSpawner {
    /// The module `req` runs, compiled (not charged to the hook's timeout, nor to its
    /// reported duration), its bytes checked against the hash it was trusted (or pinned)
    /// with: the hash trusted is the hash of the bytes that run.
    async fn ready(&self, req: &SpawnRequest, module: &Path) -> Result<modules::Ready, String> {
        let ready = self
            .inner
            .modules
            .prepared(module, compile_bound(self.inner.compile_timeout, req))
            .await?;
        match &req.module_sha256 {
            Some(pin) if *pin != ready.sha256 => Err(format!(
                "{} changed since it was trusted (its bytes no longer have the trusted SHA-256); review it and run `hookhost trust`",
                module.display()
            )),
            _ => Ok(ready),
        }
    }

    /// An instance for `key`: the one made ahead of this event, else a new one (waiting for
    /// a pool slot).
    async fn instance(
        &self,
        key: &WarmKey,
        ready: &modules::Ready,
        deadline: Instant,
    ) -> Result<run::Instance, Unstarted> {
        if let Some((warm, _)) = &self.inner.warm {
            match tokio::time::timeout_at(deadline.into(), warm.take(key)).await {
                Ok(Some(instance)) => {
                    self.stats()
                        .made_ahead
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    return Ok(instance);
                }
                Ok(None) => {}
                Err(_) => return Err(Unstarted::TimedOut),
            }
        }
        let Ok(permit) = self.inner.slots.clone().acquire_owned().await else {
            return Err(Unstarted::ShuttingDown);
        };
        key.instantiate(ready.prepared.clone(), permit, deadline)
            .await
            .map_err(|(status, capture)| Unstarted::Failed(status, capture))
    }
}

/// Why a hook with `net` cannot run a preview 1 module: WASI preview 1 has no HTTP (nor any
/// socket), so the grant could never be used; refusing says so instead of running a guest
/// whose requests can only fail.
fn needs_component(module: &Path) -> String {
    format!(
        "{} is a WASI preview 1 module, which has no network; `net` needs a component: build the hook for wasm32-wasip2 (its HTTP requests go through wasi:http), or remove `net`",
        module.display()
    )
}

/// The name of a module file's optimisation lock and failure marker: its path, hashed.
fn module_key(module: &Path) -> String {
    cache::sha256_hex(module.as_os_str().as_encoded_bytes())
}

/// How long a run waits for its module to compile: the engine's bound, and for an untrusted
/// hook no longer than its own timeout (`hookhost check` compiles such a module ahead).
fn compile_bound(engine: Option<Duration>, req: &SpawnRequest) -> Option<Duration> {
    match (engine, req.untrusted) {
        (Some(bound), true) => Some(bound.min(req.timeout)),
        (None, true) => Some(req.timeout),
        (bound, false) => bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropping_the_spawner_joins_its_ticker() {
        let spawner = WasmSpawner::new(WasmEngineConfig {
            cache_root: None,
            pooling: false,
            ..WasmEngineConfig::default()
        })
        .unwrap();
        let engine = spawner.inner.modules.loader().optimised.engine.weak();
        let clone = spawner.clone();
        drop(spawner);
        assert!(engine.upgrade().is_some(), "a clone keeps the engine");
        drop(clone);
        // The ticker thread owned a clone of the engine: it is gone only if the thread ended
        // before the drop returned.
        assert!(
            engine.upgrade().is_none(),
            "the ticker thread outlived the spawner"
        );
    }
}
