//! Fidelity with the real agents (issue 24), through the `hookhost` binary: the agents' own
//! payloads (tests/fixtures/agents/, captured from the pinned Claude Code, Codex and Gemini
//! CLI) reach the hooks of their dialect field for field, under `hookhost hook --for X` and
//! `run --payload`; the agents' own variables; `CLAUDE_ENV_FILE`; and the answers hookhost
//! gives back (an ask's reason, `defer`, `updatedToolOutput`, Claude Code's Stop and answer
//! rules).

#[path = "common/mod.rs"]
mod common;

use common::Project;
use hookhost::agent::{Agent, Role, ScriptedModel};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::Arc;

/// Every variable an agent sets for its hooks: none leaks from the machine running the tests.
const AGENT_VARIABLES: [&str; 11] = [
    "CLAUDE_PROJECT_DIR",
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDE_ENV_FILE",
    "CLAUDE_EFFORT",
    "CLAUDECODE",
    "CLAUDE_CODE_REMOTE",
    "GEMINI_PROJECT_DIR",
    "GEMINI_CWD",
    "GEMINI_SESSION_ID",
    "GEMINI_PLANS_DIR",
    "HOOKHOST_ADAPTER",
];

/// `hookhost hook --for AGENT` on `p` with `stdin`, the agent's variables `env` and no other.
fn adapter(p: &Project, agent: &str, stdin: &[u8], env: &[(&str, &str)]) -> Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut c = Command::new(env!("CARGO_BIN_EXE_hookhost"));
    c.args(["hook", "--for", agent, "--project"])
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .env("HOOKHOST_MANAGED_CONFIG", p.managed_file())
        .env_remove("HOOKHOST_TRUST")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for var in AGENT_VARIABLES {
        c.env_remove(var);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().unwrap()
}

/// `hookhost run ARGS --json` on `p` (none of the machine's agent variables).
fn run_json(p: &Project, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    all.push("--json");
    let removed: Vec<(&str, &str)> = AGENT_VARIABLES.iter().map(|v| (*v, "")).collect();
    let out = p.cli(&all, &removed);
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {} / {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), v)
}

fn answer(out: &Output) -> Value {
    if out.stdout.is_empty() {
        return Value::Null;
    }
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {} / {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/agents")
}

/// The agent's captured payloads: (its event name, the bytes it wrote).
fn fixtures(agent: &str) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(fixtures_dir().join(agent))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().ends_with(".env.json"))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// The native event hookhost fires for an agent's event name, if any.
fn native_event(agent: &str, name: &str) -> Option<&'static str> {
    let gemini = [
        ("SessionStart", "SessionStart"),
        ("BeforeAgent", "UserPromptSubmit"),
        ("BeforeTool", "PreToolUse"),
        ("AfterTool", "PostToolUse"),
        // PreCompress: the captured one is Gemini's automatic one (before every model call),
        // which fires no native event (tests/events.rs, tests/interop/fixtures.rs).
        ("AfterAgent", "Stop"),
        ("SessionEnd", "SessionEnd"),
    ];
    let names: Vec<&'static str> = hookhost::Event::ALL.iter().map(|e| e.as_str()).collect();
    if agent == "gemini" {
        gemini.iter().find(|(g, _)| *g == name).map(|(_, n)| *n)
    } else {
        names.into_iter().find(|n| *n == name)
    }
}

/// A user hook of `dialect` on `event` that saves its stdin and environment in the project.
fn capturing(dialect: &str, event: &str) -> Value {
    json!({"command": format!(
        "cat > \"$HOOK_PROJECT_DIR/{dialect}-{event}.json\"; env > \"$HOOK_PROJECT_DIR/{dialect}-{event}.env\""),
        "dialect": dialect})
}

