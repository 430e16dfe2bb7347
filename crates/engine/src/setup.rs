//! The one engine set-up ([`Setup`]): from a project directory and options (whose home, the
//! trust policy, the wasm engine, an observer) to a ready [`Runner`] or a warm [`Engine`],
//! for `run`, `hook`, `check`, `list`, `serve`, `test`, the demo and the bindings alike: the
//! cache and store roots settled for the project, the config files read leniently (a broken
//! file never silences the others), the trust policy with its store, one spawner (shared by
//! an engine's runners, so compiled wasm stays warm); and the `run --json` report. It builds
//! [`Runner`]s; it fires nothing itself.
//!
//! A client's in-process hooks (Python callables, JavaScript functions behind `serve`) are a
//! [`HookTable`]: its hooks plus the runner built with them, rebuilt when a hook is added or
//! removed or the config changed ([`Engine::config_changed`]). A replaced runner is
//! *retired*, not dropped: its async hooks keep running until they end
//! ([`Engine::drain`] waits for them).

use crate::config::{ConfigPaths, HookSet, OnError};
use crate::locations;
use crate::spawner::{HookSpawner, Spawner, Tiering, WasmEngineConfig};
use crate::{
    Event, EventReport, FnHook, FnOptions, ReportObserver, Runner, RunnerError, TrustError,
    TrustPolicy, TrustStore,
};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tokio::task::JoinSet;

