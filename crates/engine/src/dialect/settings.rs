//! Other agents' hook files -> native hook objects.
//!
//! Claude Code (`settings.json`), Gemini CLI (`settings.json`) and Codex (`hooks.json`) nest
//! hooks as `{"hooks": {Event: [{"matcher": ..., "hooks": [{"type": "command", ...}]}]}}`;
//! ling lists rules `[{event, matcher, handler: {type, command | url, ...}, async}]`. Each
//! hook becomes the native object it means (`command`/`url`, `match`, `timeout` in ms,
//! `"dialect"`), which the native reader then validates like any other: one validator for
//! every hook. Keys the agent accepts but hookhost does not implement are warnings (a real
//! settings file must never stop the agent); a file that is not the agent's format is an
//! error naming the event and index and what to fix. Other keys of a settings file (Claude
//! Code's `permissions`, `env`, ...) are none of hookhost's business and ignored.

use super::Dialect;
use super::render::from_gemini_event;
use crate::event::Event;
use crate::payload::json_type_name;
use crate::wire::settings::{
    GeminiSwitches, NativeHookObject, NestedEntry, NestedGroup, NestedRoot, read,
};
use serde_json::{Map, Value};

/// One hook of another agent's file, as the native hook object it means.
#[derive(Debug, Clone)]
pub struct ForeignHook {
    /// Its event.
    pub event: Event,
    /// Its position among the file's hooks of `event` (0-based, across matcher groups).
    pub index: usize,
    /// Where it is in the file's own terms: `PreToolUse[0].hooks[1]`.
    pub label: String,
    /// The native hook object (with `"dialect"`).
    pub hook: Value,
}

/// What another agent's file holds for hookhost.
#[derive(Debug, Clone, Default)]
pub struct ForeignFile {
    /// Its hooks, in file order.
    pub hooks: Vec<ForeignHook>,
    /// Errors: (where, what to fix).
    pub problems: Vec<(Option<String>, String)>,
    /// Accepted but not implemented, or skipped: (where, what).
    pub warnings: Vec<(Option<String>, String)>,
}

/// Reads the hooks of another agent's file (`d` is not native).
pub fn read_settings(d: Dialect, text: &str) -> ForeignFile {
    let mut f = ForeignFile::default();
    let root: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            f.problems.push((
                None,
                format!(
                    "invalid JSON at line {}, column {}: {e}; fix the file (it is {}'s, hookhost reads its hooks)",
                    e.line(),
                    e.column(),
                    agent_name(d)
                ),
            ));
            return f;
        }
    };
    match d {
        Dialect::Ling => super::ling_file::read_ling(&root, &mut f),
        _ => read_nested(d, &root, &mut f),
    }
    f
}

fn agent_name(d: Dialect) -> &'static str {
    match d {
        Dialect::Claude => "Claude Code",
        Dialect::Gemini => "Gemini CLI",
        Dialect::Codex => "Codex",
        Dialect::Ling => "the ling agent",
        Dialect::Native => "hookhost",
    }
}

/// Event names an agent has but hookhost does not fire: a warning, not an error.
const FOREIGN_EVENTS: &[&str] = &[
    "Notification",
    "PermissionRequest",
    "PostToolUseFailure",
    "SubagentStart",
    "PostCompact",
    "BeforeModel",
    "AfterModel",
    "BeforeToolSelection",
    "Setup",
    "TeammateIdle",
    "TaskCompleted",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
];

