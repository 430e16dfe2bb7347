//! What firing an event produced: the event's [`Decision`], each hook's [`HookRecord`], and
//! the [`EventReport`] that `run --json` prints (DESIGN §8), also serve's `fire` result and the
//! Python package's report. These types are the `run --json` wire format itself
//! (`schema/run.schema.json` is generated from them).
//!
//! Data only: the engine's runner makes them (and its `report.rs` the records of hooks it ran);
//! the agent-side view of a report (`to_verdict`) is the engine's, as it needs the agent core.

use crate::config_error::ConfigError;
use crate::dialect::Dialect;
use crate::event::Event;
use crate::hook::{HookId, HookKind, Scope};
use crate::outcome::Outcome;
use crate::row::Row;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The decision of an event (DESIGN §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// Go on.
    #[default]
    Pass,
    /// PreToolUse: the tool call does not run; [`EventReport::reason`] says why.
    Block,
    /// Stop/SubagentStop: the agent goes on, with [`EventReport::reason`] as a user message.
    Force,
}

/// A hook stopped the agent (`continue: false`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct StopRequest {
    /// Why (`stopReason`), shown to the user.
    pub reason: String,
}

/// What one hook did, as `run --json` reports it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HookRecord {
    /// The hook: shown as `PreToolUse[0]` (its event and index in its file), or
    /// `PreToolUse[fn 0]` for an in-process hook.
    pub hook: HookId,
    /// Where it comes from: the project, the global file or in-process.
    pub source: Scope,
    /// The command or URL as written, or the name of an in-process hook.
    pub command: String,
    /// Whose contract the hook is written for (its payload and rules).
    pub dialect: Dialect,
    /// The file it was configured in; `None` for an in-process hook.
    pub file: Option<PathBuf>,
    /// Shell, wasm, HTTP or in-process.
    pub kind: HookKind,
    /// What it did for the event (DESIGN §8).
    pub outcome: Outcome,
    /// The exit code, `None` when there is none (timeout, spawn failure, crash).
    pub exit_code: Option<i32>,
    /// Wall-clock run time in milliseconds, to the microsecond.
    pub duration_ms: f64,
    /// Its stdout, up to 1 MiB, invalid UTF-8 replaced.
    pub stdout: String,
    /// Its stderr, up to 1 MiB, invalid UTF-8 replaced.
    pub stderr: String,
    /// Whether stdout or stderr was cut at 1 MiB.
    pub truncated: bool,
    /// An `async` hook: fire-and-forget, no part in the decision.
    #[serde(rename = "async")]
    pub is_async: bool,
    /// Why the hook did not simply pass (exit code, timeout, spawn error, malformed JSON).
    pub message: Option<String>,
    /// Its `statusMessage` (Claude Code's spinner text): what it says it is doing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// A second run on the final arguments of a call another hook rewrote (only its block
    /// counts); printed only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub rejudged: bool,
    /// A `prompt` or `agent` hook: what the model answered (`None` when it did not answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<crate::decision_log::ModelJudgement>,
    /// A command hook that ran in the kernel sandbox: with what (`sandboxed (fs read, env
    /// the fixed set, net none, memory 1024 MiB)`); `None`: it ran unconfined, or is not a
    /// command hook.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<String>,
    /// The row of the decision table its outcome came from, as `decision::judge` decided
    /// it (the decision log's `row`; not part of `run --json`).
    #[serde(skip)]
    #[schemars(skip)]
    pub row: Row,
}

