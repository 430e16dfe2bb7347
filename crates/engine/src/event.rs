//! The eight lifecycle events and the per-event rules that differ between them.
//!
//! Everything the engine needs to know about an event (does it block? can it force? may a
//! hook name a tool matcher? which payload fields does it carry?) is data in [`Event::class`]
//! and [`Event::takes_tool_matcher`]; one generic path in `runner.rs` runs every event.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A lifecycle event of the agent at which hooks run (DESIGN §2).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum Event {
    /// The agent session begins (payload: `source`).
    SessionStart,
    /// The user sent a prompt, before it is appended (`prompt`).
    UserPromptSubmit,
    /// Before the permission check and the tool; hooks can block (`toolName`, `toolArgs`).
    PreToolUse,
    /// After a tool ran, failed or not (`toolName`, `toolArgs`, `toolResult`, `toolError`).
    PostToolUse,
    /// Before context compaction (`trigger`: `auto` or `manual`).
    PreCompact,
    /// The model gave a final answer; hooks can force the agent on (`stopHookActive`).
    Stop,
    /// A subagent's loop is about to exit; hooks can force it on (`stopHookActive`).
    SubagentStop,
    /// The session is over (`reason`).
    SessionEnd,
}

/// How an event treats its hooks' results: one column of the decision table (DESIGN §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventClass {
    /// PreToolUse: a hook can block the tool call; stops at the first block.
    Blocking,
    /// Stop, SubagentStop: a hook can force the agent to continue; stops at the first force.
    Forcing,
    /// Everything else: hooks observe and add context; all of them run.
    Observing,
}

impl Event {
    /// Every event, in lifecycle order.
    pub const ALL: [Event; 8] = [
        Event::SessionStart,
        Event::UserPromptSubmit,
        Event::PreToolUse,
        Event::PostToolUse,
        Event::PreCompact,
        Event::Stop,
        Event::SubagentStop,
        Event::SessionEnd,
    ];

    /// The name as written in config files and payloads: `PreToolUse`.
    pub fn as_str(self) -> &'static str {
        match self {
            Event::SessionStart => "SessionStart",
            Event::UserPromptSubmit => "UserPromptSubmit",
            Event::PreToolUse => "PreToolUse",
            Event::PostToolUse => "PostToolUse",
            Event::PreCompact => "PreCompact",
            Event::Stop => "Stop",
            Event::SubagentStop => "SubagentStop",
            Event::SessionEnd => "SessionEnd",
        }
    }

    /// Which column of the decision table this event uses.
    pub fn class(self) -> EventClass {
        match self {
            Event::PreToolUse => EventClass::Blocking,
            Event::Stop | Event::SubagentStop => EventClass::Forcing,
            _ => EventClass::Observing,
        }
    }

    /// Whether hooks of this event may carry a `match` regex on the tool name.
    pub fn takes_tool_matcher(self) -> bool {
        matches!(self, Event::PreToolUse | Event::PostToolUse)
    }

    /// Whether `async: true` is allowed (only where a hook cannot decide anything).
    pub fn allows_async(self) -> bool {
        self.class() == EventClass::Observing
    }
}

impl Event {
    /// Case-insensitive lookup, for command lines (`hookhost run pretooluse`); config files
    /// stay exact.
    pub fn parse_loose(s: &str) -> Result<Event, UnknownEvent> {
        Event::ALL
            .into_iter()
            .find(|e| e.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownEvent(s.to_string()))
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The name is not one of the eight events.
#[derive(Debug, Clone, thiserror::Error)]
#[error("unknown event `{0}`; expected one of: {list}", list = Event::ALL.map(Event::as_str).join(", "))]
pub struct UnknownEvent(pub String);

impl FromStr for Event {
    type Err = UnknownEvent;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Event::ALL
            .into_iter()
            .find(|e| e.as_str() == s)
            .ok_or_else(|| UnknownEvent(s.to_string()))
    }
}
