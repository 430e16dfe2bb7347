//! Payloads across dialects: [`render`] writes a native [`Payload`] as the JSON a dialect's
//! hook reads on stdin (Claude Code's one-line snake_case object, Gemini CLI's with its event
//! names and a timestamp, Codex's with `turn_id` and `model`, ling's `toolCall`: the wire
//! types of `hookhost_protocol::wire`), and [`recognise`] reads a payload of any dialect back into
//! native fields, told by its shape.
//!
//! Nothing is made up. When the event came with an agent's own payload (its [`Origin`]: `hook
//! --for`, `run --payload`, serve's `fire`), a hook of that agent's dialect gets it back field
//! for field, unknown fields included (`prompt_id`, `effort`, `duration_ms`, ...), with only
//! what hookhost changed since rendered anew (a rewritten `tool_input`, another event fired);
//! a hook of another dialect gets the fields no dialect names, verbatim, and its own
//! dialect's fields whose values are known. When hookhost's own agent is the source, a hook
//! gets the fields its agent documents for the event with the values hookhost knows, and
//! nothing else: no `transcript_path` (there is no transcript), no Codex `turn_id` or `model`,
//! `permission_mode` "default" (hookhost's own permission checker) only on the events the
//! agent sends it with, a timestamp of now for Gemini CLI.

use crate::Dialect;
use crate::config::agents::{events, tools};
use crate::event::Event;
use crate::payload::{Origin, Payload};
use hookhost_protocol::wire::{
    AgentPayload, ClaudeFields, ClaudePayload, CodexPayload, GeminiPayload, LingPayload,
    LingPayloadIn, LingToolCall, NativePayload, ToolError,
};
use serde::{Deserialize, Serialize};
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
    hookhost_sys::clock::iso_of_ms(super::copilot::now_ms())
}

/// The bytes a hook of dialect `d` reads on stdin for `p`.
pub fn render(d: Dialect, p: &Payload) -> Arc<[u8]> {
    let (e, k) = (p.event(), p.known());
    let object = match (d, p.origin()) {
        (Dialect::Native, _) => return p.to_json_bytes(),
        (Dialect::Ling, _) => to_map(&ling_payload(e, &k)),
        (Dialect::Cursor, _) => to_map(&super::cursor::payload(e, p)),
        (Dialect::Copilot, _) => to_map(&super::copilot::payload(e, p)),
        (Dialect::Opencode, _) => super::opencode::payload(e, p),
        (Dialect::Cline, _) => super::cline::payload(e, p),
        (Dialect::Windsurf, _) => super::windsurf::payload(e, p),
        (d, _) if d.is_claude_like() => super::claude_like::payload(d, e, p),
        (_, Some(origin)) => from_origin(d, e, &k, origin),
        (_, None) => agent_payload(d, e, &k, Source::Own),
    };
    let mut object = object;
    if matches!(d, Dialect::Claude | Dialect::Codex) || (d.is_claude_like() && d != Dialect::Goose)
    {
        event_fields(d, p, &mut object);
    }
    // One compact line, ended by a newline so that `read -r payload` succeeds even under
    // `set -e` (every JSON reader ignores the trailing whitespace). Plain data: serialising
    // it cannot fail.
    let mut bytes = serde_json::to_vec(&object).unwrap_or_default();
    bytes.push(b'\n');
    bytes.into()
}

/// Who the event comes from: hookhost's own agent (whose defaults hookhost knows: its
/// permission mode, no compaction instructions), or another agent, whose payload says what
/// is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Source {
    Own,
    Agent,
}

