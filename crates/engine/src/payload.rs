//! The JSON object a hook reads on stdin (DESIGN §2).
//!
//! A payload is kept as the JSON object it is, rather than a struct per event: a payload
//! supplied whole (`hookhost run --payload`, serve's `fire`) keeps any extra field its author
//! put in, verbatim, and this object is where they live (the one place that indexes a payload
//! by key). Its known fields are the wire type [`NativePayload`]: the constructors below
//! write one, [`Payload::known`] reads one back, [`Payload::merge`] sets some.

#[doc(no_inline)]
pub use hookhost_protocol::json_type_name;
use hookhost_protocol::wire::{NativePayload, ToolError};
use hookhost_protocol::{Dialect, Event};
use serde_json::{Map, Value};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// One event's payload: a camelCase JSON object with at least `event`, `cwd` and `sessionId`.
#[derive(Debug, Clone)]
pub struct Payload {
    event: Event,
    fields: Map<String, Value>,
    /// The serialised form, made once and shared by every hook of the event until a field
    /// changes (an `updatedInput`).
    bytes: OnceLock<Arc<[u8]>>,
    /// The agent's own payload, when the event came with one.
    origin: Option<Arc<Origin>>,
}

/// The payload another agent sent with an event (`hookhost hook --for`, `run --payload`,
/// serve's `fire`), kept whole: a hook of that agent's dialect is given it back, every field
/// verbatim except those hookhost changed since (a rewritten `tool_input`, the event fired),
/// and a hook of another dialect gets the fields no dialect names (`prompt_id`, ...).
#[derive(Debug, Clone, PartialEq)]
pub struct Origin {
    /// Whose payload it is (Claude Code, Codex or Gemini CLI).
    pub dialect: Dialect,
    /// Its event, when hookhost knows the name.
    pub event: Option<Event>,
    /// Every field, as the agent sent it.
    pub fields: Map<String, Value>,
    /// The native fields the payload stood for when it was attached: what changed since is
    /// told against these.
    pub known: NativePayload,
}

impl PartialEq for Payload {
    fn eq(&self, other: &Self) -> bool {
        self.event == other.event && self.fields == other.fields
    }
}

/// The fields of `known` that are set, as JSON.
fn to_fields(known: &NativePayload) -> Map<String, Value> {
    match serde_json::to_value(known) {
        Ok(Value::Object(m)) => m,
        // A struct of plain data always serialises to an object.
        _ => Map::new(),
    }
}

impl Payload {
    fn of(event: Event, cwd: &Path, session_id: &str, fields: NativePayload) -> Self {
        let known = NativePayload {
            event: Some(event),
            cwd: Some(cwd.to_string_lossy().into_owned()),
            session_id: Some(session_id.to_string()),
            ..fields
        };
        Payload {
            event,
            fields: to_fields(&known),
            bytes: OnceLock::new(),
            origin: None,
        }
    }

    /// SessionStart; `source` is `startup` or `resume`.
    pub fn session_start(cwd: &Path, session_id: &str, source: &str) -> Self {
        let source = Some(source.to_string());
        Self::of(
            Event::SessionStart,
            cwd,
            session_id,
            NativePayload {
                source,
                ..Default::default()
            },
        )
    }

    /// UserPromptSubmit, with the user's `prompt`.
    pub fn user_prompt_submit(cwd: &Path, session_id: &str, prompt: &str) -> Self {
        let prompt = Some(prompt.to_string());
        Self::of(
            Event::UserPromptSubmit,
            cwd,
            session_id,
            NativePayload {
                prompt,
                ..Default::default()
            },
        )
    }

    /// PreToolUse of `tool` with `args`.
    pub fn pre_tool_use(cwd: &Path, session_id: &str, tool: &str, args: Value) -> Self {
        let fields = NativePayload {
            tool_name: Some(tool.to_string()),
            tool_args: Some(args),
            ..Default::default()
        };
        Self::of(Event::PreToolUse, cwd, session_id, fields)
    }

    /// PreSkillShellCommand: a skill's inline shell command, `{"command": ...}` for `shell`
    /// (the core's `bash`, or `PowerShell`).
    pub fn pre_skill_shell_command(cwd: &Path, session_id: &str, shell: &str, args: Value) -> Self {
        let fields = NativePayload {
            tool_name: Some(shell.to_string()),
            tool_args: Some(args),
            ..Default::default()
        };
        Self::of(Event::PreSkillShellCommand, cwd, session_id, fields)
    }

