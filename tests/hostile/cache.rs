//! Attacks on the compiled-code cache: an entry copied over another module's name, a cache
//! directory others can write, a symlink planted where the cache writes.

use crate::common::guests::guest;
use crate::common::{Project, pre_tool, summary};
use hookhost::files::sha256_hex;
use hookhost::spawner::{HookSpawner, WasmSpawner};
use hookhost::{Decision, Runner};
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
    let spawner = HookSpawner::with_wasm_config(p.wasm_config());
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

#[tokio::test]
async fn a_trusted_module_edited_after_its_stamp_was_indexed_does_not_run() {
    use crate::{runner_under, trust_all};
    use hookhost::TrustPolicy;
    // The same guest with a custom section whose payload is edited in place later: same size.
    let with_payload = |payload: &str| {
        let mut bytes = std::fs::read(guest("hostile")).unwrap();
        let custom = wat::parse_str(format!("(module (@custom \"x\" \"{payload}\"))")).unwrap();
        bytes.extend_from_slice(&custom[8..]);
        bytes
    };
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "h.wasm stderr-exit 'guarded'"}]}}));
    let module = p.path().join("h.wasm");
    std::fs::write(&module, with_payload("aaaa")).unwrap();
    // Old enough for its stamp to be indexed (the index refuses stamps of files changed
    // within the last second, which a same-tick rewrite could leave unchanged).
    std::thread::sleep(std::time::Duration::from_millis(1100));
    trust_all(&p);
    let r = runner_under(&p, TrustPolicy::Block)
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(r.reason.as_deref(), Some("guarded"), "{}", summary(&r));
    let index = p.cache.path().join("index");
    assert_eq!(
        std::fs::read_dir(&index).unwrap().count(),
        1,
        "the settled module's stamp is indexed"
    );
    // Rewritten in place, same size, mtime put back: only the change time tells.
    let mtime = std::fs::metadata(&module).unwrap().modified().unwrap();
    std::fs::write(&module, with_payload("bbbb")).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&module)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    let r = runner_under(&p, TrustPolicy::Block)
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    // Blocked as changed, without running it (it would have answered "guarded").
    assert_eq!(r.decision, Decision::Block, "{}", summary(&r));
    assert_ne!(r.reason.as_deref(), Some("guarded"), "{}", summary(&r));
}

#[test]
fn compile_warms_the_cache_folder_that_run_reads() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "h.wasm stderr-exit 'guarded'"}]}}));
    std::fs::copy(guest("hostile"), p.path().join("h.wasm")).unwrap();
    let folders = || {
        std::fs::read_dir(p.cache.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|d| d.is_dir() && !d.ends_with("index"))
            .collect::<Vec<_>>()
    };
    let out = p.cli(&["compile"], &[]);
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("compiled in"));
    let out = p.cli(&["compile"], &[]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("already compiled"),
        "{out:?}"
    );
    let warmed = folders();
    assert_eq!(warmed.len(), 1);
    let out = p.cli(&["run", "PreToolUse", "--tool", "bash"], &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(folders(), warmed, "run used the folder compile warmed");
    // A module that is not wasm is an error naming it.
    let bad = p.path().join("bad.wasm");
    std::fs::write(&bad, "not wasm").unwrap();
    let out = p.cli(&["compile", bad.to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("bad.wasm"));
}
