//! Claude Code's command fields end to end, with real processes: the exec form (`args`, and
//! the native `"command"` + `"args"`), `shell`, and `onFailure: "block"` (the native
//! `onError`) on each way a hook can fail.

mod common;

use common::{Project, pre_tool, summary};
use hookhost::{Decision, Event, Outcome, Payload};
use serde_json::{Value, json};

/// A project with no native hooks and this `.claude/settings.json`.
fn claude_project(settings: Value) -> Project {
    let p = Project::new(json!({"hooks": {}}));
    p.write(".claude/settings.json", &settings.to_string());
    p
}

fn claude_hooks(event: &str, matcher: &str, hooks: Value) -> Value {
    json!({"hooks": {event: [{"matcher": matcher, "hooks": hooks}]}})
}

#[tokio::test]
async fn claudes_exec_form_runs_the_program_with_each_argument_intact() {
    let p = claude_project(claude_hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "command", "command": "sh",
                "args": ["${CLAUDE_PROJECT_DIR}/guard.sh", "a b; touch pwned", "$HOME"]}]),
    ));
    // Writes its arguments one per line, then blocks with how many it got.
    p.write(
        "guard.sh",
        "printf '%s\\n' \"$@\" > \"$CLAUDE_PROJECT_DIR/args.txt\"; echo \"guard ran with $# arguments\" >&2; exit 2\n",
    );
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({"command": "ls"})))
        .await;
    assert_eq!(r.decision, Decision::Block, "{}", summary(&r));
    assert_eq!(r.reason.as_deref(), Some("guard ran with 2 arguments"));
    // No shell ran the words: the `;` is text, `$HOME` is not a placeholder hookhost fills.
    assert_eq!(p.read("args.txt"), "a b; touch pwned\n$HOME\n");
    assert!(!p.path().join("pwned").exists());
    assert_eq!(
        r.hooks[0].command,
        "sh \"${CLAUDE_PROJECT_DIR}/guard.sh\" \"a b; touch pwned\" \"\\$HOME\""
    );
}

#[tokio::test]
async fn the_native_exec_form_finds_its_program_on_path_or_says_it_is_missing() {
    let p = Project::new(json!({"hooks": {
        "PreToolUse": [{"command": "sh", "args": ["-c", "echo \"$0\" > out.txt; exit 0", "x y"]}],
        "PostToolUse": [{"command": "no-such-program-hookhost-test", "args": ["a"]}]
    }}));
    let runner = p.runner();
    let r = runner
        .fire(pre_tool(&p.path(), "bash", json!({"command": "ls"})))
        .await;
    assert_eq!(r.decision, Decision::Pass, "{}", summary(&r));
    assert_eq!(p.read("out.txt"), "x y\n");
    let r = runner
        .fire(Payload::post_tool_use(
            &p.path(),
            "s",
            "bash",
            json!({"command": "ls"}),
            json!("ok"),
            false,
        ))
        .await;
    let message = r.hooks[0].message.clone().unwrap_or_default();
    assert_eq!(r.hooks[0].outcome, Outcome::Error, "{}", summary(&r));
    assert!(
        message.contains(
            "cannot start `no-such-program-hookhost-test`: there is no program of that name on PATH"
        ),
        "{message}"
    );
}

#[tokio::test]
async fn a_missing_program_blocks_a_native_guard() {
    let p = Project::new(json!({"hooks": {
        "PreToolUse": [{"command": "./guards/missing.sh", "args": []}]
    }}));
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({"command": "ls"})))
        .await;
    assert_eq!(r.decision, Decision::Block, "{}", summary(&r));
    let message = r.hooks[0].message.clone().unwrap_or_default();
    assert!(
        message.contains("does not exist; fix `command`"),
        "{message}"
    );
}

#[tokio::test]
async fn shell_bash_runs_the_command_with_bash() {
    // An array is bash's, not sh's (dash rejects it).
    let p = Project::new(json!({"hooks": {"Stop": [
        {"command": "a=(x y); echo \"${a[1]}\" > out.txt", "shell": "bash"}
    ]}}));
    let r = p
        .runner()
        .fire(Payload::stop(Event::Stop, &p.path(), "s", false))
        .await;
    assert_eq!(r.hooks[0].outcome, Outcome::Pass, "{}", summary(&r));
    assert_eq!(p.read("out.txt"), "y\n");
}

