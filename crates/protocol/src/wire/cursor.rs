//! Cursor's side of a hook (cursor.com/docs/hooks): the payload its hooks read on stdin
//! (snake_case, `hook_event_name` in Cursor's camelCase names, `conversation_id`,
//! `generation_id`, `workspace_roots`, then the event's own fields) and the answer
//! `hookhost hook --for cursor` gives it (`permission`, `user_message`, `agent_message`;
//! `continue` on `beforeSubmitPrompt`; `followup_message` on `stop`).
//!
//! Cursor fires one event per tool kind (`beforeShellExecution`, `beforeReadFile`,
//! `beforeMCPExecution`, `afterShellExecution`, `afterFileEdit`, `afterMCPExecution`) beside
//! the generic `preToolUse`/`postToolUse`; one hookhost event is rendered as the most specific
//! of them, with the generic fields (`tool_name`, `tool_input`) as well, so that a hook
//! written for either reads what it expects.

use super::fields;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The payload a Cursor hook reads on stdin; `None` fields are absent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[schemars(
    title = "Cursor hook payload",
    description = "What a hook of the `cursor` dialect reads on stdin, one line: Cursor's common fields (`hook_event_name`, `conversation_id`, `generation_id`, `workspace_roots`) and its event's own (cursor.com/docs/hooks)."
)]
pub struct CursorPayload {
    /// beforeSubmitPrompt: the prompt's attachments (none from hookhost).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attachments: Option<Vec<Value>>,
    /// beforeShellExecution, afterShellExecution: the command.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The conversation (hookhost's session).
    pub conversation_id: String,
    /// The Cursor version, when the event came from Cursor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor_version: Option<String>,
    /// beforeShellExecution, afterShellExecution: where the command runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// afterFileEdit: what changed, as `old_string`/`new_string` pairs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edits: Option<Vec<CursorEdit>>,
    /// beforeReadFile, afterFileEdit: the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_path: Option<String>,
    /// The generation (the turn; empty when unknown).
    pub generation_id: String,
    /// The event, by Cursor's name (`beforeShellExecution`, `stop`, ...).
    pub hook_event_name: String,
    /// stop, subagentStop: how many times a stop hook already sent the agent on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loop_count: Option<u64>,
    /// The model, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// afterShellExecution: the command's output.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// beforeSubmitPrompt: the prompt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// afterMCPExecution: the tool's result, as JSON text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_json: Option<String>,
    /// stop, subagentStop: `completed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Tool events: the tool's arguments, in Cursor's keys.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_input: Option<Value>,
    /// Tool events: the tool, by Cursor's name (`Shell`, `Read`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// postToolUse and the after-events: the tool's result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_output: Option<Value>,
    /// Tool events: the tool call's id, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
    /// Where the transcript is, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript_path: Option<String>,
    /// The user's e-mail, when the event came from Cursor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_email: Option<String>,
    /// The workspace's roots (hookhost's project directory).
    pub workspace_roots: Vec<String>,
}

/// One edit of `afterFileEdit`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
pub struct CursorEdit {
    /// The new text.
    pub new_string: String,
    /// The text replaced (empty for a file written whole).
    pub old_string: String,
}

/// Cursor's `permission` as hookhost writes it (never `"allow"`: hooks can block, never
/// bypass).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CursorPermission {
    /// Block the call.
    Deny,
    /// Hand the call to Cursor's approval prompt.
    Ask,
}

/// The answer `hookhost hook --for cursor` prints (nothing at all when every field is absent).
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[schemars(
    title = "hookhost's answer to Cursor",
    description = "What `hookhost hook --for cursor` prints on stdout, with exit 0: the decision hookhost reached, in Cursor's hook protocol (cursor.com/docs/hooks)."
)]
pub struct CursorAnswer {
    /// sessionStart, postToolUse, afterFileEdit: text for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// With `permission`: why, for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_message: Option<String>,
    /// beforeSubmitPrompt: `false` blocks the prompt.
    #[serde(rename = "continue", skip_serializing_if = "Option::is_none")]
    pub continue_: Option<bool>,
    /// stop, subagentStop: the next user message (the agent goes on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub followup_message: Option<String>,
    /// The before-events: deny or ask.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission: Option<CursorPermission>,
    /// Text for the user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_message: Option<String>,
}

/// A Cursor payload as hookhost reads it (`run --payload`, `hook --for cursor`): every field
/// lenient (a field of the wrong type is absent).
#[derive(Debug, Clone, Default, Deserialize)]
#[doc(hidden)]
pub struct CursorPayloadIn {
    #[serde(default, deserialize_with = "fields::string")]
    pub hook_event_name: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub conversation_id: Option<String>,
    #[serde(default, deserialize_with = "fields::present")]
    pub workspace_roots: Option<Value>,
    #[serde(default, deserialize_with = "fields::string")]
    pub model: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub transcript_path: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub cwd: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub command: Option<String>,
    #[serde(default, deserialize_with = "fields::present")]
    pub output: Option<Value>,
    #[serde(default, deserialize_with = "fields::string")]
    pub tool_name: Option<String>,
    /// An object, or (beforeMCPExecution in some versions) its JSON text.
    #[serde(default, deserialize_with = "fields::present")]
    pub tool_input: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub tool_output: Option<Value>,
    #[serde(default, deserialize_with = "fields::string")]
    pub tool_use_id: Option<String>,
    #[serde(default, deserialize_with = "fields::present")]
    pub result_json: Option<Value>,
    #[serde(default, deserialize_with = "fields::string")]
    pub file_path: Option<String>,
    #[serde(default, deserialize_with = "fields::present")]
    pub edits: Option<Value>,
    #[serde(default, deserialize_with = "fields::string")]
    pub prompt: Option<String>,
    #[serde(default, deserialize_with = "fields::present")]
    pub loop_count: Option<Value>,
}
