//! Typed answers as a process would have given them.
//!
//! Every hook kind ends as an exit status plus stdout and stderr, and only
//! [`judge::judge`](crate::judge::judge) decides what that means. Hooks that answer with
//! a typed value instead of a process's output (in-process Rust hooks, `hook`-world
//! components) are converted here, once: `pass` is exit 0 with any `updatedInput`,
//! `updatedToolOutput`, `updatedPrompt`, `additionalContext` or `systemMessage` as a JSON
//! answer on stdout; `block(reason)` is
//! exit 2 with the reason on stderr; `force(message)` is exit 2 with the message on stdout.
//! So a typed answer means exactly what the same answer from a shell script means, in every
//! event's column of the decision table.
//!
//! [`typed_answer`] reads a client hook's answer (serve's `hook` call, a Python callable:
//! [`ClientAnswer`]) into a typed answer.

use crate::agent::Verdict;
use hookhost_protocol::ExitStatus;
use hookhost_protocol::wire::{ClientAnswer, ClientDecision, HookAnswer, StatedDecision};
use serde_json::Value;

/// A hook's typed answer.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TypedAnswer {
    /// Pass, block (with a reason) or force (with a message).
    pub verdict: Verdict,
    /// New tool arguments (PreToolUse, on pass).
    pub updated_input: Option<Value>,
    /// Text for the model (on pass).
    pub additional_context: Option<String>,
    /// Text for the user (on pass).
    pub system_message: Option<String>,
    /// PostToolUse: what the model sees as the tool's result instead of its output (on pass).
    pub updated_tool_output: Option<Value>,
    /// PermissionRequest: allow the call without the prompt (on pass; elsewhere nothing).
    pub allow: bool,
    /// UserPromptSubmit: the prompt to send instead of the user's (on pass).
    pub updated_prompt: Option<String>,
}

impl TypedAnswer {
    /// The exit status, stdout and stderr of a process answering the same.
    pub fn as_process(&self) -> (ExitStatus, Vec<u8>, Vec<u8>) {
        match &self.verdict {
            Verdict::Block(reason) => (ExitStatus::Exited(2), Vec::new(), reason.clone().into()),
            Verdict::Force(message) => (ExitStatus::Exited(2), message.clone().into(), Vec::new()),
            Verdict::Pass => {
                let answer = HookAnswer {
                    decision: self.allow.then_some(StatedDecision::Allow),
                    updated_input: self.updated_input.clone(),
                    additional_context: self.additional_context.clone(),
                    system_message: self.system_message.clone(),
                    updated_tool_output: self.updated_tool_output.clone(),
                    updated_prompt: self.updated_prompt.clone(),
                    ..HookAnswer::default()
                };
                let stdout = if answer == HookAnswer::default() {
                    Vec::new()
                } else {
                    // Plain data: serialising it cannot fail.
                    serde_json::to_vec(&answer).unwrap_or_default()
                };
                (ExitStatus::Exited(0), stdout, Vec::new())
            }
        }
    }
}

/// A client hook's answer (`null`, or an object like `{"decision": "block", "reason": ...}`:
/// [`ClientAnswer`]) as a typed answer; `Err` says what was wrong and what to answer.
pub fn typed_answer(v: &Value) -> Result<TypedAnswer, String> {
    let a = ClientAnswer::read(v)?;
    let reason = a.reason.unwrap_or_default();
    Ok(TypedAnswer {
        verdict: match a.decision {
            None | Some(ClientDecision::Pass | ClientDecision::Allow) => Verdict::Pass,
            Some(ClientDecision::Block) => Verdict::Block(reason),
            Some(ClientDecision::Force) => Verdict::Force(reason),
        },
        updated_input: a.updated_input,
        additional_context: a.additional_context,
        system_message: a.system_message,
        updated_tool_output: a.updated_tool_output,
        allow: a.decision == Some(ClientDecision::Allow),
        updated_prompt: a.updated_prompt,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_map_like_a_process() {
        let block = TypedAnswer {
            verdict: Verdict::Block("no".into()),
            ..TypedAnswer::default()
        };
        assert_eq!(
            block.as_process(),
            (ExitStatus::Exited(2), vec![], b"no".to_vec())
        );
        let force = TypedAnswer {
            verdict: Verdict::Force("more".into()),
            ..TypedAnswer::default()
        };
        assert_eq!(
            force.as_process(),
            (ExitStatus::Exited(2), b"more".to_vec(), vec![])
        );
        let rewrite = TypedAnswer {
            updated_input: Some(json!({"command": "ls"})),
            ..TypedAnswer::default()
        };
        let (status, out, _) = rewrite.as_process();
        assert_eq!(status, ExitStatus::Exited(0));
        assert_eq!(out, br#"{"updatedInput":{"command":"ls"}}"#.to_vec());
        assert_eq!(
            TypedAnswer::default().as_process(),
            (ExitStatus::Exited(0), vec![], vec![])
        );
        let all = TypedAnswer {
            updated_input: Some(json!({"a": 1})),
            additional_context: Some("c".into()),
            system_message: Some("m".into()),
            ..TypedAnswer::default()
        };
        assert_eq!(
            String::from_utf8(all.as_process().1).unwrap(),
            r#"{"additionalContext":"c","systemMessage":"m","updatedInput":{"a":1}}"#
        );
    }

    #[test]
    fn client_answers_map_to_verdicts() {
        assert_eq!(typed_answer(&Value::Null).unwrap(), TypedAnswer::pass());
        assert_eq!(
            typed_answer(&json!({"decision": "block", "reason": "no"})).unwrap(),
            TypedAnswer::block("no")
        );
        assert_eq!(
            typed_answer(&json!({"decision": "force", "reason": "more"})).unwrap(),
            TypedAnswer::force("more")
        );
        let allow = typed_answer(&json!({"decision": "allow"})).unwrap();
        assert_eq!(allow, TypedAnswer::allow());
        assert_eq!(
            String::from_utf8(allow.as_process().1).unwrap(),
            r#"{"decision":"allow"}"#
        );
        assert_eq!(
            typed_answer(&json!({"updatedInput": {"a": 1}, "other": 1})).unwrap(),
            TypedAnswer::update_input(json!({"a": 1}))
        );
        let redacted =
            typed_answer(&json!({"updatedToolOutput": {"stdout": "[redacted]"}})).unwrap();
        assert_eq!(
            redacted.updated_tool_output,
            Some(json!({"stdout": "[redacted]"}))
        );
        assert_eq!(
            String::from_utf8(redacted.as_process().1).unwrap(),
            r#"{"updatedToolOutput":{"stdout":"[redacted]"}}"#
        );
        let err = |v: Value| typed_answer(&v).unwrap_err();
        assert_eq!(
            err(json!({"decision": "maybe"})),
            r#"`decision` must be "pass", "block", "force" or "allow", got "maybe""#
        );
        assert_eq!(
            err(json!({"updatedInput": 3})),
            "`updatedInput` must be an object, got a number"
        );
        assert_eq!(
            err(json!({"reason": []})),
            "`reason` must be a string, got an array"
        );
        assert_eq!(
            err(json!(5)),
            r#"a client hook must answer an object like {"decision":"pass"}, got a number"#
        );
    }
}
