//! Windsurf's Cascade hooks file (`.windsurf/hooks.json` in the workspace,
//! `~/.codeium/windsurf/hooks.json` for the user; docs.windsurf.com/windsurf/cascade/hooks)
//! -> native hook objects, read by the shared reader (`reader.rs`) from its table
//! (`format::WINDSURF`, Cursor's layout: `{"hooks": {"event": [hook, ...]}}`); this file
//! reads the fields only a Windsurf hook has.
//!
//! ```json
//! {"hooks": {"pre_run_command": [{"command": "python3 /path/to/guard.py", "show_output": true,
//!   "working_directory": "scripts"}]}}
//! ```
//!
//! Each hook is `{command, powershell, show_output, working_directory}`. Its events are per
//! tool kind; each becomes a native event and a built-in match on the tool kind it stands
//! for (`events::windsurf_event`; Windsurf's names of the kinds are `tools.rs`'s):
//!
//! | Windsurf | native | match |
//! |---|---|---|
//! | `pre_run_command`, `post_run_command` | PreToolUse, PostToolUse | `run_command` (`bash`) |
//! | `pre_read_code`, `post_read_code` | PreToolUse, PostToolUse | `read_code` (`read_file`) |
//! | `pre_write_code`, `post_write_code` | PreToolUse, PostToolUse | `write_code` (`write_file`, `edit_file`) |
//! | `pre_mcp_tool_use`, `post_mcp_tool_use` | PreToolUse, PostToolUse | MCP tools (`mcp__*`) |
//! | `pre_user_prompt` | UserPromptSubmit | |
//! | `post_cascade_response` | Stop (it cannot keep Cascade going) | |
//!
//! `post_setup_worktree` and `post_cascade_response_with_transcript` have no native
//! counterpart: a warning, their hooks do not run. `show_output` (whether Windsurf shows the
//! hook's output in its UI) changes no decision and is read silently; `working_directory` is
//! the native `cwd`; a hook with only a `powershell` command (Windows) does not run here.
//! Windsurf runs no timeout it documents: hookhost's 30 s (`Dialect::default_timeout_ms`).

use super::ForeignFile;
use super::format::{At, Format, Read};
use super::reader::{ignored_keys, native, skipped_adapter};
use crate::Dialect;
use crate::payload::json_type_name;
use hookhost_protocol::wire::settings::NativeHookObject;
use serde_json::{Map, Value};

/// One Windsurf hook as a native object; `None` when it is skipped (recorded).
pub(super) fn hook(
    _fmt: &Format,
    at: &At,
    obj: &Map<String, Value>,
    f: &mut ForeignFile,
) -> Option<Read> {
    let (name, label) = (at.name, at.label);
    let mut other = obj.clone();
    let command = other.remove("command");
    let powershell = other.remove("powershell");
    let show_output = other.remove("show_output");
    let working_directory = other.remove("working_directory");
    let mut out = NativeHookObject {
        description: Some(format!("Windsurf {name}")),
        ..native(Dialect::Windsurf)
    };
    out.command = Some(Value::String(self::command(
        command.as_ref(),
        powershell.as_ref(),
        label,
        f,
    )?));
    match show_output {
        None | Some(Value::Null | Value::Bool(_)) => {}
        Some(v) => f.problems.push((
            Some(label.to_string()),
            format!("`show_output` must be true or false, got {v}"),
        )),
    }
    match working_directory {
        None | Some(Value::Null) => {}
        Some(Value::String(c)) if !c.trim().is_empty() => out.cwd = Some(Value::String(c)),
        Some(v) => f.problems.push((
            Some(label.to_string()),
            format!(
                "`working_directory` must be a directory (relative to the workspace root), got {v}"
            ),
        )),
    }
    out.matcher = at.meaning.builtin.map(|b| Value::String(b.to_string()));
    ignored_keys(&other, Some(label), f);
    Some(Read {
        hook: out.into_value(),
        switch_id: None,
        off: None,
    })
}

