//! `hookhost serve` as a real process: JSON-RPC over stdio and over a Unix socket, real
//! shell and wasm hooks, client hooks called back over the connection, malformed and
//! over-long messages, reloads, async hooks, graceful shutdown and 16 concurrent clients.

mod common;

use common::Project;
use common::guests::guest;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The server binary on `p`, with its own HOME and cache.
fn server(p: &Project, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hookhost"));
    c.arg("serve")
        .arg("--project")
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .args(["--poll-ms", "50"])
        .args(extra)
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        // These tests are about the server, not trust: the project's hooks run.
        .env("HOOKHOST_TRUST", "all")
        .env_remove("RUST_LOG");
    c
}

/// One JSON-RPC connection: writes requests, reads lines, answers client-hook calls with
/// `answer` and keeps notifications for later.
struct Conn<W: Write> {
    w: W,
    r: Box<dyn BufRead>,
    next: u64,
    notes: Vec<Value>,
}

impl<W: Write> Conn<W> {
    fn send_raw(&mut self, bytes: &[u8]) {
        self.w.write_all(bytes).unwrap();
        self.w.flush().unwrap();
    }

    fn read(&mut self) -> Value {
        let mut line = String::new();
        let n = self.r.read_line(&mut line).unwrap();
        assert!(n > 0, "the server closed the connection");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("bad line {line:?}: {e}"))
    }

    fn send(&mut self, method: &str, params: Value) -> u64 {
        self.next += 1;
        let msg = json!({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params});
        self.send_raw(format!("{msg}\n").as_bytes());
        self.next
    }

    /// Reads until the answer to `id`, answering hook calls with `answer`.
    fn wait(&mut self, id: u64, answer: &mut dyn FnMut(&Value) -> Value) -> Value {
        loop {
            let m = self.read();
            if m.get("method").and_then(Value::as_str) == Some("hook") {
                let reply = answer(&m["params"]);
                let msg = if reply.get("error").is_some() {
                    json!({"jsonrpc": "2.0", "id": m["id"], "error": reply["error"]})
                } else {
                    json!({"jsonrpc": "2.0", "id": m["id"], "result": reply})
                };
                self.send_raw(format!("{msg}\n").as_bytes());
            } else if m.get("method").is_some() {
                self.notes.push(m);
            } else if m["id"] == json!(id) {
                return m;
            } else {
                panic!("an answer to an id never sent: {m}");
            }
        }
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params);
        let m = self.wait(id, &mut |_| Value::Null);
        assert!(m.get("error").is_none(), "{method} failed: {m}");
        m["result"].clone()
    }
}

fn stdio(p: &Project) -> (Child, Conn<ChildStdin>) {
    let mut child = server(p, &[])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let w = child.stdin.take().unwrap();
    let r: ChildStdout = child.stdout.take().unwrap();
    (
        child,
        Conn {
            w,
            r: Box::new(BufReader::new(r)),
            next: 0,
            notes: Vec::new(),
        },
    )
}

fn connect(path: &std::path::Path) -> Conn<UnixStream> {
    // The server binds before it reads anything; retry until it is there.
    let stream = loop {
        match UnixStream::connect(path) {
            Ok(s) => break s,
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
        }
    };
    Conn {
        w: stream.try_clone().unwrap(),
        r: Box::new(BufReader::new(stream)),
        next: 0,
        notes: Vec::new(),
    }
}

fn guard_project() -> Project {
    let p = Project::new(json!({"hooks": {
        "PreToolUse": [
            {"command": "grep -q sudo && { echo 'no sudo' >&2; exit 2; }; exit 0", "match": "bash"},
            {"command": ".coding-agent/guard.wasm", "match": "bash"}
        ]
    }}));
    std::fs::copy(
        guest("bash-guard"),
        p.path().join(".coding-agent/guard.wasm"),
    )
    .unwrap();
    p
}

/// What must be the same in two `run --json` objects (durations differ).
fn shape(v: &Value) -> Value {
    let mut v = v.clone();
    for h in v["hooks"].as_array_mut().unwrap() {
        h["durationMs"] = json!(0);
    }
    v
}

