//! # hookhost-protocol
//!
//! The plain data of hookhost: the words every part of it shares and every JSON object it
//! reads or writes, as types, with their JSON Schemas. Nothing here reads a file, runs a
//! hook or decides anything (that is the `hookhost` engine above it, which re-exports these
//! types at their old paths); behaviour stops at (de)serialisation, `Display`/`FromStr` and
//! small pure helpers. It depends on `serde`, `serde_json` and `schemars` only.
//!
//! - [`event`]: the lifecycle events ([`Event`]) and how each treats its hooks ([`EventClass`]);
//! - [`dialect`]: whose hook contract a hook is written for ([`Dialect`]);
//! - [`hook`]: a hook's identity and kind ([`HookId`], [`Scope`], [`HookKind`]) and the words
//!   of its options ([`OnError`], [`FsAccess`]);
//! - [`config_error`]: a problem in a config file ([`ConfigError`], [`ConfigErrors`]);
//! - [`status`], [`row`], [`outcome`], [`trust`]: how a hook ended ([`ExitStatus`]), which row
//!   of the decision table judged it ([`Row`], [`Condition`], [`Cell`], [`Via`]), what it came
//!   to ([`Outcome`]) and how far its answer is trusted ([`TrustLevel`]);
//! - [`wire`]: the payloads hooks read and the answers they write, in every dialect;
//! - [`report`]: what `run --json` prints ([`EventReport`], [`HookRecord`], [`Decision`]);
//! - [`inspect`]: what `list --json` and `check --json` print ([`ListReport`], [`CheckReport`]);
//! - [`doctor`]: what `doctor --json` prints ([`DoctorReport`]);
//! - [`decision_log`]: one line of the decision log ([`EventRecord`]);
//! - [`schema`]: the JSON Schemas of all of them, as checked in under `schema/`
//!   ([`schemas`]).
//!
//! The layer map of the workspace is `docs/architecture.md`.

#![warn(missing_docs)]

pub mod config_error;
pub mod decision_log;
pub mod dialect;
pub mod doctor;
pub mod event;
pub mod hook;
pub mod inspect;
mod json;
pub mod outcome;
pub mod report;
pub mod row;
pub mod schema;
pub mod status;
pub mod trust;
pub mod wire;

pub use config_error::{ConfigError, ConfigErrors};
pub use decision_log::EventRecord;
pub use dialect::Dialect;
pub use doctor::DoctorReport;
pub use event::{Event, EventClass, UnknownEvent};
pub use hook::{DEFAULT_TIMEOUT_MS, FsAccess, HookId, HookKind, NetTarget, OnError, Scope};
pub use inspect::{CheckReport, ListReport};
pub use json::json_type_name;
pub use outcome::Outcome;
pub use report::{Decision, ElicitationReply, EventReport, HookRecord, StopRequest};
pub use row::{Cell, Condition, Row, Via};
pub use schema::{schemas, to_file_text};
pub use status::ExitStatus;
pub use trust::TrustLevel;