#[test]
fn every_real_payload_reaches_a_hook_of_its_dialect_field_for_field_through_the_adapter() {
    let mut checked = 0;
    for agent in ["claude", "codex", "gemini"] {
        for (name, bytes) in fixtures(agent) {
            let Some(event) = native_event(agent, &name) else {
                continue;
            };
            let p = Project::new(json!({}));
            p.write_global(json!({"hooks": {event: [capturing(agent, event)]}}));
            let out = adapter(&p, agent, &bytes, &[]);
            assert!(out.status.success(), "{agent}/{name}: {out:?}");
            let seen = p.read(&format!("{agent}-{event}.json"));
            let seen: Value = serde_json::from_str(&seen)
                .unwrap_or_else(|e| panic!("{agent}/{name}: the hook saw {seen:?}: {e}"));
            let original: Value = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(seen, original, "{agent}/{name}");
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} payloads checked");
}

#[test]
fn run_payload_gives_a_claude_payload_back_and_a_rewrite_or_another_dialect_changes_only_its_part()
{
    let bytes = std::fs::read(fixtures_dir().join("claude/PreToolUse.json")).unwrap();
    let original: Value = serde_json::from_slice(&bytes).unwrap();
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": r#"cat >/dev/null; echo '{"updatedInput":{"command":"ls -la"}}'"#},
        capturing("claude", "PreToolUse"),
        capturing("gemini", "PreToolUse"),
    ]}}));
    let file = p.write("claude-pre.json", &String::from_utf8(bytes).unwrap());
    let (code, r) = run_json(&p, &["PreToolUse", "--payload", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{r}");
    let claude: Value = serde_json::from_str(&p.read("claude-PreToolUse.json")).unwrap();
    let mut expected = original.clone();
    expected["tool_input"] = json!({"command": "ls -la"});
    assert_eq!(claude, expected);
    let gemini: Value = serde_json::from_str(&p.read("gemini-PreToolUse.json")).unwrap();
    assert_eq!(gemini["hook_event_name"], "BeforeTool");
    assert_eq!(gemini["tool_name"], "run_shell_command");
    assert_eq!(gemini["prompt_id"], original["prompt_id"], "{gemini}");
    assert!(gemini.get("permission_mode").is_none(), "{gemini}");
}

/// `NAME=value` lines of an `env` dump.
fn env_of(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn var<'a>(env: &'a [(String, String)], name: &str) -> Option<&'a str> {
    env.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

#[test]
fn the_agents_own_variables_pass_through_to_the_hooks_of_its_dialect() {
    let bytes = std::fs::read(fixtures_dir().join("claude/SessionStart.json")).unwrap();
    let p = Project::new(json!({}));
    p.write_global(json!({"hooks": {"SessionStart": [
        capturing("claude", "SessionStart"),
        capturing("gemini", "SessionStart"),
    ]}}));
    let claude_file = "/home/user/.claude/session-env/69605a91/sessionstart-hook-0.sh";
    let out = adapter(
        &p,
        "claude",
        &bytes,
        &[
            ("CLAUDE_ENV_FILE", claude_file),
            (
                "CLAUDE_CODE_SESSION_ID",
                "69605a91-8e2a-4eff-90d3-7b1ced342d9e",
            ),
            ("CLAUDE_EFFORT", "medium"),
        ],
    );
    assert!(out.status.success(), "{out:?}");
    let claude = env_of(&p.read("claude-SessionStart.env"));
    assert_eq!(var(&claude, "CLAUDE_ENV_FILE"), Some(claude_file));
    assert_eq!(var(&claude, "CLAUDE_EFFORT"), Some("medium"));
    assert_eq!(
        var(&claude, "CLAUDE_CODE_SESSION_ID"),
        Some("69605a91-8e2a-4eff-90d3-7b1ced342d9e")
    );
    let project = p.path().display().to_string();
    assert_eq!(var(&claude, "CLAUDE_PROJECT_DIR"), Some(project.as_str()));
    // A Gemini CLI hook run for Claude Code: Gemini CLI's names, hookhost's values.
    let gemini = env_of(&p.read("gemini-SessionStart.env"));
    assert_eq!(
        var(&gemini, "GEMINI_SESSION_ID"),
        Some("69605a91-8e2a-4eff-90d3-7b1ced342d9e")
    );
    assert_eq!(var(&gemini, "GEMINI_CWD"), Some(project.as_str()));
    assert_eq!(var(&gemini, "GEMINI_PROJECT_DIR"), Some(project.as_str()));
}

#[test]
fn under_hookhost_run_an_outer_agents_variables_are_not_taken_for_this_ones() {
    // `hookhost run` started from inside a Claude Code session inherits its variables.
    let p = Project::new(json!({"hooks": {"PreToolUse": [capturing("claude", "PreToolUse")]}}));
    let out = p.cli(
        &["run", "PreToolUse", "--tool", "bash", "--session", "mine"],
        &[
            (
                "CLAUDE_ENV_FILE",
                "/home/user/.claude/session-env/outer/sessionstart-hook-0.sh",
            ),
            ("CLAUDE_CODE_SESSION_ID", "outer"),
            ("CLAUDE_EFFORT", "high"),
            ("CLAUDE_PROJECT_DIR", "/somewhere/else"),
        ],
    );
    assert!(out.status.success(), "{out:?}");
    let env = env_of(&p.read("claude-PreToolUse.env"));
    assert_eq!(var(&env, "CLAUDE_ENV_FILE"), None);
    assert_eq!(var(&env, "CLAUDE_EFFORT"), None);
    assert_eq!(var(&env, "CLAUDE_CODE_SESSION_ID"), Some("mine"));
    let project = p.path().display().to_string();
    assert_eq!(var(&env, "CLAUDE_PROJECT_DIR"), Some(project.as_str()));
}

/// Claude Code's documented `load-context.sh`, under `set -u`.
const LOAD_CONTEXT: &str = r#"#!/bin/bash
set -euo pipefail
echo "export NODE_ENV=production" >> "$CLAUDE_ENV_FILE"
echo 'export GREETING="hello from SessionStart"' >> "$CLAUDE_ENV_FILE"
echo 'export LD_PRELOAD=/tmp/not-taken.so' >> "$CLAUDE_ENV_FILE"
echo "session $CLAUDE_CODE_SESSION_ID in $CLAUDE_PROJECT_DIR"
"#;

fn load_context_project() -> Project {
    let p = Project::new(json!({}));
    let script = p.write(".claude/hooks/load-context.sh", LOAD_CONTEXT);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"SessionStart": [{"hooks": [{"type": "command",
            "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/load-context.sh"}]}]}})
        .to_string(),
    );
    p
}