    /// The PreToolUse a skill's shell command (PreSkillShellCommand) is to a guard of tool
    /// calls: the same shell and command, session and directory, marked
    /// `"skillShellCommand": true`; `None` for any other event.
    pub fn skill_command_as_tool_call(&self) -> Option<Payload> {
        if self.event != Event::PreSkillShellCommand {
            return None;
        }
        let mut fields = self.fields.clone();
        fields.insert(
            "event".into(),
            Value::String(Event::PreToolUse.as_str().into()),
        );
        fields.insert("skillShellCommand".into(), Value::Bool(true));
        Some(Payload {
            event: Event::PreToolUse,
            fields,
            bytes: OnceLock::new(),
            origin: None,
        })
    }

    /// PostToolUse of `tool` with `args`, its `result`, and whether it failed.
    pub fn post_tool_use(
        cwd: &Path,
        session_id: &str,
        tool: &str,
        args: Value,
        result: Value,
        is_error: bool,
    ) -> Self {
        let fields = NativePayload {
            tool_name: Some(tool.to_string()),
            tool_args: Some(args),
            tool_result: Some(result),
            tool_error: Some(ToolError::Failed(is_error)),
            ..Default::default()
        };
        Self::of(Event::PostToolUse, cwd, session_id, fields)
    }

    /// PreCompact; `trigger` is `auto` or `manual`.
    pub fn pre_compact(cwd: &Path, session_id: &str, trigger: &str) -> Self {
        let trigger = Some(trigger.to_string());
        Self::of(
            Event::PreCompact,
            cwd,
            session_id,
            NativePayload {
                trigger,
                ..Default::default()
            },
        )
    }

    /// Stop or SubagentStop.
    pub fn stop(event: Event, cwd: &Path, session_id: &str, stop_hook_active: bool) -> Self {
        let stop_hook_active = Some(stop_hook_active);
        Self::of(
            event,
            cwd,
            session_id,
            NativePayload {
                stop_hook_active,
                ..Default::default()
            },
        )
    }

    /// SessionEnd; `reason` says why the session ended.
    pub fn session_end(cwd: &Path, session_id: &str, reason: &str) -> Self {
        let reason = Some(reason.to_string());
        Self::of(
            Event::SessionEnd,
            cwd,
            session_id,
            NativePayload {
                reason,
                ..Default::default()
            },
        )
    }

    /// PermissionRequest: the permission checker would ask about `tool` with `args`;
    /// `reason` names what asks (the rule, or a PreToolUse hook).
    pub fn permission_request(
        cwd: &Path,
        session_id: &str,
        tool: &str,
        args: Value,
        reason: &str,
    ) -> Self {
        Self::tool_with_reason(
            Event::PermissionRequest,
            cwd,
            session_id,
            (tool, args),
            reason,
        )
    }

    /// An event about the call of `tool` with `args` that says why (`reason`).
    fn tool_with_reason(
        event: Event,
        cwd: &Path,
        session_id: &str,
        (tool, args): (&str, Value),
        reason: &str,
    ) -> Self {
        let fields = NativePayload {
            tool_name: Some(tool.to_string()),
            tool_args: Some(args),
            reason: Some(reason.to_string()),
            ..Default::default()
        };
        Self::of(event, cwd, session_id, fields)
    }

    /// PostToolUseFailure of `tool` with `args`: `error` is the failure, as text.
    pub fn post_tool_use_failure(
        cwd: &Path,
        session_id: &str,
        tool: &str,
        args: Value,
        error: &str,
    ) -> Self {
        let fields = NativePayload {
            tool_name: Some(tool.to_string()),
            tool_args: Some(args),
            tool_error: Some(ToolError::Text(error.to_string())),
            ..Default::default()
        };
        Self::of(Event::PostToolUseFailure, cwd, session_id, fields)
    }

    /// Notification: `message` for the user, of `kind` (`permission_prompt`, ...).
    pub fn notification(cwd: &Path, session_id: &str, message: &str, kind: &str) -> Self {
        let fields = NativePayload {
            message: Some(message.to_string()),
            kind: Some(kind.to_string()),
            ..Default::default()
        };
        Self::of(Event::Notification, cwd, session_id, fields)
    }

    /// SubagentStop of a subagent of `agent_type` (as its SubagentStart named it).
    pub fn subagent_stop(
        cwd: &Path,
        session_id: &str,
        stop_hook_active: bool,
        agent_type: &str,
    ) -> Self {
        let fields = NativePayload {
            stop_hook_active: Some(stop_hook_active),
            agent_type: Some(agent_type.to_string()),
            ..Default::default()
        };
        Self::of(Event::SubagentStop, cwd, session_id, fields)
    }

