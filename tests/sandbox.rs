//! Command hooks in the kernel sandbox (docs/sandbox.md), with hostile hooks: an untrusted
//! project shell hook under the default policy, and trusted hooks with grants, try to read
//! `~/.ssh` and a file outside the project, write outside and inside the project, connect to
//! a listener on 127.0.0.1, read a secret variable of the user's, fork without bound and
//! outlive their timeout. Every attempt beyond the grants fails, and the hook itself still
//! runs and can block. Linux only (Landlock ABI 3 or later: this machine and CI have it; a
//! kernel without it fails the first test, saying so).
#![cfg(target_os = "linux")]

mod common;

use common::{Project, pre_tool};
use hookhost::{Decision, Outcome, Runner, TrustPolicy, TrustStore};
use serde_json::{Value, json};
use std::net::TcpListener;
use std::path::Path;

const SECRET: &str = "hookhost-sandbox-secret-7f3a";

/// A hook script that tries each thing, prints one `name=ok|denied` line per attempt to
/// stderr, and blocks (exit 2) so the test can see it ran to the end.
fn attempts(outside: &Path, home: &Path, port: u16) -> String {
    format!(
        r#"#!/bin/sh
try() {{ if ( eval "$2" ) >/dev/null 2>&1; then echo "$1=ok" >&2; else echo "$1=denied" >&2; fi; }}
try read_ssh 'cat {home}/.ssh/id_ed25519'
try read_outside 'cat {outside}/notes.txt'
try read_project 'cat inside.txt'
try write_outside 'echo x > {outside}/written'
try write_project 'echo x > written-by-hook'
try write_tmp 'echo x > "$TMPDIR/scratch" && test -s "$TMPDIR/scratch"'
try net 'bash -c "exec 3<>/dev/tcp/127.0.0.1/{port}"'
try mptcp 'perl -MSocket -e "socket(my \$s, PF_INET, SOCK_STREAM, 262) or exit 1"'
try chmod_outside 'chmod 600 {outside}/notes.txt'
try parent_environ 'cat /proc/{pid}/environ'
try setpgid 'perl -e "setpgrp(0,0) or exit 1"'
try mknod 'mknod "$TMPDIR/k" c 1 3'
if [ -n "$HOOKHOST_TEST_SECRET" ]; then echo "secret=ok" >&2; else echo "secret=denied" >&2; fi
if [ -n "$GRANTED_VAR" ]; then echo "granted_var=ok" >&2; else echo "granted_var=denied" >&2; fi
echo "the hook ran to its end" >&2
exit 2
"#,
        home = home.display(),
        outside = outside.display(),
        pid = std::process::id(),
    )
}

fn results(stderr: &str) -> std::collections::BTreeMap<String, String> {
    stderr
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

struct Setup {
    p: Project,
    outside: tempfile::TempDir,
    listener: TcpListener,
}

fn setup(hook: Value) -> Setup {
    assert!(
        hookhost::spawner::sandbox_support().is_ok(),
        "this kernel cannot sandbox command hooks: {:?}",
        hookhost::spawner::sandbox_support()
    );
    let p = Project::new(json!({"hooks": {"PreToolUse": [hook]}}));
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("notes.txt"), "outside").unwrap();
    let ssh = p.home.path().join(".ssh");
    std::fs::create_dir_all(&ssh).unwrap();
    std::fs::write(ssh.join("id_ed25519"), "PRIVATE KEY").unwrap();
    p.write("inside.txt", "inside");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let script = p.write(
        "hooks/attempts.sh",
        &attempts(outside.path(), p.home.path(), port),
    );
    make_executable(&script);
    Setup {
        p,
        outside,
        listener,
    }
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn runner(p: &Project, policy: TrustPolicy) -> Runner {
    p.builder()
        .trust(policy, TrustStore::load(Some(p.home.path())).unwrap())
        .build()
        .unwrap()
}

fn trust(p: &Project) {
    let mut store = TrustStore::load(Some(p.home.path())).unwrap();
    let set = hookhost::config::load(&p.paths()).unwrap();
    let assessment = store.assess(&p.paths(), &set);
    store.trust(&assessment).unwrap();
}

/// Runs the project's PreToolUse hook with `HOOKHOST_TEST_SECRET` and `GRANTED_VAR` set in
/// hookhost's own environment (as a user's token would be).
async fn fire(s: &Setup, policy: TrustPolicy) -> hookhost::EventReport {
    // SAFETY of the test: the variables are this test binary's own and no test reads them
    // concurrently in another way (each sandboxed hook gets a fresh environment anyway).
    set_env();
    runner(&s.p, policy)
        .fire(pre_tool(&s.p.path(), "bash", json!({"command": "ls"})))
        .await
}

#[allow(unsafe_code)]
fn set_env() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: set once, before any hook of this binary reads its environment.
        unsafe {
            std::env::set_var("HOOKHOST_TEST_SECRET", SECRET);
            std::env::set_var("GRANTED_VAR", "granted");
        }
    });
}

