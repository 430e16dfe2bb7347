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

    fn fixtures(d: Dialect) -> Vec<(String, Value)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/agents")
            .join(d.as_str());
        let mut out: Vec<(String, Value)> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .map(|p| {
                let name = p.file_stem().unwrap().to_string_lossy().into_owned();
                let text = std::fs::read_to_string(&p).unwrap();
                (name, serde_json::from_str(&text).unwrap())
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// Every documented payload of every Claude-like agent (tests/fixtures/agents/AGENT/
    /// doc-EVENT.json) is read into the native payload of its event, a shell call as the
    /// core's `bash`; and written back for a hook of that agent, it says the same.
    #[test]
    fn every_documented_payload_reads_into_native_and_back() {
        for d in Dialect::CLAUDE_LIKE {
            let docs: Vec<(String, Value)> = fixtures(d)
                .into_iter()
                .filter(|(n, _)| n.starts_with("doc-"))
                .collect();
            assert!(!docs.is_empty(), "{d}: no fixtures");
            for (name, v) in docs {
                let want: Event = name.trim_start_matches("doc-").parse().unwrap();
                let (got_d, e, fields) = super::super::recognise_for(d, &v).unwrap();
                assert_eq!((got_d, e), (d, Some(want)), "{d} {name}");
                let payload = Payload::from_object(
                    want,
                    Value::Object(fields.clone()),
                    std::path::Path::new("/p"),
                    "s",
                )
                .unwrap();
                if want == Event::PreToolUse {
                    assert_eq!(fields["toolName"], json!("bash"), "{d} {name}");
                    assert_eq!(fields["toolArgs"]["command"], json!("rm -rf /tmp/x"));
                    // A hook of the agent's dialect sees the agent's tool name again.
                    let out: Value =
                        serde_json::from_slice(&super::super::render(d, &payload)).unwrap();
                    assert_eq!(out["tool_name"], v["tool_name"], "{d} {name}: {out}");
                    assert_eq!(out["tool_input"]["command"], json!("rm -rf /tmp/x"));
                }
            }
        }
    }

    /// Every payload captured from a real Claude-like agent (tests/fixtures/agents/AGENT/
    /// captured-EVENT.json, from `scripts/test-real-agents --capture`) is read as that agent's:
    /// the tool and prompt events as their native events, a shell call as the core's `bash`;
    /// an event its row does not list, as none.
    #[test]
    fn every_captured_payload_reads_into_native() {
        for d in Dialect::CLAUDE_LIKE {
            let captured = fixtures(d)
                .into_iter()
                .filter(|(n, _)| n.starts_with("captured-") && !n.ends_with(".env"));
            for (name, v) in captured {
                let named: Option<Event> = name.trim_start_matches("captured-").parse().ok();
                let (got_d, e, fields) = super::super::recognise_for(d, &v)
                    .unwrap_or_else(|| panic!("{d} {name}: not recognised"));
                assert_eq!(got_d, d, "{d} {name}");
                assert!(e.is_none() || e == named, "{d} {name}: read as {e:?}");
                use Event::{PostToolUse, PreToolUse, Stop, UserPromptSubmit};
                if matches!(
                    named,
                    Some(PreToolUse | PostToolUse | UserPromptSubmit | Stop)
                ) {
                    assert_eq!(e, named, "{d} {name}");
                }
                if matches!(e, Some(PreToolUse | PostToolUse)) {
                    assert_eq!(fields["toolName"], json!("bash"), "{d} {name}");
                    assert_eq!(fields["toolArgs"]["command"], json!("ls"), "{d} {name}");
                }
            }
        }
    }

    /// A native block, answered to each agent, is the deny its docs show
    /// (tests/fixtures/agents/AGENT/answer-PreToolUse-deny.json): the same fields, the same
    /// decision.
    #[test]
    fn a_block_is_answered_as_each_agent_documents_a_deny() {
        use crate::report::{Decision, EventReport};
        for d in Dialect::CLAUDE_LIKE {
            let (_, doc) = fixtures(d)
                .into_iter()
                .find(|(n, _)| n == "answer-PreToolUse-deny")
                .unwrap_or_else(|| panic!("{d}: no answer fixture"));
            let mut r = EventReport::new(Event::PreToolUse);
            r.decision = Decision::Block;
            r.reason = Some("rm -rf is blocked".into());
            let a = super::super::respond(d, &r, Some("bash"));
            let got: Value = serde_json::from_str(&a.stdout).unwrap();
            let shape = |v: &Value| match v.get("hookSpecificOutput") {
                Some(h) => (h["permissionDecision"].clone(), h["hookEventName"].clone()),
                None => (v["decision"].clone(), Value::Null),
            };
            assert_eq!(shape(&got), shape(&doc), "{d}: {got} vs {doc}");
            assert_eq!(a.exit_code, 0);
            assert!(a.stdout.contains("rm -rf is blocked"), "{d}: {}", a.stdout);
        }
    }
}
