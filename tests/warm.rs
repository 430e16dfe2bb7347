//! The warm per-user engine (on by default; crates/warm, crates/cli/src/warm.rs): an
//! invocation it serves answers exactly as a fresh process does, sees every edit of the
//! config, the trust pins and the modules, runs in the caller's environment, and hands back
//! whatever it will not run. Each test has its own private runtime directory
//! (`XDG_RUNTIME_DIR`), so its engines are its own, and a short idle time, so they exit.

#[path = "common/mod.rs"]
mod common;

use common::Project;
use serde_json::json;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

const HOOKHOST: &str = env!("CARGO_BIN_EXE_hookhost");
const THIN: &str = env!("CARGO_BIN_EXE_hookhost-warm");

/// A project with a shell guard on PreToolUse that records its parent's pid and a variable.
fn guarded() -> Project {
    Project::new(json!({"hooks": {"PreToolUse": [{"command":
        "echo \"$PPID $WARM_PROBE\" >> \"$HOOK_PROJECT_DIR/seen\"; grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; }; exit 0"}]}}))
}

fn payload(p: &Project, command: &str) -> Vec<u8> {
    json!({"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command}, "cwd": p.path()})
    .to_string()
    .into_bytes()
}

/// A private runtime directory for one test's engines.
fn runtime() -> TempDir {
    let d = TempDir::new().unwrap();
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    d
}

/// `HOOKHOST_DAEMON` not set at all: what a user's agent runs (the default).
const UNSET: &str = "(unset)";

/// `exe hook --for claude` on `p` with `stdin`, the warm engine per `daemon` ("0" = off,
/// [`UNSET`] = the default), the
/// engines' directory under `rt`; and the pid of the process started.
fn hook(
    exe: &str,
    p: &Project,
    rt: &Path,
    daemon: &str,
    stdin: &[u8],
    extra: &[(&str, &str)],
) -> (Output, u32) {
    hook_with(exe, &[], p, rt, daemon, stdin, extra)
}

/// [`hook`] with `flags` after `--for claude`.
fn hook_with(
    exe: &str,
    flags: &[&str],
    p: &Project,
    rt: &Path,
    daemon: &str,
    stdin: &[u8],
    extra: &[(&str, &str)],
) -> (Output, u32) {
    let mut c = Command::new(exe);
    c.args(["hook", "--for", "claude"])
        .args(flags)
        .args(["--trust", "all", "--project"])
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .current_dir(p.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .env("HOOKHOST_MANAGED_CONFIG", p.managed_file())
        .env("HOOKHOST_LOG_DIR", p.home.path().join("hookhost-log"))
        .env("XDG_RUNTIME_DIR", rt)
        .env("HOOKHOST_DAEMON_IDLE_MS", "3000")
        .env_remove("HOOKHOST_ADAPTER")
        .env_remove("RUST_LOG")
        .env("WARM_PROBE", "one")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if daemon == UNSET {
        c.env_remove("HOOKHOST_DAEMON");
    } else {
        c.env("HOOKHOST_DAEMON", daemon);
    }
    for (k, v) in extra {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap();
    let pid = child.id();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    (child.wait_with_output().unwrap(), pid)
}

/// The lines the guard recorded: (parent pid, probe value).
fn seen(p: &Project) -> Vec<(u32, String)> {
    p.read("seen")
        .lines()
        .map(|l| {
            let (pid, probe) = l.split_once(' ').unwrap();
            (pid.parse().unwrap(), probe.to_string())
        })
        .collect()
}

fn engines(rt: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(rt.join("hookhost"))
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "sock"))
                .collect()
        })
        .unwrap_or_default()
}

/// The engines still running for the runtime directory `rt` (their command line names it).
fn running(rt: &Path) -> Vec<u32> {
    let needle = rt.to_string_lossy().into_owned();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let cmd = String::from_utf8_lossy(&cmd);
            let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            cmd.contains("warm-serve") && cmd.contains(&needle) && !state.contains(") Z ")
        })
        .collect()
}

/// Waits (a liveness bound, not a timing assertion) until no engine of `rt` runs.
fn all_gone(rt: &Path) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !running(rt).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    running(rt)
}

