//! The agents `hookhost install` wires and `doctor` and `prove` look at: one row per agent,
//! keyed by [`Dialect`]: its executable, its user settings file, the shape of a hook entry
//! there, the events it fires that hookhost handles, and the timeout unit. A new agent is one
//! row (and, when its file has a new shape, one [`Shape`]).
//!
//! The wired command is [`wired_command`], in one place: `<absolute path> hook --for AGENT`.

use hookhost::dialect::Dialect;
use hookhost::dialect::events::{AGENT_EVENTS, agent_name, from_agent_name};
use std::path::{Path, PathBuf};

/// How an agent's settings file holds a hook entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Claude Code's, and Codex's and Gemini CLI's: `{"hooks": {EVENT: [{"matcher": M,
    /// "hooks": [{"type": "command", "command": C, "timeout": T}]}]}}`; `matcher` only on
    /// tool events (this value).
    Groups { tool_matcher: &'static str },
    /// Cursor's: `{"version": 1, "hooks": {EVENT: [{"command": C, "timeout": T}]}}`.
    CursorFlat,
    /// GitHub Copilot CLI's: `{"version": 1, "hooks": {EVENT: [{"type": "command", "bash":
    /// C, "timeoutSec": T}]}}`.
    CopilotFlat,
    /// Windsurf's: `{"hooks": {EVENT: [{"command": C}]}}` (no timeout: Windsurf has none).
    WindsurfFlat,
    /// No settings file: `user_file` is a directory with one executable per event, named
    /// after it (Cline's), each a script that runs the adapter ([`super::script_dir`]).
    ScriptDir,
    /// No settings entries: the file is hookhost's plugin for the agent, this text
    /// ([`super::plugin_file`]), which runs the adapter on every event of the row.
    PluginFile { text: &'static str },
}

impl Shape {
    /// The key of a hook entry that holds its command.
    pub fn command_key(self) -> &'static str {
        match self {
            Shape::CopilotFlat => "bash",
            _ => "command",
        }
    }

    /// The top-level keys a new file starts with besides `hooks` (`"version": 1`).
    pub fn versioned(self) -> bool {
        matches!(self, Shape::CursorFlat | Shape::CopilotFlat)
    }
}

/// Where the events an agent fires come from.
#[derive(Debug, Clone, Copy)]
pub enum Events {
    /// Its rows of the engine's event table (`config/agents/events.rs`), as the plugins wire
    /// them: all but the events whose hook replaces the agent's own work.
    Table,
    /// Listed here (agents whose event names the engine reads per tool kind or from fields).
    Listed(&'static [&'static str]),
    /// The events its row of the engine's Claude-like table fires, under Claude Code's
    /// names (`config/agents/claude_like.rs`).
    ClaudeLike,
}

/// One agent.
#[derive(Debug)]
pub struct AgentRow {
    pub dialect: Dialect,
    /// Its executable, looked for on PATH.
    pub binary: &'static str,
    /// Its user settings file, relative to the home directory.
    pub user_file: &'static str,
    /// Whether that file may have `//` and `/* */` comments (Gemini CLI's may).
    pub comments: bool,
    pub shape: Shape,
    pub events: Events,
    /// The timeout of the wired entry, in the agent's unit (60 s).
    pub timeout: u64,
}

/// Cursor's events hookhost handles: the generic tool events (every tool kind, so not the
/// per-kind `beforeShellExecution` too, which would run the adapter twice per call) and the
/// rest (cursor.com/docs/hooks).
const CURSOR_EVENTS: &[&str] = &[
    "sessionStart",
    "beforeSubmitPrompt",
    "preToolUse",
    "postToolUse",
    "subagentStop",
    "preCompact",
    "stop",
    "sessionEnd",
];

/// GitHub Copilot CLI's events hookhost handles (docs.github.com/en/copilot/reference/hooks-reference).
const COPILOT_EVENTS: &[&str] = &[
    "sessionStart",
    "userPromptSubmitted",
    "preToolUse",
    "postToolUse",
    "subagentStop",
    "preCompact",
    "agentStop",
    "sessionEnd",
];

/// The opencode events hookhost's opencode plugin hands over (plugins/opencode/hookhost.js).
const OPENCODE_EVENTS: &[&str] = &[
    "tool.execute.before",
    "tool.execute.after",
    "session.created",
    "session.idle",
];

/// Windsurf's Cascade events hookhost handles (docs.windsurf.com/windsurf/cascade/hooks):
/// one per tool kind before and after, the prompt, and the end of a response.
const WINDSURF_EVENTS: &[&str] = &[
    "pre_run_command",
    "post_run_command",
    "pre_read_code",
    "post_read_code",
    "pre_write_code",
    "post_write_code",
    "pre_mcp_tool_use",
    "post_mcp_tool_use",
    "pre_user_prompt",
    "post_cascade_response",
];