/// Plain data as a JSON object (it always is one).
fn to_map(v: &impl Serialize) -> Map<String, Value> {
    match serde_json::to_value(v) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

/// The keys each agent's payload names, as [`agent_payload`] writes them (a unit test holds
/// these to the wire types' schemas).
const CLAUDE_KEYS: &[&str] = &[
    "agent_id",
    "agent_type",
    "compact_summary",
    "custom_instructions",
    "cwd",
    "error",
    "error_details",
    "hook_event_name",
    "last_assistant_message",
    "message",
    "notification_type",
    "permission_mode",
    "prompt",
    "reason",
    "session_id",
    "source",
    "stop_hook_active",
    "title",
    "tool_input",
    "tool_name",
    "tool_response",
    "tool_use_id",
    "transcript_path",
    "trigger",
];
const CODEX_ONLY_KEYS: &[&str] = &["model", "turn_id"];
const GEMINI_KEYS: &[&str] = &[
    "cwd",
    "hook_event_name",
    "message",
    "notification_type",
    "prompt",
    "prompt_response",
    "reason",
    "session_id",
    "source",
    "stop_hook_active",
    "timestamp",
    "tool_input",
    "tool_name",
    "tool_response",
    "transcript_path",
    "trigger",
];

/// The keys `d`'s payload names.
fn keys(d: Dialect) -> impl Iterator<Item = &'static str> {
    let (first, more): (&[&str], &[&str]) = match d {
        Dialect::Claude => (CLAUDE_KEYS, &[]),
        Dialect::Codex => (CLAUDE_KEYS, CODEX_ONLY_KEYS),
        Dialect::Gemini => (GEMINI_KEYS, &[]),
        _ => (&[], &[]),
    };
    first.iter().chain(more).copied()
}

/// Whether some agent's payload names `key` (then it is rendered from native fields, not
/// copied from another agent's payload).
fn named_by_a_dialect(key: &str) -> bool {
    [Dialect::Claude, Dialect::Codex, Dialect::Gemini]
        .into_iter()
        .any(|d| keys(d).any(|k| k == key))
}

/// The payload of dialect `d` (Claude Code, Codex, Gemini CLI) from native fields.
fn agent_payload(d: Dialect, e: Event, k: &NativePayload, source: Source) -> Map<String, Value> {
    match d {
        Dialect::Claude => to_map(&ClaudePayload {
            fields: claude_fields(d, e, k, source),
        }),
        Dialect::Codex => to_map(&codex_payload(e, k, source)),
        Dialect::Gemini => to_map(&gemini_payload(e, k)),
        _ => Map::new(),
    }
}

