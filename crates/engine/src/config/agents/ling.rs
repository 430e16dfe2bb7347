//! ling's hook file (`.ling/hooks.json`): a list of rules `[{event, matcher, handler: {type,
//! command | url, ...}, async}]` (or `{"hooks": [...]}`) -> native hook objects, as
//! `settings.rs` does for the nested files of Claude Code, Gemini CLI and Codex.

use super::{ForeignFile, ForeignHook};
use crate::Dialect;
use crate::event::Event;
use crate::payload::json_type_name;
use crate::wire::settings::{LingHandler, LingRule, NativeHookObject, NestedRoot, read};
use serde_json::Value;

/// Reads the rules of a ling file into `f`.
pub(super) fn read_ling(root: &Value, f: &mut ForeignFile) {
    let Some(rules) = ling_rules(root, f) else {
        return;
    };
    let mut per_event: std::collections::BTreeMap<Event, usize> = Default::default();
    for (i, rule) in rules.iter().enumerate() {
        let Some((event, label, hook)) = ling_rule(i, rule, f) else {
            continue;
        };
        let index = per_event.entry(event).or_default();
        f.hooks.push(ForeignHook {
            event,
            index: *index,
            label,
            hook,
            position: (i, 0),
            switch_id: None,
            off: None,
        });
        *index += 1;
    }
}

/// The rules of a ling file (a list, or `{"hooks": [...]}`); `None` when there are none or
/// the file is not ling's format (recorded).
fn ling_rules(root: &Value, f: &mut ForeignFile) -> Option<Vec<Value>> {
    let hooks = match root {
        Value::Array(r) => return Some(r.clone()),
        Value::Object(o) => read::<NestedRoot>(o).hooks,
        other => {
            f.problems.push((
                None,
                format!(
                    "the file holds {}, expected a list of rules like [{{\"event\": \"PreToolUse\", \"handler\": {{\"type\": \"command\", \"command\": \"...\"}}}}]",
                    json_type_name(other)
                ),
            ));
            return None;
        }
    };
    match hooks {
        None => None,
        Some(Value::Array(r)) => Some(r),
        Some(other) => {
            f.problems.push((
                None,
                format!(
                    "\"hooks\" must be a list of rules, got {}",
                    json_type_name(&other)
                ),
            ));
            None
        }
    }
}

/// One ling rule as (event, label, native hook object); `None` when it is skipped
/// (recorded).
fn ling_rule(i: usize, rule: &Value, f: &mut ForeignFile) -> Option<(Event, String, Value)> {
    let label = format!("rule[{i}]");
    let Value::Object(r) = rule else {
        f.problems.push((
            Some(label),
            format!("a rule is an object, got {}", json_type_name(rule)),
        ));
        return None;
    };
    let r: LingRule = read(r);
    let Some(event) = &r.event else {
        f.problems.push((
            Some(label),
            "a rule needs `event`, e.g. \"event\": \"PreToolUse\"".into(),
        ));
        return None;
    };
    let Ok(event) = Event::parse_loose(event) else {
        f.warnings.push((
            Some(label),
            format!("hookhost does not fire {event}; this rule does not run"),
        ));
        return None;
    };
    let label = format!("{event}: rule[{i}]");
    let Some(Value::Object(handler)) = &r.handler else {
        f.problems.push((
            Some(label),
            "a rule needs `handler`: {\"type\": \"command\", \"command\": \"...\"}".into(),
        ));
        return None;
    };
    let handler: LingHandler = read(handler);
    let mut out = NativeHookObject {
        dialect: Dialect::Ling,
        ..NativeHookObject::default()
    };
    match handler.kind.as_deref().unwrap_or("command") {
        "command" => out.command = handler.command,
        "http" => {
            out.url = handler.url;
            out.headers = handler.headers;
        }
        other => {
            f.warnings.push((
                Some(label),
                format!("handlers of type {other:?} are not implemented by hookhost"),
            ));
            return None;
        }
    }
    out.timeout = handler.timeout;
    out.matcher = match r.matcher {
        None | Some(Value::Null) => None,
        Some(Value::String(m)) if m.is_empty() || m == "*" => None,
        m => m,
    };
    out.is_async = r.is_async;
    for key in r.other.keys() {
        f.warnings.push((
            Some(label.clone()),
            format!("`{key}` is not implemented by hookhost and is ignored"),
        ));
    }
    Some((event, label, out.into_value()))
}
