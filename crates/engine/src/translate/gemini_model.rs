//! A prompt a hook replaced (`updatedPrompt`), sent to Gemini CLI's model: Gemini CLI's
//! BeforeAgent cannot replace a prompt, but its BeforeModel hook may change the request
//! (`hookSpecificOutput.llm_request`). So at BeforeAgent the adapter records the pair
//! (the original's digest, the replacement) in the session's state (`SessionEnv::record_replacement`) and lets
//! the prompt through ([`route_replacement`]), and at BeforeModel, fired before every model
//! request with the whole conversation, it replaces the prompt in each user message that
//! holds it ([`before_model_answer`]). Where it cannot (BeforeModel not wired in the user's
//! own settings, or no model pinned there: Gemini CLI's `auto` first sends the prompt to a
//! routing model in a request no hook sees, `config::agents::gemini_before_model_wiring`;
//! the state not writable) the original is blocked and the reason says why and how to
//! enable it; where a pair exists but the request or the state cannot be read, the
//! model call is denied: a replacement may be a redaction.
//!
//! Gemini CLI 0.61's request, as its hooks see it: `messages`, one per content with text,
//! the text parts joined. A user prompt's message is the prompt, after the session's
//! `<session_context>…</session_context>` on the first one (Gemini CLI merges consecutive
//! user contents), followed by a `<hook_context>…</hook_context>` when a BeforeAgent hook
//! added context. Gemini CLI merges the `messages` answered back into its request by
//! position, keeping each content's other parts (tool calls and results) and every content
//! past the last message answered, so the answer holds the messages up to the last one
//! changed, and no `model` or `config` (an answered `config` would replace the request's).
//!
//! Only the whole prompt is replaced (a later prompt that merely contains it is the user's
//! own). Not recognised, so sent as typed: a replaced prompt whose turn got no answer (a
//! request cancelled before the model's first part) and that Gemini CLI then merges with the
//! next prompt into one user message; Gemini CLI's own requests that no hook sees (the
//! compression of a long session, its LLM loop check) carry the conversation as it keeps
//! it, with the original.

use super::respond::Answer;
use crate::report::{Decision, EventReport};
use crate::session_env::PromptReplacement;
use hookhost_protocol::wire::{GeminiAnswer, GeminiDecision, GeminiSpecificOutput};
use serde_json::Value;

const SESSION_CONTEXT: (&str, &str) = ("<session_context>", "</session_context>");
const HOOK_CONTEXT: (&str, &str) = ("<hook_context>", "</hook_context>");

/// The report of a BeforeAgent whose prompt a hook replaced, once the adapter tried to keep
/// the replacement for BeforeModel (`kept`: `Err` says why it could not): kept, the prompt
/// passes (the replacement goes out at BeforeModel); not kept, the original is blocked and
/// the reason says why, how to enable the replacement, and gives it. Any other report as is.
pub fn route_replacement(report: &EventReport, kept: Result<(), String>) -> EventReport {
    let mut out = report.clone();
    let Some(prompt) = report.updated_prompt.as_ref() else {
        return out;
    };
    if report.decision != Decision::Pass {
        return out;
    }
    out.updated_prompt = None;
    if let Err(why) = kept {
        out.decision = Decision::Block;
        out.reason = Some(format!(
            "a hook replaced this prompt, and Gemini CLI sends a replaced prompt only through hookhost's BeforeModel hook, which cannot here: {why}; so the original was not sent. To have hookhost send replacements, {}. To send this one, submit it as your prompt:\n{prompt}",
            crate::config::agents::GEMINI_BEFORE_MODEL_FIX
        ));
    }
    out
}

