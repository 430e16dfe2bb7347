//! Claude Code's hooks both ways: inbound from `.claude/settings.json` through `hookhost
//! run`, outbound through `hookhost hook --for claude` after `hookhost import --write`.

use crate::common::{Project, guests::guest};
use crate::corpus::*;
use serde_json::{Value, json};

fn inbound() -> Project {
    project_with(".claude/settings.json", &claude_settings())
}

fn reason(r: &Value) -> &str {
    r["reason"].as_str().unwrap_or_default()
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
fn inbound_blockers_read_tool_input_and_block_with_stderr() {
    crate::common::needs::python_and_node();
    let p = inbound();
    let (code, r) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"rm -rf /"}"#,
        ],
    );
    assert_eq!((code, r["decision"].as_str()), (2, Some("block")), "{r}");
    assert!(
        reason(&r).contains("Dangerous command blocked: rm -rf /"),
        "{r}"
    );
    assert_eq!(r["hooks"][0]["dialect"], "claude");
    assert!(
        r["hooks"][0]["file"]
            .as_str()
            .unwrap()
            .ends_with(".claude/settings.json")
    );
    assert!(r["stop"].is_null());

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
    assert_eq!((code, r["decision"].as_str()), (0, Some("pass")), "{r}");
    assert_eq!(r["hooks"].as_array().unwrap().len(), 2, "{r}");

    // The script without a shebang runs through the shell; Write matches write_file.
    let (code, r) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "write_file",
            "--args",
            r#"{"path":"node_modules/x.js","content":""}"#,
        ],
    );
    assert_eq!(
        (code, reason(&r)),
        (2, "Cannot write to node_modules"),
        "{r}"
    );
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
fn inbound_permission_decisions_deny_ask_allow_and_rewrite() {
    crate::common::needs::python_and_node();
    let p = inbound();
    let (_, r) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "write_file",
            "--args",
            r#"{"path":"app/.env","content":"x"}"#,
        ],
    );
    assert_eq!(
        (r["decision"].as_str(), reason(&r)),
        (Some("block"), "Refusing to touch app/.env"),
        "{r}"
    );
    // "allow" never bypasses: it is a pass, the permission checker still decides.
    let (code, r) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "write_file",
            "--args",
            r#"{"path":"Cargo.lock","content":"x"}"#,
        ],
    );
    assert_eq!(
        (code, r["decision"].as_str(), r["ask"].as_bool()),
        (0, Some("pass"), Some(false)),
        "{r}"
    );
    let (_, r) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"git push origin main"}"#,
        ],
    );
    assert_eq!(
        (r["decision"].as_str(), r["ask"].as_bool()),
        (Some("pass"), Some(true)),
        "{r}"
    );
    let (_, r) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"npm publish"}"#,
        ],
    );
    assert_eq!(
        r["updatedArgs"],
        json!({"command": "npm publish --dry-run"}),
        "{r}"
    );
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
#[allow(clippy::too_many_lines)] // one scenario, read top to bottom
fn inbound_context_matchers_on_source_prompts_transcripts_stop_and_continue() {
    crate::common::needs::python_and_node();
    let p = inbound();
    let (_, r) = run_json(&p, &["SessionStart"]);
    assert_eq!(
        r["additionalContext"],
        json!(["fresh session: read TODO.md"]),
        "{r}"
    );
    std::fs::write(
        p.path().join("resume.json"),
        json!({"source": "resume"}).to_string(),
    )
    .unwrap();
    let (_, r) = run_json(
        &p,
        &[
            "SessionStart",
            "--payload",
            p.path().join("resume.json").to_str().unwrap(),
        ],
    );
    assert_eq!(
        r["additionalContext"],
        json!(["resumed: reload the plan"]),
        "{r}"
    );

    // `run --payload` takes Claude Code's own payload, transcript_path included.
    let payload = p.path().join("prompt.json");
    std::fs::write(
        &payload,
        claude_payload(&p, "UserPromptSubmit", json!({"prompt": "hello"})).to_string(),
    )
    .unwrap();
    let (code, r) = run_json(
        &p,
        &["UserPromptSubmit", "--payload", payload.to_str().unwrap()],
    );
    assert_eq!(
        (code, &r["additionalContext"]),
        (0, &json!(["branch main; transcript has 3 lines"])),
        "{r}"
    );
    std::fs::write(
        &payload,
        claude_payload(
            &p,
            "UserPromptSubmit",
            json!({"prompt": "my password is hunter2"}),
        )
        .to_string(),
    )
    .unwrap();
    let (code, r) = run_json(
        &p,
        &["UserPromptSubmit", "--payload", payload.to_str().unwrap()],
    );
    assert_eq!(
        (code, reason(&r)),
        (2, "Prompts must not contain secrets"),
        "{r}"
    );

    let (code, r) = run_json(&p, &["Stop"]);
    assert_eq!(
        (code, r["decision"].as_str(), reason(&r)),
        (2, Some("force"), "Run the test suite before stopping"),
        "{r}"
    );
    std::fs::write(
        &payload,
        claude_payload(&p, "Stop", json!({"stop_hook_active": true})).to_string(),
    )
    .unwrap();
    let (code, _) = run_json(&p, &["Stop", "--payload", payload.to_str().unwrap()]);
    assert_eq!(code, 0);

    let (_, r) = run_json(
        &p,
        &[
            "PostToolUse",
            "--tool",
            "bash",
            "--args",
            "{}",
            "--result",
            "FATAL: disk full",
        ],
    );
    assert_eq!(
        r["stop"],
        json!({"reason": "a fatal tool error: stopping for a human"}),
        "{r}"
    );
}

