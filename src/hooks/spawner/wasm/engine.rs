//! The wasm engine's settings and set-up: [`WasmEngineConfig`], the limits that are constants
//! ([`FUEL_PER_MS`], [`POOL_SLOTS`], [`COMPILE_TIMEOUT`]), the wasmtime [`Config`] they make
//! (fuel, epoch interruption, pooling allocator, the proposals toolchains emit) and the WASI linkers every module is linked
//! against.
//!
//! Not here: what a linker grants a guest beyond stock WASI (the symlink denial and the
//! per-run context are `sandbox.rs`), the thread that advances epochs (`ticker.rs`), per-run
//! limits (`run.rs`, `limiter.rs`).

use super::cache;
use super::limiter::MIB;
use super::sandbox;
use super::state::{P1State, P2State};
use std::path::PathBuf;
use std::time::Duration;
use wasmtime::{Config, Engine, InstanceAllocationStrategy, Linker, PoolingAllocationConfig};

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

/// Pooling allocator slots: instances that can run at once before falling back to errors.
pub const POOL_SLOTS: u32 = 1000;

/// Bytes of each pooled linear memory kept resident (reset by copying) when its instance is
/// freed: at most this much per slot stays in memory while the slot is idle.
const KEEP_RESIDENT: usize = 16 << 20;

/// The same for each pooled table.
const KEEP_RESIDENT_TABLE: usize = 1 << 20;

/// Idle pool slots that keep their memory resident for their module's next instance; beyond
/// them, slots are reused least-recently-used. With [`KEEP_RESIDENT`] this bounds what an
/// idle long-lived engine holds to about (busiest concurrency + 16) x 16 MiB.
const MAX_UNUSED_WARM_SLOTS: u32 = 16;

/// How long a run waits for a first compile by default: 60 s (the largest example guest, the
/// 18 MB Python component, compiles in about 11 s on the 2-core development machine).
pub const COMPILE_TIMEOUT: Duration = Duration::from_secs(60);

/// The environment variable that overrides [`COMPILE_TIMEOUT`] (milliseconds).
pub const COMPILE_TIMEOUT_ENV: &str = "HOOKHOST_COMPILE_TIMEOUT_MS";

/// A problem setting up the wasm engine (not a per-hook problem).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct WasmError(String);

/// Settings of a [`WasmSpawner`](super::WasmSpawner).
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
    /// Make each hook's next instance ahead of its event, in the background, once the hook
    /// has run (`warm.rs`): the event then only calls it. For long-lived embedders (the
    /// `Runner` of an agent, `hookhost serve`); a one-event process would make an instance it
    /// never uses. Every event still gets a fresh instance.
    pub prewarm: bool,
}

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
            prewarm: true,
        }
    }
}

impl WasmEngineConfig {
    /// The engine for these settings: with the pooling allocator if asked for and available
    /// (a warning says when it is not), else on-demand allocation.
    pub(super) fn engine(&self) -> Result<Engine, WasmError> {
        match Engine::new(&wasmtime_config(self.pooling, self.fuel)) {
            Ok(e) => Ok(e),
            Err(e) if self.pooling => {
                tracing::warn!(error = %e, "pooling allocator unavailable; using on-demand allocation");
                Engine::new(&wasmtime_config(false, self.fuel))
                    .map_err(|e| WasmError(e.to_string()))
            }
            Err(e) => Err(WasmError(e.to_string())),
        }
    }

    /// What, besides wasmtime's own settings, makes compiled code of this engine differ:
    /// part of the disk cache's fingerprint.
    pub(super) fn cache_tag(&self) -> &'static str {
        if self.fuel {
            "fuel+epoch+nobacktrace+cm-async"
        } else {
            "epoch+nobacktrace+cm-async"
        }
    }
}

fn wasmtime_config(pooling: bool, fuel: bool) -> Config {
    let mut c = Config::new();
    c.consume_fuel(fuel)
        .epoch_interruption(true)
        // Backtraces cost time on every trap, and `proc_exit` is a trap.
        .wasm_backtrace_max_frames(None);
    enable_toolchain_features(&mut c);
    if pooling {
        let mut pool = PoolingAllocationConfig::new();
        pool.total_core_instances(POOL_SLOTS)
            .total_component_instances(POOL_SLOTS)
            .total_memories(POOL_SLOTS)
            .total_tables(POOL_SLOTS)
            .total_stacks(POOL_SLOTS)
            .max_memory_size(crate::hooks::config::MAX_MEMORY_MIB as usize * MIB as usize)
            // A freed memory is reset by copying back what its guest dirtied, up to this much,
            // instead of unmapping it: the next instance of the same module then does not
            // fault those pages in again (for an interpreter's heap, most of a warm event).
            .linear_memory_keep_resident(KEEP_RESIDENT)
            .table_keep_resident(KEEP_RESIDENT_TABLE)
            // Which bounds what the pool keeps resident: slots in use plus this many idle ones.
            .max_unused_warm_slots(MAX_UNUSED_WARM_SLOTS);
        c.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    }
    c
}

/// The proposals current guest toolchains emit, beyond wasmtime's defaults: the component
/// model's async ABI and builtins (`jco componentize --backend quickjs` imports `task.cancel`,
/// `waitable-set.*`, ... even for a synchronous export), stackful async and error contexts;
/// exceptions (C++ and LLVM's `-fwasm-exceptions`). None of them grants a guest anything
/// beyond its WASI imports: they are code shapes, run under the same fuel, epoch, memory and
/// sandbox as any other guest.
fn enable_toolchain_features(c: &mut Config) {
    c.concurrency_support(true)
        .wasm_component_model_async(true)
        .wasm_component_model_more_async_builtins(true)
        .wasm_component_model_async_stackful(true)
        .wasm_component_model_error_context(true)
        .wasm_exceptions(true);
}

/// The linkers of one engine: WASI preview 1 for core modules, preview 2 for components,
/// both with the sandbox's symlink denial shadowing the stock functions.
pub(super) struct Linkers {
    pub p1: Linker<P1State>,
    pub p2: wasmtime::component::Linker<P2State>,
}

impl Linkers {
    pub(super) fn new(engine: &Engine) -> Result<Self, WasmError> {
        let mut p1 = Linker::new(engine);
        wasmtime_wasi::p1::add_to_linker_async(&mut p1, |s: &mut P1State| &mut s.wasi)
            .and_then(|()| sandbox::deny_symlinks_p1(&mut p1))
            .map_err(|e| WasmError(format!("linking WASI preview 1: {e}")))?;
        let mut p2 = wasmtime::component::Linker::new(engine);
        wasmtime_wasi::p2::add_to_linker_async(&mut p2)
            .and_then(|()| sandbox::deny_symlinks_p2(&mut p2))
            .map_err(|e| WasmError(format!("linking WASI preview 2: {e}")))?;
        Ok(Linkers { p1, p2 })
    }
}
