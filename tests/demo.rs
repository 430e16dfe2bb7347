//! `hookhost demo`, the main job, runs end to end and its trace shows every feature it
//! promises.

use std::process::Command;

#[test]
fn the_demo_session_shows_every_trigger_point() {
    let home = tempfile::TempDir::new().unwrap();
    let cache = tempfile::TempDir::new().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hookhost"))
        .arg("demo")
        .arg("--home")
        .arg(home.path())
        .env("HOME", home.path())
        .env("HOOKHOST_CACHE_DIR", cache.path())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expect_in_order = [
        "⚑ SessionStart -> pass",
        "+ context for the model: Project: demo",
        "⚑ UserPromptSubmit -> pass",
        "user  ▸ Clean up the build artifacts",
        // a shell hook blocks rm -rf
        "tool  ▸ bash {\"command\":\"rm -rf /\"}",
        "PreToolUse[0]  shell block",
        "✗ bash was blocked by a hook",
        // the wasm hook blocks a force-push
        "tool  ▸ bash {\"command\":\"git push --force origin main\"}",
        "PreToolUse[1]  wasm  block",
        "reason: wasm guard: `--force` rewrites shared history",
        // updatedInput rewrites a command
        "updated args: {\"command\":\"ls -la\"}",
        "⚑ PostToolUse -> pass",
        // a hook says allow, the system deny still wins
        "permission checker denied by system rule bash(curl * | sh*)",
        // the subagent: tool hooks apply, its own Stop hooks do not, SubagentStop fires
        "┌ subagent `checker` starts",
        "⚑ SubagentStop -> pass",
        "└ subagent `checker` done",
        "↻ TodoGuard: Your todo list still has 2 open item(s)",
        "⚑ PreCompact -> pass",
        "⚑ Stop -> FORCE",
        "↻ a Stop hook forced one more turn",
        "⚑ Stop -> pass",
        "⚑ SessionEnd -> pass",
        "Summary",
        "2 blocked by hooks, 1 denied by the permission checker",
        "1 TodoGuard continuation(s), 1 Stop-hook force(s)",
    ];
    let mut from = 0;
    for needle in expect_in_order {
        match text[from..].find(needle) {
            Some(i) => from += i + needle.len(),
            None => panic!("missing (in order) {needle:?} in the trace:\n{text}"),
        }
    }
    let sub = &text[text.find("┌ subagent").unwrap()..text.find("└ subagent").unwrap()];
    assert!(
        !sub.contains("⚑ Stop ->"),
        "a subagent never runs Stop hooks:\n{sub}"
    );
    assert!(
        sub.contains("⚑ PreToolUse -> pass"),
        "a subagent runs PreToolUse hooks:\n{sub}"
    );
    assert!(text.contains("wasm (median"), "{text}");
}

#[test]
fn demo_keep_leaves_the_project_to_look_at() {
    let home = tempfile::TempDir::new().unwrap();
    let cache = tempfile::TempDir::new().unwrap();
    let tmp = tempfile::TempDir::new().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hookhost"))
        .args(["demo", "--keep"])
        .arg("--home")
        .arg(home.path())
        .env("HOME", home.path())
        .env("HOOKHOST_CACHE_DIR", cache.path())
        .env("TMPDIR", tmp.path())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let kept = text
        .lines()
        .find_map(|l| l.strip_prefix("The project is kept in "))
        .and_then(|l| l.split(':').next())
        .unwrap_or_else(|| panic!("no kept path in:\n{text}"));
    let kept = std::path::Path::new(kept);
    assert!(
        kept.starts_with(tmp.path().canonicalize().unwrap()),
        "{}",
        kept.display()
    );
    assert!(kept.join(".coding-agent/hooks.json").is_file());
    assert!(kept.join(".coding-agent/audit.log").is_file());
    // The suggestion, followed as printed: trust, then the guard blocks `rm -rf /`.
    assert!(text.contains("run `hookhost trust`"), "{text}");
    let hookhost = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_hookhost"))
            .args(args)
            .current_dir(kept)
            .arg("--home")
            .arg(home.path())
            .env("HOME", home.path())
            .env("HOOKHOST_CACHE_DIR", cache.path())
            .env_remove("HOOKHOST_TRUST")
            .output()
            .unwrap()
    };
    assert!(hookhost(&["trust"]).status.success());
    let rm = hookhost(&[
        "run",
        "PreToolUse",
        "--tool",
        "bash",
        "--args",
        r#"{"command":"rm -rf /"}"#,
    ]);
    assert_eq!(
        rm.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&rm.stdout)
    );
}
