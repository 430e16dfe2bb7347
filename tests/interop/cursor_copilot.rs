//! Cursor and GitHub Copilot CLI hooks, both ways, with real shell hooks: their own files
//! (`.cursor/hooks.json`, `.github/hooks/*.json`) through `list`, `check` and `run`; their
//! payloads through `run --payload` (Cursor's from cursor.com/docs/hooks, Copilot CLI's as
//! the real Copilot CLI 1.0.102 sent them: tests/fixtures/dialects/); and the outbound
//! adapter (`hookhost hook --for cursor|copilot`) answering as each documents.

use crate::common::Project;
use crate::corpus::{adapter, make_executable, run_json};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn fixture(dialect: &str, name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/dialects")
        .join(dialect)
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// A payload file in the project, for `run --payload`.
fn payload_file(p: &Project, name: &str, v: &Value) -> PathBuf {
    p.write(&format!("payloads/{name}"), &v.to_string())
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A Cursor guard as Cursor's docs write one: it reads the payload, answers with
/// `permission`, and knows it runs under Cursor by its variables.
const CURSOR_GUARD: &str = r#"#!/bin/sh
input=$(cat)
[ -n "$CURSOR_PROJECT_DIR" ] && [ "$CURSOR_PROJECT_DIR" = "$CLAUDE_PROJECT_DIR" ] || { echo "no project dir" >&2; exit 1; }
case "$input" in
  *'"hook_event_name":"beforeShellExecution"'*) ;;
  *) echo "not a beforeShellExecution payload: $input" >&2; exit 1 ;;
esac
case "$input" in
  *'"command":"rm -rf'*)
    echo '{"permission":"deny","user_message":"no rm -rf","agent_message":"rm -rf is blocked by the Cursor guard"}' ;;
  *) echo '{"permission":"allow"}' ;;
esac
"#;

const CURSOR_STOP: &str = r#"#!/bin/sh
input=$(cat)
case "$input" in
  *'"loop_count":0'*) echo '{"followup_message":"run the tests first"}' ;;
  *) echo '{}' ;;
esac
"#;

fn cursor_project() -> Project {
    let p = Project::new(json!({}));
    make_executable(&p.write(".cursor/hooks/guard.sh", CURSOR_GUARD));
    make_executable(&p.write(".cursor/hooks/stop.sh", CURSOR_STOP));
    p.write(
        ".cursor/hooks.json",
        &json!({"version": 1, "hooks": {
            "beforeShellExecution": [{"command": ".cursor/hooks/guard.sh", "timeout": 30}],
            "beforeSubmitPrompt": [{"command": "grep -q secret && echo '{\"continue\":false,\"user_message\":\"no secrets in prompts\"}' || true"}],
            "stop": [{"command": ".cursor/hooks/stop.sh", "loop_limit": 3}],
            "afterAgentResponse": [{"command": "touch should-not-run"}]
        }})
        .to_string(),
    );
    p
}

fn bash(command: &str) -> Vec<String> {
    [
        "PreToolUse",
        "--tool",
        "bash",
        "--args",
        &json!({ "command": command }).to_string(),
    ]
    .map(str::to_string)
    .to_vec()
}

