//! opencode's payloads, both ways. opencode's hooks are JS plugins (opencode.ai/docs/plugins:
//! `tool.execute.before(input, output)` with `input: {tool, sessionID, callID}` and `output:
//! {args}`, `tool.execute.after` with `output: {title, output, metadata}`, and the bus
//! events `session.created`, `session.idle`); hookhost's plugin
//! (`plugins/opencode/hookhost.js`) hands each to `hookhost hook --for opencode` as one JSON
//! object, whose shape is hookhost's design, in opencode's own names:
//!
//! ```json
//! {"event": "tool.execute.before", "tool": "bash", "args": {"command": "ls"},
//!  "sessionID": "ses_1", "callID": "call_1", "cwd": "/project"}
//! ```
//!
//! `tool.execute.after` adds `output` (the text the model will read) and `title`; the
//! plugin keeps the call's `args` from before (opencode's after-hook does not pass them).
//! [`recognise`] reads it into native fields (the core's tool names: `tools`), [`payload`]
//! writes a native event back in it.

use super::render::tool_call;
use crate::Dialect;
use crate::config::agents::{events, tools};
use crate::event::Event;
use crate::payload::Payload;
use hookhost_protocol::wire::NativePayload;
use serde_json::{Map, Value};

/// The fields of hookhost's opencode payload that [`recognise`] reads; any other is kept
/// verbatim.
const OWN_FIELDS: &[&str] = &[
    "event",
    "tool",
    "args",
    "sessionID",
    "callID",
    "cwd",
    "output",
    "title",
];

/// The payload hookhost's opencode plugin sends for `p`.
pub(super) fn payload(e: Event, p: &Payload) -> Map<String, Value> {
    let k = p.known();
    let mut out = Map::new();
    if let Some(name) = events::agent_name(Dialect::Opencode, e) {
        out.insert("event".into(), name.into());
    }
    out.insert(
        "sessionID".into(),
        k.session_id.clone().unwrap_or_default().into(),
    );
    out.insert("cwd".into(), k.cwd.clone().unwrap_or_default().into());
    if matches!(e, Event::PreToolUse | Event::PostToolUse) {
        let (name, args) = tool_call(Dialect::Opencode, &k);
        out.insert("tool".into(), name.into());
        out.insert("args".into(), args);
        if let Some(id) = &k.tool_use_id {
            out.insert("callID".into(), id.clone().into());
        }
    }
    if e == Event::PostToolUse {
        let text = match k.tool_result.clone() {
            Some(Value::String(s)) => s,
            None | Some(Value::Null) => String::new(),
            Some(v) => v.to_string(),
        };
        out.insert("output".into(), text.into());
        if let Some(title) = &k.title {
            out.insert("title".into(), title.clone().into());
        }
    }
    out
}

