//! The loop with a recording ToolHooks: every trigger point, in order.

use super::*;
use crate::permission::Rule;
use async_trait::async_trait;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

/// Records each call as "Event" or "Event:detail"; scripted verdicts per event.
#[derive(Default)]
struct Recorder {
    calls: Mutex<Vec<String>>,
    block_tools: Vec<&'static str>,
    rewrite: Option<(&'static str, Value)>,
    stop_forces: Mutex<usize>,
    ask: bool,
    /// What PermissionRequest hooks answer: `Some(true)` allow, `Some(false)` deny.
    permission: Option<bool>,
    /// Context SubagentStart hooks give the subagent.
    subagent_context: Option<&'static str>,
    /// PreCompact blocks with this reason.
    block_compact: Option<&'static str>,
}

impl Recorder {
    fn log(&self, s: String) {
        self.calls.lock().unwrap().push(s);
    }
    fn calls(&self) -> Vec<String> {
        self.calls.lock().unwrap().clone()
    }
}

#[async_trait]
impl ToolHooks for Recorder {
    async fn session_start(&self, _: &HookContext, source: &str) -> HookVerdict {
        self.log(format!("SessionStart:{source}"));
        HookVerdict {
            additional_context: vec!["ctx from SessionStart".into()],
            ..HookVerdict::pass()
        }
    }
    async fn user_prompt_submit(&self, _: &HookContext, prompt: &str) -> HookVerdict {
        self.log(format!("UserPromptSubmit:{prompt}"));
        HookVerdict::pass()
    }
    async fn pre_tool_use(&self, cx: &HookContext, tool: &str, args: &Value) -> HookVerdict {
        self.log(format!(
            "PreToolUse:{tool}{}",
            if cx.is_subagent { ":sub" } else { "" }
        ));
        if self.block_tools.contains(&tool) {
            return HookVerdict {
                verdict: Verdict::Block(format!("no {tool}")),
                ..HookVerdict::pass()
            };
        }
        if let Some((t, new)) = &self.rewrite
            && *t == tool
        {
            return HookVerdict {
                updated_args: Some(new.clone()),
                ask: self.ask,
                ..HookVerdict::pass()
            };
        }
        let _ = args;
        HookVerdict {
            ask: self.ask,
            ..HookVerdict::pass()
        }
    }
    async fn post_tool_use(
        &self,
        cx: &HookContext,
        tool: &str,
        _: &Value,
        _: &Value,
        err: bool,
    ) -> HookVerdict {
        self.log(format!(
            "PostToolUse:{tool}:{err}{}",
            if cx.is_subagent { ":sub" } else { "" }
        ));
        HookVerdict {
            feedback: vec!["post feedback".into()],
            ..HookVerdict::pass()
        }
    }
    async fn pre_compact(&self, _: &HookContext, trigger: &str) -> HookVerdict {
        self.log(format!("PreCompact:{trigger}"));
        match self.block_compact {
            Some(why) => HookVerdict {
                verdict: Verdict::Block(why.into()),
                ..HookVerdict::pass()
            },
            None => HookVerdict::pass(),
        }
    }
    async fn stop(&self, _: &HookContext, active: bool) -> HookVerdict {
        self.log(format!("Stop:{active}"));
        let mut n = self.stop_forces.lock().unwrap();
        if *n > 0 {
            *n -= 1;
            return HookVerdict {
                verdict: Verdict::Force("keep going".into()),
                ..HookVerdict::pass()
            };
        }
        HookVerdict::pass()
    }
    async fn subagent_stop(&self, cx: &HookContext, active: bool) -> HookVerdict {
        self.log(format!(
            "SubagentStop:{active}:{}:{}",
            cx.is_subagent,
            cx.agent_type.as_deref().unwrap_or("-")
        ));
        HookVerdict::pass()
    }
    async fn session_end(&self, _: &HookContext, reason: &str) -> HookVerdict {
        self.log(format!("SessionEnd:{reason}"));
        HookVerdict::pass()
    }
    async fn permission_request(
        &self,
        cx: &HookContext,
        tool: &str,
        _: &Value,
        reason: &str,
    ) -> HookVerdict {
        self.log(format!(
            "PermissionRequest:{tool}:{reason}{}",
            if cx.is_subagent { ":sub" } else { "" }
        ));
        match self.permission {
            Some(true) => HookVerdict {
                allow: true,
                ..HookVerdict::pass()
            },
            Some(false) => HookVerdict {
                verdict: Verdict::Block("not on my watch".into()),
                ..HookVerdict::pass()
            },
            None => HookVerdict::pass(),
        }
    }
    async fn post_tool_use_failure(
        &self,
        _: &HookContext,
        tool: &str,
        _: &Value,
        error: &str,
    ) -> HookVerdict {
        self.log(format!("PostToolUseFailure:{tool}:{error}"));
        HookVerdict {
            feedback: vec!["failure feedback".into()],
            ..HookVerdict::pass()
        }
    }
    async fn notification(&self, _: &HookContext, message: &str, kind: &str) -> HookVerdict {
        self.log(format!("Notification:{kind}:{message}"));
        HookVerdict::pass()
    }
    async fn subagent_start(&self, cx: &HookContext, agent: &str, prompt: &str) -> HookVerdict {
        self.log(format!("SubagentStart:{agent}:{prompt}:{}", cx.is_subagent));
        HookVerdict {
            additional_context: self
                .subagent_context
                .iter()
                .map(ToString::to_string)
                .collect(),
            ..HookVerdict::pass()
        }
    }
    async fn post_compact(&self, _: &HookContext, trigger: &str, summary: &str) -> HookVerdict {
        self.log(format!("PostCompact:{trigger}:{summary}"));
        HookVerdict::pass()
    }
    async fn stop_failure(&self, _: &HookContext, error: &str) -> HookVerdict {
        self.log(format!("StopFailure:{error}"));
        HookVerdict::pass()
    }
}

fn transcript(v: Value) -> Box<dyn Model> {
    Box::new(ScriptedModel::new(serde_json::from_value(v).unwrap()))
}

fn agent(hooks: Arc<Recorder>, model: Value, dir: &std::path::Path) -> Agent {
    Agent::new(transcript(model), hooks, dir, "s")
}

#[tokio::test]
async fn trigger_points_fire_in_order() {
    let dir = tempfile::TempDir::new().unwrap();
    let hooks = Arc::new(Recorder {
        stop_forces: Mutex::new(1),
        ..Recorder::default()
    });
    let model = json!({
        "turns": [
            {"text": "plan", "toolCalls": [{"name": "todo_write", "args": {"todos": [{"content": "write file", "status": "pending"}]}}]},
            {"toolCalls": [{"name": "write_file", "args": {"path": "a.txt", "content": "hi"}}]},
            {"text": "done?"},
            {"toolCalls": [{"name": "todo_write", "args": {"todos": [{"content": "write file", "status": "completed"}]}}]},
            {"text": "done"},
            {"text": "really done"}
        ]
    });
    let mut a = agent(hooks.clone(), model, dir.path());
    let answer = a.run("please write a.txt").await.unwrap();
    a.end("logout").await;
    assert_eq!(answer, "really done");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "hi"
    );
    assert_eq!(
        hooks.calls(),
        [
            "SessionStart:startup",
            "UserPromptSubmit:please write a.txt",
            "PreToolUse:todo_write",
            "PostToolUse:todo_write:false",
            "PreToolUse:write_file",
            "PostToolUse:write_file:false",
            // "done?" with an open todo: TodoGuard continues before any Stop hook runs.
            "PreToolUse:todo_write",
            "PostToolUse:todo_write:false",
            // stopHookActive reports continuations forced by Stop hooks, not by TodoGuard.
            "Stop:false",
            "Stop:true",
            "SessionEnd:logout",
        ]
    );
    let texts: Vec<&str> = a.messages().iter().map(|m| m.content.as_str()).collect();
    assert!(
        texts
            .iter()
            .any(|t| t.contains("[hook context] ctx from SessionStart"))
    );
    assert!(
        texts
            .iter()
            .any(|t| t.contains("todo list still has 1 open item"))
    );
    assert!(
        texts.contains(&"keep going"),
        "the Stop force is a user message"
    );
    assert!(
        texts
            .iter()
            .any(|t| t.contains("[PostToolUse hook feedback] post feedback"))
    );
}

