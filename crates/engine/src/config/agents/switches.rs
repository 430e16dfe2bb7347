//! Each agent's on/off switches in its own files, read as that agent reads them, one function
//! per agent (Claude Code's `disableAllHooks`, Gemini CLI's `hooksConfig`; Codex's are in its
//! `config.toml`: `codex_toml.rs`; Copilot CLI's `disableAllHooks` turns its one file off:
//! `reader.rs`), into [`AgentSwitch`]es. What a switch then turns off across files is the
//! config loader's (`config/switches.rs`).

use super::{AgentSwitch, ForeignFile, HttpLimits, agent_name};
use crate::Dialect;
use crate::payload::json_type_name;
use hookhost_protocol::wire::settings::{GeminiSwitches, NestedRoot, read};
use serde_json::{Map, Value};

/// The switches of an agent's file, read as that agent reads them (one function per agent).
pub(super) fn agent_switches(d: Dialect, root: &Value, f: &mut ForeignFile) -> Vec<AgentSwitch> {
    let Value::Object(root) = root else {
        return Vec::new();
    };
    match d {
        Dialect::Claude => claude_switches(root, f),
        // Claude Code's switch, documented by Qwen Code.
        d if super::claude_like::profile(d).is_some_and(|p| p.disable_all_hooks) => {
            claude_switches(root, f)
        }
        Dialect::Gemini => gemini_switches(root, f),
        Dialect::Codex => not_the_agents_switches(d, root, f),
        _ => Vec::new(),
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

/// Claude Code's limits on HTTP hooks: `allowedHttpHookUrls` and `httpHookAllowedEnvVars`,
/// each a list of strings when set; anything else is an error naming the key (a limit that
/// cannot be read must not be taken for no limit).
pub(super) fn claude_http_limits(root: &Value, f: &mut ForeignFile) -> HttpLimits {
    let mut list = |key: &str, example: &str| -> Option<Vec<String>> {
        let v = root.get(key)?;
        let strings: Option<Vec<String>> = v
            .as_array()
            .and_then(|a| a.iter().map(|s| s.as_str().map(String::from)).collect());
        if strings.is_none() {
            f.problems.push((
                Some(key.to_string()),
                format!(
                    "`{key}` must be a list of strings like {example}, got {}; until it is, no HTTP hook of Claude Code's files at this rank or below runs",
                    json_type_name(v)
                ),
            ));
            // Read as allowing nothing.
            return Some(Vec::new());
        }
        strings
    };
    HttpLimits {
        urls: list("allowedHttpHookUrls", r#"["https://hooks.example.com/*"]"#),
        env_vars: list("httpHookAllowedEnvVars", r#"["HOOK_TOKEN"]"#),
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