#[tokio::test]
async fn an_untrusted_shell_hook_runs_sandboxed_with_nothing_beyond_reading_the_project() {
    let s = setup(json!({"command": "./hooks/attempts.sh", "match": "bash"}));
    let r = fire(&s, TrustPolicy::Skip).await;
    let h = &r.hooks[0];
    let got = results(&h.stderr);
    assert!(h.stderr.contains("ran to its end"), "{}", h.stderr);
    for (attempt, want) in [
        ("read_ssh", "denied"),
        ("read_outside", "denied"),
        ("read_project", "ok"),
        ("write_outside", "denied"),
        ("write_project", "denied"),
        ("write_tmp", "ok"),
        ("net", "denied"),
        ("mptcp", "denied"),
        ("chmod_outside", "denied"),
        ("parent_environ", "denied"),
        ("setpgid", "denied"),
        ("mknod", "denied"),
        ("secret", "denied"),
        ("granted_var", "denied"),
    ] {
        assert_eq!(
            got.get(attempt).map(String::as_str),
            Some(want),
            "{attempt}: {}",
            h.stderr
        );
    }
    assert!(!s.outside.path().join("written").exists());
    assert!(!s.p.path().join("written-by-hook").exists());
    // It ran, and its block counts, with a fixed reason (its own text is withheld).
    assert_eq!(
        (r.decision, h.outcome),
        (Decision::Block, Outcome::Block),
        "{}",
        common::summary(&r)
    );
    assert!(!r.reason.as_deref().unwrap_or("").contains("ran to its end"));
    assert!(
        h.sandbox.as_deref().unwrap_or("").contains("fs read"),
        "{:?}",
        h.sandbox
    );
    assert_eq!(r.untrusted, ["PreToolUse[0]"]);
    drop(s.listener);
}

#[tokio::test]
async fn a_trusted_hook_with_grants_gets_exactly_those() {
    let probe = TcpListener::bind("127.0.0.1:0").unwrap();
    let s = setup(json!({"command": "./hooks/attempts.sh", "match": "bash"}));
    // Grant the listener's port (known once it is bound).
    let port = s.listener.local_addr().unwrap().port();
    s.p.write(
        ".coding-agent/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"command": "./hooks/attempts.sh", "match": "bash",
            "fs": "write", "env": ["GRANTED_VAR"], "net": [format!("127.0.0.1:{port}")]}]}})
        .to_string(),
    );
    trust(&s.p);
    let r = fire(&s, TrustPolicy::Skip).await;
    let h = &r.hooks[0];
    let got = results(&h.stderr);
    for (attempt, want) in [
        ("read_ssh", "denied"),
        ("read_outside", "denied"),
        ("read_project", "ok"),
        ("write_outside", "denied"),
        ("write_project", "ok"),
        ("net", "ok"),
        // MPTCP would step around the port rules; the rest is as for any sandboxed hook.
        ("mptcp", "denied"),
        ("parent_environ", "denied"),
        ("setpgid", "denied"),
        ("mknod", "denied"),
        ("secret", "denied"),
        ("granted_var", "ok"),
    ] {
        assert_eq!(
            got.get(attempt).map(String::as_str),
            Some(want),
            "{attempt}: {}",
            h.stderr
        );
    }
    assert!(s.p.path().join("written-by-hook").exists());
    // Trusted: its own reason stands.
    assert!(
        r.reason.as_deref().unwrap_or("").contains("ran to its end"),
        "{:?}",
        r.reason
    );
    assert!(r.untrusted.is_empty());

    // Another port than the granted one stays closed.
    let other = probe.local_addr().unwrap().port();
    s.p.write(
        "hooks/other.sh",
        &format!(
            "#!/bin/sh\nif bash -c 'exec 3<>/dev/tcp/127.0.0.1/{other}' 2>/dev/null; then echo open >&2; else echo closed >&2; fi\nexit 2\n"
        ),
    );
    make_executable(&s.p.path().join("hooks/other.sh"));
    s.p.write(
        ".coding-agent/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"command": "./hooks/other.sh", "match": "bash",
            "net": [format!("127.0.0.1:{port}")]}]}})
        .to_string(),
    );
    trust(&s.p);
    let r = fire(&s, TrustPolicy::Skip).await;
    assert_eq!(
        r.reason.as_deref().map(str::trim),
        Some("closed"),
        "{}",
        common::summary(&r)
    );
}

