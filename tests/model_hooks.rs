//! `prompt` and `agent` hooks against a scripted model server on 127.0.0.1 started by the
//! test: both APIs (Anthropic's Messages API and an OpenAI-compatible chat endpoint), the
//! request each sends, and what each answer decides; the agent's read-only tools inside the
//! project; the model configured only by the user's file; trust; the decision log and replay.

mod common;

use common::Project;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::process::Output;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// One request the server received.
#[derive(Debug, Clone)]
struct Received {
    head: String,
    body: Value,
}

/// The server's answers, in order (the last repeats): status, JSON body, delay.
type Script = Vec<(u16, Value, Duration)>;

/// Serves every request with the next answer of `script`; records each request.
async fn model_server(script: Script) -> (SocketAddr, Arc<Mutex<Vec<Received>>>) {
    let (addr, seen, _) = counting_model_server(script).await;
    (addr, seen)
}

/// [`model_server`], also counting the most requests it held unanswered at once.
async fn counting_model_server(
    script: Script,
) -> (
    SocketAddr,
    Arc<Mutex<Vec<Received>>>,
    Arc<Mutex<(usize, usize)>>,
) {
    let waiting = Arc::new(Mutex::new((0usize, 0usize)));
    let count = waiting.clone();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            let log = log.clone();
            let script = script.clone();
            let count = count.clone();
            tokio::spawn(async move {
                // Keep-alive: serve requests on this connection until it closes.
                let mut buf = Vec::new();
                let mut chunk = [0u8; 8192];
                loop {
                    let (head_end, length) = loop {
                        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                            let head = String::from_utf8_lossy(&buf[..i]).to_lowercase();
                            let length = head
                                .lines()
                                .find_map(|l| l.strip_prefix("content-length:"))
                                .and_then(|v| v.trim().parse::<usize>().ok())
                                .unwrap_or(0);
                            break (i + 4, length);
                        }
                        let n = sock.read(&mut chunk).await.unwrap_or(0);
                        if n == 0 {
                            return;
                        }
                        buf.extend_from_slice(&chunk[..n]);
                    };
                    while buf.len() < head_end + length {
                        let n = sock.read(&mut chunk).await.unwrap_or(0);
                        if n == 0 {
                            return;
                        }
                        buf.extend_from_slice(&chunk[..n]);
                    }
                    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
                    let body = serde_json::from_slice(&buf[head_end..head_end + length])
                        .unwrap_or(Value::Null);
                    buf.drain(..head_end + length);
                    let n = {
                        let mut log = log.lock().unwrap();
                        log.push(Received { head, body });
                        log.len()
                    };
                    let (status, answer, delay) = script[(n - 1).min(script.len() - 1)].clone();
                    {
                        let mut c = count.lock().unwrap();
                        c.0 += 1;
                        c.1 = c.1.max(c.0);
                    }
                    tokio::time::sleep(delay).await;
                    count.lock().unwrap().0 -= 1;
                    let answer = answer.to_string();
                    let head = format!(
                        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                        answer.len()
                    );
                    if sock.write_all(head.as_bytes()).await.is_err()
                        || sock.write_all(answer.as_bytes()).await.is_err()
                    {
                        return;
                    }
                }
            });
        }
    });
    (addr, seen, waiting)
}

/// An Anthropic Messages API answer whose text is `text`.
fn anthropic_text(text: &str) -> Value {
    json!({"id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "end_turn",
           "content": [{"type": "text", "text": text}]})
}

