//! Another agent's payload as hookhost reads it (`hookhost hook --for`, `run --payload`,
//! serve's `fire`): one type holding every field that tells the dialects apart and every
//! field of Claude Code's, Codex's and Gemini CLI's payloads, read leniently (a field of the
//! wrong type is absent). The engine's `translate::recognise` decides the
//! dialect from it and maps it to a [`NativePayload`](super::NativePayload).

use super::fields;
use serde::Deserialize;
use serde_json::Value;

/// Any payload, as far as telling its dialect and reading the Claude family's fields go.
#[derive(Debug, Clone, Default, Deserialize)]
#[doc(hidden)]
pub struct AgentPayload {
    /// Claude Code, Codex, Gemini CLI: the event, by the agent's name.
    #[serde(default, deserialize_with = "fields::string")]
    pub hook_event_name: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub session_id: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub transcript_path: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub cwd: Option<String>,
    /// Present: not Gemini CLI (unless its event names say so).
    #[serde(default, deserialize_with = "fields::present")]
    pub permission_mode: Option<Value>,
    #[serde(default, deserialize_with = "fields::string")]
    pub tool_use_id: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub tool_name: Option<String>,
    #[serde(default, deserialize_with = "fields::present")]
    pub tool_input: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub tool_response: Option<Value>,
    #[serde(default, deserialize_with = "fields::string")]
    pub prompt: Option<String>,
    #[serde(default, deserialize_with = "fields::boolean")]
    pub stop_hook_active: Option<bool>,
    #[serde(default, deserialize_with = "fields::string")]
    pub source: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub reason: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub trigger: Option<String>,
    /// Present: Codex.
    #[serde(default, deserialize_with = "fields::present")]
    pub turn_id: Option<Value>,
    #[serde(default, deserialize_with = "fields::string")]
    pub model: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub last_assistant_message: Option<String>,
    /// Gemini CLI's name for the last assistant message.
    #[serde(default, deserialize_with = "fields::string")]
    pub prompt_response: Option<String>,
    /// Present: Gemini CLI or ling.
    #[serde(default, deserialize_with = "fields::present")]
    pub timestamp: Option<Value>,
    #[serde(default, deserialize_with = "fields::string")]
    pub custom_instructions: Option<String>,
    /// SubagentStart (Claude Code, Codex).
    #[serde(default, deserialize_with = "fields::string")]
    pub agent_id: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub agent_type: Option<String>,
    /// Claude Code: PostToolUseFailure's failure text, StopFailure's kind of error.
    #[serde(default, deserialize_with = "fields::string")]
    pub error: Option<String>,
    /// Claude Code's StopFailure: what went wrong.
    #[serde(default, deserialize_with = "fields::string")]
    pub error_details: Option<String>,
    /// Notification (Claude Code, Gemini CLI).
    #[serde(default, deserialize_with = "fields::string")]
    pub message: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub notification_type: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub title: Option<String>,
    /// Claude Code's PostCompact.
    #[serde(default, deserialize_with = "fields::string")]
    pub compact_summary: Option<String>,
    /// ling and native: the event.
    #[serde(default, deserialize_with = "fields::present")]
    pub event: Option<Value>,
    /// Native: the tool (a ling payload has none).
    #[serde(rename = "toolName", default, deserialize_with = "fields::present")]
    pub native_tool_name: Option<Value>,
    /// ling: the tool call.
    #[serde(rename = "toolCall", default, deserialize_with = "fields::present")]
    pub tool_call: Option<Value>,
}
