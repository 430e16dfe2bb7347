//! Attacks through the environment (first found in issue 22's review): variables a
//! project's Claude Code settings `env` can set for the hooks the adapter runs in (`HOME`,
//! `HOOKHOST_MANAGED_CONFIG`, `HOOKHOST_CLAUDE_MANAGED_SETTINGS`, `HOOKHOST_CACHE_DIR`,
//! `XDG_CACHE_HOME`, `HOOKHOST_COMPILE_TIMEOUT_MS`), the adapter finding no project above the
//! payload's `cwd`, and a global wasm hook whose relative module the project supplies.
//!
//! The tests run as root (CI does): a managed override is a file of root's in a directory of
//! root's, and "not owned by root" is a `chown` to nobody (uid 65534).

use super::json_of;
use crate::common::Project;
use serde_json::{Value, json};
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// A native guard that blocks every PreToolUse, saying `tag`.
fn blocker(tag: &str) -> Value {
    json!({"hooks": {"PreToolUse": [{"command": format!("cat >/dev/null; echo {tag} >&2; exit 2")}]}})
}

const LS: [&str; 7] = crate::common::RUN_LS_JSON;

/// `hookhost hook --for AGENT ARGS...` with `payload` on stdin, run in `cwd`, with the
/// project's HOME and cache, `--home` when `home` is given, and `env` added last (what a
/// project's settings `env` would add).
fn adapter(
    p: &Project,
    agent: &str,
    args: &[&str],
    home: Option<&Path>,
    cwd: &Path,
    payload: &Value,
    env: &[(&str, &str)],
) -> Output {
    use std::io::Write;
    let mut c = Command::new(env!("CARGO_BIN_EXE_hookhost"));
    c.args(["hook", "--for", agent]).args(args);
    if let Some(home) = home {
        c.arg("--home").arg(home);
    }
    c.current_dir(cwd)
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .env("HOOKHOST_MANAGED_CONFIG", p.managed_file())
        .env(
            "HOOKHOST_CLAUDE_MANAGED_SETTINGS",
            p.home.path().join("etc-claude-code/managed-settings.json"),
        )
        .env_remove("HOOKHOST_TRUST")
        .env_remove("HOOKHOST_ADAPTER")
        .env_remove("HOOKHOST_COMPILE_TIMEOUT_MS")
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("GEMINI_PROJECT_DIR")
        .env_remove("XDG_CACHE_HOME")
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(payload.to_string().as_bytes());
    drop(input);
    child.wait_with_output().unwrap()
}

/// Claude Code's PreToolUse payload for a Bash `command` run in `cwd`.
fn claude_pre(cwd: &Path, command: &str) -> Value {
    json!({
        "session_id": "s", "transcript_path": "/dev/null", "cwd": cwd,
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "t1",
    })
}

