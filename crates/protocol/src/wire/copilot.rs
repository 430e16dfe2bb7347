//! GitHub Copilot CLI's side of a hook (docs.github.com/en/copilot/reference/hooks-reference):
//! the payload its hooks read on stdin (camelCase, `sessionId`, `timestamp` in milliseconds,
//! `cwd`, then the event's own fields, and no event name: a hook is registered for one) and
//! the answer `hookhost hook --for copilot` gives it (`permissionDecision` "deny" or "ask" with
//! `permissionDecisionReason`, `modifiedArgs`, `additionalContext`, `decision: "block"` on
//! `agentStop`/`subagentStop`).
//!
//! Copilot CLI 1.0.102 sends `toolArgs` as an object (the payloads it sent offline are in
//! tests/fixtures/dialects/copilot/); older docs show its JSON text, which hookhost reads as
//! well.

use super::fields;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The payload a Copilot CLI hook reads on stdin; `None` fields are absent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    title = "GitHub Copilot CLI hook payload",
    description = "What a hook of the `copilot` dialect reads on stdin, one line: Copilot CLI's camelCase payload (`sessionId`, `timestamp` in ms, `cwd`, then the event's fields; no event name) with its tool names (`bash`, `view`, `create`, `edit`)."
)]
pub struct CopilotPayload {
    /// preCompact: the user's instructions for the compaction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_instructions: Option<String>,
    /// The directory the agent runs in.
    pub cwd: String,
    /// sessionStart: the prompt the session started with, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_prompt: Option<String>,
    /// userPromptSubmitted: the prompt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// sessionEnd: why the session ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// subagentStop: the subagent's final answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    /// The session.
    pub session_id: String,
    /// sessionStart: `new`, `startup` or `resume`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// agentStop, subagentStop: the agent already continues because of a stop hook (spelt
    /// snake_case by Copilot CLI).
    #[serde(rename = "stop_hook_active", skip_serializing_if = "Option::is_none")]
    pub stop_hook_active: Option<bool>,
    /// agentStop, subagentStop: `end_turn`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// When the event fired, in Unix milliseconds.
    pub timestamp: u64,
    /// preToolUse, postToolUse: the tool's arguments, in Copilot CLI's keys.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_args: Option<Value>,
    /// preToolUse, postToolUse: the tool, by Copilot CLI's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// postToolUse: the tool's result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_result: Option<CopilotToolResult>,
    /// agentStop, subagentStop, preCompact: where the transcript is (empty when unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript_path: Option<String>,
    /// preCompact: `manual` or `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
}

/// postToolUse's `toolResult`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CopilotToolResult {
    /// `success` or `failure`.
    pub result_type: String,
    /// The result text the model is shown.
    pub text_result_for_llm: String,
}

/// Copilot CLI's `permissionDecision` as hookhost writes it (never `"allow"`: hooks can
/// block, never bypass).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CopilotPermission {
    /// Block the tool call.
    Deny,
    /// Hand the call to the user (a deny where no user can answer).
    Ask,
}

/// `decision` on agentStop / subagentStop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CopilotStopDecision {
    /// Another turn, with `reason` as its prompt.
    Block,
}

/// The answer `hookhost hook --for copilot` prints (nothing at all when every field is absent).
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    title = "hookhost's answer to GitHub Copilot CLI",
    description = "What `hookhost hook --for copilot` prints on stdout, with exit 0: the decision hookhost reached, in Copilot CLI's hook protocol (docs.github.com/en/copilot/reference/hooks-reference)."
)]
pub struct CopilotAnswer {
    /// sessionStart, postToolUse: text for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// agentStop, subagentStop: `block` sends the agent on with `reason`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<CopilotStopDecision>,
    /// preToolUse: the arguments to run the tool with, in Copilot CLI's keys.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified_args: Option<Value>,
    /// preToolUse: deny or ask.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision: Option<CopilotPermission>,
    /// preToolUse: why (shown to the agent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_decision_reason: Option<String>,
    /// With `decision: "block"`: the next turn's prompt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A Copilot CLI payload as hookhost reads it: camelCase, every field lenient. Which event it
/// is for is told by its fields (`translate::recognise`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
#[doc(hidden)]
pub struct CopilotPayloadIn {
    #[serde(default, deserialize_with = "fields::string")]
    pub session_id: Option<String>,
    /// A number (ms) in Copilot CLI's camelCase payloads.
    #[serde(default, deserialize_with = "fields::present")]
    pub timestamp: Option<Value>,
    #[serde(default, deserialize_with = "fields::string")]
    pub tool_name: Option<String>,
    /// An object, or its JSON text.
    #[serde(default, deserialize_with = "fields::present")]
    pub tool_args: Option<Value>,
    /// permissionRequest's arguments (not `toolArgs`).
    #[serde(default, deserialize_with = "fields::present")]
    pub tool_input: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub tool_result: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub error: Option<Value>,
    #[serde(default, deserialize_with = "fields::string")]
    pub prompt: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub transformed_prompt: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub source: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub reason: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub stop_reason: Option<String>,
    #[serde(
        rename = "stop_hook_active",
        default,
        deserialize_with = "fields::boolean"
    )]
    pub stop_hook_active: Option<bool>,
    #[serde(default, deserialize_with = "fields::string")]
    pub trigger: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub agent_name: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub agent_id: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub response: Option<String>,
    #[serde(default, deserialize_with = "fields::present")]
    pub error_context: Option<Value>,
}
