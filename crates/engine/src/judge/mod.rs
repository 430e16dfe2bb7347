//! The decision table of DESIGN §4, and [`judge`], the one place a hook's result is decided.
//!
//! [`judge`] turns one hook's [`SpawnOutput`] into a complete [`Judgement`]: first the row
//! (exit 0, exit 2, other exit or crash, timeout, spawn failure), then the [`Cell`] of the
//! dialect's table for the event's column, then the JSON protocol refines an exit 0, and
//! last the hook's trust level keeps only the effects it allows (`trust::keeps`). Each
//! dialect's rules are a value ([`Rules`], from `rules.rs`). Nothing edits a
//! judgement afterwards; folding the judgements of an event's hooks into its decision (and
//! short-circuiting) is `runner.rs`'s job.

use super::config::{HookId, HookKind, OnError};
use super::event::{Event, EventClass};
use super::output::{HookResponse, JsonDecision, PermissionAnswer, parse_stdout};
use super::spawner::{ExitStatus, SpawnOutput};
use crate::Dialect;
pub use crate::agent::{EffectKind, EffectSet, Effects, Verdict};
use crate::config::agents::tools;
use serde_json::Value;

mod keep;
mod rules;
pub use keep::{REJUDGE_KEEPS, keeps};
pub use rules::{CLAUDE_TABLE, COPILOT_TABLE, NATIVE_TABLE, PlainStdout, Rules, ToolOutput, rules};

#[doc(no_inline)]
pub use hookhost_protocol::{Cell, Condition, Outcome, Row, TrustLevel, Via};

/// A decision table: row by row; columns PreToolUse, UserPromptSubmit, PostToolUse (and
/// PostToolUseFailure), the other observing events, Stop/SubagentStop/TeammateIdle,
/// PermissionRequest, the gating events (a hook refuses what the event is about: a config
/// change, a task, a model switch, ...), WorktreeCreate (the hook makes the worktree).
pub type Table = [(Condition, [Cell; 8]); 5];

/// The column of `event` in a [`Table`].
pub fn column(event: Event) -> usize {
    match event {
        // A skill's shell command is decided as a tool call is (Claude Code's hooks reference).
        Event::PreToolUse | Event::PreSkillShellCommand => 0,
        Event::UserPromptSubmit => 1,
        Event::PostToolUse | Event::PostToolUseFailure => 2,
        Event::Stop | Event::SubagentStop | Event::TeammateIdle => 4,
        Event::PermissionRequest => 5,
        Event::UserPromptExpansion
        | Event::PostToolBatch
        | Event::TaskCreated
        | Event::TaskCompleted
        | Event::ConfigChange
        | Event::Elicitation
        | Event::ElicitationResult
        | Event::PreModelSwitch
        | Event::PreCompact => 6,
        Event::WorktreeCreate => 7,
        Event::SessionStart
        | Event::Notification
        | Event::SubagentStart
        | Event::PostCompact
        | Event::StopFailure
        | Event::SessionEnd
        | Event::Setup
        | Event::InstructionsLoaded
        | Event::MessageDisplay
        | Event::PermissionDenied
        | Event::CwdChanged
        | Event::DirectoryAdded
        | Event::FileChanged
        | Event::WorktreeRemove
        | Event::PostModelSwitch => 3,
    }
}

/// The cell of `table` for `condition` at `event`.
pub fn cell(table: &Table, condition: Condition, event: Event) -> Cell {
    table
        .iter()
        .find(|(row, _)| *row == condition)
        .map(|(_, cells)| cells[column(event)])
        .unwrap_or(Cell::Warn)
}

/// What one hook's result means for its event: complete when [`judge`] returns it.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    /// How the hook is reported.
    pub outcome: Outcome,
    /// What the hook does to the event, already reduced to what its trust level keeps.
    pub effects: Effects,
    /// Why the hook did not simply pass, for logs and `run --json` (`message`).
    pub message: Option<String>,
    /// The row of the decision table it came from, as judging went (the decision log's
    /// `row`).
    pub row: Row,
}

impl Judgement {
    fn new(row: Row, outcome: Outcome, message: Option<String>) -> Self {
        Judgement {
            outcome,
            effects: Effects::pass(),
            message,
            row,
        }
    }