fn outbound() -> Project {
    let p = inbound();
    let out = p.cli(&["import", "--write"], &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The adapter never reads the agent's own settings: remove them to be sure the answers
    // come from the imported native hooks.
    std::fs::remove_file(p.path().join(".claude/settings.json")).unwrap();
    p
}

fn pre(p: &Project, tool: &str, input: Value) -> Value {
    claude_payload(
        p,
        "PreToolUse",
        json!({"tool_name": tool, "tool_input": input, "tool_use_id": "toolu_1"}),
    )
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
#[allow(clippy::too_many_lines)] // one scenario, read top to bottom
fn outbound_answers_claude_in_its_protocol() {
    crate::common::needs::python_and_node();
    let p = outbound();
    let hso = |v: &Value| v["hookSpecificOutput"].clone();
    let (code, a, err) = adapter(
        &p,
        "claude",
        &pre(&p, "Bash", json!({"command": "rm -rf /"})),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(hso(&a)["permissionDecision"], "deny", "{a}");
    assert!(
        hso(&a)["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("Dangerous")
    );

    let (_, a, err) = adapter(&p, "claude", &pre(&p, "Bash", json!({"command": "ls"})));
    assert!(a.is_null(), "{a} {err}");
    let (_, a, _) = adapter(
        &p,
        "claude",
        &pre(&p, "Bash", json!({"command": "git push"})),
    );
    assert_eq!(hso(&a)["permissionDecision"], "ask", "{a}");
    let (_, a, _) = adapter(
        &p,
        "claude",
        &pre(&p, "Bash", json!({"command": "npm publish"})),
    );
    assert_eq!(
        (
            hso(&a)["permissionDecision"].as_str(),
            &hso(&a)["updatedInput"]
        ),
        (Some("ask"), &json!({"command": "npm publish --dry-run"})),
        "{a}"
    );
    let (_, a, _) = adapter(
        &p,
        "claude",
        &pre(&p, "Write", json!({"file_path": "x/.env", "content": ""})),
    );
    assert_eq!(
        hso(&a)["permissionDecisionReason"],
        "Refusing to touch x/.env",
        "{a}"
    );
    let (_, a, _) = adapter(
        &p,
        "claude",
        &pre(
            &p,
            "Edit",
            json!({"file_path": "node_modules/y", "old_string": "a", "new_string": "b"}),
        ),
    );
    assert_eq!(
        hso(&a)["permissionDecisionReason"],
        "Cannot write to node_modules",
        "{a}"
    );

    let (_, a, _) = adapter(
        &p,
        "claude",
        &claude_payload(&p, "SessionStart", json!({"source": "resume"})),
    );
    assert_eq!(
        hso(&a)["additionalContext"],
        "resumed: reload the plan",
        "{a}"
    );
    let (_, a, _) = adapter(
        &p,
        "claude",
        &claude_payload(&p, "UserPromptSubmit", json!({"prompt": "hi"})),
    );
    assert_eq!(
        (
            hso(&a)["hookEventName"].as_str(),
            hso(&a)["additionalContext"].as_str()
        ),
        (
            Some("UserPromptSubmit"),
            Some("branch main; transcript has 3 lines")
        ),
        "{a}"
    );
    let (_, a, _) = adapter(
        &p,
        "claude",
        &claude_payload(&p, "UserPromptSubmit", json!({"prompt": "password"})),
    );
    assert_eq!(
        (a["decision"].as_str(), reason(&a)),
        (Some("block"), "Prompts must not contain secrets"),
        "{a}"
    );
    let (_, a, _) = adapter(
        &p,
        "claude",
        &claude_payload(&p, "Stop", json!({"stop_hook_active": false})),
    );
    assert_eq!(
        (a["decision"].as_str(), reason(&a)),
        (Some("block"), "Run the test suite before stopping"),
        "{a}"
    );
    let (_, a, _) = adapter(
        &p,
        "claude",
        &claude_payload(
            &p,
            "PostToolUse",
            json!({"tool_name": "Bash", "tool_input": {}, "tool_response": "FATAL"}),
        ),
    );
    assert_eq!(
        (a["continue"].as_bool(), a["stopReason"].as_str()),
        (
            Some(false),
            Some("a fatal tool error: stopping for a human")
        ),
        "{a}"
    );
    // An event hookhost does not fire: nothing to say.
    let (code, a, _) = adapter(
        &p,
        "claude",
        &claude_payload(&p, "Notification", json!({"message": "hi"})),
    );
    assert_eq!((code, a), (0, Value::Null));
}

#[test]
fn the_adapter_refuses_to_run_inside_itself() {
    let p = outbound();
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_hookhost"));
    let out = c
        .args(["hook", "--for", "claude", "--project"])
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_ADAPTER", "claude")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    // Nothing on stdin may hide a PreToolUse: the refusal fails closed (exit 2).
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("refusing"));
}

#[test]
fn a_wasm_hook_in_claude_settings_gets_the_claude_payload() {
    let p = Project::new(json!({}));
    std::fs::create_dir_all(p.path().join(".claude/hooks")).unwrap();
    std::fs::copy(guest("hostile"), p.path().join(".claude/hooks/echo.wasm")).unwrap();
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": ".claude/hooks/echo.wasm echo"}]}]}})
        .to_string(),
    );
    let (_, r) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"ls"}"#,
        ],
    );
    assert_eq!(r["hooks"][0]["kind"], "wasm", "{r}");
    let seen: Value = serde_json::from_str(r["hooks"][0]["stdout"].as_str().unwrap()).unwrap();
    assert_eq!(
        (
            seen["hook_event_name"].as_str(),
            seen["tool_name"].as_str(),
            seen["tool_input"]["command"].as_str()
        ),
        (Some("PreToolUse"), Some("Bash"), Some("ls")),
        "{seen}"
    );
}

