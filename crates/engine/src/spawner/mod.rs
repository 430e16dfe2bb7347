//! Running one hook: the [`Spawner`] seam and its handlers.
//!
//! The engine hands a [`SpawnRequest`] (what to run, where, with which stdin, limits and
//! deadline) to a `Spawner` and gets a [`SpawnOutput`] back (how it ended, capped stdout and
//! stderr, duration). It never learns more, which is what lets tests drive every cell of the
//! decision table with a fake. [`HookSpawner`] is the real one: it routes shell commands to
//! [`ShellSpawner`] and `.wasm` modules to [`WasmSpawner`].

mod capture;
pub mod http;
mod mcp;
mod mcp_http;
mod model;
pub(crate) mod program;
mod public_net;
pub(crate) mod sandbox;
mod shell;
pub mod wasm;

pub use capture::{Capture, CapturedStream, OUTPUT_CAP};
pub use http::HttpSpawner;
pub use mcp::McpSpawner;
pub use model::{MAX_AGENT_TURNS, MAX_CONCURRENT_MODEL_CALLS, ModelSpawner};
pub use sandbox::{Sandbox, describe as describe_sandbox, support as sandbox_support};
pub use shell::ShellSpawner;
#[cfg(unix)]
pub(crate) use shell::start_detached;
pub use wasm::{
    BASELINE_MIN_BYTES, OptimisationClaim, TIERING_ENV, Tiering, WasmEngineConfig, WasmSpawner,
};

use super::config::{Handler, HookKind};
use super::event::Event;
use async_trait::async_trait;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Everything needed to run one hook once.
#[derive(Debug, Clone)]
pub struct SpawnRequest {
    /// The event the hook runs for (`HOOK_EVENT`).
    pub event: Event,
    /// What to run.
    pub handler: Handler,
    /// Absolute working directory (must exist).
    pub cwd: PathBuf,
    /// The project root (`HOOK_PROJECT_DIR`).
    pub project_dir: PathBuf,
    /// The JSON payload, written to stdin.
    pub stdin: Arc<[u8]>,
    /// Wall-clock limit of the run; for a wasm hook without `fuel`, its fuel budget too.
    pub timeout: Duration,
    /// For a trusted wasm hook: the SHA-256 its module was trusted with. The module's bytes
    /// are read once and must hash to this, else the run is a spawn failure (the bytes that
    /// run are the bytes that were trusted, whatever a racing writer does).
    pub module_sha256: Option<String>,
    /// Environment variables a hook of another agent's dialect expects (`CLAUDE_PROJECT_DIR`,
    /// `CLAUDE_CODE_SESSION_ID`, `GEMINI_SESSION_ID`, ...: `dialect::env`), set besides
    /// `HOOK_EVENT` and `HOOK_PROJECT_DIR` for shell and wasm hooks alike.
    pub env: Vec<(String, String)>,
    /// Variables a shell hook must not inherit from hookhost's own environment (that agent's
    /// names it has no value for here: `dialect::env_unset`); set ones in `env` win.
    pub env_unset: Vec<String>,
    /// An untrusted hook run with the minimum grants (`trust::reduce_request`): its first
    /// compile is bounded by its own (short) timeout too, so a module crafted to compile
    /// slowly cannot stall an event for the full compile bound.
    pub untrusted: bool,
    /// A command hook to run in the kernel sandbox, with these grants (`None`: it runs as
    /// the user, unconfined). The runner decides; the spawner enforces, and a sandbox it
    /// cannot set up is a spawn failure, never an unconfined run.
    pub sandbox: Option<Sandbox>,
}

impl SpawnRequest {
    /// The handler's kind.
    pub fn kind(&self) -> HookKind {
        self.handler.kind()
    }

    /// The spawn failure for a working directory that is gone (shared by every handler that
    /// runs in one).
    pub fn missing_cwd(&self, since: std::time::Instant) -> Option<SpawnOutput> {
        (!self.cwd.is_dir()).then(|| {
            SpawnOutput::spawn_failed(
                format!(
                    "working directory {} does not exist; fix the hook's `cwd` (relative to the project root)",
                    self.cwd.display()
                ),
                since.elapsed(),
            )
        })
    }
}

#[doc(no_inline)]
pub use hookhost_protocol::ExitStatus;
#[doc(no_inline)]
pub use hookhost_protocol::decision_log::ModelJudgement;

