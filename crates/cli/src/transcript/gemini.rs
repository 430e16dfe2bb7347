//! Gemini CLI's chat file: a header line (`sessionId`, `projectHash`, `startTime`), then
//! message records (`id`, `type` `user` or `gemini`, `content`) and `{"$set": ...}` updates. A
//! `gemini` record is written again under the same `id` once its `toolCalls` (`id`, `name`,
//! `args`, `status`) are known: the last record of an id wins. `user` records whose content is
//! a `functionResponse` are tool results, not prompts; text starting `<session_context>` is
//! Gemini's own context.

use super::{Happened, ReplayError, Step, StepKind, text_of, tool_step};
use hookhost::dialect::Dialect;
use serde_json::Value;
use std::collections::HashMap;

type Read = (Option<String>, Vec<Step>);

pub(super) fn steps(lines: &[(usize, Value)]) -> Result<Read, ReplayError> {
    let session = lines
        .iter()
        .find_map(|(_, v)| v.get("sessionId")?.as_str().map(str::to_string));
    // The last record of each id, kept at its first line (the order things happened in).
    let mut order: Vec<&str> = Vec::new();
    let mut last: HashMap<&str, (usize, &Value)> = HashMap::new();
    for (n, v) in lines {
        let (Some(id), Some(_)) = (v.get("id").and_then(Value::as_str), v.get("type")) else {
            continue;
        };
        match last.get_mut(id) {
            Some(slot) => slot.1 = v,
            None => {
                order.push(id);
                last.insert(id, (*n, v));
            }
        }
    }
    let mut steps = Vec::new();
    let mut answer: Option<(usize, String)> = None;
    for id in order {
        let (n, v) = last[id];
        let content = v.get("content").unwrap_or(&Value::Null);
        match v.get("type").and_then(Value::as_str) {
            Some("user") => {
                let is_result = matches!(content, Value::Array(p) if p.iter().any(|p| p.get("functionResponse").is_some()));
                let text = text_of(content);
                if is_result || text.trim_start().starts_with("<session_context>") {
                    continue;
                }
                if let Some((line, answer)) = answer.take() {
                    steps.push(Step {
                        line,
                        blocked: None,
                        kind: StepKind::Stop { answer },
                    });
                }
                steps.push(Step {
                    line: n,
                    blocked: None,
                    kind: StepKind::Prompt { prompt: text },
                });
            }
            Some("gemini") => {
                let calls = match v.get("toolCalls") {
                    None => &[][..],
                    Some(Value::Array(c)) => c.as_slice(),
                    Some(_) => {
                        return Err(ReplayError::Malformed {
                            line: n,
                            message: "`toolCalls` is not a list".into(),
                        });
                    }
                };
                calls_of(n, calls, &mut steps)?;
                let text = text_of(content);
                if calls.is_empty() && !text.is_empty() {
                    answer = Some((n, text));
                } else if !calls.is_empty() {
                    answer = None;
                }
            }
            _ => {}
        }
    }
    super::stop_on_last_answer(&mut steps, answer);
    Ok((session, steps))
}

/// The steps of one record's `toolCalls`.
fn calls_of(n: usize, calls: &[Value], steps: &mut Vec<Step>) -> Result<(), ReplayError> {
    for c in calls {
        let name = c
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| ReplayError::Malformed {
                line: n,
                message: "a tool call without a `name`".into(),
            })?;
        let args = c
            .get("args")
            .cloned()
            .unwrap_or(Value::Object(Default::default()));
        let happened = match c.get("status").and_then(Value::as_str) {
            Some("error" | "cancelled") => {
                Happened::Refused(c.get("resultDisplay").map(text_of).unwrap_or_default())
            }
            _ => Happened::Ran,
        };
        steps.push(tool_step(n, Dialect::Gemini, name, &args, happened));
    }
    Ok(())
}
