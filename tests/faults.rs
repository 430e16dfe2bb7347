//! Faults: what users and machines do to a running hook host. Each ends in a documented
//! outcome, never a panic or a hang.

mod common;

use common::guests::guest;
use common::{Project, pre_tool};
use hookhost::config::ConfigPaths;
use hookhost::spawner::{HookSpawner, WasmEngineConfig};
use hookhost::{Decision, Event, Outcome, Payload, Runner};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

fn with_hooks(event: &str, hooks: Value) -> Project {
    Project::new(json!({ "hooks": { event: hooks } }))
}

#[tokio::test]
async fn a_hook_file_deleted_between_load_and_run_fails_closed() {
    let p = with_hooks(
        "PreToolUse",
        json!([
            {"command": "./hooks/check.sh", "match": "a"},
            {"command": "hooks/guard.wasm", "match": "b"}
        ]),
    );
    let script = p.write("hooks/check.sh", "#!/bin/sh\nexit 0\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::copy(guest("trivial"), p.path().join("hooks/guard.wasm")).unwrap();
    let runner = p.runner();
    assert_eq!(
        runner
            .fire(pre_tool(&p.path(), "a", json!({})))
            .await
            .decision,
        Decision::Pass
    );
    std::fs::remove_dir_all(p.path().join("hooks")).unwrap();
    for tool in ["a", "b"] {
        let r = runner.fire(pre_tool(&p.path(), tool, json!({}))).await;
        assert_eq!(
            (r.decision, r.hooks[0].outcome),
            (Decision::Block, Outcome::Error),
            "{tool}"
        );
    }
}

#[tokio::test]
async fn the_project_dir_removed_mid_run() {
    let p = with_hooks(
        "PostToolUse",
        json!([
            {"command": "rm -rf \"$HOOK_PROJECT_DIR\""},
            {"command": "pwd"},
            {"command": "hooks/t.wasm"}
        ]),
    );
    std::fs::create_dir_all(p.path().join("hooks")).unwrap();
    std::fs::copy(guest("trivial"), p.path().join("hooks/t.wasm")).unwrap();
    let root = p.path();
    let r = p
        .runner()
        .fire(Payload::neutral(Event::PostToolUse, &root, "s"))
        .await;
    assert!(!root.exists());
    let outcomes: Vec<Outcome> = r.hooks.iter().map(|h| h.outcome).collect();
    assert_eq!(outcomes, [Outcome::Pass, Outcome::Error, Outcome::Error]);
    assert!(
        r.hooks[1]
            .message
            .as_ref()
            .unwrap()
            .contains("does not exist")
    );
}

#[tokio::test]
async fn an_unwritable_compile_cache_only_costs_speed() {
    let p = with_hooks("PreToolUse", json!([{"command": "hooks/t.wasm"}]));
    std::fs::create_dir_all(p.path().join("hooks")).unwrap();
    std::fs::copy(guest("trivial"), p.path().join("hooks/t.wasm")).unwrap();
    // A file where the cache directory should be: nothing can be written under it.
    let blocker = p.cache.path().join("not-a-dir");
    std::fs::write(&blocker, "x").unwrap();
    let spawner = HookSpawner::with_wasm_config(WasmEngineConfig {
        cache_root: Some(blocker.join("cache")),
        ..WasmEngineConfig::default()
    });
    let runner = Runner::builder(p.path())
        .config_paths(p.paths())
        .spawner(std::sync::Arc::new(spawner))
        .build()
        .unwrap();
    for _ in 0..2 {
        let r = runner.fire(pre_tool(&p.path(), "bash", json!({}))).await;
        assert_eq!(r.hooks[0].outcome, Outcome::Pass);
    }
}

#[tokio::test]
async fn non_utf8_output_is_reported_lossily() {
    let p = with_hooks(
        "PreToolUse",
        json!([{"command": "printf 'bad \\377\\376 bytes' >&2; exit 2"}]),
    );
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(r.decision, Decision::Block);
    assert!(
        r.reason.as_ref().unwrap().contains('\u{FFFD}'),
        "{:?}",
        r.reason
    );
    serde_json::to_string(&r).unwrap();
}

#[tokio::test]
async fn a_hook_that_closes_stdout_and_keeps_running_still_times_out() {
    let p = with_hooks(
        "PreToolUse",
        json!([
            {"command": "exec >&- 2>&-; sleep 30", "timeout": 400, "match": "hang"},
            {"command": "exec >&-; sleep 0.3; exit 2", "match": "late"}
        ]),
    );
    let runner = p.runner();
    let start = Instant::now();
    let r = runner.fire(pre_tool(&p.path(), "hang", json!({}))).await;
    assert_eq!(r.hooks[0].outcome, Outcome::Timeout);
    assert!(start.elapsed() < Duration::from_secs(10));
    // Closing stdout early does not end the hook: its exit code still counts.
    let r = runner.fire(pre_tool(&p.path(), "late", json!({}))).await;
    assert_eq!(
        (r.decision, r.hooks[0].exit_code),
        (Decision::Block, Some(2))
    );
}

#[tokio::test]
async fn a_hook_that_ignores_sigterm_is_killed_at_its_timeout() {
    let p = with_hooks(
        "PreToolUse",
        json!([{"command": "trap '' TERM INT HUP; sleep 30", "timeout": 300}]),
    );
    let start = Instant::now();
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Block, Outcome::Timeout)
    );
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[tokio::test]
async fn very_long_argv_fails_cleanly_or_runs() {
    let long = "x".repeat(4 << 20);
    let p = with_hooks(
        "PreToolUse",
        json!([
            {"command": format!("echo {long}"), "match": "shell"},
            {"command": format!("hooks/h.wasm args {}", "y ".repeat(100_000)), "match": "wasm"}
        ]),
    );
    std::fs::create_dir_all(p.path().join("hooks")).unwrap();
    std::fs::copy(guest("hostile"), p.path().join("hooks/h.wasm")).unwrap();
    let runner = p.runner();
    // 4 MiB of argv exceeds the kernel's limit: the shell cannot start (E2BIG).
    let r = runner.fire(pre_tool(&p.path(), "shell", json!({}))).await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Block, Outcome::Error)
    );
    assert!(
        r.hooks[0]
            .message
            .as_ref()
            .unwrap()
            .contains("cannot start the shell")
    );
    // A wasm guest has no such limit: 100,000 arguments arrive.
    let r = runner.fire(pre_tool(&p.path(), "wasm", json!({}))).await;
    assert_eq!(r.hooks[0].outcome, Outcome::Pass);
    assert_eq!(r.hooks[0].stdout.trim().split('|').count(), 100_002);
}

