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
use wasmtime::{
    Config, Enabled, Engine, InstanceAllocationStrategy, Linker, PoolingAllocationConfig,
};

/// Fuel granted per millisecond of `timeout` when a hook sets no `fuel`.
///
/// Fuel counts wasm operations (about one unit per instruction). Measured on the 2-core
/// development machine, cranelift code burns about 6.7 units per nanosecond in a tight loop
/// (2e9 units in 300 ms), less in code that touches memory. At 1,000,000 units per ms a
/// compute-bound guest exhausts its fuel after about a sixth of its timeout here, so on any
/// machine up to ~6x slower the fuel budget, not the wall clock, ends it: the same hook on the
/// same input times out the same way. The default 10 s timeout gives 1e10 units. The
/// wall-clock deadline (the timeout itself) backs this up for guests blocked in host calls.
/// Code from the baseline tier (winch, a big module's first runs) burns the same fuel for the
/// same work but more slowly: 2.5x slower than cranelift code in a register-only loop (4.2e9
/// units in 551 ms vs 219 ms), which still leaves the fuel, not the wall clock, ending a
/// compute-bound guest on this machine with a wide margin.
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

/// Hooks whose run takes at least this long get their next instance made ahead by default
/// (a componentize-py guard takes ~1.6 ms to instantiate and call; a Rust guest ~30 us, less
/// than handing the work to another thread and back).
pub const MAKE_AHEAD_ABOVE: Duration = Duration::from_micros(250);

/// How long a run waits for a first compile by default: 60 s (the largest example guest, the
/// 18 MB Python component, compiles in about 11 s on the 2-core development machine).
pub const COMPILE_TIMEOUT: Duration = Duration::from_secs(60);

/// The environment variable that overrides [`COMPILE_TIMEOUT`] (milliseconds).
pub const COMPILE_TIMEOUT_ENV: &str = "HOOKHOST_COMPILE_TIMEOUT_MS";

/// Modules at least this big take the baseline tier on a first run (see [`Tiering`]).
///
/// Measured on the 2-core development machine (cranelift vs winch, compile only): the 1.6 MB
/// jco QuickJS component 1.9 s vs 0.5 s, the 4.5 MB Go module 3.2 s vs 0.9 s, the 12 MB
/// componentize-js component 12.9 s vs 2.6 s, the 18 MB componentize-py component 11.2 s vs
/// 3.6 s; the Rust, C, Zig and AssemblyScript guests (3-100 KB) compile with cranelift in
/// 40 ms or less. Cranelift passes about a second from 1 MB, so smaller modules compile
/// straight with it (their optimised code is worth the few milliseconds).
pub const BASELINE_MIN_BYTES: u64 = 1 << 20;

/// The environment variable the CLI reads to choose its [`Tiering`]: `off`, `in-process` or
/// `deferred` (its default).
pub const TIERING_ENV: &str = "HOOKHOST_TIERING";

/// How a big module's first run gets its code when the optimised build is not cached.
///
/// The optimising compiler (cranelift) takes 2-13 s on the big Go, JavaScript and Python
/// guests; wasmtime's baseline compiler (winch) compiles them 3-5x faster into slower code.
/// With tiering on, a module of at least [`BASELINE_MIN_BYTES`] whose optimised build is not
/// in the cache runs from the baseline cache or a winch compile, and the optimised build is
/// made later, as this says. Both tiers run under the same fuel, epoch deadline, memory cap
/// and WASI context, and burn the same fuel for the same guest and input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tiering {
    /// Always the optimising compiler, waiting for it (`hookhost compile`, `check`).
    Off,
    /// Baseline first; the optimised build is compiled on a blocking task of this process,
    /// cached, and replaces the module in memory when done (a long-lived `Runner`, `serve`).
    #[default]
    InProcess,
    /// Baseline first; the optimised build is left to the caller, who finds the modules in
    /// [`WasmSpawner::deferred`](super::WasmSpawner::deferred) (the one-shot CLI hands them to
    /// a background `hookhost compile`). Nothing is deferred when the disk cache is disabled.
    Deferred,
}

