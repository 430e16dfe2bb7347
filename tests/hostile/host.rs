//! Attacks on the host process itself: files a config names that never end (`/dev/zero`),
//! never answer (a FIFO, `/dev/stdin`), and modules that take forever to compile.

use crate::common::Project;
use crate::common::guests::guest;
use crate::{hookhost, json_of};
use serde_json::json;

#[cfg(unix)]
#[test]
fn a_hooks_json_symlinked_to_dev_zero_is_refused() {
    let p = Project::new(json!({}));
    let file = p.path().join(".coding-agent/hooks.json");
    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &file).unwrap();
    for args in [
        &["run", "PreToolUse", "--tool", "bash"][..],
        &["check"],
        &["list"],
        &["trust", "--dry-run"],
    ] {
        // Under `all`: the broken file is the project's only one, and fails closed (the default
        // `skip` only warns about an untrusted project file, whose hooks it would not run).
        let out = hookhost(&p, args, &[("HOOKHOST_TRUST", "all")]);
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            all.contains("not a regular file (a device)"),
            "{args:?}: {all}"
        );
        assert_ne!(out.status.code(), Some(0), "{args:?}: {all}");
    }
}

#[cfg(unix)]
#[test]
fn a_module_that_is_a_fifo_or_dev_stdin_fails_at_once() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "fifo.wasm", "timeout": 500},
        {"command": "stdin.wasm", "timeout": 500}]}}));
    let fifo = std::ffi::CString::new(p.path().join("fifo.wasm").to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    std::os::unix::fs::symlink("/dev/stdin", p.path().join("stdin.wasm")).unwrap();
    let out = hookhost(&p, &["run", "PreToolUse", "--tool", "bash", "--json"], &[]);
    let v = json_of(&out);
    assert_eq!(v["decision"], "block");
    assert_eq!(v["hooks"][0]["outcome"], "error", "{v}");
    assert!(
        v["hooks"][0]["message"]
            .as_str()
            .unwrap()
            .contains("a FIFO"),
        "{v}"
    );
}

#[test]
fn a_slow_first_compile_is_bounded_and_check_warms_the_cache() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "h.wasm args", "timeout": 100}]}}));
    std::fs::copy(guest("hostile"), p.path().join("h.wasm")).unwrap();
    let run = ["run", "PreToolUse", "--tool", "bash", "--json"];
    // A compile bound of 1 ms stands in for a module crafted to compile for minutes.
    let out = hookhost(&p, &run, &[("HOOKHOST_COMPILE_TIMEOUT_MS", "1")]);
    let v = json_of(&out);
    assert_eq!(v["decision"], "block", "{v}");
    let message = v["hooks"][0]["message"].as_str().unwrap();
    assert!(message.contains("still compiling"), "{message}");
    assert!(message.contains("hookhost check"), "{message}");
    // `check` compiles without the bound and fills the cache; the same run then passes.
    assert_eq!(hookhost(&p, &["check"], &[]).status.code(), Some(0));
    let out = hookhost(&p, &run, &[]);
    assert_eq!(json_of(&out)["hooks"][0]["outcome"], "pass");
}
