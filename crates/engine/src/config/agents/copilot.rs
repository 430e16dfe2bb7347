//! GitHub Copilot CLI's hook files (every `*.json` of `.github/hooks/` and of
//! `~/.copilot/hooks/`) -> native hook objects, read by the shared reader
//! (`reader.rs`) from its table (`format::COPILOT`); this file reads the fields only a Copilot CLI
//! hook has.
//! Source: docs.github.com/en/copilot/reference/hooks-reference ("Hook configuration
//! format", "Hook events", "Exit codes for command hooks", "Disable all hooks").
//!
//! ```json
//! {"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./scripts/guard.sh",
//!   "powershell": "./scripts/guard.ps1", "cwd": "scripts", "timeoutSec": 10}]}}
//! ```
//!
//! | Copilot CLI | native |
//! |---|---|
//! | `sessionStart`, `sessionEnd` | SessionStart, SessionEnd |
//! | `userPromptSubmitted` | UserPromptSubmit |
//! | `preToolUse`, `postToolUse` | PreToolUse, PostToolUse (`matcher`: a regex on `toolName`, whole name) |
//! | `agentStop`, `subagentStop` | Stop, SubagentStop |
//! | `preCompact` | PreCompact (`matcher` on the trigger) |
//!
//! A command hook runs its `bash` command (else the cross-platform `command`, else `exec`
//! with `args` in the exec form: the program started without a shell, each argument intact); `timeoutSec` (alias `timeout`) is in seconds, 30 by default; `cwd`
//! is relative to the repository root. Copilot CLI's other events (`errorOccurred`,
//! `permissionRequest`, `notification`, `userPromptTransformed`) have no native counterpart:
//! a warning, their hooks do not run. `env`, prompt hooks and a hook with only a `powershell`
//! command are warnings too. `"disableAllHooks": true` turns the file's hooks off.
//!
//! An event named in PascalCase (`PreToolUse`, `Stop`, ...) is Copilot CLI's VS Code
//! compatible form: Claude Code's snake_case payload and matchers, so its hooks have the
//! `claude` dialect; they keep Copilot CLI's 30 s default and, on PreToolUse, its fail-closed
//! rule (`onError: "block"`).

use super::ForeignFile;
use super::format::{At, Format, Read};
use super::reader::{self, http, ignored_keys, native, skipped_adapter, timeout, unknown_type};
use crate::Dialect;
use crate::event::Event;
use hookhost_protocol::wire::settings::{CopilotEntry, NativeHookObject, read};
use serde_json::{Map, Value};

/// Copilot CLI's default `timeoutSec`.
const DEFAULT_TIMEOUT_MS: u64 = 30_000;

/// One Copilot CLI hook as a native object; `None` when it is skipped (recorded).
pub(super) fn hook(
    fmt: &Format,
    at: &At,
    obj: &Map<String, Value>,
    f: &mut ForeignFile,
) -> Option<Read> {
    let (event, dialect, label) = (at.meaning.event, at.meaning.dialect, at.label);
    let e: CopilotEntry = read(obj);
    let mut out = handler(fmt, dialect, &e, label, f)?;
    let given = e
        .timeout_sec
        .as_ref()
        .filter(|t| !t.is_null())
        .or(e.timeout.as_ref());
    out.timeout = match given
        .filter(|t| !t.is_null())
        .and_then(|t| timeout(fmt, t, label, f))
    {
        // The claude dialect's default is Claude Code's 600 s, not Copilot CLI's.
        None if dialect == Dialect::Claude => Some(Value::from(DEFAULT_TIMEOUT_MS)),
        t => t,
    };
    match &e.cwd {
        None | Some(Value::Null) => {}
        Some(Value::String(c)) => out.cwd = Some(Value::String(c.clone())),
        Some(v) => f.problems.push((
            Some(label.to_string()),
            format!("`cwd` must be a directory relative to the repository root, got {v}"),
        )),
    }
    out.matcher = copilot_matcher(fmt, event, e.matcher.as_ref(), label, f);
    if dialect == Dialect::Claude && event == Event::PreToolUse {
        // Copilot CLI denies the call when a preToolUse command hook errors.
        out.on_error = Some(Value::String("block".into()));
    }
    if e.env.as_ref().is_some_and(|v| !v.is_null()) {
        f.warnings.push((
            Some(label.to_string()),
            "`env` is not implemented by hookhost: the hook runs without these variables".into(),
        ));
    }
    ignored_keys(&e.other, Some(label), f);
    Some(Read {
        hook: out.into_value(),
        switch_id: None,
        off: None,
    })
}

