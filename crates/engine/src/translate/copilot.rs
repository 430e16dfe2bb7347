//! GitHub Copilot CLI payloads both ways (docs.github.com/en/copilot/reference/hooks-reference,
//! "Hook event input payloads"; the payloads Copilot CLI 1.0.102 sent are in
//! tests/fixtures/dialects/copilot/): [`payload`] renders a native event as the camelCase JSON
//! a Copilot CLI hook reads, [`recognise`] reads one back into native fields.
//!
//! A camelCase Copilot payload names no event (a hook is registered for one): it is told by
//! its shape, a `sessionId` with a numeric `timestamp` (or `toolArgs` as JSON text) and no
//! `hook_event_name`, and its event by its fields: `toolResult` (postToolUse), `error` beside
//! a tool (postToolUseFailure), `toolArgs` (preToolUse), `prompt` (userPromptSubmitted),
//! `agentId` (subagentStop), `stopReason` (agentStop), `trigger` (preCompact), `source`
//! (sessionStart), `reason` (sessionEnd). `toolInput` (permissionRequest), `error` alone
//! (errorOccurred) and `transformedPrompt` (userPromptTransformed) are events hookhost does
//! not fire. The timestamp is kept as native ISO 8601 and rendered back in milliseconds.

use super::render::tool_call;
use crate::Dialect;
use crate::config::agents::tools;
use crate::event::Event;
use crate::payload::Payload;
use hookhost_protocol::wire::{
    CopilotPayload, CopilotPayloadIn, CopilotToolResult, NativePayload, ToolError,
};
use hookhost_sys::clock::iso_of_ms;
use serde::Deserialize;
use serde_json::{Map, Value};

/// The payload a Copilot CLI hook reads for `p`.
pub(super) fn payload(e: Event, p: &Payload) -> CopilotPayload {
    let k = p.known();
    let mut c = CopilotPayload {
        cwd: k.cwd.clone().unwrap_or_default(),
        session_id: k.session_id.clone().unwrap_or_default(),
        timestamp: k
            .timestamp
            .as_deref()
            .and_then(ms_of_iso)
            .unwrap_or_else(now_ms),
        ..CopilotPayload::default()
    };
    let text = |key: &str| p.get(key).and_then(Value::as_str).map(str::to_string);
    match e {
        Event::PreToolUse | Event::PostToolUse => {
            let (name, args) = tool_call(Dialect::Copilot, &k);
            c.tool_name = Some(name);
            c.tool_args = Some(args);
            if e == Event::PostToolUse {
                let result = match k.tool_result.clone() {
                    Some(Value::String(s)) => s,
                    None | Some(Value::Null) => String::new(),
                    Some(v) => v.to_string(),
                };
                c.tool_result = Some(CopilotToolResult {
                    result_type: if matches!(
                        k.tool_error,
                        Some(ToolError::Failed(true) | ToolError::Text(_))
                    ) {
                        "failure"
                    } else {
                        "success"
                    }
                    .into(),
                    text_result_for_llm: result,
                });
            }
        }
        Event::UserPromptSubmit => c.prompt = Some(k.prompt.clone().unwrap_or_default()),
        Event::SessionStart => {
            c.source = Some(k.source.clone().unwrap_or_else(|| "new".into()));
            c.initial_prompt = text("initialPrompt");
        }
        Event::SessionEnd => c.reason = Some(k.reason.clone().unwrap_or_else(|| "complete".into())),
        Event::Stop | Event::SubagentStop => {
            c.transcript_path = Some(k.transcript_path.clone().unwrap_or_default());
            c.stop_reason = Some("end_turn".into());
            c.stop_hook_active = Some(k.stop_hook_active.unwrap_or(false));
            if e == Event::SubagentStop {
                c.response = Some(k.last_assistant_message.clone().unwrap_or_default());
            }
        }
        Event::PreCompact => {
            c.transcript_path = Some(k.transcript_path.clone().unwrap_or_default());
            c.trigger = Some(k.trigger.clone().unwrap_or_else(|| "manual".into()));
            c.custom_instructions = Some(k.custom_instructions.clone().unwrap_or_default());
        }
        #[allow(unreachable_patterns)]
        _ => {}
    }
    c
}

