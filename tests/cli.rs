//! The `hookhost` binary: exit statuses and the `--json` contract (DESIGN §8).

mod common;

use common::Project;
use serde_json::{Value, json};
use std::process::{Command, Output};

fn hookhost(p: &Project, args: &[&str]) -> Output {
    p.cli(args, &[])
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn guard_project() -> Project {
    Project::new(json!({"hooks": {
        "PreToolUse": [
            {"command": "grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; } || exit 0", "match": "bash"},
            {"command": "echo '{\"updatedInput\":{\"command\":\"ls -la\"}}'", "match": "bash"}
        ],
        "Stop": [{"command": "echo 'run the tests first'; exit 2"}],
        "PostToolUse": [{"command": "cat > post.json", "async": true}],
        "UserPromptSubmit": [{"command": "echo '{\"additionalContext\":\"on branch main\"}'"}]
    }}))
}

#[test]
fn run_exit_status_is_0_on_pass_2_on_block_and_force() {
    let p = guard_project();
    let block = hookhost(
        &p,
        &[
            "run",
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"rm -rf /"}"#,
        ],
    );
    assert_eq!(block.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&block.stdout).contains("no rm -rf"));
    let pass = hookhost(
        &p,
        &[
            "run",
            "pretooluse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"ls"}"#,
        ],
    );
    assert_eq!(pass.status.code(), Some(0));
    let force = hookhost(&p, &["run", "Stop"]);
    assert_eq!(force.status.code(), Some(2));
}

#[test]
fn run_json_is_the_documented_contract() {
    let p = guard_project();
    let out = hookhost(
        &p,
        &[
            "run",
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"rm -rf /"}"#,
            "--json",
        ],
    );
    let v = json_of(&out);
    assert_eq!(v["event"], "PreToolUse");
    assert_eq!(v["decision"], "block");
    assert_eq!(v["reason"], "no rm -rf");
    assert_eq!(v["updatedArgs"], Value::Null);
    assert_eq!(v["additionalContext"], json!([]));
    let hooks = v["hooks"].as_array().unwrap();
    assert_eq!(hooks.len(), 1, "short-circuit shows as a shorter list");
    let h = &hooks[0];
    for key in [
        "command",
        "kind",
        "outcome",
        "exitCode",
        "durationMs",
        "stdout",
        "stderr",
        "truncated",
    ] {
        assert!(h.get(key).is_some(), "hook record lacks {key}: {h}");
    }
    assert_eq!(
        (
            h["kind"].as_str(),
            h["outcome"].as_str(),
            h["exitCode"].as_i64()
        ),
        (Some("shell"), Some("block"), Some(2))
    );

    let out = hookhost(
        &p,
        &[
            "run",
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"ls"}"#,
            "--json",
        ],
    );
    let v = json_of(&out);
    assert_eq!(
        (v["decision"].as_str(), v["reason"].clone()),
        (Some("pass"), Value::Null)
    );
    assert_eq!(v["updatedArgs"], json!({"command": "ls -la"}));

    let v = json_of(&hookhost(&p, &["run", "Stop", "--json"]));
    assert_eq!(
        (v["decision"].as_str(), v["reason"].as_str()),
        (Some("force"), Some("run the tests first"))
    );

    let v = json_of(&hookhost(
        &p,
        &["run", "UserPromptSubmit", "--prompt", "hi", "--json"],
    ));
    assert_eq!(v["additionalContext"], json!(["on branch main"]));
}

