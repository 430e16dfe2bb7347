//! The events added for fidelity with the real agents (PermissionRequest, PostToolUseFailure,
//! Notification, SubagentStart, PostCompact, StopFailure), end to end with real shell hooks:
//! through `hookhost run` (native and agents' event names, the payload-mismatch warning),
//! through `hookhost hook --for claude|codex|gemini` with the agents' own payloads (the
//! captured fixtures under tests/fixtures/agents/), and through the agent core, whose
//! permission checker a PermissionRequest hook can decide only where it would ask.

mod common;

use common::Project;
use hookhost::agent::{Agent, PermissionChecker, Rule, ScriptedModel};
use serde_json::{Value, json};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::Arc;

/// A project whose hooks are the user's (`~/.coding-agent/hooks.json`: trusted, so the
/// adapter runs them under its default trust policy).
fn users(config: Value) -> Project {
    let p = Project::new(json!({}));
    p.write_global(config);
    p
}

/// A hook that saves its payload as `NAME.json` in the project, then runs `then`.
fn saving(name: &str, then: &str) -> Value {
    json!({"command": format!("cat > {name}.json; {then}")})
}

fn stdout_json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn saved(p: &Project, name: &str) -> Value {
    let text = p.read(&format!("{name}.json"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}.json: {e}: {text:?}"))
}

/// `hookhost hook --for AGENT` on `p` with `payload` on stdin (HOME, cache and trust as
/// [`Project::cli`] sets them).
fn adapter(p: &Project, agent: &str, payload: &Value) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hookhost"));
    c.args(["hook", "--for", agent, "--project"])
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .env("HOOKHOST_MANAGED_CONFIG", p.managed_file())
        .env(
            "HOOKHOST_CLAUDE_MANAGED_SETTINGS",
            p.home.path().join("etc-claude-code/managed-settings.json"),
        )
        .env("HOOKHOST_TRUST", "all")
        .env_remove("HOOKHOST_ADAPTER")
        .env_remove("RUST_LOG")
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("GEMINI_PROJECT_DIR")
        .current_dir(p.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let _ = child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes());
    child.wait_with_output().unwrap()
}

/// A payload the pinned agent wrote (tests/fixtures/agents/AGENT/EVENT.json), its `cwd`
/// pointed at `p`.
fn fixture(p: &Project, agent: &str, event: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/agents")
        .join(agent)
        .join(format!("{event}.json"));
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["cwd"] = p.path().display().to_string().into();
    v
}

#[test]
fn run_permission_request_allow_and_deny() {
    let p = Project::new(json!({"hooks": {"PermissionRequest": [
        {"command": "cat > pr.json; echo '{\"decision\":\"allow\"}'", "match": "bash"},
        {"command": "echo 'no writes here' >&2; exit 2", "match": "write_file"}
    ]}}));
    let out = p.cli(
        &[
            "run",
            "PermissionRequest",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"git push"}"#,
            "--json",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    let r = stdout_json(&out);
    assert_eq!(
        (&r["decision"], &r["allow"], &r["hooks"][0]["outcome"]),
        (&json!("pass"), &json!(true), &json!("allow"))
    );
    let seen = saved(&p, "pr");
    assert_eq!(
        (
            &seen["event"],
            &seen["toolName"],
            &seen["toolArgs"]["command"]
        ),
        (
            &json!("PermissionRequest"),
            &json!("bash"),
            &json!("git push")
        )
    );
    assert_eq!(seen["reason"], "");
    let out = p.cli(&["run", "PermissionRequest", "--tool", "write_file"], &[]);
    assert_eq!(out.status.code(), Some(2), "a deny exits 2");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("decision: block — no writes here"), "{text}");
    let out = p.cli(&["run", "PermissionRequest", "--tool", "bash"], &[]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("decision: allow"));
}

