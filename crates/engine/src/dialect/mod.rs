//! Dialects: the hook contracts of other agents, both ways (DESIGN §10).
//!
//! A [`Dialect`] is what one agent family promises its hooks: where they are configured, the
//! payload they read on stdin, the environment they run in, and the rules that turn their exit
//! code and output into a decision. Every hook has one (`native` unless its file or its
//! `"dialect"` field says otherwise), and keeps it end to end.
//!
//! What lives where:
//! - `sources`: which other agents' files are read, in `list` order ([`foreign_sources`]);
//! - `settings`: another agent's settings file -> native hook objects (with `"dialect"`),
//!   read then by the native config reader, so one validator judges every hook (`ling_file`:
//!   ling's list of rules; `codex_config`: the `[hooks]` tables of Codex's `config.toml`;
//!   `cursor_file`: Cursor's `hooks.json`; `copilot_file`: GitHub Copilot CLI's
//!   `.github/hooks/*.json`), and each agent's own switches;
//! - `render`: a native [`Payload`](crate::Payload) -> the bytes a dialect's hook reads, and the reverse
//!   ([`recognise`]: a payload of any dialect, told by its shape);
//! - `env`: the variables each agent sets for its hooks, and the ones it gave hookhost;
//! - `tools`: the alias map between the core's tool names and argument keys and each agent's;
//! - `events`: each agent's names for the events, and the events it fires that mean nothing
//!   to hookhost;
//! - `respond`: an event's report -> the answer an agent expects from its hook (the outbound
//!   adapter, `hookhost hook --for`).
//!
//! - `rules`: what a dialect's exit codes and JSON mean, as a value ([`Rules`]) that
//!   `decision::judge` applies; nothing here decides.

mod codex_config;
mod copilot_file;
mod copilot_payload;
pub(crate) use copilot_payload::iso_of_ms;
mod cursor_file;
mod cursor_payload;
mod env;
pub mod events;
mod ling_file;
mod render;
mod respond;
mod rules;
mod settings;
mod sources;
pub mod tools;

pub use codex_config::codex_state_key;
pub use env::{AgentEnv, EnvFacts, agent_variables, env, env_unset};
pub use render::{payload_from, recognise, render, to_native};
pub use respond::{Answer, respond};
pub use rules::{CLAUDE_TABLE, COPILOT_TABLE, NATIVE_TABLE, PlainStdout, Rules, ToolOutput, rules};
pub(crate) use settings::agent_name;
pub use settings::{
    ADAPTER_SKIPPED, AgentSwitch, ForeignFile, ForeignHook, is_adapter, read_settings,
    read_settings_at,
};
pub use sources::{ForeignSource, foreign_sources};

#[doc(no_inline)]
pub use hookhost_protocol::Dialect;
