//! The decision table of DESIGN §4, as one table in code.
//!
//! [`judge`] turns one hook's [`SpawnOutput`] into a [`Judgement`]: first the row (exit 0,
//! exit 2, other exit or crash, timeout, spawn failure), then the cell of [`TABLE`] for the
//! event's column, then the JSON protocol refines an exit 0. A hook written for Claude Code,
//! Gemini CLI or Codex is judged by [`CLAUDE_TABLE`] instead (their shared rules: exit 2
//! means stderr, it blocks a prompt and keeps a Stop going, failures never block unless
//! `onError: "block"`), and its JSON by that agent's output rules. Folding the judgements of an
//! event's hooks into its decision (and short-circuiting) is `runner.rs`'s job.

use super::config::{HookId, HookKind, OnError};
use super::dialect::Dialect;
use super::event::{Event, EventClass};
use super::output::{HookResponse, JsonDecision, parse_stdout};
use super::spawner::{ExitStatus, SpawnOutput};
pub use crate::agent::Verdict;
use serde::Serialize;
use serde_json::Value;

/// The rows of DESIGN §4: how a hook ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    Exit0,
    Exit2,
    /// Any other non-zero exit, or a crash (signal, wasm trap).
    OtherExit,
    Timeout,
    /// Missing file, bad module, cwd gone, shell exit 126/127, refused connection.
    SpawnFailure,
}

/// A cell of DESIGN §4: what a row means in a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    Pass,
    Block,
    Warn,
    /// Stop/SubagentStop exit 2: force when stdout is non-empty, else warn.
    ForceIfStdout,
    /// Warn, unless the hook says `onError: "block"` (then block).
    WarnOrBlock,
    /// Block with stderr as the reason (Claude Code's exit 2 on PreToolUse).
    BlockStderr,
    /// Block the prompt with stderr as the reason (exit 2 on UserPromptSubmit).
    BlockPrompt,
    /// Warn, and stderr goes to the model (exit 2 on PostToolUse).
    Feedback,
    /// Force with stderr as the message when there is one, else warn (exit 2 on Stop).
    ForceStderr,
}

/// DESIGN §4, row by row; columns: PreToolUse, the observing events, Stop/SubagentStop.
pub const TABLE: [(Condition, [Effect; 3]); 5] = {
    use Effect::*;
    [
        (Condition::Exit0, [Pass, Pass, Pass]),
        (Condition::Exit2, [Block, Warn, ForceIfStdout]),
        (Condition::OtherExit, [WarnOrBlock, Warn, Warn]),
        (Condition::Timeout, [Block, Warn, Warn]),
        (Condition::SpawnFailure, [Block, Warn, Warn]),
    ]
};

/// Claude Code's rules, shared by Gemini CLI and Codex, row by row; columns: PreToolUse,
/// UserPromptSubmit, PostToolUse, the other observing events, Stop/SubagentStop. A failure
/// (other exit, crash, timeout, a command that cannot start) is a non-blocking error there;
/// `onError: "block"` makes it fail closed on PreToolUse.
pub const CLAUDE_TABLE: [(Condition, [Effect; 5]); 5] = {
    use Effect::*;
    [
        (Condition::Exit0, [Pass, Pass, Pass, Pass, Pass]),
        (
            Condition::Exit2,
            [BlockStderr, BlockPrompt, Feedback, Warn, ForceStderr],
        ),
        (Condition::OtherExit, [WarnOrBlock, Warn, Warn, Warn, Warn]),
        (Condition::Timeout, [WarnOrBlock, Warn, Warn, Warn, Warn]),
        (
            Condition::SpawnFailure,
            [WarnOrBlock, Warn, Warn, Warn, Warn],
        ),
    ]
};

/// The cell of `dialect`'s table for `condition` at `event`.
pub fn dialect_effect(dialect: Dialect, condition: Condition, event: Event) -> Effect {
    if !dialect.is_claude_family() {
        return effect(condition, event.class());
    }
    let column = match event {
        Event::PreToolUse => 0,
        Event::UserPromptSubmit => 1,
        Event::PostToolUse => 2,
        Event::Stop | Event::SubagentStop => 4,
        _ => 3,
    };
    CLAUDE_TABLE
        .iter()
        .find(|(row, _)| *row == condition)
        .map(|(_, cells)| cells[column])
        .unwrap_or(Effect::Warn)
}

