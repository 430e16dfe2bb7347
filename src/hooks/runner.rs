//! [`Runner`]: fires an event — picks the matching hooks, runs them in declared order through
//! the [`Spawner`], folds their judgements into the event's decision — and implements the
//! agent's [`ToolHooks`] over that.
//!
//! This is the one generic path for every event; what differs between events is data
//! (`Event::class`, the decision table in `decision.rs`).

use super::config::{
    self, ConfigError, ConfigErrors, ConfigPaths, FsAccess, Handler, Hook, HookKind, HookSet, Scope,
};
use super::decision::{HookTraits, Judgement, Outcome, Verdict, judge};
use super::event::{Event, EventClass};
use super::inprocess::{FnHook, FnHookEntry};
use super::payload::Payload;
use super::spawner::{ExitStatus, HookSpawner, SpawnOutput, SpawnRequest, Spawner};
use super::trust::{TrustChange, TrustPolicy, TrustStore};
use crate::agent::{self, HookContext, HookVerdict, ToolHooks};
use async_trait::async_trait;
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::task::JoinSet;

/// The decision of an event (DESIGN §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    Pass,
    Block,
    Force,
}

/// What one hook did, as `run --json` reports it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HookRecord {
    /// `PreToolUse[0]`: the hook's event and index in its file.
    pub hook: String,
    pub source: Scope,
    pub command: String,
    pub kind: HookKind,
    pub outcome: Outcome,
    pub exit_code: Option<i32>,
    pub duration_ms: f64,
    pub stdout: String,
    pub stderr: String,
    pub truncated: bool,
    #[serde(rename = "async")]
    pub is_async: bool,
    /// Why the hook did not simply pass (exit code, timeout, spawn error, malformed JSON).
    pub message: Option<String>,
}

/// Everything that firing one event produced.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventReport {
    pub event: Event,
    pub decision: Decision,
    /// The block reason or the force message; `None` on pass.
    pub reason: Option<String>,
    /// PreToolUse: the final tool arguments when a hook rewrote them.
    pub updated_args: Option<Value>,
    /// PreToolUse: a hook asked for the permission prompt.
    pub ask: bool,
    pub additional_context: Vec<String>,
    pub system_messages: Vec<String>,
    /// Feedback for the model (PostToolUse exit-2 stderr, JSON blocks on observing events).
    pub feedback: Vec<String>,
    /// The hooks that ran, in order (async ones only once `Runner::wait_async` collected them).
    pub hooks: Vec<HookRecord>,
    /// Untrusted project hooks this event met (`Event[index]`), whatever the trust policy
    /// did with them; empty when no trust store is in use.
    pub untrusted: Vec<String>,
    /// Problems in the config files. The hooks of the valid files (and the valid hooks of a
    /// broken one) still ran; on PreToolUse a broken file blocks the call (fail closed: a
    /// guard in it may be the part that could not be read).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub config_errors: Vec<ConfigError>,
}

impl EventReport {
    fn new(event: Event) -> Self {
        EventReport {
            event,
            decision: Decision::Pass,
            reason: None,
            updated_args: None,
            ask: false,
            additional_context: Vec::new(),
            system_messages: Vec::new(),
            feedback: Vec::new(),
            hooks: Vec::new(),
            untrusted: Vec::new(),
            config_errors: Vec::new(),
        }
    }

    /// The agent-side view of this report.
    pub fn to_verdict(&self) -> HookVerdict {
        let reason = self.reason.clone().unwrap_or_default();
        HookVerdict {
            verdict: match self.decision {
                Decision::Pass => agent::Verdict::Pass,
                Decision::Block => agent::Verdict::Block(reason),
                Decision::Force => agent::Verdict::Force(reason),
            },
            updated_args: self.updated_args.clone(),
            ask: self.ask,
            additional_context: self.additional_context.clone(),
            feedback: self.feedback.clone(),
            system_messages: self.system_messages.clone(),
        }
    }
}

