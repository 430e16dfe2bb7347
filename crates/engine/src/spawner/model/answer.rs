//! What a model hook asks and what its answer means, without the network: the question (the
//! hook's prompt with the payload in place of `$ARGUMENTS`, or appended), the instruction that
//! asks for `{"ok": bool, "reason": "..."}`, the key a judgement is recorded under, and
//! reading the answer's text.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The placeholder the payload's JSON replaces.
pub const ARGUMENTS: &str = "$ARGUMENTS";

/// What every model hook is told before its prompt: the answer's shape.
pub const SYSTEM: &str = "You judge one event of a coding agent for a hook. Reply with exactly one JSON object and nothing else: {\"ok\": true} to let the event go on, or {\"ok\": false, \"reason\": \"why, addressed to the agent\"} to stop it.";

/// The question: `prompt` with every `$ARGUMENTS` replaced by the payload's JSON, or the
/// payload appended when the prompt has no placeholder (as Claude Code does).
pub fn question(prompt: &str, payload: &str) -> String {
    if prompt.contains(ARGUMENTS) {
        prompt.replace(ARGUMENTS, payload)
    } else {
        format!("{prompt}\n\n{payload}")
    }
}

/// Payload fields that differ between two runs of the same event (ids, times, paths of a
/// session): left out of what a judgement is recorded under, so a replay finds it.
const PER_RUN: &[&str] = &[
    "sessionId",
    "session_id",
    "timestamp",
    "transcriptPath",
    "transcript_path",
    "toolUseId",
    "tool_use_id",
    "turnId",
    "turn_id",
    "cwd",
];

/// First 12 hex digits of the SHA-256 of what is asked: the model, the kind, the hook's
/// prompt as written and the payload without its per-run fields.
pub fn asked_sha256(model: &str, kind: &str, prompt: &str, payload: &[u8]) -> String {
    let stable = match serde_json::from_slice::<Value>(payload) {
        Ok(Value::Object(mut fields)) => {
            for key in PER_RUN {
                fields.remove(*key);
            }
            serde_json::to_vec(&Value::Object(fields)).unwrap_or_default()
        }
        _ => payload.to_vec(),
    };
    let mut sha = Sha256::new();
    for part in [
        model.as_bytes(),
        kind.as_bytes(),
        prompt.as_bytes(),
        &stable,
    ] {
        sha.update((part.len() as u64).to_le_bytes());
        sha.update(part);
    }
    sha.finalize()[..6]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A model's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// `true`: the event goes on.
    pub ok: bool,
    /// Why (required in spirit when `ok` is false; a default is used when absent).
    pub reason: Option<String>,
}

/// Why an answer could not be read as a verdict.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the model's answer is not a JSON object {{\"ok\": true|false, \"reason\": \"...\"}}: {why}; its text began {start:?} (make the hook's prompt ask for that object and nothing else)"
)]
pub struct UnreadableAnswer {
    /// What is wrong.
    pub why: String,
    /// The first characters of the answer.
    pub start: String,
}

/// Reads the verdict from an answer's text: one JSON object, possibly in a Markdown code
/// fence or after a line of prose (models add them); `ok` must be a boolean.
pub fn read_verdict(text: &str) -> Result<Verdict, UnreadableAnswer> {
    let unreadable = |why: &str| UnreadableAnswer {
        why: why.to_string(),
        start: text.trim().chars().take(120).collect(),
    };
    let (Some(open), Some(close)) = (text.find('{'), text.rfind('}')) else {
        return Err(unreadable("there is no JSON object in it"));
    };
    if close < open {
        return Err(unreadable("there is no JSON object in it"));
    }
    let object: Value = serde_json::from_str(&text[open..=close])
        .map_err(|e| unreadable(&format!("it is not valid JSON ({e})")))?;
    let ok = match object.get("ok") {
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(unreadable(&format!(
                "`ok` is {}, expected true or false",
                crate::payload::json_type_name(other)
            )));
        }
        None => return Err(unreadable("it has no `ok`")),
    };
    let reason = object
        .get("reason")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(str::to_string);
    Ok(Verdict { ok, reason })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_payload_replaces_arguments_or_is_appended() {
        assert_eq!(question("is $ARGUMENTS ok?", "{}"), "is {} ok?");
        assert_eq!(
            question("judge this", "{\"a\":1}"),
            "judge this\n\n{\"a\":1}"
        );
    }

    #[test]
    fn verdicts_are_read_from_objects_in_fences_and_prose() {
        assert_eq!(
            read_verdict("{\"ok\": true}").unwrap(),
            Verdict {
                ok: true,
                reason: None
            }
        );
        assert_eq!(
            read_verdict("Sure.\n```json\n{\"ok\": false, \"reason\": \" no \"}\n```").unwrap(),
            Verdict {
                ok: false,
                reason: Some("no".into())
            }
        );
        assert!(
            read_verdict("yes")
                .unwrap_err()
                .why
                .contains("no JSON object")
        );
        assert!(
            read_verdict("{\"ok\": \"yes\"}")
                .unwrap_err()
                .why
                .contains("`ok` is a string")
        );
        assert!(
            read_verdict("{\"reason\": \"x\"}")
                .unwrap_err()
                .why
                .contains("no `ok`")
        );
        assert!(read_verdict("} {").is_err());
    }

    #[test]
    fn what_is_asked_ignores_per_run_fields_only() {
        let a = asked_sha256(
            "m",
            "prompt",
            "p",
            br#"{"sessionId":"1","toolName":"Bash"}"#,
        );
        let b = asked_sha256(
            "m",
            "prompt",
            "p",
            br#"{"sessionId":"2","toolName":"Bash"}"#,
        );
        let c = asked_sha256(
            "m",
            "prompt",
            "p",
            br#"{"sessionId":"1","toolName":"Read"}"#,
        );
        let d = asked_sha256(
            "n",
            "prompt",
            "p",
            br#"{"sessionId":"1","toolName":"Bash"}"#,
        );
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, d);
        assert_eq!(a.len(), 12);
    }
}
