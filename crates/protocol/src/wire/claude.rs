//! Claude Code's side of a hook: the payload its hooks read (compact snake_case JSON with
//! `hook_event_name`), and the answer `hookhost hook --for claude` gives it.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// The fields Claude Code's and Codex's payloads share (Codex restates Claude Code's shape):
/// flattened into [`ClaudePayload`] and [`CodexPayload`](super::CodexPayload). `None` fields
/// are absent: they belong to other events, or their value is not known (nothing is made
/// up). A payload rendered from the agent's own keeps every other field the agent sent,
/// verbatim (`prompt_id`, `effort`, `duration_ms`, ...).
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
pub struct ClaudeFields {
    /// SubagentStart: the subagent's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// SubagentStart: the kind of subagent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_type: Option<String>,
    /// PostCompact: the summary the compaction produced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compact_summary: Option<String>,
    /// PreCompact: the user's instructions for the compaction (`null`: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_instructions: Option<Option<String>>,
    /// The directory the agent runs in.
    pub cwd: String,
    /// PostToolUseFailure: the failure, as text; StopFailure: the kind of error (`rate_limit`, `unknown`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// StopFailure: what went wrong, as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_details: Option<String>,
    /// The event, by the agent's name (the same as hookhost's).
    pub hook_event_name: String,
    /// Stop, SubagentStop, StopFailure: the model's last message (Codex: `null` when it has
    /// none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_assistant_message: Option<Option<String>>,
    /// Notification: the text shown to the user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Notification: `permission_prompt`, `idle_prompt`, ...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notification_type: Option<String>,
    /// The permission mode, on the events that carry it (not Claude Code's SessionStart/End).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_mode: Option<String>,
    /// UserPromptSubmit: the prompt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// SessionEnd: why the session ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The session.
    pub session_id: String,
    /// SessionStart: `startup` or `resume`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Stop, SubagentStop: the agent already continues because of a Stop hook.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_hook_active: Option<bool>,
    /// Notification: its title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// PreToolUse, PostToolUse: the tool's arguments, in Claude Code's keys.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_input: Option<Value>,
    /// PreToolUse, PostToolUse: the tool, by Claude Code's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// PostToolUse: the tool's result (`null` when it gave none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_response: Option<Value>,
    /// PreToolUse, PostToolUse: the tool call's id, when the event came with one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
    /// Where the transcript is, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript_path: Option<String>,
    /// PreCompact: `auto` or `manual`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
}

/// The payload a Claude Code hook reads on stdin.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[schemars(
    title = "Claude Code hook payload",
    description = "What a hook of the `claude` dialect reads on stdin, one line: Claude Code's own payload, with its tool names (`Bash`, `Write`, ...) and argument keys (`file_path`). Rendered from Claude Code's own payload when the event came from Claude Code (every field it sent kept verbatim), else with the fields Claude Code documents for the event whose values hookhost knows."
)]
pub struct ClaudePayload {
    /// Claude Code's fields.
    #[serde(flatten)]
    pub fields: ClaudeFields,
}

/// `"decision": "block"`: block the prompt, force the Stop, or give PostToolUse feedback.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BlockDecision {
    /// The only value.
    Block,
}

/// `hookSpecificOutput.permissionDecision` as hookhost writes it: never "allow" (hooks can
/// block, never bypass).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PermissionDecision {
    /// The tool call does not run.
    Deny,
    /// Hand the call to the permission prompt.
    Ask,
    /// A hook deferred: Claude Code's normal permission flow (`-p`: the session pauses at
    /// the call, to be resumed).
    Defer,
}

/// The answer `hookhost hook --for claude` prints (nothing at all when every field is absent).
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    title = "hookhost's answer to Claude Code",
    description = "What `hookhost hook --for claude` prints on stdout, with exit 0: the decision hookhost reached, in Claude Code's hook protocol."
)]
pub struct ClaudeAnswer {
    /// `false`: a hook stopped the agent.
    #[serde(rename = "continue", skip_serializing_if = "Option::is_none")]
    pub continue_: Option<bool>,
    /// A blocked prompt, a forced Stop, PostToolUse feedback.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<BlockDecision>,
    /// The event's own fields.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook_specific_output: Option<ClaudeSpecificOutput>,
    /// Why (with `decision`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Why the agent stops (with `continue: false`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Text for the user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
}

/// `hookSpecificOutput.decision` on PermissionRequest, as hookhost writes it (Claude Code's
/// hooks reference, "PermissionRequest decision control"; the same in Codex 0.171): allow
/// the call the agent would ask about, or deny it with a message.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PermissionRequestDecision {
    /// `allow` or `deny`.
    pub behavior: super::Behavior,
    /// Deny: why (the agent tells the model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Claude Code's `hookSpecificOutput`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClaudeSpecificOutput {
    /// Text for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// PermissionRequest: allow or deny.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<PermissionRequestDecision>,
    /// The event answered.
    pub hook_event_name: String,
    /// PreToolUse: deny, ask or defer; none with a rewrite alone (Claude Code's own
    /// permission flow then judges the rewritten input).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision: Option<PermissionDecision>,
    /// Why (with `deny` and `ask`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision_reason: Option<String>,
    /// PreToolUse: the rewritten arguments, in Claude Code's keys.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Value>,
    /// PostToolUse: what the model sees as the tool's result instead of its output.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_tool_output: Option<Value>,
    /// PermissionDenied: `true`, the model may retry the denied call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry: Option<bool>,
    /// Elicitation, ElicitationResult: `accept`, `decline` or `cancel`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// Elicitation, ElicitationResult: with `accept`, the form's values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<Value>,
}
