//! Components of the typed `hook` world (`wit/hook.wit`): they export `handle(payload) ->
//! response` instead of `wasi:cli/run`. The response is mapped onto what a process would have
//! done, so DESIGN §4 applies unchanged: `pass` is exit 0 (with `updatedInput` and
//! `additionalContext` as JSON on stdout), `block(reason)` is exit 2 with the reason on
//! stderr, `force(message)` is exit 2 with the message on stdout.

use crate::hooks::spawner::{Capture, ExitStatus};
use serde_json::{Map, Value};

wasmtime::component::bindgen!({
    path: "wit/hook.wit",
    world: "hook",
    exports: { default: async },
});

pub use coding_agent::hooks::types::Decision;

/// The exit status and output a process answering `response` would have produced.
pub fn as_process(response: Response, capture: &Capture) -> ExitStatus {
    let Capture { stdout, stderr } = capture;
    match response.decision {
        Decision::Block(reason) => {
            stderr.push(reason.as_bytes());
            ExitStatus::Exited(2)
        }
        Decision::Force(message) => {
            stdout.push(message.as_bytes());
            ExitStatus::Exited(2)
        }
        Decision::Pass => {
            let mut answer = Map::new();
            if let Some(input) = response.updated_input {
                // Not JSON: passed on as a string, which the protocol reports as malformed.
                let v = serde_json::from_str(&input).unwrap_or(Value::String(input));
                answer.insert("updatedInput".into(), v);
            }
            if let Some(context) = response.additional_context {
                answer.insert("additionalContext".into(), Value::String(context));
            }
            if !answer.is_empty() {
                stdout.push(Value::Object(answer).to_string().as_bytes());
            }
            ExitStatus::Exited(0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn respond(decision: Decision, input: Option<&str>) -> (ExitStatus, Vec<u8>, Vec<u8>) {
        let capture = Capture::default();
        let status = as_process(
            Response {
                decision,
                updated_input: input.map(str::to_string),
                additional_context: None,
            },
            &capture,
        );
        (status, capture.stdout.take().0, capture.stderr.take().0)
    }

    #[test]
    fn responses_map_like_a_process() {
        assert_eq!(
            respond(Decision::Pass, None),
            (ExitStatus::Exited(0), vec![], vec![])
        );
        assert_eq!(
            respond(Decision::Block("no".into()), None),
            (ExitStatus::Exited(2), vec![], b"no".to_vec())
        );
        assert_eq!(
            respond(Decision::Force("more".into()), None),
            (ExitStatus::Exited(2), b"more".to_vec(), vec![])
        );
        let (_, out, _) = respond(Decision::Pass, Some(r#"{"command":"ls"}"#));
        assert_eq!(out, br#"{"updatedInput":{"command":"ls"}}"#.to_vec());
        // Not JSON: handed on as a string so the protocol reports it as malformed.
        let (_, out, _) = respond(Decision::Pass, Some("rm"));
        assert!(crate::hooks::output::parse_stdout(&out, false).is_err());
    }
}
