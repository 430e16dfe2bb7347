//! Adding and removing hookhost's entries in an agent's settings document, nothing else:
//! the user's hooks, every other key and their order stay as they were. An entry is
//! hookhost's when its command runs the adapter ([`hookhost::dialect::is_adapter`]).
//!
//! Install, per event the agent fires: an event with no adapter entry gets one appended (in
//! a group of its own, with the match-all matcher on tool events); an event with one keeps
//! its place and gets this hookhost's command (a moved or removed binary is repointed), and
//! a second one is removed. Uninstall removes every adapter entry, and the groups, event
//! lists and `hooks` object that only held them.

use super::ordered::Json;
use super::table::{AgentRow, Shape};
use hookhost::dialect::is_adapter;
use serde::Serialize;

/// What happened to one event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "action")]
pub enum Action {
    /// A new entry.
    Added,
    /// An adapter entry there now runs this command (`was`: its old one); duplicates removed.
    Updated { was: String },
    /// Already wired with this command.
    Kept,
    /// Uninstall removed this many entries.
    Removed { entries: usize },
}

/// One event's change.
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    pub event: String,
    #[serde(flatten)]
    pub action: Action,
}

/// A document whose shape the agent would not read either.
#[derive(Debug, thiserror::Error)]
#[error("`{at}` is {found}, expected {expected}")]
pub struct ShapeError {
    /// Where, as a path of keys (`hooks.PreToolUse[0].hooks`).
    pub at: String,
    pub found: &'static str,
    pub expected: &'static str,
}

fn shape_error(at: String, found: &Json, expected: &'static str) -> ShapeError {
    ShapeError {
        at,
        found: found.type_name(),
        expected,
    }
}

/// Wires `command` on every event of `row` into `doc` (a new file is `Json::Null`).
pub fn install(doc: &mut Json, row: &AgentRow, command: &str) -> Result<Vec<Change>, ShapeError> {
    if *doc == Json::Null {
        *doc = Json::Object(Vec::new());
        if row.shape.versioned() {
            doc.set("version", Json::num(1));
        }
    }
    if !matches!(doc, Json::Object(_)) {
        return Err(shape_error("(the file)".into(), doc, "an object"));
    }
    if doc.get("hooks").is_none() {
        doc.set("hooks", Json::Object(Vec::new()));
    }
    let hooks = doc.get_mut("hooks").expect("set above");
    if !matches!(hooks, Json::Object(_)) {
        return Err(shape_error("hooks".into(), hooks, "an object"));
    }
    let mut changes = Vec::new();
    for event in row.events() {
        if hooks.get(event).is_none() {
            hooks.set(event, Json::Array(Vec::new()));
        }
        let list = hooks.get_mut(event).expect("set above");
        let Json::Array(items) = list else {
            return Err(shape_error(format!("hooks.{event}"), list, "an array"));
        };
        let action = install_event(items, row, event, command)?;
        changes.push(Change {
            event: event.to_string(),
            action,
        });
    }
    Ok(changes)
}

/// Removes every adapter entry from `doc`; the changes, one per event that had any.
pub fn uninstall(doc: &mut Json, row: &AgentRow) -> Result<Vec<Change>, ShapeError> {
    let Some(hooks) = doc.get_mut("hooks") else {
        return Ok(Vec::new());
    };
    let Json::Object(events) = hooks else {
        return Err(shape_error("hooks".into(), hooks, "an object"));
    };
    let mut changes = Vec::new();
    for (event, list) in events.iter_mut() {
        let Json::Array(items) = list else {
            continue;
        };
        let entries = remove_adapters(items, row.shape, event)?;
        if entries > 0 {
            changes.push(Change {
                event: event.clone(),
                action: Action::Removed { entries },
            });
        }
    }
    // Event lists that only held hookhost's entries go, and `hooks` if that empties it.
    events.retain(|(event, list)| {
        !(matches!(list, Json::Array(items) if items.is_empty())
            && changes.iter().any(|c| c.event == *event))
    });
    if events.is_empty() && !changes.is_empty() {
        doc.remove("hooks");
    }
    Ok(changes)
}

/// Whether an uninstalled document holds nothing but what install starts a file with.
pub fn is_empty_skeleton(doc: &Json, row: &AgentRow) -> bool {
    match doc {
        Json::Object(pairs) => pairs
            .iter()
            .all(|(k, v)| row.shape.versioned() && k == "version" && *v == Json::num(1)),
        _ => false,
    }
}

/// The entries of one event list: `(group index, entry index in the group)` of each adapter
/// entry (flat shapes: the entry index twice).
fn adapter_places(
    items: &[Json],
    shape: Shape,
    event: &str,
) -> Result<Vec<(usize, usize)>, ShapeError> {
    let key = shape.command_key();
    let mut out = Vec::new();
    for (g, item) in items.iter().enumerate() {
        match shape {
            Shape::Groups { .. } => {
                let Some(list) = item.get("hooks") else {
                    continue;
                };
                let Json::Array(entries) = list else {
                    return Err(shape_error(
                        format!("hooks.{event}[{g}].hooks"),
                        list,
                        "an array",
                    ));
                };
                for (i, e) in entries.iter().enumerate() {
                    if e.get(key).and_then(Json::as_str).is_some_and(is_adapter) {
                        out.push((g, i));
                    }
                }
            }
            // A plugin file has no entries (install never edits it as a document).
            Shape::CursorFlat
            | Shape::CopilotFlat
            | Shape::WindsurfFlat
            | Shape::ScriptDir
            | Shape::PluginFile { .. } => {
                if item.get(key).and_then(Json::as_str).is_some_and(is_adapter) {
                    out.push((g, g));
                }
            }
        }
    }
    Ok(out)
}

