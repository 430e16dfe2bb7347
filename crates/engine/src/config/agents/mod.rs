//! Other agents' hook files -> native hook objects: the configuration's side of the dialects
//! (DESIGN §10). It reads files and tables; it renders, answers and decides nothing (run-time
//! translation is `translate/`, above the decision; nothing here imports it).
//!
//! Claude Code (`settings.json`), Gemini CLI (`settings.json`) and Codex (`hooks.json`, and
//! the `[hooks]` tables of its `config.toml`) nest hooks as
//! `{"hooks": {Event: [{"matcher": ..., "hooks": [{"type": "command", ...}]}]}}`; Cursor and
//! GitHub Copilot CLI list them flat, `{"version": 1, "hooks": {event: [{...}]}}`; ling lists
//! rules `[{event, matcher, handler: {type, command | url, ...}, async}]`. Each hook becomes
//! the native object it means (`command`/`url`, `match`, `timeout` in ms, `if`,
//! `"dialect"`), which the native reader then validates like any other: one validator for
//! every hook. Keys the agent accepts but hookhost does not implement are warnings (a real
//! settings file must never stop the agent); a file that is not the agent's format is an
//! error naming the event and index and what to fix. Other keys of a settings file (Claude
//! Code's `permissions`, `env`, ...) are none of hookhost's business and ignored.
//!
//! What lives where:
//! - `reader.rs`: the one reader of `{"hooks": {event: [...]}}` files, and the fields every
//!   agent's hook shares; `format.rs`: one table per agent (its shape, event names, examples,
//!   units, wildcards) that drives it;
//! - `nested.rs`, `cursor.rs`, `copilot.rs`: the fields of a hook only that agent has;
//!   `cline.rs`: Cline's hooks directories, one executable per event;
//!   `ling.rs`: ling's list of rules; `codex_toml.rs`: Codex's `config.toml`;
//! - `switches.rs`: each agent's own on/off switches, read as that agent reads them, into
//!   [`AgentSwitch`]es: a switch turns off the hooks of its own file here (their native
//!   object says `"enabled": false`), and the config loader carries it to the agent's other
//!   files of the same rank and below (`config/switches.rs`);
//! - `sources.rs`: which files are read, in `list` order ([`foreign_sources`]);
//!   `plugins.rs`: which Claude Code plugins are enabled, whose they are, and
//!   `${CLAUDE_PLUGIN_ROOT}` in their commands;
//! - [`events`], [`tools`]: the pure tables both jobs use, each agent's names for the events
//!   and for the core's tools and their argument keys.
//!
//! The public path of these is still `hookhost::dialect::...` (re-exports).

pub mod events;
pub mod tools;

pub(crate) mod claude_like;
mod cline;
mod codex_toml;
mod copilot;
mod cursor;
mod format;
mod frontmatter;
mod gemini_wiring;
mod ling;
mod nested;
mod plugins;
mod reader;
mod sources;
mod switches;
mod windsurf;

pub use codex_toml::codex_state_key;
pub use frontmatter::frontmatter_notes;
pub use gemini_wiring::{GEMINI_BEFORE_MODEL_FIX, gemini_before_model_wiring};
pub use plugins::{PluginEnv, PluginHooks, Plugins, claude_plugins, expand_plugin_root};
pub(crate) use plugins::{ensure_plugin_data, expand_root_variable};
pub use sources::{ForeignSource, foreign_sources};

use super::Scope;
use crate::Dialect;
use crate::event::Event;
use serde_json::Value;
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

/// Claude Code's limits on HTTP hooks a settings file sets (`config/http_policy.rs`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpLimits {
    /// `allowedHttpHookUrls`: URL patterns (`*` any run of characters), when set.
    pub urls: Option<Vec<String>>,
    /// `httpHookAllowedEnvVars`: variable names, when set.
    pub env_vars: Option<Vec<String>>,
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
    /// Its limits on HTTP hooks (Claude Code's settings only).
    pub http_limits: HttpLimits,
}

