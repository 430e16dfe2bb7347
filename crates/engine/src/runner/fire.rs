//! Firing one event ([`Runner::fire`]): **select** the hooks of the event that match its
//! tool, run each (`step.rs`), and **fold** the judgements into the event's
//! report, stopping at the first that decides; on PreToolUse, a second pass judges the final
//! arguments of a rewritten call. A broken config file fails closed here.

use super::Runner;
use super::Snapshot;
use crate::config::{Hook, HookId};
use crate::event::{Event, EventClass};
use crate::inprocess::FnHookEntry;
use crate::judge::{Effects, Outcome, Verdict};
use crate::payload::Payload;
use crate::report::{Decision, EventReport, log_record};
use serde_json::Value;
use std::sync::Arc;

impl Runner {
    /// Fires one event: runs its matching hooks in order and returns the decision.
    ///
    /// Hooks run by rank (managed, the user's, the project's; in-process last), each seeing
    /// the arguments earlier hooks left. On PreToolUse, when a hook rewrote the call, every
    /// hook that judged other arguments before the last rewrite (but the one that made the
    /// final arguments) runs once more on the final ones, and only a block counts then: no hook of a lower rank can get a call past a
    /// guard of a higher rank, and no hook runs more than twice per event.
    ///
    /// A skill's shell command (PreSkillShellCommand) is first put to the native PreToolUse
    /// hooks as the tool call it is (`toolName` the shell, `"skillShellCommand": true`), so a
    /// guard of shell commands needs no second entry: when they block, ask or rewrite it
    /// (which cannot be applied to a skill's command: it is denied, saying so), that is the
    /// answer; else the event's own hooks decide, after them in the report.
    pub async fn fire(&self, payload: Payload) -> EventReport {
        let Some(twin) = payload.skill_command_as_tool_call() else {
            return self.fire_event(payload, false).await;
        };
        let mut guarded = self.fire_event(twin, true).await;
        guarded.event = Event::PreSkillShellCommand;
        if guarded.decision == Decision::Pass && guarded.updated_args.is_some() {
            guarded.decision = Decision::Block;
            guarded.reason = Some(
                "a PreToolUse hook rewrote this skill's shell command, which cannot be applied to a skill's command; blocked to fail closed".into(),
            );
            guarded.updated_args = None;
        }
        if guarded.decision != Decision::Pass
            || guarded.ask
            || guarded.defer
            || guarded.stop.is_some()
        {
            return guarded;
        }
        let mut report = self.fire_event(payload, false).await;
        let mut hooks = std::mem::take(&mut guarded.hooks);
        hooks.append(&mut report.hooks);
        report.hooks = hooks;
        let mut context = std::mem::take(&mut guarded.additional_context);
        context.append(&mut report.additional_context);
        report.additional_context = context;
        let mut messages = std::mem::take(&mut guarded.system_messages);
        messages.append(&mut report.system_messages);
        report.system_messages = messages;
        for id in guarded.untrusted {
            if !report.untrusted.contains(&id) {
                report.untrusted.push(id);
            }
        }
        report
    }