    /// A hook that was not run, with this outcome and verdict.
    pub(crate) fn not_run(row: Row, outcome: Outcome, verdict: Verdict, message: String) -> Self {
        Judgement {
            row,
            outcome,
            effects: Effects {
                verdict,
                ..Effects::pass()
            },
            message: Some(message),
        }
    }
}

/// The facts about a hook that judging needs besides its output.
#[derive(Debug, Clone)]
pub struct HookFacts<'a> {
    /// The hook (its event picks the column of the table; shown as `PreToolUse[0]` in
    /// default reasons). `Copy`: judging allocates no label.
    pub id: HookId,
    /// The hook's kind (a shell's exit 126/127 is a spawn failure).
    pub kind: HookKind,
    /// The hook's `onError`.
    pub on_error: OnError,
    /// The hook's timeout in ms, for the timeout message.
    pub timeout_ms: u128,
    /// The event's tool (a rewrite is mapped back to the event's argument keys).
    pub tool: Option<&'a str>,
    /// The tool arguments the hook saw (a Gemini CLI patch is merged into them).
    pub args: Option<&'a Value>,
    /// Why a shell could not run the command, when the runner found out (exit 126/127).
    pub hint: Option<String>,
    /// What the hook's answer may do (`trust::keeps`).
    pub trust: TrustLevel,
    /// A second run on the final arguments of a rewritten call: only a block counts.
    pub rejudge: bool,
    /// What the hook left in its `CLAUDE_ENV_FILE` (SessionStart), read strictly
    /// (`session_env`).
    pub env_file: Option<crate::session_env::EnvFileRead>,
}

impl HookFacts<'_> {
    /// Facts of a trusted hook with no tool, no hint.
    pub fn new(id: HookId, kind: HookKind, on_error: OnError, timeout_ms: u128) -> Self {
        HookFacts {
            id,
            kind,
            on_error,
            timeout_ms,
            tool: None,
            args: None,
            hint: None,
            trust: TrustLevel::Trusted,
            rejudge: false,
            env_file: None,
        }
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim().to_string()
}

