//! The outbound adapter's answer: an event's [`EventReport`] in the protocol of the agent
//! that asked (`hookhost hook --for claude|gemini|codex|cursor|copilot`), so that the agent
//! reaches the decision hookhost reached.
//!
//! Every answer is JSON on stdout with exit 0 (the form each agent documents as preferred);
//! nothing on stdout when there is nothing to say. Hooks can block, never bypass: hookhost
//! never answers "allow" on PreToolUse. On PermissionRequest, which Claude Code and Codex
//! fire only for a call their own rules would prompt for (their deny rules come first), it
//! answers `decision: {behavior: "allow"}` when a native hook allowed the call and none
//! denied it, `{behavior: "deny", message}` when one denied it. A rewrite of the tool input
//! goes back in the agent's argument keys, with no decision so that the agent's own
//! permission flow judges the new input (Claude Code), merged into the input (Gemini CLI), as
//! `modifiedArgs` (Copilot CLI, which applies it), or, where the agent cannot apply rewrites
//! (Codex; Cursor, whose docs do not promise `updated_input`), as a deny that says so: a
//! guard's rewrite is never silently dropped. An ask keeps its reason (Codex, which cannot
//! ask, gets a deny that says so); a defer is Claude Code's `defer` (elsewhere the agent's
//! own permission flow, which is what it means). A replaced tool result
//! (`updatedToolOutput`) goes back as Claude Code's `updatedToolOutput`, as Gemini CLI's
//! AfterTool deny (the model sees "Tool result blocked: OUTPUT" instead of the result), and
//! to Codex, which cannot apply one, as a `systemMessage` that says so. Context goes only in
//! `hookSpecificOutput.additionalContext`, where these agents read it.
//!
//! Cursor (cursor.com/docs/hooks): `{"permission": "deny", "user_message", "agent_message"}`
//! (or `"ask"`) on its before-events; `{"continue": false, "user_message"}` blocks a prompt;
//! `{"followup_message"}` sends the agent on at `stop`; `additional_context` on
//! sessionStart and the after-events; the untrusted-hooks notice goes in `user_message`.
//! GitHub Copilot CLI (docs.github.com/en/copilot/reference/hooks-reference):
//! `{"permissionDecision": "deny"|"ask", "permissionDecisionReason"}` or `{"modifiedArgs"}`
//! on preToolUse, `{"decision": "block", "reason"}` on agentStop/subagentStop,
//! `additionalContext` on sessionStart and postToolUse. Copilot CLI drops every answer to
//! userPromptSubmitted and shows hooks no user channel: a blocked prompt, a stop outside
//! preToolUse and the untrusted-hooks notice cannot reach it (the call-level decisions do).
//! Events these agents fire that hookhost does not (Cursor's `afterAgentResponse`, Copilot
//! CLI's `errorOccurred`, ...) fire nothing and are answered with nothing: a pass.

use super::render::gemini_event;
use crate::Dialect;
use crate::config::agents::tools;
use crate::event::Event;
use crate::judge::Outcome;
use crate::report::{Decision, EventReport};
use hookhost_protocol::wire::{
    Behavior, BlockDecision, ClaudeAnswer, ClaudeSpecificOutput, CodexAnswer, CodexPermission,
    CodexSpecificOutput, CopilotAnswer, CopilotPermission, CopilotStopDecision, CursorAnswer,
    CursorPermission, GeminiAnswer, GeminiDecision, GeminiSpecificOutput, PermissionDecision,
    PermissionRequestDecision,
};
use serde::Serialize;
use serde_json::Value;

/// What the adapter prints and how it exits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The JSON answer (empty: nothing to say); WorktreeCreate's is the worktree's path.
    pub stdout: String,
    /// The exit code.
    pub exit_code: u8,
    /// What goes to stderr (empty: nothing): why a WorktreeCreate made no worktree.
    pub stderr: String,
}

fn joined(items: &[String]) -> Option<String> {
    (!items.is_empty()).then(|| items.join("\n"))
}

/// The answer for `report`, fired for the core tool `tool` (PreToolUse/PostToolUse).
pub fn respond(d: Dialect, report: &EventReport, tool: Option<&str>) -> Answer {
    let replaced;
    let report = match unsendable_replacement(d, report) {
        Some(blocked) => {
            replaced = blocked;
            &replaced
        }
        None => report,
    };
    if report.event == Event::WorktreeCreate {
        return worktree_answer(report);
    }
    let f = Facts::of(d, report, tool);
    if d == Dialect::Windsurf {
        return windsurf_answer(&f);
    }
    let stdout = match d {
        Dialect::Gemini => text(&gemini_answer(&f)),
        Dialect::Codex => text(&codex_answer(&f)),
        Dialect::Cursor => text(&cursor_answer(&f)),
        Dialect::Copilot => text(&copilot_answer(&f)),
        Dialect::Goose => text(&goose_answer(&f)),
        Dialect::Qwen => text(&qwen_answer(&f)),
        Dialect::Droid => text(&droid_answer(&f)),
        Dialect::Opencode => text(&opencode_answer(&f)),
        Dialect::Cline => text(&cline_answer(&f)),
        // Qoder CLI, Grok CLI, Auggie and VS Code read Claude Code's.
        _ => text(&claude_answer(&f)),
    };
    Answer {
        stdout,
        exit_code: 0,
        stderr: String::new(),
    }
}

/// Windsurf's answer (docs.windsurf.com/windsurf/cascade/hooks, "Exit Codes"): it reads exit
/// codes only. Exit 2 blocks a pre-hook's action (a tool call, a prompt), with the reason on
/// stderr; a denied call, an ask (which Windsurf cannot ask) and a rewrite (which it cannot
/// apply) are such a block, the last two saying so; so is a blocked prompt or `continue:
/// false` on a pre-hook. Everything else is exit 0 with nothing: context, a forced Stop
/// (`post_cascade_response` cannot keep Cascade going) and messages for the user cannot be
/// said.
fn windsurf_answer(f: &Facts) -> Answer {
    let pre = matches!(f.event, Event::PreToolUse | Event::UserPromptSubmit);
    let why = match f.event {
        Event::PreToolUse if f.blocked => Some(block_reason(f)),
        Event::PreToolUse if f.ask => Some(match &f.ask_reason {
            Some(why) => format!("a hookhost hook asks for confirmation ({why}), which a Windsurf hook cannot ask for; blocked to fail closed"),
            None => "a hookhost hook asks for confirmation, which a Windsurf hook cannot ask for; blocked to fail closed".to_string(),
        }),
        Event::PreToolUse if f.updated.is_some() => Some(
            "a hookhost hook rewrote this call's arguments, which a Windsurf hook cannot hand back; blocked so that the unrewritten call does not run".to_string(),
        ),
        Event::UserPromptSubmit if f.ends_turn => Some(block_reason(f)),
        _ if pre => f.stop.clone(),
        _ => None,
    };
    match why {
        Some(why) => Answer {
            stdout: String::new(),
            exit_code: 2,
            stderr: lines(Some(why), &f.messages).unwrap_or_default(),
        },
        None => Answer {
            stdout: String::new(),
            exit_code: 0,
            stderr: String::new(),
        },
    }
}

