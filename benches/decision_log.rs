//! The cost of the decision log (issue 26: at most 5% of an event through `Runner`): one
//! PreToolUse through `Runner::fire` with the log off, on (default capture: hashes) and full
//! (payload and output kept), for the same hook, the trivial wasm guest and a shell hook.
//!
//! Two measurements: criterion's, one benchmark per mode (each sample's events interleaved
//! with untimed events of the other modes), and then a paired one, printed as
//! `paired <kind> off_on=<ns> on=<ns> off_full=<ns> full=<ns> rounds=<n>`: rounds of one
//! event with the log off and one on (then off and full), in alternating order, each event
//! timed, the median of each mode's times. Criterion's modes
//! are measured seconds apart, and on a shared 2-core machine the machine drifts by more
//! than the 5% asked between them; paired events are microseconds apart, so the ratio of
//! their medians is the log's cost, not the drift. `scripts/bench-report --log` prints both.

// criterion_group! makes an undocumented public function.
#![allow(missing_docs)]

#[path = "../tests/common/guests.rs"]
mod guests;

use criterion::{Criterion, criterion_group};
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

/// What every measurement shares: a runtime, the project (with the trivial guest), the
/// compile cache, the logs' directory and the payload.
struct Bench {
    rt: tokio::runtime::Runtime,
    project: tempfile::TempDir,
    cache: tempfile::TempDir,
    logs: tempfile::TempDir,
    payload: Payload,
}

impl Bench {
    fn new() -> Self {
        let project = tempfile::TempDir::new().unwrap();
        let root = project.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("hooks")).unwrap();
        std::fs::copy(guests::guest("trivial"), root.join("hooks/trivial.wasm")).unwrap();
        let payload =
            Payload::pre_tool_use(&root, "bench", "bash", json!({"command": "cargo test"}));
        Bench {
            rt: tokio::runtime::Runtime::new().unwrap(),
            project,
            cache: tempfile::TempDir::new().unwrap(),
            logs: tempfile::TempDir::new().unwrap(),
            payload,
        }
    }

    /// A runner of `hook` per mode (off, on, full), each fired once (compiled, the log
    /// opened).
    fn runners(&self, kind: &str, hook: &Value) -> Vec<(&'static str, Runner)> {
        let root = self.project.path().canonicalize().unwrap();
        ["off", "on", "full"]
            .into_iter()
            .map(|mode| {
                let log = (mode != "off").then(|| {
                    let path = self
                        .logs
                        .path()
                        .join(format!("{kind}-{mode}/decisions.jsonl"));
                    DecisionLog::at(path).capture(if mode == "full" {
                        Capture::Full
                    } else {
                        Capture::Hashes
                    })
                });
                let r = runner(&root, self.cache.path(), hook, log);
                self.fire(&r);
                (mode, r)
            })
            .collect()
    }

    fn fire(&self, runner: &Runner) {
        self.rt.block_on(runner.fire(self.payload.clone()));
    }
}

/// The hooks measured, each with its number of paired rounds of `rounds`.
fn hooks_under_test(rounds: [usize; 2]) -> [(&'static str, Value, usize); 2] {
    [
        (
            "wasm",
            json!([{"command": "hooks/trivial.wasm"}]),
            rounds[0],
        ),
        ("shell", json!([{"command": "true"}]), rounds[1]),
    ]
}

fn logging(c: &mut Criterion) {
    let b = Bench::new();
    let mut group = c.benchmark_group("decision_log");
    for (kind, hook, _) in hooks_under_test([0, 0]) {
        let runners = b.runners(kind, &hook);
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
                                b.fire(o);
                            }
                        }
                        let t = std::time::Instant::now();
                        b.fire(r);
                        timed += t.elapsed();
                    }
                    timed
                });
            });
        }
    }
    group.finish();
}

/// The paired measurement: `rounds` rounds of one event of each of `runners`, the first of
/// each round alternating; the median time of each runner's events.
fn paired(b: &Bench, runners: [&Runner; 2], rounds: usize) -> [Duration; 2] {
    let mut times = [Vec::with_capacity(rounds), Vec::with_capacity(rounds)];
    for round in 0..rounds {
        for k in 0..2 {
            let i = (round + k) % 2;
            let t = std::time::Instant::now();
            b.fire(runners[i]);
            times[i].push(t.elapsed());
        }
    }
    times.map(|mut t| {
        t.sort_unstable();
        t[t.len() / 2]
    })
}

/// Off against on, then off against full: a pair of modes at a time, as a process runs one
/// (the log's writer and its spare drafts are the process's: a third mode in the same rounds
/// would charge one mode for freeing what the other kept).
fn paired_report() {
    let b = Bench::new();
    for (kind, hook, rounds) in hooks_under_test([100_000, 3_000]) {
        let runners = b.runners(kind, &hook);
        let (off, on, full) = (&runners[0].1, &runners[1].1, &runners[2].1);
        let mut line = format!("paired {kind}");
        for (name, r) in [("on", on), ("full", full)] {
            paired(&b, [off, r], rounds / 10); // warm
            let [o, m] = paired(&b, [off, r], rounds);
            line += &format!(" off_{name}={} {name}={}", o.as_nanos(), m.as_nanos());
        }
        println!("{line} rounds={rounds}");
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    targets = logging
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    // Only when benchmarks run (not under `cargo test --benches`, which passes no `--bench`).
    if std::env::args().any(|a| a == "--bench") {
        paired_report();
    }
}