    /// SubagentStart of a subagent of `agent_type`, given `prompt`.
    pub fn subagent_start(cwd: &Path, session_id: &str, agent_type: &str, prompt: &str) -> Self {
        let fields = NativePayload {
            agent_type: Some(agent_type.to_string()),
            prompt: Some(prompt.to_string()),
            ..Default::default()
        };
        Self::of(Event::SubagentStart, cwd, session_id, fields)
    }

    /// PostCompact; `trigger` is `auto` or `manual`, `summary` what replaced the messages.
    pub fn post_compact(cwd: &Path, session_id: &str, trigger: &str, summary: &str) -> Self {
        let fields = NativePayload {
            trigger: Some(trigger.to_string()),
            summary: Some(summary.to_string()),
            ..Default::default()
        };
        Self::of(Event::PostCompact, cwd, session_id, fields)
    }

    /// StopFailure: the turn ended by `error` (of the model or its API).
    pub fn stop_failure(cwd: &Path, session_id: &str, error: &str) -> Self {
        let fields = NativePayload {
            error: Some(error.to_string()),
            ..Default::default()
        };
        Self::of(Event::StopFailure, cwd, session_id, fields)
    }

    /// PermissionDenied: the call of `tool` with `args` was denied; `reason` says by what.
    pub fn permission_denied(
        cwd: &Path,
        session_id: &str,
        tool: &str,
        args: Value,
        reason: &str,
    ) -> Self {
        Self::tool_with_reason(
            Event::PermissionDenied,
            cwd,
            session_id,
            (tool, args),
            reason,
        )
    }

    /// One of the events Claude Code added (docs/events.md), with its own `fields` in
    /// hookhost's camelCase names (`filePath`, `oldCwd`, `toolCalls`, ...); `event`, `cwd`
    /// and `sessionId` among them are ignored.
    pub fn with_fields(
        event: Event,
        cwd: &Path,
        session_id: &str,
        fields: Map<String, Value>,
    ) -> Self {
        let mut p = Self::of(event, cwd, session_id, NativePayload::default());
        p.fields.extend(
            fields
                .into_iter()
                .filter(|(k, _)| !matches!(k.as_str(), "event" | "cwd" | "sessionId")),
        );
        p
    }

    /// A payload built from neutral defaults for `event` (the CLI's starting point when only
    /// some flags are given): empty tool name and arguments, `toolError` false (text "" on
    /// PostToolUseFailure), `source` "startup", `trigger` "manual", `reason` "other" (""
    /// on PermissionRequest), `stopHookActive` false, `agentType` "default", and empty
    /// `message`, `kind`, `prompt`, `summary` and `error`; the events Claude Code added carry
    /// only what is given.
    pub fn neutral(event: Event, cwd: &Path, session_id: &str) -> Self {
        let empty = || Value::Object(Map::new());
        let (cwd, sid) = (cwd, session_id);
        match event {
            Event::SessionStart => Self::session_start(cwd, sid, "startup"),
            Event::UserPromptSubmit => Self::user_prompt_submit(cwd, sid, ""),
            Event::PreToolUse => Self::pre_tool_use(cwd, sid, "", empty()),
            Event::PermissionRequest => Self::permission_request(cwd, sid, "", empty(), ""),
            Event::PostToolUse => Self::post_tool_use(cwd, sid, "", empty(), Value::Null, false),
            Event::PostToolUseFailure => Self::post_tool_use_failure(cwd, sid, "", empty(), ""),
            Event::Notification => Self::notification(cwd, sid, "", ""),
            Event::SubagentStart => Self::subagent_start(cwd, sid, "default", ""),
            Event::PreCompact => Self::pre_compact(cwd, sid, "manual"),
            Event::PostCompact => Self::post_compact(cwd, sid, "manual", ""),
            Event::Stop | Event::SubagentStop => Self::stop(event, cwd, sid, false),
            Event::StopFailure => Self::stop_failure(cwd, sid, ""),
            Event::SessionEnd => Self::session_end(cwd, sid, "other"),
            Event::PermissionDenied => Self::permission_denied(cwd, sid, "", empty(), ""),
            // The events Claude Code added: their own fields only when given.
            Event::Setup
            | Event::InstructionsLoaded
            | Event::UserPromptExpansion
            | Event::MessageDisplay
            | Event::PostToolBatch
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
            | Event::PostModelSwitch => Self::with_fields(event, cwd, sid, Map::new()),
            Event::PreSkillShellCommand => Self::pre_skill_shell_command(cwd, sid, "", empty()),
        }
    }

