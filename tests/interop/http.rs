//! A Claude Code HTTP hook: it is POSTed Claude's payload and answered in Claude's protocol.

use crate::common::{Project, pre_tool};
use hookhost::Decision;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// Answers every request with `body`; keeps the request bodies.
async fn server(body: &'static str) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            let mut buf = Vec::new();
            let mut chunk = [0u8; 8192];
            loop {
                let n = sock.read(&mut chunk).await.unwrap_or(0);
                if n == 0 {
                    break;
                }
                buf.extend_from_slice(&chunk[..n]);
                let text = String::from_utf8_lossy(&buf).to_string();
                if let Some(i) = text.find("\r\n\r\n") {
                    let length = text[..i]
                        .to_lowercase()
                        .lines()
                        .find_map(|l| {
                            l.strip_prefix("content-length:")
                                .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                        })
                        .unwrap_or(0);
                    if buf.len() >= i + 4 + length {
                        log.lock().unwrap().push(text[i + 4..].to_string());
                        break;
                    }
                }
            }
            let reply = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = sock.write_all(reply.as_bytes()).await;
        }
    });
    (url, seen)
}

#[tokio::test]
async fn a_claude_http_hook_gets_claudes_payload_and_its_answer_counts() {
    let (url, seen) = server(
        r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "policy server says no"}}"#,
    )
    .await;
    let p = Project::new(json!({}));
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "http", "url": url, "timeout": 5}]}]}}).to_string(),
    );
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({"command": "ls"})))
        .await;
    assert_eq!(
        (r.decision, r.reason.as_deref()),
        (Decision::Block, Some("policy server says no"))
    );
    let body: Value = serde_json::from_str(seen.lock().unwrap()[0].trim()).unwrap();
    assert_eq!(
        (body["hook_event_name"].as_str(), body["tool_name"].as_str()),
        (Some("PreToolUse"), Some("Bash")),
        "{body}"
    );
}
