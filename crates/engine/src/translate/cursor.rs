//! Cursor payloads both ways (cursor.com/docs/hooks, "Input"): [`payload`] renders a native
//! event as the JSON a Cursor hook reads, [`recognise`] reads a Cursor payload (told by its
//! Cursor event name or its `conversation_id`) back into native fields.
//!
//! One native event is one Cursor payload: the most specific Cursor event for the tool
//! (`beforeShellExecution` for `bash`, `beforeReadFile`, `afterFileEdit`, the MCP events;
//! `preToolUse`/`postToolUse` for the other tools), carrying the generic `tool_name`,
//! `tool_input` (and `tool_output`) as well, so a hook registered on either reads its fields.
//! What hookhost cannot know is absent, not made up: `beforeReadFile`'s `content` (the hook
//! reads `file_path`), `duration`, `attachments` beyond an empty list. Cursor's own fields of
//! a Cursor payload read by [`recognise`] (`generation_id`, `workspace_roots`,
//! `cursor_version`, `user_email`) are kept, verbatim, and rendered again.

use super::render::tool_call;
use crate::Dialect;
use crate::config::agents::events::{
    cursor_event_name as event_name, cursor_native_of as native_of,
};
use crate::config::agents::tools;
use crate::event::Event;
use crate::payload::Payload;
use hookhost_protocol::wire::{
    CursorEdit, CursorPayload, CursorPayloadIn, NativePayload, ToolError,
};
use serde::Deserialize;
use serde_json::{Map, Value};

/// Where [`recognise`] keeps Cursor's own fields in the native payload.
const KEPT: [(&str, &str); 4] = [
    ("generation_id", "generationId"),
    ("workspace_roots", "workspaceRoots"),
    ("cursor_version", "cursorVersion"),
    ("user_email", "userEmail"),
];

fn kept_text(p: &Payload, key: &str) -> Option<String> {
    p.get(key).and_then(Value::as_str).map(str::to_string)
}

/// The payload a Cursor hook reads for `p`.
pub(super) fn payload(e: Event, p: &Payload) -> CursorPayload {
    let k = p.known();
    let cwd = k.cwd.clone().unwrap_or_default();
    let core_tool = k.tool_name.clone().unwrap_or_default();
    let roots = match p.get("workspaceRoots") {
        Some(Value::Array(r)) if r.iter().all(Value::is_string) => r
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => vec![cwd.clone()],
    };
    let name = event_name(e, &core_tool);
    let mut c = CursorPayload {
        conversation_id: k.session_id.clone().unwrap_or_default(),
        cursor_version: kept_text(p, "cursorVersion"),
        generation_id: kept_text(p, "generationId")
            .or_else(|| k.turn_id.clone())
            .unwrap_or_default(),
        hook_event_name: name.to_string(),
        model: k.model.clone(),
        transcript_path: k.transcript_path.clone(),
        user_email: kept_text(p, "userEmail"),
        workspace_roots: roots,
        ..CursorPayload::default()
    };
    match e {
        Event::PreToolUse | Event::PostToolUse => tool_fields(&mut c, name, &k, cwd),
        Event::UserPromptSubmit => {
            c.prompt = Some(k.prompt.clone().unwrap_or_default());
            c.attachments = Some(Vec::new());
        }
        Event::Stop | Event::SubagentStop => {
            c.status = Some("completed".into());
            c.loop_count = Some(u64::from(k.stop_hook_active.unwrap_or(false)));
        }
        _ => {}
    }
    c
}

/// The tool event's fields: the generic ones, then those of the specific event `name`.
fn tool_fields(c: &mut CursorPayload, name: &str, k: &NativePayload, cwd: String) {
    let (tool, input) = tool_call(Dialect::Cursor, k);
    let args = k.tool_args.clone().unwrap_or(Value::Null);
    let arg = |key: &str| args.get(key).and_then(Value::as_str).map(str::to_string);
    let result = k.tool_result.clone();
    let post = name.starts_with("after") || name == "postToolUse";
    c.tool_name = Some(tool);
    c.tool_input = Some(input);
    c.tool_use_id.clone_from(&k.tool_use_id);
    if post {
        c.tool_output = Some(result.clone().unwrap_or(Value::Null));
    }
    match name {
        "beforeShellExecution" | "afterShellExecution" => {
            c.command = Some(arg("command").unwrap_or_default());
            c.cwd = Some(cwd);
            if post {
                c.output = Some(result.unwrap_or(Value::Null));
            }
        }
        "beforeReadFile" => c.file_path = arg("path"),
        "afterFileEdit" => {
            c.file_path = arg("path");
            let edit = match k.tool_name.as_deref() {
                Some("write_file") => CursorEdit {
                    old_string: String::new(),
                    new_string: arg("content").unwrap_or_default(),
                },
                _ => CursorEdit {
                    old_string: arg("old").unwrap_or_default(),
                    new_string: arg("new").unwrap_or_default(),
                },
            };
            c.edits = Some(vec![edit]);
        }
        "afterMCPExecution" => {
            c.result_json =
                Some(serde_json::to_string(&result.unwrap_or(Value::Null)).unwrap_or_default());
        }
        _ => {}
    }
}

