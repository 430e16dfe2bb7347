//! The hooks engine: events and payloads, config loading and matching, the decision table,
//! the [`Runner`] that fires events, and the [`spawner`]s that run one hook.
//!
//! - where an event's hooks are chosen and its decision is made: [`runner`]
//! - what each hook result means: [`decision`] (the table of DESIGN §4)
//! - where a process, a wasm instance or an HTTP request starts: [`spawner`]

pub mod answer;
pub mod config;
pub mod confine;
pub mod decision;
pub mod event;
pub mod files;
pub mod inprocess;
pub mod output;
pub mod payload;
pub mod preflight;
pub mod report;
pub mod runner;
pub mod spawner;
pub mod trust;

pub use config::{ConfigError, ConfigErrors, ConfigPaths, Hook, HookKind, HookSet, Scope};
pub use decision::Outcome;
pub use event::{Event, EventClass};
pub use inprocess::{FnHook, FnResponse};
pub use payload::Payload;
pub use report::{Decision, EventReport, HookRecord};
pub use runner::{FnOptions, Runner, RunnerBuilder, RunnerError};
pub use spawner::{ExitStatus, HookSpawner, SpawnOutput, SpawnRequest, Spawner};
pub use trust::{TrustPolicy, TrustStore};
