//! Gemini CLI's side of a hook: the payload its hooks read (its event names, a
//! `timestamp`), and the answer `hookhost hook --for gemini` gives it (`decision` "deny" or
//! "ask", rewrites as `hookSpecificOutput.tool_input`, merged into the call).

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// The payload a Gemini CLI hook reads on stdin; `None` fields are absent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[schemars(
    title = "Gemini CLI hook payload",
    description = "What a hook of the `gemini` dialect reads on stdin, one line: Gemini CLI's event names (`BeforeTool`, `AfterAgent`, ...), tool names (`run_shell_command`, `replace`, ...) and argument keys."
)]
pub struct GeminiPayload {
    /// The directory the agent runs in.
    pub cwd: String,
    /// The event, by Gemini CLI's name.
    pub hook_event_name: String,
    /// Notification: the text shown to the user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Notification: `ToolPermission` (the only kind Gemini CLI 0.61 sends).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notification_type: Option<String>,
    /// UserPromptSubmit (BeforeAgent), Stop (AfterAgent): the prompt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// Stop (AfterAgent): the model's answer, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_response: Option<String>,
    /// SessionEnd: why the session ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The session.
    pub session_id: String,
    /// SessionStart: `startup` or `resume`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Stop (AfterAgent): the agent already continues because of a hook.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_hook_active: Option<bool>,
    /// When the event fired (ISO 8601, UTC, milliseconds): Gemini CLI's own when the event
    /// came from it.
    pub timestamp: String,
    /// BeforeTool, AfterTool: the tool's arguments, in Gemini CLI's keys.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_input: Option<Value>,
    /// BeforeTool, AfterTool: the tool, by Gemini CLI's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// AfterTool: the tool's result (`null` when it gave none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_response: Option<Value>,
    /// Where the transcript is, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript_path: Option<String>,
    /// PreCompress: `auto` or `manual`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
}

/// Gemini CLI's top-level `decision` as hookhost writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum GeminiDecision {
    /// Block the tool call or the prompt, or force the agent on (AfterAgent).
    Deny,
    /// BeforeTool: hand the call to the confirmation prompt.
    Ask,
}

/// The answer `hookhost hook --for gemini` prints (nothing at all when every field is absent).
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    title = "hookhost's answer to Gemini CLI",
    description = "What `hookhost hook --for gemini` prints on stdout, with exit 0: the decision hookhost reached, in Gemini CLI's hook protocol."
)]
pub struct GeminiAnswer {
    /// `false`: a hook stopped the agent.
    #[serde(rename = "continue", skip_serializing_if = "Option::is_none")]
    pub continue_: Option<bool>,
    /// Deny or ask.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<GeminiDecision>,
    /// The event's own fields.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook_specific_output: Option<GeminiSpecificOutput>,
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

/// Gemini CLI's `hookSpecificOutput`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GeminiSpecificOutput {
    /// Text for the model (AfterTool: with the feedback of hooks that failed the call).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// The event answered, by Gemini CLI's name.
    pub hook_event_name: String,
    /// BeforeTool: arguments merged into the call, in Gemini CLI's keys.
    #[serde(rename = "tool_input", skip_serializing_if = "Option::is_none")]
    pub tool_input: Option<Value>,
    /// BeforeModel: the request's `messages`, up to the last one changed (Gemini CLI merges
    /// them into its request by position and keeps the rest), with each prompt a hook
    /// replaced in the session replaced.
    #[serde(rename = "llm_request", skip_serializing_if = "Option::is_none")]
    pub llm_request: Option<Value>,
}