    /// [`Runner::fire`] for one event; `native_only`: only native hooks (and in-process
    /// ones) run, as for a skill's shell command put to the PreToolUse guards.
    async fn fire_event(&self, mut payload: Payload, native_only: bool) -> EventReport {
        let event = payload.event();
        let class = event.class();
        let mut report = EventReport::new(event);
        let logging = self.log_start(&payload);
        let original_args = payload.tool_args().cloned();
        let snapshot = self.current();
        let steps = self.select(&snapshot, &payload, native_only);
        let mut effects = Effects::pass();
        // Blocking events: each synchronous hook that ran, with how many rewrites it had seen
        // (its arguments are the final ones when that is every rewrite).
        let mut judged: Vec<(usize, usize)> = Vec::new();
        let mut rewrites = 0;
        // The hook whose rewrite made the final arguments: it is not asked about them again.
        let mut last_rewriter = None;
        let mut decided = false;
        // Hooks whose `if` did not hold on the arguments they would have seen: not started;
        // a later rewrite can make it hold (the second pass).
        let mut not_started: Vec<usize> = Vec::new();
        for (i, step) in steps.iter().enumerate() {
            if !step.condition_holds(&payload) {
                not_started.push(i);
                continue;
            }
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
            // The second pass: the final call, judged by every hook that judged another, and
            // by every hook whose `if` the final arguments now satisfy (in run order).
            let stale: Vec<usize> = judged
                .into_iter()
                .filter(|&(i, seen)| seen < rewrites && Some(i) != last_rewriter)
                .map(|(i, _)| i)
                .collect();
            let second: Vec<usize> = (0..steps.len())
                .filter(|i| {
                    stale.contains(i)
                        || (not_started.contains(i) && steps[*i].condition_holds(&payload))
                })
                .collect();
            for i in second {
                if !stale.contains(&i) && self.once_gone(&steps[i], &payload) {
                    continue;
                }
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
        self.deliver_rewakes(decided, &snapshot, &payload, &mut effects, &mut report);
        self.final_call(&mut effects, &payload, original_args.as_ref());
        crate::report::settle(&mut report, effects);
        self.fail_closed_on_config_errors(&snapshot, &mut report);
        let unmet: Vec<_> = not_started.iter().map(|&i| steps[i].id()).collect();
        self.log_finish(logging, &snapshot, &payload, &report, &unmet);
        if let Some(observe) = &self.observer {
            observe(&report);
        }
        report
    }

    /// The call as the hooks leave it: denied by the protected-state guard when the hooks
    /// let it through (as sent, or as a hook rewrote it) and it touches hookhost's own state
    /// (after the hooks, so that a guard's own reason for a call it blocks is the one the agent
    /// sees); its rewritten arguments kept only when it passes and they changed.
    fn final_call(&self, effects: &mut Effects, payload: &Payload, original: Option<&Value>) {
        if effects.verdict == Verdict::Pass
            && let Some(reason) = self.protected_denial(payload)
        {
            effects.verdict = Verdict::Block(reason);
        }
        effects.updated_args =
            if effects.verdict != Verdict::Pass || payload.tool_args() == original {
                None
            } else {
                payload.tool_args().cloned()
            };
    }

    /// The reason a call is denied by the protected-state guard (`protect`), on the events
    /// that judge a call before it runs: PreToolUse, PermissionRequest and
    /// PreSkillShellCommand.
    fn protected_denial(&self, payload: &Payload) -> Option<String> {
        if !matches!(
            payload.event(),
            Event::PreToolUse | Event::PermissionRequest | Event::PreSkillShellCommand
        ) {
            return None;
        }
        let tool = payload.tool_name()?;
        let args = payload.tool_args()?;
        let cwd = payload
            .get("cwd")
            .and_then(Value::as_str)
            .map(std::path::PathBuf::from)
            .filter(|c| c.is_absolute())
            .unwrap_or_else(|| self.project_dir.clone());
        let denial = self.protected().judge(tool, args, &cwd)?;
        tracing::warn!(tool, target = %denial.target, "protected state: call denied");
        Some(denial.reason())
    }

    /// The hooks of the payload's event that match its tool: configured ones in run order,
    /// then in-process ones in registration order. An identical handler listed again (in
    /// another file, or twice in one) runs once, where it is first: the higher rank keeps it
    /// (`Hook::same_handler`, DESIGN §3). Each hook's `if` is asked when its turn comes, of
    /// the arguments it would see.
    /// `native_only`: configured hooks of hookhost's own dialect only.
    fn select<'a>(
        &'a self,
        snapshot: &'a Snapshot,
        payload: &Payload,
        native_only: bool,
    ) -> Vec<Step<'a>> {
        let event = payload.event();
        let tool = payload.tool_name();
        let subject = subject(payload);
        let mut kept: Vec<&Arc<Hook>> = Vec::new();
        for hook in snapshot
            .hooks
            .matching(event, subject)
            .filter(|h| !native_only || h.dialect == crate::Dialect::Native)
        {
            match kept.iter().find(|k| hook.same_handler(k)) {
                Some(first) => tracing::debug!(
                    hook = %hook.label(),
                    file = %hook.file.display(),
                    kept = %first.label(),
                    "identical handler: runs once, as the first"
                ),
                None => kept.push(hook),
            }
        }
        let mut steps: Vec<Step<'_>> = kept.into_iter().cloned().map(Step::Configured).collect();
        steps.extend(
            self.fn_hooks
                .iter()
                .filter(|f| f.applies(event, tool))
                .map(Step::InProcess),
        );
        steps
    }