#[tokio::test]
async fn a_blocked_call_does_not_run_and_the_reason_reaches_the_model() {
    let dir = tempfile::TempDir::new().unwrap();
    let hooks = Arc::new(Recorder {
        block_tools: vec!["write_file"],
        ..Recorder::default()
    });
    let model = json!({"turns": [
        {"toolCalls": [{"name": "write_file", "args": {"path": "x", "content": "x"}}]},
        {"text": "ok"}
    ]});
    let mut a = agent(hooks.clone(), model, dir.path());
    a.run("go").await.unwrap();
    assert!(!dir.path().join("x").exists());
    let tool_msg = a.messages().iter().find(|m| m.role == Role::Tool).unwrap();
    assert_eq!(
        tool_msg.content,
        "Blocked by a PreToolUse hook: no write_file"
    );
    assert!(!hooks.calls().iter().any(|c| c.starts_with("PostToolUse")));
}

#[tokio::test]
async fn hooks_cannot_bypass_a_system_deny() {
    let dir = tempfile::TempDir::new().unwrap();
    // The hook rewrites a harmless command into a system-denied one.
    let hooks = Arc::new(Recorder {
        rewrite: Some(("bash", json!({"command": "sudo rm -rf /"}))),
        ..Recorder::default()
    });
    let model = json!({"turns": [{"toolCalls": [{"name": "bash", "args": {"command": "echo hi"}}]}, {"text": "ok"}]});
    let mut a = agent(hooks, model, dir.path());
    a.run("go").await.unwrap();
    let tool_msg = a.messages().iter().find(|m| m.role == Role::Tool).unwrap();
    assert!(
        tool_msg
            .content
            .starts_with("Permission denied: denied by system rule bash(sudo *)"),
        "{}",
        tool_msg.content
    );
}

