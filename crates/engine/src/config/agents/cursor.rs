//! Cursor's hook file (`.cursor/hooks.json`, `~/.cursor/hooks.json`) -> native hook objects,
//! read by the shared reader (`reader.rs`) from its table (`format::CURSOR`); this file reads
//! the fields only a Cursor hook has. Its event names are `events.rs`'s. Source:
//! cursor.com/docs/hooks (also cursor.com/docs/hooks.md) and
//! cursor.com/docs/reference/third-party-hooks.
//!
//! ```json
//! {"version": 1, "hooks": {"beforeShellExecution": [{"command": "./guard.sh", "timeout": 30,
//!   "failClosed": true}], "stop": [{"command": "./check.sh", "loop_limit": 3}]}}
//! ```
//!
//! Each hook is `{command, type, timeout (s), matcher, failClosed, loop_limit}`. Cursor's
//! events are per tool kind; each becomes a native event and a built-in match on the core
//! tool it stands for (by Cursor's name, which the alias map sees through):
//!
//! | Cursor | native | match |
//! |---|---|---|
//! | `preToolUse`, `postToolUse` | PreToolUse, PostToolUse | the hook's `matcher` (Cursor's tool names: `Shell`, `Read`, `Write`, `Edit`, ...) |
//! | `beforeShellExecution`, `afterShellExecution` | PreToolUse, PostToolUse | `Shell` (`bash`) |
//! | `beforeReadFile` | PreToolUse | `Read` (`read_file`) |
//! | `afterFileEdit` | PostToolUse | `Write\|Edit` (`write_file`, `edit_file`) |
//! | `beforeMCPExecution`, `afterMCPExecution` | PreToolUse, PostToolUse | MCP tools (`mcp__*`, `MCP:*`) |
//! | `beforeSubmitPrompt` | UserPromptSubmit | |
//! | `stop`, `subagentStop` | Stop, SubagentStop | |
//! | `sessionStart`, `sessionEnd`, `preCompact` | SessionStart, SessionEnd, PreCompact | |
//!
//! Cursor's other events (`afterAgentResponse`, `afterAgentThought`, the Tab hooks, ...) have
//! no native counterpart: a warning, their hooks do not run. `failClosed: true` is
//! `onError: "block"`; a `matcher` on a per-tool-kind event (Cursor matches it against the
//! command or path) is not implemented: a warning, and the hook runs for every call of its
//! kind (a guard runs too often rather than never); `loop_limit` is a warning. A prompt hook
//! (`{"type": "prompt", "prompt": "..."}`) asks the model of the user's own file, as a native
//! `prompt` hook.

use super::ForeignFile;
use super::format::{At, Format, Read};
use super::reader::{
    self, ignored_keys, model_hook, native, skipped_adapter, timeout, unknown_type,
};
use crate::Dialect;
use crate::payload::json_type_name;
use hookhost_protocol::wire::settings::{CursorEntry, NativeHookObject, read};
use serde_json::{Map, Value};
use std::path::Path;

/// One Cursor hook as a native object; `None` when it is skipped (recorded).
pub(super) fn hook(
    fmt: &Format,
    at: &At,
    obj: &Map<String, Value>,
    f: &mut ForeignFile,
) -> Option<Read> {
    let (name, label) = (at.name, at.label);
    let mut e: CursorEntry = read(obj);
    let mut out = NativeHookObject {
        description: Some(format!("Cursor {name}")),
        ..native(Dialect::Cursor)
    };
    // A prompt hook asks the user's own model (`model_hook`).
    if e.kind.as_ref().and_then(Value::as_str) == Some("prompt") {
        if !model_hook("prompt", &mut out, &mut e.other, label, f) {
            return None;
        }
    } else {
        out.command = Some(Value::String(command(&e, label, f)?));
    }
    out.timeout = e
        .timeout
        .as_ref()
        .filter(|t| !t.is_null())
        .and_then(|t| timeout(fmt, t, label, f));
    match &e.fail_closed {
        None | Some(Value::Null | Value::Bool(false)) => {}
        Some(Value::Bool(true)) => out.on_error = Some(Value::String("block".into())),
        Some(v) => f.problems.push((
            Some(label.to_string()),
            format!("`failClosed` must be true or false, got {v}"),
        )),
    }
    out.matcher = cursor_matcher(fmt, at, e.matcher.as_ref(), f);
    if e.loop_limit.as_ref().is_some_and(|v| !v.is_null()) {
        f.warnings.push((
            Some(label.to_string()),
            "`loop_limit` is not implemented by hookhost and is ignored".into(),
        ));
    }
    ignored_keys(&e.other, Some(label), f);
    Some(Read {
        hook: out.into_value(),
        switch_id: None,
        off: None,
    })
}

