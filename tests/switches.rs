//! Switches, config sources, dedupe and matchers, through the real `hookhost` binary with
//! real files and real shell hooks: Gemini CLI's `hooksConfig` (and its keys skipped inside
//! `hooks`), Codex's `config.toml` hooks and switches, native `"enabled": false` and
//! `"disableAllHooks"` within their rank, identical handlers run once, Claude Code's `if`
//! (and the native one), and a native `match` that names another agent's tool.

#[path = "common/mod.rs"]
mod common;

use common::Project;
use serde_json::{Value, json};
use std::path::Path;

/// `hookhost run PreToolUse --tool bash --args {"command": COMMAND} --json`: exit code and
/// the report.
fn bash(p: &Project, command: &str) -> (i32, Value) {
    let args = json!({ "command": command }).to_string();
    run(p, &["PreToolUse", "--tool", "bash", "--args", &args])
}

fn run(p: &Project, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = p.cli(&all, &[]);
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "run printed no JSON: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), report)
}

fn list(p: &Project) -> Value {
    let out = p.cli(&["list", "--json"], &[]);
    serde_json::from_slice(&out.stdout).unwrap()
}

fn check(p: &Project) -> (i32, Value) {
    let out = p.cli(&["check", "--json"], &[]);
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_slice(&out.stdout).unwrap(),
    )
}

