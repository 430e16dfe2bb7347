//! HTTP hooks against a real server on 127.0.0.1 started by the test.

mod common;

use common::{Project, pre_tool};
use hookhost::{Decision, Event, Outcome, Payload};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// What the test server received.
#[derive(Debug, Clone, Default)]
struct Received {
    head: String,
    body: String,
}

/// A canned answer: status, body, delay before answering.
type Answer = (u16, Vec<u8>, Duration);

/// Serves every connection with `answer`; records requests. Bounded: the test ends it.
async fn server(answer: Answer) -> (SocketAddr, Arc<Mutex<Vec<Received>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            let answer = answer.clone();
            let log = log.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 8192];
                let (head_end, length) = loop {
                    let n = sock.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                        let head = String::from_utf8_lossy(&buf[..i]).to_lowercase();
                        let length = head
                            .lines()
                            .find_map(|l| l.strip_prefix("content-length:"))
                            .and_then(|v| v.trim().parse::<usize>().ok())
                            .unwrap_or(0);
                        break (i + 4, length);
                    }
                };
                while buf.len() < head_end + length {
                    let n = sock.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        break;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                }
                log.lock().unwrap().push(Received {
                    head: String::from_utf8_lossy(&buf[..head_end]).into_owned(),
                    body: String::from_utf8_lossy(&buf[head_end..]).into_owned(),
                });
                let (status, body, delay) = answer;
                tokio::time::sleep(delay).await;
                let head = format!(
                    "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = sock.write_all(head.as_bytes()).await;
                let _ = sock.write_all(&body).await;
            });
        }
    });
    (addr, seen)
}

fn http_project(url: &str, extra: Value) -> Project {
    let mut hook = json!({ "url": url, "timeout": 1000 });
    hook.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    Project::new(json!({ "hooks": { "PreToolUse": [hook], "PostToolUse": [hook] } }))
}

#[tokio::test]
async fn a_2xx_json_answer_blocks_and_the_payload_is_posted() {
    let body = br#"{"decision":"block","reason":"the server says no"}"#.to_vec();
    let (addr, seen) = server((200, body, Duration::ZERO)).await;
    let p = http_project(&format!("http://{addr}/hook"), json!({}));
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({"command": "rm -rf /"})))
        .await;
    assert_eq!(
        (r.decision, r.reason.as_deref()),
        (Decision::Block, Some("the server says no"))
    );
    let h = &r.hooks[0];
    assert_eq!(
        (h.kind.as_str(), h.outcome, h.exit_code),
        ("http", Outcome::Block, Some(0))
    );
    let got = seen.lock().unwrap()[0].clone();
    assert!(got.head.starts_with("POST /hook HTTP/1.1"), "{}", got.head);
    assert!(
        got.head
            .to_lowercase()
            .contains("content-type: application/json")
    );
    let posted: Value = serde_json::from_str(&got.body).unwrap();
    assert_eq!(posted["toolArgs"]["command"], "rm -rf /");
    assert_eq!(posted["event"], "PreToolUse");
}

#[tokio::test]
async fn a_500_is_a_spawn_failure() {
    let (addr, _) = server((500, b"boom".to_vec(), Duration::ZERO)).await;
    let p = http_project(&format!("http://{addr}/"), json!({}));
    let runner = p.runner();
    let r = runner.fire(pre_tool(&p.path(), "bash", json!({}))).await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Block, Outcome::Error)
    );
    assert!(r.hooks[0].message.as_ref().unwrap().contains("500"));
    assert_eq!(r.hooks[0].stderr, "boom");
    let r = runner
        .fire(Payload::neutral(Event::PostToolUse, &p.path(), "s"))
        .await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Pass, Outcome::Error)
    );
}

#[tokio::test]
async fn a_refused_connection_is_a_spawn_failure() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let p = http_project(&format!("http://127.0.0.1:{port}/"), json!({}));
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Block, Outcome::Error)
    );
    assert!(
        r.hooks[0]
            .message
            .as_ref()
            .unwrap()
            .contains("cannot reach"),
        "{:?}",
        r.hooks[0].message
    );
}

