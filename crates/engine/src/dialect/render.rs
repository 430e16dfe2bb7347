//! Payloads across dialects: [`render`] writes a native [`Payload`] as the JSON a dialect's
//! hook reads on stdin (Claude Code's one-line snake_case object, Gemini CLI's with its event
//! names and a timestamp, Codex's with `turn_id` and `model`, ling's `toolCall`: the wire
//! types of [`crate::wire`]), [`env`] is the environment that agent sets, and [`recognise`]
//! reads a payload of any dialect back into native fields, told by its shape.
//!
//! Fields an agent sends that the native payload has no source for are taken from optional
//! native fields when present (`transcriptPath`, `permissionMode`, `toolUseId`, `turnId`,
//! `model`, `lastAssistantMessage`, `timestamp`; [`recognise`] keeps them), else given
//! neutral values: `transcript_path` "" , `permission_mode` "default", `model` "".

use super::Dialect;
use super::events;
use super::tools;
use crate::event::Event;
use crate::payload::Payload;
use crate::wire::{
    AgentPayload, ClaudePayload, CodexPayload, GeminiPayload, LingPayload, LingPayloadIn,
    LingToolCall, NativePayload, ToolError,
};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::path::Path;
use std::sync::Arc;

/// Gemini CLI's name for an event, `None` where it has no such event (`events.rs`).
pub(crate) fn gemini_event(e: Event) -> Option<&'static str> {
    events::agent_name(Dialect::Gemini, e)
}

/// [`gemini_event`], for where a local of that name hides it.
fn gemini_event_name(e: Event) -> Option<&'static str> {
    gemini_event(e)
}

/// The native event of a Gemini CLI event name, as its settings file names it.
pub(crate) fn from_gemini_event(name: &str) -> Option<Event> {
    events::from_agent_name(Dialect::Gemini, name)
}

/// An ISO 8601 UTC timestamp of now, to the millisecond.
pub(super) fn now_iso() -> String {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let secs = i64::try_from(d.as_secs()).unwrap_or(i64::MAX);
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
    let (e, k) = (p.event(), p.known());
    let bytes = match d {
        Dialect::Native => return p.to_json_bytes(),
        Dialect::Claude => serde_json::to_vec(&claude_payload(Dialect::Claude, e, &k)),
        Dialect::Codex => serde_json::to_vec(&codex_payload(e, &k)),
        Dialect::Gemini => serde_json::to_vec(&gemini_payload(e, &k)),
        Dialect::Ling => serde_json::to_vec(&ling_payload(e, &k)),
        Dialect::Cursor => serde_json::to_vec(&super::cursor_payload::payload(e, p)),
        Dialect::Copilot => serde_json::to_vec(&super::copilot_payload::payload(e, p)),
    };
    // One compact line, ended by a newline so that `read -r payload` succeeds even under
    // `set -e` (every JSON reader ignores the trailing whitespace). Plain data: serialising
    // it cannot fail.
    let mut bytes = bytes.unwrap_or_default();
    bytes.push(b'\n');
    bytes.into()
}

/// A known text field, or `default`.
fn or(field: &Option<String>, default: &str) -> String {
    field.as_deref().unwrap_or(default).to_string()
}

/// The event's tool call in the dialect's names and keys.
pub(super) fn tool_call(d: Dialect, k: &NativePayload) -> (String, Value) {
    let name = k.tool_name.as_deref().unwrap_or_default();
    let args = k
        .tool_args
        .clone()
        .unwrap_or_else(|| Value::Object(Map::new()));
    tools::to_dialect(d, name, &args)
}

