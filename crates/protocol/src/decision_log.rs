//! One line of the decision log: [`EventRecord`], with a [`HookEntry`] per hook that ran and
//! a [`NotRun`] per configured hook of the event that did not (`schema/decision-log.schema.json`).
//! Payload values and hook output appear only as a short SHA-256 unless full capture is on.
//!
//! Only the line's shape: writing it (drafts, the writer thread, rotation) is the engine's
//! `decision_log` module.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::PathBuf;

/// The version of the line's shape (`"v"`).
pub const RECORD_VERSION: u32 = 1;

/// One event, as the decision log records it.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[schemars(
    title = "hookhost decision log line",
    description = "One event fired through hookhost, one JSON line of the decision log (docs/observability.md)."
)]
pub struct EventRecord {
    /// The shape's version: 1.
    pub v: u32,
    /// Unique per event: Unix milliseconds, process id and a counter, in hex.
    pub id: String,
    /// When the event was fired (UTC, `YYYY-MM-DDTHH:MM:SS.fffZ`).
    pub time: String,
    /// The agent's session id, when the payload has one.
    pub session: Option<String>,
    /// The event (`PreToolUse`, ...).
    pub event: String,
    /// The agent hookhost answers for (`hook --for X`), `None` for its own agent and the library.
    pub agent: Option<String>,
    /// The tool of a tool event.
    pub tool: Option<String>,
    /// The project directory hooks ran against.
    pub project: PathBuf,
    /// The event's decision: `pass`, `block` or `force`.
    pub decision: String,
    /// The block reason or force message, as the hook wrote it.
    pub reason: Option<String>,
    /// First 12 hex digits of the SHA-256 of the payload's JSON.
    pub payload_sha256: String,
    /// The payload itself: only under full capture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
    /// Whole event, milliseconds.
    pub duration_ms: f64,
    /// The hooks that ran (or were stopped by trust), in run order.
    pub hooks: Vec<HookEntry>,
    /// The configured hooks of the event that did not run, and why.
    pub not_run: Vec<NotRun>,
}

/// One hook that ran for the event.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct HookEntry {
    /// `PreToolUse[0]`, `PreToolUse[fn 0]`.
    pub hook: String,
    /// The file it was configured in; `None` in-process.
    pub file: Option<PathBuf>,
    /// Its index in its file's list for the event.
    pub index: usize,
    /// `managed`, `global`, `project` or `in-process`.
    pub scope: String,
    /// `shell`, `wasm`, `http` or `fn`.
    pub kind: String,
    /// The dialect it is written for.
    pub dialect: String,
    /// `trusted`, or `untrusted` for a project hook not (or no longer) trusted.
    pub trust: String,
    /// `pass`, `block`, `force`, `allow`, `warn`, `timeout`, `error` or `skipped`.
    pub outcome: String,
    /// The decision-table row its outcome came from (docs/observability.md).
    pub row: String,
    /// The exit code, when there is one.
    pub exit_code: Option<i32>,
    /// Run time, milliseconds.
    pub duration_ms: f64,
    /// Why it did not simply pass (the judge's message).
    pub message: Option<String>,
    /// First 12 hex digits of the SHA-256 of stdout followed by stderr.
    pub output_sha256: String,
    /// A second run on the final arguments of a rewritten call.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rejudged: bool,
    /// Its stdout: only under full capture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdout: Option<String>,
    /// Its stderr: only under full capture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    /// A `prompt` or `agent` hook: the model's judgement, kept so that `hookhost replay`
    /// reuses it instead of asking again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelJudgement>,
    /// A command hook that ran in the kernel sandbox: with what grants.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<String>,
}

/// What a model answered a `prompt` or `agent` hook.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct ModelJudgement {
    /// The model asked (the `name` of the user's `model` block).
    pub model: String,
    /// First 12 hex digits of the SHA-256 of what was asked: the model, the hook's prompt and
    /// the payload without its per-run fields (session, time, ids). What `replay` looks a
    /// recorded judgement up by.
    pub asked_sha256: String,
    /// Its `ok`: `true` lets the event go on, `false` blocks it (forces the agent on at Stop).
    pub ok: bool,
    /// Its `reason`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Reused from the decision log by `hookhost replay`, not asked again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub replayed: bool,
}

/// Why a configured hook of the event did not run.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum NotRunWhy {
    /// Its `match` does not match the tool (or the event's matcher field).
    Matcher,
    /// Its `if` rule did not hold on the arguments it would have seen.
    If,
    /// An earlier hook decided the event (a block, a force or `continue: false`).
    ShortCircuit,
    /// The same handler is configured earlier: it ran once, there.
    Duplicate,
    /// An `async` hook: started in the background, not part of the decision.
    Async,
    /// A switch turned it off (`"enabled": false`, `disableAllHooks`, another agent's own
    /// switch); `detail` names the file and the switch.
    Disabled,
}

/// A configured hook of the event that did not run.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct NotRun {
    /// `PreToolUse[1]`.
    pub hook: String,
    /// The file it is configured in.
    pub file: Option<PathBuf>,
    /// Why it did not run.
    pub why: NotRunWhy,
    /// What it was judged by (its matcher, its `if`), when that says more.
    pub detail: Option<String>,
}