#[tokio::test]
async fn the_config_is_a_snapshot_until_reload() {
    let p = with_hooks("PreToolUse", json!([{"command": "exit 0"}]));
    let runner = p.runner();
    p.write(
        ".coding-agent/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"command": "exit 2"}]}}).to_string(),
    );
    let fire = || runner.fire(pre_tool(&p.path(), "bash", json!({})));
    assert_eq!(
        fire().await.decision,
        Decision::Pass,
        "an edit changes nothing before reload"
    );
    runner.reload().unwrap();
    assert_eq!(fire().await.decision, Decision::Block);
    p.write(".coding-agent/hooks.json", "{ broken");
    assert!(runner.reload().is_err());
    assert_eq!(
        fire().await.decision,
        Decision::Block,
        "a failed reload keeps the old snapshot"
    );
}

#[test]
fn home_unset_still_works() {
    let p = with_hooks("PreToolUse", json!([{"command": "exit 2"}]));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hookhost"))
        .args([
            "run",
            "PreToolUse",
            "--tool",
            "bash",
            "--json",
            "--trust",
            "all",
            "--project",
        ])
        .arg(p.path())
        .env_remove("HOME")
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["decision"], "block");
    let none = ConfigPaths::with_home(&p.path(), None);
    assert!(none.global_file.is_none());
    assert_eq!(hookhost::config::load(&none).unwrap().len(), 1);
}
