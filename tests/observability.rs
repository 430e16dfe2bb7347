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

#[test]
fn a_disabled_hook_is_in_the_log_with_the_file_that_turned_it_off() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "true"},
        {"command": "exit 2", "enabled": false}
    ]}}));
    let out = p.cli(&["run", "PreToolUse", "--tool", "bash"], &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let recs = records(&p);
    let off: Vec<&Value> = recs[0]["not_run"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["why"] == "disabled")
        .collect();
    assert_eq!(off.len(), 1, "{recs:?}");
    let file = p.path().join(".coding-agent/hooks.json");
    let detail = off[0]["detail"].as_str().unwrap();
    assert!(
        detail.starts_with(&format!("disabled in {}", file.display())),
        "{detail}"
    );
    assert!(detail.contains("\"enabled\": false"), "{detail}");
    let why = reader(&p, &["explain"]);
    assert!(why.contains("turned off (disabled in "), "{why}");
}

/// Reads lines from `child`'s stdout on a thread; waits at most 20 s for `n` of them.
fn lines_within(rx: &std::sync::mpsc::Receiver<String>, n: usize) -> Vec<String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut got = Vec::new();
    while got.len() < n {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => got.push(line),
            Err(_) => break,
        }
    }
    got
}

#[test]
fn log_follow_prints_new_events_and_survives_a_rotation() {
    use std::io::BufRead;
    let p = project();
    let fire = |cmd: &str| {
        let args = format!(r#"{{"command":"{cmd}"}}"#);
        p.cli(
            &["run", "PreToolUse", "--tool", "bash", "--args", &args],
            &[],
        );
    };
    fire("before"); // the log exists before --follow starts
    let mut child = Command::new(env!("CARGO_BIN_EXE_hookhost"))
        .args(["log", "--follow", "--json", "-n", "0", "--file"])
        .arg(log_file(&p))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // Give it time to open the file at its end (it prints only what comes after).
    std::thread::sleep(std::time::Duration::from_millis(500));
    fire("ls");
    fire("rm -rf x");
    let first = lines_within(&rx, 2);
    // Rotated under it: the file renamed, the next event starts a new one.
    let rotated = p.home.path().join("hookhost-log/decisions.jsonl.1");
    std::fs::rename(log_file(&p), &rotated).unwrap();
    fire("pwd");
    let after = lines_within(&rx, 1);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(first.len(), 2, "{first:?}");
    let decisions: Vec<Value> = first
        .iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["decision"].clone())
        .collect();
    assert_eq!(decisions, [json!("pass"), json!("block")]);
    assert_eq!(after.len(), 1, "nothing after the rotation: {after:?}");
    assert_eq!(records(&p).len(), 1, "a fresh file after the rename");
}

#[test]
fn run_explain_explains_the_invocation_without_reading_the_log() {
    let p = project();
    let args = [
        "run",
        "PreToolUse",
        "--tool",
        "bash",
        "--args",
        r#"{"command":"rm -rf /"}"#,
        "--explain",
    ];
    let out = p.cli(&args, &[("HOOKHOST_LOG", "off")]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("decision: block (no rm -rf)"), "{text}");
    assert!(text.contains("<- row \"exit 2: block\""), "{text}");
    assert!(
        text.contains("PreToolUse[1]") && text.contains("its `match` does not match (edit)"),
        "{text}"
    );
    assert!(
        text.contains("fold: PreToolUse[0] decided `block`"),
        "{text}"
    );
    assert!(
        records(&p).is_empty(),
        "HOOKHOST_LOG=off still writes nothing"
    );

    let mut json_args = args.to_vec();
    json_args.push("--json");
    let out = p.cli(&json_args, &[]);
    let record: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["decision"], "block");
    assert_eq!(record["hooks"][0]["row"], "exit 2: block");
    assert_eq!(record["not_run"][0]["why"], "matcher");
    // Logged as usual, and the same record.
    assert_eq!(records(&p), [record]);
}
