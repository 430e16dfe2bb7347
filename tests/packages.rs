//! Hook packages end to end against a real registry: Debian's `docker-registry`
//! (distribution 2.8), started per test on 127.0.0.1 with a temporary storage directory,
//! plain or behind htpasswd basic auth. Publish, add by tag and by digest, update with a
//! capability diff, a tampered store, a registry that is down, a manifest asking more than
//! the config grants, a layer over the size cap, basic auth from the environment and from
//! docker's config.json, trust by digest, and the whole story from a `hookhost new` template.
//!
//! Nothing is skipped: the tests that need a registry are the `registry` tier
//! (tests/README.md), and without `docker-registry` (or `htpasswd`) they fail and say to run
//! `scripts/setup`. Packing, inspecting a file and trust by digest need none: fast tier.

mod common;

use serde_json::{Value, json};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU16, Ordering};
use tempfile::TempDir;

const EXE: &str = env!("CARGO_BIN_EXE_hookhost");

// ---------------------------------------------------------------- the registry

/// A `docker-registry serve` on 127.0.0.1, killed on drop.
struct Registry {
    child: Option<Child>,
    port: u16,
    config: PathBuf,
    _dir: TempDir,
}

fn require(tool: &str) -> PathBuf {
    common::needs::program(
        tool,
        "run scripts/setup (it installs Debian's docker-registry and apache2-utils)",
    )
}

/// A port for a registry of this test process: below Linux's ephemeral range, so no
/// `bind(0)` anywhere is handed it while its registry starts (that takes the Go binary a
/// while), and never given twice in this process, so a test's registry that stops and
/// restarts on its port does not meet another test's there. (With `bind(0)`, a registry was
/// once handed a port another test's restarting registry came back to: ready, then refused.)
fn registry_port() -> u16 {
    static NEXT: AtomicU16 = AtomicU16::new(0);
    let base = 20_000 + u16::try_from(std::process::id() % 8_000).unwrap_or(0);
    for _ in 0..4_000 {
        let port = base + NEXT.fetch_add(1, Ordering::Relaxed) % 4_000;
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free port in 127.0.0.1:{base}-{}", base + 3_999);
}

impl Registry {
    /// A registry without authentication.
    fn plain() -> Registry {
        Registry::start(None)
    }

    /// A registry that wants `user`/`password` (htpasswd, bcrypt).
    fn with_auth(user: &str, password: &str) -> Registry {
        Registry::start(Some((user, password)))
    }

    fn start(auth: Option<(&str, &str)>) -> Registry {
        let dir = TempDir::new().unwrap();
        let port = registry_port();
        let mut config = format!(
            "version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n    rootdirectory: {}\nhttp:\n  addr: 127.0.0.1:{port}\n  secret: test-secret\n",
            dir.path().join("data").display()
        );
        if let Some((user, password)) = auth {
            let htpasswd = require("htpasswd");
            let file = dir.path().join("htpasswd");
            let out = Command::new(htpasswd)
                .args(["-Bbc"])
                .arg(&file)
                .args([user, password])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "htpasswd: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            config.push_str(&format!(
                "auth:\n  htpasswd:\n    realm: hookhost-test\n    path: {}\n",
                file.display()
            ));
        }
        let config_file = dir.path().join("config.yml");
        std::fs::write(&config_file, config).unwrap();
        let mut r = Registry {
            child: None,
            port,
            config: config_file,
            _dir: dir,
        };
        r.restart();
        r
    }

    /// Starts it (again, on the same port and storage).
    fn restart(&mut self) {
        self.stop();
        let child = Command::new(require("docker-registry"))
            .arg("serve")
            .arg(&self.config)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        self.child = Some(child);
        self.wait_ready();
    }

    /// Waits until the registry accepts connections (or has exited: then panics). A
    /// connection only counts while our registry still runs: another process that took the
    /// port between `registry_port` and the registry's own bind would answer it too.
    fn wait_ready(&mut self) {
        loop {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                // Give a registry that lost the port the moment to exit, then look.
                std::thread::sleep(std::time::Duration::from_millis(50));
                if self.child.as_mut().unwrap().try_wait().unwrap().is_none() {
                    return;
                }
            }
            if let Some(status) = self.child.as_mut().unwrap().try_wait().unwrap() {
                panic!(
                    "docker-registry exited at start ({status}); is scripts/setup's docker-registry working?"
                );
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    fn reference(&self, repo_tag: &str) -> String {
        format!("oci://{}/{repo_tag}", self.host())
    }

    /// Stops it (the registry is down from here on).
    fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        self.stop();
    }
}