fn claude_payload(d: Dialect, e: Event, k: &NativePayload) -> ClaudePayload {
    let mut c = ClaudePayload {
        cwd: or(&k.cwd, ""),
        hook_event_name: e.as_str().to_string(),
        permission_mode: or(&k.permission_mode, "default"),
        session_id: or(&k.session_id, ""),
        transcript_path: or(&k.transcript_path, ""),
        ..ClaudePayload::default()
    };
    match e {
        Event::PreToolUse | Event::PostToolUse => {
            let (name, input) = tool_call(d, k);
            c.tool_name = Some(name);
            c.tool_input = Some(input);
            if e == Event::PostToolUse {
                c.tool_response = Some(k.tool_result.clone().unwrap_or(Value::Null));
            }
            c.tool_use_id.clone_from(&k.tool_use_id);
        }
        Event::UserPromptSubmit => c.prompt = Some(or(&k.prompt, "")),
        Event::Stop | Event::SubagentStop => {
            c.stop_hook_active = Some(k.stop_hook_active.unwrap_or(false));
        }
        Event::SessionStart => c.source = Some(or(&k.source, "startup")),
        Event::SessionEnd => c.reason = Some(or(&k.reason, "other")),
        Event::PreCompact => {
            c.trigger = Some(or(&k.trigger, "manual"));
            c.custom_instructions = Some(or(&k.custom_instructions, ""));
        }
        _ => new_event_fields(d, e, k, &mut c),
    }
    c
}

/// The fields of the events Claude Code added later (Claude Code 2.1.332's hook input
/// schemas): PermissionRequest and PostToolUseFailure carry the tool call, PostToolUseFailure
/// its `error` text; Notification `message`, `notification_type`, `title`; SubagentStart
/// `agent_id`, `agent_type`; PostCompact `trigger`, `compact_summary`; StopFailure the kind
/// of error as `error` (`unknown` when hookhost does not know it), the text as
/// `error_details`.
fn new_event_fields(d: Dialect, e: Event, k: &NativePayload, c: &mut ClaudePayload) {
    match e {
        Event::PermissionRequest | Event::PostToolUseFailure => {
            let (name, input) = tool_call(d, k);
            c.tool_name = Some(name);
            c.tool_input = Some(input);
            if e == Event::PostToolUseFailure {
                c.error = Some(failure_text(k));
                c.tool_use_id.clone_from(&k.tool_use_id);
            }
        }
        Event::Notification => {
            c.message = Some(or(&k.message, ""));
            c.notification_type = Some(or(&k.kind, ""));
            c.title.clone_from(&k.title);
        }
        Event::SubagentStart => {
            c.agent_id = Some(or(&k.agent_id, ""));
            c.agent_type = Some(or(&k.agent_type, ""));
        }
        Event::PostCompact => {
            c.trigger = Some(or(&k.trigger, "manual"));
            c.compact_summary = Some(or(&k.summary, ""));
        }
        Event::StopFailure => {
            c.error = Some(or(&k.error_type, "unknown"));
            c.error_details.clone_from(&k.error);
            c.last_assistant_message
                .clone_from(&k.last_assistant_message);
        }
        _ => {}
    }
}

/// PostToolUseFailure's `toolError` text ("" when the payload has a flag or nothing).
fn failure_text(k: &NativePayload) -> String {
    match &k.tool_error {
        Some(ToolError::Text(t)) => t.clone(),
        _ => String::new(),
    }
}

/// Claude Code's payload with Codex's `turn_id`, `model` and, at Stop, the last message.
fn codex_payload(e: Event, k: &NativePayload) -> CodexPayload {
    let ClaudePayload {
        agent_id,
        agent_type,
        // Not in Codex 0.171's payloads (it fires none of these events).
        compact_summary: _,
        error: _,
        error_details: _,
        last_assistant_message: _,
        message: _,
        notification_type: _,
        title: _,
        custom_instructions,
        cwd,
        hook_event_name,
        permission_mode,
        prompt,
        reason,
        session_id,
        source,
        stop_hook_active,
        tool_input,
        tool_name,
        tool_response,
        tool_use_id,
        transcript_path,
        trigger,
    } = claude_payload(Dialect::Codex, e, k);
    let stops = matches!(e, Event::Stop | Event::SubagentStop);
    CodexPayload {
        agent_id,
        agent_type,
        custom_instructions,
        cwd,
        hook_event_name,
        last_assistant_message: stops.then(|| k.last_assistant_message.clone()),
        model: or(&k.model, ""),
        permission_mode,
        prompt,
        reason,
        session_id,
        source,
        stop_hook_active,
        tool_input,
        tool_name,
        tool_response,
        tool_use_id,
        transcript_path,
        trigger,
        turn_id: or(&k.turn_id, ""),
    }
}

