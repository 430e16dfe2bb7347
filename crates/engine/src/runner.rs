//! [`Runner`]: fires an event and implements the agent's [`ToolHooks`] over that.
//!
//! [`Runner::fire`] is the one generic path for every event, and reads as its steps:
//! **select** the hooks of the event that match its tool (configured, then in-process),
//! **gate** each by the trust policy (`trust::gate`), **spawn** it through the [`Spawner`]
//! (or call the in-process function, which answers like a process), **judge** its exit
//! status and output with the decision table (`decision::judge`, the only place that
//! decides), and **fold** the judgements into the event's report, stopping at the first
//! block (PreToolUse) or force (Stop). What differs between events is data
//! (`Event::class`, the table in `decision.rs`).
//!
//! A runner is built once by [`RunnerBuilder`] (config files or explicit hooks, a spawner,
//! the trust policy, in-process hooks, an observer) and is immutable afterwards, except for
//! [`Runner::reload`], which swaps the config snapshot whole.

use super::config::{
    self, ConfigError, ConfigErrors, ConfigPaths, Handler, Hook, HookSet, ModuleSource, Scope,
};
use super::decision::{Effects, HookFacts, Judgement, Outcome, Verdict, judge};
use super::dialect::{self, Dialect};
use super::event::{Event, EventClass};
use super::inprocess::{FnHook, FnHookEntry};
use super::payload::Payload;
use super::report::{Decision, EventReport, HookRecord, log_record, record, record_fn};
use super::spawner::{ExitStatus, HookSpawner, SpawnOutput, SpawnRequest, Spawner};
use super::trust::{self, Gate, ScriptPins, TrustChange, TrustLevel, TrustPolicy, TrustStore};
use crate::agent::{HookContext, HookVerdict, ToolHooks};
use async_trait::async_trait;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
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

/// Async hook records kept for `wait_async` before finished ones are dropped.
const ASYNC_RECORDS_KEPT: usize = 256;

/// Called with every event's report.
pub type ReportObserver = Arc<dyn Fn(&EventReport) + Send + Sync>;

/// Where a runner's hooks come from.
enum Source {
    /// Load the config files (strictly: any problem is an error).
    Files(ConfigPaths),
    /// Load the config files; a broken file does not stop the others (see
    /// [`RunnerBuilder::lenient`]).
    FilesLenient(ConfigPaths),
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
    fn new(project_dir: &Path) -> Self {
        RunnerBuilder {
            project_dir: project_dir.to_path_buf(),
            source: Source::Files(ConfigPaths::for_project(project_dir)),
            spawner: None,
            trust: None,
            fn_hooks: Vec::new(),
            observer: None,
        }
    }

