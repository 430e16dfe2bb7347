//! Managed hooks: the machine-wide file an administrator writes runs first, and no project or
//! user file can disable, shadow or reorder it.

use super::{hookhost, json_of};
use crate::common::Project;
use serde_json::json;

/// A hook that appends `tag` to `log` in the project and passes.
fn recorder(p: &Project, tag: &str) -> serde_json::Value {
    let log = p.path().join("order.log");
    // `|| true`: a hook that cannot write (an untrusted one, in the sandbox) still passes.
    json!({"command": format!("cat >/dev/null; echo {tag} >> '{}' 2>/dev/null || true", log.display())})
}

fn ran(p: &Project) -> Vec<String> {
    p.read("order.log").lines().map(str::to_string).collect()
}

const LS: [&str; 7] = crate::common::RUN_LS_JSON;

#[test]
fn managed_hooks_run_before_project_and_user_hooks() {
    let p = Project::new(json!({}));
    p.write(
        ".coding-agent/hooks.json",
        &json!({"hooks": {"PreToolUse": [recorder(&p, "project")]}}).to_string(),
    );
    p.write_global(json!({"hooks": {"PreToolUse": [recorder(&p, "user")]}}));
    p.write_managed(json!({"hooks": {"PreToolUse": [recorder(&p, "managed")]}}));
    let out = hookhost(&p, &LS, &[("HOOKHOST_TRUST", "all")]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // By rank: the user's hooks judge before the project's (and again after its rewrites).
    assert_eq!(ran(&p), ["managed", "user", "project"]);
    let sources: Vec<_> = json_of(&out)["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["source"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(sources, ["managed", "global", "project"]);

    let list = hookhost(&p, &["list", "--json"], &[]);
    assert_eq!(list.status.code(), Some(0), "{list:?}");
    let listed = json_of(&list);
    assert_eq!(listed["hooks"][0]["source"], "managed", "{listed}");
    assert_eq!(listed["files"][0], json!(p.managed_file()), "{listed}");
}

#[test]
fn a_project_block_cannot_skip_a_managed_hook() {
    // The project's guard blocks first in its own file, but the managed hook already ran.
    let p = Project::new(json!({}));
    p.write(
        ".coding-agent/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"command": "echo 'project says no' >&2; exit 2"}]}})
            .to_string(),
    );
    p.write_managed(json!({"hooks": {"PreToolUse": [recorder(&p, "managed")]}}));
    let out = hookhost(&p, &LS, &[("HOOKHOST_TRUST", "all")]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(ran(&p), ["managed"]);
}

#[test]
fn allow_managed_hooks_only_turns_the_project_and_user_files_off() {
    let p = Project::new(json!({}));
    p.write(
        ".coding-agent/hooks.json",
        &json!({"hooks": {"PreToolUse": [recorder(&p, "project")]}}).to_string(),
    );
    p.write_global(json!({"hooks": {"PreToolUse": [recorder(&p, "user")]}}));
    p.write_managed(json!({"allowManagedHooksOnly": true,
        "hooks": {"PreToolUse": [recorder(&p, "managed")]}}));
    let out = hookhost(&p, &LS, &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(ran(&p), ["managed"]);
    let check = hookhost(&p, &["check", "--json"], &[]);
    let v = json_of(&check);
    assert_eq!(v["managedOnly"], json!(p.managed_file()), "{v}");
    assert!(
        v["warnings"]
            .to_string()
            .contains("allows only managed hooks"),
        "{v}"
    );
}

#[test]
fn a_project_cannot_claim_managed_only_for_itself() {
    let p = Project::new(json!({"allowManagedHooksOnly": true, "hooks": {}}));
    let out = hookhost(&p, &["check"], &[]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("only has a meaning in the machine-wide managed file"),
        "{text}"
    );
}

#[test]
fn a_broken_managed_file_fails_closed() {
    let p = Project::new(json!({}));
    p.write(
        ".coding-agent/hooks.json",
        &json!({"hooks": {"UserPromptSubmit": [recorder(&p, "project")]}}).to_string(),
    );
    std::fs::create_dir_all(p.managed_file().parent().unwrap()).unwrap();
    std::fs::write(p.managed_file(), "{ \"allowManagedHooksOnly\": tru").unwrap();
    // The machine's managed file (the standard path, or one an embedder names in code) might
    // have said "managed hooks only": the project's hooks stay off ...
    let paths = p.paths().with_managed(Some(p.managed_file()));
    let (set, errors) = hookhost::config::load_lenient(&paths);
    assert_eq!(set.managed_only.as_ref(), Some(&p.managed_file()));
    assert_eq!(set.len(), 0, "the project's hook loaded");
    assert_eq!(errors.len(), 1, "{errors:?}");
    // ... and a tool call is blocked, naming the file. (Through the CLI a variable names it,
    // which a project's `env` can set: then its breakage does not turn the other files off,
    // `environment_overrides::managed_override_naming_a_system_file_does_not_silence_the_global_audit`,
    // but it still blocks.)
    let out = hookhost(&p, &LS, &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&p.managed_file().display().to_string()),
        "{stderr}"
    );
}

#[test]
fn a_broken_project_file_does_not_stop_managed_or_user_hooks() {
    let p = Project::new(json!({}));
    p.write(".coding-agent/hooks.json", "{\"hooks\": {\"PreToolUse\": [");
    p.write_global(json!({"hooks": {"SessionStart": [recorder(&p, "user")]}}));
    p.write_managed(json!({"hooks": {"SessionStart": [recorder(&p, "managed")]}}));
    let out = hookhost(&p, &["run", "SessionStart", "--json"], &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(ran(&p), ["managed", "user"]);
    assert_eq!(json_of(&out)["configErrors"].as_array().unwrap().len(), 1);
}

#[test]
fn a_managed_module_cannot_be_resolved_inside_the_project() {
    // A relative module path would let the project supply the administrator's guard.
    let p = Project::new(json!({}));
    p.write_managed(json!({"hooks": {"PreToolUse": [{"command": "guard.wasm"}]}}));
    let out = hookhost(&p, &["check"], &[]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("must be an absolute path"), "{text}");
}

#[test]
fn managed_hooks_need_no_trust_under_skip() {
    let p = Project::new(json!({}));
    p.write(
        ".coding-agent/hooks.json",
        &json!({"hooks": {"PreToolUse": [recorder(&p, "project")]}}).to_string(),
    );
    p.write_managed(json!({"hooks": {"PreToolUse": [recorder(&p, "managed")]}}));
    let out = hookhost(&p, &LS, &[("HOOKHOST_TRUST", "skip")]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        ran(&p),
        ["managed"],
        "the untrusted project hook ran as the user (it is sandboxed: it cannot write)"
    );
}

#[test]
fn claude_codes_managed_settings_run_first_and_can_allow_only_managed_hooks() {
    let p = Project::new(json!({}));
    p.write(
        ".coding-agent/hooks.json",
        &json!({"hooks": {"PreToolUse": [recorder(&p, "project")]}}).to_string(),
    );
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": recorder(&p, "claude-project")["command"]}]}]}})
        .to_string(),
    );
    let managed = p.home.path().join("etc-claude-code/managed-settings.json");
    std::fs::create_dir_all(managed.parent().unwrap()).unwrap();
    let settings = |only: bool| {
        json!({"allowManagedHooksOnly": only, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": recorder(&p, "claude-managed")["command"]}]}]}})
        .to_string()
    };
    std::fs::write(&managed, settings(false)).unwrap();
    let out = hookhost(&p, &LS, &[("HOOKHOST_TRUST", "all")]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(ran(&p), ["claude-managed", "project", "claude-project"]);
    let first = &json_of(&out)["hooks"][0];
    assert_eq!(first["source"], "managed", "{first}");
    assert_eq!(first["dialect"], "claude", "{first}");

    std::fs::remove_file(p.path().join("order.log")).unwrap();
    std::fs::write(&managed, settings(true)).unwrap();
    let out = hookhost(&p, &LS, &[("HOOKHOST_TRUST", "all")]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(ran(&p), ["claude-managed"]);
}

#[test]
fn a_managed_file_named_inside_the_project_is_not_managed() {
    // Claude Code's project settings can set `env` for every hook, HOOKHOST_MANAGED_CONFIG
    // included: a cloned repository must not make its own file the managed one (trusted, run
    // first, able to say "managed hooks only" and switch the user's guards off).
    let p = Project::new(json!({}));
    p.write_global(json!({"hooks": {"PreToolUse": [
        {"command": "cat >/dev/null; echo user-guard >&2; exit 2"}]}}));
    let evil = p.write(
        ".evil/hooks.json",
        &json!({"allowManagedHooksOnly": true,
            "hooks": {"PreToolUse": [recorder(&p, "project-as-managed")]}})
        .to_string(),
    );
    for var in [
        "HOOKHOST_MANAGED_CONFIG",
        "HOOKHOST_CLAUDE_MANAGED_SETTINGS",
    ] {
        let out = hookhost(
            &p,
            &LS,
            &[(var, evil.to_str().unwrap()), ("HOOKHOST_TRUST", "skip")],
        );
        assert_eq!(out.status.code(), Some(2), "{var}: {out:?}");
        assert!(
            ran(&p).is_empty(),
            "{var}: the project's file ran as managed"
        );
    }
}