/// A payload for dialect `d` when the event came with an agent's own payload: for that
/// agent, its payload with only what changed since rendered anew (a field whose native
/// source is the same as when it came is kept as the agent wrote it, `null`s, key order of
/// values and unknown fields included); for another agent, the fields no dialect names,
/// verbatim, and `d`'s own from native fields.
fn from_origin(d: Dialect, e: Event, now: &NativePayload, o: &Origin) -> Map<String, Value> {
    let rendered = agent_payload(d, e, now, Source::Agent);
    if o.dialect != d {
        let mut out: Map<String, Value> = o
            .fields
            .iter()
            .filter(|(key, _)| !named_by_a_dialect(key))
            .map(|(key, v)| (key.clone(), v.clone()))
            .collect();
        out.extend(rendered);
        return out;
    }
    let then = agent_payload(d, o.event.unwrap_or(e), &o.known, Source::Agent);
    let mut out = o.fields.clone();
    for key in keys(d) {
        let changed =
            rendered.get(key) != then.get(key) || (key == "hook_event_name" && o.event != Some(e));
        if changed {
            match rendered.get(key) {
                Some(v) => out.insert(key.to_string(), v.clone()),
                None => out.remove(key),
            };
        }
    }
    out
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

/// The events whose payload carries `permission_mode`: Claude Code sends it on the events of
/// a turn (the captured payloads), not on SessionStart, SessionEnd, PreCompact, PostCompact,
/// SubagentStart, StopFailure or Notification; Codex on every event.
fn sends_permission_mode(d: Dialect, e: Event) -> bool {
    match d {
        Dialect::Codex => true,
        _ => match e {
            Event::UserPromptSubmit
            | Event::PreToolUse
            | Event::PostToolUse
            | Event::Stop
            | Event::SubagentStop
            | Event::PermissionRequest
            | Event::PostToolUseFailure
            | Event::PermissionDenied
            | Event::PostToolBatch
            | Event::UserPromptExpansion => true,
            Event::SessionStart
            | Event::SessionEnd
            | Event::PreCompact
            | Event::Notification
            | Event::SubagentStart
            | Event::PostCompact
            | Event::StopFailure
            | Event::Setup
            | Event::InstructionsLoaded
            | Event::MessageDisplay
            | Event::TaskCreated
            | Event::TaskCompleted
            | Event::TeammateIdle
            | Event::ConfigChange
            | Event::CwdChanged
            | Event::DirectoryAdded
            | Event::FileChanged
            | Event::WorktreeCreate
            | Event::WorktreeRemove
            | Event::Elicitation
            | Event::ElicitationResult
            | Event::PreModelSwitch
            | Event::PostModelSwitch
            | Event::PreSkillShellCommand => false,
        },
    }
}

/// Claude Code's fields (also Codex's): the common ones, then the event's.
pub(super) fn claude_fields(
    d: Dialect,
    e: Event,
    k: &NativePayload,
    source: Source,
) -> ClaudeFields {
    let own = source == Source::Own;
    let mut c = ClaudeFields {
        cwd: or(&k.cwd, ""),
        hook_event_name: e.as_str().to_string(),
        permission_mode: k
            .permission_mode
            .clone()
            .or_else(|| (own && sends_permission_mode(d, e)).then(|| "default".to_string())),
        session_id: or(&k.session_id, ""),
        transcript_path: k.transcript_path.clone(),
        ..ClaudeFields::default()
    };
    match e {
        Event::PreToolUse | Event::PostToolUse | Event::PreSkillShellCommand => {
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
            c.last_assistant_message = k.last_assistant_message.clone().map(Some);
            if e == Event::SubagentStop {
                c.agent_id.clone_from(&k.agent_id);
                c.agent_type.clone_from(&k.agent_type);
            }
        }
        Event::SessionStart => c.source = Some(or(&k.source, "startup")),
        Event::SessionEnd => c.reason = Some(or(&k.reason, "other")),
        Event::PreCompact => {
            c.trigger = Some(or(&k.trigger, "manual"));
            // hookhost's own compaction takes no instructions: Claude Code's `null`.
            c.custom_instructions = match (&k.custom_instructions, own) {
                (Some(text), _) => Some(Some(text.clone())),
                (None, true) => Some(None),
                (None, false) => None,
            };
        }
        _ => new_event_fields(d, e, k, &mut c),
    }
    c
}

/// The fields of the events Claude Code added later (Claude Code 2.1.332's hook input
/// schemas): PermissionRequest and PostToolUseFailure carry the tool call, PostToolUseFailure
/// its `error` text; Notification `message`, `notification_type`, `title`; SubagentStart
/// `agent_id`, `agent_type` (when known); PostCompact `trigger`, `compact_summary`;
/// StopFailure the kind of error as `error` (`unknown` when hookhost does not know it), the
/// text as `error_details`.
fn new_event_fields(d: Dialect, e: Event, k: &NativePayload, c: &mut ClaudeFields) {
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
            c.agent_id.clone_from(&k.agent_id);
            c.agent_type.clone_from(&k.agent_type);
        }
        Event::PostCompact => {
            c.trigger = Some(or(&k.trigger, "manual"));
            c.compact_summary = Some(or(&k.summary, ""));
        }
        Event::StopFailure => {
            c.error = Some(or(&k.error_type, "unknown"));
            c.error_details.clone_from(&k.error);
            c.last_assistant_message = k.last_assistant_message.clone().map(Some);
        }
        // The events added since (docs/events.md): the fields the typed payload names;
        // each event's own are added by `event_fields`.
        Event::PermissionDenied => {
            let (name, input) = tool_call(d, k);
            c.tool_name = Some(name);
            c.tool_input = Some(input);
            c.tool_use_id.clone_from(&k.tool_use_id);
            c.reason = Some(or(&k.reason, ""));
        }
        Event::Setup => c.trigger = Some(or(&k.trigger, "init")),
        Event::ConfigChange | Event::DirectoryAdded => c.source.clone_from(&k.source),
        Event::UserPromptExpansion => c.prompt.clone_from(&k.prompt),
        Event::MessageDisplay | Event::Elicitation => c.message.clone_from(&k.message),
        _ => {}
    }
}

/// The own fields of the events Claude Code added ([`events::CLAUDE_EVENT_FIELDS`]) in
/// Claude Code's names, from the payload's camelCase ones, where `object` has none yet (an
/// agent's own payload keeps its own); PostToolBatch's `toolCalls` in Claude Code's tool names
/// and keys.
fn event_fields(d: Dialect, p: &Payload, object: &mut Map<String, Value>) {
    for (camel, snake) in events::claude_event_fields(p.event()) {
        let Some(v) = p.get(camel) else { continue };
        if object.contains_key(snake) {
            continue;
        }
        let v = if camel == "toolCalls" {
            tool_calls_out(d, v)
        } else {
            v.clone()
        };
        object.insert(snake.to_string(), v);
    }
}