fn run(p: &Project, args: &[String]) -> (i32, Value) {
    run_json(p, &args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn cursor_hooks_listed_checked_and_run() {
    let p = cursor_project();
    let list: Value = serde_json::from_slice(&p.cli(&["list", "--json"], &[]).stdout).unwrap();
    let hooks = list["hooks"].as_array().unwrap();
    assert_eq!(hooks.len(), 3, "{list}");
    assert!(
        hooks.iter().all(|h| h["dialect"] == "cursor"
            && h["file"].as_str().unwrap().ends_with(".cursor/hooks.json"))
    );
    let guard = hooks.iter().find(|h| h["event"] == "PreToolUse").unwrap();
    assert_eq!(guard["timeoutMs"], 30_000, "{guard}");
    let stop = hooks.iter().find(|h| h["event"] == "Stop").unwrap();
    assert_eq!(stop["timeoutMs"], 60_000, "Cursor's default: {stop}");

    let out = p.cli(&["check"], &[]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("hookhost does not fire Cursor's afterAgentResponse"),
        "{text}"
    );
    assert!(text.contains("`loop_limit` is not implemented"), "{text}");

    let (code, r) = run(&p, &bash("rm -rf build"));
    assert_eq!(
        (code, r["reason"].as_str()),
        (2, Some("rm -rf is blocked by the Cursor guard")),
        "{r}"
    );
    assert_eq!(r["hooks"][0]["dialect"], "cursor");
    // Cursor's `allow` is no bypass: a pass.
    let (code, r) = run(&p, &bash("ls"));
    assert_eq!((code, r["decision"].as_str()), (0, Some("pass")), "{r}");
    // A beforeShellExecution hook is about shell commands only.
    let (code, r) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "read_file",
            "--args",
            r#"{"path":"a"}"#,
        ],
    );
    assert_eq!(
        (code, r["hooks"].as_array().map(Vec::len)),
        (0, Some(0)),
        "{r}"
    );

    let (_, r) = run_json(&p, &["Stop"]);
    assert_eq!(
        (r["decision"].as_str(), r["reason"].as_str()),
        (Some("force"), Some("run the tests first")),
        "{r}"
    );
    let (_, r) = run_json(&p, &["UserPromptSubmit", "--prompt", "my secret is 42"]);
    assert_eq!(r["stop"]["reason"], "no secrets in prompts", "{r}");
    assert!(!p.path().join("should-not-run").exists());
}

#[test]
fn cursors_documented_payloads_run_its_hooks() {
    let p = cursor_project();
    let documented = fixture("cursor", "payload-beforeShellExecution.json");
    let file = payload_file(&p, "shell.json", &documented);
    let (code, r) = run_json(&p, &["PreToolUse", "--payload", file.to_str().unwrap()]);
    assert_eq!(
        (code, r["hooks"][0]["outcome"].as_str()),
        (0, Some("pass")),
        "{r}"
    );
    let mut rm = documented.clone();
    rm["command"] = json!("rm -rf /path/to/project");
    let file = payload_file(&p, "rm.json", &rm);
    let (code, r) = run_json(&p, &["PreToolUse", "--payload", file.to_str().unwrap()]);
    assert_eq!((code, r["decision"].as_str()), (2, Some("block")), "{r}");
    let file = payload_file(&p, "stop.json", &fixture("cursor", "payload-stop.json"));
    let (_, r) = run_json(&p, &["Stop", "--payload", file.to_str().unwrap()]);
    assert_eq!(r["decision"], "force", "{r}");
}

/// A Copilot CLI guard as its docs write one (the toolArgs read with sed, not jq), with a
/// progress line before its answer.
const COPILOT_GUARD: &str = r#"#!/bin/sh
input=$(cat)
[ -n "$COPILOT_PROJECT_DIR" ] || { echo "no COPILOT_PROJECT_DIR" >&2; exit 1; }
echo '{"type": "progress", "message": "Checking policy..."}'
case "$input" in *'"toolName":"bash"'*) ;; *) exit 0 ;; esac
case "$input" in
  *'rm -rf'*)
    echo '{"permissionDecision":"deny","permissionDecisionReason":"Destructive operations require approval"}' ;;
  *'"command":"cat secrets'*)
    echo '{"modifiedArgs":{"command":"echo redacted","description":"x"}}' ;;
esac
"#;

