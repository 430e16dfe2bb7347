//! ling's hook file (`.ling/hooks.json`): a list of rules `[{event, matcher, handler: {type,
//! command | url, ...}, async}]` (or `{"hooks": [...]}`) -> native hook objects. It is no
//! `{"hooks": {event: [...]}}` file, so it is not one of `format.rs`'s tables; it numbers its
//! hooks and reports keys as the shared reader does (`reader.rs`). ling's fields are passed
//! on as they are: the native reader checks them, as ling's are native names.

use super::ForeignFile;
use super::format::Read;
use super::reader::{Numbering, ignored_keys, native};
use crate::Dialect;
use crate::event::Event;
use crate::payload::json_type_name;
use hookhost_protocol::wire::settings::{LingHandler, LingRule, NestedRoot, read};
use serde_json::Value;

/// Reads the rules of a ling file into `f`.
pub(super) fn read_ling(root: &Value, f: &mut ForeignFile) {
    let Some(rules) = ling_rules(root, f) else {
        return;
    };
    let mut numbered = Numbering::default();
    for (i, rule) in rules.iter().enumerate() {
        let Some((event, label, hook)) = ling_rule(i, rule, f) else {
            continue;
        };
        let read = Read {
            hook,
            switch_id: None,
            off: None,
        };
        numbered.push(f, event, label, read, (i, 0));
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
    let mut out = native(Dialect::Ling);
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
    ignored_keys(&r.other, Some(&label), f);
    Some((event, label, out.into_value()))
}
