//! The agent core: the loop with every trigger point ([`Agent`]), the [`ToolHooks`] trait it
//! calls and [`SubsetHooks`] for subagents, the [`PermissionChecker`], [`TodoGuard`], the
//! [`Model`] trait with a scripted implementation, and the built-in tools.
//!
//! This crate knows nothing of the hooks engine (config files, processes, wasm) and depends on
//! no other crate of the workspace: the engine (`hookhost`) implements `ToolHooks`
//! (`hookhost::Runner`), and an agent can plug in any other implementation, such as a
//! recording fake in tests. [`process`] is the process-group control both the `bash` tool and
//! the engine's shell hooks use.

#![warn(missing_docs)]

mod agent_loop;
pub mod effects;
pub mod model;
pub mod permission;
pub mod process;
pub mod sync;
mod todo;
mod tool_hooks;
pub mod tools;

pub use agent_loop::{Agent, AgentConfig, AgentEvent, HOOK_FILES, Observer, Silent};
pub use effects::{EffectKind, EffectSet, Effects, ElicitationAnswer};
pub use model::{Message, Model, ModelTurn, Role, ScriptedModel, ToolCall, Transcript};
pub use permission::{
    DenyPrompter, Permission, PermissionChecker, Prompter, Rule, SystemGuard, TerminalPrompter,
};
pub use todo::{TodoGuard, TodoItem, TodoList, TodoStatus};
pub use tool_hooks::{
    BatchCall, HookContext, HookVerdict, NoHooks, SubsetHooks, ToolHooks, Verdict,
};
