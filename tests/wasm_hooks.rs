//! WebAssembly hooks end to end: real guests from guest-examples/ under the real engine.
//! Hostile guests check each row of DESIGN §5's outcome table and the sandbox, and that the
//! next event afterwards runs normally.

mod common;

use common::guests::guest;
use common::{Project, pre_tool};
use hookhost::spawner::{HookSpawner, WasmEngineConfig, WasmSpawner};
use hookhost::{Decision, Event, EventReport, Outcome, Payload, Runner};
use serde_json::{Value, json};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// A project with the named guests copied to `hooks/` and `hooks` as its PreToolUse list.
fn project(guests: &[&str], hooks: Value) -> Project {
    let p = Project::new(json!({ "hooks": { "PreToolUse": hooks } }));
    for g in guests {
        std::fs::create_dir_all(p.path().join("hooks")).unwrap();
        std::fs::copy(guest(g), p.path().join(format!("hooks/{g}.wasm"))).unwrap();
    }
    p
}

fn hostile(mode: &str, extra: Value) -> Value {
    let mut h = json!({ "command": format!("hooks/hostile.wasm {mode}") });
    if let (Some(obj), Some(more)) = (h.as_object_mut(), extra.as_object()) {
        obj.extend(more.clone());
    }
    h
}

async fn fire(runner: &Runner, p: &Project) -> EventReport {
    runner
        .fire(pre_tool(&p.path(), "bash", json!({"command": "ls"})))
        .await
}

/// After a hostile run, the same runner still runs a well-behaved guest normally.
async fn next_event_runs_normally(runner: &Runner, p: &Project) {
    let r = runner
        .fire(Payload::pre_tool_use(&p.path(), "s", "probe", json!({})))
        .await;
    assert_eq!(r.decision, Decision::Pass, "{}", common::summary(&r));
}

/// One hostile hook (matching tool "bash") plus a passing probe hook (matching "probe").
fn hostile_project(mode: &str, extra: Value) -> Project {
    let mut h = hostile(mode, extra);
    h["match"] = json!("bash");
    project(
        &["hostile"],
        json!([h, {"command": "hooks/hostile.wasm args", "match": "probe"}]),
    )
}

#[tokio::test]
async fn exit_codes_map_like_a_process() {
    let p = project(
        &["hostile", "trivial"],
        json!([
            {"command": "hooks/trivial.wasm", "match": "t0"},
            {"command": "hooks/hostile.wasm exit 5", "match": "t5"},
            {"command": "hooks/hostile.wasm exit 200", "match": "t200"},
            {"command": "hooks/hostile.wasm stderr-exit 'not today'", "match": "t2"},
            {"command": "hooks/hostile.wasm trap", "match": "trap"}
        ]),
    );
    let runner = p.runner();
    let run = |tool: &'static str| {
        let payload = pre_tool(&p.path(), tool, json!({}));
        let runner = &runner;
        async move { runner.fire(payload).await }
    };
    let r = run("t0").await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome, r.hooks[0].exit_code),
        (Decision::Pass, Outcome::Pass, Some(0))
    );
    let r = run("t5").await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome, r.hooks[0].exit_code),
        (Decision::Pass, Outcome::Warn, Some(5))
    );
    let r = run("t200").await;
    assert_eq!(
        (r.hooks[0].outcome, r.hooks[0].exit_code),
        (Outcome::Warn, None)
    );
    assert!(
        r.hooks[0].message.as_ref().unwrap().contains("126"),
        "{}",
        common::summary(&r)
    );
    let r = run("t2").await;
    assert_eq!(
        (r.decision, r.reason.as_deref()),
        (Decision::Block, Some("not today"))
    );
    let r = run("trap").await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome, r.hooks[0].exit_code),
        (Decision::Pass, Outcome::Warn, None)
    );
    assert!(
        r.hooks[0].stderr.contains("wasm trap"),
        "{}",
        common::summary(&r)
    );
}

