//! Composing a [`Runner`]: where its hooks come from, what runs them, what trust allows, its
//! in-process hooks and its observer; [`RunnerBuilder::build`] loads what it must and freezes
//! it.

use super::{ReportObserver, Runner, Snapshot};
use crate::config::{self, ConfigErrors, ConfigPaths, HookSet};
use crate::decision_log::DecisionLog;
use crate::event::Event;
use crate::inprocess::{FnHook, FnHookEntry};
use crate::session_env::SessionEnv;
use crate::spawner::{HookSpawner, Spawner};
use crate::translate::AgentEnv;
use crate::trust::{TrustPolicy, TrustStore};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::task::JoinSet;

/// Could not build a Runner.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunnerError {
    /// The config files have problems (every one of them, with file, hook and fix).
    #[error(transparent)]
    Config(#[from] ConfigErrors),
    /// An in-process hook's matcher is not a valid regex.
    #[error("in-process hook {name:?}: `match` is not a valid regex: {source}")]
    Matcher {
        /// The name the hook was registered with.
        name: String,
        /// What the regex engine said.
        source: regex::Error,
    },
}

/// Where a runner's hooks come from.
enum Source {
    /// Load the config files at `paths`, or (`None`) the project's standard ones
    /// ([`ConfigPaths::for_project`], worked out at `build`, so a builder given other paths
    /// never canonicalises the project for nothing). Strictly (any problem is an error), or
    /// `lenient`ly: a broken file does not stop the others ([`RunnerBuilder::lenient`]).
    Files {
        paths: Option<ConfigPaths>,
        lenient: bool,
    },
    /// Exactly these hooks.
    Hooks(HookSet),
}

/// Composes a [`Runner`]: where the hooks come from, what runs them, what trust allows,
/// which in-process hooks run after them, and who hears about every event. Safe defaults:
/// the project's and the user's config files, the real spawners (shell, wasm with the
/// default compile cache, HTTP), and every hook trusted (no trust store).
///
/// ```no_run
/// # fn demo() -> Result<(), hookhost::RunnerError> {
/// use hookhost::{Event, FnResponse, Runner, TrustPolicy, TrustStore};
/// let runner = Runner::builder("/path/to/project")
///     .trust(TrustPolicy::Block, TrustStore::load(dirs::home_dir().as_deref()).unwrap())
///     .hook(Event::PreToolUse, Some("bash"), "no-sudo", |p: &hookhost::Payload| {
///         let cmd = p.tool_args().and_then(|a| a["command"].as_str()).unwrap_or("");
///         if cmd.starts_with("sudo") { FnResponse::block("no sudo") } else { FnResponse::pass() }
///     })
///     .build()?;
/// # Ok(()) }
/// ```
pub struct RunnerBuilder {
    project_dir: PathBuf,
    source: Source,
    spawner: Option<Arc<dyn Spawner>>,
    trust: Option<(TrustPolicy, TrustStore)>,
    fn_hooks: Vec<PendingFn>,
    observer: Option<ReportObserver>,
    agent_env: Option<AgentEnv>,
    session_env_root: Option<PathBuf>,
    /// `None`: the default (`DecisionLog::from_env`); `Some(None)`: off.
    decision_log: Option<Option<Arc<DecisionLog>>>,
}

/// An in-process hook as registered on the builder, before its matcher is compiled.
struct PendingFn {
    event: Event,
    matcher: Option<String>,
    name: String,
    hook: Arc<dyn FnHook>,
    options: FnOptions,
}

/// Options of one in-process hook.
#[derive(Debug, Clone, Copy)]
pub struct FnOptions {
    /// A run past this is a timeout (default 10 s).
    pub timeout: Duration,
    /// On a failure (an error or a panic) on PreToolUse: warn (default) or block.
    pub on_error: config::OnError,
}

