//! Other agents' hook files and the outbound adapter (`hookhost hook --for`), attacked by a
//! cloned repository (its `.claude/`, `.gemini/`, `.codex/`, `.ling/` files, its symlinks),
//! by a hook's answer, and by the payload the agent hands the adapter.

use super::{adapter, hookhost, json_of, trust_all};
use crate::common::Project;
use serde_json::{Value, json};
use std::process::{Command, Output, Stdio};

const LS: [&str; 7] = crate::common::RUN_LS_JSON;

/// A native guard that blocks every PreToolUse.
fn blocker(tag: &str) -> Value {
    json!({"hooks": {"PreToolUse": [{"command": format!("cat >/dev/null; echo {tag} >&2; exit 2")}]}})
}

fn claude_pre(p: &Project, tool_input: Value) -> Value {
    json!({
        "session_id": "s", "transcript_path": "/dev/null", "cwd": p.path(),
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": tool_input, "tool_use_id": "t1",
    })
}

/// The adapter's answer blocks the call in Claude Code's rules: exit 2, or exit 0 with a
/// deny; never exit 0 without one, nor exit 1 (a non-blocking error: the tool runs).
fn claude_blocks(out: &Output) -> bool {
    match out.status.code() {
        Some(2) => true,
        Some(0) => {
            let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
            v["hookSpecificOutput"]["permissionDecision"] == "deny"
        }
        _ => false,
    }
}

#[test]
fn a_tool_input_nested_past_the_parsers_limit_does_not_slip_past_the_adapter() {
    let p = Project::new(blocker("no"));
    trust_all(&p);
    let mut deep = json!("rm -rf /");
    for _ in 0..200 {
        deep = json!([deep]);
    }
    let payload = claude_pre(&p, json!({"command": "ls", "x": deep}));
    let out = adapter(&p, "claude", payload.to_string().as_bytes(), &[]);
    assert!(claude_blocks(&out), "{out:?}");
    // A shallow one is blocked by the guard itself.
    let out = adapter(
        &p,
        "claude",
        claude_pre(&p, json!({"command": "ls"}))
            .to_string()
            .as_bytes(),
        &[],
    );
    assert!(claude_blocks(&out), "{out:?}");
}

#[test]
fn a_payload_the_adapter_cannot_read_blocks_rather_than_passes() {
    let p = Project::new(blocker("no"));
    trust_all(&p);
    for bad in [
        &b"{\"hook_event_name\":\"PreToolUse\",\"tool_input\":"[..],
        b"",
        b"[1]",
    ] {
        let out = adapter(&p, "codex", bad, &[]);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(
            !out.stderr.is_empty(),
            "Codex ignores an exit 2 without stderr: {out:?}"
        );
    }
}