/// JSON text read as the value it holds (a string that is no JSON stays a string).
fn json_or_text(v: Value) -> Value {
    match v {
        Value::String(s) => serde_json::from_str(&s).unwrap_or(Value::String(s)),
        v => v,
    }
}

/// A Cursor payload in native fields: `(Cursor, event, fields)`, or `None` when `obj` is not
/// Cursor's (no Cursor event name and no `conversation_id`).
pub(super) fn recognise(
    obj: &Map<String, Value>,
) -> Option<(Dialect, Option<Event>, Map<String, Value>)> {
    // Every field is read leniently: this cannot fail.
    let c = CursorPayloadIn::deserialize(obj).unwrap_or_default();
    let name = c.hook_event_name.clone()?;
    let meaning = native_of(&name);
    if meaning.is_none() && c.conversation_id.is_none() {
        return None;
    }
    let event = meaning.map(|(e, _)| e);
    let mut out = native_fields(&c, meaning);
    for (cursor, native) in KEPT {
        if let Some(v) = obj.get(cursor) {
            out.insert(native.to_string(), v.clone());
        }
    }
    Some((Dialect::Cursor, event, out))
}

fn native_fields(
    c: &CursorPayloadIn,
    meaning: Option<(Event, Option<&str>)>,
) -> Map<String, Value> {
    let first_root = match &c.workspace_roots {
        Some(Value::Array(r)) => r.first().and_then(Value::as_str).map(str::to_string),
        _ => None,
    };
    let mut n = NativePayload {
        cwd: c.cwd.clone().or(first_root),
        model: c.model.clone(),
        prompt: c.prompt.clone(),
        session_id: c.conversation_id.clone(),
        transcript_path: c.transcript_path.clone(),
        ..NativePayload::default()
    };
    let Some((event, tool)) = meaning else {
        return fields_of(&n);
    };
    match event {
        Event::PreToolUse | Event::PostToolUse => {
            let post = event == Event::PostToolUse;
            let (name, args, result) = match tool {
                Some("bash") => (
                    "bash".to_string(),
                    serde_json::json!({"command": c.command.clone().unwrap_or_default()}),
                    c.output.clone().or(c.tool_output.clone()),
                ),
                Some("read_file") => (
                    "read_file".to_string(),
                    serde_json::json!({"path": c.file_path.clone().unwrap_or_default()}),
                    c.tool_output.clone(),
                ),
                Some(_) => ("edit_file".to_string(), edit_args(c), c.tool_output.clone()),
                None => {
                    let input =
                        json_or_text(c.tool_input.clone().unwrap_or(Value::Object(Map::new())));
                    let (name, args) = tools::to_core(
                        Dialect::Cursor,
                        c.tool_name.as_deref().unwrap_or_default(),
                        &input,
                    );
                    let result = c
                        .tool_output
                        .clone()
                        .or_else(|| c.result_json.clone().map(json_or_text));
                    (name, args, result)
                }
            };
            n.tool_name = Some(name);
            n.tool_args = Some(args);
            n.tool_use_id.clone_from(&c.tool_use_id);
            if post {
                n.tool_result = Some(result.unwrap_or(Value::Null));
                n.tool_error = Some(ToolError::Failed(false));
            }
        }
        Event::Stop | Event::SubagentStop => {
            n.stop_hook_active =
                Some(c.loop_count.as_ref().and_then(Value::as_u64).unwrap_or(0) > 0);
        }
        _ => {}
    }
    fields_of(&n)
}

