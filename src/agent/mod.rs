//! The agent core: the loop with every trigger point ([`Agent`]), the [`ToolHooks`] trait it
//! calls and [`SubsetHooks`] for subagents, the [`PermissionChecker`], [`TodoGuard`], the
//! [`Model`] trait with a scripted implementation, and the built-in tools.
//!
//! This module knows nothing of the hooks engine (config files, processes, wasm): the engine
//! implements `ToolHooks` (`hooks::Runner`), and an agent can plug in any other
//! implementation, such as a recording fake in tests.

mod agent_loop;
pub mod effects;
pub mod model;
pub mod permission;
mod todo;
mod tool_hooks;
pub mod tools;

pub use agent_loop::{Agent, AgentConfig, AgentEvent, Observer, Silent};
pub use effects::{EffectKind, EffectSet, Effects};
pub use model::{Message, Model, ModelTurn, Role, ScriptedModel, ToolCall, Transcript};
pub use permission::{
    DenyPrompter, Permission, PermissionChecker, Prompter, Rule, TerminalPrompter,
};
pub use todo::{TodoGuard, TodoItem, TodoList, TodoStatus};
pub use tool_hooks::{HookContext, HookVerdict, NoHooks, SubsetHooks, ToolHooks, Verdict};
