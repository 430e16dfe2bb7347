//! What `hookhost list --json` and `hookhost check --json` print (`schema/list.schema.json`,
//! `schema/check.schema.json`), also serve's `list` and `check` answers and the Python
//! package's `list()`.
//!
//! Only the shapes: reading the config files, compiling modules and finding problems is the
//! engine's `inspect` module. `list`'s objects are printed through a `serde_json::Value`
//! (their keys in alphabetical order, as they always were); `check`'s as declared.

use crate::config_error::ConfigError;
use crate::dialect::Dialect;
use crate::event::Event;
use crate::hook::{FsAccess, HookKind, OnError, Scope};
use schemars::JsonSchema;
use serde::Serialize;
use std::path::PathBuf;

/// The effective hooks in run order, the hooks a switch turned off, and the files read.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    title = "hookhost list --json",
    description = "The effective hooks in run order, with their source file and dialect, the hooks a switch turned off, and the files read: printed by `hookhost list --json`, answered by serve's `list`, returned by the Python package's `list()`."
)]
pub struct ListReport {
    /// The hooks that run, in run order.
    pub hooks: Vec<ListedHook>,
    /// The configured hooks a switch turns off (`"enabled": false`, `disableAllHooks`, the
    /// other agents' own switches).
    pub disabled: Vec<ListedHook>,
    /// The files read: hookhost's own, and the other agents' it looks at.
    pub files: Vec<PathBuf>,
    /// The managed file that allows only managed hooks, when one does.
    pub managed_only: Option<PathBuf>,
    /// The problems of the config files (`hookhost list --json` only: serve and the Python
    /// package report them on their own).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<ConfigError>")]
    pub errors: Option<Vec<ConfigError>>,
}

/// One configured hook as `list --json` shows it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListedHook {
    /// Its event.
    pub event: Event,
    /// `Event[index]`, or `Event[fn index]` for an in-process hook.
    pub hook: String,
    /// Shell, wasm or HTTP.
    pub kind: HookKind,
    /// The command or URL as written (a wasm hook: its module).
    pub command: String,
    /// Its `match` regex on the tool name, as written.
    #[serde(rename = "match")]
    pub matcher: Option<String>,
    /// Its `if` rule on the tool call, as written.
    #[serde(rename = "if")]
    pub condition: Option<String>,
    /// Its `description`.
    pub description: Option<String>,
    /// Its `statusMessage`: shown while it runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// The exec form (`args`): the program, started without a shell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    /// The exec form's arguments, each as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<String>>,
    /// The shell form's interpreter when it is not `sh`: `bash` or `powershell`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shell: Option<String>,
    /// `once`: it runs at most once per session.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub once: bool,
    /// `asyncRewake`: it runs in the background and its exit 2 wakes the agent later.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub async_rewake: bool,
    /// Its timeout in milliseconds.
    pub timeout_ms: u64,
    /// The directory it runs in.
    pub cwd: PathBuf,
    /// Fire-and-forget: no part in the decision.
    #[serde(rename = "async")]
    pub is_async: bool,
    /// What a crash or an unexpected exit does on a blocking event.
    pub on_error: OnError,
    /// Where it comes from.
    pub source: Scope,
    /// The file it is configured in.
    pub file: PathBuf,
    /// Whose contract it is written for.
    pub dialect: Dialect,
    /// A wasm hook's module and limits; absent for the other kinds.
    #[serde(flatten)]
    pub wasm: Option<WasmOptions>,
    /// A command hook's sandbox as configured: `sandboxed: fs read, env ..., net ..., memory
    /// ... MiB` (it declares grants or `"sandbox": true`), or `sandbox: false`; absent when it
    /// says neither (an untrusted one still runs sandboxed: docs/sandbox.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<String>,
    /// An identical handler listed earlier, which runs instead when both match (hooks only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duplicate_of: Option<DuplicateOf>,
    /// The file whose switch turned it off (disabled hooks only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disabled_by: Option<PathBuf>,
    /// The switch, as that file says it (disabled hooks only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// A wasm hook's module and limits, as `list --json` shows them.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct WasmOptions {
    /// The module file (a package hook: its copy in the store).
    pub module: PathBuf,
    /// Its explicit fuel budget; `null` derives it from the timeout.
    pub fuel: Option<u64>,
    /// Its memory cap in MiB.
    pub memory: u64,
    /// Its access to the project directory.
    pub fs: FsAccess,
    /// The host variables passed to it.
    pub env: Vec<String>,
    /// The hosts and ports it may reach.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub net: Vec<crate::hook::NetTarget>,
}

/// The hook that runs instead of a duplicate.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DuplicateOf {
    /// `Event[index]`.
    pub hook: String,
    /// The file it is configured in.
    pub file: PathBuf,
}

/// What `check` found: every error and warning of all config files.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(
    title = "hookhost check --json",
    description = "Every problem of the config files, every wasm module compiled and each shell command's program looked for: printed by `hookhost check --json`, answered by serve's `check`."
)]
pub struct CheckReport {
    /// Problems that make `check` exit 1.
    pub errors: Vec<ConfigError>,
    /// Problems that do not (a missing program on an observing event, untrusted hooks).
    pub warnings: Vec<ConfigError>,
    /// How many hooks are configured and run.
    pub hooks: usize,
    /// How many configured hooks a switch turns off (`"enabled": false`, `disableAllHooks`,
    /// the other agents' own switches); `list` shows them.
    pub disabled: usize,
    /// The files read: hookhost's own always, other agents' when present.
    pub files: Vec<PathBuf>,
    /// The managed file that allows only managed hooks, when one does.
    #[serde(rename = "managedOnly")]
    pub managed_only: Option<PathBuf>,
}
