//! `hookhost doctor`: the real binary on a temporary HOME and project. What is wired where
//! (settings files, the Claude Code plugin as Claude Code 2.1.332 installs it), hooks that
//! cannot run (named by file, event and index), a cache directory others can write, untrusted
//! hooks, and hostile files reported rather than crashed on.

mod common;

use common::Project;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Output;

/// `PATH` with the built `hookhost` first (the agents run it by name).
fn path_with_hookhost() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_hookhost")).parent().unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn doctor(p: &Project, extra: &[&str], env: &[(&str, &str)]) -> (Output, Value) {
    let path = path_with_hookhost();
    let mut env = env.to_vec();
    env.push(("PATH", &path));
    let mut args = vec!["doctor", "--json"];
    args.extend(extra);
    let out = p.cli(&args, &env);
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out, json)
}

fn human(p: &Project, env: &[(&str, &str)]) -> (Output, String) {
    let path = path_with_hookhost();
    let mut env = env.to_vec();
    env.push(("PATH", &path));
    let out = p.cli(&["doctor"], &env);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, text)
}

/// The findings of section `id`.
fn findings<'a>(report: &'a Value, id: &str) -> &'a Vec<Value> {
    report["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("no section {id}: {report:#}"))["findings"]
        .as_array()
        .unwrap()
}

fn with(report: &Value, id: &str, severity: &str) -> Vec<Value> {
    findings(report, id)
        .iter()
        .filter(|f| f["severity"] == severity)
        .cloned()
        .collect()
}

fn agent<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agent"] == name)
        .unwrap()
}

/// The Claude Code plugin's hooks object (every event Claude fires, `hookhost hook --for
/// claude`), as a user would paste it into a settings file.
fn claude_plugin_hooks() -> Value {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../plugins/claude/hooks/hooks.json"),
    )
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

