//! The baseline (winch) tier: a big module's first run takes it and answers; its optimised
//! build lands in the cache (in-process for a `Runner`, through a detached `hookhost compile`
//! for the CLI) and later runs use it; modules winch cannot compile and small modules go
//! straight to cranelift; fuel runs out on the same budget under both tiers.
//!
//! Waits for background work are polled with a generous bound (a busy CI machine compiles
//! slowly); nothing here asserts how long anything took.

mod common;

use common::{Project, pre_tool};
use hookhost::spawner::{BASELINE_MIN_BYTES, HookSpawner, Tiering, WasmEngineConfig, WasmSpawner};
use hookhost::{Decision, Outcome, Runner};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// How long a background compile may take before a test gives up on it.
const BACKGROUND_BOUND: Duration = Duration::from_secs(600);

/// A big example guest built by `scripts/setup` (the `toolchains` tier, tests/README.md;
/// without it the test fails saying so).
fn big_guest() -> PathBuf {
    common::needs::example_guest("bash-guard-qjs.wasm")
}

/// A WASI preview 1 command made big (past [`BASELINE_MIN_BYTES`]) by a zero data segment,
/// with `funcs` and `start` (the body of `_start`) inside.
fn big_module(funcs: &str, start: &str) -> Vec<u8> {
    let pages = BASELINE_MIN_BYTES / 65536 + 2;
    let zeros = "\\00".repeat(usize::try_from(BASELINE_MIN_BYTES).unwrap() + 1);
    let wat = format!(
        r#"(module
            (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
            (memory (export "memory") {pages})
            {funcs}
            (func (export "_start") {start})
            (data (i32.const 0) "{zeros}"))"#
    );
    let bytes = wat::parse_str(wat).unwrap();
    assert!(bytes.len() as u64 >= BASELINE_MIN_BYTES);
    bytes
}

fn project_with(module: &[u8], hooks: Value) -> Project {
    let p = Project::new(json!({"hooks": {"PreToolUse": hooks}}));
    std::fs::create_dir_all(p.path().join("hooks")).unwrap();
    std::fs::write(p.path().join("hooks/guard.wasm"), module).unwrap();
    p
}

fn runner(p: &Project, tiering: Tiering) -> (Runner, std::sync::Arc<HookSpawner>) {
    let spawner = std::sync::Arc::new(HookSpawner::with_wasm_config(WasmEngineConfig {
        compile_timeout: None,
        tiering,
        ..p.wasm_config()
    }));
    let runner = Runner::builder(p.path())
        .config_paths(p.paths())
        .spawner(spawner.clone())
        .build()
        .unwrap();
    (runner, spawner)
}

fn load(counter: &AtomicU64) -> u64 {
    counter.load(Ordering::Relaxed)
}

/// Cache folders (one per engine) holding a sealed entry.
fn sealed_folders(cache: &Path) -> usize {
    folders(cache).filter(|d| holds(d, "seal")).count()
}

/// Whether the optimised folder (the one holding the optimisation locks) has a sealed entry.
fn optimised_entry(cache: &Path) -> bool {
    folders(cache).any(|d| holds(&d, "lock") && holds(&d, "seal"))
}

fn folders(cache: &Path) -> impl Iterator<Item = PathBuf> {
    std::fs::read_dir(cache)
        .unwrap()
        .flatten()
        .filter(|d| d.file_name() != "index")
        .map(|d| d.path())
}

fn holds(folder: &Path, extension: &str) -> bool {
    std::fs::read_dir(folder)
        .map(|es| {
            es.flatten()
                .any(|e| e.path().extension().is_some_and(|x| x == extension))
        })
        .unwrap_or(false)
}

