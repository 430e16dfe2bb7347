//! Issue 38's last check: a Claude Code settings file written from Claude Code's hooks
//! reference (`tests/fixtures/claude-reference/`, whose README names the reference section
//! each hook follows) runs under hookhost with the outcome Claude Code documents, hook by hook.
//!
//! The file is a trusted project's `.claude/settings.json` (`hookhost trust`, no
//! `HOOKHOST_TRUST` override). Each row feeds Claude Code's payload for one hook (the captured
//! shape of `tests/fixtures/agents/claude/EVENT.json`) to the real binary twice:
//! `hookhost run EVENT --payload -` (hookhost reading Claude Code's file: its report) and
//! `hookhost hook --for claude` after `hookhost import --write` (hookhost answering Claude
//! Code: the answer Claude Code reads on stdout). Where hookhost deliberately differs, the row
//! says so and names the row of docs/coming-from.md.

mod common;

use common::Project;
use serde_json::{Value, json};
use std::io::Write;
use std::process::{Output, Stdio};

const SETTINGS: &str = include_str!("fixtures/claude-reference/settings.json");

/// One documented behaviour: the hook, Claude Code's payload fields (`{root}` is the
/// project), the answer `hook --for claude` gives (`null`: nothing on stdout, Claude Code's
/// "no decision"), the parts of `run --json`'s report it must show (`exit` is run's exit code)
/// and a file the hook writes with a text it must hold.
struct Row {
    hook: &'static str,
    event: &'static str,
    fields: &'static str,
    answer: &'static str,
    run: &'static str,
    writes: Option<(&'static str, &'static str)>,
}

