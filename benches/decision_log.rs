//! The cost of the decision log (issue 26: at most 5% of an event through `Runner`): one
//! PreToolUse through `Runner::fire` with the log off, on (default capture: hashes) and full
//! (payload and output kept), for the same hook, the trivial wasm guest and a shell hook.
//! `scripts/bench-report` prints the ratios beside the target.

// criterion_group! makes an undocumented public function.
#![allow(missing_docs)]

#[path = "../tests/common/guests.rs"]
mod guests;

use criterion::{Criterion, criterion_group, criterion_main};
use hookhost::config::{self, ConfigPaths};
use hookhost::decision_log::{Capture, DecisionLog};
use hookhost::spawner::{HookSpawner, WasmEngineConfig};
use hookhost::{Payload, Runner};
use serde_json::{Value, json};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// A runner of `hooks` in `root` with the log as `log` says (`None`: off).
fn runner(root: &Path, cache: &Path, hooks: &Value, log: Option<DecisionLog>) -> Runner {
    let config = json!({ "hooks": { "PreToolUse": hooks } });
    let file = root.join(".coding-agent/hooks.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, config.to_string()).unwrap();
    let spawner = HookSpawner::with_wasm_config(WasmEngineConfig {
        cache_root: Some(cache.to_path_buf()),
        ..WasmEngineConfig::default()
    });
    let builder = Runner::builder(root)
        .hooks(config::load(&ConfigPaths::with_home(root, None)).unwrap())
        .spawner(Arc::new(spawner));
    match log {
        Some(log) => builder.decision_log(log),
        None => builder.no_decision_log(),
    }
    .build()
    .unwrap()
}

fn logging(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::TempDir::new().unwrap();
    let cache = tempfile::TempDir::new().unwrap();
    let logs = tempfile::TempDir::new().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join("hooks")).unwrap();
    std::fs::copy(guests::guest("trivial"), root.join("hooks/trivial.wasm")).unwrap();
    let payload = Payload::pre_tool_use(&root, "bench", "bash", json!({"command": "cargo test"}));
    let hooks = [
        ("wasm", json!([{"command": "hooks/trivial.wasm"}])),
        ("shell", json!([{"command": "true"}])),
    ];
    let mut group = c.benchmark_group("decision_log");
    for (kind, hook) in &hooks {
        let runners: Vec<(&str, Runner)> = ["off", "on", "full"]
            .into_iter()
            .map(|mode| {
                let log = (mode != "off").then(|| {
                    DecisionLog::at(logs.path().join(format!("{kind}-{mode}/decisions.jsonl")))
                        .capture(if mode == "full" {
                            Capture::Full
                        } else {
                            Capture::Hashes
                        })
                });
                let r = runner(&root, cache.path(), hook, log);
                rt.block_on(r.fire(payload.clone())); // compiled, the log file opened
                (mode, r)
            })
            .collect();
        // Interleaved: each timed event of one mode follows an untimed event of each other
        // mode, so the machine's drift (a neighbour's build, the disk writing back) falls on
        // every mode alike and the ratios compare like with like.
        for (mode, r) in &runners {
            group.bench_function(format!("{kind}: log {mode}"), |bench| {
                bench.iter_custom(|iters| {
                    let mut timed = Duration::ZERO;
                    for _ in 0..iters {
                        for (other, o) in &runners {
                            if other != mode {
                                rt.block_on(o.fire(payload.clone()));
                            }
                        }
                        let t = std::time::Instant::now();
                        rt.block_on(r.fire(payload.clone()));
                        timed += t.elapsed();
                    }
                    timed
                });
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    targets = logging
}
criterion_main!(benches);