/// Could not build a Runner.
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    #[error(transparent)]
    Config(#[from] ConfigErrors),
    #[error("cannot set up the WebAssembly engine: {0}")]
    Wasm(#[from] super::spawner::wasm::WasmError),
}

/// The config in force and its trust state; swapped whole by `reload`.
#[derive(Debug, Default)]
struct Snapshot {
    hooks: Arc<HookSet>,
    /// Labels of untrusted project hooks.
    untrusted: std::collections::HashSet<String>,
    changes: Vec<TrustChange>,
    /// Trusted modules and the SHA-256 their bytes must have when they run.
    module_pins: std::collections::BTreeMap<PathBuf, String>,
    /// Problems of the files this snapshot was loaded from (lenient loading only).
    config_errors: Vec<ConfigError>,
}

/// What the trust policy lets an untrusted hook do.
enum Gate {
    Run,
    /// Run, but only a block counts (untrusted wasm under skip/block).
    RunReduced,
    Skip,
    /// Do not run; block the call (untrusted shell/http PreToolUse hook under block).
    Block,
}

/// The longest an untrusted wasm hook may run under the `skip` and `block` policies,
/// whatever its config asks for (its fuel is derived from this too).
pub const UNTRUSTED_TIMEOUT: Duration = Duration::from_secs(2);

/// Async hook records kept for `wait_async` before finished ones are dropped.
const ASYNC_RECORDS_KEPT: usize = 256;

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
}

impl Runner {
    /// A runner over `hooks` that runs them with `spawner`.
    pub fn new(hooks: HookSet, spawner: Arc<dyn Spawner>, project_dir: &Path) -> Self {
        Runner {
            snapshot: std::sync::RwLock::new(Arc::new(Snapshot {
                hooks: Arc::new(hooks),
                ..Snapshot::default()
            })),
            trust_policy: TrustPolicy::All,
            trust_store: None,
            paths: None,
            observer: None,
            fn_hooks: Vec::new(),
            spawner,
            project_dir: project_dir.to_path_buf(),
            background: Mutex::new(JoinSet::new()),
        }
    }

    /// Loads the project's and the user's hooks and the real spawners.
    pub fn load(project_dir: &Path) -> Result<Self, RunnerError> {
        Self::load_with(&ConfigPaths::for_project(project_dir), HookSpawner::new()?)
    }

    /// Loads the hooks from explicit config paths and runs them with `spawner`.
    pub fn load_with(paths: &ConfigPaths, spawner: HookSpawner) -> Result<Self, RunnerError> {
        let hooks = config::load(paths)?;
        let mut runner = Self::new(hooks, Arc::new(spawner), &paths.project_dir);
        runner.paths = Some(paths.clone());
        Ok(runner)
    }

