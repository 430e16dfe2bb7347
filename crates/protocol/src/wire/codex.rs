//! Codex's side of a hook: Claude Code's payload shape ([`ClaudeFields`]) with `turn_id` and
//! `model`, and the answer `hookhost hook --for codex` gives it,
//! which holds only what Codex accepts (no "ask", no "allow", no `updatedInput`, no
//! `continue` on PreToolUse).

use super::claude::{BlockDecision, ClaudeFields};
use schemars::JsonSchema;
use serde::Serialize;

/// The payload a Codex hook reads on stdin: Claude Code's fields, and Codex's own.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[schemars(
    title = "Codex hook payload",
    description = "What a hook of the `codex` dialect reads on stdin, one line: Claude Code's shape with `turn_id` and `model`, and Claude Code's tool names. Rendered from Codex's own payload when the event came from Codex, else with the fields whose values hookhost knows (no `turn_id` or `model` is made up)."
)]
pub struct CodexPayload {
    /// The fields Codex shares with Claude Code.
    #[serde(flatten)]
    pub fields: ClaudeFields,
    /// The model, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The turn, when known (Codex sends none on SessionStart).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_id: Option<String>,
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
