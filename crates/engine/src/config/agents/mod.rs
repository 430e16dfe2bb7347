//! Other agents' hook files -> native hook objects.
//!
//! Claude Code (`settings.json`), Gemini CLI (`settings.json`) and Codex (`hooks.json`, and
//! the `[hooks]` tables of its `config.toml`: `codex_config.rs`) nest hooks as
//! `{"hooks": {Event: [{"matcher": ..., "hooks": [{"type": "command", ...}]}]}}`; ling lists
//! rules `[{event, matcher, handler: {type, command | url, ...}, async}]`. Each hook becomes
//! the native object it means (`command`/`url`, `match`, `timeout` in ms, `if`,
//! `"dialect"`), which the native reader then validates like any other: one validator for
//! every hook. Keys the agent accepts but hookhost does not implement are warnings (a real
//! settings file must never stop the agent); a file that is not the agent's format is an
//! error naming the event and index and what to fix. Other keys of a settings file (Claude
//! Code's `permissions`, `env`, ...) are none of hookhost's business and ignored.
//!
//! Each agent's on/off switches are read as that agent reads them, one function per agent
//! ([`claude_switches`], [`gemini_switches`], Codex's in `codex_config.rs`), into
//! [`AgentSwitch`]es: a switch turns off the hooks of its own file here (their native
//! object says `"enabled": false`), and the config loader carries it to the agent's other
//! files of the same rank and below (`config/switches.rs`).

pub mod events;
pub mod tools;

mod codex_toml;
mod copilot;
mod cursor;
mod ling;
mod sources;

pub use codex_toml::codex_state_key;
pub use sources::{ForeignSource, foreign_sources};

use super::Scope;
use crate::Dialect;
use crate::event::Event;
use crate::payload::json_type_name;
use crate::wire::settings::{
    GeminiSwitches, NativeHookObject, NestedEntry, NestedGroup, NestedRoot, read,
};
use serde_json::{Map, Value};
use std::path::Path;

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
    /// Its matcher group and its place in it (Codex names a hook by them).
    pub position: (usize, usize),
    /// How the agent's per-hook switches name it (Gemini CLI: its `name`, else its command).
    pub switch_id: Option<String>,
    /// What of its own file turns it off (then `hook` says `"enabled": false`).
    pub off: Option<String>,
}

/// A switch of another agent's file that turns hooks off: the file's own, and (carried by
/// the config loader) that agent's hooks of the same rank and below.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentSwitch {
    /// `None`: every hook; else the hooks whose switch id is listed.
    pub names: Option<Vec<String>>,
    /// As the file says it (`"disableAllHooks": true`).
    pub why: String,
    /// Honoured in the user's file only (Codex reads `[hooks.state]` from there alone).
    pub user_only: bool,
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
    /// Its switches.
    pub switches: Vec<AgentSwitch>,
}

/// Reads the hooks of another agent's JSON file (`d` is not native).
pub fn read_settings(d: Dialect, text: &str) -> ForeignFile {
    let mut f = ForeignFile::default();
    // Gemini CLI reads its settings as JSON with comments; the other agents' files are JSON.
    let parsed = match d {
        Dialect::Gemini => serde_json::from_str(&crate::jsonc::strip_comments(text)),
        _ => serde_json::from_str(text),
    };
    let root: Value = match parsed {
        Ok(v) => v,
        Err(e) => {
            let hint = match d {
                Dialect::Gemini => None,
                _ => crate::jsonc::no_comments_hint(text),
            };
            f.problems.push((
                None,
                format!(
                    "invalid JSON at line {}, column {}: {e}{}",
                    e.line(),
                    e.column(),
                    hint.unwrap_or_else(|| format!(
                        "; fix the file (it is {}'s, hookhost reads its hooks)",
                        agent_name(d)
                    ))
                ),
            ));
            return f;
        }
    };
    f.switches = agent_switches(d, &root, &mut f);
    match d {
        Dialect::Ling => ling::read_ling(&root, &mut f),
        Dialect::Cursor => cursor::read_cursor(&root, &mut f),
        Dialect::Copilot => copilot::read_copilot(&root, &mut f),
        _ => read_nested(d, &root, &mut f),
    }
    switch_off_own(&mut f);
    f
}

