//! The thirty-four lifecycle events (Claude Code's) and the per-event rules that differ between them.
//!
//! Everything the engine needs to know about an event (does it block? can it force or
//! decide a permission? may a hook name a tool matcher? what does another agent's matcher
//! match?) is data in [`Event::class`], [`Event::takes_tool_matcher`] and
//! [`Event::matcher_subject`]; one generic path in the engine (`runner/fire.rs`) runs every
//! event. Other agents' names for these events are the engine's (`config/agents/events.rs`);
//! what it does with an event is not here.

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
    /// The permission checker would ask the user about a call; hooks can allow or deny it,
    /// never a call the checker denies (`toolName`, `toolArgs`, `reason`).
    PermissionRequest,
    /// After a tool ran, failed or not (`toolName`, `toolArgs`, `toolResult`, `toolError`).
    PostToolUse,
    /// After a tool call that failed, besides PostToolUse (`toolName`, `toolArgs`,
    /// `toolError`: the failure as text).
    PostToolUseFailure,
    /// The agent notifies the user, e.g. before a permission prompt (`message`, `kind`).
    Notification,
    /// A subagent starts (`agentType`, `prompt`).
    SubagentStart,
    /// Before context compaction; hooks can block the compaction (`trigger`: `auto` or
    /// `manual`).
    PreCompact,
    /// After context compaction (`trigger`, `summary`).
    PostCompact,
    /// The model gave a final answer; hooks can force the agent on (`stopHookActive`).
    Stop,
    /// A turn ended by an error of the model or its API (`error`).
    StopFailure,
    /// A subagent's loop is about to exit; hooks can force it on (`stopHookActive`,
    /// `agentType`).
    SubagentStop,
    /// The session is over (`reason`).
    SessionEnd,
    /// The agent is set up for a project before a session (`trigger`: `init` or
    /// `maintenance`); Claude Code's `--init`/`--maintenance`.
    Setup,
    /// An instructions file was loaded into the context (`filePath`, `memoryType`,
    /// `loadReason`).
    InstructionsLoaded,
    /// A slash command is about to be expanded into a prompt; hooks can block the expansion
    /// (`commandName`, `commandArgs`, `prompt`).
    UserPromptExpansion,
    /// A message is about to be shown to the user (`message`).
    MessageDisplay,
    /// Every tool call of one model turn has resolved, before the next model request; hooks
    /// can stop the agent there (`toolCalls`).
    PostToolBatch,
    /// A tool call was denied (by the permission checker or a hook); hooks can tell the model
    /// it may retry (`toolName`, `toolArgs`, `reason`).
    PermissionDenied,
    /// A task is being created; hooks can refuse it (`taskId`, `taskSubject`,
    /// `taskDescription`).
    TaskCreated,
    /// A task is being marked completed; hooks can refuse it (`taskId`, `taskSubject`).
    TaskCompleted,
    /// A teammate is about to go idle; hooks can keep it working (`teammateName`,
    /// `teamName`).
    TeammateIdle,
    /// A configuration file changed during the session; hooks can block the change
    /// (`source`, `filePath`).
    ConfigChange,
    /// The working directory changed (`oldCwd`, `newCwd`).
    CwdChanged,
    /// A directory was added to the session's working directories (`directory`, `source`).
    DirectoryAdded,
    /// A watched file changed (`filePath`, `changeType`: `add`, `change` or `unlink`).
    FileChanged,
    /// A worktree is to be created; a hook creates it and says where (`name`).
    WorktreeCreate,
    /// A worktree is being removed (`worktreePath`).
    WorktreeRemove,
    /// An MCP server asks the user for input; hooks can answer or decline
    /// (`mcpServerName`, `message`, `requestedSchema`).
    Elicitation,
    /// The user answered an MCP server's elicitation; hooks can change or decline the answer
    /// (`mcpServerName`, `action`, `content`).
    ElicitationResult,
    /// The model is about to be switched; hooks can block the switch (`fromModel`,
    /// `toModel`).
    PreModelSwitch,
    /// The model was switched (`fromModel`, `toModel`).
    PostModelSwitch,
    /// A skill or slash command is about to run one of its inline shell commands as it loads
    /// (Claude Code 2.1.332's `` !`command` ``); hooks can block it, as on PreToolUse
    /// (`toolName`: the shell, `bash` or `PowerShell`; `toolArgs`: `{"command"}`).
    PreSkillShellCommand,
}