fn copilot_project() -> Project {
    let p = Project::new(json!({}));
    make_executable(&p.write("scripts/guard.sh", COPILOT_GUARD));
    p.write(
        ".github/hooks/guard.json",
        &json!({"version": 1, "hooks": {
            "preToolUse": [{"type": "command", "bash": "./scripts/guard.sh",
                            "powershell": "./scripts/guard.ps1", "matcher": "bash|edit"}],
            "errorOccurred": [{"type": "command", "bash": "touch should-not-run"}]
        }})
        .to_string(),
    );
    p.write(
        ".github/hooks/audit.json",
        &json!({"version": 1, "hooks": {
            "agentStop": [{"type": "command", "bash": "grep -q '\"stop_hook_active\":false' && echo '{\"decision\":\"block\",\"reason\":\"Run the tests before you finish.\"}' || true", "timeoutSec": 5}],
            "postToolUse": [{"type": "command", "bash": "cat >/dev/null; echo '{\"additionalContext\":\"audited\"}'"}]
        }})
        .to_string(),
    );
    p
}

#[test]
fn copilot_hooks_listed_checked_and_run() {
    let p = copilot_project();
    let list: Value = serde_json::from_slice(&p.cli(&["list", "--json"], &[]).stdout).unwrap();
    let hooks = list["hooks"].as_array().unwrap();
    assert_eq!(hooks.len(), 3, "{list}");
    assert!(hooks.iter().all(|h| h["dialect"] == "copilot"), "{list}");
    let guard = hooks.iter().find(|h| h["event"] == "PreToolUse").unwrap();
    assert_eq!(guard["timeoutMs"], 30_000, "Copilot CLI's default: {guard}");
    assert!(
        guard["file"]
            .as_str()
            .unwrap()
            .ends_with(".github/hooks/guard.json")
    );
    // Files load by name: audit.json before guard.json.
    let files: Vec<&str> = list["files"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f.as_str().or_else(|| f["path"].as_str()))
        .filter(|f| f.contains(".github/hooks/"))
        .collect();
    assert!(
        files.len() == 2 && files[0].ends_with("audit.json"),
        "{list}"
    );

    let out = p.cli(&["check"], &[]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("hookhost does not fire Copilot CLI's errorOccurred"),
        "{text}"
    );

    let (code, r) = run(&p, &bash("rm -rf dist"));
    assert_eq!(
        (code, r["reason"].as_str()),
        (2, Some("Destructive operations require approval")),
        "{r}"
    );
    let (code, r) = run(&p, &bash("cat secrets.txt"));
    assert_eq!(
        (code, &r["updatedArgs"]),
        (0, &json!({"command": "echo redacted", "description": "x"})),
        "{r}"
    );
    let (code, r) = run(&p, &bash("ls"));
    assert_eq!((code, r["decision"].as_str()), (0, Some("pass")), "{r}");
    let (_, r) = run_json(&p, &["Stop"]);
    assert_eq!(
        (r["decision"].as_str(), r["reason"].as_str()),
        (Some("force"), Some("Run the tests before you finish.")),
        "{r}"
    );
    let (_, r) = run_json(
        &p,
        &[
            "PostToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"ls"}"#,
            "--result",
            "a b",
        ],
    );
    assert_eq!(r["additionalContext"], json!(["audited"]), "{r}");
    assert!(!p.path().join("should-not-run").exists());
}

#[test]
fn a_copilot_pre_tool_use_hook_that_errors_denies_the_call() {
    // Copilot CLI: "a non-zero exit (other than exit 2) denies the tool call"; a timeout
    // fails open.
    let p = Project::new(json!({}));
    p.write(
        ".github/hooks/crash.json",
        &json!({"version": 1, "hooks": {"preToolUse": [{"bash": "cat >/dev/null; exit 1"}]}})
            .to_string(),
    );
    let (code, r) = run(&p, &bash("ls"));
    assert_eq!((code, r["decision"].as_str()), (2, Some("block")), "{r}");
    p.write(
        ".github/hooks/crash.json",
        &json!({"version": 1, "hooks": {"preToolUse": [{"bash": "sleep 5", "timeoutSec": 0.2}]}})
            .to_string(),
    );
    let (code, r) = run(&p, &bash("ls"));
    assert_eq!(
        (code, r["hooks"][0]["outcome"].as_str()),
        (0, Some("timeout")),
        "{r}"
    );
}

