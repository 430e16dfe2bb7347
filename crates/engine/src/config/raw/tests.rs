//! Phase 1 on its own: key typos, and hooks read as far as they go.

use super::*;

#[test]
fn typos_of_keys_find_the_key() {
    assert_eq!(closest("comand", HOOK_KEYS), Some("command"));
    assert_eq!(closest("asynch", HOOK_KEYS), Some("async"));
    assert_eq!(closest("TimeOut", HOOK_KEYS), Some("timeout"));
    assert_eq!(closest("onerror", HOOK_KEYS), Some("onError"));
    assert_eq!(closest("something", HOOK_KEYS), None);
}

#[test]
fn a_wrongly_typed_hook_is_still_read_as_far_as_it_goes() {
    let entries = read_file(r#"{"hooks": {"Stop": [{"command": 5, "timeout": 0, "cwd": "d"}]}}"#);
    let [Entry::Hook(raw)] = entries.as_slice() else {
        panic!("{entries:?}")
    };
    assert_eq!(raw.label(), "Stop[0]");
    assert_eq!(
        (raw.command.as_deref(), raw.cwd.as_deref()),
        (None, Some("d"))
    );
    assert!(raw.keys.contains("command") && raw.timeout_ms.is_none());
    assert_eq!(raw.problems.len(), 2, "{:?}", raw.problems);
}

/// opencode has no hook commands (its hooks are JS plugins): no hook is written for it.
#[test]
fn no_hook_is_of_opencodes_dialect() {
    let entries =
        read_file(r#"{"hooks": {"PreToolUse": [{"command": "x", "dialect": "opencode"}]}}"#);
    let [Entry::Hook(raw)] = entries.as_slice() else {
        panic!("{entries:?}")
    };
    assert!(raw.dialect.is_none());
    assert!(
        raw.problems[0].contains("plugins/opencode/hookhost.js"),
        "{:?}",
        raw.problems
    );
}