    /// Read the config from these paths (e.g. another home directory) instead of the
    /// standard ones for the project.
    pub fn config_paths(mut self, paths: ConfigPaths) -> Self {
        self.source = match self.source {
            Source::FilesLenient(_) => Source::FilesLenient(paths),
            _ => Source::Files(paths),
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
    /// closed) unless it is the untrusted project file under `skip`. What `hookhost run`
    /// uses, so that a typo in a project's hooks.json never silences the user's global
    /// guards.
    pub fn lenient(mut self) -> Self {
        if let Source::Files(paths) = self.source {
            self.source = Source::FilesLenient(paths);
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

    /// Loads what it must and freezes the runner.
    pub fn build(self) -> Result<Runner, RunnerError> {
        let (hooks, errors, paths) = match self.source {
            Source::Files(paths) => (config::load(&paths)?, Vec::new(), Some(paths)),
            Source::FilesLenient(paths) => {
                let (hooks, errors) = config::load_lenient(&paths);
                (hooks, errors, Some(paths))
            }
            Source::Hooks(hooks) => (hooks, Vec::new(), None),
        };
        let spawner = match self.spawner {
            Some(s) => s,
            None => Arc::new(HookSpawner::new()),
        };
        let mut fn_hooks = Vec::new();
        for PendingFn {
            event,
            matcher,
            name,
            hook,
            options,
        } in self.fn_hooks
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
        let (trust_policy, trust_store) = match self.trust {
            Some((policy, store)) => (policy, Some(store)),
            None => (TrustPolicy::All, None),
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
        };
        let snapshot = Snapshot {
            config_errors: errors,
            ..runner.assess(hooks)
        };
        *crate::agent::sync::write(&runner.snapshot) = Arc::new(snapshot);
        Ok(runner)
    }
}

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

    fn current(&self) -> Arc<Snapshot> {
        crate::agent::sync::read(&self.snapshot).clone()
    }

    /// Fires one event: runs its matching hooks in order and returns the decision.
    ///
    /// Hooks run by rank (managed, the user's, the project's; in-process last), each seeing
    /// the arguments earlier hooks left. On PreToolUse, when a hook rewrote the call, every
    /// hook that judged other arguments before the last rewrite (but the one that made the
    /// final arguments) runs once more on the final ones, and only a block counts then: no hook of a lower rank can get a call past a
    /// guard of a higher rank, and no hook runs more than twice per event.
    pub async fn fire(&self, mut payload: Payload) -> EventReport {
        let event = payload.event();
        let class = event.class();
        let mut report = EventReport::new(event);
        let original_args = payload.tool_args().cloned();
        let snapshot = self.current();
        let steps = self.select(&snapshot, &payload);
        let mut effects = Effects::pass();
        // Blocking events: each synchronous hook that ran, with how many rewrites it had seen
        // (its arguments are the final ones when that is every rewrite).
        let mut judged: Vec<(usize, usize)> = Vec::new();
        let mut rewrites = 0;
        // The hook whose rewrite made the final arguments: it is not asked about them again.
        let mut last_rewriter = None;
        let mut decided = false;
        for (i, step) in steps.iter().enumerate() {
            let Some((record, judgement)) = self
                .run_step(step, &payload, &snapshot, &mut report, false)
                .await
            else {
                continue;
            };
            if record.outcome != Outcome::Skipped && class == EventClass::Blocking {
                judged.push((i, rewrites));
            }
            log_record(event, &record);
            report.hooks.push(record);
            let folded = fold(event, &mut effects, &mut payload, judgement.effects);
            if folded.rewrote {
                rewrites += 1;
                last_rewriter = Some(i);
            }
            decided = folded.decides;
            if decided {
                break;
            }
        }
        if !decided && rewrites > 0 {
            // The second pass: the final call, judged by every hook that judged another.
            let stale = judged
                .into_iter()
                .filter(|&(i, seen)| seen < rewrites && Some(i) != last_rewriter);
            for (i, _) in stale {
                let Some((record, judgement)) = self
                    .run_step(&steps[i], &payload, &snapshot, &mut report, true)
                    .await
                else {
                    continue;
                };
                log_record(event, &record);
                report.hooks.push(record);
                if fold(event, &mut effects, &mut payload, judgement.effects).decides {
                    break;
                }
            }
        }
        if effects.verdict != Verdict::Pass || payload.tool_args() == original_args.as_ref() {
            effects.updated_args = None;
        } else {
            effects.updated_args = payload.tool_args().cloned();
        }
        report.settle(effects);
        self.fail_closed_on_config_errors(&snapshot, &mut report);
        if let Some(observe) = &self.observer {
            observe(&report);
        }
        report
    }

    /// Gates, runs and judges one hook (`rejudge`: the second pass on a rewritten call).
    /// `None`: an async hook was started, which takes no part in the decision.
    async fn run_step(
        &self,
        step: &Step<'_>,
        payload: &Payload,
        snapshot: &Snapshot,
        report: &mut EventReport,
        rejudge: bool,
    ) -> Option<(HookRecord, Judgement)> {
        let event = payload.event();
        let hook = match step {
            Step::InProcess(entry) => {
                let output = entry.call(payload).await;
                let facts = HookFacts {
                    tool: payload.tool_name(),
                    args: payload.tool_args(),
                    rejudge,
                    ..entry.facts()
                };
                let judgement = judge(dialect::rules(Dialect::Native), &facts, &output);
                return Some((record_fn(entry, &output, &judgement), judgement));
            }
            Step::Configured(hook) => hook,
        };
        let untrusted = self.untrusted_now(snapshot, hook);
        if untrusted && !rejudge {
            report.untrusted.push(hook.id());
        }
        match trust::gate(self.trust_policy, untrusted, hook.handler.kind(), event) {
            gate @ (Gate::Skip | Gate::Block) => {
                tracing::warn!(hook = %hook.label(), command = %super::terminal_safe(hook.handler.display()), "untrusted project hook not run; review it and run `hookhost trust`");
                if hook.is_async {
                    return None;
                }
                let judgement = trust::not_run(hook, gate == Gate::Block);
                let out = SpawnOutput::bare(ExitStatus::SpawnFailed(String::new()), Duration::ZERO);
                Some((record(hook, &out, &judgement, false), judgement))
            }
            gate => {
                let level = match gate {
                    Gate::RunReduced => TrustLevel::Untrusted,
                    _ => TrustLevel::Trusted,
                };
                let request = self.request(hook, payload, snapshot, level);
                if hook.is_async {
                    self.start_async(hook.clone(), request, level);
                    return None;
                }
                let facts = HookFacts {
                    tool: payload.tool_name(),
                    args: payload.tool_args(),
                    rejudge,
                    ..facts(hook, request.timeout, level)
                };
                let (output, judgement) =
                    spawn_and_judge(&*self.spawner, hook, request, facts).await;
                let mut r = record(hook, &output, &judgement, false);
                r.rejudged = rejudge;
                Some((r, judgement))
            }
        }
    }

    /// Whether `hook` is an untrusted project hook now: untrusted when the runner was built
    /// (or last reloaded), or a trusted shell hook whose script changed since `hookhost
    /// trust` (re-checked at every run: long-lived runners see the edit too).
    fn untrusted_now(&self, snapshot: &Snapshot, hook: &Hook) -> bool {
        if hook.scope != Scope::Project || self.trust_store.is_none() {
            return false;
        }
        if snapshot.untrusted.contains(&hook.id()) {
            return true;
        }
        match &hook.handler {
            Handler::Shell { command } => match snapshot.script_pins.still_hold(command, &hook.cwd)
            {
                Ok(()) => false,
                Err(script) => {
                    tracing::warn!(hook = %hook.label(), script = %script.display(), "a script of a trusted project hook changed since `hookhost trust`; the hook is untrusted until it is reviewed again");
                    true
                }
            },
            _ => false,
        }
    }

    /// The hooks of the payload's event that match its tool: configured ones in run order,
    /// then in-process ones in registration order.
    fn select<'a>(&'a self, snapshot: &'a Snapshot, payload: &Payload) -> Vec<Step<'a>> {
        let event = payload.event();
        let tool = payload.tool_name();
        // What a `match` is matched against: the tool name, or for other agents' hooks the
        // `source` of SessionStart and the `trigger` of PreCompact.
        let subject = match event {
            Event::SessionStart => payload.get("source").and_then(Value::as_str),
            Event::PreCompact => payload.get("trigger").and_then(Value::as_str),
            _ => tool,
        };
        let mut steps: Vec<Step<'_>> = snapshot
            .hooks
            .matching(event, subject)
            .cloned()
            .map(Step::Configured)
            .collect();
        steps.extend(
            self.fn_hooks
                .iter()
                .filter(|f| f.applies(event, tool))
                .map(Step::InProcess),
        );
        steps
    }

    /// A broken config file, on an event whose hooks can block, blocks the call when
    /// nothing else did (fail closed: the guard that could not be read might have).
    fn fail_closed_on_config_errors(&self, snapshot: &Snapshot, report: &mut EventReport) {
        if snapshot.config_errors.is_empty() {
            return;
        }
        report.config_errors = snapshot.config_errors.clone();
        if report.event.class() != EventClass::Blocking || report.decision != Decision::Pass {
            return;
        }
        let failing: Vec<&ConfigError> = snapshot
            .config_errors
            .iter()
            .filter(|e| !self.config_error_is_contained(e))
            .collect();
        if let Some(first) = failing.first() {
            report.decision = Decision::Block;
            report.reason = Some(format!(
                "the hook configuration is broken ({first}{}); blocking to fail closed until it is fixed (`hookhost check` lists every problem)",
                match failing.len() {
                    1 => String::new(),
                    n => format!(", and {} more", n - 1),
                }
            ));
        }
    }

    /// Whether a config error is in a file whose hooks the trust policy would not run
    /// anyway (the project file under `skip`): then it warns instead of blocking.
    fn config_error_is_contained(&self, e: &ConfigError) -> bool {
        self.trust_policy == TrustPolicy::Skip
            && self
                .paths
                .as_ref()
                .is_some_and(|p| p.project_file == e.file)
    }

    /// Waits for every async hook started so far (each bounded by its own timeout) and
    /// returns their records (of the last 256 or so: older finished ones are dropped, having
    /// been logged, so an agent that never calls this does not accumulate them).
    pub async fn wait_async(&self) -> Vec<HookRecord> {
        let mut set = std::mem::take(&mut *crate::agent::sync::lock(&self.background));
        let mut records = Vec::new();
        while let Some(r) = set.join_next().await {
            if let Ok(r) = r {
                records.push(r);
            }
        }
        records
    }

    /// What the spawner gets for `hook`: a trusted project module is pinned to the hash it
    /// was trusted with; an untrusted one under a containing policy gets the minimum grants
    /// (`trust::reduce_request`).
    fn request(
        &self,
        hook: &Hook,
        payload: &Payload,
        snapshot: &Snapshot,
        level: TrustLevel,
    ) -> SpawnRequest {
        let module_sha256 = match &hook.handler {
            Handler::Wasm {
                module: ModuleSource::File(module),
                ..
            } if hook.scope == Scope::Project => snapshot.module_pins.get(module).cloned(),
            _ => None,
        };
        let mut request = SpawnRequest {
            event: hook.event,
            handler: hook.handler.clone(),
            cwd: hook.cwd.clone(),
            project_dir: self.project_dir.clone(),
            // The payload and environment of the hook's dialect (native: as is).
            stdin: dialect::render(hook.dialect, payload),
            env: dialect::env(hook.dialect, &self.project_dir),
            timeout: hook.timeout,
            module_sha256,
            untrusted: false,
        };
        if level == TrustLevel::Untrusted {
            trust::reduce_request(&mut request);
        }
        // A hook package runs from the store, whoever configured it and however trusted:
        // its bytes must hash to the digest it is pinned by.
        if let Handler::Wasm {
            module: ModuleSource::Package(package),
            ..
        } = &hook.handler
        {
            request.module_sha256 = Some(package.digest().hex().to_string());
        }
        request
    }

    /// Fire-and-forget: never delays or changes the decision; failures are logged.
    fn start_async(&self, hook: Arc<Hook>, request: SpawnRequest, level: TrustLevel) {
        let spawner = self.spawner.clone();
        let event = hook.event;
        let mut set = crate::agent::sync::lock(&self.background);
        // A long-lived agent may never call `wait_async`: beyond a bound, drop the records
        // of finished hooks (they were logged when they ended) so memory stays flat.
        if set.len() >= ASYNC_RECORDS_KEPT {
            while set.try_join_next().is_some() {}
        }
        set.spawn(async move {
            let facts = facts(&hook, request.timeout, level);
            let (output, judgement) = spawn_and_judge(&*spawner, &hook, request, facts).await;
            let record = record(&hook, &output, &judgement, true);
            log_record(event, &record);
            record
        });
    }
}

/// Spawns one configured hook and judges what it did (under the trust level in `facts`).
async fn spawn_and_judge(
    spawner: &dyn Spawner,
    hook: &Hook,
    request: SpawnRequest,
    mut facts: HookFacts<'_>,
) -> (SpawnOutput, Judgement) {
    let mut output = spawner.spawn(request).await;
    explain_package_failure(hook, &mut output);
    facts.hint = shell_failure_hint(hook, &output);
    let judgement = judge(dialect::rules(hook.dialect), &facts, &output);
    (output, judgement)
}

/// One hook to run for an event: configured (shell/wasm/http) or registered in-process.
enum Step<'a> {
    Configured(Arc<Hook>),
    InProcess(&'a FnHookEntry),
}

/// What the decision table needs to know of `hook`, run with `timeout` (its own, or the
/// shorter one trust imposed) at trust `level`.
fn facts(hook: &Hook, timeout: Duration, level: TrustLevel) -> HookFacts<'static> {
    HookFacts {
        trust: level,
        ..HookFacts::new(
            hook.id(),
            hook.handler.kind(),
            hook.on_error,
            timeout.as_millis(),
        )
    }
}

/// A hook package that could not start because its store copy is missing or damaged: say
/// so and how to restore it (running never downloads anything).
fn explain_package_failure(hook: &Hook, out: &mut SpawnOutput) {
    let (
        Handler::Wasm {
            module: ModuleSource::Package(package),
            ..
        },
        ExitStatus::SpawnFailed(message),
    ) = (&hook.handler, &mut out.status)
    else {
        return;
    };
    // Intact bytes that failed for another reason (an invalid module, the memory cap)
    // keep the spawner's message.
    if let Err(e) = package.store().verify(package.digest()) {
        *message = e.to_string();
    }
}

/// Why a shell hook exited 126/127 (the shell could not run it) and how to fix it, as
/// `hookhost check` would say.
fn shell_failure_hint(hook: &Hook, out: &SpawnOutput) -> Option<String> {
    match (&hook.handler, &out.status) {
        (Handler::Shell { command }, ExitStatus::Exited(126 | 127)) => {
            super::preflight::shell_program_problem(command, &hook.cwd)
        }
        _ => None,
    }
}

/// What folding one hook's effects did.
struct Folded {
    /// They decide the event (a block on PreToolUse or a prompt, a force on Stop, a stop):
    /// no later hook runs.
    decides: bool,
    /// They changed the tool arguments.
    rewrote: bool,
}

/// Folds one hook's effects into the event's and the payload later hooks see.
fn fold(event: Event, acc: &mut Effects, payload: &mut Payload, e: Effects) -> Folded {
    let Effects {
        verdict,
        stop,
        updated_args,
        ask,
        additional_context,
        feedback,
        system_messages,
    } = e;
    let mut rewrote = false;
    if let Some(args) = updated_args
        && payload.tool_args() != Some(&args)
    {
        payload.set_tool_args(args);
        rewrote = true;
    }
    acc.ask |= ask;
    acc.additional_context.extend(additional_context);
    acc.system_messages.extend(system_messages);
    acc.feedback.extend(feedback);
    let decides = match &verdict {
        // Another agent's hook can block a prompt (exit 2 / `decision: "block"`).
        Verdict::Block(_) => {
            event.class() == EventClass::Blocking || event == Event::UserPromptSubmit
        }
        Verdict::Force(_) => event.class() == EventClass::Forcing,
        Verdict::Pass => false,
    };
    if decides {
        acc.verdict = verdict;
    }
    // `continue: false`: the agent stops; no later hook runs.
    let stops = stop.is_some();
    if stops {
        acc.stop = stop;
    }
    Folded {
        decides: decides || stops,
        rewrote,
    }
}

fn payload_for(cx: &HookContext, mut p: Payload) -> Payload {
    if cx.is_subagent {
        p.mark_subagent();
    }
    p
}

#[async_trait]
impl ToolHooks for Runner {
    async fn session_start(&self, cx: &HookContext, source: &str) -> HookVerdict {
        let p = Payload::session_start(&cx.cwd, &cx.session_id, source);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn user_prompt_submit(&self, cx: &HookContext, prompt: &str) -> HookVerdict {
        let p = Payload::user_prompt_submit(&cx.cwd, &cx.session_id, prompt);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn pre_tool_use(&self, cx: &HookContext, tool: &str, args: &Value) -> HookVerdict {
        let p = Payload::pre_tool_use(&cx.cwd, &cx.session_id, tool, args.clone());
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn post_tool_use(
        &self,
        cx: &HookContext,
        tool: &str,
        args: &Value,
        result: &Value,
        is_error: bool,
    ) -> HookVerdict {
        let p = Payload::post_tool_use(
            &cx.cwd,
            &cx.session_id,
            tool,
            args.clone(),
            result.clone(),
            is_error,
        );
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn pre_compact(&self, cx: &HookContext, trigger: &str) -> HookVerdict {
        let p = Payload::pre_compact(&cx.cwd, &cx.session_id, trigger);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn stop(&self, cx: &HookContext, active: bool) -> HookVerdict {
        let p = Payload::stop(Event::Stop, &cx.cwd, &cx.session_id, active);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn subagent_stop(&self, cx: &HookContext, active: bool) -> HookVerdict {
        let p = Payload::stop(Event::SubagentStop, &cx.cwd, &cx.session_id, active);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn session_end(&self, cx: &HookContext, reason: &str) -> HookVerdict {
        let p = Payload::session_end(&cx.cwd, &cx.session_id, reason);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
}

#[cfg(test)]
#[path = "runner_tests.rs"]
mod tests;