async fn fire_guard(runner: &Runner, p: &Project) -> (Decision, Outcome, String) {
    let r = runner
        .fire(pre_tool(&p.path(), "bash", json!({"command": "rm -rf /"})))
        .await;
    (r.decision, r.hooks[0].outcome, r.reason.unwrap_or_default())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(feature = "toolchains"),
    ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains"
)]
async fn a_big_module_runs_from_the_baseline_tier_then_from_the_optimised_build() {
    let guest = big_guest();
    let p = project_with(
        &std::fs::read(guest).unwrap(),
        json!([{"command": "hooks/guard.wasm", "match": "bash", "timeout": 60000}]),
    );
    let (runner, spawner) = runner(&p, Tiering::InProcess);
    let (decision, outcome, reason) = fire_guard(&runner, &p).await;
    assert_eq!(
        (decision, outcome),
        (Decision::Block, Outcome::Block),
        "{reason}"
    );
    let stats = spawner.wasm().unwrap().stats();
    assert_eq!(
        load(&stats.baseline_compiled),
        1,
        "the first run took the baseline tier"
    );
    // The optimised build replaces it in memory once compiled.
    let started = Instant::now();
    while load(&stats.tiered_up) == 0 {
        assert!(
            started.elapsed() < BACKGROUND_BOUND,
            "the optimised build never landed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(load(&stats.compiled), 1, "one optimised compile");
    assert_eq!(
        sealed_folders(p.cache.path()),
        1,
        "the optimised entry superseded the baseline one"
    );
    let (decision, outcome, _) = fire_guard(&runner, &p).await;
    assert_eq!((decision, outcome), (Decision::Block, Outcome::Block));
    assert_eq!(
        load(&stats.memory_hits),
        1,
        "the second run reused the swapped-in module"
    );
    // A fresh process finds the optimised entry in the cache.
    let (fresh, spawner) = runner_pair(&p);
    let (decision, outcome, _) = fire_guard(&fresh, &p).await;
    assert_eq!((decision, outcome), (Decision::Block, Outcome::Block));
    let stats = spawner.wasm().unwrap().stats();
    assert_eq!(
        (
            load(&stats.disk_hits),
            load(&stats.baseline_disk_hits),
            load(&stats.baseline_compiled),
            load(&stats.compiled)
        ),
        (1, 0, 0, 0),
        "the optimised cache entry was used"
    );
}

fn runner_pair(p: &Project) -> (Runner, std::sync::Arc<HookSpawner>) {
    runner(p, Tiering::InProcess)
}

#[tokio::test]
#[cfg_attr(
    not(feature = "toolchains"),
    ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains"
)]
async fn the_cli_answers_from_the_baseline_tier_and_a_background_compile_caches_the_optimised_build()
 {
    let guest = big_guest();
    let p = project_with(
        &std::fs::read(guest).unwrap(),
        json!([{"command": "hooks/guard.wasm", "match": "bash", "timeout": 60000}]),
    );
    let args = [
        "run",
        "PreToolUse",
        "--tool",
        "bash",
        "--args",
        r#"{"command":"rm -rf /"}"#,
    ];
    let env = [("HOOKHOST_TIERING", "deferred")];
    let out = p.cli(&args, &env);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("decision: block"));
    // The baseline entry is written before the answer (and removed once the optimised one
    // is there); the optimised one by the background compile, into its own engine folder.
    assert!(sealed_folders(p.cache.path()) >= 1);
    let started = Instant::now();
    while !optimised_entry(p.cache.path()) {
        assert!(
            started.elapsed() < BACKGROUND_BOUND,
            "the optimised entry never landed"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // A compile that finished has released its claim.
    let module = p.path().join("hooks/guard.wasm");
    let spawner = WasmSpawner::new(WasmEngineConfig {
        pooling: false,
        ..p.wasm_config()
    })
    .unwrap();
    let started = Instant::now();
    while spawner.claim_optimisation(&module).is_none() {
        assert!(
            started.elapsed() < BACKGROUND_BOUND,
            "the background compile never ended"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        sealed_folders(p.cache.path()),
        1,
        "the optimised entry superseded the baseline one"
    );
    let out = p.cli(&args, &env);
    assert_eq!(out.status.code(), Some(2));
    // `compile` finds the optimised entry: nothing left to compile.
    let out = p.cli(&["compile", "--json", module.to_str().unwrap()], &env);
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed[0]["cached"], json!(true), "{listed}");
}

/// `hookhost compile --background -- <module>` as `tier_up.rs` starts it.
fn background_compile(p: &Project, module: &str) -> Option<i32> {
    std::process::Command::new(env!("CARGO_BIN_EXE_hookhost"))
        .args(["compile", "--background", "--", module])
        .env_clear()
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .status()
        .unwrap()
        .code()
}

#[test]
#[cfg_attr(
    not(feature = "toolchains"),
    ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains"
)]
fn a_background_compile_gives_way_to_the_one_already_running() {
    let guest = big_guest();
    let p = project_with(&std::fs::read(guest).unwrap(), json!([]));
    let module = p.path().join("hooks/guard.wasm");
    let spawner = WasmSpawner::new(WasmEngineConfig {
        pooling: false,
        ..p.wasm_config()
    })
    .unwrap();
    let claim = spawner
        .claim_optimisation(&module)
        .expect("the claim is free");
    assert!(
        spawner.claim_optimisation(&module).is_none(),
        "one claim at a time"
    );
    assert_eq!(background_compile(&p, module.to_str().unwrap()), Some(0));
    assert_eq!(
        sealed_folders(p.cache.path()),
        0,
        "it compiled while another held the claim"
    );
    drop(claim);
    assert_eq!(background_compile(&p, module.to_str().unwrap()), Some(0));
    assert_eq!(
        sealed_folders(p.cache.path()),
        1,
        "with the claim free it compiles"
    );
    // Only what `hand_off` passes: one absolute module path.
    assert_eq!(background_compile(&p, "hooks/guard.wasm"), Some(1));
}