#[cfg(unix)]
#[test]
fn a_missing_interpreter_is_the_hooks_outcome() {
    // A PATH with `sh` alone: no pwsh, whatever the machine has.
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "Write-Output hi", "shell": "powershell"}
    ]}}));
    let bin = p.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink("/bin/sh", bin.join("sh")).unwrap();
    let out = p.cli(
        &["run", "PreToolUse", "--tool", "bash", "--json"],
        &[("PATH", bin.to_str().unwrap())],
    );
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(report["decision"], "block", "{report}");
    let message = report["hooks"][0]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("the hook's `shell` is \"powershell\", but there is no `pwsh` on PATH"),
        "{report}"
    );
}

/// Each way a hook fails, as a Claude Code PreToolUse hook: the command and its `timeout`.
fn failures() -> [(&'static str, Value); 4] {
    [
        ("crash", json!({"type": "command", "command": "kill -9 $$"})),
        (
            "timeout",
            json!({"type": "command", "command": "sleep 30", "timeout": 1}),
        ),
        (
            "unreadable answer",
            json!({"type": "command", "command": "echo '{\"decision\": '"}),
        ),
        (
            "cannot start",
            json!({"type": "command", "command": "no-such-program-hookhost-test", "args": []}),
        ),
    ]
}

#[tokio::test]
async fn on_failure_block_fails_closed_on_every_kind_of_failure() {
    for (kind, hook) in failures() {
        let mut blocking = hook.clone();
        blocking["onFailure"] = json!("block");
        let p = claude_project(claude_hooks("PreToolUse", "Bash", json!([blocking])));
        let r = p
            .runner()
            .fire(pre_tool(&p.path(), "bash", json!({"command": "ls"})))
            .await;
        assert_eq!(r.decision, Decision::Block, "{kind}: {}", summary(&r));
        // Claude Code's default: a failure lets the call through, but an unreadable answer
        // to a guard never counts as a pass in hookhost.
        let p = claude_project(claude_hooks("PreToolUse", "Bash", json!([hook])));
        let r = p
            .runner()
            .fire(pre_tool(&p.path(), "bash", json!({"command": "ls"})))
            .await;
        let expected = if kind == "unreadable answer" {
            Decision::Block
        } else {
            Decision::Pass
        };
        assert_eq!(
            r.decision,
            expected,
            "{kind} without onFailure: {}",
            summary(&r)
        );
    }
}

#[tokio::test]
async fn on_failure_block_denies_a_permission_request_whatever_the_failure() {
    for (kind, mut hook) in failures() {
        hook["onFailure"] = json!("block");
        let p = claude_project(claude_hooks("PermissionRequest", "Bash", json!([hook])));
        let r = p
            .runner()
            .fire(Payload::permission_request(
                &p.path(),
                "s",
                "bash",
                json!({"command": "ls"}),
                "rule",
            ))
            .await;
        assert_eq!(r.decision, Decision::Block, "{kind}: {}", summary(&r));
    }
}

#[tokio::test]
async fn on_failure_block_only_warns_where_nothing_can_be_blocked() {
    let p = claude_project(claude_hooks(
        "PostToolUse",
        "Bash",
        json!([{"type": "command", "command": "kill -9 $$", "onFailure": "block"}]),
    ));
    let r = p
        .runner()
        .fire(Payload::post_tool_use(
            &p.path(),
            "s",
            "bash",
            json!({"command": "ls"}),
            json!("ok"),
            false,
        ))
        .await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Pass, Outcome::Warn),
        "{}",
        summary(&r)
    );
}

