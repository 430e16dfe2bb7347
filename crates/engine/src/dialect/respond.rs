//! The outbound adapter's answer: an event's [`EventReport`] in the protocol of the agent
//! that asked (`hookhost hook --for claude|gemini|codex`), so that the agent reaches the
//! decision hookhost reached.
//!
//! Every answer is JSON on stdout with exit 0 (the form each agent documents as preferred);
//! nothing on stdout when there is nothing to say. Hooks can block, never bypass: hookhost
//! never answers "allow". A rewrite of the tool input goes back in the agent's argument keys
//! with "ask" where the agent would otherwise auto-approve (Claude Code), merged into the
//! input (Gemini CLI), or, where the agent cannot apply rewrites (Codex), as a deny that
//! says so: a guard's rewrite is never silently dropped.

use super::{Dialect, render::gemini_event, tools};
use crate::decision::Outcome;
use crate::event::Event;
use crate::report::{Decision, EventReport};
use serde_json::{Map, Value, json};

/// What the adapter prints and how it exits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The JSON answer (empty: nothing to say).
    pub stdout: String,
    /// The exit code.
    pub exit_code: u8,
}

fn joined(items: &[String]) -> Option<String> {
    (!items.is_empty()).then(|| items.join("\n"))
}

/// The answer for `report`, fired for the core tool `tool` (PreToolUse/PostToolUse).
pub fn respond(d: Dialect, report: &EventReport, tool: Option<&str>) -> Answer {
    let e = report.event;
    let mut out = Map::new();
    let mut hso = Map::new();
    let reason = report.reason.clone().unwrap_or_default();
    let event_name = match d {
        Dialect::Gemini => gemini_event(e).unwrap_or(e.as_str()),
        _ => e.as_str(),
    };
    if let Some(stop) = &report.stop {
        out.insert("continue".into(), json!(false));
        out.insert("stopReason".into(), json!(stop.reason));
    }
    let mut messages = report.system_messages.clone();
    messages.extend(untrusted_notice(report));
    if let Some(m) = joined(&messages) {
        out.insert("systemMessage".into(), json!(m));
    }
    let context = joined(&report.additional_context);
    let feedback = joined(&report.feedback);
    let updated = report.updated_args.as_ref().map(|args| {
        let tool = tool.unwrap_or_default();
        tools::to_dialect(d, tool, args).1
    });
    let ends_turn = matches!(
        (e, report.decision),
        (Event::UserPromptSubmit, Decision::Block)
            | (Event::Stop | Event::SubagentStop, Decision::Force)
    );
    // `continue: false` on PreToolUse: deny first, then stop (an agent that reads only the
    // permission decision must not run the call).
    let blocked =
        report.decision == Decision::Block || (e == Event::PreToolUse && report.stop.is_some());
    let reason = match (&report.stop, reason.is_empty()) {
        (Some(stop), true) if blocked => stop.reason.clone(),
        _ => reason,
    };
    match (d, e) {
        (Dialect::Gemini, Event::PreToolUse) => {
            if blocked {
                out.insert("decision".into(), json!("deny"));
                out.insert("reason".into(), json!(reason));
            } else {
                if report.ask {
                    out.insert("decision".into(), json!("ask"));
                }
                if let Some(u) = updated {
                    hso.insert("tool_input".into(), u);
                }
            }
        }
        (Dialect::Codex, Event::PreToolUse) => {
            let deny = if blocked {
                Some(if reason.trim().is_empty() {
                    "blocked by a hookhost hook".to_string()
                } else {
                    reason.clone()
                })
            } else if updated.is_some() {
                Some("a hookhost hook rewrote this call's arguments, which Codex cannot apply; blocked to fail closed".to_string())
            } else {
                // Codex rejects "ask" and "allow": say nothing and its approval policy decides.
                None
            };
            if let Some(why) = deny {
                hso.insert("permissionDecision".into(), json!("deny"));
                hso.insert("permissionDecisionReason".into(), json!(why));
            }
            // Codex 0.171 rejects `continue`/`stopReason` on PreToolUse ("unsupported
            // continue:false"), marks the hook Failed, drops the whole answer and runs the
            // call: the deny alone carries the stop (its reason is the stop reason).
            out.remove("continue");
            out.remove("stopReason");
        }
        (_, Event::PreToolUse) => {
            if blocked {
                hso.insert("permissionDecision".into(), json!("deny"));
                hso.insert("permissionDecisionReason".into(), json!(reason));
            } else if report.ask || updated.is_some() {
                hso.insert("permissionDecision".into(), json!("ask"));
                if let Some(u) = updated {
                    hso.insert("updatedInput".into(), u);
                }
            }
        }
        // A blocked prompt and a forced Stop are the same answer in these protocols.
        _ if ends_turn => {
            out.insert(
                "decision".into(),
                json!(if d == Dialect::Gemini {
                    "deny"
                } else {
                    "block"
                }),
            );
            out.insert("reason".into(), json!(reason));
        }
        (Dialect::Gemini, Event::PostToolUse) => {
            if let Some(f) = &feedback {
                let c = context.clone().map_or(f.clone(), |c| format!("{c}\n{f}"));
                hso.insert("additionalContext".into(), json!(c));
            }
        }
        (_, Event::PostToolUse) => {
            if let Some(f) = &feedback {
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(f));
            }
        }
        _ => {}
    }
    let takes_context = matches!(
        e,
        Event::SessionStart | Event::UserPromptSubmit | Event::PostToolUse | Event::PreToolUse
    );
    if let (Some(c), true) = (context, takes_context) {
        hso.entry("additionalContext").or_insert(json!(c));
    }
    if !hso.is_empty() {
        let mut full = Map::new();
        full.insert("hookEventName".into(), json!(event_name));
        full.extend(hso);
        out.insert("hookSpecificOutput".into(), Value::Object(full));
    }
    Answer {
        stdout: if out.is_empty() {
            String::new()
        } else {
            Value::Object(out).to_string()
        },
        exit_code: 0,
    }
}

