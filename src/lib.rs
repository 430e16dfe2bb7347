//! # hookhost
//!
//! A hook host for coding agents. Users declare hooks in `.coding-agent/hooks.json` (and
//! `~/.coding-agent/hooks.json`); the agent fires lifecycle events (`SessionStart`,
//! `UserPromptSubmit`, `PreToolUse`, `PostToolUse`, `PreCompact`, `Stop`, `SubagentStop`,
//! `SessionEnd`); the engine picks the hooks of that event (whole-name regex on the tool
//! name), runs them in declared order, and turns their exit codes and output into one
//! decision: pass, block (a tool call) or force (the agent to keep working).
//!
//! A hook is a shell command (`sh -c`), a `.wasm` module run inside wasmtime with the same
//! stdin/exit-code contract but a real sandbox (fuel and wall-clock timeouts, a memory cap, no
//! network, no host environment, only the project directory), an HTTP endpoint, or an
//! in-process Rust function.
//!
//! - [`agent`]: the agent core's side: the [`agent::ToolHooks`] trait the loop calls, and
//!   [`agent::SubsetHooks`] for subagents. It does not depend on the engine.
//! - [`hooks`]: the engine. [`hooks::Runner`] loads the config and implements `ToolHooks`;
//!   [`hooks::decision`] holds the decision table; [`hooks::spawner`] runs one hook through
//!   the [`hooks::Spawner`] seam (shell, wasm, http).
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use hookhost::hooks::{Payload, Runner, Decision};
//! let project = std::path::Path::new("/path/to/project");
//! let runner = Runner::load(project)?;
//! let payload = Payload::pre_tool_use(project, "session-1", "bash",
//!     serde_json::json!({"command": "rm -rf /"}));
//! let report = runner.fire(payload).await;
//! if report.decision == Decision::Block {
//!     println!("blocked: {}", report.reason.unwrap_or_default());
//! }
//! # Ok(()) }
//! ```

pub mod agent;
pub mod hooks;
