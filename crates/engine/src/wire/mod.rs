//! Every JSON object hookhost writes or reads, as a type: one file per format.
//!
//! | file | format | written / read by |
//! |---|---|---|
//! | `native.rs` | [`NativePayload`]: what a native hook reads on stdin | [`Payload`](crate::Payload) |
//! | `claude.rs` | [`ClaudePayload`], [`ClaudeAnswer`] | `dialect::render`, `dialect::respond` |
//! | `codex.rs` | [`CodexPayload`], [`CodexAnswer`] | `dialect::render`, `dialect::respond` |
//! | `gemini.rs` | [`GeminiPayload`], [`GeminiAnswer`] | `dialect::render`, `dialect::respond` |
//! | `ling.rs` | [`LingPayload`] (`toolCall`) | `dialect::render`, `dialect::recognise` |
//! | `cursor.rs` | [`CursorPayload`], [`CursorAnswer`] | `dialect::render`, `dialect::respond`, `dialect::recognise` |
//! | `copilot.rs` | [`CopilotPayload`], [`CopilotAnswer`] | `dialect::render`, `dialect::respond`, `dialect::recognise` |
//! | `foreign.rs` | another agent's payload, as read | `dialect::recognise` |
//! | `answer.rs` | [`HookAnswer`]: a hook's JSON answer, in any dialect | [`parse_stdout`](crate::parse_stdout), [`TypedAnswer`](crate::TypedAnswer) |
//! | `client.rs` | [`ClientAnswer`]: a serve / Python client hook's answer | [`typed_answer`](crate::typed_answer) |
//! | `run.rs` | the `run --json` object: [`EventReport`](crate::EventReport) | report.rs |
//! | `settings.rs` | other agents' settings files, as far as hooks go | `dialect::read_settings` |
//! | `schema.rs` | their JSON Schemas, checked in under `schema/` | [`schemas`] |
//!
//! `fields.rs` says how fields are read: leniently in payloads, strictly (with messages that
//! name the field) in answers. Nothing outside this module indexes a JSON object by a key,
//! except where unknown fields are kept verbatim (a payload supplied whole).

mod answer;
mod claude;
mod client;
mod codex;
mod copilot;
mod cursor;
pub(crate) mod fields;
mod foreign;
mod gemini;
mod ling;
mod native;
pub(crate) mod run;
mod schema;
pub(crate) mod settings;

pub use answer::{Behavior, HookAnswer, PermissionBehavior, SpecificOutput, StatedDecision};
pub use claude::{
    BlockDecision, ClaudeAnswer, ClaudeFields, ClaudePayload, ClaudeSpecificOutput,
    PermissionDecision, PermissionRequestDecision,
};
pub use client::{ClientAnswer, ClientDecision};
pub use codex::{CodexAnswer, CodexPayload, CodexPermission, CodexSpecificOutput};
pub(crate) use copilot::CopilotPayloadIn;
pub use copilot::{
    CopilotAnswer, CopilotPayload, CopilotPermission, CopilotStopDecision, CopilotToolResult,
};
pub(crate) use cursor::CursorPayloadIn;
pub use cursor::{CursorAnswer, CursorEdit, CursorPayload, CursorPermission};
pub(crate) use foreign::AgentPayload;
pub use gemini::{GeminiAnswer, GeminiDecision, GeminiPayload, GeminiSpecificOutput};
pub(crate) use ling::LingPayloadIn;
pub use ling::{LingPayload, LingToolCall};
pub use native::{NativePayload, ToolError};
pub use schema::{schemas, to_file_text};