#[test]
fn a_wasm_hook_in_claude_settings_sees_claude_project_dir() {
    let p = Project::new(json!({}));
    std::fs::create_dir_all(p.path().join(".claude/hooks")).unwrap();
    std::fs::copy(guest("hostile"), p.path().join(".claude/hooks/env.wasm")).unwrap();
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"SessionStart": [{"hooks": [
            {"type": "command", "command": ".claude/hooks/env.wasm env"}]}]}})
        .to_string(),
    );
    let (_, r) = run_json(&p, &["SessionStart"]);
    let stdout = r["hooks"][0]["stdout"].as_str().unwrap_or_default();
    assert!(
        stdout.contains(&format!("CLAUDE_PROJECT_DIR={}", p.path().display())),
        "{r}"
    );
}

#[test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
fn list_check_and_import_show_dialects_files_and_warnings() {
    crate::common::needs::python_and_node();
    let mut settings = claude_settings();
    settings["hooks"]["PreToolUse"][0]["hooks"][1]["once"] = json!(true);
    // An event Claude Code added is read like the others (hookhost fires all of Claude
    // Code's events now).
    settings["hooks"]["PostToolBatch"] =
        json!([{"hooks": [{"type": "command", "command": "echo batch done"}]}]);
    let p = project_with(".claude/settings.json", &settings);
    let out = p.cli(&["list", "--json"], &[]);
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = &list["hooks"][0];
    assert_eq!(
        (first["dialect"].as_str(), first["timeoutMs"].as_u64()),
        (Some("claude"), Some(600_000)),
        "{list}"
    );
    assert!(
        first["file"]
            .as_str()
            .unwrap()
            .ends_with(".claude/settings.json")
    );

    let out = p.cli(&["check"], &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    // Claude Code ignores `once` in a settings file (skill frontmatter only): so does hookhost.
    assert!(
        text.contains("`once`: Claude Code honours it only in skill frontmatter"),
        "{text}"
    );
    assert!(!text.contains("does not fire PostToolBatch"), "{text}");

    p.write(
        ".claude/settings.local.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command"}]}]}}"#,
    );
    let out = p.cli(&["check"], &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("settings.local.json")
            && text.contains("PreToolUse[0].hooks[0]")
            && text.contains("needs `command`"),
        "{text}"
    );
    std::fs::remove_file(p.path().join(".claude/settings.local.json")).unwrap();

    let out = p.cli(&["import", "--from", "claude"], &[]);
    let imported: Value = serde_json::from_slice(&out.stdout).unwrap();
    let guard = &imported["hooks"]["PreToolUse"][0];
    assert_eq!(
        (
            guard["dialect"].as_str(),
            guard["match"].as_str(),
            guard["timeout"].as_u64()
        ),
        (Some("claude"), Some("Bash"), Some(30_000)),
        "{imported}"
    );
    assert_eq!(
        p.read(".coding-agent/hooks.json"),
        "{}",
        "dry run writes nothing"
    );
}