/// The event a camelCase Copilot CLI payload is for, told by its fields (`None`: one hookhost
/// does not fire).
fn event_of(c: &CopilotPayloadIn) -> Option<Event> {
    if c.tool_input.is_some() && c.tool_args.is_none() {
        return None; // permissionRequest
    }
    if c.tool_name.is_some() || c.tool_args.is_some() {
        return if c.tool_result.is_some() {
            Some(Event::PostToolUse)
        } else if c.error.is_some() {
            "PostToolUseFailure".parse().ok()
        } else {
            Some(Event::PreToolUse)
        };
    }
    if c.transformed_prompt.is_some() {
        return None; // userPromptTransformed
    }
    if c.prompt.is_some() {
        return Some(Event::UserPromptSubmit);
    }
    if c.agent_id.is_some() || (c.agent_name.is_some() && c.response.is_some()) {
        return Some(Event::SubagentStop);
    }
    if c.agent_name.is_some() {
        return "SubagentStart".parse().ok();
    }
    if c.stop_reason.is_some() || c.stop_hook_active.is_some() {
        return Some(Event::Stop);
    }
    if c.trigger.is_some() {
        return Some(Event::PreCompact);
    }
    if c.error.is_some() || c.error_context.is_some() {
        return None; // errorOccurred
    }
    if c.source.is_some() {
        return Some(Event::SessionStart);
    }
    c.reason.as_ref().map(|_| Event::SessionEnd)
}

/// A camelCase Copilot CLI payload in native fields: `(Copilot, event, fields)`, or `None`
/// when `obj` is not one. Fields hookhost does not know (`initialPrompt`, `agentName`, ...)
/// are kept verbatim.
pub(super) fn recognise(
    obj: &Map<String, Value>,
) -> Option<(Dialect, Option<Event>, Map<String, Value>)> {
    if obj.contains_key("hook_event_name") || obj.contains_key("event") {
        return None;
    }
    // Every field is read leniently: this cannot fail.
    let c = CopilotPayloadIn::deserialize(obj).unwrap_or_default();
    let copilot = c.session_id.is_some()
        && (c.timestamp.as_ref().is_some_and(Value::is_number)
            || c.tool_args.as_ref().is_some_and(Value::is_string));
    if !copilot {
        return None;
    }
    let event = event_of(&c);
    let mut out = obj.clone();
    for key in [
        "timestamp",
        "toolName",
        "toolArgs",
        "toolResult",
        "stop_hook_active",
        "response",
        "error",
    ] {
        out.remove(key);
    }
    let mut n = NativePayload {
        timestamp: c.timestamp.as_ref().and_then(Value::as_u64).map(iso_of_ms),
        stop_hook_active: c.stop_hook_active,
        last_assistant_message: c.response.clone(),
        ..NativePayload::default()
    };
    if let Some(name) = &c.tool_name {
        let args = match c.tool_args.clone() {
            Some(Value::String(s)) => serde_json::from_str(&s).unwrap_or(Value::String(s)),
            Some(v) => v,
            None => Value::Object(Map::new()),
        };
        let (name, args) = tools::to_core(Dialect::Copilot, name, &args);
        n.tool_name = Some(name);
        n.tool_args = Some(args);
    }
    if let Some(result) = &c.tool_result {
        n.tool_result = Some(
            result
                .get("textResultForLlm")
                .cloned()
                .unwrap_or_else(|| result.clone()),
        );
        n.tool_error = Some(ToolError::Failed(
            result.get("resultType").and_then(Value::as_str) != Some("success"),
        ));
    }
    out.extend(fields_of(&n));
    if let (Some(e), Some(error)) = (event, &c.error)
        && e.as_str() == "PostToolUseFailure"
    {
        out.insert("toolError".into(), error.clone());
    }
    Some((Dialect::Copilot, event, out))
}

