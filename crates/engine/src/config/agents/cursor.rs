//! Cursor's hook file (`.cursor/hooks.json`, `~/.cursor/hooks.json`) -> native hook objects,
//! as `settings.rs` does for Claude Code's. Source: cursor.com/docs/hooks (also
//! cursor.com/docs/hooks.md) and cursor.com/docs/reference/third-party-hooks.
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
//! kind (a guard runs too often rather than never); `loop_limit` and prompt hooks are
//! warnings.

use super::events::{CursorEvent, cursor_event};
use super::{ForeignFile, ForeignHook, is_adapter};
use crate::Dialect;
use crate::event::Event;
use crate::payload::json_type_name;
use crate::wire::settings::{CursorEntry, NativeHookObject, VersionedRoot, read};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// Reads a Cursor hooks file into `f`.
pub(super) fn read_cursor(root: &Value, f: &mut ForeignFile) {
    let Some(events) = cursor_events(root, f) else {
        return;
    };
    let mut per_event: BTreeMap<Event, usize> = BTreeMap::new();
    for (name, list) in &events {
        let Some(meaning) = cursor_event(name) else {
            f.warnings.push((
                Some(name.clone()),
                format!("hookhost does not fire Cursor's {name}; its hooks do not run"),
            ));
            continue;
        };
        let Value::Array(list) = list else {
            f.problems.push((
                Some(name.clone()),
                format!(
                    "expected a list of hooks, got {}; write \"{name}\": [{{\"command\": \"...\"}}]",
                    json_type_name(list)
                ),
            ));
            continue;
        };
        for (i, entry) in list.iter().enumerate() {
            let label = format!("{name}[{i}]");
            if let Some(hook) = cursor_hook(name, &meaning, entry, &label, f) {
                let index = per_event.entry(meaning.event).or_default();
                f.hooks.push(ForeignHook {
                    event: meaning.event,
                    index: *index,
                    label,
                    hook,
                    position: (i, 0),
                    switch_id: None,
                    off: None,
                });
                *index += 1;
            }
        }
    }
}

/// The file's `hooks` object; `None` when it has none or is not Cursor's format (recorded).
fn cursor_events(root: &Value, f: &mut ForeignFile) -> Option<Map<String, Value>> {
    let Value::Object(root) = root else {
        f.problems.push((
            None,
            format!(
                "the file holds {}, expected an object like {{\"version\": 1, \"hooks\": {{\"beforeShellExecution\": [...]}}}}",
                json_type_name(root)
            ),
        ));
        return None;
    };
    let top: VersionedRoot = read(root);
    match &top.version {
        None => f.warnings.push((
            None,
            "no \"version\": Cursor's hooks.json says \"version\": 1; hookhost reads it as version 1".into(),
        )),
        Some(v) if v.as_u64() == Some(1) => {}
        Some(v) => {
            f.problems.push((
                None,
                format!("\"version\" is {v}; Cursor's hooks.json format is \"version\": 1"),
            ));
            return None;
        }
    }
    for key in top.other.keys() {
        f.warnings.push((
            None,
            format!("`{key}` is not implemented by hookhost and is ignored"),
        ));
    }
    match top.hooks {
        None => None,
        Some(Value::Object(m)) => Some(m),
        Some(other) => {
            f.problems.push((
                None,
                format!(
                    "\"hooks\" is {}, expected an object mapping Cursor's event names to lists of hooks",
                    json_type_name(&other)
                ),
            ));
            None
        }
    }
}