/// The switches of an agent's file, read as that agent reads them (one function per agent).
fn agent_switches(d: Dialect, root: &Value, f: &mut ForeignFile) -> Vec<AgentSwitch> {
    let Value::Object(root) = root else {
        return Vec::new();
    };
    match d {
        Dialect::Claude => claude_switches(root, f),
        Dialect::Gemini => gemini_switches(root, f),
        Dialect::Codex => not_the_agents_switches(d, root, f),
        Dialect::Ling | Dialect::Native | Dialect::Cursor | Dialect::Copilot => Vec::new(),
    }
}

/// Reads another agent's file `file` of `scope`: Codex's `config.toml` as TOML, any other
/// as JSON; and what depends on where the file is (Cursor runs its user hooks in
/// `~/.cursor`, the user file's directory).
pub fn read_settings_at(d: Dialect, text: &str, file: &Path, scope: Scope) -> ForeignFile {
    if d == Dialect::Codex && file.extension().is_some_and(|e| e == "toml") {
        let mut f = codex_toml::read_codex_config(text);
        switch_off_own(&mut f);
        return f;
    }
    let mut f = read_settings(d, text);
    if d == Dialect::Cursor
        && scope == Scope::Global
        && let Some(dir) = file.parent()
    {
        cursor::run_in(&mut f, dir);
    }
    f
}

/// The agent's name, as its users know it.
pub(crate) fn agent_name(d: Dialect) -> &'static str {
    match d {
        Dialect::Claude => "Claude Code",
        Dialect::Gemini => "Gemini CLI",
        Dialect::Codex => "Codex",
        Dialect::Ling => "the ling agent",
        Dialect::Cursor => "Cursor",
        Dialect::Copilot => "GitHub Copilot CLI",
        Dialect::Native => "hookhost",
    }
}

/// Whether a Claude Code switch's value means "on": anything but `false`, `"false"` and
/// `null`, as Claude Code reads it.
fn claude_on(v: &Value) -> bool {
    !matches!(v, Value::Null | Value::Bool(false)) && v.as_str() != Some("false")
}

/// Claude Code's switch: `"disableAllHooks"` turns off every hook of its settings files
/// (managed hooks only from the managed settings).
fn claude_switches(root: &Map<String, Value>, _f: &mut ForeignFile) -> Vec<AgentSwitch> {
    let top: NestedRoot = read(root);
    match top.disable_all_hooks {
        Some(v) if claude_on(&v) => vec![AgentSwitch {
            names: None,
            why: format!("\"disableAllHooks\": {v}"),
            user_only: false,
        }],
        _ => Vec::new(),
    }
}

