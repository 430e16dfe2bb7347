//! `hookhost replay` over the real transcripts in tests/fixtures/transcripts/ (written by the
//! pinned Claude Code, Codex and Gemini CLI), with a real shell guard in a temporary HOME.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/transcripts")
        .join(rel)
}

/// A HOME whose global hooks.json holds one shell guard on bash that blocks commands holding
/// `needle`, and an empty project.
fn guarded(needle: &str) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join("home/.coding-agent")).unwrap();
    std::fs::create_dir_all(t.path().join("project")).unwrap();
    let guard = t.path().join("guard.sh");
    std::fs::write(
        &guard,
        format!("#!/bin/sh\ncase \"$(cat)\" in *'{needle}'*) echo 'replay-guard: not {needle}' >&2; exit 2;; esac\nexit 0\n"),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&guard, std::fs::Permissions::from_mode(0o755)).unwrap();
    let hooks = serde_json::json!({"hooks": {"PreToolUse": [{"command": guard, "match": "bash"}]}});
    std::fs::write(
        t.path().join("home/.coding-agent/hooks.json"),
        hooks.to_string(),
    )
    .unwrap();
    t
}

fn replay(t: &tempfile::TempDir, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hookhost"))
        .arg("replay")
        .args(args)
        .arg("--project")
        .arg(t.path().join("project"))
        .arg("--home")
        .arg(t.path().join("home"))
        .env("HOME", t.path().join("home"))
        .env_remove("HOOKHOST_TRUST")
        .env("HOOKHOST_CACHE_DIR", t.path().join("cache"))
        .output()
        .unwrap()
}

fn json_of(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)))
}

