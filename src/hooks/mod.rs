//! The hooks engine: events and payloads, config loading and matching, the decision table,
//! the [`Runner`] that fires events, and the [`spawner`]s that run one hook.
//!
//! Where to look, in one glance:
//! - where an event's hooks are chosen and its decision is folded: `runner.rs`
//!   ([`Runner::fire`]: select -> gate -> spawn -> judge -> fold)
//! - what each hook result means: `decision.rs` ([`judge`], the table of DESIGN §4), fed by
//!   `output.rs` (the JSON answer) and `answer.rs` (typed answers as a process would give
//!   them)
//! - what trust allows an untrusted hook: [`trust`]
//! - where a process, a wasm instance or an HTTP request starts: [`spawner`]
//! - what a config file says: [`config`]; which paths it may name: `confine.rs`; how files
//!   are read: [`files`]
//!
//! The modules that an embedder or a tool built on hookhost needs are public ([`config`],
//! [`spawner`], [`trust`], [`files`], [`preflight`]); the rest is private and its vocabulary
//! re-exported here and at the crate root.

mod answer;
pub mod config;
mod confine;
mod decision;
pub mod dialect;
mod display;
mod event;
pub mod files;
mod inprocess;
pub mod locations;
mod output;
mod payload;
pub mod preflight;
mod report;
mod runner;
pub mod spawner;
pub mod trust;

pub use answer::TypedAnswer;
pub use config::{ConfigError, ConfigErrors, ConfigPaths, Hook, HookKind, HookSet, Scope};
pub use decision::{
    Cell, Condition, EffectKind, EffectSet, Effects, HookFacts, Judgement, Outcome, Verdict, judge,
};
pub use dialect::Dialect;
pub use display::{terminal_safe, terminal_safe_lines};
pub use event::{Event, EventClass, UnknownEvent};
pub use inprocess::{FnHook, FnResponse};
pub use output::{HookResponse, JsonDecision, KNOWN_ANSWER_KEYS, parse_stdout};
pub use payload::{Payload, json_type_name};
pub use report::{Decision, EventReport, HookRecord, StopRequest};
pub use runner::{FnOptions, ReportObserver, Runner, RunnerBuilder, RunnerError};
pub use spawner::{ExitStatus, HookSpawner, SpawnOutput, SpawnRequest, Spawner};
pub use trust::{TrustError, TrustLevel, TrustPolicy, TrustStore, UNTRUSTED_TIMEOUT};
