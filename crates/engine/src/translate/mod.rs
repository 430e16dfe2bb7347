//! Translation at run time, between hookhost and the agents whose hooks it runs or whose hook
//! it is (DESIGN §10): payloads out and in, answers out, the environment a hook of a dialect
//! runs with.
//!
//! This layer sits above the decision: it reads the configuration's tables (event names, tool
//! names: [`crate::config::agents`]), payloads, reports and decisions, and nothing below it
//! imports it (config, payload, output, answer, decision and the spawners do not). It decides
//! nothing and reads no file: which hooks exist is the configuration's, what an exit code
//! means is the judge's (`judge::Rules`).
//!
//! - `render`: a native [`Payload`](crate::Payload) -> the bytes a dialect's hook reads on
//!   stdin, and the reverse ([`recognise`]: a payload of any dialect, told by its shape;
//!   [`payload_from`]);
//! - `cursor`, `copilot`: Cursor's and GitHub Copilot CLI's payloads, both ways (their shapes
//!   are their own); `claude_like`: the Claude-like agents' (Qwen Code, Qoder CLI, Grok CLI,
//!   Factory Droid, Auggie, VS Code, goose), both ways; `opencode`: the payload hookhost's
//!   opencode plugin sends, both ways; `cline`: Cline's, both ways; `windsurf`: Windsurf
//!   Cascade's, both ways;
//! - `respond`: an event's report -> the answer an agent expects from its hook (the outbound
//!   adapter, `hookhost hook --for`);
//! - `env`: the variables each agent sets for its hooks, and the ones it gave hookhost;
//! - `gemini_model`: a prompt a hook replaced, sent to Gemini CLI's model through its
//!   BeforeModel hook.
//!
//! The public path is still `hookhost::dialect::...` (re-exports).

mod claude_like;
mod cline;
mod copilot;
mod cursor;
mod env;
mod gemini_model;
mod opencode;
mod render;
mod respond;
mod windsurf;

pub use env::{AgentEnv, EnvFacts, agent_variables, env, env_unset};
pub use gemini_model::{before_model_answer, rewrite_messages, route_replacement};
pub use render::{payload_from, recognise, recognise_for, render, to_native};
pub use respond::{Answer, respond};