#[tokio::test]
async fn ask_goes_to_the_prompter() {
    struct Yes;
    #[async_trait]
    impl Prompter for Yes {
        async fn confirm(&self, _: &str, _: &Value, _: &str) -> bool {
            true
        }
    }
    let dir = tempfile::TempDir::new().unwrap();
    let model = || json!({"turns": [{"toolCalls": [{"name": "write_file", "args": {"path": "y", "content": "y"}}]}, {"text": "ok"}]});
    let hooks = Arc::new(Recorder {
        ask: true,
        ..Recorder::default()
    });
    let mut denied = agent(hooks.clone(), model(), dir.path());
    denied.run("go").await.unwrap();
    assert!(
        !dir.path().join("y").exists(),
        "no terminal: ask means deny"
    );
    let mut allowed = agent(hooks, model(), dir.path()).with_prompter(Arc::new(Yes));
    allowed.run("go").await.unwrap();
    assert!(dir.path().join("y").exists());
}

#[tokio::test]
async fn subagents_see_only_tool_hooks_and_fire_subagent_stop() {
    let dir = tempfile::TempDir::new().unwrap();
    let hooks = Arc::new(Recorder {
        stop_forces: Mutex::new(0),
        ..Recorder::default()
    });
    let model = json!({
        "turns": [
            {"toolCalls": [{"name": "task", "args": {"prompt": "look around", "subagent": "scout"}}]},
            {"text": "thanks"}
        ],
        "subagents": {"scout": {"turns": [
            {"toolCalls": [{"name": "bash", "args": {"command": "true"}}]},
            {"text": "all quiet"}
        ]}}
    });
    let mut a = agent(hooks.clone(), model, dir.path());
    a.run("go").await.unwrap();
    assert_eq!(
        hooks.calls(),
        [
            "SessionStart:startup",
            "UserPromptSubmit:go",
            "PreToolUse:task",
            "SubagentStart:scout:look around:false",
            "PreToolUse:bash:sub",
            "PostToolUse:bash:false:sub",
            // The subagent's type, for SubagentStop's `agentType`.
            "SubagentStop:false:true:scout",
            "PostToolUse:task:false",
            "Stop:false",
        ]
    );
    let result = a.messages().iter().find(|m| m.role == Role::Tool).unwrap();
    assert!(result.content.starts_with("all quiet"));
}

