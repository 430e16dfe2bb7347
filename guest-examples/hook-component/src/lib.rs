//! The dangerous-bash guard as a typed component: it exports `handle` of the `hook` world
//! (`wit/hook.wit`) instead of being a command. Build with
//! `cargo build --release --target wasm32-wasip2 -p hook-component`.

wit_bindgen::generate!({ path: "../../wit", world: "hook" });

use coding_agent::hooks::types::Decision;

struct Guard;

const DANGEROUS: &[&str] = &["rm -rf /", "rm -rf ~", "mkfs", "git push --force", ":(){ :|:& };:"];

impl Guest for Guard {
    fn handle(payload: Payload) -> Response {
        let pass = Response { decision: Decision::Pass, updated_input: None, additional_context: None };
        if payload.event != "PreToolUse" {
            return pass;
        }
        // Fail closed: a payload this guard cannot read (serde_json refuses nesting past 128
        // levels, for one) is blocked, never passed unseen.
        let v = match serde_json::from_str::<serde_json::Value>(&payload.json) {
            Ok(v) if v.is_object() => v,
            Ok(_) => return block("hook-component: the payload is not a JSON object; blocking"),
            Err(e) => return block(&format!("hook-component: cannot read the payload ({e}); blocking")),
        };
        if v["toolName"] != "bash" {
            return pass;
        }
        let command = v["toolArgs"]["command"].as_str().unwrap_or("");
        let normalized = command.split_whitespace().collect::<Vec<_>>().join(" ");
        if let Some(p) = DANGEROUS.iter().find(|p| normalized.contains(*p)) {
            return block(&format!("hook-component: `{p}` is destructive"));
        }
        if normalized == "ls" {
            return Response {
                updated_input: Some(r#"{"command":"ls -la"}"#.into()),
                additional_context: Some("hook-component rewrote ls".into()),
                ..pass
            };
        }
        pass
    }
}

fn block(reason: &str) -> Response {
    Response { decision: Decision::Block(reason.into()), updated_input: None, additional_context: None }
}

export!(Guard);