#[test]
fn run_waits_for_async_hooks_and_lists_them() {
    let p = guard_project();
    let out = hookhost(
        &p,
        &[
            "run",
            "PostToolUse",
            "--tool",
            "bash",
            "--result",
            "done",
            "--json",
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    let v = json_of(&out);
    assert_eq!(v["hooks"][0]["async"], json!(true));
    let post: Value = serde_json::from_str(&p.read("post.json")).unwrap();
    assert_eq!(
        (post["toolName"].as_str(), post["toolResult"].as_str()),
        (Some("bash"), Some("done"))
    );
    assert_eq!(post["toolError"], json!(false));
}

#[test]
fn run_takes_a_whole_payload_and_fills_in_the_rest() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [{"command": "cat > seen.json"}]}}));
    let file = p.write(
        "payload.json",
        r#"{"event":"Stop","toolName":"edit_file","toolArgs":{"path":"a"},"extra":1}"#,
    );
    let out = hookhost(
        &p,
        &["run", "PreToolUse", "--payload", file.to_str().unwrap()],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen: Value = serde_json::from_str(&p.read("seen.json")).unwrap();
    assert_eq!(seen["event"], "PreToolUse");
    assert_eq!(seen["toolName"], "edit_file");
    assert_eq!(seen["extra"], 1);
    assert_eq!(seen["cwd"], json!(p.path().to_string_lossy()));
    assert!(seen["sessionId"].is_string());
}