/// Every agent `install --for` takes, in the order `doctor` shows them.
pub const AGENTS: &[AgentRow] = &[
    AgentRow {
        dialect: Dialect::Claude,
        binary: "claude",
        user_file: ".claude/settings.json",
        comments: false,
        shape: Shape::Groups { tool_matcher: "*" },
        events: Events::Table,
        timeout: 60,
    },
    AgentRow {
        dialect: Dialect::Codex,
        binary: "codex",
        user_file: ".codex/hooks.json",
        comments: false,
        shape: Shape::Groups { tool_matcher: "*" },
        events: Events::Table,
        timeout: 60,
    },
    AgentRow {
        dialect: Dialect::Gemini,
        binary: "gemini",
        user_file: ".gemini/settings.json",
        comments: true,
        shape: Shape::Groups { tool_matcher: ".*" },
        events: Events::Table,
        // Gemini CLI's unit is the millisecond.
        timeout: 60_000,
    },
    AgentRow {
        dialect: Dialect::Cursor,
        binary: "cursor-agent",
        user_file: ".cursor/hooks.json",
        comments: false,
        shape: Shape::CursorFlat,
        events: Events::Listed(CURSOR_EVENTS),
        timeout: 60,
    },
    AgentRow {
        dialect: Dialect::Copilot,
        binary: "copilot",
        // Copilot CLI reads every `*.json` of ~/.copilot/hooks/: hookhost's is its own file.
        user_file: ".copilot/hooks/hookhost.json",
        comments: false,
        shape: Shape::CopilotFlat,
        events: Events::Listed(COPILOT_EVENTS),
        timeout: 60,
    },
    // The Claude-like agents: their user file of `config/agents/claude_like.rs`, Claude Code's
    // shape. VS Code has no row: its user hook files are Claude Code's and Copilot CLI's
    // (`~/.claude/settings.json`, `~/.copilot/hooks/`), which those agents run too.
    claude_like(Dialect::Qwen, "qwen", ".qwen/settings.json", "*", 60),
    claude_like(Dialect::Qoder, "qodercli", ".qoder/settings.json", "*", 60),
    // Grok CLI reads every `*.json` of ~/.grok/hooks/: hookhost's is its own file.
    claude_like(Dialect::Grok, "grok", ".grok/hooks/hookhost.json", "*", 60),
    // Factory Droid's docs name ~/.factory/hooks.json first, but `droid exec` 0.215.0 ran
    // the hooks of ~/.factory/settings.json only (a hooks.json alone ran none: the real-agents
    // tier), so the wiring goes where the agent runs it.
    claude_like(Dialect::Droid, "droid", ".factory/settings.json", "*", 60),
    // Auggie's unit is the millisecond.
    claude_like(
        Dialect::Auggie,
        "auggie",
        ".augment/settings.json",
        "*",
        60_000,
    ),
    // opencode loads every `*.js` of ~/.config/opencode/plugins/: hookhost's plugin is one
    // file there (XDG_CONFIG_HOME is not read: a variable, and the place is the default).
    AgentRow {
        dialect: Dialect::Opencode,
        binary: "opencode",
        user_file: ".config/opencode/plugins/hookhost.js",
        comments: false,
        shape: Shape::PluginFile {
            text: super::plugin_file::OPENCODE_PLUGIN,
        },
        events: Events::Listed(OPENCODE_EVENTS),
        timeout: 0,
    },
    // Cline runs ~/Documents/Cline/Hooks/EVENT (one executable per event, named after it).
    AgentRow {
        dialect: Dialect::Cline,
        binary: "cline",
        user_file: "Documents/Cline/Hooks",
        comments: false,
        shape: Shape::ScriptDir,
        events: Events::Table,
        timeout: 0,
    },
    AgentRow {
        dialect: Dialect::Windsurf,
        binary: "windsurf",
        user_file: ".codeium/windsurf/hooks.json",
        comments: false,
        shape: Shape::WindsurfFlat,
        events: Events::Listed(WINDSURF_EVENTS),
        timeout: 0,
    },
    // goose reads each plugin of ~/.agents/plugins/ with a `hooks/hooks.json`; its matchers
    // are regular expressions (`*` is none).
    claude_like(
        Dialect::Goose,
        "goose",
        ".agents/plugins/hookhost/hooks/hooks.json",
        ".*",
        60,
    ),
];