#[tokio::test]
async fn forced_continuations_are_capped() {
    let dir = tempfile::TempDir::new().unwrap();
    let hooks = Arc::new(Recorder {
        stop_forces: Mutex::new(100),
        ..Recorder::default()
    });
    let turns: Vec<Value> = (0..20)
        .map(|i| json!({"text": format!("answer {i}")}))
        .collect();
    let mut a =
        agent(hooks.clone(), json!({"turns": turns}), dir.path()).with_config(AgentConfig {
            max_forced: 3,
            ..AgentConfig::default()
        });
    let answer = a.run("go").await.unwrap();
    assert_eq!(answer, "answer 3");
    let stops: Vec<String> = hooks
        .calls()
        .into_iter()
        .filter(|c| c.starts_with("Stop"))
        .collect();
    assert_eq!(stops, ["Stop:false", "Stop:true", "Stop:true"]);
}

#[tokio::test]
async fn compaction_fires_pre_compact() {
    let dir = tempfile::TempDir::new().unwrap();
    let hooks = Arc::new(Recorder::default());
    let turns: Vec<Value> = (0..6)
        .map(|_| json!({"toolCalls": [{"name": "read_file", "args": {"path": "missing"}}]}))
        .chain([json!({"text": "done"})])
        .collect();
    let mut a =
        agent(hooks.clone(), json!({"turns": turns}), dir.path()).with_config(AgentConfig {
            compact_after: 6,
            keep_after_compact: 2,
            ..AgentConfig::default()
        });
    a.run("go").await.unwrap();
    let calls = hooks.calls();
    let pre = calls.iter().position(|c| c == "PreCompact:auto").unwrap();
    assert!(
        calls[pre + 1].starts_with("PostCompact:auto:[")
            && calls[pre + 1].ends_with("earlier messages compacted]"),
        "PostCompact follows with the note that replaced the messages: {calls:?}"
    );
    assert!(
        a.messages()
            .iter()
            .any(|m| m.content.contains("earlier messages compacted"))
    );
}

/// A PreCompact hook that blocks keeps every message, and no PostCompact follows.
#[tokio::test]
async fn a_blocked_pre_compact_keeps_the_conversation() {
    let dir = tempfile::TempDir::new().unwrap();
    let hooks = Arc::new(Recorder {
        block_compact: Some("keep the whole history"),
        ..Recorder::default()
    });
    let turns: Vec<Value> = (0..6)
        .map(|_| json!({"toolCalls": [{"name": "read_file", "args": {"path": "missing"}}]}))
        .chain([json!({"text": "done"})])
        .collect();
    let mut a =
        agent(hooks.clone(), json!({"turns": turns}), dir.path()).with_config(AgentConfig {
            compact_after: 6,
            keep_after_compact: 2,
            ..AgentConfig::default()
        });
    a.run("go").await.unwrap();
    let calls = hooks.calls();
    assert!(calls.iter().any(|c| c == "PreCompact:auto"), "{calls:?}");
    assert!(
        !calls.iter().any(|c| c.starts_with("PostCompact")),
        "{calls:?}"
    );
    assert!(
        !a.messages()
            .iter()
            .any(|m| m.content.contains("earlier messages compacted"))
    );
    // Every turn's call and result are still there.
    assert!(a.messages().len() > 12, "{}", a.messages().len());
}

