//! Attacks on hook packages (first found in issue 22's review): registry credentials sent
//! to a registry a cloned project names and on to a token realm that registry chose (C5),
//! `add`/`update`/`remove` writing through a symlinked `.coding-agent` into the user's
//! global file (X5), an approved `fs: "write"` package running as trusted with a clone's own
//! `args` (X7), a manifest read whole however large (X8), and a reference whose `..` takes
//! requests out of the registry API (X9).
//!
//! C5, X8 and X9 talk to a fake registry: a thread on 127.0.0.1 answering with a handler and
//! recording every request line and `Authorization` header it received. Nothing listens
//! anywhere else, and every loop is bounded (a deadline, a byte cap).

use crate::common::Project;
use crate::common::guests::guest;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const EXE: &str = env!("CARGO_BIN_EXE_hookhost");
const USER: &str = "me";
const PASSWORD: &str = "s3cret-registry-pa55";

// ---------------------------------------------------------------- a fake registry

/// One request the fake registry received.
#[derive(Debug, Clone)]
struct Seen {
    /// `GET /v2/...`.
    line: String,
    /// The `Authorization` header, if any.
    authorization: Option<String>,
}

/// What the handler answers.
struct Answer {
    status: &'static str,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    /// Bytes of filler (spaces) sent after `body`, in chunks, until the client goes away.
    filler: u64,
}

impl Answer {
    fn new(status: &'static str, body: &str) -> Answer {
        Answer {
            status,
            headers: Vec::new(),
            body: body.as_bytes().to_vec(),
            filler: 0,
        }
    }

    fn header(mut self, k: &str, v: &str) -> Answer {
        self.headers.push((k.into(), v.into()));
        self
    }
}

type Handler = dyn Fn(&str) -> Answer + Send + Sync;

/// A one-thread HTTP/1.1 server on 127.0.0.1: `Connection: close` after every answer, up
/// to 60 s, stopped on drop.
struct FakeRegistry {
    port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
    /// Body bytes written to clients, filler included.
    sent: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl FakeRegistry {
    fn start(handler: impl Fn(&str) -> Answer + Send + Sync + 'static) -> FakeRegistry {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sent = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let thread = {
            let (seen, sent, stop) = (seen.clone(), sent.clone(), stop.clone());
            std::thread::spawn(move || {
                let deadline = Instant::now() + Duration::from_secs(60);
                while !stop.load(Ordering::Relaxed) && Instant::now() < deadline {
                    match listener.accept() {
                        Ok((stream, _)) => serve(stream, &*handler, &seen, &sent),
                        Err(_) => std::thread::sleep(Duration::from_millis(5)),
                    }
                }
            })
        };
        FakeRegistry {
            port,
            seen,
            sent,
            stop,
            thread: Some(thread),
        }
    }

    fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for FakeRegistry {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(stream: TcpStream, handler: &Handler, seen: &Mutex<Vec<Seen>>, sent: &AtomicU64) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(5)));
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() || line.is_empty() {
        return;
    }
    let mut authorization = None;
    for _ in 0..100 {
        let mut h = String::new();
        if reader.read_line(&mut h).is_err() || h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':')
            && k.eq_ignore_ascii_case("authorization")
        {
            authorization = Some(v.trim().to_string());
        }
    }
    let line = line.trim().to_string();
    seen.lock().unwrap().push(Seen {
        line: line.clone(),
        authorization,
    });
    let path = line.split(' ').nth(1).unwrap_or("").to_string();
    let a = handler(&path);
    let mut out = stream;
    let mut head = format!("HTTP/1.1 {}\r\nConnection: close\r\n", a.status);
    let declared = a
        .headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("content-length"));
    for (k, v) in &a.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if !declared && a.filler == 0 {
        head.push_str(&format!("Content-Length: {}\r\n", a.body.len()));
    }
    head.push_str("\r\n");
    if out.write_all(head.as_bytes()).is_err() || out.write_all(&a.body).is_err() {
        return;
    }
    sent.fetch_add(a.body.len() as u64, Ordering::Relaxed);
    let chunk = vec![b' '; 64 * 1024];
    let mut left = a.filler;
    while left > 0 {
        let n = chunk.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        if out.write_all(&chunk[..n]).is_err() {
            break;
        }
        sent.fetch_add(n as u64, Ordering::Relaxed);
        left -= n as u64;
    }
    let _ = out.flush();
}

// ---------------------------------------------------------------- helpers

