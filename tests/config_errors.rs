//! Config validation: every problem of a file is reported at once, each naming the file, the
//! hook as `Event[index]`, and what to change.

mod common;

use common::Project;
use hookhost::config::{self, ConfigError};
use serde_json::json;

fn errors_of(config: serde_json::Value) -> (Project, Vec<ConfigError>) {
    let p = Project::new(config);
    let errors = match config::load(&p.paths()) {
        Ok(_) => Vec::new(),
        Err(e) => e.0,
    };
    (p, errors)
}

fn find<'a>(errors: &'a [ConfigError], hook: &str, needle: &str) -> &'a ConfigError {
    errors
        .iter()
        .find(|e| e.hook.as_deref() == Some(hook) && e.message.contains(needle))
        .unwrap_or_else(|| panic!("no error for {hook} containing {needle:?} in {errors:#?}"))
}

#[test]
fn all_problems_of_a_file_are_reported_together() {
    let (p, errors) = errors_of(json!({"hooks": {
        "PreToolUse": [
            {"comand": "x"},
            {"command": "x", "match": "ba(sh"},
            {"command": "x", "async": true},
            {"command": "", "timeout": 10},
            {"command": "x", "url": "http://127.0.0.1/"},
            {"command": "x", "timeout": -5},
            {"command": "x", "timeout": "5s"},
            {"command": "x", "fuel": 100},
            {"command": "g.wasm", "fs": "all", "memory": 0},
            {"command": "x", "onError": "explode"}
        ],
        "Stop": [{"command": "x", "match": "bash"}],
        "PreToolUse2": [],
        "postToolUse": []
    }}));
    let file = p.path().join(".coding-agent/hooks.json");
    assert!(errors.iter().all(|e| e.file == file));
    assert!(errors.len() >= 13, "{errors:#?}");
    find(
        &errors,
        "PreToolUse[0]",
        "unknown key `comand`; did you mean `command`?",
    );
    find(&errors, "PreToolUse[0]", "neither `command` nor `url`");
    find(&errors, "PreToolUse[1]", "not a valid regex");
    find(
        &errors,
        "PreToolUse[2]",
        "`async` is not allowed on PreToolUse",
    );
    find(&errors, "PreToolUse[3]", "`command` is empty");
    find(&errors, "PreToolUse[4]", "both `command` and `url`");
    find(
        &errors,
        "PreToolUse[5]",
        "`timeout` must be a whole number of milliseconds",
    );
    find(&errors, "PreToolUse[6]", "`timeout` must be a whole number");
    find(
        &errors,
        "PreToolUse[7]",
        "`fuel` applies to wasm hooks only",
    );
    find(
        &errors,
        "PreToolUse[8]",
        "`fs` must be \"none\", \"read\" or \"write\"",
    );
    find(
        &errors,
        "PreToolUse[8]",
        "`memory` is the memory cap in MiB",
    );
    find(
        &errors,
        "PreToolUse[9]",
        "`onError` must be \"warn\" or \"block\"",
    );
    find(
        &errors,
        "Stop[0]",
        "only applies to the tool events (PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, PermissionDenied, PreSkillShellCommand)",
    );
    let unknown: Vec<_> = errors.iter().filter(|e| e.hook.is_none()).collect();
    assert!(
        unknown
            .iter()
            .any(|e| e.message.contains("unknown event `PreToolUse2`"))
    );
    assert!(unknown.iter().any(|e| {
        e.message
            .contains("did you mean `PostToolUse`? event names are case-sensitive")
    }));
}

#[test]
fn error_display_names_file_hook_and_fix() {
    let (p, errors) =
        errors_of(json!({"hooks": {"PostToolUse": [{"command": "x", "asynch": true}]}}));
    let text = errors[0].to_string();
    let file = p.path().join(".coding-agent/hooks.json");
    assert_eq!(
        text,
        format!(
            "{}: PostToolUse[0]: unknown key `asynch`; did you mean `async`?",
            file.display()
        )
    );
}

#[test]
fn both_files_are_checked_and_a_missing_file_is_empty() {
    let p = Project::new(json!({"hooks": {"Stop": [{"command": 5}]}}));
    p.write_global(json!({"hooks": {"Stop": [{"command": "x", "cwd": 7}]}, "extra": 1}));
    let errors = config::load(&p.paths()).unwrap_err().0;
    let global = p.home.path().join(".coding-agent/hooks.json");
    assert!(
        errors
            .iter()
            .any(|e| e.file == global && e.message.contains("unknown top-level key `extra`"))
    );
    assert!(
        errors
            .iter()
            .any(|e| e.file == global && e.hook.as_deref() == Some("Stop[0]"))
    );
    assert!(
        errors
            .iter()
            .any(|e| e.file != global && e.message.contains("`command` must be a string"))
    );

    let empty = tempfile::TempDir::new().unwrap();
    let paths = config::ConfigPaths::with_home(empty.path(), Some(empty.path().join("nohome")));
    assert!(config::load(&paths).unwrap().is_empty());
}