/// How an event treats its hooks' results: one column of the decision table (DESIGN §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventClass {
    /// PreToolUse and PreSkillShellCommand: a hook can block the tool call (a skill's shell
    /// command); stops at the first block.
    Blocking,
    /// Stop, SubagentStop: a hook can force the agent to continue; stops at the first force.
    Forcing,
    /// PermissionRequest: a hook can allow or deny a call the permission checker would ask
    /// about; stops at the first deny (a deny beats every allow).
    Deciding,
    /// Events where a hook can refuse what the event is about, which is not a tool call (a
    /// config change, a task, a worktree, a model switch, a slash command's expansion, an
    /// elicitation, a compaction); stops at the first block.
    Gating,
    /// Everything else: hooks observe and add context; all of them run.
    Observing,
}

impl Event {
    /// Every event, in lifecycle order.
    pub const ALL: [Event; 34] = [
        Event::SessionStart,
        Event::UserPromptSubmit,
        Event::PreToolUse,
        Event::PermissionRequest,
        Event::PostToolUse,
        Event::PostToolUseFailure,
        Event::Notification,
        Event::SubagentStart,
        Event::PreCompact,
        Event::PostCompact,
        Event::Stop,
        Event::StopFailure,
        Event::SubagentStop,
        Event::SessionEnd,
        Event::Setup,
        Event::InstructionsLoaded,
        Event::UserPromptExpansion,
        Event::MessageDisplay,
        Event::PostToolBatch,
        Event::PermissionDenied,
        Event::TaskCreated,
        Event::TaskCompleted,
        Event::TeammateIdle,
        Event::ConfigChange,
        Event::CwdChanged,
        Event::DirectoryAdded,
        Event::FileChanged,
        Event::WorktreeCreate,
        Event::WorktreeRemove,
        Event::Elicitation,
        Event::ElicitationResult,
        Event::PreModelSwitch,
        Event::PostModelSwitch,
        Event::PreSkillShellCommand,
    ];