fn write_home(p: &Project, rel: &str, text: &str) -> std::path::PathBuf {
    let path = p.home.path().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

/// A shell hook that blocks with `tag` on stderr.
fn blocker(tag: &str) -> String {
    format!("cat >/dev/null; echo {tag} >&2; exit 2")
}

fn messages(list: &Value) -> String {
    list.as_array()
        .map(|l| {
            l.iter()
                .map(|e| format!("{} {}\n", e["hook"], e["message"]))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn gemini_hooks_config_switches_and_keys_skipped_inside_hooks() {
    // Valid settings with `hooks.notifications` alone: no config error, nothing blocks.
    let p = Project::new(json!({}));
    p.write(
        ".gemini/settings.json",
        r#"{"hooks": {"notifications": true}}"#,
    );
    let (code, r) = bash(&p, "ls");
    assert_eq!(code, 0, "{r}");
    assert!(
        r["configErrors"].as_array().is_none_or(Vec::is_empty),
        "{r}"
    );

    let p = Project::new(json!({}));
    p.write(
        ".gemini/settings.json",
        &json!({
            "hooksConfig": {"enabled": true, "disabled": ["by-name", "touch by-command"], "notifications": false},
            "hooks": {"enabled": false, "notifications": true, "disabled": [],
              "BeforeTool": [{"matcher": "run_shell_command", "hooks": [
                {"name": "guard", "type": "command", "command": blocker("gemini-guard")},
                {"name": "by-name", "type": "command", "command": "touch by-name"},
                {"type": "command", "command": "touch by-command"}]}]}})
        .to_string(),
    );
    // Valid Gemini settings are no config error: `check` passes, with warnings.
    let (code, report) = check(&p);
    assert_eq!(code, 0, "{report}");
    let warnings = messages(&report["warnings"]);
    for key in ["hooks.enabled", "hooks.notifications", "hooks.disabled"] {
        assert!(warnings.contains(key), "{key} not warned: {warnings}");
    }
    assert_eq!(
        (&report["hooks"], &report["disabled"]),
        (&json!(1), &json!(2))
    );
    let listed = list(&p);
    assert_eq!(listed["hooks"].as_array().unwrap().len(), 1, "{listed}");
    let disabled = listed["disabled"].as_array().unwrap();
    assert!(
        disabled
            .iter()
            .all(|d| d["why"].as_str().unwrap().contains("hooksConfig")),
        "{listed}"
    );
    // `hooks.enabled: false` is skipped: the guard runs, the disabled ones do not.
    let (code, r) = bash(&p, "rm -rf build");
    assert_eq!(
        (code, r["reason"].as_str()),
        (2, Some("gemini-guard")),
        "{r}"
    );
    assert!(!p.path().join("by-name").exists() && !p.path().join("by-command").exists());

    // The user's `hooksConfig.enabled: false` turns the project's Gemini hooks off too.
    let user = write_home(
        &p,
        ".gemini/settings.json",
        r#"{"hooksConfig": {"enabled": false}}"#,
    );
    let (code, r) = bash(&p, "rm -rf build");
    assert_eq!(code, 0, "{r}");
    let listed = list(&p);
    assert!(listed["hooks"].as_array().unwrap().is_empty(), "{listed}");
    assert_eq!(listed["disabled"][0]["disabledBy"], json!(user), "{listed}");
}

const CODEX_TOML: &str = r#"
model = "gpt-5"
model_provider = "local"

[model_providers.local]
name = "scripted"
base_url = "http://127.0.0.1:9/v1"
wire_api = "responses"

[[hooks.PreToolUse]]
matcher = "Bash"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "cat >/dev/null; echo codex-toml-guard >&2; exit 2"
timeout = 5
"#;

#[test]
fn a_codex_config_toml_hook_blocks_and_its_switches_turn_it_off() {
    let p = Project::new(json!({}));
    let file = p.write(".codex/config.toml", CODEX_TOML);
    let (code, r) = bash(&p, "rm -rf build");
    assert_eq!(
        (code, r["reason"].as_str()),
        (2, Some("codex-toml-guard")),
        "{r}"
    );
    assert_eq!(r["hooks"][0]["dialect"], "codex");
    let listed = list(&p);
    assert_eq!(listed["hooks"][0]["file"], json!(file), "{listed}");
    assert!(
        listed["files"].as_array().unwrap().contains(&json!(file)),
        "{listed}"
    );
    // Not Bash: not matched.
    let (code, _) = run(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "read_file",
            "--args",
            r#"{"path":"a"}"#,
        ],
    );
    assert_eq!(code, 0);

    // The user's `[hooks.state]` turns that one hook off, by Codex's key for it.
    let key = format!("{}:pre_tool_use:0:0", file.display());
    write_home(
        &p,
        ".codex/config.toml",
        &format!("[hooks.state.{key:?}]\nenabled = false\n"),
    );
    let (code, r) = bash(&p, "rm -rf build");
    assert_eq!(code, 0, "{r}");
    // A project's own [hooks.state] is not read (Codex reads the user's only).
    write_home(&p, ".codex/config.toml", "");
    p.write(
        ".codex/config.toml",
        &format!("{CODEX_TOML}\n[hooks.state.{key:?}]\nenabled = false\n"),
    );
    assert_eq!(bash(&p, "ls").0, 2);
    // The user's `[features] hooks = false` turns every Codex hook off.
    write_home(&p, ".codex/config.toml", "[features]\nhooks = false\n");
    let (code, r) = bash(&p, "rm -rf build");
    assert_eq!(code, 0, "{r}");
    assert_eq!(list(&p)["disabled"].as_array().unwrap().len(), 1);
}

#[test]
fn a_broken_codex_config_toml_is_an_error_of_that_file_only() {
    let p = Project::new(json!({"hooks": {"PostToolUse": [{"command": "touch native-ran"}]}}));
    let file = p.write(
        ".codex/config.toml",
        "model = \"gpt-5\"\n[[hooks.PreToolUse]\n",
    );
    let (code, report) = check(&p);
    assert_eq!(code, 1, "{report}");
    let e = &report["errors"][0];
    assert_eq!(e["file"], json!(file), "{report}");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("invalid TOML at line 2"),
        "{report}"
    );
    // PreToolUse fails closed; the other files' hooks still run.
    assert_eq!(bash(&p, "ls").0, 2);
    let (code, _) = run(&p, &["PostToolUse", "--tool", "bash", "--args", "{}"]);
    assert_eq!(code, 0);
    assert!(p.path().join("native-ran").exists());
}

#[test]
fn a_native_hook_with_enabled_false_does_not_run_and_is_listed_and_counted() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": blocker("off"), "enabled": false, "description": "paused guard"},
        {"command": "cat >/dev/null; touch on-ran"}]}}));
    let (code, r) = bash(&p, "ls");
    assert_eq!(code, 0, "{r}");
    assert!(p.path().join("on-ran").exists());
    let listed = list(&p);
    assert_eq!(
        listed["disabled"][0]["why"], "\"enabled\": false",
        "{listed}"
    );
    assert_eq!(listed["disabled"][0]["hook"], "PreToolUse[0]");
    let (code, report) = check(&p);
    assert_eq!((code, &report["disabled"]), (0, &json!(1)), "{report}");
    let out = p.cli(&["check"], &[]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("1 disabled"),
        "{out:?}"
    );
    let out = p.cli(&["list"], &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("disabled (not run):") && text.contains("\"enabled\": false"),
        "{text}"
    );
}