#[test]
fn run_the_observing_events_with_their_payloads() {
    let p = Project::new(json!({"hooks": {
        "PostToolUseFailure": [saving("ptuf", "echo 'retry with -f' >&2; exit 2")],
        "Notification": [saving("n", "exit 0")],
        "SubagentStart": [saving("ss", "echo '{\"additionalContext\":\"be brief\"}'")],
        "PostCompact": [saving("pc", "exit 0")],
        "StopFailure": [saving("sf", "exit 1")]
    }}));
    let file = p.write(
        "failure.json",
        r#"{"toolName": "bash", "toolArgs": {"command": "false"}, "toolError": "exit 1"}"#,
    );
    let file = file.display().to_string();
    let out = p.cli(
        &["run", "PostToolUseFailure", "--payload", &file, "--json"],
        &[],
    );
    let r = stdout_json(&out);
    assert_eq!(
        (&r["decision"], &r["feedback"]),
        (&json!("pass"), &json!(["retry with -f"]))
    );
    assert_eq!(saved(&p, "ptuf")["toolError"], "exit 1");
    let expect: [(&str, &str, Value); 4] = [
        ("Notification", "n", json!({"message": "", "kind": ""})),
        (
            "SubagentStart",
            "ss",
            json!({"agentType": "default", "prompt": ""}),
        ),
        (
            "PostCompact",
            "pc",
            json!({"trigger": "manual", "summary": ""}),
        ),
        ("StopFailure", "sf", json!({"error": ""})),
    ];
    for (event, file, fields) in expect {
        let out = p.cli(&["run", event, "--json"], &[]);
        assert_eq!(out.status.code(), Some(0), "{event}: observing, never 2");
        let seen = saved(&p, file);
        assert_eq!(seen["event"], event);
        for (k, v) in fields.as_object().unwrap() {
            assert_eq!(&seen[k], v, "{event} {k}");
        }
        if event == "SubagentStart" {
            assert_eq!(stdout_json(&out)["additionalContext"], json!(["be brief"]));
        }
    }
}

#[test]
fn run_takes_each_agents_event_names() {
    let p = Project::new(json!({"hooks": {
        "PreToolUse": [{"command": "echo 'no rm' >&2; exit 2", "match": "bash"}],
        "Stop": [saving("stop", "exit 0")]
    }}));
    let out = p.cli(&["run", "BeforeTool", "--tool", "bash", "--json"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let r = stdout_json(&out);
    assert_eq!(r["event"], "PreToolUse");
    assert_eq!(
        r["eventName"],
        json!({"given": "BeforeTool", "agents": ["gemini"]})
    );
    let out = p.cli(&["-v", "run", "afteragent"], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("`afteragent` is Gemini CLI's name for Stop"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(saved(&p, "stop")["event"], "Stop");
    // A Claude Code name is hookhost's own: nothing to say.
    let out = p.cli(&["run", "Notification", "--json"], &[]);
    assert!(stdout_json(&out).get("eventName").is_none());
    let out = p.cli(&["run", "PreCompres"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `PreCompress`?"));
}

#[test]
fn a_payload_for_another_event_is_a_warning_and_the_named_event_fires() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [saving("pre", "exit 0")]}}));
    let stop = fixture(&p, "claude", "Stop");
    let file = p
        .write("stop.json", &stop.to_string())
        .display()
        .to_string();
    let out = p.cli(&["run", "PreToolUse", "--payload", &file, "--json"], &[]);
    let warning = format!(
        "--payload {file} is a Stop payload, but PreToolUse was named: firing PreToolUse with it"
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&format!("hookhost: warning: {warning}")),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout_json(&out)["warnings"], json!([warning]));
    assert_eq!(saved(&p, "pre")["event"], "PreToolUse");
    // The same event in another agent's name is no mismatch.
    let before = fixture(&p, "gemini", "BeforeTool");
    let file = p
        .write("before.json", &before.to_string())
        .display()
        .to_string();
    let out = p.cli(&["run", "PreToolUse", "--payload", &file, "--json"], &[]);
    assert!(stdout_json(&out).get("warnings").is_none());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning: --payload"));
}