fn gemini_payload(e: Event, k: &NativePayload) -> GeminiPayload {
    let mut g = GeminiPayload {
        cwd: or(&k.cwd, ""),
        hook_event_name: gemini_event(e).unwrap_or(e.as_str()).to_string(),
        session_id: or(&k.session_id, ""),
        timestamp: now_iso(),
        transcript_path: or(&k.transcript_path, ""),
        ..GeminiPayload::default()
    };
    match e {
        Event::PreToolUse | Event::PostToolUse => {
            let (name, input) = tool_call(Dialect::Gemini, k);
            g.tool_name = Some(name);
            g.tool_input = Some(input);
            if e == Event::PostToolUse {
                g.tool_response = Some(k.tool_result.clone().unwrap_or(Value::Null));
            }
        }
        Event::UserPromptSubmit => g.prompt = Some(or(&k.prompt, "")),
        Event::Stop | Event::SubagentStop => {
            g.prompt = Some(or(&k.prompt, ""));
            g.prompt_response = Some(or(&k.last_assistant_message, ""));
            g.stop_hook_active = Some(k.stop_hook_active.unwrap_or(false));
        }
        Event::SessionStart => g.source = Some(or(&k.source, "startup")),
        Event::SessionEnd => g.reason = Some(or(&k.reason, "exit")),
        Event::PreCompact => g.trigger = Some(or(&k.trigger, "manual")),
        // Gemini CLI 0.61 `fireNotificationEvent`: `notification_type`, `message`, `details`
        // (hookhost has no details to give).
        Event::Notification => {
            g.message = Some(or(&k.message, ""));
            g.notification_type = Some(gemini_kind(k.kind.as_deref().unwrap_or_default()));
        }
        // No Gemini CLI event: a native file's `"dialect": "gemini"` hook sees hookhost's
        // name and the common fields.
        _ => {}
    }
    g
}

/// Gemini CLI's `notification_type` for a native `kind`: `ToolPermission` is hookhost's
/// (and Claude Code's) `permission_prompt`; any other kind as it is.
fn gemini_kind(kind: &str) -> String {
    match kind {
        "permission_prompt" => "ToolPermission".into(),
        other => other.into(),
    }
}

/// A Gemini CLI `notification_type` as a native `kind`.
fn kind_from_gemini(kind: String) -> String {
    match kind.as_str() {
        "ToolPermission" => "permission_prompt".into(),
        _ => kind,
    }
}

fn ling_payload(e: Event, k: &NativePayload) -> LingPayload {
    let tool_call = e.takes_tool_matcher().then(|| {
        let (tool, params) = tool_call(Dialect::Ling, k);
        LingToolCall {
            params,
            result: k.tool_result.clone(),
            tool,
        }
    });
    LingPayload {
        cwd: or(&k.cwd, ""),
        event: e.as_str().to_string(),
        is_subagent: k.is_subagent,
        prompt: k.prompt.clone(),
        reason: k.reason.clone(),
        session_id: or(&k.session_id, ""),
        source: k.source.clone(),
        stop_hook_active: k.stop_hook_active,
        timestamp: k.timestamp.clone().unwrap_or_else(now_iso),
        tool_call,
        trigger: k.trigger.clone(),
    }
}

