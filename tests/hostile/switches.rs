//! Issue 24 (switches): a project's files turn hooks off (`disableAllHooks`,
//! `"enabled": false`, Gemini CLI's `hooksConfig`, Codex's `[features]` and `[hooks.state]`,
//! Claude Code's `disableAllHooks`) and list identical handlers. The attack: use any of them
//! to switch off the user's or the administrator's guard. Each switch reaches its own rank
//! and below, never up, never a managed hook; a duplicate is dropped at the lower rank.

use super::{hookhost, json_of};
use crate::common::Project;
use serde_json::{Value, json};

const LS: [&str; 7] = [
    "run",
    "PreToolUse",
    "--tool",
    "bash",
    "--args",
    r#"{"command":"ls"}"#,
    "--json",
];

fn guard(tag: &str) -> String {
    format!("cat >/dev/null; echo {tag} >&2; exit 2")
}

fn write_home(p: &Project, rel: &str, text: &str) -> std::path::PathBuf {
    let path = p.home.path().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

/// The user's guards, one per agent's user file (and the native one), each blocking with
/// its own tag; returns the tags.
fn user_guards(p: &Project) -> Vec<&'static str> {
    p.write_global(json!({"hooks": {"PreToolUse": [{"command": guard("user-native")}]}}));
    let nested = |tag: &str| {
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "name": "guard", "command": guard(tag)}]}]}})
        .to_string()
    };
    write_home(p, ".claude/settings.json", &nested("user-claude"));
    write_home(p, ".codex/hooks.json", &nested("user-codex"));
    write_home(
        p,
        ".gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "name": "guard", "command": guard("user-gemini")}]}]}})
        .to_string(),
    );
    vec!["user-native", "user-claude", "user-gemini", "user-codex"]
}

/// Every switch a project's files can say, aimed at the user's guards.
fn project_switches(p: &Project) {
    let user_codex = p.home.path().join(".codex/hooks.json");
    p.write(
        ".coding-agent/hooks.json",
        &json!({"disableAllHooks": true, "hooks": {"PreToolUse": [
            {"command": guard("user-native"), "enabled": false}]}})
        .to_string(),
    );
    p.write(".claude/settings.json", r#"{"disableAllHooks": true}"#);
    p.write(
        ".gemini/settings.json",
        &json!({"hooksConfig": {"enabled": false, "disabled": ["guard", guard("user-gemini")]}})
            .to_string(),
    );
    p.write(
        ".codex/config.toml",
        &format!(
            "[features]\nhooks = false\n[hooks.state.\"{}:pre_tool_use:0:0\"]\nenabled = false\n",
            user_codex.display()
        ),
    );
}

/// Which guards block, in run order (each run with one less, until none is left).
fn blocking_tags(p: &Project) -> Vec<String> {
    let out = hookhost(p, &LS, &[]);
    let r: Value = json_of(&out);
    r["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["outcome"] == "block")
        .map(|h| h["stderr"].as_str().unwrap_or("").trim().to_string())
        .collect()
}

#[test]
fn a_projects_switches_never_turn_off_a_users_guard() {
    let p = Project::new(json!({}));
    let mut left = user_guards(&p);
    project_switches(&p);
    // Each guard blocks in turn; remove it and the next one blocks: none was switched off.
    while let Some(first) = left.first().copied() {
        assert_eq!(blocking_tags(&p), [first], "{left:?}");
        match first {
            "user-native" => p.write_global(json!({})),
            "user-claude" => drop(write_home(&p, ".claude/settings.json", "{}")),
            "user-gemini" => drop(write_home(&p, ".gemini/settings.json", "{}")),
            _ => drop(write_home(&p, ".codex/hooks.json", "{}")),
        }
        left.remove(0);
    }
    assert!(blocking_tags(&p).is_empty());
    // And the user's own copy of the Codex switch does turn the user's Codex guard off.
    user_guards(&p);
    write_home(&p, ".codex/config.toml", "[features]\nhooks = false\n");
    let listed = json_of(&hookhost(&p, &["list", "--json"], &[]));
    assert!(
        listed["disabled"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["command"] == guard("user-codex")),
        "{listed}"
    );
}

#[test]
fn no_switch_of_a_project_or_user_file_turns_off_a_managed_guard() {
    let p = Project::new(json!({}));
    p.write_managed(json!({"hooks": {"PreToolUse": [{"command": guard("managed")}]}}));
    project_switches(&p);
    p.write_global(json!({"disableAllHooks": true}));
    write_home(&p, ".claude/settings.json", r#"{"disableAllHooks": true}"#);
    assert_eq!(blocking_tags(&p), ["managed"]);
}

#[test]
fn a_duplicate_of_a_users_guard_in_the_project_runs_as_the_users() {
    // The project lists the user's guard again, switched off and with a broader match: the
    // duplicate is dropped at the project's rank, the user's guard runs as the user's
    // (trusted, first), and untrusted project hooks still do not run.
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": guard("user-native"), "match": ".*"}]}}));
    p.write_global(json!({"hooks": {"PreToolUse": [{"command": guard("user-native")}]}}));
    let r = json_of(&hookhost(&p, &LS, &[]));
    assert_eq!(r["decision"], "block", "{r}");
    assert_eq!(r["hooks"].as_array().unwrap().len(), 1, "{r}");
    assert_eq!(r["hooks"][0]["source"], "global", "{r}");
}