#[tokio::test]
async fn an_infinite_loop_runs_out_of_fuel_and_blocks() {
    let p = hostile_project("loop", json!({"timeout": 1000}));
    let runner = p.runner();
    let r = fire(&runner, &p).await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Block, Outcome::Timeout),
        "{}",
        common::summary(&r)
    );
    next_event_runs_normally(&runner, &p).await;
}

#[tokio::test]
async fn fuel_is_deterministic() {
    // The same guest and input: under the budget it passes, over it times out, every time.
    let p = project(
        &["hostile"],
        json!([
            {"command": "hooks/hostile.wasm spin 100000", "fuel": 100_000_000, "match": "enough"},
            {"command": "hooks/hostile.wasm spin 100000", "fuel": 100_000, "match": "short"}
        ]),
    );
    let runner = p.runner();
    for _ in 0..3 {
        let r = runner.fire(pre_tool(&p.path(), "enough", json!({}))).await;
        assert_eq!(r.hooks[0].outcome, Outcome::Pass);
        let r = runner.fire(pre_tool(&p.path(), "short", json!({}))).await;
        assert_eq!(r.hooks[0].outcome, Outcome::Timeout);
    }
}

#[tokio::test]
async fn a_memory_bomb_hits_the_cap_and_crashes() {
    let p = hostile_project("membomb", json!({"memory": 64}));
    let runner = p.runner();
    let r = fire(&runner, &p).await;
    let h = &r.hooks[0];
    assert_eq!(
        (r.decision, h.outcome, h.exit_code),
        (Decision::Pass, Outcome::Warn, None),
        "{}",
        common::summary(&r)
    );
    assert!(h.stderr.contains("wasm trap"));
    next_event_runs_normally(&runner, &p).await;
}

#[tokio::test]
async fn unbounded_recursion_crashes() {
    let p = hostile_project("recurse", json!({}));
    let runner = p.runner();
    let r = fire(&runner, &p).await;
    assert_eq!(
        (r.hooks[0].outcome, r.hooks[0].exit_code),
        (Outcome::Warn, None),
        "{}",
        common::summary(&r)
    );
    assert!(r.hooks[0].message.as_ref().unwrap().contains("crashed"));
    next_event_runs_normally(&runner, &p).await;
}

#[tokio::test]
async fn an_output_flood_is_truncated_at_one_mib() {
    let p = hostile_project("flood", json!({}));
    let runner = p.runner();
    let r = fire(&runner, &p).await;
    let h = &r.hooks[0];
    assert_eq!(h.outcome, Outcome::Pass);
    assert!(h.truncated);
    assert_eq!(h.stdout.len(), 1 << 20);
    next_event_runs_normally(&runner, &p).await;
}

#[tokio::test]
async fn a_sleeping_guest_is_stopped_by_the_wall_clock() {
    let p = hostile_project("sleep", json!({"timeout": 1000}));
    let runner = p.runner();
    let start = Instant::now();
    let r = fire(&runner, &p).await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Block, Outcome::Timeout)
    );
    // An outcome bound, not a benchmark: without the backstop this takes 60 s.
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    next_event_runs_normally(&runner, &p).await;
}

/// Runs a probe guest (`read`, `write`, `list`) with `fs` and returns its stdout.
async fn probe(p: &Project, fs: &str, mode: &str, arg: &str) -> String {
    let hooks = json!([{ "command": format!("hooks/hostile.wasm {mode} '{arg}'"), "fs": fs }]);
    p.write(
        ".coding-agent/hooks.json",
        &json!({"hooks": {"PreToolUse": hooks}}).to_string(),
    );
    let r = fire(&p.runner(), p).await;
    assert_eq!(r.hooks[0].outcome, Outcome::Pass, "{}", common::summary(&r));
    r.hooks[0].stdout.trim().to_string()
}