const ROWS: &[Row] = &[
    Row {
        hook: "PreToolUse[0] Bash guard: exit 2, stderr is the reason",
        event: "PreToolUse",
        fields: r#"{"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}}"#,
        answer: r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "Blocked by policy: rm -rf is not allowed here"}}"#,
        run: r#"{"exit": 2, "decision": "block", "reason": "Blocked by policy: rm -rf is not allowed here"}"#,
        writes: None,
    },
    Row {
        hook: "PreToolUse[0] Bash guard: exit 0 lets a harmless command run",
        event: "PreToolUse",
        fields: r#"{"tool_name": "Bash", "tool_input": {"command": "git status"}}"#,
        answer: "null",
        run: r#"{"exit": 0, "decision": "pass", "updatedArgs": null}"#,
        writes: None,
    },
    Row {
        hook: "PreToolUse[1] `if: Bash(git push *)`: started for a push, blocks by exit 2",
        event: "PreToolUse",
        fields: r#"{"tool_name": "Bash", "tool_input": {"command": "git push origin main"}}"#,
        answer: r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "Pushing is done by CI, not by the agent"}}"#,
        run: r#"{"exit": 2, "decision": "block", "reason": "Pushing is done by CI, not by the agent"}"#,
        writes: None,
    },
    // Claude Code applies the rewrite and, with `allow`, skips its permission prompt. hookhost
    // applies the rewrite but an allow is a pass (docs/coming-from.md, "`permissionDecision:
    // "allow"` is a pass: the permission checker still runs"): the answer carries no allow.
    Row {
        hook: "PreToolUse[2] `if: Bash(npm test)` rewrites the call (updatedInput)",
        event: "PreToolUse",
        fields: r#"{"tool_name": "Bash", "tool_input": {"command": "npm test"}}"#,
        answer: r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "npm test -- --ci"}}}"#,
        run: r#"{"exit": 0, "decision": "pass", "allow": false, "updatedArgs": {"command": "npm test -- --ci"}}"#,
        writes: None,
    },
    Row {
        hook: "PreToolUse[3] `Write|Edit`: JSON deny with permissionDecisionReason (Write)",
        event: "PreToolUse",
        fields: r#"{"tool_name": "Write", "tool_input": {"file_path": "{root}/.env", "content": "KEY=1"}}"#,
        answer: r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "Secrets live in .env: edit it yourself"}}"#,
        run: r#"{"exit": 2, "decision": "block", "reason": "Secrets live in .env: edit it yourself"}"#,
        writes: None,
    },
    Row {
        hook: "PreToolUse[3] `Write|Edit`: the other alternative (Edit) matches too",
        event: "PreToolUse",
        fields: r#"{"tool_name": "Edit", "tool_input": {"file_path": "{root}/.env", "old_string": "1", "new_string": "2"}}"#,
        answer: r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "Secrets live in .env: edit it yourself"}}"#,
        run: r#"{"exit": 2, "decision": "block", "reason": "Secrets live in .env: edit it yourself"}"#,
        writes: None,
    },
    Row {
        hook: "PreToolUse[3] `Write|Edit`: prints nothing for another file",
        event: "PreToolUse",
        fields: r#"{"tool_name": "Write", "tool_input": {"file_path": "{root}/README.md", "content": "hi"}}"#,
        answer: "null",
        run: r#"{"exit": 0, "decision": "pass"}"#,
        writes: None,
    },
    Row {
        hook: "PreToolUse[4] WebFetch: `ask` with its reason for the prompt",
        event: "PreToolUse",
        fields: r#"{"tool_name": "WebFetch", "tool_input": {"url": "https://example.com", "prompt": "summarise"}}"#,
        answer: r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "Fetching from the network needs your confirmation"}}"#,
        run: r#"{"exit": 0, "decision": "pass", "ask": true, "askReason": "Fetching from the network needs your confirmation"}"#,
        writes: None,
    },
    Row {
        hook: "PreToolUse[5] `mcp__.*`: an MCP delete is blocked by exit 2",
        event: "PreToolUse",
        fields: r#"{"tool_name": "mcp__github__delete_repo", "tool_input": {"repo": "acme/site"}}"#,
        answer: r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "Deleting through an MCP server needs a human"}}"#,
        run: r#"{"exit": 2, "decision": "block", "reason": "Deleting through an MCP server needs a human"}"#,
        writes: None,
    },
    Row {
        hook: "PreToolUse[5] `mcp__.*`: another MCP tool runs",
        event: "PreToolUse",
        fields: r#"{"tool_name": "mcp__github__list_issues", "tool_input": {"repo": "acme/site"}}"#,
        answer: "null",
        run: r#"{"exit": 0, "decision": "pass"}"#,
        writes: None,
    },
    Row {
        hook: "PreToolUse[6] exec form: `echo` with `args`, ${CLAUDE_PROJECT_DIR} filled in, $HOME kept",
        event: "PreToolUse",
        fields: r#"{"tool_name": "NotebookEdit", "tool_input": {"notebook_path": "{root}/a.ipynb", "new_source": "x"}}"#,
        answer: r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "notebooks in {root} are read-only; $HOME stays unexpanded"}}"#,
        run: r#"{"exit": 2, "decision": "block", "reason": "notebooks in {root} are read-only; $HOME stays unexpanded"}"#,
        writes: None,
    },
    Row {
        hook: "PreToolUse[7] `onFailure: block`: a hook that cannot start blocks the call",
        event: "PreToolUse",
        fields: r#"{"tool_name": "Glob", "tool_input": {"pattern": "**/*.rs"}}"#,
        answer: r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "hook PreToolUse[7] the shell could not run the command (exit 127): `./.claude/hooks/not-installed.sh` does not exist (relative to {root}): fix the path (onError: block)"}}"#,
        run: r#"{"exit": 2, "decision": "block"}"#,
        writes: None,
    },
    Row {
        hook: "PreToolUse[8] `timeout: 1`: a hook that times out is a non-blocking error",
        event: "PreToolUse",
        fields: r#"{"tool_name": "Grep", "tool_input": {"pattern": "TODO"}}"#,
        answer: "null",
        run: r#"{"exit": 0, "decision": "pass"}"#,
        writes: None,
    },
    Row {
        hook: "PreToolUse[9] \"$CLAUDE_PROJECT_DIR\" in a command: it writes at the project root",
        event: "PreToolUse",
        fields: r#"{"tool_name": "Read", "tool_input": {"file_path": "{root}/src/main.rs"}}"#,
        answer: "null",
        run: r#"{"exit": 0, "decision": "pass"}"#,
        writes: Some(("read-audit.json", r#""tool_name":"Read""#)),
    },
    Row {
        hook: "PostToolUse[0] `decision: block` with reason: the reason goes to Claude",
        event: "PostToolUse",
        fields: r#"{"tool_name": "Bash", "tool_input": {"command": "npm test"}, "tool_response": {"stdout": "2 passed, 1 FAILED", "stderr": "", "interrupted": false, "isImage": false}}"#,
        answer: r#"{"decision": "block", "reason": "The tests failed: fix them before going on"}"#,
        // In run's report the reason fed to the model is `feedback` (hookhost's word; the tool
        // already ran, so nothing is blocked and run exits 0).
        run: r#"{"exit": 0, "decision": "pass", "feedback": ["The tests failed: fix them before going on"], "stop": null}"#,
        writes: None,
    },
    Row {
        hook: "PostToolUse[1] `continue: false` with stopReason stops the agent",
        event: "PostToolUse",
        fields: r#"{"tool_name": "Bash", "tool_input": {"command": "make"}, "tool_response": {"stdout": "", "stderr": "write error: disk full", "interrupted": false, "isImage": false}}"#,
        answer: r#"{"continue": false, "stopReason": "The disk is full: stopping for a human"}"#,
        run: r#"{"stop": {"reason": "The disk is full: stopping for a human"}}"#,
        writes: None,
    },
    Row {
        hook: "PostToolUse[2] `mcp__.*`: the older updatedMCPToolOutput replaces the result",
        event: "PostToolUse",
        fields: r#"{"tool_name": "mcp__github__get_secret", "tool_input": {"name": "deploy"}, "tool_response": "token ghp_0123456789"}"#,
        answer: r#"{"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": "[token redacted]"}}"#,
        run: r#"{"exit": 0, "decision": "pass", "updatedToolOutput": "[token redacted]"}"#,
        writes: None,
    },
    Row {
        hook: "UserPromptSubmit[0] additionalContext for the model",
        event: "UserPromptSubmit",
        fields: r#"{"prompt": "fix the flaky test"}"#,
        answer: r#"{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "The release branch is frozen until Friday"}}"#,
        run: r#"{"exit": 0, "decision": "pass", "additionalContext": ["The release branch is frozen until Friday"]}"#,
        writes: None,
    },
    Row {
        hook: "UserPromptSubmit[1] `decision: block` refuses the prompt",
        event: "UserPromptSubmit",
        fields: r#"{"prompt": "my password is hunter2"}"#,
        answer: r#"{"decision": "block", "reason": "Prompts must not carry passwords", "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "The release branch is frozen until Friday"}}"#,
        run: r#"{"exit": 2, "decision": "block", "reason": "Prompts must not carry passwords"}"#,
        writes: None,
    },
    Row {
        hook: "SessionStart[0] `startup|resume`: additionalContext at startup",
        event: "SessionStart",
        fields: r#"{"source": "startup"}"#,
        answer: r#"{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "Open issues: 3; read TODO.md first"}}"#,
        run: r#"{"exit": 0, "additionalContext": ["Open issues: 3; read TODO.md first"]}"#,
        writes: None,
    },
    Row {
        hook: "SessionStart[0] `startup|resume`: not matched by `clear`",
        event: "SessionStart",
        fields: r#"{"source": "clear"}"#,
        answer: "null",
        run: r#"{"exit": 0, "additionalContext": [], "hooks": []}"#,
        writes: None,
    },
    Row {
        hook: "Stop[0] `decision: block` keeps Claude going with the reason",
        event: "Stop",
        fields: r#"{"stop_hook_active": false, "last_assistant_message": "Done."}"#,
        answer: r#"{"decision": "block", "reason": "Run the test suite before you stop"}"#,
        // A Stop's block is a `force` in run's report (the agent is made to go on; run exits 2
        // for a block or a force).
        run: r#"{"exit": 2, "decision": "force", "reason": "Run the test suite before you stop"}"#,
        writes: None,
    },
    Row {
        hook: "Stop[0] lets Claude stop once stop_hook_active is true",
        event: "Stop",
        fields: r#"{"stop_hook_active": true, "last_assistant_message": "Done."}"#,
        answer: "null",
        run: r#"{"exit": 0, "decision": "pass"}"#,
        writes: None,
    },
];

/// `s` with `{root}` replaced by the project's path, as JSON.
fn at(p: &Project, s: &str) -> Value {
    let root = p.path().display().to_string();
    serde_json::from_str(&s.replace("{root}", &root))
        .unwrap_or_else(|e| panic!("a row's JSON ({e}): {s}"))
}

/// Claude Code's payload for `row`: the captured one for its event, in `p`, with the row's
/// fields.
fn payload(p: &Project, row: &Row) -> Value {
    let captured = std::fs::read_to_string(format!(
        "{}/../../tests/fixtures/agents/claude/{}.json",
        env!("CARGO_MANIFEST_DIR"),
        row.event
    ))
    .unwrap();
    let mut v: Value = serde_json::from_str(&captured).unwrap();
    v["cwd"] = json!(p.path().display().to_string());
    v["hook_event_name"] = json!(row.event);
    if row.event.ends_with("ToolUse") {
        v["tool_use_id"] = json!("toolu_ref");
    }
    for (k, val) in at(p, row.fields).as_object().unwrap() {
        v[k] = val.clone();
    }
    v
}

/// The binary on `p` with `args`, `stdin` piped in, and the real trust rules (no
/// `HOOKHOST_TRUST` override: the project was trusted with `hookhost trust`) and `env`.
fn hookhost(p: &Project, args: &[&str], stdin: &Value, env: &[(&str, &str)]) -> Output {
    let mut c = p.command();
    c.args(args)
        .envs(env.iter().copied())
        .env("HOOKHOST_TRUST", "")
        .env_remove("HOOKHOST_ADAPTER")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let _ = child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.to_string().as_bytes());
    child.wait_with_output().unwrap()
}

