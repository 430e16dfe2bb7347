//! opencode: hookhost's plugin (`plugins/opencode/hookhost.js`) under node, against the real
//! binary, as opencode would call it: `tool.execute.before(input, output)` with the call,
//! `tool.execute.after` with its result. The guard is the user's own native hook (a shell
//! script in `~/.coding-agent/hooks.json`, trusted as the user's files are); `hookhost` on
//! the plugin's `PATH` is a wrapper that names the test's home with `--home`, as the
//! real-agents tier does. A blocked call throws with the guard's reason, a harmless one runs,
//! a rewrite reaches opencode's `output.args`, context reaches the tool's result, and when
//! hookhost cannot run or answer the call is blocked and the error says so. The payload of
//! the plugin (tests/fixtures/agents/opencode/) through the adapter alone is the fast tier.

use crate::common::Project;
use crate::corpus::{adapter, make_executable};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Drives the plugin as opencode does: `node driver.mjs PLUGIN DIR TOOL ARGS_JSON`, one call
/// before and (when it ran) after; prints what happened as one JSON line.
const DRIVER: &str = r#"
import { pathToFileURL } from "node:url";
const [plugin, dir, tool, args] = process.argv.slice(2);
const { HookhostPlugin } = await import(pathToFileURL(plugin).href);
const hooks = await HookhostPlugin({ directory: dir, worktree: dir });
const input = { tool, sessionID: "ses_test", callID: "call_1" };
const before = { args: JSON.parse(args) };
try {
  await hooks["tool.execute.before"](input, before);
} catch (e) {
  console.log(JSON.stringify({ thrown: e.message }));
  process.exit(0);
}
const after = { title: tool, output: "tool output", metadata: {} };
await hooks["tool.execute.after"](input, after);
console.log(JSON.stringify({ args: before.args, output: after.output }));
"#;

/// The user's guard: blocks `rm -rf` with stderr, leaves a mark that it ran.
const GUARD: &str = r#"#!/bin/sh
input=$(cat)
touch "$HOOK_PROJECT_DIR/guard-ran"
case "$input" in
  *'rm -rf'*) echo "rm -rf is blocked by the user's guard" >&2; exit 2 ;;
esac
exit 0
"#;

/// A project whose user (its `--home`) has `hooks` in `~/.coding-agent/hooks.json`, and a
/// directory to put on the plugin's `PATH`.
struct Setup {
    p: Project,
    bin: PathBuf,
}

fn setup(hooks: Value) -> Setup {
    let p = Project::new(json!({"hooks": {}}));
    p.write_global(json!({ "hooks": hooks }));
    let bin = p.path().join(".bin");
    std::fs::create_dir_all(&bin).unwrap();
    Setup { p, bin }
}

impl Setup {
    /// `name` on the plugin's `PATH`: the real hookhost with this test's `--home`.
    fn wire(&self, name: &str) {
        let script = format!(
            "#!/bin/sh\nexec '{}' --home '{}' \"$@\"\n",
            env!("CARGO_BIN_EXE_hookhost"),
            self.p.home.path().display()
        );
        std::fs::write(self.bin.join(name), script).unwrap();
        make_executable(&self.bin.join(name));
    }

    /// What the plugin did with one `tool` call with `args`.
    fn call(&self, tool: &str, args: Value) -> Value {
        let node = crate::common::needs::node();
        let dir = self.p.path().join(".driver");
        std::fs::create_dir_all(&dir).unwrap();
        let plugin =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../plugins/opencode/hookhost.js");
        // Node 20 reads a `.js` file as CommonJS outside a `"type": "module"` package.
        std::fs::copy(&plugin, dir.join("hookhost.mjs")).unwrap();
        std::fs::write(dir.join("driver.mjs"), DRIVER).unwrap();
        let out = Command::new(node)
            .arg(dir.join("driver.mjs"))
            .arg(dir.join("hookhost.mjs"))
            .arg(self.p.path())
            .arg(tool)
            .arg(args.to_string())
            .current_dir(self.p.path())
            .env_clear()
            .env("PATH", format!("{}:/usr/bin:/bin", self.bin.display()))
            .env("HOOKHOST_CACHE_DIR", self.p.cache.path())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "node: {stdout}\n{stderr}");
        serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"))
    }
}