impl Tiering {
    /// `off`, `in-process` or `deferred`.
    pub fn parse(s: &str) -> Option<Tiering> {
        match s.trim().to_ascii_lowercase().as_str() {
            "off" => Some(Tiering::Off),
            "in-process" => Some(Tiering::InProcess),
            "deferred" => Some(Tiering::Deferred),
            _ => None,
        }
    }
}

/// A problem setting up the wasm engine (not a per-hook problem).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WasmError {
    /// wasmtime refused the engine's configuration.
    #[error("{message}")]
    Engine {
        /// What wasmtime said.
        message: String,
    },
    /// WASI could not be linked into the engine.
    #[error("linking WASI preview {preview}: {message}")]
    Link {
        /// 1 (core modules) or 2 (components).
        preview: u8,
        /// What wasmtime said.
        message: String,
    },
    /// The engine could not be set up when a wasm hook first needed it.
    #[error("the WebAssembly engine is unavailable: {0}")]
    Unavailable(Box<WasmError>),
}

impl WasmError {
    fn engine(e: wasmtime::Error) -> Self {
        WasmError::Engine {
            message: e.to_string(),
        }
    }
}

/// Settings of a [`WasmSpawner`](super::WasmSpawner).
#[derive(Debug, Clone, PartialEq)]
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
    /// Make a hook's next instance ahead of its event, in the background, once the hook has
    /// run, if its run (instantiating and calling) took at least this long (`warm.rs`): the
    /// event then only calls it, and the spent instance is freed off the event's path too.
    /// Every event still gets a fresh instance. A guest quicker than handing work to another
    /// thread is instantiated at its event (the hand-off would cost more than it saves). For long-lived embedders (the
    /// `Runner` of an agent, `hookhost serve`); `None` for a one-event process, which would
    /// make an instance it never uses. Default [`MAKE_AHEAD_ABOVE`].
    pub prewarm: Option<Duration>,
    /// Whether big modules run from the baseline tier until their optimised build is cached,
    /// and who makes that build ([`Tiering`]; default in-process).
    pub tiering: Tiering,
}

fn compile_timeout_from_env() -> Option<Duration> {
    match crate::host_env::var(COMPILE_TIMEOUT_ENV, "the default compile timeout")
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
            prewarm: Some(MAKE_AHEAD_ABOVE),
            tiering: Tiering::default(),
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
                Engine::new(&wasmtime_config(false, self.fuel)).map_err(WasmError::engine)
            }
            Err(e) => Err(WasmError::engine(e)),
        }
    }

    /// The baseline tier's engine: winch, on-demand allocation, the same fuel and epoch
    /// interruption, and only the proposals winch implements.
    pub(super) fn baseline_engine(&self) -> Result<Engine, WasmError> {
        Engine::new(&baseline_config(self.fuel)).map_err(WasmError::engine)
    }

    /// [`Self::cache_tag`] of the baseline engine (its own cache folder).
    pub(super) fn baseline_cache_tag(&self) -> &'static str {
        if self.fuel {
            "winch+fuel+epoch+nobacktrace+cm-async"
        } else {
            "winch+epoch+nobacktrace+cm-async"
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
            .max_memory_size(
                usize::try_from(crate::config::MAX_MEMORY_MIB * MIB).unwrap_or(usize::MAX),
            )
            // A freed memory is reset by copying back what its guest dirtied, up to this much,
            // instead of unmapping it: the next instance of the same module then does not
            // fault those pages in again (for an interpreter's heap, most of a warm event).
            .linear_memory_keep_resident(KEEP_RESIDENT)
            .table_keep_resident(KEEP_RESIDENT_TABLE)
            // ... and of that, only the pages the guest wrote (Linux 6.7+ tells which through
            // the PAGEMAP_SCAN ioctl; elsewhere all of it): a small guest in a 1 MiB-stack
            // memory writes a few dozen pages of the 17 its memory spans, and copying all 17
            // back was half of a warm event.
            .pagemap_scan(Enabled::Auto)
            // Which bounds what the pool keeps resident: slots in use plus this many idle ones.
            .max_unused_warm_slots(MAX_UNUSED_WARM_SLOTS);
        c.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    }
    c
}

