//! One table per agent: what differs between the hook files of Claude Code, Gemini CLI, Codex,
//! Cursor and GitHub Copilot CLI, as data for the one reader (`reader.rs`): the file's shape,
//! what its event names mean, the examples its messages show, the units of its timeouts, its
//! wildcards. The fields an agent's hook has that no other has are read by that agent's
//! [`Format::hook`] (`nested.rs`, `cursor.rs`, `copilot.rs`); ling's list of rules is read by
//! `ling.rs`. This module reads nothing itself.

use super::events::{self, cursor_event};
use super::{ForeignFile, nested};
use crate::Dialect;
use crate::event::Event;
use serde_json::{Map, Value};

/// What an event name of an agent's file means.
#[derive(Debug, Clone, Copy)]
pub(super) struct Meaning {
    /// The native event.
    pub(super) event: Event,
    /// The dialect its hooks are written for (Copilot CLI's PascalCase events: `claude`).
    pub(super) dialect: Dialect,
    /// The match the event carries by itself (Cursor's `beforeShellExecution`: `Shell`).
    pub(super) builtin: Option<&'static str>,
    /// The hook's `matcher` is a tool-name match.
    pub(super) tool_matcher: bool,
}

/// What a file with an event name hookhost does not fire gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum UnknownEvent {
    /// A warning, always: "hookhost does not fire Cursor's afterAgentResponse".
    Warn,
    /// A warning for another agent's event (or any capitalised name); an error for a name that
    /// looks like a typo (the event names of these files are case-sensitive).
    WarnOrTypo,
}

/// How an event's list is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Layout {
    /// `Event: [{"matcher": ..., "hooks": [hook, ...]}]` (Claude Code, Gemini CLI, Codex).
    Groups,
    /// `event: [hook, ...]` (Cursor, Copilot CLI).
    Hooks,
}

/// The unit of a hook's `timeout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    Seconds,
    Milliseconds,
    /// Qwen Code 0.24's: seconds, except that a value of 1000 or more keeps its older meaning,
    /// milliseconds (seen in its bundled source by the real-agents tier).
    SecondsUnlessThousands,
}

impl Unit {
    /// As messages name it.
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Unit::Seconds => "seconds",
            Unit::Milliseconds => "milliseconds",
            Unit::SecondsUnlessThousands => "seconds (milliseconds from 1000 up)",
        }
    }
}

/// The `"version"` a file must say, and how its messages put it.
#[derive(Debug)]
pub(super) struct Version {
    /// "Cursor's hooks.json says": for a file without one.
    pub(super) says: &'static str,
    /// "Cursor's hooks.json format is": for a wrong one.
    pub(super) format: &'static str,
    /// After the wrong-version error (" (it rejects the whole file)").
    pub(super) rejects: &'static str,
}

/// Where a hook is, as the agent-specific reader gets it.
pub(super) struct At<'a> {
    /// The event name as the file has it.
    pub(super) name: &'a str,
    /// What it means.
    pub(super) meaning: Meaning,
    /// `PreToolUse[0].hooks[1]`, `stop[0]`.
    pub(super) label: &'a str,
    /// The matcher of its group (the `Groups` layout).
    pub(super) group_matcher: Option<&'a str>,
}

/// One hook as read: its native object, and how the agent's switches name it.
pub(super) struct Read {
    pub(super) hook: Value,
    pub(super) switch_id: Option<String>,
    pub(super) off: Option<String>,
}

/// The fields of a hook object an agent's reader reads (the shared ones through `reader.rs`).
pub(super) type HookReader =
    fn(&Format, &At, &Map<String, Value>, &mut ForeignFile) -> Option<Read>;

/// One agent's hook file format.
pub(super) struct Format {
    pub(super) dialect: Dialect,
    /// "Cursor's " in "hookhost does not fire Cursor's x", "expected an object mapping
    /// Cursor's event names ..."; empty where the names are Claude Code's.
    pub(super) whose: &'static str,
    /// The file's root, for "the file holds a list, expected an object like ...".
    pub(super) root_example: &'static str,
    /// The `"version"` the file must say (`None`: it says none).
    pub(super) version: Option<Version>,
    /// `"disableAllHooks": true` turns the file off (Copilot CLI); else it is the switches'.
    pub(super) file_switch: bool,
    /// Top-level keys the format has besides `hooks` are reported (a file of hooks only);
    /// else they are none of hookhost's business (a settings file).
    pub(super) report_top_keys: bool,
    /// What an event name means (`None`: nothing hookhost fires).
    pub(super) event: fn(&str) -> Option<Meaning>,
    pub(super) unknown_event: UnknownEvent,
    /// Keys of `hooks` that are the agent's switches in the wrong place (Gemini CLI's).
    pub(super) misplaced_switches: &'static [&'static str],
    pub(super) layout: Layout,
    /// "matcher groups", "hooks": what an event's list holds.
    pub(super) items: &'static str,
    /// One item, for "write \"stop\": [ITEM]".
    pub(super) item_example: &'static str,
    /// One list that is not a list rejects the whole file (Copilot CLI's rule), said so.
    pub(super) list_rejects_file: Option<&'static str>,
    /// One hook, for "a hook is an object like ...".
    pub(super) hook_example: &'static str,
    /// Matchers that match everything.
    pub(super) match_any: &'static [&'static str],
    /// "a string such as \"Bash\" or \"Edit|Write\"": what a `matcher` must be.
    pub(super) matcher_hint: &'static str,
    pub(super) timeout_unit: Unit,
    /// The example of an `http` hook's `url` (`None`: the agent has no http hooks).
    pub(super) url_example: Option<&'static str>,
    /// The fields of a hook the agent has and the others do not.
    pub(super) hook: HookReader,
}

