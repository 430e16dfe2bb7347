//! Claude Code's transcript: one JSON object a line; `type: "user"` entries carry the prompt
//! (`message.content` a string, or text parts) or `tool_result` parts (`tool_use_id`,
//! `is_error`), `type: "assistant"` entries carry `tool_use` parts (`id`, `name`, `input`) or
//! the text of an answer. Other entry types (attachments, queue operations, API records) are
//! not steps.

use super::{Happened, ReplayError, Step, StepKind, text_of, tool_step};
use hookhost::dialect::Dialect;
use serde_json::Value;
use std::collections::HashMap;

type Read = (Option<String>, Vec<Step>);

pub(super) fn steps(lines: &[(usize, Value)]) -> Result<Read, ReplayError> {
    let session = lines
        .iter()
        .find_map(|(_, v)| v.get("sessionId")?.as_str().map(str::to_string));
    let refused = refusals(lines);
    let mut steps = Vec::new();
    let mut answer: Option<(usize, String)> = None;
    for (n, v) in lines {
        let role = v.get("type").and_then(Value::as_str).unwrap_or("");
        if v.get("isSidechain").and_then(Value::as_bool) == Some(true)
            || v.get("isMeta").and_then(Value::as_bool) == Some(true)
        {
            continue;
        }
        let Some(content) = v.get("message").and_then(|m| m.get("content")) else {
            continue;
        };
        match role {
            "user" => {
                let prompt = match content {
                    Value::String(s) => Some(s.clone()),
                    Value::Array(parts)
                        if parts
                            .iter()
                            .all(|p| p.get("type").and_then(Value::as_str) == Some("text")) =>
                    {
                        Some(text_of(content))
                    }
                    _ => None,
                };
                if let Some(prompt) = prompt {
                    if let Some((line, answer)) = answer.take() {
                        steps.push(Step {
                            line,
                            blocked: None,
                            kind: StepKind::Stop { answer },
                        });
                    }
                    steps.push(Step {
                        line: *n,
                        blocked: None,
                        kind: StepKind::Prompt { prompt },
                    });
                }
            }
            "assistant" => {
                let Value::Array(parts) = content else {
                    return Err(ReplayError::Malformed {
                        line: *n,
                        message: "an assistant message whose `content` is not a list".into(),
                    });
                };
                assistant(*n, parts, &refused, &mut steps, &mut answer)?;
            }
            _ => {}
        }
    }
    super::stop_on_last_answer(&mut steps, answer);
    Ok((session, steps))
}

/// The `tool_result`s marked `is_error`, by `tool_use_id`: their text.
fn refusals(lines: &[(usize, Value)]) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for (_, v) in lines {
        let Some(Value::Array(parts)) = v.get("message").and_then(|m| m.get("content")) else {
            continue;
        };
        for p in parts {
            if p.get("type").and_then(Value::as_str) == Some("tool_result")
                && p.get("is_error").and_then(Value::as_bool) == Some(true)
                && let Some(id) = p.get("tool_use_id").and_then(Value::as_str)
            {
                out.insert(
                    id.to_string(),
                    text_of(p.get("content").unwrap_or(&Value::Null)),
                );
            }
        }
    }
    out
}

/// The tool calls and answer text of one assistant entry.
fn assistant(
    n: usize,
    parts: &[Value],
    refused: &HashMap<String, String>,
    steps: &mut Vec<Step>,
    answer: &mut Option<(usize, String)>,
) -> Result<(), ReplayError> {
    for p in parts {
        match p.get("type").and_then(Value::as_str) {
            Some("tool_use") => {
                let name = p.get("name").and_then(Value::as_str).ok_or_else(|| {
                    ReplayError::Malformed {
                        line: n,
                        message: "a `tool_use` part without a `name`".into(),
                    }
                })?;
                let id = p.get("id").and_then(Value::as_str).unwrap_or("");
                let input = p
                    .get("input")
                    .cloned()
                    .unwrap_or(Value::Object(Default::default()));
                let happened = refused
                    .get(id)
                    .cloned()
                    .map_or(Happened::Ran, Happened::Refused);
                steps.push(tool_step(n, Dialect::Claude, name, &input, happened));
                *answer = None;
            }
            Some("text") => {
                *answer = Some((
                    n,
                    p.get("text")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string(),
                ));
            }
            _ => {}
        }
    }
    Ok(())
}