fn same_answer(a: &Output, b: &Output) {
    assert_eq!(a.status.code(), b.status.code());
    assert_eq!(
        String::from_utf8_lossy(&a.stdout),
        String::from_utf8_lossy(&b.stdout)
    );
    assert_eq!(
        String::from_utf8_lossy(&a.stderr),
        String::from_utf8_lossy(&b.stderr)
    );
}

#[test]
fn an_event_through_the_warm_engine_answers_as_a_fresh_process_does() {
    let p = guarded();
    let rt = runtime();
    for command in ["rm -rf /", "cargo test"] {
        let (fresh, fresh_pid) = hook(HOOKHOST, &p, rt.path(), "0", &payload(&p, command), &[]);
        let (warm, warm_pid) = hook(HOOKHOST, &p, rt.path(), "wait", &payload(&p, command), &[]);
        same_answer(&fresh, &warm);
        let seen = seen(&p);
        let (fresh_parent, warm_parent) = (seen[seen.len() - 2].0, seen[seen.len() - 1].0);
        assert_eq!(
            fresh_parent, fresh_pid,
            "a fresh process runs its own hooks"
        );
        assert_ne!(
            warm_parent, warm_pid,
            "the warm engine ran this one: {seen:?}"
        );
    }
    let blocked = hook(
        HOOKHOST,
        &p,
        rt.path(),
        "wait",
        &payload(&p, "rm -rf /"),
        &[],
    )
    .0;
    assert!(
        String::from_utf8_lossy(&blocked.stdout).contains("\"permissionDecision\":\"deny\""),
        "{blocked:?}"
    );
    // Every warm event went to one engine, listening in the private directory.
    let warm_parents: std::collections::BTreeSet<u32> =
        seen(&p).iter().skip(1).step_by(2).map(|s| s.0).collect();
    assert_eq!(warm_parents.len(), 1, "{:?}", seen(&p));
    let sockets = engines(rt.path());
    assert_eq!(sockets.len(), 1, "{sockets:?}");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&rt.path().join("hookhost")), 0o700);
    assert_eq!(mode(&sockets[0]), 0o600);
}

#[test]
fn the_thin_client_answers_alike_with_and_without_an_engine() {
    let p = guarded();
    let rt = runtime();
    let (fresh, _) = hook(
        HOOKHOST,
        &p,
        rt.path(),
        "0",
        &payload(&p, "rm -rf /tmp/x"),
        &[],
    );
    // No engine wanted: the thin client runs `hookhost` in its place.
    let (thin_off, pid) = hook(THIN, &p, rt.path(), "0", &payload(&p, "rm -rf /tmp/x"), &[]);
    same_answer(&fresh, &thin_off);
    assert_eq!(seen(&p).last().unwrap().0, pid, "exec'd in place");
    // An engine wanted, none running: this event runs in place, one is started for the next.
    let (first, pid) = hook(THIN, &p, rt.path(), "1", &payload(&p, "rm -rf /tmp/x"), &[]);
    same_answer(&fresh, &first);
    assert_eq!(seen(&p).last().unwrap().0, pid);
    let (warm, pid) = hook(
        THIN,
        &p,
        rt.path(),
        "wait",
        &payload(&p, "rm -rf /tmp/x"),
        &[],
    );
    same_answer(&fresh, &warm);
    assert_ne!(seen(&p).last().unwrap().0, pid, "served by the engine");
}

