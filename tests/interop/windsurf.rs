//! Windsurf (Cascade hooks) through the real binary, both ways. Outbound: `hookhost hook
//! --for windsurf` is given the payloads Windsurf's docs show
//! (tests/fixtures/agents/windsurf/doc-*.json) and runs a real shell guard from the project's
//! `.coding-agent/hooks.json`: it blocks `rm -rf` with exit 2 and the reason on stderr (all
//! Windsurf reads), a harmless call passes with exit 0 and nothing on stdout, a write to
//! `.env` is blocked (`pre_write_code` reads as the core's edit). Inbound: a
//! `.windsurf/hooks.json` guard is listed as a project hook of dialect `windsurf` matching
//! its tool kind, blocks through `hookhost run` with exit 2, and its JSON on stdout decides
//! nothing (Windsurf reads exit codes only).

use crate::common::Project;
use crate::corpus::{adapter, make_executable, run_json};
use serde_json::{Value, json};
use std::path::Path;

/// A native guard: it blocks `rm -rf` and writes to `.env` with stderr, and leaves a mark
/// that it ran.
const GUARD: &str = r#"#!/bin/sh
input=$(cat)
touch "$HOOK_PROJECT_DIR/guard-ran"
case "$input" in
  *'rm -rf'*) echo "rm -rf is blocked by the project guard" >&2; exit 2 ;;
  *'.env'*) echo "no writes to .env" >&2; exit 2 ;;
esac
exit 0
"#;

fn doc(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/agents/windsurf")
        .join(format!("doc-{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn run_command(p: &Project, command: &str) -> Value {
    let mut v = doc("pre_run_command");
    v["tool_info"]["command_line"] = json!(command);
    v["tool_info"]["cwd"] = json!(p.path());
    v
}

fn guarded() -> Project {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"match": "bash|write_file|edit_file", "command": "./guard.sh"}
    ]}}));
    make_executable(&p.write("guard.sh", GUARD));
    p
}

#[test]
fn a_guard_blocks_with_exit_2_and_stderr_and_a_harmless_call_passes() {
    let p = guarded();
    let (code, answer, stderr) = adapter(&p, "windsurf", &run_command(&p, "rm -rf /tmp/x"));
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(answer, Value::Null, "Windsurf reads no stdout");
    assert!(stderr.contains("rm -rf is blocked"), "{stderr}");

    let p = guarded();
    let (code, answer, stderr) = adapter(&p, "windsurf", &run_command(&p, "ls"));
    assert_eq!((code, answer), (0, Value::Null), "{stderr}");
    assert!(p.path().join("guard-ran").exists(), "the guard did not run");
}

#[test]
fn a_write_is_the_cores_edit_and_a_prompt_or_post_event_passes() {
    let p = guarded();
    let mut write = doc("pre_write_code");
    write["tool_info"]["file_path"] = json!(p.path().join(".env"));
    let (code, _, stderr) = adapter(&p, "windsurf", &write);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("no writes to .env"), "{stderr}");
    for name in [
        "pre_user_prompt",
        "post_run_command",
        "post_cascade_response",
    ] {
        let (code, answer, stderr) = adapter(&p, "windsurf", &doc(name));
        assert_eq!((code, answer), (0, Value::Null), "{name}: {stderr}");
    }
}

#[test]
fn a_windsurf_hook_file_is_a_project_hook_judged_by_exit_codes() {
    let p = Project::new(json!({}));
    p.write(
        ".windsurf/hooks.json",
        &json!({"hooks": {
            "pre_run_command": [{"command": "./.windsurf/guard.sh", "show_output": true}],
            "pre_read_code": [{"command": "./.windsurf/json.sh"}]
        }})
        .to_string(),
    );
    make_executable(&p.write(
        ".windsurf/guard.sh",
        "#!/bin/sh\ncase \"$(cat)\" in *'rm -rf'*) echo 'blocked by the Windsurf hook' >&2; exit 2;; esac\n",
    ));
    // A JSON "deny" on stdout with exit 0: Windsurf reads no answer, so neither does hookhost.
    make_executable(&p.write(
        ".windsurf/json.sh",
        "#!/bin/sh\ncat >/dev/null\necho '{\"decision\": \"deny\", \"reason\": \"no\"}'\n",
    ));
    let out = p.cli(&["list", "--json"], &[]);
    let list: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let hooks = list["hooks"].as_array().unwrap();
    assert_eq!(hooks.len(), 2, "{list}");
    assert!(
        hooks
            .iter()
            .all(|h| h["dialect"] == "windsurf" && h["source"] == "project"),
        "{list}"
    );

    let call = |tool: &str, args: Value| {
        let args = args.to_string();
        run_json(&p, &["PreToolUse", "--tool", tool, "--args", &args])
    };
    let (code, r) = call("bash", json!({"command": "rm -rf build"}));
    assert_eq!(
        (code, r["reason"].as_str()),
        (2, Some("blocked by the Windsurf hook")),
        "{r}"
    );
    let (code, r) = call("bash", json!({"command": "ls"}));
    assert_eq!((code, r["decision"].as_str()), (0, Some("pass")), "{r}");
    // The read guard runs for reads only, and its JSON decides nothing.
    let (code, r) = call("read_file", json!({"path": "a.txt"}));
    assert_eq!((code, r["decision"].as_str()), (0, Some("pass")), "{r}");
    assert_eq!(r["hooks"].as_array().map(Vec::len), Some(1), "{r}");
}
