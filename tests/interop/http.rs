//! A Claude Code HTTP hook: it is POSTed Claude's payload and answered in Claude's protocol.

use crate::common::{Project, pre_tool};
use hookhost::Decision;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// Answers every request with `body`; keeps the request bodies.
async fn server(body: &'static str) -> (String, Arc<Mutex<Vec<String>>>) {
    let (url, bodies, _) = recording_server(body).await;
    (url, bodies)
}

/// Answers every request with `body`; keeps the request bodies, and the whole requests
/// (request line and headers too).
async fn recording_server(body: &'static str) -> (String, Log, Log) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let whole = Arc::new(Mutex::new(Vec::new()));
    let requests = whole.clone();
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
                        requests.lock().unwrap().push(text.clone());
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
    (url, seen, whole)
}

type Log = Arc<Mutex<Vec<String>>>;

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

/// Claude Code's `allowedHttpHookUrls` and `httpHookAllowedEnvVars`, through the real binary:
/// the user's settings hold the project's HTTP hooks to the URLs and header variables they
/// list (a hook posting elsewhere does not run, a header naming a variable cut off is sent
/// empty, as Claude Code sends it); the project's own settings cannot widen them, and cannot
/// hold back the user's own HTTP hooks.
#[tokio::test(flavor = "multi_thread")]
async fn claude_code_settings_limit_http_hooks_and_a_project_cannot_widen_them() {
    let (url, _, seen) = recording_server("{}").await;
    let base = url.trim_end_matches("/hook").to_string();
    let p = Project::new(json!({}));
    std::fs::create_dir_all(p.home.path().join(".claude")).unwrap();
    std::fs::write(
        p.home.path().join(".claude/settings.json"),
        json!({
            "allowedHttpHookUrls": [format!("{base}/allowed*")],
            "httpHookAllowedEnvVars": ["HH_OK"],
            "hooks": {"PreToolUse": [{"hooks": [
                {"type": "http", "url": format!("{base}/allowed-user?by=user"), "timeout": 5}]}]}
        })
        .to_string(),
    )
    .unwrap();
    let hook = |path: &str| {
        json!({"type": "http", "url": format!("{base}/{path}"), "timeout": 5,
            "headers": {"X-Ok": "$HH_OK", "X-Cut": "${HH_SECRET}!"},
            "allowedEnvVars": ["HH_OK", "HH_SECRET"]})
    };
    // The project tries to allow every URL and variable, and to hold back the user's hook.
    p.write(
        ".claude/settings.json",
        &json!({
            "allowedHttpHookUrls": [format!("{base}/allowed?by=project"), format!("{base}/other*")],
            "httpHookAllowedEnvVars": ["HH_OK", "HH_SECRET"],
            "hooks": {"PreToolUse": [{"hooks": [hook("allowed?by=project"), hook("other")]}]}
        })
        .to_string(),
    );
    let out = tokio::task::block_in_place(|| {
        p.cli(
            &[
                "run",
                "PreToolUse",
                "--tool",
                "bash",
                "--args",
                r#"{"command":"ls"}"#,
                "--json",
            ],
            &[("HH_OK", "fine"), ("HH_SECRET", "hunter2")],
        )
    });
    let r: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let requests = seen.lock().unwrap().clone();
    let firsts: Vec<&str> = requests.iter().filter_map(|r| r.lines().next()).collect();
    // The user's hook ran (the project's list did not hold it back), the project's
    // `/allowed` hook ran, `/other` did not.
    assert_eq!(firsts.len(), 2, "{firsts:?} {r}");
    assert!(
        firsts
            .iter()
            .any(|l| l.starts_with("POST /allowed-user?by=user ")),
        "{firsts:?}"
    );
    let allowed = requests
        .iter()
        .find(|r| r.starts_with("POST /allowed?by=project "))
        .unwrap_or_else(|| panic!("{firsts:?}"))
        .to_lowercase();
    assert!(allowed.contains("x-ok: fine"), "{allowed}");
    assert!(allowed.contains("x-cut: !"), "{allowed}");
    assert!(!allowed.contains("hunter2"), "{allowed}");
    // `list` shows the hook that did not run, and why.
    let list = String::from_utf8_lossy(&p.cli(&["list"], &[]).stdout).to_string();
    assert!(list.contains("allowedHttpHookUrls"), "{list}");
}
