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

use crate::config::{ConfigPaths, OnError};
use crate::spawner::HookSpawner;
use crate::{Event, EventReport, FnHook, FnOptions, Runner, RunnerError, TrustError, TrustPolicy};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tokio::task::JoinSet;

mod builder;

use builder::Plan;
pub use builder::{Home, Ready, Setup, WasmOptions, share_spawners};

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
