//! Every agent's names for the events, one table: which native event an agent's event name
//! means, and the name a dialect's hook sees for a native event. The hook-file reader uses
//! it for other agents' files, `translate/` for payloads and answers (`render`, `respond`,
//! `recognise`), and `hookhost run` to accept any agent's name ([`resolve`]). Cursor's and
//! Copilot CLI's names, which are per tool kind or told by a payload's fields, are at the end.
//!
//! | native | Claude Code | Codex 0.171 | Gemini CLI 0.61 |
//! |---|---|---|---|
//! | SessionStart | SessionStart | SessionStart | SessionStart |
//! | UserPromptSubmit | UserPromptSubmit | UserPromptSubmit | BeforeAgent |
//! | PreToolUse | PreToolUse | PreToolUse | BeforeTool |
//! | PermissionRequest | PermissionRequest | PermissionRequest | - |
//! | PostToolUse | PostToolUse | PostToolUse | AfterTool |
//! | PostToolUseFailure | PostToolUseFailure | - | - (AfterTool) |
//! | Notification | Notification | - | Notification |
//! | SubagentStart | SubagentStart | SubagentStart | - |
//! | PreCompact | PreCompact | PreCompact | PreCompress (`trigger: "manual"` only, see below) |
//! | PostCompact | PostCompact | PostCompact | - |
//! | Stop | Stop | Stop | AfterAgent |
//! | StopFailure | StopFailure | - | - |
//! | SubagentStop | SubagentStop | SubagentStop | - |
//! | SessionEnd | SessionEnd | SessionEnd | SessionEnd |
//! | Setup, InstructionsLoaded, UserPromptExpansion, MessageDisplay, PostToolBatch, PermissionDenied, TaskCreated, TaskCompleted, TeammateIdle, ConfigChange, CwdChanged, DirectoryAdded, FileChanged, WorktreeCreate, WorktreeRemove, Elicitation, ElicitationResult, PreModelSwitch, PostModelSwitch, PreSkillShellCommand | the same names | - | - |
//!
//! Cline's events are its hook files' names: TaskStart and TaskResume (SessionStart),
//! UserPromptSubmit, PreToolUse, PostToolUse, PreCompact, TaskComplete (Stop), TaskError
//! (StopFailure), TaskCancel and SessionShutdown (SessionEnd).
//!
//! Cursor and Copilot CLI have none of the twenty events of the last row either; a hook on
//! one of them in another agent's file is a warning that names the agent whose event it is
//! ([`foreign_only`]).
//!
//! Sources: Claude Code's hooks reference (code.claude.com/docs/en/hooks) and the input
//! schemas in Claude Code 2.1.332; the `*.command.input` JSON schemas Codex 0.171.0 embeds
//! (no Notification, PostToolUseFailure or StopFailure there); Gemini CLI 0.61.0's
//! `HookEventName` (geminicli.com/docs/hooks).
//!
//! Events an agent fires that mean nothing to hookhost ([`NO_NATIVE_MEANING`]: Gemini CLI's
//! `BeforeModel`, `AfterModel`, `BeforeToolSelection`) are answered with a pass by `hookhost
//! hook`, which runs no hook for them: a native hook never runs on an event it was not
//! written for (on BeforeModel the adapter puts in the prompts hooks replaced in the session,
//! `translate::gemini_model`). Gemini CLI 0.61 fires `PreCompress` with `"trigger": "auto"` before every
//! model call, before it checks whether the history is long enough to compress
//! (`ChatCompressionService.compress`), so such a payload is not a compaction: only a
//! `"manual"` one (`/compress`, which compresses) is PreCompact ([`inbound`]).
//!
//! The `dialects` of further agents add their rows here; the Claude-like agents (Qwen Code,
//! Qoder CLI, Grok CLI, Factory Droid, Auggie, VS Code, goose) use Claude Code's names for
//! the events their row in `claude_like.rs` lists.

use crate::Dialect;
use crate::event::Event;

