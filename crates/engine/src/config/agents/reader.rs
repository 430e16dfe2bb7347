//! The one reader of other agents' hook files `{"hooks": {event: [...]}}` (Claude Code, Gemini
//! CLI, Codex, Cursor, Copilot CLI), driven by the agent's table ([`Format`]): the root, its
//! `"version"`, the `hooks` object, each event name, each list, each matcher group, each hook
//! object, and the fields every agent's hook shares (`matcher`, `timeout`, `type`, the
//! command, `url`, the keys hookhost does not implement). The fields only one agent has are
//! that agent's reader's (`Format::hook`). It records what is wrong in the [`ForeignFile`];
//! it decides nothing about a hook the native reader will judge.

use super::format::{At, Format, Layout, Meaning, Read, UnknownEvent};
use super::{ADAPTER_SKIPPED, ForeignFile, ForeignHook, is_adapter};
use crate::event::Event;
use crate::payload::json_type_name;
use hookhost_protocol::wire::settings::{
    NativeHookObject, NestedGroup, NestedRoot, VersionedRoot, read,
};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

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
];

/// Reads the hooks of a file of format `fmt` into `f`.
pub(super) fn read_hooks(fmt: &Format, root: &Value, f: &mut ForeignFile) {
    let Some(events) = hooks_object(fmt, root, f) else {
        return;
    };
    if let Some(rejects) = fmt.list_rejects_file
        && let Some((name, list)) = events.iter().find(|(_, l)| !l.is_array())
    {
        f.problems
            .push((Some(name.clone()), not_a_list(fmt, name, list, rejects)));
        return;
    }
    let mut numbered = Numbering::default();
    for (name, list) in &events {
        if fmt.misplaced_switches.contains(&name.as_str()) {
            f.warnings.push((
                Some(format!("hooks.{name}")),
                format!(
                    "Gemini CLI 0.61 skips \"{name}\" inside \"hooks\" (its hooks still run); it reads \"hooksConfig\": {{\"{name}\": ...}}: move it there"
                ),
            ));
            continue;
        }
        // The adapter on Gemini CLI's BeforeModel sends the prompts hooks replaced
        // (`translate::gemini_model`): the wiring hookhost asks for, nothing to warn about.
        if fmt.dialect == crate::Dialect::Gemini && name == "BeforeModel" && only_the_adapter(list)
        {
            continue;
        }
        let Some(meaning) = event(fmt, name, f) else {
            continue;
        };
        let Value::Array(list) = list else {
            f.problems
                .push((Some(name.clone()), not_a_list(fmt, name, list, "")));
            continue;
        };
        match fmt.layout {
            Layout::Groups => read_groups(fmt, name, meaning, list, &mut numbered, f),
            Layout::Hooks => {
                for (i, entry) in list.iter().enumerate() {
                    let label = format!("{name}[{i}]");
                    let at = At {
                        name,
                        meaning,
                        label: &label,
                        group_matcher: None,
                    };
                    if let Some(read) = hook(fmt, &at, entry, f) {
                        numbered.push(f, meaning.event, label, read, (i, 0));
                    }
                }
            }
        }
    }
}

/// Numbers a file's hooks per event, in file order (across lists and matcher groups).
#[derive(Default)]
pub(super) struct Numbering(BTreeMap<Event, usize>);

impl Numbering {
    /// Adds a hook to `f`, with the next number of its event.
    pub(super) fn push(
        &mut self,
        f: &mut ForeignFile,
        event: Event,
        label: String,
        read: Read,
        position: (usize, usize),
    ) {
        let index = self.0.entry(event).or_default();
        f.hooks.push(ForeignHook {
            event,
            index: *index,
            label,
            hook: read.hook,
            position,
            switch_id: read.switch_id,
            off: read.off,
        });
        *index += 1;
    }
}

/// "expected a list of hooks, got an object; write ..."
fn not_a_list(fmt: &Format, name: &str, list: &Value, after: &str) -> String {
    format!(
        "expected a list of {}, got {}; write \"{name}\": [{}]{after}",
        fmt.items,
        json_type_name(list),
        fmt.item_example
    )
}