/// A project whose `.claude/settings.json` is the reference file, trusted by `hookhost
/// trust`.
fn project() -> Project {
    let p = Project::new(json!({}));
    p.write(".claude/settings.json", SETTINGS);
    trust(&p);
    p
}

fn trust(p: &Project) {
    let out = p.cli(&["trust"], &[("HOOKHOST_TRUST", "")]);
    assert!(
        out.status.success(),
        "hookhost trust: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn text(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Every row through `hookhost run EVENT --payload -`: hookhost reading Claude Code's file.
#[test]
fn each_reference_hook_runs_from_claude_codes_settings_with_its_documented_outcome() {
    let p = project();
    let mut failures = Vec::new();
    for row in ROWS {
        let _ = std::fs::remove_file(p.path().join("read-audit.json"));
        let root = p.path().display().to_string();
        let out = hookhost(
            &p,
            &[
                "run",
                row.event,
                "--payload",
                "-",
                "--json",
                "--project",
                &root,
            ],
            &payload(&p, row),
            &[],
        );
        let Ok(report) = serde_json::from_slice::<Value>(&out.stdout) else {
            failures.push(format!("{}: no JSON report\n{}", row.hook, text(&out)));
            continue;
        };
        for (key, want) in at(&p, row.run).as_object().unwrap() {
            let got = if key == "exit" {
                json!(out.status.code())
            } else {
                report[key].clone()
            };
            if got != *want {
                failures.push(format!(
                    "{}: run's `{key}` is {got}, Claude Code's reference wants {want}\nreport: {report}",
                    row.hook
                ));
            }
        }
        check_writes(&p, row, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every row through `hookhost hook --for claude`, the hooks imported into hookhost's own
/// file (the adapter never reads Claude Code's settings, so nothing runs twice): the answer
/// Claude Code reads, exit 0.
#[test]
fn each_reference_hook_answers_claude_code_through_the_adapter() {
    let p = project();
    let out = p.cli(&["import", "--write"], &[("HOOKHOST_TRUST", "")]);
    assert!(out.status.success(), "import --write: {}", text(&out));
    std::fs::remove_file(p.path().join(".claude/settings.json")).unwrap();
    trust(&p);
    let root = p.path().display().to_string();
    let mut failures = Vec::new();
    for row in ROWS {
        let _ = std::fs::remove_file(p.path().join("read-audit.json"));
        let out = hookhost(
            &p,
            &["hook", "--for", "claude", "--project", &root],
            &payload(&p, row),
            &[("CLAUDE_PROJECT_DIR", &root)],
        );
        let answer = if out.stdout.iter().all(u8::is_ascii_whitespace) {
            Value::Null
        } else {
            match serde_json::from_slice::<Value>(&out.stdout) {
                Ok(v) => v,
                Err(e) => {
                    failures.push(format!("{}: not JSON ({e})\n{}", row.hook, text(&out)));
                    continue;
                }
            }
        };
        let want = at(&p, row.answer);
        if out.status.code() != Some(0) || answer != want {
            failures.push(format!(
                "{}: Claude Code would read {answer}, its reference wants {want}\n{}",
                row.hook,
                text(&out)
            ));
        }
        check_writes(&p, row, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn check_writes(p: &Project, row: &Row, failures: &mut Vec<String>) {
    if let Some((file, needle)) = row.writes {
        let written = p.read(file);
        if !written.contains(needle) {
            failures.push(format!(
                "{}: {file} at the project root holds {written:?}, not {needle}",
                row.hook
            ));
        }
    }
}

/// The fixture is the file the README describes: one hook per documented behaviour, and the
/// README names each.
#[test]
fn the_fixture_and_its_readme_agree() {
    let settings: Value = serde_json::from_str(SETTINGS).unwrap();
    let readme = include_str!("fixtures/claude-reference/README.md");
    for (event, groups) in settings["hooks"].as_object().unwrap() {
        let mut n = 0;
        for group in groups.as_array().unwrap() {
            for _ in group["hooks"].as_array().unwrap() {
                let name = format!("{event}[{n}]");
                assert!(readme.contains(&format!("`{name}`")), "README.md: {name}");
                assert!(
                    ROWS.iter().any(|r| r.hook.starts_with(&format!("{name} "))),
                    "no row tests {name}"
                );
                n += 1;
            }
        }
    }
}
