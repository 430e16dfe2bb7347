//! The agent core's side of hooks: the [`ToolHooks`] trait the loop calls at each trigger
//! point, and [`SubsetHooks`] for subagents.
//!
//! This module knows nothing of the hooks engine (config files, processes, wasm): the engine
//! implements `ToolHooks` (`hooks::Runner`), and an agent can plug in any other
//! implementation, such as a recording fake in tests.

mod tool_hooks;

pub use tool_hooks::{HookContext, HookVerdict, NoHooks, SubsetHooks, ToolHooks, Verdict};
