//! The judge on the answers of other agents' hooks: what each agent reads, and what it does
//! not (a warning, never a silent clean pass).

use super::*;
use crate::config::Scope;
use crate::dialect::Dialect;
use serde_json::json;
use std::time::Duration;

fn facts(event: Event) -> HookFacts<'static> {
    let id = HookId {
        scope: Scope::Project,
        event,
        index: 0,
        source: 0,
    };
    HookFacts::new(id, HookKind::Shell, OnError::Warn, 1000)
}

fn output(code: i32, stdout: &str, stderr: &str) -> SpawnOutput {
    SpawnOutput {
        status: ExitStatus::Exited(code),
        stdout: stdout.as_bytes().to_vec(),
        stderr: stderr.as_bytes().to_vec(),
        truncated: false,
        duration: Duration::ZERO,
    }
}

fn judged(d: Dialect, event: Event, code: i32, stdout: &str, stderr: &str) -> Judgement {
    judge(
        dialect::rules(d),
        &facts(event),
        &output(code, stdout, stderr),
    )
}

#[test]
fn claude_stop_exit_2_without_stderr_still_keeps_the_agent_going() {
    let j = judged(Dialect::Claude, Event::Stop, 2, "", "");
    assert_eq!(j.outcome, Outcome::Force);
    let Verdict::Force(message) = &j.effects.verdict else {
        panic!("{j:?}")
    };
    assert!(message.starts_with("No stderr output"), "{message}");
    // Codex and Gemini CLI do not; nor hookhost's own rule (stdout is the message there).
    for d in [Dialect::Codex, Dialect::Gemini, Dialect::Native] {
        assert_eq!(
            judged(d, Event::Stop, 2, "", "").effects.verdict,
            Verdict::Pass,
            "{d}"
        );
    }
}

#[test]
fn claudes_invalid_decision_allow_is_a_warning_not_a_clean_pass() {
    for (d, answer) in [
        (
            Dialect::Claude,
            r#"{"decision":"allow","systemMessage":"hi"}"#,
        ),
        (Dialect::Claude, r#"{"decision":"deny","reason":"no"}"#),
        (Dialect::Codex, r#"{"decision":"approve"}"#),
    ] {
        let j = judged(d, Event::PreToolUse, 0, answer, "");
        assert_eq!(j.outcome, Outcome::Warn, "{d} {answer}");
        assert_eq!(j.effects, Effects::pass(), "{d} {answer}: ignored whole");
        assert!(j.message.unwrap().contains("ignored"), "{d} {answer}");
    }
    // Valid in their own dialects.
    let j = judged(
        Dialect::Claude,
        Event::Stop,
        0,
        r#"{"decision":"approve"}"#,
        "",
    );
    assert_eq!((j.outcome, j.message), (Outcome::Pass, None));
    let j = judged(
        Dialect::Gemini,
        Event::PreToolUse,
        0,
        r#"{"decision":"allow"}"#,
        "",
    );
    assert_eq!((j.outcome, j.message), (Outcome::Pass, None));
    let j = judged(
        Dialect::Native,
        Event::PreToolUse,
        0,
        r#"{"decision":"allow"}"#,
        "",
    );
    assert_eq!((j.outcome, j.message), (Outcome::Pass, None));
}

#[test]
fn a_top_level_additional_context_is_ignored_where_claude_code_ignores_it() {
    let top = r#"{"additionalContext":"ctx","systemMessage":"m"}"#;
    for d in [Dialect::Claude, Dialect::Codex, Dialect::Gemini] {
        let j = judged(d, Event::UserPromptSubmit, 0, top, "");
        assert!(j.effects.additional_context.is_empty(), "{d}");
        assert_eq!(j.effects.system_messages, ["m"], "{d}: the rest stands");
        assert_eq!(j.outcome, Outcome::Warn, "{d}");
        let m = j.message.unwrap();
        assert!(m.contains("hookSpecificOutput.additionalContext"), "{m}");
    }
    let nested =
        r#"{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx"}}"#;
    let j = judged(Dialect::Claude, Event::UserPromptSubmit, 0, nested, "");
    assert_eq!(
        (j.effects.additional_context, j.outcome),
        (vec!["ctx".to_string()], Outcome::Pass)
    );
    // hookhost's own protocol reads it at the top level.
    let j = judged(Dialect::Native, Event::UserPromptSubmit, 0, top, "");
    assert_eq!(
        (j.effects.additional_context, j.message),
        (vec!["ctx".to_string()], None)
    );
}

#[test]
fn defer_and_ask_with_its_reason() {
    let defer =
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}"#;
    let j = judged(Dialect::Claude, Event::PreToolUse, 0, defer, "");
    assert_eq!((j.outcome, j.effects.defer), (Outcome::Pass, true));
    assert_eq!(j.effects.verdict, Verdict::Pass);
    // Codex refuses it (and ignores the answer), as it refuses ask.
    let j = judged(Dialect::Codex, Event::PreToolUse, 0, defer, "");
    assert_eq!((j.outcome, j.effects.defer), (Outcome::Warn, false));
    let ask = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"git push detected, confirm"}}"#;
    let j = judged(Dialect::Claude, Event::PreToolUse, 0, ask, "");
    assert!(j.effects.ask);
    assert_eq!(
        j.effects.ask_reason.as_deref(),
        Some("git push detected, confirm")
    );
}

#[test]
fn updated_tool_output_where_each_agent_applies_one() {
    let nested = r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"[redacted]"}}}"#;
    let j = judged(Dialect::Claude, Event::PostToolUse, 0, nested, "");
    assert_eq!(
        j.effects.updated_tool_output,
        Some(json!({"stdout": "[redacted]"}))
    );
    assert_eq!(j.outcome, Outcome::Pass);
    let j = judged(
        Dialect::Native,
        Event::PostToolUse,
        0,
        r#"{"updatedToolOutput":"x"}"#,
        "",
    );
    assert_eq!(j.effects.updated_tool_output, Some(json!("x")));
    // Claude Code reads it only inside hookSpecificOutput.
    let j = judged(
        Dialect::Claude,
        Event::PostToolUse,
        0,
        r#"{"updatedToolOutput":"x"}"#,
        "",
    );
    assert_eq!(
        (j.effects.updated_tool_output, j.outcome),
        (None, Outcome::Warn)
    );
    // Codex cannot apply one: a warning, the output stands.
    let j = judged(Dialect::Codex, Event::PostToolUse, 0, nested, "");
    assert_eq!(j.effects.updated_tool_output, None);
    assert!(j.message.unwrap().contains("does not apply"));
    // Gemini CLI: an AfterTool deny (JSON or exit 2) puts the reason in place of the result.
    let j = judged(
        Dialect::Gemini,
        Event::PostToolUse,
        0,
        r#"{"decision":"deny","reason":"secret"}"#,
        "",
    );
    assert_eq!(
        j.effects.updated_tool_output,
        Some(json!("Tool result blocked: secret"))
    );
    assert!(j.effects.feedback.is_empty());
    let j = judged(Dialect::Gemini, Event::PostToolUse, 2, "", "hidden");
    assert_eq!(
        j.effects.updated_tool_output,
        Some(json!("Tool result blocked: hidden"))
    );
    // Not on another event.
    let j = judged(
        Dialect::Native,
        Event::PreToolUse,
        0,
        r#"{"updatedToolOutput":"x"}"#,
        "",
    );
    assert_eq!(
        (j.effects.updated_tool_output, j.outcome),
        (None, Outcome::Warn)
    );
}