/// The cell for `condition` in `class`'s column.
pub fn effect(condition: Condition, class: EventClass) -> Effect {
    let column = match class {
        EventClass::Blocking => 0,
        EventClass::Observing => 1,
        EventClass::Forcing => 2,
    };
    TABLE
        .iter()
        .find(|(row, _)| *row == condition)
        .map(|(_, cells)| cells[column])
        .unwrap_or(Effect::Warn)
}

/// The outcome of one hook, as `run --json` reports it (DESIGN §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Exit 0 and no decision.
    Pass,
    /// This hook blocked the tool call.
    Block,
    /// This hook forced the agent to continue.
    Force,
    /// A non-zero exit or crash that did not decide.
    Warn,
    /// It timed out (on PreToolUse the call is blocked too).
    Timeout,
    /// It could not be started (on PreToolUse the call is blocked too).
    Error,
    /// Not run: an untrusted project hook under the `skip` or `block` trust policy.
    Skipped,
}

impl Outcome {
    /// The name `run --json` prints: `pass`, `block`, `force`, `warn`, `timeout`, `error`
    /// or `skipped`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Block => "block",
            Outcome::Force => "force",
            Outcome::Warn => "warn",
            Outcome::Timeout => "timeout",
            Outcome::Error => "error",
            Outcome::Skipped => "skipped",
        }
    }
}

/// What one hook's result means for its event.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Judgement {
    /// How the hook is reported; always `Some` from [`judge`].
    pub outcome: Option<Outcome>,
    /// The event decision this hook makes (`Pass` when it makes none).
    pub verdict: Verdict,
    /// New tool arguments (PreToolUse).
    pub updated_input: Option<Value>,
    /// The hook asked for the permission prompt (PreToolUse).
    pub ask: bool,
    /// The hook's `additionalContext`, for the model.
    pub additional_context: Option<String>,
    /// The hook's `systemMessage`, for the user.
    pub system_message: Option<String>,
    /// Text for the model about a warning (PostToolUse exit 2 stderr, a JSON block elsewhere).
    pub feedback: Option<String>,
    /// Why the hook did not simply pass, for logs and `run --json` (`message`).
    pub message: Option<String>,
    /// `continue: false`: stop the agent, with this reason.
    pub stop: Option<String>,
    /// `updated_input` is a patch to merge into the arguments (Gemini CLI's `tool_input`),
    /// not a replacement.
    pub merge_input: bool,
}

/// The facts about a hook that the table needs besides its output.
#[derive(Debug, Clone)]
pub struct HookFacts {
    /// The hook (its event picks the column of the table; shown as `PreToolUse[0]` in
    /// default reasons). `Copy`: judging allocates no label.
    pub id: HookId,
    /// The hook's kind (a shell's exit 126/127 is a spawn failure).
    pub kind: HookKind,
    /// The hook's `onError`.
    pub on_error: OnError,
    /// The hook's timeout in ms, for the timeout message.
    pub timeout_ms: u128,
    /// Whose rules judge it.
    pub dialect: Dialect,
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim().to_string()
}

