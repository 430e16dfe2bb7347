//! One hook of an event: **gate** it by the trust policy (`trust::gate`), **spawn** it
//! through the [`Spawner`] (or call the in-process function, which answers like a process),
//! and **judge** what it did with the decision table (`judge::judge`, the only place that
//! decides).

use super::fire::Step;
use super::sandboxing::{self, Plan};
use super::{Runner, Snapshot};
use crate::Dialect;
use crate::config::{Grants, Handler, Hook, ModuleSource, Scope};
use crate::event::Event;
use crate::judge::rules;
use crate::judge::{HookFacts, Judgement, judge};
use crate::payload::Payload;
use crate::report::{EventReport, HookRecord, record, record_fn};
use crate::spawner::{ExitStatus, SpawnOutput, SpawnRequest, Spawner};
use crate::translate::{self, EnvFacts};
use crate::trust::{self, Gate, TrustLevel};
use std::path::PathBuf;
use std::time::Duration;

impl Runner {
    /// Gates, runs and judges one hook (`rejudge`: the second pass on a rewritten call).
    /// `None`: an async hook was started, which takes no part in the decision, or a `once`
    /// hook ran earlier in the session (not run, not recorded).
    pub(super) async fn run_step(
        &self,
        step: &Step<'_>,
        payload: &Payload,
        snapshot: &Snapshot,
        report: &mut EventReport,
        rejudge: bool,
    ) -> Option<(HookRecord, Judgement)> {
        let event = payload.event();
        let hook = match step {
            Step::InProcess(entry) => return Some(run_fn(entry, payload, rejudge).await),
            Step::Configured(hook) => hook,
        };
        let untrusted = self.untrusted_now(snapshot, hook);
        if untrusted && !rejudge {
            report.untrusted.push(hook.id());
        }
        let (gate, plan) = match self.gate_and_plan(hook, untrusted, snapshot, event) {
            Ok(gated) => gated,
            Err(judgement) => return not_run_step(hook, *judgement),
        };
        match gate {
            Gate::Skip | Gate::Block => {
                tracing::warn!(hook = %hook.label(), command = %crate::terminal_safe(hook.handler.display()), "untrusted project hook not run; review it and run `hookhost trust`");
                let review = to_review(snapshot, hook);
                let cannot = match &plan {
                    Plan::Refused(why) => Some(why.as_str()),
                    _ => None,
                };
                let judgement = trust::not_run(hook, gate == Gate::Block, &review, cannot);
                not_run_step(hook, judgement)
            }
            gate => {
                // A `once` hook that ran earlier in the session is gone for the rest of it.
                if !rejudge && self.ran_once_already(hook, payload) {
                    tracing::debug!(hook = %hook.label(), "`once` hook already ran in this session; not run again");
                    return None;
                }
                if let Some(status) = &hook.status_message {
                    tracing::info!(hook = %hook.label(), status = %crate::terminal_safe(status), "running");
                }
                let level = match gate {
                    Gate::RunReduced => TrustLevel::Untrusted,
                    _ => TrustLevel::Trusted,
                };
                let env_file = self.env_file(hook, payload, level);
                let mut request = self.request(hook, payload, snapshot, level);
                if let Some(file) = &env_file {
                    let value = file.to_string_lossy().into_owned();
                    request.env.push(("CLAUDE_ENV_FILE".to_string(), value));
                }
                if let Plan::Sandboxed(grants) = plan {
                    self.confine(hook, (grants, level), &mut request);
                }
                let sandboxed = request
                    .sandbox
                    .as_ref()
                    .map(crate::spawner::describe_sandbox);
                if hook.async_rewake {
                    self.start_rewake(hook.clone(), request, payload, level);
                    return None;
                }
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
                    spawn_and_judge(&*self.spawner, hook, request, facts, env_file).await;
                if never_ran_missing_module(hook, &output) {
                    // Nothing of it ran, untrusted or not: trusting it cannot help, so it is
                    // not reported as an untrusted hook that ran.
                    let id = hook.id();
                    report.untrusted.retain(|u| *u != id);
                }
                let mut r = record(hook, &output, &judgement, false);
                r.rejudged = rejudge;
                r.sandbox = sandboxed;
                Some((r, judgement))
            }
        }
    }

    /// The trust gate of `hook` and its sandbox plan (`runner/sandboxing.rs`): an untrusted
    /// command hook the sandbox can hold runs reduced instead of not at all (`block` keeps
    /// blocking a blocking event: the user's stricter choice). `Err`: a hook the gate would
    /// run must run sandboxed and cannot; the judgement of not running it.
    fn gate_and_plan(
        &self,
        hook: &Hook,
        untrusted: bool,
        snapshot: &Snapshot,
        event: Event,
    ) -> Result<(Gate, Plan), Box<Judgement>> {
        let require = snapshot.hooks.require_sandbox.as_deref();
        let plan = sandboxing::plan(hook, untrusted, self.trust_policy, require);
        let gate = trust::gate(self.trust_policy, untrusted, hook.handler.kind(), event);
        match (&plan, gate) {
            (Plan::Sandboxed(_), Gate::Skip) => Ok((Gate::RunReduced, plan)),
            (Plan::Refused(why), Gate::Run | Gate::RunReduced) => {
                tracing::warn!(hook = %hook.label(), "not run: {why}");
                let blocks = event.class() == crate::event::EventClass::Blocking;
                Err(Box::new(trust::no_sandbox(hook, blocks, why)))
            }
            _ => Ok((gate, plan)),
        }
    }