#[test]
fn claude_codes_new_events_through_the_adapter() {
    let p = users(json!({"hooks": {
        "PermissionRequest": [saving("pr", "echo '{\"decision\":\"allow\"}'")],
        "PostToolUseFailure": [saving("ptuf", "echo 'check the path' >&2; exit 2")],
        "SubagentStart": [saving("ss", "echo '{\"additionalContext\":\"stay read-only\"}'")],
        "StopFailure": [saving("sf", "exit 0")]
    }}));
    let out = adapter(&p, "claude", &fixture(&p, "claude", "PermissionRequest"));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout_json(&out),
        json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow"}}})
    );
    let seen = saved(&p, "pr");
    assert_eq!(
        (&seen["toolName"], &seen["toolArgs"]["command"]),
        (&json!("bash"), &json!("touch made-by-the-model"))
    );

    let out = adapter(&p, "claude", &fixture(&p, "claude", "PostToolUseFailure"));
    assert_eq!(
        stdout_json(&out),
        json!({"hookSpecificOutput": {"hookEventName": "PostToolUseFailure",
            "additionalContext": "check the path"}})
    );
    assert_eq!(
        saved(&p, "ptuf")["toolError"],
        "Exit code 1\ncat: missing-file: No such file or directory"
    );

    let out = adapter(&p, "claude", &fixture(&p, "claude", "SubagentStart"));
    assert_eq!(
        stdout_json(&out)["hookSpecificOutput"],
        json!({"hookEventName": "SubagentStart", "additionalContext": "stay read-only"})
    );
    assert_eq!(saved(&p, "ss")["agentType"], "general-purpose");

    let out = adapter(&p, "claude", &fixture(&p, "claude", "StopFailure"));
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0));
    let seen = saved(&p, "sf");
    assert_eq!(
        (&seen["errorType"], &seen["error"]),
        (
            &json!("unknown"),
            &json!("API Error: 400 scripted API error")
        )
    );
}

#[test]
fn a_deny_through_the_adapter_for_claude_and_codex() {
    let p = users(json!({"hooks": {"PermissionRequest": [
        {"command": "echo 'touch needs a review' >&2; exit 2"}
    ]}}));
    let expect = json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
        "decision": {"behavior": "deny", "message": "touch needs a review"}}});
    let out = adapter(&p, "claude", &fixture(&p, "claude", "PermissionRequest"));
    assert_eq!(stdout_json(&out), expect);
    // Codex 0.171 did not fire PermissionRequest headless (tests/fixtures/agents/README.md):
    // its payload from its `permission-request.command.input` schema, on a captured call.
    let mut codex = fixture(&p, "codex", "PreToolUse");
    codex["hook_event_name"] = "PermissionRequest".into();
    codex.as_object_mut().unwrap().remove("tool_use_id");
    let out = adapter(&p, "codex", &codex);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout_json(&out), expect);
}

#[test]
fn gemini_events_with_no_native_meaning_run_nothing_and_pass() {
    let p = users(json!({"hooks": {
        "PreCompact": [saving("compact", "exit 0")],
        "PreToolUse": [saving("pre", "exit 0")],
        "UserPromptSubmit": [saving("prompt", "exit 0")],
        "Notification": [saving("n", "exit 0")]
    }}));
    for event in [
        "BeforeModel",
        "AfterModel",
        "BeforeToolSelection",
        "PreCompress",
    ] {
        let out = adapter(&p, "gemini", &fixture(&p, "gemini", event));
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stdout).as_ref()
            ),
            (Some(0), ""),
            "{event}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for file in ["compact", "pre", "prompt"] {
        assert_eq!(
            p.read(&format!("{file}.json")),
            "",
            "no native hook runs on an event it was not written for ({file})"
        );
    }
    // `/compress` compresses: that one is PreCompact.
    let mut manual = fixture(&p, "gemini", "PreCompress");
    manual["trigger"] = "manual".into();
    let out = adapter(&p, "gemini", &manual);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(saved(&p, "compact")["trigger"], "manual");
    // Gemini CLI 0.61's Notification (`fireToolNotificationEvent`): the base fields,
    // `notification_type`, `message`, `details`.
    let mut n = fixture(&p, "gemini", "BeforeModel");
    let obj = n.as_object_mut().unwrap();
    obj.remove("llm_request");
    obj.insert("hook_event_name".into(), "Notification".into());
    obj.insert("notification_type".into(), "ToolPermission".into());
    obj.insert(
        "message".into(),
        "Tool run_shell_command requires confirmation".into(),
    );
    obj.insert(
        "details".into(),
        json!({"type": "exec", "command": "touch x"}),
    );
    let out = adapter(&p, "gemini", &n);
    assert_eq!(out.status.code(), Some(0));
    let seen = saved(&p, "n");
    assert_eq!(
        (&seen["event"], &seen["kind"], &seen["message"]),
        (
            &json!("Notification"),
            &json!("permission_prompt"),
            &json!("Tool run_shell_command requires confirmation")
        )
    );
}