#[test]
fn copilots_real_payloads_run_its_hooks() {
    let p = copilot_project();
    // What Copilot CLI 1.0.102 sent for `rm -rf victim`.
    let file = payload_file(
        &p,
        "pre.json",
        &fixture("copilot", "captured-preToolUse.json"),
    );
    let (code, r) = run_json(&p, &["PreToolUse", "--payload", file.to_str().unwrap()]);
    assert_eq!((code, r["decision"].as_str()), (2, Some("block")), "{r}");
    // Its docs' form, toolArgs as JSON text.
    let file = payload_file(
        &p,
        "doc.json",
        &fixture("copilot", "doc-preToolUse-toolArgs-text.json"),
    );
    let (code, _) = run_json(&p, &["PreToolUse", "--payload", file.to_str().unwrap()]);
    assert_eq!(code, 2);
    let file = payload_file(
        &p,
        "stop.json",
        &fixture("copilot", "captured-agentStop.json"),
    );
    let (_, r) = run_json(&p, &["Stop", "--payload", file.to_str().unwrap()]);
    assert_eq!(r["decision"], "force", "{r}");
}

/// A native guard on bash that blocks `rm -rf`, and a native Stop hook that keeps the agent
/// going once; every event leaves a mark.
fn native_guard() -> Project {
    Project::new(json!({"hooks": {
        "PreToolUse": [{"match": "bash", "command": "grep -q 'rm -rf' && { echo 'rm -rf is not allowed' >&2; exit 2; } || exit 0"}],
        "Stop": [{"command": "grep -q '\"stopHookActive\":true' || echo '{\"decision\":\"block\",\"reason\":\"keep going\"}'"}],
        "PostToolUse": [{"command": "cat >/dev/null; touch post-ran"}],
        "SessionEnd": [{"command": "cat >/dev/null; touch end-ran"}]
    }}))
}

#[test]
fn hook_for_cursor_answers_as_cursor_documents() {
    let p = native_guard();
    let mut shell = fixture("cursor", "payload-beforeShellExecution.json");
    shell["command"] = json!("rm -rf /");
    shell["cwd"] = json!(p.path());
    shell["workspace_roots"] = json!([p.path()]);
    let (code, a, err) = adapter(&p, "cursor", &shell);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        a,
        json!({"permission": "deny", "user_message": "rm -rf is not allowed",
               "agent_message": "rm -rf is not allowed"}),
        "{err}"
    );
    shell["command"] = json!("ls");
    assert_eq!(adapter(&p, "cursor", &shell).1, Value::Null);
    // The generic preToolUse with Cursor's tool name.
    let mut pre = fixture("cursor", "payload-preToolUse.json");
    pre["tool_name"] = json!("Shell");
    pre["tool_input"] = json!({"command": "rm -rf src"});
    pre["workspace_roots"] = json!([p.path()]);
    assert_eq!(adapter(&p, "cursor", &pre).1["permission"], "deny");

    let mut stop = fixture("cursor", "payload-stop.json");
    stop["workspace_roots"] = json!([p.path()]);
    assert_eq!(
        adapter(&p, "cursor", &stop).1,
        json!({"followup_message": "keep going"})
    );
    stop["loop_count"] = json!(1);
    assert_eq!(adapter(&p, "cursor", &stop).1, Value::Null);
    // An event hookhost does not fire: a pass, and no native hook runs.
    let mut other = fixture("cursor", "payload-afterAgentResponse.json");
    other["workspace_roots"] = json!([p.path()]);
    let (code, a, err) = adapter(&p, "cursor", &other);
    assert_eq!((code, a), (0, Value::Null), "{err}");
    assert!(!p.path().join("post-ran").exists() && !p.path().join("end-ran").exists());
}

