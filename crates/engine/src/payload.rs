//! The JSON object a hook reads on stdin (DESIGN §2).
//!
//! A payload is kept as a JSON object rather than a struct per event: the typed constructors
//! below guarantee the fields each event documents, and a payload supplied whole (`hookhost
//! run --payload`) keeps any extra fields its author put in.

use super::event::Event;
use serde_json::{Map, Value, json};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// One event's payload: a camelCase JSON object with at least `event`, `cwd` and `sessionId`.
#[derive(Debug, Clone)]
pub struct Payload {
    event: Event,
    fields: Map<String, Value>,
    /// The serialised form, made once and shared by every hook of the event until a field
    /// changes (an `updatedInput`).
    bytes: OnceLock<Arc<[u8]>>,
}

impl PartialEq for Payload {
    fn eq(&self, other: &Self) -> bool {
        self.event == other.event && self.fields == other.fields
    }
}

impl Payload {
    fn base(event: Event, cwd: &Path, session_id: &str) -> Self {
        let mut fields = Map::new();
        fields.insert("event".into(), json!(event.as_str()));
        fields.insert("cwd".into(), json!(cwd.to_string_lossy()));
        fields.insert("sessionId".into(), json!(session_id));
        Payload {
            event,
            fields,
            bytes: OnceLock::new(),
        }
    }

    fn with(mut self, key: &str, value: Value) -> Self {
        self.set(key, value);
        self
    }

    /// SessionStart; `source` is `startup` or `resume`.
    pub fn session_start(cwd: &Path, session_id: &str, source: &str) -> Self {
        Self::base(Event::SessionStart, cwd, session_id).with("source", json!(source))
    }

    /// UserPromptSubmit, with the user's `prompt`.
    pub fn user_prompt_submit(cwd: &Path, session_id: &str, prompt: &str) -> Self {
        Self::base(Event::UserPromptSubmit, cwd, session_id).with("prompt", json!(prompt))
    }

    /// PreToolUse of `tool` with `args`.
    pub fn pre_tool_use(cwd: &Path, session_id: &str, tool: &str, args: Value) -> Self {
        Self::base(Event::PreToolUse, cwd, session_id)
            .with("toolName", json!(tool))
            .with("toolArgs", args)
    }

    /// PostToolUse of `tool` with `args`, its `result`, and whether it failed.
    pub fn post_tool_use(
        cwd: &Path,
        session_id: &str,
        tool: &str,
        args: Value,
        result: Value,
        is_error: bool,
    ) -> Self {
        Self::base(Event::PostToolUse, cwd, session_id)
            .with("toolName", json!(tool))
            .with("toolArgs", args)
            .with("toolResult", result)
            .with("toolError", json!(is_error))
    }

    /// PreCompact; `trigger` is `auto` or `manual`.
    pub fn pre_compact(cwd: &Path, session_id: &str, trigger: &str) -> Self {
        Self::base(Event::PreCompact, cwd, session_id).with("trigger", json!(trigger))
    }

    /// Stop or SubagentStop.
    pub fn stop(event: Event, cwd: &Path, session_id: &str, stop_hook_active: bool) -> Self {
        Self::base(event, cwd, session_id).with("stopHookActive", json!(stop_hook_active))
    }

    /// SessionEnd; `reason` says why the session ended.
    pub fn session_end(cwd: &Path, session_id: &str, reason: &str) -> Self {
        Self::base(Event::SessionEnd, cwd, session_id).with("reason", json!(reason))
    }

    /// A payload built from neutral defaults for `event` (the CLI's starting point when only
    /// some flags are given): empty tool name and arguments, `toolError` false, `source`
    /// "startup", `trigger` "manual", `reason` "other", `stopHookActive` false.
    pub fn neutral(event: Event, cwd: &Path, session_id: &str) -> Self {
        match event {
            Event::SessionStart => Self::session_start(cwd, session_id, "startup"),
            Event::UserPromptSubmit => Self::user_prompt_submit(cwd, session_id, ""),
            Event::PreToolUse => Self::pre_tool_use(cwd, session_id, "", json!({})),
            Event::PostToolUse => {
                Self::post_tool_use(cwd, session_id, "", json!({}), Value::Null, false)
            }
            Event::PreCompact => Self::pre_compact(cwd, session_id, "manual"),
            Event::Stop | Event::SubagentStop => Self::stop(event, cwd, session_id, false),
            Event::SessionEnd => Self::session_end(cwd, session_id, "other"),
        }
    }

    /// A payload from a whole JSON object: `event` is overridden by `event`, missing `cwd` and
    /// `sessionId` are filled in. Errors when `value` is not an object.
    pub fn from_object(
        event: Event,
        value: Value,
        cwd: &Path,
        session_id: &str,
    ) -> Result<Self, String> {
        let Value::Object(mut fields) = value else {
            return Err(format!(
                "a payload must be a JSON object, got {}",
                json_type_name(&value)
            ));
        };
        fields.insert("event".into(), json!(event.as_str()));
        fields
            .entry("cwd")
            .or_insert_with(|| json!(cwd.to_string_lossy()));
        fields
            .entry("sessionId")
            .or_insert_with(|| json!(session_id));
        Ok(Payload {
            event,
            fields,
            bytes: OnceLock::new(),
        })
    }

    /// Marks the payload as coming from inside a subagent (`"isSubagent": true`).
    pub fn mark_subagent(&mut self) {
        self.set("isSubagent", Value::Bool(true));
    }

    /// Sets (or replaces) one field.
    pub fn set(&mut self, key: &str, value: Value) {
        self.fields.insert(key.to_string(), value);
        self.bytes = OnceLock::new();
    }

    /// The event this payload is for.
    pub fn event(&self) -> Event {
        self.event
    }

    /// One field, by its camelCase name.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields.get(key)
    }

    /// The tool name, on PreToolUse and PostToolUse.
    pub fn tool_name(&self) -> Option<&str> {
        self.fields.get("toolName").and_then(Value::as_str)
    }

    /// The tool arguments (`toolArgs`), on PreToolUse and PostToolUse.
    pub fn tool_args(&self) -> Option<&Value> {
        self.fields.get("toolArgs")
    }

    /// Replaces the tool arguments (a hook's `updatedInput`; later hooks see the new ones).
    pub fn set_tool_args(&mut self, args: Value) {
        self.set("toolArgs", args);
    }

    /// Every field.
    pub fn as_map(&self) -> &Map<String, Value> {
        &self.fields
    }

    /// The bytes written to a hook's stdin (serialised once per version of the payload).
    pub fn to_json_bytes(&self) -> Arc<[u8]> {
        self.bytes
            .get_or_init(|| {
                // Serialising a Map of Values cannot fail.
                serde_json::to_vec(&self.fields).unwrap_or_default().into()
            })
            .clone()
    }
}

/// "an object", "a string", ...: for error messages.
pub fn json_type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