/// Each agent's name for each native event it fires: `(agent, its name, native event)`. A
/// native event an agent does not fire has no row for it.
pub const AGENT_EVENTS: &[(Dialect, &str, Event)] = &[
    // Claude Code: hookhost's names are Claude Code's.
    (Dialect::Claude, "SessionStart", Event::SessionStart),
    (Dialect::Claude, "UserPromptSubmit", Event::UserPromptSubmit),
    (Dialect::Claude, "PreToolUse", Event::PreToolUse),
    (
        Dialect::Claude,
        "PermissionRequest",
        Event::PermissionRequest,
    ),
    (Dialect::Claude, "PostToolUse", Event::PostToolUse),
    (
        Dialect::Claude,
        "PostToolUseFailure",
        Event::PostToolUseFailure,
    ),
    (Dialect::Claude, "Notification", Event::Notification),
    (Dialect::Claude, "SubagentStart", Event::SubagentStart),
    (Dialect::Claude, "PreCompact", Event::PreCompact),
    (Dialect::Claude, "PostCompact", Event::PostCompact),
    (Dialect::Claude, "Stop", Event::Stop),
    (Dialect::Claude, "StopFailure", Event::StopFailure),
    (Dialect::Claude, "SubagentStop", Event::SubagentStop),
    (Dialect::Claude, "SessionEnd", Event::SessionEnd),
    // The events Claude Code added since: no other agent fires them (docs/events.md).
    (Dialect::Claude, "Setup", Event::Setup),
    (
        Dialect::Claude,
        "InstructionsLoaded",
        Event::InstructionsLoaded,
    ),
    (
        Dialect::Claude,
        "UserPromptExpansion",
        Event::UserPromptExpansion,
    ),
    (Dialect::Claude, "MessageDisplay", Event::MessageDisplay),
    (Dialect::Claude, "PostToolBatch", Event::PostToolBatch),
    (Dialect::Claude, "PermissionDenied", Event::PermissionDenied),
    (Dialect::Claude, "TaskCreated", Event::TaskCreated),
    (Dialect::Claude, "TaskCompleted", Event::TaskCompleted),
    (Dialect::Claude, "TeammateIdle", Event::TeammateIdle),
    (Dialect::Claude, "ConfigChange", Event::ConfigChange),
    (Dialect::Claude, "CwdChanged", Event::CwdChanged),
    (Dialect::Claude, "DirectoryAdded", Event::DirectoryAdded),
    (Dialect::Claude, "FileChanged", Event::FileChanged),
    (Dialect::Claude, "WorktreeCreate", Event::WorktreeCreate),
    (Dialect::Claude, "WorktreeRemove", Event::WorktreeRemove),
    (Dialect::Claude, "Elicitation", Event::Elicitation),
    (
        Dialect::Claude,
        "ElicitationResult",
        Event::ElicitationResult,
    ),
    (Dialect::Claude, "PreModelSwitch", Event::PreModelSwitch),
    (Dialect::Claude, "PostModelSwitch", Event::PostModelSwitch),
    (
        Dialect::Claude,
        "PreSkillShellCommand",
        Event::PreSkillShellCommand,
    ),
    // Codex 0.171.0: Claude Code's names, fewer events.
    (Dialect::Codex, "SessionStart", Event::SessionStart),
    (Dialect::Codex, "UserPromptSubmit", Event::UserPromptSubmit),
    (Dialect::Codex, "PreToolUse", Event::PreToolUse),
    (
        Dialect::Codex,
        "PermissionRequest",
        Event::PermissionRequest,
    ),
    (Dialect::Codex, "PostToolUse", Event::PostToolUse),
    (Dialect::Codex, "SubagentStart", Event::SubagentStart),
    (Dialect::Codex, "PreCompact", Event::PreCompact),
    (Dialect::Codex, "PostCompact", Event::PostCompact),
    (Dialect::Codex, "Stop", Event::Stop),
    (Dialect::Codex, "SubagentStop", Event::SubagentStop),
    (Dialect::Codex, "SessionEnd", Event::SessionEnd),
    // Gemini CLI 0.61.0: its own names.
    (Dialect::Gemini, "SessionStart", Event::SessionStart),
    (Dialect::Gemini, "BeforeAgent", Event::UserPromptSubmit),
    (Dialect::Gemini, "BeforeTool", Event::PreToolUse),
    (Dialect::Gemini, "AfterTool", Event::PostToolUse),
    (Dialect::Gemini, "Notification", Event::Notification),
    (Dialect::Gemini, "PreCompress", Event::PreCompact),
    (Dialect::Gemini, "AfterAgent", Event::Stop),
    (Dialect::Gemini, "SessionEnd", Event::SessionEnd),
    // opencode: the names of its plugin hooks and bus events that hookhost's plugin
    // (`plugins/opencode/hookhost.js`) hands on (opencode.ai/docs/plugins).
    (Dialect::Opencode, "tool.execute.before", Event::PreToolUse),
    (Dialect::Opencode, "tool.execute.after", Event::PostToolUse),
    (Dialect::Opencode, "session.created", Event::SessionStart),
    (Dialect::Opencode, "session.idle", Event::Stop),
    // Cline: its hook files' names (docs.cline.bot, "Hook Reference"; the SDK's
    // `HookConfigFileName`). A task is a session: TaskStart and TaskResume start one,
    // TaskComplete ends a turn, TaskCancel and SessionShutdown end it, TaskError is a turn
    // ended by an error. TaskResume and SessionShutdown are in [`SECOND_NAMES`].
    (Dialect::Cline, "TaskStart", Event::SessionStart),
    (Dialect::Cline, "UserPromptSubmit", Event::UserPromptSubmit),
    (Dialect::Cline, "PreToolUse", Event::PreToolUse),
    (Dialect::Cline, "PostToolUse", Event::PostToolUse),
    (Dialect::Cline, "PreCompact", Event::PreCompact),
    (Dialect::Cline, "TaskComplete", Event::Stop),
    (Dialect::Cline, "TaskError", Event::StopFailure),
    (Dialect::Cline, "TaskCancel", Event::SessionEnd),
    // Windsurf's Cascade hooks (docs.windsurf.com/windsurf/cascade/hooks): one event per tool
    // kind ([`windsurf_event`]); the shell's names are the first, the others' are in
    // [`SECOND_NAMES`]. `post_cascade_response` runs after a response and cannot keep Cascade
    // going (a Stop that never forces).
    (Dialect::Windsurf, "pre_run_command", Event::PreToolUse),
    (Dialect::Windsurf, "post_run_command", Event::PostToolUse),
    (
        Dialect::Windsurf,
        "pre_user_prompt",
        Event::UserPromptSubmit,
    ),
    (Dialect::Windsurf, "post_cascade_response", Event::Stop),
];

