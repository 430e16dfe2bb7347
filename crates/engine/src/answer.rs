//! Typed answers as a process would have given them.
//!
//! Every hook kind ends as an exit status plus stdout and stderr, and only
//! [`decision::judge`](super::decision::judge) decides what that means. Hooks that answer with
//! a typed value instead of a process's output (in-process Rust hooks, `hook`-world
//! components) are converted here, once: `pass` is exit 0 with any `updatedInput`,
//! `additionalContext` or `systemMessage` as a JSON answer on stdout; `block(reason)` is
//! exit 2 with the reason on stderr; `force(message)` is exit 2 with the message on stdout.
//! So a typed answer means exactly what the same answer from a shell script means, in every
//! event's column of the decision table.

use super::decision::Verdict;
use super::spawner::ExitStatus;
use serde_json::{Map, Value};

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
}

impl TypedAnswer {
    /// The exit status, stdout and stderr of a process answering the same.
    pub fn as_process(&self) -> (ExitStatus, Vec<u8>, Vec<u8>) {
        match &self.verdict {
            Verdict::Block(reason) => (ExitStatus::Exited(2), Vec::new(), reason.clone().into()),
            Verdict::Force(message) => (ExitStatus::Exited(2), message.clone().into(), Vec::new()),
            Verdict::Pass => {
                let mut answer = Map::new();
                if let Some(input) = &self.updated_input {
                    answer.insert("updatedInput".into(), input.clone());
                }
                if let Some(context) = &self.additional_context {
                    answer.insert("additionalContext".into(), Value::String(context.clone()));
                }
                if let Some(message) = &self.system_message {
                    answer.insert("systemMessage".into(), Value::String(message.clone()));
                }
                let stdout = if answer.is_empty() {
                    Vec::new()
                } else {
                    Value::Object(answer).to_string().into_bytes()
                };
                (ExitStatus::Exited(0), stdout, Vec::new())
            }
        }
    }
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
    }
}
