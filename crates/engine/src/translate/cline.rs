//! Cline payloads both ways (docs.cline.bot, "Hook Reference"): [`payload`] renders a native
//! event as the JSON a Cline hook reads, [`recognise`] reads a Cline payload (told by its
//! `clineVersion`, or a `hookName` of Cline's with a `taskId`) back into native fields.
//!
//! Every payload has the base fields `clineVersion`, `hookName`, `timestamp`, `taskId`,
//! `workspaceRoots`, `userId`, and one object named after the event: `preToolUse`
//! {`toolName`, `parameters`}, `postToolUse` {... `result`, `success`, `executionTimeMs`},
//! `userPromptSubmit` {`prompt`, `attachments`}, `taskStart`/`taskComplete`/`taskCancel`
//! {`taskMetadata`}. Cline's `parameters` are strings (a value that is not one is its JSON).
//! What hookhost cannot know is left empty, not made up (`clineVersion`, `userId`); when the
//! event came with Cline's own payload its fields are kept and only the event's object is
//! rendered anew (a rewritten call's parameters).

use super::render::{fields_of, now_iso, tool_call};
use crate::Dialect;
use crate::config::agents::{events, tools};
use crate::event::Event;
use crate::payload::Payload;
use hookhost_protocol::wire::{NativePayload, ToolError};
use serde_json::{Map, Value, json};

/// The object of Cline's payload that holds `name`'s own fields (`PreToolUse`: `preToolUse`).
fn object_key(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_ascii_lowercase().to_string() + chars.as_str()
    })
}