#[test]
fn fire_over_stdio_answers_what_run_json_prints() {
    let p = guard_project();
    let (mut child, mut c) = stdio(&p);
    for (args, decision) in [
        (json!({"command": "ls"}), "pass"),
        (json!({"command": "sudo ls"}), "block"),
        (json!({"command": "rm -rf /"}), "block"),
    ] {
        let served = c.call(
            "fire",
            json!({"event": "PreToolUse", "tool": "bash", "args": args, "session": "s"}),
        );
        assert_eq!(served["decision"], decision, "{served}");
        let out = p.cli(
            &[
                "run",
                "PreToolUse",
                "--tool",
                "bash",
                "--args",
                &args.to_string(),
                "--session",
                "s",
                "--json",
            ],
            &[],
        );
        let ran: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(shape(&served), shape(&ran));
    }
    let rm = c.call("fire", json!({"event": "pretooluse", "payload": {"toolName": "bash", "toolArgs": {"command": "rm -rf /"}}}));
    assert!(
        rm["reason"].as_str().unwrap().contains("bash-guard"),
        "{rm}"
    );
    assert_eq!(rm["hooks"][1]["kind"], "wasm");
    let listed = c.call("list", json!({}));
    assert_eq!(listed["hooks"].as_array().unwrap().len(), 2);
    let checked = c.call("check", Value::Null);
    assert_eq!(checked["errors"], json!([]), "{checked}");
    assert_eq!(c.call("shutdown", json!({})), json!({"ok": true}));
    assert!(child.wait().unwrap().success());
}

