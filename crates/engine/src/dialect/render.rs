//! Payloads across dialects: [`render`] writes a native [`Payload`] as the JSON a dialect's
//! hook reads on stdin (Claude Code's one-line snake_case object, Gemini CLI's with its event
//! names and a timestamp, Codex's with `turn_id` and `model`, ling's `toolCall`), [`env`] is
//! the environment that agent sets, and [`recognise`] reads a payload of any dialect back
//! into native fields, told by its shape.
//!
//! Fields an agent sends that the native payload has no source for are taken from optional
//! native fields when present (`transcriptPath`, `permissionMode`, `toolUseId`, `turnId`,
//! `model`, `lastAssistantMessage`, `timestamp`; [`recognise`] keeps them), else given
//! neutral values: `transcript_path` "" , `permission_mode` "default", `model` "".

use super::Dialect;
use super::tools;
use crate::event::Event;
use crate::payload::Payload;
use serde_json::{Map, Value, json};
use std::path::Path;
use std::sync::Arc;

/// Gemini CLI's name for an event, `None` where it has no such event.
pub(crate) fn gemini_event(e: Event) -> Option<&'static str> {
    Some(match e {
        Event::SessionStart => "SessionStart",
        Event::UserPromptSubmit => "BeforeAgent",
        Event::PreToolUse => "BeforeTool",
        Event::PostToolUse => "AfterTool",
        Event::PreCompact => "PreCompress",
        Event::Stop => "AfterAgent",
        Event::SessionEnd => "SessionEnd",
        Event::SubagentStop => return None,
    })
}

/// The native event of a Gemini CLI event name.
pub(crate) fn from_gemini_event(name: &str) -> Option<Event> {
    Event::ALL
        .into_iter()
        .find(|e| gemini_event(*e) == Some(name))
}

fn text(p: &Payload, key: &str, default: &str) -> Value {
    match p.get(key) {
        Some(v @ Value::String(_)) => v.clone(),
        _ => Value::String(default.to_string()),
    }
}

/// An ISO 8601 UTC timestamp of now, to the millisecond.
fn now_iso() -> String {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let secs = d.as_secs() as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        d.subsec_millis()
    )
}

/// The bytes a hook of dialect `d` reads on stdin for `p`.
pub fn render(d: Dialect, p: &Payload) -> Arc<[u8]> {
    let value = match d {
        Dialect::Native => return p.to_json_bytes(),
        Dialect::Claude | Dialect::Codex => claude_shape(d, p),
        Dialect::Gemini => gemini_shape(p),
        Dialect::Ling => ling_shape(p),
    };
    // One compact line, ended by a newline so that `read -r payload` succeeds even under
    // `set -e` (every JSON reader ignores the trailing whitespace).
    let mut bytes = serde_json::to_vec(&value).unwrap_or_default();
    bytes.push(b'\n');
    bytes.into()
}

fn tool_call(d: Dialect, p: &Payload) -> (String, Value) {
    let name = p.tool_name().unwrap_or_default();
    let args = p.tool_args().cloned().unwrap_or_else(|| json!({}));
    tools::to_dialect(d, name, &args)
}

fn claude_shape(d: Dialect, p: &Payload) -> Value {
    let e = p.event();
    let mut m = Map::new();
    m.insert("session_id".into(), text(p, "sessionId", ""));
    m.insert("transcript_path".into(), text(p, "transcriptPath", ""));
    m.insert("cwd".into(), text(p, "cwd", ""));
    m.insert(
        "permission_mode".into(),
        text(p, "permissionMode", "default"),
    );
    m.insert("hook_event_name".into(), json!(e.as_str()));
    if d == Dialect::Codex {
        m.insert("turn_id".into(), text(p, "turnId", ""));
        m.insert("model".into(), text(p, "model", ""));
    }
    match e {
        Event::PreToolUse | Event::PostToolUse => {
            let (name, input) = tool_call(d, p);
            m.insert("tool_name".into(), json!(name));
            m.insert("tool_input".into(), input);
            if e == Event::PostToolUse {
                m.insert(
                    "tool_response".into(),
                    p.get("toolResult").cloned().unwrap_or(Value::Null),
                );
            }
            if let Some(id) = p.get("toolUseId") {
                m.insert("tool_use_id".into(), id.clone());
            }
        }
        Event::UserPromptSubmit => {
            m.insert("prompt".into(), text(p, "prompt", ""));
        }
        Event::Stop | Event::SubagentStop => {
            m.insert(
                "stop_hook_active".into(),
                json!(
                    p.get("stopHookActive")
                        .and_then(Value::as_bool)
                        .unwrap_or(false)
                ),
            );
            if d == Dialect::Codex {
                m.insert(
                    "last_assistant_message".into(),
                    p.get("lastAssistantMessage")
                        .cloned()
                        .unwrap_or(Value::Null),
                );
            }
        }
        Event::SessionStart => {
            m.insert("source".into(), text(p, "source", "startup"));
        }
        Event::SessionEnd => {
            m.insert("reason".into(), text(p, "reason", "other"));
        }
        Event::PreCompact => {
            m.insert("trigger".into(), text(p, "trigger", "manual"));
            m.insert(
                "custom_instructions".into(),
                text(p, "customInstructions", ""),
            );
        }
    }
    Value::Object(m)
}

