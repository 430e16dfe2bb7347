//! Outgoing HTTP of wasm components (`wasi:http`, docs/wasm.md "Network"): a real guest
//! (`guest-examples/http-probe`, wasm32-wasip2) against real listeners on 127.0.0.1. A hook
//! with `net` reaches exactly those `host:port`s and acts on the answer; anything else is
//! refused and the guest sees `HttpRequestDenied`; an untrusted hook's `net` is dropped; a
//! secret reaches only its hosts and never the guest, its output or the record.

mod common;

use common::guests::guest_p2;
use common::{Project, pre_tool};
use hookhost::{Decision, EventReport, Outcome, TrustPolicy, TrustStore};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

const SECRET: &str = "s3cr3t-value-never-in-the-guest";
const SECRET_VAR: &str = "HOOKHOST_TEST_HTTP_TOKEN";

/// A listener on 127.0.0.1 that records each request (head and body, as text) and answers
/// every one with `answer` as JSON.
struct Server {
    port: u16,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Server {
    fn start(answer: Value) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let mut reader = BufReader::new(conn);
                let mut head = String::new();
                let mut length = 0usize;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = v.trim().parse().unwrap_or(0);
                    }
                    head.push_str(&line);
                }
                let mut body = vec![0; length];
                let _ = reader.read_exact(&mut body);
                log.lock()
                    .unwrap()
                    .push(format!("{head}\r\n{}", String::from_utf8_lossy(&body)));
                let text = answer.to_string();
                let mut conn = reader.into_inner();
                let _ = write!(
                    conn,
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}",
                    text.len()
                );
            }
        });
        Server { port, seen }
    }

    fn requests(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }
}

/// A project whose PreToolUse hooks are `hooks`, with the probe at `hooks/probe.wasm`.
fn project(hooks: Value) -> Project {
    let p = Project::new(json!({ "hooks": { "PreToolUse": hooks } }));
    std::fs::create_dir_all(p.path().join("hooks")).unwrap();
    std::fs::copy(guest_p2("http-probe"), p.path().join("hooks/probe.wasm")).unwrap();
    p
}

async fn fire(runner: &hookhost::Runner, p: &Project, tool: &str) -> EventReport {
    runner
        .fire(pre_tool(&p.path(), tool, json!({"command": "ls"})))
        .await
}

#[tokio::test]
async fn a_component_with_net_reaches_its_policy_server_and_blocks_on_its_answer() {
    let server = Server::start(json!({"decision": "block", "reason": "policy says no"}));
    let port = server.port;
    let p = project(json!([{
        "command": format!("hooks/probe.wasm http://127.0.0.1:{port}/check"),
        "match": "bash", "net": [format!("127.0.0.1:{port}")]
    }]));
    let r = fire(&p.runner(), &p, "bash").await;
    assert_eq!(
        (r.decision, r.reason.as_deref()),
        (Decision::Block, Some("policy says no")),
        "{}",
        common::summary(&r)
    );
    let seen = server.requests();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert!(seen[0].starts_with("POST /check HTTP/1.1"), "{}", seen[0]);
    assert!(seen[0].contains(r#""toolName":"bash""#), "{}", seen[0]);
    // No secret is declared: the placeholder goes out as written.
    assert!(seen[0].contains("Bearer ${secret:TOKEN}"), "{}", seen[0]);
}

#[tokio::test]
async fn without_net_or_to_an_unlisted_port_the_request_is_refused_and_the_hook_sees_it() {
    let server = Server::start(json!({"decision": "block", "reason": "unreachable"}));
    let port = server.port;
    let url = format!("hooks/probe.wasm http://127.0.0.1:{port}/check");
    let p = project(json!([
        {"command": url, "match": "nonet"},
        {"command": url, "match": "otherport", "net": [format!("127.0.0.1:{}", port.wrapping_add(1).max(1))]},
        {"command": url, "match": "otherhost", "net": [format!("localhost:{port}")]}
    ]));
    let runner = p.runner();
    for tool in ["nonet", "otherport", "otherhost"] {
        let r = fire(&runner, &p, tool).await;
        let h = &r.hooks[0];
        assert_eq!(
            (r.decision, h.outcome, h.exit_code),
            (Decision::Pass, Outcome::Warn, Some(3)),
            "{tool}: {}",
            common::summary(&r)
        );
        assert!(
            h.stdout.contains("HttpRequestDenied"),
            "{tool}: {}",
            h.stdout
        );
        assert!(
            h.stderr
                .contains("hookhost: HTTP request refused: 127.0.0.1:"),
            "{tool}: the refusal is in the record: {}",
            h.stderr
        );
    }
    assert!(server.requests().is_empty(), "{:?}", server.requests());
}

#[tokio::test]
async fn an_untrusted_project_hooks_net_is_dropped() {
    let server = Server::start(json!({"decision": "block", "reason": "reached"}));
    let port = server.port;
    let p = project(json!([{
        "command": format!("hooks/probe.wasm http://127.0.0.1:{port}/check"),
        "match": "bash", "net": [format!("127.0.0.1:{port}")]
    }]));
    let runner = p
        .builder()
        .trust(
            TrustPolicy::Skip,
            TrustStore::load(Some(p.home.path())).unwrap(),
        )
        .build()
        .unwrap();
    let r = fire(&runner, &p, "bash").await;
    assert_eq!(r.decision, Decision::Pass, "{}", common::summary(&r));
    assert!(
        server.requests().is_empty(),
        "an untrusted hook reached the network: {:?}",
        server.requests()
    );
}

#[tokio::test]
async fn a_p1_module_with_net_is_a_spawn_failure_that_says_to_build_a_component() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "hooks/probe.wasm http://127.0.0.1:9/", "match": "bash", "net": ["127.0.0.1:9"]}
    ]}}));
    std::fs::create_dir_all(p.path().join("hooks")).unwrap();
    std::fs::copy(
        common::guests::guest("http-probe"),
        p.path().join("hooks/probe.wasm"),
    )
    .unwrap();
    let r = fire(&p.runner(), &p, "bash").await;
    let h = &r.hooks[0];
    assert_eq!(
        (r.decision, h.outcome),
        (Decision::Block, Outcome::Error),
        "{}",
        common::summary(&r)
    );
    let message = h.message.as_deref().unwrap_or_default();
    assert!(
        message.contains("`net` needs a component") && message.contains("wasm32-wasip2"),
        "{message}"
    );
}