/// The real binary with its own HOME and store, no registry settings of the caller's.
fn cmd(home: &Path, dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(EXE);
    c.args(args)
        .current_dir(dir)
        .arg("--home")
        .arg(home)
        .env("HOME", home)
        .env("HOOKHOST_STORE_DIR", home.join("store"))
        .env("HOOKHOST_CACHE_DIR", home.join("cache"))
        .env("DOCKER_CONFIG", home.join(".docker"))
        .env("HOOKHOST_MANAGED_CONFIG", home.join("etc/hooks.json"))
        .env(
            "HOOKHOST_CLAUDE_MANAGED_SETTINGS",
            home.join("etc/managed-settings.json"),
        )
        .env_remove("HOOKHOST_TRUST")
        .env_remove("HOOKHOST_REGISTRY_USERNAME")
        .env_remove("HOOKHOST_REGISTRY_PASSWORD")
        .env_remove("HOOKHOST_REGISTRY_HOST")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null());
    c
}

fn show(out: &Output) -> String {
    format!(
        "{}\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn sha256(bytes: &[u8]) -> String {
    hookhost::files::sha256_hex(bytes)
}

/// `module` packed (with the real CLI) with a manifest asking for `fs`, in a directory of
/// its own; returns the directory and the packed file.
fn packed(home: &Path, module: &[u8], name: &str, fs: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::TempDir::new().unwrap();
    std::fs::write(dir.path().join("guard.wasm"), module).unwrap();
    let manifest = json!({
        "name": name, "version": "1.0.0", "description": "a test hook",
        "events": ["PreToolUse"], "match": "bash",
        "capabilities": {"fs": fs, "memory": 16, "timeout": 3000}
    });
    std::fs::write(dir.path().join("hook.json"), manifest.to_string()).unwrap();
    let out = cmd(home, dir.path(), &["pack", "guard.wasm"])
        .output()
        .unwrap();
    assert!(out.status.success(), "pack: {}", show(&out));
    let file = dir.path().join("guard.wasm");
    (dir, file)
}

/// A module that exits 0 (its `word` makes two modules' digests differ).
fn passing_module(word: &str) -> Vec<u8> {
    wat::parse_str(format!(
        r#"(module (memory (export "memory") 1) (data (i32.const 0) "{word}")
             (func (export "_start")))"#
    ))
    .unwrap()
}

fn base64(text: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(text)
}

// ---------------------------------------------------------------- C5

/// A project cloned with a pinned package from `registry` (whose bytes the user lacks).
fn clone_pinning(registry: &str) -> Project {
    Project::new(json!({"hooks": {"PreToolUse": [{
        "package": {"ref": format!("oci://{registry}/team/guard:1"),
                    "digest": format!("sha256:{}", sha256(b"the project's module"))}}]}}))
}

/// Every `Authorization` header either server received that carries the user's secret
/// (basic credentials, or the password itself).
fn leaked(servers: &[&FakeRegistry]) -> Vec<String> {
    let basic = base64(&format!("{USER}:{PASSWORD}"));
    servers
        .iter()
        .flat_map(|s| s.seen())
        .filter(|s| {
            s.authorization.as_deref().is_some_and(|a| {
                a.contains(&basic) || a.contains(PASSWORD) || a.starts_with("Basic")
            })
        })
        .map(|s| format!("{} ({:?})", s.line, s.authorization))
        .collect()
}