// ---------------------------------------------------------------- a user and projects

/// One user (HOME, hook store, compiled-code cache) and any number of projects.
struct User {
    home: TempDir,
    cache: TempDir,
}

impl User {
    fn new() -> User {
        User {
            home: TempDir::new().unwrap(),
            cache: TempDir::new().unwrap(),
        }
    }

    fn store(&self) -> PathBuf {
        self.home.path().join("store")
    }

    fn project(&self) -> TempDir {
        let p = TempDir::new().unwrap();
        std::fs::create_dir_all(p.path().join(".coding-agent")).unwrap();
        p
    }

    fn cmd(&self, dir: &Path, args: &[&str]) -> Command {
        let mut c = Command::new(EXE);
        c.args(args)
            .current_dir(dir)
            .arg("--home")
            .arg(self.home.path())
            .env("HOME", self.home.path())
            .env("HOOKHOST_STORE_DIR", self.store())
            .env("HOOKHOST_CACHE_DIR", self.cache.path())
            .env("DOCKER_CONFIG", self.home.path().join(".docker"))
            .env_remove("HOOKHOST_TRUST")
            .env_remove("HOOKHOST_REGISTRY_USERNAME")
            .env_remove("HOOKHOST_REGISTRY_PASSWORD")
            .env_remove("HOOKHOST_REGISTRY_HOST")
            .env_remove("HOOKHOST_REGISTRY_REALM")
            .env_remove("RUST_LOG")
            .stdin(Stdio::null());
        c
    }

    fn run(&self, dir: &Path, args: &[&str]) -> Output {
        self.cmd(dir, args).output().unwrap()
    }