/// The file's `hooks` object (event name -> list); `None` when it has none, is switched off,
/// or is not the agent's format (recorded).
fn hooks_object(fmt: &Format, root: &Value, f: &mut ForeignFile) -> Option<Map<String, Value>> {
    let Value::Object(root) = root else {
        f.problems.push((
            None,
            format!(
                "the file holds {}, expected an object like {}",
                json_type_name(root),
                fmt.root_example
            ),
        ));
        return None;
    };
    let hooks = match &fmt.version {
        None => read::<NestedRoot>(root).hooks,
        Some(version) => {
            let top: VersionedRoot = read(root);
            match &top.version {
                None => f.warnings.push((
                    None,
                    format!(
                        "no \"version\": {} \"version\": 1; hookhost reads it as version 1",
                        version.says
                    ),
                )),
                Some(v) if v.as_u64() == Some(1) => {}
                Some(v) => {
                    f.problems.push((
                        None,
                        format!(
                            "\"version\" is {v}; {} \"version\": 1{}",
                            version.format, version.rejects
                        ),
                    ));
                    return None;
                }
            }
            if fmt.file_switch && !file_switch(&top, f) {
                return None;
            }
            if fmt.report_top_keys {
                ignored_keys(&top.other, None, f);
            }
            top.hooks
        }
    };
    match hooks {
        None => None,
        Some(Value::Object(m)) => Some(m),
        Some(other) => {
            f.problems.push((
                None,
                format!(
                    "\"hooks\" is {}, expected an object mapping {}event names to lists of {}",
                    json_type_name(&other),
                    fmt.whose,
                    fmt.items
                ),
            ));
            None
        }
    }
}

/// A file's own `"disableAllHooks"`: whether its hooks are read.
fn file_switch(top: &VersionedRoot, f: &mut ForeignFile) -> bool {
    match &top.disable_all_hooks {
        None | Some(Value::Null | Value::Bool(false)) => true,
        Some(Value::Bool(true)) => {
            f.warnings.push((
                None,
                "\"disableAllHooks\": true: none of this file's hooks run".into(),
            ));
            false
        }
        Some(v) => {
            f.problems.push((
                None,
                format!("\"disableAllHooks\" must be true or false, got {v}"),
            ));
            true
        }
    }
}

/// Whether an event's list of matcher groups runs hookhost's adapter and nothing else.
fn only_the_adapter(list: &Value) -> bool {
    let commands: Vec<Option<&str>> = list
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|g| {
            g.get("hooks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
        })
        .map(|h| h.get("command").and_then(Value::as_str))
        .collect();
    !commands.is_empty() && commands.iter().all(|c| c.is_some_and(is_adapter))
}

