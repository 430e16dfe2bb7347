//! The set-up itself: [`Setup`] (whose home, the trust policy, the wasm engine, the hooks
//! and an observer) and the one function every runner is built with, [`Setup::runner`]'s
//! and [`Engine::build`]'s alike.

use super::{ClientHook, Engine, EngineError};
use crate::config::{ConfigPaths, HookSet};
use crate::locations;
use crate::spawner::{HookSpawner, Spawner, Tiering, WasmEngineConfig};
use crate::translate::AgentEnv;
use crate::{ReportObserver, Runner, TrustError, TrustPolicy, TrustStore};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::task::JoinSet;

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

impl Home {
    /// Where the config of `project` is read from with this home.
    fn paths(self, project: &Path) -> ConfigPaths {
        match self {
            Home::FromEnv => ConfigPaths::for_project(project),
            Home::Given(h) => ConfigPaths::for_project_with_home(project, h),
            Home::Isolated(h) => ConfigPaths::with_home(project, h),
        }
    }
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
/// directory variables vetted against the project, [`locations::choose`], installed by
/// [`locations::install`]); what it refused
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
pub(super) struct Plan {
    pub(super) paths: ConfigPaths,
    /// `None`: no trust store, every hook trusted.
    pub(super) policy: Option<TrustPolicy>,
    /// Exactly these hooks instead of the config files.
    hooks: Option<HookSet>,
    observer: Option<ReportObserver>,
    /// The variables of the agent hookhost runs as the hook of (`hookhost hook --for`).
    agent_env: Option<AgentEnv>,
    /// The decision log instead of the default one (`run --explain` keeps its records).
    decision_log: Option<Arc<crate::decision_log::DecisionLog>>,
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
        // A runner's environment may come from the project's agent settings: what those set
        // is not obeyed from here on (`host_env`), the managed files' variables included.
        if let Home::Given(h) = &home {
            crate::host_env::guard(&[project], h.as_deref());
        }
        let paths = home.paths(project);
        // This project's roots (an embedder may serve several), chosen once; the first set-up
        // of the process installs them as its defaults and shows what was refused.
        let (roots, warnings) = locations::choose(project, paths.home.as_deref());
        let warnings = if locations::install(roots.clone()) {
            warnings
        } else {
            Vec::new()
        };
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
                agent_env: None,
                decision_log: None,
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

    /// hookhost runs as the hook of the agent that set `env` (`hookhost hook --for X`): the
    /// hooks of its dialect get its own variables.
    pub fn agent_env(mut self, env: AgentEnv) -> Self {
        self.plan.agent_env = Some(env);
        self
    }