    fn ok(&self, dir: &Path, args: &[&str]) -> String {
        let out = self.run(dir, args);
        assert!(out.status.success(), "{}", show(args, &out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `hookhost run PreToolUse --tool bash --args {"command": command} --json` in `project`.
    fn pre_tool(&self, project: &Path, command: &str) -> (Output, Value) {
        let args = json!({ "command": command }).to_string();
        let out = self.run(
            project,
            &[
                "run",
                "PreToolUse",
                "--tool",
                "bash",
                "--args",
                &args,
                "--json",
                "--project",
                &project.display().to_string(),
            ],
        );
        let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        (out, v)
    }
}

fn show(args: &[&str], out: &Output) -> String {
    format!(
        "hookhost {}: {}\n--- stdout\n{}\n--- stderr\n{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn hooks_json(project: &Path) -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(project.join(".coding-agent/hooks.json")).unwrap(),
    )
    .unwrap()
}

fn sha256(bytes: &[u8]) -> String {
    hookhost::files::sha256_hex(bytes)
}

// ---------------------------------------------------------------- guests

/// A WASI p1 command module that says `word` on stderr and exits 2 (a PreToolUse block),
/// with `pages` of memory.
fn blocking_module(word: &str, pages: u32) -> Vec<u8> {
    let len = word.len();
    wat::parse_str(format!(
        r#"(module
          (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
          (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
          (memory (export "memory") {pages})
          (data (i32.const 64) "{word}")
          (func (export "_start")
            (i32.store (i32.const 0) (i32.const 64))
            (i32.store (i32.const 4) (i32.const {len}))
            (drop (call $fd_write (i32.const 2) (i32.const 0) (i32.const 1) (i32.const 16)))
            (call $exit (i32.const 2))))"#
    ))
    .unwrap()
}

/// A hook project directory with `guard.wasm` and `hook.json`; packed with the real CLI.
fn packed(user: &User, word: &str, manifest: Value) -> (TempDir, PathBuf) {
    let dir = TempDir::new().unwrap();
    let pages = manifest["capabilities"]["memory"].as_u64().map_or(1, |_| 1);
    std::fs::write(
        dir.path().join("guard.wasm"),
        blocking_module(word, u32::try_from(pages).unwrap()),
    )
    .unwrap();
    std::fs::write(dir.path().join("hook.json"), manifest.to_string()).unwrap();
    let out = user.ok(dir.path(), &["pack", "guard.wasm"]);
    let path = PathBuf::from(out.trim());
    assert_eq!(
        path,
        PathBuf::from("guard.wasm"),
        "pack prints the packed path"
    );
    let abs = dir.path().join("guard.wasm");
    (dir, abs)
}

fn manifest(version: &str, fs: &str, env: &[&str]) -> Value {
    json!({
        "name": "guard", "version": version, "description": "blocks every bash call",
        "author": "Test Author", "license": "Apache-2.0", "language": "wat",
        "events": ["PreToolUse"], "match": "bash",
        "capabilities": {"fs": fs, "env": env, "memory": 16, "timeout": 3000}
    })
}

fn pinned_digest(project: &Path) -> String {
    hooks_json(project)["hooks"]["PreToolUse"][0]["package"]["digest"]
        .as_str()
        .unwrap()
        .to_string()
}

// ---------------------------------------------------------------- tests

#[test]
fn pack_embeds_the_manifest_and_inspect_shows_it() {
    let user = User::new();
    let (dir, wasm) = packed(&user, "v1", manifest("1.0.0", "none", &[]));
    let bytes = std::fs::read(&wasm).unwrap();
    let v: Value =
        serde_json::from_str(&user.ok(dir.path(), &["inspect", "guard.wasm", "--json"])).unwrap();
    assert_eq!(v["digest"], format!("sha256:{}", sha256(&bytes)));
    assert_eq!(v["manifest"]["name"], "guard");
    assert_eq!(v["manifest"]["capabilities"]["fs"], "none");
    assert_eq!(
        v["manifest"].get("language").and_then(Value::as_str),
        Some("wat")
    );
    // Re-packing replaces the section: one manifest, the new one.
    std::fs::write(
        dir.path().join("hook.json"),
        manifest("1.0.1", "read", &[]).to_string(),
    )
    .unwrap();
    user.ok(dir.path(), &["pack", "guard.wasm"]);
    let text = user.ok(dir.path(), &["inspect", "guard.wasm"]);
    assert!(
        text.contains("guard 1.0.1") && text.contains("fs: read"),
        "{text}"
    );
    let repacked = std::fs::read(&wasm).unwrap();
    assert_eq!(
        repacked
            .windows(17)
            .filter(|w| w == b"hookhost:manifest")
            .count(),
        1
    );
    // hook.toml, when there is no hook.json.
    std::fs::remove_file(dir.path().join("hook.json")).unwrap();
    std::fs::write(
        dir.path().join("hook.toml"),
        "name = \"guard\"\nversion = \"1.1.0\"\nevents = [\"PreToolUse\"]\nmatch = \"bash\"\n[capabilities]\nfs = \"write\"\nenv = [\"CI\"]\n",
    )
    .unwrap();
    user.ok(dir.path(), &["pack", "guard.wasm"]);
    let v: Value =
        serde_json::from_str(&user.ok(dir.path(), &["inspect", "guard.wasm", "--json"])).unwrap();
    assert_eq!(v["manifest"]["version"], "1.1.0");
    assert_eq!(
        v["manifest"]["capabilities"],
        json!({"fs": "write", "env": ["CI"]})
    );
    // A module without a manifest next to it cannot be packed; the error says where to run.
    std::fs::remove_file(dir.path().join("hook.toml")).unwrap();
    let out = user.run(dir.path(), &["pack", "guard.wasm"]);
    assert!(
        !out.status.success() && String::from_utf8_lossy(&out.stderr).contains("hook.json"),
        "{}",
        show(&["pack"], &out)
    );
}

#[test]
#[cfg_attr(
    not(feature = "registry"),
    ignore = "registry tier: scripts/setup, then --features hookhost-cli/registry"
)]
fn publish_then_add_by_tag_and_by_digest_pins_the_module() {
    let reg = Registry::plain();
    let user = User::new();
    let (dir, wasm) = packed(&user, "blocked-by-v1", manifest("1.0.0", "none", &[]));
    let digest = format!("sha256:{}", sha256(&std::fs::read(&wasm).unwrap()));
    let tag = reg.reference("hooks/guard:1.0");
    let out = user.ok(dir.path(), &["publish", "guard.wasm", &tag, "--json"]);
    let published: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(published["digest"], digest.as_str());

    // inspect REF reads the registry.
    let v: Value =
        serde_json::from_str(&user.ok(dir.path(), &["inspect", &tag, "--json"])).unwrap();
    assert_eq!(
        (v["digest"].as_str(), v["manifest"]["version"].as_str()),
        (Some(digest.as_str()), Some("1.0.0"))
    );
    let manifest_digest = v["manifestDigest"].as_str().unwrap().to_string();

    // By tag.
    let a = user.project();
    let out = user.ok(a.path(), &["add", &tag, "--yes"]);
    assert!(
        out.contains("fs: none") && out.contains("\"package\""),
        "add shows capabilities and entries: {out}"
    );
    let entry = &hooks_json(a.path())["hooks"]["PreToolUse"][0];
    assert_eq!(entry["package"]["ref"], tag.as_str());
    assert_eq!(entry["package"]["digest"], digest.as_str());
    assert_eq!(
        (
            entry["match"].as_str(),
            entry["fs"].as_str(),
            entry["memory"].as_u64()
        ),
        (Some("bash"), Some("none"), Some(16))
    );
    let (out, v) = user.pre_tool(a.path(), "ls");
    assert_eq!(v["decision"], "block", "{}", show(&["run"], &out));
    assert!(
        v["reason"].as_str().unwrap().contains("blocked-by-v1"),
        "{v}"
    );
    let stored = user
        .store()
        .join("sha256")
        .join(digest.trim_start_matches("sha256:"));
    assert_eq!(
        std::fs::read(&stored).unwrap(),
        std::fs::read(&wasm).unwrap()
    );

    // By digest: the manifest digest in the reference, the module's digest pinned.
    let b = user.project();
    let by_digest = format!("oci://{}/hooks/guard@{manifest_digest}", reg.host());
    user.ok(b.path(), &["add", &by_digest, "--yes"]);
    let entry = &hooks_json(b.path())["hooks"]["PreToolUse"][0];
    assert_eq!(
        (
            entry["package"]["ref"].as_str(),
            entry["package"]["digest"].as_str()
        ),
        (Some(by_digest.as_str()), Some(digest.as_str()))
    );

    // `list` and `check` accept the pinned entries.
    user.ok(
        b.path(),
        &["check", "--project", &b.path().display().to_string()],
    );
}

#[test]
#[cfg_attr(
    not(feature = "registry"),
    ignore = "registry tier: scripts/setup, then --features hookhost-cli/registry"
)]
fn add_without_a_terminal_and_without_yes_writes_nothing() {
    let reg = Registry::plain();
    let user = User::new();
    let (dir, _) = packed(&user, "x", manifest("1.0.0", "none", &[]));
    let tag = reg.reference("hooks/guard:1");
    user.ok(dir.path(), &["publish", "guard.wasm", &tag]);
    let p = user.project();
    let out = user.run(p.path(), &["add", &tag]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--yes"),
        "{}",
        show(&["add"], &out)
    );
    assert!(!p.path().join(".coding-agent/hooks.json").exists());
}

