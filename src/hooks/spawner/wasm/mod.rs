//! [`WasmSpawner`]: runs a hook whose command names a `.wasm` file inside wasmtime, with the
//! same stdin / exit-code / output semantics as a process (DESIGN §5).
//!
//! One [`wasmtime::Engine`] per spawner (fuel metering, epoch interruption, pooling
//! allocator). Each module is compiled once: kept in memory as a pre-linked `InstancePre`
//! (re-checked against the file's size, mtime and inode, so an edited `.wasm` is picked up)
//! and on disk in [`cache::DiskCache`]. Each run gets a fresh `Store` with the sandbox of
//! `sandbox.rs`, a fuel budget, a memory cap and a wall-clock deadline.
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
mod hook_world;
mod limiter;
mod pipes;
mod sandbox;

use super::{CapturedStream, ExitStatus, SpawnOutput, SpawnRequest, Spawner};
use crate::hooks::config::Handler;
use async_trait::async_trait;
use cache::{Artifact, DiskCache, sha256_hex};
use limiter::MemoryBudget;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use wasmtime::component::ResourceTable;
use wasmtime::{
    Config, Engine, InstanceAllocationStrategy, InstancePre, Linker, PoolingAllocationConfig,
    Store, Trap, UpdateDeadline,
};
use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wasi::p2::bindings::CommandPre;
use wasmtime_wasi::{I32Exit, WasiCtx, WasiCtxView, WasiView};

/// Fuel granted per millisecond of `timeout` when a hook sets no `fuel`.
///
/// Fuel counts wasm operations (about one unit per instruction). Measured on the 2-core
/// development machine, cranelift code burns about 6.7 units per nanosecond in a tight loop
/// (2e9 units in 300 ms), less in code that touches memory. At 1,000,000 units per ms a
/// compute-bound guest exhausts its fuel after about a sixth of its timeout here, so on any
/// machine up to ~6x slower the fuel budget, not the wall clock, ends it: the same hook on the
/// same input times out the same way. The default 10 s timeout gives 1e10 units. The
/// wall-clock deadline (the timeout itself) backs this up for guests blocked in host calls.
pub const FUEL_PER_MS: u64 = 1_000_000;

/// How often the wall-clock ticker advances the engine epoch; a running guest yields to the
/// async runtime and checks its deadline on every tick.
const EPOCH_TICK: Duration = Duration::from_millis(10);

/// Pooling allocator slots: instances that can run at once before falling back to errors.
pub const POOL_SLOTS: u32 = 1000;

/// A problem setting up the wasm engine (not a per-hook problem).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct WasmError(String);

/// Settings of a [`WasmSpawner`].
#[derive(Debug, Clone)]
pub struct WasmEngineConfig {
    /// Root of the compiled-code cache; `None` disables the disk cache.
    pub cache_root: Option<PathBuf>,
    /// Fuel per millisecond of timeout when a hook sets no `fuel`.
    pub fuel_per_ms: u64,
    /// Use the pooling instance allocator (falls back to on-demand if it cannot reserve).
    /// Worth it for long-lived embedders; a one-event process is faster without (setting up
    /// the pool costs ~6 ms). With pooling, at most [`POOL_SLOTS`] guests run at once and
    /// further runs wait for a slot (the wait is not charged to their timeout).
    pub pooling: bool,
    /// Meter fuel (the deterministic timeout). Off, only the wall clock limits a guest and
    /// `fuel` is ignored: for measuring fuel's overhead, not for production.
    pub fuel: bool,
    /// How long a run waits for its module to compile before it gives up (a spawn failure:
    /// PreToolUse fails closed) while compilation goes on in the background into the cache.
    /// Compiling is not charged to the hook's timeout, but it must not be unbounded either:
    /// a crafted module can keep cranelift busy for minutes. `None`: wait as long as it
    /// takes (what `check` does). Default [`COMPILE_TIMEOUT`], or
    /// `$HOOKHOST_COMPILE_TIMEOUT_MS`.
    pub compile_timeout: Option<Duration>,
}

/// How long a run waits for a first compile by default: 60 s (the largest example guest, the
/// 18 MB Python component, compiles in about 11 s on the 2-core development machine).
pub const COMPILE_TIMEOUT: Duration = Duration::from_secs(60);

/// The environment variable that overrides [`COMPILE_TIMEOUT`] (milliseconds).
pub const COMPILE_TIMEOUT_ENV: &str = "HOOKHOST_COMPILE_TIMEOUT_MS";