fn non_empty(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

/// The row a hook's end falls in, and the message saying how it ended.
fn condition(t: &HookFacts, out: &SpawnOutput) -> (Condition, Option<String>) {
    match &out.status {
        ExitStatus::Exited(0) => (Condition::Exit0, None),
        // A model hook's "no" (`spawner::model`): say it as the model did.
        ExitStatus::Exited(2) if t.kind.asks_model() => (
            Condition::Exit2,
            Some("the model answered {\"ok\": false}".to_string()),
        ),
        ExitStatus::Exited(2) => (Condition::Exit2, Some("exited with code 2".to_string())),
        // The shell's "cannot execute" / "command not found": the hook never ran.
        ExitStatus::Exited(c @ (126 | 127)) if t.kind == HookKind::Shell => {
            // With the runner's diagnosis, that alone (what is wrong, the fix); without one,
            // what the exit code means and where to look.
            let m = match &t.hint {
                Some(why) => format!("the shell could not run the command (exit {c}): {why}"),
                None => format!(
                    "the shell could not run the command (exit {c}: {}); check the path and that the file is executable",
                    if *c == 127 {
                        "not found"
                    } else {
                        "not executable"
                    }
                ),
            };
            (Condition::SpawnFailure, Some(m))
        }
        ExitStatus::Exited(c) => (Condition::OtherExit, Some(format!("exited with code {c}"))),
        // A model hook's unreadable answer: the reason says what the model answered.
        ExitStatus::Crashed(why) if t.kind.asks_model() => {
            (Condition::OtherExit, Some(why.clone()))
        }
        ExitStatus::Crashed(why) => (Condition::OtherExit, Some(format!("crashed: {why}"))),
        ExitStatus::TimedOut => (
            Condition::Timeout,
            Some(format!("timed out after {} ms", t.timeout_ms)),
        ),
        ExitStatus::SpawnFailed(why) => (Condition::SpawnFailure, Some(why.clone())),
    }
}

/// Judges one hook's output under `rules` (DESIGN §4), then keeps what its trust allows.
pub fn judge(rules: &Rules, t: &HookFacts, out: &SpawnOutput) -> Judgement {
    let draft = by_table(rules, t, out);
    let draft = stop_blocks_the_call(t, draft);
    let draft = env_written(t, draft);
    keep::keep(t, draft)
}

/// What the hook wrote to its env file: variables for the shell's later calls, whatever its
/// exit (Claude Code reads the file as it is), and a warning per line it refused.
fn env_written(t: &HookFacts, mut j: Judgement) -> Judgement {
    if let Some(read) = &t.env_file {
        j.effects.env.clone_from(&read.vars);
        if !read.refused.is_empty() {
            note(&mut j, read.refused.join("; "));
        }
    }
    j
}

/// The cell of the table, and for exit 0 the JSON protocol.
fn by_table(rules: &Rules, t: &HookFacts, out: &SpawnOutput) -> Judgement {
    let stderr = text(&out.stderr);
    let stdout = text(&out.stdout);
    let (condition, message) = condition(t, out);
    let detail = message.clone().unwrap_or_default();
    let failure_reason = || {
        let mut r = format!("hook {} {detail}", t.id);
        // The shell's own words ("Permission denied") add nothing to the runner's diagnosis,
        // which the record keeps beside the hook's stderr.
        if !stderr.is_empty() && t.hint.is_none() {
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
    let cell = cell(&rules.table, condition, t.id.event);
    let row = Row::table(condition, cell);
    let mut j = Judgement::new(row, failed_outcome, message.clone());
    match cell {
        Cell::Pass => return refine_exit0(rules, t, &out.stdout, out.truncated, row),
        Cell::BlockStderr | Cell::BlockPrompt if rules.exit2_needs_stderr && stderr.is_empty() => {
            j.row = row.via(Via::Fallback);
            j.outcome = Outcome::Warn;
            j.message = Some(format!(
                "exited with code 2 without a reason on stderr, which {} does not count as a block",
                rules.dialect
            ));
        }
        Cell::BlockStderr | Cell::BlockPrompt => {
            j.effects.verdict = Verdict::Block(
                non_empty(stderr).unwrap_or_else(|| format!("blocked by hook {} (exit 2)", t.id)),
            );
            j.outcome = Outcome::Block;
        }
        // Gemini CLI: exit 2 on AfterTool hides the result, stderr in its place.
        Cell::Feedback if rules.tool_output == ToolOutput::DenyReplaces => {
            j.outcome = Outcome::Warn;
            j.effects.updated_tool_output = Some(result_blocked(&stderr));
        }
        Cell::Feedback => {
            j.outcome = Outcome::Warn;
            j.effects.feedback.extend(non_empty(stderr));
        }
        Cell::ForceStderr if !stderr.is_empty() => {
            j.effects.verdict = Verdict::Force(stderr);
            j.outcome = Outcome::Force;
        }
        // Claude Code: exit 2 on Stop keeps the agent going even with nothing on stderr.
        Cell::ForceStderr if rules.stop_exit2_forces_without_stderr => {
            j.effects.verdict = Verdict::Force(format!(
                "No stderr output (hook {} exited with code 2)",
                t.id
            ));
            j.outcome = Outcome::Force;
        }
        Cell::Block => {
            j.effects.verdict = Verdict::Block(match condition {
                Condition::Exit2 => non_empty(stderr.clone())
                    .or_else(|| non_empty(stdout.clone()))
                    .unwrap_or_else(|| format!("blocked by hook {} (exit 2)", t.id)),
                _ => failure_reason(),
            });
            // A failure that blocks (Copilot CLI's PreToolUse on any other exit) is a block.
            if matches!(condition, Condition::Exit2 | Condition::OtherExit) {
                j.outcome = Outcome::Block;
            }
        }
        Cell::WarnOrBlock if t.on_error == OnError::Block => {
            j.effects.verdict = Verdict::Block(format!("{} (onError: block)", failure_reason()));
            j.outcome = Outcome::Block;
        }
        Cell::ForceIfStdout if !stdout.is_empty() => {
            j.effects.verdict = Verdict::Force(stdout);
            j.outcome = Outcome::Force;
        }
        Cell::Warn => {}
        Cell::WarnOrBlock | Cell::ForceIfStdout | Cell::ForceStderr => {
            j.row = row.via(Via::Fallback);
        }
    }
    j
}

/// `continue: false` on PreToolUse blocks the call too (first the deny, then the stop): an
/// agent that reads only the permission decision must not run a call a hook stopped.
fn stop_blocks_the_call(t: &HookFacts, mut j: Judgement) -> Judgement {
    if t.id.event == Event::PreToolUse
        && j.effects.verdict == Verdict::Pass
        && let Some(reason) = &j.effects.stop
    {
        j.effects.verdict = Verdict::Block(reason.clone());
        j.effects.updated_args = None;
        j.outcome = Outcome::Block;
        j.row = j.row.via(Via::ContinueFalse);
    }
    j
}

/// Exit 0: the JSON protocol may still block, force, rewrite the input or add context.
///
/// An answer that starts like JSON but cannot be read (cut at the cap, malformed, trailing
/// text, a duplicate key, a known field of the wrong type) fails closed where the hook can
/// block: on PreToolUse it blocks (outcome `error`) whatever `onError` says, because a guard
/// whose answer is unreadable must never count as a pass; on PermissionRequest it denies
/// when the hook says `onError: "block"`. Elsewhere it is a warning.
fn refine_exit0(
    rules: &Rules,
    t: &HookFacts,
    stdout: &[u8],
    truncated: bool,
    row: Row,
) -> Judgement {
    let event = t.id.event;
    let stdout = (rules.answer_of)(stdout);
    let r: HookResponse = match parse_stdout(&stdout, truncated) {
        Ok(Some(r)) => r,
        Ok(None) => return plain_stdout(rules, event, &stdout, row),
        Err(problem) => return unreadable_answer(t, problem, row.via(Via::UnreadableJson)),
    };
    if let Some(ignored) = ignored_answer(rules, event, &r, row.via(Via::IgnoredJson)) {
        return ignored;
    }
    let mut j = Judgement::new(row.via(Via::Json), Outcome::Pass, None);
    let r = top_level_read_as(rules, r, &mut j);
    if event == Event::PermissionRequest {
        permission_answer(rules, t, &r, &mut j);
    }
    added_events_answer(event, &r, &mut j);
    j.effects.additional_context.extend(r.additional_context);
    j.effects.system_messages.extend(r.system_message);
    j.effects.stop = j.effects.stop.take().or(r.stop);
    tool_output(rules, event, r.updated_tool_output, &mut j);
    let reason = r.reason;
    if rules.json_block_blocks_prompt
        && event == Event::UserPromptSubmit
        && r.decision == Some(JsonDecision::Block)
    {
        // Claude Code: `decision: "block"` on UserPromptSubmit erases the prompt.
        j.effects.verdict =
            Verdict::Block(reason.unwrap_or_else(|| format!("prompt blocked by hook {}", t.id)));
        j.outcome = Outcome::Block;
        return j;
    }
    // Cursor's stop answer: `followup_message` is the next user message, as a forcing
    // `decision: "block"` with that reason.
    let (decision, reason) = match r.followup {
        Some(f) if r.decision.is_none() && event.class() == EventClass::Forcing => {
            (Some(JsonDecision::Block), Some(f))
        }
        _ => (r.decision, reason),
    };
    apply_decision(rules, t, decision, reason, &mut j);
    if event.class() == EventClass::Blocking && j.effects.verdict == Verdict::Pass {
        j.effects.updated_args = match (r.updated_input, r.tool_input_patch) {
            (Some(u), _) => Some(in_event_terms(rules, t, u, false)),
            (None, Some(patch)) if rules.merges_tool_input => {
                Some(in_event_terms(rules, t, patch, true))
            }
            _ => None,
        };
    }
    if let Some(prompt) = r.updated_prompt {
        replace_prompt(event, prompt, &mut j);
    }
    j
}

/// A hook's `updatedPrompt`: on a UserPromptSubmit it passes, the prompt the agent sends
/// instead of the user's; anywhere else (or empty) it is ignored, with a note.
fn replace_prompt(event: Event, prompt: String, j: &mut Judgement) {
    if event != Event::UserPromptSubmit {
        note(
            j,
            format!(
                "its `updatedPrompt` is ignored: only a UserPromptSubmit answer replaces the prompt, and this is {event}"
            ),
        );
    } else if prompt.trim().is_empty() {
        note(
            j,
            "its empty `updatedPrompt` is ignored: to drop the prompt, block it (exit 2, or `\"decision\": \"block\"`)".into(),
        );
    } else if j.effects.verdict == Verdict::Pass {
        j.effects.updated_prompt = Some(prompt);
    }
}

/// PermissionRequest: the hook allows or denies a call the permission checker would ask
/// about. Claude Code's and Codex's `hookSpecificOutput.decision` (`behavior` "allow" or
/// "deny", a deny's `message`, `interrupt: true` also stops the agent), or a native (or ling)
/// hook's `decision` "allow" / "block" ("deny"); a deny counts in any dialect's spelling.
/// An allow that rewrites the call (`updatedInput`) or the permission rules
/// (`updatedPermissions`) is not applied and the user is asked: hookhost rewrites a call
/// only at PreToolUse, where every guard judges the rewrite.
fn permission_answer(rules: &Rules, t: &HookFacts, r: &HookResponse, j: &mut Judgement) {
    let stated = match &r.permission_request {
        Some(p) => Some(p.clone()),
        None => match r.decision {
            Some(JsonDecision::Block) => Some(PermissionAnswer {
                allow: false,
                message: r.reason.clone(),
                ..PermissionAnswer::default()
            }),
            // Claude Code's and Codex's own `decision` is no permission answer there.
            Some(JsonDecision::Allow) if !rules.dialect.is_claude_family() => {
                Some(PermissionAnswer {
                    allow: true,
                    rewrites: r.updated_input.is_some(),
                    ..PermissionAnswer::default()
                })
            }
            _ => None,
        },
    };
    let Some(p) = stated else { return };
    if !p.allow {
        let reason = p
            .message
            .filter(|m| !m.trim().is_empty())
            .unwrap_or_else(|| format!("denied by hook {}", t.id));
        if p.interrupt {
            j.effects.stop = Some(reason.clone());
        }
        j.effects.verdict = Verdict::Block(reason);
        j.outcome = Outcome::Block;
    } else if p.rewrites {
        j.outcome = Outcome::Warn;
        j.message = Some(
            "its allow rewrites the call or the permission rules (`updatedInput`/`updatedPermissions`), which hookhost does not apply at PermissionRequest (rewrite at PreToolUse); the user is asked instead".into(),
        );
    } else {
        j.effects.allow = true;
        j.outcome = Outcome::Allow;
    }
}

/// The answers of the events Claude Code added (Claude Code's hooks reference, each event's
/// "decision control"): PermissionDenied's `retry`, WorktreeCreate's `worktreePath`,
/// Elicitation's and ElicitationResult's `action` and `content`; `watchPaths` (CwdChanged,
/// FileChanged) is kept in the record, not applied. A field on another event is ignored,
/// said so.
fn added_events_answer(event: Event, r: &HookResponse, j: &mut Judgement) {
    if r.retry {
        if event == Event::PermissionDenied {
            j.effects.retry = true;
        } else {
            note(
                j,
                format!("`retry` applies to PermissionDenied only, not {event}; ignored"),
            );
        }
    }
    if let Some(path) = &r.worktree_path {
        if event == Event::WorktreeCreate {
            worktree_path(path, j);
        } else {
            note(
                j,
                format!("`worktreePath` applies to WorktreeCreate only, not {event}; ignored"),
            );
        }
    }
    if let Some((action, content)) = &r.elicitation {
        if matches!(event, Event::Elicitation | Event::ElicitationResult) {
            j.effects.elicitation = Some(crate::agent::ElicitationAnswer {
                action: action.clone(),
                content: content.clone(),
            });
        } else {
            note(
                j,
                format!(
                    "`action` applies to Elicitation and ElicitationResult only, not {event}; ignored"
                ),
            );
        }
    }
    if r.watch_paths.is_some() {
        note(
            j,
            "`watchPaths` is not applied: hookhost watches no files (its agent core fires FileChanged for the files its own tools write); kept in the record".into(),
        );
    }
}

/// WorktreeCreate: the path a hook gave (its stdout, or `worktreePath`). It must be absolute
/// (Claude Code's reference: the hook prints the absolute path of the worktree it made); a
/// relative one blocks, as no worktree is known then.
fn worktree_path(path: &str, j: &mut Judgement) {
    let path = path.trim();
    if std::path::Path::new(path).is_absolute() {
        j.effects.worktree_path = Some(path.to_string());
    } else {
        j.effects.verdict = Verdict::Block(format!(
            "the WorktreeCreate hook answered {path:?}, which is not an absolute path; print the absolute path of the worktree it created"
        ));
        j.outcome = Outcome::Block;
    }
}

/// Exit 0 with stdout that is not a JSON answer: a pass, which some agents read as context
/// or as a message for the user; WorktreeCreate's is the worktree's path.
fn plain_stdout(rules: &Rules, event: Event, stdout: &[u8], row: Row) -> Judgement {
    let mut j = Judgement::new(row, Outcome::Pass, None);
    let text = text(stdout);
    if text.is_empty() {
        return j;
    }
    j.row = row.via(Via::PlainText);
    if event == Event::WorktreeCreate {
        // The last line: a hook may log before it prints the path.
        worktree_path(text.lines().last().unwrap_or_default(), &mut j);
        return j;
    }
    match rules.plain_stdout {
        // Claude Code and Codex add plain stdout of these events to the model's context.
        PlainStdout::ContextAtStart
            if matches!(event, Event::SessionStart | Event::UserPromptSubmit) =>
        {
            j.effects.additional_context.push(text);
        }
        // Gemini CLI: stdout that is not JSON is a message for the user.
        PlainStdout::UserMessage => j.effects.system_messages.push(text),
        _ => {}
    }
    j
}

/// An answer that starts like JSON but cannot be read: blocks where the hook can block
/// (outcome `error`), else a warning.
fn unreadable_answer(t: &HookFacts, problem: impl std::fmt::Display, row: Row) -> Judgement {
    let msg = format!("its JSON answer cannot be read: {problem}");
    let mut j = Judgement::new(row, Outcome::Warn, None);
    // PreToolUse always fails closed; PermissionRequest, UserPromptSubmit and the gating
    // events when the hook says `onError` (or `onFailure`) "block", as a crash or a timeout
    // of it would.
    let fails_closed = match t.id.event.class() {
        EventClass::Blocking => true,
        EventClass::Deciding | EventClass::Gating => t.on_error == OnError::Block,
        _ if t.id.event == Event::UserPromptSubmit => t.on_error == OnError::Block,
        _ => false,
    };
    if fails_closed {
        j.effects.verdict = Verdict::Block(format!(
            "hook {} {msg}; blocking to fail closed (fix the hook's output)",
            t.id
        ));
        j.outcome = Outcome::Error;
    }
    j.message = Some(msg);
    j
}

/// Adds `note` to the judgement's message; a pass becomes a warning (a problem with the
/// answer is never a clean pass).
fn note(j: &mut Judgement, note: String) {
    j.message = Some(match j.message.take() {
        Some(m) => format!("{m}; {note}"),
        None => note,
    });
    if j.outcome == Outcome::Pass {
        j.outcome = Outcome::Warn;
    }
}

/// The answer as the dialect's agent reads it: Claude Code's family reads `additionalContext`,
/// `updatedInput` and `updatedToolOutput` only inside `hookSpecificOutput`, so a top-level one
/// is ignored, with the warning Claude Code gives.
fn top_level_read_as(rules: &Rules, mut r: HookResponse, j: &mut Judgement) -> HookResponse {
    if rules.reads_top_level || r.top_level_only.is_empty() {
        return r;
    }
    for key in &r.top_level_only {
        match *key {
            "additionalContext" => r.additional_context = None,
            "updatedInput" => r.updated_input = None,
            _ => r.updated_tool_output = None,
        }
    }
    let list = |prefix: &str| {
        r.top_level_only
            .iter()
            .map(|k| format!("`{prefix}{k}`"))
            .collect::<Vec<_>>()
            .join(" and ")
    };
    let verb = if r.top_level_only.len() == 1 {
        "is"
    } else {
        "are"
    };
    note(
        j,
        format!(
            "its top-level {} {verb} ignored: {} reads {} (with a `hookEventName`)",
            list(""),
            rules.dialect,
            list("hookSpecificOutput.")
        ),
    );
    r
}

/// A hook's `updatedToolOutput`: on PostToolUse, what the model sees as the tool's result,
/// where the dialect's agent applies one; else ignored with a warning.
fn tool_output(rules: &Rules, event: Event, output: Option<Value>, j: &mut Judgement) {
    let Some(output) = output else { return };
    if event != Event::PostToolUse {
        note(
            j,
            format!("`updatedToolOutput` applies to PostToolUse only, not {event}; ignored"),
        );
        return;
    }
    match rules.tool_output {
        ToolOutput::Updated => j.effects.updated_tool_output = Some(output),
        ToolOutput::Unsupported | ToolOutput::DenyReplaces => note(
            j,
            format!(
                "{} does not apply `updatedToolOutput` (the model would see the tool's own output); ignored",
                rules.dialect
            ),
        ),
    }
}

/// What Gemini CLI puts in place of a tool's result that an AfterTool hook denied.
fn result_blocked(reason: &str) -> Value {
    let reason = if reason.trim().is_empty() {
        "No reason provided"
    } else {
        reason
    };
    Value::String(format!("Tool result blocked: {reason}"))
}

/// A JSON answer that is ignored with a warning: no field hookhost understands, one the
/// dialect's agent rejects whole, or refused by the dialect's rule on PreToolUse.
fn ignored_answer(rules: &Rules, event: Event, r: &HookResponse, row: Row) -> Option<Judgement> {
    let message = if !r.unrecognized.is_empty() {
        format!(
            "its JSON answer has no field hookhost understands (it has: {}); hookhost reads {} — is the hook written for another agent's protocol?",
            r.unrecognized.join(", "),
            super::output::KNOWN_ANSWER_KEYS.join(", ")
        )
    } else if let Some(problem) = (rules.invalid)(r) {
        format!("its JSON answer is ignored: {problem}")
    } else if event == Event::PreToolUse
        && let Some(problem) = (rules.refuses)(r)
    {
        format!(
            "{problem} ({}'s rule; the answer is ignored)",
            rules.dialect
        )
    } else {
        return None;
    };
    Some(Judgement::new(row, Outcome::Warn, Some(message)))
}

/// The answer's `decision`, by the class of its event: a block, a force (`block` on Stop,
/// with a reason for the model), feedback (elsewhere; Gemini CLI's AfterTool deny hides the
/// tool's result), `ask` (with its reason) or `defer`.
fn apply_decision(
    rules: &Rules,
    t: &HookFacts,
    decision: Option<JsonDecision>,
    reason: Option<String>,
    j: &mut Judgement,
) {
    match (t.id.event.class(), decision) {
        (EventClass::Blocking | EventClass::Gating, Some(JsonDecision::Block)) => {
            j.effects.verdict =
                Verdict::Block(reason.unwrap_or_else(|| format!("blocked by hook {}", t.id)));
            j.outcome = Outcome::Block;
        }
        (EventClass::Forcing, Some(JsonDecision::Block)) => match reason {
            Some(msg) if !msg.trim().is_empty() => {
                j.effects.verdict = Verdict::Force(msg);
                j.outcome = Outcome::Force;
            }
            _ => {
                j.outcome = Outcome::Warn;
                j.message = Some(
                    "asked to continue (decision: block) without a `reason` to give the model"
                        .into(),
                );
            }
        },
        (EventClass::Observing, Some(JsonDecision::Block))
            if t.id.event == Event::PostToolUse
                && rules.tool_output == ToolOutput::DenyReplaces =>
        {
            j.outcome = Outcome::Warn;
            j.effects.updated_tool_output =
                Some(result_blocked(reason.as_deref().unwrap_or_default()));
        }
        (EventClass::Observing, Some(JsonDecision::Block)) => {
            j.outcome = Outcome::Warn;
            j.effects.feedback.extend(reason);
        }
        (EventClass::Blocking, Some(JsonDecision::Ask)) => {
            j.effects.ask = true;
            j.effects.ask_reason = reason.filter(|r| !r.trim().is_empty());
        }
        (EventClass::Blocking, Some(JsonDecision::Defer)) => j.effects.defer = true,
        _ => {}
    }
}

/// A rewrite from a hook of another dialect, in the event's terms: its argument keys mapped
/// back to the core's when the event carries a core tool name (`file_path` -> `path`), and
/// Gemini CLI's `tool_input` merged into the arguments the hook saw.
fn in_event_terms(rules: &Rules, t: &HookFacts, updated: Value, merge: bool) -> Value {
    if rules.dialect == Dialect::Native {
        return updated;
    }
    let tool = t.tool.unwrap_or_default();
    let updated = tools::input_to_event(rules.dialect, tool, &updated);
    match (merge, t.args, updated) {
        (true, Some(Value::Object(current)), Value::Object(patch)) => {
            let mut merged = current.clone();
            merged.extend(patch);
            Value::Object(merged)
        }
        (_, _, updated) => updated,
    }
}

#[cfg(test)]
mod tests;