/// Cline's parameters: every value a string (its JSON when it is not one).
fn string_params(args: &Value) -> Value {
    let Value::Object(o) = args else {
        return Value::Object(Map::new());
    };
    o.iter()
        .map(|(k, v)| {
            let s = match v {
                Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            (k.clone(), Value::String(s))
        })
        .collect::<Map<String, Value>>()
        .into()
}

/// The payload a Cline hook reads for `p`.
pub(super) fn payload(e: Event, p: &Payload) -> Map<String, Value> {
    let k = p.known();
    let name = events::agent_name(Dialect::Cline, e).unwrap_or(e.as_str());
    let mut out = match p.origin() {
        Some(o) if o.dialect == Dialect::Cline => o.fields.clone(),
        _ => Map::new(),
    };
    let task = k.session_id.clone().unwrap_or_default();
    let roots = vec![Value::String(k.cwd.clone().unwrap_or_default())];
    for (key, v) in [
        ("clineVersion", json!("")),
        ("timestamp", json!(now_iso())),
        ("taskId", json!(task)),
        ("workspaceRoots", Value::Array(roots)),
        ("userId", json!("")),
    ] {
        out.entry(key).or_insert(v);
    }
    out.insert("hookName".into(), json!(name));
    out.insert(object_key(name), own_fields(e, &k, &task));
    out
}

/// The event's own object.
fn own_fields(e: Event, k: &NativePayload, task: &str) -> Value {
    match e {
        Event::PreToolUse | Event::PostToolUse => {
            let (tool, input) = tool_call(Dialect::Cline, k);
            let mut o = json!({"toolName": tool, "parameters": string_params(&input)});
            if e == Event::PostToolUse {
                let result = match &k.tool_result {
                    Some(Value::String(s)) => s.clone(),
                    Some(v) => v.to_string(),
                    None => String::new(),
                };
                o["result"] = json!(result);
                o["success"] = json!(k.tool_error.is_none());
            }
            o
        }
        Event::UserPromptSubmit => json!({
            "prompt": k.prompt.clone().unwrap_or_default(),
            "attachments": [],
        }),
        _ => json!({"taskMetadata": {"taskId": task}}),
    }
}

/// A Cline payload in native fields: `(Cline, event, fields)`, or `None` when `obj` is not
/// Cline's.
pub(super) fn recognise(
    obj: &Map<String, Value>,
) -> Option<(Dialect, Option<Event>, Map<String, Value>)> {
    let name = obj.get("hookName")?.as_str()?;
    let event = events::from_agent_name(Dialect::Cline, name);
    let cline = obj.contains_key("clineVersion") || (event.is_some() && obj.contains_key("taskId"));
    if !cline {
        return None;
    }
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
    let own = obj.get(&object_key(name));
    let field = |key: &str| own.and_then(|o| o.get(key));
    let mut n = NativePayload {
        cwd: obj
            .get("workspaceRoots")
            .and_then(|r| r.get(0))
            .and_then(Value::as_str)
            .map(str::to_string),
        session_id: text(obj.get("taskId")),
        prompt: text(field("prompt")),
        ..NativePayload::default()
    };
    if let Some(tool) = text(field("toolName")) {
        let params = field("parameters").cloned().unwrap_or(json!({}));
        let (core, args) = tools::to_core(Dialect::Cline, &tool, &params);
        n.tool_name = Some(core);
        n.tool_args = Some(args);
        if event == Some(Event::PostToolUse) {
            n.tool_result = field("result").cloned();
            if field("success") == Some(&Value::Bool(false)) {
                n.tool_error = Some(ToolError::Failed(true));
            }
        }
    }
    Some((Dialect::Cline, event, fields_of(&n)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_documented_pre_tool_use_payload_reads_as_the_core_call() {
        let v: Value = serde_json::from_str(
            r#"{"clineVersion": "3.36.0", "hookName": "PreToolUse", "timestamp": "1736000000000",
               "taskId": "t1", "workspaceRoots": ["/w"], "userId": "u",
               "preToolUse": {"toolName": "execute_command",
                              "parameters": {"command": "rm -rf /", "requires_approval": "true"}}}"#,
        )
        .unwrap();
        let (d, e, f) = recognise(v.as_object().unwrap()).unwrap();
        assert_eq!((d, e), (Dialect::Cline, Some(Event::PreToolUse)));
        assert_eq!(f["toolName"], "bash");
        assert_eq!(f["toolArgs"]["command"], "rm -rf /");
        assert_eq!(
            (f["cwd"].as_str(), f["sessionId"].as_str()),
            (Some("/w"), Some("t1"))
        );
        // Claude Code's payload is not Cline's.
        let claude = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash"});
        assert!(recognise(claude.as_object().unwrap()).is_none());
    }

    #[test]
    fn parameters_are_strings_and_events_have_their_object() {
        assert_eq!(object_key("PreToolUse"), "preToolUse");
        assert_eq!(object_key("TaskStart"), "taskStart");
        assert_eq!(
            string_params(&json!({"command": "ls", "requires_approval": false})),
            json!({"command": "ls", "requires_approval": "false"})
        );
    }

    fn fixture(name: &str) -> Value {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/agents/cline")
            .join(format!("{name}.json"));
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap()
    }

    /// Every documented payload (tests/fixtures/agents/cline/doc-EVENT.json) reads as its
    /// native event, and written back for a Cline hook it says the same: its event's name and
    /// object, Cline's tool name, the base fields as they came.
    #[test]
    fn every_documented_payload_reads_into_native_and_back() {
        for event in [
            Event::PreToolUse,
            Event::PostToolUse,
            Event::UserPromptSubmit,
            Event::SessionStart,
            Event::Stop,
        ] {
            let doc = fixture(&format!("doc-{event}"));
            let (d, e, fields) = super::super::recognise_for(Dialect::Cline, &doc).unwrap();
            assert_eq!((d, e), (Dialect::Cline, Some(event)));
            // Also told by its shape alone.
            assert_eq!(super::super::recognise(&doc).unwrap().1, Some(event));
            let payload = Payload::from_object(
                event,
                Value::Object(fields.clone()),
                std::path::Path::new("/home/user/project"),
                "1736121600000",
            )
            .unwrap();
            let out: Value =
                serde_json::from_slice(&super::super::render(Dialect::Cline, &payload)).unwrap();
            assert_eq!(out["hookName"], doc["hookName"], "{event}");
            assert_eq!(out["taskId"], doc["taskId"], "{event}");
            assert_eq!(out["workspaceRoots"], doc["workspaceRoots"], "{event}");
            if matches!(event, Event::PreToolUse | Event::PostToolUse) {
                assert_eq!(fields["toolName"], "bash");
                assert_eq!(fields["toolArgs"]["command"], "rm -rf /tmp/x");
                let key = object_key(doc["hookName"].as_str().unwrap());
                assert_eq!(out[&key]["toolName"], "execute_command", "{out}");
                assert_eq!(out[&key]["parameters"], doc[&key]["parameters"], "{out}");
            }
        }
        let prompt = fixture("doc-UserPromptSubmit");
        let (_, _, fields) = super::super::recognise(&prompt).unwrap();
        assert_eq!(fields["prompt"], "add a react component");
    }

    /// A native block answered to Cline is the cancel its docs show
    /// (answer-PreToolUse-deny.json), context is its `contextModification`, and an ask or a
    /// rewrite, which Cline cannot carry, cancel and say so.
    #[test]
    fn answers_are_the_documented_ones() {
        use crate::report::{Decision, EventReport};
        let deny = fixture("answer-PreToolUse-deny");
        let mut r = EventReport::new(Event::PreToolUse);
        r.decision = Decision::Block;
        r.reason = Some("rm -rf is blocked".into());
        let a = super::super::respond(Dialect::Cline, &r, Some("bash"));
        let got: Value = serde_json::from_str(&a.stdout).unwrap();
        assert_eq!(got["cancel"], deny["cancel"]);
        assert_eq!(got["errorMessage"], "rm -rf is blocked");
        assert_eq!(a.exit_code, 0);
        let doc = fixture("answer-PostToolUse-context");
        let mut r = EventReport::new(Event::PostToolUse);
        r.additional_context = vec![doc["contextModification"].as_str().unwrap().into()];
        let got: Value =
            serde_json::from_str(&super::super::respond(Dialect::Cline, &r, Some("bash")).stdout)
                .unwrap();
        assert_eq!(got["contextModification"], doc["contextModification"]);
        assert_eq!(got.get("cancel"), None);
        let mut r = EventReport::new(Event::PreToolUse);
        r.updated_args = Some(json!({"command": "ls"}));
        let a = super::super::respond(Dialect::Cline, &r, Some("bash"));
        assert!(
            a.stdout.contains("\"cancel\":true") && a.stdout.contains("rewrote"),
            "{}",
            a.stdout
        );
        // A pass says nothing.
        let a = super::super::respond(
            Dialect::Cline,
            &EventReport::new(Event::PreToolUse),
            Some("bash"),
        );
        assert_eq!(a.stdout, "");
    }
}