#[tokio::test]
async fn the_filesystem_sandbox_holds() {
    let p = project(&["hostile"], json!([]));
    let root = p.path();
    p.write("inside.txt", "inside");
    let outside_dir = tempfile::TempDir::new().unwrap();
    let outside = outside_dir
        .path()
        .canonicalize()
        .unwrap()
        .join("secret.txt");
    std::fs::write(&outside, "top secret").unwrap();
    let parent_file = root.parent().unwrap().join(format!(
        "{}-sibling.txt",
        root.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&parent_file, "sibling").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, root.join("link-out")).unwrap();

    // Inside: relative and absolute paths work.
    assert_eq!(probe(&p, "read", "read", "inside.txt").await, "ok:inside");
    let abs_inside = root.join("inside.txt");
    assert_eq!(
        probe(&p, "read", "read", abs_inside.to_str().unwrap()).await,
        "ok:inside"
    );

    // Outside: `..`, absolute paths, outward symlinks all fail.
    let dotdot = format!("../{}", parent_file.file_name().unwrap().to_string_lossy());
    assert!(probe(&p, "read", "read", &dotdot).await.starts_with("err:"));
    assert!(
        probe(&p, "read", "read", outside.to_str().unwrap())
            .await
            .starts_with("err:")
    );
    assert!(
        probe(&p, "read", "read", "/etc/passwd")
            .await
            .starts_with("err:")
    );
    // wasi-libc resolves "/" against a preopen; whatever it lists must be inside the project.
    let root_listing = probe(&p, "read", "list", "/").await;
    if let Some(names) = root_listing.strip_prefix("ok:") {
        for name in names.split(',') {
            assert!(
                root.join(name).symlink_metadata().is_ok(),
                "{name} is not in the project: {root_listing}"
            );
        }
    }
    #[cfg(unix)]
    assert!(
        probe(&p, "read", "read", "link-out")
            .await
            .starts_with("err:")
    );

    // Read-only by default; writable with fs: write; nothing with fs: none.
    assert!(
        probe(&p, "read", "write", "new.txt")
            .await
            .starts_with("err:")
    );
    assert!(!root.join("new.txt").exists());
    assert_eq!(probe(&p, "write", "write", "new.txt").await, "ok:written");
    assert_eq!(
        std::fs::read_to_string(root.join("new.txt")).unwrap(),
        "written by a guest"
    );
    assert!(
        probe(
            &p,
            "write",
            "write",
            outside_dir.path().join("x").to_str().unwrap()
        )
        .await
        .starts_with("err:")
    );
    assert!(
        probe(&p, "none", "read", "inside.txt")
            .await
            .starts_with("err:")
    );
    std::fs::remove_file(parent_file).unwrap();
}

#[tokio::test]
async fn no_network() {
    let p = hostile_project("net", json!({}));
    let r = fire(&p.runner(), &p).await;
    assert!(
        r.hooks[0].stdout.starts_with("err:"),
        "{}",
        common::summary(&r)
    );
}