fn guarded() -> Setup {
    let s = setup(json!({}));
    let guard = s.p.home.path().join("guard.sh");
    std::fs::write(&guard, GUARD).unwrap();
    make_executable(&guard);
    s.p.write_global(json!({"hooks": {"PreToolUse": [
        {"match": "bash", "command": guard.display().to_string()}
    ]}}));
    s.wire("hookhost");
    s
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: node, then --features hookhost-cli/interpreters"
)]
fn the_plugin_throws_the_guards_reason_and_lets_a_harmless_call_run() {
    let s = guarded();
    let r = s.call(
        "bash",
        json!({"command": "rm -rf /tmp/x", "description": "x"}),
    );
    let thrown = r["thrown"].as_str().unwrap_or_else(|| panic!("{r}"));
    assert!(
        thrown.contains("rm -rf is blocked by the user's guard"),
        "{r}"
    );

    let s = guarded();
    let r = s.call("bash", json!({"command": "ls", "description": "list"}));
    assert_eq!(r["args"]["command"], "ls", "{r}");
    assert_eq!(r["output"], "tool output", "{r}");
    assert!(
        s.p.path().join("guard-ran").exists(),
        "the guard did not run"
    );
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: node, then --features hookhost-cli/interpreters"
)]
fn a_rewrite_reaches_opencodes_args_and_context_its_result() {
    let s = setup(json!({
        "PreToolUse": [{"match": "write_file", "command":
            "cat >/dev/null; echo '{\"updatedInput\": {\"path\": \"safe.txt\", \"content\": \"x\"}}'"}],
        "PostToolUse": [{"match": "write_file", "command":
            "cat >/dev/null; echo '{\"additionalContext\": \"remember the tests\"}'"}]
    }));
    s.wire("hookhost");
    let r = s.call("write", json!({"filePath": "/etc/passwd", "content": "x"}));
    assert_eq!(
        r["args"],
        json!({"filePath": "safe.txt", "content": "x"}),
        "{r}"
    );
    let output = r["output"].as_str().unwrap_or_default();
    assert!(
        output.starts_with("tool output") && output.contains("remember the tests"),
        "{r}"
    );
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: node, then --features hookhost-cli/interpreters"
)]
fn without_hookhost_or_its_answer_the_call_is_blocked_and_the_error_says_why() {
    let s = setup(json!({}));
    let r = s.call("bash", json!({"command": "ls"}));
    let thrown = r["thrown"].as_str().unwrap_or_else(|| panic!("{r}"));
    assert!(
        thrown.contains("fail closed")
            && thrown.contains("neither hookhost-warm nor hookhost is on PATH"),
        "{r}"
    );

    let s = setup(json!({}));
    std::fs::write(s.bin.join("hookhost"), "#!/bin/sh\necho not json\n").unwrap();
    make_executable(&s.bin.join("hookhost"));
    let r = s.call("bash", json!({"command": "ls"}));
    let thrown = r["thrown"].as_str().unwrap_or_else(|| panic!("{r}"));
    assert!(
        thrown.contains("fail closed") && thrown.contains("not a JSON object"),
        "{r}"
    );
}

/// issue 43's order: `hookhost-warm` first when it is on `PATH`.
#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: node, then --features hookhost-cli/interpreters"
)]
fn the_warm_client_is_preferred() {
    let s = guarded();
    let mark = s.p.path().join("warm-ran");
    std::fs::write(
        s.bin.join("hookhost-warm"),
        format!(
            "#!/bin/sh\ntouch '{}'\nexec '{}' \"$@\"\n",
            mark.display(),
            s.bin.join("hookhost").display()
        ),
    )
    .unwrap();
    make_executable(&s.bin.join("hookhost-warm"));
    let r = s.call("bash", json!({"command": "rm -rf /tmp/x"}));
    assert!(
        r["thrown"]
            .as_str()
            .is_some_and(|t| t.contains("rm -rf is blocked")),
        "{r}"
    );
    assert!(mark.exists(), "hookhost-warm was not used");
}

fn fixture(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/agents/opencode")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// The plugin's payload (tests/fixtures/agents/opencode/) through the adapter alone: a
/// project guard blocks in opencode's answer, a harmless call gets nothing to apply.
#[test]
fn the_adapter_answers_the_plugins_payload() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"match": "bash", "command": "./guard.sh"}
    ]}}));
    make_executable(&p.write("guard.sh", GUARD));
    let mut payload = fixture("payload-PreToolUse.json");
    payload["cwd"] = json!(p.path());
    let (code, answer, stderr) = adapter(&p, "opencode", &payload);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(answer["block"], true, "{answer}");
    assert!(
        answer["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("rm -rf is blocked"),
        "{answer}"
    );
    payload["args"]["command"] = json!("ls");
    let (code, answer, stderr) = adapter(&p, "opencode", &payload);
    assert_eq!((code, answer), (0, Value::Null), "{stderr}");
    assert!(p.path().join("guard-ran").exists());

    let mut after = fixture("payload-PostToolUse.json");
    after["cwd"] = json!(p.path());
    let (code, _, stderr) = adapter(&p, "opencode", &after);
    assert_eq!(code, 0, "{stderr}");
}