/// A call the checker would ask about (an `ask` rule on `write_file`), with a PermissionRequest
/// answer and no one at the prompt ([`DenyPrompter`]).
async fn asked_write(permission: Option<bool>) -> (Arc<Recorder>, Agent, tempfile::TempDir) {
    let dir = tempfile::TempDir::new().unwrap();
    let hooks = Arc::new(Recorder {
        permission,
        ..Recorder::default()
    });
    let model = json!({"turns": [
        {"toolCalls": [{"name": "write_file", "args": {"path": "w", "content": "w"}}]},
        {"text": "ok"}
    ]});
    let mut checker = PermissionChecker::default();
    checker.ask.push(Rule::parse("write_file").unwrap());
    let mut a = agent(hooks.clone(), model, dir.path()).with_permissions(checker);
    a.run("go").await.unwrap();
    (hooks, a, dir)
}

fn tool_message(a: &Agent) -> String {
    a.messages()
        .iter()
        .find(|m| m.role == Role::Tool)
        .unwrap()
        .content
        .clone()
}

#[tokio::test]
async fn a_permission_request_hook_allows_or_denies_what_would_be_asked() {
    let (hooks, a, dir) = asked_write(Some(true)).await;
    assert!(dir.path().join("w").exists(), "allowed without the prompt");
    let calls = hooks.calls();
    assert!(calls.contains(&"PermissionRequest:write_file:rule write_file".to_string()));
    assert!(
        !calls.iter().any(|c| c.starts_with("Notification")),
        "no prompt, no notification: {calls:?}"
    );
    assert!(tool_message(&a).starts_with("wrote 1 bytes to w"));

    let (_, a, dir) = asked_write(Some(false)).await;
    assert!(!dir.path().join("w").exists());
    assert_eq!(
        tool_message(&a),
        "Permission denied: denied by a PermissionRequest hook: not on my watch"
    );

    // No answer: asked as before (here nobody is at the prompt), Notification first.
    let (hooks, a, dir) = asked_write(None).await;
    assert!(!dir.path().join("w").exists());
    assert!(tool_message(&a).contains("the user did not allow it (rule write_file)"));
    assert!(
        hooks.calls().contains(
            &"Notification:permission_prompt:write_file needs your permission (rule write_file)"
                .to_string()
        )
    );
}

#[tokio::test]
async fn a_permission_request_hook_cannot_override_a_deny() {
    let dir = tempfile::TempDir::new().unwrap();
    let hooks = Arc::new(Recorder {
        permission: Some(true),
        ..Recorder::default()
    });
    let model = json!({"turns": [
        {"toolCalls": [{"name": "bash", "args": {"command": "sudo touch pwned"}}]},
        {"toolCalls": [{"name": "write_file", "args": {"path": "d", "content": "d"}}]},
        {"text": "ok"}
    ]});
    let mut checker = PermissionChecker::default();
    checker.deny.push(Rule::parse("write_file").unwrap());
    // An ask rule that also matches: the deny comes first, so nothing is asked.
    checker.ask.push(Rule::parse("*").unwrap());
    let mut a = agent(hooks.clone(), model, dir.path()).with_permissions(checker);
    a.run("go").await.unwrap();
    assert!(!dir.path().join("pwned").exists());
    assert!(!dir.path().join("d").exists());
    let tools: Vec<&str> = a
        .messages()
        .iter()
        .filter(|m| m.role == Role::Tool)
        .map(|m| m.content.as_str())
        .collect();
    assert_eq!(
        tools,
        [
            "Permission denied: denied by system rule bash(sudo *)",
            "Permission denied: denied by rule write_file"
        ]
    );
    assert!(
        !hooks
            .calls()
            .iter()
            .any(|c| c.starts_with("PermissionRequest")),
        "a deny never reaches a PermissionRequest hook: {:?}",
        hooks.calls()
    );
}

