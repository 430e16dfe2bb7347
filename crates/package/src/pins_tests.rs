//! Tests of `pins.rs` and of the project file writes in `hooks_file.rs`.

use super::*;
use std::path::Path;

fn manifest(events: &[&str], fs: &str) -> Manifest {
    Manifest::from_json(
        json!({"name": "g", "version": "1", "events": events, "match": "bash",
               "capabilities": {"fs": fs, "memory": 64}})
        .to_string()
        .as_bytes(),
    )
    .unwrap()
}

#[test]
fn add_keeps_the_rest_and_replaces_itself() {
    let mut doc = json!({"$schema": "x", "hooks": {"PreToolUse": [{"command": "./a.sh"}]}});
    let d1 = Digest::of(b"1");
    let m = manifest(&["PreToolUse", "Stop"], "none");
    assert_eq!(
        add(&mut doc, "oci://r/g:1", entries_for(&m, "oci://r/g:1", &d1)),
        0
    );
    assert_eq!(
        add(&mut doc, "oci://r/g:1", entries_for(&m, "oci://r/g:1", &d1)),
        2
    );
    assert_eq!(doc["$schema"], "x");
    assert_eq!(doc["hooks"]["PreToolUse"][0]["command"], "./a.sh");
    assert_eq!(doc["hooks"]["PreToolUse"][1]["match"], "bash");
    assert!(doc["hooks"]["Stop"][0].get("match").is_none());
    assert_eq!(pinned(&doc).len(), 2);
    // The entry reads back as a valid hook.
    let paths = hookhost::config::ConfigPaths::with_home(Path::new("/tmp"), None);
    let (hooks, errors) = hookhost::config::parse_file(
        &doc.to_string(),
        Path::new("/tmp/.coding-agent/hooks.json"),
        hookhost::config::Scope::Project,
        &paths,
    );
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(hooks.len(), 3);
}

#[cfg(unix)]
#[test]
fn project_writes_never_follow_a_symlink() {
    let project = tempfile::TempDir::new().unwrap();
    let project = project.path().canonicalize().unwrap();
    let elsewhere = tempfile::TempDir::new().unwrap();
    let doc = json!({"hooks": {"Stop": []}});
    // A missing directory is created; the file is written and read back.
    write_project_doc(&project, &doc).unwrap();
    assert_eq!(read_project_doc(&project).unwrap(), doc);
    let file = project.join(".coding-agent/hooks.json");
    std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    write_project_doc(&project, &json!({"hooks": {}})).unwrap();
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&file).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600);
    // A symlinked hooks.json.
    let victim = elsewhere.path().join("hooks.json");
    std::fs::write(&victim, "{}").unwrap();
    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink(&victim, &file).unwrap();
    let e = write_project_doc(&project, &doc).unwrap_err().to_string();
    assert!(e.contains("symlink") && e.contains("hooks.json"), "{e}");
    assert!(
        read_project_doc(&project)
            .unwrap_err()
            .to_string()
            .contains("symlink")
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "{}");
    // A symlinked .coding-agent.
    std::fs::remove_dir_all(project.join(".coding-agent")).unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), project.join(".coding-agent")).unwrap();
    let e = write_project_doc(&project, &doc).unwrap_err().to_string();
    assert!(e.contains("symlink") && e.contains(".coding-agent"), "{e}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "{}");
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 1);
}

#[test]
fn update_moves_the_digest_and_keeps_user_edits() {
    let mut doc = json!({"hooks": {}});
    let (d1, d2) = (Digest::of(b"1"), Digest::of(b"2"));
    add(
        &mut doc,
        "oci://r/g:1",
        entries_for(&manifest(&["PreToolUse"], "none"), "oci://r/g:1", &d1),
    );
    doc["hooks"]["PreToolUse"][0]["match"] = json!("bash|sh");
    update(
        &mut doc,
        "oci://r/g:1",
        &manifest(&["PreToolUse", "Stop"], "write"),
        &d2,
    );
    let e = &doc["hooks"]["PreToolUse"][0];
    assert_eq!(
        (e["match"].as_str(), e["fs"].as_str()),
        (Some("bash|sh"), Some("write"))
    );
    assert_eq!(e["package"]["digest"], d2.to_string());
    assert_eq!(doc["hooks"]["Stop"][0]["package"]["digest"], d2.to_string());
    assert_eq!(remove(&mut doc, |r| r == "oci://r/g:1"), 2);
    assert_eq!(doc, json!({"hooks": {}}));
}