#[test]
fn a_native_wasm_guard_answers_claude_through_the_adapter() {
    let p = Project::new(
        json!({"hooks": {"PreToolUse": [{"command": ".coding-agent/hooks/bash-guard.wasm", "match": "bash"}]}}),
    );
    std::fs::create_dir_all(p.path().join(".coding-agent/hooks")).unwrap();
    std::fs::copy(
        guest("bash-guard"),
        p.path().join(".coding-agent/hooks/bash-guard.wasm"),
    )
    .unwrap();
    // Claude Code's own names: `Bash` reaches the native hook as the core's `bash`.
    let (code, a, err) = adapter(
        &p,
        "claude",
        &pre(&p, "Bash", json!({"command": "rm -rf /"})),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        a["hookSpecificOutput"]["permissionDecision"], "deny",
        "{a} {err}"
    );
    assert!(
        a["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("bash-guard")
    );
    let (_, a, _) = adapter(&p, "claude", &pre(&p, "Bash", json!({"command": "ls"})));
    assert!(a.is_null(), "{a}");
}

#[test]
fn a_projects_claude_settings_are_pinned_by_trust() {
    let p = inbound();
    let rm = [
        "PreToolUse",
        "--tool",
        "bash",
        "--args",
        r#"{"command":"ls"}"#,
        "--trust",
        "block",
    ];
    let (code, r) = run_json(&p, &rm);
    assert_eq!(
        (code, r["hooks"][0]["outcome"].as_str()),
        (2, Some("block")),
        "untrusted before `trust`: {r}"
    );
    assert!(p.cli(&["trust"], &[]).status.success());
    let (code, r) = run_json(&p, &rm);
    assert_eq!((code, r["decision"].as_str()), (0, Some("pass")), "{r}");
    // Editing Claude Code's project file makes its hooks untrusted again.
    let mut settings = claude_settings();
    settings["hooks"]["PreToolUse"][0]["hooks"][1]["command"] =
        json!("node .claude/hooks/ask-push.js --changed");
    p.write(".claude/settings.json", &settings.to_string());
    let (code, r) = run_json(&p, &rm);
    assert_eq!(
        (code, r["hooks"][0]["outcome"].as_str()),
        (2, Some("block")),
        "{r}"
    );
    assert!(
        r["reason"]
            .as_str()
            .unwrap()
            .contains(".claude/settings.json"),
        "{r}"
    );
}

/// An installed Claude Code plugin at `dir` (its `hooks/hooks.json` runs
/// `${CLAUDE_PLUGIN_ROOT}/guard.sh`, which blocks with a reason naming the variable it got),
/// listed in the user's plugin index.
fn install_plugin(p: &Project, dir: &std::path::Path, id: &str) {
    std::fs::create_dir_all(dir.join("hooks")).unwrap();
    std::fs::write(
        dir.join("guard.sh"),
        "#!/bin/sh\ncat >/dev/null\necho \"plugin guard in $CLAUDE_PLUGIN_ROOT\" >&2\nexit 2\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.join("guard.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let hooks = json!({"description": "a guard", "hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/guard.sh"}]}]}});
    std::fs::write(dir.join("hooks/hooks.json"), hooks.to_string()).unwrap();
    let index = p.home.path().join(".claude/plugins/installed_plugins.json");
    std::fs::create_dir_all(index.parent().unwrap()).unwrap();
    std::fs::write(
        &index,
        json!({"version": 2, "plugins": {id: [{"scope": "user", "installPath": dir}]}}).to_string(),
    )
    .unwrap();
}