#[tokio::test]
async fn a_sandboxed_hook_that_outlives_its_timeout_leaves_nothing_behind() {
    let s = setup(
        json!({"command": "sleep 300 & echo $! >&2; sleep 300", "match": "bash",
        "timeout": 500}),
    );
    let r = fire(&s, TrustPolicy::Skip).await;
    let h = &r.hooks[0];
    assert_eq!(h.outcome, Outcome::Timeout, "{}", common::summary(&r));
    let pid: u32 = h
        .stderr
        .trim()
        .parse()
        .expect("the hook printed its child's pid");
    // Killed with its session's process group (allow the kernel a moment to reap it).
    let mut alive = true;
    for _ in 0..50 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        alive = !stat.is_empty() && !stat.contains(") Z ");
        if !alive {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(
        !alive,
        "the sandboxed hook's child {pid} outlived its timeout"
    );
}

/// Whether this test runs as root (whom the kernel exempts from the process limit).
fn running_as_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self")
        .map(|m| m.uid())
        .unwrap_or(0)
        == 0
}

#[test]
fn as_another_user_a_fork_bomb_stops_at_the_process_limit() {
    // Root is exempt from RLIMIT_NPROC, so the bound is checked as `nobody` (setpriv) where
    // the test runs as root; as any other user it runs as that user.
    let root = running_as_root();
    let setpriv = Path::new("/usr/bin/setpriv");
    if root && !setpriv.exists() {
        panic!(
            "running as root, this test needs /usr/bin/setpriv (util-linux) to run hookhost as nobody"
        );
    }
    // Exit 3 means every fork succeeded; dash leaves with status 2 at the first that fails.
    let p = Project::new(
        json!({"hooks": {"PreToolUse": [{"match": "bash", "timeout": 30000,
        "command": "n=0; while [ $n -lt 20000 ]; do sleep 5 & n=$((n+1)); done; exit 3"}]}}),
    );
    use std::os::unix::fs::PermissionsExt;
    let log = p.home.path().join("hookhost-log");
    std::fs::create_dir_all(&log).unwrap();
    for (dir, dir_mode) in [
        (p.dir.path(), 0o755),
        (p.home.path(), 0o755),
        (p.cache.path(), 0o777),
        (log.as_path(), 0o777),
    ] {
        for entry in walk(dir) {
            let mode = if entry.is_dir() { dir_mode } else { 0o644 };
            std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(mode)).unwrap();
        }
    }
    let mut c = p.command();
    if root {
        let program = c.get_program().to_owned();
        let args: Vec<_> = c.get_args().map(std::ffi::OsStr::to_owned).collect();
        let envs: Vec<_> = c
            .get_envs()
            .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned())))
            .collect();
        let mut wrapped = std::process::Command::new(setpriv);
        wrapped
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(program)
            .args(args)
            .envs(envs)
            .stdin(std::process::Stdio::null());
        c = wrapped;
    }
    let out = c
        .args(common::RUN_LS_JSON)
        .arg("--project")
        .arg(p.path())
        .env("HOOKHOST_TRUST", "skip")
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {} {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let hook = &report["hooks"][0];
    assert!(hook["sandbox"].is_string(), "{report}");
    assert_eq!(
        hook["exitCode"], 2,
        "a sandboxed hook forked 20000 processes without bound (3), or did not run: {report}"
    );
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = vec![dir.to_path_buf()];
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                out.extend(walk(&path));
            } else {
                out.push(path);
            }
        }
    }
    out
}

