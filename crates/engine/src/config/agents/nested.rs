//! The fields of a hook in Claude Code's, Gemini CLI's and Codex's files (the `Groups` layout
//! of `format.rs`: `{"hooks": {Event: [{"matcher": ..., "hooks": [HOOK]}]}}`) that the other
//! agents' hooks do not have: `description`, `async`, Claude Code's `if`, `args` (the exec
//! form), `shell`, `onFailure`, `statusMessage`, `once` and `asyncRewake`, Gemini CLI's
//! `name`. The file, its groups and the shared fields are `reader.rs`'s.
//!
//! Claude Code's command fields follow its hooks reference ("Hook handler fields", "Exec
//! form and shell form"): `args` makes `command` the program, started without a shell with
//! `args` as its arguments (`${CLAUDE_PROJECT_DIR}` and `${CLAUDE_PLUGIN_ROOT}` filled in
//! each, `spawner/program.rs`); `shell` picks `bash` or PowerShell for the shell form;
//! `onFailure` is the native `onError`; `statusMessage` is kept (shown while the hook runs).
//! `once` is honoured by Claude Code only in skill frontmatter, "ignored in settings files
//! and agent frontmatter": so here too, with a warning. `asyncRewake` (a background hook
//! whose exit 2 wakes the agent) is the native `asyncRewake` (`runner/rewake.rs`); on an
//! event whose hooks decide it runs synchronously, as `async` does there (a warning).

use super::format::{At, Format, Read};
use super::reader::{
    http, ignored_keys, model_hook, native, skipped_adapter, timeout, unknown_type,
};
use super::{ForeignFile, agent_name};
use crate::Dialect;
use crate::event::Event;
use hookhost_protocol::wire::settings::{NativeHookObject, NestedEntry, read};
use serde_json::{Map, Value};

/// One hook of a matcher group as a native object; `None` when it is skipped (a warning or
/// a problem recorded).
pub(super) fn hook(
    fmt: &Format,
    at: &At,
    h: &Map<String, Value>,
    f: &mut ForeignFile,
) -> Option<Read> {
    let (event, label) = (at.meaning.event, at.label);
    let mut entry: NestedEntry = read(h);
    let mut out = handler(fmt, &mut entry, label, f)?;
    // Gemini CLI names a hook by its `name`, else by its command (`hooksConfig.disabled`).
    let switch_id = match fmt.dialect {
        Dialect::Gemini => entry.name.clone().or_else(|| {
            entry
                .command
                .as_ref()
                .and_then(Value::as_str)
                .map(str::to_string)
        }),
        _ => None,
    };
    out.matcher = at.group_matcher.map(|m| Value::String(m.to_string()));
    if let Some(t) = &entry.timeout {
        out.timeout = timeout(fmt, t, label, f);
    }
    out.description.clone_from(&entry.description);
    out.status_message = entry.status_message.clone().map(Value::String);
    claude_command_fields(fmt.dialect, event, &entry, &mut out, label, f);
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
    let off = condition(fmt.dialect, event, &entry, &mut out, label, f);
    if fmt.dialect == Dialect::Goose
        && let Some(v) = entry.other.remove("on_failure")
    {
        goose_on_failure(event, &v, &mut out, label, f)?;
    }
    ignored_keys(&entry.other, Some(label), f);
    Some(Read {
        hook: out.into_value(),
        switch_id,
        off,
    })
}

/// goose's `on_failure` (Open Plugins): `"block"` makes a PreToolUse hook that returns no
/// decision deny the call (the native `onError: "block"`), `"allow"` is the default; goose
/// ignores it on every other event, and skips the whole file for any other value (here: the
/// hook, with the error).
fn goose_on_failure(
    event: Event,
    v: &Value,
    out: &mut NativeHookObject,
    label: &str,
    f: &mut ForeignFile,
) -> Option<()> {
    match v.as_str() {
        Some("block") if event == Event::PreToolUse => {
            out.on_error = Some(Value::String("block".into()));
        }
        Some("block" | "allow") => {}
        _ => {
            f.problems.push((
                Some(label.to_string()),
                format!("`on_failure` is {v}: goose takes \"allow\" or \"block\" (and skips the whole file otherwise); write one of them"),
            ));
            return None;
        }
    }
    Some(())
}