/// An agent's second name for a native event it has in [`AGENT_EVENTS`]: read as that event,
/// never rendered (its hooks see the first).
pub const SECOND_NAMES: &[(Dialect, &str, Event)] = &[
    (Dialect::Cline, "TaskResume", Event::SessionStart),
    (Dialect::Cline, "SessionShutdown", Event::SessionEnd),
    (Dialect::Windsurf, "pre_read_code", Event::PreToolUse),
    (Dialect::Windsurf, "pre_write_code", Event::PreToolUse),
    (Dialect::Windsurf, "pre_mcp_tool_use", Event::PreToolUse),
    (Dialect::Windsurf, "post_read_code", Event::PostToolUse),
    (Dialect::Windsurf, "post_write_code", Event::PostToolUse),
    (Dialect::Windsurf, "post_mcp_tool_use", Event::PostToolUse),
];

/// The payload fields of the events Claude Code added, besides those every event has and
/// those the typed payload names (`prompt`, `message`, `source`, `trigger`, `reason`, the
/// tool call): `(event, hookhost's camelCase name, Claude Code's snake_case name)`. Claude
/// Code's hooks reference (code.claude.com/docs/en/hooks, "Hook events": each event's
/// input); FileChanged's `event` is `changeType` here (`event` is the payload's event).
pub const CLAUDE_EVENT_FIELDS: &[(Event, &str, &str)] = &[
    (Event::InstructionsLoaded, "filePath", "file_path"),
    (Event::InstructionsLoaded, "memoryType", "memory_type"),
    (Event::InstructionsLoaded, "loadReason", "load_reason"),
    (Event::InstructionsLoaded, "globs", "globs"),
    (
        Event::InstructionsLoaded,
        "triggerFilePath",
        "trigger_file_path",
    ),
    (
        Event::InstructionsLoaded,
        "parentFilePath",
        "parent_file_path",
    ),
    (
        Event::UserPromptExpansion,
        "expansionType",
        "expansion_type",
    ),
    (Event::UserPromptExpansion, "commandName", "command_name"),
    (Event::UserPromptExpansion, "commandArgs", "command_args"),
    (
        Event::UserPromptExpansion,
        "commandSource",
        "command_source",
    ),
    (Event::PostToolBatch, "toolCalls", "tool_calls"),
    (Event::TaskCreated, "taskId", "task_id"),
    (Event::TaskCreated, "taskSubject", "task_subject"),
    (Event::TaskCreated, "taskDescription", "task_description"),
    (Event::TaskCreated, "teammateName", "teammate_name"),
    (Event::TaskCreated, "teamName", "team_name"),
    (Event::TaskCompleted, "taskId", "task_id"),
    (Event::TaskCompleted, "taskSubject", "task_subject"),
    (Event::TaskCompleted, "taskDescription", "task_description"),
    (Event::TaskCompleted, "teammateName", "teammate_name"),
    (Event::TaskCompleted, "teamName", "team_name"),
    (Event::TeammateIdle, "teammateName", "teammate_name"),
    (Event::TeammateIdle, "teamName", "team_name"),
    (Event::ConfigChange, "filePath", "file_path"),
    (Event::CwdChanged, "oldCwd", "old_cwd"),
    (Event::CwdChanged, "newCwd", "new_cwd"),
    (Event::DirectoryAdded, "directory", "directory"),
    (Event::FileChanged, "filePath", "file_path"),
    (Event::FileChanged, "changeType", "event"),
    (Event::WorktreeCreate, "name", "name"),
    (Event::WorktreeRemove, "worktreePath", "worktree_path"),
    (Event::Elicitation, "mcpServerName", "mcp_server_name"),
    (Event::Elicitation, "mode", "mode"),
    (Event::Elicitation, "url", "url"),
    (Event::Elicitation, "elicitationId", "elicitation_id"),
    (Event::Elicitation, "requestedSchema", "requested_schema"),
    (Event::ElicitationResult, "mcpServerName", "mcp_server_name"),
    (Event::ElicitationResult, "mode", "mode"),
    (Event::ElicitationResult, "elicitationId", "elicitation_id"),
    (Event::ElicitationResult, "action", "action"),
    (Event::ElicitationResult, "content", "content"),
    (Event::PreModelSwitch, "fromModel", "from_model"),
    (Event::PreModelSwitch, "toModel", "to_model"),
    (Event::PostModelSwitch, "fromModel", "from_model"),
    (Event::PostModelSwitch, "toModel", "to_model"),
];