#[test]
fn invalid_json_says_where() {
    let p = Project::new(json!({}));
    p.write(
        ".coding-agent/hooks.json",
        "{\"hooks\": {\n  \"Stop\": [,]\n}}",
    );
    let errors = config::load(&p.paths()).unwrap_err().0;
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].message.contains("invalid JSON at line 2"),
        "{}",
        errors[0]
    );
}

#[test]
fn json_with_comments_says_json_has_none_but_gemini_settings_may() {
    let p = Project::new(json!({}));
    p.write(
        ".coding-agent/hooks.json",
        "{\"hooks\": {\n  // block rm\n  \"Stop\": [{\"command\": \"true\"}]\n}}",
    );
    let errors = config::load(&p.paths()).unwrap_err().0;
    assert!(
        errors[0]
            .message
            .contains("JSON has no comments: remove the comment at line 2"),
        "{}",
        errors[0]
    );
    // Claude Code's settings are strict JSON too.
    p.write(".coding-agent/hooks.json", "{}");
    p.write(".claude/settings.json", "{ /* mine */ \"hooks\": {} }");
    let errors = config::load(&p.paths()).unwrap_err().0;
    assert!(
        errors[0].message.contains("JSON has no comments"),
        "{}",
        errors[0]
    );
    // Gemini CLI reads its settings with comments: so does hookhost.
    p.write(".claude/settings.json", "{}");
    p.write(
        ".gemini/settings.json",
        "{\n  // the guard\n  \"hooks\": {\"BeforeTool\": [{\"matcher\": \"run_shell_command\", /* x */ \"hooks\": [\n    {\"type\": \"command\", \"command\": \"echo '//not a comment'\"}]}]}\n}",
    );
    let set = config::load(&p.paths()).unwrap();
    assert_eq!(set.len(), 1);
}

#[test]
fn claude_code_nested_format_gets_a_migration_hint() {
    let (_, errors) = errors_of(json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}
    ]}}));
    find(&errors, "PreToolUse[0]", "Claude Code's nested format");
}

#[test]
fn wasm_commands_are_recognised_and_split_like_a_shell() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "hooks/guard.wasm --strict 'two words'", "fuel": 1000, "memory": 16, "fs": "none", "env": ["HOME"]},
        {"command": "echo hooks/guard.wasm"}
    ]}}));
    let set = config::load(&p.paths()).unwrap();
    let hooks: Vec<_> = set.all().collect();
    match &hooks[0].handler {
        config::Handler::Wasm {
            module,
            argv,
            limits,
            ..
        } => {
            assert_eq!(module.path(), p.path().join("hooks/guard.wasm"));
            assert_eq!(argv, &["hooks/guard.wasm", "--strict", "two words"]);
            assert_eq!(
                (limits.fuel, limits.memory_mib, limits.fs),
                (Some(1000), 16, config::FsAccess::None)
            );
            assert_eq!(limits.env, ["HOME"]);
        }
        other => panic!("expected wasm, got {other:?}"),
    }
    assert_eq!(hooks[1].handler.kind(), config::HookKind::Shell);
}

#[test]
fn secrets_belong_to_wasm_hooks_of_the_users_or_the_managed_file() {
    let secret = json!({"TOKEN": {"env": "API_TOKEN", "hosts": ["api.example.com"]}});
    let (p, errors) = errors_of(json!({"hooks": {"PreToolUse": [
        {"command": "g.wasm", "net": ["api.example.com:443"], "secrets": secret},
        {"command": "./x.sh", "secrets": secret},
        {"command": "g.wasm", "secrets": {"TOKEN": {"env": "A B", "hosts": []}}}
    ]}}));
    find(
        &errors,
        "PreToolUse[0]",
        "only in your own ~/.coding-agent/hooks.json or the managed file",
    );
    find(
        &errors,
        "PreToolUse[1]",
        "`secrets` applies to wasm hooks only",
    );
    find(&errors, "PreToolUse[2]", "`secrets.TOKEN`: `env` must name");
    // The user's file may, when every host of a secret is in `net`.
    p.write_global(json!({"hooks": {"PreToolUse": [
        {"command": "~/g.wasm", "net": ["api.example.com:443"], "secrets": secret},
        {"command": "~/g.wasm", "net": ["other.example.com:443"], "secrets": secret}
    ]}}));
    let global = p.home.path().join(".coding-agent/hooks.json");
    let errors = match config::load(&p.paths()) {
        Ok(_) => Vec::new(),
        Err(e) => e.0,
    };
    let of_global: Vec<_> = errors.iter().filter(|e| e.file == global).collect();
    assert_eq!(of_global.len(), 1, "{of_global:#?}");
    assert_eq!(of_global[0].hook.as_deref(), Some("PreToolUse[1]"));
    assert!(
        of_global[0]
            .message
            .contains("secret `TOKEN` may go to api.example.com, which is not in `net`"),
        "{}",
        of_global[0].message
    );
}

#[test]
fn net_on_a_wasm_hook_is_accepted() {
    let (_p, errors) = errors_of(json!({"hooks": {"PreToolUse": [
        {"command": "g.wasm", "net": ["127.0.0.1:8080", "api.example.com:443"]}
    ]}}));
    assert!(errors.is_empty(), "{errors:#?}");
}
