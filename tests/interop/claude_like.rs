//! The seven Claude-like agents (Qwen Code, Qoder CLI, Grok CLI, Factory Droid, Auggie, VS
//! Code, goose) through the real binary: `hookhost hook --for AGENT` is given the payload the
//! agent's docs show (tests/fixtures/agents/AGENT/doc-PreToolUse.json) and runs a real shell
//! guard from the project's `.coding-agent/hooks.json`. A guard blocks `rm -rf` in the
//! agent's answer shape; a harmless call passes (and the guard did run); an untrusted
//! project hook does not run as the user, and the user is told where the agent has a
//! channel for it (`systemMessage`; goose has none). The agent's own project file is read
//! too (`list`), as a project hook (subject to trust).

use crate::common::Project;
use crate::corpus::{adapter, make_executable};
use serde_json::{Value, json};
use std::path::Path;

const AGENTS: [&str; 7] = [
    "qwen", "qoder", "grok", "droid", "auggie", "vscode", "goose",
];

/// A native guard: it blocks `rm -rf` with stderr, and leaves a mark that it ran.
const GUARD: &str = r#"#!/bin/sh
input=$(cat)
touch "$HOOK_PROJECT_DIR/guard-ran"
case "$input" in
  *'rm -rf'*) echo "rm -rf is blocked by the project guard" >&2; exit 2 ;;
esac
exit 0
"#;

fn fixture(agent: &str, name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/agents")
        .join(agent)
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// The agent's documented PreToolUse payload for `command`, in project `p`.
fn pre_tool_use(p: &Project, agent: &str, command: &str) -> Value {
    let mut v = fixture(agent, "doc-PreToolUse.json");
    v["tool_input"]["command"] = json!(command);
    let cwd = if agent == "goose" {
        "working_dir"
    } else {
        "cwd"
    };
    v[cwd] = json!(p.path());
    v
}

fn guarded() -> Project {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"match": "bash", "command": "./guard.sh"}
    ]}}));
    make_executable(&p.write("guard.sh", GUARD));
    p
}

/// Whether `answer` denies the call in `agent`'s protocol, and with what reason.
fn denial(agent: &str, answer: &Value) -> Option<String> {
    let (decision, reason) = match agent {
        "goose" => (&answer["decision"], &answer["reason"]),
        _ => (
            &answer["hookSpecificOutput"]["permissionDecision"],
            &answer["hookSpecificOutput"]["permissionDecisionReason"],
        ),
    };
    let denied = matches!(decision.as_str(), Some("deny" | "block"));
    denied.then(|| reason.as_str().unwrap_or_default().to_string())
}

#[test]
fn a_guard_blocks_in_each_agents_answer_and_a_harmless_call_passes() {
    for agent in AGENTS {
        let p = guarded();
        let (code, answer, stderr) = adapter(&p, agent, &pre_tool_use(&p, agent, "rm -rf /tmp/x"));
        assert_eq!(code, 0, "{agent}: {stderr}");
        let reason = denial(agent, &answer).unwrap_or_else(|| panic!("{agent}: {answer}"));
        assert!(reason.contains("rm -rf is blocked"), "{agent}: {answer}");
        if agent != "goose" {
            assert_eq!(answer["hookSpecificOutput"]["hookEventName"], "PreToolUse");
        }

        let p = guarded();
        let (code, answer, stderr) = adapter(&p, agent, &pre_tool_use(&p, agent, "ls"));
        assert_eq!(code, 0, "{agent}: {stderr}");
        assert_eq!(denial(agent, &answer), None, "{agent}: {answer}");
        assert!(
            p.path().join("guard-ran").exists(),
            "{agent}: the guard did not run"
        );
    }
}

#[test]
fn an_untrusted_project_hook_does_not_run_as_the_user_and_the_user_is_told() {
    use std::io::Write;
    for agent in AGENTS {
        let p = Project::new(json!({"hooks": {"PreToolUse": [
            {"match": "bash", "command": format!("cat >/dev/null; touch '{}/outside'", p_home_marker())}
        ]}}));
        let marker = Path::new(&p_home_marker()).join("outside");
        let _ = std::fs::remove_file(&marker);
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_hookhost"));
        c.args(["hook", "--for", agent, "--project"])
            .arg(p.path())
            .arg("--home")
            .arg(p.home.path())
            .env("HOME", p.home.path())
            .env("HOOKHOST_CACHE_DIR", p.cache.path())
            .env_remove("HOOKHOST_TRUST")
            .env_remove("HOOKHOST_ADAPTER")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = c.spawn().unwrap();
        let payload = pre_tool_use(&p, agent, "ls");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(payload.to_string().as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            !marker.exists(),
            "{agent}: an untrusted project hook wrote outside the project: {stdout}"
        );
        if agent == "goose" {
            // goose has no channel to the user: nothing to say, the call goes ahead.
            assert_eq!(stdout.trim(), "", "{agent}");
        } else {
            let answer: Value = serde_json::from_str(stdout.trim()).unwrap();
            let told = answer["systemMessage"].as_str().unwrap_or_default();
            assert!(told.contains("trust"), "{agent}: {answer}");
        }
    }
}

/// A directory outside every project and home of these tests, the same for each run.
fn p_home_marker() -> String {
    let dir = std::env::temp_dir().join("hookhost-claude-like-untrusted");
    std::fs::create_dir_all(&dir).unwrap();
    dir.display().to_string()
}

#[test]
fn each_agents_project_file_is_read_as_a_project_hook_of_its_dialect() {
    let files = [
        ("qwen", ".qwen/settings.json"),
        ("qoder", ".qoder/settings.json"),
        ("grok", ".grok/hooks/guard.json"),
        ("droid", ".factory/hooks.json"),
        ("auggie", ".augment/settings.json"),
        ("goose", ".agents/plugins/guard/hooks/hooks.json"),
    ];
    for (agent, file) in files {
        let p = Project::new(json!({}));
        p.write(
            file,
            &json!({"hooks": {"PreToolUse": [{"matcher": "", "hooks": [
                {"type": "command", "command": "exit 0", "timeout": 5}
            ]}]}})
            .to_string(),
        );
        let out = p.cli(&["list", "--json"], &[]);
        let list: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{agent}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        let text = list.to_string();
        assert!(text.contains(file), "{agent}: {text}");
        assert!(
            text.contains(&format!("\"dialect\":\"{agent}\"")),
            "{agent}: {text}"
        );
        // The project's: subject to trust like every project hook.
        assert!(text.contains("\"source\":\"project\""), "{agent}: {text}");
    }
}