#[test]
fn disable_all_hooks_reaches_its_rank_and_below_never_managed_hooks() {
    // A project file cannot turn off the user's guard.
    let p = Project::new(json!({"disableAllHooks": true,
        "hooks": {"PreToolUse": [{"command": "cat >/dev/null; touch project-ran"}]}}));
    p.write_global(json!({"hooks": {"PreToolUse": [{"command": blocker("user-guard")}]}}));
    let (code, r) = bash(&p, "ls");
    assert_eq!((code, r["reason"].as_str()), (2, Some("user-guard")), "{r}");
    assert!(!p.path().join("project-ran").exists());

    // The user's file turns off the project's hooks (and its own).
    let p = Project::new(json!({"hooks": {"PreToolUse": [{"command": blocker("project-guard")}]}}));
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": blocker("claude-guard")}]}]}})
        .to_string(),
    );
    p.write_global(json!({"disableAllHooks": true}));
    let (code, r) = bash(&p, "ls");
    assert_eq!(code, 0, "{r}");
    let listed = list(&p);
    assert_eq!(listed["disabled"].as_array().unwrap().len(), 2, "{listed}");

    // Never managed hooks: the managed guard still blocks.
    p.write_managed(json!({"hooks": {"PreToolUse": [{"command": blocker("managed-guard")}]}}));
    let (code, r) = bash(&p, "ls");
    assert_eq!(
        (code, r["reason"].as_str()),
        (2, Some("managed-guard")),
        "{r}"
    );
}

