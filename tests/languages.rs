//! Hooks written in every supported language, built from source by
//! `scripts/build-guest-examples` (part of README's test command), each run through the
//! engine on a blocking and a passing payload. The Rust ones are built here with cargo (the
//! fast tier); the others are the `toolchains` tier (tests/README.md).

mod common;

use common::guests::{guest, guest_p2};
use common::{Project, pre_tool};
use hookhost::spawner::{HookSpawner, WasmEngineConfig};
use hookhost::{Decision, Outcome, Runner};
use serde_json::json;
use std::path::PathBuf;

/// `guest-examples/out/NAME`, built by scripts/setup (or the test fails saying so).
use common::needs::example_guest as built;

async fn check(language: &str, module: PathBuf, reason_start: &str) {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "hooks/guard.wasm", "match": "bash", "timeout": 60000}
    ]}}));
    std::fs::create_dir_all(p.path().join("hooks")).unwrap();
    std::fs::copy(&module, p.path().join("hooks/guard.wasm")).unwrap();
    // Wait for the first compile however long it takes (a busy CI machine can take more
    // than the engine's bound for the 12-18 MB components): this tests the language.
    let spawner = HookSpawner::with_wasm_config(WasmEngineConfig {
        compile_timeout: None,
        ..p.wasm_config()
    });
    let runner = Runner::builder(p.path())
        .config_paths(p.paths())
        .spawner(std::sync::Arc::new(spawner))
        .build()
        .unwrap();
    let r = runner
        .fire(pre_tool(&p.path(), "bash", json!({"command": "rm -rf /"})))
        .await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Block, Outcome::Block),
        "{language}: {}",
        common::summary(&r)
    );
    let reason = r.reason.unwrap_or_default();
    assert!(reason.starts_with(reason_start), "{language}: {reason}");
    let r = runner
        .fire(pre_tool(
            &p.path(),
            "bash",
            json!({"command": "cargo test"}),
        ))
        .await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Pass, Outcome::Pass),
        "{language}: {}",
        common::summary(&r)
    );
}

#[tokio::test]
async fn rust_module() {
    check("Rust (wasip1, SDK)", guest("bash-guard"), "bash-guard:").await;
}

#[tokio::test]
async fn rust_hook_world_component() {
    check(
        "Rust (hook world, wit-bindgen)",
        guest_p2("hook_component"),
        "hook-component:",
    )
    .await;
}

#[tokio::test]
#[cfg_attr(
    not(feature = "toolchains"),
    ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains"
)]
async fn c_module() {
    check("C", built("bash-guard-c.wasm"), "c guard:").await;
}

#[tokio::test]
#[cfg_attr(
    not(feature = "toolchains"),
    ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains"
)]
async fn go_module() {
    check("Go", built("bash-guard-go.wasm"), "go guard:").await;
}

#[tokio::test]
#[cfg_attr(
    not(feature = "toolchains"),
    ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains"
)]
async fn zig_module() {
    check("Zig", built("bash-guard-zig.wasm"), "zig guard:").await;
}

#[tokio::test]
#[cfg_attr(
    not(feature = "toolchains"),
    ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains"
)]
async fn assemblyscript_module() {
    check(
        "AssemblyScript",
        built("bash-guard-as.wasm"),
        "assemblyscript guard:",
    )
    .await;
}

#[tokio::test]
#[cfg_attr(
    not(feature = "toolchains"),
    ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains"
)]
async fn javascript_component() {
    check(
        "JavaScript",
        built("bash-guard-js.wasm"),
        "javascript guard:",
    )
    .await;
}

#[tokio::test]
#[cfg_attr(
    not(feature = "toolchains"),
    ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains"
)]
async fn javascript_quickjs_component() {
    // `jco componentize --backend quickjs` imports the component model's async builtins
    // (`task.cancel`, ...) even for a synchronous export: it loads only with them enabled.
    check(
        "JavaScript (jco, QuickJS)",
        built("bash-guard-qjs.wasm"),
        "javascript guard:",
    )
    .await;
}

#[tokio::test]
#[cfg_attr(
    not(feature = "toolchains"),
    ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains"
)]
async fn python_component() {
    check("Python", built("bash-guard-py.wasm"), "python guard:").await;
}