#[test]
#[cfg_attr(
    not(feature = "registry"),
    ignore = "registry tier: scripts/setup, then --features hookhost-cli/registry"
)]
fn update_moves_the_tag_and_shows_the_capability_diff_first() {
    let reg = Registry::plain();
    let user = User::new();
    let tag = reg.reference("hooks/guard:stable");
    let (d1, w1) = packed(&user, "v1", manifest("1.0.0", "none", &[]));
    user.ok(d1.path(), &["publish", "guard.wasm", &tag]);
    let p = user.project();
    user.ok(p.path(), &["add", &tag, "--yes"]);
    // The user narrows the match; update must keep it.
    let mut doc = hooks_json(p.path());
    doc["hooks"]["PreToolUse"][0]["match"] = json!("bash|shell");
    std::fs::write(p.path().join(".coding-agent/hooks.json"), doc.to_string()).unwrap();

    let out = user.ok(p.path(), &["update", "--yes"]);
    assert!(out.contains("up to date"), "{out}");

    let (d2, w2) = packed(&user, "v2", manifest("2.0.0", "write", &["GITHUB_TOKEN"]));
    user.ok(d2.path(), &["publish", "guard.wasm", &tag]);
    let out = user.ok(p.path(), &["update", "--yes"]);
    let (old, new) = (
        sha256(&std::fs::read(&w1).unwrap()),
        sha256(&std::fs::read(&w2).unwrap()),
    );
    assert!(
        out.contains(&format!("sha256:{old} -> sha256:{new}")),
        "{out}"
    );
    let caps = out.find("fs: none -> write").expect(&out);
    let loud = out.find("NOW ASKS TO WRITE TO YOUR PROJECT").expect(&out);
    let env = out.find("env: + GITHUB_TOKEN").expect(&out);
    let version = out.find("version: 1.0.0 -> 2.0.0").expect(&out);
    assert!(
        caps < version && loud < version && env < version,
        "capabilities first: {out}"
    );
    let entry = &hooks_json(p.path())["hooks"]["PreToolUse"][0];
    assert_eq!(entry["package"]["digest"], format!("sha256:{new}"));
    assert_eq!(
        (entry["fs"].as_str(), entry["match"].as_str()),
        (Some("write"), Some("bash|shell"))
    );
    assert_eq!(entry["env"], json!(["GITHUB_TOKEN"]));
    let (_, v) = user.pre_tool(p.path(), "ls");
    assert!(
        v["reason"].as_str().unwrap_or_default().contains("v2"),
        "{v}"
    );

    // remove by name.
    let out = user.ok(p.path(), &["remove", "guard"]);
    assert!(out.contains("removed 1"), "{out}");
    assert_eq!(hooks_json(p.path())["hooks"], json!({}));
}

