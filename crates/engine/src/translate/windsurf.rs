//! Windsurf Cascade payloads both ways (docs.windsurf.com/windsurf/cascade/hooks, "Hook
//! Events"): [`payload`] renders a native event as the JSON a Windsurf hook reads,
//! [`recognise`] reads a Windsurf payload (told by its `agent_action_name` of Windsurf's with
//! a `tool_info` object) back into native fields.
//!
//! Every payload has `agent_action_name` (the event), `trajectory_id` (the conversation:
//! hookhost's session), `execution_id`, `timestamp` and `tool_info`, whose fields are the
//! event's: `command_line` and `cwd` (run_command), `file_path` (read_code; `content` after),
//! `file_path` and `edits` [{`old_string`, `new_string`}] (write_code), `mcp_server_name`,
//! `mcp_tool_name`, `mcp_tool_arguments` (`mcp_result` after), `user_prompt`, `response`.
//! A write is read as the core's `write_file` when its one edit replaces nothing (a new
//! file's content), else as `edit_file` (one edit: its `old`/`new`; several: `edits` kept);
//! an MCP call as the tool `mcp__SERVER__TOOL`. What hookhost cannot know is left empty, not
//! made up (`execution_id`); when the event came with Windsurf's own payload its fields are
//! kept and only `tool_info` is rendered anew (a rewritten call's arguments).

use super::render::{fields_of, now_iso};
use crate::Dialect;
use crate::config::agents::events::{from_agent_name, windsurf_event_name};
use crate::event::Event;
use crate::payload::Payload;
use hookhost_protocol::wire::NativePayload;
use serde_json::{Map, Value, json};

/// The payload a Windsurf hook reads for `p`.
pub(super) fn payload(e: Event, p: &Payload) -> Map<String, Value> {
    let k = p.known();
    let core_tool = k.tool_name.clone().unwrap_or_default();
    let name = windsurf_event_name(e, &core_tool).unwrap_or(e.as_str());
    let mut out = match p.origin() {
        Some(o) if o.dialect == Dialect::Windsurf => o.fields.clone(),
        _ => Map::new(),
    };
    for (key, v) in [
        (
            "trajectory_id",
            json!(k.session_id.clone().unwrap_or_default()),
        ),
        ("execution_id", json!("")),
        ("timestamp", json!(now_iso())),
    ] {
        out.entry(key).or_insert(v);
    }
    out.insert("agent_action_name".into(), json!(name));
    out.insert("tool_info".into(), tool_info(e, &k, &core_tool));
    out
}

/// The event's `tool_info`.
fn tool_info(e: Event, k: &NativePayload, core_tool: &str) -> Value {
    let args = k.tool_args.clone().unwrap_or_else(|| json!({}));
    let arg = |key: &str| args.get(key).cloned().unwrap_or(Value::Null);
    let text = |v: Option<&Value>| match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(v) => v.to_string(),
    };
    let post = e == Event::PostToolUse;
    match e {
        Event::PreToolUse | Event::PostToolUse => {
            let mut info = match core_tool {
                "bash" => json!({
                    "command_line": text(args.get("command")),
                    "cwd": args.get("cwd").cloned().unwrap_or_else(|| json!(k.cwd.clone().unwrap_or_default())),
                }),
                "read_file" => json!({"file_path": arg("path")}),
                "write_file" => json!({"file_path": arg("path"), "edits": [
                    {"old_string": "", "new_string": text(args.get("content"))}
                ]}),
                "edit_file" => {
                    let edits = args.get("edits").cloned().unwrap_or_else(|| {
                        json!([{"old_string": text(args.get("old")), "new_string": text(args.get("new"))}])
                    });
                    json!({"file_path": arg("path"), "edits": edits})
                }
                tool => match mcp_parts(tool) {
                    Some((server, name)) => json!({
                        "mcp_server_name": server,
                        "mcp_tool_name": name,
                        "mcp_tool_arguments": args,
                    }),
                    // A tool Windsurf has no event for: its name and arguments as they are.
                    None => json!({"tool_name": tool, "tool_input": args}),
                },
            };
            if post {
                let result = text(k.tool_result.as_ref());
                match core_tool {
                    "bash" => info["output"] = json!(result),
                    "read_file" => info["content"] = json!(result),
                    t if mcp_parts(t).is_some() => info["mcp_result"] = json!(result),
                    _ => {}
                }
            }
            info
        }
        Event::UserPromptSubmit => json!({"user_prompt": k.prompt.clone().unwrap_or_default()}),
        Event::Stop => json!({"response": k.last_assistant_message.clone().unwrap_or_default()}),
        _ => json!({}),
    }
}

