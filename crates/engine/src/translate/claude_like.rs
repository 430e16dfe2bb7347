//! The payloads of the Claude-like agents (`config::agents::claude_like`), both ways: Claude
//! Code's fields in the agent's tool names, reshaped as the agent's row says (VS Code's
//! `hookEventName`, `sessionId` and `timestamp`; goose's `event`, `message`, `working_dir`,
//! `tool_call_id`, `matcher_context`), and the agent's payload read back into native fields.
//!
//! Which agent sent a payload is not told by its shape here (Qwen Code's, Qoder CLI's and
//! Factory Droid's are Claude Code's field for field): `hookhost hook --for X` says it, and
//! [`recognise`] reads it as X's.

use super::render::{Source, claude_fields, event_fields_in, fields_of, from_agent, now_iso};
use crate::Dialect;
use crate::config::agents::claude_like::{Shape, profile};
use crate::config::agents::events;
use crate::event::Event;
use crate::payload::Payload;
use hookhost_protocol::wire::{AgentPayload, ClaudePayload};
use serde::Deserialize;
use serde_json::{Map, Value};

/// goose's names for Claude Code's payload fields: (Claude Code's, goose's).
const GOOSE_NAMES: &[(&str, &str)] = &[
    ("hook_event_name", "event"),
    ("prompt", "message"),
    ("cwd", "working_dir"),
    ("tool_use_id", "tool_call_id"),
];

/// VS Code's names for Claude Code's common fields: (Claude Code's, VS Code's).
const VSCODE_NAMES: &[(&str, &str)] = &[
    ("hook_event_name", "hookEventName"),
    ("session_id", "sessionId"),
];

/// The fields goose sends (its hooks reference, "Hook Payload").
const GOOSE_FIELDS: &[&str] = &[
    "event",
    "session_id",
    "matcher_context",
    "tool_name",
    "tool_input",
    "message",
    "last_assistant_message",
    "working_dir",
    "tool_call_id",
];

fn names(shape: Shape) -> &'static [(&'static str, &'static str)] {
    match shape {
        Shape::Claude => &[],
        Shape::Vscode => VSCODE_NAMES,
        Shape::Goose => GOOSE_NAMES,
    }
}

/// The payload a hook of Claude-like dialect `d` reads for `p`: Claude Code's fields in
/// `d`'s tool names and shape; when the event came with `d`'s own payload, its fields hookhost
/// does not render are kept as the agent sent them.
pub(super) fn payload(d: Dialect, e: Event, p: &Payload) -> Map<String, Value> {
    let shape = profile(d).map_or(Shape::Claude, |r| r.payload);
    let k = p.known();
    let source = if p.origin().is_some() {
        Source::Agent
    } else {
        Source::Own
    };
    let claude = match serde_json::to_value(ClaudePayload {
        fields: claude_fields(d, e, &k, source),
    }) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let mut out = match p.origin() {
        Some(o) if o.dialect == d => o.fields.clone(),
        _ => Map::new(),
    };
    out.extend(reshape(shape, claude));
    if shape == Shape::Vscode && !out.contains_key("timestamp") {
        out.insert("timestamp".into(), Value::String(now_iso()));
    }
    out
}

/// Claude Code's payload in `shape`'s field names (goose's: only the fields it sends, and the
/// `matcher_context` its matchers test).
fn reshape(shape: Shape, claude: Map<String, Value>) -> Map<String, Value> {
    let renamed = |key: &str| {
        names(shape)
            .iter()
            .find(|(c, _)| *c == key)
            .map_or(key, |(_, n)| n)
            .to_string()
    };
    let mut out: Map<String, Value> = claude
        .into_iter()
        .map(|(key, v)| (renamed(&key), v))
        .collect();
    if shape == Shape::Goose {
        let context = out.get("tool_name").or_else(|| out.get("message")).cloned();
        if let Some(context) = context {
            out.insert("matcher_context".into(), context);
        }
        out.retain(|key, v| GOOSE_FIELDS.contains(&key.as_str()) && !v.is_null());
    }
    out
}

/// A payload of Claude-like dialect `d` as native fields: `(d, event, fields)`; `None` when it
/// names no event.
pub(super) fn recognise(
    d: Dialect,
    obj: &Map<String, Value>,
) -> Option<(Dialect, Option<Event>, Map<String, Value>)> {
    let shape = profile(d)?.payload;
    // In Claude Code's names (a field already spelled that way wins).
    let mut claude = obj.clone();
    for (c, n) in names(shape) {
        if let Some(v) = obj.get(*n) {
            claude.entry(c.to_string()).or_insert_with(|| v.clone());
        }
    }
    let a = AgentPayload::deserialize(&claude).unwrap_or_default();
    let name = a.hook_event_name.clone()?;
    let event = events::from_agent_name(d, &name);
    let own = event_fields_in(d, event, &claude);
    let mut fields = fields_of(&from_agent(d, event, a));
    fields.extend(own);
    Some((d, event, fields))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn native(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn each_shape_is_read_back_into_native_fields() {
        let (d, e, f) = recognise(
            Dialect::Vscode,
            &native(
                json!({"hookEventName": "PreToolUse", "sessionId": "s", "cwd": "/p",
                "timestamp": "2026-02-09T10:30:00.000Z", "tool_name": "runTerminalCommand",
                "tool_input": {"command": "ls"}, "tool_use_id": "t1"}),
            ),
        )
        .unwrap();
        assert_eq!((d, e), (Dialect::Vscode, Some(Event::PreToolUse)));
        assert_eq!(
            (&f["toolName"], &f["toolArgs"], &f["sessionId"]),
            (&json!("bash"), &json!({"command": "ls"}), &json!("s"))
        );
        let (_, e, f) = recognise(
            Dialect::Goose,
            &native(json!({"event": "UserPromptSubmit", "session_id": "g",
                "matcher_context": "hi", "message": "hi"})),
        )
        .unwrap();
        assert_eq!(
            (e, &f["prompt"]),
            (Some(Event::UserPromptSubmit), &json!("hi"))
        );
        // An event the agent does not fire is none hookhost runs a hook on.
        let (_, e, _) = recognise(
            Dialect::Auggie,
            &native(json!({"hook_event_name": "UserPromptSubmit", "prompt": "x"})),
        )
        .unwrap();
        assert_eq!(e, None);
        assert!(recognise(Dialect::Qwen, &native(json!({"prompt": "x"}))).is_none());
    }
}
