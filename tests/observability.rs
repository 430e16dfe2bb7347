//! The decision log through the real binary: `run` and `hook --for claude` each append one
//! line, `HOOKHOST_LOG=off` none; `log` filters and `explain` read it back.

mod common;

use common::Project;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Command;

fn project() -> Project {
    Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; } || exit 0", "match": "bash"},
        {"command": "true", "match": "edit"}
    ]}}))
}

fn log_file(p: &Project) -> PathBuf {
    p.home.path().join("hookhost-log/decisions.jsonl")
}

fn records(p: &Project) -> Vec<Value> {
    std::fs::read_to_string(log_file(p))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn reader(p: &Project, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hookhost"))
        .args(args)
        .arg("--file")
        .arg(log_file(p))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn run_logs_one_line_per_event_without_payload_values() {
    let p = project();
    let block = p.cli(
        &[
            "run",
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"rm -rf SECRETARG"}"#,
        ],
        &[],
    );
    assert_eq!(block.status.code(), Some(2));
    p.cli(
        &[
            "run",
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"ls"}"#,
        ],
        &[],
    );
    p.cli(
        &[
            "run",
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"ls"}"#,
        ],
        &[("HOOKHOST_LOG", "off")],
    );
    let recs = records(&p);
    assert_eq!(recs.len(), 2, "{recs:?}");
    assert_eq!(recs[0]["v"], 1);
    assert_eq!(recs[0]["decision"], "block");
    assert_eq!(recs[0]["hooks"][0]["outcome"], "block");
    assert_eq!(recs[0]["not_run"][0]["why"], "matcher");
    assert_eq!(recs[1]["decision"], "pass");
    let text = std::fs::read_to_string(log_file(&p)).unwrap();
    assert!(!text.contains("SECRETARG"));

    let blocks = reader(&p, &["log", "--outcome", "block", "--json"]);
    assert_eq!(blocks.lines().count(), 1, "{blocks}");
    assert!(reader(&p, &["log", "-n", "1"]).contains("-> pass"));
    let id = recs[0]["id"].as_str().unwrap();
    let why = reader(&p, &["explain", id]);
    assert!(why.contains("row \"exit 2: block\""), "{why}");
    assert!(
        why.contains("PreToolUse[1]") && why.contains("its `match` does not match"),
        "{why}"
    );
}

#[test]
fn hook_for_claude_logs_with_the_agent() {
    let p = project();
    let payload = json!({"session_id": "s-claude", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "ls"}, "cwd": p.path()});
    let mut child = Command::new(env!("CARGO_BIN_EXE_hookhost"))
        .args(["hook", "--for", "claude", "--trust", "all", "--project"])
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .env("HOOKHOST_LOG_DIR", p.home.path().join("hookhost-log"))
        .env_remove("HOOKHOST_LOG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(
        &mut child.stdin.take().unwrap(),
        payload.to_string().as_bytes(),
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let recs = records(&p);
    assert_eq!(recs.len(), 1, "{recs:?}");
    assert_eq!(recs[0]["agent"], "claude");
    assert_eq!(recs[0]["session"], "s-claude");
    assert!(reader(&p, &["log", "--session", "s-claude"]).contains("for claude"));
}
