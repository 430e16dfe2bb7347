//! `hookhost serve`: the engine over JSON-RPC 2.0 on newline-delimited JSON, on stdio or a
//! Unix socket ([`Server`]; the protocol is docs/serve-protocol.md).
//!
//! - `protocol.rs` reads and writes messages, `lines.rs` bounds them, `memory.rs` counts
//!   what they hold;
//! - `methods.rs` does each method, `peer.rs` calls the client back for its hooks;
//! - `server.rs` owns connections, the config watcher and the shutdown.
//!
//! The engine itself (set-up, the `run --json` object, `list`/`check`) is the `hookhost`
//! crate ([`hookhost::setup`], [`hookhost::inspect`]); this crate only puts it on a wire.

#![warn(missing_docs)]

mod lines;
mod memory;
mod methods;
mod peer;
pub mod protocol;
mod server;

/// A client hook's answer as a typed answer (the engine's; kept here for the bindings).
pub use hookhost::typed_answer;
pub use methods::payload_of;
pub use server::{Limits, Server};