#[test]
fn no_host_environment_leaks() {
    let p = project(
        &["hostile"],
        json!([{ "command": "hooks/hostile.wasm env", "env": ["HOOKHOST_TEST_ALLOWED"] }]),
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hookhost"))
        .args([
            "run",
            "PreToolUse",
            "--tool",
            "bash",
            "--json",
            "--trust",
            "all",
        ])
        .arg("--project")
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .env("HOOKHOST_TEST_SECRET", "hunter2")
        .env("HOOKHOST_TEST_ALLOWED", "visible")
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let env = v["hooks"][0]["stdout"].as_str().unwrap();
    let mut names: Vec<&str> = env.lines().map(|l| l.split('=').next().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        ["HOOKHOST_TEST_ALLOWED", "HOOK_EVENT", "HOOK_PROJECT_DIR"],
        "{env}"
    );
    assert!(env.contains("HOOKHOST_TEST_ALLOWED=visible"));
    assert!(env.contains("HOOK_EVENT=PreToolUse"));
    assert!(!env.contains("hunter2"));
}

#[tokio::test]
async fn argv_and_stdin_reach_the_guest() {
    let p = project(
        &["hostile"],
        json!([
            {"command": "hooks/hostile.wasm args one 'two words'", "match": "a"},
            {"command": "hooks/hostile.wasm echo", "match": "e"}
        ]),
    );
    let runner = p.runner();
    let r = runner.fire(pre_tool(&p.path(), "a", json!({}))).await;
    assert_eq!(
        r.hooks[0].stdout.trim(),
        "hooks/hostile.wasm|args|one|two words"
    );
    let r = runner
        .fire(pre_tool(&p.path(), "e", json!({"command": "ls"})))
        .await;
    let echoed: Value = serde_json::from_str(&r.hooks[0].stdout).unwrap();
    assert_eq!(echoed["toolArgs"], json!({"command": "ls"}));
    assert_eq!(echoed["event"], "PreToolUse");
}

#[tokio::test]
async fn bad_modules_are_spawn_failures_that_block() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "hooks/missing.wasm", "match": "missing"},
        {"command": "hooks/garbage.wasm", "match": "garbage"},
        {"command": "hooks/imports.wasm", "match": "imports"},
        {"command": "hooks/library.wasm", "match": "library"}
    ]}}));
    p.write("hooks/garbage.wasm", "this is not wasm");
    let imports = wat::parse_str(
        r#"(module (import "env" "launch_missiles" (func)) (func (export "_start")))"#,
    )
    .unwrap();
    std::fs::write(p.path().join("hooks/imports.wasm"), imports).unwrap();
    let library = wat::parse_str(r#"(module (func (export "helper")))"#).unwrap();
    std::fs::write(p.path().join("hooks/library.wasm"), library).unwrap();
    let runner = p.runner();
    for (tool, needle) in [
        ("missing", "cannot read wasm module"),
        ("garbage", "not a WebAssembly binary"),
        ("imports", "launch_missiles"),
        ("library", "no `_start`"),
    ] {
        let r = runner.fire(pre_tool(&p.path(), tool, json!({}))).await;
        assert_eq!(
            (r.decision, r.hooks[0].outcome),
            (Decision::Block, Outcome::Error),
            "{tool}"
        );
        let msg = r.hooks[0].message.clone().unwrap();
        assert!(msg.contains(needle), "{tool}: {msg}");
    }
}

#[tokio::test]
async fn sdk_examples_guard_bash_and_paths_and_log_audits() {
    let p = project(
        &["bash-guard", "path-guard"],
        json!([
            {"command": "hooks/bash-guard.wasm", "match": "bash"},
            {"command": "hooks/path-guard.wasm secrets/", "match": "write_file|edit_file"}
        ]),
    );
    let runner = p.runner();
    let root = p.path();
    let r = runner
        .fire(pre_tool(&root, "bash", json!({"command": "rm  -rf /"})))
        .await;
    assert_eq!(r.decision, Decision::Block);
    assert!(r.reason.unwrap().contains("deletes the whole filesystem"));
    let r = runner
        .fire(pre_tool(&root, "bash", json!({"command": "cargo test"})))
        .await;
    assert_eq!(r.decision, Decision::Pass);
    for (path, blocked) in [
        (".env", true),
        (".git/config", true),
        ("secrets/key.pem", true),
        ("sub/.env", true),
        ("src/main.rs", false),
        (".envrc", false),
    ] {
        let r = runner
            .fire(pre_tool(
                &root,
                "write_file",
                json!({"path": path, "content": "x"}),
            ))
            .await;
        assert_eq!(
            r.decision == Decision::Block,
            blocked,
            "{path}: {}",
            common::summary(&r)
        );
    }
    let abs = root.join(".git/HEAD");
    let r = runner
        .fire(pre_tool(&root, "edit_file", json!({"path": abs})))
        .await;
    assert_eq!(r.decision, Decision::Block);

    // The audit logger appends with fs: write, and warns (not fails the event) without it.
    let audit = Project::new(json!({"hooks": {"PostToolUse": [
        {"command": "hooks/audit-log.wasm", "fs": "write"},
        {"command": "hooks/audit-log.wasm .coding-agent/readonly.log"}
    ]}}));
    std::fs::create_dir_all(audit.path().join("hooks")).unwrap();
    std::fs::copy(
        guest("audit-log"),
        audit.path().join("hooks/audit-log.wasm"),
    )
    .unwrap();
    let runner = audit.runner();
    for cmd in ["ls", "pwd"] {
        let payload = Payload::post_tool_use(
            &audit.path(),
            "s1",
            "bash",
            json!({"command": cmd}),
            json!("ok"),
            false,
        );
        let r = runner.fire(payload).await;
        assert_eq!(r.hooks[0].outcome, Outcome::Pass, "{}", common::summary(&r));
        assert_eq!(r.hooks[1].outcome, Outcome::Warn);
    }
    let log = audit.read(".coding-agent/audit.log");
    let lines: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["args"]["command"], "pwd");
    assert_eq!(lines[0]["session"], "s1");
}

