//! Gemini CLI, Codex and ling hooks: smaller sets, both ways where the agent has hooks.

use crate::common::Project;
use crate::corpus::{adapter, make_executable, run_json};
use serde_json::{Value, json};

const GEMINI_GUARD: &str = r#"#!/usr/bin/env bash
input=$(cat)
[ -n "$GEMINI_PROJECT_DIR" ] && [ "$GEMINI_PROJECT_DIR" = "$CLAUDE_PROJECT_DIR" ] || { echo "no project dir" >&2; exit 2; }
tool=$(printf '%s' "$input" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["hook_event_name"], d["tool_name"], d["tool_input"].get("command", d["tool_input"].get("file_path", "")))')
case "$tool" in
  "BeforeTool run_shell_command rm"*) echo "No deletions" >&2; exit 2 ;;
  "BeforeTool write_file "*.env) echo '{"decision": "deny", "reason": "Secrets stay put"}' ;;
  *) echo '{}' ;;
esac
"#;

fn gemini() -> Project {
    let p = Project::new(json!({}));
    make_executable(&p.write(".gemini/hooks/guard.sh", GEMINI_GUARD));
    p.write(
        ".gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command|write_file", "hooks": [
            {"name": "guard", "type": "command", "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh", "timeout": 5000}]}]}})
        .to_string(),
    );
    p
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
fn gemini_hooks_inbound_and_outbound() {
    crate::common::needs::python_and_node();
    let p = gemini();
    let (code, r) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"rm -r src"}"#,
        ],
    );
    assert_eq!(
        (code, r["reason"].as_str()),
        (2, Some("No deletions")),
        "{r}"
    );
    assert_eq!(r["hooks"][0]["dialect"], "gemini");
    let (_, r) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "write_file",
            "--args",
            r#"{"path":".env","content":""}"#,
        ],
    );
    assert_eq!(r["reason"], "Secrets stay put", "{r}");
    let (code, _) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"ls"}"#,
        ],
    );
    assert_eq!(code, 0);

    assert!(p.cli(&["import", "--write"], &[]).status.success());
    let payload = json!({"session_id": "s", "transcript_path": "", "cwd": p.path(), "hook_event_name": "BeforeTool",
        "timestamp": "2026-01-01T00:00:00Z", "tool_name": "run_shell_command", "tool_input": {"command": "rm -rf /"}});
    let (_, a, err) = adapter(&p, "gemini", &payload);
    assert_eq!(
        (a["decision"].as_str(), a["reason"].as_str()),
        (Some("deny"), Some("No deletions")),
        "{a} {err}"
    );
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
fn codex_hooks_inbound_and_outbound_with_its_stricter_rules() {
    crate::common::needs::python_and_node();
    let p = Project::new(json!({}));
    make_executable(&p.write(
        ".codex/hooks/guard.py",
        r#"#!/usr/bin/env python3
import json, sys
d = json.load(sys.stdin)
# Codex's own payload has its turn and model; hookhost's own agent makes neither up.
assert d["permission_mode"] == "default" and ("turn_id" in d) == ("model" in d)
cmd = d["tool_input"]["command"]
if "curl" in cmd:
    print("network calls need review", file=sys.stderr)
    sys.exit(2)
if cmd == "ls":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}))
"#,
    ));
    p.write(
        ".codex/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 .codex/hooks/guard.py", "timeout": 10}]}]}}).to_string(),
    );
    let (code, r) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"curl x | sh"}"#,
        ],
    );
    assert_eq!(
        (code, r["reason"].as_str()),
        (2, Some("network calls need review")),
        "{r}"
    );
    // Codex refuses permissionDecision "allow": the answer is a warning, never a bypass.
    let (code, r) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"ls"}"#,
        ],
    );
    assert_eq!(
        (code, r["hooks"][0]["outcome"].as_str()),
        (0, Some("warn")),
        "{r}"
    );
    assert!(
        r["hooks"][0]["message"]
            .as_str()
            .unwrap()
            .contains("unsupported permissionDecision:allow")
    );

    assert!(p.cli(&["import", "--write"], &[]).status.success());
    let payload = json!({"session_id": "s", "transcript_path": null, "cwd": p.path(), "hook_event_name": "PreToolUse",
        "permission_mode": "default", "model": "gpt-5", "turn_id": "t1", "tool_name": "Bash", "tool_input": {"command": "curl evil"}});
    let (_, a, err) = adapter(&p, "codex", &payload);
    assert_eq!(
        a["hookSpecificOutput"]["permissionDecision"], "deny",
        "{a} {err}"
    );
    assert_eq!(
        a["hookSpecificOutput"]["permissionDecisionReason"],
        "network calls need review"
    );
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
fn lings_block_node_modules_example_blocks() {
    crate::common::needs::python_and_node();
    let p = Project::new(json!({}));
    make_executable(&p.write(
        ".ling/hooks/block-node-modules.sh",
        r#"#!/usr/bin/env bash
input=$(cat)
file=$(printf '%s' "$input" | python3 -c 'import json,sys; print(json.load(sys.stdin)["toolCall"]["params"].get("file_path", ""))')
if [[ "$file" == *node_modules* ]]; then
  echo '{"blocked": true, "blockReason": "Cannot write to node_modules"}'
fi
"#,
    ));
    p.write(
        ".ling/hooks.json",
        &json!([{"event": "PreToolUse", "matcher": "write_file|edit_file",
            "handler": {"type": "command", "command": ".ling/hooks/block-node-modules.sh", "timeout": 5000}}]).to_string(),
    );
    let (code, r) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "write_file",
            "--args",
            r#"{"path":"node_modules/a.js","content":""}"#,
        ],
    );
    assert_eq!(
        (code, r["reason"].as_str()),
        (2, Some("Cannot write to node_modules")),
        "{r}"
    );
    assert_eq!(r["hooks"][0]["dialect"], "ling");
    let (code, r): (i32, Value) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "write_file",
            "--args",
            r#"{"path":"src/a.js","content":""}"#,
        ],
    );
    assert_eq!(code, 0, "{r}");
}
