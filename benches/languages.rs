//! Warm latency of one `Runner::fire` (PreToolUse, a blocking payload) per guest language:
//! the Python and JavaScript components (componentize-py, componentize-js, jco's QuickJS
//! backend) and the Go module from `guest-examples/out/` (built by
//! `scripts/build-guest-examples`; a missing one is skipped), against the same guard as a
//! native script through a shell hook (`python3 guard.py`, `node guard.js`).
//! `scripts/bench-report` turns the results into the per-language table.
//!
//! Compiled code is cached under `<target>/guests/bench-wasm-cache`, so only the first run of
//! this benchmark pays for compiling the big components.

// criterion_group! makes an undocumented public function.
#![allow(missing_docs)]

#[path = "../tests/common/guests.rs"]
mod guests;

use criterion::{Criterion, criterion_group, criterion_main};
use hookhost::config::{self, ConfigPaths};
use hookhost::spawner::{HookSpawner, Tiering, WasmEngineConfig};
use hookhost::{Decision, Payload, Runner};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).to_path_buf()
}

/// A runner for one PreToolUse hook `command`, in a project that holds `files`.
fn runner(project: &Path, command: &str, files: &[(&Path, &str)]) -> Runner {
    std::fs::create_dir_all(project.join(".coding-agent")).unwrap();
    for (from, to) in files {
        std::fs::copy(from, project.join(to)).unwrap();
    }
    std::fs::write(
        project.join(".coding-agent/hooks.json"),
        json!({"hooks": {"PreToolUse": [{"command": command, "timeout": 60000}]}}).to_string(),
    )
    .unwrap();
    let paths = ConfigPaths::with_home(project, None);
    let cache = guests::guest_target_dir().join("bench-wasm-cache");
    let spawner = HookSpawner::with_wasm_config(WasmEngineConfig {
        cache_root: Some(cache),
        compile_timeout: None,
        // Warm events run optimised code: compile it up front, not via the baseline tier.
        tiering: Tiering::Off,
        ..WasmEngineConfig::default()
    });
    Runner::builder(project)
        .hooks(config::load(&paths).unwrap())
        .spawner(Arc::new(spawner))
        .build()
        .unwrap()
}

fn on_path(program: &str) -> bool {
    std::process::Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn languages(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = root().join("guest-examples/out");
    let native = root().join("benches/native");
    let mut cases: Vec<(&str, Runner)> = Vec::new();
    for (name, file) in [
        ("python component (componentize-py)", "bash-guard-py.wasm"),
        (
            "javascript component (componentize-js)",
            "bash-guard-js.wasm",
        ),
        ("javascript component (jco, QuickJS)", "bash-guard-qjs.wasm"),
        ("go module", "bash-guard-go.wasm"),
    ] {
        let module = out.join(file);
        if !module.is_file() {
            eprintln!(
                "skipping {name}: {} is missing (scripts/build-guest-examples)",
                module.display()
            );
            continue;
        }
        let project = dir.path().join(file);
        cases.push((name, runner(&project, file, &[(&module, file)])));
    }
    for (name, program, script) in [
        ("python3 guard.py (shell hook)", "python3", "guard.py"),
        ("node guard.js (shell hook)", "node", "guard.js"),
    ] {
        if !on_path(program) {
            eprintln!("skipping {name}: {program} is not on PATH");
            continue;
        }
        let project = dir.path().join(script);
        let command = format!("{program} {script}");
        cases.push((
            name,
            runner(&project, &command, &[(&native.join(script), script)]),
        ));
    }
    let mut group = c.benchmark_group("languages");
    group.sample_size(10);
    for (name, runner) in &cases {
        // Warm: compile (or load from the cache) once, outside the measurement.
        let r = rt.block_on(runner.fire(payload(runner)));
        assert_eq!(r.decision, Decision::Block, "{name}: {r:?}");
        group.bench_function(*name, |bench| {
            bench.iter(|| rt.block_on(runner.fire(payload(runner))));
        });
    }
    group.finish();
    // What an agent sees: its events come apart (a model turn, a tool call between them),
    // and a long-lived runner makes each wasm hook's next instance in the meantime. Only the
    // event is timed, not the gap.
    let mut group = c.benchmark_group("languages, events 10 ms apart");
    group.sample_size(10);
    group.measurement_time(std::time::Duration::from_secs(1));
    for (name, runner) in &cases {
        group.bench_function(*name, |bench| {
            bench.iter_custom(|iters| {
                let mut timed = std::time::Duration::ZERO;
                for _ in 0..iters {
                    std::thread::sleep(EVENT_GAP);
                    let start = std::time::Instant::now();
                    rt.block_on(runner.fire(payload(runner)));
                    timed += start.elapsed();
                }
                timed
            });
        });
    }
    group.finish();
}

/// The time between two events in the spaced measurement.
const EVENT_GAP: std::time::Duration = std::time::Duration::from_millis(10);

/// A blocking PreToolUse payload for `runner`'s project.
fn payload(runner: &Runner) -> Payload {
    Payload::pre_tool_use(
        runner.project_dir(),
        "bench",
        "bash",
        json!({"command": "rm -rf /"}),
    )
}

criterion_group!(benches, languages);
criterion_main!(benches);
