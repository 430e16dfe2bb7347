//! The judge on the answers of other agents' hooks: what each agent reads, and what it does
//! not (a warning, never a silent clean pass).

use super::*;
use crate::Dialect;
use crate::config::Scope;
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
        model: None,
    }
}

fn judged(d: Dialect, event: Event, code: i32, stdout: &str, stderr: &str) -> Judgement {
    judge(rules(d), &facts(event), &output(code, stdout, stderr))
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

/// An output that ends as `condition` (with text on both streams, so no cell falls back).
fn ending(condition: Condition) -> SpawnOutput {
    let status = match condition {
        Condition::Exit0 => ExitStatus::Exited(0),
        Condition::Exit2 => ExitStatus::Exited(2),
        Condition::OtherExit => ExitStatus::Exited(1),
        Condition::Timeout => ExitStatus::TimedOut,
        Condition::SpawnFailure => ExitStatus::SpawnFailed("no such file".into()),
    };
    SpawnOutput {
        status,
        stdout: b"some text".to_vec(),
        stderr: b"a reason".to_vec(),
        truncated: false,
        duration: Duration::ZERO,
        model: None,
    }
}

#[test]
fn every_row_of_every_table_is_the_row_reported() {
    let columns = [
        Event::PreToolUse,
        Event::UserPromptSubmit,
        Event::PostToolUse,
        Event::SessionStart,
        Event::Stop,
        Event::PermissionRequest,
        Event::ConfigChange,
        Event::WorktreeCreate,
    ];
    for d in Dialect::ALL {
        let rules = rules(d);
        for (condition, cells) in &rules.table {
            for event in columns {
                let j = judge(rules, &facts(event), &ending(*condition));
                let Row::Table {
                    condition: got,
                    cell,
                    reduced,
                    ..
                } = j.row
                else {
                    panic!("{d} {event} {condition:?}: {:?}", j.row)
                };
                assert_eq!(got, *condition, "{d} {event}");
                assert_eq!(cell, cells[column(event)], "{d} {event} {condition:?}");
                assert!(!reduced, "{d} {event} {condition:?}");
            }
        }
    }
    // The shell's 126/127 is the spawn-failure row, whatever the exit code says.
    let j = judged(Dialect::Native, Event::PreToolUse, 127, "", "");
    assert!(matches!(
        j.row,
        Row::Table {
            condition: Condition::SpawnFailure,
            cell: Cell::Block,
            ..
        }
    ));
    assert_eq!(j.row.to_string(), "spawn failure: block");
}

#[test]
fn the_row_says_what_refined_the_cell() {
    let via = |j: Judgement| match j.row {
        Row::Table { via, .. } => via,
        row => panic!("{row:?}"),
    };
    let n = Dialect::Native;
    assert_eq!(via(judged(n, Event::PreToolUse, 0, "", "")), Via::Cell);
    assert_eq!(
        via(judged(n, Event::PreToolUse, 0, "hello", "")),
        Via::PlainText
    );
    let block = judged(n, Event::PreToolUse, 0, r#"{"decision":"block"}"#, "");
    assert_eq!((block.outcome, via(block)), (Outcome::Block, Via::Json));
    let cut = judged(n, Event::PreToolUse, 0, r#"{"decision":"#, "");
    assert_eq!(
        (cut.outcome, via(cut)),
        (Outcome::Error, Via::UnreadableJson)
    );
    assert_eq!(
        via(judged(n, Event::PreToolUse, 0, r#"{"nothing":1}"#, "")),
        Via::IgnoredJson
    );
    let stop = judged(
        n,
        Event::PreToolUse,
        0,
        r#"{"continue":false,"stopReason":"x"}"#,
        "",
    );
    assert_eq!(
        (stop.outcome, via(stop)),
        (Outcome::Block, Via::ContinueFalse)
    );
    // Native Stop exit 2 forces only with stdout: without, the cell falls back to a warning.
    let j = judged(n, Event::Stop, 2, "", "");
    assert_eq!(j.outcome, Outcome::Warn);
    assert_eq!(
        j.row.to_string(),
        "exit 2: force if stdout (stdout is the message), its condition not met: warn"
    );
    let j = judged(Dialect::Claude, Event::PreToolUse, 2, "", "no");
    assert_eq!(j.row.to_string(), "exit 2: block (stderr is the reason)");
}

#[test]
fn trust_marks_the_row_reduced_and_the_untrusted_hook_not_run() {
    let mut f = facts(Event::PreToolUse);
    f.trust = TrustLevel::Untrusted;
    let out = output(0, r#"{"additionalContext":"x"}"#, "");
    let j = judge(rules(Dialect::Native), &f, &out);
    assert!(
        matches!(j.row, Row::Table { reduced: true, .. }),
        "{:?}",
        j.row
    );
    assert!(
        j.row
            .to_string()
            .ends_with("(reduced: effects dropped by trust or a re-run)")
    );
    assert_eq!(
        Row::Untrusted { blocks: false }.to_string(),
        "untrusted: not run (trust policy skip)"
    );
}

/// The gating events (a hook refuses what the event is about): exit 2 refuses with its
/// reason in every dialect, JSON `decision: "block"` too, a crash or a timeout only warns
/// (what would be refused goes ahead) unless `onError: "block"`.
#[test]
fn gating_events_refuse_on_exit_2_and_decision_block() {
    let gating = [
        Event::UserPromptExpansion,
        Event::PostToolBatch,
        Event::TaskCreated,
        Event::TaskCompleted,
        Event::ConfigChange,
        Event::Elicitation,
        Event::ElicitationResult,
        Event::PreModelSwitch,
        Event::PreCompact,
    ];
    for event in gating {
        assert_eq!(event.class(), EventClass::Gating, "{event}");
        for d in [Dialect::Native, Dialect::Claude] {
            let j = judged(d, event, 2, "", "not now");
            assert_eq!(
                j.effects.verdict,
                Verdict::Block("not now".into()),
                "{d} {event}"
            );
            let j = judged(d, event, 0, r#"{"decision":"block","reason":"no"}"#, "");
            assert_eq!(
                j.effects.verdict,
                Verdict::Block("no".into()),
                "{d} {event}"
            );
            let j = judged(d, event, 1, "", "crash");
            assert_eq!(
                (j.outcome, &j.effects.verdict),
                (Outcome::Warn, &Verdict::Pass),
                "{d} {event}"
            );
        }
        let mut t = facts(event);
        t.on_error = OnError::Block;
        let j = judge(rules(Dialect::Claude), &t, &output(1, "", "crash"));
        assert!(matches!(j.effects.verdict, Verdict::Block(_)), "{event}");
    }
}

#[test]
fn teammate_idle_exit_2_keeps_the_teammate_working() {
    let j = judged(
        Dialect::Claude,
        Event::TeammateIdle,
        2,
        "",
        "finish the tests first",
    );
    assert_eq!(
        j.effects.verdict,
        Verdict::Force("finish the tests first".into())
    );
    assert_eq!(Event::TeammateIdle.class(), EventClass::Forcing);
}

#[test]
fn worktree_create_reads_the_path_and_fails_closed() {
    for d in [Dialect::Native, Dialect::Claude] {
        let j = judged(
            d,
            Event::WorktreeCreate,
            0,
            "creating...\n/tmp/wt/feature\n",
            "",
        );
        assert_eq!(
            j.effects.worktree_path.as_deref(),
            Some("/tmp/wt/feature"),
            "{d}"
        );
        assert_eq!(j.effects.verdict, Verdict::Pass);
        // A relative path is no worktree hookhost can name: the creation fails.
        let j = judged(d, Event::WorktreeCreate, 0, "wt/feature", "");
        assert!(
            matches!(&j.effects.verdict, Verdict::Block(r) if r.contains("not an absolute path")),
            "{j:?}"
        );
        // Any failure fails the creation, `onError` or not.
        for code in [1, 2] {
            let j = judged(d, Event::WorktreeCreate, code, "", "git said no");
            assert!(matches!(j.effects.verdict, Verdict::Block(_)), "{d} {code}");
        }
    }
    let j = judged(
        Dialect::Claude,
        Event::WorktreeCreate,
        0,
        r#"{"hookSpecificOutput":{"hookEventName":"WorktreeCreate","worktreePath":"/w/x"}}"#,
        "",
    );
    assert_eq!(j.effects.worktree_path.as_deref(), Some("/w/x"));
}

#[test]
fn permission_denied_retry_and_elicitation_answers_are_read_where_they_apply() {
    let retry = r#"{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}"#;
    let j = judged(Dialect::Claude, Event::PermissionDenied, 0, retry, "");
    assert!(j.effects.retry);
    // Exit 2 cannot undo a denial: a warning.
    let j = judged(Dialect::Claude, Event::PermissionDenied, 2, "", "x");
    assert_eq!(
        (j.outcome, j.effects.verdict),
        (Outcome::Warn, Verdict::Pass)
    );
    // `retry` elsewhere is ignored, said so.
    let j = judged(Dialect::Claude, Event::PostToolUse, 0, retry, "");
    assert!(!j.effects.retry);
    assert!(
        j.message
            .unwrap()
            .contains("`retry` applies to PermissionDenied only")
    );

    let accept = r#"{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept","content":{"env":"staging"}}}"#;
    for e in [Event::Elicitation, Event::ElicitationResult] {
        let j = judged(Dialect::Claude, e, 0, accept, "");
        let a = j.effects.elicitation.expect("an answer");
        assert_eq!(
            (a.action.as_str(), a.content),
            ("accept", Some(json!({"env": "staging"})))
        );
    }
    let bad = r#"{"hookSpecificOutput":{"action":"maybe"}}"#;
    let j = judged(Dialect::Claude, Event::Elicitation, 0, bad, "");
    assert!(
        j.message
            .unwrap()
            .contains("must be \"accept\", \"decline\" or \"cancel\"")
    );
    // `watchPaths` is kept, not applied: a warning that says so.
    let watch =
        r#"{"hookSpecificOutput":{"hookEventName":"CwdChanged","watchPaths":["/p/.envrc"]}}"#;
    let j = judged(Dialect::Claude, Event::CwdChanged, 0, watch, "");
    assert_eq!(j.outcome, Outcome::Warn);
    assert!(j.message.unwrap().contains("hookhost watches no files"));
}

#[test]
fn the_observing_events_claude_added_only_warn_on_exit_2() {
    for e in [
        Event::Setup,
        Event::InstructionsLoaded,
        Event::MessageDisplay,
        Event::CwdChanged,
        Event::DirectoryAdded,
        Event::FileChanged,
        Event::WorktreeRemove,
        Event::PostModelSwitch,
    ] {
        assert_eq!(e.class(), EventClass::Observing, "{e}");
        for d in [Dialect::Native, Dialect::Claude] {
            let j = judged(d, e, 2, "", "hm");
            assert_eq!(
                (j.outcome, j.effects.verdict),
                (Outcome::Warn, Verdict::Pass),
                "{d} {e}"
            );
        }
    }
}

/// A model hook's "no" (`spawner::model`: exit 2, the reason on stderr and stdout) under the
/// native and Claude Code rules, event by event, as docs/configuration.md's table says.
#[test]
fn a_model_hooks_no_is_judged_by_its_dialects_table() {
    let no = |d: Dialect, event: Event| {
        let t = HookFacts {
            kind: HookKind::Prompt,
            ..facts(event)
        };
        judge(rules(d), &t, &output(2, "R", "R"))
    };
    for d in [Dialect::Native, Dialect::Claude] {
        for event in [Event::PreToolUse, Event::PermissionRequest] {
            let j = no(d, event);
            assert_eq!(j.effects.verdict, Verdict::Block("R".into()), "{d} {event}");
            assert_eq!(
                j.message.as_deref(),
                Some("the model answered {\"ok\": false}")
            );
        }
        let j = no(d, Event::Stop);
        assert_eq!(j.effects.verdict, Verdict::Force("R".into()), "{d}");
        let j = no(d, Event::PostToolUse);
        assert_eq!(j.effects.feedback, vec!["R".to_string()], "{d}");
    }
    assert_eq!(
        no(Dialect::Claude, Event::UserPromptSubmit).effects.verdict,
        Verdict::Block("R".into())
    );
    assert_eq!(
        no(Dialect::Native, Event::UserPromptSubmit).outcome,
        Outcome::Warn
    );
    // An unreadable answer is said as it is, not as a crash.
    let t = HookFacts {
        kind: HookKind::Agent,
        ..facts(Event::PreToolUse)
    };
    let out = SpawnOutput::bare(
        ExitStatus::Crashed("the model's answer is not ...".into()),
        Duration::ZERO,
    );
    let j = judge(rules(Dialect::Native), &t, &out);
    assert_eq!(j.message.as_deref(), Some("the model's answer is not ..."));
}

/// `onFailure: "block"` (Claude Code 2.1.295) fails a UserPromptSubmit hook closed: a crash,
/// a timeout, a command that cannot start or an unreadable answer blocks the prompt, in the
/// native and the Claude rules; without it the prompt goes ahead.
#[test]
fn on_failure_block_blocks_the_prompt_when_its_hook_fails() {
    let failures = [
        output(1, "", "crash"),
        SpawnOutput::bare(ExitStatus::TimedOut, Duration::ZERO),
        output(0, "{not json", ""),
    ];
    for d in [Dialect::Native, Dialect::Claude] {
        for out in &failures {
            let mut t = facts(Event::UserPromptSubmit);
            let j = judge(rules(d), &t, out);
            assert_eq!(j.effects.verdict, Verdict::Pass, "{d} {out:?}");
            t.on_error = OnError::Block;
            let j = judge(rules(d), &t, out);
            assert!(
                matches!(j.effects.verdict, Verdict::Block(_)),
                "{d} {out:?}: {j:?}"
            );
        }
    }
}