#[tokio::test]
async fn compiled_code_is_cached_on_disk_and_edits_are_picked_up() {
    let p = project(
        &["bash-guard", "trivial"],
        json!([{"command": "hooks/guard.wasm", "match": "bash"}]),
    );
    let module = p.path().join("hooks/guard.wasm");
    std::fs::copy(guest("bash-guard"), &module).unwrap();
    let spawner = || WasmSpawner::new(p.wasm_config()).unwrap();

    let first = spawner();
    first.prepare_file(&module).await.unwrap();
    first.prepare_file(&module).await.unwrap();
    assert_eq!(first.stats().compiled.load(Ordering::Relaxed), 1);
    assert_eq!(first.stats().memory_hits.load(Ordering::Relaxed), 1);

    // A fresh engine (a new hookhost process) loads from disk instead of compiling.
    let second = spawner();
    second.prepare_file(&module).await.unwrap();
    assert_eq!(second.stats().compiled.load(Ordering::Relaxed), 0);
    assert_eq!(second.stats().disk_hits.load(Ordering::Relaxed), 1);

    // Editing the .wasm is picked up by a running engine.
    std::fs::copy(guest("trivial"), &module).unwrap();
    second.prepare_file(&module).await.unwrap();
    assert_eq!(second.stats().compiled.load(Ordering::Relaxed), 1);
    let runner = Runner::builder(p.path())
        .hooks(hookhost::config::load(&p.paths()).unwrap())
        .spawner(std::sync::Arc::new(HookSpawner::with_wasm_config(
            p.wasm_config(),
        )))
        .build()
        .unwrap();
    let r = runner
        .fire(pre_tool(&p.path(), "bash", json!({"command": "rm -rf /"})))
        .await;
    assert_eq!(r.decision, Decision::Pass, "the trivial guest now answers");

    // Corrupt every cache entry: it is rebuilt, never trusted.
    let cache_files: Vec<_> = walk(p.cache.path());
    assert!(!cache_files.is_empty());
    for f in &cache_files {
        let mut bytes = std::fs::read(f).unwrap();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0xff;
        std::fs::write(f, bytes).unwrap();
    }
    let third = spawner();
    third.prepare_file(&module).await.unwrap();
    assert_eq!(third.stats().compiled.load(Ordering::Relaxed), 1);
    assert_eq!(third.stats().disk_hits.load(Ordering::Relaxed), 0);
    let fourth = spawner();
    fourth.prepare_file(&module).await.unwrap();
    assert_eq!(
        fourth.stats().disk_hits.load(Ordering::Relaxed),
        1,
        "the rebuilt entry is used"
    );
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let path = e.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[tokio::test]
async fn wasm_hooks_work_on_every_event_kind() {
    let p = Project::new(json!({"hooks": {
        "Stop": [{"command": "hooks/hostile.wasm args"}],
        "UserPromptSubmit": [{"command": "hooks/hostile.wasm stderr-exit nope"}]
    }}));
    std::fs::create_dir_all(p.path().join("hooks")).unwrap();
    std::fs::copy(guest("hostile"), p.path().join("hooks/hostile.wasm")).unwrap();
    let runner = p.runner();
    let r = runner
        .fire(Payload::neutral(Event::Stop, &p.path(), "s"))
        .await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Pass, Outcome::Pass)
    );
    let r = runner
        .fire(Payload::neutral(Event::UserPromptSubmit, &p.path(), "s"))
        .await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Pass, Outcome::Warn)
    );
}