/// goose's answer (the Open Plugins hooks format): `{"decision": "block", "reason"}`.
#[derive(Debug, Default, PartialEq, Serialize)]
struct GooseAnswer {
    #[serde(skip_serializing_if = "Option::is_none")]
    decision: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// goose decides only on PreToolUse (block) and Stop (block keeps the turn going): a deny,
/// an ask (goose cannot ask: a block that says so) or a rewrite (goose cannot apply one: a
/// block that says so) on PreToolUse; a forced Stop. Its other events cannot decide, and it
/// has no channel for context or for the user: nothing.
fn goose_answer(f: &Facts) -> GooseAnswer {
    let reason = match f.event {
        Event::PreToolUse if f.blocked => Some(f.reason.clone()),
        Event::PreToolUse if f.ask => Some(match &f.ask_reason {
            Some(why) => format!("a hookhost hook asks for confirmation ({why}), which a goose hook cannot ask for; blocked to fail closed"),
            None => "a hookhost hook asks for confirmation, which a goose hook cannot ask for; blocked to fail closed".to_string(),
        }),
        Event::PreToolUse if f.updated.is_some() => Some(
            "a hookhost hook rewrote this call's arguments, which a goose hook cannot apply; blocked so that the unrewritten call does not run".to_string(),
        ),
        Event::Stop | Event::SubagentStop if f.ends_turn => Some(f.reason.clone()),
        _ => None,
    };
    GooseAnswer {
        decision: reason.as_ref().map(|_| "block"),
        reason: reason.map(|r| {
            if r.trim().is_empty() {
                "denied by a hookhost hook".to_string()
            } else {
                r
            }
        }),
    }
}

/// The answer hookhost's opencode plugin (`plugins/opencode/hookhost.js`) reads: `block`
/// with its `reason` (the plugin throws an Error with it, which opencode shows the model as
/// the tool's failure), `args` (the plugin puts them in the call's `output.args`, which
/// opencode runs), `output` (in place of the tool's result) and `context` (added to the
/// result the model reads), `message` (the plugin logs it).
#[derive(Debug, Default, PartialEq, Serialize)]
struct OpencodeAnswer {
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    block: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    context: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

/// opencode decides on `tool.execute.before` only: a deny blocks; an ask blocks and says so
/// (a plugin's before-hook cannot ask the user); a rewrite goes back as `args`, which the
/// plugin applies. After the tool, a replaced result is `output`, context and feedback are
/// `context`. A forced Stop (opencode's `session.idle` cannot keep the session going) and a
/// defer (opencode's own permission flow is what it means) say nothing.
fn opencode_answer(f: &Facts) -> OpencodeAnswer {
    let pre = f.event == Event::PreToolUse;
    let reason = match () {
        _ if pre && f.blocked => Some(f.reason.clone()),
        _ if pre && f.ask => Some(match &f.ask_reason {
            Some(why) => format!("a hookhost hook asks for confirmation ({why}), which an opencode plugin cannot ask for before a tool runs; blocked to fail closed"),
            None => "a hookhost hook asks for confirmation, which an opencode plugin cannot ask for before a tool runs; blocked to fail closed".to_string(),
        }),
        _ => None,
    }
    .map(|r| {
        if r.trim().is_empty() {
            "denied by a hookhost hook".to_string()
        } else {
            r
        }
    });
    let post = f.event == Event::PostToolUse;
    let context: Vec<String> = [f.context.clone(), f.feedback.clone()]
        .into_iter()
        .flatten()
        .filter(|_| post)
        .collect();
    OpencodeAnswer {
        block: reason.is_some(),
        args: f.updated.clone().filter(|_| pre && reason.is_none()),
        reason,
        output: f.tool_output_text().filter(|_| post),
        context: joined(&context),
        message: f.messages.clone(),
    }
}

/// Cline's answer (docs.cline.bot, "Hook Reference", "Output Format").
#[derive(Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
struct ClineAnswer {
    #[serde(skip_serializing_if = "Option::is_none")]
    cancel: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    context_modification: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error_message: Option<String>,
}

/// Cline has one decision, `cancel: true`, which stops the task (the user resumes it) and
/// shows `errorMessage`: a denied call (an ask, which Cline cannot ask, and a rewrite, which
/// its documented answer cannot carry, are denials that say so), a blocked prompt, a
/// `continue: false` anywhere. Context for the model goes in `contextModification`. A forced
/// Stop cannot be said (TaskComplete cannot keep the task going), nor anything for the user
/// without a cancel (the untrusted-hooks notice rides on a cancel's `errorMessage`).
fn cline_answer(f: &Facts) -> ClineAnswer {
    let why = match f.event {
        Event::PreToolUse if f.blocked => Some(block_reason(f)),
        Event::PreToolUse if f.ask => Some(match &f.ask_reason {
            Some(why) => format!("a hookhost hook asks for confirmation ({why}), which a Cline hook cannot ask for; cancelled to fail closed"),
            None => "a hookhost hook asks for confirmation, which a Cline hook cannot ask for; cancelled to fail closed".to_string(),
        }),
        Event::PreToolUse if f.updated.is_some() => Some(
            "a hookhost hook rewrote this call's arguments, which a Cline hook cannot hand back; cancelled so that the unrewritten call does not run".to_string(),
        ),
        Event::UserPromptSubmit if f.ends_turn => Some(block_reason(f)),
        _ => f.stop.clone(),
    };
    match why {
        Some(why) => ClineAnswer {
            cancel: Some(true),
            context_modification: None,
            error_message: lines(Some(why), &f.messages),
        },
        None => ClineAnswer {
            context_modification: match f.event {
                Event::PostToolUse => context_and_feedback(f),
                _ => f.context.clone(),
            },
            ..ClineAnswer::default()
        },
    }
}

/// WorktreeCreate (Claude Code's hooks reference, "WorktreeCreate"): the hook creates the
/// worktree and prints its absolute path, alone, on stdout; any non-zero exit fails the
/// creation. So the path a hook gave, or exit 1 with why there is none on stderr.
fn worktree_answer(report: &EventReport) -> Answer {
    match (&report.decision, &report.worktree_path) {
        (Decision::Pass, Some(path)) => Answer {
            stdout: path.clone(),
            exit_code: 0,
            stderr: String::new(),
        },
        (decision, _) => Answer {
            stdout: String::new(),
            exit_code: 1,
            stderr: match (decision, report.reason.as_deref()) {
                (Decision::Block, Some(r)) if !r.trim().is_empty() => r.to_string(),
                _ => "no WorktreeCreate hook created a worktree (none printed its absolute path)"
                    .to_string(),
            },
        },
    }
}

/// A prompt a hook replaced (`updatedPrompt`), answered to an agent whose hooks cannot
/// replace one (none of the five can: their prompt hooks block or add context; Gemini CLI's
/// BeforeModel can, which the adapter uses when it is wired: `gemini_model`): the report
/// as a block of the original prompt whose reason gives the replacement, so the user can
/// send it. Failing closed: a replacement may be a redaction, and the original must then not
/// go to the model. `None`: nothing was replaced (or the prompt was blocked anyway).
fn unsendable_replacement(d: Dialect, report: &EventReport) -> Option<EventReport> {
    let prompt = report.updated_prompt.as_ref()?;
    if report.event != Event::UserPromptSubmit || report.decision != Decision::Pass {
        return None;
    }
    let mut blocked = report.clone();
    blocked.decision = Decision::Block;
    blocked.reason = Some(format!(
        "a hook replaced this prompt, and {} cannot send a replaced prompt, so the original was not sent; to send the replacement, submit it as your prompt:\n{prompt}",
        d.agent()
    ));
    blocked.updated_prompt = None;
    Some(blocked)
}

/// An answer as printed: nothing when it says nothing.
fn text<T: Serialize + Default + PartialEq>(answer: &T) -> String {
    if *answer == T::default() {
        String::new()
    } else {
        // Plain data: serialising it cannot fail.
        serde_json::to_string(answer).unwrap_or_default()
    }
}

/// What every agent's answer is made of, worked out once from the report.
struct Facts {
    event: Event,
    /// `continue: false` with this `stopReason`.
    stop: Option<String>,
    /// The system messages and the untrusted-hooks notice, one per line.
    messages: Option<String>,
    context: Option<String>,
    feedback: Option<String>,
    /// The rewritten arguments, in the agent's keys.
    updated: Option<Value>,
    /// A blocked prompt or a forced Stop: the same answer in these protocols.
    ends_turn: bool,
    /// The call is denied (a block, or `continue: false` on PreToolUse: deny first, then
    /// stop, so an agent that reads only the permission decision does not run the call).
    blocked: bool,
    /// The block reason or force message (the stop reason for a stop's deny).
    reason: String,
    ask: bool,
    /// Why a hook asked.
    ask_reason: Option<String>,
    defer: bool,
    /// What the model sees as the tool's result instead of its output.
    tool_output: Option<Value>,
    /// PermissionRequest: a hook allowed the call.
    allow: bool,
    /// The event takes `additionalContext`.
    takes_context: bool,
    /// PermissionDenied: the model may retry.
    retry: bool,
    /// Elicitation, ElicitationResult: the action and content answered (a block declines).
    elicitation: Option<(String, Option<Value>)>,
}

impl Facts {
    fn of(d: Dialect, report: &EventReport, tool: Option<&str>) -> Facts {
        let e = report.event;
        let stop = report.stop.as_ref().map(|s| s.reason.clone());
        let mut messages = report.system_messages.clone();
        messages.extend(untrusted_notice(report));
        let blocked = report.decision == Decision::Block
            || (matches!(e, Event::PreToolUse | Event::PreSkillShellCommand) && stop.is_some());
        let reason = match (&stop, report.reason.as_deref().unwrap_or_default()) {
            (Some(stop), "") if blocked => stop.clone(),
            (_, reason) => reason.to_string(),
        };
        Facts {
            event: e,
            stop,
            messages: joined(&messages),
            context: joined(&report.additional_context),
            feedback: joined(&report.feedback),
            updated: report
                .updated_args
                .as_ref()
                .map(|args| tools::to_dialect(d, tool.unwrap_or_default(), args).1),
            ends_turn: matches!(
                (e, report.decision),
                (Event::UserPromptSubmit, Decision::Block)
                    | (
                        Event::Stop | Event::SubagentStop | Event::TeammateIdle,
                        Decision::Force
                    )
            ) || (report.decision == Decision::Block
                && e.class() == crate::event::EventClass::Gating
                && !matches!(e, Event::Elicitation | Event::ElicitationResult)
                // Only Claude Code reads a PreCompact block (Codex's answer schema has no
                // `decision`; Gemini CLI's PreCompress cannot stop a compression).
                && (e != Event::PreCompact || d == Dialect::Claude)),
            blocked,
            reason,
            ask: report.ask,
            ask_reason: report.ask_reason.clone(),
            defer: report.defer,
            tool_output: report
                .updated_tool_output
                .clone()
                .filter(|_| e == Event::PostToolUse),
            allow: report.allow,
            takes_context: takes_context(d, e),
            retry: report.retry && e == Event::PermissionDenied,
            elicitation: report
                .elicitation
                .as_ref()
                .map(|a| (a.action.clone(), a.content.clone()))
                .filter(|_| matches!(e, Event::Elicitation | Event::ElicitationResult)),
        }
    }