/// An event of Claude Code's names (also Codex's files), as hookhost fires it.
fn claude_event(name: &str) -> Option<Meaning> {
    name.parse().ok().map(|event| plain(event, Dialect::Claude))
}

fn codex_event(name: &str) -> Option<Meaning> {
    name.parse().ok().map(|event| plain(event, Dialect::Codex))
}

fn gemini_event(name: &str) -> Option<Meaning> {
    events::from_agent_name(Dialect::Gemini, name).map(|event| plain(event, Dialect::Gemini))
}

fn cursor_meaning(name: &str) -> Option<Meaning> {
    cursor_event(name).map(|e| Meaning {
        event: e.event,
        dialect: Dialect::Cursor,
        builtin: e.builtin,
        tool_matcher: e.tool_matcher,
    })
}

fn copilot_meaning(name: &str) -> Option<Meaning> {
    events::copilot_event(name).map(|(event, dialect)| plain(event, dialect))
}

/// An event that carries no match of its own.
fn plain(event: Event, dialect: Dialect) -> Meaning {
    Meaning {
        event,
        dialect,
        builtin: None,
        tool_matcher: event.takes_tool_matcher(),
    }
}

const NESTED_ROOT: &str = "{\"hooks\": {\"PreToolUse\": [...]}}";
const NESTED_ITEM: &str =
    "{\"matcher\": \"...\", \"hooks\": [{\"type\": \"command\", \"command\": \"...\"}]}";
const NESTED_HOOK: &str = "{\"type\": \"command\", \"command\": \"...\"}";
const NESTED_MATCHER: &str = "a string such as \"Bash\" or \"Edit|Write\"";

/// Claude Code's `settings.json`.
pub(super) const CLAUDE: Format = Format {
    dialect: Dialect::Claude,
    whose: "",
    root_example: NESTED_ROOT,
    version: None,
    file_switch: false,
    report_top_keys: false,
    event: claude_event,
    unknown_event: UnknownEvent::WarnOrTypo,
    misplaced_switches: &[],
    layout: Layout::Groups,
    items: "matcher groups",
    item_example: NESTED_ITEM,
    list_rejects_file: None,
    hook_example: NESTED_HOOK,
    match_any: &["", "*"],
    matcher_hint: NESTED_MATCHER,
    timeout_unit: Unit::Seconds,
    url_example: Some("http://..."),
    hook: nested::hook,
};

/// Gemini CLI's `settings.json`: Claude Code's shape, its own event names, milliseconds, no
/// http hooks.
pub(super) const GEMINI: Format = Format {
    dialect: Dialect::Gemini,
    event: gemini_event,
    misplaced_switches: &["enabled", "disabled", "notifications"],
    timeout_unit: Unit::Milliseconds,
    url_example: None,
    ..CLAUDE
};

/// Codex's `hooks.json` (and the `[hooks]` tables of its `config.toml`).
pub(super) const CODEX: Format = Format {
    dialect: Dialect::Codex,
    event: codex_event,
    ..CLAUDE
};

/// Cursor's `hooks.json`.
pub(super) const CURSOR: Format = Format {
    dialect: Dialect::Cursor,
    whose: "Cursor's ",
    root_example: "{\"version\": 1, \"hooks\": {\"beforeShellExecution\": [...]}}",
    version: Some(Version {
        says: "Cursor's hooks.json says",
        format: "Cursor's hooks.json format is",
        rejects: "",
    }),
    file_switch: false,
    report_top_keys: true,
    event: cursor_meaning,
    unknown_event: UnknownEvent::Warn,
    misplaced_switches: &[],
    layout: Layout::Hooks,
    items: "hooks",
    item_example: "{\"command\": \"...\"}",
    list_rejects_file: None,
    hook_example: "{\"command\": \"./hooks/check.sh\"}",
    match_any: &["", "*"],
    matcher_hint: "a string such as \"Shell\" or \"Read|Write\"",
    timeout_unit: Unit::Seconds,
    url_example: None,
    hook: super::cursor::hook,
};