fn fields_of(known: &NativePayload) -> Map<String, Value> {
    match serde_json::to_value(known) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

/// Unix milliseconds now.
pub(super) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `YYYY-MM-DDTHH:MM:SS[.fff]Z` in Unix milliseconds; `None` for any other text.
fn ms_of_iso(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let t = s.get(r)?;
        t.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| t.parse().ok())?
    };
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let millis = match &s[19..] {
        "Z" => 0,
        rest if rest.len() == 5 && rest.starts_with('.') && rest.ends_with('Z') => num(20..23)?,
        _ => return None,
    };
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let secs = days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + sec;
    u64::try_from(secs * 1000 + millis).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::path::Path;

    fn fixture(name: &str) -> Value {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/dialects/copilot")
            .join(name);
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
    }

    #[test]
    fn timestamps_round_trip() {
        assert_eq!(
            ms_of_iso("2026-12-01T18:45:18.325Z"),
            Some(1_796_150_718_325)
        );
        assert_eq!(ms_of_iso("1970-01-01T00:00:00Z"), Some(0));
        for bad in [
            "",
            "2026-12-01",
            "2026-13-01T00:00:00Z",
            "2026-12-01T18:45:18+01:00",
        ] {
            assert_eq!(ms_of_iso(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_captured_payloads_tell_their_events() {
        let cases = [
            ("captured-sessionStart.json", Some(Event::SessionStart)),
            (
                "captured-userPromptSubmitted.json",
                Some(Event::UserPromptSubmit),
            ),
            ("captured-preToolUse.json", Some(Event::PreToolUse)),
            ("captured-postToolUse.json", Some(Event::PostToolUse)),
            ("captured-agentStop.json", Some(Event::Stop)),
            ("captured-sessionEnd.json", Some(Event::SessionEnd)),
            ("doc-preToolUse-toolArgs-text.json", Some(Event::PreToolUse)),
            ("doc-errorOccurred.json", None),
            ("doc-subagentStop.json", Some(Event::SubagentStop)),
            ("doc-preCompact.json", Some(Event::PreCompact)),
        ];
        for (name, want) in cases {
            let v = fixture(name);
            let (d, e, _) = recognise(v.as_object().unwrap()).unwrap_or_else(|| panic!("{name}"));
            assert_eq!((d, e), (Dialect::Copilot, want), "{name}");
        }
        let (_, _, f) = recognise(
            fixture("doc-preToolUse-toolArgs-text.json")
                .as_object()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(f["toolArgs"]["command"], "rm -rf dist");
        let (_, _, f) =
            recognise(fixture("captured-postToolUse.json").as_object().unwrap()).unwrap();
        assert_eq!(
            f["toolResult"],
            "victim\n<shellId: 0 completed with exit code 0>"
        );
        assert_eq!(f["toolError"], false);
        assert_eq!(f["timestamp"], "2026-12-01T18:45:32.079Z");
        let (_, _, f) = recognise(fixture("captured-agentStop.json").as_object().unwrap()).unwrap();
        assert_eq!(f["stopHookActive"], false);
        assert!(f.get("stop_hook_active").is_none());
        // Native and Claude Code payloads are not Copilot CLI's.
        for other in [
            json!({"event": "PreToolUse", "sessionId": "s", "timestamp": 1}),
            json!({"sessionId": "s", "toolName": "bash", "toolArgs": {}}),
            json!({"hook_event_name": "PreToolUse", "session_id": "s"}),
        ] {
            assert!(recognise(other.as_object().unwrap()).is_none(), "{other}");
        }
    }

    #[test]
    fn the_vs_code_form_is_copilots_with_claudes_tool_names() {
        let v = fixture("captured-PreToolUse-pascal.json");
        let (d, e, f) = super::super::render::recognise(&v).unwrap();
        assert_eq!((d, e), (Dialect::Copilot, Some(Event::PreToolUse)));
        assert_eq!(
            (f["toolName"].as_str(), f["sessionId"].as_str()),
            (Some("bash"), v["session_id"].as_str())
        );
        // And a camelCase one through the same entry point.
        let v = fixture("captured-preToolUse.json");
        assert_eq!(
            super::super::render::recognise(&v).map(|(d, e, _)| (d, e)),
            Some((Dialect::Copilot, Some(Event::PreToolUse)))
        );
    }

    #[test]
    fn the_other_agents_real_payloads_are_not_taken_for_copilots_or_cursors() {
        let agents = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/agents");
        let mut seen = 0;
        for agent in ["claude", "codex", "gemini"] {
            let Ok(dir) = std::fs::read_dir(agents.join(agent)) else {
                continue;
            };
            for entry in dir.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if !name.ends_with(".json") || name.ends_with(".env.json") {
                    continue;
                }
                let text = std::fs::read_to_string(entry.path()).unwrap();
                let v: Value = serde_json::from_str(&text).unwrap();
                let d = super::super::render::recognise(&v).map(|(d, _, _)| d);
                assert!(
                    !matches!(d, Some(Dialect::Copilot | Dialect::Cursor)),
                    "{agent}/{name} read as {d:?}"
                );
                seen += 1;
            }
        }
        assert!(seen > 0 || !agents.exists());
    }

    #[test]
    fn a_rendered_payload_is_the_captured_one() {
        let captured = fixture("captured-preToolUse.json");
        let (_, e, fields) = recognise(captured.as_object().unwrap()).unwrap();
        let p =
            Payload::from_object(e.unwrap(), Value::Object(fields), Path::new("/x"), "s").unwrap();
        assert_eq!(
            serde_json::to_value(payload(Event::PreToolUse, &p)).unwrap(),
            captured
        );
        let captured = fixture("captured-postToolUse.json");
        let (_, e, fields) = recognise(captured.as_object().unwrap()).unwrap();
        let p =
            Payload::from_object(e.unwrap(), Value::Object(fields), Path::new("/x"), "s").unwrap();
        assert_eq!(
            serde_json::to_value(payload(Event::PostToolUse, &p)).unwrap(),
            captured
        );
        let write = Payload::pre_tool_use(
            Path::new("/p"),
            "s",
            "write_file",
            json!({"path": "a", "content": "b"}),
        );
        let c = payload(Event::PreToolUse, &write);
        assert_eq!(c.tool_name.as_deref(), Some("create"));
        assert_eq!(c.tool_args, Some(json!({"path": "a", "file_text": "b"})));
    }
}
