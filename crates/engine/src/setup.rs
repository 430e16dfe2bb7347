//! The engine of one project as `hookhost run`, `hookhost serve` and the language packages
//! set it up: the config files read leniently (a broken file never silences the others), the
//! trust policy with its store, one shared spawner (so compiled wasm stays warm), and the
//! `run --json` report. It builds [`Runner`]s; it fires nothing itself.
//!
//! A client's in-process hooks (Python callables, JavaScript functions behind `serve`) are a
//! [`HookTable`]: its hooks plus the runner built with them, rebuilt when a hook is added or
//! removed or the config changed ([`Engine::config_changed`]). A replaced runner is
//! *retired*, not dropped: its async hooks keep running until they end
//! ([`Engine::drain`] waits for them).

use crate::config::{ConfigPaths, OnError};
use crate::spawner::{HookSpawner, Spawner, WasmEngineConfig};
use crate::{
    Event, EventReport, FnHook, FnOptions, Runner, RunnerBuilder, RunnerError, TrustError,
    TrustPolicy, TrustStore,
};
use serde_json::Value;
use std::path::PathBuf;
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
    /// The runner could not be built (a config file, an in-process hook's matcher).
    #[error(transparent)]
    Runner(#[from] RunnerError),
}

/// The `run --json` object of one event (DESIGN §8): what `hookhost run --json` prints and
/// what `serve`'s `fire` answers.
pub fn report_json(report: &EventReport) -> Value {
    serde_json::to_value(report).unwrap_or_else(|e| {
        // Serialising plain data cannot fail; say so rather than panic if it ever does.
        serde_json::json!({"event": report.event, "decision": "pass", "error": e.to_string()})
    })
}

/// The trust store for `paths` under `policy`. Under the permissive `all`, an unreadable
/// trust file does not stop every hook: every project hook is then untrusted and the error
/// comes back as a warning to show; under `skip`/`block` it is an error (failing open there
/// would defeat the policy).
pub fn trust_store(
    paths: &ConfigPaths,
    policy: TrustPolicy,
) -> Result<(TrustStore, Option<TrustError>), TrustError> {
    match TrustStore::load(paths.home.as_deref()) {
        Ok(store) => Ok((store, None)),
        Err(e) if policy == TrustPolicy::All => Ok((TrustStore::load(None)?, Some(e))),
        Err(e) => Err(e),
    }
}

/// A runner builder as `hookhost run` uses it: these config files, read leniently, under
/// this trust policy and store.
pub fn runner_builder(paths: ConfigPaths, policy: TrustPolicy, store: TrustStore) -> RunnerBuilder {
    Runner::builder(&paths.project_dir)
        .config_paths(paths)
        .lenient()
        .trust(policy, store)
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

/// One project's engine: where its config is, the trust policy, the shared spawner, and the
/// config generation (bumped on every change seen).
pub struct Engine {
    paths: ConfigPaths,
    policy: TrustPolicy,
    spawner: Arc<dyn Spawner>,
    generation: AtomicU64,
    /// Runners in use, for `drain`.
    live: Mutex<Vec<Weak<Runner>>>,
    /// Replaced runners, each kept until its async hooks end.
    retired: Mutex<JoinSet<()>>,
}

impl Engine {
    /// The engine of the project at `paths`, with a pooling wasm engine (it lives long).
    pub fn new(paths: ConfigPaths, policy: TrustPolicy) -> Result<Self, EngineError> {
        Self::with_wasm_config(
            paths,
            policy,
            WasmEngineConfig {
                pooling: true,
                ..WasmEngineConfig::default()
            },
        )
    }

    /// Like [`Engine::new`] with this wasm configuration (e.g. another compile cache).
    pub fn with_wasm_config(
        paths: ConfigPaths,
        policy: TrustPolicy,
        wasm: WasmEngineConfig,
    ) -> Result<Self, EngineError> {
        let spawner = Arc::new(HookSpawner::with_wasm_config(wasm));
        Ok(Self::with_spawner(paths, policy, spawner))
    }

    /// Like [`Engine::new`] with this spawner.
    pub fn with_spawner(
        paths: ConfigPaths,
        policy: TrustPolicy,
        spawner: Arc<dyn Spawner>,
    ) -> Self {
        Engine {
            paths,
            policy,
            spawner,
            generation: AtomicU64::new(0),
            live: Mutex::new(Vec::new()),
            retired: Mutex::new(JoinSet::new()),
        }
    }

    /// Where the config is read from.
    pub fn paths(&self) -> &ConfigPaths {
        &self.paths
    }

    /// The trust policy in force.
    pub fn policy(&self) -> TrustPolicy {
        self.policy
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
        let (set, _) = crate::config::load_lenient(&self.paths);
        let mut files = set.files.clone();
        if let Some(home) = &self.paths.home {
            files.push(home.join(".coding-agent/trusted.json"));
        }
        files
    }

    /// A runner with the current config and these in-process hooks, registered with the
    /// engine so that [`Engine::drain`] waits for its async hooks.
    pub fn build(&self, hooks: &[ClientHook]) -> Result<Arc<Runner>, EngineError> {
        let (store, warning) = trust_store(&self.paths, self.policy)?;
        if let Some(e) = warning {
            tracing::warn!("{e}; treating every project hook as untrusted");
        }
        let mut builder =
            runner_builder(self.paths.clone(), self.policy, store).spawner(self.spawner.clone());
        for h in hooks {
            builder = builder.hook_with(
                h.event,
                h.matcher.as_deref(),
                &h.id,
                h.hook.clone(),
                h.options,
            );
        }
        let runner = Arc::new(builder.build()?);
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
        let live: Vec<Arc<Runner>> = crate::agent::sync::lock(&self.live)
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