/// GitHub Copilot CLI's hook files.
pub(super) const COPILOT: Format = Format {
    dialect: Dialect::Copilot,
    whose: "Copilot CLI's ",
    root_example: "{\"version\": 1, \"hooks\": {\"preToolUse\": [...]}}",
    version: Some(Version {
        says: "Copilot CLI's hook files say",
        format: "Copilot CLI's hook file format is",
        rejects: " (it rejects the whole file)",
    }),
    file_switch: true,
    report_top_keys: true,
    event: copilot_meaning,
    unknown_event: UnknownEvent::Warn,
    misplaced_switches: &[],
    layout: Layout::Hooks,
    items: "hooks",
    item_example: "{\"type\": \"command\", \"bash\": \"...\"}",
    list_rejects_file: Some(" (Copilot CLI rejects the whole file)"),
    hook_example: "{\"type\": \"command\", \"bash\": \"./scripts/check.sh\"}",
    match_any: &["", "*", "**"],
    matcher_hint: "a regex string such as \"bash|edit\"",
    timeout_unit: Unit::Seconds,
    url_example: Some("https://..."),
    hook: super::copilot::hook,
};

fn windsurf_meaning(name: &str) -> Option<Meaning> {
    events::windsurf_event(name).map(|(event, builtin)| Meaning {
        event,
        dialect: Dialect::Windsurf,
        builtin,
        tool_matcher: false,
    })
}

/// Windsurf's Cascade `hooks.json`: Cursor's layout (`event: [hook, ...]`), no version, no
/// matcher (each event is a tool kind), no timeout.
pub(super) const WINDSURF: Format = Format {
    dialect: Dialect::Windsurf,
    whose: "Windsurf's ",
    root_example: "{\"hooks\": {\"pre_run_command\": [...]}}",
    version: None,
    file_switch: false,
    report_top_keys: true,
    event: windsurf_meaning,
    unknown_event: UnknownEvent::Warn,
    misplaced_switches: &[],
    layout: Layout::Hooks,
    items: "hooks",
    item_example: "{\"command\": \"...\"}",
    list_rejects_file: None,
    hook_example: "{\"command\": \"python3 .windsurf/guard.py\", \"show_output\": true}",
    match_any: &[""],
    matcher_hint: "absent (Windsurf's events are per tool kind)",
    timeout_unit: Unit::Seconds,
    url_example: None,
    hook: super::windsurf::hook,
};

/// An event name of a Claude-like agent's file: Claude Code's name of an event that agent
/// fires (`claude_like.rs`).
fn like_event(d: Dialect, name: &str) -> Option<Meaning> {
    events::from_agent_name(d, name).map(|event| plain(event, d))
}

/// A Claude-like agent's file: Claude Code's table with its row's unit and http hooks
/// (`claude_like.rs`); one line per agent.
const fn like(d: Dialect, event: fn(&str) -> Option<Meaning>) -> Format {
    let row = super::claude_like::row(d);
    Format {
        dialect: d,
        event,
        timeout_unit: row.timeout_unit,
        url_example: if row.http { Some("http://...") } else { None },
        ..CLAUDE
    }
}

const QWEN: Format = like(Dialect::Qwen, |n| like_event(Dialect::Qwen, n));
const QODER: Format = like(Dialect::Qoder, |n| like_event(Dialect::Qoder, n));
const GROK: Format = like(Dialect::Grok, |n| like_event(Dialect::Grok, n));
const DROID: Format = like(Dialect::Droid, |n| like_event(Dialect::Droid, n));
const AUGGIE: Format = like(Dialect::Auggie, |n| like_event(Dialect::Auggie, n));
const VSCODE: Format = like(Dialect::Vscode, |n| like_event(Dialect::Vscode, n));
/// goose: a regex matcher, where `*` is no wildcard (goose skips such a rule).
const GOOSE: Format = Format {
    match_any: &[""],
    ..like(Dialect::Goose, |n| like_event(Dialect::Goose, n))
};

/// The format of dialect `d`'s hook files (`None`: ling's list of rules, native, Cline's
/// files (`cline.rs`), or opencode, whose hooks are JS plugins and which has no hook file:
/// nothing reads one).
pub(super) fn of(d: Dialect) -> Option<&'static Format> {
    match d {
        Dialect::Claude => Some(&CLAUDE),
        Dialect::Gemini => Some(&GEMINI),
        Dialect::Codex => Some(&CODEX),
        Dialect::Cursor => Some(&CURSOR),
        Dialect::Copilot => Some(&COPILOT),
        Dialect::Qwen => Some(&QWEN),
        Dialect::Qoder => Some(&QODER),
        Dialect::Grok => Some(&GROK),
        Dialect::Droid => Some(&DROID),
        Dialect::Auggie => Some(&AUGGIE),
        Dialect::Vscode => Some(&VSCODE),
        Dialect::Goose => Some(&GOOSE),
        Dialect::Windsurf => Some(&WINDSURF),
        Dialect::Native | Dialect::Ling | Dialect::Opencode | Dialect::Cline => None,
    }
}