/// The core over real hooks: a `write_file` the checker asks about (an ask rule), a
/// system-denied `bash`, nobody at the prompt.
async fn session(p: &Project) -> Agent {
    let model = ScriptedModel::new(
        serde_json::from_value(json!({"turns": [
            {"toolCalls": [{"name": "write_file", "args": {"path": "asked.txt", "content": "x"}}]},
            {"toolCalls": [{"name": "bash", "args": {"command": "sudo touch pwned"}}]},
            {"text": "done"}
        ]}))
        .unwrap(),
    );
    let mut checker = PermissionChecker::default();
    checker.ask.push(Rule::parse("*").unwrap());
    let mut agent = Agent::new(Box::new(model), Arc::new(p.runner()), &p.path(), "s1")
        .with_permissions(checker);
    agent.run("go").await.unwrap();
    agent
}

fn tool_results(a: &Agent) -> Vec<String> {
    a.messages()
        .iter()
        .filter(|m| m.role == hookhost::agent::Role::Tool)
        .map(|m| m.content.clone())
        .collect()
}

#[tokio::test]
async fn the_core_lets_a_permission_request_hook_decide_only_what_it_would_ask() {
    let allow = Project::new(json!({"hooks": {"PermissionRequest": [
        {"command": "cat >> asked.log; echo; echo '{\"decision\":\"allow\"}'"}
    ]}}));
    let a = session(&allow).await;
    assert!(
        allow.path().join("asked.txt").exists(),
        "allowed without a prompt"
    );
    assert!(!allow.path().join("pwned").exists());
    let results = tool_results(&a);
    assert!(
        results[0].starts_with("wrote 1 bytes to asked.txt"),
        "{results:?}"
    );
    assert_eq!(
        results[1],
        "Permission denied: denied by system rule bash(sudo *)"
    );
    let log = allow.read("asked.log");
    assert_eq!(
        log.lines().count(),
        1,
        "the system deny never reached the hook: {log}"
    );
    let asked: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(
        (&asked["toolName"], &asked["reason"]),
        (&json!("write_file"), &json!("rule *"))
    );

    let deny = Project::new(json!({"hooks": {
        "PermissionRequest": [{"command": "echo 'not in this repo' >&2; exit 2"}],
        "Notification": [saving("n", "exit 0")]
    }}));
    let a = session(&deny).await;
    assert!(!deny.path().join("asked.txt").exists());
    assert_eq!(
        tool_results(&a)[0],
        "Permission denied: denied by a PermissionRequest hook: not in this repo"
    );
    assert_eq!(
        deny.read("n.json"),
        "",
        "denied by a hook: no prompt, no notification"
    );

    // No PermissionRequest hook: the prompt (nobody there: refused), Notification first.
    let ask = Project::new(json!({"hooks": {"Notification": [saving("n", "exit 0")]}}));
    let a = session(&ask).await;
    assert!(!ask.path().join("asked.txt").exists());
    assert!(tool_results(&a)[0].contains("the user did not allow it (rule *)"));
    let n = saved(&ask, "n");
    assert_eq!(
        (&n["kind"], &n["message"]),
        (
            &json!("permission_prompt"),
            &json!("write_file needs your permission (rule *)")
        )
    );
}

#[test]
fn a_broken_config_cancels_an_allow() {
    // The user's hook allows; the project's file is broken (it may have held a deny).
    let p = users(json!({"hooks": {"PermissionRequest": [
        {"command": "echo '{\"decision\":\"allow\"}'"}
    ]}}));
    let run = ["run", "PermissionRequest", "--tool", "bash", "--json"];
    assert_eq!(stdout_json(&p.cli(&run, &[]))["allow"], true);
    p.write(
        ".coding-agent/hooks.json",
        r#"{"hooks": {"PermissionRequest": [{"comand": "x"}]}}"#,
    );
    let out = p.cli(&run, &[]);
    let r = stdout_json(&out);
    assert_eq!(
        (&r["allow"], &r["decision"], &r["hooks"][0]["outcome"]),
        (&json!(false), &json!("pass"), &json!("allow"))
    );
    assert!(r["configErrors"].as_array().is_some_and(|e| !e.is_empty()));
}