#[tokio::test]
async fn a_failed_call_fires_post_tool_use_then_post_tool_use_failure() {
    let dir = tempfile::TempDir::new().unwrap();
    let hooks = Arc::new(Recorder::default());
    let model = json!({"turns": [
        {"toolCalls": [{"name": "read_file", "args": {"path": "missing"}}]},
        {"text": "ok"}
    ]});
    let mut a = agent(hooks.clone(), model, dir.path());
    a.run("go").await.unwrap();
    let calls = hooks.calls();
    let post = calls
        .iter()
        .position(|c| c == "PostToolUse:read_file:true")
        .unwrap();
    assert!(
        calls[post + 1].starts_with("PostToolUseFailure:read_file:"),
        "{calls:?}"
    );
    let text = tool_message(&a);
    assert!(text.contains("[PostToolUse hook feedback] post feedback"));
    assert!(text.contains("[PostToolUseFailure hook feedback] failure feedback"));
}

#[tokio::test]
async fn a_successful_call_fires_no_failure_event() {
    let dir = tempfile::TempDir::new().unwrap();
    let hooks = Arc::new(Recorder::default());
    let model = json!({"turns": [
        {"toolCalls": [{"name": "write_file", "args": {"path": "ok", "content": "x"}}]},
        {"text": "ok"}
    ]});
    agent(hooks.clone(), model, dir.path())
        .run("go")
        .await
        .unwrap();
    assert!(!hooks.calls().iter().any(|c| c.contains("Failure")));
}

#[tokio::test]
async fn subagent_start_context_goes_to_the_subagent() {
    struct Seen(Mutex<Vec<String>>);
    #[async_trait]
    impl Model for Seen {
        async fn next(
            &self,
            messages: &[Message],
            _: &[crate::model::ToolSpec],
        ) -> anyhow::Result<ModelTurn> {
            let mut seen = self.0.lock().unwrap();
            seen.extend(messages.iter().map(|m| m.content.clone()));
            Ok(ModelTurn {
                text: "sub done".into(),
                tool_calls: Vec::new(),
            })
        }
    }
    struct Parent(Arc<Seen>);
    struct Shared(Arc<Seen>);
    #[async_trait]
    impl Model for Shared {
        async fn next(
            &self,
            m: &[Message],
            t: &[crate::model::ToolSpec],
        ) -> anyhow::Result<ModelTurn> {
            self.0.next(m, t).await
        }
    }
    #[async_trait]
    impl Model for Parent {
        async fn next(
            &self,
            messages: &[Message],
            _: &[crate::model::ToolSpec],
        ) -> anyhow::Result<ModelTurn> {
            let first = messages.iter().all(|m| m.role != Role::Tool);
            Ok(ModelTurn {
                text: String::new(),
                tool_calls: if first {
                    vec![ToolCall {
                        id: "t1".into(),
                        name: "task".into(),
                        args: json!({"prompt": "scout", "subagent": "scout"}),
                    }]
                } else {
                    Vec::new()
                },
            })
        }
        fn subagent(&self, _: &str) -> Option<Box<dyn Model>> {
            Some(Box::new(Shared(self.0.clone())))
        }
    }
    let dir = tempfile::TempDir::new().unwrap();
    let seen = Arc::new(Seen(Mutex::new(Vec::new())));
    let hooks = Arc::new(Recorder {
        subagent_context: Some("you are a scout"),
        ..Recorder::default()
    });
    let mut a = Agent::new(
        Box::new(Parent(seen.clone())),
        hooks.clone(),
        dir.path(),
        "s",
    );
    a.run("go").await.unwrap();
    let sub_saw = seen.0.lock().unwrap().clone();
    assert_eq!(sub_saw, ["[hook context] you are a scout", "scout"]);
    assert!(
        !a.messages()
            .iter()
            .any(|m| m.content.contains("you are a scout")),
        "the parent's conversation does not get the subagent's context"
    );
}