    /// Each event's record goes to `log` instead of the default decision log.
    pub fn decision_log(mut self, log: Arc<crate::decision_log::DecisionLog>) -> Self {
        self.plan.decision_log = Some(log);
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
        Ok(shared_spawner(config))
    }
}

/// The spawners of a process that shares them ([`share_spawners`]), by their settings.
type Shared = Vec<(WasmEngineConfig, Arc<HookSpawner>)>;
static SHARED: Mutex<Option<Shared>> = Mutex::new(None);

/// Makes every later set-up of this process with the same wasm settings use one spawner
/// (its wasmtime engine, its compiled modules, its epoch ticker), instead of a new one per
/// set-up: for a process that runs one invocation after another (the warm engine,
/// `hookhost warm-serve`). What a spawner keeps is code, checked against each module file's
/// stamp and hashed for its trust pin at every run ([`HookSpawner`]); never a trust decision.
pub fn share_spawners() {
    let mut shared = crate::agent::sync::lock(&SHARED);
    if shared.is_none() {
        *shared = Some(Vec::new());
    }
}

/// A spawner with `config`: the shared one when spawners are shared, else a new one. A
/// shared spawner outlives the set-up that asked for it, so it pools instances even when the
/// set-up is of one event (`WasmOptions::one_event`): the pool's reservation is paid once
/// per process and every later instance reuses a slot whose memory image is already mapped.
fn shared_spawner(mut config: WasmEngineConfig) -> Arc<HookSpawner> {
    let mut shared = crate::agent::sync::lock(&SHARED);
    let Some(spawners) = shared.as_mut() else {
        return Arc::new(HookSpawner::with_wasm_config(config));
    };
    config.pooling = true;
    if let Some((_, s)) = spawners.iter().find(|(c, _)| *c == config) {
        return s.clone();
    }
    let s = Arc::new(HookSpawner::with_wasm_config(config.clone()));
    spawners.push((config, s.clone()));
    s
}

impl Plan {
    /// The one place a runner is made: the config (files read leniently, or the given
    /// hooks), the trust store, the spawner, the observer and the client's in-process hooks.
    pub(super) fn build(
        &self,
        spawner: Arc<dyn Spawner>,
        hooks: &[ClientHook],
    ) -> Result<(Runner, Option<TrustError>), EngineError> {
        let mut builder = Runner::builder(&self.paths.project_dir).spawner(spawner);
        if let Some(log) = &self.decision_log {
            builder = builder.shared_decision_log(log.clone());
        }
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
        if let Some(env) = &self.agent_env {
            builder = builder.agent_env(env.clone());
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A project with one shell hook of its own and a home whose trust file is `trusted`
    /// (none: no trust file).
    fn project(trusted: Option<&str>) -> (tempfile::TempDir, ConfigPaths) {
        let root = tempfile::tempdir().unwrap();
        let (project, home) = (root.path().join("p"), root.path().join("h"));
        std::fs::create_dir_all(project.join(".coding-agent")).unwrap();
        std::fs::create_dir_all(home.join(".coding-agent")).unwrap();
        std::fs::write(
            project.join(crate::config::PROJECT_CONFIG),
            r#"{"hooks": {"Stop": [{"command": "true"}]}}"#,
        )
        .unwrap();
        if let Some(text) = trusted {
            std::fs::write(home.join(".coding-agent/trusted.json"), text).unwrap();
        }
        let paths = Home::Isolated(Some(home)).paths(&project);
        (root, paths)
    }

    #[test]
    fn an_unreadable_trust_file_is_a_warning_under_all_and_an_error_otherwise() {
        let (_root, paths) = project(Some("{not json"));
        let ready = Setup::with_paths(paths.clone())
            .policy(TrustPolicy::All)
            .wasm(WasmOptions::one_event())
            .runner()
            .unwrap();
        assert!(ready.trust_warning.is_some());
        // Every project hook is then untrusted.
        assert_eq!(ready.runner.untrusted().len(), 1);
        for policy in [TrustPolicy::Skip, TrustPolicy::Block] {
            let e = Setup::with_paths(paths.clone())
                .policy(policy)
                .runner()
                .err()
                .unwrap();
            assert!(matches!(e, EngineError::Trust(_)), "{policy:?}: {e}");
        }
    }

    #[test]
    fn without_a_trust_store_every_hook_is_trusted() {
        let (_root, paths) = project(None);
        let trusted = Setup::with_paths(paths.clone()).trust_every_hook();
        let ready = trusted.wasm(WasmOptions::one_event()).runner().unwrap();
        assert!(ready.trust_warning.is_none());
        assert!(ready.runner.untrusted().is_empty());
        // The default policy has a store: the never-trusted project hook is untrusted.
        let ready = Setup::with_paths(paths).runner().unwrap();
        assert_eq!(ready.runner.untrusted().len(), 1);
    }

    #[test]
    fn an_isolated_home_reads_no_managed_file() {
        let root = tempfile::tempdir().unwrap();
        let home = root.path().join("h");
        let isolated = Home::Isolated(Some(home.clone())).paths(root.path());
        assert_eq!(isolated.managed_file, None);
        assert_eq!(
            isolated.global_file,
            Some(home.join(".coding-agent/hooks.json"))
        );
        let given = Home::Given(Some(home)).paths(root.path());
        assert!(given.managed_file.is_some());
        assert!(
            Home::Isolated(None)
                .paths(root.path())
                .global_file
                .is_none()
        );
    }
}