#[test]
fn claudes_load_context_example_runs_under_hookhost_run_with_a_private_env_file() {
    let p = load_context_project();
    let (code, r) = run_json(&p, &["SessionStart", "--session", "s-42"]);
    assert_eq!(code, 0, "{r}");
    let hook = &r["hooks"][0];
    assert_eq!(hook["exitCode"], 0, "{r}");
    assert_eq!(r["env"], json!({"NODE_ENV": "production"}), "{r}");
    // Only names that cannot run code are taken (`session_env`'s allowlist).
    for refused in ["LD_PRELOAD", "GREETING"] {
        assert!(
            hook["message"]
                .as_str()
                .unwrap()
                .contains(&format!("`{refused}` is not taken")),
            "{r}"
        );
    }
    assert_eq!(
        r["additionalContext"],
        json!([format!("session s-42 in {}", p.path().display())]),
        "{r}"
    );
    // The file is the runner's, under the cache, never in the project.
    let session_dir = p.cache.path().join("session-env/s-42");
    let files: Vec<_> = std::fs::read_dir(&session_dir).unwrap().collect();
    assert_eq!(files.len(), 1, "{}", session_dir.display());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let file = files[0].as_ref().unwrap().path();
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    let listing = std::process::Command::new("find")
        .arg(p.path())
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&listing.stdout).contains("sessionstart-hook"));
}