#[test]
fn the_engine_sees_every_edit_of_config_and_trust() {
    let p = guarded();
    let rt = runtime();
    let go = |trust: &str| {
        let mut c = Command::new(HOOKHOST);
        c.args([
            "run",
            "PreToolUse",
            "--tool",
            "Bash",
            "--args",
            r#"{"command":"rm -rf /"}"#,
        ])
        .args(["--trust", trust, "--project"])
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .current_dir(p.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .env("HOOKHOST_MANAGED_CONFIG", p.managed_file())
        .env("HOOKHOST_LOG_DIR", p.home.path().join("hookhost-log"))
        .env("XDG_RUNTIME_DIR", rt.path())
        .env("HOOKHOST_DAEMON", "wait")
        .env("HOOKHOST_DAEMON_IDLE_MS", "3000")
        .stdin(Stdio::null());
        c.output().unwrap()
    };
    assert_eq!(go("all").status.code(), Some(2), "blocked by the guard");
    // The guard is edited to pass everything: the very next event sees it.
    p.write(
        ".coding-agent/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"command": "exit 0"}]}}).to_string(),
    );
    assert_eq!(go("all").status.code(), Some(0));
    // Back to the guard, but untrusted under `block`: refused until it is trusted.
    p.write(
        ".coding-agent/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"command": "exit 2"}]}}).to_string(),
    );
    let out = go("block");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("untrusted")
            || String::from_utf8_lossy(&out.stdout).contains("untrusted"),
        "{out:?}"
    );
    let trusted = Command::new(HOOKHOST)
        .args(["trust", "--project"])
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_MANAGED_CONFIG", p.managed_file())
        .env("HOOKHOST_DAEMON", "")
        .output()
        .unwrap();
    assert!(trusted.status.success(), "{trusted:?}");
    let out = go("block");
    assert_eq!(
        out.status.code(),
        Some(2),
        "now trusted, the hook itself blocks: {out:?}"
    );
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("untrusted"),
        "{out:?}"
    );
    assert_eq!(engines(rt.path()).len(), 1, "one engine saw all of it");
}

#[test]
fn another_environment_gets_another_engine_and_its_own_variables() {
    let p = guarded();
    let rt = runtime();
    hook(HOOKHOST, &p, rt.path(), "wait", &payload(&p, "ls"), &[]);
    hook(
        HOOKHOST,
        &p,
        rt.path(),
        "wait",
        &payload(&p, "ls"),
        &[("WARM_PROBE", "two")],
    );
    let seen = seen(&p);
    assert_eq!(seen[0].1, "one");
    assert_eq!(seen[1].1, "two", "the hook saw its caller's variable");
    assert_ne!(seen[0].0, seen[1].0, "two engines");
    assert_eq!(engines(rt.path()).len(), 2);
}

#[test]
fn what_the_engine_declines_runs_in_process_with_its_payload() {
    let p = guarded();
    let rt = runtime();
    let (fresh, _) = hook(HOOKHOST, &p, rt.path(), "0", &payload(&p, "rm -rf /"), &[]);
    // `-v` is served by no engine (logging is set up once per process): handed back after
    // the payload was read, it still reaches the command whole.
    let (out, pid) = hook_with(
        HOOKHOST,
        &["-v"],
        &p,
        rt.path(),
        "wait",
        &payload(&p, "rm -rf /"),
        &[],
    );
    assert_eq!(out.status.code(), fresh.status.code());
    assert_eq!(out.stdout, fresh.stdout, "{out:?}");
    assert_eq!(seen(&p).last().unwrap().0, pid, "ran in the process itself");
}

#[test]
fn an_idle_engine_exits_and_removes_its_socket() {
    let p = guarded();
    let rt = runtime();
    let idle = [("HOOKHOST_DAEMON_IDLE_MS", "300")];
    hook(HOOKHOST, &p, rt.path(), "wait", &payload(&p, "ls"), &idle);
    assert_eq!(running(rt.path()).len(), 1);
    assert_eq!(all_gone(rt.path()), Vec::<u32>::new(), "still running");
    assert!(engines(rt.path()).is_empty(), "socket removed");
}

#[test]
fn a_guest_blocked_on_a_fifo_does_not_keep_the_engine_alive() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "h.wasm read pipe", "timeout": 500}]}}));
    std::fs::copy(common::guests::guest("hostile"), p.path().join("h.wasm")).unwrap();
    let fifo = std::ffi::CString::new(p.path().join("pipe").to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    #[allow(unsafe_code)]
    let made = unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) };
    assert_eq!(made, 0);
    let rt = runtime();
    let idle = [("HOOKHOST_DAEMON_IDLE_MS", "300")];
    let (out, _) = hook(HOOKHOST, &p, rt.path(), "wait", &payload(&p, "ls"), &idle);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("\"permissionDecision\":\"deny\""),
        "a timed-out guard blocks: {out:?}"
    );
    assert_eq!(
        all_gone(rt.path()),
        Vec::<u32>::new(),
        "the engine waited for its blocked thread"
    );
}