/// What an event name of the file means; `None` (a warning or a problem recorded) for one
/// hookhost does not fire.
fn event(fmt: &Format, name: &str, f: &mut ForeignFile) -> Option<Meaning> {
    let meaning = (fmt.event)(name);
    if meaning.is_none()
        && fmt.dialect != crate::Dialect::Claude
        && let Some(e) = super::events::foreign_only(name)
    {
        f.warnings.push((
            Some(name.to_string()),
            format!(
                "{e} is a Claude Code event, which {} does not fire: its hooks in this file never run; put them in .claude/settings.json or hookhost's own file, where hookhost runs them",
                fmt.dialect.agent()
            ),
        ));
        return None;
    }
    if meaning.is_none() {
        let another_agents = fmt.unknown_event == UnknownEvent::Warn
            || FOREIGN_EVENTS.contains(&name)
            || name.chars().next().is_some_and(char::is_uppercase);
        if another_agents {
            f.warnings.push((
                Some(name.to_string()),
                format!(
                    "hookhost does not fire {}{name}; its hooks do not run",
                    fmt.whose
                ),
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
    meaning
}

/// The matcher groups of one event.
fn read_groups(
    fmt: &Format,
    name: &str,
    meaning: Meaning,
    groups: &[Value],
    numbered: &mut Numbering,
    f: &mut ForeignFile,
) {
    for (g, group) in groups.iter().enumerate() {
        let Some((matcher, hooks)) =
            read_group(fmt, meaning.event, &format!("{name}[{g}]"), group, f)
        else {
            continue;
        };
        for (h, entry) in hooks.iter().enumerate() {
            let label = format!("{name}[{g}].hooks[{h}]");
            let at = At {
                name,
                meaning,
                label: &label,
                group_matcher: matcher.as_deref(),
            };
            if let Some(read) = hook(fmt, &at, entry, f) {
                numbered.push(f, meaning.event, label, read, (g, h));
            }
        }
    }
}

/// One matcher group: its matcher (where the event has something to match) and its hooks;
/// `None` when it is malformed (recorded).
fn read_group(
    fmt: &Format,
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
    if group.sequential.is_some() && fmt.dialect != crate::Dialect::Gemini {
        unknown.push("sequential");
        unknown.sort_unstable();
    }
    for other in unknown {
        f.warnings.push((
            Some(glabel.to_string()),
            format!("`{other}` is not implemented by hookhost and is ignored"),
        ));
    }
    let matcher = matcher(fmt, group.matcher.as_ref(), glabel, f).ok()?;
    // Claude Code ignores a matcher where the event has nothing to match.
    let matcher =
        matcher.filter(|_| event.takes_tool_matcher() || event.matcher_subject().is_some());
    match group.hooks {
        Some(Value::Array(h)) => Some((matcher, h)),
        other => {
            f.problems.push((
                Some(glabel.to_string()),
                format!(
                    "`hooks` must be a list like [{}], got {}",
                    fmt.hook_example,
                    other.as_ref().map_or("nothing", json_type_name)
                ),
            ));
            None
        }
    }
}

/// One hook object, read by the agent's reader; `None` when it is skipped (recorded).
fn hook(fmt: &Format, at: &At, entry: &Value, f: &mut ForeignFile) -> Option<Read> {
    let Value::Object(obj) = entry else {
        f.problems.push((
            Some(at.label.to_string()),
            format!(
                "a hook is an object like {}, got {}",
                fmt.hook_example,
                json_type_name(entry)
            ),
        ));
        return None;
    };
    (fmt.hook)(fmt, at, obj, f)
}

// The fields every agent's hook shares.

/// The native object a hook of `fmt` starts as.
pub(super) fn native(dialect: crate::Dialect) -> NativeHookObject {
    NativeHookObject {
        dialect,
        ..NativeHookObject::default()
    }
}

/// A `matcher`: `Ok(None)` for none or one that matches everything; `Err` (recorded) for one
/// that is not a string.
pub(super) fn matcher(
    fmt: &Format,
    matcher: Option<&Value>,
    label: &str,
    f: &mut ForeignFile,
) -> Result<Option<String>, ()> {
    match matcher {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(m)) if fmt.match_any.contains(&m.as_str()) => Ok(None),
        Some(Value::String(m)) if fmt.dialect == crate::Dialect::Claude => {
            Ok(Some(name_list(m).unwrap_or_else(|| m.clone())))
        }
        Some(Value::String(m)) => Ok(Some(m.clone())),
        Some(v) => {
            f.problems.push((
                Some(label.to_string()),
                format!("`matcher` must be {}, got {v}", fmt.matcher_hint),
            ));
            Err(())
        }
    }
}

/// Claude Code reads a matcher made only of tool names, separated by `|`, `,` or blanks
/// (`"Edit, Write"`), as a list of exact names, and anything else as a regex: such a list as
/// the regex alternation of the names (`Edit|Write`); `None` when `m` is not one (a single
/// name, or a regex).
fn name_list(m: &str) -> Option<String> {
    let name = |w: &str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
    };
    let words: Vec<&str> = m
        .split(|c: char| c == '|' || c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let separated = m.contains(',') || m.trim().contains(char::is_whitespace);
    (separated && words.len() > 1 && words.iter().all(|w| name(w))).then(|| words.join("|"))
}

/// A hook's `timeout` in milliseconds (from the agent's unit); `None` with a problem recorded
/// when it is not a positive number.
// Both numbers are positive (checked) and `as` saturates: a huge timeout becomes u64::MAX,
// which the config's bound then refuses.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub(super) fn timeout(fmt: &Format, t: &Value, label: &str, f: &mut ForeignFile) -> Option<Value> {
    let ms = match (fmt.timeout_unit, t.as_f64()) {
        (super::format::Unit::Milliseconds, Some(ms)) if ms > 0.0 => Some(ms.round() as u64),
        (super::format::Unit::Seconds, Some(s)) if s > 0.0 => Some((s * 1000.0).round() as u64),
        (super::format::Unit::SecondsUnlessThousands, Some(n)) if n >= 1000.0 => {
            Some(n.round() as u64)
        }
        (super::format::Unit::SecondsUnlessThousands, Some(s)) if s > 0.0 => {
            Some((s * 1000.0).round() as u64)
        }
        _ => None,
    };
    if ms.is_none() {
        f.problems.push((
            Some(label.to_string()),
            format!(
                "`timeout` must be a positive number of {}, got {t}",
                fmt.timeout_unit.as_str()
            ),
        ));
    }
    ms.map(Value::from)
}

/// A `prompt` or `agent` hook (`kind`): its question from `prompt` (taken out of `other`, so
/// it is not warned about as unknown), asked of the user's own model; a per-hook `model` is
/// not used (a warning: the model is the one the user's file configures). `false` when it has
/// no `prompt` (recorded).
pub(super) fn model_hook(
    kind: &str,
    out: &mut NativeHookObject,
    other: &mut Map<String, Value>,
    label: &str,
    f: &mut ForeignFile,
) -> bool {
    if other.remove("model").is_some() {
        f.warnings.push((
            Some(label.to_string()),
            "the hook's `model` is not used: hookhost asks the model of the top-level \"model\" block of your own hooks file (~/.coding-agent/hooks.json)".into(),
        ));
    }
    let Some(prompt) = other.remove("prompt") else {
        f.problems.push((
            Some(label.to_string()),
            format!("a {kind:?} hook needs `prompt`: add \"prompt\": \"Is this safe? $ARGUMENTS\""),
        ));
        return false;
    };
    if kind == "agent" {
        out.agent = Some(prompt);
    } else {
        out.prompt = Some(prompt);
    }
    true
}

/// A hook of a `type` hookhost does not run (a warning: the agent runs it, hookhost cannot).
pub(super) fn unknown_type(kind: &str, label: &str, f: &mut ForeignFile) {
    f.warnings.push((
        Some(label.to_string()),
        format!("hooks of type {kind:?} are not implemented by hookhost; this one does not run"),
    ));
}

/// Whether a command is the agent's entry for hookhost's own adapter, skipped (recorded):
/// the native hooks it would fire run anyway; running it too would run them twice.
pub(super) fn skipped_adapter(command: &str, label: &str, f: &mut ForeignFile) -> bool {
    let adapter = is_adapter(command);
    if adapter {
        f.warnings
            .push((Some(label.to_string()), ADAPTER_SKIPPED.into()));
    }
    adapter
}

/// An `http` hook: its `url` (required), `headers` and `allowedEnvVars`; `false` when it has
/// no `url` (recorded).
pub(super) fn http(
    fmt: &Format,
    out: &mut NativeHookObject,
    (url, headers, allowed_env): (&Option<Value>, &Option<Value>, &Option<Value>),
    label: &str,
    f: &mut ForeignFile,
) -> bool {
    if url.is_none() {
        f.problems.push((
            Some(label.to_string()),
            format!(
                "an \"http\" hook needs `url`: add \"url\": \"{}\"",
                fmt.url_example.unwrap_or("https://...")
            ),
        ));
        return false;
    }
    out.url.clone_from(url);
    out.headers.clone_from(headers);
    out.allowed_env.clone_from(allowed_env);
    true
}

/// Warnings for the keys hookhost does not implement.
pub(super) fn ignored_keys(keys: &Map<String, Value>, at: Option<&str>, f: &mut ForeignFile) {
    for key in keys.keys() {
        f.warnings.push((
            at.map(str::to_string),
            format!("`{key}` is not implemented by hookhost and is ignored"),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::name_list;

    #[test]
    fn a_claude_name_list_is_read_as_exact_names() {
        assert_eq!(name_list("Edit, Write").as_deref(), Some("Edit|Write"));
        assert_eq!(name_list("Edit,Write").as_deref(), Some("Edit|Write"));
        assert_eq!(
            name_list("Edit Write | Bash").as_deref(),
            Some("Edit|Write|Bash")
        );
        assert_eq!(
            name_list("mcp__github__create_issue, Bash").as_deref(),
            Some("mcp__github__create_issue|Bash")
        );
        // A single name, a plain alternation and a regex stay as written.
        assert_eq!(name_list("Bash"), None);
        assert_eq!(name_list("Edit|Write"), None);
        assert_eq!(name_list("mcp__.*"), None);
        assert_eq!(name_list("Notebook.*, Bash"), None);
    }
}