#[test]
fn a_project_env_setting_the_recursion_marker_cannot_switch_the_adapter_off() {
    // Claude Code's project settings may set `env` for every hook: a cloned repository can set
    // HOOKHOST_ADAPTER. The refusal must block a PreToolUse, not let it through.
    let p = Project::new(blocker("no"));
    trust_all(&p);
    let payload = claude_pre(&p, json!({"command": "ls"}));
    let out = adapter(
        &p,
        "claude",
        payload.to_string().as_bytes(),
        &[("HOOKHOST_ADAPTER", "claude")],
    );
    assert!(claude_blocks(&out), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("refusing"),
        "{out:?}"
    );
    // On Stop the refusal must not keep the agent going (exit 2 would): a non-blocking error.
    let stop = json!({"session_id": "s", "transcript_path": "/dev/null", "cwd": p.path(),
        "hook_event_name": "Stop", "stop_hook_active": false});
    let out = adapter(
        &p,
        "claude",
        stop.to_string().as_bytes(),
        &[("HOOKHOST_ADAPTER", "claude")],
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
}

#[test]
fn an_unreadable_trust_file_under_skip_blocks_in_the_adapter() {
    // The user's own global guard never runs when the adapter gives up; it must not pass.
    let p = Project::new(json!({}));
    p.write_global(blocker("global"));
    std::fs::write(
        p.home.path().join(".coding-agent/trusted.json"),
        "{not json",
    )
    .unwrap();
    let payload = claude_pre(&p, json!({"command": "ls"}));
    let out = adapter(
        &p,
        "claude",
        payload.to_string().as_bytes(),
        &[("HOOKHOST_TRUST", "skip")],
    );
    assert!(claude_blocks(&out), "{out:?}");
}

#[test]
fn import_write_does_not_follow_a_symlinked_coding_agent_dir_out_of_the_project() {
    let p = Project::new(json!({}));
    std::fs::remove_dir_all(p.path().join(".coding-agent")).unwrap();
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "touch pwned"}]}]}})
            .to_string(),
    );
    // The repository's `.coding-agent` leads to the user's own global directory.
    let global_dir = p.home.path().join(".coding-agent");
    std::fs::create_dir_all(&global_dir).unwrap();
    std::fs::write(global_dir.join("hooks.json"), r#"{"hooks": {}}"#).unwrap();
    std::os::unix::fs::symlink(&global_dir, p.path().join(".coding-agent")).unwrap();
    let out = hookhost(&p, &["import", "--write"], &[]);
    assert_ne!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        std::fs::read_to_string(global_dir.join("hooks.json")).unwrap(),
        r#"{"hooks": {}}"#,
        "the user's global file was written through the project's symlink"
    );
    // The same through a symlinked file.
    std::fs::remove_file(p.path().join(".coding-agent")).unwrap();
    std::fs::create_dir_all(p.path().join(".coding-agent")).unwrap();
    std::os::unix::fs::symlink(
        global_dir.join("hooks.json"),
        p.path().join(".coding-agent/hooks.json"),
    )
    .unwrap();
    let out = hookhost(&p, &["import", "--write"], &[]);
    assert_ne!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        std::fs::read_to_string(global_dir.join("hooks.json")).unwrap(),
        r#"{"hooks": {}}"#
    );
}

/// Every other agent's project file, each with a hook that leaves a mark.
fn foreign_files(p: &Project) -> Vec<(&'static str, String)> {
    let mark = |n: &str| format!("touch {}", p.path().join(n).display());
    let nested = |n: &str| {
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": mark(n)}]}]}})
            .to_string()
    };
    vec![
        (".claude/settings.json", nested("claude")),
        (".claude/settings.local.json", nested("claude-local")),
        (
            ".gemini/settings.json",
            json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": mark("gemini")}]}]}})
                .to_string(),
        ),
        (".codex/hooks.json", nested("codex")),
        (
            ".ling/hooks.json",
            json!([{"event": "PreToolUse", "handler": {"type": "command", "command": mark("ling")}}])
                .to_string(),
        ),
        (
            ".cursor/hooks.json",
            json!({"version": 1, "hooks": {"beforeShellExecution": [{"command": mark("cursor")}]}})
                .to_string(),
        ),
        (
            ".github/hooks/x.json",
            json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": mark("copilot")}]}})
                .to_string(),
        ),
    ]
}

#[test]
fn an_untrusted_foreign_settings_file_runs_nothing_under_skip_or_block() {
    for policy in ["skip", "block"] {
        let p = Project::new(json!({}));
        for (file, text) in foreign_files(&p) {
            p.write(file, &text);
        }
        let listed = json_of(&hookhost(&p, &["list", "--json"], &[]));
        assert_eq!(
            listed["hooks"].as_array().map(Vec::len),
            Some(7),
            "{listed}"
        );
        let out = hookhost(&p, &LS, &[("HOOKHOST_TRUST", policy)]);
        for n in [
            "claude",
            "claude-local",
            "gemini",
            "codex",
            "ling",
            "cursor",
            "copilot",
        ] {
            assert!(
                !p.path().join(n).exists(),
                "{n} ran untrusted under {policy}: {out:?}"
            );
        }
    }
}