/// The adapter's answer blocks the call in Claude Code's rules (exit 2, or a deny).
fn claude_blocks(out: &Output) -> bool {
    match out.status.code() {
        Some(2) => true,
        Some(0) => {
            let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
            v["hookSpecificOutput"]["permissionDecision"] == "deny"
        }
        _ => false,
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn all_text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[cfg(unix)]
fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[cfg(unix)]
fn chown(path: &Path, uid: u32) {
    std::os::unix::fs::chown(path, Some(uid), Some(uid)).unwrap();
}

/// Whether this test process is root (the managed-file tests need to create root's files
/// and files of another user).
#[cfg(unix)]
fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// A core wasm module that exits 0 at once.
fn pass_module() -> Vec<u8> {
    wat::parse_str(r#"(module (func (export "_start")))"#).unwrap()
}

#[test]
fn home_from_a_projects_env_does_not_hide_global_guards() {
    // The project's Claude settings say `"env": {"HOME": "<an empty dir>"}`: the adapter used
    // to read the user's guards from there, found none, and `rm -rf ~` passed with empty
    // stdout and stderr. The home comes from the password database or `--home`.
    let p = Project::new(json!({}));
    p.write_global(blocker("global-guard"));
    let empty = tempfile::TempDir::new().unwrap();
    let payload = claude_pre(&p.path(), "rm -rf ~");
    let root = p.path();
    let project = ["--project", root.to_str().unwrap()];
    let out = adapter(
        &p,
        "claude",
        &project,
        Some(p.home.path()),
        &p.path(),
        &payload,
        &[("HOME", empty.path().to_str().unwrap())],
    );
    assert!(claude_blocks(&out), "{out:?}");
    assert!(all_text(&out).contains("global-guard"), "{out:?}");
    // Said once, on one line: which home was used, and how to choose another.
    let notes: Vec<&str> = std::str::from_utf8(&out.stderr)
        .unwrap()
        .lines()
        .filter(|l| l.contains("$HOME"))
        .collect();
    assert_eq!(notes.len(), 1, "{out:?}");
    assert!(notes[0].contains("--home"), "{notes:?}");
}

#[cfg(unix)]
#[test]
fn adapter_takes_the_home_from_the_password_database_not_from_home() {
    // Without `--home`, `$HOME` is not where the adapter looks: a guard placed in a `$HOME`
    // the project chose does not run (the project cannot choose which guards run either
    // way), and the mismatch is named on stderr.
    let p = Project::new(json!({}));
    p.write_global(blocker("guard-in-dollar-home"));
    let payload = claude_pre(&p.path(), "ls");
    let root = p.path();
    let project = ["--project", root.to_str().unwrap()];
    let out = adapter(&p, "claude", &project, None, &p.path(), &payload, &[]);
    let err = stderr(&out);
    assert!(!err.contains("guard-in-dollar-home"), "{out:?}");
    assert!(
        err.lines()
            .any(|l| l.contains("$HOME") && l.contains("--home")),
        "{out:?}"
    );
}

#[test]
fn every_command_takes_the_home_the_adapter_takes() {
    // `run` (and every other command) takes the home as the adapter does: a guard placed in
    // a `$HOME` the project chose does not run without `--home`, and the mismatch is named.
    let p = Project::new(json!({}));
    p.write_global(blocker("guard-in-dollar-home"));
    let plain = |args: &[&str], home: Option<&Path>, dollar_home: &Path| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_hookhost"));
        c.args(args).arg("--project").arg(p.path());
        if let Some(h) = home {
            c.arg("--home").arg(h);
        }
        c.env("HOME", dollar_home)
            .env("HOOKHOST_CACHE_DIR", p.cache.path())
            .env("HOOKHOST_MANAGED_CONFIG", p.managed_file())
            .env("HOOKHOST_LOG_DIR", p.home.path().join("hookhost-log"))
            .env_remove("HOOKHOST_TRUST")
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let out = plain(&LS, None, p.home.path());
    let err = stderr(&out);
    assert!(!err.contains("guard-in-dollar-home"), "{out:?}");
    assert!(
        err.lines()
            .any(|l| l.contains("$HOME") && l.contains("--home")),
        "{out:?}"
    );
    // One home for `trust` and the adapter, whatever `$HOME` says: what `trust --home H`
    // records, the adapter given `--home H` sees (the project's guard runs, trusted).
    std::fs::remove_file(p.home.path().join(".coding-agent/hooks.json")).unwrap();
    p.write(
        ".coding-agent/hooks.json",
        &blocker("project-guard").to_string(),
    );
    let elsewhere = tempfile::TempDir::new().unwrap();
    let trusted = plain(&["trust"], Some(p.home.path()), elsewhere.path());
    assert_eq!(trusted.status.code(), Some(0), "{trusted:?}");
    assert!(p.home.path().join(".coding-agent/trusted.json").is_file());
    assert!(!elsewhere.path().join(".coding-agent").exists());
    let payload = claude_pre(&p.path(), "ls");
    let root = p.path();
    let project = ["--project", root.to_str().unwrap()];
    let out = adapter(
        &p,
        "claude",
        &project,
        Some(p.home.path()),
        &p.path(),
        &payload,
        &[("HOME", elsewhere.path().to_str().unwrap())],
    );
    assert!(claude_blocks(&out), "{out:?}");
    assert!(all_text(&out).contains("project-guard"), "{out:?}");
}

#[cfg(unix)]
#[test]
fn managed_override_not_owned_by_root_is_refused() {
    // On a machine without a managed file, a project's `env` names one of its own making
    // (outside the project: in a directory the attacker owns, or one anybody can write)
    // that says "managed hooks only": the user's guards would be switched off. A managed
    // file is root's: an override that is not root's, or that others can write, is refused,
    // which is a config error (PreToolUse blocks) and never "no managed policy" silently; the
    // user's guards still run.
    if !is_root() {
        eprintln!("skipped: needs root to create root's and another user's files");
        return;
    }
    let p = Project::new(json!({}));
    p.write_global(blocker("user-guard"));
    let policy = json!({"allowManagedHooksOnly": true}).to_string();
    for case in [
        "owned-by-nobody",
        "group-writable-file",
        "writable-directory",
    ] {
        let dir = tempfile::TempDir::new().unwrap();
        chmod(dir.path(), 0o755);
        let file = dir.path().join("managed.json");
        std::fs::write(&file, &policy).unwrap();
        chmod(&file, 0o644);
        match case {
            "owned-by-nobody" => chown(&file, 65534),
            "group-writable-file" => chmod(&file, 0o664),
            _ => chmod(dir.path(), 0o777),
        }
        for var in [
            "HOOKHOST_MANAGED_CONFIG",
            "HOOKHOST_CLAUDE_MANAGED_SETTINGS",
        ] {
            let out = p.cli(&LS, &[(var, file.to_str().unwrap())]);
            assert_eq!(out.status.code(), Some(2), "{case} {var}: {out:?}");
            let text = all_text(&out);
            assert!(text.contains("user-guard"), "{case} {var}: {out:?}");
            assert!(text.contains(var), "{case} {var}: not named: {out:?}");
        }
        // Through the adapter, as Claude Code runs it.
        let payload = claude_pre(&p.path(), "ls");
        let root = p.path();
        let project = ["--project", root.to_str().unwrap()];
        let out = adapter(
            &p,
            "claude",
            &project,
            Some(p.home.path()),
            &p.path(),
            &payload,
            &[("HOOKHOST_MANAGED_CONFIG", file.to_str().unwrap())],
        );
        assert!(claude_blocks(&out), "{case}: {out:?}");
        assert!(all_text(&out).contains("user-guard"), "{case}: {out:?}");
    }
    // The same file, root's and private, is honoured (packaging, tests).
    let dir = tempfile::TempDir::new().unwrap();
    chmod(dir.path(), 0o755);
    let file = dir.path().join("managed.json");
    std::fs::write(&file, &policy).unwrap();
    chmod(&file, 0o644);
    let out = p.cli(&LS, &[("HOOKHOST_MANAGED_CONFIG", file.to_str().unwrap())]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

#[cfg(unix)]
#[test]
fn managed_override_naming_a_system_file_does_not_silence_the_global_audit() {
    // `HOOKHOST_MANAGED_CONFIG=/etc/hostname`: root's file, but no hooks file. A managed file
    // that cannot be read turns the other files off (it may have said "managed hooks only"),
    // so the user's PostToolUse audit went silent. A file only a variable names does not get
    // to turn the user's files off by being broken: its error is reported, the rest runs.
    if !is_root() {
        eprintln!("skipped: needs root to create root's files");
        return;
    }
    let p = Project::new(json!({}));
    let audit = p.home.path().join("audit.log");
    p.write_global(json!({"hooks": {"PostToolUse": [
        {"command": format!("cat >/dev/null; echo audited >> '{}'", audit.display())}]}}));
    let dir = tempfile::TempDir::new().unwrap();
    chmod(dir.path(), 0o755);
    let hostname = dir.path().join("hostname");
    std::fs::write(&hostname, "buildhost\n").unwrap();
    chmod(&hostname, 0o644);
    let post = [
        "run",
        "PostToolUse",
        "--tool",
        "bash",
        "--args",
        r#"{"command":"ls"}"#,
        "--json",
    ];
    for var in [
        "HOOKHOST_MANAGED_CONFIG",
        "HOOKHOST_CLAUDE_MANAGED_SETTINGS",
    ] {
        let _ = std::fs::remove_file(&audit);
        let out = p.cli(&post, &[(var, hostname.to_str().unwrap())]);
        assert_eq!(
            std::fs::read_to_string(&audit).unwrap_or_default(),
            "audited\n",
            "{var}: the audit did not run: {out:?}"
        );
        assert!(
            all_text(&out).contains(hostname.to_str().unwrap()),
            "{var}: the broken file is not named: {out:?}"
        );
        // On PreToolUse the broken managed file still fails closed.
        let out = p.cli(&LS, &[(var, hostname.to_str().unwrap())]);
        assert_eq!(out.status.code(), Some(2), "{var}: {out:?}");
    }
}

#[test]
fn cache_dir_inside_the_project_is_refused() {
    // The compiled-code cache holds native code that runs unchecked. A cloned repository's
    // settings `env` points `HOOKHOST_CACHE_DIR` (or `XDG_CACHE_HOME`) into the clone: the
    // directory is the user's (the clone is) and not writable by others, so the private-
    // directory check passed and the clone could ship forged entries. A cache root inside
    // the project is refused (a warning names it) and modules are compiled in memory.
    let p = Project::new(json!({"hooks": {"PreToolUse": [{"command": "m.wasm"}]}}));
    std::fs::write(p.path().join("m.wasm"), pass_module()).unwrap();
    let inside = p.path().join(".hkcache");
    // The default it falls back to: under the test's own cache.
    let xdg_ok = p.cache.path().to_str().unwrap();
    let out = p.cli(
        &LS,
        &[
            ("HOOKHOST_CACHE_DIR", inside.to_str().unwrap()),
            ("XDG_CACHE_HOME", xdg_ok),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        !inside.exists(),
        "run: the cache was made inside the project"
    );
    assert!(stderr(&out).contains("HOOKHOST_CACHE_DIR"), "{out:?}");
    // The adapter, through `HOOKHOST_CACHE_DIR` and through `XDG_CACHE_HOME` (the default
    // cache root's base).
    let payload = claude_pre(&p.path(), "ls");
    let root = p.path();
    let project = ["--project", root.to_str().unwrap()];
    let xdg = p.path().join(".xdg");
    for (var, dir) in [("HOOKHOST_CACHE_DIR", &inside), ("XDG_CACHE_HOME", &xdg)] {
        let mut env = vec![(var, dir.to_str().unwrap())];
        if var == "XDG_CACHE_HOME" {
            env.push(("HOOKHOST_CACHE_DIR", ""));
        }
        let out = adapter(
            &p,
            "claude",
            &project,
            Some(p.home.path()),
            &p.path(),
            &payload,
            &env,
        );
        assert_eq!(out.status.code(), Some(0), "{var}: {out:?}");
        assert!(
            !dir.exists(),
            "{var}: the cache was made inside the project"
        );
        assert!(stderr(&out).contains(var), "{var}: {out:?}");
    }
}

#[test]
fn compile_timeout_from_a_projects_env_does_not_skip_a_global_wasm_hook() {
    // `HOOKHOST_COMPILE_TIMEOUT_MS=0` in a project's `env`: every first compile gave up at
    // once, a spawn failure, which on a non-blocking event only warns, so the user's wasm
    // hook on UserPromptSubmit never ran. The adapter ignores the variable.
    let p = Project::new(json!({}));
    // A module that answers with a context line (which the adapter relays).
    let say = wat::parse_str(
        r#"(module
            (import "wasi_snapshot_preview1" "fd_write"
                (func $fd_write (param i32 i32 i32 i32) (result i32)))
            (memory (export "memory") 1)
            (data (i32.const 16) "{\"additionalContext\":\"wasm-audit-ran\"}\n")
            (func (export "_start")
                (i32.store (i32.const 0) (i32.const 16))
                (i32.store (i32.const 4) (i32.const 39))
                (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))"#,
    )
    .unwrap();
    let module = p.home.path().join(".coding-agent/hooks/audit.wasm");
    std::fs::create_dir_all(module.parent().unwrap()).unwrap();
    std::fs::write(&module, say).unwrap();
    p.write_global(json!({"hooks": {"UserPromptSubmit": [
        {"command": module.to_str().unwrap()}]}}));
    let payload = json!({
        "session_id": "s", "transcript_path": "/dev/null", "cwd": p.path(),
        "hook_event_name": "UserPromptSubmit", "prompt": "hello",
    });
    let root = p.path();
    let project = ["--project", root.to_str().unwrap()];
    let out = adapter(
        &p,
        "claude",
        &project,
        Some(p.home.path()),
        &p.path(),
        &payload,
        &[("HOOKHOST_COMPILE_TIMEOUT_MS", "0")],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        all_text(&out).contains("wasm-audit-ran"),
        "the user's wasm hook did not run: {out:?}"
    );
}

#[test]
fn adapter_finds_the_project_above_cwd() {
    // Codex names no project directory for its hooks; a session in `repo/src` gave the
    // adapter `cwd` = `repo/src`, which has no `.coding-agent/`: none of the repository's
    // guards ran. The adapter looks upwards for the nearest project root.
    for agent in ["codex", "claude"] {
        let p = Project::new(blocker("project-guard"));
        std::fs::create_dir_all(p.path().join(".git")).unwrap();
        let src = p.path().join("src/deep");
        std::fs::create_dir_all(&src).unwrap();
        let payload = claude_pre(&src, "rm -rf .");
        let out = adapter(
            &p,
            agent,
            &["--trust", "all"],
            Some(p.home.path()),
            &src,
            &payload,
            &[],
        );
        assert!(claude_blocks(&out), "{agent}: {out:?}");
        assert!(all_text(&out).contains("project-guard"), "{agent}: {out:?}");
    }
}

#[test]
fn the_search_for_a_project_stops_at_the_home_directory() {
    // Above the home directory there is no project of this session; a session directly in a
    // directory of home without markers keeps that directory (the user's `~/.claude/` and
    // `~/.coding-agent/` do not make the home the project).
    let p = Project::new(json!({}));
    let home = p.path().join("home");
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    std::fs::create_dir_all(home.join(".coding-agent")).unwrap();
    let work = home.join("work");
    std::fs::create_dir_all(&work).unwrap();
    // A guard in the outer directory (above home) must not become this session's project.
    p.write(".coding-agent/hooks.json", &blocker("outer").to_string());
    std::fs::write(
        work.join("marker"),
        "", // not a project marker
    )
    .unwrap();
    let payload = claude_pre(&work, "ls");
    let out = adapter(
        &p,
        "codex",
        &["--trust", "all"],
        Some(&home),
        &work,
        &payload,
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(!all_text(&out).contains("outer"), "{out:?}");
}

#[test]
fn global_relative_wasm_module_is_a_config_error() {
    // `~/.coding-agent/hooks.json` says `"command": "guard.wasm"`: relative to the hook's
    // cwd, the project. Every clone supplied the module the user's trusted hook ran (its
    // `curl|sh` rewrite used), and `check` said nothing.
    let p = Project::new(json!({}));
    p.write_global(json!({"hooks": {"PreToolUse": [{"command": "guard.wasm"}]}}));
    std::fs::write(p.path().join("guard.wasm"), pass_module()).unwrap();
    let out = p.cli(&["check"], &[]);
    let text = all_text(&out);
    assert_ne!(out.status.code(), Some(0), "check is silent: {out:?}");
    let global = p.home.path().join(".coding-agent/hooks.json");
    assert!(
        text.contains(global.to_str().unwrap()) && text.contains("PreToolUse[0]"),
        "not named: {text}"
    );
    assert!(text.contains("~/"), "no fix given: {text}");
    // And it never runs the project's module: the broken config fails closed.
    let out = p.cli(&LS, &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let r = json_of(&out);
    assert!(
        r["hooks"].as_array().is_none_or(|h| h
            .iter()
            .all(|h| !h["command"].as_str().unwrap_or("").contains("guard.wasm"))),
        "{r}"
    );
}
