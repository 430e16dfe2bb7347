//! `hookhost serve`: one [`Engine`] served over stdio (the parent agent owns the server and
//! its lifetime) or a Unix socket (several agents share it). Owns the connections, the
//! shutdown and the config watcher; each request runs as its own task, so requests run
//! concurrently and a hook that hangs delays only its own request (and at most until its
//! timeout). Nothing a client sends can end the server but `shutdown`.

mod connection;

use super::memory::{Budget, Pool};
#[cfg(unix)]
use super::protocol::SHUTTING_DOWN;
use super::protocol::{self, BUSY, RpcError, TOO_LARGE};
use hookhost::setup::Engine;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::{Notify, broadcast, mpsc, watch};
#[cfg(unix)]
use tokio::task::JoinSet;

/// The limits of a server, each a guard against a client that asks too much.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Longest message line in bytes; a longer one is skipped and answered with an error.
    pub max_message: usize,
    /// Requests of one connection running at once; more wait for a slot.
    pub max_in_flight: usize,
    /// Requests of one connection read and not yet answered (running or waiting); more are
    /// refused with an error.
    pub max_queued: usize,
    /// Memory one connection's messages may hold: the line being read and the requests read
    /// and not yet answered, each counted at what its parsed value costs (many times its
    /// bytes for a value of many small parts), charged while it is parsed; a line or request
    /// past it is refused with an error.
    pub max_queued_bytes: usize,
    /// The same for all connections together.
    pub max_held_bytes: usize,
    /// Connections at once on the socket; more are answered with an error and closed.
    pub max_connections: usize,
    /// How often the config files are looked at for changes.
    pub poll: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_message: 16 << 20,
            max_in_flight: 64,
            max_queued: 1024,
            max_queued_bytes: 64 << 20,
            max_held_bytes: 256 << 20,
            max_connections: 128,
            poll: Duration::from_millis(500),
        }
    }
}

/// Counts requests in flight across connections, for a shutdown that waits for them.
#[derive(Default)]
struct InFlight {
    count: AtomicUsize,
    idle: Notify,
}

struct InFlightGuard(Arc<InFlight>);

impl InFlight {
    fn enter(self: &Arc<Self>) -> InFlightGuard {
        self.count.fetch_add(1, Ordering::AcqRel);
        InFlightGuard(self.clone())
    }
    async fn wait_idle(&self) {
        loop {
            let notified = self.idle.notified();
            if self.count.load(Ordering::Acquire) == 0 {
                return;
            }
            notified.await;
        }
    }
}

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

/// A running server's shared state.
pub struct Server {
    engine: Arc<Engine>,
    limits: Limits,
    shutdown: watch::Sender<bool>,
    in_flight: Arc<InFlight>,
    notes: broadcast::Sender<Value>,
    connections: AtomicUsize,
    /// Set once the shutdown has drained every hook: the response may go out.
    drained: watch::Sender<bool>,
    /// What all connections' messages may hold ([`Limits::max_held_bytes`]).
    memory: Arc<Pool>,
}

impl Server {
    /// A server for `engine`.
    pub fn new(engine: Arc<Engine>, limits: Limits) -> Arc<Self> {
        Arc::new(Server {
            engine,
            limits,
            shutdown: watch::channel(false).0,
            in_flight: Arc::new(InFlight::default()),
            notes: broadcast::channel(64).0,
            connections: AtomicUsize::new(0),
            drained: watch::channel(false).0,
            memory: Pool::new(limits.max_held_bytes),
        })
    }

    /// Starts a graceful shutdown: no new requests; running ones finish.
    pub fn begin_shutdown(&self) {
        self.shutdown.send_replace(true);
    }

    fn shutting_down(&self) -> bool {
        *self.shutdown.borrow()
    }

    /// Waits for every request in flight and every async hook, once.
    async fn drain(&self) {
        self.in_flight.wait_idle().await;
        self.engine.drain().await;
        self.drained.send_replace(true);
    }

    /// Serves one client over stdin/stdout until it closes stdin or asks `shutdown`; then
    /// waits for running hooks.
    pub async fn serve_stdio(self: &Arc<Self>) {
        let watcher = tokio::spawn(watch_config(self.clone()));
        let conn = self
            .clone()
            .connection(tokio::io::stdin(), tokio::io::stdout());
        tokio::select! {
            _ = conn => {}
            _ = terminated() => {}
        }
        self.begin_shutdown();
        self.drain().await;
        watcher.abort();
    }

    /// `--socket` needs Unix sockets: elsewhere an error saying so.
    #[cfg(not(unix))]
    pub async fn serve_socket(self: &Arc<Self>, path: &Path) -> std::io::Result<()> {
        Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            format!(
                "--socket {} needs Unix domain sockets, which this platform's build does not serve; use `hookhost serve` on stdio",
                path.display()
            ),
        ))
    }

    /// Serves clients on the Unix socket at `path` until `shutdown` or SIGTERM/SIGINT; then
    /// waits for running requests and hooks, and removes the socket.
    #[cfg(unix)]
    pub async fn serve_socket(self: &Arc<Self>, path: &Path) -> std::io::Result<()> {
        let listener = bind(path)?;
        tracing::info!(socket = %path.display(), "serving");
        let watcher = tokio::spawn(watch_config(self.clone()));
        let mut shutdown = self.shutdown.subscribe();
        let mut conns = JoinSet::new();
        loop {
            tokio::select! {
                accepted = listener.accept() => {
                    let Ok((stream, _)) = accepted else { continue };
                    if !same_user(&stream) {
                        tracing::warn!("refused a connection from another user");
                        continue;
                    }
                    while conns.try_join_next().is_some() {}
                    let (r, w) = stream.into_split();
                    if self.connections.load(Ordering::Acquire) >= self.limits.max_connections {
                        conns.spawn(refuse(w, self.limits.max_connections));
                        continue;
                    }
                    conns.spawn(self.clone().connection(r, w));
                }
                _ = stopped(&mut shutdown) => break,
                _ = terminated() => { self.begin_shutdown(); break }
            }
        }
        drop(listener);
        let _ = std::fs::remove_file(path);
        self.drain().await;
        while conns.join_next().await.is_some() {}
        watcher.abort();
        Ok(())
    }
}