/// The own fields of `event` (see [`CLAUDE_EVENT_FIELDS`]): `(camelCase, snake_case)`.
pub fn claude_event_fields(event: Event) -> impl Iterator<Item = (&'static str, &'static str)> {
    CLAUDE_EVENT_FIELDS
        .iter()
        .filter(move |(e, _, _)| *e == event)
        .map(|(_, camel, snake)| (*camel, *snake))
}

/// Whether only Claude Code fires `event` among the agents hookhost reads (the nineteen
/// events it added): then a hook on it in Gemini CLI's, Codex's, Cursor's or Copilot CLI's
/// file never runs there, and hookhost warns.
pub fn claude_only(event: Event) -> bool {
    agent_name(Dialect::Claude, event).is_some()
        && [Dialect::Codex, Dialect::Gemini]
            .into_iter()
            .all(|d| agent_name(d, event).is_none())
        && !matches!(
            event,
            Event::Notification
                | Event::PermissionRequest
                | Event::PostToolUseFailure
                | Event::SubagentStart
                | Event::PostCompact
                | Event::StopFailure
        )
}

/// The agent whose event `name` is, when another agent's file names it and that agent does
/// not fire it: `ConfigChange` in `.gemini/settings.json` is Claude Code's.
pub fn foreign_only(name: &str) -> Option<Event> {
    name.parse::<Event>().ok().filter(|e| claude_only(*e))
}

