//! Latency of one `Runner::fire` (PreToolUse) with one hook of each kind, plus the engine's
//! own overhead. `scripts/bench-report` turns the results into a Markdown table.
//!
//! Cases: no hooks; ten non-matching hooks; an in-process hook; a trivial wasm guest; the
//! SDK's bash guard as wasm; the same guard compiled natively and run through `sh -c`; a
//! `sh` + `grep` one-liner, unconfined and in the kernel sandbox; the trivial wasm guest without fuel metering pressure (explicit
//! huge fuel) vs a compute-heavy guest.

// criterion_group! makes an undocumented public function.
#![allow(missing_docs)]

#[path = "../tests/common/guests.rs"]
mod guests;

use criterion::{Criterion, criterion_group, criterion_main};
use hookhost::config::{self, ConfigPaths};
use hookhost::spawner::{HookSpawner, WasmEngineConfig};
use hookhost::{Event, FnResponse, Payload, Runner, RunnerBuilder};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

/// Builds the native (host) bash guard from guest-examples/.
fn native_guard() -> PathBuf {
    let target = guests::guest_target_dir().join("native");
    let manifest =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("guest-examples/Cargo.toml");
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "build",
            "--release",
            "--locked",
            "-p",
            "bash-guard",
            "--manifest-path",
        ])
        .arg(&manifest)
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .unwrap();
    assert!(status.success());
    target.join("release/bash-guard")
}

/// A keep-alive HTTP/1.1 server on loopback answering every POST with `200 {}`, on its
/// own threads; lives as long as the benchmark process.
fn http_server() -> std::net::SocketAddr {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(conn.try_clone().unwrap());
                let mut conn = conn;
                loop {
                    let mut length = 0usize;
                    let mut line = String::new();
                    loop {
                        line.clear();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        let l = line.to_ascii_lowercase();
                        if let Some(v) = l.strip_prefix("content-length:") {
                            length = v.trim().parse().unwrap_or(0);
                        }
                        if line == "\r\n" {
                            break;
                        }
                    }
                    let mut body = vec![0u8; length];
                    if reader.read_exact(&mut body).is_err() {
                        return;
                    }
                    let answer = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";
                    if conn.write_all(answer).is_err() {
                        return;
                    }
                }
            });
        }
    });
    addr
}

struct Bench {
    dir: tempfile::TempDir,
    cache: tempfile::TempDir,
}

impl Bench {
    fn new() -> Self {
        let b = Bench {
            dir: tempfile::TempDir::new().unwrap(),
            cache: tempfile::TempDir::new().unwrap(),
        };
        std::fs::create_dir_all(b.root().join("hooks")).unwrap();
        for g in ["trivial", "bash-guard", "hostile"] {
            std::fs::copy(guests::guest(g), b.root().join(format!("hooks/{g}.wasm"))).unwrap();
        }
        std::fs::copy(
            guests::guest_p2("trivial"),
            b.root().join("hooks/trivial-p2.wasm"),
        )
        .unwrap();
        std::fs::copy(native_guard(), b.root().join("hooks/bash-guard-native")).unwrap();
        b
    }

    fn root(&self) -> PathBuf {
        self.dir.path().canonicalize().unwrap()
    }

    fn runner(&self, hooks: Value) -> Runner {
        self.runner_with(hooks, true)
    }

    fn runner_with(&self, hooks: Value, fuel: bool) -> Runner {
        self.builder_with(hooks, fuel).build().unwrap()
    }

    fn builder_with(&self, hooks: Value, fuel: bool) -> RunnerBuilder {
        let config = json!({ "hooks": { "PreToolUse": hooks } });
        let file = self.root().join(".coding-agent/hooks.json");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, config.to_string()).unwrap();
        let paths = ConfigPaths::with_home(&self.root(), None);
        let spawner = HookSpawner::with_wasm_config(WasmEngineConfig {
            cache_root: Some(self.cache.path().to_path_buf()),
            fuel,
            ..WasmEngineConfig::default()
        });
        Runner::builder(self.root())
            .hooks(config::load(&paths).unwrap())
            .spawner(Arc::new(spawner))
    }
}

/// The in-process guard: blocks `rm -rf /`.
fn fn_guard(p: &Payload) -> FnResponse {
    let cmd = p
        .tool_args()
        .and_then(|a| a["command"].as_str())
        .unwrap_or("");
    if cmd.contains("rm -rf /") {
        FnResponse::block("no")
    } else {
        FnResponse::pass()
    }
}