#[test]
fn an_enabled_plugins_hooks_run_with_its_root_and_the_enabling_files_rank() {
    let p = Project::new(json!({}));
    let plugin = p.home.path().join(".claude/plugins/cache/m/guard/1.0.0");
    install_plugin(&p, &plugin, "guard@m");
    let ls = [
        "PreToolUse",
        "--tool",
        "bash",
        "--args",
        r#"{"command":"ls"}"#,
    ];
    // Installed but not enabled: nothing runs.
    let (code, r) = run_json(&p, &ls);
    assert_eq!(
        (code, r["hooks"].as_array().map(Vec::len)),
        (0, Some(0)),
        "{r}"
    );
    // Enabled by the user: the user's hook, run with the plugin's root.
    let user_settings = p.home.path().join(".claude/settings.json");
    std::fs::write(
        &user_settings,
        json!({"enabledPlugins": {"guard@m": true}}).to_string(),
    )
    .unwrap();
    let (code, r) = run_json(&p, &ls);
    assert_eq!(code, 2, "{r}");
    assert_eq!(
        reason(&r),
        format!("plugin guard in {}", plugin.display()),
        "{r}"
    );
    assert_eq!(r["hooks"][0]["source"], "global", "{r}");
    // Enabled only by the project: the project's hook, untrusted under the default policy.
    std::fs::remove_file(&user_settings).unwrap();
    p.write(
        ".claude/settings.json",
        &json!({"enabledPlugins": {"guard@m": true}}).to_string(),
    );
    let out = p.cli(
        &["run", "PreToolUse", "--tool", "bash", "--json"],
        &[("HOOKHOST_TRUST", "")],
    );
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["decision"], "pass", "{r}");
    assert_eq!(r["untrusted"].as_array().map(Vec::len), Some(1), "{r}");
}

/// A plugin's hooks get its data directory (`~/.claude/plugins/data/<id>`, made private on
/// first use) as `CLAUDE_PLUGIN_DATA` and as the `${CLAUDE_PLUGIN_DATA}` placeholder, in the
/// shell form and in the exec form's arguments.
#[test]
fn a_plugins_hooks_get_its_private_data_directory() {
    let p = Project::new(json!({}));
    let plugin = p.home.path().join(".claude/plugins/cache/m/keeper/1.0.0");
    install_plugin(&p, &plugin, "keeper@my-market");
    // The shell form writes through the placeholder and reads the variable; the exec form
    // (no shell) gets the placeholder filled in its argument.
    let hooks = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "cat >/dev/null; echo kept > \"${CLAUDE_PLUGIN_DATA}/state\"; echo \"env $CLAUDE_PLUGIN_DATA\" >&2; exit 2"}]}],
        "PostToolUse": [{"hooks": [
        {"type": "command", "command": "sh", "args": ["-c", "cat >/dev/null; echo \"$1\" > \"$1/exec\"", "x", "${CLAUDE_PLUGIN_DATA}"]}]}]}});
    std::fs::write(plugin.join("hooks/hooks.json"), hooks.to_string()).unwrap();
    std::fs::write(
        p.home.path().join(".claude/settings.json"),
        json!({"enabledPlugins": {"keeper@my-market": true}}).to_string(),
    )
    .unwrap();
    let data = p.home.path().join(".claude/plugins/data/keeper-my-market");
    // Listing the hooks creates nothing.
    p.cli(&["list"], &[]);
    assert!(!data.exists(), "list made {}", data.display());
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
    assert_eq!(code, 2, "{r}");
    assert_eq!(reason(&r), format!("env {}", data.display()), "{r}");
    assert_eq!(
        std::fs::read_to_string(data.join("state")).unwrap(),
        "kept\n"
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&data).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    let (_, r) = run_json(
        &p,
        &[
            "PostToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"ls"}"#,
        ],
    );
    assert_eq!(
        std::fs::read_to_string(data.join("exec")).unwrap().trim(),
        data.display().to_string(),
        "{r}"
    );
}