/// What one run of a hook produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpawnOutput {
    /// How it ended.
    pub status: ExitStatus,
    /// At most [`OUTPUT_CAP`] bytes.
    pub stdout: Vec<u8>,
    /// At most [`OUTPUT_CAP`] bytes.
    pub stderr: Vec<u8>,
    /// Whether stdout or stderr was cut at the cap.
    pub truncated: bool,
    /// How long the run took.
    pub duration: Duration,
    /// A `prompt` or `agent` hook: what the model answered (kept with the record and in the
    /// decision log); `None` for every other kind, and when the model gave no answer.
    pub model: Option<Box<ModelJudgement>>,
}

impl SpawnOutput {
    /// An output with no stdout/stderr.
    pub fn bare(status: ExitStatus, duration: Duration) -> Self {
        SpawnOutput {
            status,
            stdout: Vec::new(),
            stderr: Vec::new(),
            truncated: false,
            duration,
            model: None,
        }
    }

    /// A spawn failure with this message and no output.
    pub fn spawn_failed(message: impl Into<String>, duration: Duration) -> Self {
        Self::bare(ExitStatus::SpawnFailed(message.into()), duration)
    }
}

/// Runs one hook. Implementations must honour `timeout` and the output cap, and never panic
/// on anything a user controls.
#[async_trait]
pub trait Spawner: Send + Sync {
    /// Runs the hook once. A hook's own failure is an [`ExitStatus`], never a panic.
    async fn spawn(&self, request: SpawnRequest) -> SpawnOutput;
}

/// The production spawner: shell commands, wasm modules, HTTP endpoints and MCP tools. The wasm engine
/// and the HTTP client are created on first use, so a process that only runs shell hooks
/// never pays for them (a fresh `hookhost run` is start-up bound).
pub struct HookSpawner {
    shell: ShellSpawner,
    wasm_config: WasmEngineConfig,
    wasm: std::sync::OnceLock<Result<WasmSpawner, wasm::WasmError>>,
    http: std::sync::OnceLock<HttpSpawner>,
    mcp: McpSpawner,
    model: std::sync::OnceLock<ModelSpawner>,
}

impl Default for HookSpawner {
    fn default() -> Self {
        Self::new()
    }
}

impl HookSpawner {
    /// A spawner with the default wasm engine configuration and compile cache.
    pub fn new() -> Self {
        Self::with_wasm_config(WasmEngineConfig::default())
    }

    /// A spawner whose wasm engine uses `config` (e.g. another cache directory). Nothing is
    /// set up yet: a wasm engine that cannot be made fails the wasm hooks that need it.
    pub fn with_wasm_config(config: WasmEngineConfig) -> Self {
        HookSpawner {
            shell: ShellSpawner::default(),
            wasm_config: config,
            wasm: std::sync::OnceLock::new(),
            http: std::sync::OnceLock::new(),
            mcp: McpSpawner::default(),
            model: std::sync::OnceLock::new(),
        }
    }

    /// The wasm spawner, created on first use ([`wasm::WasmError::Unavailable`] when it
    /// could not be, then and every time after).
    pub fn wasm(&self) -> Result<&WasmSpawner, wasm::WasmError> {
        self.wasm
            .get_or_init(|| WasmSpawner::new(self.wasm_config.clone()))
            .as_ref()
            .map_err(|e| wasm::WasmError::Unavailable(Box::new(e.clone())))
    }

    /// The wasm spawner if it was created (a wasm hook ran), without creating it.
    pub fn wasm_started(&self) -> Option<&WasmSpawner> {
        self.wasm.get()?.as_ref().ok()
    }

    fn http(&self) -> &HttpSpawner {
        self.http.get_or_init(HttpSpawner::default)
    }

    /// The spawner of `prompt` and `agent` hooks (created on first use), e.g. to give it
    /// recorded judgements to reuse ([`ModelSpawner::reuse`]).
    pub fn model(&self) -> &ModelSpawner {
        self.model.get_or_init(ModelSpawner::default)
    }
}

#[async_trait]
impl Spawner for HookSpawner {
    async fn spawn(&self, request: SpawnRequest) -> SpawnOutput {
        match request.handler {
            Handler::Shell { .. } | Handler::Exec { .. } => self.shell.spawn(request).await,
            Handler::Wasm { .. } => match self.wasm() {
                Ok(w) => w.spawn(request).await,
                Err(e) => SpawnOutput::spawn_failed(e.to_string(), Duration::ZERO),
            },
            Handler::Http { .. } => self.http().spawn(request).await,
            Handler::Mcp { .. } => self.mcp.spawn(request).await,
            Handler::Model { .. } => self.model().spawn(request).await,
        }
    }
}
