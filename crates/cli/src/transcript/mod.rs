//! Reading a recorded agent session for `hookhost replay`: one reader per transcript format
//! (Claude Code, Codex, Gemini CLI; their formats as the pinned agents write them, captured in
//! tests/fixtures/transcripts/), each turning the file into [`Step`]s: every prompt, tool call
//! (its name and input mapped to the core's through [`hookhost::dialect::tools`]) and stop, with
//! what happened to it in the session. Nothing here runs a tool or a hook.

mod claude;
mod codex;
mod decision_log;
mod gemini;

use serde::Serialize;
use serde_json::Value;

/// A transcript format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Claude Code: `~/.claude/projects/<slug>/<session>.jsonl`.
    Claude,
    /// Codex: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`.
    Codex,
    /// Gemini CLI: `~/.gemini/tmp/<project>/chats/session-*.jsonl`.
    Gemini,
    /// hookhost's own decision log written under `HOOKHOST_LOG=full`
    /// (`~/.cache/hookhost/log/decisions.jsonl`).
    Hookhost,
}

impl Format {
    /// `claude`, `codex` or `gemini`.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Claude => "claude",
            Format::Codex => "codex",
            Format::Gemini => "gemini",
            Format::Hookhost => "hookhost",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = ReplayError;
    fn from_str(s: &str) -> Result<Self, ReplayError> {
        match s.to_ascii_lowercase().as_str() {
            "claude" => Ok(Format::Claude),
            "codex" => Ok(Format::Codex),
            "gemini" => Ok(Format::Gemini),
            "hookhost" => Ok(Format::Hookhost),
            _ => Err(ReplayError::UnknownFormatName(s.to_string())),
        }
    }
}

/// What went wrong reading a transcript.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// `--format` named no format.
    #[error("unknown transcript format {0:?}: use --format claude, codex, gemini or hookhost")]
    UnknownFormatName(String),
    /// No reader recognises the content.
    #[error(
        "not a transcript hookhost can read (Claude Code, Codex or Gemini CLI JSON lines, or hookhost's decision log): {0}; \
         pass --format claude|codex|gemini|hookhost if it is one"
    )]
    UnknownFormat(String),
    /// The decision log has no line of the session asked for.
    #[error("no event of session {0:?} in the decision log; `hookhost log` lists sessions")]
    NoSuchSession(String),
    /// A decision log line without its payload: the log was not written with full capture.
    #[error(
        "line {0}: the decision log kept no payload (only its hash): it was written without \
         full capture; set HOOKHOST_LOG=full while the agent runs, then replay that session"
    )]
    NoPayloads(usize),
    /// A line is not JSON or not the shape its format has.
    #[error(
        "line {line}: {message}; fix or delete that line (a session cut off mid-write ends in one)"
    )]
    Malformed {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        message: String,
    },
}

/// What happened to a tool call in the recorded session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "outcome", content = "detail")]
pub enum Happened {
    /// It ran (or its result is not in the transcript).
    Ran,
    /// The agent (or a hook, or its user) refused it: the result's text.
    Refused(String),
}

/// One thing to re-fire.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum StepKind {
    /// The user's prompt (UserPromptSubmit).
    Prompt {
        /// The text.
        prompt: String,
    },
    /// A tool call (PreToolUse).
    Tool {
        /// The name in the transcript (`Bash`, `exec_command`, `run_shell_command`).
        agent_tool: String,
        /// The core's name (`bash`, `write_file`, ...), or the agent's for a tool without one.
        tool: String,
        /// The input, with the core's keys.
        args: Value,
        /// What happened in the session.
        happened: Happened,
    },
    /// The agent's final answer of a turn (Stop).
    Stop {
        /// The answer's text (may be empty).
        answer: String,
    },
}