/// Claude Code's `args`, `shell`, `onFailure`, `once` and `asyncRewake` (Gemini CLI and Codex
/// have none of them: a warning each, the hook runs without it).
fn claude_command_fields(
    d: Dialect,
    event: Event,
    entry: &NestedEntry,
    out: &mut NativeHookObject,
    label: &str,
    f: &mut ForeignFile,
) {
    let fields = [
        ("args", &entry.args),
        ("shell", &entry.shell),
        ("onFailure", &entry.on_failure),
        ("once", &entry.once),
        ("asyncRewake", &entry.async_rewake),
    ];
    let mut warn = |message: String| f.warnings.push((Some(label.to_string()), message));
    if d != Dialect::Claude {
        for (key, value) in fields {
            if value.is_some() {
                warn(format!(
                    "`{key}` is not implemented by hookhost and is ignored"
                ));
            }
        }
        return;
    }
    out.args.clone_from(&entry.args);
    out.shell.clone_from(&entry.shell);
    // The native reader checks the value and says what is wrong with it.
    if let Some(v) = &entry.on_failure {
        out.on_error = Some(match v.as_str() {
            Some("continue") => Value::String("warn".into()),
            _ => v.clone(),
        });
    }
    if entry.once == Some(Value::Bool(true)) {
        warn("`once`: Claude Code honours it only in skill frontmatter and ignores it in a settings file; so does hookhost: the hook runs every time".into());
    }
    if entry.async_rewake == Some(Value::Bool(true)) {
        if event.allows_async() {
            out.async_rewake = Some(Value::Bool(true));
        } else {
            warn(format!(
                "`asyncRewake` on {event} is not implemented by hookhost: the hook runs synchronously and can decide"
            ));
        }
    }
}

/// Claude Code's `if`: passed on as the native `if` on tool events; elsewhere Claude Code
/// never runs the hook, and neither does hookhost (what turns it off is returned). The other
/// agents have no `if`: ignored with a warning.
fn condition(
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

/// What runs: a command, (not in Gemini CLI) an HTTP endpoint, or (Claude Code, Codex) a
/// question for the user's model; `None` when the hook is skipped (recorded).
fn handler(
    fmt: &Format,
    entry: &mut NestedEntry,
    label: &str,
    f: &mut ForeignFile,
) -> Option<NativeHookObject> {
    let mut out = native(fmt.dialect);
    match entry.kind.as_deref().unwrap_or("command") {
        "command" => match &entry.command {
            Some(Value::String(c)) if skipped_adapter(c, label, f) => return None,
            Some(c) => out.command = Some(c.clone()),
            None => {
                f.problems.push((
                    Some(label.to_string()),
                    "a \"command\" hook needs `command`: add \"command\": \"path/to/script.sh\""
                        .to_string(),
                ));
                return None;
            }
        },
        // Claude Code's and Codex's MCP-tool hook: the native `mcp` handler.
        "mcp_tool" if matches!(fmt.dialect, Dialect::Claude | Dialect::Codex) => {
            let mut m = serde_json::Map::new();
            for (key, value) in [
                ("server", &entry.server),
                ("tool", &entry.tool),
                ("input", &entry.input),
            ] {
                if let Some(v) = value {
                    m.insert(key.to_string(), v.clone());
                }
            }
            out.mcp = Some(Value::Object(m));
        }
        "http" if fmt.url_example.is_some() => {
            let fields = (&entry.url, &entry.headers, &entry.allowed_env_vars);
            if !http(fmt, &mut out, fields, label, f) {
                return None;
            }
        }
        kind @ ("prompt" | "agent") if fmt.dialect != Dialect::Gemini => {
            if !model_hook(kind, &mut out, &mut entry.other, label, f) {
                return None;
            }
        }
        other => {
            unknown_type(other, label, f);
            return None;
        }
    }
    Some(out)
}