fn write_home(p: &Project, rel: &str, text: &str) -> PathBuf {
    let path = p.home.path().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn nothing_wired_is_said_per_agent_and_is_not_an_error() {
    let p = Project::new(json!({"hooks": {}}));
    let (out, report) = doctor(&p, &[], &[]);
    assert_eq!(out.status.code(), Some(0), "{report:#}");
    assert_eq!(report["version"], 1);
    for name in ["claude", "codex", "gemini"] {
        let a = agent(&report, name);
        let events = a["events"].as_array().unwrap();
        assert!(!events.is_empty());
        assert!(events.iter().all(|e| e["wiredVia"] == json!([])), "{a:#}");
    }
    let agents = with(&report, "agents", "info");
    assert_eq!(agents.len(), 14, "{report:#}");
    assert!(agents[0]["what"].as_str().unwrap().contains("Claude Code"));
    assert!(
        agents[0]["fix"]
            .as_str()
            .unwrap()
            .contains("claude plugin install")
    );
    for section in ["agents", "hooks", "trust", "directories", "toolchains"] {
        assert!(
            with(&report, section, "error").is_empty(),
            "{section}: {report:#}"
        );
    }
    let (out, text) = human(&p, &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text.contains("Claude Code (") && text.contains("hookhost is not wired in"),
        "{text}"
    );
    assert!(text.contains("0 errors, 0 warnings"), "{text}");
    assert!(!text.contains('\x1b'), "no colour into a pipe: {text}");
}

#[test]
fn claude_wired_in_its_settings_file_is_reported_per_event() {
    let p = Project::new(json!({"hooks": {}}));
    let settings = write_home(
        &p,
        ".claude/settings.json",
        &claude_plugin_hooks().to_string(),
    );
    let (out, report) = doctor(&p, &[], &[]);
    assert_eq!(out.status.code(), Some(0), "{report:#}");
    let claude = agent(&report, "claude");
    let events = claude["events"].as_array().unwrap();
    // Every event but WorktreeCreate and WorktreeRemove (PreSkillShellCommand included).
    assert_eq!(events.len(), 32, "{claude:#}");
    for e in events {
        let via = e["wiredVia"].as_array().unwrap();
        assert_eq!(via.len(), 1, "{e:#}");
        assert_eq!(via[0]["kind"], "settings");
        assert_eq!(via[0]["file"], json!(settings));
        assert_eq!(
            via[0]["command"],
            hookhost::dialect::adapter_command("claude"),
            "the plugin wires the static client, else hookhost"
        );
    }
    let ok = with(&report, "agents", "ok");
    assert!(
        ok[0]["what"]
            .as_str()
            .unwrap()
            .contains("adapter wired for 32 of 32 events"),
        "{report:#}"
    );
    // The adapter's own entries are not hooks that cannot run.
    assert!(with(&report, "hooks", "warning").is_empty(), "{report:#}");

    // Half of them: the other events are named as not reaching hookhost.
    let mut half = claude_plugin_hooks();
    let hooks = half["hooks"].as_object_mut().unwrap();
    hooks.remove("Stop");
    hooks.remove("SessionEnd");
    write_home(&p, ".claude/settings.json", &half.to_string());
    let (out, report) = doctor(&p, &[], &[]);
    assert_eq!(out.status.code(), Some(0), "warnings only: {report:#}");
    let w = with(&report, "agents", "warning");
    assert_eq!(w.len(), 1, "{report:#}");
    let what = w[0]["what"].as_str().unwrap();
    assert!(
        what.contains("Stop") && what.contains("SessionEnd"),
        "{what}"
    );
}

#[test]
fn the_claude_plugin_as_claude_installs_it_is_found_and_twice_is_a_warning() {
    let p = Project::new(json!({"hooks": {}}));
    // The layout Claude Code 2.1.332 leaves after `claude plugin install hookhost@hookhost`.
    let install = p
        .home
        .path()
        .join(".claude/plugins/cache/hookhost/hookhost/0.1.0");
    write_home(
        &p,
        ".claude/plugins/cache/hookhost/hookhost/0.1.0/hooks/hooks.json",
        &claude_plugin_hooks().to_string(),
    );
    write_home(
        &p,
        ".claude/plugins/installed_plugins.json",
        &json!({"version": 2, "plugins": {"hookhost@hookhost": [
            {"scope": "user", "installPath": install, "version": "0.1.0"}]}})
        .to_string(),
    );
    write_home(
        &p,
        ".claude/settings.json",
        &json!({"enabledPlugins": {"hookhost@hookhost": true}}).to_string(),
    );
    let (out, report) = doctor(&p, &[], &[]);
    assert_eq!(out.status.code(), Some(0), "{report:#}");
    let pre = &agent(&report, "claude")["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["event"] == "PreToolUse")
        .unwrap()["wiredVia"];
    assert_eq!(pre[0]["kind"], "plugin", "{pre:#}");
    assert_eq!(pre[0]["plugin"], "hookhost@hookhost");

    // Also in the project's settings: every event runs hookhost twice.
    p.write(".claude/settings.json", &claude_plugin_hooks().to_string());
    let (_, report) = doctor(&p, &[], &[]);
    let w = with(&report, "agents", "warning");
    assert!(
        w.iter()
            .any(|f| f["what"].as_str().unwrap().contains("wired more than once")),
        "{report:#}"
    );

    // Disabled: not wired.
    write_home(
        &p,
        ".claude/settings.json",
        r#"{"enabledPlugins": {"hookhost@hookhost": false}}"#,
    );
    std::fs::remove_file(p.path().join(".claude/settings.json")).unwrap();
    let (_, report) = doctor(&p, &[], &[]);
    assert!(with(&report, "agents", "ok").is_empty(), "{report:#}");
}

#[test]
fn a_wiring_for_another_agent_or_a_missing_binary_is_an_error() {
    let p = Project::new(json!({"hooks": {}}));
    write_home(
        &p,
        ".gemini/settings.json",
        r#"{ // Gemini CLI allows comments
          "hooks": {"BeforeTool": [{"matcher": ".*", "hooks": [
            {"type": "command", "command": "hookhost hook --for claude"}]}],
          "AfterAgent": [{"hooks": [
            {"type": "command", "command": "/nonexistent/bin/hookhost hook --for gemini"}]}]}}"#,
    );
    let (out, report) = doctor(&p, &[], &[]);
    assert_eq!(out.status.code(), Some(1), "{report:#}");
    let errors = with(&report, "agents", "error");
    let text = serde_json::to_string(&errors).unwrap();
    assert!(text.contains("as `claude`'s"), "{text}");
    assert!(
        text.contains("/nonexistent/bin/hookhost` is not an executable file"),
        "{text}"
    );
    assert!(text.contains(".gemini/settings.json"), "{text}");
}

#[test]
fn hooks_that_cannot_run_are_named_by_file_event_and_index() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "./missing.sh"},
        {"command": "./noexec.sh"},
        {"command": ".coding-agent/bad.wasm"}
    ]}}));
    p.write("noexec.sh", "#!/bin/sh\nexit 0\n");
    p.write(".coding-agent/bad.wasm", "this is not wasm");
    let (out, report) = doctor(&p, &[], &[]);
    assert_eq!(out.status.code(), Some(1), "{report:#}");
    let errors = with(&report, "hooks", "error");
    assert_eq!(errors.len(), 3, "{report:#}");
    let file = p.path().join(".coding-agent/hooks.json");
    for (i, what) in ["does not exist", "not executable", "wasm"]
        .iter()
        .enumerate()
    {
        let f = &errors[i];
        assert_eq!(
            f["where"],
            json!(format!("{}, PreToolUse[{i}]", file.display())),
            "{f:#}"
        );
        assert!(f["what"].as_str().unwrap().contains(what), "{f:#}");
    }
    let (_, text) = human(&p, &[]);
    assert!(
        text.contains("PreToolUse[1]") && text.contains("3 errors"),
        "{text}"
    );
}