#[test]
fn default_fuel_is_derived_from_the_timeout() {
    let w = WasmSpawner::new(WasmEngineConfig {
        cache_root: None,
        ..WasmEngineConfig::default()
    })
    .unwrap();
    assert_eq!(
        w.fuel_for(Duration::from_millis(10_000)),
        10_000 * hookhost::spawner::wasm::FUEL_PER_MS
    );
}

// ---- Instances made ahead of their events (a long-lived runner) ----

/// Assembles `wat` into the module `rel` of project `p`.
fn write_wat(p: &Project, rel: &str, wat: &str) {
    let path = p.path().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, wat::parse_str(wat).unwrap()).unwrap();
}

/// A runner of `p` that makes every next instance ahead (these guests run faster than the
/// default threshold), and the wasm spawner's counters.
fn runner_with_spawner(p: &Project) -> (Runner, std::sync::Arc<HookSpawner>) {
    runner_making_ahead(p, Duration::ZERO)
}

/// A runner of `p` that makes the next instance ahead for runs of at least `above`.
fn runner_making_ahead(p: &Project, above: Duration) -> (Runner, std::sync::Arc<HookSpawner>) {
    let config = WasmEngineConfig {
        prewarm: Some(above),
        ..p.wasm_config()
    };
    let spawner = std::sync::Arc::new(HookSpawner::with_wasm_config(config));
    let runner = Runner::builder(p.path())
        .config_paths(p.paths())
        .spawner(spawner.clone())
        .build()
        .unwrap();
    (runner, spawner)
}

fn made_ahead(spawner: &HookSpawner) -> u64 {
    spawner
        .wasm()
        .unwrap()
        .stats()
        .made_ahead
        .load(Ordering::Relaxed)
}

/// A WASI command whose `_start` counts its calls in a global and exits 2 (blocks) unless the
/// count is 1: any reuse of an instance shows.
const COUNTS_ITS_CALLS: &str = r#"(module
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (memory (export "memory") 1)
  (global $calls (mut i32) (i32.const 0))
  (func (export "_start")
    (global.set $calls (i32.add (global.get $calls) (i32.const 1)))
    (if (i32.ne (global.get $calls) (i32.const 1)) (then (call $exit (i32.const 2))))))"#;

#[tokio::test]
async fn every_event_gets_a_fresh_instance_even_one_made_ahead() {
    let p = project(&[], json!([{"command": "hooks/counts.wasm"}]));
    write_wat(&p, "hooks/counts.wasm", COUNTS_ITS_CALLS);
    let (runner, spawner) = runner_with_spawner(&p);
    for i in 0..5 {
        let r = fire(&runner, &p).await;
        assert_eq!(
            r.decision,
            Decision::Pass,
            "event {i}: {}",
            common::summary(&r)
        );
    }
    // The first event instantiates inline; each later one takes the instance made after the
    // one before (a run waits for one being made, so this is exact).
    assert_eq!(made_ahead(&spawner), 4);
}