/// One line for the user when untrusted project hooks did not run at this event (the
/// default policy skips them): which, and what reviews them. Never silent: the agent shows
/// it in its own channel.
fn untrusted_notice(report: &EventReport) -> Option<String> {
    let skipped: Vec<_> = report
        .hooks
        .iter()
        .filter(|h| h.outcome == Outcome::Skipped && report.untrusted.contains(&h.hook))
        .collect();
    let first = skipped.first()?;
    let names: Vec<String> = skipped
        .iter()
        .take(3)
        .map(|h| format!("{} `{}`", h.hook, crate::terminal_safe(&h.command)))
        .collect();
    let more = match skipped.len() {
        n if n > 3 => format!(" and {} more", n - 3),
        _ => String::new(),
    };
    let file = first
        .file
        .as_deref()
        .map(|f| f.display().to_string())
        .unwrap_or_default();
    Some(format!(
        "hookhost: {} untrusted project hook{} did not run ({}{more}); review {file}, then run `hookhost trust` in that project",
        skipped.len(),
        if skipped.len() == 1 { "" } else { "s" },
        names.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::StopRequest;

    fn report(event: Event) -> EventReport {
        EventReport::new(event)
    }

    fn parsed(a: &Answer) -> Value {
        serde_json::from_str(&a.stdout).unwrap()
    }

    #[test]
    fn a_pass_says_nothing_and_never_allows() {
        for d in [Dialect::Claude, Dialect::Gemini, Dialect::Codex] {
            let a = respond(d, &report(Event::PreToolUse), Some("bash"));
            assert_eq!(
                a,
                Answer {
                    stdout: String::new(),
                    exit_code: 0
                }
            );
        }
    }

    #[test]
    fn rewrites_go_back_in_each_agents_terms() {
        let mut r = report(Event::PreToolUse);
        r.updated_args = Some(json!({"path": "b.txt", "content": "x"}));
        let claude = parsed(&respond(Dialect::Claude, &r, Some("write_file")));
        assert_eq!(claude["hookSpecificOutput"]["permissionDecision"], "ask");
        assert_eq!(
            claude["hookSpecificOutput"]["updatedInput"],
            json!({"file_path": "b.txt", "content": "x"})
        );
        let gemini = parsed(&respond(Dialect::Gemini, &r, Some("write_file")));
        assert_eq!(
            gemini["hookSpecificOutput"]["tool_input"]["file_path"],
            "b.txt"
        );
        assert_eq!(gemini["hookSpecificOutput"]["hookEventName"], "BeforeTool");
        let codex = parsed(&respond(Dialect::Codex, &r, Some("write_file")));
        assert_eq!(codex["hookSpecificOutput"]["permissionDecision"], "deny");
    }

    #[test]
    fn stops_forces_and_prompt_blocks() {
        let mut r = report(Event::Stop);
        r.decision = Decision::Force;
        r.reason = Some("more".into());
        let a = parsed(&respond(Dialect::Claude, &r, None));
        assert_eq!(
            (a["decision"].as_str(), a["reason"].as_str()),
            (Some("block"), Some("more"))
        );
        let a = parsed(&respond(Dialect::Gemini, &r, None));
        assert_eq!(a["decision"], "deny");
        let mut r = report(Event::PostToolUse);
        r.stop = Some(StopRequest {
            reason: "halt".into(),
        });
        let a = parsed(&respond(Dialect::Codex, &r, Some("bash")));
        assert_eq!(
            (a["continue"].as_bool(), a["stopReason"].as_str()),
            (Some(false), Some("halt"))
        );
    }

    #[test]
    fn a_stop_on_pretooluse_is_a_deny_codex_accepts() {
        let mut r = report(Event::PreToolUse);
        r.stop = Some(StopRequest {
            reason: "halt".into(),
        });
        let claude = parsed(&respond(Dialect::Claude, &r, Some("bash")));
        assert_eq!(claude["continue"], false);
        assert_eq!(claude["hookSpecificOutput"]["permissionDecision"], "deny");
        // Codex drops an answer with `continue` or `stopReason` on PreToolUse and runs the call.
        let codex = parsed(&respond(Dialect::Codex, &r, Some("bash")));
        assert_eq!(
            codex,
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": "deny", "permissionDecisionReason": "halt"}})
        );
    }
}