#[test]
fn credentials_are_not_sent_to_a_projects_registry() {
    // The token service the project's registry sends clients to: another origin.
    let realm = FakeRegistry::start(|_| {
        Answer::new(
            "401 Unauthorized",
            r#"{"errors":[{"code":"UNAUTHORIZED"}]}"#,
        )
    });
    let realm_url = format!("http://{}/token", realm.host());
    let registry = FakeRegistry::start(move |_| {
        Answer::new(
            "401 Unauthorized",
            r#"{"errors":[{"code":"UNAUTHORIZED"}]}"#,
        )
        .header(
            "WWW-Authenticate",
            &format!(
                r#"Bearer realm="{realm_url}",service="fake",scope="repository:team/guard:pull""#
            ),
        )
    });
    let p = clone_pinning(&registry.host());
    let fetch = |env: &[(&str, &str)]| {
        let mut c = cmd(p.home.path(), &p.path(), &["fetch"]);
        c.args(["--project", &p.path().display().to_string()]);
        for (k, v) in env {
            c.env(k, v);
        }
        c.output().unwrap()
    };
    let creds = [
        ("HOOKHOST_REGISTRY_USERNAME", USER),
        ("HOOKHOST_REGISTRY_PASSWORD", PASSWORD),
    ];

    // What the missing-package error tells the user to run, with the credentials they keep
    // in their environment for their own registry.
    let out = fetch(&creds);
    assert!(!out.status.success(), "{}", show(&out));
    let sent = leaked(&[&registry, &realm]);
    assert!(
        sent.is_empty(),
        "credentials no setting ties to {} were sent: {sent:?}\n{}",
        registry.host(),
        show(&out)
    );

    // Bound to the user's registry (another one): still nothing goes to the project's.
    let mut env = creds.to_vec();
    env.push(("HOOKHOST_REGISTRY_HOST", "registry.mine.example"));
    let out = fetch(&env);
    assert!(!out.status.success(), "{}", show(&out));
    let sent = leaked(&[&registry, &realm]);
    assert!(sent.is_empty(), "sent: {sent:?}\n{}", show(&out));

    // docker's config.json with an entry for another registry only: nothing either.
    let docker = p.home.path().join(".docker");
    std::fs::create_dir_all(&docker).unwrap();
    std::fs::write(
        docker.join("config.json"),
        json!({"auths": {"registry.mine.example": {"auth": base64(&format!("{USER}:{PASSWORD}"))}}})
            .to_string(),
    )
    .unwrap();
    let out = fetch(&[]);
    assert!(!out.status.success(), "{}", show(&out));
    let sent = leaked(&[&registry, &realm]);
    assert!(sent.is_empty(), "sent: {sent:?}\n{}", show(&out));

    // The user says this registry is theirs: the credentials may go to it, never to the
    // token realm on another origin it names.
    let host = registry.host();
    let mut env = creds.to_vec();
    env.push(("HOOKHOST_REGISTRY_HOST", &host));
    let out = fetch(&env);
    assert!(!out.status.success(), "{}", show(&out));
    let sent = leaked(&[&realm]);
    assert!(
        sent.is_empty(),
        "the registry's token realm on another origin got the credentials: {sent:?}\n{}",
        show(&out)
    );
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!all.contains(PASSWORD), "the password was printed: {all}");
}

// ---------------------------------------------------------------- X5

