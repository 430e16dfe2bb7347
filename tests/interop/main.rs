//! Interop: other agents' hooks run unchanged under hookhost (inbound, through `hookhost
//! run`), and the same hooks, imported into `.coding-agent/hooks.json`, answer each agent in
//! its own protocol through the outbound adapter (`hookhost hook --for`). Real shells,
//! python3 and node scripts, a real wasm guest. The tests that run the python3 and node
//! scripts are the `interpreters` tier (tests/README.md); the rest are the fast tier.

#[path = "../common/mod.rs"]
mod common;

mod agent;
mod claude;
mod claude_like;
mod cline;
mod corpus;
mod cursor_copilot;
mod fixtures;
mod gemini;
mod http;
mod opencode;
mod others;
mod windsurf;