/// The command a hook runs; `None` when it runs none hookhost can (recorded).
fn command(
    command: Option<&Value>,
    powershell: Option<&Value>,
    label: &str,
    f: &mut ForeignFile,
) -> Option<String> {
    match command {
        Some(Value::String(c)) if skipped_adapter(c, label, f) => None,
        Some(Value::String(c)) if !c.trim().is_empty() => Some(c.clone()),
        None | Some(Value::Null) if powershell.is_some_and(|p| !p.is_null()) => {
            f.warnings.push((
                Some(label.to_string()),
                "only a `powershell` command: hookhost runs `command`; this hook does not run"
                    .into(),
            ));
            None
        }
        other => {
            f.problems.push((
                Some(label.to_string()),
                format!(
                    "a hook needs `command`, a shell command such as \"python3 .windsurf/guard.py\", got {}",
                    other.map_or("nothing", json_type_name)
                ),
            ));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::read_settings;
    use super::*;
    use crate::event::Event;

    fn fixture(name: &str) -> String {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/agents/windsurf")
            .join(name);
        std::fs::read_to_string(&file).unwrap()
    }

    /// The documented configuration (tests/fixtures/agents/windsurf/hooks.json): each event
    /// its native event and tool-kind match, `working_directory` the native `cwd`.
    #[test]
    fn the_documented_file_becomes_native_hooks() {
        let f = read_settings(Dialect::Windsurf, &fixture("hooks.json"));
        assert!(f.problems.is_empty(), "{:?}", f.problems);
        let got: Vec<(Event, Value)> = f.hooks.iter().map(|h| (h.event, h.hook.clone())).collect();
        let names: Vec<(Event, Option<String>, String)> = got
            .iter()
            .map(|(e, h)| {
                (
                    *e,
                    h.get("match").and_then(Value::as_str).map(str::to_string),
                    h["command"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        assert!(
            names.contains(&(
                Event::PreToolUse,
                Some("run_command".into()),
                "python3 .windsurf/block-rm.py".into()
            )),
            "{names:?}"
        );
        assert!(names.contains(&(
            Event::PreToolUse,
            Some("read_code".into()),
            "python3 /path/to/your/script.py".into()
        )));
        assert!(names.contains(&(
            Event::PostToolUse,
            Some("write_code".into()),
            "python3 /path/to/another/script.py".into()
        )));
        assert!(
            names
                .iter()
                .any(|(e, m, _)| *e == Event::UserPromptSubmit && m.is_none())
        );
        let cwd = got
            .iter()
            .find_map(|(_, h)| h.get("cwd").and_then(Value::as_str));
        assert_eq!(cwd, Some("scripts"));
        // post_setup_worktree has no native counterpart: a warning, not a hook.
        assert!(
            f.warnings
                .iter()
                .any(|(_, w)| w.contains("post_setup_worktree")),
            "{:?}",
            f.warnings
        );
    }

    #[test]
    fn a_hook_without_a_command_is_an_error_and_powershell_alone_a_warning() {
        let f = read_settings(
            Dialect::Windsurf,
            r#"{"hooks": {"pre_run_command": [{"show_output": true}, {"powershell": "x.ps1"}, {"command": "./ok.sh", "show_output": "yes", "colour": 1}]}}"#,
        );
        assert_eq!(f.hooks.len(), 1);
        let problems: Vec<&String> = f.problems.iter().map(|(_, p)| p).collect();
        assert!(
            problems.iter().any(|p| p.contains("needs `command`")),
            "{problems:?}"
        );
        assert!(
            problems.iter().any(|p| p.contains("`show_output`")),
            "{problems:?}"
        );
        assert!(
            f.warnings.iter().any(|(_, w)| w.contains("powershell")),
            "{:?}",
            f.warnings
        );
        assert!(
            f.warnings.iter().any(|(_, w)| w.contains("colour")),
            "{:?}",
            f.warnings
        );
    }
}