fn non_empty(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

/// Classifies one hook's output by DESIGN §4.
pub fn judge(t: &HookFacts, out: &SpawnOutput) -> Judgement {
    let stderr = text(&out.stderr);
    let stdout = text(&out.stdout);
    let (condition, message) = match &out.status {
        ExitStatus::Exited(0) => (Condition::Exit0, None),
        ExitStatus::Exited(2) => (Condition::Exit2, Some("exited with code 2".to_string())),
        // The shell's "cannot execute" / "command not found": the hook never ran.
        ExitStatus::Exited(c @ (126 | 127)) if t.kind == HookKind::Shell => (
            Condition::SpawnFailure,
            Some(format!(
                "the shell could not run the command (exit {c}: {}); check the path and that the file is executable",
                if *c == 127 {
                    "not found"
                } else {
                    "not executable"
                }
            )),
        ),
        ExitStatus::Exited(c) => (Condition::OtherExit, Some(format!("exited with code {c}"))),
        ExitStatus::Crashed(why) => (Condition::OtherExit, Some(format!("crashed: {why}"))),
        ExitStatus::TimedOut => (
            Condition::Timeout,
            Some(format!("timed out after {} ms", t.timeout_ms)),
        ),
        ExitStatus::SpawnFailed(why) => (Condition::SpawnFailure, Some(why.clone())),
    };

    let mut j = Judgement {
        message: message.clone(),
        ..Judgement::default()
    };
    let detail = message.unwrap_or_default();
    let failure_reason = || {
        let mut r = format!("hook {} {detail}", t.id);
        if !stderr.is_empty() {
            r.push_str(": ");
            r.push_str(&stderr);
        }
        r
    };
    let failed_outcome = match condition {
        Condition::Timeout => Outcome::Timeout,
        Condition::SpawnFailure => Outcome::Error,
        _ => Outcome::Warn,
    };

    match dialect_effect(t.dialect, condition, t.id.event) {
        Effect::Pass => return refine_exit0(t, &out.stdout, out.truncated, j),
        Effect::BlockStderr | Effect::BlockPrompt
            if t.dialect == Dialect::Codex && stderr.is_empty() =>
        {
            // Codex ignores an exit 2 that gives no reason on stderr.
            j.outcome = Some(Outcome::Warn);
            j.message = Some("exited with code 2 without a reason on stderr, which Codex does not count as a block".into());
        }
        Effect::BlockStderr | Effect::BlockPrompt => {
            j.verdict = Verdict::Block(
                non_empty(stderr).unwrap_or_else(|| format!("blocked by hook {} (exit 2)", t.id)),
            );
            j.outcome = Some(Outcome::Block);
        }
        Effect::Feedback => {
            j.outcome = Some(Outcome::Warn);
            j.feedback = non_empty(stderr);
        }
        Effect::ForceStderr if !stderr.is_empty() => {
            j.verdict = Verdict::Force(stderr);
            j.outcome = Some(Outcome::Force);
        }
        Effect::Block => {
            j.verdict = Verdict::Block(match condition {
                Condition::Exit2 => non_empty(stderr.clone())
                    .or_else(|| non_empty(stdout.clone()))
                    .unwrap_or_else(|| format!("blocked by hook {} (exit 2)", t.id)),
                _ => failure_reason(),
            });
            j.outcome = Some(match condition {
                Condition::Exit2 => Outcome::Block,
                _ => failed_outcome,
            });
        }
        Effect::WarnOrBlock if t.on_error == OnError::Block => {
            j.verdict = Verdict::Block(format!("{} (onError: block)", failure_reason()));
            j.outcome = Some(Outcome::Block);
        }
        Effect::ForceIfStdout if !stdout.is_empty() => {
            j.verdict = Verdict::Force(stdout);
            j.outcome = Some(Outcome::Force);
        }
        Effect::Warn | Effect::WarnOrBlock | Effect::ForceIfStdout | Effect::ForceStderr => {
            j.outcome = Some(failed_outcome);
            if condition == Condition::Exit2 && t.id.event == Event::PostToolUse {
                j.feedback = non_empty(stderr);
            }
        }
    }
    j
}

/// Exit 0: the JSON protocol may still block, force, rewrite the input or add context.
///
/// An answer that starts like JSON but cannot be read (cut at the cap, malformed, trailing
/// text, a duplicate key, a known field of the wrong type) fails closed where the hook can
/// block: on PreToolUse it blocks (outcome `error`) whatever `onError` says, because a guard
/// whose answer is unreadable must never count as a pass. Elsewhere it is a warning.
fn refine_exit0(t: &HookFacts, stdout: &[u8], truncated: bool, mut j: Judgement) -> Judgement {
    j.outcome = Some(Outcome::Pass);
    let r: HookResponse = match parse_stdout(stdout, truncated) {
        Ok(Some(r)) => r,
        Ok(None) => {
            // Claude Code and Codex add plain stdout of these events to the model's context.
            let text = text(stdout);
            if matches!(t.dialect, Dialect::Claude | Dialect::Codex)
                && matches!(t.id.event, Event::SessionStart | Event::UserPromptSubmit)
                && !text.is_empty()
            {
                j.additional_context = Some(text);
            } else if t.dialect == Dialect::Gemini && !text.is_empty() {
                // Gemini CLI: stdout that is not JSON is a message for the user.
                j.system_message = Some(text);
            }
            return j;
        }
        Err(problem) => {
            let msg = format!("its JSON answer cannot be read: {problem}");
            j.message = Some(msg.clone());
            if t.id.event.class() == EventClass::Blocking {
                j.verdict = Verdict::Block(format!(
                    "hook {} {msg}; blocking to fail closed (fix the hook's output)",
                    t.id
                ));
                j.outcome = Some(Outcome::Error);
            } else {
                j.outcome = Some(Outcome::Warn);
            }
            return j;
        }
    };
    if !r.unrecognized.is_empty() {
        j.outcome = Some(Outcome::Warn);
        j.message = Some(format!(
            "its JSON answer has no field hookhost understands (it has: {}); hookhost reads {} — is the hook written for another agent's protocol?",
            r.unrecognized.join(", "),
            super::output::KNOWN_ANSWER_KEYS.join(", ")
        ));
        return j;
    }
    if t.dialect == Dialect::Codex
        && t.id.event == Event::PreToolUse
        && let Some(problem) = codex_unsupported(&r)
    {
        j.outcome = Some(Outcome::Warn);
        j.message = Some(format!("{problem} (Codex's rule; the answer is ignored)"));
        return j;
    }
    j.additional_context = r.additional_context;
    j.system_message = r.system_message;
    j.stop = r.stop;
    let reason = r.reason;
    if t.dialect.is_claude_family()
        && t.id.event == Event::UserPromptSubmit
        && r.decision == Some(JsonDecision::Block)
    {
        // Claude Code: `decision: "block"` on UserPromptSubmit erases the prompt.
        j.verdict =
            Verdict::Block(reason.unwrap_or_else(|| format!("prompt blocked by hook {}", t.id)));
        j.outcome = Some(Outcome::Block);
        return j;
    }
    match (t.id.event.class(), r.decision) {
        (EventClass::Blocking, Some(JsonDecision::Block)) => {
            j.verdict =
                Verdict::Block(reason.unwrap_or_else(|| format!("blocked by hook {}", t.id)));
            j.outcome = Some(Outcome::Block);
        }
        (EventClass::Forcing, Some(JsonDecision::Block)) => match reason {
            Some(msg) if !msg.trim().is_empty() => {
                j.verdict = Verdict::Force(msg);
                j.outcome = Some(Outcome::Force);
            }
            _ => {
                j.outcome = Some(Outcome::Warn);
                j.message = Some(
                    "asked to continue (decision: block) without a `reason` to give the model"
                        .into(),
                );
            }
        },
        (EventClass::Observing, Some(JsonDecision::Block)) => {
            j.outcome = Some(Outcome::Warn);
            j.feedback = reason;
        }
        (EventClass::Blocking, Some(JsonDecision::Ask)) => j.ask = true,
        _ => {}
    }
    if t.id.event.class() == EventClass::Blocking && j.verdict == Verdict::Pass {
        j.updated_input = r.updated_input;
        if j.updated_input.is_none() && t.dialect == Dialect::Gemini {
            j.updated_input = r.tool_input_patch;
            j.merge_input = j.updated_input.is_some();
        }
    }
    j
}

/// What Codex refuses in a PreToolUse answer: `permissionDecision` "allow" or "ask", an
/// `updatedInput`, a deny without a reason.
fn codex_unsupported(r: &HookResponse) -> Option<String> {
    match r.permission_decision {
        Some(JsonDecision::Allow) => {
            return Some("unsupported permissionDecision:allow".into());
        }
        Some(JsonDecision::Ask) => return Some("unsupported permissionDecision:ask".into()),
        Some(JsonDecision::Block) if r.reason.as_deref().is_none_or(|s| s.trim().is_empty()) => {
            return Some(
                "permissionDecision:deny without a non-empty permissionDecisionReason".into(),
            );
        }
        _ => {}
    }
    r.updated_input
        .as_ref()
        .map(|_| "unsupported updatedInput".to_string())
}