/// Events an agent fires that have no native meaning: `hookhost hook` answers them with a
/// pass and runs nothing (on Gemini CLI's BeforeModel it puts in the prompts hooks replaced
/// in the session: `translate::gemini_model`); `hookhost run` refuses them, saying so.
pub const NO_NATIVE_MEANING: &[(Dialect, &str, &str)] = &[
    (
        Dialect::Gemini,
        "BeforeModel",
        "before each model request (hookhost's hooks do not see model requests; the adapter changes a request only to put in a prompt a hook replaced)",
    ),
    (
        Dialect::Gemini,
        "AfterModel",
        "after each model response (hookhost's hooks do not see model responses)",
    ),
    (
        Dialect::Gemini,
        "BeforeToolSelection",
        "before the model picks its tools (hookhost's hooks do not filter the tool list)",
    ),
];

/// The name a hook of dialect `d` knows `e` by; `None` when that agent has no such event
/// (its hooks then see hookhost's name). hookhost's own and ling's names are the native ones.
pub fn agent_name(d: Dialect, e: Event) -> Option<&'static str> {
    match d {
        Dialect::Native | Dialect::Ling => Some(e.as_str()),
        // Claude Code's names, for the events the agent fires (`claude_like.rs`).
        d if d.is_claude_like() => super::claude_like::fires(d, e).then(|| e.as_str()),
        _ => AGENT_EVENTS
            .iter()
            .find(|(dd, _, ee)| *dd == d && *ee == e)
            .map(|(_, name, _)| *name),
    }
}

/// The native event an event name of dialect `d` means (exact, as in the agent's files).
pub fn from_agent_name(d: Dialect, name: &str) -> Option<Event> {
    match d {
        Dialect::Native | Dialect::Ling => name.parse().ok(),
        d if d.is_claude_like() => name
            .parse()
            .ok()
            .filter(|e| super::claude_like::fires(d, *e)),
        _ => AGENT_EVENTS
            .iter()
            .chain(SECOND_NAMES)
            .find(|(dd, n, _)| *dd == d && *n == name)
            .map(|(_, _, e)| *e),
    }
}

/// The native event an agent's payload is for, from its event name and its `trigger`:
/// [`from_agent_name`], except that Gemini CLI's `PreCompress` is PreCompact only with
/// `"trigger": "manual"` (the `"auto"` one fires before every model call, compressing or
/// not). `None`: nothing hookhost fires (no hook runs; the adapter passes).
pub fn inbound(d: Dialect, name: &str, trigger: Option<&str>) -> Option<Event> {
    let event = from_agent_name(d, name)?;
    if d == Dialect::Gemini && event == Event::PreCompact && trigger != Some("manual") {
        return None;
    }
    Some(event)
}

/// An event name as `hookhost run` takes it: the native event, and the agents whose name it
/// is when it is not hookhost's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventName {
    /// The native event.
    pub event: Event,
    /// The name as given.
    pub given: String,
    /// The agents that call the event by this name, when it is not the native name
    /// (`BeforeTool`: Gemini CLI); empty for a native name.
    pub agents: Vec<Dialect>,
}

/// A name no agent uses for an event hookhost fires.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", unknown_message(.0))]
pub struct UnknownEventName(pub String);

/// Any agent's name for an event (case-insensitive): hookhost's own first, then each agent's
/// (`BeforeTool` is PreToolUse, Gemini CLI's name for it).
pub fn resolve(name: &str) -> Result<EventName, UnknownEventName> {
    if let Ok(event) = Event::parse_loose(name) {
        return Ok(EventName {
            event,
            given: name.to_string(),
            agents: Vec::new(),
        });
    }
    let rows: Vec<&(Dialect, &str, Event)> = AGENT_EVENTS
        .iter()
        .filter(|(_, n, _)| n.eq_ignore_ascii_case(name))
        .collect();
    let Some((_, _, event)) = rows.first() else {
        return Err(UnknownEventName(name.to_string()));
    };
    Ok(EventName {
        event: *event,
        given: name.to_string(),
        agents: rows
            .iter()
            .filter(|(_, _, e)| e == event)
            .map(|(d, _, _)| *d)
            .collect(),
    })
}