/// The command a hook runs; `None` when it runs none hookhost can (recorded).
fn command(e: &CursorEntry, label: &str, f: &mut ForeignFile) -> Option<String> {
    match e.kind.as_ref().map(|k| k.as_str()) {
        None | Some(Some("command")) => {}
        Some(Some(kind)) => {
            unknown_type(kind, label, f);
            return None;
        }
        Some(None) => {
            f.problems.push((
                Some(label.to_string()),
                "`type` must be \"command\" or \"prompt\"".into(),
            ));
            return None;
        }
    }
    match &e.command {
        Some(Value::String(c)) if skipped_adapter(c, label, f) => None,
        Some(Value::String(c)) if !c.trim().is_empty() => Some(c.clone()),
        other => {
            f.problems.push((
                Some(label.to_string()),
                format!(
                    "a hook needs `command`, a shell command such as \"./hooks/check.sh\", got {}",
                    other.as_ref().map_or("nothing", json_type_name)
                ),
            ));
            None
        }
    }
}

/// The native `match` of a hook: the event's built-in one, else (preToolUse, postToolUse)
/// the hook's `matcher`.
fn cursor_matcher(
    fmt: &Format,
    at: &At,
    matcher: Option<&Value>,
    f: &mut ForeignFile,
) -> Option<Value> {
    let (name, meaning, label) = (at.name, at.meaning, at.label);
    let given = reader::matcher(fmt, matcher, label, f).ok().flatten();
    if let Some(m) = &given
        && !meaning.tool_matcher
    {
        f.warnings.push((
            Some(label.to_string()),
            format!(
                "`matcher` {m:?} on {name} is not implemented by hookhost: the hook runs {}",
                if meaning.builtin.is_some() {
                    "for every call of its kind"
                } else {
                    "every time"
                }
            ),
        ));
    }
    match meaning.builtin {
        Some(b) => Some(Value::String(b.to_string())),
        None => given.filter(|_| meaning.tool_matcher).map(Value::String),
    }
}