#[tokio::test]
async fn an_instance_made_ahead_reads_its_own_events_payload() {
    let p = project(
        &["hostile"],
        json!([{"command": "hooks/hostile.wasm echo"}]),
    );
    let (runner, spawner) = runner_with_spawner(&p);
    for command in ["ls", "pwd", "rm -rf /"] {
        let r = runner
            .fire(pre_tool(&p.path(), "bash", json!({"command": command})))
            .await;
        let echoed: Value = serde_json::from_str(&r.hooks[0].stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", common::summary(&r)));
        assert_eq!(echoed["toolArgs"], json!({"command": command}));
    }
    assert_eq!(made_ahead(&spawner), 2);
}

#[tokio::test]
async fn a_directory_swapped_in_since_is_not_served_by_an_old_instance() {
    // The instance made after the first event had `sub` preopened; `sub` is then moved away
    // and another directory put at its path. The next event must see the new one, not the
    // moved directory through the old instance's open handle.
    let p = project(
        &["hostile"],
        json!([{"command": "../hooks/hostile.wasm read marker", "cwd": "sub"}]),
    );
    p.write("sub/marker", "first");
    let (runner, spawner) = runner_with_spawner(&p);
    let r = fire(&runner, &p).await;
    assert_eq!(
        r.hooks[0].stdout.trim(),
        "ok:first",
        "{}",
        common::summary(&r)
    );
    std::fs::rename(p.path().join("sub"), p.path().join("sub-moved")).unwrap();
    p.write("sub/marker", "second");
    let r = fire(&runner, &p).await;
    assert_eq!(
        r.hooks[0].stdout.trim(),
        "ok:second",
        "{}",
        common::summary(&r)
    );
    assert_eq!(made_ahead(&spawner), 0, "the old instance was not used");
    let r = fire(&runner, &p).await;
    assert_eq!(r.hooks[0].stdout.trim(), "ok:second");
    assert_eq!(made_ahead(&spawner), 1, "instances made ahead resume");
}

/// A WASI command whose start function (run while instantiating) and `_start` each spin
/// `$n` times.
const SPINS_TWICE: &str = r#"(module
  (memory (export "memory") 1)
  (func $spin (local $i i32)
    (local.set $i (i32.const 1000000))
    (loop $l (local.set $i (i32.sub (local.get $i) (i32.const 1))) (br_if $l (local.get $i))))
  (start $spin)
  (func (export "_start") (call $spin)))"#;

#[tokio::test]
async fn fuel_spent_instantiating_ahead_counts_against_the_event() {
    let p = project(&[], json!([]));
    write_wat(&p, "hooks/spin.wasm", SPINS_TWICE);
    // Enough for one spin but not two: the run times out whether its instance was made at
    // the event or ahead of it (where the start function spent half the budget already).
    let hooks = json!({"hooks": {"PreToolUse": [
        {"command": "hooks/spin.wasm", "fuel": 6_000_000, "match": "short"},
        {"command": "hooks/spin.wasm", "fuel": 20_000_000, "match": "enough"}
    ]}});
    p.write(".coding-agent/hooks.json", &hooks.to_string());
    let (runner, spawner) = runner_with_spawner(&p);
    for i in 0..4 {
        let r = runner.fire(pre_tool(&p.path(), "short", json!({}))).await;
        assert_eq!(
            r.hooks[0].outcome,
            Outcome::Timeout,
            "event {i}: {}",
            common::summary(&r)
        );
        let r = runner.fire(pre_tool(&p.path(), "enough", json!({}))).await;
        assert_eq!(
            r.hooks[0].outcome,
            Outcome::Pass,
            "event {i}: {}",
            common::summary(&r)
        );
    }
    assert_eq!(made_ahead(&spawner), 6, "3 made ahead for each hook");
}

