//! {{name}}: a PreToolUse guard for the `bash` tool that asks a policy server, a WASI
//! preview 2 command component (`wasm32-wasip2`) with the hookhost-guest SDK.
//!
//! Destructive commands are blocked locally. Then, when the hook's command names a policy URL
//! after the module, the payload is POSTed there through `wasi:http` with
//! `authorization: Bearer ${secret:POLICY_TOKEN}` (the host puts the token in; this guard never
//! sees it), and an answer `{"decision": "block", "reason": "..."}` blocks the call. A server
//! that cannot be reached, or answers with a status other than 2xx, blocks too (fail closed).
//! Without a URL only the local rules apply.
//!
//! In `~/.coding-agent/hooks.json` (secrets are accepted in your own file or the managed one,
//! never a project's):
//!
//! ```json
//! { "command": "~/hooks/{{name}}.wasm https://policy.example.com/check", "match": "bash",
//!   "net": ["policy.example.com:443"],
//!   "secrets": {"POLICY_TOKEN": {"env": "POLICY_TOKEN", "hosts": ["policy.example.com"]}} }
//! ```
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
    if let Some(url) = std::env::args().nth(1) {
        ask(&url, &hook);
    }
    pass();
}

/// Blocks unless the policy server at `url` lets the call through.
fn ask(url: &str, hook: &Hook) {
    use hookhost_guest::http::{post_json, secret};
    let body = hookhost_guest::serde_json::to_vec(hook.payload()).unwrap_or_default();
    let auth = format!("Bearer {}", secret("POLICY_TOKEN"));
    let answer = match post_json(url, &body, &[("authorization", &auth)]) {
        Ok(answer) => answer,
        Err(e) => block(&format!("{{name}}: the policy server cannot be asked ({e}); blocking to be safe")),
    };
    if !(200..300).contains(&answer.status) {
        block(&format!("{{name}}: the policy server answered {}; blocking to be safe", answer.status));
    }
    let verdict: hookhost_guest::serde_json::Value =
        hookhost_guest::serde_json::from_slice(&answer.body).unwrap_or_default();
    if verdict["decision"] == "block" {
        let reason = verdict["reason"].as_str().unwrap_or("the policy server said no");
        block(&format!("{{name}}: {reason}"));
    }
}
