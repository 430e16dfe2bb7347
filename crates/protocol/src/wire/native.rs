//! The payload a native hook reads on stdin (DESIGN §2): one camelCase JSON object with
//! `event`, `cwd` and `sessionId`, plus the fields of its event.
//!
//! [`NativePayload`] names every field hookhost knows. A payload supplied whole (`hookhost
//! run --payload`, serve's `fire`, a ling payload) may carry more: the engine's `Payload`
//! keeps the object as given, unknown fields verbatim, and this type is how hookhost writes
//! and reads the known ones. Read leniently: a field of the wrong type is absent.

use super::fields;
use crate::event::Event;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The known fields of a native payload; `None` is absent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    title = "hookhost native hook payload",
    description = "What a native hook reads on stdin (DESIGN §2). `event`, `cwd` and `sessionId` are always there; the other fields belong to their events. A payload supplied whole (`hookhost run --payload`) keeps any other field verbatim.",
    extend("required" = ["cwd", "event", "sessionId"])
)]
pub struct NativePayload {
    /// SubagentStart, from Claude Code or Codex: the subagent's id.
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub agent_id: Option<String>,
    /// SubagentStart, SubagentStop: the kind of subagent (`general-purpose`, a `task`'s
    /// `subagent`).
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub agent_type: Option<String>,
    /// The project directory (absolute).
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub cwd: Option<String>,
    /// PreCompact, from Claude Code: the user's instructions for the compaction.
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub custom_instructions: Option<String>,
    /// StopFailure: the error that ended the turn, as text.
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub error: Option<String>,
    /// StopFailure, from Claude Code: the kind of error (`rate_limit`, `server_error`, `unknown`, ...).
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub error_type: Option<String>,
    /// The event.
    #[serde(
        default,
        deserialize_with = "fields::event",
        skip_serializing_if = "Option::is_none"
    )]
    pub event: Option<Event>,
    /// `true` inside a subagent.
    #[serde(
        default,
        deserialize_with = "fields::boolean",
        skip_serializing_if = "Option::is_none"
    )]
    pub is_subagent: Option<bool>,
    /// Notification: what kind of notification (`permission_prompt` before the agent asks for a permission).
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub kind: Option<String>,
    /// Stop, from Codex or Gemini CLI: the model's last message.
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub last_assistant_message: Option<String>,
    /// Notification: the text shown to the user.
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub message: Option<String>,
    /// From Codex: the model.
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub model: Option<String>,
    /// From Claude Code: its permission mode.
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub permission_mode: Option<String>,
    /// UserPromptSubmit: the user's prompt; SubagentStart: the subagent's task.
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub prompt: Option<String>,
    /// SessionEnd: why the session ended; PermissionRequest: what asks (the rule, or a
    /// PreToolUse hook).
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub reason: Option<String>,
    /// The session.
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub session_id: Option<String>,
    /// SessionStart: `startup` or `resume`.
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub source: Option<String>,
    /// Stop, SubagentStop: the agent is already continuing because of a Stop hook.
    #[serde(
        default,
        deserialize_with = "fields::boolean",
        skip_serializing_if = "Option::is_none"
    )]
    pub stop_hook_active: Option<bool>,
    /// PostCompact: what replaced the compacted messages (empty when there is none).
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub summary: Option<String>,
    /// From Gemini CLI or ling: when the event fired (ISO 8601).
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub timestamp: Option<String>,
    /// Notification, from Claude Code: its title.
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub title: Option<String>,
    /// The tool events: the tool's arguments (an object).
    #[serde(
        default,
        deserialize_with = "fields::present",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "Option<serde_json::Map<String, Value>>")]
    pub tool_args: Option<Value>,
    /// PostToolUse: whether the tool failed (`true`/`false`); PostToolUseFailure: the
    /// failure, as text.
    #[serde(
        default,
        deserialize_with = "tool_error",
        skip_serializing_if = "Option::is_none"
    )]
    pub tool_error: Option<ToolError>,
    /// The tool events: the core's tool name (`bash`, `write_file`, ...).
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub tool_name: Option<String>,
    /// PostToolUse: the tool's result (`null` when it gave none).
    #[serde(
        default,
        deserialize_with = "fields::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub tool_result: Option<Value>,
    /// From Claude Code: the tool call's id.
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub tool_use_id: Option<String>,
    /// From Claude Code: where its transcript is.
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub transcript_path: Option<String>,
    /// PreCompact, PostCompact: `auto` or `manual`.
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub trigger: Option<String>,
    /// From Codex: the turn.
    #[serde(
        default,
        deserialize_with = "fields::string",
        skip_serializing_if = "Option::is_none"
    )]
    pub turn_id: Option<String>,
}

/// `toolError`: PostToolUse's flag (did the tool fail?), PostToolUseFailure's text (how).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ToolError {
    /// PostToolUse: whether the tool failed.
    Failed(bool),
    /// PostToolUseFailure: the failure, as text.
    Text(String),
}

/// A flag or a text, or `None` when the field holds anything else (read leniently).
fn tool_error<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<ToolError>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Bool(b) => Some(ToolError::Failed(b)),
        Value::String(s) => Some(ToolError::Text(s)),
        _ => None,
    })
}