/// PostToolBatch's calls for Claude Code: `{tool_name, tool_input, tool_use_id,
/// tool_response}` each, from hookhost's `{toolName, toolArgs, toolUseId, toolResult}`.
fn tool_calls_out(d: Dialect, calls: &Value) -> Value {
    let Some(list) = calls.as_array() else {
        return calls.clone();
    };
    Value::Array(
        list.iter()
            .map(|call| {
                let name = call.get("toolName").and_then(Value::as_str).unwrap_or("");
                let args = call
                    .get("toolArgs")
                    .cloned()
                    .unwrap_or_else(|| Value::Object(Map::new()));
                let (name, input) = tools::to_dialect(d, name, &args);
                let mut out = Map::new();
                out.insert("tool_name".into(), Value::String(name));
                out.insert("tool_input".into(), input);
                for (from, to) in [
                    ("toolUseId", "tool_use_id"),
                    ("toolResult", "tool_response"),
                ] {
                    if let Some(v) = call.get(from) {
                        out.insert(to.into(), v.clone());
                    }
                }
                Value::Object(out)
            })
            .collect(),
    )
}

/// PostToolBatch's calls from Claude Code, in hookhost's names and the core's tools.
fn tool_calls_in(d: Dialect, calls: &Value) -> Value {
    let Some(list) = calls.as_array() else {
        return calls.clone();
    };
    Value::Array(
        list.iter()
            .map(|call| {
                let name = call.get("tool_name").and_then(Value::as_str).unwrap_or("");
                let args = call
                    .get("tool_input")
                    .cloned()
                    .unwrap_or_else(|| Value::Object(Map::new()));
                let (name, args) = tools::to_core(d, name, &args);
                let mut out = Map::new();
                out.insert("toolName".into(), Value::String(name));
                out.insert("toolArgs".into(), args);
                for (from, to) in [
                    ("tool_use_id", "toolUseId"),
                    ("tool_response", "toolResult"),
                ] {
                    if let Some(v) = call.get(from) {
                        out.insert(to.into(), v.clone());
                    }
                }
                Value::Object(out)
            })
            .collect(),
    )
}

/// The own fields of an event Claude Code added, from its payload, in hookhost's names.
pub(super) fn event_fields_in(
    d: Dialect,
    event: Option<Event>,
    obj: &Map<String, Value>,
) -> Map<String, Value> {
    let Some(event) = event else {
        return Map::new();
    };
    events::claude_event_fields(event)
        .filter_map(|(camel, snake)| {
            let v = obj.get(snake)?;
            let v = if camel == "toolCalls" {
                tool_calls_in(d, v)
            } else {
                v.clone()
            };
            Some((camel.to_string(), v))
        })
        .collect()
}

/// PostToolUseFailure's `toolError` text ("" when the payload has a flag or nothing).
fn failure_text(k: &NativePayload) -> String {
    match &k.tool_error {
        Some(ToolError::Text(t)) => t.clone(),
        _ => String::new(),
    }
}

/// Codex's payload: Claude Code's fields with `turn_id` and `model` when known, and at Stop
/// the last message (`null` when hookhost's own agent has none to give).
fn codex_payload(e: Event, k: &NativePayload, source: Source) -> CodexPayload {
    let mut fields = claude_fields(Dialect::Codex, e, k, source);
    if source == Source::Own && matches!(e, Event::Stop | Event::SubagentStop) {
        fields.last_assistant_message = Some(k.last_assistant_message.clone());
    }
    CodexPayload {
        fields,
        model: k.model.clone(),
        turn_id: k.turn_id.clone(),
    }
}

