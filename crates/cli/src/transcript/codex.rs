//! Codex's rollout: one `{timestamp, type, payload}` a line. `session_meta` names the session;
//! `response_item` payloads are the conversation: `message` (role `user` with `input_text`
//! parts, role `assistant` with `output_text`), `function_call` (`name`, `arguments` a JSON
//! string, `call_id`) and `function_call_output` (`call_id`, `output`). Codex's shell tools
//! (`exec_command` {`cmd`}, `shell_command` {`command`}, `shell` {`command`: [argv]}) are the
//! core's `bash` {`command`}; the alias map covers its Claude-style names.

use super::{Happened, ReplayError, Step, StepKind, text_of, tool_step};
use hookhost::dialect::Dialect;
use serde_json::{Value, json};
use std::collections::HashMap;

type Read = (Option<String>, Vec<Step>);

/// Codex's own user messages that are context, not a prompt (`<environment_context>`, ...).
fn is_context(text: &str) -> bool {
    text.trim_start().starts_with('<')
}

pub(super) fn steps(lines: &[(usize, Value)]) -> Result<Read, ReplayError> {
    let mut session = None;
    let outputs = outputs(lines);
    let mut steps = Vec::new();
    let mut answer: Option<(usize, String)> = None;
    for (n, v) in lines {
        let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
        let p = v.get("payload").unwrap_or(&Value::Null);
        if kind == "session_meta" {
            session = p.get("id").and_then(Value::as_str).map(str::to_string);
            continue;
        }
        if kind != "response_item" {
            continue;
        }
        match p.get("type").and_then(Value::as_str) {
            Some("message") => {
                let text = text_of(p.get("content").unwrap_or(&Value::Null));
                match p.get("role").and_then(Value::as_str) {
                    Some("user") if !is_context(&text) => {
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
                            kind: StepKind::Prompt { prompt: text },
                        });
                    }
                    Some("assistant") => answer = Some((*n, text)),
                    _ => {}
                }
            }
            Some("function_call") => {
                let name = p.get("name").and_then(Value::as_str).ok_or_else(|| {
                    ReplayError::Malformed {
                        line: *n,
                        message: "a `function_call` without a `name`".into(),
                    }
                })?;
                let raw = p.get("arguments").and_then(Value::as_str).unwrap_or("{}");
                let input: Value =
                    serde_json::from_str(raw).map_err(|e| ReplayError::Malformed {
                        line: *n,
                        message: format!("the `arguments` of `{name}` are not JSON ({e})"),
                    })?;
                let id = p.get("call_id").and_then(Value::as_str).unwrap_or("");
                let happened = outputs
                    .get(id)
                    .cloned()
                    .map_or(Happened::Ran, Happened::Refused);
                let (core, input) = shell_as_core(name, input);
                let mut step = tool_step(*n, Dialect::Codex, &core, &input, happened);
                if let StepKind::Tool { agent_tool, .. } = &mut step.kind {
                    name.clone_into(agent_tool);
                }
                steps.push(step);
                answer = None;
            }
            _ => {}
        }
    }
    super::stop_on_last_answer(&mut steps, answer);
    Ok((session, steps))
}

/// Codex's shell tools as the core's `bash` {`command`}; any other tool as it is.
fn shell_as_core(name: &str, input: Value) -> (String, Value) {
    let command = match name {
        "exec_command" => input.get("cmd").cloned(),
        "shell_command" | "shell" | "local_shell" => input.get("command").cloned(),
        _ => None,
    };
    let command = match command {
        Some(Value::String(s)) => s,
        Some(Value::Array(argv)) => argv
            .iter()
            .map(|a| a.as_str().map_or_else(|| a.to_string(), str::to_string))
            .collect::<Vec<_>>()
            .join(" "),
        _ => return (name.to_string(), input),
    };
    let mut args = json!({"command": command});
    if let (Some(dir), Some(obj)) = (input.get("workdir"), args.as_object_mut()) {
        obj.insert("workdir".into(), dir.clone());
    }
    ("bash".to_string(), args)
}

/// The outputs of calls Codex refused (`... rejected: ...`, `exec_command failed: ...`), by
/// `call_id`.
fn outputs(lines: &[(usize, Value)]) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for (_, v) in lines {
        let p = v.get("payload").unwrap_or(&Value::Null);
        if p.get("type").and_then(Value::as_str) != Some("function_call_output") {
            continue;
        }
        let text = text_of(p.get("output").unwrap_or(&Value::Null));
        if (text.contains("rejected")
            || text.starts_with("exec_command failed")
            || text.contains("blocked"))
            && let Some(id) = p.get("call_id").and_then(Value::as_str)
        {
            out.insert(id.to_string(), text);
        }
    }
    out
}