/// The row of a Claude-like agent: `timeout` in its unit (Qwen Code reads 60 as seconds: below
/// 1000 they are seconds).
const fn claude_like(
    dialect: Dialect,
    binary: &'static str,
    user_file: &'static str,
    tool_matcher: &'static str,
    timeout: u64,
) -> AgentRow {
    AgentRow {
        dialect,
        binary,
        user_file,
        comments: false,
        shape: Shape::Groups { tool_matcher },
        events: Events::ClaudeLike,
        timeout,
    }
}

/// The row of `d`, if hookhost installs into that agent.
pub fn row(d: Dialect) -> Option<&'static AgentRow> {
    AGENTS.iter().find(|r| r.dialect == d)
}

/// The agents `--for` takes, for messages: `claude, codex, gemini, cursor, copilot, ...`.
pub fn names() -> String {
    AGENTS
        .iter()
        .map(|r| r.dialect.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

impl AgentRow {
    /// The events to wire, in the agent's names.
    pub fn events(&self) -> Vec<&'static str> {
        match self.events {
            Events::Listed(list) => list.to_vec(),
            Events::ClaudeLike => hookhost::Event::ALL
                .into_iter()
                .filter(|e| !replaces_the_agents_own(*e))
                .filter_map(|e| agent_name(self.dialect, e))
                .collect(),
            Events::Table => AGENT_EVENTS
                .iter()
                .filter(|(d, _, e)| *d == self.dialect && !replaces_the_agents_own(*e))
                .map(|(_, name, _)| *name)
                .collect(),
        }
    }

    /// Whether `event` (the agent's name) is about one tool call (its entry gets the
    /// agent's match-all matcher).
    pub fn is_tool_event(&self, event: &str) -> bool {
        match self.shape {
            Shape::Groups { .. } => from_agent_name(self.dialect, event)
                .is_some_and(hookhost::Event::takes_tool_matcher),
            _ => false,
        }
    }

    /// The user settings file under `home`.
    pub fn file(&self, home: &Path) -> PathBuf {
        home.join(self.user_file)
    }
}

/// Events whose hook replaces what the agent itself does (Claude Code's WorktreeCreate and
/// WorktreeRemove: a hook there creates the worktree instead of `git worktree`): never wired
/// by install or the plugins.
pub fn replaces_the_agents_own(e: hookhost::Event) -> bool {
    matches!(
        e,
        hookhost::Event::WorktreeCreate | hookhost::Event::WorktreeRemove
    )
}

/// The command every agent's entry runs, by absolute path, as the outbound adapter for `d`:
/// the static client `hookhost-warm` installed beside this hookhost (issue 43: the fast path,
/// which asks the warm engine and runs this hookhost when none answers), else this hookhost;
/// with `--home` when install was given one (the adapter then reads the same
/// `~/.coding-agent/` install was pointed at). The one place the wired command is made.
pub fn wired_command(exe: &Path, d: Dialect, home: Option<&Path>) -> String {
    let quote = |p: &Path| {
        let s = p.to_string_lossy();
        shlex::try_quote(&s)
            .map(std::borrow::Cow::into_owned)
            .unwrap_or_else(|_| s.into_owned())
    };
    let client = exe.with_file_name(if cfg!(windows) {
        "hookhost-warm.exe"
    } else {
        "hookhost-warm"
    });
    let program = if client.is_file() {
        client.as_path()
    } else {
        exe
    };
    let mut cmd = format!("{} hook --for {}", quote(program), d.as_str());
    if let Some(home) = home {
        cmd.push_str(&format!(" --home {}", quote(home)));
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows of the three agents with plugins wire exactly what the plugins wire.
    #[test]
    fn table_events_match_the_plugins() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../plugins");
        for d in [Dialect::Claude, Dialect::Codex, Dialect::Gemini] {
            let text = std::fs::read_to_string(root.join(d.as_str()).join("hooks/hooks.json"))
                .expect("plugin hooks.json");
            let doc: serde_json::Value = serde_json::from_str(&text).expect("json");
            let mut plugin: Vec<&str> = doc["hooks"]
                .as_object()
                .expect("hooks")
                .keys()
                .map(String::as_str)
                .collect();
            let mut ours = row(d).expect("row").events();
            plugin.sort_unstable();
            ours.sort_unstable();
            assert_eq!(plugin, ours, "{d}");
        }
    }

    #[test]
    fn the_command_is_quoted_and_absolute() {
        let cmd = wired_command(Path::new("/opt/my tools/hookhost"), Dialect::Codex, None);
        assert_eq!(cmd, "'/opt/my tools/hookhost' hook --for codex");
        assert!(hookhost::dialect::is_adapter(&cmd));
        let cmd = wired_command(
            Path::new("/usr/bin/hookhost"),
            Dialect::Claude,
            Some(Path::new("/h")),
        );
        assert_eq!(cmd, "/usr/bin/hookhost hook --for claude --home /h");
    }
}