/// Reads the hooks of another agent's JSON file (`d` is not native).
pub fn read_settings(d: Dialect, text: &str) -> ForeignFile {
    let mut f = ForeignFile::default();
    if d == Dialect::Cline {
        f.problems.push((
            None,
            "Cline's hooks are files named after their event, not a settings file".into(),
        ));
        return f;
    }
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
                    "{}{}",
                    crate::jsonc::json_error(&e),
                    hint.unwrap_or_else(|| format!(
                        "; fix the file (it is {}'s, hookhost reads its hooks)",
                        agent_name(d)
                    ))
                ),
            ));
            return f;
        }
    };
    f.switches = switches::agent_switches(d, &root, &mut f);
    if d == Dialect::Claude {
        f.http_limits = switches::claude_http_limits(&root, &mut f);
    }
    match format::of(d) {
        Some(fmt) => reader::read_hooks(fmt, &root, &mut f),
        None => ling::read_ling(&root, &mut f),
    }
    switch_off_own(&mut f);
    f
}

/// Reads another agent's file `file` of `scope`: Codex's `config.toml` as TOML, any other
/// as JSON; and what depends on where the file is (Cursor runs its user hooks in
/// `~/.cursor`, the user file's directory).
pub fn read_settings_at(d: Dialect, text: &str, file: &Path, scope: Scope) -> ForeignFile {
    if d == Dialect::Cline {
        return cline::read_cline(text, file);
    }
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
        other => other.agent(),
    }
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

/// What reading an agent's file says of its entry for hookhost's own adapter.
pub const ADAPTER_SKIPPED: &str = "this is hookhost's own adapter (`hookhost hook`); skipped, as hookhost runs the native hooks directly";

/// The command hookhost wires as `agent`'s hook (the plugins, the README's and docs'
/// snippets; issue 43): the small static client `hookhost-warm` when it is on `PATH` (it asks
/// the warm engine, and runs `hookhost` in its place when none answers), else `hookhost`
/// itself. One of the two `exec`s replaces the shell, so the adapter runs once and its exit
/// status (2 blocks) is the command's; an `exec` that fails ends the shell (126/127) without
/// trying the other. For an agent that runs its hook commands through a shell (every one
/// hookhost wires: docs/install.md).
pub fn adapter_command(agent: &str) -> String {
    format!("{WIRED_PREFIX}{agent}{WIRED_MIDDLE}{agent}")
}

/// [`adapter_command`] around its agent.
const WIRED_PREFIX: &str =
    "command -v hookhost-warm >/dev/null 2>&1 && exec hookhost-warm hook --for ";
const WIRED_MIDDLE: &str = " || exec hookhost hook --for ";

/// Whether `command` is exactly [`adapter_command`] of one agent.
fn is_wired_form(command: &str) -> bool {
    let Some(rest) = command.trim().strip_prefix(WIRED_PREFIX) else {
        return false;
    };
    let Some((agent, again)) = rest.split_once(WIRED_MIDDLE) else {
        return false;
    };
    !agent.is_empty() && agent.bytes().all(|b| b.is_ascii_lowercase()) && agent == again
}

/// The adapter command a hook script runs when that is all it runs (its one line that is not
/// blank or a comment, `exec` in front or not): Cline's hook files that hookhost skips as its
/// own, and the scripts `hookhost install --for cline` writes. `None` for any other script.
pub fn script_adapter(text: &str) -> Option<&str> {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let line = lines.next()?;
    if lines.next().is_some() || !is_adapter(line) {
        return None;
    }
    Some(line.strip_prefix("exec ").unwrap_or(line).trim())
}

