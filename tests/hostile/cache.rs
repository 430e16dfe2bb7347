//! Attacks on the compiled-code cache: an entry copied over another module's name, a cache
//! directory others can write, a symlink planted where the cache writes.

use crate::common::guests::guest;
use crate::common::{Project, pre_tool, summary};
use hookhost::hooks::files::sha256_hex;
use hookhost::hooks::spawner::{HookSpawner, WasmSpawner};
use hookhost::hooks::{Decision, Runner};
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

/// The project's cache folder for this engine (the one folder under the cache root besides
/// the source index).
fn entry_dir(p: &Project) -> PathBuf {
    std::fs::read_dir(p.cache.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|d| d.is_dir() && !d.ends_with("index"))
        .expect("a cache folder")
}

#[tokio::test]
async fn a_cache_entry_copied_over_a_guards_entry_is_not_run() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "guard.wasm stderr-exit 'guarded'"},
        {"command": "other.wasm args"}]}}));
    std::fs::copy(guest("hostile"), p.path().join("guard.wasm")).unwrap();
    // Another module: the same code with a custom section appended.
    let mut other = std::fs::read(guest("hostile")).unwrap();
    other.extend_from_slice(&wat::parse_str("(module (@custom \"x\" \"y\"))").unwrap()[8..]);
    std::fs::write(p.path().join("other.wasm"), &other).unwrap();
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(r.decision, Decision::Block);
    // Compile `other` too, then file its entry under the guard's name.
    let spawner = WasmSpawner::new(p.wasm_config()).unwrap();
    spawner
        .prepare_file(&p.path().join("other.wasm"))
        .await
        .unwrap();
    let dir = entry_dir(&p);
    let guard_hash = sha256_hex(&std::fs::read(p.path().join("guard.wasm")).unwrap());
    let other_hash = sha256_hex(&other);
    std::fs::copy(
        dir.join(format!("{other_hash}.module")),
        dir.join(format!("{guard_hash}.module")),
    )
    .unwrap();
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(r.decision, Decision::Block, "{}", summary(&r));
    assert_eq!(r.reason.as_deref(), Some("guarded"));
}

#[cfg(unix)]
#[tokio::test]
async fn a_cache_directory_others_can_write_is_not_used() {
    use std::os::unix::fs::PermissionsExt;
    let p = Project::new(json!({"hooks": {"PreToolUse": [{"command": "h.wasm args"}]}}));
    std::fs::copy(guest("hostile"), p.path().join("h.wasm")).unwrap();
    std::fs::set_permissions(p.cache.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let spawner = WasmSpawner::new(p.wasm_config()).unwrap();
    assert_eq!(
        spawner.cache_dir(),
        None,
        "a world-writable cache root is refused"
    );
    spawner
        .prepare_file(&p.path().join("h.wasm"))
        .await
        .unwrap();
    assert_eq!(spawner.stats().compiled.load(Ordering::Relaxed), 1);
    assert_eq!(
        std::fs::read_dir(p.cache.path()).unwrap().count(),
        0,
        "nothing written"
    );
    // It still runs, compiled in memory.
    let spawner = HookSpawner::with_wasm_config(p.wasm_config()).unwrap();
    let r = Runner::builder(p.path())
        .config_paths(p.paths())
        .spawner(std::sync::Arc::new(spawner))
        .build()
        .unwrap()
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(r.decision, Decision::Pass, "{}", summary(&r));
}

#[cfg(unix)]
#[tokio::test]
async fn a_symlink_planted_at_the_cache_temp_name_is_not_followed() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [{"command": "h.wasm args"}]}}));
    std::fs::copy(guest("hostile"), p.path().join("h.wasm")).unwrap();
    let victim = p.home.path().join("victim");
    std::fs::write(&victim, "untouched").unwrap();
    // Where the old code wrote its temp file: `.<entry>.<pid>.tmp` in the cache folder.
    let first = WasmSpawner::new(p.wasm_config()).unwrap();
    let dir = first.cache_dir().unwrap().to_path_buf();
    let hash = sha256_hex(&std::fs::read(p.path().join("h.wasm")).unwrap());
    let planted = dir.join(format!(".{hash}.module.{}.tmp", std::process::id()));
    std::os::unix::fs::symlink(&victim, &planted).unwrap();
    first.prepare_file(&p.path().join("h.wasm")).await.unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched");
    assert!(dir.join(format!("{hash}.module")).is_file());
}