/// A step and where it is in the transcript.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// 1-based line of the transcript it came from.
    pub line: usize,
    /// What a hook said when it blocked this step in the session, when the transcript says
    /// a hook did: hookhost's own decision log records every decision; an agent's transcript
    /// does not tell a hook's refusal from its own or its user's (`None`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked: Option<String>,
    /// What it is.
    #[serde(flatten)]
    pub kind: StepKind,
}

/// A transcript read: its format, session id (when it names one) and steps in order.
#[derive(Debug, Clone, Serialize)]
pub struct Session {
    /// The format.
    pub format: Format,
    /// The session id the agent recorded.
    pub session_id: Option<String>,
    /// The steps.
    pub steps: Vec<Step>,
}

/// The JSON lines of a transcript, numbered from 1; blank lines are skipped.
pub(crate) fn lines(text: &str) -> Result<Vec<(usize, Value)>, ReplayError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).map_err(|e| ReplayError::Malformed {
            line: i + 1,
            message: format!("not JSON ({e})"),
        })?;
        if !v.is_object() {
            return Err(ReplayError::Malformed {
                line: i + 1,
                message: format!(
                    "a JSON {} where each line is an object",
                    hookhost::json_type_name(&v)
                ),
            });
        }
        out.push((i + 1, v));
    }
    Ok(out)
}

/// The format of a transcript, told by its first lines: Codex's `session_meta`/`payload`
/// records, Gemini's `sessionId`+`projectHash` header or `$set` records, Claude's
/// `sessionId`+`type` entries.
pub fn detect(lines: &[(usize, Value)]) -> Result<Format, ReplayError> {
    for (_, v) in lines.iter().take(20) {
        let has = |k: &str| v.get(k).is_some();
        if decision_log::is_record(v) {
            return Ok(Format::Hookhost);
        }
        if has("payload") && v.get("type").and_then(Value::as_str).is_some() && has("timestamp") {
            return Ok(Format::Codex);
        }
        if has("projectHash") || has("$set") {
            return Ok(Format::Gemini);
        }
        if has("sessionId") && has("type") && (has("uuid") || has("message") || has("cwd")) {
            return Ok(Format::Claude);
        }
    }
    Err(ReplayError::UnknownFormat(match lines.first() {
        None => "the file is empty".to_string(),
        Some((n, _)) => format!("no line among the first 20 (from line {n}) has a known shape"),
    }))
}

/// Reads a transcript: `format` when given, else detected from the content; `session`
/// picks the session of a decision log (default: the session of its last line).
pub fn read(
    text: &str,
    format: Option<Format>,
    session: Option<&str>,
) -> Result<Session, ReplayError> {
    let lines = lines(text)?;
    let format = match format {
        Some(f) => f,
        None => detect(&lines)?,
    };
    let (session_id, steps) = match format {
        Format::Claude => claude::steps(&lines)?,
        Format::Codex => codex::steps(&lines)?,
        Format::Gemini => gemini::steps(&lines)?,
        Format::Hookhost => decision_log::steps(&lines, session)?,
    };
    Ok(Session {
        format,
        session_id,
        steps,
    })
}

/// The text of a tool result or message content: a string, or the `text` of its parts.
pub(crate) fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str).or_else(|| p.as_str()))
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The step for a tool call in `dialect`'s names, mapped to the core's.
pub(crate) fn tool_step(
    line: usize,
    dialect: hookhost::dialect::Dialect,
    name: &str,
    input: &Value,
    happened: Happened,
) -> Step {
    let (tool, args) = hookhost::dialect::tools::to_core(dialect, name, input);
    Step {
        line,
        blocked: None,
        kind: StepKind::Tool {
            agent_tool: name.to_string(),
            tool,
            args,
            happened,
        },
    }
}

/// Closes a session's steps: its last answer, when no tool call followed it, is the Stop.
pub(crate) fn stop_on_last_answer(steps: &mut Vec<Step>, answer: Option<(usize, String)>) {
    if let Some((line, answer)) = answer {
        steps.push(Step {
            line,
            blocked: None,
            kind: StepKind::Stop { answer },
        });
    }
}

#[cfg(test)]
mod tests;
