//! Every JSON object hookhost exchanges with a hook or an agent, as a type: one file per format.
//! The engine's modules in the last column write or read them (the engine re-exports this
//! module as `hookhost::wire`).
//!
//! | file | format | written / read by (in the engine) |
//! |---|---|---|
//! | `native.rs` | [`NativePayload`]: what a native hook reads on stdin | `Payload` |
//! | `claude.rs` | [`ClaudePayload`], [`ClaudeAnswer`] | `translate::render`, `translate::respond` |
//! | `codex.rs` | [`CodexPayload`], [`CodexAnswer`] | `translate::render`, `translate::respond` |
//! | `gemini.rs` | [`GeminiPayload`], [`GeminiAnswer`] | `translate::render`, `translate::respond` |
//! | `ling.rs` | [`LingPayload`] (`toolCall`) | `translate::render`, `translate::recognise` |
//! | `cursor.rs` | [`CursorPayload`], [`CursorAnswer`] | `translate::render`, `translate::respond`, `translate::recognise` |
//! | `copilot.rs` | [`CopilotPayload`], [`CopilotAnswer`] | `translate::render`, `translate::respond`, `translate::recognise` |
//! | `foreign.rs` | another agent's payload, as read | `translate::recognise` |
//! | `answer.rs` | [`HookAnswer`]: a hook's JSON answer, in any dialect | `parse_stdout`, `TypedAnswer` |
//! | `client.rs` | [`ClientAnswer`]: a serve / Python client hook's answer | `typed_answer` |
//! | `settings.rs` | other agents' settings files, as far as hooks go | `config::agents::read_settings` |
//!
//! What hookhost prints itself (`run`, `list`, `check`, `doctor --json`, the decision log) is
//! in the crate's other modules; the JSON Schemas of all of them are [`schemas`](crate::schema::schemas).
//!
//! `fields.rs` says how fields are read: leniently in payloads, strictly (with messages that
//! name the field) in answers. Nothing outside this module indexes a JSON object by a key,
//! except where unknown fields are kept verbatim (a payload supplied whole). `fields`,
//! `settings` and the `*PayloadIn` read shapes are public for the engine only (hidden).

mod answer;
mod claude;
mod client;
mod codex;
mod copilot;
mod cursor;
#[doc(hidden)]
pub mod fields;
mod foreign;
mod gemini;
mod ling;
mod native;
#[doc(hidden)]
pub mod settings;

pub use answer::{Behavior, HookAnswer, PermissionBehavior, SpecificOutput, StatedDecision};
pub use claude::{
    BlockDecision, ClaudeAnswer, ClaudeFields, ClaudePayload, ClaudeSpecificOutput,
    PermissionDecision, PermissionRequestDecision,
};
pub use client::{ClientAnswer, ClientDecision};
pub use codex::{CodexAnswer, CodexPayload, CodexPermission, CodexSpecificOutput};
#[doc(hidden)]
pub use copilot::CopilotPayloadIn;
pub use copilot::{
    CopilotAnswer, CopilotPayload, CopilotPermission, CopilotStopDecision, CopilotToolResult,
};
#[doc(hidden)]
pub use cursor::CursorPayloadIn;
pub use cursor::{CursorAnswer, CursorEdit, CursorPayload, CursorPermission};
#[doc(hidden)]
pub use foreign::AgentPayload;
pub use gemini::{GeminiAnswer, GeminiDecision, GeminiPayload, GeminiSpecificOutput};
#[doc(hidden)]
pub use ling::LingPayloadIn;
pub use ling::{LingPayload, LingToolCall};
pub use native::{NativePayload, ToolError};