/// Gemini CLI's switches (0.61), in `hooksConfig`: `enabled: false` turns off every Gemini
/// hook, `disabled` lists the hooks (by `name`, else by command) that do not run;
/// `notifications` is its UI's. The same keys inside `hooks` are skipped with a warning, as
/// Gemini CLI skips them (the hooks still run).
fn gemini_switches(root: &Map<String, Value>, f: &mut ForeignFile) -> Vec<AgentSwitch> {
    let top: NestedRoot = read(root);
    let mut out = Vec::new();
    if top.disable_all_hooks.is_some() {
        f.warnings.push((
            None,
            "\"disableAllHooks\" is Claude Code's switch, not Gemini CLI's: ignored, the hooks run; write \"hooksConfig\": {\"enabled\": false}".into(),
        ));
    }
    let config = match top.hooks_config {
        None => return out,
        Some(Value::Object(c)) => c,
        Some(other) => {
            f.warnings.push((
                Some("hooksConfig".into()),
                format!(
                    "\"hooksConfig\" is {}, expected an object like {{\"enabled\": true, \"disabled\": []}}; ignored",
                    json_type_name(&other)
                ),
            ));
            return out;
        }
    };
    let switches: GeminiSwitches = read(&config);
    let at = || Some("hooksConfig".to_string());
    match switches.enabled {
        None | Some(Value::Bool(true)) => {}
        Some(Value::Bool(false)) => out.push(AgentSwitch {
            names: None,
            why: "\"hooksConfig\": {\"enabled\": false}".into(),
            user_only: false,
        }),
        Some(v) => f.warnings.push((
            at(),
            format!("`enabled` must be true or false, got {v}; ignored"),
        )),
    }
    match switches.disabled {
        None => {}
        Some(Value::Array(names)) if names.iter().all(Value::is_string) => {
            let names: Vec<String> = names
                .iter()
                .filter_map(|n| n.as_str().map(str::to_string))
                .collect();
            if !names.is_empty() {
                out.push(AgentSwitch {
                    why: format!("listed in \"hooksConfig\": {{\"disabled\": {names:?}}}"),
                    names: Some(names),
                    user_only: false,
                });
            }
        }
        Some(v) => f.warnings.push((
            at(),
            format!("`disabled` must be a list of hook names like [\"my-hook\"], got {v}; ignored"),
        )),
    }
    if let Some(v) = switches.notifications.filter(|v| !v.is_boolean()) {
        f.warnings.push((
            at(),
            format!("`notifications` must be true or false, got {v}; ignored"),
        ));
    }
    for key in switches.other.keys() {
        f.warnings.push((
            at(),
            format!("`{key}` is not one of Gemini CLI's hooksConfig keys (enabled, disabled, notifications); ignored"),
        ));
    }
    out
}

/// Codex's `hooks.json` has no switch: its switches are in `config.toml`.
fn not_the_agents_switches(
    d: Dialect,
    root: &Map<String, Value>,
    f: &mut ForeignFile,
) -> Vec<AgentSwitch> {
    if read::<NestedRoot>(root).disable_all_hooks.is_some() {
        f.warnings.push((
            None,
            format!(
                "\"disableAllHooks\" is Claude Code's switch, not {}'s: ignored, the hooks run{}",
                agent_name(d),
                if d == Dialect::Codex {
                    "; Codex turns hooks off with `[features] hooks = false` in config.toml"
                } else {
                    ""
                }
            ),
        ));
    }
    Vec::new()
}