#[test]
fn a_runtime_directory_open_to_others_is_not_used() {
    let p = guarded();
    let open = TempDir::new().unwrap();
    std::fs::set_permissions(open.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    // XDG_RUNTIME_DIR open to others is passed over (the per-uid /tmp directory is used).
    let hh = open.path().join("hookhost");
    std::fs::create_dir(&hh).unwrap();
    std::fs::set_permissions(&hh, std::fs::Permissions::from_mode(0o777)).unwrap();
    hook(
        HOOKHOST,
        &p,
        open.path(),
        "1",
        &payload(&p, "ls"),
        &[("HOOKHOST_DAEMON_IDLE_MS", "200")],
    );
    assert!(
        engines(open.path()).is_empty(),
        "nothing listens in an open directory"
    );
}

/// Waits (a liveness bound, not a timing assertion) until an engine of `rt` listens.
fn one_listening(rt: &Path) -> Vec<PathBuf> {
    let deadline = Instant::now() + Duration::from_secs(30);
    while engines(rt).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    engines(rt)
}

/// The default (issue 43): with no variable at all, the first event runs in-process and
/// starts an engine, which answers the next; `"warmEngine": false` in the user's own file
/// makes the running engine decline (the event runs in-process) and leave, and no engine is
/// started again. The same line in the project's file is refused, never obeyed.
#[test]
fn on_by_default_and_the_users_own_file_turns_it_off() {
    let p = guarded();
    let rt = runtime();
    let run = |exe: &str| hook(exe, &p, rt.path(), UNSET, &payload(&p, "ls"), &[]);
    let (first, pid) = run(HOOKHOST);
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    assert_eq!(
        seen(&p).last().unwrap().0,
        pid,
        "the first event runs in-process"
    );
    assert_eq!(one_listening(rt.path()).len(), 1, "and starts an engine");
    let (_, pid) = run(THIN);
    assert_ne!(
        seen(&p).last().unwrap().0,
        pid,
        "the engine answers the next"
    );

    // A project's file cannot turn it off (nor on): a config error, the engine still serves.
    p.write(
        ".coding-agent/hooks.json",
        &json!({"warmEngine": false, "hooks": {"PreToolUse": [{"command": "exit 0"}]}}).to_string(),
    );
    let (out, _) = run(THIN);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("warmEngine")
            || String::from_utf8_lossy(&out.stderr).contains("warmEngine"),
        "the project's switch is reported: {out:?}"
    );
    assert_eq!(running(rt.path()).len(), 1);
    // Back to the recording guard.
    p.write(
        ".coding-agent/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"command":
            "echo \"$PPID $WARM_PROBE\" >> \"$HOOK_PROJECT_DIR/seen\"; exit 0"}]}})
        .to_string(),
    );

    // The user's own file turns it off: the running engine declines and leaves.
    std::fs::create_dir_all(p.home.path().join(".coding-agent")).unwrap();
    std::fs::write(
        p.home.path().join(".coding-agent/hooks.json"),
        r#"{"warmEngine": false}"#,
    )
    .unwrap();
    let (out, pid) = run(THIN);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(seen(&p).last().unwrap().0, pid, "declined: run in-process");
    assert_eq!(all_gone(rt.path()), Vec::<u32>::new(), "the engine left");
    for exe in [THIN, HOOKHOST] {
        let (_, pid) = run(exe);
        assert_eq!(seen(&p).last().unwrap().0, pid, "{exe}: in-process");
        assert_eq!(running(rt.path()), Vec::<u32>::new(), "{exe}: none started");
    }
}