fn gemini_shape(p: &Payload) -> Value {
    let e = p.event();
    let mut m = Map::new();
    m.insert("session_id".into(), text(p, "sessionId", ""));
    m.insert("transcript_path".into(), text(p, "transcriptPath", ""));
    m.insert("cwd".into(), text(p, "cwd", ""));
    m.insert(
        "hook_event_name".into(),
        json!(gemini_event(e).unwrap_or(e.as_str())),
    );
    m.insert("timestamp".into(), json!(now_iso()));
    match e {
        Event::PreToolUse | Event::PostToolUse => {
            let (name, input) = tool_call(Dialect::Gemini, p);
            m.insert("tool_name".into(), json!(name));
            m.insert("tool_input".into(), input);
            if e == Event::PostToolUse {
                m.insert(
                    "tool_response".into(),
                    p.get("toolResult").cloned().unwrap_or(Value::Null),
                );
            }
        }
        Event::UserPromptSubmit => {
            m.insert("prompt".into(), text(p, "prompt", ""));
        }
        Event::Stop | Event::SubagentStop => {
            m.insert("prompt".into(), text(p, "prompt", ""));
            m.insert(
                "prompt_response".into(),
                text(p, "lastAssistantMessage", ""),
            );
            m.insert(
                "stop_hook_active".into(),
                json!(
                    p.get("stopHookActive")
                        .and_then(Value::as_bool)
                        .unwrap_or(false)
                ),
            );
        }
        Event::SessionStart => {
            m.insert("source".into(), text(p, "source", "startup"));
        }
        Event::SessionEnd => {
            m.insert("reason".into(), text(p, "reason", "exit"));
        }
        Event::PreCompact => {
            m.insert("trigger".into(), text(p, "trigger", "manual"));
        }
    }
    Value::Object(m)
}

fn ling_shape(p: &Payload) -> Value {
    let mut m = Map::new();
    m.insert("event".into(), json!(p.event().as_str()));
    m.insert("sessionId".into(), text(p, "sessionId", ""));
    m.insert(
        "timestamp".into(),
        p.get("timestamp")
            .cloned()
            .unwrap_or_else(|| json!(now_iso())),
    );
    m.insert("cwd".into(), text(p, "cwd", ""));
    if p.event().takes_tool_matcher() {
        let (tool, params) = tool_call(Dialect::Ling, p);
        let mut call = Map::new();
        call.insert("tool".into(), json!(tool));
        call.insert("params".into(), params);
        if let Some(r) = p.get("toolResult") {
            call.insert("result".into(), r.clone());
        }
        m.insert("toolCall".into(), Value::Object(call));
    }
    for key in [
        "prompt",
        "source",
        "reason",
        "trigger",
        "stopHookActive",
        "isSubagent",
    ] {
        if let Some(v) = p.get(key) {
            m.insert(key.into(), v.clone());
        }
    }
    Value::Object(m)
}

/// The environment a hook of dialect `d` runs with, besides hookhost's own `HOOK_EVENT` and
/// `HOOK_PROJECT_DIR`: `CLAUDE_PROJECT_DIR` for Claude Code and Codex hooks, and
/// `GEMINI_PROJECT_DIR` plus `CLAUDE_PROJECT_DIR` for Gemini CLI's.
pub fn env(d: Dialect, project: &Path) -> Vec<(String, String)> {
    // Per hook and event: a native hook allocates nothing.
    let dir = || project.to_string_lossy().into_owned();
    match d {
        Dialect::Claude | Dialect::Codex => vec![("CLAUDE_PROJECT_DIR".into(), dir())],
        Dialect::Gemini => vec![
            ("GEMINI_PROJECT_DIR".into(), dir()),
            ("CLAUDE_PROJECT_DIR".into(), dir()),
        ],
        Dialect::Native | Dialect::Ling => Vec::new(),
    }
}

/// `v` as a native payload object: another agent's payload (told by [`recognise`]) turned
/// into native fields, a native one unchanged. What `run --payload` and `serve`'s `fire`
/// accept.
pub fn to_native(v: Value) -> Value {
    match recognise(&v) {
        Some((_, _, fields)) => Value::Object(fields),
        None => v,
    }
}