#[test]
#[cfg_attr(
    not(feature = "registry"),
    ignore = "registry tier: scripts/setup, then --features hookhost-cli/registry"
)]
fn tampered_or_missing_store_bytes_fail_the_run_and_fetch_restores_them() {
    let reg = Registry::plain();
    let user = User::new();
    let tag = reg.reference("hooks/guard:1");
    let (d, w) = packed(&user, "genuine", manifest("1.0.0", "none", &[]));
    user.ok(d.path(), &["publish", "guard.wasm", &tag]);
    let p = user.project();
    user.ok(p.path(), &["add", &tag, "--yes"]);
    let digest = pinned_digest(p.path());
    let stored = user
        .store()
        .join("sha256")
        .join(digest.trim_start_matches("sha256:"));

    // Tampered: a different valid module in its place never runs.
    std::fs::write(&stored, blocking_module("evil", 1)).unwrap();
    let (out, v) = user.pre_tool(p.path(), "ls");
    let hook = &v["hooks"][0];
    assert_eq!(
        (v["decision"].as_str(), hook["outcome"].as_str()),
        (Some("block"), Some("error")),
        "{}",
        show(&["run"], &out)
    );
    let said = format!("{}{}", hook["stderr"], v["reason"]);
    assert!(!said.contains("evil"), "the tampered module ran: {v}");
    assert!(
        said.contains("damaged") && said.contains("hookhost fetch"),
        "{v}"
    );
    let out = user.run(
        p.path(),
        &["check", "--project", &p.path().display().to_string()],
    );
    assert!(
        !out.status.success() && String::from_utf8_lossy(&out.stdout).contains("hookhost fetch"),
        "{}",
        show(&["check"], &out)
    );

    // fetch downloads exactly the pinned digest again.
    let out = user.ok(
        p.path(),
        &["fetch", "--project", &p.path().display().to_string()],
    );
    assert!(out.contains("1 fetched"), "{out}");
    assert_eq!(std::fs::read(&stored).unwrap(), std::fs::read(&w).unwrap());
    let (_, v) = user.pre_tool(p.path(), "ls");
    assert!(
        v["reason"].as_str().unwrap_or_default().contains("genuine"),
        "{v}"
    );

    // Missing.
    std::fs::remove_file(&stored).unwrap();
    let (_, v) = user.pre_tool(p.path(), "ls");
    let said = format!("{}{}", v["hooks"][0]["stderr"], v["reason"]);
    assert!(
        said.contains("not in the store") && said.contains("hookhost fetch"),
        "{v}"
    );
}

