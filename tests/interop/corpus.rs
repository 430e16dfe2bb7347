//! A corpus of hooks in the style of real Claude Code hooks: bash reading a one-line payload
//! with `read -r`, python3 and node scripts, exit-2 blockers, JSON answers.

use crate::common::Project;
use serde_json::{Value, json};
use std::process::Output;

/// (file, contents): every script is made executable.
pub const SCRIPTS: &[(&str, &str)] = &[
    (
        ".claude/hooks/guard-bash.sh",
        r#"#!/usr/bin/env bash
read -r payload
cmd=$(printf '%s' "$payload" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tool_input"].get("command",""))')
if [[ "$cmd" == *"rm -rf"* ]]; then
  echo "Dangerous command blocked: $cmd" >&2
  exit 2
fi
exit 0
"#,
    ),
    (
        ".claude/hooks/protect-env.py",
        r#"#!/usr/bin/env python3
import json, sys
data = json.load(sys.stdin)
path = data.get("tool_input", {}).get("file_path", "")
if path.endswith(".env"):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "Refusing to touch " + path}}))
elif path.endswith(".lock"):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "allow", "permissionDecisionReason": "lock files are fine"}}))
sys.exit(0)
"#,
    ),
    (
        ".claude/hooks/ask-push.js",
        r#"#!/usr/bin/env node
let raw = '';
process.stdin.on('data', c => raw += c);
process.stdin.on('end', () => {
  const input = JSON.parse(raw);
  const cmd = (input.tool_input || {}).command || '';
  if (cmd.startsWith('git push')) {
    console.log(JSON.stringify({hookSpecificOutput: {hookEventName: 'PreToolUse',
      permissionDecision: 'ask', permissionDecisionReason: 'pushing needs a human'}}));
  } else if (cmd.startsWith('npm publish') && !cmd.includes('--dry-run')) {
    console.log(JSON.stringify({hookSpecificOutput: {hookEventName: 'PreToolUse',
      permissionDecision: 'ask', updatedInput: {command: cmd + ' --dry-run'}}}));
  }
});
"#,
    ),
    (
        ".claude/hooks/no-node-modules",
        // No shebang: the shell runs it, as Claude Code's would.
        r#"read -r payload
case "$payload" in
  *node_modules*) echo "Cannot write to node_modules" >&2; exit 2 ;;
esac
exit 0
"#,
    ),
    (
        ".claude/hooks/session.sh",
        r#"#!/usr/bin/env bash
read -r payload
echo "{\"hookSpecificOutput\": {\"hookEventName\": \"SessionStart\", \"additionalContext\": \"fresh session: read TODO.md\"}}"
"#,
    ),
    (
        ".claude/hooks/resume.sh",
        "#!/bin/sh\necho 'resumed: reload the plan'\n",
    ),
    (
        ".claude/hooks/prompt.py",
        r#"#!/usr/bin/env python3
import json, sys
data = json.load(sys.stdin)
prompt = data["prompt"]
if "password" in prompt:
    print("Prompts must not contain secrets", file=sys.stderr)
    sys.exit(2)
with open(data["transcript_path"]) as f:
    lines = sum(1 for _ in f)
print(f"branch main; transcript has {lines} lines")
"#,
    ),
    (
        ".claude/hooks/stop.sh",
        r#"#!/usr/bin/env bash
read -r payload
active=$(printf '%s' "$payload" | python3 -c 'import json,sys; print(json.load(sys.stdin)["stop_hook_active"])')
if [ "$active" = "False" ]; then
  echo '{"decision": "block", "reason": "Run the test suite before stopping"}'
fi
"#,
    ),
    (
        ".claude/hooks/halt.sh",
        r#"#!/usr/bin/env bash
read -r payload
case "$payload" in
  *'"is_error":true'*|*FATAL*) echo '{"continue": false, "stopReason": "a fatal tool error: stopping for a human"}' ;;
esac
"#,
    ),
];

/// Claude Code settings using the corpus.
pub fn claude_settings() -> Value {
    let cmd = |s: &str| json!({"type": "command", "command": s});
    json!({
        "permissions": {"allow": ["Bash(ls:*)"]},
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [
                    {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard-bash.sh", "timeout": 30},
                    cmd("node .claude/hooks/ask-push.js")]},
                {"matcher": "Write|Edit", "hooks": [
                    cmd("python3 .claude/hooks/protect-env.py"),
                    cmd(".claude/hooks/no-node-modules")]}
            ],
            "SessionStart": [
                {"matcher": "startup", "hooks": [cmd(".claude/hooks/session.sh")]},
                {"matcher": "resume", "hooks": [cmd(".claude/hooks/resume.sh")]}
            ],
            "UserPromptSubmit": [{"hooks": [cmd("$CLAUDE_PROJECT_DIR/.claude/hooks/prompt.py")]}],
            "Stop": [{"hooks": [cmd(".claude/hooks/stop.sh")]}],
            "PostToolUse": [{"matcher": "*", "hooks": [cmd(".claude/hooks/halt.sh")]}]
        }
    })
}

/// A project holding the corpus and `settings` at `.claude/settings.json`; no native hooks.
pub fn project_with(settings_file: &str, settings: &Value) -> Project {
    let p = Project::new(json!({}));
    for (file, text) in SCRIPTS {
        let path = p.write(file, text);
        make_executable(&path);
    }
    p.write(
        ".claude/transcript.jsonl",
        "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n",
    );
    p.write(settings_file, &settings.to_string());
    p
}

pub fn make_executable(path: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// `hookhost run ... --json` on the project: (exit code, the report).
pub fn run_json(p: &Project, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = p.cli(&all, &[]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), report)
}

/// `hookhost hook --for AGENT` with `payload` on stdin: (exit code, stdout as JSON or
/// null when empty, stderr).
pub fn adapter(p: &Project, agent: &str, payload: &Value) -> (i32, Value, String) {
    use std::io::Write;
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_hookhost"));
    // These tests are about each agent's protocol, not trust: the project's hooks run.
    c.args(["hook", "--for", agent, "--trust", "all", "--project"])
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .env_remove("HOOKHOST_TRUST")
        .env_remove("HOOKHOST_ADAPTER")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = c.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    let out: Output = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let answer = if text.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
    };
    (
        out.status.code().unwrap_or(-1),
        answer,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Claude Code's payload for an event.
pub fn claude_payload(p: &Project, event: &str, extra: Value) -> Value {
    let mut v = json!({
        "session_id": "abc123",
        "transcript_path": p.path().join(".claude/transcript.jsonl"),
        "cwd": p.path(),
        "permission_mode": "default",
        "hook_event_name": event,
    });
    if let (Some(o), Value::Object(e)) = (v.as_object_mut(), extra) {
        o.extend(e);
    }
    v
}