#[test]
fn add_does_not_write_through_a_symlinked_coding_agent() {
    let p = Project::new(json!({"hooks": {}}));
    let home = p.home.path();
    let (_d1, first) = packed(home, &passing_module("one"), "guard", "none");
    // The user's own global hooks.json, with a package of theirs.
    let global_file = home.join(".coding-agent/hooks.json");
    let out = cmd(
        home,
        &p.path(),
        &["add", &first.display().to_string(), "--global", "--yes"],
    )
    .output()
    .unwrap();
    assert!(out.status.success(), "add --global: {}", show(&out));
    let before = std::fs::read(&global_file).unwrap();

    // The clone ships `.coding-agent` as a symlink to the user's own directory.
    std::fs::remove_dir_all(p.path().join(".coding-agent")).unwrap();
    std::os::unix::fs::symlink(home.join(".coding-agent"), p.path().join(".coding-agent")).unwrap();
    let (_d2, second) = packed(home, &passing_module("two"), "other", "write");
    let project = p.path().display().to_string();
    // `update` would move the global entry: give it something to move to.
    std::fs::copy(
        packed(home, &passing_module("three"), "guard", "write").1,
        &first,
    )
    .unwrap();
    for args in [
        vec![
            "add",
            second.to_str().unwrap(),
            "--yes",
            "--project",
            &project,
        ],
        vec!["remove", "guard", "--project", &project],
        vec!["update", "--yes", "--project", &project],
    ] {
        let out = cmd(home, &p.path(), &args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains("symlink") && err.contains(".coding-agent"),
            "{args:?} did not refuse the symlinked .coding-agent: {}",
            show(&out)
        );
        assert_eq!(
            std::fs::read(&global_file).unwrap(),
            before,
            "{args:?} wrote into the user's global hooks.json through the project's symlink"
        );
    }

    // A real `.coding-agent` whose hooks.json is the symlink: refused the same way, and the
    // link is left as it was (not replaced by a copy of the user's file).
    std::fs::remove_file(p.path().join(".coding-agent")).unwrap();
    std::fs::create_dir(p.path().join(".coding-agent")).unwrap();
    std::os::unix::fs::symlink(&global_file, p.path().join(".coding-agent/hooks.json")).unwrap();
    for args in [
        vec![
            "add",
            second.to_str().unwrap(),
            "--yes",
            "--project",
            &project,
        ],
        vec!["remove", "guard", "--project", &project],
    ] {
        let out = cmd(home, &p.path(), &args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains("symlink") && err.contains("hooks.json"),
            "{args:?} did not refuse the symlinked hooks.json: {}",
            show(&out)
        );
        assert_eq!(std::fs::read(&global_file).unwrap(), before);
        assert!(
            std::fs::symlink_metadata(p.path().join(".coding-agent/hooks.json"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }
}

// ---------------------------------------------------------------- X7

#[test]
fn approved_write_package_with_other_args_is_untrusted() {
    // A package that does what its arguments say (the hostile guest: `write PATH` writes
    // PATH), approved with `fs: "write"` by the user in their own project.
    let mine = Project::new(json!({"hooks": {}}));
    let home = mine.home.path();
    let module = std::fs::read(guest("hostile")).unwrap();
    let (_d, file) = packed(home, &module, "formatter", "write");
    let out = cmd(
        home,
        &mine.path(),
        &[
            "add",
            &file.display().to_string(),
            "--yes",
            "--project",
            &mine.path().display().to_string(),
        ],
    )
    .output()
    .unwrap();
    assert!(out.status.success(), "add: {}", show(&out));
    let entry = mine.read(".coding-agent/hooks.json");
    let entry: Value = serde_json::from_str(&entry).unwrap();
    let pinned = entry["hooks"]["PreToolUse"][0]["package"].clone();
    assert!(pinned["digest"].is_string(), "{entry}");

    // A clone pins the same digest with arguments of its own.
    let clone = Project::new(json!({"hooks": {"PreToolUse": [{
        "package": {"ref": pinned["ref"], "digest": pinned["digest"],
                    "args": ["write", ".git/config"]},
        "fs": "write", "timeout": 3000}]}}));
    std::fs::create_dir(clone.path().join(".git")).unwrap();
    std::fs::write(clone.path().join(".git/config"), "[core]\n").unwrap();
    let run = |project: &Project| {
        cmd(
            home,
            &project.path(),
            &[
                "run",
                "PreToolUse",
                "--tool",
                "bash",
                "--trust",
                "skip",
                "--json",
                "--project",
                &project.path().display().to_string(),
            ],
        )
        .output()
        .unwrap()
    };
    let out = run(&clone);
    assert_eq!(
        std::fs::read_to_string(clone.path().join(".git/config")).unwrap(),
        "[core]\n",
        "the approved digest ran trusted, with fs: write, on the clone's own arguments: {}",
        show(&out)
    );
    let untrusted = |out: &Output| -> Vec<Value> {
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        v["untrusted"].as_array().cloned().unwrap_or_default()
    };
    assert_eq!(untrusted(&out), [json!("PreToolUse[0]")], "{}", show(&out));

    // Once the user reviews the clone (`hookhost trust`), those arguments are theirs too.
    let out = cmd(
        home,
        &clone.path(),
        &["trust", "--project", &clone.path().display().to_string()],
    )
    .output()
    .unwrap();
    assert!(out.status.success(), "trust: {}", show(&out));
    let out = run(&clone);
    assert_eq!(
        std::fs::read_to_string(clone.path().join(".git/config")).unwrap(),
        "written by a guest",
        "trusted, the same hook may write: {}",
        show(&out)
    );

    // The user's own project, without arguments, stays trusted.
    let out = run(&mine);
    assert!(untrusted(&out).is_empty(), "{}", show(&out));
    assert!(out.status.success(), "{}", show(&out));
}

// ---------------------------------------------------------------- X8

/// The peak resident set of a child, polled from /proc until it exits (at most 60 s).
fn run_measuring(mut c: Command) -> (Output, u64) {
    let child = c
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let peak = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let poller = {
        let (peak, done) = (peak.clone(), done.clone());
        std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(60);
            while !done.load(Ordering::Relaxed) && Instant::now() < deadline {
                if let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status"))
                    && let Some(kb) = status
                        .lines()
                        .find_map(|l| l.strip_prefix("VmHWM:"))
                        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                {
                    peak.fetch_max(kb * 1024, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    let out = child.wait_with_output().unwrap();
    done.store(true, Ordering::Relaxed);
    poller.join().unwrap();
    (out, peak.load(Ordering::Relaxed))
}

#[test]
fn oversized_manifest_is_refused_without_reading_it_whole() {
    const BIG: u64 = 768 << 20;
    // A manifest that starts like one and goes on (whitespace is valid JSON) for 768 MiB,
    // with no Content-Length to refuse it by.
    let registry = FakeRegistry::start(|path| {
        if path == "/v2/" || path.starts_with("/v2/?") {
            return Answer::new("200 OK", "{}");
        }
        if path.contains("/manifests/") {
            let mut a = Answer::new("200 OK", r#"{"schemaVersion": 2, "layers": []"#)
                .header("Content-Type", "application/vnd.oci.image.manifest.v1+json");
            a.filler = BIG;
            return a;
        }
        Answer::new("404 Not Found", r#"{"errors":[]}"#)
    });
    let p = Project::new(json!({"hooks": {}}));
    let reference = format!("oci://{}/big/guard:1", registry.host());
    let mut c = cmd(p.home.path(), &p.path(), &["add", &reference, "--yes"]);
    c.args(["--project", &p.path().display().to_string()]);
    let (out, peak) = run_measuring(c);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{}", show(&out));
    let sent = registry.sent.load(Ordering::Relaxed);
    assert!(
        sent < 64 << 20,
        "the client read {} MiB of the manifest before giving up: {}",
        sent >> 20,
        show(&out)
    );
    assert!(
        peak < 256 << 20,
        "hookhost's peak RSS was {} MiB",
        peak >> 20
    );
    assert!(
        err.contains("manifest") && err.contains("MiB"),
        "the error should say the manifest is over its limit: {}",
        show(&out)
    );

    // Declared too large: refused from its Content-Length, before reading a byte of it.
    let declared = FakeRegistry::start(|path| {
        if path.contains("/manifests/") {
            return Answer::new("200 OK", "{")
                .header("Content-Type", "application/vnd.oci.image.manifest.v1+json")
                .header("Content-Length", &(1536u64 << 20).to_string());
        }
        Answer::new("200 OK", "{}")
    });
    let reference = format!("oci://{}/big/guard:1", declared.host());
    let mut c = cmd(p.home.path(), &p.path(), &["add", &reference, "--yes"]);
    c.args(["--project", &p.path().display().to_string()]);
    let out = c.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("manifest") && err.contains("MiB"),
        "{}",
        show(&out)
    );
}

// ---------------------------------------------------------------- X9

#[test]
fn dot_dot_in_a_reference_is_rejected() {
    let registry = FakeRegistry::start(|_| Answer::new("404 Not Found", r#"{"errors":[]}"#));
    let host = registry.host();
    let p = Project::new(json!({"hooks": {}}));
    for reference in [
        format!("oci://{host}/../../etc:1.0"),
        format!("oci://{host}/hooks/../../../etc:1.0"),
        format!("oci://{host}/hooks/./guard:1.0"),
        format!("oci://{host}/hooks/%2e%2e/guard:1.0"),
        format!("oci://{host}/hooks%2fguard:1.0"),
        format!("oci://{host}/hooks//guard:1.0"),
        format!("oci://{host}/hooks/guard.:1.0"),
        format!("oci://{host}/hooks/-guard:1.0"),
        format!("oci://{host}/hooks/guard:.1"),
        format!("oci://{host}/hooks/guard:1.0?x=y"),
        format!("oci://me@{host}/hooks/guard:1.0"),
        format!("oci://{host}:/hooks/guard:1.0"),
        "oci://../hooks/guard:1.0".to_string(),
    ] {
        let mut c = cmd(p.home.path(), &p.path(), &["add", &reference, "--yes"]);
        c.args(["--project", &p.path().display().to_string()]);
        let out = c.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains("oci://registry.example.com/"),
            "{reference} was not refused with a valid example: {}",
            show(&out)
        );
        let seen = registry.seen();
        assert!(
            seen.is_empty(),
            "{reference} sent requests: {seen:?}\n{}",
            show(&out)
        );
    }
    // A pinned entry naming such a reference in a cloned project fails the same way.
    let digest = format!("sha256:{}", sha256(b"x"));
    let clone = Project::new(json!({"hooks": {"PreToolUse": [{
        "package": {"ref": format!("oci://{host}/../../etc:1.0"), "digest": digest}}]}}));
    let out = cmd(
        clone.home.path(),
        &clone.path(),
        &["fetch", "--project", &clone.path().display().to_string()],
    )
    .output()
    .unwrap();
    assert!(!out.status.success(), "{}", show(&out));
    assert!(registry.seen().is_empty(), "{:?}", registry.seen());
}