    /// PermissionRequest's `hookSpecificOutput.decision`: deny (with the reason) when a hook
    /// blocked, allow when one allowed; `None`: the agent asks its user as usual.
    fn permission_request(&self) -> Option<PermissionRequestDecision> {
        if self.event != Event::PermissionRequest {
            return None;
        }
        if self.blocked {
            Some(PermissionRequestDecision {
                behavior: Behavior::Deny,
                message: Some(if self.reason.trim().is_empty() {
                    "denied by a hookhost hook".to_string()
                } else {
                    self.reason.clone()
                }),
            })
        } else {
            self.allow.then_some(PermissionRequestDecision {
                behavior: Behavior::Allow,
                message: None,
            })
        }
    }

    /// Outside PreToolUse, the reason of Claude Code's and Codex's top-level
    /// `"decision": "block"`: a turn ended (prompt blocked, Stop forced), or PostToolUse
    /// feedback for the model.
    fn top_level_block(&self) -> Option<String> {
        match self.event {
            Event::PreToolUse => None,
            _ if self.ends_turn => Some(self.reason.clone()),
            Event::PostToolUse => self.feedback.clone(),
            _ => None,
        }
    }

    /// The tool result a hook put in place of the real one, as text.
    fn tool_output_text(&self) -> Option<String> {
        self.tool_output.as_ref().map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
    }

    /// The context for `hookSpecificOutput`, unless something else filled it.
    fn context_for(&self, filled: &Option<String>) -> Option<String> {
        match filled {
            Some(c) => Some(c.clone()),
            None => self.context.clone().filter(|_| self.takes_context),
        }
    }
}

/// Whether the agent reads `hookSpecificOutput.additionalContext` on `e`: Claude Code on
/// SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure, Notification
/// and SubagentStart (its 2.1.332 output schemas); Codex on those of them it fires
/// (its `*.command.output` schemas); Gemini CLI on SessionStart, BeforeAgent, BeforeTool and
/// AfterTool.
fn takes_context(d: Dialect, e: Event) -> bool {
    let common = matches!(
        e,
        Event::SessionStart | Event::UserPromptSubmit | Event::PostToolUse | Event::PreToolUse
    );
    match d {
        Dialect::Gemini => common,
        Dialect::Codex => common || e == Event::SubagentStart,
        _ => {
            common
                || matches!(
                    e,
                    Event::PostToolUseFailure
                        | Event::Notification
                        | Event::SubagentStart
                        | Event::Setup
                        | Event::UserPromptExpansion
                        | Event::PostToolBatch
                )
        }
    }
}

/// What the answers of Claude Code, Codex and Gemini CLI are made of: one set of fields,
/// which each agent's rules fill ([`claude_answer`], [`codex_answer`], [`gemini_answer`]),
/// and the one place that says which field of each agent's answer carries which
/// ([`Family::claude`], [`Family::codex`], [`Family::gemini`]).
#[derive(Debug, Default)]
struct Family {
    /// `"continue": false`, with this `stopReason`.
    stop: Option<String>,
    /// `systemMessage`.
    system_message: Option<String>,
    /// The top-level `decision` and its `reason`.
    decision: Option<TopDecision>,
    /// `reason`.
    reason: Option<String>,
    /// `hookSpecificOutput.additionalContext`.
    context: Option<String>,
    /// `hookSpecificOutput.permissionDecision` (Codex: deny only).
    permission: Option<PermissionDecision>,
    /// `hookSpecificOutput.permissionDecisionReason`.
    permission_reason: Option<String>,
    /// PermissionRequest's `hookSpecificOutput.decision`.
    permission_request: Option<PermissionRequestDecision>,
    /// The rewritten arguments: Claude Code's `updatedInput`, Gemini CLI's `tool_input`.
    updated_input: Option<Value>,
    /// `hookSpecificOutput.updatedToolOutput` (Claude Code).
    updated_tool_output: Option<Value>,
    /// `hookSpecificOutput.retry` (Claude Code's PermissionDenied).
    retry: Option<bool>,
    /// `hookSpecificOutput.action` and `content` (Claude Code's Elicitation,
    /// ElicitationResult).
    elicitation: Option<(String, Option<Value>)>,
}

/// A top-level `decision`: Claude Code's and Codex's `"block"` (Gemini CLI's `"deny"`), or
/// Gemini CLI's `"ask"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TopDecision {
    Block,
    Ask,
}

impl Family {
    /// What every answer of the family starts from: the stop and the system messages.
    fn of(f: &Facts) -> Family {
        Family {
            stop: f.stop.clone(),
            system_message: f.messages.clone(),
            ..Family::default()
        }
    }

