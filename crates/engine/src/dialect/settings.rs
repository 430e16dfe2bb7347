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
use serde_json::{Map, Value, json};

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
        Dialect::Ling => read_ling(&root, &mut f),
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

fn event_of(d: Dialect, name: &str) -> Option<Event> {
    match d {
        Dialect::Gemini => from_gemini_event(name),
        _ => name.parse().ok(),
    }
}

fn read_nested(d: Dialect, root: &Value, f: &mut ForeignFile) {
    let Value::Object(root) = root else {
        f.problems.push((
            None,
            format!(
                "the file holds {}, expected an object like {{\"hooks\": {{\"PreToolUse\": [...]}}}}",
                json_type_name(root)
            ),
        ));
        return;
    };
    if root.get("disableAllHooks") == Some(&Value::Bool(true)) {
        f.warnings.push((
            None,
            "\"disableAllHooks\": true: none of this file's hooks run".into(),
        ));
        return;
    }
    let events = match root.get("hooks") {
        None => return,
        Some(Value::Object(m)) => m,
        Some(other) => {
            f.problems.push((
                None,
                format!(
                    "\"hooks\" is {}, expected an object mapping event names to lists of matcher groups",
                    json_type_name(other)
                ),
            ));
            return;
        }
    };
    let mut disabled: Vec<String> = Vec::new();
    if d == Dialect::Gemini {
        // Gemini CLI's switches beside the events.
        if events.get("enabled") == Some(&Value::Bool(false)) {
            f.warnings.push((
                None,
                "\"hooks\": {\"enabled\": false}: none of this file's hooks run".into(),
            ));
            return;
        }
        if let Some(Value::Array(names)) = events.get("disabled") {
            disabled = names
                .iter()
                .filter_map(|n| n.as_str().map(str::to_string))
                .collect();
        }
    }
    for (name, groups) in events {
        if d == Dialect::Gemini && matches!(name.as_str(), "enabled" | "disabled") {
            continue;
        }
        let Some(event) = event_of(d, name) else {
            if FOREIGN_EVENTS.contains(&name.as_str())
                || name.chars().next().is_some_and(char::is_uppercase)
            {
                f.warnings.push((
                    Some(name.clone()),
                    format!("hookhost does not fire {name}; its hooks do not run"),
                ));
            } else {
                f.problems.push((
                    Some(name.clone()),
                    format!("unknown event `{name}`; event names are case-sensitive, e.g. \"PreToolUse\""),
                ));
            }
            continue;
        };
        let Value::Array(groups) = groups else {
            f.problems.push((
                Some(name.clone()),
                format!(
                    "expected a list of matcher groups, got {}; write \"{name}\": [{{\"matcher\": \"...\", \"hooks\": [{{\"type\": \"command\", \"command\": \"...\"}}]}}]",
                    json_type_name(groups)
                ),
            ));
            continue;
        };
        let mut index = 0;
        for (g, group) in groups.iter().enumerate() {
            let glabel = format!("{name}[{g}]");
            let Value::Object(group) = group else {
                f.problems.push((
                    Some(glabel),
                    format!(
                        "a matcher group is an object like {{\"matcher\": \"Bash\", \"hooks\": [...]}}, got {}",
                        json_type_name(group)
                    ),
                ));
                continue;
            };
            for key in group.keys() {
                match key.as_str() {
                    "matcher" | "hooks" => {}
                    "sequential" if d == Dialect::Gemini => {}
                    other => f.warnings.push((
                        Some(glabel.clone()),
                        format!("`{other}` is not implemented by hookhost and is ignored"),
                    )),
                }
            }
            let matcher = match group.get("matcher") {
                None | Some(Value::Null) => None,
                Some(Value::String(m)) if m.is_empty() || m == "*" => None,
                Some(Value::String(m)) => Some(m.clone()),
                Some(v) => {
                    f.problems.push((
                        Some(glabel.clone()),
                        format!(
                            "`matcher` must be a string such as \"Bash\" or \"Edit|Write\", got {v}"
                        ),
                    ));
                    continue;
                }
            };
            // Claude Code ignores a matcher where the event has nothing to match.
            let matcher = matcher.filter(|_| {
                event.takes_tool_matcher()
                    || matches!(event, Event::SessionStart | Event::PreCompact)
            });
            let hooks = match group.get("hooks") {
                Some(Value::Array(h)) => h,
                other => {
                    f.problems.push((
                        Some(glabel),
                        format!(
                            "`hooks` must be a list like [{{\"type\": \"command\", \"command\": \"...\"}}], got {}",
                            other.map_or("nothing", json_type_name)
                        ),
                    ));
                    continue;
                }
            };
            for (h, hook) in hooks.iter().enumerate() {
                let label = format!("{name}[{g}].hooks[{h}]");
                if let Some(native) =
                    nested_hook(d, event, hook, matcher.as_deref(), &label, &disabled, f)
                {
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
    let mut out = Map::new();
    out.insert("dialect".into(), json!(d.as_str()));
    let kind = h.get("type").and_then(Value::as_str).unwrap_or("command");
    match kind {
        "command" => match h.get("command") {
            Some(Value::String(c)) if is_adapter(c) => {
                // The agent's entry for hookhost's outbound adapter: the native hooks it
                // would fire run anyway; running it too would run them twice.
                f.warnings.push((
                    Some(label.to_string()),
                    "this is hookhost's own adapter (`hookhost hook`); skipped, as hookhost runs the native hooks directly".into(),
                ));
                return None;
            }
            Some(c) => {
                out.insert("command".into(), c.clone());
            }
            None => {
                f.problems.push((
                    Some(label.to_string()),
                    "a \"command\" hook needs `command`: add \"command\": \"path/to/script.sh\""
                        .into(),
                ));
                return None;
            }
        },
        "http" if d != Dialect::Gemini => {
            match h.get("url") {
                Some(u) => out.insert("url".into(), u.clone()),
                None => {
                    f.problems.push((
                        Some(label.to_string()),
                        "an \"http\" hook needs `url`: add \"url\": \"http://...\"".into(),
                    ));
                    return None;
                }
            };
            if let Some(headers) = h.get("headers") {
                out.insert("headers".into(), headers.clone());
            }
            if let Some(allowed) = h.get("allowedEnvVars") {
                out.insert("allowedEnv".into(), allowed.clone());
            }
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
    if let Some(name) = h.get("name").and_then(Value::as_str)
        && disabled.iter().any(|n| n == name)
    {
        f.warnings.push((
            Some(label.to_string()),
            format!("hook {name:?} is listed in \"disabled\"; it does not run"),
        ));
        return None;
    }
    if let Some(m) = matcher {
        out.insert("match".into(), json!(m));
    }
    if let Some(t) = h.get("timeout") {
        // Claude Code and Codex: seconds; Gemini CLI: milliseconds.
        let ms = match (d, t.as_f64()) {
            (Dialect::Gemini, Some(ms)) if ms > 0.0 => Some(ms.round() as u64),
            (_, Some(s)) if s > 0.0 => Some((s * 1000.0).round() as u64),
            _ => None,
        };
        match ms {
            Some(ms) => {
                out.insert("timeout".into(), json!(ms));
            }
            None => f.problems.push((
                Some(label.to_string()),
                format!(
                    "`timeout` must be a positive number of {}, got {t}",
                    if d == Dialect::Gemini {
                        "milliseconds"
                    } else {
                        "seconds"
                    }
                ),
            )),
        }
    }
    for key in ["description", "statusMessage"] {
        if let Some(Value::String(s)) = h.get(key) {
            out.entry("description").or_insert(json!(s));
        }
    }
    if h.get("async") == Some(&Value::Bool(true)) {
        if event.allows_async() {
            out.insert("async".into(), json!(true));
        } else {
            f.warnings.push((
                Some(label.to_string()),
                format!("`async` on {event} is not implemented by hookhost: the hook runs synchronously and can decide"),
            ));
        }
    }
    for key in h.keys() {
        let known = matches!(
            key.as_str(),
            "type"
                | "command"
                | "url"
                | "headers"
                | "allowedEnvVars"
                | "timeout"
                | "description"
                | "statusMessage"
                | "async"
                | "name"
        );
        if !known {
            f.warnings.push((
                Some(label.to_string()),
                format!("`{key}` is not implemented by hookhost and is ignored"),
            ));
        }
    }
    Some(Value::Object(out))
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

fn read_ling(root: &Value, f: &mut ForeignFile) {
    let rules = match root {
        Value::Array(r) => r,
        Value::Object(o) => match o.get("hooks") {
            Some(Value::Array(r)) => r,
            None => return,
            Some(other) => {
                f.problems.push((
                    None,
                    format!(
                        "\"hooks\" must be a list of rules, got {}",
                        json_type_name(other)
                    ),
                ));
                return;
            }
        },
        other => {
            f.problems.push((
                None,
                format!(
                    "the file holds {}, expected a list of rules like [{{\"event\": \"PreToolUse\", \"handler\": {{\"type\": \"command\", \"command\": \"...\"}}}}]",
                    json_type_name(other)
                ),
            ));
            return;
        }
    };
    let mut per_event: std::collections::BTreeMap<Event, usize> = Default::default();
    for (i, rule) in rules.iter().enumerate() {
        let label = format!("rule[{i}]");
        let Value::Object(r) = rule else {
            f.problems.push((
                Some(label),
                format!("a rule is an object, got {}", json_type_name(rule)),
            ));
            continue;
        };
        let Some(event) = r.get("event").and_then(Value::as_str) else {
            f.problems.push((
                Some(label),
                "a rule needs `event`, e.g. \"event\": \"PreToolUse\"".into(),
            ));
            continue;
        };
        let Ok(event) = Event::parse_loose(event) else {
            f.warnings.push((
                Some(label),
                format!("hookhost does not fire {event}; this rule does not run"),
            ));
            continue;
        };
        let label = format!("{event}: rule[{i}]");
        let Some(Value::Object(handler)) = r.get("handler") else {
            f.problems.push((
                Some(label),
                "a rule needs `handler`: {\"type\": \"command\", \"command\": \"...\"}".into(),
            ));
            continue;
        };
        let mut out = Map::new();
        out.insert("dialect".into(), json!("ling"));
        match handler
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("command")
        {
            "command" => {
                if let Some(c) = handler.get("command") {
                    out.insert("command".into(), c.clone());
                }
            }
            "http" => {
                if let Some(u) = handler.get("url") {
                    out.insert("url".into(), u.clone());
                }
                if let Some(h) = handler.get("headers") {
                    out.insert("headers".into(), h.clone());
                }
            }
            other => {
                f.warnings.push((
                    Some(label),
                    format!("handlers of type {other:?} are not implemented by hookhost"),
                ));
                continue;
            }
        }
        if let Some(t) = handler.get("timeout") {
            out.insert("timeout".into(), t.clone());
        }
        match r.get("matcher") {
            None | Some(Value::Null) => {}
            Some(Value::String(m)) if m.is_empty() || m == "*" => {}
            Some(m) => {
                out.insert("match".into(), m.clone());
            }
        }
        if let Some(a) = r.get("async") {
            out.insert("async".into(), a.clone());
        }
        for key in r.keys() {
            if !matches!(key.as_str(), "event" | "matcher" | "handler" | "async") {
                f.warnings.push((
                    Some(label.clone()),
                    format!("`{key}` is not implemented by hookhost and is ignored"),
                ));
            }
        }
        let index = per_event.entry(event).or_default();
        f.hooks.push(ForeignHook {
            event,
            index: *index,
            label,
            hook: Value::Object(out),
        });
        *index += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(f.hooks.len(), 2);
        assert_eq!(
            f.hooks[0].hook,
            json!({"dialect": "claude", "command": "x.sh", "match": "Bash", "timeout": 30000})
        );
        assert_eq!(f.hooks[1].index, 1);
        assert_eq!(f.warnings.len(), 3, "{:?}", f.warnings);
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