/// The environment a hook of dialect `d` runs with, besides hookhost's own `HOOK_EVENT` and
/// `HOOK_PROJECT_DIR`: `CLAUDE_PROJECT_DIR` for Claude Code and Codex hooks, and
/// `GEMINI_PROJECT_DIR` plus `CLAUDE_PROJECT_DIR` for Gemini CLI's, `CURSOR_PROJECT_DIR` (and
/// its alias `CLAUDE_PROJECT_DIR`) for Cursor's, `COPILOT_PROJECT_DIR` and
/// `CLAUDE_PROJECT_DIR` for Copilot CLI's (what Copilot CLI 1.0.102 sets).
pub fn env(d: Dialect, project: &Path) -> Vec<(String, String)> {
    // Per hook and event: a native hook allocates nothing.
    let dir = || project.to_string_lossy().into_owned();
    match d {
        Dialect::Claude | Dialect::Codex => vec![("CLAUDE_PROJECT_DIR".into(), dir())],
        Dialect::Gemini => vec![
            ("GEMINI_PROJECT_DIR".into(), dir()),
            ("CLAUDE_PROJECT_DIR".into(), dir()),
        ],
        Dialect::Cursor => vec![
            ("CURSOR_PROJECT_DIR".into(), dir()),
            ("CLAUDE_PROJECT_DIR".into(), dir()),
        ],
        Dialect::Copilot => vec![
            ("COPILOT_PROJECT_DIR".into(), dir()),
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
/// Cursor's event names or `conversation_id` mean Cursor; a `sessionId` with a numeric
/// `timestamp` and no event name means Copilot CLI (its event told by its fields);
/// `hook_event_name` means Claude Code, Codex (with `turn_id`), Gemini CLI (its event names,
/// or a `timestamp`) or Copilot CLI's VS Code form (Claude Code's names with an ISO
/// `timestamp`); `toolCall`, or `event` without `toolName`, means ling; anything else is
/// native (`None`). Tool names and argument keys are mapped to the core's.
pub fn recognise(v: &Value) -> Option<(Dialect, Option<Event>, Map<String, Value>)> {
    let obj = v.as_object()?;
    // Cursor's (its event names, `conversation_id`) and Copilot CLI's camelCase payloads
    // (no event name, a numeric `timestamp`) first: their shapes are their own.
    if let Some(found) =
        super::cursor_payload::recognise(obj).or_else(|| super::copilot_payload::recognise(obj))
    {
        return Some(found);
    }
    // Every field is read leniently: this cannot fail.
    let a = AgentPayload::deserialize(obj).unwrap_or_default();
    if let Some(name) = &a.hook_event_name {
        let gemini_event = from_gemini_event(name).filter(|e| e.as_str() != name);
        // Copilot CLI's VS Code compatible payload: Claude Code's names (`Bash`), an ISO
        // `timestamp`, no `permission_mode`; Gemini CLI names these events its own way.
        let copilot = gemini_event.is_none()
            && a.permission_mode.is_none()
            && a.turn_id.is_none()
            && a.timestamp.as_ref().is_some_and(Value::is_string)
            && name
                .parse::<Event>()
                .is_ok_and(|e| gemini_event_name(e).is_some_and(|g| g != name));
        if copilot {
            let event = name.parse().ok();
            return Some((
                Dialect::Copilot,
                event,
                fields_of(&from_agent(Dialect::Claude, event, a)),
            ));
        }
        let d = if gemini_event.is_some() || a.timestamp.is_some() && a.permission_mode.is_none() {
            Dialect::Gemini
        } else if a.turn_id.is_some() {
            Dialect::Codex
        } else {
            Dialect::Claude
        };
        let event = events::inbound(d, name, a.trigger.as_deref());
        return Some((d, event, fields_of(&from_agent(d, event, a))));
    }
    let ling = a.tool_call.is_some()
        || (a.event.is_some() && a.native_tool_name.is_none() && a.timestamp.is_some());
    if !ling {
        return None;
    }
    let event = a
        .event
        .as_ref()
        .and_then(Value::as_str)
        .and_then(|e| Event::parse_loose(e).ok());
    Some((Dialect::Ling, event, from_ling(obj)))
}

fn fields_of(known: &NativePayload) -> Map<String, Value> {
    match serde_json::to_value(known) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

fn text(v: Option<Value>) -> Option<String> {
    match v {
        Some(Value::String(s)) => Some(s),
        _ => None,
    }
}

/// A Claude Code, Codex or Gemini CLI payload in native fields.
fn from_agent(d: Dialect, event: Option<Event>, a: AgentPayload) -> NativePayload {
    let tool = a.tool_name.map(|tool| {
        let args = a.tool_input.unwrap_or_else(|| Value::Object(Map::new()));
        tools::to_core(d, &tool, &args)
    });
    let last_message = match d {
        Dialect::Gemini => a.prompt_response.or(a.last_assistant_message),
        _ => a.last_assistant_message,
    };
    let (tool_name, tool_args) = tool.unzip();
    // Claude Code's `error` is PostToolUseFailure's text and StopFailure's kind of error.
    let (tool_error, error, error_type) = match event {
        Some(Event::PostToolUse) => (Some(ToolError::Failed(false)), None, None),
        Some(Event::PostToolUseFailure) => (a.error.map(ToolError::Text), None, None),
        Some(Event::StopFailure) => (
            None,
            a.error_details.or_else(|| last_message.clone()),
            a.error,
        ),
        _ => (None, None, None),
    };
    NativePayload {
        agent_id: a.agent_id,
        agent_type: a.agent_type,
        cwd: a.cwd,
        custom_instructions: a.custom_instructions,
        error,
        error_type,
        kind: a.notification_type.map(kind_from_gemini),
        last_assistant_message: last_message,
        message: a.message,
        model: a.model,
        permission_mode: text(a.permission_mode),
        prompt: a.prompt,
        reason: a.reason,
        session_id: a.session_id,
        source: a.source,
        stop_hook_active: a.stop_hook_active,
        summary: a.compact_summary,
        timestamp: text(a.timestamp),
        title: a.title,
        tool_args,
        tool_error,
        tool_name,
        tool_result: a.tool_response,
        tool_use_id: a.tool_use_id,
        transcript_path: a.transcript_path,
        trigger: a.trigger,
        turn_id: text(a.turn_id),
        event: None,
        is_subagent: None,
    }
}

/// A ling payload in native fields: every field but `toolCall` as it is, the tool call
/// mapped to the core's name and keys.
fn from_ling(obj: &Map<String, Value>) -> Map<String, Value> {
    // The other fields are kept verbatim: this cannot fail.
    let Ok(LingPayloadIn {
        tool_call,
        mut fields,
    }) = LingPayloadIn::deserialize(obj)
    else {
        return obj.clone();
    };
    if let Some(Some(call)) = tool_call {
        let (name, args) = tools::to_core(Dialect::Ling, &call.tool, &call.params);
        fields.extend(fields_of(&NativePayload {
            tool_name: Some(name),
            tool_args: Some(args),
            tool_result: call.result,
            ..NativePayload::default()
        }));
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
    fn payloads_are_written_key_by_key_in_order() {
        let mut p = Payload::post_tool_use(
            Path::new("/p"),
            "s1",
            "read_file",
            json!({"path": "a"}),
            Value::Null,
            false,
        );
        p.set("toolUseId", json!("t1"));
        let text = |d, p: &Payload| String::from_utf8(render(d, p).to_vec()).unwrap();
        assert_eq!(
            text(Dialect::Claude, &p),
            "{\"cwd\":\"/p\",\"hook_event_name\":\"PostToolUse\",\"permission_mode\":\"default\",\"session_id\":\"s1\",\"tool_input\":{\"file_path\":\"a\"},\"tool_name\":\"Read\",\"tool_response\":null,\"tool_use_id\":\"t1\",\"transcript_path\":\"\"}\n"
        );
        assert_eq!(
            text(Dialect::Codex, &p),
            "{\"cwd\":\"/p\",\"hook_event_name\":\"PostToolUse\",\"model\":\"\",\"permission_mode\":\"default\",\"session_id\":\"s1\",\"tool_input\":{\"file_path\":\"a\"},\"tool_name\":\"Read\",\"tool_response\":null,\"tool_use_id\":\"t1\",\"transcript_path\":\"\",\"turn_id\":\"\"}\n"
        );
        p.set("timestamp", json!("T"));
        assert_eq!(
            text(Dialect::Ling, &p),
            "{\"cwd\":\"/p\",\"event\":\"PostToolUse\",\"sessionId\":\"s1\",\"timestamp\":\"T\",\"toolCall\":{\"params\":{\"file_path\":\"a\"},\"result\":null,\"tool\":\"read_file\"}}\n"
        );
        let stop = Payload::stop(Event::Stop, Path::new("/p"), "s1", true);
        let codex: Value = serde_json::from_slice(&render(Dialect::Codex, &stop)).unwrap();
        assert_eq!(codex["last_assistant_message"], Value::Null);
        assert_eq!(codex["stop_hook_active"], true);
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
        assert_eq!(
            (v["agent_type"].as_str(), v["agent_id"].as_str()),
            (Some("scout"), Some(""))
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
}
