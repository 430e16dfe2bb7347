//! Rendering payloads: shapes, nothing made up, and the real agents' payloads
//! (tests/fixtures/agents/) given back field for field.

use super::*;
use serde_json::json;
use std::path::PathBuf;

fn text(d: Dialect, p: &Payload) -> String {
    String::from_utf8(render(d, p).to_vec()).unwrap()
}

fn parsed(d: Dialect, p: &Payload) -> Value {
    serde_json::from_slice(&render(d, p)).unwrap()
}

/// Every captured payload of `agent`: (file name, payload).
fn fixtures(agent: &str) -> Vec<(String, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/agents")
        .join(agent);
    let mut out: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| !p.to_string_lossy().ends_with(".env.json"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (
                name,
                serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap(),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The payload hookhost fires for an agent's own payload, as `run --payload` builds it;
/// `None` for an event hookhost does not fire.
fn fired(v: &Value) -> Option<Payload> {
    let (_, event, _) = recognise(v)?;
    Some(payload_from(event?, v.clone(), Path::new("/home/user/project"), "s").unwrap())
}

#[test]
fn every_real_payload_comes_back_field_for_field_to_its_own_dialect() {
    let mut checked = 0;
    for (agent, d) in [
        ("claude", Dialect::Claude),
        ("codex", Dialect::Codex),
        ("gemini", Dialect::Gemini),
    ] {
        for (name, original) in fixtures(agent) {
            let (recognised, _, _) = recognise(&original).unwrap();
            assert_eq!(recognised, d, "{agent}/{name} is told as {recognised}");
            let Some(p) = fired(&original) else { continue };
            assert_eq!(parsed(d, &p), original, "{agent}/{name}");
            checked += 1;
        }
    }
    // Claude Code: 8 events hookhost fires, Codex 5, Gemini CLI 7.
    assert!(checked >= 20, "only {checked} payloads checked");
}

#[test]
fn what_changed_since_is_rendered_anew_and_only_that() {
    let (_, original) = fixtures("claude")
        .into_iter()
        .find(|(n, _)| n == "PreToolUse.json")
        .unwrap();
    let mut p = fired(&original).unwrap();
    p.set_tool_args(json!({"command": "ls -la"}));
    let v = parsed(Dialect::Claude, &p);
    assert_eq!(v["tool_input"], json!({"command": "ls -la"}));
    let mut rest = v.as_object().unwrap().clone();
    let mut before = original.as_object().unwrap().clone();
    rest.remove("tool_input");
    before.remove("tool_input");
    assert_eq!(rest, before);
    // Another event fired with this payload: its name, the rest as it came.
    let q = payload_from(Event::PostToolUse, original.clone(), Path::new("/p"), "s").unwrap();
    let v = parsed(Dialect::Claude, &q);
    assert_eq!(v["hook_event_name"], "PostToolUse");
    assert_eq!(v["prompt_id"], original["prompt_id"]);
}

#[test]
fn another_agents_payload_keeps_the_fields_no_dialect_names() {
    let (_, claude) = fixtures("claude")
        .into_iter()
        .find(|(n, _)| n == "PreToolUse.json")
        .unwrap();
    let p = fired(&claude).unwrap();
    let g = parsed(Dialect::Gemini, &p);
    assert_eq!(g["hook_event_name"], "BeforeTool");
    assert_eq!(g["tool_name"], "run_shell_command");
    assert_eq!(g["prompt_id"], claude["prompt_id"]);
    assert_eq!(g["effort"], claude["effort"]);
    assert!(g.get("permission_mode").is_none() && g.get("tool_use_id").is_none());
    assert!(g["timestamp"].as_str().unwrap().ends_with('Z'));
    let c = parsed(Dialect::Codex, &p);
    assert_eq!(c["permission_mode"], "default");
    assert!(c.get("turn_id").is_none() && c.get("model").is_none());
    let (_, gemini) = fixtures("gemini")
        .into_iter()
        .find(|(n, _)| n == "AfterAgent.json")
        .unwrap();
    let c = parsed(Dialect::Claude, &fired(&gemini).unwrap());
    assert_eq!(c["last_assistant_message"], "Done.");
    assert!(c.get("prompt_response").is_none() && c.get("timestamp").is_none());
}

#[test]
fn the_keys_are_the_wire_types_fields() {
    let props = |name: &str| -> Vec<String> {
        let (_, schema) = hookhost_protocol::schema::schemas()
            .into_iter()
            .find(|(n, _)| *n == name)
            .unwrap();
        let mut keys: Vec<String> = schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        keys.sort();
        keys
    };
    let ours = |d| {
        let mut k: Vec<String> = keys(d).map(str::to_string).collect();
        k.sort();
        k
    };
    assert_eq!(props("payload-claude.schema.json"), ours(Dialect::Claude));
    assert_eq!(props("payload-codex.schema.json"), ours(Dialect::Codex));
    assert_eq!(props("payload-gemini.schema.json"), ours(Dialect::Gemini));
}

#[test]
fn claude_payload_is_one_line_snake_case_with_claude_names() {
    let p = Payload::pre_tool_use(Path::new("/p"), "s1", "bash", json!({"command": "ls"}));
    let text = text(Dialect::Claude, &p);
    assert_eq!(text.matches('\n').count(), 1);
    assert!(text.ends_with('\n'));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["hook_event_name"], "PreToolUse");
    assert_eq!(v["tool_name"], "Bash");
    assert_eq!(v["tool_input"]["command"], "ls");
    assert_eq!(v["session_id"], "s1");
    assert_eq!(v["permission_mode"], "default");
    let (d, e, back) = recognise(&v).unwrap();
    assert_eq!((d, e), (Dialect::Claude, Some(Event::PreToolUse)));
    assert_eq!(back["toolName"], "bash");
}

#[test]
fn from_hookhosts_own_agent_nothing_is_made_up() {
    let mut p = Payload::post_tool_use(
        Path::new("/p"),
        "s1",
        "read_file",
        json!({"path": "a"}),
        Value::Null,
        false,
    );
    p.set("toolUseId", json!("t1"));
    assert_eq!(
        text(Dialect::Claude, &p),
        "{\"cwd\":\"/p\",\"hook_event_name\":\"PostToolUse\",\"permission_mode\":\"default\",\"session_id\":\"s1\",\"tool_input\":{\"file_path\":\"a\"},\"tool_name\":\"Read\",\"tool_response\":null,\"tool_use_id\":\"t1\"}\n"
    );
    assert_eq!(
        text(Dialect::Codex, &p),
        "{\"cwd\":\"/p\",\"hook_event_name\":\"PostToolUse\",\"permission_mode\":\"default\",\"session_id\":\"s1\",\"tool_input\":{\"file_path\":\"a\"},\"tool_name\":\"Read\",\"tool_response\":null,\"tool_use_id\":\"t1\"}\n"
    );
    p.set("timestamp", json!("T"));
    assert_eq!(
        text(Dialect::Ling, &p),
        "{\"cwd\":\"/p\",\"event\":\"PostToolUse\",\"sessionId\":\"s1\",\"timestamp\":\"T\",\"toolCall\":{\"params\":{\"file_path\":\"a\"},\"result\":null,\"tool\":\"read_file\"}}\n"
    );
    // Claude Code sends no permission mode at SessionStart, SessionEnd or PreCompact.
    for p in [
        Payload::session_start(Path::new("/p"), "s1", "startup"),
        Payload::session_end(Path::new("/p"), "s1", "other"),
        Payload::pre_compact(Path::new("/p"), "s1", "auto"),
    ] {
        let v = parsed(Dialect::Claude, &p);
        assert!(v.get("permission_mode").is_none(), "{v}");
        assert!(v.get("transcript_path").is_none(), "{v}");
    }
    let compact = parsed(
        Dialect::Claude,
        &Payload::pre_compact(Path::new("/p"), "s1", "auto"),
    );
    assert_eq!(compact["custom_instructions"], Value::Null);
    let stop = Payload::stop(Event::Stop, Path::new("/p"), "s1", true);
    let codex = parsed(Dialect::Codex, &stop);
    assert_eq!(codex["last_assistant_message"], Value::Null);
    assert_eq!(codex["stop_hook_active"], true);
    assert!(codex.get("turn_id").is_none() && codex.get("model").is_none());
    let claude = parsed(Dialect::Claude, &stop);
    assert!(claude.get("last_assistant_message").is_none());
    let gemini = parsed(Dialect::Gemini, &stop);
    assert!(gemini.get("prompt_response").is_none() && gemini.get("prompt").is_none());
}

#[test]
fn gemini_and_ling_shapes() {
    let p = Payload::pre_tool_use(
        Path::new("/p"),
        "s1",
        "write_file",
        json!({"path": "a", "content": "b"}),
    );
    let g = parsed(Dialect::Gemini, &p);
    assert_eq!(g["hook_event_name"], "BeforeTool");
    assert_eq!(g["tool_input"]["file_path"], "a");
    assert!(g["timestamp"].as_str().unwrap().ends_with('Z'));
    assert_eq!(recognise(&g).unwrap().0, Dialect::Gemini);
    let l = parsed(Dialect::Ling, &p);
    assert_eq!(l["toolCall"]["params"]["file_path"], "a");
    let (d, e, back) = recognise(&l).unwrap();
    assert_eq!((d, e), (Dialect::Ling, Some(Event::PreToolUse)));
    assert_eq!(back["toolArgs"]["path"], "a");
    assert!(recognise(&json!({"event": "PreToolUse", "toolName": "bash"})).is_none());
}

/// A payload the pinned agent wrote, as captured by `scripts/test-real-agents --capture`.
fn fixture(agent: &str, event: &str) -> Value {
    let path = format!(
        "{}/../../tests/fixtures/agents/{agent}/{event}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

#[test]
fn claudes_new_events_are_read_into_native_fields() {
    let (d, e, f) = recognise(&fixture("claude", "PermissionRequest")).unwrap();
    assert_eq!((d, e), (Dialect::Claude, Some(Event::PermissionRequest)));
    assert_eq!(f["toolName"], "bash");
    assert_eq!(f["toolArgs"]["command"], "touch made-by-the-model");
    let (_, e, f) = recognise(&fixture("claude", "PostToolUseFailure")).unwrap();
    assert_eq!(e, Some(Event::PostToolUseFailure));
    assert_eq!(
        f["toolError"],
        "Exit code 1\ncat: missing-file: No such file or directory"
    );
    let (_, e, f) = recognise(&fixture("claude", "StopFailure")).unwrap();
    assert_eq!(e, Some(Event::StopFailure));
    assert_eq!(
        (f["errorType"].as_str(), f["error"].as_str()),
        (Some("unknown"), Some("API Error: 400 scripted API error"))
    );
    let (_, e, f) = recognise(&fixture("claude", "SubagentStart")).unwrap();
    assert_eq!(e, Some(Event::SubagentStart));
    assert_eq!(f["agentType"], "general-purpose");
    assert_eq!(f["agentId"], "adc2b7ea449186ade");
}

#[test]
fn geminis_model_events_and_automatic_pre_compress_are_no_native_event() {
    for name in [
        "BeforeModel",
        "AfterModel",
        "BeforeToolSelection",
        "PreCompress",
    ] {
        let (d, e, _) = recognise(&fixture("gemini", name)).unwrap();
        assert_eq!((d, e), (Dialect::Gemini, None), "{name}");
    }
    let mut manual = fixture("gemini", "PreCompress");
    manual["trigger"] = "manual".into();
    assert_eq!(recognise(&manual).unwrap().1, Some(Event::PreCompact));
}

#[test]
fn the_new_events_render_in_each_agents_fields() {
    let p = Path::new("/p");
    let claude = |payload: &Payload| -> Value {
        serde_json::from_slice(&render(Dialect::Claude, payload)).unwrap()
    };
    let v = claude(&Payload::permission_request(
        p,
        "s",
        "write_file",
        json!({"path": "a"}),
        "rule write_file",
    ));
    assert_eq!(
        (v["hook_event_name"].as_str(), v["tool_name"].as_str()),
        (Some("PermissionRequest"), Some("Write"))
    );
    assert_eq!(v["tool_input"]["file_path"], "a");
    let v = claude(&Payload::post_tool_use_failure(
        p,
        "s",
        "bash",
        json!({"command": "false"}),
        "exit 1",
    ));
    assert_eq!(
        (v["tool_name"].as_str(), v["error"].as_str()),
        (Some("Bash"), Some("exit 1"))
    );
    let v = claude(&Payload::notification(p, "s", "asks", "permission_prompt"));
    assert_eq!(v["notification_type"], "permission_prompt");
    let v = claude(&Payload::subagent_start(p, "s", "scout", "look"));
    // No id made up for hookhost's own subagent.
    assert_eq!(
        (v["agent_type"].as_str(), v.get("agent_id")),
        (Some("scout"), None)
    );
    assert!(
        v.get("prompt").is_none(),
        "Claude Code sends no prompt there"
    );
    let v = claude(&Payload::post_compact(
        p,
        "s",
        "auto",
        "[3 earlier messages compacted]",
    ));
    assert_eq!(v["compact_summary"], "[3 earlier messages compacted]");
    let v = claude(&Payload::stop_failure(p, "s", "API error: 529"));
    assert_eq!(
        (v["error"].as_str(), v["error_details"].as_str()),
        (Some("unknown"), Some("API error: 529"))
    );
    let g: Value = serde_json::from_slice(&render(
        Dialect::Gemini,
        &Payload::notification(p, "s", "asks", "permission_prompt"),
    ))
    .unwrap();
    assert_eq!(
        (
            g["hook_event_name"].as_str(),
            g["notification_type"].as_str()
        ),
        (Some("Notification"), Some("ToolPermission"))
    );
    let c: Value = serde_json::from_slice(&render(
        Dialect::Codex,
        &Payload::subagent_start(p, "s", "scout", "look"),
    ))
    .unwrap();
    assert_eq!(c["agent_type"], "scout");
}

/// Each added event's own fields, hookhost's names -> Claude Code's and back: every row of
/// `CLAUDE_EVENT_FIELDS` is rendered under its snake_case name and read back under its
/// camelCase one; nothing else is invented.
#[test]
fn the_added_events_fields_map_both_ways() {
    use crate::config::agents::events::CLAUDE_EVENT_FIELDS;
    let cwd = Path::new("/p");
    for (event, camel, snake) in CLAUDE_EVENT_FIELDS {
        let value = if *camel == "toolCalls" {
            json!([{"toolName": "write_file", "toolArgs": {"path": "a", "content": "x"}, "toolUseId": "t1", "toolResult": "ok"}])
        } else {
            json!(format!("{camel} value"))
        };
        let mut fields = Map::new();
        fields.insert((*camel).to_string(), value.clone());
        let p = Payload::with_fields(*event, cwd, "s", fields);
        let claude = parsed(Dialect::Claude, &p);
        assert_eq!(claude["hook_event_name"], json!(event.as_str()));
        let expected = if *camel == "toolCalls" {
            json!([{"tool_name": "Write", "tool_input": {"file_path": "a", "content": "x"}, "tool_use_id": "t1", "tool_response": "ok"}])
        } else {
            value.clone()
        };
        assert_eq!(claude[*snake], expected, "{event} {snake}");
        // And back: Claude Code's payload read into hookhost's names.
        let (d, e, native) = recognise(&claude).unwrap();
        assert_eq!((d, e), (Dialect::Claude, Some(*event)));
        assert_eq!(native.get(*camel), Some(&value), "{event} {camel}");
    }
    // The events' typed fields: PermissionDenied's tool call and reason, Setup's trigger.
    let p = Payload::permission_denied(
        cwd,
        "s",
        "bash",
        json!({"command": "ls"}),
        "denied by bash(*)",
    );
    assert_eq!(
        parsed(Dialect::Claude, &p),
        json!({"cwd": "/p", "hook_event_name": "PermissionDenied", "permission_mode": "default",
            "reason": "denied by bash(*)", "session_id": "s", "tool_input": {"command": "ls"}, "tool_name": "Bash"})
    );
    let p = Payload::with_fields(Event::Setup, cwd, "s", Map::new());
    assert_eq!(
        parsed(Dialect::Claude, &p),
        json!({"cwd": "/p", "hook_event_name": "Setup", "session_id": "s", "trigger": "init"})
    );
}