fn read_nested(d: Dialect, root: &Value, f: &mut ForeignFile) {
    let Some(events) = nested_events(d, root, f) else {
        return;
    };
    let disabled: Vec<String> = match read::<GeminiSwitches>(&events).disabled {
        Some(Value::Array(names)) if d == Dialect::Gemini => names
            .iter()
            .filter_map(|n| n.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    };
    for (name, groups) in &events {
        if d == Dialect::Gemini && matches!(name.as_str(), "enabled" | "disabled") {
            continue;
        }
        if let Some(event) = known_event(d, name, f) {
            read_groups(d, event, name, groups, &disabled, f);
        }
    }
}

/// The file's `hooks` object (event name -> matcher groups); `None` when it has none, is
/// switched off, or is not the agent's format (recorded).
fn nested_events(d: Dialect, root: &Value, f: &mut ForeignFile) -> Option<Map<String, Value>> {
    let Value::Object(root) = root else {
        f.problems.push((
            None,
            format!(
                "the file holds {}, expected an object like {{\"hooks\": {{\"PreToolUse\": [...]}}}}",
                json_type_name(root)
            ),
        ));
        return None;
    };
    let top: NestedRoot = read(root);
    if top.disable_all_hooks == Some(true) {
        f.warnings.push((
            None,
            "\"disableAllHooks\": true: none of this file's hooks run".into(),
        ));
        return None;
    }
    let events = match top.hooks {
        None => return None,
        Some(Value::Object(m)) => m,
        Some(other) => {
            f.problems.push((
                None,
                format!(
                    "\"hooks\" is {}, expected an object mapping event names to lists of matcher groups",
                    json_type_name(&other)
                ),
            ));
            return None;
        }
    };
    if d == Dialect::Gemini && read::<GeminiSwitches>(&events).enabled == Some(false) {
        f.warnings.push((
            None,
            "\"hooks\": {\"enabled\": false}: none of this file's hooks run".into(),
        ));
        return None;
    }
    Some(events)
}

/// The event an event name of the file means; `None` (a warning or a problem recorded) for
/// one hookhost does not fire.
fn known_event(d: Dialect, name: &str, f: &mut ForeignFile) -> Option<Event> {
    let event = match d {
        Dialect::Gemini => from_gemini_event(name),
        _ => name.parse().ok(),
    };
    if event.is_none() {
        if FOREIGN_EVENTS.contains(&name) || name.chars().next().is_some_and(char::is_uppercase) {
            f.warnings.push((
                Some(name.to_string()),
                format!("hookhost does not fire {name}; its hooks do not run"),
            ));
        } else {
            f.problems.push((
                Some(name.to_string()),
                format!(
                    "unknown event `{name}`; event names are case-sensitive, e.g. \"PreToolUse\""
                ),
            ));
        }
    }
    event
}

/// The matcher groups of one event.
fn read_groups(
    d: Dialect,
    event: Event,
    name: &str,
    groups: &Value,
    disabled: &[String],
    f: &mut ForeignFile,
) {
    let Value::Array(groups) = groups else {
        f.problems.push((
            Some(name.to_string()),
            format!(
                "expected a list of matcher groups, got {}; write \"{name}\": [{{\"matcher\": \"...\", \"hooks\": [{{\"type\": \"command\", \"command\": \"...\"}}]}}]",
                json_type_name(groups)
            ),
        ));
        return;
    };
    let mut index = 0;
    for (g, group) in groups.iter().enumerate() {
        let Some((matcher, hooks)) = read_group(d, event, &format!("{name}[{g}]"), group, f) else {
            continue;
        };
        for (h, hook) in hooks.iter().enumerate() {
            let label = format!("{name}[{g}].hooks[{h}]");
            let native = nested_hook(d, event, hook, matcher.as_deref(), &label, disabled, f);
            if let Some(native) = native {
                f.hooks.push(ForeignHook {
                    event,
                    index,
                    label,
                    hook: native,
                });
                index += 1;
            }
        }
    }
}

/// One matcher group: its matcher (where the event has something to match) and its hooks;
/// `None` when it is malformed (recorded).
fn read_group(
    d: Dialect,
    event: Event,
    glabel: &str,
    group: &Value,
    f: &mut ForeignFile,
) -> Option<(Option<String>, Vec<Value>)> {
    let Value::Object(group) = group else {
        f.problems.push((
            Some(glabel.to_string()),
            format!(
                "a matcher group is an object like {{\"matcher\": \"Bash\", \"hooks\": [...]}}, got {}",
                json_type_name(group)
            ),
        ));
        return None;
    };
    let group: NestedGroup = read(group);
    // The keys not implemented, in file order (`sequential` is Gemini CLI's).
    let mut unknown: Vec<&str> = group.other.keys().map(String::as_str).collect();
    if group.sequential.is_some() && d != Dialect::Gemini {
        unknown.push("sequential");
        unknown.sort_unstable();
    }
    for other in unknown {
        f.warnings.push((
            Some(glabel.to_string()),
            format!("`{other}` is not implemented by hookhost and is ignored"),
        ));
    }
    let matcher = match group.matcher {
        None | Some(Value::Null) => None,
        Some(Value::String(m)) if m.is_empty() || m == "*" => None,
        Some(Value::String(m)) => Some(m),
        Some(v) => {
            f.problems.push((
                Some(glabel.to_string()),
                format!("`matcher` must be a string such as \"Bash\" or \"Edit|Write\", got {v}"),
            ));
            return None;
        }
    };
    // Claude Code ignores a matcher where the event has nothing to match.
    let matcher =
        matcher.filter(|_| event.takes_tool_matcher() || event.matcher_subject().is_some());
    match group.hooks {
        Some(Value::Array(h)) => Some((matcher, h)),
        other => {
            f.problems.push((
                Some(glabel.to_string()),
                format!(
                    "`hooks` must be a list like [{{\"type\": \"command\", \"command\": \"...\"}}], got {}",
                    other.as_ref().map_or("nothing", json_type_name)
                ),
            ));
            None
        }
    }
}

/// One hook of a matcher group as a native object; `None` when it is skipped (a warning or
/// a problem recorded).
fn nested_hook(
    d: Dialect,
    event: Event,
    hook: &Value,
    matcher: Option<&str>,
    label: &str,
    disabled: &[String],
    f: &mut ForeignFile,
) -> Option<Value> {
    let Value::Object(h) = hook else {
        f.problems.push((
            Some(label.to_string()),
            format!(
                "a hook is an object like {{\"type\": \"command\", \"command\": \"...\"}}, got {}",
                json_type_name(hook)
            ),
        ));
        return None;
    };
    let entry: NestedEntry = read(h);
    let mut out = nested_handler(d, &entry, label, f)?;
    if let Some(name) = &entry.name
        && disabled.iter().any(|n| n == name)
    {
        f.warnings.push((
            Some(label.to_string()),
            format!("hook {name:?} is listed in \"disabled\"; it does not run"),
        ));
        return None;
    }
    out.matcher = matcher.map(|m| Value::String(m.to_string()));
    if let Some(t) = &entry.timeout {
        out.timeout = nested_timeout(d, t, label, f);
    }
    out.description = entry.description.clone().or(entry.status_message.clone());
    if entry.is_async == Some(true) {
        if event.allows_async() {
            out.is_async = Some(Value::Bool(true));
        } else {
            f.warnings.push((
                Some(label.to_string()),
                format!("`async` on {event} is not implemented by hookhost: the hook runs synchronously and can decide"),
            ));
        }
    }
    for key in entry.other.keys() {
        f.warnings.push((
            Some(label.to_string()),
            format!("`{key}` is not implemented by hookhost and is ignored"),
        ));
    }
    Some(out.into_value())
}

/// What runs: a command or (not in Gemini CLI) an HTTP endpoint; `None` when the hook is
/// skipped (recorded).
fn nested_handler(
    d: Dialect,
    entry: &NestedEntry,
    label: &str,
    f: &mut ForeignFile,
) -> Option<NativeHookObject> {
    let mut out = NativeHookObject {
        dialect: d,
        ..NativeHookObject::default()
    };
    let problem = |f: &mut ForeignFile, what: &str| {
        f.problems.push((Some(label.to_string()), what.to_string()));
    };
    match entry.kind.as_deref().unwrap_or("command") {
        "command" => match &entry.command {
            Some(Value::String(c)) if is_adapter(c) => {
                // The agent's entry for hookhost's outbound adapter: the native hooks it
                // would fire run anyway; running it too would run them twice.
                f.warnings.push((
                    Some(label.to_string()),
                    "this is hookhost's own adapter (`hookhost hook`); skipped, as hookhost runs the native hooks directly".into(),
                ));
                return None;
            }
            Some(c) => out.command = Some(c.clone()),
            None => {
                problem(
                    f,
                    "a \"command\" hook needs `command`: add \"command\": \"path/to/script.sh\"",
                );
                return None;
            }
        },
        "http" if d != Dialect::Gemini => {
            if entry.url.is_none() {
                problem(
                    f,
                    "an \"http\" hook needs `url`: add \"url\": \"http://...\"",
                );
                return None;
            }
            out.url.clone_from(&entry.url);
            out.headers.clone_from(&entry.headers);
            out.allowed_env.clone_from(&entry.allowed_env_vars);
        }
        other => {
            f.warnings.push((
                Some(label.to_string()),
                format!(
                    "hooks of type {other:?} are not implemented by hookhost; this one does not run"
                ),
            ));
            return None;
        }
    }
    Some(out)
}

/// A hook's `timeout` in milliseconds (Claude Code and Codex: seconds; Gemini CLI:
/// milliseconds); `None` with a problem recorded when it is not a positive number.
// Both numbers are positive (checked) and `as` saturates: a huge timeout becomes u64::MAX,
// which the config's bound then refuses.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn nested_timeout(d: Dialect, t: &Value, label: &str, f: &mut ForeignFile) -> Option<Value> {
    let ms = match (d, t.as_f64()) {
        (Dialect::Gemini, Some(ms)) if ms > 0.0 => Some(ms.round() as u64),
        (_, Some(s)) if s > 0.0 => Some((s * 1000.0).round() as u64),
        _ => None,
    };
    if ms.is_none() {
        f.problems.push((
            Some(label.to_string()),
            format!(
                "`timeout` must be a positive number of {}, got {t}",
                if d == Dialect::Gemini {
                    "milliseconds"
                } else {
                    "seconds"
                }
            ),
        ));
    }
    ms.map(Value::from)
}

