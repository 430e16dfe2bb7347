//! # hookhost-sys
//!
//! The leaves of hookhost that only touch the operating system. Nothing here knows about hooks,
//! events, payloads or decisions (that is the `hookhost` engine above it); every module answers
//! one question about the machine:
//!
//! - [`files`]: how a file is read (bounded, optionally without following links) and written
//!   (private, atomically), and which directories count as private.
//! - [`locations`]: where hookhost keeps its state and whose home that is, when a project can
//!   set `HOME`.
//! - [`host_env`]: which of hookhost's own variables it obeys when a project can set them.
//! - [`clock`]: Unix milliseconds as an ISO 8601 timestamp.
//! - [`confine`]: whether a path a config names stays inside a root.
//! - [`jail`]: a process confining itself to a sandbox before it runs a program.
//! - [`jsonc`]: JSON with comments, as Gemini CLI reads its settings.
//! - [`display`]: text from a config or a hook made safe for a terminal.
//! - [`preflight`]: whether the shell will find a command's program.
//! - [`resolve`]: a path as the kernel resolves it, links and `..` included.
//! - [`stamps`]: stamps of what a read relied on, to know reading again would find the same.
//! - [`store`]: the content-addressed store of package modules.
//!
//! Of our crates it depends only on `hookhost-core` (for the process identity); `jail` uses
//! the `landlock` and `seccompiler` crates on Linux. The layer map of the
//! workspace is `docs/architecture.md`.

#![warn(missing_docs)]

pub mod clock;
pub mod confine;
pub mod display;
pub mod files;
pub mod host_env;
pub mod jail;
pub mod jsonc;
pub mod locations;
pub mod preflight;
pub mod resolve;
pub mod stamps;
pub mod store;

pub use display::{terminal_safe, terminal_safe_lines};
