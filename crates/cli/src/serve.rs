//! `hookhost serve`: the engine of one project kept warm, over stdio or a Unix socket
//! (JSON-RPC 2.0, docs/serve-protocol.md). The server is the `hookhost-serve` crate; this file reads
//! the flags.

use clap::Args;
use hookhost_serve::{Limits, Server};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Project directory (default: the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Listen on this Unix socket (created 0600; a stale one is replaced) instead of stdio.
    #[arg(long, value_name = "PATH")]
    socket: Option<PathBuf>,
    /// What to do with untrusted project hooks: all (run them, warn), skip, or block (fail
    /// closed on PreToolUse). Default: $HOOKHOST_TRUST, else skip (untrusted shell and HTTP hooks do not run; untrusted wasm hooks can only pass or block).
    #[arg(long, value_name = "all|skip|block")]
    trust: Option<String>,
    /// Longest message line in bytes; longer ones are skipped with an error answer.
    #[arg(long, default_value_t = 16 << 20)]
    max_message_bytes: usize,
    /// How often to look at the config files for changes, in milliseconds.
    #[arg(long, default_value_t = 500)]
    poll_ms: u64,
}

pub async fn serve(a: ServeArgs, home: &super::env::UserHome) -> anyhow::Result<u8> {
    let project = super::project_dir(a.project, home)?;
    let policy = super::trust_policy(a.trust.as_deref())?;
    // A long-lived engine: the wasm engine's defaults (pooling, instances made ahead).
    let engine = Arc::new(home.setup(&project).policy(policy).engine()?);
    let limits = Limits {
        max_message: a.max_message_bytes.max(1024),
        poll: std::time::Duration::from_millis(a.poll_ms.max(10)),
        ..Limits::default()
    };
    let server = Server::new(engine, limits);
    match a.socket {
        Some(path) => server.serve_socket(&path).await?,
        None => server.serve_stdio().await,
    }
    Ok(0)
}
