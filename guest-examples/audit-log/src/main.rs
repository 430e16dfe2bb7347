//! PostToolUse audit logger: appends one JSON line per tool call to
//! `.coding-agent/audit.log` (needs `"fs": "write"`). Never blocks: a failure to write, or a
//! payload it cannot read (logged as such, so nothing vanishes from the log), is a warning
//! (exit 1).
use hookhost_guest::{fail, pass, serde_json::json, Hook};
use std::io::Write;

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| ".coding-agent/audit.log".into());
    let (line, unreadable) = match Hook::try_read() {
        Ok(hook) => (
            json!({
                "session": hook.session_id(),
                "event": hook.str("event"),
                "tool": hook.tool_name(),
                "args": hook.tool_args(),
                "error": hook.payload().get("toolError"),
            }),
            None,
        ),
        Err(why) => {
            let event = std::env::var("HOOK_EVENT").ok();
            (json!({ "event": event, "unreadablePayload": why }), Some(why))
        }
    };
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| writeln!(f, "{line}"));
    match (written, unreadable) {
        (Err(e), _) => fail(&format!("audit-log: cannot append to {path}: {e}")),
        (Ok(()), Some(why)) => fail(&format!("audit-log: logged an unreadable payload ({why})")),
        (Ok(()), None) => pass(),
    }
}