/// One Cursor hook as a native object; `None` when it is skipped (recorded).
fn cursor_hook(
    name: &str,
    meaning: &CursorEvent,
    entry: &Value,
    label: &str,
    f: &mut ForeignFile,
) -> Option<Value> {
    let at = Some(label.to_string());
    let Value::Object(obj) = entry else {
        f.problems.push((
            at,
            format!(
                "a hook is an object like {{\"command\": \"./hooks/check.sh\"}}, got {}",
                json_type_name(entry)
            ),
        ));
        return None;
    };
    let e: CursorEntry = read(obj);
    let command = cursor_command(&e, label, f)?;
    let mut out = NativeHookObject {
        dialect: Dialect::Cursor,
        command: Some(Value::String(command)),
        description: Some(format!("Cursor {name}")),
        ..NativeHookObject::default()
    };
    out.timeout = seconds(e.timeout.as_ref(), label, f);
    match &e.fail_closed {
        None | Some(Value::Null | Value::Bool(false)) => {}
        Some(Value::Bool(true)) => out.on_error = Some(Value::String("block".into())),
        Some(v) => f.problems.push((
            at.clone(),
            format!("`failClosed` must be true or false, got {v}"),
        )),
    }
    out.matcher = cursor_matcher(name, meaning, e.matcher.as_ref(), label, f);
    if e.loop_limit.as_ref().is_some_and(|v| !v.is_null()) {
        f.warnings.push((
            at.clone(),
            "`loop_limit` is not implemented by hookhost and is ignored".into(),
        ));
    }
    for key in e.other.keys() {
        f.warnings.push((
            at.clone(),
            format!("`{key}` is not implemented by hookhost and is ignored"),
        ));
    }
    Some(out.into_value())
}

/// The command a hook runs; `None` when it runs none hookhost can (recorded).
fn cursor_command(e: &CursorEntry, label: &str, f: &mut ForeignFile) -> Option<String> {
    let at = Some(label.to_string());
    match e.kind.as_ref().map(|k| k.as_str()) {
        None | Some(Some("command")) => {}
        Some(Some(kind)) => {
            f.warnings.push((
                at,
                format!(
                    "hooks of type {kind:?} are not implemented by hookhost; this one does not run"
                ),
            ));
            return None;
        }
        Some(None) => {
            f.problems
                .push((at, "`type` must be \"command\" or \"prompt\"".into()));
            return None;
        }
    }
    match &e.command {
        Some(Value::String(c)) if is_adapter(c) => {
            f.warnings.push((
                at,
                "this is hookhost's own adapter (`hookhost hook`); skipped, as hookhost runs the native hooks directly".into(),
            ));
            None
        }
        Some(Value::String(c)) if !c.trim().is_empty() => Some(c.clone()),
        other => {
            f.problems.push((
                at,
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
    name: &str,
    meaning: &CursorEvent,
    matcher: Option<&Value>,
    label: &str,
    f: &mut ForeignFile,
) -> Option<Value> {
    let given = match matcher {
        None | Some(Value::Null) => None,
        Some(Value::String(m)) if m.is_empty() || m == "*" => None,
        Some(Value::String(m)) => Some(m.clone()),
        Some(v) => {
            f.problems.push((
                Some(label.to_string()),
                format!("`matcher` must be a string such as \"Shell\" or \"Read|Write\", got {v}"),
            ));
            None
        }
    };
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

/// A timeout in seconds as milliseconds; `None` (with a problem recorded) when it is not a
/// positive number.
// Positive (checked) and `as` saturates: a huge timeout becomes u64::MAX, which the config's
// bound then refuses.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub(super) fn seconds(t: Option<&Value>, label: &str, f: &mut ForeignFile) -> Option<Value> {
    let t = t.filter(|t| !t.is_null())?;
    match t.as_f64() {
        Some(s) if s > 0.0 => Some(Value::from((s * 1000.0).round() as u64)),
        _ => {
            f.problems.push((
                Some(label.to_string()),
                format!("`timeout` must be a positive number of seconds, got {t}"),
            ));
            None
        }
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
        assert_eq!(f.hooks.len(), 1);
        assert_eq!(f.hooks[0].hook["match"], "Shell");
        assert_eq!(f.warnings.len(), 3, "{:?}", f.warnings);
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