/// One event of install.
fn install_event(
    items: &mut Vec<Json>,
    row: &AgentRow,
    event: &str,
    command: &str,
) -> Result<Action, ShapeError> {
    let places = adapter_places(items, row.shape, event)?;
    let key = row.shape.command_key();
    let Some(&(g, i)) = places.first() else {
        items.push(new_group(row, event, command));
        return Ok(Action::Added);
    };
    let entry = match row.shape {
        Shape::Groups { .. } => match items[g].get_mut("hooks") {
            Some(Json::Array(entries)) => &mut entries[i],
            _ => unreachable!("adapter_places found an entry there"),
        },
        _ => &mut items[g],
    };
    let was = entry
        .get(key)
        .and_then(Json::as_str)
        .unwrap_or_default()
        .to_string();
    let mut action = if was == command {
        Action::Kept
    } else {
        entry.set(key, Json::str(command));
        Action::Updated { was: was.clone() }
    };
    if places.len() > 1 {
        // The first stays; the others would run hookhost twice per event.
        remove_places(items, row.shape, &places[1..]);
        action = Action::Updated { was };
    }
    Ok(action)
}

/// The group (or flat entry) install appends.
fn new_group(row: &AgentRow, event: &str, command: &str) -> Json {
    let timeout = Json::num(row.timeout);
    match row.shape {
        Shape::Groups { tool_matcher } => {
            let entry = Json::obj([
                ("type", Json::str("command")),
                ("command", Json::str(command)),
                ("timeout", timeout),
            ]);
            let mut group = Json::Object(Vec::new());
            if row.is_tool_event(event) {
                group.set("matcher", Json::str(tool_matcher));
            }
            group.set("hooks", Json::Array(vec![entry]));
            group
        }
        Shape::CursorFlat | Shape::ScriptDir | Shape::PluginFile { .. } => {
            Json::obj([("command", Json::str(command)), ("timeout", timeout)])
        }
        Shape::WindsurfFlat => Json::obj([("command", Json::str(command))]),
        Shape::CopilotFlat => Json::obj([
            ("type", Json::str("command")),
            ("bash", Json::str(command)),
            ("timeoutSec", timeout),
        ]),
    }
}

/// Removes every adapter entry of one event list: how many.
fn remove_adapters(items: &mut Vec<Json>, shape: Shape, event: &str) -> Result<usize, ShapeError> {
    let places = adapter_places(items, shape, event)?;
    remove_places(items, shape, &places);
    Ok(places.len())
}

/// Removes the entries at `places`, and the groups that held nothing else.
fn remove_places(items: &mut Vec<Json>, shape: Shape, places: &[(usize, usize)]) {
    let mut emptied = Vec::new();
    // Back to front, so the indices still hold.
    for &(g, i) in places.iter().rev() {
        match shape {
            Shape::Groups { .. } => {
                if let Some(Json::Array(entries)) = items[g].get_mut("hooks") {
                    entries.remove(i);
                    if entries.is_empty() {
                        emptied.push(g);
                    }
                }
            }
            _ => emptied.push(g),
        }
    }
    emptied.sort_unstable();
    emptied.dedup();
    for g in emptied.into_iter().rev() {
        items.remove(g);
    }
}

#[cfg(test)]
mod tests {
    use super::super::table::row;
    use super::*;
    use hookhost::dialect::Dialect;

    fn parse(text: &str) -> Json {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn install_keeps_the_users_hooks_and_order_and_uninstall_restores() {
        let r = row(Dialect::Claude).unwrap();
        let text = r#"{"model": "x", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "mine.sh"}]}]}, "z": 1}"#;
        let original = parse(text);
        let mut doc = original.clone();
        let changes = install(&mut doc, r, "/bin/hookhost hook --for claude").unwrap();
        assert!(changes.iter().all(|c| c.action == Action::Added));
        let pre = doc.get("hooks").unwrap().get("PreToolUse").unwrap();
        let Json::Array(groups) = pre else { panic!() };
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[1].get("matcher"), Some(&Json::str("*")));
        let again = doc.clone();
        let changes = install(&mut doc, r, "/bin/hookhost hook --for claude").unwrap();
        assert!(changes.iter().all(|c| c.action == Action::Kept));
        assert_eq!(doc, again);
        // A moved binary: repointed in place.
        install(&mut doc, r, "/new/hookhost hook --for claude").unwrap();
        assert!(doc.to_pretty().contains("/new/hookhost"));
        assert!(!doc.to_pretty().contains("/bin/hookhost"));
        uninstall(&mut doc, r).unwrap();
        assert_eq!(doc, original);
    }

    #[test]
    fn a_wrong_shape_is_refused_with_its_place() {
        let r = row(Dialect::Gemini).unwrap();
        let mut doc = parse(r#"{"hooks": {"BeforeTool": {"matcher": "x"}}}"#);
        let e = install(&mut doc, r, "hookhost hook --for gemini").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`hooks.BeforeTool` is an object, expected an array"
        );
    }

    #[test]
    fn flat_shapes_and_their_skeleton() {
        for d in [Dialect::Cursor, Dialect::Copilot] {
            let r = row(d).unwrap();
            let mut doc = Json::Null;
            install(&mut doc, r, "/h/hookhost hook --for x").unwrap();
            assert_eq!(doc.get("version"), Some(&Json::num(1)));
            let n = uninstall(&mut doc, r).unwrap().len();
            assert_eq!(n, r.events().len());
            assert!(is_empty_skeleton(&doc, r), "{d}: {doc:?}");
        }
    }
}