/// A WASI command whose start function (run while instantiating) sleeps for a minute if the
/// file `slow` exists in its cwd, and whose `_start` creates that file.
const SLOW_AFTER_ITS_FIRST_RUN: &str = r#"(module
  (import "wasi_snapshot_preview1" "path_open"
    (func $open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "poll_oneoff" (func $poll (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  ;; One subscription at 0: tag 0 (a clock), clock 1 (monotonic), timeout 60 s (in ns).
  (data (i32.const 16) "\01\00\00\00")
  (data (i32.const 24) "\00\58\47\f8\0d\00\00\00")
  (data (i32.const 200) "slow")
  (func $starting
    ;; Opening `slow` for reading (in the preopen `.`, fd 3) succeeds only once it exists.
    (if (i32.eqz (call $open (i32.const 3) (i32.const 0) (i32.const 200) (i32.const 4)
                   (i32.const 0) (i64.const 2) (i64.const 0) (i32.const 0) (i32.const 256)))
      (then (drop (call $poll (i32.const 0) (i32.const 64) (i32.const 1) (i32.const 128))))))
  (start $starting)
  (func (export "_start")
    (drop (call $open (i32.const 3) (i32.const 0) (i32.const 200) (i32.const 4)
            (i32.const 1) (i64.const 64) (i64.const 0) (i32.const 0) (i32.const 256)))))"#;

#[tokio::test]
async fn waiting_for_an_instance_made_ahead_counts_against_the_timeout() {
    // The first event runs quickly and leaves `slow` behind; the instance made after it then
    // sleeps while starting, past the 3 s timeout. The second event waits for it, and must
    // end at its one timeout, not wait and then instantiate again for a second one.
    let p = project(
        &[],
        json!([{"command": "hooks/slow.wasm", "timeout": 3000, "fs": "write"}]),
    );
    write_wat(&p, "hooks/slow.wasm", SLOW_AFTER_ITS_FIRST_RUN);
    let (runner, _) = runner_with_spawner(&p);
    let r = fire(&runner, &p).await;
    assert_eq!(r.hooks[0].outcome, Outcome::Pass, "{}", common::summary(&r));
    assert!(
        p.path().join("slow").exists(),
        "the first run made the file"
    );
    let start = Instant::now();
    let r = fire(&runner, &p).await;
    assert_eq!(
        r.hooks[0].outcome,
        Outcome::Timeout,
        "{}",
        common::summary(&r)
    );
    // An outcome bound, not a benchmark: two timeouts would be 6 s.
    assert!(
        start.elapsed() < Duration::from_millis(5000),
        "{:?}",
        start.elapsed()
    );
}

#[tokio::test]
async fn a_guest_that_instantiates_quickly_is_not_made_ahead() {
    // Handing the work to another thread would cost more than it saves.
    let p = project(&[], json!([{"command": "hooks/counts.wasm"}]));
    write_wat(&p, "hooks/counts.wasm", COUNTS_ITS_CALLS);
    let (runner, spawner) = runner_making_ahead(&p, Duration::from_secs(5));
    for _ in 0..3 {
        assert_eq!(fire(&runner, &p).await.decision, Decision::Pass);
    }
    assert_eq!(made_ahead(&spawner), 0);
}

/// A pooled slot's memory is reset for the next instance of its module however it is reset
/// (by copying back the pages the guest wrote, which Linux 6.7+ tells through PAGEMAP_SCAN,
/// or all of them): a guest that finds anything of the previous event in its memory (a page
/// it wrote, the data segment it changed) exits 3 or 4. It writes one byte in every page of
/// its 256 KiB and changes its data segment, each event, and the same runner fires it six
/// times (one pool slot, reused).
#[tokio::test]
async fn a_pooled_memory_holds_nothing_of_the_previous_event() {
    let p = project(&[], json!([{"command": "hooks/residue.wasm"}]));
    let wasm = wat::parse_str(
        r#"(module
            (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
            (memory (export "memory") 4)
            (data (i32.const 16) "image")
            (func (export "_start")
              (local $a i32)
              (if (i32.ne (i32.load8_u (i32.const 16)) (i32.const 105))
                (then (call $exit (i32.const 3))))
              (local.set $a (i32.const 4096))
              (loop $check
                (if (i32.load8_u (i32.add (local.get $a) (i32.const 123)))
                  (then (call $exit (i32.const 4))))
                (local.set $a (i32.add (local.get $a) (i32.const 4096)))
                (br_if $check (i32.lt_u (local.get $a) (i32.const 262144))))
              (i32.store8 (i32.const 16) (i32.const 88))
              (local.set $a (i32.const 4096))
              (loop $dirty
                (i32.store8 (i32.add (local.get $a) (i32.const 123)) (i32.const 170))
                (local.set $a (i32.add (local.get $a) (i32.const 4096)))
                (br_if $dirty (i32.lt_u (local.get $a) (i32.const 262144))))
              (call $exit (i32.const 0))))"#,
    )
    .unwrap();
    std::fs::create_dir_all(p.path().join("hooks")).unwrap();
    std::fs::write(p.path().join("hooks/residue.wasm"), wasm).unwrap();
    let runner = p.runner();
    for event in 0..6 {
        let r = fire(&runner, &p).await;
        assert_eq!(
            r.hooks[0].exit_code,
            Some(0),
            "event {event}: the guest found the previous event's memory: {}",
            common::summary(&r)
        );
    }
}
