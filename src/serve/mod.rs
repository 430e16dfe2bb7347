//! `hookhost serve` and what the CLI and the language packages share to set up an engine.
//!
//! - [`engine`]: one project's [`Engine`] (config read leniently, trust, one warm spawner),
//!   the [`HookTable`] of a client's in-process hooks, and [`report_json`], the `run --json`
//!   object.
//! - [`inspect`]: the `list` and `check` objects.
//! - the server: JSON-RPC 2.0 over newline-delimited JSON on stdio or a Unix socket
//!   ([`Server`]; protocol in docs/serve-protocol.md): `protocol.rs` reads and writes
//!   messages, `lines.rs` bounds them, `memory.rs` counts what they hold, `methods.rs` does each method, `peer.rs` calls the
//!   client back for its hooks, `server.rs` owns connections, the config watcher and the
//!   shutdown.
//!
//! Behind the `serve` feature (on with `cli`).

pub mod engine;
pub mod inspect;
mod lines;
mod memory;
mod methods;
mod peer;
pub mod protocol;
mod server;

pub use engine::{
    ClientHook, Engine, EngineError, HookTable, report_json, runner_builder, trust_store,
};
pub use inspect::{CheckReport, check, list_json, managed_only_note};
pub use methods::payload_of;
pub use peer::typed_answer;
pub use server::{Limits, Server};
