//! {{name}}: a PreToolUse guard for the `bash` tool, a component of the typed `hook` world
//! (`wit/hook.wit`): hookhost calls `handle` with the event name and the payload JSON, and
//! the returned decision is the answer. Destructive commands are blocked; a payload that
//! cannot be parsed is blocked too (fail closed); everything else passes.

wit_bindgen::generate!({ path: "wit", world: "hook" });

use coding_agent::hooks::types::Decision;
use serde_json::Value;

/// Patterns that destroy data, with the reason the model is shown.
const DANGEROUS: &[(&str, &str)] = &[
    ("rm -rf /", "deletes the whole filesystem"),
    ("rm -fr /", "deletes the whole filesystem"),
    ("rm -rf ~", "deletes the home directory"),
    ("mkfs", "formats a disk"),
];

fn answer(decision: Decision) -> Response {
    Response { decision, updated_input: None, additional_context: None }
}

struct Guard;

impl Guest for Guard {
    fn handle(payload: Payload) -> Response {
        let Ok(v) = serde_json::from_str::<Value>(&payload.json) else {
            return answer(Decision::Block("{{name}}: cannot parse the payload; blocking to be safe".into()));
        };
        if !v.is_object() {
            return answer(Decision::Block("{{name}}: the payload is not a JSON object; blocking to be safe".into()));
        }
        if payload.event != "PreToolUse" || v["toolName"] != "bash" {
            return answer(Decision::Pass);
        }
        let command = v["toolArgs"]["command"].as_str().unwrap_or("");
        // Collapse runs of whitespace so `rm  -rf   /` is caught too.
        let normalized = command.split_whitespace().collect::<Vec<_>>().join(" ");
        for (pattern, why) in DANGEROUS {
            if normalized.contains(pattern) {
                return answer(Decision::Block(format!("{{name}}: `{pattern}` {why}; use a safer command")));
            }
        }
        answer(Decision::Pass)
    }
}

export!(Guard);
