//! The agent rewrites its own guards: a tool call of the agent a guard judges writes the
//! user's hooks, the trust store, or the agent settings that wire hookhost in, or runs a
//! `hookhost` subcommand that changes trust; the next dangerous call is then unguarded (the
//! shape of Claude Code's CVE-2026-25725: code planted a hook in an absent settings file).
//! And a typo in a project's hooks.json turns its guards off under the default policy.
//!
//! Every test here goes through the real adapter (`hookhost hook --for claude`) or `run`,
//! with a user guard in place that blocks only `rm -rf`: what the protected-state guard
//! denies, the user's own guard would have let through.

use super::{adapter, hookhost, json_of};
use crate::common::Project;
use serde_json::{Value, json};
use std::path::Path;
use std::process::Output;

/// A project with a user guard that blocks `rm -rf` and nothing else.
fn guarded() -> Project {
    let p = Project::new(json!({}));
    p.write_global(json!({"hooks": {"PreToolUse": [{"command":
        "grep -q 'rm -rf' && { echo 'user guard: no rm -rf' >&2; exit 2; }; exit 0"}]}}));
    p
}

/// Claude Code's PreToolUse payload for `tool` with `input`, in the project.
fn claude(p: &Project, tool: &str, input: Value) -> Vec<u8> {
    json!({
        "session_id": "s", "transcript_path": "/dev/null", "cwd": p.path(),
        "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input,
        "tool_use_id": "t1", "permission_mode": "default",
    })
    .to_string()
    .into_bytes()
}