    /// Puts `request` in the sandbox of `grants` at trust `level` (the user's own grants at
    /// `Trusted`), with the files it must read to run.
    fn confine(
        &self,
        hook: &Hook,
        (grants, level): (Grants, TrustLevel),
        request: &mut SpawnRequest,
    ) {
        let home = match self.paths.as_ref().and_then(|p| p.home.clone()) {
            Some(home) => Some(home),
            None => crate::locations::account_home(),
        };
        let user_grants = level == TrustLevel::Trusted;
        let sandbox =
            sandboxing::sandbox_of(hook, (grants, user_grants), home.as_deref(), &request.env);
        request.sandbox = Some(sandbox);
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
            Handler::Shell { command, .. } | Handler::Exec { command, .. } => {
                match snapshot.script_pins.still_hold(command, &hook.cwd) {
                    Ok(()) => false,
                    Err(script) => {
                        tracing::warn!(hook = %hook.label(), script = %script.display(), "a script of a trusted project hook changed since `hookhost trust`; the hook is untrusted until it is reviewed again");
                        true
                    }
                }
            }
            // A trusted module always has its pin; one without was missing when this runner
            // was built (trust pins no absent file). If it appeared since, it is new: it must
            // not run trusted and unpinned in a long-lived runner.
            Handler::Wasm {
                module: ModuleSource::File(module),
                ..
            } => !snapshot.module_pins.contains_key(module),
            _ => false,
        }
    }

    /// The `CLAUDE_ENV_FILE` of a trusted Claude-dialect SessionStart hook of hookhost's own
    /// agent: a fresh private file (`session_env`). None under `hookhost hook --for claude`
    /// (Claude Code's own file passes through, and Claude Code reads it), nor for an
    /// untrusted hook (it could not keep what it wrote).
    fn env_file(&self, hook: &Hook, payload: &Payload, level: TrustLevel) -> Option<PathBuf> {
        let wanted = hook.dialect == Dialect::Claude
            && hook.event == Event::SessionStart
            && level == TrustLevel::Trusted
            && self
                .agent_env
                .as_ref()
                .is_none_or(|a| a.dialect != Dialect::Claude);
        if !wanted {
            return None;
        }
        let id = hook.id();
        let name = format!(
            "sessionstart-hook-{}-{}-{}.sh",
            id.scope.rank(),
            id.source,
            id.index
        );
        let session = payload.known().session_id.unwrap_or_default();
        match self.session_env.file(&session, &name) {
            Ok(path) => Some(path),
            Err(why) => {
                tracing::warn!(hook = %hook.label(), "no CLAUDE_ENV_FILE for this hook: {why}");
                None
            }
        }
    }

    /// What the spawner gets for `hook`: a trusted project module is pinned to the hash it
    /// was trusted with; an untrusted one under a containing policy gets the minimum grants
    /// (`trust::reduce_request`).
    pub(super) fn request(
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
        let known = payload.known();
        let mut env = translate::env(
            hook.dialect,
            &EnvFacts {
                session_id: known.session_id.as_deref(),
                agent: self.agent_env.as_ref(),
                ..EnvFacts::of(&self.project_dir)
            },
        );
        let mut env_unset: Vec<String> = translate::env_unset(hook.dialect, &env)
            .into_iter()
            .map(String::from)
            .collect();
        if let Some(plugin) = &hook.plugin_env {
            plugin_data_env(hook, &plugin.data, &mut env);
            // The user's option values (a token, a server) are for the plugin the user runs:
            // a plugin only a project enabled gets none until it is trusted.
            if level != TrustLevel::Untrusted {
                env.extend(plugin.options.iter().cloned());
            }
            // Options in hookhost's own environment (another plugin's, when Claude Code runs
            // hookhost from one) are not this plugin's.
            env_unset.extend(
                std::env::vars_os()
                    .filter_map(|(k, _)| k.into_string().ok())
                    .filter(|k| k.starts_with(PLUGIN_OPTION_PREFIX))
                    .filter(|k| !env.iter().any(|(n, _)| n == k)),
            );
        }
        let mut request = SpawnRequest {
            event: hook.event,
            handler: hook.handler.clone(),
            cwd: hook.cwd.clone(),
            project_dir: self.project_dir.clone(),
            // The payload and environment of the hook's dialect (native: as is).
            stdin: translate::render(hook.dialect, payload),
            env_unset,
            env,
            timeout: hook.timeout,
            module_sha256,
            untrusted: false,
            sandbox: None,
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
}

/// How a Claude Code plugin's options are named in its hooks' environment.
const PLUGIN_OPTION_PREFIX: &str = "CLAUDE_PLUGIN_OPTION_";

/// A Claude Code plugin's hook gets its data directory as `CLAUDE_PLUGIN_DATA` (the exec
/// form's placeholder reads it there), created private on its first use; a directory that
/// cannot be made is logged and still named, as Claude Code names it.
fn plugin_data_env(hook: &Hook, dir: &std::path::Path, env: &mut Vec<(String, String)>) {
    if let Err(e) = crate::config::agents::ensure_plugin_data(dir) {
        tracing::warn!(hook = %hook.label(), dir = %dir.display(), "cannot create the plugin's data directory: {e}");
    }
    env.retain(|(k, _)| k != "CLAUDE_PLUGIN_DATA");
    env.push((
        "CLAUDE_PLUGIN_DATA".into(),
        dir.to_string_lossy().into_owned(),
    ));
}

/// Calls an in-process hook and judges its answer.
async fn run_fn(
    entry: &crate::inprocess::FnHookEntry,
    payload: &Payload,
    rejudge: bool,
) -> (HookRecord, Judgement) {
    let output = entry.call(payload).await;
    let facts = HookFacts {
        tool: payload.tool_name(),
        args: payload.tool_args(),
        rejudge,
        ..entry.facts()
    };
    let judgement = judge(rules(Dialect::Native), &facts, &output);
    (record_fn(entry, &output, &judgement), judgement)
}

/// The record of a hook that was not run (none for an async one, which takes no part).
fn not_run_step(hook: &Hook, judgement: Judgement) -> Option<(HookRecord, Judgement)> {
    if hook.is_async {
        return None;
    }
    let out = SpawnOutput::bare(ExitStatus::SpawnFailed(String::new()), Duration::ZERO);
    Some((record(hook, &out, &judgement, false), judgement))
}

/// Spawns one configured hook and judges what it did (under the trust level in `facts`),
/// with what it left in its `env_file`.
pub(super) async fn spawn_and_judge(
    spawner: &dyn Spawner,
    hook: &Hook,
    request: SpawnRequest,
    mut facts: HookFacts<'_>,
    env_file: Option<PathBuf>,
) -> (SpawnOutput, Judgement) {
    let mut output = spawner.spawn(request).await;
    explain_package_failure(hook, &mut output);
    if never_ran_missing_module(hook, &output) {
        // No module, no author's answer: the reason is hookhost's own ("cannot read wasm
        // module ...: no such file") and says what to fix, where a withheld untrusted reason
        // would send the user to `hookhost trust`, which cannot help.
        facts.trust = TrustLevel::Trusted;
    }
    facts.hint = shell_failure_hint(hook, &output);
    facts.env_file = env_file.map(|f| crate::session_env::read(&f));
    let judgement = judge(rules(hook.dialect), &facts, &output);
    (output, judgement)
}

/// What the decision table needs to know of `hook`, run with `timeout` (its own, or the
/// shorter one trust imposed) at trust `level`.
pub(super) fn facts(hook: &Hook, timeout: Duration, level: TrustLevel) -> HookFacts<'static> {
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

/// The files to review before trusting `hook` again: those new or changed since `hookhost
/// trust` that make it untrusted (an edited script, not the hooks.json that names it), or
/// the script that changed under a long-lived runner.
fn to_review(snapshot: &Snapshot, hook: &Hook) -> Vec<PathBuf> {
    let id = hook.id();
    let mut files: Vec<PathBuf> = snapshot
        .changes
        .iter()
        .filter(|c| c.hooks.contains(&id))
        .map(|c| c.file.clone())
        .collect();
    if files.is_empty()
        && let Handler::Shell { command, .. } | Handler::Exec { command, .. } = &hook.handler
        && let Err(script) = snapshot.script_pins.still_hold(command, &hook.cwd)
    {
        files.push(script);
    }
    files
}

/// Whether `hook` is a wasm module hook that did not start because its module file does not
/// exist (the spawner's exact text for that, nothing a module could have written).
fn never_ran_missing_module(hook: &Hook, out: &SpawnOutput) -> bool {
    match (&hook.handler, &out.status) {
        (
            Handler::Wasm {
                module: ModuleSource::File(module),
                ..
            },
            ExitStatus::SpawnFailed(message),
        ) => *message == crate::spawner::wasm::missing_module(module),
        _ => false,
    }
}

/// Why a shell hook exited 126/127 (the shell could not run it) and how to fix it, as
/// `hookhost check` would say.
fn shell_failure_hint(hook: &Hook, out: &SpawnOutput) -> Option<String> {
    match (&hook.handler, &out.status) {
        (Handler::Shell { command, .. }, ExitStatus::Exited(126 | 127)) => {
            crate::preflight::shell_program_failure(command, &hook.cwd)
        }
        _ => None,
    }
}