#[allow(unsafe_code)]
fn set_secret() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: set once, before any hook of this binary reads hookhost's environment.
        unsafe { std::env::set_var(SECRET_VAR, SECRET) };
    });
}

#[tokio::test]
async fn a_secret_reaches_only_its_host_and_never_the_guest() {
    set_secret();
    let allowed = Server::start(json!({"decision": "pass"}));
    let other = Server::start(json!({"decision": "pass"}));
    let (a, b) = (allowed.port, other.port);
    let p = Project::new(json!({"hooks": {}}));
    let module = p.home.path().join("hooks/probe.wasm");
    std::fs::create_dir_all(module.parent().unwrap()).unwrap();
    std::fs::copy(guest_p2("http-probe"), &module).unwrap();
    let secrets = |var: &str| json!({"TOKEN": {"env": var, "hosts": ["127.0.0.1"]}});
    let hook = |url: String, tool: &str, var: &str| {
        json!({
            "command": format!("{} {url}", module.display()), "match": tool,
            "net": [format!("127.0.0.1:{a}"), format!("localhost:{b}")],
            "secrets": secrets(var)
        })
    };
    p.write_global(json!({"hooks": {"PreToolUse": [
        hook(format!("http://127.0.0.1:{a}/check"), "allowed", SECRET_VAR),
        hook(format!("http://localhost:{b}/check"), "other", SECRET_VAR),
        hook(format!("http://127.0.0.1:{a}/check"), "unset", "HOOKHOST_TEST_HTTP_UNSET")
    ]}}));
    let runner = p.runner();

    let r = fire(&runner, &p, "allowed").await;
    let report = common::summary(&r);
    assert_eq!(r.hooks[0].outcome, Outcome::Pass, "{report}");
    let seen = allowed.requests();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert!(
        seen[0].contains(&format!("authorization: Bearer {SECRET}")),
        "the allowed host gets the value: {}",
        seen[0]
    );
    // The guest saw only the placeholder (it echoes every header value and body it can
    // observe), and the value is nowhere in the report.
    assert!(
        r.hooks[0]
            .stdout
            .contains("sent authorization: Bearer ${secret:TOKEN}"),
        "{report}"
    );
    assert!(!report.contains(SECRET), "{report}");

    let r = fire(&runner, &p, "other").await;
    let report = common::summary(&r);
    assert!(r.hooks[0].stdout.contains("HttpRequestDenied"), "{report}");
    assert!(
        r.hooks[0].stderr.contains("may not carry secret `TOKEN`"),
        "{report}"
    );
    assert!(other.requests().is_empty(), "{:?}", other.requests());
    assert!(!report.contains(SECRET), "{report}");

    let r = fire(&runner, &p, "unset").await;
    let report = common::summary(&r);
    assert!(
        r.hooks[0]
            .stdout
            .contains("HOOKHOST_TEST_HTTP_UNSET is not set"),
        "the guest is told why: {report}"
    );
    assert_eq!(
        allowed.requests().len(),
        1,
        "nothing was sent without its secret"
    );
}