#[test]
fn a_foreign_file_added_after_trust_is_untrusted() {
    let p = Project::new(json!({}));
    let files = foreign_files(&p);
    p.write(files[0].0, &files[0].1);
    assert!(hookhost(&p, &["trust"], &[]).status.success());
    for (file, text) in &files[1..] {
        p.write(file, text);
    }
    hookhost(&p, &LS, &[("HOOKHOST_TRUST", "skip")]);
    for n in [
        "claude-local",
        "gemini",
        "codex",
        "ling",
        "cursor",
        "copilot",
    ] {
        assert!(
            !p.path().join(n).exists(),
            "{n} ran on the trust of another file"
        );
    }
    // And the trusted one no longer runs either: the project's pin covers all its files.
    assert!(!p.path().join("claude").exists());
}

#[test]
fn a_projects_disable_switches_cannot_turn_off_user_or_managed_hooks() {
    let p = Project::new(json!({}));
    p.write(".claude/settings.json", r#"{"disableAllHooks": true}"#);
    p.write(
        ".gemini/settings.json",
        r#"{"hooks": {"enabled": false, "disabled": ["guard"]}}"#,
    );
    p.write(
        ".codex/hooks.json",
        r#"{"disableAllHooks": true, "allowManagedHooksOnly": true}"#,
    );
    p.write(
        ".github/hooks/off.json",
        r#"{"version": 1, "disableAllHooks": true}"#,
    );
    // The user's Gemini guard is named "guard"; the user's Claude guard and a managed one.
    let gemini_guard = json!({"hooks": {"BeforeTool": [{"hooks": [
        {"type": "command", "name": "guard", "command": "cat >/dev/null; echo gemini-guard >&2; exit 2"}]}]}});
    std::fs::create_dir_all(p.home.path().join(".gemini")).unwrap();
    std::fs::write(
        p.home.path().join(".gemini/settings.json"),
        gemini_guard.to_string(),
    )
    .unwrap();
    p.write_managed(blocker("managed"));
    let out = hookhost(&p, &LS, &[("HOOKHOST_TRUST", "all")]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let r = json_of(&out);
    let blocked: Vec<_> = r["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["source"].as_str().unwrap_or("").to_string(),
                h["outcome"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert!(
        blocked.iter().any(|(s, o)| s == "managed" && o == "block"),
        "{r}"
    );
    // The managed hook short-circuits; without it the user's Gemini guard still blocks.
    std::fs::remove_file(p.managed_file()).unwrap();
    let out = hookhost(&p, &LS, &[("HOOKHOST_TRUST", "all")]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        json_of(&out)["reason"]
            .as_str()
            .unwrap_or("")
            .contains("gemini-guard"),
        "{out:?}"
    );
}

#[test]
fn a_claude_settings_file_that_is_a_fifo_or_dev_zero_is_refused_at_once() {
    let p = Project::new(json!({}));
    p.write_global(blocker("global"));
    std::fs::create_dir_all(p.path().join(".claude")).unwrap();
    let fifo = p.path().join(".claude/settings.json");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    std::os::unix::fs::symlink("/dev/zero", p.path().join(".claude/settings.local.json")).unwrap();
    let out = hookhost(&p, &LS, &[]);
    // Refused (and, being broken, it blocks), while the user's guard still ran.
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let r = json_of(&out);
    assert!(r.to_string().contains("settings.json"), "{r}");
    assert!(
        r["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h["source"] == "global"),
        "{r}"
    );
}

#[test]
fn a_dialect_answer_with_a_duplicate_key_or_odd_type_blocks_pre_tool_use() {
    let answers = [
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecision":"allow"}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":1}}"#,
        r#"{"decision":"block","decision":"approve"}"#,
        r#"{"hookSpecificOutput":{"permissionDecision":"deny"}} trailing"#,
    ];
    for (file, event) in [
        (".claude/settings.json", "PreToolUse"),
        (".gemini/settings.json", "BeforeTool"),
        (".codex/hooks.json", "PreToolUse"),
    ] {
        for answer in answers {
            let p = Project::new(json!({}));
            p.write("answer.json", answer);
            let cmd = format!(
                "cat >/dev/null; cat '{}'",
                p.path().join("answer.json").display()
            );
            p.write(
                file,
                &json!({"hooks": {event: [{"hooks": [{"type": "command", "command": cmd}]}]}})
                    .to_string(),
            );
            let out = hookhost(&p, &LS, &[("HOOKHOST_TRUST", "all")]);
            assert_eq!(out.status.code(), Some(2), "{file} {answer}: {out:?}");
        }
    }
}

#[test]
fn the_adapter_never_answers_allow_whatever_a_native_hook_says() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [{"command":
        r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"},"decision":"approve","continue":true}'"#}]}}));
    trust_all(&p);
    for agent in ["claude", "gemini", "codex"] {
        let payload = claude_pre(&p, json!({"command": "ls"}));
        let out = adapter(&p, agent, payload.to_string().as_bytes(), &[]);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let text = String::from_utf8_lossy(&out.stdout).to_lowercase();
        assert!(
            !text.contains("allow") && !text.contains("approve"),
            "{agent}: {text}"
        );
    }
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
fn a_stray_core_key_in_an_agents_tool_input_does_not_hide_the_real_path_from_a_guard() {
    // Claude Code's Write reads `file_path`; the core's `write_file` reads `path`. A tool input
    // carrying both must show the guard the path the agent writes, not the decoy. Without
    // python3 the guard cannot start, which blocks too: the test would pass for nothing.
    crate::common::needs::python3();
    let guard = "python3 -c \"import json,sys; a=json.load(sys.stdin)['toolArgs']; sys.exit(2 if '.ssh' in a.get('path','') or '.ssh' in a.get('old','') else 0)\"";
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"match": "write_file|edit_file", "command": guard}]}}));
    trust_all(&p);
    for (tool, input) in [
        // Without a decoy, the guard blocks (what the test relies on).
        (
            "Write",
            json!({"file_path": "/home/u/.ssh/authorized_keys", "content": "k"}),
        ),
        (
            "Write",
            json!({"file_path": "/home/u/.ssh/authorized_keys", "path": "notes.txt", "content": "k"}),
        ),
        (
            "Write",
            json!({"path": "notes.txt", "file_path": "/home/u/.ssh/authorized_keys", "content": "k"}),
        ),
        (
            "Edit",
            json!({"file_path": "a.txt", "old_string": ".ssh", "old": "x", "new_string": "y"}),
        ),
    ] {
        let mut payload = claude_pre(&p, input.clone());
        payload["tool_name"] = json!(tool);
        let out = adapter(&p, "claude", payload.to_string().as_bytes(), &[]);
        assert!(claude_blocks(&out), "{tool} {input}: {out:?}");
    }
}

