//! The agents' real payloads (tests/fixtures/agents/, captured from the pinned Claude Code,
//! Codex and Gemini CLI by `scripts/test-real-agents --capture`) through hookhost: each one,
//! given to `hookhost hook --for <agent>` and to `hookhost run <its event> --payload`, reaches
//! the native hook of the event it stands for with its session, tool and arguments; an event
//! with no native meaning runs no hook and is answered as a pass.

use crate::common::Project;
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const AGENTS: [&str; 3] = ["claude", "codex", "gemini"];

/// Every native event a captured payload can stand for.
const NATIVE: [&str; 14] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "Notification",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "Stop",
    "StopFailure",
    "SessionEnd",
];

fn fixture_dir(agent: &str) -> PathBuf {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/agents"
    ))
    .join(agent)
}

/// `(event name as the agent spells it, payload bytes)` for every capture of `agent`.
fn captures(agent: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(fixture_dir(agent))
        .unwrap_or_else(|e| panic!("tests/fixtures/agents/{agent}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json")
                && !p.to_string_lossy().ends_with(".env.json")
        })
        .map(|p| {
            let event = p.file_stem().unwrap().to_string_lossy().into_owned();
            (event, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    assert!(out.len() >= 5, "{agent}: only {} captures", out.len());
    out
}

/// The native event an agent's event stands for; `None`: no native meaning (Gemini's model
/// events), and PreCompress, whose mapping depends on what Gemini says it compresses.
fn native_event(agent: &str, name: &str) -> Option<&'static str> {
    let native = match (agent, name) {
        ("gemini", "BeforeAgent") => "UserPromptSubmit",
        ("gemini", "BeforeTool") => "PreToolUse",
        ("gemini", "AfterTool") => "PostToolUse",
        ("gemini", "AfterAgent") => "Stop",
        ("gemini", "BeforeModel" | "AfterModel" | "BeforeToolSelection" | "PreCompress") => {
            return None;
        }
        (_, n) => n,
    };
    Some(NATIVE.into_iter().find(|e| *e == native).expect(name))
}

/// The capture with its placeholder paths pointing at this test's project and home.
fn localised(p: &Project, bytes: &str) -> String {
    let project = p.path().to_string_lossy().into_owned();
    let home = p.home.path().to_string_lossy().into_owned();
    bytes
        .replace("/home/user/project", &project)
        .replace("/home/user", &home)
}

/// A project whose user file has, on every native event, a hook that writes its payload to
/// `seen-<Event>.json` in the project (user hooks are trusted, also under the adapter).
fn recording_project() -> Project {
    let p = Project::new(json!({"hooks": {}}));
    let hooks: serde_json::Map<String, Value> = NATIVE
        .iter()
        .map(|e| {
            let target = p.path().join(format!("seen-{e}.json"));
            let cmd = format!("cat > '{}'", target.display());
            (e.to_string(), json!([{"command": cmd}]))
        })
        .collect();
    p.write_global(json!({ "hooks": hooks }));
    p
}

fn adapter(p: &Project, agent: &str, stdin: &str) -> std::process::Output {
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
        .env_remove("HOOKHOST_TRUST")
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn seen(p: &Project) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(p.path())
        .unwrap()
        .filter_map(|e| {
            let n = e.unwrap().file_name().to_string_lossy().into_owned();
            n.strip_prefix("seen-")?
                .strip_suffix(".json")
                .map(String::from)
        })
        .collect();
    v.sort();
    v
}

/// What the native hook must have read for the agent's payload `orig`.
fn assert_native_payload(agent: &str, name: &str, native: &str, orig: &Value, got: &Value) {
    let at = format!("{agent} {name} -> {native}: {got}");
    assert_eq!(got["event"], native, "{at}");
    assert_eq!(got["sessionId"], orig["session_id"], "{at}");
    if let Some(tool) = orig.get("tool_name").and_then(Value::as_str) {
        let core = match tool {
            "Bash" | "run_shell_command" | "shell" => "bash",
            other => other,
        };
        assert_eq!(got["toolName"], core, "{at}");
        if let Some(cmd) = orig["tool_input"].get("command") {
            assert_eq!(&got["toolArgs"]["command"], cmd, "{at}");
        }
    }
}

#[test]
fn every_real_payload_reaches_the_native_hook_of_its_event_through_the_adapter() {
    for agent in AGENTS {
        for (name, bytes) in captures(agent) {
            let p = recording_project();
            let payload = localised(&p, &bytes);
            let out = adapter(&p, agent, &payload);
            let at = format!(
                "{agent} {name}: exit {:?}\nstdout: {}\nstderr: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(out.status.code(), Some(0), "{at}");
            let answer = String::from_utf8_lossy(&out.stdout);
            if !answer.trim().is_empty() {
                let v: Value =
                    serde_json::from_str(&answer).unwrap_or_else(|e| panic!("{e}: {at}"));
                assert!(v.is_object(), "{at}");
            }
            match native_event(agent, &name) {
                Some(native) => {
                    assert_eq!(seen(&p), [native], "{at}");
                    let got: Value = serde_json::from_str(&p.read(&format!("seen-{native}.json")))
                        .unwrap_or_else(|e| panic!("{e}: {at}"));
                    let orig: Value = serde_json::from_str(&payload).unwrap();
                    assert_native_payload(agent, &name, native, &orig, &got);
                }
                // No native meaning: no native hook runs, and the answer lets the agent go on.
                None if name != "PreCompress" => {
                    assert_eq!(seen(&p), Vec::<String>::new(), "{at}");
                    assert!(
                        !answer.contains("deny") && !answer.contains("block"),
                        "{at}"
                    );
                }
                None => {}
            }
        }
    }
}

#[test]
fn every_real_payload_runs_under_run_with_the_agents_own_event_name() {
    for agent in AGENTS {
        for (name, bytes) in captures(agent) {
            let Some(native) = native_event(agent, &name) else {
                continue;
            };
            let p = recording_project();
            let file = p.write("payload.json", &localised(&p, &bytes));
            let out = p.cli(
                &["run", &name, "--payload", &file.to_string_lossy(), "--json"],
                &[],
            );
            let at = format!(
                "{agent} {name}: exit {:?}\nstdout: {}\nstderr: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            // PreToolUse and PermissionRequest pass (exit 0); nothing here blocks.
            assert_eq!(out.status.code(), Some(0), "{at}");
            assert_eq!(seen(&p), [native], "{at}");
            let report: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(report["event"], native, "{at}");
            assert!(
                !String::from_utf8_lossy(&out.stderr).contains("disagrees"),
                "the payload's own event is the one named: {at}"
            );
        }
    }
}
