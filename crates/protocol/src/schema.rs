//! The JSON Schemas of every type of this crate that is a JSON object hookhost reads or
//! writes, generated with `schemars` and checked in under `schema/` (beside the hand-written
//! `hooks.schema.json` of the config and `hook-manifest.schema.json` of a package). What
//! hookhost writes is described as it is serialised, what it reads as it is accepted. A unit
//! test regenerates them and fails when a checked-in file differs;
//! `HOOKHOST_BLESS=1 cargo test -p hookhost-protocol --lib schema` rewrites them.

use crate::decision_log::EventRecord;
use crate::doctor::DoctorReport;
use crate::inspect::{CheckReport, ListReport};
use crate::report::EventReport;
use crate::wire::{
    ClaudeAnswer, ClaudePayload, ClientAnswer, CodexAnswer, CodexPayload, CopilotAnswer,
    CopilotPayload, CursorAnswer, CursorPayload, GeminiAnswer, GeminiPayload, HookAnswer,
    LingPayload, NativePayload,
};
use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::Value;

/// Every generated schema: (file name under `schema/`, the schema).
pub fn schemas() -> Vec<(&'static str, Value)> {
    vec![
        ("payload-native.schema.json", written::<NativePayload>()),
        ("payload-claude.schema.json", written::<ClaudePayload>()),
        ("payload-codex.schema.json", written::<CodexPayload>()),
        ("payload-gemini.schema.json", written::<GeminiPayload>()),
        ("payload-ling.schema.json", written::<LingPayload>()),
        ("payload-cursor.schema.json", written::<CursorPayload>()),
        ("payload-copilot.schema.json", written::<CopilotPayload>()),
        ("answer.schema.json", read::<HookAnswer>()),
        ("answer-claude.schema.json", written::<ClaudeAnswer>()),
        ("answer-codex.schema.json", written::<CodexAnswer>()),
        ("answer-gemini.schema.json", written::<GeminiAnswer>()),
        ("answer-cursor.schema.json", written::<CursorAnswer>()),
        ("answer-copilot.schema.json", written::<CopilotAnswer>()),
        ("client-answer.schema.json", read::<ClientAnswer>()),
        ("run.schema.json", written::<EventReport>()),
        ("decision-log.schema.json", written::<EventRecord>()),
        ("doctor.schema.json", written::<DoctorReport>()),
        ("list.schema.json", written::<ListReport>()),
        ("check.schema.json", written::<CheckReport>()),
    ]
}

/// The schema of what hookhost writes.
fn written<T: JsonSchema>() -> Value {
    SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

/// The schema of what hookhost reads.
fn read<T: JsonSchema>() -> Value {
    SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

/// A schema as checked in: pretty JSON with a final newline.
pub fn to_file_text(schema: &Value) -> String {
    let mut text = serde_json::to_string_pretty(schema).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_checked_in_schemas_are_the_generated_ones() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema");
        let bless = std::env::var_os("HOOKHOST_BLESS").is_some_and(|v| v == "1");
        let mut stale = Vec::new();
        for (name, schema) in schemas() {
            let path = dir.join(name);
            let want = to_file_text(&schema);
            if std::fs::read_to_string(&path).ok().as_deref() == Some(want.as_str()) {
                continue;
            }
            if bless {
                std::fs::write(&path, want).unwrap();
            } else {
                stale.push(name);
            }
        }
        assert!(
            stale.is_empty(),
            "schema/{} differ from the protocol types (crates/protocol/src); rewrite them with `HOOKHOST_BLESS=1 cargo test -p hookhost-protocol --lib schema` and review the diff",
            stale.join(", schema/")
        );
    }
}
