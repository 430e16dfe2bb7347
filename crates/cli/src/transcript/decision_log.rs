//! hookhost's own decision log as a session to replay: the lines of one session (`--session`,
//! else the session of the last line), each UserPromptSubmit, PreToolUse and Stop re-fired
//! with the payload it had. Only a log written under `HOOKHOST_LOG=full` keeps payloads; a
//! default log's line has a hash in their place, which is said, with how to turn capture on.
//! A prompt or call the logged event blocked is a step a hook blocked ([`Step::blocked`]),
//! so a replay can report the guard that no longer blocks it.

use super::{Happened, ReplayError, Step, StepKind};
use serde_json::Value;

type Read = (Option<String>, Vec<Step>);

fn of_session(v: &Value) -> Option<&str> {
    v.get("session").and_then(Value::as_str)
}

/// Whether `v` is a line of the decision log (`v`, `id`, `payload_sha256`, `hooks`).
pub(super) fn is_record(v: &Value) -> bool {
    ["v", "id", "payload_sha256", "hooks", "event"]
        .iter()
        .all(|k| v.get(k).is_some())
}

pub(super) fn steps(lines: &[(usize, Value)], session: Option<&str>) -> Result<Read, ReplayError> {
    let session = match session {
        Some(s) => Some(s.to_string()),
        None => lines
            .iter()
            .rev()
            .find_map(|(_, v)| of_session(v))
            .map(str::to_string),
    };
    let mine: Vec<&(usize, Value)> = lines
        .iter()
        .filter(|(_, v)| is_record(v) && of_session(v) == session.as_deref())
        .collect();
    if mine.is_empty() {
        return Err(ReplayError::NoSuchSession(session.unwrap_or_default()));
    }
    let mut steps = Vec::new();
    for (line, v) in mine {
        let event = v.get("event").and_then(Value::as_str).unwrap_or_default();
        if !matches!(event, "UserPromptSubmit" | "PreToolUse" | "Stop") {
            continue;
        }
        let Some(payload) = v.get("payload") else {
            return Err(ReplayError::NoPayloads(*line));
        };
        let text = |k: &str| payload.get(k).and_then(Value::as_str).unwrap_or_default();
        // A hook blocked it (a blocked Stop is one a hook forced to go on: not a block).
        let blocked = (event != "Stop"
            && v.get("decision").and_then(Value::as_str) == Some("block"))
        .then(|| {
            v.get("reason")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        });
        let kind = match event {
            "UserPromptSubmit" => StepKind::Prompt {
                prompt: text("prompt").to_string(),
            },
            "Stop" => StepKind::Stop {
                answer: text("lastAssistantMessage").to_string(),
            },
            _ => StepKind::Tool {
                agent_tool: text("toolName").to_string(),
                tool: text("toolName").to_string(),
                args: payload.get("toolArgs").cloned().unwrap_or(Value::Null),
                happened: match v.get("decision").and_then(Value::as_str) {
                    Some("block") => Happened::Refused(
                        v.get("reason")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string(),
                    ),
                    _ => Happened::Ran,
                },
            },
        };
        steps.push(Step {
            line: *line,
            blocked,
            kind,
        });
    }
    Ok((session, steps))
}
