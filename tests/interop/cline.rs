//! Cline through the real binary, both ways. Outbound: `hookhost hook --for cline` is given
//! the payload Cline's docs show (tests/fixtures/agents/cline/doc-PreToolUse.json) and runs a
//! real shell guard from the project's `.coding-agent/hooks.json`: it blocks `rm -rf` with
//! Cline's `{"cancel": true, "errorMessage"}`, a harmless call passes (and the guard ran); an
//! untrusted project hook does not run as the user (Cline shows the user nothing but a
//! cancel's `errorMessage`, so the notice rides on a cancel only). Inbound: a
//! Cline hook file in the project's `.clinerules/hooks/` is listed as a project hook of
//! dialect `cline` and its `cancel: true` blocks through `hookhost run`; an exit 2 does not
//! (Cline blocks on `cancel` only).

use crate::common::Project;
use crate::corpus::{adapter, make_executable, run_json};
use serde_json::{Value, json};
use std::path::Path;

/// A native guard: it blocks `rm -rf` with stderr, and leaves a mark that it ran.
const GUARD: &str = r#"#!/bin/sh
input=$(cat)
touch "$HOOK_PROJECT_DIR/guard-ran"
case "$input" in
  *'rm -rf'*) echo "rm -rf is blocked by the project guard" >&2; exit 2 ;;
esac
exit 0
"#;

/// A Cline hook file as its docs write one: logging, then the JSON answer last.
const CLINE_HOOK: &str = r#"#!/usr/bin/env bash
input=$(cat)
echo "checking the call"
case "$input" in
  *'rm -rf'*) echo '{"cancel": true, "errorMessage": "rm -rf is blocked by the Cline hook"}' ;;
  *) echo '{"cancel": false, "contextModification": "SECURITY: checked"}' ;;
esac
"#;

fn pre_tool_use(p: &Project, command: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/agents/cline/doc-PreToolUse.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["preToolUse"]["parameters"]["command"] = json!(command);
    v["workspaceRoots"] = json!([p.path()]);
    v
}

fn guarded() -> Project {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"match": "bash", "command": "./guard.sh"}
    ]}}));
    make_executable(&p.write("guard.sh", GUARD));
    p
}

#[test]
fn a_guard_cancels_the_call_in_clines_answer_and_a_harmless_call_passes() {
    let p = guarded();
    let (code, answer, stderr) = adapter(&p, "cline", &pre_tool_use(&p, "rm -rf /tmp/x"));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(answer["cancel"], true, "{answer}");
    let why = answer["errorMessage"].as_str().unwrap_or_default();
    assert!(why.contains("rm -rf is blocked"), "{answer}");

    let p = guarded();
    let (code, answer, stderr) = adapter(&p, "cline", &pre_tool_use(&p, "ls"));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(answer, Value::Null, "a pass says nothing");
    assert!(p.path().join("guard-ran").exists(), "the guard did not run");
}

#[test]
fn an_untrusted_project_hook_does_not_run_as_the_user_and_the_user_is_told() {
    use std::io::Write;
    let outside = std::env::temp_dir().join("hookhost-cline-untrusted");
    std::fs::create_dir_all(&outside).unwrap();
    let marker = outside.join("outside");
    let _ = std::fs::remove_file(&marker);
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"match": "bash", "command": format!("cat >/dev/null; touch '{}'", marker.display())}
    ]}}));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookhost"))
        .args(["hook", "--for", "cline", "--project"])
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .env_remove("HOOKHOST_TRUST")
        .env_remove("HOOKHOST_ADAPTER")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(pre_tool_use(&p, "ls").to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        !marker.exists(),
        "an untrusted project hook wrote outside the project: {stdout}"
    );
    // Cline shows the user nothing but a cancel's errorMessage, and cancelling a harmless
    // call to say so would stop the user's task: nothing to say, the call goes ahead (the
    // notice is in `hookhost doctor` and the decision log).
    assert_eq!(stdout.trim(), "", "{stdout}");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_cline_hook_file_is_a_project_hook_whose_cancel_blocks() {
    let p = Project::new(json!({}));
    make_executable(&p.write(".clinerules/hooks/PreToolUse", CLINE_HOOK));
    // Not a hook: no event's name.
    p.write(".clinerules/hooks/README.md", "notes");
    let out = p.cli(&["list", "--json"], &[]);
    let list: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let hooks = list["hooks"].as_array().unwrap();
    assert_eq!(hooks.len(), 1, "{list}");
    assert_eq!(hooks[0]["dialect"], "cline", "{list}");
    assert_eq!(hooks[0]["source"], "project", "{list}");
    assert_eq!(hooks[0]["timeoutMs"], 30_000, "Cline's 30 s: {list}");

    let bash = |command: &str| {
        [
            "PreToolUse".to_string(),
            "--tool".into(),
            "bash".into(),
            "--args".into(),
            json!({ "command": command }).to_string(),
        ]
    };
    let args = bash("rm -rf build");
    let (code, r) = run_json(&p, &args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(
        (code, r["reason"].as_str()),
        (2, Some("rm -rf is blocked by the Cline hook")),
        "{r}"
    );
    let args = bash("ls");
    let (code, r) = run_json(&p, &args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!((code, r["decision"].as_str()), (0, Some("pass")), "{r}");
    assert!(r.to_string().contains("SECURITY: checked"), "{r}");
}

#[test]
fn an_exit_2_is_no_block_in_cline() {
    let p = Project::new(json!({}));
    make_executable(&p.write(
        ".cline/hooks/PreToolUse.sh",
        "cat >/dev/null; echo 'no' >&2; exit 2\n",
    ));
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
    assert_eq!((code, r["decision"].as_str()), (0, Some("pass")), "{r}");
}
