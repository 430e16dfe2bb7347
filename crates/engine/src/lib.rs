//! # hookhost
//!
//! A hook host for coding agents. Users declare hooks in `.coding-agent/hooks.json` (and
//! `~/.coding-agent/hooks.json`); the agent fires lifecycle events ([`Event`]:
//! `SessionStart`, `UserPromptSubmit`, `PreToolUse`, `PermissionRequest`, `PostToolUse`,
//! `PostToolUseFailure`, `Notification`, `SubagentStart`, `PreCompact`, `PostCompact`,
//! `Stop`, `StopFailure`, `SubagentStop`, `SessionEnd`); the engine picks the hooks of that event (whole-name regex
//! on the tool name), runs them in declared order, and turns their exit codes and output into
//! one [`Decision`]: pass, block (a tool call) or force (the agent to keep working), and on
//! PermissionRequest an allow of what the permission checker would ask.
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
//! ## Where things are, in one look
//! - the layers, bottom to top, and where each kind of change goes: `docs/architecture.md`
//!   (`scripts/layers` keeps the direction)
//! - where an event's hooks are chosen and its decision is folded: `runner/fire.rs`
//!   ([`Runner::fire`]: select -> gate -> spawn -> judge -> fold)
//! - what each hook result means: `judge/` ([`judge`], the table of DESIGN §4), fed by
//!   `output.rs` (the JSON answer) and `answer.rs` (typed answers as a process would give
//!   them)
//! - what trust allows an untrusted hook: [`trust`]
//! - how another agent's payload and answer are translated at run time: `translate/`; its
//!   hook files read: `config/agents/`; its rules: the judge's `rules.rs` (all also under the
//!   old public path [`dialect`]); every JSON object hookhost reads or writes (payloads,
//!   answers, `run`/`list`/`check`/`doctor --json`, the decision-log line) as a type, with its
//!   JSON Schema, and the shared enums ([`Event`], [`Dialect`], [`Outcome`], ...): the
//!   `hookhost-protocol` crate, re-exported here ([`wire`] and the crate root)
//! - where a process, a wasm instance or an HTTP request starts: [`spawner`]; a Claude Code
//!   SessionStart hook's `CLAUDE_ENV_FILE` and how it is read: [`session_env`]
//! - what a config file says: [`config`]; which paths it may name: `confine.rs`; how files
//!   are read: [`files`]; where pinned package bytes are kept: [`store`]
//! - from a project directory to a ready engine (what `run`, `hook`, `check`, `list`, `serve`
//!   and the bindings share): [`setup`]; the `list`/`check` objects: [`inspect`] (what is
//!   set up and what is broken, `hookhost doctor`, is the CLI's, on this crate's public API)
//! - the agent core (loop, [`agent::ToolHooks`], permission checker, TodoGuard, model trait,
//!   tools) is the `hookhost-core` crate, re-exported as [`agent`]; it does not depend on
//!   the engine.
//!
//! This crate has no command line, no registry client and no server: those are the
//! `hookhost-cli`, `hookhost-package` and `hookhost-serve` crates of the workspace.

#![warn(missing_docs)]

pub use hookhost_core as agent;
// The system leaves (hookhost-sys), at their old paths.
pub(crate) use hookhost_sys::{confine, display};
#[doc(no_inline)]
pub use hookhost_sys::{files, host_env, jsonc, locations, preflight, store};
// The plain data and wire types (hookhost-protocol), at their old paths. `event` stays a
// crate-internal path so that `crate::event::Event` keeps resolving inside the engine.
pub(crate) use hookhost_protocol::event;
/// The wire types of `hookhost-protocol` and their schemas, at their old path.
pub mod wire {
    #[doc(no_inline)]
    pub use hookhost_protocol::schema::{schemas, to_file_text};
    #[doc(no_inline)]
    pub use hookhost_protocol::wire::*;
}

mod answer;
pub mod config;
pub mod decision_log;
pub mod dialect;
mod inprocess;
pub mod inspect;
mod judge;
mod output;
mod payload;
pub mod protect;
mod report;
mod request;
mod runner;
pub mod session_env;
pub mod setup;
pub(crate) mod shell_parse;
pub mod spawner;
#[cfg(feature = "otel")]
pub mod telemetry;
mod translate;
pub mod trust;

pub use agent::{HookContext, HookVerdict, ToolHooks};
pub use answer::{TypedAnswer, typed_answer};
pub use config::{ConfigPaths, Hook, HookSet};
pub use display::{terminal_safe, terminal_safe_lines};
#[doc(no_inline)]
pub use hookhost_protocol::{
    Cell, Condition, ConfigError, ConfigErrors, Decision, Dialect, Event, EventClass, EventReport,
    ExitStatus, HookKind, HookRecord, Outcome, Scope, StopRequest, TrustLevel, UnknownEvent,
    json_type_name,
};
pub use inprocess::{FnHook, FnResponse, HookError, HookResult};
pub use judge::{EffectKind, EffectSet, Effects, HookFacts, Judgement, Verdict, judge};
pub use output::{HookResponse, JsonDecision, KNOWN_ANSWER_KEYS, parse_stdout};
pub use payload::{Origin, Payload};
pub use report::ToVerdict;
pub use request::{FireRequest, RequestError, RequestField};
pub use runner::{FnOptions, ReportObserver, Runner, RunnerBuilder, RunnerError};
pub use spawner::{HookSpawner, SpawnOutput, SpawnRequest, Spawner};
pub use trust::{TrustError, TrustPolicy, TrustStore, UNTRUSTED_TIMEOUT};
