//! Throughput of one `Runner` with a wasm hook under 1, 16, 256 and 1,000 concurrent events:
//! events per second, p50/p99 latency, errors, and memory per in-flight wasm instance.
//! Prints `key=value` lines that `scripts/bench-report` turns into a table. Under
//! `cargo test` (no `--bench` argument) it runs a small smoke pass only.

// criterion_group! makes an undocumented public function.
#![allow(missing_docs)]
// Percentiles index a sorted list with float arithmetic.
#![allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

#[path = "../tests/common/guests.rs"]
mod guests;

use hookhost::config::{self, ConfigPaths};
use hookhost::spawner::{HookSpawner, WasmEngineConfig};
use hookhost::{Outcome, Payload, Runner};
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

fn runner(
    root: &std::path::Path,
    cache: &std::path::Path,
    command: &str,
    timeout: u64,
) -> Arc<Runner> {
    let file = root.join(".coding-agent/hooks.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let hooks = json!({"hooks": {"PreToolUse": [{"command": command, "timeout": timeout}]}});
    std::fs::write(&file, hooks.to_string()).unwrap();
    let spawner = HookSpawner::with_wasm_config(WasmEngineConfig {
        cache_root: Some(cache.to_path_buf()),
        ..WasmEngineConfig::default()
    });
    let set = config::load(&ConfigPaths::with_home(root, None)).unwrap();
    Arc::new(
        Runner::builder(root)
            .hooks(set)
            .spawner(Arc::new(spawner))
            .build()
            .unwrap(),
    )
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::TempDir::new().unwrap();
    let cache = tempfile::TempDir::new().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join("hooks")).unwrap();
    for g in ["trivial", "hostile"] {
        std::fs::copy(guests::guest(g), root.join(format!("hooks/{g}.wasm"))).unwrap();
    }
    let trivial = runner(&root, cache.path(), "hooks/trivial.wasm", 10_000);
    let payload = Payload::pre_tool_use(&root, "bench", "bash", json!({"command": "ls"}));
    rt.block_on(trivial.fire(payload.clone()));

    let levels: &[usize] = if full { &[1, 16, 256, 1000] } else { &[1, 16] };
    for &n in levels {
        let rounds = if full { (4000 / n).clamp(3, 400) } else { 2 };
        let mut latencies = Vec::with_capacity(n * rounds);
        let mut errors = 0usize;
        let start = Instant::now();
        for _ in 0..rounds {
            let results = rt.block_on(async {
                let mut set = tokio::task::JoinSet::new();
                for _ in 0..n {
                    let r = trivial.clone();
                    let p = payload.clone();
                    set.spawn(async move {
                        let t = Instant::now();
                        let report = r.fire(p).await;
                        (
                            t.elapsed(),
                            report.hooks.iter().all(|h| h.outcome == Outcome::Pass),
                        )
                    });
                }
                set.join_all().await
            });
            for (d, ok) in results {
                latencies.push(d);
                errors += usize::from(!ok);
            }
        }
        let elapsed = start.elapsed();
        latencies.sort();
        let pct =
            |p: f64| latencies[((latencies.len() - 1) as f64 * p) as usize].as_secs_f64() * 1e6;
        println!(
            "throughput concurrency={n} events={} events_per_s={:.0} p50_us={:.1} p99_us={:.1} errors={errors}",
            latencies.len(),
            latencies.len() as f64 / elapsed.as_secs_f64(),
            pct(0.5),
            pct(0.99)
        );
        assert_eq!(errors, 0, "events failed at concurrency {n}");
    }

    // Memory per in-flight instance: N guests sleeping at once (each stopped by its
    // 1.5 s deadline), resident memory sampled while all are alive.
    let n = if full { 256 } else { 8 };
    let sleeper = runner(&root, cache.path(), "hooks/hostile.wasm sleep", 1500);
    rt.block_on(async {
        let before = rss_kib();
        let mut set = tokio::task::JoinSet::new();
        for _ in 0..n {
            let r = sleeper.clone();
            let p = payload.clone();
            set.spawn(async move { r.fire(p).await });
        }
        tokio::time::sleep(Duration::from_millis(700)).await;
        let during = rss_kib();
        let reports = set.join_all().await;
        assert!(reports.iter().all(|r| r.hooks[0].outcome == Outcome::Timeout));
        println!(
            "memory in_flight={n} rss_before_kib={before} rss_during_kib={during} per_instance_kib={:.0}",
            during.saturating_sub(before) as f64 / f64::from(n)
        );
    });
}