/// Whether a command runs `hookhost hook` (the outbound adapter), by any path to the binary
/// or through the thin client `hookhost-warm`, and nothing else: a command that chains more
/// (`;`, `&&`, `|`, a substitution, a process substitution) may hold a guard of its own,
/// which must not be skipped with the adapter; the one chain taken is [`adapter_command`]'s,
/// exactly.
pub fn is_adapter(command: &str) -> bool {
    if is_wired_form(command) {
        return true;
    }
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
        .is_some_and(|n| n == "hookhost" || n == "hookhost.exe" || n == "hookhost-warm")
        && rest.next().is_some_and(|w| w == "hook")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The wired command is the adapter; a chain that adds to it, or another program, is not.
    #[test]
    fn the_wired_command_and_the_thin_client_are_the_adapter() {
        for agent in ["claude", "gemini", "codex", "cursor", "copilot"] {
            assert!(is_adapter(&adapter_command(agent)), "{agent}");
        }
        assert!(is_adapter("hookhost-warm hook --for claude"));
        assert!(is_adapter("/usr/local/bin/hookhost hook --for codex"));
        for not in [
            format!("{}; rm -rf ~", adapter_command("claude")),
            adapter_command("claude").replace(
                "|| exec hookhost hook --for claude",
                "|| exec hookhost hook --for gemini",
            ),
            adapter_command("claude").replace("exec hookhost-warm", "exec evil"),
            "hookhost-warm hook --for claude && ./guard.sh".to_string(),
            "hookhost-warmer hook --for claude".to_string(),
        ] {
            assert!(!is_adapter(&not), "{not}");
        }
    }

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
        // Notification is an event hookhost fires too; the prompt hook asks the user's model.
        assert_eq!(f.hooks.len(), 4);
        assert_eq!(f.hooks[0].event, Event::Notification);
        assert_eq!(
            f.hooks[1].hook,
            json!({"dialect": "claude", "command": "x.sh", "match": "Bash", "timeout": 30000})
        );
        assert_eq!(f.hooks[2].index, 1);
        assert_eq!(
            (f.hooks[3].event, &f.hooks[3].hook),
            (Event::Stop, &json!({"dialect": "claude", "prompt": "p"}))
        );
        assert_eq!(f.warnings.len(), 1, "{:?}", f.warnings);
    }

    #[test]
    fn the_adapter_on_gemini_before_model_is_no_warning() {
        let wired = read_settings(
            Dialect::Gemini,
            r#"{"hooks": {"BeforeModel": [{"hooks": [{"type": "command", "command": "/bin/hookhost hook --for gemini"}]}]}}"#,
        );
        assert!(
            wired.warnings.is_empty() && wired.problems.is_empty(),
            "{wired:?}"
        );
        assert!(wired.hooks.is_empty());
        // Another hook there still never runs under hookhost: said.
        let other = read_settings(
            Dialect::Gemini,
            r#"{"hooks": {"BeforeModel": [{"hooks": [{"type": "command", "command": "/bin/hookhost hook --for gemini"}, {"type": "command", "command": "log.sh"}]}]}}"#,
        );
        assert_eq!(other.warnings.len(), 1, "{other:?}");
    }

    #[test]
    fn codex_prompt_and_agent_hooks_ask_the_users_model_and_gemini_has_none() {
        let f = read_settings(
            Dialect::Codex,
            r#"{"hooks": {"Stop": [{"hooks": [
                {"type": "agent", "prompt": "done? $ARGUMENTS", "model": "gpt-x"},
                {"type": "prompt"}]}]}}"#,
        );
        assert_eq!(f.hooks.len(), 1);
        assert_eq!(
            f.hooks[0].hook,
            json!({"dialect": "codex", "agent": "done? $ARGUMENTS"})
        );
        assert!(
            f.warnings[0].1.contains("`model` is not used"),
            "{:?}",
            f.warnings
        );
        assert!(
            f.problems[0].1.contains("needs `prompt`"),
            "{:?}",
            f.problems
        );
        let f = read_settings(
            Dialect::Gemini,
            r#"{"hooks": {"AfterAgent": [{"hooks": [{"type": "prompt", "prompt": "p"}]}]}}"#,
        );
        assert!(f.hooks.is_empty() && f.warnings[0].1.contains("not implemented"));
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