/// A payload of any dialect, told by its shape, as native fields: `(dialect, event, fields)`.
/// `hook_event_name` means Claude Code, Codex (with `turn_id`) or Gemini CLI (its event
/// names, or a `timestamp`); `toolCall`, or `event` without `toolName`, means ling; anything
/// else is native (`None`). Tool names and argument keys are mapped to the core's.
pub fn recognise(v: &Value) -> Option<(Dialect, Option<Event>, Map<String, Value>)> {
    let obj = v.as_object()?;
    let s = |k: &str| obj.get(k).and_then(Value::as_str);
    let mut out = Map::new();
    let put = |out: &mut Map<String, Value>, native: &str, foreign: &str| {
        if let Some(v) = obj.get(foreign) {
            out.insert(native.to_string(), v.clone());
        }
    };
    if let Some(name) = s("hook_event_name") {
        let gemini_event = from_gemini_event(name).filter(|e| e.as_str() != name);
        let d = if gemini_event.is_some()
            || obj.contains_key("timestamp") && !obj.contains_key("permission_mode")
        {
            Dialect::Gemini
        } else if obj.contains_key("turn_id") {
            Dialect::Codex
        } else {
            Dialect::Claude
        };
        let event = gemini_event.or_else(|| name.parse().ok());
        for (native, foreign) in [
            ("sessionId", "session_id"),
            ("transcriptPath", "transcript_path"),
            ("cwd", "cwd"),
            ("permissionMode", "permission_mode"),
            ("toolUseId", "tool_use_id"),
            ("toolResult", "tool_response"),
            ("prompt", "prompt"),
            ("stopHookActive", "stop_hook_active"),
            ("source", "source"),
            ("reason", "reason"),
            ("trigger", "trigger"),
            ("turnId", "turn_id"),
            ("model", "model"),
            ("lastAssistantMessage", "last_assistant_message"),
            ("timestamp", "timestamp"),
            ("customInstructions", "custom_instructions"),
        ] {
            put(&mut out, native, foreign);
        }
        if d == Dialect::Gemini {
            put(&mut out, "lastAssistantMessage", "prompt_response");
        }
        if let Some(tool) = s("tool_name") {
            let args = obj.get("tool_input").cloned().unwrap_or_else(|| json!({}));
            let (name, args) = tools::to_core(d, tool, &args);
            out.insert("toolName".into(), json!(name));
            out.insert("toolArgs".into(), args);
        }
        if event.is_some_and(|e| e == Event::PostToolUse) {
            out.entry("toolError").or_insert(json!(false));
        }
        return Some((d, event, out));
    }
    let ling = obj.contains_key("toolCall")
        || (obj.contains_key("event")
            && !obj.contains_key("toolName")
            && obj.contains_key("timestamp"));
    if !ling {
        return None;
    }
    for (k, v) in obj {
        if k != "toolCall" {
            out.insert(k.clone(), v.clone());
        }
    }
    if let Some(Value::Object(call)) = obj.get("toolCall") {
        let tool = call.get("tool").and_then(Value::as_str).unwrap_or_default();
        let params = call.get("params").cloned().unwrap_or_else(|| json!({}));
        let (name, args) = tools::to_core(Dialect::Ling, tool, &params);
        out.insert("toolName".into(), json!(name));
        out.insert("toolArgs".into(), args);
        if let Some(r) = call.get("result") {
            out.insert("toolResult".into(), r.clone());
        }
    }
    let event = s("event").and_then(|e| Event::parse_loose(e).ok());
    Some((Dialect::Ling, event, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_payload_is_one_line_snake_case_with_claude_names() {
        let p = Payload::pre_tool_use(Path::new("/p"), "s1", "bash", json!({"command": "ls"}));
        let bytes = render(Dialect::Claude, &p);
        let text = std::str::from_utf8(&bytes).unwrap();
        assert_eq!(text.matches('\n').count(), 1);
        assert!(text.ends_with('\n'));
        let v: Value = serde_json::from_str(text).unwrap();
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
    fn gemini_and_ling_shapes() {
        let p = Payload::pre_tool_use(
            Path::new("/p"),
            "s1",
            "write_file",
            json!({"path": "a", "content": "b"}),
        );
        let g: Value = serde_json::from_slice(&render(Dialect::Gemini, &p)).unwrap();
        assert_eq!(g["hook_event_name"], "BeforeTool");
        assert_eq!(g["tool_input"]["file_path"], "a");
        assert!(g["timestamp"].as_str().unwrap().ends_with('Z'));
        assert_eq!(recognise(&g).unwrap().0, Dialect::Gemini);
        let l: Value = serde_json::from_slice(&render(Dialect::Ling, &p)).unwrap();
        assert_eq!(l["toolCall"]["params"]["file_path"], "a");
        let (d, e, back) = recognise(&l).unwrap();
        assert_eq!((d, e), (Dialect::Ling, Some(Event::PreToolUse)));
        assert_eq!(back["toolArgs"]["path"], "a");
        assert!(recognise(&json!({"event": "PreToolUse", "toolName": "bash"})).is_none());
    }
}
