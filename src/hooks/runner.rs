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

use super::config::{self, ConfigError, ConfigErrors, ConfigPaths, Handler, Hook, HookSet, Scope};
use super::decision::{HookFacts, Judgement, Verdict, judge};
use super::dialect::{self, Dialect};
use super::event::{Event, EventClass};
use super::inprocess::{FnHook, FnHookEntry};
use super::payload::Payload;
use super::report::{
    Decision, EventReport, HookRecord, StopRequest, log_record, record, record_fn,
};
use super::spawner::{ExitStatus, HookSpawner, SpawnOutput, SpawnRequest, Spawner};
use super::trust::{self, Gate, TrustChange, TrustPolicy, TrustStore};
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
    /// The WebAssembly engine could not be set up.
    #[error("cannot set up the WebAssembly engine: {0}")]
    Wasm(#[from] super::spawner::wasm::WasmError),
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
    /// On a panic on PreToolUse: warn (default) or block.
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
            None => Arc::new(HookSpawner::new()?),
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
        *runner.snapshot.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(snapshot);
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
        *self.snapshot.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(snapshot);
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
            config_errors: Vec::new(),
        }
    }

    fn current(&self) -> Arc<Snapshot> {
        self.snapshot
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Fires one event: runs its matching hooks in order and returns the decision.
    pub async fn fire(&self, mut payload: Payload) -> EventReport {
        let event = payload.event();
        let class = event.class();
        let mut report = EventReport::new(event);
        let original_args = payload.tool_args().cloned();
        let snapshot = self.current();

        for step in self.select(&snapshot, &payload) {
            let (record, judgement) = match step {
                Step::Configured(hook) => {
                    let untrusted = is_untrusted(&snapshot, &hook);
                    if untrusted {
                        report.untrusted.push(hook.id());
                    }
                    match trust::gate(self.trust_policy, untrusted, hook.handler.kind(), event) {
                        gate @ (Gate::Skip | Gate::Block) => {
                            tracing::warn!(hook = %hook.label(), command = hook.handler.display(), "untrusted project hook not run; review it and run `hookhost trust`");
                            if hook.is_async {
                                continue;
                            }
                            let judgement = trust::not_run(&hook, gate == Gate::Block);
                            let out = SpawnOutput::bare(
                                ExitStatus::SpawnFailed(String::new()),
                                Duration::ZERO,
                            );
                            (record(&hook, &out, &judgement, false), judgement)
                        }
                        gate => {
                            let reduced = gate == Gate::RunReduced;
                            let request = self.request(&hook, &payload, &snapshot, reduced);
                            if hook.is_async {
                                self.start_async(hook, request, reduced);
                                continue;
                            }
                            let (output, mut judgement) =
                                spawn_and_judge(&*self.spawner, &hook, request, reduced).await;
                            in_event_terms(hook.dialect, &payload, &mut judgement);
                            (record(&hook, &output, &judgement, false), judgement)
                        }
                    }
                }
                Step::InProcess(entry) => {
                    let output = entry.call(&payload).await;
                    let judgement = judge(&entry.facts(), &output);
                    (record_fn(entry, &output, &judgement), judgement)
                }
            };
            log_record(event, &record);
            let verdict = judgement.verdict.clone();
            let stop = judgement.stop.clone();
            fold(&mut report, &mut payload, judgement);
            report.hooks.push(record);
            if let Some(reason) = stop {
                // `continue: false`: the agent stops; no later hook runs.
                report.stop = Some(StopRequest { reason });
                break;
            }
            match verdict {
                // Another agent's hook can block a prompt (exit 2 / `decision: "block"`).
                Verdict::Block(reason)
                    if class == EventClass::Blocking || event == Event::UserPromptSubmit =>
                {
                    report.decision = Decision::Block;
                    report.reason = Some(reason);
                    break;
                }
                Verdict::Force(message) if class == EventClass::Forcing => {
                    report.decision = Decision::Force;
                    report.reason = Some(message);
                    break;
                }
                _ => {}
            }
        }
        self.fail_closed_on_config_errors(&snapshot, &mut report);
        if report.decision != Decision::Block && payload.tool_args().cloned() != original_args {
            report.updated_args = payload.tool_args().cloned();
        }
        if let Some(observe) = &self.observer {
            observe(&report);
        }
        report
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
        let mut set =
            std::mem::take(&mut *self.background.lock().unwrap_or_else(|p| p.into_inner()));
        let mut records = Vec::new();
        while let Some(r) = set.join_next().await {
            if let Ok(r) = r {
                records.push(r);
            }
        }
        records
    }

    /// What the spawner gets for `hook`: a trusted project module is pinned to the hash it
    /// was trusted with; an untrusted one under a containing policy (`reduced`) gets the
    /// minimum grants (`trust::reduce_request`).
    fn request(
        &self,
        hook: &Hook,
        payload: &Payload,
        snapshot: &Snapshot,
        reduced: bool,
    ) -> SpawnRequest {
        let module_sha256 = match &hook.handler {
            Handler::Wasm { module, .. } if hook.scope == Scope::Project => {
                snapshot.module_pins.get(module.as_path()).cloned()
            }
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
        if reduced {
            trust::reduce_request(&mut request);
        }
        // A hook package runs from the store, whoever configured it and however trusted:
        // its bytes must hash to the digest its store file is named by.
        if let Handler::Wasm { module, .. } = &hook.handler
            && let Some(digest) = crate::package::store::digest_of_path(module)
        {
            request.module_sha256 = Some(digest.hex().to_string());
        }
        request
    }

    /// Fire-and-forget: never delays or changes the decision; failures are logged.
    fn start_async(&self, hook: Arc<Hook>, request: SpawnRequest, reduced: bool) {
        let spawner = self.spawner.clone();
        let event = hook.event;
        let mut set = self.background.lock().unwrap_or_else(|p| p.into_inner());
        // A long-lived agent may never call `wait_async`: beyond a bound, drop the records
        // of finished hooks (they were logged when they ended) so memory stays flat.
        if set.len() >= ASYNC_RECORDS_KEPT {
            while set.try_join_next().is_some() {}
        }
        set.spawn(async move {
            let (output, judgement) = spawn_and_judge(&*spawner, &hook, request, reduced).await;
            let record = record(&hook, &output, &judgement, true);
            log_record(event, &record);
            record
        });
    }
}

/// Spawns one configured hook and judges what it did (the trust reduction applied).
async fn spawn_and_judge(
    spawner: &dyn Spawner,
    hook: &Hook,
    request: SpawnRequest,
    reduced: bool,
) -> (SpawnOutput, Judgement) {
    let facts = facts(hook, request.timeout);
    let mut output = spawner.spawn(request).await;
    explain_package_failure(hook, &mut output);
    let mut judgement = judge(&facts, &output);
    explain_shell_failure(hook, &output, &mut judgement);
    if reduced {
        trust::reduce_judgement(&hook.label(), &mut judgement);
    }
    (output, judgement)
}

/// One hook to run for an event: configured (shell/wasm/http) or registered in-process.
enum Step<'a> {
    Configured(Arc<Hook>),
    InProcess(&'a FnHookEntry),
}

/// What the decision table needs to know of `hook`, run with `timeout` (its own, or the
/// shorter one trust imposed).
fn facts(hook: &Hook, timeout: Duration) -> HookFacts {
    HookFacts {
        id: hook.id(),
        kind: hook.handler.kind(),
        on_error: hook.on_error,
        timeout_ms: timeout.as_millis(),
        dialect: hook.dialect,
    }
}

/// A rewrite from a hook of another dialect, in the event's terms: its argument keys mapped
/// back to the core's when the event carries a core tool name (`file_path` -> `path`), and
/// Gemini CLI's `tool_input` merged into the current arguments.
fn in_event_terms(d: Dialect, payload: &Payload, j: &mut Judgement) {
    if d == Dialect::Native {
        return;
    }
    let Some(updated) = j.updated_input.take() else {
        return;
    };
    let tool = payload.tool_name().unwrap_or_default();
    let mut updated = dialect::tools::input_to_event(d, tool, &updated);
    if std::mem::take(&mut j.merge_input)
        && let (Some(Value::Object(current)), Value::Object(patch)) =
            (payload.tool_args(), &updated)
    {
        let mut merged = current.clone();
        merged.extend(patch.clone());
        updated = Value::Object(merged);
    }
    j.updated_input = Some(updated);
}

/// Whether `hook` is an untrusted project hook.
fn is_untrusted(snapshot: &Snapshot, hook: &Hook) -> bool {
    hook.scope == Scope::Project && snapshot.untrusted.contains(&hook.id())
}

/// A hook package that could not start because its store copy is missing or damaged: say
/// so and how to restore it (running never downloads anything).
fn explain_package_failure(hook: &Hook, out: &mut SpawnOutput) {
    let (Handler::Wasm { module, .. }, ExitStatus::SpawnFailed(message)) =
        (&hook.handler, &mut out.status)
    else {
        return;
    };
    let Some(digest) = crate::package::store::digest_of_path(module) else {
        return;
    };
    let store = crate::package::Store::at(
        module
            .parent()
            .and_then(Path::parent)
            .unwrap_or(Path::new("/"))
            .to_path_buf(),
    );
    // Intact bytes that failed for another reason (an invalid module, the memory cap)
    // keep the spawner's message.
    if let Err(e) = store.verify(&digest) {
        *message = e.to_string();
    }
}

/// A shell hook that exited 126/127 (the shell could not run it): say why and how to fix
/// it, as `hookhost check` would.
fn explain_shell_failure(hook: &Hook, out: &SpawnOutput, j: &mut Judgement) {
    let (Handler::Shell { command }, ExitStatus::Exited(126 | 127)) = (&hook.handler, &out.status)
    else {
        return;
    };
    if let Some(why) = super::preflight::shell_program_problem(command, &hook.cwd) {
        if let Some(m) = &mut j.message {
            m.push_str(": ");
            m.push_str(&why);
        }
        if let Verdict::Block(reason) = &mut j.verdict {
            reason.push_str(" (");
            reason.push_str(&why);
            reason.push(')');
        }
    }
}

/// Folds one hook's judgement into the event report and the payload later hooks see.
fn fold(report: &mut EventReport, payload: &mut Payload, j: Judgement) {
    if let Some(args) = j.updated_input {
        payload.set_tool_args(args);
    }
    report.ask |= j.ask;
    report.additional_context.extend(j.additional_context);
    report.system_messages.extend(j.system_message);
    report.feedback.extend(j.feedback);
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
