//! [`Runner`]: fires an event and implements the agent's [`ToolHooks`](crate::agent::ToolHooks) over that.
//!
//! [`Runner::fire`] is the one generic path for every event, and reads as its steps:
//! **select** the hooks of the event that match its tool (configured, then in-process),
//! **gate** each by the trust policy (`trust::gate`), **spawn** it through the [`Spawner`]
//! (or call the in-process function, which answers like a process), **judge** its exit
//! status and output with the decision table (`decision::judge`, the only place that
//! decides), and **fold** the judgements into the event's report, stopping at the first
//! block (PreToolUse) or force (Stop); a call the hooks let through is then judged by the
//! protected-state guard (`protect`: hookhost's own state is off-limits to the agent). What
//! differs between events is data
//! (`Event::class`, the table in `judge/`).
//!
//! A runner is built once by [`RunnerBuilder`] (config files or explicit hooks, a spawner,
//! the trust policy, in-process hooks, an observer) and is immutable afterwards, except for
//! [`Runner::reload`], which swaps the config snapshot whole.
//!
//! Where each step is: composing a runner (`builder.rs`), firing an event and folding its
//! hooks' effects (`fire.rs`), gating, running and judging one hook (`step.rs`), async hooks
//! (`background.rs`), and the agent's [`ToolHooks`](crate::agent::ToolHooks) calls
//! (`tool_hooks.rs`).

mod background;
mod builder;
mod fire;
mod log;
mod once;
mod rewake;
mod sandboxing;
mod step;
mod tool_hooks;

pub use builder::{FnOptions, RunnerBuilder, RunnerError};

use super::config::{self, ConfigError, ConfigErrors, ConfigPaths, HookSet};
use super::inprocess::FnHookEntry;
use super::report::{EventReport, HookRecord};
use super::spawner::Spawner;
use super::trust::{ScriptPins, TrustChange, TrustPolicy, TrustStore};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tokio::task::JoinSet;

/// The config in force and its trust state; swapped whole by `reload`.
#[derive(Debug, Default)]
struct Snapshot {
    hooks: Arc<HookSet>,
    /// The untrusted project hooks.
    untrusted: HashSet<config::HookId>,
    changes: Vec<TrustChange>,
    /// Trusted modules and the SHA-256 their bytes must have when they run.
    module_pins: BTreeMap<PathBuf, String>,
    /// Trusted scripts and their SHA-256, re-checked before each run.
    script_pins: ScriptPins,
    /// Problems of the files this snapshot was loaded from (lenient loading only).
    config_errors: Vec<ConfigError>,
}

/// Called with every event's report.
pub type ReportObserver = Arc<dyn Fn(&EventReport) + Send + Sync>;

/// Runs the configured hooks of a project. Cheap to share: wrap it in an `Arc`.
pub struct Runner {
    /// A snapshot of the config taken at load; `reload` swaps it, events in flight keep
    /// the snapshot they started with.
    snapshot: std::sync::RwLock<Arc<Snapshot>>,
    trust_policy: TrustPolicy,
    trust_store: Option<TrustStore>,
    /// Where the config came from, for `reload`.
    paths: Option<ConfigPaths>,
    observer: Option<ReportObserver>,
    fn_hooks: Vec<FnHookEntry>,
    spawner: Arc<dyn Spawner>,
    project_dir: PathBuf,
    background: Mutex<JoinSet<HookRecord>>,
    /// The variables the agent that started hookhost set for it (`hookhost hook --for X`).
    agent_env: Option<crate::translate::AgentEnv>,
    /// Where SessionStart hooks get their `CLAUDE_ENV_FILE`.
    session_env: crate::session_env::SessionEnv,
    /// hookhost's own state and the agents' wiring, denied to tool calls (`protect`); made
    /// at the first event that judges a call.
    protected: std::sync::OnceLock<Arc<crate::protect::Protected>>,
    /// Where each event's record is appended; `None`: no log.
    decision_log: Option<Arc<crate::decision_log::DecisionLog>>,
    /// Where each event's spans go (`OTEL_EXPORTER_OTLP_*`); `None`: no spans.
    #[cfg(feature = "otel")]
    telemetry: Option<Arc<crate::telemetry::Telemetry>>,
}

impl Runner {
    /// A builder for a runner of `project_dir` (see [`RunnerBuilder`] for its defaults).
    pub fn builder(project_dir: impl AsRef<Path>) -> RunnerBuilder {
        RunnerBuilder::new(project_dir.as_ref())
    }

    /// Loads the project's and the user's hooks, with the real spawners and every hook
    /// trusted: `Runner::builder(project_dir).build()`.
    pub fn load(project_dir: impl AsRef<Path>) -> Result<Self, RunnerError> {
        Self::builder(project_dir).build()
    }

    /// Re-reads the config files. The config is a snapshot taken at load: editing
    /// hooks.json changes nothing until `reload`. On error the old snapshot stays in force.
    pub fn reload(&self) -> Result<(), ConfigErrors> {
        let Some(paths) = &self.paths else {
            return Ok(());
        };
        let fresh = config::load(paths)?;
        let snapshot = self.assess(fresh);
        *crate::agent::sync::write(&self.snapshot) = Arc::new(snapshot);
        Ok(())
    }

    /// What is untrusted in the current config, file by file.
    pub fn untrusted(&self) -> Vec<TrustChange> {
        self.current().changes.clone()
    }

    /// The current config snapshot.
    pub fn hooks(&self) -> Arc<HookSet> {
        self.current().hooks.clone()
    }

    /// The project directory hooks run against.
    pub fn project_dir(&self) -> &Path {
        &self.project_dir
    }

    /// The trust policy in force.
    pub fn trust_policy(&self) -> TrustPolicy {
        self.trust_policy
    }

    fn assess(&self, hooks: HookSet) -> Snapshot {
        let Some(store) = &self.trust_store else {
            return Snapshot {
                hooks: Arc::new(hooks),
                ..Snapshot::default()
            };
        };
        let paths = self
            .paths
            .clone()
            .unwrap_or_else(|| ConfigPaths::with_home(&self.project_dir, None));
        let a = store.assess(&paths, &hooks);
        Snapshot {
            hooks: Arc::new(hooks),
            untrusted: a.untrusted,
            changes: a.changes,
            module_pins: a.module_pins,
            script_pins: a.script_pins,
            config_errors: Vec::new(),
        }
    }

    /// The protected-state guard of this runner: the places under its home (the config's,
    /// else the account's), the managed files in force, the project's own.
    pub fn protected(&self) -> Arc<crate::protect::Protected> {
        self.protected
            .get_or_init(|| {
                // The standard managed files always, and the ones in force.
                let mut managed = vec![
                    PathBuf::from(config::MANAGED_CONFIG),
                    PathBuf::from(config::CLAUDE_MANAGED_SETTINGS),
                ];
                let home = match &self.paths {
                    Some(p) => {
                        managed
                            .extend(p.managed_file.iter().chain(&p.claude_managed_file).cloned());
                        p.home.clone()
                    }
                    None => crate::locations::account_home(),
                };
                Arc::new(crate::protect::Protected::for_runner(
                    &self.project_dir,
                    home.as_deref(),
                    &managed,
                ))
            })
            .clone()
    }

    fn current(&self) -> Arc<Snapshot> {
        crate::agent::sync::read(&self.snapshot).clone()
    }
}

#[cfg(test)]
mod tests;