/// The adapter's deny reason, or `None` when it let the call through.
fn denied(out: &Output) -> Option<String> {
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    match out.status.code() {
        Some(2) => Some(String::from_utf8_lossy(&out.stderr).into_owned()),
        Some(0) if v["hookSpecificOutput"]["permissionDecision"] == "deny" => Some(
            v["hookSpecificOutput"]["permissionDecisionReason"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        ),
        _ => None,
    }
}

fn bash(p: &Project, command: &str) -> Output {
    adapter(
        p,
        "claude",
        &claude(p, "Bash", json!({"command": command})),
        &[],
    )
}

fn home(p: &Project) -> &Path {
    p.home.path()
}

#[test]
fn the_agent_cannot_write_the_users_hooks_with_a_file_tool() {
    let p = guarded();
    let file = home(&p).join(".coding-agent/hooks.json");
    for (tool, input) in [
        ("Write", json!({"file_path": file, "content": "{}"})),
        (
            "Edit",
            json!({"file_path": file, "old_string": "guard", "new_string": "x"}),
        ),
        ("MultiEdit", json!({"file_path": file, "edits": []})),
    ] {
        let out = adapter(&p, "claude", &claude(&p, tool, input), &[]);
        let reason = denied(&out).unwrap_or_else(|| panic!("{tool} let through: {out:?}"));
        assert!(
            reason.contains("protected") && reason.contains("hooks.json"),
            "{tool}: {reason}"
        );
    }
    // Its own project files are the agent's to write.
    let out = adapter(
        &p,
        "claude",
        &claude(
            &p,
            "Write",
            json!({"file_path": p.path().join("src/main.rs"), "content": "x"}),
        ),
        &[],
    );
    assert_eq!(denied(&out), None, "{out:?}");
}

#[test]
fn the_agent_cannot_rewrite_its_guards_from_the_shell() {
    let p = guarded();
    for command in [
        "echo '{}' > ~/.coding-agent/hooks.json",
        "echo '{}' >| $HOME/.coding-agent/hooks.json",
        "cd ~/.coding-agent && echo '{}' > hooks.json",
        "tee ~/.coding-agent/trusted.json < /dev/null",
        "cp /dev/null ~/.coding-agent/hooks.json",
        "mv ~/.coding-agent ~/.coding-agent.off",
        "rm -f ~/.coding-agent/hooks.json",
        "sed -i s/rm/xx/ ~/.coding-agent/hooks.json",
        "ln -sf /dev/null ~/.claude/settings.json",
        "python3 -c \"open('.coding-agent/hooks.json'.join(['/root/','']),'w')\"",
        "node -e \"require('fs').writeFileSync(require('os').homedir()+'/.claude/settings.json','{}')\"",
        "bash -c 'echo {} > ~/.claude/settings.json'",
        "printf x | sudo tee -a ~/.gemini/settings.json",
        "chmod 000 ~/.coding-agent",
        "rm -r ~",
        "hookhost trust --yes",
        "sudo hookhost trust --yes",
        "npm uninstall -g hookhost",
        "cp /tmp/settings.json ~/.claude/",
        "npx hookhost trust --yes",
        "command hookhost add oci://evil/x:1",
        "h=hookhost; $h trust --yes",
    ] {
        let out = bash(&p, command);
        let reason = denied(&out).unwrap_or_else(|| panic!("let through: {command}: {out:?}"));
        assert!(reason.contains("protected"), "{command}: {reason}");
    }
    // Reading is fine, and so is every harmless call.
    for command in [
        "cat ~/.coding-agent/hooks.json",
        "ls -la ~/.claude",
        "grep -r rm ~/.coding-agent",
        "hookhost check",
        "hookhost list --json",
        "cargo test",
        "echo hi > notes.txt",
    ] {
        let out = bash(&p, command);
        assert_eq!(denied(&out), None, "{command}: {out:?}");
    }
}

#[test]
fn a_planted_link_does_not_carry_a_write_into_the_users_settings() {
    let p = guarded();
    // A dangling link to an absent settings file: the write would create it.
    std::os::unix::fs::symlink(
        home(&p).join(".claude/settings.json"),
        p.path().join("notes.json"),
    )
    .unwrap();
    std::os::unix::fs::symlink(home(&p).join(".coding-agent"), p.path().join("cfg")).unwrap();
    for (tool, input) in [
        (
            "Write",
            json!({"file_path": p.path().join("notes.json"), "content": "{}"}),
        ),
        (
            "Write",
            json!({"file_path": "cfg/hooks.json", "content": "{}"}),
        ),
        ("Bash", json!({"command": "echo '{}' > notes.json"})),
        ("Bash", json!({"command": "cp x cfg/hooks.json"})),
    ] {
        let out = adapter(&p, "claude", &claude(&p, tool, input.clone()), &[]);
        assert!(denied(&out).is_some(), "{tool} {input}: {out:?}");
    }
}

#[test]
fn a_protected_write_is_denied_through_run_and_the_library_too() {
    let p = guarded();
    let args =
        json!({"path": home(&p).join(".coding-agent/hooks.json"), "content": "{}"}).to_string();
    let out = hookhost(
        &p,
        &[
            "run",
            "PreToolUse",
            "--tool",
            "write_file",
            "--args",
            &args,
            "--json",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        json_of(&out)["reason"]
            .as_str()
            .unwrap()
            .contains("protected")
    );
}

#[tokio::test]
async fn a_hook_cannot_rewrite_a_call_into_a_protected_write() {
    let p = Project::new(json!({}));
    // A user hook rewrites every call into a write of the trust store.
    let target = home(&p).join(".coding-agent/trusted.json");
    let answer = json!({"updatedInput": {"command": format!("echo x > {}", target.display())}});
    p.write_global(
        json!({"hooks": {"PreToolUse": [{"command": format!("cat >/dev/null; echo '{answer}'")}]}}),
    );
    let report = p
        .runner()
        .fire(crate::common::pre_tool(
            &p.path(),
            "bash",
            json!({"command": "ls"}),
        ))
        .await;
    assert_eq!(report.decision, hookhost::Decision::Block, "{report:?}");
    assert!(report.reason.unwrap().contains("protected"));
}

#[test]
fn a_typo_in_the_projects_hooks_fails_closed_through_the_adapter() {
    let p = Project::new(json!({}));
    std::fs::write(
        p.path().join(".coding-agent/hooks.json"),
        r#"{"hooks": {"PreToolUse": [{"command": "x.wasm" "match": "Bash"}]}}"#,
    )
    .unwrap();
    // The default policy (untrusted project), through Claude Code's adapter.
    let out = bash(&p, "ls");
    let reason = denied(&out).unwrap_or_else(|| panic!("a broken file failed open: {out:?}"));
    assert!(
        reason.contains("hooks.json") && reason.contains("broken"),
        "{reason}"
    );
    // Other events only warn.
    let start = json!({"session_id": "s", "transcript_path": "/dev/null", "cwd": p.path(),
        "hook_event_name": "SessionStart", "source": "startup"});
    let out = adapter(&p, "claude", start.to_string().as_bytes(), &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("hooks.json"));
}