/// `hookhost compile --background --claimed -- <module>` with `fd3` as its descriptor 3 (as
/// `tier_up.rs` hands its claim down; `sh` copies it there from stdin) or none; the exit code.
fn claimed_compile(p: &Project, module: &Path, fd3: Option<std::fs::File>) -> Option<i32> {
    let script = if fd3.is_some() {
        r#"exec 3<&0 0</dev/null; exec "$0" compile --background --claimed -- "$1""#
    } else {
        r#"exec "$0" compile --background --claimed -- "$1""#
    };
    let stdin = fd3.map_or_else(std::process::Stdio::null, std::process::Stdio::from);
    std::process::Command::new("sh")
        .args(["-c", script, env!("CARGO_BIN_EXE_hookhost")])
        .arg(module)
        .env_clear()
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .stdin(stdin)
        .status()
        .unwrap()
        .code()
}

/// The claim the CLI takes before starting a background compile is the one the compile
/// works under: handed down as fd 3 it is kept (the compile runs: here it fails, exit 1, on
/// a module that is not wasm), while any other descriptor, or none, leaves the compile to
/// give way (exit 0) to the holder.
#[test]
fn a_background_compile_keeps_the_claim_handed_down_and_gives_way_otherwise() {
    let p = project_with(b"not a wasm module", json!([]));
    let module = p.path().join("hooks/guard.wasm");
    let spawner = WasmSpawner::new(WasmEngineConfig {
        pooling: false,
        ..p.wasm_config()
    })
    .unwrap();
    let claim = spawner
        .claim_optimisation(&module)
        .expect("the claim is free");
    let handed = claim.file().try_clone().unwrap();
    assert_eq!(
        claimed_compile(&p, &module, Some(handed)),
        Some(1),
        "it compiled under the claim"
    );
    assert_eq!(
        claimed_compile(&p, &module, None),
        Some(0),
        "no descriptor: it gave way"
    );
    let stray = tempfile::tempfile().unwrap();
    assert_eq!(
        claimed_compile(&p, &module, Some(stray)),
        Some(0),
        "another file: it gave way"
    );
    let lock = folders(p.cache.path())
        .flat_map(|d| std::fs::read_dir(d).unwrap())
        .map(|e| e.unwrap().path())
        .find(|f| f.extension().is_some_and(|x| x == "lock"))
        .expect("the claim's lock file");
    let other = std::fs::File::open(lock).unwrap();
    assert_eq!(
        claimed_compile(&p, &module, Some(other)),
        Some(0),
        "the lock file opened anew is no claim while it is held"
    );
    drop(claim);
    assert_eq!(
        claimed_compile(&p, &module, None),
        Some(1),
        "free: it claims and compiles"
    );
}

#[tokio::test]
async fn a_module_winch_cannot_compile_runs_through_cranelift() {
    // A tail call: cranelift compiles it, wasmtime 48's winch does not.
    let module = big_module(
        "(func $three (result i32) (i32.const 3)) (func $tail (result i32) (return_call $three))",
        "(call $exit (call $tail))",
    );
    let p = project_with(&module, json!([{"command": "hooks/guard.wasm"}]));
    let (runner, spawner) = runner(&p, Tiering::Deferred);
    let r = runner.fire(pre_tool(&p.path(), "bash", json!({}))).await;
    assert_eq!(r.hooks[0].exit_code, Some(3), "{}", common::summary(&r));
    let stats = spawner.wasm().unwrap().stats();
    assert_eq!(
        (load(&stats.baseline_compiled), load(&stats.compiled)),
        (0, 1)
    );
}

#[tokio::test]
async fn small_modules_never_take_the_baseline_tier() {
    let module = wat::parse_str(
        r#"(module (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
            (memory (export "memory") 1)
            (func (export "_start") (call $exit (i32.const 3))))"#,
    )
    .unwrap();
    let p = project_with(&module, json!([{"command": "hooks/guard.wasm"}]));
    let (runner, spawner) = runner(&p, Tiering::InProcess);
    let r = runner.fire(pre_tool(&p.path(), "bash", json!({}))).await;
    assert_eq!(r.hooks[0].exit_code, Some(3), "{}", common::summary(&r));
    let stats = spawner.wasm().unwrap().stats();
    assert_eq!(
        (load(&stats.baseline_compiled), load(&stats.compiled)),
        (0, 1)
    );
}