/// The answer to Gemini CLI's BeforeModel for a session whose replaced prompts are `pairs`
/// (`Err`: the record is there but cannot be read), the request being `llm_request`: nothing
/// when nothing is to be replaced; the messages with the replacements; a deny saying why
/// when a pair exists and the request or the record cannot be read.
pub fn before_model_answer(
    llm_request: Option<&Value>,
    pairs: Result<Vec<PromptReplacement>, String>,
) -> Answer {
    let answer = match pairs {
        Ok(pairs) if pairs.is_empty() => GeminiAnswer::default(),
        Err(why) => deny(format!(
            "hookhost cannot read the prompts hooks replaced in this session ({why}), so it cannot keep the originals out of this model request, which was not sent; remove that file to send the conversation as the user typed it, or start a new session (`/clear`)"
        )),
        Ok(pairs) => match rewrite_messages(llm_request, &pairs) {
            Ok(None) => GeminiAnswer::default(),
            Ok(Some(messages)) => GeminiAnswer {
                hook_specific_output: Some(GeminiSpecificOutput {
                    hook_event_name: "BeforeModel".into(),
                    llm_request: Some(serde_json::json!({ "messages": messages })),
                    ..GeminiSpecificOutput::default()
                }),
                ..GeminiAnswer::default()
            },
            Err(why) => deny(format!(
                "hookhost cannot read Gemini CLI's model request ({why}) to replace the prompt a hook replaced in this session, so the request was not sent (the original may be a secret the hook redacted); hookhost reads Gemini CLI 0.61's request: start a new session (`/clear`), or remove `hookhost hook --for gemini` from BeforeModel in ~/.gemini/settings.json (a replaced prompt is then blocked instead)"
            )),
        },
    };
    Answer {
        stdout: if answer == GeminiAnswer::default() {
            String::new()
        } else {
            // Plain data: serialising it cannot fail.
            serde_json::to_string(&answer).unwrap_or_default()
        },
        exit_code: 0,
        stderr: String::new(),
    }
}

fn deny(reason: String) -> GeminiAnswer {
    GeminiAnswer {
        decision: Some(GeminiDecision::Deny),
        reason: Some(reason),
        ..GeminiAnswer::default()
    }
}

/// `llm_request.messages` up to the last one changed, with every user message holding a
/// replaced prompt rewritten; `None` when none holds one. `Err`: the request is not
/// Gemini CLI's (no `messages` list, a message that is not `{role, content}` with text).
pub fn rewrite_messages(
    llm_request: Option<&Value>,
    pairs: &[PromptReplacement],
) -> Result<Option<Vec<Value>>, String> {
    let messages = llm_request
        .ok_or("the payload has no `llm_request`")?
        .get("messages")
        .and_then(Value::as_array)
        .ok_or("`llm_request` has no `messages` list")?;
    let mut out = Vec::with_capacity(messages.len());
    let mut last_changed = None;
    for (i, m) in messages.iter().enumerate() {
        let role = m
            .get("role")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("message {i} has no `role`"))?;
        let mut m = m.clone();
        if role == "user" {
            let content = m
                .get("content")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("user message {i} has no text `content`"))?;
            if let Some(new) = replaced(content, pairs) {
                m["content"] = Value::String(new);
                last_changed = Some(i);
            }
        }
        out.push(m);
    }
    Ok(last_changed.map(|last| {
        out.truncate(last + 1);
        out
    }))
}