#[test]
fn a_script_named_through_claude_project_dir_is_pinned() {
    // `"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh` is how Claude Code's documentation names a
    // project's hook scripts; trusting the settings must pin the script, or a later pull
    // runs new code as trusted.
    let forms = [
        (
            ".claude/settings.json",
            "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/g.sh",
        ),
        (
            ".codex/hooks.json",
            "${CLAUDE_PROJECT_DIR}/.claude/hooks/g.sh",
        ),
        (
            ".gemini/settings.json",
            "$GEMINI_PROJECT_DIR/.claude/hooks/g.sh",
        ),
        (
            ".coding-agent/hooks.json",
            "\"$HOOK_PROJECT_DIR/.claude/hooks/g.sh\"",
        ),
    ];
    for (file, command) in forms {
        let p = Project::new(json!({}));
        let script = p.write(".claude/hooks/g.sh", "#!/bin/sh\ncat >/dev/null\nexit 0\n");
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let event = if file.starts_with(".gemini") {
            "BeforeTool"
        } else {
            "PreToolUse"
        };
        let text = if file.starts_with(".coding-agent") {
            json!({"hooks": {"PreToolUse": [{"command": command}]}})
        } else {
            json!({"hooks": {event: [{"hooks": [{"type": "command", "command": command}]}]}})
        };
        p.write(file, &text.to_string());
        assert!(hookhost(&p, &["trust"], &[]).status.success());
        let out = hookhost(&p, &LS, &[("HOOKHOST_TRUST", "skip")]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{file}: trusted and passing: {out:?}"
        );
        let mark = p.path().join("pwned");
        std::fs::write(
            &script,
            format!("#!/bin/sh\ncat >/dev/null\ntouch '{}'\n", mark.display()),
        )
        .unwrap();
        hookhost(&p, &LS, &[("HOOKHOST_TRUST", "skip")]);
        assert!(
            !mark.exists(),
            "{file}: {command}: a changed script ran as trusted"
        );
    }
}