/// The native event, or the agents' event names, nearest to `name` by edit distance (at most
/// a third of its length, and at least one edit away from nothing).
pub fn did_you_mean(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    let candidates = Event::ALL
        .into_iter()
        .map(Event::as_str)
        .chain(AGENT_EVENTS.iter().map(|(_, n, _)| *n));
    let (best, distance) = candidates
        .map(|c| (c, strsim::levenshtein(&lower, &c.to_ascii_lowercase())))
        .min_by_key(|(_, d)| *d)?;
    (distance <= (name.chars().count() / 3).max(1)).then_some(best)
}

fn unknown_message(name: &str) -> String {
    if let Some((d, n, what)) = NO_NATIVE_MEANING
        .iter()
        .find(|(_, n, _)| n.eq_ignore_ascii_case(name))
    {
        return format!(
            "`{n}` is a {} event with no hookhost counterpart: it fires {what}; `hookhost hook --for {d}` runs no hook on it",
            d.agent()
        );
    }
    let hint = did_you_mean(name)
        .map(|n| format!("did you mean `{n}`? "))
        .unwrap_or_default();
    format!(
        "unknown event `{name}`; {hint}expected one of: {} (or another agent's name for one, e.g. BeforeTool, AfterAgent)",
        Event::ALL.map(Event::as_str).join(", ")
    )
}

// Cursor's and Copilot CLI's event names: what each means natively (their hook files and
// payloads), and the name a native event is rendered as.

/// What one Cursor event name means: the native event, and the match it carries by itself
/// (`None`: the hook's own `matcher` is the match, on the generic tool events, or there is
/// nothing to match).
pub(crate) struct CursorEvent {
    /// The native event.
    pub(crate) event: Event,
    /// The match the event carries by itself.
    pub(crate) builtin: Option<&'static str>,
    /// The hook's `matcher` is a tool-name match (preToolUse, postToolUse).
    pub(crate) tool_matcher: bool,
}

const MCP_TOOLS: &str = "mcp__.+|MCP:.+";

/// The native meaning of a Cursor event name; `None` for one hookhost does not fire.
pub(crate) fn cursor_event(name: &str) -> Option<CursorEvent> {
    let (event, builtin, tool_matcher) = match name {
        "preToolUse" => (Event::PreToolUse, None, true),
        "postToolUse" => (Event::PostToolUse, None, true),
        "beforeShellExecution" => (Event::PreToolUse, Some("Shell"), false),
        "afterShellExecution" => (Event::PostToolUse, Some("Shell"), false),
        "beforeReadFile" => (Event::PreToolUse, Some("Read"), false),
        "afterFileEdit" => (Event::PostToolUse, Some("Write|Edit"), false),
        "beforeMCPExecution" => (Event::PreToolUse, Some(MCP_TOOLS), false),
        "afterMCPExecution" => (Event::PostToolUse, Some(MCP_TOOLS), false),
        "beforeSubmitPrompt" => (Event::UserPromptSubmit, None, false),
        "stop" => (Event::Stop, None, false),
        "subagentStop" => (Event::SubagentStop, None, false),
        "sessionStart" => (Event::SessionStart, None, false),
        "sessionEnd" => (Event::SessionEnd, None, false),
        "preCompact" => (Event::PreCompact, None, false),
        // Events hookhost may fire under their Claude Code names (DESIGN §2).
        "postToolUseFailure" | "subagentStart" => {
            let mut pascal = name.to_string();
            pascal[..1].make_ascii_uppercase();
            (pascal.parse().ok()?, None, name == "postToolUseFailure")
        }
        _ => return None,
    };
    Some(CursorEvent {
        event,
        builtin,
        tool_matcher,
    })
}