    /// A payload from a whole JSON object: `event` is overridden by `event`, missing `cwd` and
    /// `sessionId` are filled in. Errors when `value` is not an object.
    pub fn from_object(
        event: Event,
        value: Value,
        cwd: &Path,
        session_id: &str,
    ) -> Result<Self, String> {
        let Value::Object(given) = value else {
            return Err(format!(
                "a payload must be a JSON object, got {}",
                json_type_name(&value)
            ));
        };
        // The defaults first, then what was given over them (unknown fields verbatim), then
        // the event.
        let mut p = Self::of(event, cwd, session_id, NativePayload::default());
        p.fields.extend(given);
        p.merge(NativePayload {
            event: Some(event),
            ..NativePayload::default()
        });
        Ok(p)
    }

    /// Keeps `fields`, the payload agent `dialect` sent for `event`, as this payload's
    /// [`Origin`]; what the payload's native fields are now is what it stood for.
    pub fn attach_origin(
        &mut self,
        dialect: Dialect,
        event: Option<Event>,
        fields: Map<String, Value>,
    ) {
        self.origin = Some(Arc::new(Origin {
            dialect,
            event,
            fields,
            known: self.known(),
        }));
    }

    /// The agent's own payload this event came with, if any.
    pub fn origin(&self) -> Option<&Origin> {
        self.origin.as_deref()
    }

    /// The known fields, typed (a field of the wrong type reads as absent).
    pub fn known(&self) -> NativePayload {
        // Every field is read leniently: this cannot fail.
        serde::Deserialize::deserialize(&self.fields).unwrap_or_default()
    }

    /// Sets the known fields that `fields` sets (the others stay as they are).
    pub fn merge(&mut self, fields: NativePayload) {
        self.fields.extend(to_fields(&fields));
        self.bytes = OnceLock::new();
    }

    /// Marks the payload as coming from inside a subagent (`"isSubagent": true`).
    pub fn mark_subagent(&mut self) {
        self.merge(NativePayload {
            is_subagent: Some(true),
            ..NativePayload::default()
        });
    }

    /// Sets (or replaces) one field by its camelCase name, verbatim (a known field is better
    /// set through [`Payload::merge`]).
    pub fn set(&mut self, key: &str, value: Value) {
        self.fields.insert(key.to_string(), value);
        self.bytes = OnceLock::new();
    }

    /// The event this payload is for.
    pub fn event(&self) -> Event {
        self.event
    }

    /// One field, by its camelCase name.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields.get(key)
    }

    /// The tool name, on the tool events (PreToolUse, PermissionRequest, PostToolUse,
    /// PostToolUseFailure).
    pub fn tool_name(&self) -> Option<&str> {
        self.fields.get("toolName").and_then(Value::as_str)
    }

    /// The tool arguments (`toolArgs`), on the tool events.
    pub fn tool_args(&self) -> Option<&Value> {
        self.fields.get("toolArgs")
    }

    /// Replaces the tool arguments (a hook's `updatedInput`; later hooks see the new ones).
    pub fn set_tool_args(&mut self, args: Value) {
        self.merge(NativePayload {
            tool_args: Some(args),
            ..NativePayload::default()
        });
    }

    /// Replaces the tool result (a PostToolUse hook's `updatedToolOutput`; later hooks see
    /// the new one).
    pub fn set_tool_result(&mut self, result: Value) {
        self.merge(NativePayload {
            tool_result: Some(result),
            ..NativePayload::default()
        });
    }

    /// Replaces the prompt (a UserPromptSubmit hook's `updatedPrompt`; later hooks see the
    /// new one).
    pub fn set_prompt(&mut self, prompt: String) {
        self.merge(NativePayload {
            prompt: Some(prompt),
            ..NativePayload::default()
        });
    }

    /// Every field.
    pub fn as_map(&self) -> &Map<String, Value> {
        &self.fields
    }

    /// The bytes written to a hook's stdin (serialised once per version of the payload).
    pub fn to_json_bytes(&self) -> Arc<[u8]> {
        self.bytes
            .get_or_init(|| {
                // Serialising a Map of Values cannot fail.
                serde_json::to_vec(&self.fields).unwrap_or_default().into()
            })
            .clone()
    }
}
