//! The command fields: the exec form (`args`), `shell`, `onFailure`, `statusMessage`, `once`.

use crate::config::{ConfigPaths, Handler, Hook, OnError, Scope, ShellKind, parse_file};
use std::path::Path;

fn parse(text: &str) -> (Vec<Hook>, Vec<String>) {
    let paths = ConfigPaths::with_home(Path::new("/p"), None);
    let (hooks, errors) = parse_file(
        text,
        Path::new("/p/.coding-agent/hooks.json"),
        Scope::Global,
        &paths,
    );
    (hooks, errors.iter().map(ToString::to_string).collect())
}

#[test]
fn args_make_the_exec_form_with_each_argument_intact() {
    let (hooks, errors) = parse(
        r#"{"hooks": {"PreToolUse": [{"command": "node", "args": ["guard.js", "a b", "$HOME", "${CLAUDE_PROJECT_DIR}/x"]}]}}"#,
    );
    assert!(errors.is_empty(), "{errors:?}");
    let Handler::Exec {
        command,
        program,
        args,
    } = &hooks[0].handler
    else {
        panic!("{:?}", hooks[0].handler)
    };
    assert_eq!(program, "node");
    assert_eq!(
        args,
        &["guard.js", "a b", "$HOME", "${CLAUDE_PROJECT_DIR}/x"]
    );
    // Shown as one line a shell splits back into the same words, the placeholder kept.
    assert_eq!(
        command,
        r#"node guard.js "a b" "\$HOME" "${CLAUDE_PROJECT_DIR}/x""#
    );
    assert_eq!(
        shlex::split(command).unwrap()[..3],
        ["node", "guard.js", "a b"]
    );
}

#[test]
fn an_edited_argument_is_another_handler() {
    let (a, _) = parse(r#"{"hooks": {"PreToolUse": [{"command": "node", "args": ["a.js"]}]}}"#);
    let (b, _) = parse(r#"{"hooks": {"PreToolUse": [{"command": "node", "args": ["b.js"]}]}}"#);
    let (shell, _) = parse(r#"{"hooks": {"PreToolUse": [{"command": "node a.js"}]}}"#);
    assert!(!a[0].same_handler(&b[0]));
    // The same words as a shell command are not the same handler: no shell runs them.
    assert!(!a[0].same_handler(&shell[0]));
    assert!(a[0].same_handler(&a[0].clone()));
}

#[test]
fn shell_picks_the_interpreter_of_the_shell_form_only() {
    let (hooks, errors) =
        parse(r#"{"hooks": {"Stop": [{"command": "echo ${A[0]}", "shell": "bash"}]}}"#);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(hooks[0].handler.shell(), Some(ShellKind::Bash));
    let (_, errors) = parse(
        r#"{"hooks": {"Stop": [{"command": "node", "args": [], "shell": "bash"}, {"command": "x", "shell": "zsh"}, {"url": "http://h", "args": ["a"]}]}}"#,
    );
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors[0].contains("without a shell"), "{errors:?}");
    assert!(errors[1].contains("\"sh\" (the default), \"bash\" or \"powershell\""));
    assert!(errors[2].contains("not to an HTTP, MCP, prompt or agent hook"));
}

#[test]
fn on_failure_is_on_errors_other_name() {
    let (hooks, errors) = parse(
        r#"{"hooks": {"PreToolUse": [{"command": "x", "onFailure": "block"}, {"command": "y", "onFailure": "continue", "onError": "warn"}]}}"#,
    );
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(hooks[0].on_error, OnError::Block);
    assert_eq!(hooks[1].on_error, OnError::Warn);
    let (_, errors) = parse(
        r#"{"hooks": {"PreToolUse": [{"command": "x", "onFailure": "block", "onError": "warn"}]}}"#,
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("keep one"), "{errors:?}");
}

#[test]
fn status_message_and_once_are_kept() {
    let (hooks, errors) = parse(
        r#"{"hooks": {"SessionStart": [{"command": "x", "statusMessage": "Loading context", "once": true}]}}"#,
    );
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(hooks[0].status_message.as_deref(), Some("Loading context"));
    assert!(hooks[0].once);
}

#[test]
fn claudes_fields_reach_the_native_hook() {
    let f = crate::config::agents::read_settings(
        crate::Dialect::Claude,
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "node", "args": ["${CLAUDE_PROJECT_DIR}/g.js"],
             "onFailure": "block", "statusMessage": "Checking"},
            {"type": "command", "command": "x", "shell": "bash", "once": true, "asyncRewake": true, "onFailure": "continue"}]}]}}"#,
    );
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    assert_eq!(
        f.hooks[0].hook,
        serde_json::json!({"dialect": "claude", "command": "node", "args": ["${CLAUDE_PROJECT_DIR}/g.js"],
            "statusMessage": "Checking", "match": "Bash", "onError": "block"})
    );
    assert_eq!(f.hooks[1].hook["onError"], "warn");
    assert_eq!(f.hooks[1].hook["shell"], "bash");
    assert!(f.hooks[1].hook.get("once").is_none());
    let warned: Vec<&str> = f.warnings.iter().map(|w| w.1.as_str()).collect();
    assert_eq!(warned.len(), 2, "{warned:?}");
    assert!(warned[0].contains("skill frontmatter"), "{warned:?}");
    assert!(warned[1].contains("asyncRewake"), "{warned:?}");
}
