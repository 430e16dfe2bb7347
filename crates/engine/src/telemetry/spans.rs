//! What a decision-log record becomes as spans: the names and attributes of the event span
//! and of each hook's child span, and the span event of a configured hook that did not run.
//! Built from the [`EventRecord`] only, never from the payload or a hook's output: under
//! `HOOKHOST_LOG=full` the record holds both, and they are still never read here.

use crate::decision_log::{EventRecord, HookEntry, NotRun};
use opentelemetry::KeyValue;
use opentelemetry::trace::Status;

/// The event span's name: `hookhost.event PreToolUse`.
pub fn event_span_name(record: &EventRecord) -> String {
    format!("hookhost.event {}", record.event)
}

/// A hook span's name: `hookhost.hook PreToolUse[0]`.
pub fn hook_span_name(hook: &HookEntry) -> String {
    format!("hookhost.hook {}", hook.hook)
}

/// The name of the span event recorded for a configured hook that did not run.
pub const NOT_RUN_EVENT: &str = "hookhost.hook.not_run";

/// The event span's attributes: what the record says of the event, its payload only as the
/// record's short hash.
pub fn event_attributes(r: &EventRecord) -> Vec<KeyValue> {
    let mut kv = vec![
        KeyValue::new("hookhost.event.name", r.event.clone()),
        KeyValue::new("hookhost.event.id", r.id.clone()),
        KeyValue::new("hookhost.decision", r.decision.clone()),
        KeyValue::new("hookhost.project", r.project.display().to_string()),
        KeyValue::new("hookhost.payload.sha256", r.payload_sha256.clone()),
        KeyValue::new("hookhost.hooks.ran", count(r.hooks.len())),
        KeyValue::new("hookhost.hooks.not_run", count(r.not_run.len())),
    ];
    if let Some(s) = &r.session {
        kv.push(KeyValue::new("session.id", s.clone()));
    }
    if let Some(a) = &r.agent {
        kv.push(KeyValue::new("hookhost.agent", a.clone()));
    }
    if let Some(t) = &r.tool {
        kv.push(KeyValue::new("gen_ai.tool.name", t.clone()));
    }
    if let Some(reason) = &r.reason {
        kv.push(KeyValue::new("hookhost.reason", reason.clone()));
    }
    kv
}

/// A hook span's attributes: its entry in the record, its output only as the short hash.
pub fn hook_attributes(h: &HookEntry) -> Vec<KeyValue> {
    let mut kv = vec![
        KeyValue::new("hookhost.hook", h.hook.clone()),
        KeyValue::new("hookhost.hook.index", count(h.index)),
        KeyValue::new("hookhost.hook.scope", h.scope.clone()),
        KeyValue::new("hookhost.hook.kind", h.kind.clone()),
        KeyValue::new("hookhost.hook.dialect", h.dialect.clone()),
        KeyValue::new("hookhost.hook.trust", h.trust.clone()),
        KeyValue::new("hookhost.hook.outcome", h.outcome.clone()),
        KeyValue::new("hookhost.hook.row", h.row.clone()),
        KeyValue::new("hookhost.hook.output.sha256", h.output_sha256.clone()),
    ];
    if let Some(f) = &h.file {
        kv.push(KeyValue::new("code.file.path", f.display().to_string()));
    }
    if let Some(c) = h.exit_code {
        kv.push(KeyValue::new("process.exit.code", i64::from(c)));
    }
    if let Some(m) = &h.message {
        kv.push(KeyValue::new("hookhost.hook.message", m.clone()));
    }
    if h.rejudged {
        kv.push(KeyValue::new("hookhost.hook.rejudged", true));
    }
    if failed(h) {
        kv.push(KeyValue::new("error.type", h.outcome.clone()));
    }
    kv
}

/// The attributes of the span event of a hook that did not run, and why.
pub fn not_run_attributes(n: &NotRun) -> Vec<KeyValue> {
    let mut kv = vec![
        KeyValue::new("hookhost.hook", n.hook.clone()),
        KeyValue::new("hookhost.hook.not_run", name_of(&n.why)),
    ];
    if let Some(f) = &n.file {
        kv.push(KeyValue::new("code.file.path", f.display().to_string()));
    }
    if let Some(d) = &n.detail {
        kv.push(KeyValue::new("hookhost.hook.not_run.detail", d.clone()));
    }
    kv
}

/// A hook span's status: an error for a hook that timed out or failed, unset otherwise (a
/// block is a decision, not an error).
pub fn hook_status(h: &HookEntry) -> Status {
    if failed(h) {
        Status::error(h.message.clone().unwrap_or_else(|| h.outcome.clone()))
    } else {
        Status::Unset
    }
}