#[test]
#[cfg_attr(
    not(feature = "registry"),
    ignore = "registry tier: scripts/setup, then --features hookhost-cli/registry"
)]
fn a_registry_that_is_down_does_not_stop_pinned_hooks() {
    let mut reg = Registry::plain();
    let user = User::new();
    let tag = reg.reference("hooks/guard:1");
    let (d, _) = packed(&user, "offline-ok", manifest("1.0.0", "none", &[]));
    user.ok(d.path(), &["publish", "guard.wasm", &tag]);
    let p = user.project();
    user.ok(p.path(), &["add", &tag, "--yes"]);
    reg.stop();
    let (out, v) = user.pre_tool(p.path(), "ls");
    assert_eq!(v["decision"], "block", "{}", show(&["run"], &out));
    assert!(v["reason"].as_str().unwrap().contains("offline-ok"), "{v}");
    // What needs the network says so.
    let out = user.run(p.path(), &["update", "--yes"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is the registry up"),
        "{}",
        show(&["update"], &out)
    );
}

#[test]
#[cfg_attr(
    not(feature = "registry"),
    ignore = "registry tier: scripts/setup, then --features hookhost-cli/registry"
)]
fn the_config_wins_over_the_manifest_and_check_says_so() {
    let reg = Registry::plain();
    let user = User::new();
    let tag = reg.reference("hooks/big:1");
    // The module needs 2 MiB of memory (32 pages); its manifest asks for 16 MiB and fs: read.
    let dir = TempDir::new().unwrap();
    std::fs::write(dir.path().join("guard.wasm"), blocking_module("greedy", 32)).unwrap();
    std::fs::write(
        dir.path().join("hook.json"),
        manifest("1.0.0", "read", &["SECRET"]).to_string(),
    )
    .unwrap();
    user.ok(dir.path(), &["pack", "guard.wasm"]);
    user.ok(dir.path(), &["publish", "guard.wasm", &tag]);
    let p = user.project();
    user.ok(p.path(), &["add", &tag, "--yes"]);
    let (_, v) = user.pre_tool(p.path(), "ls");
    assert!(
        v["reason"].as_str().unwrap_or_default().contains("greedy"),
        "runs with what it asked: {v}"
    );

    // The project grants less.
    let mut doc = hooks_json(p.path());
    let e = &mut doc["hooks"]["PreToolUse"][0];
    e["memory"] = json!(1);
    e["fs"] = json!("none");
    e.as_object_mut().unwrap().remove("env");
    std::fs::write(p.path().join(".coding-agent/hooks.json"), doc.to_string()).unwrap();
    let out = user.run(
        p.path(),
        &[
            "check",
            "--project",
            &p.path().display().to_string(),
            "--json",
        ],
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let warnings = report["warnings"].to_string();
    for word in [
        "asks for fs: read",
        "SECRET",
        "asks for memory: 16 MiB",
        "the config's limit applies",
    ] {
        assert!(warnings.contains(word), "{word}: {report:#}");
    }
    // The 1 MiB cap holds: the module cannot get its 2 MiB.
    let (out, v) = user.pre_tool(p.path(), "ls");
    let hook = &v["hooks"][0];
    assert!(
        !v["reason"].as_str().unwrap_or_default().contains("greedy"),
        "{}",
        show(&["run"], &out)
    );
    assert_ne!(hook["outcome"], "block", "{v}");
}

#[test]
#[cfg_attr(
    not(feature = "registry"),
    ignore = "registry tier: scripts/setup, then --features hookhost-cli/registry"
)]
fn a_layer_over_the_size_cap_is_refused_without_downloading_it() {
    let reg = Registry::plain();
    let user = User::new();
    // 100 MB: pushed with the OCI client directly (publish refuses it before any upload).
    let mut big = blocking_module("big", 1);
    big.resize(100 * 1000 * 1000, 0);
    let dir = TempDir::new().unwrap();
    let file = dir.path().join("big.wasm");
    std::fs::write(&file, &big).unwrap();
    let out = user.run(
        dir.path(),
        &["publish", "big.wasm", &reg.reference("hooks/big:1")],
    );
    assert!(!out.status.success(), "{}", show(&["publish"], &out));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use oci_client::client::{ClientConfig, ClientProtocol, Config, ImageLayer};
        let client = oci_client::Client::new(ClientConfig {
            protocol: ClientProtocol::Http,
            ..ClientConfig::default()
        });
        let r = oci_client::Reference::with_tag(reg.host(), "hooks/big".into(), "1".into());
        let layers = [ImageLayer::new(big, "application/wasm".into(), None)];
        let config = Config::new(
            b"{}".to_vec(),
            "application/vnd.wasm.config.v0+json".into(),
            None,
        );
        client
            .push(
                &r,
                &layers,
                config,
                &oci_client::secrets::RegistryAuth::Anonymous,
                None,
            )
            .await
            .unwrap();
    });
    let p = user.project();
    let out = user.run(p.path(), &["add", &reg.reference("hooks/big:1"), "--yes"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success()
            && err.contains("over the 64 MiB limit")
            && err.contains("without downloading"),
        "{}",
        show(&["add"], &out)
    );
    assert!(
        !user.store().join("sha256").exists()
            || std::fs::read_dir(user.store().join("sha256"))
                .unwrap()
                .next()
                .is_none()
    );
    assert!(!p.path().join(".coding-agent/hooks.json").exists());
}