/// A first compile taking longer than this is announced on stderr (it is not a hang).
const COMPILE_NOTICE_AFTER: Duration = Duration::from_secs(1);

fn compile_timeout_from_env() -> Option<Duration> {
    match std::env::var(COMPILE_TIMEOUT_ENV)
        .ok()
        .map(|v| v.parse::<u64>())
    {
        Some(Ok(ms)) => Some(Duration::from_millis(ms)),
        _ => Some(COMPILE_TIMEOUT),
    }
}

impl Default for WasmEngineConfig {
    fn default() -> Self {
        WasmEngineConfig {
            cache_root: cache::default_cache_root(),
            fuel_per_ms: FUEL_PER_MS,
            pooling: true,
            fuel: true,
            compile_timeout: compile_timeout_from_env(),
        }
    }
}

/// Counters of how modules were obtained, for tests, `check` and benchmarks.
#[derive(Debug, Default)]
pub struct WasmStats {
    /// Modules compiled from their bytes.
    pub compiled: AtomicU64,
    /// Modules loaded from the disk cache.
    pub disk_hits: AtomicU64,
    /// Runs that reused an in-memory pre-linked module.
    pub memory_hits: AtomicU64,
}

/// Store data of a preview 1 module.
struct P1State {
    wasi: WasiP1Ctx,
    limits: MemoryBudget,
}

/// Store data of a preview 2 component.
struct P2State {
    ctx: WasiCtx,
    table: ResourceTable,
    limits: MemoryBudget,
}

impl WasiView for P2State {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.ctx,
            table: &mut self.table,
        }
    }
}

/// A module ready to instantiate.
#[derive(Clone)]
enum Prepared {
    Module(InstancePre<P1State>),
    Command(CommandPre<P2State>),
    /// A component of the typed `hook` world.
    Hook(hook_world::HookPre<P2State>),
}

/// Identity of a module file, to notice edits without re-reading it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FileStamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    #[cfg(unix)]
    inode: u64,
}

impl FileStamp {
    fn of(path: &Path) -> std::io::Result<Self> {
        let m = std::fs::metadata(path)?;
        Ok(FileStamp {
            len: m.len(),
            modified: m.modified().ok(),
            #[cfg(unix)]
            inode: std::os::unix::fs::MetadataExt::ino(&m),
        })
    }
}

/// A module compiled from a file with this stamp, and the SHA-256 of the bytes it was
/// compiled from (what a trust pin is compared with).
#[derive(Clone)]
struct Ready {
    stamp: FileStamp,
    prepared: Prepared,
    sha256: String,
}

/// What is known of one module file.
#[derive(Default)]
enum SlotState {
    #[default]
    Empty,
    /// A compile is running (in the blocking pool); waiters watch for its result.
    Compiling {
        stamp: FileStamp,
        done: tokio::sync::watch::Receiver<Option<Result<Ready, String>>>,
    },
    Ready(Ready),
}

type Slot = Arc<Mutex<SlotState>>;

struct Inner {
    engine: Engine,
    p1_linker: Linker<P1State>,
    p2_linker: wasmtime::component::Linker<P2State>,
    disk: DiskCache,
    fuel_per_ms: u64,
    /// Whether the engine meters fuel.
    metered: bool,
    compile_timeout: Option<Duration>,
    /// In-flight instances (the pool's size when pooling).
    slots: Arc<tokio::sync::Semaphore>,
    modules: Mutex<HashMap<PathBuf, Slot>>,
    stats: WasmStats,
    stop_ticker: Arc<AtomicBool>,
}

/// Runs `.wasm` hooks. Cheap to clone; clones share the engine and caches.
#[derive(Clone)]
pub struct WasmSpawner {
    inner: Arc<Inner>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.stop_ticker.store(true, Ordering::Relaxed);
    }
}

fn engine_config(pooling: bool, fuel: bool) -> Config {
    let mut c = Config::new();
    c.consume_fuel(fuel)
        .epoch_interruption(true)
        // Backtraces cost time on every trap, and `proc_exit` is a trap.
        .wasm_backtrace_max_frames(None);
    if pooling {
        let mut pool = PoolingAllocationConfig::new();
        pool.total_core_instances(POOL_SLOTS)
            .total_component_instances(POOL_SLOTS)
            .total_memories(POOL_SLOTS)
            .total_tables(POOL_SLOTS)
            .total_stacks(POOL_SLOTS)
            .max_memory_size(crate::hooks::config::MAX_MEMORY_MIB as usize * MIB as usize);
        c.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    }
    c
}

