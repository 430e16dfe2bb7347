//! Attacks on the wasm sandbox: escaping the project through `cwd`, outgrowing the memory
//! cap with many memories or a table, leaving symlinks behind, hanging the host on a FIFO.

use crate::common::guests::{guest, guest_p2};
use crate::common::{Project, pre_tool, summary};
use crate::{hookhost, json_of};
use hookhost::config::ConfigPaths;
use hookhost::spawner::{HookSpawner, WasmEngineConfig};
use hookhost::{Decision, Outcome, Runner};
use serde_json::json;
use std::time::{Duration, Instant};

fn load_error(p: &Project) -> String {
    match Runner::builder(p.path()).config_paths(p.paths()).build() {
        Ok(_) => panic!("the config loaded"),
        Err(e) => e.to_string(),
    }
}

fn with_module(config: serde_json::Value) -> Project {
    let p = Project::new(config);
    std::fs::copy(guest("hostile"), p.path().join("h.wasm")).unwrap();
    p
}

#[test]
fn cwd_slash_cannot_become_the_guests_root() {
    let p = with_module(json!({"hooks": {"PreToolUse": [
        {"command": "h.wasm read etc/passwd", "cwd": "/"}]}}));
    let e = load_error(&p);
    assert!(
        e.contains("`cwd` \"/\" resolves to /, outside the project"),
        "{e}"
    );
}

#[test]
fn cwd_dotdot_cannot_leave_the_project() {
    let p = with_module(json!({"hooks": {"PreToolUse": [
        {"command": "h.wasm read x", "cwd": ".."}]}}));
    let e = load_error(&p);
    assert!(e.contains("outside the project"), "{e}");
    let p = with_module(json!({"hooks": {"PreToolUse": [
        {"command": "h.wasm read x", "cwd": "../not-there"}]}}));
    let e = load_error(&p);
    assert!(
        e.contains("not a plain relative path inside the project"),
        "{e}"
    );
}

#[cfg(unix)]
#[test]
fn cwd_through_a_symlinked_directory_cannot_reach_home() {
    let p = with_module(json!({"hooks": {"PreToolUse": [
        {"command": "../h.wasm read .ssh/id_rsa", "cwd": "innocent"}]}}));
    std::os::unix::fs::symlink(p.home.path(), p.path().join("innocent")).unwrap();
    let e = load_error(&p);
    assert!(e.contains("outside the project"), "{e}");
    // `check` says so too.
    let out = hookhost(&p, &["check"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("outside the project"));
}

#[cfg(unix)]
#[tokio::test]
async fn a_symlink_planted_after_loading_does_not_move_the_guests_root() {
    let p = with_module(json!({"hooks": {"PreToolUse": [
        {"command": "../h.wasm read secret.txt", "cwd": "sub"}]}}));
    std::fs::create_dir(p.path().join("sub")).unwrap();
    let runner = p.runner();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "TOPSECRET").unwrap();
    std::fs::remove_dir(p.path().join("sub")).unwrap();
    std::os::unix::fs::symlink(outside.path(), p.path().join("sub")).unwrap();
    let r = runner.fire(pre_tool(&p.path(), "bash", json!({}))).await;
    assert!(!summary(&r).contains("TOPSECRET"), "{}", summary(&r));
    assert_eq!(r.hooks[0].outcome, Outcome::Error, "{}", summary(&r));
    assert_eq!(r.decision, Decision::Block);
    assert!(
        r.hooks[0]
            .message
            .as_deref()
            .unwrap()
            .contains("outside the project")
    );
}

/// A runner allocating on demand, as `hookhost run` does (no pooling-allocator limits).
fn unpooled(p: &Project) -> Runner {
    let spawner = HookSpawner::with_wasm_config(WasmEngineConfig {
        pooling: false,
        ..p.wasm_config()
    });
    Runner::builder(p.path())
        .config_paths(ConfigPaths::with_home(
            &p.path(),
            Some(p.home.path().into()),
        ))
        .spawner(std::sync::Arc::new(spawner))
        .build()
        .unwrap()
}

fn wat_project(wat: &str, memory_mib: u64) -> Project {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "m.wasm", "memory": memory_mib}]}}));
    std::fs::write(p.path().join("m.wasm"), wat::parse_str(wat).unwrap()).unwrap();
    p
}

#[tokio::test]
async fn sixteen_memories_share_one_memory_cap() {
    let mut wat = String::from("(module\n");
    for i in 0..16 {
        wat.push_str(&format!("  (memory $m{i} 0)\n"));
    }
    wat.push_str("  (func (export \"_start\")\n");
    for i in 0..16 {
        // 32 pages = 2 MiB per memory, 32 MiB in all, under an 8 MiB cap.
        wat.push_str(&format!("    (drop (memory.grow $m{i} (i32.const 32)))\n"));
    }
    wat.push_str("  ))\n");
    let p = wat_project(&wat, 8);
    let r = unpooled(&p)
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(r.hooks[0].outcome, Outcome::Warn, "{}", summary(&r));
    assert!(
        r.hooks[0].stderr.contains("memory cap of 8 MiB"),
        "{}",
        summary(&r)
    );
}

#[tokio::test]
async fn table_grow_counts_against_the_memory_cap() {
    let wat = r#"(module
      (table $t 0 funcref)
      (func (export "_start")
        (drop (table.grow $t (ref.null func) (i32.const 10000000)))))"#;
    let p = wat_project(wat, 1);
    let r = unpooled(&p)
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(r.hooks[0].outcome, Outcome::Warn, "{}", summary(&r));
    assert!(
        r.hooks[0].stderr.contains("memory cap of 1 MiB"),
        "{}",
        summary(&r)
    );
}

#[cfg(unix)]
#[tokio::test]
async fn a_guest_with_fs_write_cannot_plant_a_symlink_out_of_the_project() {
    for module in [guest("hostile"), guest_p2("hostile")] {
        let p = Project::new(json!({"hooks": {"PreToolUse": [
            {"command": "h.wasm symlink /etc", "fs": "write"}]}}));
        std::fs::copy(&module, p.path().join("h.wasm")).unwrap();
        let r = p
            .runner()
            .fire(pre_tool(&p.path(), "bash", json!({})))
            .await;
        assert!(r.hooks[0].stdout.starts_with("err:"), "{}", summary(&r));
        assert!(
            std::fs::symlink_metadata(p.path().join("escape")).is_err(),
            "{}: a symlink was created",
            module.display()
        );
    }
}

#[cfg(unix)]
#[test]
fn a_guest_blocked_on_a_fifo_does_not_keep_the_cli_alive() {
    let p = with_module(json!({"hooks": {"PreToolUse": [
        {"command": "h.wasm read pipe", "timeout": 500}]}}));
    let fifo = std::ffi::CString::new(p.path().join("pipe").to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookhost"))
        .args(["run", "PreToolUse", "--tool", "bash", "--json", "--project"])
        .arg(p.path())
        // Trusted: an untrusted module's first compile is bounded by its short timeout.
        .args(["--trust", "all"])
        .arg("--home")
        .arg(p.home.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // A liveness bound, not a timing assertion: before the fix the process never exited.
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("hookhost did not exit after its hook timed out");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(json_of(&out)["hooks"][0]["outcome"], "timeout");
}