/// What a hook runs: a command (`bash`, else `command`, else `exec` and `args`) or an HTTP
/// endpoint; `None` when it is skipped (recorded).
fn handler(
    fmt: &Format,
    dialect: Dialect,
    e: &CopilotEntry,
    label: &str,
    f: &mut ForeignFile,
) -> Option<NativeHookObject> {
    let mut out = native(dialect);
    match e.kind.as_ref() {
        None | Some(Value::Null) => {}
        Some(Value::String(k)) if k == "command" => {}
        Some(Value::String(k)) if k == "http" => {
            let fields = (&e.url, &e.headers, &e.allowed_env_vars);
            return http(fmt, &mut out, fields, label, f).then_some(out);
        }
        Some(Value::String(k)) => {
            unknown_type(k, label, f);
            return None;
        }
        Some(v) => {
            f.problems.push((
                Some(label.to_string()),
                format!("`type` must be \"command\", \"http\" or \"prompt\", got {v}"),
            ));
            return None;
        }
    }
    let (command, args) = command(e, label, f)?;
    // The adapter is recognised by its words, however they are given.
    let line = match &args {
        Some(args) => shlex::try_join(
            std::iter::once(command.as_str()).chain(args.iter().map(String::as_str)),
        )
        .unwrap_or_default(),
        None => command.clone(),
    };
    if skipped_adapter(&line, label, f) {
        return None;
    }
    out.command = Some(Value::String(command));
    out.args = args.map(|a| a.into_iter().map(Value::String).collect());
    Some(out)
}

/// The shell command of a command hook, or the exec form's program and its arguments;
/// `None` when there is none hookhost can run (recorded).
fn command(
    e: &CopilotEntry,
    label: &str,
    f: &mut ForeignFile,
) -> Option<(String, Option<Vec<String>>)> {
    let at = Some(label.to_string());
    let text = |v: &Option<Value>| v.as_ref().and_then(Value::as_str).map(str::to_string);
    if let Some(exec) = &e.exec {
        if e.bash.is_some() || e.command.is_some() || e.powershell.is_some() {
            f.problems.push((
                at,
                "`exec` cannot be combined with `bash`, `powershell` or `command`; give one".into(),
            ));
            return None;
        }
        let args: Option<Vec<&str>> = match &e.args {
            None | Some(Value::Null) => Some(Vec::new()),
            Some(Value::Array(a)) => a.iter().map(Value::as_str).collect(),
            Some(_) => None,
        };
        let (Some(exec), Some(args)) = (exec.as_str(), args) else {
            f.problems.push((
                at,
                "`exec` must be a string and `args` a list of strings".into(),
            ));
            return None;
        };
        if std::iter::once(exec)
            .chain(args.iter().copied())
            .any(|w| w.contains('\0'))
        {
            f.problems.push((
                at,
                "`exec` or `args` holds a NUL byte, which no command can take".into(),
            ));
            return None;
        }
        return Some((
            exec.to_string(),
            Some(args.into_iter().map(str::to_string).collect()),
        ));
    }
    match text(&e.bash).or_else(|| text(&e.command)) {
        Some(c) if !c.trim().is_empty() => Some((c, None)),
        _ if e.powershell.is_some() => {
            f.warnings.push((
                at,
                "only a `powershell` command: hookhost runs the `bash` (or `command`) one; this hook does not run".into(),
            ));
            None
        }
        _ => {
            f.problems.push((
                at,
                "a command hook needs `bash` (or `command`, or `exec`): add \"bash\": \"./scripts/check.sh\"".into(),
            ));
            None
        }
    }
}