/// The Cursor event a native event and tool are rendered as (the most specific one Cursor
/// has for that tool kind; `render` adds the generic fields).
pub(crate) fn cursor_event_name(event: Event, core_tool: &str) -> &'static str {
    let mcp = core_tool.starts_with("mcp__") || core_tool.starts_with("MCP:");
    match (event, core_tool) {
        (Event::PreToolUse, "bash") => "beforeShellExecution",
        (Event::PreToolUse, "read_file") => "beforeReadFile",
        (Event::PreToolUse, _) if mcp => "beforeMCPExecution",
        (Event::PreToolUse, _) => "preToolUse",
        (Event::PostToolUse, "bash") => "afterShellExecution",
        (Event::PostToolUse, "write_file" | "edit_file") => "afterFileEdit",
        (Event::PostToolUse, _) if mcp => "afterMCPExecution",
        (Event::PostToolUse, _) => "postToolUse",
        (Event::UserPromptSubmit, _) => "beforeSubmitPrompt",
        (Event::Stop, _) => "stop",
        (Event::SubagentStop, _) => "subagentStop",
        (Event::SessionStart, _) => "sessionStart",
        (Event::SessionEnd, _) => "sessionEnd",
        (Event::PreCompact, _) => "preCompact",
        #[allow(unreachable_patterns)]
        _ => "unknown",
    }
}

/// The native event of a Cursor event name, and the core tool its payload is about when the
/// name says (`beforeShellExecution`: `bash`); what `recognise` reads.
pub(crate) fn cursor_native_of(name: &str) -> Option<(Event, Option<&'static str>)> {
    let e = cursor_event(name)?;
    let tool = match name {
        "beforeShellExecution" | "afterShellExecution" => Some("bash"),
        "beforeReadFile" => Some("read_file"),
        "afterFileEdit" => Some("edit_file"),
        _ => None,
    };
    Some((e.event, tool))
}

/// Windsurf's tool kinds: the name each of its per-tool events carries as a built-in match
/// (in Windsurf's tool names, `tools.rs`), by its event names' middle part.
const WINDSURF_KINDS: [(&str, &str); 4] = [
    ("run_command", "run_command"),
    ("read_code", "read_code"),
    ("write_code", "write_code"),
    ("mcp_tool_use", MCP_TOOLS),
];

/// The native meaning of a Windsurf event name and the match it carries by itself
/// (`pre_run_command`: PreToolUse on `run_command`, Windsurf's name for `bash`); `None` for
/// one hookhost does not fire (`post_setup_worktree`,
/// `post_cascade_response_with_transcript`).
pub(crate) fn windsurf_event(name: &str) -> Option<(Event, Option<&'static str>)> {
    let event = from_agent_name(Dialect::Windsurf, name)?;
    let kind = name
        .strip_prefix("pre_")
        .or_else(|| name.strip_prefix("post_"))
        .and_then(|k| WINDSURF_KINDS.iter().find(|(n, _)| *n == k))
        .map(|(_, m)| *m);
    Some((event, kind))
}

/// The Windsurf event a native event and core tool are rendered as; `None` when Windsurf has
/// no such event (its hooks then see hookhost's name).
pub(crate) fn windsurf_event_name(event: Event, core_tool: &str) -> Option<&'static str> {
    let mcp = core_tool.starts_with("mcp__") || core_tool.starts_with("MCP:");
    Some(match (event, core_tool) {
        (Event::PreToolUse, "read_file") => "pre_read_code",
        (Event::PreToolUse, "write_file" | "edit_file") => "pre_write_code",
        (Event::PreToolUse, _) if mcp => "pre_mcp_tool_use",
        (Event::PreToolUse, _) => "pre_run_command",
        (Event::PostToolUse, "read_file") => "post_read_code",
        (Event::PostToolUse, "write_file" | "edit_file") => "post_write_code",
        (Event::PostToolUse, _) if mcp => "post_mcp_tool_use",
        (Event::PostToolUse, _) => "post_run_command",
        (e, _) => return agent_name(Dialect::Windsurf, e),
    })
}

