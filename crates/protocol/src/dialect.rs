//! [`Dialect`]: the hook contract of one agent family, as a name (DESIGN §10), with what can be
//! said of it without reading a file: its agent's name, its family, its default timeout.
//!
//! What a dialect *does* (where its files are, how its payloads and answers are translated,
//! what its exit codes mean) is the engine's `dialect` module, not this one.

use schemars::JsonSchema;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// The contract a hook was written for.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Default, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    /// hookhost's own (DESIGN §2-4): camelCase payload, milliseconds.
    #[default]
    Native,
    /// Claude Code: `.claude/settings.json`, snake_case payload, seconds.
    Claude,
    /// Gemini CLI: `.gemini/settings.json`, its event names, milliseconds.
    Gemini,
    /// Codex: `.codex/hooks.json`, Claude's shape with stricter output rules.
    Codex,
    /// The TypeScript agent hookhost's design comes from: `.ling/hooks.json`, `toolCall`.
    Ling,
    /// Cursor: `.cursor/hooks.json`, one event per tool kind (`beforeShellExecution`, ...),
    /// `permission` answers, seconds.
    Cursor,
    /// GitHub Copilot CLI: `.github/hooks/*.json`, camelCase payload without an event name,
    /// `permissionDecision` answers, `timeoutSec`.
    Copilot,
    /// Qwen Code: `.qwen/settings.json`, Claude Code's shape, Gemini CLI's tool names,
    /// milliseconds.
    Qwen,
    /// Qoder CLI: `.qoder/settings.json`, Claude Code's shape and tool names, seconds.
    Qoder,
    /// Grok CLI: `.grok/hooks/*.json`, Claude Code's shape, seconds (default 5).
    Grok,
    /// Factory Droid: `.factory/hooks.json`, Claude Code's shape, its tool names
    /// (`Execute`, `Create`), seconds.
    Droid,
    /// Augment's Auggie CLI: `.augment/settings.json`, Claude Code's shape, its tool names
    /// (`launch-process`), milliseconds.
    Auggie,
    /// VS Code's agent hooks: Claude Code's answers, `hookEventName` and `sessionId` in the
    /// payload, its tool names; it reads Copilot CLI's and Claude Code's files.
    Vscode,
    /// goose (the Open Plugins hooks format): `.agents/plugins/*/hooks/hooks.json`, an
    /// `event` field, `{"decision": "block"}` answers, seconds.
    Goose,
    /// opencode: its hooks are JS plugins (`tool.execute.before`, ...), which hookhost's
    /// plugin (`plugins/opencode/hookhost.js`) hands to `hookhost hook --for opencode` as
    /// `{"event", "tool", "args", "sessionID", "callID", "cwd"}`; answers
    /// `{"block", "reason", "args", "output"}`. No hook file of its own.
    Opencode,
    /// Cline: an executable per event in a hooks directory (`.clinerules/hooks/PreToolUse`),
    /// camelCase payload with the event's own object (`preToolUse`), `{"cancel": true}`
    /// answers, 30 s.
    Cline,
    /// Windsurf's Cascade hooks: `.windsurf/hooks.json`, `~/.codeium/windsurf/hooks.json`,
    /// events per tool kind (`pre_run_command`, `pre_write_code`, ...), `agent_action_name`
    /// and `tool_info` in the payload; exit 2 blocks, with stderr.
    Windsurf,
}

impl Dialect {
    /// Every dialect.
    pub const ALL: [Dialect; 17] = [
        Dialect::Native,
        Dialect::Claude,
        Dialect::Gemini,
        Dialect::Codex,
        Dialect::Ling,
        Dialect::Cursor,
        Dialect::Copilot,
        Dialect::Qwen,
        Dialect::Qoder,
        Dialect::Grok,
        Dialect::Droid,
        Dialect::Auggie,
        Dialect::Vscode,
        Dialect::Goose,
        Dialect::Opencode,
        Dialect::Cline,
        Dialect::Windsurf,
    ];

    /// The dialects whose hook files and payloads are Claude Code's shape with a few
    /// differences (their table is the engine's `config::agents::claude_like`).
    pub const CLAUDE_LIKE: [Dialect; 7] = [
        Dialect::Qwen,
        Dialect::Qoder,
        Dialect::Grok,
        Dialect::Droid,
        Dialect::Auggie,
        Dialect::Vscode,
        Dialect::Goose,
    ];