/// `afterFileEdit`'s first edit as the core's `edit_file` arguments.
fn edit_args(c: &CursorPayloadIn) -> Value {
    let first = match &c.edits {
        Some(Value::Array(e)) => e.first().cloned().unwrap_or(Value::Null),
        _ => Value::Null,
    };
    let text = |key: &str| {
        first
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    serde_json::json!({
        "path": c.file_path.clone().unwrap_or_default(),
        "old": text("old_string"),
        "new": text("new_string"),
    })
}

fn fields_of(known: &NativePayload) -> Map<String, Value> {
    match serde_json::to_value(known) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::path::Path;

    fn fixture(name: &str) -> Value {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/dialects/cursor")
            .join(name);
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
    }

    #[test]
    fn a_bash_call_is_before_shell_execution_with_the_generic_fields() {
        let p = Payload::pre_tool_use(
            Path::new("/p"),
            "c1",
            "bash",
            json!({"command": "rm -rf /"}),
        );
        let c = serde_json::to_value(payload(Event::PreToolUse, &p)).unwrap();
        assert_eq!(
            c,
            json!({"command": "rm -rf /", "conversation_id": "c1", "cwd": "/p",
                   "generation_id": "", "hook_event_name": "beforeShellExecution",
                   "tool_input": {"command": "rm -rf /"}, "tool_name": "Shell",
                   "workspace_roots": ["/p"]})
        );
    }

    #[test]
    fn edits_prompts_and_stops() {
        let p = Payload::post_tool_use(
            Path::new("/p"),
            "c1",
            "edit_file",
            json!({"path": "a.ts", "old": "1", "new": "2"}),
            json!("ok"),
            false,
        );
        let c = payload(Event::PostToolUse, &p);
        assert_eq!(c.hook_event_name, "afterFileEdit");
        assert_eq!(c.file_path.as_deref(), Some("a.ts"));
        assert_eq!(
            c.edits,
            Some(vec![CursorEdit {
                old_string: "1".into(),
                new_string: "2".into()
            }])
        );
        assert_eq!(
            c.tool_input,
            Some(json!({"file_path": "a.ts", "old_string": "1", "new_string": "2"}))
        );
        let stop = Payload::stop(Event::Stop, Path::new("/p"), "c1", true);
        let c = payload(Event::Stop, &stop);
        assert_eq!(
            (c.status.as_deref(), c.loop_count),
            (Some("completed"), Some(1))
        );
        let prompt = Payload::user_prompt_submit(Path::new("/p"), "c1", "hi");
        let c = payload(Event::UserPromptSubmit, &prompt);
        assert_eq!(
            (c.hook_event_name.as_str(), c.prompt.as_deref()),
            ("beforeSubmitPrompt", Some("hi"))
        );
    }

    #[test]
    fn documented_payloads_are_recognised() {
        let v = fixture("payload-beforeShellExecution.json");
        let (d, e, fields) = recognise(v.as_object().unwrap()).unwrap();
        assert_eq!((d, e), (Dialect::Cursor, Some(Event::PreToolUse)));
        assert_eq!(fields["toolName"], "bash");
        assert_eq!(
            fields["toolArgs"],
            json!({"command": "npm install express"})
        );
        assert_eq!(fields["sessionId"], "conv-123");
        assert_eq!(fields["cwd"], "/path/to/project");
        assert_eq!(fields["generationId"], "gen-456");
        // Rendered again for a Cursor hook: its own fields come back.
        let p = Payload::from_object(
            Event::PreToolUse,
            Value::Object(fields),
            Path::new("/x"),
            "s",
        )
        .unwrap();
        let again = serde_json::to_value(payload(Event::PreToolUse, &p)).unwrap();
        for key in [
            "hook_event_name",
            "conversation_id",
            "generation_id",
            "workspace_roots",
            "command",
            "cwd",
        ] {
            assert_eq!(again[key], v[key], "{key}");
        }
        let v = fixture("payload-afterFileEdit.json");
        let (_, e, fields) = recognise(v.as_object().unwrap()).unwrap();
        assert_eq!(e, Some(Event::PostToolUse));
        assert_eq!(fields["toolName"], "edit_file");
        assert_eq!(fields["toolArgs"]["old"], "const foo = 1");
        let v = fixture("payload-stop.json");
        assert_eq!(
            recognise(v.as_object().unwrap()).unwrap().1,
            Some(Event::Stop)
        );
        let v = fixture("payload-afterAgentResponse.json");
        let (d, e, _) = recognise(v.as_object().unwrap()).unwrap();
        assert_eq!((d, e), (Dialect::Cursor, None));
        let v = fixture("payload-preToolUse.json");
        let (_, e, fields) = recognise(v.as_object().unwrap()).unwrap();
        assert_eq!(e, Some(Event::PreToolUse));
        assert_eq!(fields["toolName"], "read_file");
        assert_eq!(fields["toolArgs"], json!({"path": "/path/to/project/.env"}));
        let v = fixture("payload-beforeReadFile.json");
        let (_, e, fields) = recognise(v.as_object().unwrap()).unwrap();
        assert_eq!(
            (e, &fields["toolArgs"]),
            (
                Some(Event::PreToolUse),
                &json!({"path": "/path/to/project/secrets.env"})
            )
        );
        let v = fixture("payload-beforeSubmitPrompt.json");
        let (_, e, fields) = recognise(v.as_object().unwrap()).unwrap();
        assert_eq!(
            (e, fields["prompt"].as_str()),
            (
                Some(Event::UserPromptSubmit),
                Some("Fix the bug in main.ts")
            )
        );
        // A Claude Code payload is not Cursor's.
        assert!(
            recognise(
                json!({"hook_event_name": "PreToolUse", "session_id": "s"})
                    .as_object()
                    .unwrap()
            )
            .is_none()
        );
    }
}