#[tokio::test]
async fn sandbox_false_keeps_an_untrusted_hook_from_running_at_all() {
    let s = setup(json!({"command": "./hooks/attempts.sh", "match": "bash", "sandbox": false}));
    let r = fire(&s, TrustPolicy::Skip).await;
    let h = &r.hooks[0];
    assert_eq!(h.outcome, Outcome::Skipped, "{}", common::summary(&r));
    assert!(
        h.message
            .as_deref()
            .unwrap_or("")
            .contains("\"sandbox\": false"),
        "{:?}",
        h.message
    );
}

#[tokio::test]
async fn managed_policy_sandboxes_every_command_hook() {
    let s = setup(json!({"command": "./hooks/attempts.sh", "match": "bash"}));
    trust(&s.p);
    // Trusted and no grants: unconfined, so it reads the home and the secret.
    let r = fire(&s, TrustPolicy::Skip).await;
    let got = results(&r.hooks[0].stderr);
    assert_eq!(got.get("read_ssh").map(String::as_str), Some("ok"));
    assert_eq!(r.hooks[0].sandbox, None);
    // The managed file requires a sandbox: the same trusted hook is confined.
    s.p.write_managed(json!({"requireSandbox": true}));
    let paths = hookhost::config::ConfigPaths {
        managed_file: Some(s.p.managed_file()),
        ..s.p.paths()
    };
    let r =
        s.p.builder()
            .config_paths(paths)
            .trust(
                TrustPolicy::Skip,
                TrustStore::load(Some(s.p.home.path())).unwrap(),
            )
            .build()
            .unwrap()
            .fire(pre_tool(&s.p.path(), "bash", json!({"command": "ls"})))
            .await;
    let got = results(&r.hooks[0].stderr);
    assert_eq!(
        got.get("read_ssh").map(String::as_str),
        Some("denied"),
        "{}",
        r.hooks[0].stderr
    );
    assert_eq!(got.get("write_project").map(String::as_str), Some("denied"));
    assert!(r.hooks[0].sandbox.is_some());
}

#[tokio::test]
async fn a_program_path_through_a_link_to_the_root_opens_nothing() {
    // `./r/bin/cat` with `r -> /` in the project (or `/usr/../bin/cat`) must not make `/`
    // readable: the sandbox grants the real program file, never a directory for it.
    let s = setup(json!({"command": "./hooks/attempts.sh", "match": "bash"}));
    std::os::unix::fs::symlink("/", s.p.path().join("r")).unwrap();
    let key = s.p.home.path().join(".ssh/id_ed25519");
    for program in ["./r/bin/cat", "/usr/../bin/cat"] {
        s.p.write(
            ".coding-agent/hooks.json",
            &json!({"hooks": {"PreToolUse": [{"match": "bash",
                "command": format!("{program} '{}' >&2; {program} /root/.profile >&2; exit 2", key.display())}]}})
            .to_string(),
        );
        let r = fire(&s, TrustPolicy::Skip).await;
        let h = &r.hooks[0];
        assert!(h.sandbox.is_some(), "{}", common::summary(&r));
        assert!(
            !h.stderr.contains("PRIVATE KEY") && h.stderr.contains("Permission denied"),
            "{program}: {}",
            h.stderr
        );
    }
}

/// `p.command()` (the project's environment and `--home`), running `exe` instead: a copy of
/// `hookhost` placed where the test chooses what lies beside it.
fn command_at(p: &Project, exe: &Path) -> std::process::Command {
    let model = p.command();
    let mut c = std::process::Command::new(exe);
    c.args(model.get_args());
    for (k, v) in model.get_envs() {
        match v {
            Some(v) => c.env(k, v),
            None => c.env_remove(k),
        };
    }
    c.stdin(std::process::Stdio::null());
    c
}