/// Gemini CLI's payload: its event names and tool names, its own `timestamp` when the event
/// came with one (else now).
fn gemini_payload(e: Event, k: &NativePayload) -> GeminiPayload {
    let mut g = GeminiPayload {
        cwd: or(&k.cwd, ""),
        hook_event_name: gemini_event(e).unwrap_or(e.as_str()).to_string(),
        session_id: or(&k.session_id, ""),
        timestamp: k.timestamp.clone().unwrap_or_else(now_iso),
        transcript_path: k.transcript_path.clone(),
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
            g.prompt.clone_from(&k.prompt);
            g.prompt_response.clone_from(&k.last_assistant_message);
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

/// `v` as a native payload object: another agent's payload (told by [`recognise`]) turned
/// into native fields, a native one unchanged. (Prefer [`payload_from`], which keeps the
/// agent's own payload for the hooks of its dialect.)
pub fn to_native(v: Value) -> Value {
    match recognise(&v) {
        Some((_, _, fields)) => Value::Object(fields),
        None => v,
    }
}

/// The payload of `event` from a whole JSON object of any dialect, as `run --payload` and
/// serve's `fire` take it: another agent's payload (told by [`recognise`]) in native fields,
/// with the agent's own kept as the payload's [`Origin`] (so that its hooks get it back
/// verbatim); a native or ling one as [`Payload::from_object`] reads it.
pub fn payload_from(event: Event, v: Value, cwd: &Path, session: &str) -> Result<Payload, String> {
    let Some((d, recognised, fields)) = recognise(&v) else {
        return Payload::from_object(event, v, cwd, session);
    };
    let mut p = Payload::from_object(event, Value::Object(fields), cwd, session)?;
    if let (Dialect::Claude | Dialect::Codex | Dialect::Gemini, Value::Object(own)) = (d, v) {
        p.attach_origin(d, recognised, own);
    }
    Ok(p)
}

/// A payload of agent `d` as native fields: `(dialect, event, fields)`, read as `d`'s where
/// its shape does not tell the agent (the Claude-like agents, `claude_like.rs`), else as
/// [`recognise`] tells it. What `hookhost hook --for d` reads.
pub fn recognise_for(
    d: Dialect,
    v: &Value,
) -> Option<(Dialect, Option<Event>, Map<String, Value>)> {
    match v.as_object() {
        Some(obj) if d.is_claude_like() => super::claude_like::recognise(d, obj),
        Some(obj) if d == Dialect::Opencode => super::opencode::recognise(obj),
        Some(obj) if d == Dialect::Cline => super::cline::recognise(obj),
        Some(obj) if d == Dialect::Windsurf => super::windsurf::recognise(obj),
        _ => recognise(v),
    }
}

/// A payload of any dialect, told by its shape, as native fields: `(dialect, event, fields)`.
/// Cursor's event names or `conversation_id` mean Cursor; a `sessionId` with a numeric
/// `timestamp` and no event name means Copilot CLI (its event told by its fields);
/// `clineVersion` (or Cline's `hookName` with a `taskId`) means Cline; `agent_action_name`
/// (one of Windsurf's, or with a `tool_info`) means Windsurf;
/// `hook_event_name` means Claude Code, Codex (with `turn_id`, or `model`: Codex sends no
/// `turn_id` on SessionStart), Gemini CLI (its event names,
/// or a `timestamp`) or Copilot CLI's VS Code form (Claude Code's names with an ISO
/// `timestamp`); `toolCall`, or `event` without `toolName`, means ling; anything else is
/// native (`None`). Tool names and argument keys are mapped to the core's.
pub fn recognise(v: &Value) -> Option<(Dialect, Option<Event>, Map<String, Value>)> {
    let obj = v.as_object()?;
    // Cursor's (its event names, `conversation_id`) and Copilot CLI's camelCase payloads
    // (no event name, a numeric `timestamp`) first: their shapes are their own.
    if let Some(found) = super::cursor::recognise(obj)
        .or_else(|| super::copilot::recognise(obj))
        .or_else(|| super::cline::recognise(obj))
        .or_else(|| super::windsurf::recognise(obj))
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
        } else if a.turn_id.is_some() || a.model.is_some() {
            Dialect::Codex
        } else {
            Dialect::Claude
        };
        let event = events::inbound(d, name, a.trigger.as_deref());
        let own = event_fields_in(d, event, obj);
        let mut fields = fields_of(&from_agent(d, event, a));
        fields.extend(own);
        return Some((d, event, fields));
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

pub(super) fn fields_of(known: &NativePayload) -> Map<String, Value> {
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
pub(super) fn from_agent(d: Dialect, event: Option<Event>, a: AgentPayload) -> NativePayload {
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
#[path = "render_tests.rs"]
mod tests;
