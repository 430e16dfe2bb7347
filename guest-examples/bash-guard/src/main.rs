//! PreToolUse guard for shell tools: blocks destructive commands, and rewrites `rm -r` into
//! an interactive-safe form is out of scope — it only blocks, with a reason the model reads.
use hookhost_guest::{block, pass, Event, Hook};

/// Patterns that destroy data or the machine, with the reason shown to the model.
const DANGEROUS: &[(&str, &str)] = &[
    ("rm -rf /", "deletes the whole filesystem"),
    ("rm -rf ~", "deletes the home directory"),
    ("rm -rf *", "deletes everything in the working directory"),
    ("rm -fr /", "deletes the whole filesystem"),
    ("mkfs", "formats a disk"),
    ("dd if=", "overwrites a device"),
    (":(){ :|:& };:", "is a fork bomb"),
    ("chmod -R 777 /", "opens the whole filesystem to everyone"),
    ("git push --force", "rewrites shared history"),
    ("> /dev/sda", "overwrites a disk"),
];

fn main() {
    let hook = Hook::read();
    if hook.event() != Event::PreToolUse {
        pass();
    }
    let command = hook.arg_str("command").unwrap_or("");
    let normalized = command.split_whitespace().collect::<Vec<_>>().join(" ");
    for (pattern, why) in DANGEROUS {
        if normalized.contains(pattern) {
            block(&format!("bash-guard: `{pattern}` {why}; find a safer command"));
        }
    }
    pass();
}