#[test]
fn a_new_rm_rf_guard_blocks_what_claude_and_gemini_ran() {
    let t = guarded("rm -rf");
    for (rel, tool) in [
        ("claude/session.jsonl", "Bash"),
        ("gemini/session.jsonl", "run_shell_command"),
    ] {
        let path = fixture(rel);
        let o = replay(&t, &[path.to_str().unwrap(), "--json"]);
        assert_eq!(
            o.status.code(),
            Some(3),
            "{rel}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v = json_of(&o);
        let diffs = v["differences"].as_array().unwrap();
        assert_eq!(diffs.len(), 1, "{rel}: {v}");
        assert_eq!(diffs[0]["event"], "PreToolUse");
        assert_eq!(diffs[0]["now"], serde_json::json!(["blocked"]));
        assert_eq!(diffs[0]["step"]["agentTool"], tool);
        assert_eq!(diffs[0]["step"]["args"]["command"], "rm -rf build");
        assert_eq!(diffs[0]["step"]["happened"]["outcome"], "ran");
        assert!(
            diffs[0]["report"]["reason"]
                .as_str()
                .unwrap()
                .contains("replay-guard"),
            "{v}"
        );
        let human = replay(&t, &[path.to_str().unwrap()]);
        let out = String::from_utf8_lossy(&human.stdout);
        assert!(out.contains("shell hooks run as they would"), "{out}");
        assert!(out.contains("now blocked (ran in the session)"), "{out}");
    }
}

#[test]
fn codex_refused_rm_rf_itself_so_only_a_new_echo_guard_differs() {
    let path = fixture("codex/rollout.jsonl");
    // Codex's own rule already refused `rm -rf build`: a guard blocking it changes nothing.
    let same = replay(&guarded("rm -rf"), &[path.to_str().unwrap()]);
    assert_eq!(
        same.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&same.stdout)
    );
    assert!(String::from_utf8_lossy(&same.stdout).contains("nothing would be decided differently"));
    let o = replay(&guarded("echo hi"), &[path.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(3));
    let v = json_of(&o);
    assert_eq!(v["format"], "codex");
    assert_eq!(v["differences"][0]["step"]["agentTool"], "exec_command");
    assert_eq!(v["differences"][0]["step"]["tool"], "bash");
}

#[test]
fn nothing_differs_without_a_matching_guard() {
    let t = guarded("shutdown -h now");
    for rel in [
        "claude/session.jsonl",
        "codex/rollout.jsonl",
        "gemini/session.jsonl",
    ] {
        let o = replay(&t, &[fixture(rel).to_str().unwrap(), "--json"]);
        assert_eq!(o.status.code(), Some(0), "{rel}");
        let v = json_of(&o);
        assert_eq!(v["differences"], serde_json::json!([]));
        assert_eq!(v["steps"], 5, "{rel}: prompt, three calls, stop");
    }
}

#[test]
fn malformed_and_unreadable_input_say_where_and_how() {
    let t = guarded("rm -rf");
    let bad = t.path().join("cut.jsonl");
    let good = std::fs::read_to_string(fixture("gemini/session.jsonl")).unwrap();
    let first = good.lines().next().unwrap();
    std::fs::write(&bad, format!("{first}\n{{\"id\": \"x\", \"type\n")).unwrap();
    let o = replay(&t, &[bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("cut.jsonl: line 2: not JSON") && err.contains("fix or delete that line"),
        "{err}"
    );

    std::fs::write(&bad, "{\"hello\": 1}\n").unwrap();
    let err = String::from_utf8_lossy(&replay(&t, &[bad.to_str().unwrap()]).stderr).into_owned();
    assert!(
        err.contains("not a transcript hookhost can read") && err.contains("--format"),
        "{err}"
    );

    let o = replay(&t, &[t.path().join("missing.jsonl").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.jsonl"));

    let o = replay(
        &t,
        &[
            fixture("codex/rollout.jsonl").to_str().unwrap(),
            "--format",
            "vim",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("use --format claude, codex, gemini or hookhost")
    );
}

/// Fires `args` through `hookhost run` with no hooks, logging to `<t>/log` as `mode` says.
fn record(t: &tempfile::TempDir, mode: &str, args: &[&str]) {
    let empty = t.path().join("recording-home");
    std::fs::create_dir_all(&empty).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hookhost"))
        .arg("run")
        .args(args)
        .arg("--project")
        .arg(t.path().join("project"))
        .arg("--home")
        .arg(&empty)
        .env("HOME", &empty)
        .env("HOOKHOST_LOG", mode)
        .env("HOOKHOST_LOG_DIR", t.path().join("log"))
        .env("HOOKHOST_CACHE_DIR", t.path().join("cache"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn hookhosts_own_full_log_replays_through_a_new_guard() {
    let t = guarded("rm -rf");
    let session = ["--session", "logged-1"];
    let prompt = [&["UserPromptSubmit", "--prompt", "clean up"][..], &session].concat();
    record(&t, "full", &prompt);
    let rm = [
        &[
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"rm -rf build"}"#,
        ][..],
        &session,
    ]
    .concat();
    record(&t, "full", &rm);
    record(&t, "full", &[&["Stop"][..], &session].concat());
    // Another session after it: `--session` picks the one asked for.
    record(
        &t,
        "full",
        &["UserPromptSubmit", "--prompt", "x", "--session", "other"],
    );
    let log = t.path().join("log/decisions.jsonl");
    let log = log.to_str().unwrap();

    let out = replay(&t, &[log, "--session", "logged-1", "--json"]);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let j = json_of(&out);
    assert_eq!(j["format"], "hookhost");
    assert_eq!(j["sessionId"], "logged-1");
    assert_eq!(j["steps"], 3, "{j}");
    let d = &j["differences"][0];
    assert_eq!(d["now"], serde_json::json!(["blocked"]), "{j}");
    assert_eq!(d["step"]["args"]["command"], "rm -rf build", "{j}");
    let reason = d["report"]["reason"].as_str().unwrap();
    assert!(reason.contains("replay-guard"), "{j}");

    // Without --session: the session of the last line, which the guard does not touch.
    let out = replay(&t, &[log, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(json_of(&out)["sessionId"], "other");
}

#[test]
fn a_default_log_says_payloads_were_not_kept_and_how_to_keep_them() {
    let t = guarded("rm -rf");
    record(
        &t,
        "on",
        &[
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"ls"}"#,
        ],
    );
    let log = t.path().join("log/decisions.jsonl");
    let out = replay(&t, &[log.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("kept no payload") && err.contains("HOOKHOST_LOG=full"),
        "{err}"
    );
}