/// hookhost's opencode payload in native fields: `(Opencode, event, fields)` (`event` is
/// `None` for an opencode event hookhost fires nothing on); `None` when it names no
/// `event`.
pub(super) fn recognise(
    obj: &Map<String, Value>,
) -> Option<(Dialect, Option<Event>, Map<String, Value>)> {
    let name = obj.get("event")?.as_str()?;
    let event = events::from_agent_name(Dialect::Opencode, name);
    let text = |key: &str| obj.get(key).and_then(Value::as_str).map(str::to_string);
    let mut n = NativePayload {
        session_id: text("sessionID"),
        cwd: text("cwd"),
        tool_use_id: text("callID"),
        title: text("title"),
        ..NativePayload::default()
    };
    if let Some(tool) = text("tool") {
        let args = match obj.get("args") {
            Some(v @ Value::Object(_)) => v.clone(),
            _ => Value::Object(Map::new()),
        };
        let (name, args) = tools::to_core(Dialect::Opencode, &tool, &args);
        n.tool_name = Some(name);
        n.tool_args = Some(args);
    }
    if event == Some(Event::PostToolUse) {
        n.tool_result = Some(obj.get("output").cloned().unwrap_or(Value::Null));
    }
    let mut out: Map<String, Value> = obj
        .iter()
        .filter(|(k, _)| !OWN_FIELDS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if let Ok(Value::Object(known)) = serde_json::to_value(&n) {
        out.extend(known);
    }
    Some((Dialect::Opencode, event, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn a_tool_call_reads_in_the_cores_names_and_back() {
        let sent = json!({"event": "tool.execute.before", "tool": "edit",
            "args": {"filePath": "/p/a.rs", "oldString": "x", "newString": "y"},
            "sessionID": "ses_1", "callID": "call_1", "cwd": "/p", "agent": "build"});
        let (d, e, f) = recognise(&object(sent.clone())).unwrap();
        assert_eq!((d, e), (Dialect::Opencode, Some(Event::PreToolUse)));
        assert_eq!(f["toolName"], json!("edit_file"));
        assert_eq!(
            f["toolArgs"],
            json!({"path": "/p/a.rs", "old": "x", "new": "y"})
        );
        assert_eq!(
            (&f["sessionId"], &f["cwd"], &f["toolUseId"], &f["agent"]),
            (
                &json!("ses_1"),
                &json!("/p"),
                &json!("call_1"),
                &json!("build")
            )
        );
        let p = Payload::from_object(
            Event::PreToolUse,
            Value::Object(f),
            std::path::Path::new("/p"),
            "ses_1",
        )
        .unwrap();
        let back = payload(Event::PreToolUse, &p);
        for key in ["event", "tool", "args", "sessionID", "callID", "cwd"] {
            assert_eq!(back[key], sent[key], "{key}: {back:?}");
        }
    }

    #[test]
    fn a_shell_call_is_bash_and_its_output_the_result() {
        let (_, e, f) = recognise(&object(json!({"event": "tool.execute.after",
            "tool": "bash", "args": {"command": "ls", "description": "list"},
            "output": "a\nb\n", "title": "ls", "sessionID": "s", "cwd": "/p"})))
        .unwrap();
        assert_eq!(e, Some(Event::PostToolUse));
        assert_eq!(
            (&f["toolName"], &f["toolArgs"]["command"], &f["toolResult"]),
            (&json!("bash"), &json!("ls"), &json!("a\nb\n"))
        );
        let p = Payload::from_object(
            Event::PostToolUse,
            Value::Object(f),
            std::path::Path::new("/p"),
            "s",
        )
        .unwrap();
        let back = payload(Event::PostToolUse, &p);
        assert_eq!(
            (&back["output"], &back["tool"]),
            (&json!("a\nb\n"), &json!("bash"))
        );
    }

    #[test]
    fn session_events_and_others() {
        let (_, e, f) = recognise(&object(
            json!({"event": "session.created", "sessionID": "s", "cwd": "/p"}),
        ))
        .unwrap();
        assert_eq!(
            (e, &f["sessionId"]),
            (Some(Event::SessionStart), &json!("s"))
        );
        let (_, e, _) = recognise(&object(json!({"event": "session.idle"}))).unwrap();
        assert_eq!(e, Some(Event::Stop));
        // An opencode event hookhost fires nothing on is read, as none.
        let (_, e, _) = recognise(&object(json!({"event": "file.edited"}))).unwrap();
        assert_eq!(e, None);
        assert!(recognise(&object(json!({"tool": "bash"}))).is_none());
    }

    fn fixture(name: &str) -> Value {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/agents/opencode")
            .join(name);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        serde_json::from_str(&text).unwrap()
    }

    /// The plugin's payloads (tests/fixtures/agents/opencode/payload-EVENT.json), read as
    /// `hook --for opencode` reads them, are their native events; a native block is the
    /// answer the plugin throws on (answer-PreToolUse-deny.json).
    #[test]
    fn the_fixtures_read_as_their_events_and_a_block_as_the_plugin_reads_it() {
        for e in [Event::PreToolUse, Event::PostToolUse, Event::SessionStart] {
            let v = fixture(&format!("payload-{e}.json"));
            let (d, got, f) = super::super::recognise_for(Dialect::Opencode, &v).unwrap();
            assert_eq!((d, got), (Dialect::Opencode, Some(e)));
            assert_eq!(f["sessionId"], v["sessionID"], "{e}");
        }
        let (_, _, f) =
            super::super::recognise_for(Dialect::Opencode, &fixture("payload-PreToolUse.json"))
                .unwrap();
        assert_eq!(
            (&f["toolName"], &f["toolArgs"]["command"]),
            (&json!("bash"), &json!("rm -rf /tmp/x"))
        );
        let mut r = crate::report::EventReport::new(Event::PreToolUse);
        r.decision = crate::report::Decision::Block;
        r.reason = Some("rm -rf is blocked".into());
        assert_eq!(
            answer(&r, Some("bash")),
            fixture("answer-PreToolUse-deny.json")
        );
    }

    fn answer(r: &crate::report::EventReport, tool: Option<&str>) -> Value {
        let a = super::super::respond(Dialect::Opencode, r, tool);
        assert_eq!(a.exit_code, 0);
        if a.stdout.is_empty() {
            return json!({});
        }
        serde_json::from_str(&a.stdout).unwrap()
    }

    /// A block is `block` with the reason (the plugin throws it); an ask, which a plugin
    /// cannot put to the user, is a block that says so; a rewrite is `args` in opencode's keys.
    #[test]
    fn answers_before_a_tool() {
        use crate::report::{Decision, EventReport};
        let mut r = EventReport::new(Event::PreToolUse);
        r.decision = Decision::Block;
        r.reason = Some("rm -rf is blocked".into());
        assert_eq!(
            answer(&r, Some("bash")),
            json!({"block": true, "reason": "rm -rf is blocked"})
        );
        let mut r = EventReport::new(Event::PreToolUse);
        r.ask = true;
        r.ask_reason = Some("touches prod".into());
        let a = answer(&r, Some("bash"));
        assert_eq!(a["block"], json!(true));
        assert!(
            a["reason"].as_str().unwrap().contains("touches prod"),
            "{a}"
        );
        let mut r = EventReport::new(Event::PreToolUse);
        r.updated_args = Some(json!({"path": "/p/b.rs", "content": "x"}));
        assert_eq!(
            answer(&r, Some("write_file")),
            json!({"args": {"filePath": "/p/b.rs", "content": "x"}})
        );
        // Nothing to say is nothing: the call runs.
        assert_eq!(
            answer(&EventReport::new(Event::PreToolUse), Some("bash")),
            json!({})
        );
    }

    /// After a tool: a replaced result is `output`, context and feedback are `context`; a
    /// forced Stop, which `session.idle` cannot act on, is nothing.
    #[test]
    fn answers_after_a_tool_and_at_stop() {
        use crate::report::{Decision, EventReport};
        let mut r = EventReport::new(Event::PostToolUse);
        r.updated_tool_output = Some(json!("[redacted]"));
        r.additional_context = vec!["lint: 2 warnings".into()];
        assert_eq!(
            answer(&r, Some("bash")),
            json!({"output": "[redacted]", "context": "lint: 2 warnings"})
        );
        let mut r = EventReport::new(Event::Stop);
        r.decision = Decision::Force;
        r.reason = Some("tests fail".into());
        assert_eq!(answer(&r, None), json!({}));
    }
}
