//! The ling agent's side of a hook (the TypeScript agent hookhost's design comes from): a
//! camelCase payload whose tool call is one `toolCall` object, and answers spelled
//! `blocked` / `blockReason` / `modifiedParams` (read by [`HookAnswer`](super::HookAnswer)).

use super::fields;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The payload a ling hook reads on stdin; `None` fields are absent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    title = "ling hook payload",
    description = "What a hook of the `ling` dialect reads on stdin, one line: the event's fields in camelCase, the tool call as `toolCall` with ling's argument keys (`file_path`)."
)]
pub struct LingPayload {
    /// The directory the agent runs in.
    pub cwd: String,
    /// The event (hookhost's name).
    pub event: String,
    /// `true` inside a subagent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_subagent: Option<bool>,
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
    /// When the event fired (ISO 8601).
    pub timestamp: String,
    /// PreToolUse, PostToolUse: the tool call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call: Option<LingToolCall>,
    /// PreCompact: `auto` or `manual`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
}

/// ling's `toolCall`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LingToolCall {
    /// The arguments, in ling's keys.
    #[serde(default = "empty_object")]
    pub params: Value,
    /// PostToolUse: the tool's result.
    #[serde(
        default,
        deserialize_with = "fields::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub result: Option<Value>,
    /// The tool.
    #[serde(default, deserialize_with = "string_or_empty")]
    pub tool: String,
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}

fn string_or_empty<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    fields::string(d).map(Option::unwrap_or_default)
}

/// A ling payload as hookhost reads it back: the tool call, and every other field as given
/// (they are the native payload's fields, unknown ones included, kept verbatim).
#[derive(Debug, Clone, Deserialize)]
#[doc(hidden)]
pub struct LingPayloadIn {
    /// `toolCall`: `Some(None)` when present but not an object.
    #[serde(rename = "toolCall", default, deserialize_with = "tool_call")]
    pub tool_call: Option<Option<LingToolCall>>,
    /// Everything else, verbatim.
    #[serde(flatten)]
    pub fields: Map<String, Value>,
}

fn tool_call<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Option<LingToolCall>>, D::Error> {
    let v = Value::deserialize(d)?;
    Ok(Some(match v {
        Value::Object(_) => LingToolCall::deserialize(v).ok(),
        _ => None,
    }))
}