/// The `sh` + `grep` one-liner guard.
const GREP: &str = "grep -q 'rm -rf /' && exit 2 || exit 0";

fn latency(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let b = Bench::new();
    let payload =
        Payload::pre_tool_use(&b.root(), "bench", "bash", json!({"command": "cargo test"}));
    let non_matching: Vec<Value> = (0..10)
        .map(|i| json!({"command": "exit 2", "match": format!("other{i}")}))
        .collect();
    let with_fn = b
        .builder_with(json!([]), true)
        .hook(Event::PreToolUse, Some("bash"), "guard", fn_guard)
        .build()
        .unwrap();
    let cases: Vec<(&str, Runner)> = vec![
        ("engine: no hooks", b.runner(json!([]))),
        (
            "engine: 10 non-matching hooks",
            b.runner(Value::Array(non_matching)),
        ),
        ("fn: in-process guard", with_fn),
        (
            "wasm: trivial guest",
            b.runner(json!([{"command": "hooks/trivial.wasm"}])),
        ),
        (
            "wasm: SDK bash guard",
            b.runner(json!([{"command": "hooks/bash-guard.wasm"}])),
        ),
        (
            "wasm: trivial component (preview 2)",
            b.runner(json!([{"command": "hooks/trivial-p2.wasm"}])),
        ),
        (
            "shell: native bash guard via sh -c",
            b.runner(json!([{"command": "hooks/bash-guard-native"}])),
        ),
        (
            "shell: sh + grep one-liner",
            b.runner(json!([{"command": GREP}])),
        ),
        // The same in the kernel sandbox (docs/sandbox.md): its cost over the line above.
        (
            "shell: sh + grep one-liner, sandboxed",
            b.runner(json!([{"command": GREP, "sandbox": true}])),
        ),
        (
            "http: loopback POST",
            b.runner(json!([{"url": format!("http://{}/hook", http_server())}])),
        ),
        (
            "wasm: compute 1e6 iterations (fuel on)",
            b.runner(json!([{"command": "hooks/hostile.wasm spin 1000000"}])),
        ),
        (
            "wasm: compute 1e6 iterations (fuel off, wall clock only)",
            b.runner_with(
                json!([{"command": "hooks/hostile.wasm spin 1000000"}]),
                false,
            ),
        ),
    ];
    let mut group = c.benchmark_group("pre_tool_use");
    for (name, runner) in &cases {
        // Warm: compile once, outside the measurement.
        let r = rt.block_on(runner.fire(payload.clone()));
        assert!(
            r.hooks.iter().all(|h| h.outcome == hookhost::Outcome::Pass),
            "{name}: {r:?}"
        );
        group.bench_function(*name, |bench| {
            bench.iter(|| rt.block_on(runner.fire(payload.clone())));
        });
    }
    group.finish();
}

fn compile_and_cache(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let b = Bench::new();
    let module = b.root().join("hooks/bash-guard.wasm");
    let mut group = c.benchmark_group("module");
    group.sample_size(10);
    group.bench_function("compile (no cache)", |bench| {
        bench.iter(|| {
            let w = hookhost::spawner::WasmSpawner::new(WasmEngineConfig {
                cache_root: None,
                ..WasmEngineConfig::default()
            })
            .unwrap();
            rt.block_on(w.prepare_file(&module)).unwrap();
        });
    });
    let cache = tempfile::TempDir::new().unwrap();
    let config = WasmEngineConfig {
        cache_root: Some(cache.path().to_path_buf()),
        ..WasmEngineConfig::default()
    };
    let warm = hookhost::spawner::WasmSpawner::new(config.clone()).unwrap();
    rt.block_on(warm.prepare_file(&module)).unwrap();
    group.bench_function("disk-cache load (fresh engine)", |bench| {
        bench.iter(|| {
            let w = hookhost::spawner::WasmSpawner::new(config.clone()).unwrap();
            rt.block_on(w.prepare_file(&module)).unwrap();
        });
    });
    group.bench_function("engine creation alone", |bench| {
        bench.iter(|| hookhost::spawner::WasmSpawner::new(config.clone()).unwrap());
    });
    let on_demand = WasmEngineConfig {
        pooling: false,
        ..config.clone()
    };
    group.bench_function("engine creation alone (on-demand allocator)", |bench| {
        bench.iter(|| hookhost::spawner::WasmSpawner::new(on_demand.clone()).unwrap());
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    targets = latency, compile_and_cache
}
criterion_main!(benches);