fn failed(h: &HookEntry) -> bool {
    matches!(h.outcome.as_str(), "error" | "timeout")
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The name serde gives `value` (an enum's string), or its Debug text.
fn name_of<T: serde::Serialize + std::fmt::Debug>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => format!("{value:?}").to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision_log::NotRunWhy;
    use opentelemetry::Value;
    use std::path::PathBuf;

    fn get<'a>(kv: &'a [KeyValue], key: &str) -> Option<&'a Value> {
        kv.iter().find(|k| k.key.as_str() == key).map(|k| &k.value)
    }

    fn hook(outcome: &str) -> HookEntry {
        HookEntry {
            hook: "PreToolUse[1]".into(),
            file: Some(PathBuf::from("/p/.coding-agent/hooks.json")),
            index: 1,
            scope: "project".into(),
            kind: "shell".into(),
            dialect: "native".into(),
            trust: "trusted".into(),
            outcome: outcome.into(),
            row: "exit 2: block (stderr is the reason)".into(),
            exit_code: Some(2),
            duration_ms: 3.5,
            message: Some("no rm".into()),
            output_sha256: "0123456789ab".into(),
            rejudged: false,
            stdout: Some("SECRET-STDOUT".into()),
            stderr: Some("SECRET-STDERR".into()),
            model: None,
            sandbox: None,
        }
    }

    #[test]
    fn hook_attributes_are_the_records_and_never_its_output() {
        let kv = hook_attributes(&hook("block"));
        let s = |k| get(&kv, k).map(ToString::to_string);
        assert_eq!(s("hookhost.hook").as_deref(), Some("PreToolUse[1]"));
        assert_eq!(get(&kv, "hookhost.hook.index"), Some(&Value::I64(1)));
        assert_eq!(s("hookhost.hook.outcome").as_deref(), Some("block"));
        assert_eq!(
            s("hookhost.hook.row").as_deref(),
            Some("exit 2: block (stderr is the reason)")
        );
        assert_eq!(get(&kv, "process.exit.code"), Some(&Value::I64(2)));
        assert_eq!(
            s("code.file.path").as_deref(),
            Some("/p/.coding-agent/hooks.json")
        );
        assert!(get(&kv, "error.type").is_none(), "a block is no error");
        assert_eq!(hook_status(&hook("block")), Status::Unset);
        let all = format!("{kv:?}");
        assert!(!all.contains("SECRET"), "{all}");
    }

    #[test]
    fn a_timeout_is_an_error_span() {
        let h = hook("timeout");
        assert_eq!(hook_status(&h), Status::error("no rm"));
        let kv = hook_attributes(&h);
        assert_eq!(
            get(&kv, "error.type").map(ToString::to_string).as_deref(),
            Some("timeout")
        );
    }

    #[test]
    fn event_attributes_use_semantic_conventions_and_no_payload() {
        let r = EventRecord {
            v: 1,
            id: "abc-1-0".into(),
            time: "2026-12-02T00:00:00.000Z".into(),
            session: Some("s-1".into()),
            event: "PreToolUse".into(),
            agent: Some("claude".into()),
            tool: Some("Bash".into()),
            project: PathBuf::from("/p"),
            decision: "block".into(),
            reason: Some("no rm".into()),
            payload_sha256: "aaaaaaaaaaaa".into(),
            payload: Some(serde_json::json!({"toolArgs": {"command": "SECRET-ARG"}})),
            duration_ms: 4.0,
            hooks: vec![hook("block")],
            not_run: vec![NotRun {
                hook: "PreToolUse[0]".into(),
                file: None,
                why: NotRunWhy::Matcher,
                detail: Some("Write".into()),
            }],
        };
        let kv = event_attributes(&r);
        let s = |k| get(&kv, k).map(ToString::to_string);
        assert_eq!(s("session.id").as_deref(), Some("s-1"));
        assert_eq!(s("gen_ai.tool.name").as_deref(), Some("Bash"));
        assert_eq!(s("hookhost.agent").as_deref(), Some("claude"));
        assert_eq!(s("hookhost.decision").as_deref(), Some("block"));
        assert_eq!(get(&kv, "hookhost.hooks.not_run"), Some(&Value::I64(1)));
        assert!(!format!("{kv:?}").contains("SECRET"));
        assert_eq!(event_span_name(&r), "hookhost.event PreToolUse");
        let n = not_run_attributes(&r.not_run[0]);
        assert_eq!(
            get(&n, "hookhost.hook.not_run")
                .map(ToString::to_string)
                .as_deref(),
            Some("matcher")
        );
        assert_eq!(
            get(&n, "hookhost.hook.not_run.detail")
                .map(ToString::to_string)
                .as_deref(),
            Some("Write")
        );
    }
}