/// `mcp__SERVER__TOOL` (hookhost's and Claude Code's name of an MCP tool): its parts.
fn mcp_parts(tool: &str) -> Option<(&str, &str)> {
    tool.strip_prefix("mcp__")?.split_once("__")
}

/// A Windsurf payload in native fields: `(Windsurf, event, fields)`, or `None` when `obj` is
/// not Windsurf's.
pub(super) fn recognise(
    obj: &Map<String, Value>,
) -> Option<(Dialect, Option<Event>, Map<String, Value>)> {
    let name = obj.get("agent_action_name")?.as_str()?;
    let info = obj.get("tool_info").and_then(Value::as_object);
    let event = from_agent_name(Dialect::Windsurf, name);
    // Its own names, or another name of its with its `tool_info` (an event hookhost does not
    // fire, `post_setup_worktree`).
    if event.is_none() && info.is_none() {
        return None;
    }
    let empty = Map::new();
    let info = info.unwrap_or(&empty);
    let text = |key: &str| info.get(key).and_then(Value::as_str).map(str::to_string);
    let mut n = NativePayload {
        session_id: obj
            .get("trajectory_id")
            .and_then(Value::as_str)
            .map(str::to_string),
        cwd: text("cwd"),
        ..NativePayload::default()
    };
    let kind = name
        .strip_prefix("pre_")
        .or_else(|| name.strip_prefix("post_"))
        .unwrap_or_default();
    let (tool, args, result) = match kind {
        "run_command" => (
            "bash".to_string(),
            json!({"command": text("command_line").unwrap_or_default()}),
            info.get("output"),
        ),
        "read_code" => (
            "read_file".to_string(),
            json!({"path": info.get("file_path")}),
            info.get("content"),
        ),
        "write_code" => {
            let (tool, args) = write_call(info);
            (tool, args, None)
        }
        "mcp_tool_use" => (
            format!(
                "mcp__{}__{}",
                text("mcp_server_name").unwrap_or_default(),
                text("mcp_tool_name").unwrap_or_default()
            ),
            info.get("mcp_tool_arguments")
                .cloned()
                .unwrap_or_else(|| json!({})),
            info.get("mcp_result"),
        ),
        _ => {
            n.prompt = text("user_prompt");
            n.last_assistant_message = text("response");
            return Some((Dialect::Windsurf, event, fields_of(&n)));
        }
    };
    n.tool_name = Some(tool);
    n.tool_args = Some(args);
    if event == Some(Event::PostToolUse) {
        n.tool_result = result.cloned();
    }
    Some((Dialect::Windsurf, event, fields_of(&n)))
}