/// The native event of a Copilot CLI event name, and the dialect its hooks are written for.
pub(crate) fn copilot_event(name: &str) -> Option<(Event, Dialect)> {
    let event = match name {
        "sessionStart" => Event::SessionStart,
        "sessionEnd" => Event::SessionEnd,
        "userPromptSubmitted" => Event::UserPromptSubmit,
        "preToolUse" => Event::PreToolUse,
        "postToolUse" => Event::PostToolUse,
        "agentStop" => Event::Stop,
        "subagentStop" => Event::SubagentStop,
        "preCompact" => Event::PreCompact,
        // Events hookhost may fire under their Claude Code names (DESIGN §2).
        "postToolUseFailure" => "PostToolUseFailure".parse().ok()?,
        "subagentStart" => "SubagentStart".parse().ok()?,
        // The VS Code compatible form: Claude Code's names and payloads.
        // Not the events only Claude Code fires: Copilot CLI never does.
        pascal if pascal.starts_with(|c: char| c.is_ascii_uppercase()) => {
            return pascal
                .parse()
                .ok()
                .filter(|e| !claude_only(*e))
                .map(|e| (e, Dialect::Claude));
        }
        _ => return None,
    };
    Some((event, Dialect::Copilot))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_agent_name_maps_both_ways() {
        for (d, name, e) in AGENT_EVENTS {
            assert_eq!(from_agent_name(*d, name), Some(*e), "{d} {name}");
            assert_eq!(agent_name(*d, *e), Some(*name), "{d} {e}");
        }
        for e in Event::ALL {
            assert_eq!(agent_name(Dialect::Claude, e), Some(e.as_str()), "{e}");
            assert_eq!(agent_name(Dialect::Native, e), Some(e.as_str()));
        }
        assert_eq!(agent_name(Dialect::Gemini, Event::PermissionRequest), None);
        assert_eq!(agent_name(Dialect::Codex, Event::Notification), None);
        assert_eq!(from_agent_name(Dialect::Gemini, "BeforeModel"), None);
        for (d, name, e) in SECOND_NAMES {
            assert_eq!(from_agent_name(*d, name), Some(*e), "{d} {name}");
            assert_ne!(agent_name(*d, *e), Some(*name), "{d} {e}");
        }
    }

    #[test]
    fn geminis_automatic_pre_compress_is_no_compaction() {
        let g = Dialect::Gemini;
        assert_eq!(inbound(g, "PreCompress", Some("auto")), None);
        assert_eq!(inbound(g, "PreCompress", None), None);
        assert_eq!(
            inbound(g, "PreCompress", Some("manual")),
            Some(Event::PreCompact)
        );
        assert_eq!(
            inbound(Dialect::Claude, "PreCompact", Some("auto")),
            Some(Event::PreCompact)
        );
        assert_eq!(inbound(g, "AfterModel", None), None);
    }

    #[test]
    fn run_takes_any_agents_name() {
        let r = resolve("BeforeTool").unwrap();
        assert_eq!(
            (r.event, r.agents.as_slice()),
            (Event::PreToolUse, &[Dialect::Gemini][..])
        );
        let r = resolve("afteragent").unwrap();
        assert_eq!(r.event, Event::Stop);
        let r = resolve("notification").unwrap();
        assert_eq!((r.event, r.agents.len()), (Event::Notification, 0));
        assert_eq!(resolve("PreCompress").unwrap().event, Event::PreCompact);
    }

    #[test]
    fn unknown_names_get_the_nearest_and_the_list() {
        let e = resolve("Notificaton").unwrap_err().to_string();
        assert!(e.starts_with("unknown event `Notificaton`; did you mean `Notification`? expected one of: SessionStart,"), "{e}");
        let e = resolve("BeforTool").unwrap_err().to_string();
        assert!(e.contains("did you mean `BeforeTool`?"), "{e}");
        let e = resolve("xyz").unwrap_err().to_string();
        assert!(!e.contains("did you mean"), "{e}");
        let e = resolve("BeforeModel").unwrap_err().to_string();
        assert!(
            e.contains("Gemini CLI event with no hookhost counterpart"),
            "{e}"
        );
    }
}