#[test]
#[cfg_attr(
    not(feature = "registry"),
    ignore = "registry tier: scripts/setup, then --features hookhost-cli/registry"
)]
fn basic_auth_credentials_come_from_the_environment_or_docker_config_and_are_never_printed() {
    let reg = Registry::with_auth("hooker", "s3cret-pa55");
    let user = User::new();
    let tag = reg.reference("hooks/guard:1");
    let (d, _) = packed(&user, "authed", manifest("1.0.0", "none", &[]));

    let out = user.run(d.path(), &["publish", "guard.wasm", &tag]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("HOOKHOST_REGISTRY_USERNAME"),
        "{}",
        show(&["publish"], &out)
    );

    // The variables are bound to the registry they are for: without HOOKHOST_REGISTRY_HOST
    // they are refused (they used to go to every registry), with it they are used.
    let out = user
        .cmd(d.path(), &["publish", "guard.wasm", &tag])
        .env("HOOKHOST_REGISTRY_USERNAME", "hooker")
        .env("HOOKHOST_REGISTRY_PASSWORD", "s3cret-pa55")
        .output()
        .unwrap();
    assert!(
        !out.status.success()
            && String::from_utf8_lossy(&out.stderr).contains("HOOKHOST_REGISTRY_HOST"),
        "{}",
        show(&["publish"], &out)
    );
    let out = user
        .cmd(d.path(), &["-vv", "publish", "guard.wasm", &tag])
        .env("HOOKHOST_REGISTRY_USERNAME", "hooker")
        .env("HOOKHOST_REGISTRY_PASSWORD", "s3cret-pa55")
        .env("HOOKHOST_REGISTRY_HOST", reg.host())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", show(&["publish"], &out));
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !all.contains("s3cret-pa55"),
        "the password was printed: {all}"
    );

    // docker's config.json.
    use base64::Engine;
    let auth = base64::engine::general_purpose::STANDARD.encode("hooker:s3cret-pa55");
    let docker = user.home.path().join(".docker");
    std::fs::create_dir_all(&docker).unwrap();
    std::fs::write(
        docker.join("config.json"),
        json!({"auths": {reg.host(): {"auth": auth}}}).to_string(),
    )
    .unwrap();
    let p = user.project();
    let out = user
        .cmd(p.path(), &["-vv", "add", &tag, "--yes"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", show(&["add"], &out));
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !all.contains("s3cret-pa55") && !all.contains(&auth),
        "a secret was printed: {all}"
    );
}