    /// Claude Code's and Codex's last steps: PermissionRequest's decision, and the top-level
    /// block outside PreToolUse.
    fn decide(&mut self, f: &Facts) {
        self.permission_request = f.permission_request();
        if let Some(reason) = f.top_level_block() {
            self.decision = Some(TopDecision::Block);
            self.reason = Some(reason);
        }
    }

    /// The event's context, unless a builder filled the field already.
    fn with_context(mut self, f: &Facts) -> Family {
        self.context = f.context_for(&self.context);
        self
    }

    /// As Claude Code's answer.
    fn claude(self, event: Event) -> ClaudeAnswer {
        let hso = ClaudeSpecificOutput {
            additional_context: self.context,
            decision: self.permission_request,
            hook_event_name: String::new(),
            permission_decision: self.permission,
            permission_decision_reason: self.permission_reason,
            updated_input: self.updated_input,
            updated_tool_output: self.updated_tool_output,
            retry: self.retry,
            action: self.elicitation.as_ref().map(|(a, _)| a.clone()),
            content: self.elicitation.and_then(|(_, c)| c),
        };
        ClaudeAnswer {
            continue_: self.stop.as_ref().map(|_| false),
            decision: self.decision.map(|_| BlockDecision::Block),
            hook_specific_output: (hso != ClaudeSpecificOutput::default()).then(|| {
                ClaudeSpecificOutput {
                    hook_event_name: event.as_str().to_string(),
                    ..hso
                }
            }),
            reason: self.reason,
            stop_reason: self.stop,
            system_message: self.system_message,
        }
    }

    /// As Codex's answer (which has no `updatedInput`, `updatedToolOutput`, ask or defer).
    fn codex(self, event: Event) -> CodexAnswer {
        let hso = CodexSpecificOutput {
            additional_context: self.context,
            decision: self.permission_request,
            hook_event_name: String::new(),
            permission_decision: self
                .permission
                .filter(|p| *p == PermissionDecision::Deny)
                .map(|_| CodexPermission::Deny),
            permission_decision_reason: self.permission_reason,
        };
        CodexAnswer {
            continue_: self.stop.as_ref().map(|_| false),
            decision: self.decision.map(|_| BlockDecision::Block),
            hook_specific_output: (hso != CodexSpecificOutput::default()).then(|| {
                CodexSpecificOutput {
                    hook_event_name: event.as_str().to_string(),
                    ..hso
                }
            }),
            reason: self.reason,
            stop_reason: self.stop,
            system_message: self.system_message,
        }
    }