#[cfg(unix)]
#[test]
fn a_cache_directory_others_can_write_is_an_error() {
    use std::os::unix::fs::PermissionsExt;
    let p = Project::new(json!({"hooks": {}}));
    let open = p.home.path().join("open-cache");
    std::fs::create_dir_all(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let open_str = open.to_str().unwrap();
    let (out, report) = doctor(&p, &[], &[("HOOKHOST_CACHE_DIR", open_str)]);
    assert_eq!(out.status.code(), Some(1), "{report:#}");
    let errors = with(&report, "directories", "error");
    assert_eq!(errors.len(), 1, "{report:#}");
    assert_eq!(errors[0]["where"], json!(open_str));
    assert!(
        errors[0]["what"]
            .as_str()
            .unwrap()
            .contains("HOOKHOST_CACHE_DIR"),
        "{errors:#?}"
    );
    // The log directory the same way.
    let fallback = p.home.path().join("open-log");
    std::fs::create_dir_all(&fallback).unwrap();
    std::fs::set_permissions(&fallback, std::fs::Permissions::from_mode(0o757)).unwrap();
    let (out, report) = doctor(&p, &[], &[("HOOKHOST_LOG_DIR", fallback.to_str().unwrap())]);
    assert_eq!(out.status.code(), Some(1), "{report:#}");
    // A private one is fine, with its size.
    let (out, report) = doctor(&p, &[], &[]);
    assert_eq!(out.status.code(), Some(0), "{report:#}");
    let ok = with(&report, "directories", "ok");
    assert!(
        ok[0]["what"].as_str().unwrap().contains("private to you"),
        "{report:#}"
    );
}

#[test]
fn untrusted_project_hooks_are_listed_with_what_they_are_reduced_to() {
    let p = Project::new(json!({"hooks": {"Stop": [{"command": "true"}]}}));
    let (out, report) = doctor(&p, &[], &[("HOOKHOST_TRUST", "skip")]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "a warning, not an error: {report:#}"
    );
    let w = with(&report, "trust", "warning");
    assert_eq!(w.len(), 1, "{report:#}");
    let what = w[0]["what"].as_str().unwrap();
    assert!(
        what.contains("untrusted (new")
            && what.contains("Stop[0] runs sandboxed")
            && what.contains("only a block counts"),
        "{what}"
    );
    assert!(
        w[0]["fix"]
            .as_str()
            .unwrap()
            .contains("hookhost trust --project"),
        "{w:#?}"
    );
    // Once trusted: ok.
    let trusted = p.cli(&["trust"], &[]);
    assert!(trusted.status.success(), "{trusted:?}");
    let (_, report) = doctor(&p, &[], &[("HOOKHOST_TRUST", "skip")]);
    assert!(with(&report, "trust", "warning").is_empty(), "{report:#}");
    // Every hook trusted, and (this machine) command hooks can run sandboxed.
    assert_eq!(with(&report, "trust", "ok").len(), 2, "{report:#}");
}

#[test]
fn hostile_settings_files_are_reported_not_crashed_on() {
    let p = Project::new(json!({"hooks": {}}));
    let bad = p.write(".claude/settings.json", "{not json");
    write_home(&p, ".claude/plugins/installed_plugins.json", "[1, 2");
    write_home(&p, ".codex/config.toml", "[plugins\nnot toml");
    #[cfg(unix)]
    {
        let link = p.home.path().join(".gemini/settings.json");
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&link, &link).unwrap();
    }
    let (out, report) = doctor(&p, &[], &[]);
    assert_eq!(out.status.code(), Some(1), "{report:#}");
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("panicked")
            .eq(&false)
    );
    let errors = serde_json::to_string(&with(&report, "agents", "error")).unwrap();
    assert!(
        errors.contains(&bad.display().to_string()) && errors.contains("not valid JSON"),
        "{errors}"
    );
    assert!(errors.contains("installed_plugins.json"), "{errors}");
    assert!(errors.contains("not valid TOML"), "{errors}");
    #[cfg(unix)]
    assert!(
        errors.contains(".gemini/settings.json"),
        "the symlink loop: {errors}"
    );
}

#[test]
fn home_and_project_flags_choose_what_is_read() {
    let p = Project::new(json!({"hooks": {}}));
    let other = tempfile::tempdir().unwrap();
    let settings = other.path().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, claude_plugin_hooks().to_string()).unwrap();
    let (_, report) = doctor(&p, &["--home", other.path().to_str().unwrap()], &[]);
    assert_eq!(report["home"], json!(other.path()));
    assert!(!with(&report, "agents", "ok").is_empty(), "{report:#}");
}