const MIB: u64 = 1 << 20;

impl WasmSpawner {
    pub fn new(config: WasmEngineConfig) -> Result<Self, WasmError> {
        let engine = match Engine::new(&engine_config(config.pooling, config.fuel)) {
            Ok(e) => e,
            Err(e) if config.pooling => {
                tracing::warn!(error = %e, "pooling allocator unavailable; using on-demand allocation");
                Engine::new(&engine_config(false, config.fuel))
                    .map_err(|e| WasmError(e.to_string()))?
            }
            Err(e) => return Err(WasmError(e.to_string())),
        };
        let mut p1_linker = Linker::new(&engine);
        wasmtime_wasi::p1::add_to_linker_async(&mut p1_linker, |s: &mut P1State| &mut s.wasi)
            .and_then(|()| sandbox::deny_symlinks_p1(&mut p1_linker))
            .map_err(|e| WasmError(format!("linking WASI preview 1: {e}")))?;
        let mut p2_linker = wasmtime::component::Linker::new(&engine);
        wasmtime_wasi::p2::add_to_linker_async(&mut p2_linker)
            .and_then(|()| sandbox::deny_symlinks_p2(&mut p2_linker))
            .map_err(|e| WasmError(format!("linking WASI preview 2: {e}")))?;
        let tag = if config.fuel {
            "fuel+epoch+nobacktrace"
        } else {
            "epoch+nobacktrace"
        };
        let disk = DiskCache::new(config.cache_root.clone(), &engine, tag);
        let slots = Arc::new(tokio::sync::Semaphore::new(if config.pooling {
            POOL_SLOTS as usize
        } else {
            tokio::sync::Semaphore::MAX_PERMITS
        }));
        let stop_ticker = Arc::new(AtomicBool::new(false));
        start_ticker(engine.clone(), stop_ticker.clone());
        Ok(WasmSpawner {
            inner: Arc::new(Inner {
                engine,
                p1_linker,
                p2_linker,
                disk,
                fuel_per_ms: config.fuel_per_ms,
                metered: config.fuel,
                compile_timeout: config.compile_timeout,
                slots,
                modules: Mutex::default(),
                stats: WasmStats::default(),
                stop_ticker,
            }),
        })
    }

    pub fn stats(&self) -> &WasmStats {
        &self.inner.stats
    }

    /// The compiled-code cache directory in use, if any.
    pub fn cache_dir(&self) -> Option<&Path> {
        self.inner.disk.dir()
    }

    /// The fuel a run gets for `timeout` when the hook sets no `fuel`.
    pub fn fuel_for(&self, timeout: Duration) -> u64 {
        let ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        ms.saturating_mul(self.inner.fuel_per_ms).max(1)
    }

    /// Compiles (or loads from cache) and links a module without running it, waiting as long
    /// as compiling takes: what `check` does. The error says what is wrong with the file.
    pub async fn prepare_file(&self, path: &Path) -> Result<(), String> {
        self.prepared(path, None).await.map(|_| ())
    }

