//! A client hook's answer: what a function registered through `hookhost serve` (or the
//! Python package) returns for one event, read by the engine's `typed_answer`.
//! Its vocabulary is the typed answer's (`pass` / `block` / `force`), not a process's JSON
//! answer's: a client hook answers with a value, not with output to interpret.

use crate::json::json_type_name;
use schemars::JsonSchema;
use serde::de::{Deserializer, Error};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A client hook's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ClientDecision {
    /// Go on (also when `decision` is absent).
    Pass,
    /// PreToolUse: block, with `reason`.
    Block,
    /// Stop, SubagentStop: continue, with `reason` as the message.
    Force,
    /// PermissionRequest: run the call without the permission prompt (elsewhere a pass).
    Allow,
}

/// A client hook's answer (`null` is a pass); unknown keys are ignored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    title = "a client hook's answer",
    description = "What a client hook (serve's `hook` call, a Python callable) returns: an object, or null for a pass.",
    extend("type" = ["object", "null"])
)]
pub struct ClientAnswer {
    /// Text for the model (on pass).
    #[serde(
        default,
        deserialize_with = "additional_context",
        skip_serializing_if = "Option::is_none"
    )]
    pub additional_context: Option<String>,
    /// Pass, block or force; absent is pass.
    #[serde(
        default,
        deserialize_with = "decision",
        skip_serializing_if = "Option::is_none"
    )]
    pub decision: Option<ClientDecision>,
    /// The block reason or the force message.
    #[serde(
        default,
        deserialize_with = "reason",
        skip_serializing_if = "Option::is_none"
    )]
    pub reason: Option<String>,
    /// Text for the user (on pass).
    #[serde(
        default,
        deserialize_with = "system_message",
        skip_serializing_if = "Option::is_none"
    )]
    pub system_message: Option<String>,
    /// PreToolUse: new tool arguments (on pass).
    #[serde(
        default,
        deserialize_with = "updated_input",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "Option<Map<String, Value>>")]
    pub updated_input: Option<Value>,
    /// PostToolUse: what the model sees as the tool's result instead of its output (any JSON
    /// value; on pass).
    #[serde(
        default,
        deserialize_with = "updated_tool_output",
        skip_serializing_if = "Option::is_none"
    )]
    pub updated_tool_output: Option<Value>,
    /// UserPromptSubmit: the prompt to send instead of the user's (on pass).
    #[serde(
        default,
        deserialize_with = "updated_prompt",
        skip_serializing_if = "Option::is_none"
    )]
    pub updated_prompt: Option<String>,
}

impl ClientAnswer {
    /// Reads an answer: `null` is a pass; anything but an object, or a known field of the
    /// wrong type, is an error that says what to answer.
    pub fn read(v: &Value) -> Result<ClientAnswer, String> {
        match v {
            Value::Null => Ok(ClientAnswer::default()),
            Value::Object(_) => ClientAnswer::deserialize(v).map_err(|e| e.to_string()),
            _ => Err(format!(
                "a client hook must answer an object like {{\"decision\":\"pass\"}}, got {}",
                json_type_name(v)
            )),
        }
    }
}

fn text<'de, D: Deserializer<'de>>(d: D, key: &str) -> Result<Option<String>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s)),
        v => Err(D::Error::custom(format!(
            "`{key}` must be a string, got {}",
            json_type_name(&v)
        ))),
    }
}

fn additional_context<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    text(d, "additionalContext")
}

fn updated_prompt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    text(d, "updatedPrompt")
}

fn reason<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    text(d, "reason")
}

fn system_message<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    text(d, "systemMessage")
}

fn decision<'de, D: Deserializer<'de>>(d: D) -> Result<Option<ClientDecision>, D::Error> {
    let Some(name) = text(d, "decision")? else {
        return Ok(None);
    };
    ClientDecision::deserialize(Value::String(name.clone()))
        .map(Some)
        .map_err(|_| {
            D::Error::custom(format!(
                "`decision` must be \"pass\", \"block\", \"force\" or \"allow\", got {name:?}"
            ))
        })
}

fn updated_input<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        v @ Value::Object(_) => Ok(Some(v)),
        v => Err(D::Error::custom(format!(
            "`updatedInput` must be an object, got {}",
            json_type_name(&v)
        ))),
    }
}

/// Any value; `null` is absent.
fn updated_tool_output<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Ok(Some(Value::deserialize(d)?).filter(|v| !v.is_null()))
}
