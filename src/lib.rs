//! # hookhost
//!
//! A hook host for coding agents. Users declare hooks in `.coding-agent/hooks.json` (and
//! `~/.coding-agent/hooks.json`); the agent fires lifecycle events ([`Event`]:
//! `SessionStart`, `UserPromptSubmit`, `PreToolUse`, `PostToolUse`, `PreCompact`, `Stop`,
//! `SubagentStop`, `SessionEnd`); the engine picks the hooks of that event (whole-name regex
//! on the tool name), runs them in declared order, and turns their exit codes and output into
//! one [`Decision`]: pass, block (a tool call) or force (the agent to keep working).
//!
//! A hook is a shell command (`sh -c`), a `.wasm` module run inside wasmtime with the same
//! stdin/exit-code contract but a real sandbox (fuel and wall-clock timeouts, one memory cap,
//! no network, no host environment, only the project directory), an HTTP endpoint, or an
//! in-process Rust function ([`FnHook`]). Every kind ends as an exit status plus output and
//! goes through one decision table.
//!
//! ## Embedding in twenty lines
//!
//! ```no_run
//! use hookhost::{Decision, Event, FnResponse, Payload, Runner, TrustPolicy, TrustStore};
//!
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let project = std::path::Path::new("/path/to/project");
//! let runner = Runner::builder(project)           // the project's and the user's hooks.json
//!     .trust(TrustPolicy::Block, TrustStore::load(dirs::home_dir().as_deref())?)
//!     .hook(Event::PreToolUse, Some("write_file"), "no-env", |p: &Payload| {
//!         match p.tool_args().and_then(|a| a["path"].as_str()) {
//!             Some(path) if path.ends_with(".env") => FnResponse::block("secrets"),
//!             _ => FnResponse::pass(),
//!         }
//!     })
//!     .build()?;                                   // immutable from here on; share it in an Arc
//! let payload = Payload::pre_tool_use(project, "session-1", "bash",
//!     serde_json::json!({"command": "rm -rf /"}));
//! let report = runner.fire(payload).await;         // every matching hook, in order
//! if report.decision == Decision::Block {
//!     println!("blocked: {}", report.reason.unwrap_or_default());
//! }
//! # Ok(()) }
//! ```
//!
//! [`Runner`] also implements [`agent::ToolHooks`], the trait the agent loop in [`agent`]
//! calls at every trigger point; [`agent::SubsetHooks`] wraps it for subagents. Tests inject
//! a fake [`Spawner`] with [`RunnerBuilder::spawner`] to drive every cell of the decision
//! table without a process.
//!
//! ## Where things are
//! - [`agent`]: the agent core (loop, [`agent::ToolHooks`], permission checker, TodoGuard,
//!   model trait, tools). It does not depend on the engine.
//! - [`hooks`]: the engine. [`hooks::config`] reads the config, `Runner::fire` selects, gates
//!   ([`hooks::trust`]), spawns ([`hooks::spawner`]: shell, wasm, http) and judges
//!   ([`judge`]). [`hooks::dialect`] lets Claude Code, Gemini CLI, Codex and ling hooks run
//!   unchanged (each with its agent's payload and rules) and answers those agents when
//!   hookhost runs inside them.
//!
//! - [`serve`] (feature `serve`, on with `cli`): the engine set-up the CLI and the language
//!   packages share, and `hookhost serve`, the engine over JSON-RPC.
//!
//! The command line (`hookhost run`, `check`, ...) is the default `cli` feature; with
//! `default-features = false` only the engine and the agent core are compiled.

#![warn(missing_docs)]

pub mod agent;
pub mod hooks;
pub mod package;
mod process;
#[cfg(feature = "serve")]
pub mod serve;

pub use agent::{HookContext, HookVerdict, ToolHooks, Verdict};
pub use hooks::{
    ConfigError, ConfigErrors, ConfigPaths, Decision, Event, EventReport, ExitStatus, FnHook,
    FnOptions, FnResponse, HookKind, HookRecord, HookSet, HookSpawner, Outcome, Payload, Runner,
    RunnerBuilder, RunnerError, Scope, SpawnOutput, SpawnRequest, Spawner, TrustPolicy, TrustStore,
    judge,
};
