//! A prompt a hook replaced, sent to Gemini CLI's model: through the real adapter, BeforeAgent
//! records it (when the user's own `~/.gemini/settings.json` runs the adapter on BeforeModel)
//! and BeforeModel rewrites every request of the session; without that wiring the original is
//! blocked, saying how to enable it.

use crate::common::Project;
use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Stdio};

/// A prompt redactor, a native UserPromptSubmit hook.
const REDACTOR: &str = r#"sed 's/.*"prompt":"\([^"]*\)".*/\1/; s/hunter2/[redacted]/' | { read -r p; printf '{"updatedPrompt":"%s"}' "$p"; }"#;

const WIRING: &str = r#"{
  // the user's own settings
  "model": {"name": "gemini-2.5-pro"},
  "hooks": {
    "BeforeAgent": [{"hooks": [{"type": "command", "command": "hookhost hook --for gemini"}]}],
    "BeforeModel": [{"hooks": [{"type": "command", "command": "hookhost hook --for gemini"}]}]
  }
}"#;

fn write_home(p: &Project, rel: &str, contents: &str) {
    let path = p.home.path().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, contents).unwrap();
}

/// The adapter for Gemini CLI on `payload`, with `env` set: (exit code, answer, stderr).
fn gemini(p: &Project, payload: &Value, env: &[(&str, &str)]) -> (i32, Value, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hookhost"));
    c.args(["hook", "--for", "gemini", "--trust", "all", "--project"])
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .env_remove("HOOKHOST_TRUST")
        .env_remove("HOOKHOST_ADAPTER")
        .env_remove("GEMINI_MODEL")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let answer = if text.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
    };
    (
        out.status.code().unwrap_or(-1),
        answer,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn before_agent(p: &Project, session: &str, prompt: &str) -> Value {
    json!({
        "session_id": session,
        "transcript_path": p.home.path().join(".gemini/tmp/chat.jsonl"),
        "cwd": p.path(),
        "hook_event_name": "BeforeAgent",
        "timestamp": "2026-12-01T18:42:31.935Z",
        "prompt": prompt,
    })
}

/// BeforeModel as Gemini CLI 0.61 sends it: the session's context merged into the first user
/// message, then the conversation so far.
fn before_model(p: &Project, session: &str, messages: Value) -> Value {
    json!({
        "session_id": session,
        "transcript_path": p.home.path().join(".gemini/tmp/chat.jsonl"),
        "cwd": p.path(),
        "hook_event_name": "BeforeModel",
        "timestamp": "2026-12-01T18:42:32.014Z",
        "llm_request": {"model": "gemini-3.8-flash", "messages": messages,
                        "config": {"temperature": 1, "topP": 0.95, "topK": 64}},
    })
}

const CONTEXT: &str = "<session_context>\nThis is the Gemini CLI.\n</session_context>";

#[test]
fn a_hook_replaces_the_prompt_gemini_sends() {
    let p = Project::new(json!({"hooks": {"UserPromptSubmit": [{"command": REDACTOR}]}}));
    write_home(&p, ".gemini/settings.json", WIRING);
    let (code, answer, stderr) = gemini(&p, &before_agent(&p, "s1", "my password is hunter2"), &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_ne!(answer["decision"], "deny", "{answer}");
    // Every request of the session carries the prompt: each is rewritten, and the answer
    // never holds the original.
    let first = json!([{"role": "user", "content": format!("{CONTEXT}my password is hunter2")}]);
    let later = json!([
        {"role": "user", "content": format!("{CONTEXT}my password is hunter2")},
        {"role": "model", "content": "Noted."},
        {"role": "user", "content": "what did I say?"},
    ]);
    for messages in [first, later] {
        // A project's settings `env` can set the recursion guard's variable: the rewrite
        // runs no hook and does not stop for it.
        let (code, answer, stderr) = gemini(
            &p,
            &before_model(&p, "s1", messages),
            &[("HOOKHOST_ADAPTER", "gemini")],
        );
        assert_eq!(code, 0, "{stderr}");
        let sent = &answer["hookSpecificOutput"]["llm_request"];
        assert_eq!(answer["hookSpecificOutput"]["hookEventName"], "BeforeModel");
        assert_eq!(
            sent["messages"][0]["content"],
            format!("{CONTEXT}my password is [redacted]"),
            "{answer}"
        );
        assert_eq!(
            sent["messages"].as_array().map(Vec::len),
            Some(1),
            "{answer}"
        );
        assert!(
            sent.get("config").is_none() && sent.get("model").is_none(),
            "{answer}"
        );
        assert!(!answer.to_string().contains("hunter2"), "{answer}");
    }
    // Another session's requests are left alone.
    let (_, answer, _) = gemini(
        &p,
        &before_model(
            &p,
            "s2",
            json!([{"role": "user", "content": "my password is hunter2"}]),
        ),
        &[],
    );
    assert_eq!(answer, Value::Null);
}

#[test]
fn without_the_users_wiring_the_original_is_blocked() {
    let p = Project::new(json!({"hooks": {"UserPromptSubmit": [{"command": REDACTOR}]}}));
    // The project's own Gemini CLI settings claiming the wiring do not count.
    p.write(".gemini/settings.json", WIRING);
    let (code, answer, stderr) = gemini(&p, &before_agent(&p, "s1", "my password is hunter2"), &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(answer["decision"], "deny", "{answer}");
    let reason = answer["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("BeforeModel")
            && reason.contains("~/.gemini/settings.json")
            && reason.ends_with("\nmy password is [redacted]")
            && !reason.contains("hunter2"),
        "{reason}"
    );
    // The user's own wiring, but `$GEMINI_MODEL` (a project's `.env` can set it) routes each
    // prompt through a request no hook sees: blocked too.
    write_home(&p, ".gemini/settings.json", WIRING);
    let (_, answer, _) = gemini(
        &p,
        &before_agent(&p, "s1", "my password is hunter2"),
        &[("GEMINI_MODEL", "auto")],
    );
    assert_eq!(answer["decision"], "deny", "{answer}");
    assert!(
        answer["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("$GEMINI_MODEL"),
        "{answer}"
    );
    // Nothing was recorded: BeforeModel passes.
    let (code, answer, _) = gemini(
        &p,
        &before_model(
            &p,
            "s1",
            json!([{"role": "user", "content": "my password is hunter2"}]),
        ),
        &[],
    );
    assert_eq!((code, answer), (0, Value::Null));
}

#[test]
fn an_unreadable_record_denies_the_model_call() {
    let p = Project::new(json!({"hooks": {"UserPromptSubmit": [{"command": REDACTOR}]}}));
    write_home(&p, ".gemini/settings.json", WIRING);
    let (code, _, stderr) = gemini(&p, &before_agent(&p, "s1", "my password is hunter2"), &[]);
    assert_eq!(code, 0, "{stderr}");
    let record = p
        .cache
        .path()
        .join("session-env/s1/prompt-replacements.json");
    assert!(
        record.is_file(),
        "the pair is kept under hookhost's cache root"
    );
    let kept = std::fs::read_to_string(&record).unwrap();
    assert!(
        kept.contains("[redacted]") && !kept.contains("hunter2"),
        "the original is kept only as its digest: {kept}"
    );
    std::fs::write(&record, "{").unwrap();
    let (code, answer, _) = gemini(
        &p,
        &before_model(
            &p,
            "s1",
            json!([{"role": "user", "content": "my password is hunter2"}]),
        ),
        &[],
    );
    assert_eq!(code, 0);
    assert_eq!(answer["decision"], "deny", "{answer}");
}