    /// The name as written in config files and payloads: `PreToolUse`.
    pub fn as_str(self) -> &'static str {
        match self {
            Event::SessionStart => "SessionStart",
            Event::UserPromptSubmit => "UserPromptSubmit",
            Event::PreToolUse => "PreToolUse",
            Event::PermissionRequest => "PermissionRequest",
            Event::PostToolUse => "PostToolUse",
            Event::PostToolUseFailure => "PostToolUseFailure",
            Event::Notification => "Notification",
            Event::SubagentStart => "SubagentStart",
            Event::PreCompact => "PreCompact",
            Event::PostCompact => "PostCompact",
            Event::Stop => "Stop",
            Event::StopFailure => "StopFailure",
            Event::SubagentStop => "SubagentStop",
            Event::SessionEnd => "SessionEnd",
            Event::Setup => "Setup",
            Event::InstructionsLoaded => "InstructionsLoaded",
            Event::UserPromptExpansion => "UserPromptExpansion",
            Event::MessageDisplay => "MessageDisplay",
            Event::PostToolBatch => "PostToolBatch",
            Event::PermissionDenied => "PermissionDenied",
            Event::TaskCreated => "TaskCreated",
            Event::TaskCompleted => "TaskCompleted",
            Event::TeammateIdle => "TeammateIdle",
            Event::ConfigChange => "ConfigChange",
            Event::CwdChanged => "CwdChanged",
            Event::DirectoryAdded => "DirectoryAdded",
            Event::FileChanged => "FileChanged",
            Event::WorktreeCreate => "WorktreeCreate",
            Event::WorktreeRemove => "WorktreeRemove",
            Event::Elicitation => "Elicitation",
            Event::ElicitationResult => "ElicitationResult",
            Event::PreModelSwitch => "PreModelSwitch",
            Event::PostModelSwitch => "PostModelSwitch",
            Event::PreSkillShellCommand => "PreSkillShellCommand",
        }
    }

    /// Which column of the decision table this event uses.
    pub fn class(self) -> EventClass {
        match self {
            Event::PreToolUse | Event::PreSkillShellCommand => EventClass::Blocking,
            Event::PermissionRequest => EventClass::Deciding,
            Event::Stop | Event::SubagentStop | Event::TeammateIdle => EventClass::Forcing,
            Event::UserPromptExpansion
            | Event::PostToolBatch
            | Event::TaskCreated
            | Event::TaskCompleted
            | Event::ConfigChange
            | Event::WorktreeCreate
            | Event::Elicitation
            | Event::ElicitationResult
            | Event::PreModelSwitch
            | Event::PreCompact => EventClass::Gating,
            Event::SessionStart
            | Event::UserPromptSubmit
            | Event::PostToolUse
            | Event::PostToolUseFailure
            | Event::Notification
            | Event::SubagentStart
            | Event::PostCompact
            | Event::StopFailure
            | Event::SessionEnd
            | Event::Setup
            | Event::InstructionsLoaded
            | Event::MessageDisplay
            | Event::PermissionDenied
            | Event::CwdChanged
            | Event::DirectoryAdded
            | Event::FileChanged
            | Event::WorktreeRemove
            | Event::PostModelSwitch => EventClass::Observing,
        }
    }

    /// Whether the event is about one tool call, so that its hooks may carry a `match` regex
    /// on the tool name: PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure,
    /// PermissionDenied, PreSkillShellCommand (the shell).
    pub fn takes_tool_matcher(self) -> bool {
        matches!(
            self,
            Event::PreToolUse
                | Event::PermissionRequest
                | Event::PostToolUse
                | Event::PostToolUseFailure
                | Event::PermissionDenied
                | Event::PreSkillShellCommand
        )
    }

    /// The events about one tool call, for messages: "PreToolUse, PermissionRequest, ...".
    pub fn tool_events() -> String {
        let names: Vec<&str> = Event::ALL
            .into_iter()
            .filter(|e| e.takes_tool_matcher())
            .map(Event::as_str)
            .collect();
        names.join(", ")
    }

    /// The payload field another agent's `matcher` matches on an event that is not about a
    /// tool (Claude Code, Codex and Gemini CLI match SessionStart on its source, compaction
    /// on its trigger, ...); `None` where such a matcher is ignored. Native `match` applies
    /// to tool events only.
    pub fn matcher_subject(self) -> Option<&'static str> {
        Some(match self {
            Event::SessionStart => "source",
            Event::PreCompact | Event::PostCompact => "trigger",
            Event::Notification => "kind",
            // Claude Code matches SubagentStop on the subagent's type too.
            Event::SubagentStart | Event::SubagentStop => "agentType",
            Event::StopFailure => "errorType",
            Event::Setup => "trigger",
            Event::InstructionsLoaded => "loadReason",
            Event::UserPromptExpansion => "commandName",
            // DirectoryAdded: how the directory was added (Claude Code's `source`).
            Event::ConfigChange | Event::DirectoryAdded => "source",
            // The file's name (its last path component): `fileChanged` matches `.envrc|.env`.
            Event::FileChanged => "filePath",
            Event::Elicitation | Event::ElicitationResult => "mcpServerName",
            // Claude Code matches SessionEnd on why it ended (`clear|logout`) and a model
            // switch on the model switched to.
            Event::SessionEnd => "reason",
            Event::PreModelSwitch | Event::PostModelSwitch => "toModel",
            _ => return None,
        })
    }

    /// Whether `async: true` is allowed: where a hook cannot decide anything, and on
    /// PreCompact (observing until Claude Code let its hooks block a compaction: a background
    /// hook there still only observes, and never blocks).
    pub fn allows_async(self) -> bool {
        self.class() == EventClass::Observing || self == Event::PreCompact
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

/// The name is not one of the events.
#[derive(Debug, Clone)]
pub struct UnknownEvent(pub String);

impl fmt::Display for UnknownEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown event `{}`; expected one of: {}",
            self.0,
            Event::ALL.map(Event::as_str).join(", ")
        )
    }
}

impl std::error::Error for UnknownEvent {}

impl FromStr for Event {
    type Err = UnknownEvent;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Event::ALL
            .into_iter()
            .find(|e| e.as_str() == s)
            .ok_or_else(|| UnknownEvent(s.to_string()))
    }
}
