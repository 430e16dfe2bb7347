//! Codex's side of a hook: Claude Code's payload shape with `turn_id` and `model` (and the
//! last assistant message at Stop), and the answer `hookhost hook --for codex` gives it,
//! which holds only what Codex accepts (no "ask", no "allow", no `updatedInput`, no
//! `continue` on PreToolUse).

use super::claude::BlockDecision;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// The payload a Codex hook reads on stdin; `None` fields are absent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[schemars(
    title = "Codex hook payload",
    description = "What a hook of the `codex` dialect reads on stdin, one line: Claude Code's shape with `turn_id` and `model`, and Claude Code's tool names."
)]
pub struct CodexPayload {
    /// SubagentStart (and any event inside a subagent): the subagent's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// SubagentStart (and any event inside a subagent): the kind of subagent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_type: Option<String>,
    /// PreCompact: the user's instructions for the compaction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_instructions: Option<String>,
    /// The directory the agent runs in.
    pub cwd: String,
    /// The event.
    pub hook_event_name: String,
    /// Stop, SubagentStop: the model's last message (`null` when unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_assistant_message: Option<Option<String>>,
    /// The model (empty when unknown).
    pub model: String,
    /// The permission mode (`default` when unknown).
    pub permission_mode: String,
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
    /// Where the transcript is (empty when unknown).
    pub transcript_path: String,
    /// PreCompact: `auto` or `manual`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// The turn (empty when unknown).
    pub turn_id: String,
}

/// `hookSpecificOutput.permissionDecision` as Codex takes it from hookhost: only "deny".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CodexPermission {
    /// The tool call does not run.
    Deny,
}

/// The answer `hookhost hook --for codex` prints (nothing at all when every field is absent).
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    title = "hookhost's answer to Codex",
    description = "What `hookhost hook --for codex` prints on stdout, with exit 0. On PreToolUse only a deny with its reason (a stop travels as that deny: Codex drops an answer with `continue` there)."
)]
pub struct CodexAnswer {
    /// `false`: a hook stopped the agent (never on PreToolUse).
    #[serde(rename = "continue", skip_serializing_if = "Option::is_none")]
    pub continue_: Option<bool>,
    /// A blocked prompt, a forced Stop, PostToolUse feedback.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<BlockDecision>,
    /// The event's own fields.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook_specific_output: Option<CodexSpecificOutput>,
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

/// Codex's `hookSpecificOutput`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CodexSpecificOutput {
    /// Text for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// PermissionRequest: allow or deny (never `interrupt`, `updatedInput` or
    /// `updatedPermissions`, on which Codex 0.171 fails closed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<super::PermissionRequestDecision>,
    /// The event answered.
    pub hook_event_name: String,
    /// PreToolUse: deny (with a reason, always non-empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision: Option<CodexPermission>,
    /// Why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision_reason: Option<String>,
}