#[test]
fn claudes_disable_all_hooks_turns_off_claude_hooks_of_its_rank_and_below() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [{"command": "true"}]}}));
    let claude_guard = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": blocker("user-claude-guard")}]}]}});
    write_home(&p, ".claude/settings.json", &claude_guard.to_string());
    p.write(
        ".claude/settings.json",
        &json!({"disableAllHooks": true, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": blocker("project-claude-guard")}]}]}})
        .to_string(),
    );
    // The project's switch turns off the project's Claude hooks, not the user's, and never a
    // native hook: `check` says where hookhost differs from Claude Code.
    let (code, r) = bash(&p, "ls");
    assert_eq!(
        (code, r["reason"].as_str()),
        (2, Some("user-claude-guard")),
        "{r}"
    );
    let listed = list(&p);
    let running: Vec<&str> = listed["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["dialect"].as_str().unwrap())
        .collect();
    assert_eq!(running, ["claude", "native"], "{listed}");
    assert_eq!(listed["disabled"][0]["dialect"], "claude", "{listed}");
    let (_, report) = check(&p);
    assert!(
        messages(&report["warnings"]).contains("would turn off the user's too"),
        "{report}"
    );
}

#[test]
fn an_identical_handler_in_the_users_and_the_projects_file_runs_once() {
    let counter = "cat >/dev/null; echo ran >> count.log";
    let p = Project::new(json!({"hooks": {"PreToolUse": [{"command": counter}]}}));
    p.write_global(json!({"hooks": {"PreToolUse": [{"command": counter}]}}));
    let (code, r) = bash(&p, "ls");
    assert_eq!(code, 0, "{r}");
    assert_eq!(p.read("count.log"), "ran\n");
    assert_eq!(r["hooks"].as_array().unwrap().len(), 1, "{r}");
    assert_eq!(r["hooks"][0]["source"], "global", "{r}");
    let listed = list(&p);
    let project = &listed["hooks"][1];
    assert_eq!(project["source"], "project", "{listed}");
    assert_eq!(project["duplicateOf"]["hook"], "PreToolUse[0]", "{listed}");
    assert_eq!(
        project["duplicateOf"]["file"],
        json!(p.home.path().join(".coding-agent/hooks.json")),
        "{listed}"
    );
    let out = p.cli(&["list"], &[]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("duplicate of PreToolUse[0]"),
        "{out:?}"
    );
}

const BLOCK_RM: &str =
    "#!/bin/sh\ncat >/dev/null\ntouch block-rm-started\necho 'rm is not allowed' >&2\nexit 2\n";

#[test]
fn claudes_if_does_not_start_block_rm_on_ls() {
    let p = Project::new(json!({}));
    let script = p.write(".claude/hooks/block-rm.sh", BLOCK_RM);
    make_executable(&script);
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "if": "Bash(rm *)", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/block-rm.sh"}]}]}})
        .to_string(),
    );
    let (code, r) = bash(&p, "ls -la");
    assert_eq!(code, 0, "{r}");
    assert!(r["hooks"].as_array().unwrap().is_empty(), "{r}");
    assert!(!p.path().join("block-rm-started").exists());
    let (code, r) = bash(&p, "cd build && rm -rf dist");
    assert_eq!(
        (code, r["reason"].as_str()),
        (2, Some("rm is not allowed")),
        "{r}"
    );
    assert_eq!(list(&p)["hooks"][0]["if"], "Bash(rm *)");
}

#[test]
fn a_native_if_reads_the_tool_through_the_alias_map() {
    for rule in ["bash(git *)", "Bash(git *)"] {
        let p = Project::new(json!({"hooks": {"PreToolUse": [
            {"command": blocker("no-git"), "if": rule}]}}));
        assert_eq!(bash(&p, "git push").0, 2, "{rule}");
        assert_eq!(bash(&p, "ls").0, 0, "{rule}");
    }
}

#[test]
fn a_malformed_if_is_a_config_error_with_its_place() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "true"},
        {"command": "true", "if": "Bash(git *"}],
        "Stop": [{"command": "true", "if": "Bash"}]}}));
    let (code, report) = check(&p);
    assert_eq!(code, 1, "{report}");
    let errors = messages(&report["errors"]);
    assert!(
        errors.contains("PreToolUse[1]") && errors.contains("closing"),
        "{errors}"
    );
    assert!(
        errors.contains("Stop[0]") && errors.contains("tool events"),
        "{errors}"
    );
    // Fail closed until it is fixed.
    assert_eq!(bash(&p, "ls").0, 2);
}

#[test]
fn a_native_match_naming_claudes_tool_matches_the_core_tool() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": blocker("bash-guard"), "match": "Bash"},
        {"command": blocker("edit-guard"), "match": "Edit|MultiEdit|Write"}]}}));
    let (code, r) = bash(&p, "rm -rf /");
    assert_eq!((code, r["reason"].as_str()), (2, Some("bash-guard")), "{r}");
    let (code, r) = run(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "Bash",
            "--args",
            r#"{"command":"x"}"#,
        ],
    );
    assert_eq!((code, r["reason"].as_str()), (2, Some("bash-guard")), "{r}");
    let (code, r) = run(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "write_file",
            "--args",
            r#"{"path":"a","content":""}"#,
        ],
    );
    assert_eq!((code, r["reason"].as_str()), (2, Some("edit-guard")), "{r}");
    // `check` says so, once per pattern.
    let (code, report) = check(&p);
    assert_eq!(code, 0, "{report}");
    let warnings = messages(&report["warnings"]);
    assert_eq!(
        warnings.matches("as the core's `bash`").count(),
        1,
        "{warnings}"
    );
    assert!(
        warnings.contains("`Edit` as the core's `edit_file`")
            && warnings.contains("`Write` as the core's `write_file`"),
        "{warnings}"
    );
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}