/// A plugin's hooks get the options its user configured, from `pluginConfigs` in the user's
/// `~/.claude/settings.json`, as `CLAUDE_PLUGIN_OPTION_<KEY>`; a project's settings give none,
/// and a variable of that name in hookhost's own environment does not reach the hook.
#[test]
fn a_plugins_hooks_get_the_options_its_user_configured() {
    let p = Project::new(json!({}));
    let plugin = p.home.path().join(".claude/plugins/cache/m/opt/1.0.0");
    install_plugin(&p, &plugin, "opt@m");
    let hooks = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "cat >/dev/null; echo \"level=$CLAUDE_PLUGIN_OPTION_LEVEL retries=$CLAUDE_PLUGIN_OPTION_RETRIES extra=${CLAUDE_PLUGIN_OPTION_EXTRA:-none}\" >&2; exit 2"}]}]}});
    std::fs::write(plugin.join("hooks/hooks.json"), hooks.to_string()).unwrap();
    std::fs::write(
        p.home.path().join(".claude/settings.json"),
        json!({"enabledPlugins": {"opt@m": true},
            "pluginConfigs": {"opt@m": {"options": {"level": "strict", "retries": 3}}}})
        .to_string(),
    )
    .unwrap();
    // The project tries to change and add options: not read.
    p.write(
        ".claude/settings.json",
        &json!({"pluginConfigs": {"opt@m": {"options": {"level": "off", "extra": "planted"}}}})
            .to_string(),
    );
    let out = p.cli(
        &[
            "run",
            "PreToolUse",
            "--tool",
            "bash",
            "--args",
            r#"{"command":"ls"}"#,
            "--json",
        ],
        &[("CLAUDE_PLUGIN_OPTION_EXTRA", "from-env")],
    );
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(2), "{r}");
    assert_eq!(reason(&r), "level=strict retries=3 extra=none", "{r}");
}

/// A prompt redactor: `updatedPrompt` replaces what the agent sends, through `run` (the
/// report's `updatedPrompt`) and through the adapter, whose agent cannot replace a prompt:
/// there the original is blocked and the reason gives the replacement.
#[test]
fn a_hook_replaces_the_prompt() {
    let redactor = r#"sed 's/.*"prompt":"\([^"]*\)".*/\1/; s/hunter2/[redacted]/' | { read -r p; printf '{"updatedPrompt":"%s"}' "$p"; }"#;
    let p = Project::new(json!({"hooks": {"UserPromptSubmit": [{"command": redactor}]}}));
    let (code, r) = run_json(
        &p,
        &["UserPromptSubmit", "--prompt", "my password is hunter2"],
    );
    assert_eq!((code, r["decision"].as_str()), (0, Some("pass")), "{r}");
    assert_eq!(r["updatedPrompt"], "my password is [redacted]", "{r}");
    let payload = json!({
        "session_id": "s",
        "transcript_path": "/dev/null",
        "cwd": p.path(),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "my password is hunter2",
    });
    let (_, answer, _) = adapter(&p, "claude", &payload);
    assert_eq!(answer["decision"], "block", "{answer}");
    let reason = reason(&answer);
    assert!(
        reason.ends_with("my password is [redacted]") && !reason.contains("hunter2"),
        "{reason}"
    );
}

/// Claude Code's matchers that hookhost now reads as it does: a list of tool names with
/// commas or blanks (`"Edit, Bash"`) is those names, and SessionEnd matches its `reason`.
#[test]
fn claude_name_lists_and_session_end_reasons_match_as_claude_code_matches_them() {
    let settings = json!({"hooks": {
        "PreToolUse": [{"matcher": "Edit, Bash", "hooks": [
            {"type": "command", "command": "echo 'listed tool' >&2; exit 2"}]}],
        "SessionEnd": [{"matcher": "clear", "hooks": [
            {"type": "command", "command": "echo ended >> \"$CLAUDE_PROJECT_DIR/ended\""}]}]
    }});
    let p = project_with(".claude/settings.json", &settings);
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
    assert_eq!((code, reason(&r)), (2, "listed tool"), "{r}");
    let (code, r) = run_json(
        &p,
        &[
            "PreToolUse",
            "--tool",
            "read_file",
            "--args",
            r#"{"path":"x"}"#,
        ],
    );
    assert_eq!(code, 0, "Read is not in the list: {r}");
    for (why, runs) in [("logout", false), ("clear", true)] {
        let payload = p.path().join("end.json");
        std::fs::write(&payload, json!({"reason": why}).to_string()).unwrap();
        let (code, r) = run_json(&p, &["SessionEnd", "--payload", payload.to_str().unwrap()]);
        assert_eq!(code, 0, "{r}");
        assert_eq!(p.path().join("ended").exists(), runs, "reason {why}: {r}");
    }
}
