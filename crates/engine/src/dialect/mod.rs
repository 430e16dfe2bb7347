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
    ADAPTER_SKIPPED, AgentSwitch, ForeignFile, ForeignHook, ForeignSource, GEMINI_BEFORE_MODEL_FIX,
    PluginHooks, Plugins, adapter_command, claude_plugins, codex_state_key, events,
    foreign_sources, gemini_before_model_wiring, is_adapter, read_settings, read_settings_at,
    script_adapter, tools,
};
#[doc(hidden)]
pub use crate::translate::{
    AgentEnv, Answer, EnvFacts, agent_variables, before_model_answer, env, env_unset, payload_from,
    recognise, recognise_for, render, respond, rewrite_messages, route_replacement, to_native,
};

#[doc(no_inline)]
pub use hookhost_protocol::Dialect;