impl Default for FnOptions {
    fn default() -> Self {
        FnOptions {
            timeout: Duration::from_millis(config::DEFAULT_TIMEOUT_MS),
            on_error: config::OnError::Warn,
        }
    }
}

impl RunnerBuilder {
    pub(super) fn new(project_dir: &Path) -> Self {
        RunnerBuilder {
            project_dir: project_dir.to_path_buf(),
            source: Source::Files {
                paths: None,
                lenient: false,
            },
            spawner: None,
            trust: None,
            fn_hooks: Vec::new(),
            observer: None,
            agent_env: None,
            session_env_root: None,
            decision_log: None,
        }
    }

    /// Append each event's record to `log` instead of the default decision log
    /// (`<user cache>/hookhost/log/decisions.jsonl`, or as `HOOKHOST_LOG`/`HOOKHOST_LOG_DIR` say).
    pub fn decision_log(mut self, log: DecisionLog) -> Self {
        self.decision_log = Some(Some(Arc::new(log)));
        self
    }

    /// Append each event's record to `log`, shared with the caller (which may read what it
    /// kept: [`DecisionLog::take_kept`]).
    pub fn shared_decision_log(mut self, log: Arc<DecisionLog>) -> Self {
        self.decision_log = Some(Some(log));
        self
    }

    /// No decision log, whatever `HOOKHOST_LOG` says.
    pub fn no_decision_log(mut self) -> Self {
        self.decision_log = Some(None);
        self
    }

    /// Read the config from these paths (e.g. another home directory) instead of the
    /// standard ones for the project.
    pub fn config_paths(mut self, paths: ConfigPaths) -> Self {
        let lenient = matches!(self.source, Source::Files { lenient: true, .. });
        self.source = Source::Files {
            paths: Some(paths),
            lenient,
        };
        self
    }

    /// Run exactly these hooks; no config file is read (and `reload` does nothing).
    pub fn hooks(mut self, hooks: HookSet) -> Self {
        self.source = Source::Hooks(hooks);
        self
    }

    /// Do not fail on a broken config file: the valid hooks run, every problem is in each
    /// report's `config_errors`, and on PreToolUse a broken file blocks the call (fail
    /// closed, under every trust policy). What `hookhost run`
    /// uses, so that a typo in a project's hooks.json never silences the user's global
    /// guards.
    pub fn lenient(mut self) -> Self {
        if let Source::Files { lenient, .. } = &mut self.source {
            *lenient = true;
        }
        self
    }

    /// Run hooks with `spawner` instead of the real ones (tests inject a fake).
    pub fn spawner(mut self, spawner: Arc<dyn Spawner>) -> Self {
        self.spawner = Some(spawner);
        self
    }

    /// Apply a trust policy: project hooks whose config, wasm module or script is not
    /// recorded in `store` are untrusted (see `hooks::trust`). Without it every hook is
    /// trusted.
    pub fn trust(mut self, policy: TrustPolicy, store: TrustStore) -> Self {
        self.trust = Some((policy, store));
        self
    }

    /// Adds an in-process hook for `event` with default options; it runs after the
    /// configured hooks of that event, in registration order, and shows as kind `fn` named
    /// `name`. `matcher` is a regex on the tool name, matched against the whole name like a
    /// config `match`.
    pub fn hook(
        self,
        event: Event,
        matcher: Option<&str>,
        name: &str,
        hook: impl FnHook + 'static,
    ) -> Self {
        self.hook_with(event, matcher, name, Arc::new(hook), FnOptions::default())
    }

    /// Like [`RunnerBuilder::hook`], with a shared hook and explicit options.
    pub fn hook_with(
        mut self,
        event: Event,
        matcher: Option<&str>,
        name: &str,
        hook: Arc<dyn FnHook>,
        options: FnOptions,
    ) -> Self {
        self.fn_hooks.push(PendingFn {
            event,
            matcher: matcher.map(str::to_string),
            name: name.to_string(),
            hook,
            options,
        });
        self
    }

