//! `schema/hooks.schema.json` describes the `hooks.json` that hookhost accepts: every example
//! config in the repository validates against it, the schema and hookhost's own validation
//! agree on a table of valid and invalid configs, and its keys, events and bounds are the
//! ones the code uses. The schemas generated from the wire types (payloads, answers, the
//! `run --json` object; crates/protocol) describe what hookhost really writes and reads:
//! every rendered payload, every answer to an agent and every report (`run`, `list`, `check`,
//! `doctor --json`) validates, and a broken one does not.
//!
//! The validator is Python's `jsonschema`: the tests that use it are the `interpreters` tier
//! (tests/README.md); the keys-events-and-bounds test is the fast tier.

mod common;

use hookhost::Event;
use hookhost::config::{
    self, ConfigPaths, DEFAULT_MEMORY_MIB, DEFAULT_TIMEOUT_MS, MAX_MEMORY_MIB, MAX_TIMEOUT_MS,
    Scope,
};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn schema() -> Value {
    let text = std::fs::read_to_string(root().join("schema/hooks.schema.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Validates with Python's `jsonschema` (installed by `scripts/setup`): a reference
/// implementation of draft 2020-12 that adds no crate (and no feature unification that would
/// rebuild wasmtime) to the host's build.
struct Validator;

const PY: &str = r#"
import json, sys
from jsonschema import Draft202012Validator as V
schema = json.load(open(sys.argv[1]))
if sys.argv[2] == "meta":
    for e in V(V.META_SCHEMA).iter_errors(schema):
        print(f"{e.message} at {list(e.absolute_path)}")
else:
    for e in V(schema).iter_errors(json.load(sys.stdin)):
        print(f"{e.message} at {list(e.absolute_path)}")
"#;

fn python(mode: &str, stdin: &str) -> Vec<String> {
    use std::io::Write;
    let mut child = std::process::Command::new(common::needs::python3())
        .args(["-c", PY])
        .arg(root().join("schema/hooks.schema.json"))
        .arg(mode)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 (scripts/setup installs it with jsonschema)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "python3 jsonschema failed (run scripts/setup, or `pip install jsonschema`): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

fn validator() -> Validator {
    common::needs::python_module("jsonschema");
    Validator
}

/// The schema's complaints about `config`, as text (empty: valid).
fn schema_errors(_: &Validator, config: &Value) -> Vec<String> {
    python("instance", &config.to_string())
}

/// hookhost's complaints about `config`, read as a project file of `project`.
/// hookhost's own problems with `config` as a project file (as the managed file when it
/// says `allowManagedHooksOnly`, which only the managed file may).
fn hookhost_errors(config: &Value, project: &Path) -> Vec<String> {
    let paths = ConfigPaths::with_home(project, None);
    let (file, scope) = if config.get("allowManagedHooksOnly").is_some() {
        (
            Path::new("/etc/coding-agent/hooks.json").to_path_buf(),
            Scope::Managed,
        )
    } else {
        (paths.project_file.clone(), Scope::Project)
    };
    let (_, errors) = config::parse_file(&config.to_string(), &file, scope, &paths);
    errors.iter().map(ToString::to_string).collect()
}

/// The `json` code blocks of the README and of docs/ (not the design contract, which sketches)
/// that are a config (`{"hooks": {...}}`) or one hook (wrapped into PostToolUse, where every
/// option is allowed).
fn readme_configs() -> Vec<Value> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md") && !p.ends_with("design.md"))
        .collect();
    docs.sort();
    docs.insert(0, root().join("README.md"));
    let text: String = docs
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    let mut configs = Vec::new();
    let mut block: Option<String> = None;
    for line in text.lines() {
        match (&mut block, line.trim_end()) {
            (None, "```json") => block = Some(String::new()),
            (Some(text), "```") => {
                if let Ok(v) = serde_json::from_str::<Value>(text) {
                    if v.get("hooks").is_some_and(Value::is_object) {
                        configs.push(v);
                    } else if v.get("command").is_some() || v.get("url").is_some() {
                        configs.push(json!({"hooks": {"PostToolUse": [v]}}));
                    }
                }
                block = None;
            }
            (Some(text), _) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, _) => {}
        }
    }
    configs
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
fn the_schema_is_a_valid_draft_2020_12_schema() {
    let _ = validator();
    let schema = schema();
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    let errors = python("meta", "");
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
fn every_example_config_validates() {
    let v = validator();
    let files: [PathBuf; 2] = [
        root().join("examples/project/.coding-agent/hooks.json"),
        root().join("crates/cli/src/demo/hooks.json"),
    ];
    for file in &files {
        let config: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let errors = schema_errors(&v, &config);
        assert!(errors.is_empty(), "{}: {errors:#?}", file.display());
        assert_eq!(
            hookhost_errors(&config, Path::new("/project")),
            [] as [String; 0]
        );
    }
    let readme = readme_configs();
    assert!(
        readme.len() >= 2,
        "the README's config examples: {readme:#?}"
    );
    for config in &readme {
        let errors = schema_errors(&v, config);
        assert!(errors.is_empty(), "README: {config}: {errors:#?}");
        assert_eq!(
            hookhost_errors(config, Path::new("/project")),
            [] as [String; 0]
        );
    }
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
fn the_schema_and_hookhost_accept_the_same_valid_configs() {
    let v = validator();
    let hook = |event: &str, h: Value| json!({"hooks": {event: [h]}});
    let valid = [
        json!({}),
        json!({"hooks": {}}),
        json!({"$schema": "../schema/hooks.schema.json", "hooks": {"Stop": []}}),
        hook(
            "PreToolUse",
            json!({"command": "x", "match": "bash|shell", "timeout": 1}),
        ),
        hook(
            "PreToolUse",
            json!({"command": "x", "async": false, "onError": "block"}),
        ),
        hook(
            "PostToolUse",
            json!({"command": "x", "match": "edit", "async": true}),
        ),
        hook(
            "SessionEnd",
            json!({"command": "x", "async": true, "cwd": "sub", "description": "d"}),
        ),
        hook("Stop", json!({"command": "x", "timeout": MAX_TIMEOUT_MS})),
        hook(
            "PreToolUse",
            json!({"command": "hooks/g.wasm --strict 'two words'", "fuel": 1, "memory": MAX_MEMORY_MIB, "fs": "none", "env": ["HOME", "_X1"]}),
        ),
        hook(
            "PreToolUse",
            json!({"command": "\"hooks/my g.wasm\" a", "fs": "write"}),
        ),
        hook(
            "PreToolUse",
            json!({"url": "https://127.0.0.1/h", "headers": {"X-Token": "${T}", "A": "$5"}, "allowedEnv": ["T"]}),
        ),
        hook(
            "PreToolUse",
            json!({"package": {"ref": "oci://127.0.0.1:5000/hooks/g:1.0", "digest": format!("sha256:{}", "ab".repeat(32))}, "match": "bash", "fs": "none", "memory": 64}),
        ),
        hook(
            "Stop",
            json!({"package": {"ref": "g.wasm", "digest": "cd".repeat(32), "args": ["--strict"]}, "env": ["HOME"]}),
        ),
        json!({"disableAllHooks": true, "hooks": {"Stop": [{"command": "x"}]}}),
        hook(
            "PreToolUse",
            json!({"command": "x", "match": "Bash", "if": "Bash(git *)", "enabled": false}),
        ),
        hook("PostToolUse", json!({"command": "x", "if": "Edit(*.ts)"})),
        hook("Stop", json!({"command": "x", "enabled": true})),
        hook(
            "PreToolUse",
            json!({"command": "node", "args": ["${CLAUDE_PROJECT_DIR}/g.js", "a b"], "onFailure": "block", "statusMessage": "Checking"}),
        ),
        hook(
            "SessionStart",
            json!({"command": "echo ${A[0]}", "shell": "bash", "once": true, "onFailure": "continue", "onError": "warn"}),
        ),
        hook(
            "PostToolUse",
            json!({"command": "npm", "args": ["test"], "asyncRewake": true}),
        ),
    ];
    for config in &valid {
        assert_eq!(schema_errors(&v, config), [] as [String; 0], "{config}");
        assert_eq!(
            hookhost_errors(config, Path::new("/project")),
            [] as [String; 0],
            "{config}"
        );
    }
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
#[allow(clippy::too_many_lines)] // one scenario, read top to bottom
fn the_schema_and_hookhost_reject_the_same_invalid_configs() {
    let v = validator();
    let hook = |event: &str, h: Value| json!({"hooks": {event: [h]}});
    let invalid = [
        json!([]),
        json!({"hooks": []}),
        json!({"PreToolUse": []}),
        json!({"hooks": {"PreToolUse2": []}}),
        json!({"hooks": {"pretooluse": []}}),
        json!({"hooks": {"Stop": {"command": "x"}}}),
        hook("Stop", json!("x")),
        hook("Stop", json!({"comand": "x"})),
        hook("Stop", json!({"description": "neither command nor url"})),
        hook("Stop", json!({"command": "x", "url": "http://127.0.0.1/"})),
        hook("Stop", json!({"command": " "})),
        hook("Stop", json!({"command": 5})),
        hook("Stop", json!({"url": "ftp://x"})),
        hook("Stop", json!({"command": "x", "timeout": 0})),
        hook(
            "Stop",
            json!({"command": "x", "timeout": MAX_TIMEOUT_MS + 1}),
        ),
        hook("Stop", json!({"command": "x", "timeout": "5s"})),
        hook("Stop", json!({"command": "x", "timeout": 1.5})),
        hook("Stop", json!({"command": "x", "onError": "explode"})),
        hook("Stop", json!({"command": "x", "onFailure": "deny"})),
        hook("Stop", json!({"command": "x", "args": "a"})),
        hook("Stop", json!({"command": "x", "args": [], "shell": "bash"})),
        hook("Stop", json!({"command": "x", "shell": "zsh"})),
        hook("Stop", json!({"url": "http://127.0.0.1/", "args": ["a"]})),
        hook("Stop", json!({"command": "x", "once": "yes"})),
        hook("Stop", json!({"command": "x", "asyncRewake": true})),
        hook("PreToolUse", json!({"command": "x", "asyncRewake": true})),
        hook(
            "PostToolUse",
            json!({"url": "http://127.0.0.1/", "asyncRewake": true}),
        ),
        hook("Stop", json!({"command": "x", "async": "yes"})),
        hook("Stop", json!({"command": "x", "match": "bash"})),
        hook("SessionStart", json!({"command": "x", "match": "bash"})),
        hook("PreToolUse", json!({"command": "x", "async": true})),
        hook("Stop", json!({"command": "x", "async": true})),
        hook("SubagentStop", json!({"command": "x", "async": true})),
        hook("PreToolUse", json!({"command": "x", "fuel": 100})),
        // A grant is a command hook's too (it then runs sandboxed), but not an HTTP hook's.
        hook(
            "PreToolUse",
            json!({"url": "http://127.0.0.1:1/h", "fs": "none"}),
        ),
        hook(
            "PreToolUse",
            json!({"command": "x", "sandbox": false, "fs": "none"}),
        ),
        hook("PreToolUse", json!({"command": "x", "net": ["no-port"]})),
        hook("PreToolUse", json!({"command": "g.wasm", "fs": "all"})),
        hook("PreToolUse", json!({"command": "g.wasm", "memory": 0})),
        hook(
            "PreToolUse",
            json!({"command": "g.wasm", "memory": MAX_MEMORY_MIB + 1}),
        ),
        hook("PreToolUse", json!({"command": "g.wasm", "fuel": 0})),
        hook("PreToolUse", json!({"command": "g.wasm", "env": ["1BAD"]})),
        hook("PreToolUse", json!({"command": "g.wasm", "env": "HOME"})),
        hook("PreToolUse", json!({"command": "x", "headers": {"A": "b"}})),
        hook("Stop", json!({"package": {"ref": "oci://r/g:1"}})),
        hook(
            "Stop",
            json!({"package": {"ref": "oci://r/g:1", "digest": "sha256:abc"}}),
        ),
        hook(
            "Stop",
            json!({"package": {"ref": "oci://r/g:1", "digest": "ab".repeat(32), "tag": "x"}}),
        ),
        hook("Stop", json!({"package": "oci://r/g:1"})),
        hook(
            "Stop",
            json!({"package": {"ref": "oci://r/g:1", "digest": "ab".repeat(32)}, "headers": {"A": "b"}}),
        ),
        hook(
            "Stop",
            json!({"command": "g.wasm", "package": {"ref": "oci://r/g:1", "digest": "ab".repeat(32)}}),
        ),
        hook(
            "Stop",
            json!({"package": {"ref": "oci://r/g:1", "digest": "ab".repeat(32), "args": "x"}}),
        ),
        hook(
            "PreToolUse",
            json!({"url": "http://127.0.0.1/", "env": ["HOME"]}),
        ),
        hook(
            "PreToolUse",
            json!({"url": "http://127.0.0.1/", "headers": {"A": 1}}),
        ),
        hook(
            "PreToolUse",
            json!({"url": "http://127.0.0.1/", "allowedEnv": ["A-B"]}),
        ),
        hook(
            "PreToolUse",
            json!({"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}),
        ),
        json!({"disableAllHooks": "yes"}),
        hook("PreToolUse", json!({"command": "x", "enabled": "no"})),
        hook("Stop", json!({"command": "x", "if": "Bash"})),
        hook("SessionStart", json!({"command": "x", "if": "Bash"})),
        hook("PreToolUse", json!({"command": "x", "if": ""})),
    ];
    for config in &invalid {
        assert_ne!(
            schema_errors(&v, config),
            [] as [String; 0],
            "schema accepts {config}"
        );
        assert_ne!(
            hookhost_errors(config, Path::new("/project")),
            [] as [String; 0],
            "hookhost accepts {config}"
        );
    }
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
fn the_corpus_of_broken_configs_is_rejected() {
    let v = validator();
    let mut n = 0;
    for entry in std::fs::read_dir(root().join("tests/corpus"))
        .unwrap()
        .flatten()
    {
        let bytes = std::fs::read(entry.path()).unwrap();
        let Ok(config) = serde_json::from_slice::<Value>(&bytes) else {
            continue; // not JSON at all: nothing for a schema to say
        };
        assert!(
            !schema_errors(&v, &config).is_empty(),
            "{}",
            entry.path().display()
        );
        n += 1;
    }
    assert!(n >= 3);
}

#[test]
fn the_schema_has_the_events_keys_and_bounds_of_the_code() {
    let schema = schema();
    let events: BTreeSet<&str> = schema["properties"]["hooks"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(events, Event::ALL.map(Event::as_str).into_iter().collect());

    // hookhost lists its keys when an unknown one is nothing like them.
    let hook_keys: BTreeSet<String> = schema["$defs"]["hook"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    let errors = hookhost_errors(
        &json!({"hooks": {"Stop": [{"command": "x", "zzzzzzzz": 1}]}}),
        Path::new("/project"),
    );
    let listed = errors[0].split("allowed keys: ").nth(1).unwrap();
    let code_keys: BTreeSet<String> = listed.split(", ").map(str::to_string).collect();
    assert_eq!(hook_keys, code_keys);

    let field = |name: &str| &schema["$defs"]["hook"]["properties"][name];
    assert_eq!(field("timeout")["maximum"], json!(MAX_TIMEOUT_MS));
    assert_eq!(field("timeout")["default"], json!(DEFAULT_TIMEOUT_MS));
    assert_eq!(field("memory")["maximum"], json!(MAX_MEMORY_MIB));
    assert_eq!(field("memory")["default"], json!(DEFAULT_MEMORY_MIB));
}

// ---- The generated schemas of the wire formats (schema/*.schema.json but the two above) ----

/// Validates each (schema file under schema/, instance) pair with Python's `jsonschema`, and
/// each schema named against the draft 2020-12 meta-schema; the complaints, as text.
fn validate_all(pairs: &[(&str, Value)]) -> Vec<String> {
    use std::io::Write;
    const BATCH: &str = r#"
import json, sys
from jsonschema import Draft202012Validator as V
root = sys.argv[1]
for i, (name, instance) in enumerate(json.load(sys.stdin)):
    schema = json.load(open(f"{root}/{name}"))
    for e in V(V.META_SCHEMA).iter_errors(schema):
        print(f"{i}: {name} (meta): {e.message}")
    for e in V(schema).iter_errors(instance):
        print(f"{i}: {name}: {e.message} at {list(e.absolute_path)} in {json.dumps(instance)}")
"#;
    let mut child = std::process::Command::new(common::needs::python3())
        .args(["-c", BATCH])
        .arg(root().join("schema"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 (scripts/setup installs it with jsonschema)");
    let input =
        serde_json::to_string(&pairs.iter().map(|(n, v)| json!([n, v])).collect::<Vec<_>>())
            .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "python3 jsonschema failed (run scripts/setup, or `pip install jsonschema`): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Which of `pairs` the schemas refuse (by index).
fn refused(pairs: &[(&str, Value)]) -> BTreeSet<usize> {
    validate_all(pairs)
        .iter()
        .filter_map(|line| line.split(':').next()?.parse().ok())
        .collect()
}

fn payloads() -> Vec<hookhost::Payload> {
    use hookhost::Payload;
    let cwd = Path::new("/project");
    let mut all: Vec<Payload> = Event::ALL
        .into_iter()
        .map(|e| Payload::neutral(e, cwd, "s1"))
        .collect();
    all.push(Payload::post_tool_use(
        cwd,
        "s1",
        "edit_file",
        json!({"path": "a", "old": "x", "new": "y"}),
        json!({"ok": true}),
        true,
    ));
    let mut sub = Payload::pre_tool_use(cwd, "s1", "bash", json!({"command": "ls"}));
    sub.mark_subagent();
    all.push(sub);
    all
}

#[test]
fn every_rendered_payload_matches_its_dialects_schema() {
    use hookhost::Dialect;
    let mut pairs = Vec::new();
    for p in payloads() {
        for d in Dialect::ALL {
            // VS Code's and goose's payloads have no schema file (their docs give none), nor
            // opencode's (it is what hookhost's own plugin sends: tests/interop/opencode.rs),
            // nor Cline's and Windsurf's (their unit tests hold every rendered payload to the
            // documented ones, tests/fixtures/agents/{cline,windsurf}/).
            if matches!(
                d,
                Dialect::Vscode
                    | Dialect::Goose
                    | Dialect::Opencode
                    | Dialect::Cline
                    | Dialect::Windsurf
            ) {
                continue;
            }
            let v: Value = serde_json::from_slice(&hookhost::dialect::render(d, &p)).unwrap();
            pairs.push((
                match d {
                    Dialect::Native => "payload-native.schema.json",
                    Dialect::Claude => "payload-claude.schema.json",
                    Dialect::Codex => "payload-codex.schema.json",
                    Dialect::Gemini => "payload-gemini.schema.json",
                    Dialect::Ling => "payload-ling.schema.json",
                    Dialect::Cursor => "payload-cursor.schema.json",
                    Dialect::Copilot => "payload-copilot.schema.json",
                    // Claude Code's payload in the agent's tool names.
                    _ => "payload-claude.schema.json",
                },
                v,
            ));
        }
    }
    assert_eq!(validate_all(&pairs), [] as [String; 0]);
    // And the schemas say something: a payload without its event is refused.
    let broken = [
        (
            "payload-native.schema.json",
            json!({"cwd": "/p", "sessionId": "s"}),
        ),
        (
            "payload-claude.schema.json",
            json!({"cwd": "/p", "session_id": "s"}),
        ),
        (
            "payload-ling.schema.json",
            json!({"cwd": "/p", "event": "Stop", "sessionId": "s", "timestamp": "t", "toolCall": {"tool": 1}}),
        ),
    ];
    assert_eq!(refused(&broken).len(), 3, "{broken:?}");
}

fn report(event: Event) -> hookhost::EventReport {
    hookhost::EventReport {
        event,
        decision: hookhost::Decision::Pass,
        reason: None,
        updated_args: None,
        ask: false,
        ask_reason: None,
        defer: false,
        allow: false,
        stop: None,
        additional_context: Vec::new(),
        system_messages: Vec::new(),
        feedback: Vec::new(),
        updated_tool_output: None,
        env: Default::default(),
        updated_prompt: None,
        retry: false,
        worktree_path: None,
        elicitation: None,
        hooks: Vec::new(),
        untrusted: Vec::new(),
        config_errors: Vec::new(),
    }
}

#[test]
fn every_answer_to_an_agent_matches_its_schema() {
    use hookhost::{Decision, Dialect, StopRequest};
    let mut reports = Vec::new();
    for e in Event::ALL {
        let mut r = report(e);
        reports.push(r.clone());
        r.additional_context = vec!["ctx".into()];
        r.system_messages = vec!["msg".into()];
        r.feedback = vec!["fb".into()];
        r.stop = Some(StopRequest {
            reason: "halt".into(),
        });
        reports.push(r.clone());
        r.stop = None;
        r.decision = if e.takes_tool_matcher() || e == Event::UserPromptSubmit {
            Decision::Block
        } else {
            Decision::Force
        };
        r.reason = Some("no".into());
        reports.push(r.clone());
        r.decision = Decision::Pass;
        r.reason = None;
        r.ask = true;
        r.updated_args = Some(json!({"path": "a", "content": ""}));
        reports.push(r.clone());
        r.ask_reason = Some("confirm".into());
        r.updated_args = None;
        reports.push(r.clone());
        r.ask = false;
        r.ask_reason = None;
        r.defer = true;
        r.updated_tool_output = Some(json!({"stdout": "[redacted]"}));
        reports.push(r.clone());
        r.defer = false;
        r.updated_tool_output = None;
        r.updated_prompt = Some("a replaced prompt".into());
        r.retry = true;
        reports.push(r);
    }
    let mut pairs = Vec::new();
    for (d, schema) in [
        (Dialect::Claude, "answer-claude.schema.json"),
        (Dialect::Codex, "answer-codex.schema.json"),
        (Dialect::Gemini, "answer-gemini.schema.json"),
        (Dialect::Cursor, "answer-cursor.schema.json"),
        (Dialect::Copilot, "answer-copilot.schema.json"),
    ] {
        for r in &reports {
            let a = hookhost::dialect::respond(d, r, Some("write_file"));
            if !a.stdout.is_empty() {
                pairs.push((schema, serde_json::from_str(&a.stdout).unwrap()));
            }
        }
    }
    assert!(pairs.len() > 60);
    assert_eq!(validate_all(&pairs), [] as [String; 0]);
    let broken = [
        (
            "answer-codex.schema.json",
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}),
        ),
        ("answer-gemini.schema.json", json!({"decision": "block"})),
        // hookhost never answers "allow" (hooks can block, never bypass).
        ("answer-cursor.schema.json", json!({"permission": "allow"})),
        (
            "answer-copilot.schema.json",
            json!({"permissionDecision": "allow"}),
        ),
    ];
    assert_eq!(refused(&broken).len(), 4);
}

#[test]
fn the_answers_hookhost_reads_match_their_schemas() {
    let answers = [
        json!({"decision": "block", "reason": "no"}),
        json!({"blocked": true, "blockReason": "no", "modifiedParams": {"a": 1}}),
        json!({"continue": false, "stopReason": "halt", "suppressOutput": true, "systemMessage": "m"}),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "r", "updatedInput": {"a": 1}, "additionalContext": "c", "tool_input": {"b": 2}}}),
        json!({"additionalContext": "c", "unknownKey": 1}),
        // Cursor's and Copilot CLI's (tests/fixtures/dialects/).
        json!({"permission": "deny", "user_message": "u", "agent_message": "a"}),
        json!({"continue": false, "user_message": "u"}),
        json!({"followup_message": "go on"}),
        json!({"permissionDecision": "deny", "permissionDecisionReason": "r", "modifiedArgs": {"command": "ls"}}),
    ];
    for a in &answers {
        assert!(
            hookhost::parse_stdout(a.to_string().as_bytes(), false).is_ok(),
            "{a}"
        );
    }
    let mut pairs: Vec<(&str, Value)> = answers
        .iter()
        .map(|a| ("answer.schema.json", a.clone()))
        .collect();
    for a in [
        json!({"decision": "force", "reason": "more"}),
        json!({"updatedInput": {"a": 1}, "additionalContext": "c", "systemMessage": "m"}),
        json!(null),
    ] {
        assert!(hookhost::typed_answer(&a).is_ok(), "{a}");
        pairs.push(("client-answer.schema.json", a));
    }
    assert_eq!(validate_all(&pairs), [] as [String; 0]);
    let broken = [
        ("answer.schema.json", json!({"decision": "maybe"})),
        ("answer.schema.json", json!({"updatedInput": "rm"})),
        ("client-answer.schema.json", json!({"decision": "deny"})),
    ];
    for (_, a) in &broken[..2] {
        assert!(hookhost::parse_stdout(a.to_string().as_bytes(), false).is_err());
    }
    assert!(hookhost::typed_answer(&broken[2].1).is_err());
    assert_eq!(refused(&broken).len(), 3);
}

#[tokio::test]
async fn the_run_json_object_matches_its_schema() {
    use hookhost::{FnResponse, Payload, Runner};
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".coding-agent")).unwrap();
    std::fs::write(
        dir.path().join(".coding-agent/hooks.json"),
        r#"{"hooks": {"Stop": [{"comand": "x"}]}}"#,
    )
    .unwrap();
    let runner = Runner::builder(dir.path())
        .config_paths(ConfigPaths::with_home(dir.path(), None))
        .lenient()
        .hook(Event::PreToolUse, None, "rewrite", |_: &Payload| {
            FnResponse::update_input(json!({"command": "ls"}))
        })
        .hook(Event::PreToolUse, None, "guard", |_: &Payload| {
            FnResponse::block("no")
        })
        .build()
        .unwrap();
    let mut pairs = Vec::new();
    for p in payloads() {
        let report = runner.fire(p).await;
        pairs.push(("run.schema.json", hookhost::setup::report_json(&report)));
    }
    let pre = &pairs[2].1;
    assert_eq!(pre["decision"], "block", "{pre}");
    assert!(pre["configErrors"].is_array(), "{pre}");
    assert_eq!(validate_all(&pairs), [] as [String; 0]);
    let mut broken = pre.clone();
    broken["hooks"][0]["outcome"] = json!("maybe");
    assert_eq!(refused(&[("run.schema.json", broken)]).len(), 1);
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
fn doctor_json_validates_against_its_schema() {
    let p = common::Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "./missing.sh"}, {"command": ".coding-agent/bad.wasm"}]}}));
    p.write(".coding-agent/bad.wasm", "not wasm");
    p.write(".claude/settings.json", "{not json");
    let settings = p.home.path().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(
        &settings,
        std::fs::read_to_string(root().join("plugins/claude/hooks/hooks.json")).unwrap(),
    )
    .unwrap();
    let mut pairs = Vec::new();
    for trust in ["all", "skip", "block"] {
        let out = p.cli(&["doctor", "--json"], &[("HOOKHOST_TRUST", trust)]);
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        pairs.push(("doctor.schema.json", report));
    }
    // Every severity and both kinds of wiring are in what was validated.
    let text = serde_json::to_string(&pairs).unwrap();
    for word in [r#""error""#, r#""ok""#, r#""info""#, r#""settings""#] {
        assert!(text.contains(word), "{word}: {text}");
    }
    assert_eq!(validate_all(&pairs), [] as [String; 0]);
    let mut broken = pairs[0].1.clone();
    broken["sections"][0]["findings"][0]["severity"] = json!("fatal");
    assert_eq!(refused(&[("doctor.schema.json", broken)]).len(), 1);
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
fn list_and_check_json_validate_against_their_schemas() {
    // Every shape of a listed hook: shell (matched, described, `if`), wasm (its limits), HTTP,
    // a duplicate, a disabled one, and a broken entry (list's `errors`, check's errors).
    let p = common::Project::new(json!({"hooks": {
        "PreToolUse": [
            {"command": "./missing.sh", "match": "bash", "description": "guard", "if": "Bash(rm *)"},
            {"command": "./missing.sh", "if": "Bash(rm *)"},
            {"command": ".coding-agent/bad.wasm", "fuel": 1000, "fs": "none"},
            {"command": "echo off", "enabled": false},
            {"comand": "typo"}
        ],
        "PostToolUse": [{"url": "http://127.0.0.1:9/audit", "async": true}]
    }}));
    p.write(".coding-agent/bad.wasm", "not wasm");
    let listed = p.cli(&["list", "--json"], &[]);
    assert_eq!(listed.status.code(), Some(1), "{listed:?}");
    let list: Value = serde_json::from_slice(&listed.stdout).unwrap();
    let checked = p.cli(&["check", "--json"], &[]);
    assert_eq!(checked.status.code(), Some(1), "{checked:?}");
    let check: Value = serde_json::from_slice(&checked.stdout).unwrap();
    // What was validated has each optional part.
    let text = list.to_string();
    for word in [
        "duplicateOf",
        "disabledBy",
        r#""fuel":1000"#,
        r#""if":"Bash(rm *)""#,
    ] {
        assert!(text.contains(word), "{word}: {text}");
    }
    assert!(!list["errors"].as_array().unwrap().is_empty(), "{list}");
    assert!(!check["errors"].as_array().unwrap().is_empty(), "{check}");
    let pairs = [("list.schema.json", list), ("check.schema.json", check)];
    assert_eq!(validate_all(&pairs), [] as [String; 0]);
    let mut broken_list = pairs[0].1.clone();
    broken_list["hooks"][0]["kind"] = json!("lambda");
    let mut broken_check = pairs[1].1.clone();
    broken_check["hooks"] = json!("many");
    assert_eq!(
        refused(&[
            ("list.schema.json", broken_list),
            ("check.schema.json", broken_check)
        ])
        .len(),
        2
    );
}