    /// Whether this is one of [`Dialect::CLAUDE_LIKE`].
    pub fn is_claude_like(self) -> bool {
        Dialect::CLAUDE_LIKE.contains(&self)
    }

    /// `native`, `claude`, `gemini`, `codex`, `ling`, `cursor`, `copilot`, `qwen`, `qoder`,
    /// `grok`, `droid`, `auggie`, `vscode`, `goose`, `opencode`, `cline` or `windsurf`.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Native => "native",
            Dialect::Claude => "claude",
            Dialect::Gemini => "gemini",
            Dialect::Codex => "codex",
            Dialect::Ling => "ling",
            Dialect::Cursor => "cursor",
            Dialect::Copilot => "copilot",
            Dialect::Qwen => "qwen",
            Dialect::Qoder => "qoder",
            Dialect::Grok => "grok",
            Dialect::Droid => "droid",
            Dialect::Auggie => "auggie",
            Dialect::Vscode => "vscode",
            Dialect::Goose => "goose",
            Dialect::Opencode => "opencode",
            Dialect::Cline => "cline",
            Dialect::Windsurf => "windsurf",
        }
    }

    /// The agent, for messages: `Claude Code`, `Gemini CLI`, `Codex`, ...
    pub fn agent(self) -> &'static str {
        match self {
            Dialect::Native => "hookhost",
            Dialect::Claude => "Claude Code",
            Dialect::Gemini => "Gemini CLI",
            Dialect::Codex => "Codex",
            Dialect::Ling => "ling",
            Dialect::Cursor => "Cursor",
            Dialect::Copilot => "GitHub Copilot CLI",
            Dialect::Qwen => "Qwen Code",
            Dialect::Qoder => "Qoder CLI",
            Dialect::Grok => "Grok CLI",
            Dialect::Droid => "Factory Droid",
            Dialect::Auggie => "Auggie",
            Dialect::Vscode => "VS Code",
            Dialect::Goose => "goose",
            Dialect::Opencode => "opencode",
            Dialect::Cline => "Cline",
            Dialect::Windsurf => "Windsurf",
        }
    }

    /// Claude Code, Gemini CLI, Codex and the Claude-like agents share one family of rules
    /// (exit 2 uses stderr, `continue: false`, failures never block unless `onError:
    /// "block"`).
    pub fn is_claude_family(self) -> bool {
        matches!(self, Dialect::Claude | Dialect::Gemini | Dialect::Codex) || self.is_claude_like()
    }

    /// The timeout a hook of this dialect gets when it states none: Claude Code's and Codex's
    /// 600 s, Gemini CLI's 60 s, Copilot CLI's documented 30 s (`timeoutSec`), Cursor's 60 s
    /// (its docs say "the platform default"; cursor-agent logs 60000 ms for a hook without
    /// one), hookhost's 10 s for native and ling hooks. The others as their hooks references
    /// say: Qoder CLI 600 s; Qwen Code, Factory Droid and Auggie 60 s; VS Code and goose 30 s;
    /// Grok CLI 5 s; Cline 30 s (its hook runner's `HOOK_EXECUTION_TIMEOUT_MS`); opencode's
    /// plugin waits for the adapter as long as hookhost's own (it has no timeout of its own).
    /// Windsurf documents none: hookhost's 30 s.
    pub fn default_timeout_ms(self) -> u64 {
        match self {
            Dialect::Claude | Dialect::Codex | Dialect::Qoder => 600_000,
            Dialect::Gemini
            | Dialect::Cursor
            | Dialect::Qwen
            | Dialect::Droid
            | Dialect::Auggie => 60_000,
            Dialect::Copilot
            | Dialect::Vscode
            | Dialect::Goose
            | Dialect::Cline
            | Dialect::Windsurf => 30_000,
            Dialect::Grok => 5_000,
            Dialect::Native | Dialect::Ling | Dialect::Opencode => crate::hook::DEFAULT_TIMEOUT_MS,
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl FromStr for Dialect {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown dialect {s:?}; expected one of: {}",
                    Dialect::ALL.map(Dialect::as_str).join(", ")
                )
            })
    }
}