#[tokio::test]
async fn a_slow_server_times_out() {
    let (addr, _) = server((200, b"{}".to_vec(), Duration::from_secs(20))).await;
    let p = http_project(&format!("http://{addr}/"), json!({"timeout": 300}));
    let start = std::time::Instant::now();
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Block, Outcome::Timeout)
    );
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[tokio::test]
async fn a_body_over_one_mib_is_truncated() {
    let (addr, _) = server((200, vec![b'x'; 3 << 20], Duration::ZERO)).await;
    let p = http_project(&format!("http://{addr}/"), json!({}));
    let r = p
        .runner()
        .fire(Payload::neutral(Event::PostToolUse, &p.path(), "s"))
        .await;
    let h = &r.hooks[0];
    assert_eq!(h.outcome, Outcome::Pass);
    assert!(h.truncated);
    assert_eq!(h.stdout.len(), 1 << 20);
}

#[tokio::test]
async fn headers_expand_only_allowed_environment_variables() {
    let (addr, seen) = server((200, b"{}".to_vec(), Duration::ZERO)).await;
    // PATH is always set; the test reads it back from what the server received.
    let p = http_project(
        &format!("http://{addr}/"),
        json!({"headers": {"X-Token": "Bearer ${PATH}", "X-Static": "v1"}, "allowedEnv": ["PATH"]}),
    );
    let r = p
        .runner()
        .fire(Payload::neutral(Event::PostToolUse, &p.path(), "s"))
        .await;
    assert_eq!(r.hooks[0].outcome, Outcome::Pass, "{}", common::summary(&r));
    let head = seen.lock().unwrap()[0].head.to_lowercase();
    let path = std::env::var("PATH").unwrap().to_lowercase();
    assert!(head.contains(&format!("x-token: bearer {path}")), "{head}");
    assert!(head.contains("x-static: v1"));

    let bad = Project::new(json!({"hooks": {"PostToolUse": [
        {"url": format!("http://{addr}/"), "headers": {"X-Token": "$HOME"}}
    ]}}));
    let errors = hookhost::config::load(&bad.paths()).unwrap_err().0;
    assert!(errors[0].message.contains("allowedEnv"), "{}", errors[0]);
    assert!(
        !errors[0]
            .to_string()
            .contains(&std::env::var("HOME").unwrap_or_else(|_| "/root".into()))
    );
}

/// The message of a hook held to public addresses that named another.
const PUBLIC_ONLY: &str = "may reach public addresses and loopback only";

#[tokio::test]
async fn project_and_claude_http_hooks_may_not_reach_private_or_metadata_addresses() {
    for url in [
        "http://10.255.255.1:9/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[fd00:ec2::254]/",
        "http://[::ffff:192.168.0.1]/",
        "http://100.100.100.200/",
    ] {
        let p = http_project(url, json!({}));
        let r = p
            .runner()
            .fire(pre_tool(&p.path(), "bash", json!({})))
            .await;
        let h = &r.hooks[0];
        assert_eq!((r.decision, h.outcome), (Decision::Block, Outcome::Error));
        assert!(
            h.message.as_deref().unwrap_or("").contains(PUBLIC_ONLY),
            "{url}: {:?}",
            h.message
        );
    }
    // Claude Code's own settings: held to public addresses, as Claude Code holds them.
    let p = Project::new(json!({"hooks": {}}));
    let claude = p.home.path().join(".claude");
    std::fs::create_dir_all(&claude).unwrap();
    std::fs::write(
        claude.join("settings.json"),
        json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "http", "url": "http://169.254.169.254/", "timeout": 1}]}]}})
        .to_string(),
    )
    .unwrap();
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    let h = r.hooks.first().expect("the Claude settings' hook ran");
    assert!(
        h.message.as_deref().unwrap_or("").contains(PUBLIC_ONLY),
        "{:?}",
        h.message
    );
}

#[tokio::test]
async fn the_users_own_http_hooks_may_reach_a_private_address() {
    let p = Project::new(json!({"hooks": {}}));
    p.write_global(
        json!({"hooks": {"PreToolUse": [{"url": "http://10.255.255.1:9/", "timeout": 300}]}}),
    );
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    let h = &r.hooks[0];
    // Tried (and not answered here), not refused.
    assert_ne!(h.outcome, Outcome::Pass);
    assert!(
        !h.message.as_deref().unwrap_or("").contains(PUBLIC_ONLY),
        "{:?}",
        h.message
    );
}
