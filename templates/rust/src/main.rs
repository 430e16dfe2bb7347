//! {{name}}: a PreToolUse guard for the `bash` tool, a WASI preview 1 command module.
//! It blocks destructive commands (exit 2, reason on stderr) and passes everything else.
//! `Hook::read()` fails closed: a payload it cannot read or parse blocks the call.
use hookhost_guest::{block, pass, Event, Hook};

/// Patterns that destroy data, with the reason the model is shown.
const DANGEROUS: &[(&str, &str)] = &[
    ("rm -rf /", "deletes the whole filesystem"),
    ("rm -fr /", "deletes the whole filesystem"),
    ("rm -rf ~", "deletes the home directory"),
    ("mkfs", "formats a disk"),
];

fn main() {
    let hook = Hook::read();
    if hook.event() != Event::PreToolUse || hook.tool_name() != Some("bash") {
        pass();
    }
    // Collapse runs of whitespace so `rm  -rf   /` is caught too.
    let command = hook.arg_str("command").unwrap_or("");
    let normalized = command.split_whitespace().collect::<Vec<_>>().join(" ");
    for (pattern, why) in DANGEROUS {
        if normalized.contains(pattern) {
            block(&format!("{{name}}: `{pattern}` {why}; use a safer command"));
        }
    }
    pass();
}