    /// The pre-linked module for `path` and the SHA-256 of the bytes it came from, compiling
    /// or loading it if the file changed. One compile per file at a time: concurrent runs
    /// wait for the same one, each at most `bound`; a compile a run gave up on goes on in
    /// the background and fills the caches.
    async fn prepared(&self, path: &Path, bound: Option<Duration>) -> Result<Ready, String> {
        let slot = {
            let mut modules = self.inner.modules.lock().unwrap_or_else(|p| p.into_inner());
            modules.entry(path.to_path_buf()).or_default().clone()
        };
        let stamp = FileStamp::of(path).map_err(|e| missing_file(path, &e))?;
        let mut done = {
            let mut state = slot.lock().unwrap_or_else(|p| p.into_inner());
            match &*state {
                SlotState::Ready(r) if r.stamp == stamp => {
                    self.inner.stats.memory_hits.fetch_add(1, Ordering::Relaxed);
                    return Ok(r.clone());
                }
                SlotState::Compiling { stamp: s, done } if *s == stamp => done.clone(),
                _ => {
                    let (tx, rx) = tokio::sync::watch::channel(None);
                    *state = SlotState::Compiling {
                        stamp: stamp.clone(),
                        done: rx.clone(),
                    };
                    let this = self.clone();
                    let slot = slot.clone();
                    let owned = path.to_path_buf();
                    tokio::task::spawn_blocking(move || {
                        let result = this.load(&owned).map(|(prepared, sha256)| Ready {
                            stamp: stamp.clone(),
                            prepared,
                            sha256,
                        });
                        let mut state = slot.lock().unwrap_or_else(|p| p.into_inner());
                        if matches!(&*state, SlotState::Compiling { stamp: s, .. } if *s == stamp) {
                            *state = match &result {
                                Ok(r) => SlotState::Ready(r.clone()),
                                Err(_) => SlotState::Empty,
                            };
                        }
                        let _ = tx.send(Some(result));
                    });
                    rx
                }
            }
        };
        let started = Instant::now();
        let wait = async {
            let mut announced = false;
            loop {
                if let Some(result) = done.borrow_and_update().clone() {
                    return result;
                }
                let tick = tokio::time::sleep(COMPILE_NOTICE_AFTER);
                tokio::select! {
                    changed = done.changed() => if changed.is_err() {
                        return Err(format!("compiling {} was interrupted", path.display()));
                    },
                    _ = tick, if !announced => {
                        announced = true;
                        tracing::warn!(
                            "compiling {} for the first time (not charged to the hook's timeout; later runs use the compile cache; `hookhost check` compiles every configured module ahead)",
                            path.display()
                        );
                    }
                }
            }
        };
        match bound {
            None => wait.await,
            Some(bound) => tokio::time::timeout(bound, wait).await.unwrap_or_else(|_| {
                Err(format!(
                    "{} was still compiling after {:.1} s (the compile bound; the compile goes on in the background and is cached when done): run `hookhost check` to compile it ahead, or raise ${COMPILE_TIMEOUT_ENV}",
                    path.display(),
                    started.elapsed().as_secs_f64()
                ))
            }),
        }
    }

    /// Reads (once, bounded), compiles (or loads from disk) and links one file, returning
    /// the SHA-256 of the bytes it read. Blocking.
    fn load(&self, path: &Path) -> Result<(Prepared, String), String> {
        let bytes = crate::hooks::files::read_bounded(path, crate::hooks::files::MODULE_LIMIT)
            .map_err(|e| missing_file(path, &e))?;
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
        let hash = sha256_hex(&bytes);
        let prepared = self.link(path, self.artifact(path, &bytes, &hash, component)?)?;
        Ok((prepared, hash))
    }

    /// The compiled code for `bytes`: from the disk cache, else compiled (and cached).
    fn artifact(
        &self,
        path: &Path,
        bytes: &[u8],
        hash: &str,
        component: bool,
    ) -> Result<Artifact, String> {
        let inner = &*self.inner;
        Ok(match inner.disk.load(&inner.engine, hash, component) {
            Some(a) => {
                inner.stats.disk_hits.fetch_add(1, Ordering::Relaxed);
                a
            }
            None => {
                let compiled = if component {
                    wasmtime::component::Component::new(&inner.engine, bytes)
                        .map(Artifact::Component)
                } else {
                    wasmtime::Module::new(&inner.engine, bytes).map(Artifact::Module)
                };
                let artifact = compiled.map_err(|e| {
                    format!(
                        "{} is not a valid WebAssembly {}: {e:#}",
                        path.display(),
                        if component { "component" } else { "module" }
                    )
                })?;
                inner.stats.compiled.fetch_add(1, Ordering::Relaxed);
                inner.disk.store(hash, &artifact);
                artifact
            }
        })
    }