    /// Calls `observer` with every event's report (for traces such as `hookhost demo`).
    pub fn observer(mut self, observer: ReportObserver) -> Self {
        self.observer = Some(observer);
        self
    }

    /// hookhost runs as the hook of the agent that set `env` (`hookhost hook --for X`): the
    /// hooks of that agent's dialect get its variables, not hookhost's (`translate::env`).
    pub fn agent_env(mut self, env: AgentEnv) -> Self {
        self.agent_env = Some(env);
        self
    }

    /// Give Claude-dialect SessionStart hooks their `CLAUDE_ENV_FILE` under `root` (default:
    /// `session-env` under the settled compile-cache root, else a temporary directory).
    pub fn session_env_root(mut self, root: PathBuf) -> Self {
        self.session_env_root = Some(root);
        self
    }

    /// Loads what it must and freezes the runner.
    pub fn build(self) -> Result<Runner, RunnerError> {
        let (hooks, errors, paths) = match self.source {
            Source::Hooks(hooks) => (hooks, Vec::new(), None),
            Source::Files { paths, lenient } => {
                let paths = paths.unwrap_or_else(|| ConfigPaths::for_project(&self.project_dir));
                let (hooks, errors) = if lenient {
                    config::load_lenient(&paths)
                } else {
                    (config::load(&paths)?, Vec::new())
                };
                (hooks, errors, Some(paths))
            }
        };
        let spawner = match self.spawner {
            Some(s) => s,
            None => Arc::new(HookSpawner::new()),
        };
        let fn_hooks = compile_fn_hooks(self.fn_hooks)?;
        let (trust_policy, trust_store) = match self.trust {
            Some((policy, store)) => (policy, Some(store)),
            None => (TrustPolicy::All, None),
        };
        let decision_log = match self.decision_log {
            Some(chosen) => chosen,
            None => DecisionLog::from_env(
                &self.project_dir,
                crate::locations::account_home().as_deref(),
            )
            .map(Arc::new),
        };
        let runner = Runner {
            snapshot: std::sync::RwLock::default(),
            trust_policy,
            trust_store,
            paths,
            observer: self.observer,
            fn_hooks,
            spawner,
            project_dir: self.project_dir,
            background: Mutex::new(JoinSet::new()),
            agent_env: self.agent_env,
            protected: std::sync::OnceLock::new(),
            decision_log,
            #[cfg(feature = "otel")]
            telemetry: crate::telemetry::from_env(),
            session_env: match self.session_env_root {
                Some(root) => SessionEnv::under(root),
                None => SessionEnv::default_root(),
            },
        };
        let snapshot = Snapshot {
            config_errors: errors,
            ..runner.assess(hooks)
        };
        *crate::agent::sync::write(&runner.snapshot) = Arc::new(snapshot);
        Ok(runner)
    }
}

/// The in-process hooks as registered, with their matchers compiled and each numbered within
/// its event (`PreToolUse[fn 0]`).
fn compile_fn_hooks(pending: Vec<PendingFn>) -> Result<Vec<FnHookEntry>, RunnerError> {
    let mut fn_hooks = Vec::new();
    for PendingFn {
        event,
        matcher,
        name,
        hook,
        options,
    } in pending
    {
        let matcher = matcher
            .as_deref()
            .map(config::Matcher::new)
            .transpose()
            .map_err(|source| RunnerError::Matcher {
                name: name.clone(),
                source,
            })?
            .map(config::Matcher::into_regex);
        let mut entry = FnHookEntry::new(event, matcher, &name, hook);
        entry.set_index(
            fn_hooks
                .iter()
                .filter(|f: &&FnHookEntry| f.event() == event)
                .count(),
        );
        entry.timeout = options.timeout;
        entry.on_error = options.on_error;
        fn_hooks.push(entry);
    }
    Ok(fn_hooks)
}
