//! One line of the decision log: [`EventRecord`], with a [`HookEntry`] per hook that ran and
//! a [`NotRun`] per configured hook of the event that did not. Payload values and hook output
//! appear only as a short SHA-256 unless full capture is on ([`Capture::Full`]).
//!
//! [`Capture::Full`]: super::Capture::Full

use crate::config::{HookId, HookKind, Scope};
use crate::dialect::Dialect;
use crate::judge::{Outcome, Row};
use crate::report::{Decision, HookRecord};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;

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

/// What the event's thread hands the log: the facts of one event, copied but neither
/// formatted nor hashed (the payload's JSON is the one its hooks were given, shared);
/// its line (`line`) is written of them, on the writer thread when the log writes there.
///
/// Its text (the project, the session, each hook's file and output, ...) is one string the
/// facts point into, and each hook is plain data: a draft is reused, most often one the
/// writer read on another core, and filling it then writes into a few buffers without
/// reading what they held (reading that back from the other core, field by field, cost an
/// event more than all the rest of its logging).
#[derive(Debug, Default)]
pub(crate) struct Draft {
    /// Unix milliseconds at the start.
    pub start_ms: u64,
    /// The process's count of events so far: with `start_ms` and the process id, the id.
    pub seq: u64,
    /// The payload's JSON as fired.
    pub payload: Arc<[u8]>,
    /// The payload as fired, under full capture (`None` otherwise): then the line keeps it
    /// and every hook's output.
    pub full_payload: Option<Value>,
    /// The event's name.
    pub event: &'static str,
    /// The agent answered for (`hook --for X`).
    pub agent: Option<Dialect>,
    /// The event's decision.
    pub decision: Decision,
    /// Whole event, milliseconds.
    pub duration_ms: f64,
    /// The project directory, in `text`.
    pub project: Piece,
    /// Its session id, in `text`.
    pub session: Option<Piece>,
    /// Its tool, in `text`.
    pub tool: Option<Piece>,
    /// The event's reason, in `text`.
    pub reason: Option<Piece>,
    /// The hooks that ran.
    pub hooks: Vec<HookFacts>,
    /// The configured hooks that did not run.
    pub not_run: Vec<NotRun>,
    /// The text the pieces are of.
    pub text: String,
}

/// Where a piece of a draft's text is.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Piece {
    start: usize,
    end: usize,
}

/// One hook of a [`Draft`]: its [`HookRecord`] as the line needs it, its text in the draft's.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HookFacts {
    pub hook: HookId,
    pub file: Option<Piece>,
    pub source: Scope,
    pub kind: HookKind,
    pub dialect: Dialect,
    pub untrusted: bool,
    pub outcome: Outcome,
    pub row: Row,
    pub exit_code: Option<i32>,
    pub duration_ms: f64,
    pub message: Option<Piece>,
    pub stdout: Piece,
    pub stderr: Piece,
    pub rejudged: bool,
}

impl Draft {
    /// Starts over: no text, no hooks (what they held stays allocated, to be reused).
    pub fn clear(&mut self) {
        self.text.clear();
        self.hooks.clear();
    }

    /// Adds `text`, and says where it is.
    pub fn put(&mut self, text: &str) -> Piece {
        let start = self.text.len();
        self.text.push_str(text);
        Piece {
            start,
            end: self.text.len(),
        }
    }

    /// Adds the facts of `r` (`untrusted`: trust stopped or held it back).
    pub fn put_hook(&mut self, r: &HookRecord, untrusted: bool) {
        let facts = HookFacts {
            hook: r.hook,
            file: r.file.as_ref().map(|f| self.put(&f.to_string_lossy())),
            source: r.source,
            kind: r.kind,
            dialect: r.dialect,
            untrusted,
            outcome: r.outcome,
            row: r.row,
            exit_code: r.exit_code,
            duration_ms: r.duration_ms,
            message: r.message.as_deref().map(|m| self.put(m)),
            stdout: self.put(&r.stdout),
            stderr: self.put(&r.stderr),
            rejudged: r.rejudged,
        };
        self.hooks.push(facts);
    }

    /// The text of `piece`.
    pub fn get(&self, piece: Piece) -> &str {
        self.text.get(piece.start..piece.end).unwrap_or_default()
    }

    /// The text of `piece`, when there is one.
    pub fn text_of(&self, piece: Option<Piece>) -> Option<&str> {
        piece.map(|p| self.get(p))
    }

    /// The line's record: its JSON (`line`, what the writer writes) read back, so the two
    /// cannot differ. An error only if the record's type and the line disagree (a test
    /// fires every shape of event through both).
    pub fn record(&self) -> serde_json::Result<EventRecord> {
        serde_json::to_vec(&super::line::Line(self)).and_then(|l| serde_json::from_slice(&l))
    }
}