    /// Loads like [`Runner::load_with`], but a broken file does not stop the others: the
    /// valid hooks run, every problem is in each report's `config_errors`, and on PreToolUse
    /// a broken file blocks the call (fail closed), unless it is an untrusted project file
    /// under the `skip` policy. What `hookhost run` uses, so that a typo in a project's
    /// hooks.json never silences the user's own global guards.
    pub fn load_lenient(paths: &ConfigPaths, spawner: HookSpawner) -> Self {
        let (hooks, errors) = config::load_lenient(paths);
        let mut runner = Self::new(hooks, Arc::new(spawner), &paths.project_dir);
        runner.paths = Some(paths.clone());
        runner.snapshot = std::sync::RwLock::new(Arc::new(Snapshot {
            config_errors: errors,
            ..runner.assess(runner.hooks().as_ref().clone())
        }));
        runner
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

    /// Applies a trust policy: project hooks whose config or wasm module is not recorded in
    /// `store` are untrusted (see `hooks::trust`). Without this call every hook is trusted.
    pub fn set_trust(&mut self, policy: TrustPolicy, store: TrustStore) {
        self.trust_policy = policy;
        self.trust_store = Some(store);
        let hooks = (*self.hooks()).clone();
        let errors = self.current().config_errors.clone();
        let snapshot = Snapshot {
            config_errors: errors,
            ..self.assess(hooks)
        };
        *self.snapshot.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(snapshot);
    }

    /// What is untrusted in the current config, file by file.
    pub fn untrusted(&self) -> Vec<TrustChange> {
        self.current().changes.clone()
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

    fn gate(&self, snapshot: &Snapshot, hook: &Hook) -> Gate {
        if !is_untrusted(snapshot, hook) {
            return Gate::Run;
        }
        match (self.trust_policy, hook.handler.kind()) {
            (TrustPolicy::All, _) => Gate::Run,
            (_, HookKind::Wasm) => Gate::RunReduced,
            (TrustPolicy::Block, _) if hook.event.class() == EventClass::Blocking => Gate::Block,
            _ => Gate::Skip,
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

    /// Registers an in-process hook for `event`; it runs after the configured hooks of that
    /// event, in registration order, and shows as kind `fn` named `name`. `matcher` is a regex
    /// on the tool name, matched against the whole name like a config `match`. The returned
    /// entry's `timeout` (default 10 s) and `on_error` can be adjusted.
    pub fn register(
        &mut self,
        event: Event,
        matcher: Option<&str>,
        name: &str,
        hook: Arc<dyn FnHook>,
    ) -> Result<&mut FnHookEntry, regex::Error> {
        let matcher = matcher
            .map(config::Matcher::new)
            .transpose()?
            .map(config::Matcher::into_regex);
        let mut entry = FnHookEntry::new(event, matcher, name, hook);
        entry.set_index(self.fn_hooks.iter().filter(|f| f.event() == event).count());
        self.fn_hooks.push(entry);
        Ok(self.fn_hooks.last_mut().expect("just pushed"))
    }

    /// Calls `observer` with every event's report (for traces such as `hookhost demo`).
    pub fn set_observer(&mut self, observer: ReportObserver) {
        self.observer = Some(observer);
    }

    /// The current config snapshot.
    pub fn hooks(&self) -> Arc<HookSet> {
        self.current().hooks.clone()
    }

    pub fn project_dir(&self) -> &Path {
        &self.project_dir
    }

    /// Fires one event: runs its matching hooks in order and returns the decision.
    pub async fn fire(&self, mut payload: Payload) -> EventReport {
        let event = payload.event();
        let class = event.class();
        let mut report = EventReport::new(event);
        let tool = payload.tool_name().map(str::to_string);
        let original_args = payload.tool_args().cloned();

        let snapshot = self.current();
        let configured = snapshot.hooks.matching(event, tool.as_deref()).cloned();
        let in_process = self
            .fn_hooks
            .iter()
            .filter(|f| f.applies(event, tool.as_deref()));
        let mut steps: Vec<Step<'_>> = configured.map(Step::Configured).collect();
        steps.extend(in_process.map(Step::InProcess));

        for step in steps {
            let (record, judgement) = match step {
                Step::Configured(hook) => {
                    let gate = self.gate(&snapshot, &hook);
                    if is_untrusted(&snapshot, &hook) {
                        report.untrusted.push(hook.label());
                    }
                    match gate {
                        Gate::Skip | Gate::Block => {
                            let (record, judgement) =
                                untrusted_outcome(&hook, matches!(gate, Gate::Block));
                            tracing::warn!(hook = %hook.label(), command = hook.handler.display(), "untrusted project hook not run; review it and run `hookhost trust`");
                            if hook.is_async {
                                continue;
                            }
                            (record, judgement)
                        }
                        _ if hook.is_async => {
                            let reduced = matches!(gate, Gate::RunReduced);
                            self.start_async(hook, &payload, &snapshot, reduced);
                            continue;
                        }
                        gate => {
                            let reduced = matches!(gate, Gate::RunReduced);
                            let request = self.request(&hook, &payload, &snapshot, reduced);
                            let traits = traits(&hook, request.timeout);
                            let output = self.spawner.spawn(request).await;
                            let mut judgement = judge(&traits, &output);
                            explain_shell_failure(&hook, &output, &mut judgement);
                            if reduced {
                                reduce_untrusted(&hook, &mut judgement);
                            }
                            (record(&hook, &output, &judgement, false), judgement)
                        }
                    }
                }
                Step::InProcess(entry) => entry.run(&payload).await,
            };
            log_record(event, &record);
            let verdict = judgement.verdict.clone();
            absorb(&mut report, &mut payload, judgement);
            report.hooks.push(record);
            match verdict {
                Verdict::Block(reason) if class == EventClass::Blocking => {
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
        if !snapshot.config_errors.is_empty() {
            report.config_errors = snapshot.config_errors.clone();
            if class == EventClass::Blocking && report.decision == Decision::Pass {
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
        }
        if report.decision != Decision::Block && payload.tool_args().cloned() != original_args {
            report.updated_args = payload.tool_args().cloned();
        }
        if let Some(observe) = &self.observer {
            observe(&report);
        }
        report
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

    /// What the spawner gets for `hook`. A trusted project module is pinned to the hash it
    /// was trusted with. An untrusted module under a containing policy (`reduced`) gets the
    /// minimum: no `fs: "write"` (read-only at most), no host environment, at most
    /// [`UNTRUSTED_TIMEOUT`] and the fuel that buys.
    fn request(
        &self,
        hook: &Hook,
        payload: &Payload,
        snapshot: &Snapshot,
        reduced: bool,
    ) -> SpawnRequest {
        let mut handler = hook.handler.clone();
        let mut timeout = hook.timeout;
        let mut module_sha256 = None;
        if let Handler::Wasm { module, limits, .. } = &mut handler {
            if reduced {
                if limits.fs == FsAccess::Write {
                    limits.fs = FsAccess::Read;
                }
                limits.env.clear();
                timeout = timeout.min(UNTRUSTED_TIMEOUT);
                limits.fuel = None;
            } else if hook.scope == Scope::Project {
                module_sha256 = snapshot.module_pins.get(module.as_path()).cloned();
            }
        }
        SpawnRequest {
            event: hook.event,
            handler,
            cwd: hook.cwd.clone(),
            project_dir: self.project_dir.clone(),
            stdin: payload.to_json_bytes(),
            timeout,
            module_sha256,
        }
    }

    /// Fire-and-forget: never delays or changes the decision; failures are logged.
    fn start_async(&self, hook: Arc<Hook>, payload: &Payload, snapshot: &Snapshot, reduced: bool) {
        let request = self.request(&hook, payload, snapshot, reduced);
        let spawner = self.spawner.clone();
        let event = hook.event;
        let mut set = self.background.lock().unwrap_or_else(|p| p.into_inner());
        // A long-lived agent may never call `wait_async`: beyond a bound, drop the records
        // of finished hooks (they were logged when they ended) so memory stays flat.
        if set.len() >= ASYNC_RECORDS_KEPT {
            while set.try_join_next().is_some() {}
        }
        let traits = traits(&hook, request.timeout);
        set.spawn(async move {
            let output = spawner.spawn(request).await;
            let judgement = judge(&traits, &output);
            let record = record(&hook, &output, &judgement, true);
            log_record(event, &record);
            record
        });
    }
}

/// One hook to run for an event: configured (shell/wasm/http) or registered in-process.
enum Step<'a> {
    Configured(Arc<Hook>),
    InProcess(&'a FnHookEntry),
}

/// What the decision table needs to know of `hook`, run with `timeout` (its own, or the
/// shorter one trust imposed).
fn traits(hook: &Hook, timeout: Duration) -> HookTraits {
    HookTraits {
        event: hook.event,
        kind: hook.handler.kind(),
        on_error: hook.on_error,
        label: hook.label(),
        timeout_ms: timeout.as_millis(),
    }
}

/// Whether `hook` is an untrusted project hook (no allocation when nothing is untrusted).
fn is_untrusted(snapshot: &Snapshot, hook: &Hook) -> bool {
    !snapshot.untrusted.is_empty()
        && hook.scope == Scope::Project
        && snapshot.untrusted.contains(&hook.label())
}

/// A skipped (or, under `block`, blocking) untrusted hook.
fn untrusted_outcome(hook: &Hook, block: bool) -> (HookRecord, Judgement) {
    let why = format!(
        "untrusted project hook {} ({}) was not run: review {} and run `hookhost trust`",
        hook.label(),
        hook.handler.display(),
        hook.file.display()
    );
    let judgement = Judgement {
        outcome: Some(if block {
            Outcome::Block
        } else {
            Outcome::Skipped
        }),
        verdict: if block {
            Verdict::Block(why.clone())
        } else {
            Verdict::None
        },
        message: Some(why),
        ..Judgement::default()
    };
    let out = SpawnOutput::bare(ExitStatus::SpawnFailed(String::new()), Duration::ZERO);
    (record(hook, &out, &judgement, hook.is_async), judgement)
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

/// An untrusted wasm hook may only pass or block: no rewritten input, no text for the
/// model or the user, no forced continuation, and a block carries a fixed reason (its own
/// text stays in the record for the user, never reaches the model).
fn reduce_untrusted(hook: &Hook, j: &mut Judgement) {
    if let Verdict::Block(_) = j.verdict {
        // Neither its text nor its command line (both the untrusted author's words) reach
        // the model.
        j.verdict = Verdict::Block(format!(
            "blocked by the untrusted project wasm hook {}; its own reason is withheld until you review it and run `hookhost trust`",
            hook.label()
        ));
    }
    let dropped = j.updated_input.take().is_some()
        | j.additional_context.take().is_some()
        | j.system_message.take().is_some()
        | j.feedback.take().is_some()
        | std::mem::take(&mut j.ask);
    if let Verdict::Force(_) = j.verdict {
        j.verdict = Verdict::None;
        j.outcome = Some(Outcome::Warn);
        j.message = Some("untrusted hook: its forced continuation was ignored".into());
    } else if dropped {
        j.message = Some("untrusted hook: only its block/pass decision was used".into());
    }
}

/// Applies one hook's judgement to the event report and the payload later hooks see.
fn absorb(report: &mut EventReport, payload: &mut Payload, j: Judgement) {
    if let Some(args) = j.updated_input {
        payload.set_tool_args(args);
    }
    report.ask |= j.ask;
    report.additional_context.extend(j.additional_context);
    report.system_messages.extend(j.system_message);
    report.feedback.extend(j.feedback);
}

pub(crate) fn record(hook: &Hook, out: &SpawnOutput, j: &Judgement, is_async: bool) -> HookRecord {
    HookRecord {
        hook: hook.label(),
        source: hook.scope,
        command: hook.handler.display().to_string(),
        kind: hook.handler.kind(),
        outcome: j.outcome.unwrap_or(Outcome::Pass),
        exit_code: match out.status {
            ExitStatus::Exited(c) => Some(c),
            _ => None,
        },
        duration_ms: duration_ms(out.duration),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        truncated: out.truncated,
        is_async,
        message: j.message.clone(),
    }
}

pub(crate) fn duration_ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

fn log_record(event: Event, r: &HookRecord) {
    match r.outcome {
        Outcome::Pass | Outcome::Block | Outcome::Force => tracing::info!(
            event = %event, hook = %r.hook, kind = r.kind.as_str(), outcome = r.outcome.as_str(),
            duration_ms = r.duration_ms, "hook ran"
        ),
        _ => tracing::warn!(
            event = %event, hook = %r.hook, kind = r.kind.as_str(), outcome = r.outcome.as_str(),
            duration_ms = r.duration_ms, message = r.message.as_deref().unwrap_or(""),
            stderr = %r.stderr.trim(), "hook did not pass"
        ),
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