/// Could not set up the engine or build a runner.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The trust file is unreadable under a policy that must not fail open.
    #[error(transparent)]
    Trust(#[from] TrustError),
    /// The runner could not be built (wasm engine, an in-process hook's matcher).
    #[error(transparent)]
    Runner(#[from] RunnerError),
    /// The WebAssembly engine could not be set up.
    #[error("cannot set up the WebAssembly engine: {0}")]
    Wasm(#[from] crate::spawner::wasm::WasmError),
}

/// The `run --json` object of one event (DESIGN §8): what `hookhost run --json` prints and
/// what `serve`'s `fire` answers.
pub fn report_json(report: &EventReport) -> Value {
    serde_json::to_value(report).unwrap_or_else(|e| {
        // Serialising plain data cannot fail; say so rather than panic if it ever does.
        serde_json::json!({"event": report.event, "decision": "pass", "error": e.to_string()})
    })
}

/// Whose home directory the user's own files (`~/.coding-agent/hooks.json`, the trust pins
/// in `~/.coding-agent/trusted.json`) are read from; see [`crate::locations`].
#[derive(Debug, Clone)]
pub enum Home {
    /// `$HOME`, with the managed files: the commands a user runs (`run`, `check`, `list`).
    FromEnv,
    /// This directory (the account's or `--home`, from [`locations::runner_home`]), with the
    /// managed files: the outbound adapter, `serve`, the bindings.
    Given(Option<PathBuf>),
    /// Only this directory (or none) and no managed file: an isolated engine (an embedder's
    /// explicit home, a test).
    Isolated(Option<PathBuf>),
}

/// How the set-up configures the WebAssembly engine, applied over
/// [`WasmEngineConfig::default`] once the cache root is settled.
#[derive(Debug, Clone)]
pub struct WasmOptions {
    /// The pooling allocator (long-lived engines), else allocation on demand.
    pub pooling: bool,
    /// Make a hook's next instance ahead of its event (long-lived engines).
    pub prewarm: bool,
    /// The tiering; `None`: the default.
    pub tiering: Option<Tiering>,
    /// This compile timeout rather than the default (`$HOOKHOST_COMPILE_TIMEOUT_MS`).
    pub compile_timeout: Option<Duration>,
    /// This compile cache rather than the one settled for the project.
    pub cache_root: Option<PathBuf>,
}

impl Default for WasmOptions {
    /// The engine's defaults: pooling, instances made ahead (a long-lived engine).
    fn default() -> Self {
        WasmOptions {
            pooling: true,
            prewarm: true,
            tiering: None,
            compile_timeout: None,
            cache_root: None,
        }
    }
}

impl WasmOptions {
    /// One event per process: the pooling allocator's set-up (~6 ms) would cost more than it
    /// saves, and an instance made ahead would never be used.
    pub fn one_event() -> Self {
        WasmOptions {
            pooling: false,
            prewarm: false,
            ..WasmOptions::default()
        }
    }
}

/// One engine set-up: from a project directory and options to a ready [`Runner`]
/// ([`Setup::runner`]) or a warm [`Engine`] ([`Setup::engine`]), the same way for `run`,
/// `hook`, `check`, `list`, `serve`, `test`, the demo and the bindings.
///
/// [`Setup::new`] settles where the caches and the store are for the process (the
/// directory variables vetted against the project, [`locations::settle`]); what it refused
/// is in [`Setup::warnings`], for the caller to show.
pub struct Setup {
    plan: Plan,
    /// The compile cache chosen for this project; `None` (from [`Setup::with_paths`]): the
    /// spawner's default.
    cache_root: Option<Option<PathBuf>>,
    warnings: Vec<String>,
    wasm: WasmOptions,
}

/// What every runner of a set-up is built from (kept by an [`Engine`] to rebuild).
#[derive(Clone)]
struct Plan {
    paths: ConfigPaths,
    /// `None`: no trust store, every hook trusted.
    policy: Option<TrustPolicy>,
    /// Exactly these hooks instead of the config files.
    hooks: Option<HookSet>,
    observer: Option<ReportObserver>,
}

/// A runner from [`Setup::runner`], with its spawner and what to tell the user.
pub struct Ready {
    /// The runner: config read leniently (a broken file never silences the others).
    pub runner: Runner,
    /// The spawner it runs hooks with (for the wasm tiers, or to run a hook by hand).
    pub spawner: Arc<HookSpawner>,
    /// Under the permissive `all`, the trust file could not be read: every project hook is
    /// then untrusted. Say so.
    pub trust_warning: Option<TrustError>,
}

impl Setup {
    /// The set-up of the project at `project` with the user's files under `home`, the
    /// default trust policy (`skip`) and the engine's wasm defaults.
    pub fn new(project: &Path, home: Home) -> Self {
        let paths = match home {
            Home::FromEnv => ConfigPaths::for_project(project),
            Home::Given(h) => ConfigPaths::for_project_with_home(project, h),
            Home::Isolated(h) => ConfigPaths::with_home(project, h),
        };
        let (_, warnings) = locations::settle(project, paths.home.as_deref());
        // This project's roots, not the first one settled (an embedder may serve several).
        let (roots, _) = locations::choose(project, paths.home.as_deref());
        Setup {
            cache_root: Some(roots.cache),
            warnings,
            ..Self::with_paths(paths)
        }
    }

    /// A set-up reading exactly these config paths, settling nothing (the caches are the
    /// spawner's defaults).
    pub fn with_paths(paths: ConfigPaths) -> Self {
        Setup {
            plan: Plan {
                paths,
                policy: Some(TrustPolicy::default()),
                hooks: None,
                observer: None,
            },
            cache_root: None,
            warnings: Vec::new(),
            wasm: WasmOptions::default(),
        }
    }

    /// The directory variables refused while settling, one line each, to show on stderr.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Where the config is read from.
    pub fn paths(&self) -> &ConfigPaths {
        &self.plan.paths
    }

    /// Only `.coding-agent/hooks.json` files (and the managed one), no other agent's.
    pub fn native_only(mut self) -> Self {
        self.plan.paths = self.plan.paths.native_only();
        self
    }

    /// Untrusted project hooks are handled by `policy`, against the pins in the home's
    /// trust file.
    pub fn policy(mut self, policy: TrustPolicy) -> Self {
        self.plan.policy = Some(policy);
        self
    }

    /// No trust store: every hook is trusted (hooks the caller wrote itself: the demo,
    /// `hookhost test`).
    pub fn trust_every_hook(mut self) -> Self {
        self.plan.policy = None;
        self
    }

    /// The WebAssembly engine's options.
    pub fn wasm(mut self, wasm: WasmOptions) -> Self {
        self.wasm = wasm;
        self
    }

    /// Run exactly these hooks; no config file is read.
    pub fn hooks(mut self, hooks: HookSet) -> Self {
        self.plan.hooks = Some(hooks);
        self
    }

    /// Calls `observer` with every event's report.
    pub fn observer(mut self, observer: ReportObserver) -> Self {
        self.plan.observer = Some(observer);
        self
    }

    /// A runner, its spawner and the trust warning to show.
    pub fn runner(self) -> Result<Ready, EngineError> {
        let spawner = self.spawner()?;
        let (runner, trust_warning) = self.plan.build(spawner.clone(), &[])?;
        Ok(Ready {
            runner,
            spawner,
            trust_warning,
        })
    }

    /// The warm engine: one spawner for every runner it builds.
    pub fn engine(self) -> Result<Engine, EngineError> {
        let spawner = self.spawner()?;
        Ok(Engine {
            plan: self.plan,
            spawner,
            generation: AtomicU64::new(0),
            live: Mutex::new(Vec::new()),
            retired: Mutex::new(JoinSet::new()),
        })
    }

    fn spawner(&self) -> Result<Arc<HookSpawner>, EngineError> {
        let w = &self.wasm;
        let mut config = WasmEngineConfig {
            pooling: w.pooling,
            ..WasmEngineConfig::default()
        };
        if !w.prewarm {
            config.prewarm = None;
        }
        if let Some(tiering) = w.tiering {
            config.tiering = tiering;
        }
        if let Some(timeout) = w.compile_timeout {
            config.compile_timeout = Some(timeout);
        }
        match (&w.cache_root, &self.cache_root) {
            (Some(root), _) => config.cache_root = Some(root.clone()),
            (None, Some(chosen)) => config.cache_root.clone_from(chosen),
            (None, None) => {}
        }
        Ok(Arc::new(HookSpawner::with_wasm_config(config)))
    }
}

impl Plan {
    /// The one place a runner is made: the config (files read leniently, or the given
    /// hooks), the trust store, the spawner, the observer and the client's in-process hooks.
    fn build(
        &self,
        spawner: Arc<dyn Spawner>,
        hooks: &[ClientHook],
    ) -> Result<(Runner, Option<TrustError>), EngineError> {
        let mut builder = Runner::builder(&self.paths.project_dir).spawner(spawner);
        builder = match &self.hooks {
            Some(set) => builder.hooks(set.clone()),
            None => builder.config_paths(self.paths.clone()).lenient(),
        };
        let mut warning = None;
        if let Some(policy) = self.policy {
            let (store, unreadable) = trust_store(&self.paths, policy)?;
            warning = unreadable;
            builder = builder.trust(policy, store);
        }
        if let Some(observer) = &self.observer {
            builder = builder.observer(observer.clone());
        }
        for h in hooks {
            builder = builder.hook_with(
                h.event,
                h.matcher.as_deref(),
                &h.id,
                h.hook.clone(),
                h.options,
            );
        }
        Ok((builder.build()?, warning))
    }
}

/// The trust store for `paths` under `policy`. Under the permissive `all`, an unreadable
/// trust file does not stop every hook: every project hook is then untrusted and the error
/// comes back as a warning to show; under `skip`/`block` it is an error (failing open there
/// would defeat the policy).
fn trust_store(
    paths: &ConfigPaths,
    policy: TrustPolicy,
) -> Result<(TrustStore, Option<TrustError>), TrustError> {
    match TrustStore::load(paths.home.as_deref()) {
        Ok(store) => Ok((store, None)),
        Err(e) if policy == TrustPolicy::All => Ok((TrustStore::load(None)?, Some(e))),
        Err(e) => Err(e),
    }
}

/// An in-process hook a client registered: its id (unique within its table), event,
/// matcher and options.
#[derive(Clone)]
pub struct ClientHook {
    /// The id the client refers to it by; also its name in reports.
    pub id: String,
    /// The event it runs at.
    pub event: Event,
    /// A regex on the tool name (whole-name match), PreToolUse/PostToolUse only.
    pub matcher: Option<String>,
    /// What runs.
    pub hook: Arc<dyn FnHook>,
    /// Timeout and onError.
    pub options: FnOptions,
}

impl ClientHook {
    /// A hook with the default options, or `timeout_ms`/`on_error_block` when given.
    pub fn new(
        id: impl Into<String>,
        event: Event,
        matcher: Option<String>,
        hook: Arc<dyn FnHook>,
        timeout_ms: Option<u64>,
        on_error_block: bool,
    ) -> Self {
        let mut options = FnOptions::default();
        if let Some(ms) = timeout_ms {
            options.timeout = Duration::from_millis(ms.clamp(1, MAX_CLIENT_HOOK_TIMEOUT_MS));
        }
        if on_error_block {
            options.on_error = OnError::Block;
        }
        ClientHook {
            id: id.into(),
            event,
            matcher,
            hook,
            options,
        }
    }
}

/// The longest timeout a client hook may ask for (10 minutes).
pub const MAX_CLIENT_HOOK_TIMEOUT_MS: u64 = 600_000;

/// One project's engine, made by [`Setup::engine`]: where its config is, the trust policy,
/// the shared spawner, and the config generation (bumped on every change seen).
pub struct Engine {
    plan: Plan,
    spawner: Arc<HookSpawner>,
    generation: AtomicU64,
    /// Runners in use, for `drain`.
    live: Mutex<Vec<Weak<Runner>>>,
    /// Replaced runners, each kept until its async hooks end.
    retired: Mutex<JoinSet<()>>,
}

impl Engine {
    /// Where the config is read from.
    pub fn paths(&self) -> &ConfigPaths {
        &self.plan.paths
    }

    /// The trust policy in force (`all` when there is no trust store).
    pub fn policy(&self) -> TrustPolicy {
        self.plan.policy.unwrap_or(TrustPolicy::All)
    }

    /// The config generation: runners built at an older one are stale.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// A config file changed: every table rebuilds its runner before its next event.
    pub fn config_changed(&self) -> u64 {
        self.generation.fetch_add(1, Ordering::AcqRel) + 1
    }

    /// The files whose change means a reload: every config file read, and the trust pins.
    pub fn watched_files(&self) -> Vec<PathBuf> {
        let (set, _) = crate::config::load_lenient(&self.plan.paths);
        let mut files = set.files.clone();
        if let Some(home) = &self.plan.paths.home {
            files.push(home.join(".coding-agent/trusted.json"));
        }
        files
    }

    /// A runner with the current config and these in-process hooks, registered with the
    /// engine so that [`Engine::drain`] waits for its async hooks.
    pub fn build(&self, hooks: &[ClientHook]) -> Result<Arc<Runner>, EngineError> {
        let (runner, warning) = self.plan.build(self.spawner.clone(), hooks)?;
        if let Some(e) = warning {
            tracing::warn!("{e}; treating every project hook as untrusted");
        }
        let runner = Arc::new(runner);
        let mut live = crate::agent::sync::lock(&self.live);
        live.retain(|w| w.strong_count() > 0);
        live.push(Arc::downgrade(&runner));
        Ok(runner)
    }

    /// Lets `runner` go once its async hooks have ended (they keep running meanwhile).
    pub fn retire(&self, runner: Arc<Runner>) {
        let mut retired = crate::agent::sync::lock(&self.retired);
        while retired.try_join_next().is_some() {}
        if tokio::runtime::Handle::try_current().is_ok() {
            retired.spawn(async move {
                runner.wait_async().await;
            });
        }
    }

    /// Waits for the async hooks of every runner, live or retired (each bounded by its
    /// timeout).
    pub async fn drain(&self) {
        let live: Vec<Arc<Runner>> = self
            .live
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .filter_map(Weak::upgrade)
            .collect();
        for runner in live {
            runner.wait_async().await;
        }
        let mut retired = std::mem::take(&mut *crate::agent::sync::lock(&self.retired));
        while retired.join_next().await.is_some() {}
    }
}

/// A client's in-process hooks and the runner built with them and the current config.
pub struct HookTable {
    engine: Arc<Engine>,
    hooks: Vec<ClientHook>,
    current: Option<(u64, Arc<Runner>)>,
}

impl HookTable {
    /// No hooks yet.
    pub fn new(engine: Arc<Engine>) -> Self {
        HookTable {
            engine,
            hooks: Vec::new(),
            current: None,
        }
    }

    /// The engine it builds with.
    pub fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }

    /// Adds a hook (run after the configured hooks of its event, in registration order).
    /// Its matcher is checked here, so a bad regex is an error now and not at the next event.
    pub fn register(&mut self, hook: ClientHook) -> Result<(), RunnerError> {
        if let Some(m) = &hook.matcher {
            crate::config::Matcher::new(m).map_err(|source| RunnerError::Matcher {
                name: hook.id.clone(),
                source,
            })?;
        }
        self.hooks.push(hook);
        self.invalidate();
        Ok(())
    }

    /// Removes the hook `id`; false when there is none.
    pub fn unregister(&mut self, id: &str) -> bool {
        let before = self.hooks.len();
        self.hooks.retain(|h| h.id != id);
        let removed = self.hooks.len() != before;
        if removed {
            self.invalidate();
        }
        removed
    }

    /// The registered hooks' ids, in order.
    pub fn ids(&self) -> Vec<String> {
        self.hooks.iter().map(|h| h.id.clone()).collect()
    }

    /// The runner to fire with: the cached one unless hooks or config changed since.
    pub fn runner(&mut self) -> Result<Arc<Runner>, EngineError> {
        let generation = self.engine.generation();
        if let Some((g, r)) = &self.current
            && *g == generation
        {
            return Ok(r.clone());
        }
        let runner = self.engine.build(&self.hooks)?;
        if let Some((_, old)) = self.current.replace((generation, runner.clone())) {
            self.engine.retire(old);
        }
        Ok(runner)
    }

    /// Drops the runner (retired: its async hooks go on).
    pub fn invalidate(&mut self) {
        if let Some((_, old)) = self.current.take() {
            self.engine.retire(old);
        }
    }
}

impl Drop for HookTable {
    fn drop(&mut self) {
        self.invalidate();
    }
}
