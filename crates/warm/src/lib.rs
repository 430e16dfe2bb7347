//! The warm per-user engine's client half (docs/performance.md, "Warm engine per user";
//! SECURITY.md). On by default (`"warmEngine": false` in the user's own hooks file turns it
//! off; `HOOKHOST_DAEMON=0` keeps one process off it): an invocation of `hookhost hook ...` or
//! `hookhost run ...` goes over a private Unix socket to a `hookhost warm-serve` that is
//! already running with the same environment, directory and confinement, which runs it as
//! the fresh process would have and sends back its exit code, stdout and stderr.
//!
//! - [`frame`]: the request and reply bytes, bounded.
//! - [`place`]: the private directory, the key of an invocation, the peer checks.
//! - [`client`]: forwarding one invocation, and handing it back when the engine cannot.
//!
//! Unix only: elsewhere the crate is empty and `hookhost-warm` runs `hookhost` itself.

#[cfg(unix)]
pub mod client;
#[cfg(unix)]
pub mod frame;
#[cfg(unix)]
pub mod place;