/// Cursor runs a user file's hooks in the file's directory (`~/.cursor`): those without a
/// `cwd` get it.
pub(super) fn run_in(f: &mut ForeignFile, dir: &Path) {
    for h in &mut f.hooks {
        if let Value::Object(obj) = &mut h.hook {
            obj.entry("cwd")
                .or_insert_with(|| Value::String(dir.to_string_lossy().into_owned()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::events::{cursor_event_name as event_name, cursor_native_of as native_of};
    use super::super::read_settings;
    use super::*;
    use crate::event::Event;
    use serde_json::json;

    /// The example of cursor.com/docs/hooks, with one hook per kind of event.
    const DOCUMENTED: &str = r#"{
      "version": 1,
      "hooks": {
        "beforeShellExecution": [{"command": "./hooks/audit.sh", "timeout": 30, "failClosed": true}],
        "afterFileEdit": [{"command": "./hooks/format.sh"}],
        "preToolUse": [{"command": "./hooks/tools.sh", "matcher": "Shell|Read"}],
        "beforeSubmitPrompt": [{"command": "./hooks/prompt.sh"}],
        "stop": [{"command": "./hooks/stop.sh", "loop_limit": 3}],
        "afterAgentResponse": [{"command": "./hooks/log.sh"}]
      }
    }"#;

    #[test]
    fn the_documented_file_becomes_native_hooks() {
        let f = read_settings(Dialect::Cursor, DOCUMENTED);
        assert!(f.problems.is_empty(), "{:?}", f.problems);
        let hooks: Vec<(Event, Value)> =
            f.hooks.iter().map(|h| (h.event, h.hook.clone())).collect();
        assert_eq!(
            hooks,
            vec![
                (
                    Event::PostToolUse,
                    json!({"dialect": "cursor", "command": "./hooks/format.sh",
                           "match": "Write|Edit", "description": "Cursor afterFileEdit"})
                ),
                (
                    Event::PreToolUse,
                    json!({"dialect": "cursor", "command": "./hooks/audit.sh", "match": "Shell",
                           "timeout": 30000, "description": "Cursor beforeShellExecution",
                           "onError": "block"})
                ),
                (
                    Event::UserPromptSubmit,
                    json!({"dialect": "cursor", "command": "./hooks/prompt.sh",
                           "description": "Cursor beforeSubmitPrompt"})
                ),
                (
                    Event::PreToolUse,
                    json!({"dialect": "cursor", "command": "./hooks/tools.sh",
                           "match": "Shell|Read", "description": "Cursor preToolUse"})
                ),
                (
                    Event::Stop,
                    json!({"dialect": "cursor", "command": "./hooks/stop.sh",
                           "description": "Cursor stop"})
                ),
            ]
        );
        // Both PreToolUse hooks are numbered in file order.
        let pre: Vec<usize> = f
            .hooks
            .iter()
            .filter(|h| h.event == Event::PreToolUse)
            .map(|h| h.index)
            .collect();
        assert_eq!(pre, vec![0, 1]);
        let warnings: Vec<&str> = f.warnings.iter().map(|(_, w)| w.as_str()).collect();
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].contains("afterAgentResponse"), "{warnings:?}");
        assert!(warnings[1].contains("loop_limit"), "{warnings:?}");
    }

    #[test]
    fn wrong_shapes_are_errors_with_their_place() {
        let problems = |text: &str| read_settings(Dialect::Cursor, text).problems;
        assert!(
            problems(r#"{"version": 2, "hooks": {}}"#)[0]
                .1
                .contains("\"version\": 1")
        );
        let p = problems(r#"{"version": 1, "hooks": {"stop": {"command": "x"}}}"#);
        assert_eq!(p[0].0.as_deref(), Some("stop"));
        let p = problems(r#"{"version": 1, "hooks": {"stop": [{"command": 5}]}}"#);
        assert_eq!(p[0].0.as_deref(), Some("stop[0]"));
        let p = problems(r#"{"version": 1, "hooks": {"stop": [{"command": "x", "timeout": -1}]}}"#);
        assert!(p[0].1.contains("seconds"), "{p:?}");
        let p = problems(
            r#"{"version": 1, "hooks": {"preToolUse": [{"command": "x", "failClosed": "yes"}]}}"#,
        );
        assert!(p[0].1.contains("failClosed"), "{p:?}");
        assert!(problems("[1]")[0].1.contains("expected an object"));
    }

    #[test]
    fn a_matcher_on_a_per_kind_event_is_a_warning_and_the_hook_still_guards() {
        let f = read_settings(
            Dialect::Cursor,
            r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "g", "matcher": "rm|curl"}],
                "sessionStart": [{"type": "prompt", "prompt": "p"}],
                "beforeMCPExecution": [{"command": "hookhost hook --for cursor"}]}}"#,
        );
        assert_eq!(f.hooks.len(), 2);
        let shell = f
            .hooks
            .iter()
            .find(|h| h.hook.get("command").is_some())
            .unwrap();
        assert_eq!(shell.hook["match"], "Shell");
        // The prompt hook asks the user's model.
        let prompt = f
            .hooks
            .iter()
            .find(|h| h.hook.get("prompt").is_some())
            .unwrap();
        assert_eq!(prompt.hook["prompt"], "p");
        assert_eq!(f.warnings.len(), 2, "{:?}", f.warnings);
    }

    #[test]
    fn user_hooks_run_in_the_files_directory() {
        let f = super::super::read_settings_at(
            Dialect::Cursor,
            r#"{"version": 1, "hooks": {"stop": [{"command": "./hooks/s.sh"}]}}"#,
            Path::new("/home/u/.cursor/hooks.json"),
            crate::config::Scope::Global,
        );
        assert_eq!(f.hooks[0].hook["cwd"], "/home/u/.cursor");
        let f = super::super::read_settings_at(
            Dialect::Cursor,
            r#"{"version": 1, "hooks": {"stop": [{"command": "./hooks/s.sh"}]}}"#,
            Path::new("/p/.cursor/hooks.json"),
            crate::config::Scope::Project,
        );
        assert!(f.hooks[0].hook.get("cwd").is_none());
    }

    #[test]
    fn events_and_tools_map_both_ways() {
        assert_eq!(
            event_name(Event::PreToolUse, "bash"),
            "beforeShellExecution"
        );
        assert_eq!(event_name(Event::PostToolUse, "edit_file"), "afterFileEdit");
        assert_eq!(
            event_name(Event::PreToolUse, "mcp__db__query"),
            "beforeMCPExecution"
        );
        assert_eq!(event_name(Event::PreToolUse, "write_file"), "preToolUse");
        assert_eq!(event_name(Event::Stop, ""), "stop");
        assert_eq!(
            native_of("beforeShellExecution"),
            Some((Event::PreToolUse, Some("bash")))
        );
        assert!(native_of("afterAgentThought").is_none());
    }
}