/// Whether a command runs `hookhost hook` (the outbound adapter), by any path to the binary,
/// and nothing else: a command that chains more (`;`, `&&`, `|`, a substitution) may hold a
/// guard of its own, which must not be skipped with the adapter.
fn is_adapter(command: &str) -> bool {
    if command.contains([';', '&', '|', '\n', '`']) || command.contains("$(") {
        return false;
    }
    let words = shlex::split(command).unwrap_or_default();
    // The program, after any `VAR=value`, `env`, `exec` or `npx` in front of it.
    let mut rest = words
        .iter()
        .skip_while(|w| w.contains('=') || matches!(w.as_str(), "env" | "exec" | "npx"));
    let program = rest.next().map(|w| std::path::Path::new(w.as_str()));
    program
        .and_then(|p| p.file_name())
        .is_some_and(|n| n == "hookhost" || n == "hookhost.exe")
        && rest.next().is_some_and(|w| w == "hook")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn claude_settings_become_native_hooks() {
        let f = read_settings(
            Dialect::Claude,
            r#"{"permissions": {}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "x.sh", "timeout": 30},
                {"type": "command", "command": "y.sh", "once": true}]}],
              "Stop": [{"matcher": "*", "hooks": [{"type": "prompt", "prompt": "p"}]}],
              "Notification": [{"hooks": [{"type": "command", "command": "n"}]}]}}"#,
        );
        assert!(f.problems.is_empty(), "{:?}", f.problems);
        // Notification is an event hookhost fires too.
        assert_eq!(f.hooks.len(), 3);
        assert_eq!(f.hooks[0].event, Event::Notification);
        assert_eq!(
            f.hooks[1].hook,
            json!({"dialect": "claude", "command": "x.sh", "match": "Bash", "timeout": 30000})
        );
        assert_eq!(f.hooks[2].index, 1);
        assert_eq!(f.warnings.len(), 2, "{:?}", f.warnings);
    }

    #[test]
    fn malformed_groups_are_errors_with_their_place() {
        let f = read_settings(
            Dialect::Claude,
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": {"command": "x"}}]}}"#,
        );
        assert_eq!(f.problems[0].0.as_deref(), Some("PreToolUse[0]"));
        let f = read_settings(
            Dialect::Gemini,
            r#"{"hooks": {"BeforeTool": [{"hooks": [{"command": "x", "timeout": 500}]}]}}"#,
        );
        assert_eq!(f.hooks[0].event, Event::PreToolUse);
        assert_eq!(f.hooks[0].hook["timeout"], 500);
    }

    #[test]
    fn the_outbound_adapters_own_entry_is_skipped() {
        let f = read_settings(
            Dialect::Claude,
            r#"{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
                {"type": "command", "command": "/usr/local/bin/hookhost hook --for claude"},
                {"type": "command", "command": "echo hookhost hook"}]}]}}"#,
        );
        assert_eq!(f.hooks.len(), 1);
        assert_eq!(f.hooks[0].hook["command"], "echo hookhost hook");
        assert!(f.warnings[0].1.contains("adapter"));
    }

    #[test]
    fn ling_rules() {
        let f = read_settings(
            Dialect::Ling,
            r#"[{"event": "PreToolUse", "matcher": "write_file", "handler": {"type": "command", "command": "./b.sh", "timeout": 5000}}]"#,
        );
        assert_eq!(
            f.hooks[0].hook,
            json!({"dialect": "ling", "command": "./b.sh", "timeout": 5000, "match": "write_file"})
        );
    }
}