    /// Links compiled code against the sandbox's WASI and tells the guest shapes apart.
    fn link(&self, path: &Path, artifact: Artifact) -> Result<Prepared, String> {
        let inner = &*self.inner;
        match artifact {
            Artifact::Module(m) => inner.p1_linker.instantiate_pre(&m).map(Prepared::Module).map_err(|e| {
                format!(
                    "{} imports something hookhost does not provide ({e:#}); a module hook may import only WASI preview 1 (wasi_snapshot_preview1)",
                    path.display()
                )
            }),
            Artifact::Component(c) => {
                let pre = inner.p2_linker.instantiate_pre(&c).map_err(|e| {
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

fn missing_file(path: &Path, e: &dyn std::fmt::Display) -> String {
    format!(
        "cannot read wasm module {}: {e}; the path is relative to the hook's cwd (default: the project root)",
        path.display()
    )
}

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

fn start_ticker(engine: Engine, stop: Arc<AtomicBool>) {
    let spawned = std::thread::Builder::new()
        .name("hookhost-epoch".into())
        .spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(EPOCH_TICK);
                engine.increment_epoch();
            }
        });
    if let Err(e) = spawned {
        tracing::warn!(error = %e, "cannot start the epoch ticker; wasm deadlines rely on the async timeout only");
    }
}

/// Per-run settings shared by both guest shapes.
struct RunSetup {
    /// `None` when the engine does not meter fuel.
    fuel: Option<u64>,
    deadline: Instant,
}

impl RunSetup {
    fn apply<T: 'static>(&self, store: &mut Store<T>) -> Result<(), String> {
        if let Some(fuel) = self.fuel {
            store.set_fuel(fuel).map_err(|e| e.to_string())?;
        }
        store.set_epoch_deadline(1);
        let deadline = self.deadline;
        store.epoch_deadline_callback(move |_| {
            if Instant::now() >= deadline {
                Ok(UpdateDeadline::Interrupt)
            } else {
                Ok(UpdateDeadline::Yield(1))
            }
        });
        Ok(())
    }
}

fn memory_budget(memory_mib: u64) -> MemoryBudget {
    MemoryBudget::new(usize::try_from(memory_mib * MIB).unwrap_or(usize::MAX))
}

/// Maps how a guest's call ended onto an exit status (the table in the module docs).
fn classify(result: wasmtime::Result<()>, stderr: &CapturedStream) -> ExitStatus {
    let Err(e) = result else {
        return ExitStatus::Exited(0);
    };
    if let Some(exit) = e.downcast_ref::<I32Exit>() {
        return ExitStatus::Exited(exit.0);
    }
    if let Some(Trap::OutOfFuel | Trap::Interrupt) = e.downcast_ref::<Trap>() {
        return ExitStatus::TimedOut;
    }
    let message = format!("wasm trap: {e:#}");
    stderr.push(format!("\n{message}\n").as_bytes());
    ExitStatus::Crashed(message)
}

/// Instantiation failed: out of fuel is a timeout; anything else means the hook never ran.
fn classify_instantiation(e: wasmtime::Error, path: &Path) -> ExitStatus {
    if let Some(Trap::OutOfFuel | Trap::Interrupt) = e.downcast_ref::<Trap>() {
        return ExitStatus::TimedOut;
    }
    ExitStatus::SpawnFailed(format!(
        "instantiating {} failed: {e:#}; if it mentions memory, raise the hook's `memory` (MiB)",
        path.display()
    ))
}

/// Store data that carries the run's memory limits.
trait Limited: Send + 'static {
    fn limits(&mut self) -> &mut MemoryBudget;
}

impl Limited for P1State {
    fn limits(&mut self) -> &mut MemoryBudget {
        &mut self.limits
    }
}

impl Limited for P2State {
    fn limits(&mut self) -> &mut MemoryBudget {
        &mut self.limits
    }
}

/// What every run needs besides its guest: limits, the module path (for messages), the
/// request and the capture buffers.
struct Run<'a> {
    setup: RunSetup,
    path: &'a Path,
    req: &'a SpawnRequest,
    stdout: &'a CapturedStream,
    stderr: &'a CapturedStream,
}

impl WasmSpawner {
    /// A fresh store with the run's memory cap, fuel and deadline.
    fn store<T: Limited>(&self, data: T, run: &Run<'_>) -> Result<Store<T>, ExitStatus> {
        let mut store = Store::new(&self.inner.engine, data);
        store.limiter(|s| s.limits());
        run.setup
            .apply(&mut store)
            .map_err(ExitStatus::SpawnFailed)?;
        Ok(store)
    }

    async fn run_module(
        &self,
        pre: InstancePre<P1State>,
        state: P1State,
        run: &Run<'_>,
    ) -> ExitStatus {
        let mut store = match self.store(state, run) {
            Ok(s) => s,
            Err(status) => return status,
        };
        let instance = match pre.instantiate_async(&mut store).await {
            Ok(i) => i,
            Err(e) => return classify_instantiation(e, run.path),
        };
        let Ok(start) = instance.get_typed_func::<(), ()>(&mut store, "_start") else {
            return ExitStatus::SpawnFailed(format!(
                "{} exports no `_start` function: a hook must be a WASI command (a program with `main`), not a library",
                run.path.display()
            ));
        };
        classify(start.call_async(&mut store, ()).await, run.stderr)
    }