#[tokio::test]
async fn a_model_error_fires_stop_failure() {
    struct Broken;
    #[async_trait]
    impl Model for Broken {
        async fn next(
            &self,
            _: &[Message],
            _: &[crate::model::ToolSpec],
        ) -> anyhow::Result<ModelTurn> {
            anyhow::bail!("API error: 529 overloaded")
        }
    }
    let dir = tempfile::TempDir::new().unwrap();
    let hooks = Arc::new(Recorder::default());
    let mut a = Agent::new(Box::new(Broken), hooks.clone(), dir.path(), "s");
    let err = a.run("go").await.unwrap_err();
    assert_eq!(err.to_string(), "API error: 529 overloaded");
    assert_eq!(
        hooks.calls(),
        [
            "SessionStart:startup",
            "UserPromptSubmit:go",
            "StopFailure:API error: 529 overloaded"
        ]
    );
}

/// SessionStart sets variables for the shell; PostToolUse of bash replaces its result.
struct EnvAndRedact;

#[async_trait]
impl ToolHooks for EnvAndRedact {
    async fn session_start(&self, _: &HookContext, _: &str) -> HookVerdict {
        HookVerdict {
            env: vec![
                ("PROJECT_MODE".into(), "first".into()),
                ("PROJECT_MODE".into(), "from the env file".into()),
                ("LD_PRELOAD".into(), "/tmp/not-applied.so".into()),
            ],
            ..HookVerdict::pass()
        }
    }
    async fn post_tool_use(
        &self,
        _: &HookContext,
        tool: &str,
        args: &Value,
        result: &Value,
        _: bool,
    ) -> HookVerdict {
        let secret = args["command"]
            .as_str()
            .unwrap_or_default()
            .contains("secret");
        if tool != "bash" || !secret {
            return HookVerdict::pass();
        }
        assert!(
            result["stdout"].as_str().unwrap().contains("hunter2"),
            "{result}"
        );
        HookVerdict {
            updated_tool_output: Some(json!("[redacted by a hook]")),
            ..HookVerdict::pass()
        }
    }
}

#[tokio::test]
async fn env_file_variables_reach_later_shell_calls_and_a_hook_replaces_what_the_model_sees() {
    let dir = tempfile::TempDir::new().unwrap();
    let model = json!({"turns": [
        {"toolCalls": [{"id": "c1", "name": "bash", "args": {"command": "printf '%s|%s' \"$PROJECT_MODE\" \"$LD_PRELOAD\""}}]},
        {"toolCalls": [{"id": "c2", "name": "bash", "args": {"command": "echo secret: hunter2"}}]},
        {"text": "done"}
    ]});
    let mut a = Agent::new(transcript(model), Arc::new(EnvAndRedact), dir.path(), "s");
    a.run("go").await.unwrap();
    let results: Vec<&str> = a
        .messages()
        .iter()
        .filter(|m| m.role == Role::Tool)
        .map(|m| m.content.as_str())
        .collect();
    assert!(
        results[0].contains(r#""stdout":"from the env file|""#),
        "{results:?}"
    );
    assert_eq!(results[1], "[redacted by a hook]");
    assert!(!results.concat().contains("hunter2"));
}

/// A UserPromptSubmit hook that replaces the prompt (a redaction).
struct Redact;

#[async_trait]
impl ToolHooks for Redact {
    async fn user_prompt_submit(&self, _: &HookContext, prompt: &str) -> HookVerdict {
        HookVerdict {
            updated_prompt: Some(prompt.replace("hunter2", "[redacted]")),
            ..HookVerdict::pass()
        }
    }
}

#[tokio::test]
async fn a_replaced_prompt_is_what_the_model_gets() {
    let dir = tempfile::TempDir::new().unwrap();
    let model = transcript(json!({"turns": [{"text": "ok"}]}));
    let mut a = Agent::new(model, Arc::new(Redact), dir.path(), "s");
    a.run("my password is hunter2").await.unwrap();
    let users: Vec<&str> = a
        .messages()
        .iter()
        .filter(|m| m.role == Role::User)
        .map(|m| m.content.as_str())
        .collect();
    assert_eq!(users, ["my password is [redacted]"]);
}
#[path = "added_events_tests.rs"]
mod added_events;