    /// A broken config file, on an event whose hooks can block, blocks the call when
    /// nothing else did, under every trust policy (fail closed: the guard that could not be
    /// read might have, and an untrusted project file can hold a wasm guard that runs); on
    /// PermissionRequest it cancels an allow (the user is asked). Other events only report it.
    fn fail_closed_on_config_errors(&self, snapshot: &Snapshot, report: &mut EventReport) {
        if snapshot.config_errors.is_empty() {
            return;
        }
        report.config_errors = snapshot.config_errors.clone();
        if report.event.class() == EventClass::Deciding {
            // The part that could not be read may hold a deny: no allow, the user is asked.
            report.allow = false;
        }
        if report.event.class() != EventClass::Blocking || report.decision != Decision::Pass {
            return;
        }
        let failing = &snapshot.config_errors;
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

/// What a `match` is matched against: the tool name, or for other agents' hooks the field
/// their matcher matches (SessionStart's `source`, PreCompact's `trigger`, ...).
/// FileChanged's matcher matches the file's name (Claude Code: `".envrc|.env"`), not its
/// path.
pub(super) fn subject(payload: &Payload) -> Option<&str> {
    match payload.event().matcher_subject() {
        Some(field) if payload.event() == Event::FileChanged => payload
            .get(field)
            .and_then(Value::as_str)
            .map(|p| p.rsplit(['/', '\\']).next().unwrap_or(p)),
        Some(field) => payload.get(field).and_then(Value::as_str),
        None => payload.tool_name(),
    }
}

/// One hook to run for an event: configured (shell/wasm/http) or registered in-process.
pub(super) enum Step<'a> {
    Configured(Arc<Hook>),
    InProcess(&'a FnHookEntry),
}

impl Step<'_> {
    /// Its identity (`PreToolUse[0]`, `PreToolUse[fn 0]`).
    fn id(&self) -> HookId {
        match self {
            Step::Configured(hook) => hook.id(),
            Step::InProcess(entry) => entry.id(),
        }
    }

    /// Whether its `if` lets the call in `payload` start it (in-process hooks have none).
    fn condition_holds(&self, payload: &Payload) -> bool {
        match self {
            Step::Configured(hook) => {
                hook.condition_holds(payload.tool_name(), payload.tool_args())
            }
            Step::InProcess(_) => true,
        }
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
        ask_reason,
        defer,
        allow,
        additional_context,
        feedback,
        system_messages,
        updated_tool_output,
        env,
        updated_prompt,
        retry,
        worktree_path,
        elicitation,
    } = e;
    let mut rewrote = false;
    // A replaced prompt: later hooks judge it, the last one is sent.
    if let Some(prompt) = updated_prompt {
        payload.set_prompt(prompt.clone());
        acc.updated_prompt = Some(prompt);
    }
    if let Some(args) = updated_args
        && payload.tool_args() != Some(&args)
    {
        payload.set_tool_args(args);
        rewrote = true;
    }
    acc.ask |= ask;
    // The first hook that asked with a reason gives it.
    if ask && acc.ask_reason.is_none() {
        acc.ask_reason = ask_reason;
    }
    acc.defer |= defer;
    // A replaced tool result: later hooks see it, the last one wins.
    if let Some(output) = updated_tool_output {
        payload.set_tool_result(output.clone());
        acc.updated_tool_output = Some(output);
    }
    acc.env.extend(env);
    acc.allow |= allow;
    acc.retry |= retry;
    // WorktreeCreate, Elicitation(Result): the first hook that answers gives the answer.
    if acc.worktree_path.is_none() {
        acc.worktree_path = worktree_path;
    }
    if acc.elicitation.is_none() {
        acc.elicitation = elicitation;
    }
    acc.additional_context.extend(additional_context);
    acc.system_messages.extend(system_messages);
    acc.feedback.extend(feedback);
    let decides = match &verdict {
        // Another agent's hook can block a prompt (exit 2 / `decision: "block"`); a deny on
        // PermissionRequest beats every allow.
        Verdict::Block(_) => {
            matches!(
                event.class(),
                EventClass::Blocking | EventClass::Deciding | EventClass::Gating
            ) || event == Event::UserPromptSubmit
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