/// A listener of the same user at an engine's socket that is not hookhost (an agent's tool
/// call could bind one there and answer "allow" to every event) is never asked: the client
/// checks the peer runs the `hookhost` executable itself, and runs the event in-process.
#[test]
fn a_listener_that_is_not_hookhost_at_the_engines_socket_is_never_asked() {
    use hookhost_warm::frame::Reply;
    use std::io::Read;
    use std::os::unix::net::UnixListener;
    let p = guarded();
    let rt = runtime();
    let rm = payload(&p, "rm -rf /");
    hook(HOOKHOST, &p, rt.path(), UNSET, &rm, &[]);
    let socket = one_listening(rt.path()).pop().expect("an engine started");
    for pid in running(rt.path()) {
        let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
    }
    assert_eq!(all_gone(rt.path()), Vec::<u32>::new());
    std::fs::remove_file(&socket).unwrap();
    // The impostor: reads the request, answers "ran, exit 0, no objection".
    let listener = UnixListener::bind(&socket).unwrap();
    let asked = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = asked.clone();
    std::thread::spawn(move || {
        for mut s in listener.incoming().flatten() {
            // A client connects before it looks at its peer: only a request counts.
            let mut request = Vec::new();
            if s.read_to_end(&mut request).is_ok_and(|n| n > 0) {
                flag.store(true, std::sync::atomic::Ordering::SeqCst);
            }
            let _ = Reply::Ran {
                code: 0,
                stdout: b"{}".to_vec(),
                stderr: Vec::new(),
            }
            .write(&mut s);
        }
    });
    for exe in [HOOKHOST, THIN] {
        let (out, pid) = hook(exe, &p, rt.path(), UNSET, &rm, &[]);
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("\"permissionDecision\":\"deny\""),
            "{exe}: the guard still decides: {out:?}"
        );
        assert_eq!(seen(&p).last().unwrap().0, pid, "{exe}: run in-process");
    }
    assert!(
        !asked.load(std::sync::atomic::Ordering::SeqCst),
        "the impostor got no request"
    );
}

/// The agents' project files that can set a variable (issue 37), which the engine probes at
/// the project and every directory above it and remembers by their stamps (issue 43): each
/// kind, created, edited and deleted between two events of one engine, changes the next
/// answer as it would a fresh process's. The answer here is the adapter's note that a
/// project sets `$HOOKHOST_LOG_DIR` (so the log keeps its default place), said on every
/// event that sees such a file.
#[test]
fn every_probed_project_file_created_edited_or_deleted_changes_the_next_answer() {
    let p = guarded();
    let rt = runtime();
    let note = "ignoring $HOOKHOST_LOG_DIR";
    // An idle time no busy machine reaches between two events, so that one engine answers
    // them all (the 3 s of the other tests was once passed under load).
    let idle = [("HOOKHOST_DAEMON_IDLE_MS", "20000")];
    let event = || {
        let (out, _) = hook(HOOKHOST, &p, rt.path(), "wait", &payload(&p, "ls"), &idle);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let json = |n: &str| json!({"env": {n: "/elsewhere"}}).to_string();
    let kinds: [(&str, &Contents); 9] = [
        (".claude/settings.json", &json),
        (".claude/settings.local.json", &json),
        (".cursor/hooks.json", &json),
        (".gemini/settings.json", &json),
        (".codex/hooks.json", &json),
        (".github/hooks/guard.json", &json),
        (".codex/config.toml", &|n| {
            format!("[shell_environment_policy]\nset = {{ {n} = \"/elsewhere\" }}\n")
        }),
        (".gemini/.env", &|n| format!("{n}=/elsewhere\n")),
        (".env", &|n| format!("export {n}=/elsewhere\n")),
    ];
    assert!(!event().contains(note));
    for (rel, text) in kinds {
        let file = p.write(rel, &text("HOOKHOST_LOG_DIR"));
        let said = event();
        assert!(
            said.contains(note) && said.contains(&file.display().to_string()),
            "created {rel}: {said}"
        );
        assert!(event().contains(note), "{rel}, unchanged: {said}");
        p.write(rel, &text("SOMETHING_ELSE"));
        assert!(!event().contains(note), "edited {rel}");
        p.write(rel, &text("HOOKHOST_LOG_DIR"));
        assert!(event().contains(note), "edited back {rel}");
        std::fs::remove_file(&file).unwrap();
        assert!(!event().contains(note), "deleted {rel}");
    }
    // The levels above the project are walked alike (`hookhost_sys::host_env`'s unit tests:
    // this project's parent is the shared temporary directory).
    let pids: std::collections::HashSet<u32> = seen(&p).into_iter().map(|(pid, _)| pid).collect();
    assert_eq!(pids.len(), 1, "one engine answered every event: {pids:?}");
}

/// How a probed file of the test above says "this variable is set": its contents for a name.
type Contents = dyn Fn(&str) -> String;