/// Marks the hooks the file's own switches turn off (`"enabled": false`, with why).
fn switch_off_own(f: &mut ForeignFile) {
    for hook in &mut f.hooks {
        let covered = f.switches.iter().find(|s| {
            !s.user_only
                && s.names.as_ref().is_none_or(|names| {
                    hook.switch_id.as_ref().is_some_and(|id| names.contains(id))
                })
        });
        if let Some(s) = covered {
            hook.off.get_or_insert_with(|| s.why.clone());
        }
        if hook.off.is_some()
            && let Value::Object(o) = &mut hook.hook
        {
            o.insert("enabled".into(), Value::Bool(false));
        }
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

/// Gemini CLI's switch keys, which it skips inside `hooks`.
const GEMINI_SWITCH_KEYS: &[&str] = &["enabled", "disabled", "notifications"];

pub(super) fn read_nested(d: Dialect, root: &Value, f: &mut ForeignFile) {
    let Some(events) = nested_events(root, f) else {
        return;
    };
    for (name, groups) in &events {
        if d == Dialect::Gemini && GEMINI_SWITCH_KEYS.contains(&name.as_str()) {
            f.warnings.push((
                Some(format!("hooks.{name}")),
                format!(
                    "Gemini CLI 0.61 skips \"{name}\" inside \"hooks\" (its hooks still run); it reads \"hooksConfig\": {{\"{name}\": ...}}: move it there"
                ),
            ));
            continue;
        }
        if let Some(event) = known_event(d, name, f) {
            read_groups(d, event, name, groups, f);
        }
    }
}

/// The file's `hooks` object (event name -> matcher groups); `None` when it has none or is
/// not the agent's format (recorded).
fn nested_events(root: &Value, f: &mut ForeignFile) -> Option<Map<String, Value>> {
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
    match top.hooks {
        None => None,
        Some(Value::Object(m)) => Some(m),
        Some(other) => {
            f.problems.push((
                None,
                format!(
                    "\"hooks\" is {}, expected an object mapping event names to lists of matcher groups",
                    json_type_name(&other)
                ),
            ));
            None
        }
    }
}

/// The event an event name of the file means; `None` (a warning or a problem recorded) for
/// one hookhost does not fire.
fn known_event(d: Dialect, name: &str, f: &mut ForeignFile) -> Option<Event> {
    let event = match d {
        Dialect::Gemini => events::from_agent_name(Dialect::Gemini, name),
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
fn read_groups(d: Dialect, event: Event, name: &str, groups: &Value, f: &mut ForeignFile) {
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
            if let Some(mut foreign) = nested_hook(d, event, hook, matcher.as_deref(), &label, f) {
                foreign.index = index;
                foreign.position = (g, h);
                f.hooks.push(foreign);
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
    f: &mut ForeignFile,
) -> Option<ForeignHook> {
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
    // Gemini CLI names a hook by its `name`, else by its command (`hooksConfig.disabled`).
    let switch_id = match d {
        Dialect::Gemini => entry.name.clone().or_else(|| {
            entry
                .command
                .as_ref()
                .and_then(Value::as_str)
                .map(str::to_string)
        }),
        _ => None,
    };
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
    let off = nested_condition(d, event, &entry, &mut out, label, f);
    for key in entry.other.keys() {
        f.warnings.push((
            Some(label.to_string()),
            format!("`{key}` is not implemented by hookhost and is ignored"),
        ));
    }
    Some(ForeignHook {
        event,
        index: 0,
        label: label.to_string(),
        hook: out.into_value(),
        position: (0, 0),
        switch_id,
        off,
    })
}

/// Claude Code's `if`: passed on as the native `if` on tool events; elsewhere Claude Code
/// never runs the hook, and neither does hookhost (what turns it off is returned). The other
/// agents have no `if`: ignored with a warning.
fn nested_condition(
    d: Dialect,
    event: Event,
    entry: &NestedEntry,
    out: &mut NativeHookObject,
    label: &str,
    f: &mut ForeignFile,
) -> Option<String> {
    let condition = entry.condition.clone()?;
    if d != Dialect::Claude {
        f.warnings.push((
            Some(label.to_string()),
            format!(
                "`if` is Claude Code's, not {}'s: ignored, the hook runs on every call its matcher lets through",
                agent_name(d)
            ),
        ));
        return None;
    }
    if event.takes_tool_matcher() {
        out.condition = Some(condition);
        return None;
    }
    let why = format!(
        "`if` on {event}: Claude Code evaluates `if` on tool events only and never runs such a hook elsewhere"
    );
    f.warnings.push((Some(label.to_string()), why.clone()));
    Some(why)
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
                f.warnings
                    .push((Some(label.to_string()), ADAPTER_SKIPPED.into()));
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

/// What reading an agent's file says of its entry for hookhost's own adapter.
pub const ADAPTER_SKIPPED: &str = "this is hookhost's own adapter (`hookhost hook`); skipped, as hookhost runs the native hooks directly";

/// Whether a command runs `hookhost hook` (the outbound adapter), by any path to the binary,
/// and nothing else: a command that chains more (`;`, `&&`, `|`, a substitution, a process
/// substitution) may hold a guard of its own, which must not be skipped with the adapter.
pub fn is_adapter(command: &str) -> bool {
    if command.contains([';', '&', '|', '\n', '`'])
        || ["$(", "<(", ">("].iter().any(|s| command.contains(s))
    {
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