/// The baseline engine's wasmtime settings: those of the optimising engine without pooling,
/// compiled by winch, which in wasmtime 48 implements neither exceptions, GC, tail calls,
/// typed function references nor relaxed SIMD: they are off, so a module that uses them fails
/// to compile here and is compiled by cranelift instead.
fn baseline_config(fuel: bool) -> Config {
    let mut c = wasmtime_config(false, fuel);
    c.strategy(wasmtime::Strategy::Winch)
        .wasm_exceptions(false)
        .wasm_gc(false)
        .wasm_tail_call(false)
        .wasm_function_references(false)
        .wasm_relaxed_simd(false);
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
/// both with the sandbox's symlink denial shadowing the stock functions. Components also get
/// `wasi:http`'s outgoing handler, whose every request passes the run's policy (`http.rs`:
/// refused unless the hook's `net` lists its host and port), so one linker serves hooks with
/// and without a `net` grant.
pub(super) struct Linkers {
    pub p1: Linker<P1State>,
    pub p2: wasmtime::component::Linker<P2State>,
}

impl Linkers {
    pub(super) fn new(engine: &Engine) -> Result<Self, WasmError> {
        let mut p1 = Linker::new(engine);
        wasmtime_wasi::p1::add_to_linker_async(&mut p1, |s: &mut P1State| &mut s.wasi)
            .and_then(|()| sandbox::deny_symlinks_p1(&mut p1))
            .map_err(|e| WasmError::Link {
                preview: 1,
                message: e.to_string(),
            })?;
        let mut p2 = wasmtime::component::Linker::new(engine);
        wasmtime_wasi::p2::add_to_linker_async(&mut p2)
            .and_then(|()| wasmtime_wasi_http::p2::add_only_http_to_linker_async(&mut p2))
            .and_then(|()| sandbox::deny_symlinks_p2(&mut p2))
            .map_err(|e| WasmError::Link {
                preview: 2,
                message: e.to_string(),
            })?;
        Ok(Linkers { p1, p2 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasmtime::{Instance, Module, Store, Trap};

    /// Fuel left after `f(n)` of a counted loop in a store of `engine`.
    fn fuel_used(engine: &Engine, n: i32) -> u64 {
        let module = Module::new(
            engine,
            wat::parse_str(
                r#"(module (func (export "f") (param i32) (result i32) (local i32)
                (loop $l
                  (local.set 1 (i32.add (local.get 1) (i32.mul (local.get 0) (i32.const 3))))
                  (local.set 0 (i32.sub (local.get 0) (i32.const 1)))
                  (br_if $l (i32.ne (local.get 0) (i32.const 0))))
                (local.get 1)))"#,
            )
            .unwrap(),
        )
        .unwrap();
        let mut store = Store::new(engine, ());
        store.set_fuel(u64::MAX / 2).unwrap();
        store.set_epoch_deadline(u64::MAX / 2);
        let instance = Instance::new(&mut store, &module, &[]).unwrap();
        let f = instance
            .get_typed_func::<i32, i32>(&mut store, "f")
            .unwrap();
        f.call(&mut store, n).unwrap();
        u64::MAX / 2 - store.get_fuel().unwrap()
    }

    #[test]
    fn both_tiers_burn_the_same_fuel_and_stop_on_epochs() {
        let config = WasmEngineConfig {
            pooling: false,
            ..WasmEngineConfig::default()
        };
        let optimised = config.engine().unwrap();
        let baseline = config.baseline_engine().unwrap();
        for n in [1, 1000, 100_000] {
            assert_eq!(fuel_used(&optimised, n), fuel_used(&baseline, n), "n = {n}");
        }
        // An endless loop ends at the epoch deadline under winch as under cranelift.
        for engine in [&optimised, &baseline] {
            let module = Module::new(
                engine,
                wat::parse_str(r#"(module (func (export "spin") (loop $l (br $l))))"#).unwrap(),
            )
            .unwrap();
            let mut store = Store::new(engine, ());
            store.set_fuel(u64::MAX / 2).unwrap();
            store.set_epoch_deadline(1);
            let instance = Instance::new(&mut store, &module, &[]).unwrap();
            let spin = instance
                .get_typed_func::<(), ()>(&mut store, "spin")
                .unwrap();
            engine.increment_epoch();
            let err = spin.call(&mut store, ()).unwrap_err();
            assert_eq!(err.downcast_ref::<Trap>(), Some(&Trap::Interrupt));
        }
    }
}