#[test]
fn malformed_and_oversized_messages_get_errors_and_the_connection_stays_up() {
    let p = Project::new(json!({"hooks": {}}));
    let mut child = server(&p, &["--max-message-bytes", "4096"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut c = Conn {
        w: child.stdin.take().unwrap(),
        r: Box::new(BufReader::new(child.stdout.take().unwrap())),
        next: 0,
        notes: Vec::new(),
    };
    let expect = |c: &mut Conn<ChildStdin>, raw: &[u8], code: i64| {
        c.send_raw(raw);
        let m = c.read();
        assert_eq!(m["error"]["code"], code, "{m}");
    };
    expect(&mut c, b"{not json\n", -32700);
    expect(&mut c, b"[1,2]\n", -32600);
    expect(&mut c, b"{\"id\":1,\"method\":\"list\"}\n", -32600);
    expect(
        &mut c,
        b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope\"}\n",
        -32601,
    );
    expect(
        &mut c,
        b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"fire\",\"params\":{\"event\":\"Nope\"}}\n",
        -32602,
    );
    expect(
        &mut c,
        b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"fire\",\"params\":{\"event\":\"Stop\",\"tool\":\"bash\"}}\n",
        -32602,
    );
    // 8 MiB on one line, over a 4 KiB limit: skipped without being held, then business as usual.
    let mut big = vec![b'x'; 8 << 20];
    big.push(b'\n');
    expect(&mut c, &big, -32001);
    let r = c.call("fire", json!({"event": "Stop"}));
    assert_eq!(r["decision"], "pass");
    drop(c); // EOF on stdin: the server ends by itself.
    assert!(child.wait().unwrap().success());
}

/// A param a method does not know is refused with its name and the nearest known one, never
/// ignored (a typo'd `tool` fired the event without a tool and answered pass).
#[test]
fn unknown_params_are_refused_with_the_nearest_known_name() {
    let p = guard_project();
    let (mut child, mut c) = stdio(&p);
    let refused = |c: &mut Conn<ChildStdin>, method: &str, params: Value| {
        let id = c.send(method, params);
        let m = c.wait(id, &mut |_| Value::Null);
        assert_eq!(m["error"]["code"], -32602, "{m}");
        m["error"]["message"].as_str().unwrap().to_string()
    };
    let args = json!({"command": "rm -rf /"});
    assert_eq!(
        refused(
            &mut c,
            "fire",
            json!({"event": "PreToolUse", "tol": "bash", "args": args})
        ),
        "unknown parameter `tol` of `fire`: did you mean `tool`? (known: event, session, payload, tool, args, result, prompt)"
    );
    let m = refused(
        &mut c,
        "fire",
        json!({"event": "PreToolUse", "toolName": "bash", "args": args}),
    );
    assert!(
        m.starts_with("unknown parameter `toolName` of `fire`: did you mean `tool`?"),
        "{m}"
    );
    let m = refused(
        &mut c,
        "register",
        json!({"event": "Stop", "timeout_ms": 5}),
    );
    assert!(m.contains("did you mean `timeoutMs`?"), "{m}");
    let m = refused(&mut c, "unregister", json!({"hook": "x"}));
    assert!(m.contains("(known: id)"), "{m}");
    let m = refused(&mut c, "list", json!({"all": true}));
    assert!(m.contains("`list` takes no parameters"), "{m}");
    // Known ones still work, and the connection stays up.
    let ok = c.call(
        "fire",
        json!({"event": "PreToolUse", "tool": "bash", "args": args}),
    );
    assert_eq!(ok["decision"], "block", "{ok}");
    assert_eq!(c.call("shutdown", json!({})), json!({"ok": true}));
    assert!(child.wait().unwrap().success());
}

#[test]
fn client_hooks_go_through_the_decision_table() {
    let p = Project::new(json!({"hooks": {}}));
    let (mut child, mut c) = stdio(&p);
    let blocker = c.call(
        "register",
        json!({"event": "PreToolUse", "match": "write_file", "name": "no-env"}),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    let failing = c.call("register", json!({"event": "PostToolUse", "name": "flaky"}))["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut answer = |params: &Value| -> Value {
        let id = params["id"].as_str().unwrap();
        let path = params["payload"]["toolArgs"]["path"].as_str().unwrap_or("");
        if id.starts_with("no-env") && path.ends_with(".env") {
            json!({"decision": "block", "reason": "secrets"})
        } else if id.starts_with("no-env") {
            json!({"updatedInput": {"path": format!("safe/{path}")}, "additionalContext": "rewrote"})
        } else {
            json!({"error": {"code": 1, "message": "TypeError: boom"}})
        }
    };
    let id = c.send(
        "fire",
        json!({"event": "PreToolUse", "tool": "write_file", "args": {"path": ".env"}}),
    );
    let r = c.wait(id, &mut answer)["result"].clone();
    assert_eq!(r["decision"], "block", "{r}");
    assert_eq!(r["reason"], "secrets");
    assert_eq!(r["hooks"][0]["kind"], "fn");
    assert_eq!(r["hooks"][0]["command"], blocker.as_str());
    let id = c.send(
        "fire",
        json!({"event": "PreToolUse", "tool": "write_file", "args": {"path": "a.txt"}}),
    );
    let r = c.wait(id, &mut answer)["result"].clone();
    assert_eq!(r["decision"], "pass", "{r}");
    assert_eq!(r["updatedArgs"], json!({"path": "safe/a.txt"}));
    assert_eq!(r["additionalContext"], json!(["rewrote"]));
    // The matcher: another tool does not reach the hook.
    let r = c.call("fire", json!({"event": "PreToolUse", "tool": "bash"}));
    assert_eq!(r["hooks"], json!([]));
    // A client hook that throws is a crash: a warning, the event goes on.
    let id = c.send("fire", json!({"event": "PostToolUse", "tool": "bash"}));
    let r = c.wait(id, &mut answer)["result"].clone();
    assert_eq!(r["hooks"][0]["outcome"], "warn", "{r}");
    assert!(
        r["hooks"][0]["message"].as_str().unwrap().contains("boom"),
        "{r}"
    );
    assert_eq!(
        c.call("unregister", json!({"id": failing})),
        json!({"removed": true})
    );
    let r = c.call("fire", json!({"event": "PostToolUse", "tool": "bash"}));
    assert_eq!(r["hooks"], json!([]));
    // A bad matcher is refused at once.
    let id = c.send("register", json!({"event": "PreToolUse", "match": "("}));
    assert_eq!(c.wait(id, &mut answer)["error"]["code"], -32602);
    c.call("shutdown", json!({}));
    assert!(child.wait().unwrap().success());
}

#[test]
fn crashing_and_hanging_hooks_do_not_take_the_server_down() {
    let p = Project::new(json!({"hooks": {
        "PreToolUse": [
            {"command": "kill -SEGV $$", "match": "crash"},
            {"command": "sleep 30", "match": "hang", "timeout": 200},
            {"command": "head -c 3000000 /dev/zero", "match": "flood"}
        ]
    }}));
    let (mut child, mut c) = stdio(&p);
    let r = c.call("fire", json!({"event": "PreToolUse", "tool": "crash"}));
    assert_eq!(r["hooks"][0]["outcome"], "warn", "{r}");
    let r = c.call("fire", json!({"event": "PreToolUse", "tool": "hang"}));
    assert_eq!(r["hooks"][0]["outcome"], "timeout", "{r}");
    let r = c.call("fire", json!({"event": "PreToolUse", "tool": "flood"}));
    assert_eq!(r["hooks"][0]["truncated"], true);
    let r = c.call("fire", json!({"event": "Stop"}));
    assert_eq!(r["decision"], "pass");
    c.call("shutdown", json!({}));
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_changed_config_is_reloaded_and_announced() {
    let p = Project::new(json!({"hooks": {}}));
    let (mut child, mut c) = stdio(&p);
    assert_eq!(c.call("fire", json!({"event": "Stop"}))["hooks"], json!([]));
    p.write(
        ".coding-agent/hooks.json",
        &json!({"hooks": {"Stop": [{"command": "echo 'not done' && exit 2"}]}}).to_string(),
    );
    // The notification comes by itself; read until it does.
    let note = loop {
        let m = c.read();
        if m["method"] == "reloaded" {
            break m;
        }
    };
    assert_eq!(note["params"]["hooks"], 1, "{note}");
    let r = c.call("fire", json!({"event": "Stop"}));
    assert_eq!(r["decision"], "force", "{r}");
    assert_eq!(r["reason"], "not done");
    // A broken edit: announced with its errors; PreToolUse then fails closed, as in `run`.
    p.write(".coding-agent/hooks.json", "{\"hooks\": {\"Nope\": []}}");
    let note = loop {
        let m = c.read();
        if m["method"] == "reloaded" {
            break m;
        }
    };
    assert!(
        !note["params"]["errors"].as_array().unwrap().is_empty(),
        "{note}"
    );
    let r = c.call("fire", json!({"event": "PreToolUse", "tool": "bash"}));
    assert_eq!(r["decision"], "block", "{r}");
    c.call("shutdown", json!({}));
    assert!(child.wait().unwrap().success());
}

#[test]
fn async_hooks_outlive_the_answer_and_shutdown_waits_for_them() {
    let p = Project::new(json!({"hooks": {
        "PostToolUse": [{"command": "sleep 0.3; echo done > async-marker", "async": true}]
    }}));
    let (mut child, mut c) = stdio(&p);
    let r = c.call("fire", json!({"event": "PostToolUse", "tool": "bash"}));
    assert_eq!(r["hooks"], json!([]), "async hooks are not in the answer");
    assert_eq!(c.call("shutdown", json!({})), json!({"ok": true}));
    // The answer to shutdown came after the async hook ended.
    assert_eq!(p.read("async-marker"), "done\n");
    assert!(child.wait().unwrap().success());
}

fn fd_count(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count()
}

fn children(pid: u32) -> usize {
    std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
        .map(|s| s.split_whitespace().count())
        .unwrap_or(0)
}

#[test]
fn sixteen_clients_share_one_socket_server_without_error_or_leak() {
    let p = Project::new(json!({"hooks": {
        "PreToolUse": [{"command": ".coding-agent/t.wasm", "match": "bash"}]
    }}));
    std::fs::copy(guest("trivial"), p.path().join(".coding-agent/t.wasm")).unwrap();
    let sock = p.home.path().join("hookhost.sock");
    let mut child = server(&p, &["--socket", sock.to_str().unwrap()])
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    use std::os::unix::fs::PermissionsExt;
    let mut warm = connect(&sock);
    assert_eq!(
        std::fs::metadata(&sock).unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert_eq!(
        warm.call("fire", json!({"event": "PreToolUse", "tool": "bash"}))["hooks"][0]["outcome"],
        "pass"
    );
    let fds_before = fd_count(child.id());
    let run = |events: usize| {
        std::thread::scope(|s| {
            for t in 0..16 {
                let sock = &sock;
                s.spawn(move || {
                    let mut c = connect(sock);
                    for i in 0..events {
                        let r = c.call(
                            "fire",
                            json!({"event": "PreToolUse", "tool": "bash", "args": {"n": i, "t": t}}),
                        );
                        assert_eq!(r["decision"], "pass", "{r}");
                        assert_eq!(r["hooks"][0]["outcome"], "pass", "{r}");
                    }
                });
            }
        });
    };
    run(1000);
    // Connections closed: the server is back to where it was (give it the moment it takes to
    // see the closes: wait until it is, bounded).
    let mut fds_after = fd_count(child.id());
    for _ in 0..100 {
        if fds_after <= fds_before {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        fds_after = fd_count(child.id());
    }
    assert!(
        fds_after <= fds_before,
        "fds: {fds_before} before, {fds_after} after"
    );
    assert_eq!(children(child.id()), 0);
    // Shutdown from one client; the socket is removed.
    assert_eq!(warm.call("shutdown", json!({})), json!({"ok": true}));
    assert!(child.wait().unwrap().success());
    assert!(!sock.exists());
}

#[test]
fn shutdown_waits_for_another_clients_running_hook() {
    let p = Project::new(json!({"hooks": {
        "PreToolUse": [{"command": "sleep 0.5; touch slow-marker", "match": "slow"}]
    }}));
    let sock = p.home.path().join("s.sock");
    let mut child = server(&p, &["--socket", sock.to_str().unwrap()])
        .spawn()
        .unwrap();
    let mut a = connect(&sock);
    let mut b = connect(&sock);
    // A's event is running (its hook sleeps) when B asks for shutdown. The answer to A's
    // `list`, sent after the fire on the same connection, shows the fire has been read.
    let id = a.send("fire", json!({"event": "PreToolUse", "tool": "slow"}));
    let lid = a.send("list", json!({}));
    let mut fire = None;
    loop {
        let m = a.read();
        if m["id"] == json!(lid) {
            break;
        }
        fire = Some(m);
    }
    let down = b.call("shutdown", json!({}));
    assert_eq!(down, json!({"ok": true}));
    // When shutdown answered, A's hook had finished.
    assert!(p.path().join("slow-marker").exists());
    let fire = fire.unwrap_or_else(|| a.wait(id, &mut |_| Value::Null));
    assert_eq!(fire["result"]["decision"], "pass", "{fire}");
    assert!(child.wait().unwrap().success());
}

#[test]
fn more_requests_than_run_at_once_all_waiting_on_client_hooks_are_answered() {
    // 200 fires sent before any answer: more than the 64 that run at once, each of them
    // waiting for this client's hook. The server keeps reading (answers to its calls get
    // through) and every request is answered.
    let p = Project::new(json!({"hooks": {}}));
    let (mut child, mut c) = stdio(&p);
    c.call("register", json!({"event": "PreToolUse", "name": "odd"}));
    let ids: Vec<u64> = (0..200)
        .map(|n| {
            c.send(
                "fire",
                json!({"event": "PreToolUse", "tool": "t", "args": {"n": n}}),
            )
        })
        .collect();
    let mut decisions = std::collections::HashMap::new();
    while decisions.len() < ids.len() {
        let m = c.read();
        if m["method"] == "hook" {
            let n = m["params"]["payload"]["toolArgs"]["n"].as_u64().unwrap();
            let result = if n % 2 == 1 {
                json!({"decision": "block", "reason": "odd"})
            } else {
                Value::Null
            };
            let reply = json!({"jsonrpc": "2.0", "id": m["id"], "result": result});
            c.send_raw(format!("{reply}\n").as_bytes());
        } else if let Some(id) = m["id"].as_u64() {
            decisions.insert(id, m["result"]["decision"].as_str().unwrap().to_string());
        }
    }
    for (n, id) in ids.iter().enumerate() {
        assert_eq!(decisions[id], if n % 2 == 1 { "block" } else { "pass" });
    }
    c.call("shutdown", json!({}));
    assert!(child.wait().unwrap().success());
}