/// A copy of the `hookhost` binary in a directory of its own, with `helper` (a script's text)
/// as the `hookhost-sandbox` beside it, or nothing beside it.
fn lone_hookhost(helper: Option<&str>) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("hookhost");
    std::fs::copy(env!("CARGO_BIN_EXE_hookhost"), &exe).unwrap();
    if let Some(script) = helper {
        let h = dir.path().join("hookhost-sandbox");
        std::fs::write(&h, script).unwrap();
        make_executable(&h);
    }
    (dir, exe)
}

/// `hookhost run PreToolUse --json` of the attempts hook with a read grant, by `exe`.
fn run_granted(s: &Setup, exe: &Path) -> Value {
    s.p.write(
        ".coding-agent/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"command": "./hooks/attempts.sh", "match": "bash",
            "fs": "read"}]}})
        .to_string(),
    );
    let out = command_at(&s.p, exe)
        .args(["run", "PreToolUse", "--tool", "bash", "--json", "--project"])
        .arg(s.p.path())
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn the_helper_confines_what_it_runs_and_refuses_what_it_cannot_read() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("notes.txt"), "outside").unwrap();
    let helper = env!("CARGO_BIN_EXE_hookhost-sandbox");
    let mut c = std::process::Command::new(helper);
    c.arg(hookhost_sys::jail::ARGS_VERSION);
    for dir in ["/usr", "/bin", "/lib", "/lib64", "/etc"] {
        c.args(["--rx", dir]);
    }
    let out = c
        .args(["--dev", "/dev/null", "--nproc", "4096", "--cpu", "5"])
        .args([
            "--data",
            "1073741824",
            "--fsize",
            "1073741824",
            "--",
            "sh",
            "-c",
        ])
        .arg(format!(
            "cat {0}/notes.txt || echo denied; echo x > {0}/w || echo unwritten; exit 3",
            outside.path().display()
        ))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(3),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("denied") && stdout.contains("unwritten"),
        "{stdout}"
    );
    assert!(!outside.path().join("w").exists());
    // Another version's arguments, or a person's: exit 125 and one line that says why.
    let out = std::process::Command::new(helper)
        .args(["--rx", "/", "--", "sh", "-c", "echo ran"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(125));
    assert!(out.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("hookhost-sandbox: "),
        "{out:?}"
    );
}

#[test]
fn without_the_helper_a_hook_is_confined_in_a_fork_and_doctor_says_so() {
    let s = setup(json!({"command": "true"}));
    for with_helper in [false, true] {
        let (dir, exe) = lone_hookhost(None);
        let helper = dir.path().join("hookhost-sandbox");
        if with_helper {
            std::fs::copy(env!("CARGO_BIN_EXE_hookhost-sandbox"), &helper).unwrap();
        }
        let v = run_granted(&s, &exe);
        let stderr = v["hooks"][0]["stderr"].as_str().unwrap_or_default();
        let got = results(stderr);
        for (attempt, want) in [
            ("read_ssh", "denied"),
            ("read_outside", "denied"),
            ("read_project", "ok"),
            ("write_project", "denied"),
            ("net", "denied"),
        ] {
            assert_eq!(
                got.get(attempt).map(String::as_str),
                Some(want),
                "{attempt}: {v}"
            );
        }
        let doctor = command_at(&s.p, &exe).arg("doctor").output().unwrap();
        let text = String::from_utf8_lossy(&doctor.stdout);
        let want = if with_helper {
            format!("entered through {}", helper.display())
        } else {
            "entered in a fork".to_string()
        };
        assert!(
            text.contains(&want),
            "doctor does not say {want:?}:\n{text}"
        );
    }
}

#[test]
fn a_helper_that_cannot_confine_keeps_the_hook_from_running() {
    let s = setup(json!({"command": "true"}));
    let (_dir, exe) = lone_hookhost(Some(
        "#!/bin/sh\necho 'hookhost-sandbox: no sandbox today' >&2\nexit 125\n",
    ));
    let v = run_granted(&s, &exe);
    let hook = &v["hooks"][0];
    let text = hook.to_string();
    assert!(!text.contains("ran to its end"), "{v}");
    assert!(
        text.contains("the hook must run sandboxed and cannot: no sandbox today"),
        "{v}"
    );
}