/// An OpenAI chat completion whose message is `text`.
fn openai_text(text: &str) -> Value {
    json!({"id": "c1", "object": "chat.completion",
           "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}]})
}

const KEY_ENV: &str = "HOOKHOST_TEST_MODEL_KEY";
const KEY: &str = "sk-test-1234";

/// The user's `model` block for `api` at `addr`.
fn model_block(api: &str, addr: SocketAddr) -> Value {
    let path = if api == "anthropic" {
        "/v1/messages"
    } else {
        "/v1/chat/completions"
    };
    json!({"api": api, "url": format!("http://{addr}{path}"), "name": format!("{api}-judge"), "keyEnv": KEY_ENV})
}

/// A project with `hooks`, and the user's file naming the model at `addr`.
fn project(api: &str, addr: SocketAddr, hooks: Value) -> Project {
    let p = Project::new(json!({ "hooks": hooks }));
    p.write_global(json!({ "model": model_block(api, addr) }));
    p
}

/// `hookhost` with `args` on the project, the key in its variable, `env` added.
async fn hookhost(p: &Project, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = p.command();
    c.args(args)
        .arg("--project")
        .arg(p.path())
        .env(KEY_ENV, KEY);
    for (k, v) in env {
        c.env(k, v);
    }
    tokio::task::spawn_blocking(move || c.output().unwrap())
        .await
        .unwrap()
}

/// `run PreToolUse` of bash with `command`, as JSON.
async fn pre_bash(p: &Project, command: &str, env: &[(&str, &str)]) -> (Output, Value) {
    let args = json!({ "command": command }).to_string();
    let out = hookhost(
        p,
        &[
            "run",
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            &args,
            "--json",
        ],
        env,
    )
    .await;
    let report = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out, report)
}

fn header<'a>(r: &'a Received, name: &str) -> Option<&'a str> {
    r.head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn anthropic_ok_false_blocks_with_the_reason_and_the_request_is_the_messages_api() {
    let (addr, seen) = model_server(vec![(
        200,
        anthropic_text(r#"{"ok": false, "reason": "deleting the tree is not allowed"}"#),
        Duration::ZERO,
    )])
    .await;
    let p = project(
        "anthropic",
        addr,
        json!({"PreToolUse": [{"prompt": "Is this call safe? $ARGUMENTS Answer as JSON."}]}),
    );
    let (out, r) = pre_bash(&p, "rm -rf /", &[]).await;
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(r["decision"], "block", "{r}");
    assert_eq!(r["reason"], "deleting the tree is not allowed");
    let h = &r["hooks"][0];
    assert_eq!(
        (h["kind"].as_str(), h["outcome"].as_str()),
        (Some("prompt"), Some("block"))
    );
    assert_eq!(h["model"]["ok"], false);
    assert_eq!(h["model"]["model"], "anthropic-judge");

    let got = seen.lock().unwrap().clone();
    assert_eq!(got.len(), 1);
    assert!(
        got[0].head.starts_with("POST /v1/messages HTTP/1.1"),
        "{}",
        got[0].head
    );
    assert_eq!(header(&got[0], "x-api-key"), Some(KEY));
    assert_eq!(header(&got[0], "anthropic-version"), Some("2023-06-01"));
    assert_eq!(header(&got[0], "authorization"), None);
    let body = &got[0].body;
    assert_eq!(body["model"], "anthropic-judge");
    assert!(body["system"].as_str().unwrap().contains("\"ok\""));
    let asked = body["messages"][0]["content"].as_str().unwrap();
    assert!(asked.starts_with("Is this call safe? {"), "{asked}");
    assert!(asked.ends_with("} Answer as JSON."), "{asked}");
    assert!(!asked.contains("$ARGUMENTS"));
    let payload: Value = serde_json::from_str(
        asked
            .strip_prefix("Is this call safe? ")
            .and_then(|a| a.strip_suffix(" Answer as JSON."))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(payload["toolArgs"]["command"], "rm -rf /");
    assert!(body.get("tools").is_none(), "a prompt hook offers no tools");
}

#[tokio::test(flavor = "multi_thread")]
async fn openai_ok_true_passes_and_the_payload_is_appended_without_a_placeholder() {
    let (addr, seen) =
        model_server(vec![(200, openai_text(r#"{"ok": true}"#), Duration::ZERO)]).await;
    let p = project(
        "openai",
        addr,
        json!({"PreToolUse": [{"prompt": "Judge this call."}]}),
    );
    let (out, r) = pre_bash(&p, "ls", &[]).await;
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(r["decision"], "pass", "{r}");
    assert_eq!(r["hooks"][0]["outcome"], "pass");
    assert_eq!(r["hooks"][0]["model"]["ok"], true);
    let got = seen.lock().unwrap().clone();
    assert!(
        got[0]
            .head
            .starts_with("POST /v1/chat/completions HTTP/1.1")
    );
    assert_eq!(
        header(&got[0], "authorization"),
        Some("Bearer sk-test-1234")
    );
    assert_eq!(header(&got[0], "x-api-key"), None);
    let body = &got[0].body;
    assert_eq!(body["model"], "openai-judge");
    assert_eq!(body["messages"][0]["role"], "system");
    let asked = body["messages"][1]["content"].as_str().unwrap();
    let (prompt, payload) = asked.split_once("\n\n").unwrap();
    assert_eq!(prompt, "Judge this call.");
    let payload: Value = serde_json::from_str(payload).unwrap();
    assert_eq!(payload["toolArgs"]["command"], "ls");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_malformed_answer_is_a_failure_that_on_error_decides() {
    let (addr, _) = model_server(vec![(
        200,
        anthropic_text("Sure, that looks fine to me."),
        Duration::ZERO,
    )])
    .await;
    let p = project(
        "anthropic",
        addr,
        json!({"PreToolUse": [{"prompt": "a $ARGUMENTS"}, {"prompt": "b $ARGUMENTS", "onError": "block"}]}),
    );
    let (_, r) = pre_bash(&p, "ls", &[]).await;
    let first = &r["hooks"][0];
    assert_eq!(first["outcome"], "warn", "{r}");
    let message = first["message"].as_str().unwrap();
    assert!(
        message.contains("not a JSON object") && message.contains("Sure, that looks fine"),
        "{message}"
    );
    assert!(first["model"].is_null());
    // The second says `onError: block`: the call is blocked.
    assert_eq!(r["decision"], "block", "{r}");
    assert_eq!(r["hooks"][1]["outcome"], "block");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_model_slower_than_the_timeout_times_out() {
    let (addr, _) = model_server(vec![(
        200,
        anthropic_text(r#"{"ok": false, "reason": "too late"}"#),
        Duration::from_secs(30),
    )])
    .await;
    let p = project(
        "anthropic",
        addr,
        json!({"PostToolUse": [{"prompt": "$ARGUMENTS", "timeout": 200}]}),
    );
    let out = hookhost(
        &p,
        &[
            "run",
            "PostToolUse",
            "--tool",
            "bash",
            "--args",
            "{}",
            "--json",
        ],
        &[],
    )
    .await;
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["hooks"][0]["outcome"], "timeout", "{r}");
    assert_eq!(r["decision"], "pass");
}

#[tokio::test(flavor = "multi_thread")]
async fn ok_false_at_stop_keeps_the_agent_going_with_the_reason() {
    let (addr, _) = model_server(vec![(
        200,
        openai_text(r#"{"ok": false, "reason": "the tests were not run"}"#),
        Duration::ZERO,
    )])
    .await;
    let p = project(
        "openai",
        addr,
        json!({"Stop": [{"prompt": "Is the work done? $ARGUMENTS"}]}),
    );
    let out = hookhost(&p, &["run", "Stop", "--json"], &[]).await;
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["decision"], "force", "{r}");
    assert_eq!(r["reason"], "the tests were not run");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_hook_reads_inside_the_project_and_is_refused_outside() {
    let tool_use = |id: &str, path: &str| json!({"content": [{"type": "tool_use", "id": id, "name": "read_file", "input": {"path": path}}]});
    let (addr, seen) = model_server(vec![
        (200, tool_use("t1", "notes/policy.txt"), Duration::ZERO),
        (200, tool_use("t2", "../outside.txt"), Duration::ZERO),
        (
            200,
            anthropic_text(r#"{"ok": false, "reason": "the policy forbids it"}"#),
            Duration::ZERO,
        ),
    ])
    .await;
    let p = project(
        "anthropic",
        addr,
        json!({"PreToolUse": [{"agent": "Read notes/policy.txt and judge: $ARGUMENTS"}]}),
    );
    p.write("notes/policy.txt", "never run curl");
    std::fs::write(
        p.path().parent().unwrap().join("outside.txt"),
        "OUTSIDE-SECRET",
    )
    .ok();
    let (_, r) = pre_bash(&p, "curl x", &[]).await;
    assert_eq!(
        (r["decision"].as_str(), r["reason"].as_str()),
        (Some("block"), Some("the policy forbids it")),
        "{r}"
    );
    assert_eq!(r["hooks"][0]["kind"], "agent");
    let got = seen.lock().unwrap().clone();
    assert_eq!(got.len(), 3);
    assert_eq!(got[0].body["tools"].as_array().unwrap().len(), 3);
    // The second request carries the file's text as the result of t1.
    let result = &got[1].body["messages"][2]["content"][0];
    assert_eq!(
        (result["tool_use_id"].as_str(), result["content"].as_str()),
        (Some("t1"), Some("never run curl"))
    );
    // The third carries the refusal of t2, and not the file outside.
    let result = &got[2].body["messages"][4]["content"][0];
    assert_eq!(result["tool_use_id"], "t2");
    let text = result["content"].as_str().unwrap();
    assert!(
        text.starts_with("refused:") && !text.contains("OUTSIDE-SECRET"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_openai_agent_hook_calls_tools_by_function() {
    let (addr, seen) = model_server(vec![
        (
            200,
            json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "grep", "arguments": "{\"pattern\": \"TODO\", \"path\": \"src\"}"}}
            ]}}]}),
            Duration::ZERO,
        ),
        (200, openai_text(r#"{"ok": true}"#), Duration::ZERO),
    ])
    .await;
    let p = project(
        "openai",
        addr,
        json!({"Stop": [{"agent": "Any TODO left? $ARGUMENTS"}]}),
    );
    p.write("src/lib.rs", "// TODO: finish\n");
    let out = hookhost(&p, &["run", "Stop", "--json"], &[]).await;
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["decision"], "pass", "{r}");
    let got = seen.lock().unwrap().clone();
    let tool = &got[1].body["messages"][3];
    assert_eq!(
        (tool["role"].as_str(), tool["tool_call_id"].as_str()),
        (Some("tool"), Some("c1"))
    );
    assert_eq!(tool["content"], "src/lib.rs:1: // TODO: finish");
}

#[tokio::test(flavor = "multi_thread")]
async fn without_a_model_the_hook_fails_saying_where_to_configure_one() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [{"prompt": "x $ARGUMENTS"}]}}));
    let (_, r) = pre_bash(&p, "ls", &[]).await;
    let h = &r["hooks"][0];
    assert_eq!(h["outcome"], "error", "{r}");
    let message = h["message"].as_str().unwrap();
    assert!(
        message.contains("no model is configured") && message.contains("\"model\": {"),
        "{message}"
    );
    // `check` says so before anything runs.
    let out = hookhost(&p, &["check"], &[]).await;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("no model is configured"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_project_cannot_choose_the_model() {
    let (addr, seen) = model_server(vec![(
        200,
        anthropic_text(r#"{"ok": true}"#),
        Duration::ZERO,
    )])
    .await;
    let p = Project::new(json!({
        "model": model_block("anthropic", addr),
        "hooks": {"PreToolUse": [{"prompt": "x $ARGUMENTS"}]}
    }));
    let out = hookhost(&p, &["check"], &[]).await;
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("\"model\" may only be set in your own file")
            && text.contains(".coding-agent/hooks.json"),
        "{text}"
    );
    let _ = pre_bash(&p, "ls", &[]).await;
    assert!(
        seen.lock().unwrap().is_empty(),
        "the project's endpoint was never asked"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_untrusted_project_prompt_hook_can_only_block() {
    let (addr, _) = model_server(vec![(
        200,
        anthropic_text(r#"{"ok": false, "reason": "PROJECT-WORDS"}"#),
        Duration::ZERO,
    )])
    .await;
    let p = project(
        "anthropic",
        addr,
        json!({"PreToolUse": [{"prompt": "$ARGUMENTS"}], "Stop": [{"prompt": "$ARGUMENTS"}]}),
    );
    let (_, r) = pre_bash(&p, "ls", &[("HOOKHOST_TRUST", "skip")]).await;
    assert_eq!(r["decision"], "block", "{r}");
    let reason = r["reason"].as_str().unwrap();
    assert!(
        reason.contains("untrusted project prompt hook") && !reason.contains("PROJECT-WORDS"),
        "{reason}"
    );
    // At Stop its "keep going" is not kept.
    let out = hookhost(
        &p,
        &["run", "Stop", "--json"],
        &[("HOOKHOST_TRUST", "skip")],
    )
    .await;
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["decision"], "pass", "{r}");
}

#[tokio::test(flavor = "multi_thread")]
async fn claude_prompt_hooks_run_as_claude_code_runs_them() {
    let (addr, seen) = model_server(vec![(
        200,
        anthropic_text(r#"{"ok": false, "reason": "claude's judge says no"}"#),
        Duration::ZERO,
    )])
    .await;
    let p = Project::new(json!({}));
    p.write_global(json!({ "model": model_block("anthropic", addr) }));
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "prompt", "prompt": "Check: $ARGUMENTS", "timeout": 20}
        ]}]}})
        .to_string(),
    );
    let (_, r) = pre_bash(&p, "rm -rf /", &[]).await;
    assert_eq!(
        (r["decision"].as_str(), r["reason"].as_str()),
        (Some("block"), Some("claude's judge says no")),
        "{r}"
    );
    let got = seen.lock().unwrap().clone();
    // Claude Code's payload, in its own field names.
    let asked = got[0].body["messages"][0]["content"].as_str().unwrap();
    let payload: Value = serde_json::from_str(asked.strip_prefix("Check: ").unwrap()).unwrap();
    assert_eq!(payload["tool_input"]["command"], "rm -rf /", "{payload}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_log_keeps_the_judgement_and_replay_reuses_it() {
    let (addr, seen) = model_server(vec![(
        200,
        anthropic_text(r#"{"ok": false, "reason": "recorded no"}"#),
        Duration::ZERO,
    )])
    .await;
    let p = project(
        "anthropic",
        addr,
        json!({"PreToolUse": [{"prompt": "$ARGUMENTS"}]}),
    );
    let full = [("HOOKHOST_LOG", "full")];
    let args = json!({"command": "rm -rf build"}).to_string();
    let out = hookhost(
        &p,
        &[
            "run",
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            &args,
            "--session",
            "s1",
        ],
        &full,
    )
    .await;
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(seen.lock().unwrap().len(), 1);
    let log = p.home.path().join("hookhost-log/decisions.jsonl");
    let line: Value = serde_json::from_str(
        std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .last()
            .unwrap(),
    )
    .unwrap();
    let judged = &line["hooks"][0]["model"];
    assert_eq!(
        (
            judged["ok"].as_bool(),
            judged["reason"].as_str(),
            judged["model"].as_str()
        ),
        (Some(false), Some("recorded no"), Some("anthropic-judge")),
        "{line}"
    );
    assert_eq!(judged["asked_sha256"].as_str().unwrap().len(), 12);
    // `explain` shows it.
    let log_arg = log.to_str().unwrap().to_string();
    let mut c = p.command();
    c.args(["explain", "--file", &log_arg]);
    let out = tokio::task::spawn_blocking(move || c.output().unwrap())
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(r#"the model anthropic-judge answered {"ok": false}: recorded no"#),
        "{text}"
    );

    // Replayed: the same call is judged by the recorded answer; the model is not asked.
    let log = log.to_str().unwrap().to_string();
    let out = hookhost(&p, &["replay", &log, "--json"], &[]).await;
    let j: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"));
    assert_eq!(
        seen.lock().unwrap().len(),
        1,
        "replay asked the model again"
    );
    // Blocked then, blocked now: nothing differs.
    assert_eq!(out.status.code(), Some(0), "{j}");
    assert_eq!(j["steps"], 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn at_most_four_model_calls_wait_at_once() {
    // Each answer waits, so calls that were let through together overlap at the server.
    let (addr, seen, waiting) = counting_model_server(vec![(
        200,
        openai_text(r#"{"ok": true}"#),
        Duration::from_millis(300),
    )])
    .await;
    let p = Project::new(json!({"hooks": {"PreToolUse": [{"prompt": "$ARGUMENTS"}]}}));
    // A local server: no key.
    p.write_global(json!({"model": {"api": "openai", "url": format!("http://{addr}/v1/chat/completions"), "name": "judge"}}));
    let runner = Arc::new(p.runner());
    let calls: Vec<_> = (0..10)
        .map(|i| {
            let runner = runner.clone();
            let payload =
                common::pre_tool(&p.path(), "bash", json!({"command": format!("echo {i}")}));
            tokio::spawn(async move { runner.fire(payload).await })
        })
        .collect();
    for call in calls {
        let r = call.await.unwrap();
        assert_eq!(
            r.hooks[0].outcome,
            hookhost::Outcome::Pass,
            "{:?}",
            r.hooks[0]
        );
    }
    assert_eq!(seen.lock().unwrap().len(), 10);
    let most = waiting.lock().unwrap().1;
    assert!(
        (1..=hookhost::spawner::MAX_CONCURRENT_MODEL_CALLS).contains(&most),
        "{most} calls waited at once"
    );
    assert_eq!(hookhost::spawner::MAX_CONCURRENT_MODEL_CALLS, 4);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_key_that_a_projects_agent_settings_set_is_never_sent() {
    let (addr, seen) = model_server(vec![(
        200,
        anthropic_text(r#"{"ok": true}"#),
        Duration::ZERO,
    )])
    .await;
    let p = project(
        "anthropic",
        addr,
        json!({"PreToolUse": [{"prompt": "$ARGUMENTS"}]}),
    );
    // The project's Claude Code settings set the variable the user's `keyEnv` names, and the
    // agent hands it to its hooks, `hookhost hook` among them.
    p.write(
        ".claude/settings.json",
        &json!({"env": {KEY_ENV: "project-key"}}).to_string(),
    );
    let payload = json!({"session_id": "s", "hook_event_name": "PreToolUse", "cwd": p.path(),
        "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let mut c = p.command();
    c.args(["hook", "--for", "claude", "--trust", "all", "--project"])
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .env(KEY_ENV, "project-key")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let out = tokio::task::spawn_blocking(move || {
        use std::io::Write;
        let mut child = c.spawn().unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(payload.to_string().as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    })
    .await
    .unwrap();
    assert!(
        seen.lock().unwrap().is_empty(),
        "the project's key was sent"
    );
    let answer: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"));
    let reason = answer["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap_or_default();
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{answer}"
    );
    assert!(reason.contains("is set by the project file"), "{reason}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_that_never_answers_stops_at_the_turn_cap() {
    let (addr, seen) = model_server(vec![(
        200,
        json!({"content": [{"type": "tool_use", "id": "t", "name": "list_dir", "input": {"path": "."}}]}),
        Duration::ZERO,
    )])
    .await;
    let p = project(
        "anthropic",
        addr,
        json!({"PostToolUse": [{"agent": "look around: $ARGUMENTS"}]}),
    );
    let out = hookhost(
        &p,
        &[
            "run",
            "PostToolUse",
            "--tool",
            "bash",
            "--args",
            "{}",
            "--json",
        ],
        &[],
    )
    .await;
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let got = seen.lock().unwrap().clone();
    assert_eq!(got.len(), hookhost::spawner::MAX_AGENT_TURNS, "{r}");
    assert!(
        got[..got.len() - 1]
            .iter()
            .all(|g| g.body.get("tool_choice").is_none())
    );
    assert_eq!(
        got.last().unwrap().body["tool_choice"],
        json!({"type": "none"})
    );
    assert_eq!(r["hooks"][0]["outcome"], "warn", "{r}");
    assert!(
        r["hooks"][0]["message"]
            .as_str()
            .unwrap()
            .contains("no JSON object"),
        "{r}"
    );
}