/// `content` with the replaced prompt it holds replaced: the prompt alone, after the
/// session's context block, before a hook's context block. `None`: it holds none.
fn replaced(content: &str, pairs: &[PromptReplacement]) -> Option<String> {
    let after_context = content
        .strip_prefix(SESSION_CONTEXT.0)
        .and_then(|_| content.find(SESSION_CONTEXT.1))
        .map(|end| content.split_at(end + SESSION_CONTEXT.1.len()));
    for (head, body) in after_context.into_iter().chain([("", content)]) {
        let before_context = body
            .strip_suffix(HOOK_CONTEXT.1)
            .and_then(|_| body.rfind(HOOK_CONTEXT.0))
            .map(|start| body.split_at(start));
        for (prompt, tail) in before_context.into_iter().chain([(body, "")]) {
            if prompt.is_empty() {
                continue;
            }
            // The latest first (a later replacement of the same prompt wins).
            if let Some(pair) = pairs.iter().rev().find(|p| p.replaces(prompt)) {
                return Some(format!("{head}{}{tail}", pair.replacement));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Event;
    use serde_json::json;

    fn pair(o: &str, r: &str) -> PromptReplacement {
        PromptReplacement::new(o, r)
    }

    fn request(messages: Value) -> Value {
        json!({"model": "gemini-3.8-flash", "messages": messages, "config": {"temperature": 1}})
    }

    #[test]
    fn every_message_holding_a_replaced_prompt_is_rewritten() {
        let pairs = [pair("my password is hunter2", "my password is [redacted]")];
        let req = request(json!([
            {"role": "user", "content": "<session_context>\nThis is the Gemini CLI.\n</session_context>my password is hunter2"},
            {"role": "model", "content": "ok"},
            {"role": "user", "content": "my password is hunter2<hook_context>from a hook</hook_context>"},
            {"role": "model", "content": "done"},
            {"role": "user", "content": "and now?"},
        ]));
        let out = rewrite_messages(Some(&req), &pairs).unwrap().unwrap();
        assert_eq!(
            out,
            [
                json!({"role": "user", "content": "<session_context>\nThis is the Gemini CLI.\n</session_context>my password is [redacted]"}),
                json!({"role": "model", "content": "ok"}),
                json!({"role": "user", "content": "my password is [redacted]<hook_context>from a hook</hook_context>"}),
            ],
            "up to the last message changed: Gemini CLI keeps the rest as they are"
        );
        assert!(!Value::Array(out).to_string().contains("hunter2"));
    }

    #[test]
    fn only_a_whole_prompt_is_replaced() {
        let pairs = [pair("yes", "yes, and run the tests first")];
        let req = request(json!([
            {"role": "user", "content": "yes please"},
            {"role": "model", "content": "yes"},
            {"role": "user", "content": "say yes"},
            {"role": "user", "content": "yes<hook_context>x</hook_context> and more"},
        ]));
        assert_eq!(rewrite_messages(Some(&req), &pairs), Ok(None));
        // Nothing recorded, or nothing held: no answer, a pass.
        assert_eq!(before_model_answer(Some(&req), Ok(vec![])).stdout, "");
        assert_eq!(
            before_model_answer(Some(&req), Ok(pairs.to_vec())).stdout,
            ""
        );
    }

    #[test]
    fn the_answer_carries_the_messages_only() {
        let req = request(json!([{"role": "user", "content": "deploy"}]));
        let a = before_model_answer(
            Some(&req),
            Ok(vec![pair("deploy", "run scripts/deploy --dry-run")]),
        );
        let v: Value = serde_json::from_str(&a.stdout).unwrap();
        assert_eq!(
            v,
            json!({"hookSpecificOutput": {"hookEventName": "BeforeModel", "llm_request": {"messages": [
                {"role": "user", "content": "run scripts/deploy --dry-run"}]}}})
        );
        assert_eq!(a.exit_code, 0);
    }

    #[test]
    fn an_unreadable_request_or_record_denies_the_call_when_a_pair_exists() {
        let pairs = vec![pair("a", "b")];
        for req in [
            None,
            Some(json!({"model": "m"})),
            Some(request(
                json!([{"role": "user", "content": [{"type": "text"}]}]),
            )),
            Some(request(json!([{"content": "a"}]))),
        ] {
            let a = before_model_answer(req.as_ref(), Ok(pairs.clone()));
            let v: Value = serde_json::from_str(&a.stdout).unwrap();
            assert_eq!(v["decision"], "deny", "{req:?}: {v}");
        }
        let a = before_model_answer(None, Err("too large".into()));
        let v: Value = serde_json::from_str(&a.stdout).unwrap();
        assert_eq!(v["decision"], "deny");
        assert!(v["reason"].as_str().unwrap().contains("too large"), "{v}");
        // No pair: an unreadable request is none of this answer's business.
        assert_eq!(before_model_answer(None, Ok(vec![])).stdout, "");
    }

    #[test]
    fn a_replacement_is_let_through_only_when_kept() {
        let mut report = EventReport::new(Event::UserPromptSubmit);
        report.updated_prompt = Some("my password is [redacted]".into());
        report.additional_context = vec!["ctx".into()];
        let kept = route_replacement(&report, Ok(()));
        assert_eq!(kept.decision, Decision::Pass);
        assert_eq!(kept.updated_prompt, None);
        assert_eq!(kept.additional_context, ["ctx"]);
        let not = route_replacement(
            &report,
            Err("~/.gemini/settings.json does not exist".into()),
        );
        assert_eq!(not.decision, Decision::Block);
        let reason = not.reason.unwrap();
        assert!(
            reason.contains("does not exist") && reason.contains("BeforeModel"),
            "{reason}"
        );
        assert!(reason.ends_with("\nmy password is [redacted]"), "{reason}");
        // A blocked prompt stays blocked, with its own reason.
        report.decision = Decision::Block;
        report.reason = Some("no".into());
        assert_eq!(
            route_replacement(&report, Ok(())).reason.as_deref(),
            Some("no")
        );
    }
}