/// Everything that firing one event produced.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    title = "hookhost run --json",
    description = "What firing one event produced (DESIGN §8): printed by `hookhost run --json`, answered by serve's `fire`, returned by the Python package."
)]
pub struct EventReport {
    /// The event fired.
    pub event: Event,
    /// The event's decision, folded from every hook's.
    pub decision: Decision,
    /// The block reason or the force message; `None` on pass.
    pub reason: Option<String>,
    /// PreToolUse: the final tool arguments when a hook rewrote them.
    pub updated_args: Option<Value>,
    /// PreToolUse: a hook asked for the permission prompt.
    pub ask: bool,
    /// Why it asked (its `permissionDecisionReason` or `reason`), when it said.
    pub ask_reason: Option<String>,
    /// PreToolUse: a hook deferred the decision (Claude Code's `permissionDecision:
    /// "defer"`): the permission checker decides, or the agent hookhost answers for.
    pub defer: bool,
    /// PermissionRequest: a hook allowed the call without the permission prompt (and no
    /// hook denied it). The agent fires PermissionRequest only for a call its permission
    /// checker would ask about: an allow never overrides a deny.
    pub allow: bool,
    /// A hook stopped the agent (`continue: false` and its `stopReason`); `None` when
    /// nothing did. Printed as `"stop": null` or `"stop": {"reason": ...}`.
    pub stop: Option<StopRequest>,
    /// Every hook's `additionalContext`, in order: text for the model.
    pub additional_context: Vec<String>,
    /// Every hook's `systemMessage`, in order: text for the user.
    pub system_messages: Vec<String>,
    /// Feedback for the model (PostToolUse exit-2 stderr, JSON blocks on observing events).
    pub feedback: Vec<String>,
    /// PostToolUse: what the model sees as the tool's result instead of its output (a
    /// trusted hook's `updatedToolOutput`); `null` when no hook replaced it.
    pub updated_tool_output: Option<Value>,
    /// SessionStart: variables for the shell tool's later calls (what hooks wrote to
    /// `CLAUDE_ENV_FILE`, read strictly); printed only when there are some.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// UserPromptSubmit: the prompt to send the model instead of the user's (a trusted
    /// hook's `updatedPrompt`, the last one when several replaced it); printed only when a
    /// hook replaced it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_prompt: Option<String>,
    /// PermissionDenied: a hook told the model it may retry the denied call (Claude Code's
    /// `retry: true`); printed only when one did.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub retry: bool,
    /// WorktreeCreate: where a hook created the worktree (a command hook's stdout, an HTTP
    /// hook's `worktreePath`); printed only when one said.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worktree_path: Option<String>,
    /// Elicitation, ElicitationResult: a hook's answer to the MCP server in the user's place
    /// (a block is a decline); printed only when one answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<ElicitationReply>,
    /// The hooks that ran, in order (async ones only once `Runner::wait_async` collected them).
    pub hooks: Vec<HookRecord>,
    /// Untrusted project hooks this event met (`Event[index]`), whatever the trust policy
    /// did with them; empty when no trust store is in use.
    pub untrusted: Vec<HookId>,
    /// Problems in the config files. The hooks of the valid files (and the valid hooks of a
    /// broken one) still ran; on PreToolUse a broken file blocks the call (fail closed: a
    /// guard in it may be the part that could not be read).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub config_errors: Vec<ConfigError>,
}

/// A hook's answer to an MCP server's elicitation.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ElicitationReply {
    /// `accept`, `decline` or `cancel`.
    pub action: String,
    /// With `accept`: the form's values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<Value>,
}

impl EventReport {
    /// The report of `event` before any hook ran: a pass, nothing else.
    pub fn new(event: Event) -> Self {
        EventReport {
            event,
            decision: Decision::Pass,
            reason: None,
            updated_args: None,
            ask: false,
            ask_reason: None,
            defer: false,
            allow: false,
            stop: None,
            additional_context: Vec::new(),
            system_messages: Vec::new(),
            feedback: Vec::new(),
            updated_tool_output: None,
            env: BTreeMap::new(),
            updated_prompt: None,
            retry: false,
            worktree_path: None,
            elicitation: None,
            hooks: Vec::new(),
            untrusted: Vec::new(),
            config_errors: Vec::new(),
        }
    }
}
