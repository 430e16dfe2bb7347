//! Load and leaks: 1,000 concurrent events mixing shell, wasm and failing hooks through one
//! Runner; afterwards no zombie processes, no growth in open file descriptors, and memory
//! back near where the first (warm-up) batch left it.

mod common;

use common::Project;
use common::guests::guest;
use hookhost::{Decision, Event, Outcome, Payload};
use serde_json::json;
use std::sync::Arc;

fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd")
        .map(std::iter::Iterator::count)
        .unwrap_or(0)
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Children of this process that are zombies (exited, never reaped).
fn zombies() -> Vec<String> {
    let me = std::process::id().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: split after the last ')'.
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.first() == Some(&"Z") && fields.get(1) == Some(&me.as_str()) {
            found.push(stat);
        }
    }
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_concurrent_events_leak_nothing() {
    // A minute each: this is about leaks, and 4,000 hooks on a busy 2-core machine can queue
    // for longer than the default 10 s (a trivial guest once timed out waiting).
    let p = Project::new(json!({"hooks": {
        "PostToolUse": [
            {"command": "hooks/t.wasm", "timeout": 60000},
            {"command": "exit 1", "timeout": 60000},
            {"command": "hooks/h.wasm exit 3", "timeout": 60000},
            {"command": "cat > /dev/null", "timeout": 60000}
        ]
    }}));
    std::fs::create_dir_all(p.path().join("hooks")).unwrap();
    std::fs::copy(guest("trivial"), p.path().join("hooks/t.wasm")).unwrap();
    std::fs::copy(guest("hostile"), p.path().join("hooks/h.wasm")).unwrap();
    let runner = Arc::new(p.runner());
    let root = p.path();

    let batch = |n: usize| {
        let runner = runner.clone();
        let root = root.clone();
        async move {
            let mut set = tokio::task::JoinSet::new();
            for i in 0..n {
                let runner = runner.clone();
                let payload = Payload::post_tool_use(
                    &root,
                    "load",
                    "bash",
                    json!({"i": i}),
                    json!("ok"),
                    false,
                );
                set.spawn(async move { runner.fire(payload).await });
            }
            set.join_all().await
        }
    };

    // Warm-up batch: fills the wasm pool's warm slots and the allocator's arenas, and opens
    // what lives for the whole process (the runtime's SIGCHLD pipe, blocking threads).
    let warm = batch(1000).await;
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let fds_before = open_fds();
    let rss_warm = rss_kib();
    let reports = batch(1000).await;
    for r in warm.iter().chain(&reports) {
        assert_eq!(r.event, Event::PostToolUse);
        assert_eq!(r.decision, Decision::Pass);
        let outcomes: Vec<Outcome> = r.hooks.iter().map(|h| h.outcome).collect();
        assert_eq!(
            outcomes,
            [Outcome::Pass, Outcome::Warn, Outcome::Warn, Outcome::Pass],
            "{}",
            common::summary(r)
        );
    }
    // A leak is what stays: on a busy machine the last pipes of the batch may still be closing,
    // so wait (up to 3 s) for the count to come back before judging it.
    let mut fds_after = open_fds();
    for _ in 0..30 {
        if fds_after <= fds_before {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        fds_after = open_fds();
    }
    let rss_after = rss_kib();
    assert!(zombies().is_empty(), "zombies: {:?}", zombies());
    assert!(
        fds_after <= fds_before,
        "open fds grew from {fds_before} to {fds_after}"
    );
    // 1,000 more events after warm-up: a leak of even 32 KiB per event would show.
    let grown = rss_after.saturating_sub(rss_warm);
    assert!(
        grown < 32 * 1024,
        "RSS grew by {grown} KiB over 1,000 events after warm-up ({rss_warm} -> {rss_after})"
    );
    println!(
        "fds {fds_before} -> {fds_after}; RSS after warm-up {rss_warm} KiB, after 1,000 more events {rss_after} KiB"
    );
}