#[test]
fn hook_for_copilot_answers_as_copilot_documents() {
    let p = native_guard();
    let mut pre = fixture("copilot", "captured-preToolUse.json");
    pre["cwd"] = json!(p.path());
    let (code, a, err) = adapter(&p, "copilot", &pre);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        a,
        json!({"permissionDecision": "deny", "permissionDecisionReason": "rm -rf is not allowed"}),
        "{err}"
    );
    let mut doc = fixture("copilot", "doc-preToolUse-toolArgs-text.json");
    doc["cwd"] = json!(p.path());
    assert_eq!(adapter(&p, "copilot", &doc).1["permissionDecision"], "deny");
    let mut ls = fixture("copilot", "captured-postToolUse.json");
    ls["cwd"] = json!(p.path());
    let (code, a, err) = adapter(&p, "copilot", &ls);
    assert_eq!((code, a), (0, Value::Null), "{err}");
    assert!(
        p.path().join("post-ran").exists(),
        "PostToolUse fired: {err}"
    );

    let mut stop = fixture("copilot", "captured-agentStop.json");
    stop["cwd"] = json!(p.path());
    assert_eq!(
        adapter(&p, "copilot", &stop).1,
        json!({"decision": "block", "reason": "keep going"})
    );
    stop["stop_hook_active"] = json!(true);
    assert_eq!(adapter(&p, "copilot", &stop).1, Value::Null);
    // errorOccurred is no native event: a pass, nothing runs.
    let mut error = fixture("copilot", "doc-errorOccurred.json");
    error["cwd"] = json!(p.path());
    let (code, a, err) = adapter(&p, "copilot", &error);
    assert_eq!((code, a), (0, Value::Null), "{err}");
    assert!(!p.path().join("end-ran").exists());
}

#[test]
fn their_documented_answers_decide_as_documented() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/dialects");
    let cases = [
        (
            "cursor",
            "answer-beforeShellExecution-deny.json",
            "beforeShellExecution",
            "block",
        ),
        (
            "cursor",
            "answer-beforeSubmitPrompt-block.json",
            "beforeSubmitPrompt",
            "pass",
        ),
        ("cursor", "answer-stop-followup.json", "stop", "force"),
        (
            "copilot",
            "answer-preToolUse-deny.json",
            "preToolUse",
            "block",
        ),
        (
            "copilot",
            "answer-agentStop-block.json",
            "agentStop",
            "force",
        ),
    ];
    for (dialect, answer, event, want) in cases {
        let p = Project::new(json!({}));
        let answer_file = dir.join(dialect).join(answer).canonicalize().unwrap();
        let command = format!("cat >/dev/null; cat '{}'", answer_file.display());
        let (file, text) = match dialect {
            "cursor" => (
                ".cursor/hooks.json",
                json!({"version": 1, "hooks": {event: [{"command": command}]}}),
            ),
            _ => (
                ".github/hooks/answer.json",
                json!({"version": 1, "hooks": {event: [{"type": "command", "bash": command}]}}),
            ),
        };
        p.write(file, &text.to_string());
        let args: Vec<String> = match event {
            "beforeShellExecution" | "preToolUse" => bash("rm -rf /"),
            "beforeSubmitPrompt" => ["UserPromptSubmit", "--prompt", "x"]
                .map(str::to_string)
                .to_vec(),
            _ => vec!["Stop".to_string()],
        };
        let (_, r) = run(&p, &args);
        assert_eq!(r["decision"], want, "{dialect} {answer}: {r}");
        let expect = |key: &str| fixture(dialect, answer)[key].clone();
        let (got, key) = match answer {
            "answer-beforeShellExecution-deny.json" => (&r["reason"], "agent_message"),
            "answer-beforeSubmitPrompt-block.json" => (&r["stop"]["reason"], "user_message"),
            "answer-stop-followup.json" => (&r["reason"], "followup_message"),
            "answer-preToolUse-deny.json" => (&r["reason"], "permissionDecisionReason"),
            _ => (&r["reason"], "reason"),
        };
        assert_eq!(*got, expect(key), "{dialect} {answer}: {r}");
    }
}
