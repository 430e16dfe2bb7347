//! PostToolUse audit logger: appends one JSON line per tool call to
//! `.coding-agent/audit.log` (needs `"fs": "write"`). Never blocks; a failure to write is a
//! warning (exit 1).
use hookhost_guest::{fail, pass, serde_json::json, Hook};
use std::io::Write;

fn main() {
    let hook = Hook::read();
    let path = std::env::args().nth(1).unwrap_or_else(|| ".coding-agent/audit.log".into());
    let line = json!({
        "session": hook.session_id(),
        "event": hook.str("event"),
        "tool": hook.tool_name(),
        "args": hook.tool_args(),
        "error": hook.payload().get("toolError"),
    });
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| writeln!(f, "{line}"));
    match written {
        Ok(()) => pass(),
        Err(e) => fail(&format!("audit-log: cannot append to {path}: {e}")),
    }
}
