//! From what a caller asks to fire to the payload the hooks get: the one function behind
//! `hookhost run`'s flags, serve's `fire` params and the Python binding's `fire`
//! ([`FireRequest::payload`]). A whole payload (any agent's, told by its shape) or neutral
//! defaults, then the tool, its arguments, its result and the prompt over it, each only on
//! the events that carry it. How a field is spelled for the user (`--tool` on the command
//! line, `` `tool` `` in JSON-RPC) is the caller's; what is wrong is a [`RequestError`].

use crate::event::Event;
use crate::payload::Payload;
use crate::translate::payload_from;
use hookhost_protocol::wire::NativePayload;
use serde_json::Value;
use std::fmt;
use std::path::Path;

/// What to fire: the event, the session, and the parts of the payload a caller gives.
#[derive(Debug, Clone)]
pub struct FireRequest {
    /// The event to fire.
    pub event: Event,
    /// The session id the payload carries.
    pub session: String,
    /// A whole payload, in any agent's shape (else neutral defaults for the event).
    pub payload: Option<Value>,
    /// The tool name (tool events only).
    pub tool: Option<String>,
    /// The tool's arguments, a JSON object (tool events only).
    pub args: Option<Value>,
    /// The tool's result (PostToolUse only).
    pub result: Option<Value>,
    /// The user's prompt (UserPromptSubmit only).
    pub prompt: Option<String>,
}

/// A field of a [`FireRequest`] over the payload, as the caller names it to the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestField {
    /// `tool`.
    Tool,
    /// `args`.
    Args,
    /// `result`.
    Result,
    /// `prompt`.
    Prompt,
}

impl RequestField {
    /// The field's name (`tool`, `args`, `result`, `prompt`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Tool => "tool",
            Self::Args => "args",
            Self::Result => "result",
            Self::Prompt => "prompt",
        }
    }

    /// The events the field applies to, in words.
    pub fn applies_to(self) -> String {
        match self {
            Self::Tool | Self::Args => format!("the tool events ({})", Event::tool_events()),
            Self::Result => "PostToolUse".into(),
            Self::Prompt => "UserPromptSubmit and UserPromptExpansion".into(),
        }
    }

    fn applies(self, event: Event) -> bool {
        match self {
            Self::Tool | Self::Args => event.takes_tool_matcher(),
            Self::Result => event == Event::PostToolUse,
            Self::Prompt => matches!(event, Event::UserPromptSubmit | Event::UserPromptExpansion),
        }
    }
}

/// Why a [`FireRequest`] makes no payload.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestError {
    /// The whole payload could not be read as any agent's.
    Payload(String),
    /// A field was given for an event that does not carry it.
    NotFor {
        /// The field.
        field: RequestField,
        /// The event fired.
        event: Event,
    },
    /// `args` is not a JSON object.
    ArgsNotObject,
}

impl RequestError {
    /// The message, with each field spelled by `spell` (`--tool`, `` `tool` ``).
    pub fn message(&self, spell: impl Fn(RequestField) -> String) -> String {
        match self {
            Self::Payload(e) => e.clone(),
            Self::NotFor { field, event } => format!(
                "{} applies to {}, not {event}",
                spell(*field),
                field.applies_to()
            ),
            Self::ArgsNotObject => format!(
                "{} must be a JSON object like {{\"command\":\"ls\"}}",
                spell(RequestField::Args)
            ),
        }
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(|field| format!("`{}`", field.name())))
    }
}

impl std::error::Error for RequestError {}

impl FireRequest {
    /// A request for `event` in `session`, with no payload parts.
    pub fn new(event: Event, session: impl Into<String>) -> Self {
        Self {
            event,
            session: session.into(),
            payload: None,
            tool: None,
            args: None,
            result: None,
            prompt: None,
        }
    }

    /// The payload the hooks get, for a project at `cwd`.
    pub fn payload(self, cwd: &Path) -> Result<Payload, RequestError> {
        let event = self.event;
        let check = |field: RequestField, given: bool| {
            if given && !field.applies(event) {
                Err(RequestError::NotFor { field, event })
            } else {
                Ok(())
            }
        };
        let mut payload = match self.payload {
            None => Payload::neutral(event, cwd, &self.session),
            Some(v) => payload_from(event, v, cwd, &self.session).map_err(RequestError::Payload)?,
        };
        check(RequestField::Tool, self.tool.is_some())?;
        check(RequestField::Args, self.args.is_some())?;
        if self.args.as_ref().is_some_and(|a| !a.is_object()) {
            return Err(RequestError::ArgsNotObject);
        }
        check(RequestField::Result, self.result.is_some())?;
        check(RequestField::Prompt, self.prompt.is_some())?;
        payload.merge(NativePayload {
            tool_name: self.tool,
            tool_args: self.args,
            tool_result: self.result,
            prompt: self.prompt,
            ..NativePayload::default()
        });
        Ok(payload)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_parts_go_over_the_neutral_payload() {
        let mut r = FireRequest::new(Event::PreToolUse, "s1");
        r.tool = Some("bash".into());
        r.args = Some(json!({"command": "ls"}));
        let p = r.payload(Path::new("/p")).unwrap();
        assert_eq!(p.tool_name(), Some("bash"));
        assert_eq!(p.tool_args(), Some(&json!({"command": "ls"})));
        assert_eq!(p.get("sessionId"), Some(&json!("s1")));
    }

    #[test]
    fn a_part_of_another_event_is_refused_naming_the_field_as_the_caller_spells_it() {
        let mut r = FireRequest::new(Event::Stop, "s");
        r.prompt = Some("hi".into());
        let e = r.payload(Path::new("/p")).unwrap_err();
        assert_eq!(
            e.message(|f| format!("--{}", f.name())),
            "--prompt applies to UserPromptSubmit and UserPromptExpansion, not Stop"
        );
        assert_eq!(
            e.to_string(),
            "`prompt` applies to UserPromptSubmit and UserPromptExpansion, not Stop"
        );
        let mut r = FireRequest::new(Event::PreToolUse, "s");
        r.args = Some(json!([1]));
        assert_eq!(
            r.payload(Path::new("/p")).unwrap_err(),
            RequestError::ArgsNotObject
        );
    }
}
