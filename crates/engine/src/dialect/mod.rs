//! Dialects: the hook contracts of other agents, both ways (DESIGN §10).
//!
//! A [`Dialect`] is what one agent family promises its hooks: where they are configured, the
//! payload they read on stdin, the environment they run in, and the rules that turn their exit
//! code and output into a decision. Every hook has one (`native` unless its file or its
//! `"dialect"` field says otherwise), and keeps it end to end.
//!
//! This module is the public path of what is now done in two places, by job (issue 41):
//! - reading other agents' files (which files, their hooks as native hook objects, each agent's
//!   own switches) and the pure tables both jobs use (each agent's event names: `events`; tool
//!   names and argument keys: `tools`) are the configuration's: `config/agents/`;
//! - translating payloads, answers and environments at run time is `translate/`, above the
//!   decision.
//!
//! What is defined here: the [`Dialect`] enum, and `rules` (what a dialect's exit codes and
//! JSON mean, as a value, [`Rules`], that `decision::judge` applies; nothing here decides).
//! Everything else is a re-export, kept so that `hookhost::dialect::...` paths keep working
//! until 0.2.

#[doc(hidden)]
pub use crate::judge::{
    CLAUDE_TABLE, COPILOT_TABLE, NATIVE_TABLE, PlainStdout, Rules, ToolOutput, rules,
};

#[doc(hidden)]
pub use crate::config::agents::{
    ADAPTER_SKIPPED, AgentSwitch, ForeignFile, ForeignHook, ForeignSource, codex_state_key, events,
    foreign_sources, is_adapter, read_settings, read_settings_at, tools,
};
#[doc(hidden)]
pub use crate::translate::{
    AgentEnv, Answer, EnvFacts, agent_variables, env, env_unset, payload_from, recognise, render,
    respond, to_native,
};

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
}

impl Dialect {
    /// Every dialect.
    pub const ALL: [Dialect; 7] = [
        Dialect::Native,
        Dialect::Claude,
        Dialect::Gemini,
        Dialect::Codex,
        Dialect::Ling,
        Dialect::Cursor,
        Dialect::Copilot,
    ];

    /// `native`, `claude`, `gemini`, `codex`, `ling`, `cursor` or `copilot`.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Native => "native",
            Dialect::Claude => "claude",
            Dialect::Gemini => "gemini",
            Dialect::Codex => "codex",
            Dialect::Ling => "ling",
            Dialect::Cursor => "cursor",
            Dialect::Copilot => "copilot",
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
        }
    }

    /// Claude Code, Gemini CLI and Codex share one family of rules (exit 2 uses stderr,
    /// `continue: false`, failures never block unless `onError: "block"`).
    pub fn is_claude_family(self) -> bool {
        matches!(self, Dialect::Claude | Dialect::Gemini | Dialect::Codex)
    }

    /// The timeout a hook of this dialect gets when it states none: Claude Code's and Codex's
    /// 600 s, Gemini CLI's 60 s, Copilot CLI's documented 30 s (`timeoutSec`), Cursor's 60 s
    /// (its docs say "the platform default"; cursor-agent logs 60000 ms for a hook without
    /// one), hookhost's 10 s for the others.
    pub fn default_timeout_ms(self) -> u64 {
        match self {
            Dialect::Claude | Dialect::Codex => 600_000,
            Dialect::Gemini | Dialect::Cursor => 60_000,
            Dialect::Copilot => 30_000,
            Dialect::Native | Dialect::Ling => crate::config::DEFAULT_TIMEOUT_MS,
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