/// 1,000,000 iterations of a loop that costs 14 fuel units an iteration under both tiers.
fn counting_module() -> Vec<u8> {
    big_module(
        "",
        "(local i32 i32) (local.set 0 (i32.const 1000000))
         (loop $l (local.set 1 (i32.add (local.get 1) (i32.mul (local.get 0) (i32.const 3))))
           (local.set 0 (i32.sub (local.get 0) (i32.const 1)))
           (br_if $l (i32.ne (local.get 0) (i32.const 0))))",
    )
}

#[tokio::test]
async fn fuel_runs_out_on_the_same_budget_under_both_tiers() {
    let hooks = json!([
        {"command": "hooks/guard.wasm", "fuel": 14_100_000, "match": "enough"},
        {"command": "hooks/guard.wasm", "fuel": 13_900_000, "match": "short"}
    ]);
    for tiering in [Tiering::Deferred, Tiering::Off] {
        let p = project_with(&counting_module(), hooks.clone());
        let (runner, spawner) = runner(&p, tiering);
        let r = runner.fire(pre_tool(&p.path(), "enough", json!({}))).await;
        assert_eq!(
            r.hooks[0].outcome,
            Outcome::Pass,
            "{tiering:?}: {}",
            common::summary(&r)
        );
        let r = runner.fire(pre_tool(&p.path(), "short", json!({}))).await;
        assert_eq!(
            r.hooks[0].outcome,
            Outcome::Timeout,
            "{tiering:?}: {}",
            common::summary(&r)
        );
        let stats = spawner.wasm().unwrap().stats();
        let baseline = tiering == Tiering::Deferred;
        assert_eq!(
            (load(&stats.baseline_compiled), load(&stats.compiled)),
            (u64::from(baseline), u64::from(!baseline)),
            "{tiering:?}"
        );
    }
}

#[test]
#[cfg_attr(
    not(feature = "toolchains"),
    ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains"
)]
fn the_agent_adapter_answers_from_the_baseline_tier_and_hands_the_optimisation_off() {
    use std::io::Write;
    let guest = big_guest();
    let p = project_with(
        &std::fs::read(guest).unwrap(),
        json!([{"command": "hooks/guard.wasm", "match": "bash", "timeout": 60000}]),
    );
    let payload = json!({
        "session_id": "abc123",
        "cwd": p.path(),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf /"},
    });
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookhost"))
        .args(["hook", "--for", "claude", "--trust", "all", "--project"])
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .env("HOOKHOST_TIERING", "deferred")
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
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    // Reads the agent's pipes to their end: the background compile does not hold them.
    let out = child.wait_with_output().unwrap();
    let answer = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(answer.contains("destructive"), "{answer}");
    let started = Instant::now();
    while !optimised_entry(p.cache.path()) {
        assert!(
            started.elapsed() < BACKGROUND_BOUND,
            "the optimised entry never landed"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
#[cfg_attr(
    not(feature = "toolchains"),
    ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains"
)]
fn a_module_whose_optimisation_failed_is_not_handed_off_again_until_it_changes() {
    let guest = big_guest();
    let p = project_with(
        &std::fs::read(guest).unwrap(),
        json!([{"command": "hooks/guard.wasm", "match": "bash", "timeout": 60000}]),
    );
    let module = p.path().join("hooks/guard.wasm");
    let spawner = WasmSpawner::new(WasmEngineConfig {
        pooling: false,
        ..p.wasm_config()
    })
    .unwrap();
    assert!(!spawner.optimisation_failed(&module));
    spawner.mark_optimisation_failed(&module);
    assert!(spawner.optimisation_failed(&module));
    let args = [
        "run",
        "PreToolUse",
        "--tool",
        "bash",
        "--args",
        r#"{"command":"rm -rf /"}"#,
    ];
    let out = p.cli(&args, &[("HOOKHOST_TIERING", "deferred")]);
    assert_eq!(out.status.code(), Some(2));
    // No background compile was started: nothing claims the module, and with the claim taken
    // here none can start later either; the optimised folder has no entry.
    let claim = spawner.claim_optimisation(&module);
    assert!(claim.is_some(), "a background compile holds the claim");
    assert!(!optimised_entry(p.cache.path()));
    drop(claim);
    // An edited module is tried again.
    let later = std::time::SystemTime::now() + Duration::from_secs(5);
    std::fs::File::options()
        .write(true)
        .open(&module)
        .unwrap()
        .set_modified(later)
        .unwrap();
    assert!(!spawner.optimisation_failed(&module));
}
