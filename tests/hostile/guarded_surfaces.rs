//! Surfaces the guarded agent reaches (issue 37, item 5): a warm engine serving a client
//! whose groups or resource limits differ from its own (the hooks then run with the
//! engine's, not the caller's), silent connections that hold the engine's accepting thread
//! while a real client waits, terminal escapes from a cloned repository's path or a forged
//! decision log reaching the user's terminal through `explain` and `log`, and a policy change
//! that lets through what a guard used to block going unreported by `replay`.

use crate::common::Project;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

const HOOKHOST: &str = env!("CARGO_BIN_EXE_hookhost");

// ---- the warm engine's client checks ----

/// A project whose guard records its parent's pid: the client's own pid when the client ran
/// it cold, the engine's when the engine served it.
fn recording() -> Project {
    Project::new(json!({"hooks": {"PreToolUse": [{"command":
        "echo \"$PPID\" >> \"$HOOK_PROJECT_DIR/seen\"; exit 0"}]}}))
}

fn payload(p: &Project) -> Vec<u8> {
    json!({"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "ls"}, "cwd": p.path()})
    .to_string()
    .into_bytes()
}

/// A private directory for one test's engines.
fn runtime() -> TempDir {
    let d = TempDir::new().unwrap();
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    d
}

/// What a client process is started with besides its environment.
#[derive(Clone, Copy)]
enum Twist {
    /// Nothing: the engine's own state.
    None,
    /// Supplementary groups: these.
    Groups(&'static [libc::gid_t]),
    /// `RLIMIT_NOFILE`'s soft limit one below the inherited one.
    FewerFiles,
}

/// `hookhost hook --for claude` on `p` with the warm engine on (`HOOKHOST_DAEMON=wait`: the
/// same environment for every client, so the same engine), started with `twist`; the
/// command, spawned (stdin written and closed).
fn client(p: &Project, rt: &Path, twist: Twist) -> std::process::Child {
    let mut c = Command::new(HOOKHOST);
    c.args(["hook", "--for", "claude", "--trust", "all", "--project"])
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .current_dir(p.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .env("HOOKHOST_MANAGED_CONFIG", p.managed_file())
        .env("HOOKHOST_LOG_DIR", p.home.path().join("hookhost-log"))
        .env("XDG_RUNTIME_DIR", rt)
        .env("HOOKHOST_DAEMON", "wait")
        .env("HOOKHOST_DAEMON_IDLE_MS", "4000")
        .env_remove("HOOKHOST_ADAPTER")
        .env_remove("RUST_LOG")
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .env_remove("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: the closures call only async-signal-safe functions (setgroups, getrlimit,
    // setrlimit) between fork and exec.
    unsafe {
        match twist {
            Twist::None => {}
            Twist::Groups(groups) => {
                c.pre_exec(move || {
                    if libc::setgroups(groups.len(), groups.as_ptr()) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
            Twist::FewerFiles => {
                c.pre_exec(|| {
                    let mut l = libc::rlimit {
                        rlim_cur: 0,
                        rlim_max: 0,
                    };
                    if libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut l) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    l.rlim_cur = l.rlim_cur.min(4096) - 1;
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &raw const l) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
    }
    let mut child = c.spawn().unwrap();
    child.stdin.take().unwrap().write_all(&payload(p)).unwrap();
    child
}

/// Runs a client to its end: its output and whether the engine served it (the guard's
/// parent was not the client).
fn served(p: &Project, rt: &Path, twist: Twist) -> (Output, bool) {
    let child = client(p, rt, twist);
    let pid = child.id();
    let out = child.wait_with_output().unwrap();
    (out, last_parent(p) != pid)
}

fn last_parent(p: &Project) -> u32 {
    p.read("seen")
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(0)
}

/// An engine started (and proven to serve) by a client with the engine's own state.
fn started_engine(p: &Project, rt: &Path) {
    let (out, warm) = served(p, rt, Twist::None);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(warm, "the plain client was served warm: {}", p.read("seen"));
}

#[test]
fn a_client_with_a_group_the_engine_lacks_is_not_served_by_the_engine() {
    let p = recording();
    let rt = runtime();
    started_engine(&p, rt.path());
    // The same environment, directory and namespaces (so the same engine's socket), one
    // supplementary group more: the hooks must run with the client's groups, not the
    // engine's, so the engine declines and the client runs cold.
    let (out, warm) = served(&p, rt.path(), Twist::Groups(&[0, 4242]));
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(!warm, "served by an engine without group 4242");
    let (_, warm) = served(&p, rt.path(), Twist::None);
    assert!(warm, "the engine still serves a client like it");
    // And the reverse: an engine holding a group serves no client without it.
    let p = recording();
    let rt = runtime();
    let (_, warm) = served(&p, rt.path(), Twist::Groups(&[0, 4242]));
    assert!(warm, "the engine started by the grouped client serves it");
    let (_, warm) = served(&p, rt.path(), Twist::Groups(&[0]));
    assert!(
        !warm,
        "a client without group 4242 served by an engine holding it"
    );
}

#[test]
fn a_client_with_another_resource_limit_is_not_served_by_the_engine() {
    let p = recording();
    let rt = runtime();
    started_engine(&p, rt.path());
    let (out, warm) = served(&p, rt.path(), Twist::FewerFiles);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        !warm,
        "a client with a lower RLIMIT_NOFILE served with the engine's"
    );
    let (_, warm) = served(&p, rt.path(), Twist::None);
    assert!(warm, "the engine still serves a client like it");
}

#[test]
fn silent_connections_do_not_delay_a_real_client_of_the_engine() {
    let p = recording();
    let rt = runtime();
    started_engine(&p, rt.path());
    let sockets: Vec<PathBuf> = std::fs::read_dir(rt.path().join("hookhost"))
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "sock"))
        .collect();
    assert_eq!(sockets.len(), 1, "{sockets:?}");
    // Twenty connections of this user that never send a byte.
    let silent: Vec<UnixStream> = (0..20)
        .map(|_| UnixStream::connect(&sockets[0]).unwrap())
        .collect();
    let child = client(&p, rt.path(), Twist::None);
    let pid = child.id();
    let mut child = Killed(child);
    let deadline = Instant::now() + Duration::from_secs(5);
    let status = loop {
        if let Some(s) = child.0.try_wait().unwrap() {
            break Some(s);
        }
        if Instant::now() > deadline {
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        status.is_some_and(|s| s.success()),
        "no answer within 5 s while 20 silent connections are open ({status:?})"
    );
    assert_ne!(
        last_parent(&p),
        pid,
        "the engine answered it, not the client"
    );
    drop(silent);
}

/// A process killed when the test ends (also when it fails).
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

// ---- terminal escapes through explain and log ----

/// An OSC sequence (sets the terminal's title; OSC 8 and OSC 52 write links and the
/// clipboard alike), terminated by BEL.
const OSC: &str = "\u{1b}]0;owned\u{7}";

fn assert_no_raw_escape(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let bad: Vec<char> = text
        .chars()
        .filter(|&c| (c.is_control() && c != '\n') || matches!(c, '\u{202a}'..='\u{202e}'))
        .collect();
    assert!(bad.is_empty(), "{what} printed {bad:?} raw:\n{text}");
}

/// `hookhost ARGS` with `home` as HOME and the decision log in `log`.
fn cli(home: &Path, log: &Path, cwd: &Path, args: &[&str]) -> Output {
    Command::new(HOOKHOST)
        .args(args)
        .current_dir(cwd)
        .arg("--home")
        .arg(home)
        .env("HOME", home)
        .env("HOOKHOST_CACHE_DIR", home.join("cache"))
        .env("HOOKHOST_MANAGED_CONFIG", home.join("managed.json"))
        .env("HOOKHOST_LOG_DIR", log)
        .env("HOOKHOST_TRUST", "all")
        .env_remove("HOOKHOST_LOG")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Every string in `v` with `OSC` put in it (numbers and the shape kept, so it still parses
/// as a record).
fn poisoned(v: &mut Value) {
    match v {
        Value::String(s) => s.push_str(OSC),
        Value::Array(a) => a.iter_mut().for_each(poisoned),
        Value::Object(o) => {
            for (k, v) in o.iter_mut() {
                // `why` is an enum: keep it one of its names.
                if k != "why" {
                    poisoned(v);
                }
            }
        }
        _ => {}
    }
}

/// What `hookhost log --follow --file FILE` prints once `record` is appended to `file`.
fn followed(home: &Path, file: &Path, record: &Value) -> Vec<u8> {
    let mut follow = Killed(
        Command::new(HOOKHOST)
            .args([
                "log",
                "--follow",
                "-n",
                "0",
                "--file",
                file.to_str().unwrap(),
            ])
            .arg("--home")
            .arg(home)
            .env("HOME", home)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut stdout = follow.0.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
            if got.contains(&b'\n') {
                break;
            }
        }
        got
    });
    // Appended until it shows (the follower may not have opened the file yet).
    let deadline = Instant::now() + Duration::from_secs(10);
    while !reader.is_finished() && Instant::now() < deadline {
        let mut f = std::fs::OpenOptions::new().append(true).open(file).unwrap();
        writeln!(f, "{record}").unwrap();
        drop(f);
        std::thread::sleep(Duration::from_millis(300));
    }
    drop(follow);
    reader.join().unwrap()
}

#[test]
fn a_cloned_repositorys_escapes_reach_no_terminal_through_explain_or_log() {
    let t = TempDir::new().unwrap();
    let home = t.path().join("home");
    let log = t.path().join("log");
    std::fs::create_dir_all(&home).unwrap();
    // A repository cloned into a directory whose name carries an escape, with a guard that
    // blocks with one in its reason and a second hook that does not run.
    let project = t.path().join(format!("repo{OSC}"));
    std::fs::create_dir_all(project.join(".coding-agent")).unwrap();
    std::fs::write(
        project.join(".coding-agent/hooks.json"),
        json!({"hooks": {"PreToolUse": [
            {"command": format!("echo 'no{OSC}' >&2; exit 2")},
            {"command": "true", "match": format!("Edit{OSC}")},
        ]}})
        .to_string(),
    )
    .unwrap();
    let project_arg = project.to_str().unwrap();
    let run = cli(
        &home,
        &log,
        &project,
        &[
            "run",
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"ls"}"#,
            "--session",
            "s\u{1b}[2J",
            "--project",
            project_arg,
            "--explain",
        ],
    );
    assert!(
        String::from_utf8_lossy(&run.stdout).contains("hooks that ran"),
        "{run:?}"
    );
    assert_no_raw_escape("run --explain", &run.stdout);

    // The log as written, and a forged line with an escape in every field.
    let file = log.join("decisions.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut record: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    poisoned(&mut record);
    std::fs::write(&file, format!("{text}{record}\n")).unwrap();
    let file_arg = file.to_str().unwrap();
    for args in [
        &["explain", "--file", file_arg][..],
        &["explain", "-2", "--file", file_arg],
        &["log", "--file", file_arg],
    ] {
        let out = cli(&home, &log, t.path(), args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
        assert!(!out.stdout.is_empty(), "{args:?}: {out:?}");
        assert_no_raw_escape(&format!("{args:?}"), &out.stdout);
    }
    // JSON output stays JSON: the same record, escaped by JSON itself.
    let out = cli(
        &home,
        &log,
        t.path(),
        &["log", "--json", "--file", file_arg],
    );
    let last: Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().last().unwrap()).unwrap();
    assert_eq!(last, record);
    assert_no_raw_escape("log --json", &out.stdout);

    // `--follow` prints what is appended afterwards the same way.
    let got = followed(&home, &file, &record);
    assert!(!got.is_empty(), "log --follow printed nothing");
    assert_no_raw_escape("log --follow", &got);
}

// ---- replay: block -> pass ----

#[test]
fn a_replayed_policy_change_that_lets_a_blocked_call_through_is_reported() {
    let t = TempDir::new().unwrap();
    let project = t.path().join("project");
    std::fs::create_dir_all(project.join(".coding-agent")).unwrap();
    let hooks = project.join(".coding-agent/hooks.json");
    let guard = json!({"hooks": {"PreToolUse": [{"command":
        "grep -q 'rm -rf' && { echo 'replay-guard: no rm -rf' >&2; exit 2; }; exit 0"}]}});
    std::fs::write(&hooks, guard.to_string()).unwrap();
    let home = t.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let record = |args: &[&str]| {
        let out = Command::new(HOOKHOST)
            .arg("run")
            .args(args)
            .args(["--session", "guarded-1", "--project"])
            .arg(&project)
            .arg("--home")
            .arg(&home)
            .env("HOME", &home)
            .env("HOOKHOST_TRUST", "all")
            .env("HOOKHOST_LOG", "full")
            .env("HOOKHOST_LOG_DIR", t.path().join("log"))
            .env("HOOKHOST_CACHE_DIR", t.path().join("cache"))
            .env("HOOKHOST_MANAGED_CONFIG", home.join("managed.json"))
            .env_remove("RUST_LOG")
            .output()
            .unwrap();
        assert!(matches!(out.status.code(), Some(0 | 2)), "{out:?}");
    };
    let call = |c: &str| json!({ "command": c }).to_string();
    record(&["PreToolUse", "--tool", "bash", "--args", &call("ls")]);
    record(&["PreToolUse", "--tool", "bash", "--args", &call("echo hi")]);
    record(&["PreToolUse", "--tool", "bash", "--args", &call("rm -rf /")]);
    // The policy change: the guard now blocks `echo` and lets `rm -rf` through.
    std::fs::write(
        &hooks,
        json!({"hooks": {"PreToolUse": [{"command":
            "grep -q 'echo' && { echo 'no echo' >&2; exit 2; }; exit 0"}]}})
        .to_string(),
    )
    .unwrap();
    let log = t.path().join("log/decisions.jsonl");
    let replay = |json: bool| {
        let mut c = Command::new(HOOKHOST);
        c.arg("replay")
            .arg(&log)
            .args(["--trust", "all", "--project"])
            .arg(&project)
            .arg("--home")
            .arg(&home)
            .env("HOME", &home)
            .env("HOOKHOST_LOG", "off")
            .env("HOOKHOST_CACHE_DIR", t.path().join("cache"))
            .env("HOOKHOST_MANAGED_CONFIG", home.join("managed.json"))
            .env_remove("RUST_LOG");
        if json {
            c.arg("--json");
        }
        c.output().unwrap()
    };
    let out = replay(true);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    let diffs = j["differences"].as_array().unwrap();
    assert_eq!(diffs.len(), 2, "{j}");
    // Block -> pass first, though it came later in the session.
    assert_eq!(diffs[0]["step"]["args"]["command"], "rm -rf /", "{j}");
    assert_eq!(diffs[0]["now"][0], "unblocked", "{j}");
    assert_eq!(diffs[1]["step"]["args"]["command"], "echo hi", "{j}");
    assert_eq!(diffs[1]["now"][0], "blocked", "{j}");

    let out = replay(false);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let unblocked = text.find("now unblocked").unwrap_or(usize::MAX);
    let blocked = text.find("now blocked").unwrap_or(0);
    assert!(
        unblocked < blocked,
        "block -> pass is reported, before pass -> block:\n{text}"
    );
}