#[test]
fn a_trusted_digest_needs_no_new_approval_in_another_project() {
    let user = User::new();
    let (_d, wasm) = packed(&user, "trusted", manifest("1.0.0", "read", &[]));
    let a = user.project();
    // A local file reference: no registry needed for trust.
    user.ok(a.path(), &["add", &wasm.display().to_string(), "--yes"]);
    // Another repository that pins the same digest (say, cloned) with the same grants.
    let b = user.project();
    std::fs::copy(
        a.path().join(".coding-agent/hooks.json"),
        b.path().join(".coding-agent/hooks.json"),
    )
    .unwrap();
    let trust = |p: &Path| -> Value {
        serde_json::from_str(&user.ok(
            p,
            &[
                "trust",
                "--dry-run",
                "--json",
                "--project",
                &p.display().to_string(),
            ],
        ))
        .unwrap()
    };
    assert_eq!(
        trust(b.path())["changes"],
        json!([]),
        "same digest, same grants: trusted"
    );
    // The same digest granted more (fs: write) is not.
    let mut doc = hooks_json(b.path());
    doc["hooks"]["PreToolUse"][0]["fs"] = json!("write");
    std::fs::write(b.path().join(".coding-agent/hooks.json"), doc.to_string()).unwrap();
    assert_ne!(trust(b.path())["changes"], json!([]));
    // Under the blocking policy the untrusted package still runs, reduced.
    let out = user
        .cmd(
            b.path(),
            &[
                "run",
                "PreToolUse",
                "--tool",
                "bash",
                "--args",
                "{\"command\":\"ls\"}",
                "--json",
                "--trust",
                "block",
                "--project",
                &b.path().display().to_string(),
            ],
        )
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["decision"], "block", "{v}");
}

/// The whole story: a `hookhost new rust` hook is built, packed, published, added to another
/// project by tag with its digest pinned, run with the registry gone, updated with a visible
/// capability diff.
#[test]
#[cfg_attr(
    not(feature = "registry"),
    ignore = "registry tier: scripts/setup, then --features hookhost-cli/registry"
)]
fn a_template_hook_goes_from_new_to_update() {
    let mut reg = Registry::plain();
    let user = User::new();
    let work = TempDir::new().unwrap();
    let dir = work.path().join("my-guard");
    // Share the template build's cargo target with tests/templates.rs.
    let target = Path::new(EXE)
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .join("templates/cargo");
    let hookhost = |cwd: &Path, args: &[&str]| {
        let out = user
            .cmd(cwd, args)
            .env("CARGO_TARGET_DIR", &target)
            .env("HOME", std::env::var_os("HOME").unwrap_or_default())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", show(args, &out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    hookhost(work.path(), &["new", "rust", &dir.display().to_string()]);
    let built = PathBuf::from(hookhost(&dir, &["build"]).trim());
    assert!(built.is_file());
    let packed = PathBuf::from(hookhost(&dir, &["pack", &built.display().to_string()]).trim());
    assert_eq!(packed, built);
    let tag = reg.reference("team/my-guard:latest");
    hookhost(&dir, &["publish", &packed.display().to_string(), &tag]);
    let digest = format!("sha256:{}", sha256(&std::fs::read(&packed).unwrap()));

    let other = user.project();
    let out = user.ok(other.path(), &["add", &tag, "--yes"]);
    assert!(out.contains("my-guard 0.1.0"), "{out}");
    assert_eq!(pinned_digest(other.path()), digest);

    reg.stop();
    let (out, v) = user.pre_tool(other.path(), "rm -rf /");
    assert_eq!(v["decision"], "block", "{}", show(&["run"], &out));
    let (_, v) = user.pre_tool(other.path(), "ls -la");
    assert_eq!(v["decision"], "pass", "{v}");

    // Version 0.2.0 wants to write to the project.
    reg.restart();
    let mut m: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("hook.json")).unwrap()).unwrap();
    m["version"] = json!("0.2.0");
    m["capabilities"]["fs"] = json!("write");
    std::fs::write(dir.join("hook.json"), m.to_string()).unwrap();
    hookhost(&dir, &["pack", &packed.display().to_string()]);
    hookhost(&dir, &["publish", &packed.display().to_string(), &tag]);
    let out = user.ok(other.path(), &["update", "--yes"]);
    assert!(
        out.contains("fs: none -> write") && out.contains("NOW ASKS TO WRITE"),
        "{out}"
    );
    assert!(out.contains("version: 0.1.0 -> 0.2.0"), "{out}");
    assert_ne!(pinned_digest(other.path()), digest);
    reg.stop();
    let (_, v) = user.pre_tool(other.path(), "rm -rf /");
    assert_eq!(v["decision"], "block", "{v}");
}