#[test]
fn once_runs_a_hook_once_per_session_across_processes() {
    let p = Project::new(json!({"hooks": {"UserPromptSubmit": [
        {"command": "echo ran >> once.log", "once": true},
        {"command": "echo ran >> every.log"}
    ]}}));
    // One process per event, as an agent's adapter runs: the mark outlives each.
    for session in ["s-1", "s-1", "s-1", "s-2"] {
        let out = p.cli(&["run", "UserPromptSubmit", "--session", session], &[]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(p.read("once.log"), "ran\nran\n");
    assert_eq!(p.read("every.log").lines().count(), 4);
    // The mark is hookhost's own state, not the project's.
    let in_project = walk(&p.path());
    assert!(
        in_project.iter().all(|f| !f.contains("once-")),
        "{in_project:?}"
    );
    assert!(walk(p.cache.path()).iter().any(|f| f.contains("once-")));
}

/// Every file under `dir`, as text.
fn walk(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path.display().to_string());
        }
    }
    out
}

#[test]
fn status_message_is_shown_by_list_and_run() {
    let p = claude_project(claude_hooks(
        "PreToolUse",
        "Bash",
        json!([{"type": "command", "command": "true", "statusMessage": "Checking the command"}]),
    ));
    for args in [
        &["list"][..],
        &[
            "run",
            "PreToolUse",
            "--tool",
            "Bash",
            "--args",
            "{\"command\": \"ls\"}",
        ][..],
    ] {
        let out = p.cli(args, &[]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Checking the command"), "{args:?}: {text}");
    }
    let out = p.cli(&["list", "--json"], &[]);
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        listed["hooks"][0]["statusMessage"], "Checking the command",
        "{listed}"
    );
}

/// Whether a background hook of the project has finished (its exit code is recorded in
/// hookhost's per-session state, under the cache directory).
fn rewake_finished(p: &Project) -> bool {
    walk(p.cache.path())
        .iter()
        .any(|f| f.contains("/rewake/") && f.ends_with("/status"))
}

