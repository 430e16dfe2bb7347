//! One line of the decision log: [`EventRecord`], with a [`HookEntry`] per hook that ran and
//! a [`NotRun`] per configured hook of the event that did not (their shape is
//! `hookhost_protocol::decision_log`, re-exported here), and the `Draft` an event hands the
//! log. Payload values and hook output appear only as a short SHA-256 unless full capture is on
//! ([`Capture::Full`]).
//!
//! [`Capture::Full`]: super::Capture::Full

use crate::report::{Decision, HookRecord};
#[doc(no_inline)]
pub use hookhost_protocol::decision_log::{
    EventRecord, HookEntry, NotRun, NotRunWhy, RECORD_VERSION,
};
use hookhost_protocol::{Dialect, HookId, HookKind, Outcome, Row, Scope};
use serde_json::Value;
use std::sync::Arc;

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
    /// A model hook's judgement, its text in the draft's.
    pub model: Option<JudgementFacts>,
    /// How it was sandboxed, when it was.
    pub sandbox: Option<Piece>,
}

/// A model's judgement of one hook, its text in the draft's.
#[derive(Debug, Clone, Copy)]
pub(crate) struct JudgementFacts {
    pub model: Piece,
    pub asked_sha256: Piece,
    pub ok: bool,
    pub reason: Option<Piece>,
    pub replayed: bool,
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
            model: r.model.as_ref().map(|m| JudgementFacts {
                model: self.put(&m.model),
                asked_sha256: self.put(&m.asked_sha256),
                ok: m.ok,
                reason: m.reason.as_deref().map(|t| self.put(t)),
                replayed: m.replayed,
            }),
            sandbox: r.sandbox.as_deref().map(|t| self.put(t)),
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