impl Server {
    /// The error for a line or request the memory budget has no room for.
    fn no_room(&self, budget: &Budget, bytes: usize, never: bool) -> RpcError {
        if never {
            return RpcError::new(
                TOO_LARGE,
                format!(
                    "a message of {bytes} bytes would hold more than the {} bytes of memory a connection may (its JSON is made of many small values); send it in a simpler shape",
                    self.limits.max_queued_bytes.min(self.limits.max_held_bytes)
                ),
            );
        }
        RpcError::new(
            BUSY,
            format!(
                "a message of {bytes} bytes was refused: the requests waiting hold the memory the server allows ({} of {} bytes on this connection, {} of {} in all); wait for answers before sending more",
                budget.connection().used(),
                budget.connection().cap(),
                budget.server().used(),
                budget.server().cap()
            ),
        )
    }
}

/// Writes each message as one line; ends when every sender is gone or the peer closed.
async fn write_messages<W: AsyncWrite + Unpin>(mut w: W, mut rx: mpsc::Receiver<Value>) {
    while let Some(message) = rx.recv().await {
        let mut line = message.to_string().into_bytes();
        line.push(b'\n');
        if w.write_all(&line).await.is_err() {
            break;
        }
        // Flush when nothing else is queued (one syscall per burst, not per message).
        if rx.is_empty() && w.flush().await.is_err() {
            break;
        }
    }
    let _ = w.shutdown().await;
}

#[cfg(unix)]
async fn refuse<W: AsyncWrite + Unpin>(mut w: W, max: usize) {
    let e = RpcError::new(
        SHUTTING_DOWN,
        format!("the server has its maximum of {max} connections; try again later"),
    );
    let mut line = protocol::response(Value::Null, Err(e))
        .to_string()
        .into_bytes();
    line.push(b'\n');
    let _ = w.write_all(&line).await;
    let _ = w.shutdown().await;
}

/// Resolves once the shutdown has begun.
async fn stopped(rx: &mut watch::Receiver<bool>) {
    let _ = rx.wait_for(|s| *s).await.map(|_| ());
}

/// Ctrl-C (no SIGTERM outside Unix).
#[cfg(not(unix))]
async fn terminated() {
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// SIGTERM or SIGINT.
#[cfg(unix)]
async fn terminated() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
}

/// Binds the socket, user-only (0600). A stale socket (nobody listening) is replaced; a
/// live one, or any other kind of file at the path, is an error.
#[cfg(unix)]
fn bind(path: &Path) -> std::io::Result<tokio::net::UnixListener> {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if !meta.file_type().is_socket() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!(
                    "{} exists and is not a socket; choose another --socket path",
                    path.display()
                ),
            ));
        }
        if std::os::unix::net::UnixStream::connect(path).is_ok() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AddrInUse,
                format!(
                    "a server is already listening on {}; stop it or choose another --socket path",
                    path.display()
                ),
            ));
        }
        std::fs::remove_file(path)?;
    }
    let listener = tokio::net::UnixListener::bind(path)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    Ok(listener)
}

/// Only the user running the server may talk to it (the socket is 0600 too; this also holds
/// if its directory's permissions are loose).
#[cfg(unix)]
fn same_user(stream: &tokio::net::UnixStream) -> bool {
    let me = hookhost::agent::process::real_uid();
    stream.peer_cred().map(|c| c.uid() == me).unwrap_or(false)
}

/// What a config file looks like from outside: enough to see that it changed.
type Stamp = Vec<(PathBuf, Option<(SystemTime, u64)>)>;

fn stamp(files: &[PathBuf]) -> Stamp {
    files
        .iter()
        .map(|f| {
            let meta = std::fs::metadata(f).ok();
            (
                f.clone(),
                meta.and_then(|m| Some((m.modified().ok()?, m.len()))),
            )
        })
        .collect()
}

/// Polls the config files (and the trust pins); on a change, every connection's runner is
/// rebuilt before its next event and every client gets a `reloaded` notification naming the
/// files and any problem in them.
async fn watch_config(server: Arc<Server>) {
    let engine = server.engine.clone();
    let mut files = engine.watched_files();
    let mut last = stamp(&files);
    let mut tick = tokio::time::interval(server.limits.poll);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let now = stamp(&files);
        if now == last {
            continue;
        }
        let changed: Vec<&PathBuf> = now
            .iter()
            .zip(last.iter().map(Some).chain(std::iter::repeat(None)))
            .filter(|(a, b)| Some(*a) != *b)
            .map(|(a, _)| &a.0)
            .collect();
        let generation = engine.config_changed();
        let (set, errors) = hookhost::config::load_lenient(engine.paths());
        tracing::info!(generation, "config changed; reloaded");
        let note = protocol::notification(
            "reloaded",
            json!({"generation": generation, "changed": changed, "hooks": set.len(), "errors": errors}),
        );
        let _ = server.notes.send(note);
        files = engine.watched_files();
        last = stamp(&files);
    }
}