    async fn run_command(
        &self,
        pre: CommandPre<P2State>,
        state: P2State,
        run: &Run<'_>,
    ) -> ExitStatus {
        let mut store = match self.store(state, run) {
            Ok(s) => s,
            Err(status) => return status,
        };
        let command = match pre.instantiate_async(&mut store).await {
            Ok(c) => c,
            Err(e) => return classify_instantiation(e, run.path),
        };
        match command.wasi_cli_run().call_run(&mut store).await {
            Ok(Ok(())) => ExitStatus::Exited(0),
            Ok(Err(())) => ExitStatus::Exited(1),
            Err(e) => classify(Err(e), run.stderr),
        }
    }

    async fn run_hook_world(
        &self,
        pre: hook_world::HookPre<P2State>,
        state: P2State,
        run: &Run<'_>,
    ) -> ExitStatus {
        let mut store = match self.store(state, run) {
            Ok(s) => s,
            Err(status) => return status,
        };
        let hook = match pre.instantiate_async(&mut store).await {
            Ok(h) => h,
            Err(e) => return classify_instantiation(e, run.path),
        };
        let payload = hook_world::Payload {
            event: run.req.event.as_str().to_string(),
            json: String::from_utf8_lossy(&run.req.stdin).into_owned(),
        };
        match hook.call_handle(&mut store, &payload).await {
            Ok(response) => hook_world::as_process(response, run.stdout, run.stderr),
            Err(e) => classify(Err(e), run.stderr),
        }
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
        let cwd = match crate::hooks::confine::confined_dir(&req.project_dir, &req.cwd) {
            Ok(dir) => dir,
            Err(e) => return SpawnOutput::spawn_failed(e, start.elapsed()),
        };
        // Compiling is not charged to the hook's timeout (nor to its reported duration);
        // instantiating and running are.
        let ready = match self.prepared(module, self.inner.compile_timeout).await {
            Ok(r) => r,
            Err(e) => return SpawnOutput::spawn_failed(e, start.elapsed()),
        };
        // The hash trusted is the hash of the bytes that run.
        if let Some(pin) = &req.module_sha256
            && *pin != ready.sha256
        {
            return SpawnOutput::spawn_failed(
                format!(
                    "{} changed since it was trusted (its bytes no longer have the trusted SHA-256); review it and run `hookhost trust`",
                    module.display()
                ),
                start.elapsed(),
            );
        }
        let prepared = ready.prepared;
        let _slot = self.inner.slots.acquire().await;
        let run_start = Instant::now();
        let setup = RunSetup {
            fuel: self
                .inner
                .metered
                .then(|| limits.fuel.unwrap_or_else(|| self.fuel_for(req.timeout))),
            deadline: run_start + req.timeout,
        };
        let stdout = CapturedStream::default();
        let stderr = CapturedStream::default();
        let mut builder = match sandbox::wasi_builder(&req, &cwd, argv, limits, &stdout, &stderr) {
            Ok(b) => b,
            Err(e) => return SpawnOutput::spawn_failed(e, start.elapsed()),
        };
        let limits = memory_budget(limits.memory_mib);
        let deadline = setup.deadline;
        let run = Run {
            setup,
            path: module,
            req: &req,
            stdout: &stdout,
            stderr: &stderr,
        };
        let p2 = |ctx| P2State {
            ctx,
            table: ResourceTable::new(),
            limits: limits.clone(),
        };
        let running = async {
            match prepared {
                Prepared::Module(pre) => {
                    let wasi = builder.build_p1();
                    let state = P1State {
                        wasi,
                        limits: limits.clone(),
                    };
                    self.run_module(pre, state, &run).await
                }
                Prepared::Command(pre) => self.run_command(pre, p2(builder.build()), &run).await,
                Prepared::Hook(pre) => self.run_hook_world(pre, p2(builder.build()), &run).await,
            }
        };
        // The backstop for guests blocked in host calls (sleeping, waiting on stdin).
        let status = tokio::time::timeout_at(deadline.into(), running)
            .await
            .unwrap_or(ExitStatus::TimedOut);
        let (stdout, t1) = stdout.take();
        let (stderr, t2) = stderr.take();
        SpawnOutput {
            status,
            stdout,
            stderr,
            truncated: t1 || t2,
            duration: run_start.elapsed(),
        }
    }
}