#[test]
fn usage_errors_exit_1_and_configuration_errors_are_reported_and_fail_closed() {
    // A broken config does not stop the run: its problems go to stderr, the valid hooks
    // run, and PreToolUse is blocked until it is fixed (tests/hostile/trust.rs has more).
    let p = Project::new(json!({"hooks": {"Stop": [{"command": "x", "match": "bash"}]}}));
    let out = hookhost(&p, &["run", "Stop"]);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("hooks.json: Stop[0]: `match` filters by tool name"),
        "{err}"
    );
    let out = hookhost(&p, &["run", "PreToolUse", "--tool", "bash"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("configuration is broken"));

    let p = guard_project();
    for args in [
        &["run", "Nope"][..],
        &["run", "Stop", "--tool", "bash"],
        &["run", "PreToolUse", "--args", "[1]"],
    ] {
        let out = hookhost(&p, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn check_reports_every_error_and_what_will_not_run() {
    let p = Project::new(json!({"hooks": {
        "PreToolUse": [{"command": "no-such-program-xyz --flag"}, {"command": "x", "timeout": 0}],
        "PostToolUse": [{"command": "hooks/missing.wasm"}, {"command": "echo ok"},
                        {"command": "other-missing-program"}]
    }}));
    p.write_global(json!({"hooks": {"Stop": [{"command": "true", "async": true}]}}));
    let out = hookhost(&p, &["check", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v = json_of(&out);
    let errors = v["errors"].as_array().unwrap();
    let messages: Vec<String> = errors
        .iter()
        .map(|e| format!("{} {}", e["hook"], e["message"]))
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("PreToolUse[1]") && m.contains("timeout")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("Stop[0]") && m.contains("async")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("PostToolUse[0]") && m.contains("missing.wasm")),
        "{messages:?}"
    );
    // A missing program on PreToolUse would block every call: an error.
    assert!(
        messages
            .iter()
            .any(|m| m.contains("PreToolUse[0]") && m.contains("no-such-program-xyz")),
        "{messages:?}"
    );
    let all_warnings = v["warnings"].as_array().unwrap();
    // Besides untrusted-hook warnings (tests/trust.rs), one for the missing program of an
    // observing event.
    let warnings: Vec<&Value> = all_warnings
        .iter()
        .filter(|w| !w["message"].as_str().unwrap().starts_with("untrusted"))
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0]["message"]
            .as_str()
            .unwrap()
            .contains("other-missing-program")
    );

    let ok = Project::new(json!({"hooks": {"PostToolUse": [{"command": "echo fine"}]}}));
    let out = hookhost(&ok, &["check"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("0 errors"));
}

#[test]
fn check_catches_the_first_hour_mistakes() {
    // Seconds where the unit is milliseconds, a Windows path and a missing script behind an
    // interpreter: each passes the parser and then fails every call.
    let p = Project::new(json!({"hooks": {
        "PreToolUse": [
            {"command": "true", "timeout": 5},
            {"command": r".coding-agent\hooks\guard.sh"},
            {"command": "python3 .coding-agent/hooks/guard.py"}
        ]
    }}));
    let out = hookhost(&p, &["check", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_of(&out);
    let of = |key: &str, hook: &str| -> String {
        v[key]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["hook"].as_str().is_some_and(|h| h.contains(hook)))
            .map(|e| e["message"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
            .join(" | ")
    };
    assert!(
        of("warnings", "PreToolUse[0]").contains("did you mean 5000?"),
        "{v}"
    );
    let windows = of("errors", "PreToolUse[1]");
    assert!(
        windows.contains("`.coding-agenthooksguard.sh`")
            && windows.contains("write `.coding-agent/hooks/guard.sh`"),
        "{windows}"
    );
    assert!(
        of("errors", "PreToolUse[2]")
            .contains("would run the script `.coding-agent/hooks/guard.py`, which does not exist"),
        "{v}"
    );
    // The human text says the same.
    let out = hookhost(&p, &["check"]);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("did you mean 5000?"), "{text}");
}

#[test]
fn log_lines_into_a_pipe_carry_no_colour() {
    let p = Project::new(json!({"hooks": {"PostToolUse": [{"command": "true"}]}}));
    let out = hookhost(&p, &["-vv", "run", "PostToolUse", "--tool", "bash"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("DEBUG") || err.contains("INFO"),
        "no log lines: {err}"
    );
    assert!(!err.contains('\u{1b}'), "ANSI escapes in a pipe: {err:?}");
}

#[test]
fn list_shows_run_order_and_sources() {
    let p = guard_project();
    p.write_global(
        json!({"hooks": {"PreToolUse": [{"command": "echo global", "description": "from home"}]}}),
    );
    let out = hookhost(&p, &["list", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v = json_of(&out);
    let pre: Vec<&Value> = v["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["event"] == "PreToolUse")
        .collect();
    assert_eq!(pre.len(), 3);
    // By rank: the user's hooks run (and judge) before the project's.
    assert_eq!(pre[0]["source"], "global");
    assert_eq!(pre[0]["description"], "from home");
    assert_eq!(pre[1]["source"], "project");
    assert_eq!(pre[1]["match"], "bash");
    let human = String::from_utf8_lossy(&hookhost(&p, &["list"]).stdout).to_string();
    assert!(
        human.contains("PreToolUse[0]") && human.contains("(global)"),
        "{human}"
    );
}

#[cfg(unix)]
#[test]
fn first_hour_mistakes_get_errors_that_name_the_fix() {
    // A script without the execute bit, and one named bare (the shell looks on PATH only).
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "./guard.sh"}, {"command": "guard.sh"}]}}));
    p.write("guard.sh", "#!/bin/sh\nexit 0\n");
    let out = hookhost(&p, &["check"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("PreToolUse[0]") && text.contains("chmod +x ./guard.sh"),
        "{text}"
    );
    assert!(
        text.contains("PreToolUse[1]") && text.contains("write `./guard.sh`"),
        "{text}"
    );
    // `run` says the same when it happens anyway.
    let out = hookhost(&p, &["run", "PreToolUse", "--tool", "bash", "--json"]);
    let v = json_of(&out);
    assert!(
        v["hooks"][0]["message"]
            .as_str()
            .unwrap()
            .contains("chmod +x"),
        "{v}"
    );
    // A flat hook with `matcher` is told about `match`, not about nesting.
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "true", "matcher": "bash"}]}}));
    let out = hookhost(&p, &["check"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("did you mean `match`?"), "{text}");
    assert!(!text.contains("nested"), "{text}");
    // `run PreToolUse` without --tool says so.
    let p = Project::new(json!({"hooks": {"PreToolUse": [{"command": "true", "match": "bash"}]}}));
    let out = hookhost(&p, &["run", "PreToolUse"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("no tool was given"));
    // Help texts name the files they read.
    for sub in ["run", "check", "list", "trust", "serve"] {
        let out = Command::new(env!("CARGO_BIN_EXE_hookhost"))
            .args([sub, "--help"])
            .output()
            .unwrap();
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(help.contains(".coding-agent/hooks.json"), "{sub}: {help}");
    }
}

/// `hookhost` started with the environment a test project gives it, in `dir`, without
/// `--project`.
fn hookhost_in(p: &Project, dir: &std::path::Path, args: &[&str]) -> Output {
    p.command().args(args).current_dir(dir).output().unwrap()
}

#[test]
fn commands_find_the_project_above_the_current_directory_and_say_which() {
    let p = guard_project();
    let src = p.path().join("src/deep");
    std::fs::create_dir_all(&src).unwrap();
    let rm = [
        "run",
        "PreToolUse",
        "--tool",
        "bash",
        "--args",
        r#"{"command":"rm -rf /"}"#,
    ];
    // In proj/src/deep the project's guard still holds, as it does in the adapter.
    let out = hookhost_in(&p, &src, &rm);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("using the project at {}", p.path().display())),
        "{err}"
    );
    let list = hookhost_in(&p, &src, &["list", "--json"]);
    assert_eq!(json_of(&list)["hooks"].as_array().map(Vec::len), Some(5));
    // Where no directory at or above is a project, the command says so.
    let nowhere = tempfile::tempdir().unwrap();
    let out = hookhost_in(&p, nowhere.path(), &["check"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no project at or above"), "{err}");
    assert!(err.contains("pass --project DIR"), "{err}");
}

/// `hookhost ARGS --project P` with `stdin`, its stdout a pipe whose
/// reading end is already closed (`hookhost list | head -0`): its exit status and stderr.
/// `explain` and `log` take no `--project`: they read the decision log.
#[cfg(unix)]
fn with_stdout_closed(
    p: &Project,
    args: &[&str],
    stdin: &[u8],
) -> (std::process::ExitStatus, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let input = p.dir.path().join("stdin.json");
    std::fs::write(&input, stdin).unwrap();
    let mut c = p.command();
    c.args(args).current_dir(p.path());
    if !matches!(args.first(), Some(&"explain" | &"log")) {
        c.arg("--project").arg(p.path());
    }
    let out = c
        .stdin(std::fs::File::open(&input).unwrap())
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A closed stdout ends every printing command quietly, as SIGPIPE ends `ls`: no panic, no
/// "Broken pipe" error. The adapter, whose stdout is the agent's pipe, takes a closed one for
/// the agent having left: it still runs and logs the event, and exits as it would have.
#[cfg(unix)]
#[test]
fn a_closed_stdout_ends_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let p = guard_project();
    let pre = [
        "run",
        "PreToolUse",
        "--tool",
        "bash",
        "--args",
        r#"{"command":"ls"}"#,
    ];
    // The event first, so `explain` and `log` have something to print.
    assert!(hookhost(&p, &pre).status.success());
    let run_json = [&pre[..], &["--json"]].concat();
    for args in [
        &["list", "--json"][..],
        &["list"],
        &["check"],
        &["explain"],
        &["log"],
        &["doctor"],
        &run_json,
    ] {
        let (status, stderr) = with_stdout_closed(&p, args, b"");
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "{args:?}: {stderr}"
        );
        assert_eq!(
            status.signal(),
            Some(libc::SIGPIPE),
            "{args:?}: {status:?} {stderr}"
        );
    }
    let payload = json!({
        "session_id": "s1", "transcript_path": "/dev/null", "cwd": p.path(),
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "rm -rf /"},
    });
    let (status, stderr) = with_stdout_closed(
        &p,
        &["hook", "--for", "claude"],
        payload.to_string().as_bytes(),
    );
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{stderr}"
    );
    assert_eq!(status.code(), Some(0), "{status:?} {stderr}");
    let log = Command::new(env!("CARGO_BIN_EXE_hookhost"))
        .args(["log", "--json"])
        .arg("--home")
        .arg(p.home.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_LOG_DIR", p.home.path().join("hookhost-log"))
        .env_remove("HOOKHOST_LOG")
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&log.stdout).contains(r#""session":"s1""#),
        "the adapter's event is logged: {}",
        String::from_utf8_lossy(&log.stdout)
    );
}