#[tokio::test]
async fn what_a_sessionstart_hook_writes_to_its_env_file_reaches_the_agents_later_shell_calls() {
    let p = load_context_project();
    let runner = Arc::new(p.runner());
    let model = Box::new(ScriptedModel::new(
        serde_json::from_value(json!({"turns": [
            {"toolCalls": [{"name": "bash", "args": {"command": "printf '%s/%s/%s' \"$NODE_ENV\" \"${GREETING:-unset}\" \"${LD_PRELOAD:-unset}\""}}]},
            {"text": "done"}
        ]}))
        .unwrap(),
    ));
    let mut agent = Agent::new(model, runner, &p.path(), "s1");
    agent.run("go").await.unwrap();
    let tool = agent
        .messages()
        .iter()
        .find(|m| m.role == Role::Tool)
        .unwrap();
    assert!(
        tool.content.contains("production/unset/unset"),
        "{}",
        tool.content
    );
}

#[tokio::test]
async fn a_trusted_posttooluse_hook_replaces_what_the_model_sees() {
    let p = Project::new(json!({"hooks": {"PostToolUse": [{"match": "bash",
        "command": r#"grep -q hunter2 && echo '{"updatedToolOutput":"[redacted]"}'; exit 0"#}]}}));
    let runner = Arc::new(p.runner());
    let model = Box::new(ScriptedModel::new(
        serde_json::from_value(json!({"turns": [
            {"toolCalls": [{"name": "bash", "args": {"command": "echo password: hunter2"}}]},
            {"text": "done"}
        ]}))
        .unwrap(),
    ));
    let mut agent = Agent::new(model, runner, &p.path(), "s1");
    agent.run("go").await.unwrap();
    let tool = agent
        .messages()
        .iter()
        .find(|m| m.role == Role::Tool)
        .unwrap();
    assert_eq!(tool.content, "[redacted]");
}

/// A Claude Code PreToolUse payload for `command`.
fn claude_pre(p: &Project, command: &str) -> Vec<u8> {
    json!({"session_id": "s", "transcript_path": "/dev/null", "cwd": p.path(),
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "t1"})
    .to_string()
    .into_bytes()
}

/// The same call as `agent` sends it.
fn pre_for(p: &Project, agent: &str, command: &str) -> Vec<u8> {
    match agent {
        "gemini" => json!({"session_id": "s", "transcript_path": "", "cwd": p.path(),
            "hook_event_name": "BeforeTool", "timestamp": "2026-01-01T00:00:00.000Z",
            "tool_name": "run_shell_command", "tool_input": {"command": command}})
        .to_string()
        .into_bytes(),
        "codex" => json!({"session_id": "s", "turn_id": "u", "transcript_path": null,
            "cwd": p.path(), "hook_event_name": "PreToolUse", "model": "m",
            "permission_mode": "default", "tool_name": "Bash",
            "tool_input": {"command": command}, "tool_use_id": "t1"})
        .to_string()
        .into_bytes(),
        _ => claude_pre(p, command),
    }
}

#[test]
fn an_ask_keeps_its_reason_on_the_way_out() {
    let p = Project::new(json!({}));
    p.write_global(json!({"hooks": {"PreToolUse": [{"match": "bash",
        "command": r#"grep -q 'git push' && echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"git push detected, confirm"}}'; exit 0"#}]}}));
    let claude = answer(&adapter(
        &p,
        "claude",
        &pre_for(&p, "claude", "git push"),
        &[],
    ));
    assert_eq!(claude["hookSpecificOutput"]["permissionDecision"], "ask");
    assert_eq!(
        claude["hookSpecificOutput"]["permissionDecisionReason"],
        "git push detected, confirm"
    );
    let gemini = answer(&adapter(
        &p,
        "gemini",
        &pre_for(&p, "gemini", "git push"),
        &[],
    ));
    assert_eq!(
        (&gemini["decision"], &gemini["reason"]),
        (&json!("ask"), &json!("git push detected, confirm"))
    );
    let codex = answer(&adapter(
        &p,
        "codex",
        &pre_for(&p, "codex", "git push"),
        &[],
    ));
    assert_eq!(
        codex["hookSpecificOutput"]["permissionDecision"], "deny",
        "{codex}"
    );
    assert!(
        codex["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("git push detected, confirm")
    );
}

#[test]
fn a_claude_hooks_defer_is_claudes_defer_and_never_a_protocol_error() {
    let p = Project::new(json!({}));
    p.write_global(json!({"hooks": {"PreToolUse": [{"dialect": "claude",
        "command": r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}'"#}]}}));
    let out = adapter(&p, "claude", &claude_pre(&p, "ls"), &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        answer(&out)["hookSpecificOutput"]["permissionDecision"],
        "defer"
    );
    // hookhost's own agent: the permission checker decides, as for a pass.
    let (code, r) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"ls"}"#,
        ],
    );
    assert_eq!(
        (code, &r["decision"], &r["defer"]),
        (0, &json!("pass"), &json!(true)),
        "{r}"
    );
}

#[test]
fn a_replaced_tool_result_goes_out_to_each_agent_as_it_can_take_it() {
    let p = Project::new(json!({}));
    p.write_global(json!({"hooks": {"PostToolUse": [
        {"command": r#"echo '{"updatedToolOutput":"[redacted]"}'"#}]}}));
    let post = |agent: &str| -> Vec<u8> {
        let mut v: Value = serde_json::from_slice(&pre_for(&p, agent, "cat .env")).unwrap();
        v["hook_event_name"] = json!(if agent == "gemini" {
            "AfterTool"
        } else {
            "PostToolUse"
        });
        v["tool_response"] = json!("SECRET=hunter2");
        v.to_string().into_bytes()
    };
    let claude = answer(&adapter(&p, "claude", &post("claude"), &[]));
    assert_eq!(
        claude["hookSpecificOutput"]["updatedToolOutput"], "[redacted]",
        "{claude}"
    );
    let gemini = answer(&adapter(&p, "gemini", &post("gemini"), &[]));
    assert_eq!(
        (&gemini["decision"], &gemini["reason"]),
        (&json!("deny"), &json!("[redacted]"))
    );
    let codex = answer(&adapter(&p, "codex", &post("codex"), &[]));
    assert!(
        codex["systemMessage"]
            .as_str()
            .unwrap()
            .contains("cannot apply"),
        "{codex}"
    );
}

#[test]
fn claudes_stop_and_answer_rules_as_documented() {
    let p = Project::new(json!({}));
    p.write_global(json!({"hooks": {
        "Stop": [{"dialect": "claude", "command": "exit 2"}],
        "UserPromptSubmit": [
            {"dialect": "claude", "command": r#"echo '{"additionalContext":"top level"}'"#},
            {"dialect": "claude", "command": r#"echo '{"decision":"allow"}'"#},
        ],
    }}));
    let stop = json!({"session_id": "s", "transcript_path": "", "cwd": p.path(),
        "hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": "done"});
    let a = answer(&adapter(&p, "claude", stop.to_string().as_bytes(), &[]));
    assert_eq!(
        a["decision"], "block",
        "exit 2 without stderr keeps Claude Code going: {a}"
    );
    assert!(
        a["reason"].as_str().unwrap().contains("No stderr output"),
        "{a}"
    );
    let (code, r) = run_json(&p, &["UserPromptSubmit", "--prompt", "hi"]);
    assert_eq!(code, 0, "{r}");
    assert_eq!(r["additionalContext"], json!([]), "{r}");
    let hooks = r["hooks"].as_array().unwrap();
    assert_eq!(hooks[0]["outcome"], "warn", "{r}");
    assert!(
        hooks[0]["message"]
            .as_str()
            .unwrap()
            .contains("hookSpecificOutput.additionalContext"),
        "{r}"
    );
    assert_eq!(hooks[1]["outcome"], "warn", "{r}");
    assert!(
        hooks[1]["message"]
            .as_str()
            .unwrap()
            .contains(r#""decision": "allow""#),
        "{r}"
    );
}