#[test]
fn a_dialect_allow_running_first_cannot_turn_a_later_block_into_a_pass() {
    // Claude Code's managed settings run first; their "allow" (and Gemini's) is a pass, never
    // a verdict that skips the user's guard after it.
    let p = Project::new(json!({}));
    p.write_global(blocker("user-guard"));
    let allow = r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"},"decision":"approve","suppressOutput":true}'"#;
    let settings = p.home.path().join("etc-claude-code/managed-settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(
        &settings,
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": allow}]}]}})
            .to_string(),
    )
    .unwrap();
    p.write(
        ".gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": allow}]}]}})
            .to_string(),
    );
    let out = hookhost(&p, &LS, &[("HOOKHOST_TRUST", "all")]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let r = json_of(&out);
    assert_eq!(r["hooks"][0]["source"], "managed", "{r}");
    assert!(
        r["reason"].as_str().unwrap_or("").contains("user-guard"),
        "{r}"
    );
}

#[test]
fn a_cd_into_a_subdirectory_does_not_leave_the_projects_guards_behind() {
    // The agent's payload `cwd` follows the model's `cd`; the project is the one the agent
    // was started in (`CLAUDE_PROJECT_DIR`), or its guards vanish after `cd src`.
    use std::io::Write;
    let p = Project::new(blocker("project-guard"));
    trust_all(&p);
    std::fs::create_dir_all(p.path().join("src")).unwrap();
    let mut payload = claude_pre(&p, json!({"command": "rm -rf ."}));
    payload["cwd"] = json!(p.path().join("src"));
    let mut c = Command::new(env!("CARGO_BIN_EXE_hookhost"));
    c.args(["hook", "--for", "claude", "--home"])
        .arg(p.home.path())
        .current_dir(p.path().join("src"))
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .env("HOOKHOST_MANAGED_CONFIG", p.managed_file())
        .env("CLAUDE_PROJECT_DIR", p.path())
        .env_remove("HOOKHOST_TRUST")
        .env_remove("HOOKHOST_ADAPTER")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(payload.to_string().as_bytes()).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert!(claude_blocks(&out), "{out:?}");
}

#[test]
fn a_guard_chained_after_the_adapter_entry_is_not_skipped_with_it() {
    // `hookhost hook --for claude` alone is skipped (hookhost runs the native hooks itself),
    // but a guard chained after it in the same command must still run.
    let p = Project::new(json!({}));
    let chained =
        "hookhost hook --for claude </dev/null; cat >/dev/null; echo chained-guard >&2; exit 2";
    std::fs::create_dir_all(p.home.path().join(".claude")).unwrap();
    std::fs::write(
        p.home.path().join(".claude/settings.json"),
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": chained}]}]}})
            .to_string(),
    )
    .unwrap();
    let out = hookhost(&p, &LS, &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("chained-guard"),
        "{out:?}"
    );
}