/// The native `match`: `matcher` on preToolUse / postToolUse (the tool name) and preCompact
/// (the trigger); elsewhere it is ignored with a warning.
fn copilot_matcher(
    fmt: &Format,
    event: Event,
    matcher: Option<&Value>,
    label: &str,
    f: &mut ForeignFile,
) -> Option<Value> {
    let m = reader::matcher(fmt, matcher, label, f).ok().flatten()?;
    if event.takes_tool_matcher() || event == Event::PreCompact {
        Some(Value::String(m))
    } else {
        f.warnings.push((
            Some(label.to_string()),
            format!("`matcher` on {event} is not implemented by hookhost and is ignored"),
        ));
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::read_settings;
    use super::*;
    use serde_json::json;

    /// The configuration example of the hooks reference, one hook per documented field.
    const DOCUMENTED: &str = r#"{
      "version": 1,
      "hooks": {
        "sessionStart": [{"type": "command", "bash": "echo \"Session started: $(date)\" >> logs/session.log",
                          "powershell": "Add-Content -Path logs/session.log -Value x", "cwd": ".", "timeoutSec": 10}],
        "preToolUse": [{"type": "command", "bash": "./scripts/security-check.sh", "comment": "runs first"},
                       {"type": "command", "exec": "./scripts/audit log", "args": ["--tool", "a b"], "matcher": "bash|edit"}],
        "postToolUse": [{"type": "http", "url": "https://hooks.example.com/copilot",
                         "headers": {"X-Source": "copilot-cli"}, "allowedEnvVars": ["GITHUB_TOKEN"], "timeoutSec": 30}],
        "agentStop": [{"command": "./scripts/stop.sh", "timeout": 5}],
        "errorOccurred": [{"type": "command", "bash": "./scripts/log-error.sh"}]
      }
    }"#;

    #[test]
    fn the_documented_file_becomes_native_hooks() {
        let f = read_settings(Dialect::Copilot, DOCUMENTED);
        assert!(f.problems.is_empty(), "{:?}", f.problems);
        let hooks: Vec<(Event, Value)> =
            f.hooks.iter().map(|h| (h.event, h.hook.clone())).collect();
        assert_eq!(
            hooks,
            vec![
                (
                    Event::Stop,
                    json!({"dialect": "copilot", "command": "./scripts/stop.sh", "timeout": 5000})
                ),
                (
                    Event::PostToolUse,
                    json!({"dialect": "copilot", "url": "https://hooks.example.com/copilot",
                           "headers": {"X-Source": "copilot-cli"}, "allowedEnv": ["GITHUB_TOKEN"],
                           "timeout": 30000})
                ),
                (
                    Event::PreToolUse,
                    json!({"dialect": "copilot", "command": "./scripts/security-check.sh"})
                ),
                (
                    Event::PreToolUse,
                    json!({"dialect": "copilot", "command": "./scripts/audit log",
                           "args": ["--tool", "a b"], "match": "bash|edit"})
                ),
                (
                    Event::SessionStart,
                    json!({"dialect": "copilot",
                           "command": "echo \"Session started: $(date)\" >> logs/session.log",
                           "timeout": 10000, "cwd": "."})
                ),
            ]
        );
        assert_eq!(f.hooks[3].index, 1);
        assert_eq!(f.warnings.len(), 1, "{:?}", f.warnings);
        assert!(f.warnings[0].1.contains("errorOccurred"));
    }

    #[test]
    fn pascal_case_events_are_claude_hooks_with_copilots_defaults() {
        let f = read_settings(
            Dialect::Copilot,
            r#"{"version": 1, "hooks": {"PreToolUse": [{"type": "command", "bash": "./g.sh", "matcher": "Bash"}]}}"#,
        );
        assert_eq!(
            f.hooks[0].hook,
            json!({"dialect": "claude", "command": "./g.sh", "match": "Bash",
                   "timeout": 30000, "onError": "block"})
        );
    }

    #[test]
    fn switches_and_wrong_shapes() {
        let f = read_settings(
            Dialect::Copilot,
            r#"{"version": 1, "disableAllHooks": true, "hooks": {"preToolUse": [{"bash": "x"}]}}"#,
        );
        assert!(f.hooks.is_empty());
        assert!(f.warnings[0].1.contains("disableAllHooks"));
        let problems = |text: &str| read_settings(Dialect::Copilot, text).problems;
        assert!(
            problems(r#"{"version": 2, "hooks": {}}"#)[0]
                .1
                .contains("version")
        );
        let p = problems(
            r#"{"version": 1, "hooks": {"preToolUse": [{"bash": "x"}], "agentStop": {}}}"#,
        );
        assert_eq!(p[0].0.as_deref(), Some("agentStop"));
        assert!(
            read_settings(
                Dialect::Copilot,
                r#"{"version": 1, "hooks": {"preToolUse": [{"bash": "x"}], "agentStop": {}}}"#
            )
            .hooks
            .is_empty()
        );
        let p = problems(r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command"}]}}"#);
        assert_eq!(p[0].0.as_deref(), Some("preToolUse[0]"));
        let p =
            problems(r#"{"version": 1, "hooks": {"preToolUse": [{"exec": "x", "bash": "y"}]}}"#);
        assert!(p[0].1.contains("exec"), "{p:?}");
        let f = read_settings(
            Dialect::Copilot,
            r#"{"version": 1, "hooks": {"preToolUse": [{"powershell": "x.ps1"}, {"bash": "y", "env": {"A": "1"}},
                {"bash": "hookhost hook --for copilot"}]}}"#,
        );
        assert_eq!(f.hooks.len(), 1);
        assert_eq!(f.warnings.len(), 3, "{:?}", f.warnings);
    }
}