    /// As Gemini CLI's answer: its event names, its `decision` at the top level.
    fn gemini(self, event: Event) -> GeminiAnswer {
        let hso = GeminiSpecificOutput {
            additional_context: self.context,
            hook_event_name: String::new(),
            tool_input: self.updated_input,
            llm_request: None,
        };
        GeminiAnswer {
            continue_: self.stop.as_ref().map(|_| false),
            decision: self.decision.map(|d| match d {
                TopDecision::Block => GeminiDecision::Deny,
                TopDecision::Ask => GeminiDecision::Ask,
            }),
            hook_specific_output: (hso != GeminiSpecificOutput::default()).then(|| {
                GeminiSpecificOutput {
                    hook_event_name: gemini_event(event).unwrap_or(event.as_str()).to_string(),
                    ..hso
                }
            }),
            reason: self.reason,
            stop_reason: self.stop,
            system_message: self.system_message,
        }
    }
}

/// The context and the feedback, for an event whose agent reads only the context.
fn context_then_feedback(f: &Facts) -> Option<String> {
    f.feedback.as_ref().map(|fb| match &f.context {
        Some(c) => format!("{c}\n{fb}"),
        None => fb.clone(),
    })
}

/// Claude Code's answer (also what a native or ling caller gets).
fn claude_answer(f: &Facts) -> ClaudeAnswer {
    let mut a = Family::of(f);
    match f.event {
        Event::PreToolUse | Event::PreSkillShellCommand if f.blocked => {
            a.permission = Some(PermissionDecision::Deny);
            a.permission_reason = Some(f.reason.clone());
        }
        // Claude Code runs a skill's command as written: a rewrite cannot be applied, so the
        // command is denied rather than run unrewritten.
        Event::PreSkillShellCommand if f.updated.is_some() => {
            a.permission = Some(PermissionDecision::Deny);
            a.permission_reason = Some("a hookhost hook rewrote this skill's shell command, which Claude Code cannot apply; blocked to fail closed".to_string());
        }
        Event::PreToolUse | Event::PreSkillShellCommand => {
            // A rewrite goes back alone: Claude Code applies an `updatedInput` that comes
            // without a decision and runs its own permission flow on the new input (2.1.332:
            // its `hookUpdatedInput`), as hookhost's checker runs on the final arguments; an
            // "ask" with it would be refused headless (`-p`). An ask keeps its reason.
            a.updated_input.clone_from(&f.updated);
            if f.ask {
                a.permission = Some(PermissionDecision::Ask);
                a.permission_reason.clone_from(&f.ask_reason);
            } else if f.defer {
                a.permission = Some(PermissionDecision::Defer);
            }
        }
        Event::PostToolUse => a.updated_tool_output.clone_from(&f.tool_output),
        // Claude Code reads only `additionalContext` there: feedback goes to the model so.
        Event::PostToolUseFailure => a.context = context_then_feedback(f),
        Event::PermissionDenied => a.retry = f.retry.then_some(true),
        // A block declines in the user's place; else a hook's own answer.
        Event::Elicitation | Event::ElicitationResult if f.blocked => {
            a.elicitation = Some(("decline".into(), None));
        }
        Event::Elicitation | Event::ElicitationResult => a.elicitation.clone_from(&f.elicitation),
        _ => {}
    }
    a.decide(f);
    a.with_context(f).claude(f.event)
}

/// Qwen Code's answer: Claude Code's, except where Qwen Code 0.24 reads less (seen in the
/// real-agents tier): it applies `updatedInput` only from a PermissionRequest hook, so a
/// rewrite on PreToolUse is a deny that says so (never the unrewritten call); and its
/// PostToolUse reads `additionalContext`, not `decision`/`reason`, so feedback goes there.
fn qwen_answer(f: &Facts) -> ClaudeAnswer {
    match f.event {
        Event::PreToolUse if !f.blocked && f.updated.is_some() => {
            let mut a = Family::of(f);
            a.permission = Some(PermissionDecision::Deny);
            a.permission_reason = Some("a hookhost hook rewrote this call's arguments, which Qwen Code cannot apply from a PreToolUse hook; blocked to fail closed".to_string());
            a.decide(f);
            a.with_context(f).claude(f.event)
        }
        Event::PostToolUse if f.feedback.is_some() => feedback_as_context(f),
        _ => claude_answer(f),
    }
}

/// Factory Droid's answer: Claude Code's, except that its PostToolUse (0.215.0, seen in the
/// real-agents tier) reads `additionalContext` and ignores `decision: "block"` with its
/// `reason`: feedback goes in the context too, which Droid hands the model.
fn droid_answer(f: &Facts) -> ClaudeAnswer {
    match f.event {
        Event::PostToolUse if f.feedback.is_some() => feedback_as_context(f),
        _ => claude_answer(f),
    }
}

/// A PostToolUse answer with the hooks' feedback also after their context in
/// `additionalContext`, for an agent that reads no `decision`/`reason` there.
fn feedback_as_context(f: &Facts) -> ClaudeAnswer {
    let mut a = Family::of(f);
    a.updated_tool_output.clone_from(&f.tool_output);
    a.context = context_then_feedback(f);
    a.decide(f);
    a.with_context(f).claude(f.event)
}

/// Codex's answer: on PreToolUse only a deny (Codex rejects "ask" and "allow", and cannot
/// apply a rewrite: a rewrite is a deny that says so, never silently dropped).
fn codex_answer(f: &Facts) -> CodexAnswer {
    let mut a = Family::of(f);
    if f.tool_output.is_some() {
        // Codex 0.171 has no `updatedToolOutput`: say so rather than drop it unseen.
        let note = "hookhost: a hook replaced this tool's result, which Codex cannot apply (it has no updatedToolOutput); the model sees the tool's own output".to_string();
        a.system_message = Some(match a.system_message.take() {
            Some(m) => format!("{m}\n{note}"),
            None => note,
        });
    }
    if f.event == Event::PreToolUse {
        if let Some(why) = codex_deny(f) {
            a.permission = Some(PermissionDecision::Deny);
            a.permission_reason = Some(why);
        }
        // Codex 0.171 rejects `continue`/`stopReason` on PreToolUse ("unsupported
        // continue:false"), marks the hook Failed, drops the whole answer and runs the
        // call: the deny alone carries the stop (its reason is the stop reason).
        a.stop = None;
    }
    a.decide(f);
    a.with_context(f).codex(f.event)
}

/// Why Codex must deny this PreToolUse call, if it must: a block, or a rewrite Codex cannot
/// apply (denied to fail closed, never silently dropped). `None`: Codex's approval policy
/// decides.
fn codex_deny(f: &Facts) -> Option<String> {
    if f.blocked {
        Some(if f.reason.trim().is_empty() {
            "blocked by a hookhost hook".to_string()
        } else {
            f.reason.clone()
        })
    } else if f.updated.is_some() {
        Some("a hookhost hook rewrote this call's arguments, which Codex cannot apply; blocked to fail closed".to_string())
    } else if f.ask {
        // Codex rejects "ask" from a hook: a call a hook wants confirmed does not run
        // unconfirmed.
        Some(match &f.ask_reason {
            Some(why) => format!("a hookhost hook asks for confirmation ({why}), which a Codex hook cannot ask for; blocked to fail closed"),
            None => "a hookhost hook asks for confirmation, which a Codex hook cannot ask for; blocked to fail closed".to_string(),
        })
    } else {
        None
    }
}

/// Gemini CLI's answer: `decision` deny or ask; a rewrite merged through `tool_input`;
/// AfterTool feedback as context.
fn gemini_answer(f: &Facts) -> GeminiAnswer {
    let mut a = Family::of(f);
    match f.event {
        Event::PreToolUse if f.blocked => {
            a.decision = Some(TopDecision::Block);
            a.reason = Some(f.reason.clone());
        }
        Event::PreToolUse => {
            if f.ask {
                a.decision = Some(TopDecision::Ask);
                a.reason.clone_from(&f.ask_reason);
            }
            a.updated_input.clone_from(&f.updated);
        }
        _ if f.ends_turn => {
            a.decision = Some(TopDecision::Block);
            a.reason = Some(f.reason.clone());
        }
        Event::PostToolUse => {
            a.context = context_then_feedback(f);
            // Gemini CLI has no `updatedToolOutput`: its AfterTool deny puts the reason in
            // place of the result ("Tool result blocked: REASON"), which hides the real one.
            if let Some(output) = f.tool_output_text() {
                a.decision = Some(TopDecision::Block);
                a.reason = Some(output);
            }
        }
        _ => {}
    }
    a.with_context(f).gemini(f.event)
}

/// `f`'s block reason, or a default when it gave none.
fn block_reason(f: &Facts) -> String {
    if f.reason.trim().is_empty() {
        "blocked by a hookhost hook".to_string()
    } else {
        f.reason.clone()
    }
}

/// Lines for the user, the first given.
fn lines(first: Option<String>, rest: &Option<String>) -> Option<String> {
    match (first, rest) {
        (Some(a), Some(b)) => Some(format!("{a}\n{b}")),
        (a, b) => a.or_else(|| b.clone()),
    }
}

/// The context and the feedback of hooks, for the model, on one channel.
fn context_and_feedback(f: &Facts) -> Option<String> {
    lines(f.context.clone(), &f.feedback)
}

/// Cursor's answer: `permission` on the before-events, `continue: false` on
/// beforeSubmitPrompt, `followup_message` at stop.
fn cursor_answer(f: &Facts) -> CursorAnswer {
    let mut a = CursorAnswer::default();
    match f.event {
        Event::PreToolUse if f.blocked || f.updated.is_some() => {
            let why = if f.blocked {
                block_reason(f)
            } else {
                "a hookhost hook rewrote this call's arguments, which hookhost does not hand to Cursor; blocked to fail closed".to_string()
            };
            a.permission = Some(CursorPermission::Deny);
            a.agent_message = Some(why.clone());
            a.user_message = lines(Some(why), &f.messages);
        }
        Event::PreToolUse => {
            a.permission = f.ask.then_some(CursorPermission::Ask);
            let why = (f.ask && !f.reason.trim().is_empty()).then(|| f.reason.clone());
            a.user_message = lines(why, &f.messages);
        }
        Event::UserPromptSubmit if f.ends_turn || f.stop.is_some() => {
            a.continue_ = Some(false);
            let why = if f.ends_turn {
                block_reason(f)
            } else {
                f.stop.clone().unwrap_or_default()
            };
            a.user_message = lines(Some(why), &f.messages);
        }
        Event::UserPromptSubmit => a.user_message.clone_from(&f.messages),
        Event::Stop | Event::SubagentStop if f.ends_turn => {
            a.followup_message = Some(f.reason.clone());
        }
        Event::SessionStart => a.additional_context.clone_from(&f.context),
        Event::PostToolUse => a.additional_context = context_and_feedback(f),
        _ => {}
    }
    a
}

/// Copilot CLI's answer: `permissionDecision` or `modifiedArgs` on preToolUse, `decision:
/// "block"` on agentStop / subagentStop, `additionalContext`.
fn copilot_answer(f: &Facts) -> CopilotAnswer {
    let mut a = CopilotAnswer::default();
    match f.event {
        Event::PreToolUse if f.blocked => {
            a.permission_decision = Some(CopilotPermission::Deny);
            a.permission_decision_reason = Some(block_reason(f));
        }
        Event::PreToolUse => {
            a.modified_args.clone_from(&f.updated);
            if f.ask {
                a.permission_decision = Some(CopilotPermission::Ask);
                a.permission_decision_reason =
                    (!f.reason.trim().is_empty()).then(|| f.reason.clone());
            }
        }
        Event::Stop | Event::SubagentStop if f.ends_turn => {
            a.decision = Some(CopilotStopDecision::Block);
            a.reason = Some(f.reason.clone());
        }
        Event::SessionStart => a.additional_context.clone_from(&f.context),
        Event::PostToolUse => a.additional_context = context_and_feedback(f),
        _ => {}
    }
    a
}

/// One line for the user when untrusted project hooks did not run at this event (the
/// default policy skips them): which, and what reviews them. Never silent: the agent shows
/// it in its own channel.
fn untrusted_notice(report: &EventReport) -> Option<String> {
    // Not run, or run in the kernel sandbox with its answer reduced: either way the user has
    // a project hook to review.
    let skipped: Vec<_> = report
        .hooks
        .iter()
        .filter(|h| {
            (h.outcome == Outcome::Skipped || h.sandbox.is_some())
                && report.untrusted.contains(&h.hook)
        })
        .collect();
    let ran = skipped
        .iter()
        .filter(|h| h.outcome != Outcome::Skipped)
        .count();
    let what = match (ran, skipped.len() - ran) {
        (0, _) => "did not run",
        (_, 0) => "ran sandboxed, able only to pass or block",
        _ => "did not run or ran sandboxed",
    };
    let first = skipped.first()?;
    let names: Vec<String> = skipped
        .iter()
        .take(3)
        .map(|h| format!("{} `{}`", h.hook, crate::terminal_safe(&h.command)))
        .collect();
    let more = match skipped.len() {
        n if n > 3 => format!(" and {} more", n - 3),
        _ => String::new(),
    };
    let file = first
        .file
        .as_deref()
        .map(|f| f.display().to_string())
        .unwrap_or_default();
    Some(format!(
        "hookhost: {} untrusted project hook{} {what} ({}{more}); review {file}, then run `hookhost trust` in that project",
        skipped.len(),
        if skipped.len() == 1 { "" } else { "s" },
        names.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::StopRequest;
    use serde_json::json;

    fn report(event: Event) -> EventReport {
        EventReport::new(event)
    }

    fn parsed(a: &Answer) -> Value {
        serde_json::from_str(&a.stdout).unwrap()
    }

    #[test]
    fn a_replaced_prompt_no_agent_can_send_blocks_the_original_with_the_replacement() {
        let mut r = report(Event::UserPromptSubmit);
        r.updated_prompt = Some("summarise [redacted]".into());
        let claude = parsed(&respond(Dialect::Claude, &r, None));
        assert_eq!(claude["decision"], "block", "{claude}");
        let reason = claude["reason"].as_str().unwrap();
        assert!(
            reason.contains("Claude Code cannot send a replaced prompt")
                && reason.ends_with("summarise [redacted]"),
            "{reason}"
        );
        let cursor = parsed(&respond(Dialect::Cursor, &r, None));
        assert_eq!(cursor["continue"], false, "{cursor}");
        // Not a prompt event, or blocked anyway: nothing is made of it.
        r.decision = Decision::Block;
        r.reason = Some("no".into());
        assert_eq!(parsed(&respond(Dialect::Claude, &r, None))["reason"], "no");
    }

    #[test]
    fn a_pass_says_nothing_and_never_allows() {
        for d in [Dialect::Claude, Dialect::Gemini, Dialect::Codex] {
            let a = respond(d, &report(Event::PreToolUse), Some("bash"));
            assert_eq!(
                a,
                Answer {
                    stdout: String::new(),
                    exit_code: 0,
                    stderr: String::new(),
                }
            );
        }
    }

    #[test]
    fn rewrites_go_back_in_each_agents_terms() {
        let mut r = report(Event::PreToolUse);
        r.updated_args = Some(json!({"path": "b.txt", "content": "x"}));
        let claude = parsed(&respond(Dialect::Claude, &r, Some("write_file")));
        // No decision: Claude Code's own permission flow judges the rewritten input.
        assert_eq!(claude["hookSpecificOutput"].get("permissionDecision"), None);
        assert_eq!(
            claude["hookSpecificOutput"]["updatedInput"],
            json!({"file_path": "b.txt", "content": "x"})
        );
        let gemini = parsed(&respond(Dialect::Gemini, &r, Some("write_file")));
        assert_eq!(
            gemini["hookSpecificOutput"]["tool_input"]["file_path"],
            "b.txt"
        );
        assert_eq!(gemini["hookSpecificOutput"]["hookEventName"], "BeforeTool");
        let codex = parsed(&respond(Dialect::Codex, &r, Some("write_file")));
        assert_eq!(codex["hookSpecificOutput"]["permissionDecision"], "deny");
    }

    #[test]
    fn qwen_is_denied_a_rewrite_and_gets_feedback_as_context() {
        let mut r = report(Event::PreToolUse);
        r.updated_args = Some(json!({"command": "ls"}));
        let qwen = parsed(&respond(Dialect::Qwen, &r, Some("bash")));
        assert_eq!(qwen["hookSpecificOutput"]["permissionDecision"], "deny");
        assert!(
            qwen["hookSpecificOutput"]["permissionDecisionReason"]
                .as_str()
                .unwrap()
                .contains("cannot apply"),
            "{qwen}"
        );
        let mut r = report(Event::PostToolUse);
        r.feedback = vec!["lint failed".into()];
        let qwen = parsed(&respond(Dialect::Qwen, &r, Some("bash")));
        assert_eq!(
            qwen["hookSpecificOutput"]["additionalContext"], "lint failed",
            "{qwen}"
        );
        // Without either, Claude Code's answer.
        let r = report(Event::PreToolUse);
        assert_eq!(
            respond(Dialect::Qwen, &r, Some("bash")).stdout,
            respond(Dialect::Claude, &r, Some("bash")).stdout
        );
    }

    #[test]
    fn droid_gets_feedback_as_context_and_claude_codes_answer_otherwise() {
        let mut r = report(Event::PostToolUse);
        r.feedback = vec!["lint failed".into()];
        let droid = parsed(&respond(Dialect::Droid, &r, Some("bash")));
        assert_eq!(
            droid["hookSpecificOutput"]["additionalContext"], "lint failed",
            "{droid}"
        );
        let mut r = report(Event::PreToolUse);
        r.updated_args = Some(json!({"command": "ls"}));
        assert_eq!(
            respond(Dialect::Droid, &r, Some("bash")).stdout,
            respond(Dialect::Claude, &r, Some("bash")).stdout
        );
    }

    #[test]
    fn stops_forces_and_prompt_blocks() {
        let mut r = report(Event::Stop);
        r.decision = Decision::Force;
        r.reason = Some("more".into());
        let a = parsed(&respond(Dialect::Claude, &r, None));
        assert_eq!(
            (a["decision"].as_str(), a["reason"].as_str()),
            (Some("block"), Some("more"))
        );
        let a = parsed(&respond(Dialect::Gemini, &r, None));
        assert_eq!(a["decision"], "deny");
        let mut r = report(Event::PostToolUse);
        r.stop = Some(StopRequest {
            reason: "halt".into(),
        });
        let a = parsed(&respond(Dialect::Codex, &r, Some("bash")));
        assert_eq!(
            (a["continue"].as_bool(), a["stopReason"].as_str()),
            (Some(false), Some("halt"))
        );
    }

    #[test]
    fn cursor_and_copilot_answers() {
        let mut r = report(Event::PreToolUse);
        r.decision = Decision::Block;
        r.reason = Some("no rm -rf".into());
        assert_eq!(
            parsed(&respond(Dialect::Cursor, &r, Some("bash"))),
            json!({"permission": "deny", "user_message": "no rm -rf", "agent_message": "no rm -rf"})
        );
        assert_eq!(
            parsed(&respond(Dialect::Copilot, &r, Some("bash"))),
            json!({"permissionDecision": "deny", "permissionDecisionReason": "no rm -rf"})
        );
        // A rewrite: Copilot CLI applies `modifiedArgs` (in its keys); Cursor is denied.
        let mut r = report(Event::PreToolUse);
        r.updated_args = Some(json!({"path": "a", "old": "x", "new": "y"}));
        assert_eq!(
            parsed(&respond(Dialect::Copilot, &r, Some("edit_file"))),
            json!({"modifiedArgs": {"path": "a", "old_str": "x", "new_str": "y"}})
        );
        assert_eq!(
            parsed(&respond(Dialect::Cursor, &r, Some("edit_file")))["permission"],
            "deny"
        );
        let mut r = report(Event::PreToolUse);
        r.ask = true;
        assert_eq!(
            parsed(&respond(Dialect::Copilot, &r, Some("bash"))),
            json!({"permissionDecision": "ask"})
        );
        assert_eq!(
            parsed(&respond(Dialect::Cursor, &r, Some("bash"))),
            json!({"permission": "ask"})
        );
        let mut r = report(Event::Stop);
        r.decision = Decision::Force;
        r.reason = Some("run the tests".into());
        assert_eq!(
            parsed(&respond(Dialect::Cursor, &r, None)),
            json!({"followup_message": "run the tests"})
        );
        assert_eq!(
            parsed(&respond(Dialect::Copilot, &r, None)),
            json!({"decision": "block", "reason": "run the tests"})
        );
        let mut r = report(Event::UserPromptSubmit);
        r.decision = Decision::Block;
        r.reason = Some("secret".into());
        assert_eq!(
            parsed(&respond(Dialect::Cursor, &r, None)),
            json!({"continue": false, "user_message": "secret"})
        );
        // Copilot CLI drops every answer to userPromptSubmitted: nothing to say.
        assert_eq!(respond(Dialect::Copilot, &r, None).stdout, "");
        let mut r = report(Event::PostToolUse);
        r.additional_context = vec!["ctx".into()];
        r.feedback = vec!["fb".into()];
        assert_eq!(
            parsed(&respond(Dialect::Copilot, &r, Some("bash"))),
            json!({"additionalContext": "ctx\nfb"})
        );
        assert_eq!(
            parsed(&respond(Dialect::Cursor, &r, Some("bash"))),
            json!({"additional_context": "ctx\nfb"})
        );
        for d in [Dialect::Cursor, Dialect::Copilot] {
            for e in Event::ALL {
                assert_eq!(respond(d, &report(e), Some("bash")).stdout, "", "{d} {e}");
            }
        }
    }

    #[test]
    fn a_skills_shell_command_is_denied_as_a_tool_call_and_never_run_rewritten() {
        let mut r = report(Event::PreSkillShellCommand);
        assert_eq!(respond(Dialect::Claude, &r, Some("bash")).stdout, "");
        r.decision = Decision::Block;
        r.reason = Some("no curl".into());
        assert_eq!(
            parsed(&respond(Dialect::Claude, &r, Some("bash"))),
            json!({"hookSpecificOutput": {"hookEventName": "PreSkillShellCommand",
                "permissionDecision": "deny", "permissionDecisionReason": "no curl"}})
        );
        // A rewrite cannot be applied to a skill's command: a deny, not the command as written.
        let mut r = report(Event::PreSkillShellCommand);
        r.updated_args = Some(json!({"command": "echo safe"}));
        let a = parsed(&respond(Dialect::Claude, &r, Some("bash")));
        assert_eq!(a["hookSpecificOutput"]["permissionDecision"], "deny", "{a}");
        assert!(a["hookSpecificOutput"].get("updatedInput").is_none(), "{a}");
    }

    #[test]
    fn a_stop_on_pretooluse_is_a_deny_codex_accepts() {
        let mut r = report(Event::PreToolUse);
        r.stop = Some(StopRequest {
            reason: "halt".into(),
        });
        let claude = parsed(&respond(Dialect::Claude, &r, Some("bash")));
        assert_eq!(claude["continue"], false);
        assert_eq!(claude["hookSpecificOutput"]["permissionDecision"], "deny");
        // Codex drops an answer with `continue` or `stopReason` on PreToolUse and runs the call.
        let codex = parsed(&respond(Dialect::Codex, &r, Some("bash")));
        assert_eq!(
            codex,
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": "deny", "permissionDecisionReason": "halt"}})
        );
    }

    #[test]
    fn an_ask_keeps_its_reason_in_every_agents_terms() {
        let mut r = report(Event::PreToolUse);
        r.ask = true;
        r.ask_reason = Some("git push detected, confirm".into());
        let claude = parsed(&respond(Dialect::Claude, &r, Some("bash")));
        assert_eq!(
            claude["hookSpecificOutput"],
            json!({"hookEventName": "PreToolUse", "permissionDecision": "ask",
                "permissionDecisionReason": "git push detected, confirm"})
        );
        let gemini = parsed(&respond(Dialect::Gemini, &r, Some("bash")));
        assert_eq!(
            (gemini["decision"].as_str(), gemini["reason"].as_str()),
            (Some("ask"), Some("git push detected, confirm"))
        );
        // Codex cannot ask: the call does not run unconfirmed, and the deny says why.
        let codex = parsed(&respond(Dialect::Codex, &r, Some("bash")));
        assert_eq!(codex["hookSpecificOutput"]["permissionDecision"], "deny");
        let why = codex["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap();
        assert!(why.contains("git push detected, confirm"), "{why}");
    }

    #[test]
    fn a_defer_is_claudes_defer_and_elsewhere_the_agents_own_flow() {
        let mut r = report(Event::PreToolUse);
        r.defer = true;
        let claude = parsed(&respond(Dialect::Claude, &r, Some("bash")));
        assert_eq!(claude["hookSpecificOutput"]["permissionDecision"], "defer");
        for d in [Dialect::Codex, Dialect::Gemini] {
            assert_eq!(respond(d, &r, Some("bash")).stdout, "", "{d}");
        }
        // A block or an ask wins over a defer.
        r.ask = true;
        let claude = parsed(&respond(Dialect::Claude, &r, Some("bash")));
        assert_eq!(claude["hookSpecificOutput"]["permissionDecision"], "ask");
    }

    #[test]
    fn a_replaced_tool_result_goes_back_where_the_agent_can_take_it() {
        let mut r = report(Event::PostToolUse);
        r.updated_tool_output = Some(json!({"stdout": "[redacted]"}));
        let claude = parsed(&respond(Dialect::Claude, &r, Some("bash")));
        assert_eq!(
            claude["hookSpecificOutput"],
            json!({"hookEventName": "PostToolUse", "updatedToolOutput": {"stdout": "[redacted]"}})
        );
        let gemini = parsed(&respond(Dialect::Gemini, &r, Some("bash")));
        assert_eq!(gemini["decision"], "deny");
        assert_eq!(gemini["reason"], r#"{"stdout":"[redacted]"}"#);
        let codex = parsed(&respond(Dialect::Codex, &r, Some("bash")));
        assert!(codex.get("hookSpecificOutput").is_none(), "{codex}");
        assert!(
            codex["systemMessage"]
                .as_str()
                .unwrap()
                .contains("cannot apply"),
            "{codex}"
        );
    }

    #[test]
    fn context_goes_only_inside_hook_specific_output() {
        for e in [
            Event::SessionStart,
            Event::UserPromptSubmit,
            Event::PostToolUse,
        ] {
            let mut r = report(e);
            r.additional_context = vec!["ctx".into()];
            for d in [Dialect::Claude, Dialect::Codex, Dialect::Gemini] {
                let a = parsed(&respond(d, &r, Some("bash")));
                assert!(a.get("additionalContext").is_none(), "{d} {e}: {a}");
                assert_eq!(
                    a["hookSpecificOutput"]["additionalContext"], "ctx",
                    "{d} {e}"
                );
            }
        }
    }

    #[test]
    fn permission_request_answers_allow_or_deny_in_the_agents_shape() {
        let mut r = report(Event::PermissionRequest);
        for d in [Dialect::Claude, Dialect::Codex] {
            assert_eq!(
                respond(d, &r, Some("bash")).stdout,
                "",
                "nothing said: asked"
            );
        }
        r.allow = true;
        let expect = json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow"}}});
        assert_eq!(parsed(&respond(Dialect::Claude, &r, Some("bash"))), expect);
        assert_eq!(parsed(&respond(Dialect::Codex, &r, Some("bash"))), expect);
        r.allow = false;
        r.decision = Decision::Block;
        r.reason = Some("pushes wait for review".into());
        let expect = json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "pushes wait for review"}}});
        assert_eq!(parsed(&respond(Dialect::Claude, &r, Some("bash"))), expect);
        assert_eq!(parsed(&respond(Dialect::Codex, &r, Some("bash"))), expect);
    }

    #[test]
    fn the_new_observing_events_answer_context_where_the_agent_reads_it() {
        for e in [
            Event::Notification,
            Event::SubagentStart,
            Event::PostToolUseFailure,
        ] {
            let mut r = report(e);
            r.additional_context = vec!["ctx".into()];
            let a = parsed(&respond(Dialect::Claude, &r, None));
            assert_eq!(a["hookSpecificOutput"]["additionalContext"], "ctx", "{e}");
            assert_eq!(a["hookSpecificOutput"]["hookEventName"], e.as_str());
        }
        let mut r = report(Event::PostToolUseFailure);
        r.feedback = vec!["retry with -f".into()];
        let a = parsed(&respond(Dialect::Claude, &r, Some("bash")));
        assert_eq!(
            a,
            json!({"hookSpecificOutput": {"hookEventName": "PostToolUseFailure",
                "additionalContext": "retry with -f"}})
        );
        // Claude Code's StopFailure and PostCompact read no context: only the message.
        for e in [Event::StopFailure, Event::PostCompact] {
            let mut r = report(e);
            r.additional_context = vec!["ctx".into()];
            r.system_messages = vec!["msg".into()];
            assert_eq!(
                parsed(&respond(Dialect::Claude, &r, None)),
                json!({"systemMessage": "msg"}),
                "{e}"
            );
        }
        let mut r = report(Event::SubagentStart);
        r.additional_context = vec!["ctx".into()];
        let a = parsed(&respond(Dialect::Codex, &r, None));
        assert_eq!(a["hookSpecificOutput"]["additionalContext"], "ctx");
        let mut r = report(Event::Notification);
        r.additional_context = vec!["ctx".into()];
        assert_eq!(respond(Dialect::Gemini, &r, None).stdout, "");
    }

    /// The answers to Claude Code on the events it added: a gating block is `decision:
    /// "block"`, a kept teammate too; PermissionDenied's `retry`.
    #[test]
    fn the_added_events_answer_in_claude_codes_shape() {
        for e in [
            Event::UserPromptExpansion,
            Event::PostToolBatch,
            Event::TaskCreated,
            Event::TaskCompleted,
            Event::ConfigChange,
            Event::PreModelSwitch,
            Event::PreCompact,
        ] {
            let mut r = report(e);
            r.decision = Decision::Block;
            r.reason = Some("not now".into());
            assert_eq!(
                parsed(&respond(Dialect::Claude, &r, None)),
                json!({"decision": "block", "reason": "not now"}),
                "{e}"
            );
        }
        // A blocked compaction: only Claude Code reads it; Codex's PreCompact answer has no
        // `decision` (its schema refuses one), Gemini CLI cannot stop a compression.
        let mut r = report(Event::PreCompact);
        r.decision = Decision::Block;
        r.reason = Some("keep it".into());
        for d in [Dialect::Codex, Dialect::Gemini, Dialect::Qwen] {
            assert_eq!(respond(d, &r, None).stdout, "", "{d}");
        }
        let mut r = report(Event::TeammateIdle);
        r.decision = Decision::Force;
        r.reason = Some("pick up task 8".into());
        assert_eq!(
            parsed(&respond(Dialect::Claude, &r, None)),
            json!({"decision": "block", "reason": "pick up task 8"})
        );
        let mut r = report(Event::PermissionDenied);
        r.retry = true;
        assert_eq!(
            parsed(&respond(Dialect::Claude, &r, Some("bash"))),
            json!({"hookSpecificOutput": {"hookEventName": "PermissionDenied", "retry": true}})
        );
    }

    /// An elicitation's answer (a block declines), context where Claude Code reads it on the
    /// added events, WorktreeCreate's path alone or exit 1 with why.
    #[test]
    fn the_added_events_answers_and_context() {
        use hookhost_protocol::ElicitationReply;
        for e in [Event::Elicitation, Event::ElicitationResult] {
            let mut r = report(e);
            r.elicitation = Some(ElicitationReply {
                action: "accept".into(),
                content: Some(json!({"env": "staging"})),
            });
            assert_eq!(
                parsed(&respond(Dialect::Claude, &r, None)),
                json!({"hookSpecificOutput": {"hookEventName": e.as_str(), "action": "accept", "content": {"env": "staging"}}})
            );
            let mut r = report(e);
            r.decision = Decision::Block;
            r.reason = Some("no".into());
            assert_eq!(
                parsed(&respond(Dialect::Claude, &r, None)),
                json!({"hookSpecificOutput": {"hookEventName": e.as_str(), "action": "decline"}})
            );
        }
        for e in [
            Event::Setup,
            Event::UserPromptExpansion,
            Event::PostToolBatch,
        ] {
            let mut r = report(e);
            r.additional_context = vec!["ctx".into()];
            assert_eq!(
                parsed(&respond(Dialect::Claude, &r, None)),
                json!({"hookSpecificOutput": {"hookEventName": e.as_str(), "additionalContext": "ctx"}}),
                "{e}"
            );
        }
        let mut r = report(Event::WorktreeCreate);
        r.worktree_path = Some("/repo/.claude/worktrees/x".into());
        let a = respond(Dialect::Claude, &r, None);
        assert_eq!(
            (a.stdout.as_str(), a.exit_code),
            ("/repo/.claude/worktrees/x", 0)
        );
        let a = respond(Dialect::Claude, &report(Event::WorktreeCreate), None);
        assert_eq!((a.stdout.as_str(), a.exit_code), ("", 1));
        assert!(
            a.stderr
                .contains("no WorktreeCreate hook created a worktree"),
            "{a:?}"
        );
        // The observing ones say nothing when nothing was asked.
        for e in [
            Event::MessageDisplay,
            Event::CwdChanged,
            Event::FileChanged,
            Event::WorktreeRemove,
        ] {
            assert_eq!(respond(Dialect::Claude, &report(e), None).stdout, "", "{e}");
        }
    }
}