#[cfg(unix)]
#[test]
fn async_rewake_runs_detached_and_its_exit_2_wakes_the_next_event_of_the_session() {
    // The hook waits for `go` (at most ~20 s, so a broken test ends): the event that starts
    // it must not wait for it.
    let hook = "i=0; while [ ! -f go ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; \
                echo 'the background tests failed' >&2; exit 2";
    let p = claude_project(claude_hooks(
        "PostToolUse",
        "Bash",
        json!([{"type": "command", "command": hook, "asyncRewake": true}]),
    ));
    let post = [
        "run",
        "PostToolUse",
        "--session",
        "s-1",
        "--tool",
        "Bash",
        "--json",
    ];
    let out = p.cli(&post, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The event returned while the hook still waits: nothing of it in this event.
    assert!(
        !rewake_finished(&p),
        "the event waited for the background hook"
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["hooks"].as_array().map(Vec::len),
        Some(0),
        "{report}"
    );
    std::fs::write(p.path().join("go"), "").unwrap();
    while !rewake_finished(&p) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // Another session's event does not get it.
    let other = p.cli(
        &["run", "UserPromptSubmit", "--session", "s-2", "--json"],
        &[],
    );
    let other: Value = serde_json::from_slice(&other.stdout).unwrap();
    assert_eq!(other["hooks"].as_array().map(Vec::len), Some(0), "{other}");
    // The session's next event that can carry it does, once.
    let prompt = ["run", "UserPromptSubmit", "--session", "s-1", "--json"];
    let woke: Value = serde_json::from_slice(&p.cli(&prompt, &[]).stdout).unwrap();
    assert_eq!(
        woke["additionalContext"],
        json!(["the background tests failed"]),
        "{woke}"
    );
    assert_eq!(woke["hooks"][0]["hook"], "PostToolUse[0]", "{woke}");
    let again: Value = serde_json::from_slice(&p.cli(&prompt, &[]).stdout).unwrap();
    assert_eq!(again["hooks"].as_array().map(Vec::len), Some(0), "{again}");
}

#[cfg(unix)]
#[test]
fn async_rewake_keeps_a_stopping_agent_going_and_ignores_other_exits() {
    let p = claude_project(claude_hooks(
        "PostToolUse",
        "Bash",
        json!([{"type": "command", "command": "echo 'lint found 3 errors'; exit 2", "asyncRewake": true}]),
    ));
    let post = ["run", "PostToolUse", "--session", "s-1", "--tool", "Bash"];
    assert!(p.cli(&post, &[]).status.success());
    while !rewake_finished(&p) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // stdout when stderr is empty; the agent about to stop goes on with it.
    let stop: Value = serde_json::from_slice(
        &p.cli(&["run", "Stop", "--session", "s-1", "--json"], &[])
            .stdout,
    )
    .unwrap();
    assert_eq!(stop["decision"], "force", "{stop}");
    assert_eq!(stop["reason"], "lint found 3 errors", "{stop}");

    let quiet = claude_project(claude_hooks(
        "PostToolUse",
        "Bash",
        json!([{"type": "command", "command": "echo fine; exit 1", "asyncRewake": true}]),
    ));
    assert!(quiet.cli(&post, &[]).status.success());
    while !rewake_finished(&quiet) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let stop: Value = serde_json::from_slice(
        &quiet
            .cli(&["run", "Stop", "--session", "s-1", "--json"], &[])
            .stdout,
    )
    .unwrap();
    assert_eq!(stop["decision"], "pass", "{stop}");
}

/// `hookhost hook --for claude` with `payload` on stdin: its answer on stdout, as JSON.
fn adapter(p: &Project, payload: &Value) -> Value {
    use std::io::Write;
    let mut c = p.command();
    c.args(["hook", "--for", "claude", "--project"])
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
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
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or(Value::Null)
}

/// Through Claude Code's adapter, one process per event: the exec form runs, and a
/// background hook's exit 2 reaches the session's next prompt as Claude Code's
/// `additionalContext`.
#[cfg(unix)]
#[test]
fn under_claudes_adapter_the_exec_form_runs_and_a_rewake_reaches_the_next_prompt() {
    // The user's own hooks: the adapter trusts them (a project's would need `hookhost trust`).
    let p = Project::new(json!({"hooks": {}}));
    p.write_global(json!({"hooks": {
        "PreToolUse": [{"command": "sh", "args": ["-c", "echo \"no: $1\" >&2; exit 2", "guard", "rm -rf /"]}],
        "PostToolUse": [{"command": "echo 'the build broke' >&2; exit 2", "asyncRewake": true}]
    }}));
    let event = |name: &str, extra: Value| {
        let mut v = json!({"session_id": "claude-s", "transcript_path": "/dev/null",
            "cwd": p.path(), "hook_event_name": name});
        v.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        v
    };
    let pre = adapter(
        &p,
        &event(
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
        ),
    );
    assert_eq!(
        pre["hookSpecificOutput"]["permissionDecision"], "deny",
        "{pre}"
    );
    assert_eq!(
        pre["hookSpecificOutput"]["permissionDecisionReason"], "no: rm -rf /",
        "{pre}"
    );
    adapter(
        &p,
        &event(
            "PostToolUse",
            json!({"tool_name": "Bash", "tool_input": {"command": "make"}, "tool_response": {"stdout": ""}}),
        ),
    );
    while !rewake_finished(&p) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let prompt = adapter(&p, &event("UserPromptSubmit", json!({"prompt": "go on"})));
    assert_eq!(
        prompt["hookSpecificOutput"]["additionalContext"], "the build broke",
        "{prompt}"
    );
}

/// A `once` hook whose `if` holds only on a rewritten call first runs in the event's second
/// pass: that is its one run of the session too.
#[test]
fn once_holds_for_a_hook_first_started_by_a_rewrite() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "echo ran >> once.log", "if": "Bash(git *)", "once": true},
        {"command": "printf '{\"updatedInput\": {\"command\": \"git status\"}}'", "match": "bash"}
    ]}}));
    let args = [
        "run",
        "PreToolUse",
        "--tool",
        "bash",
        "--args",
        "{\"command\": \"ls\"}",
        "--session",
        "s-1",
    ];
    for _ in 0..3 {
        let out = p.cli(&args, &[]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    assert_eq!(p.read("once.log"), "ran\n");
}
