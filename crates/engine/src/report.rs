//! The engine's side of a report: the [`HookRecord`] of a hook it ran, how an event's folded
//! effects settle into its [`EventReport`], the agent-side view of a report ([`ToVerdict`]),
//! and how a record is logged. The report types themselves (the `run --json` wire format) are
//! `hookhost_protocol::report`, re-exported at the crate root.

use super::config::Hook;
use super::inprocess::FnHookEntry;
use super::spawner::SpawnOutput;
use crate::agent::{Effects, ElicitationAnswer, HookVerdict, Verdict};
use crate::judge::Judgement;
use hookhost_protocol::ElicitationReply;
#[doc(no_inline)]
pub use hookhost_protocol::{Decision, EventReport, HookRecord, StopRequest};
use hookhost_protocol::{Dialect, Event, ExitStatus, HookId, HookKind, Outcome};
use std::time::Duration;

/// Takes the event's folded effects into `report`: its decision and reason from the verdict,
/// the rest as they are (`updated_args` only when the call was rewritten and not blocked).
pub(crate) fn settle(report: &mut EventReport, e: Effects) {
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
    // A deny beats every allow; a blocked prompt is not sent, replaced or not.
    report.allow = allow && verdict == Verdict::Pass;
    report.updated_prompt = updated_prompt.filter(|_| verdict == Verdict::Pass);
    (report.decision, report.reason) = match verdict {
        Verdict::Pass => (Decision::Pass, None),
        Verdict::Block(r) => (Decision::Block, Some(r)),
        Verdict::Force(m) => (Decision::Force, Some(m)),
    };
    report.stop = stop.map(|reason| StopRequest { reason });
    report.updated_args = updated_args;
    report.ask = ask;
    report.ask_reason = ask_reason;
    report.defer = defer;
    report.additional_context = additional_context;
    report.feedback = feedback;
    report.system_messages = system_messages;
    report.updated_tool_output = updated_tool_output;
    // In order: a later hook's value of a name wins.
    report.env = env.into_iter().collect();
    report.retry = retry;
    report.worktree_path = worktree_path;
    // A block of an elicitation is a decline (Claude Code: exit 2 declines).
    report.elicitation = match (&report.decision, elicitation) {
        (Decision::Block, _)
            if matches!(report.event, Event::Elicitation | Event::ElicitationResult) =>
        {
            Some(ElicitationReply {
                action: "decline".into(),
                content: None,
            })
        }
        (_, e) => e.map(|a| ElicitationReply {
            action: a.action,
            content: a.content,
        }),
    };
}

/// The agent-side view of an [`EventReport`] (a protocol type, which does not know the agent
/// core): `report.to_verdict()` with this trait in scope.
pub trait ToVerdict {
    /// The agent-side view of this report: the event's effects.
    fn to_verdict(&self) -> HookVerdict;
}

impl ToVerdict for EventReport {
    fn to_verdict(&self) -> HookVerdict {
        let reason = self.reason.clone().unwrap_or_default();
        Effects {
            verdict: match self.decision {
                Decision::Pass => Verdict::Pass,
                Decision::Block => Verdict::Block(reason),
                Decision::Force => Verdict::Force(reason),
            },
            updated_args: self.updated_args.clone(),
            ask: self.ask,
            ask_reason: self.ask_reason.clone(),
            defer: self.defer,
            allow: self.allow,
            additional_context: self.additional_context.clone(),
            feedback: self.feedback.clone(),
            system_messages: self.system_messages.clone(),
            stop: self.stop.as_ref().map(|s| s.reason.clone()),
            updated_tool_output: self.updated_tool_output.clone(),
            updated_prompt: self.updated_prompt.clone(),
            env: self
                .env
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            retry: self.retry,
            worktree_path: self.worktree_path.clone(),
            elicitation: self.elicitation.as_ref().map(|a| ElicitationAnswer {
                action: a.action.clone(),
                content: a.content.clone(),
            }),
        }
    }
}

/// The record of a configured hook's run.
pub(crate) fn record(hook: &Hook, out: &SpawnOutput, j: &Judgement, is_async: bool) -> HookRecord {
    let mut r = record_of(
        hook.id(),
        hook.handler.display(),
        hook.handler.kind(),
        out,
        j,
        is_async,
    );
    r.dialect = hook.dialect;
    r.file = Some(hook.file.clone());
    r.status_message.clone_from(&hook.status_message);
    r
}

/// The record of an in-process hook's run.
pub(crate) fn record_fn(entry: &FnHookEntry, out: &SpawnOutput, j: &Judgement) -> HookRecord {
    record_of(entry.id(), entry.name(), HookKind::Fn, out, j, false)
}

fn record_of(
    hook: HookId,
    command: &str,
    kind: HookKind,
    out: &SpawnOutput,
    j: &Judgement,
    is_async: bool,
) -> HookRecord {
    HookRecord {
        hook,
        source: hook.scope,
        command: command.to_string(),
        dialect: Dialect::Native,
        file: None,
        kind,
        outcome: j.outcome,
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
        status_message: None,
        rejudged: false,
        model: out.model.as_deref().cloned(),
        sandbox: None,
        row: j.row,
    }
}

/// Milliseconds with microsecond resolution.
pub(crate) fn duration_ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// Logs one record: info when it passed or decided, a warning otherwise.
pub(crate) fn log_record(event: Event, r: &HookRecord) {
    match r.outcome {
        Outcome::Pass | Outcome::Block | Outcome::Force | Outcome::Allow => tracing::info!(
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