/// A `write_code` call as the core's: `write_file` when its one edit replaces nothing, else
/// `edit_file`.
fn write_call(info: &Map<String, Value>) -> (String, Value) {
    let path = info.get("file_path").cloned().unwrap_or(Value::Null);
    let edits = info.get("edits").and_then(Value::as_array);
    let part = |e: &Value, key: &str| e.get(key).cloned().unwrap_or_else(|| json!(""));
    match edits.map(Vec::as_slice) {
        Some([one]) if part(one, "old_string") == json!("") => (
            "write_file".into(),
            json!({"path": path, "content": part(one, "new_string")}),
        ),
        Some([one]) => (
            "edit_file".into(),
            json!({"path": path, "old": part(one, "old_string"), "new": part(one, "new_string")}),
        ),
        Some(_) => (
            "edit_file".into(),
            json!({"path": path, "edits": info.get("edits")}),
        ),
        None => ("edit_file".into(), json!({"path": path})),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Value {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/agents/windsurf")
            .join(format!("{name}.json"));
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap()
    }

    /// Every documented payload (tests/fixtures/agents/windsurf/doc-NAME.json) reads as its
    /// native event and core call, and written back for a Windsurf hook it says the same:
    /// its event's name and `tool_info`, the base fields as they came.
    #[test]
    fn every_documented_payload_reads_into_native_and_back() {
        let cases = [
            ("pre_run_command", Event::PreToolUse, Some("bash")),
            ("post_run_command", Event::PostToolUse, Some("bash")),
            ("pre_read_code", Event::PreToolUse, Some("read_file")),
            ("pre_write_code", Event::PreToolUse, Some("edit_file")),
            ("post_write_code", Event::PostToolUse, Some("edit_file")),
            (
                "pre_mcp_tool_use",
                Event::PreToolUse,
                Some("mcp__github__create_issue"),
            ),
            ("pre_user_prompt", Event::UserPromptSubmit, None),
            ("post_cascade_response", Event::Stop, None),
        ];
        for (name, event, tool) in cases {
            let doc = fixture(&format!("doc-{name}"));
            let (d, e, fields) = super::super::recognise_for(Dialect::Windsurf, &doc).unwrap();
            assert_eq!((d, e), (Dialect::Windsurf, Some(event)), "{name}");
            assert_eq!(
                super::super::recognise(&doc).unwrap().1,
                Some(event),
                "{name}"
            );
            assert_eq!(
                fields.get("toolName").and_then(Value::as_str),
                tool,
                "{name}"
            );
            let payload = Payload::from_object(
                event,
                Value::Object(fields.clone()),
                std::path::Path::new("/home/user/project"),
                "traj",
            )
            .unwrap();
            let out: Value =
                serde_json::from_slice(&super::super::render(Dialect::Windsurf, &payload)).unwrap();
            assert_eq!(out["agent_action_name"], doc["agent_action_name"], "{name}");
            assert_eq!(out["trajectory_id"], doc["trajectory_id"], "{name}");
            let (want, got) = (&doc["tool_info"], &out["tool_info"]);
            for key in want.as_object().unwrap().keys() {
                assert_eq!(got[key], want[key], "{name}: {key} in {out}");
            }
        }
        let (_, _, f) = recognise(fixture("doc-pre_run_command").as_object().unwrap()).unwrap();
        assert_eq!(f["toolArgs"]["command"], "rm -rf /tmp/x");
        assert_eq!(f["cwd"], "/home/user/project");
        // Claude Code's payload is not Windsurf's.
        let claude = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash"});
        assert!(recognise(claude.as_object().unwrap()).is_none());
    }

    #[test]
    fn a_write_of_new_content_is_a_write_and_a_replacement_an_edit() {
        let info =
            json!({"file_path": "/p/a.txt", "edits": [{"old_string": "", "new_string": "hi"}]});
        assert_eq!(
            write_call(info.as_object().unwrap()),
            (
                "write_file".into(),
                json!({"path": "/p/a.txt", "content": "hi"})
            )
        );
        let info =
            json!({"file_path": "/p/a.txt", "edits": [{"old_string": "a", "new_string": "b"}]});
        assert_eq!(write_call(info.as_object().unwrap()).0, "edit_file");
        assert_eq!(
            mcp_parts("mcp__github__create_issue"),
            Some(("github", "create_issue"))
        );
    }
}
