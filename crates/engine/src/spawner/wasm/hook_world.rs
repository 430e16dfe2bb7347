//! Components of the typed `hook` world (`wit/hook.wit`): they export `handle(payload) ->
//! response` instead of `wasi:cli/run`. The response is mapped onto what a process would have
//! done, so DESIGN §4 applies unchanged: `pass` is exit 0 (with `updatedInput` and
//! `additionalContext` as JSON on stdout), `block(reason)` is exit 2 with the reason on
//! stderr, `force(message)` is exit 2 with the message on stdout.

use crate::spawner::{Capture, ExitStatus};
use crate::{TypedAnswer, Verdict};
use serde_json::Value;

wasmtime::component::bindgen!({
    path: "wit/hook.wit",
    world: "hook",
    exports: { default: async },
});

pub use coding_agent::hooks::types::Decision;

/// The exit status and output a process answering `response` would have produced: the
/// response as a [`TypedAnswer`], converted like every other typed answer.
pub fn as_process(response: Response, capture: &Capture) -> ExitStatus {
    let answer = TypedAnswer {
        verdict: match response.decision {
            Decision::Pass => Verdict::Pass,
            Decision::Block(reason) => Verdict::Block(reason),
            Decision::Force(message) => Verdict::Force(message),
        },
        // Not JSON: passed on as a string, which the protocol reports as malformed.
        updated_input: response
            .updated_input
            .map(|input| serde_json::from_str(&input).unwrap_or(Value::String(input))),
        additional_context: response.additional_context,
        system_message: None,
        updated_tool_output: None,
        allow: false,
        // The `hook` world (wit/hook.wit) has no field for it yet: a component cannot
        // replace a prompt (a p1 module can, with `updatedPrompt` in its JSON answer).
        updated_prompt: None,
    };
    let (status, stdout, stderr) = answer.as_process();
    capture.stdout.push(&stdout);
    capture.stderr.push(&stderr);
    status
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
        assert!(crate::output::parse_stdout(&out, false).is_err());
    }
}
