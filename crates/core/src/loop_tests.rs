//! The loop with a recording ToolHooks: every trigger point, in order.

use super::*;
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
        HookVerdict::pass()
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
        self.log(format!("SubagentStop:{active}:{}", cx.is_subagent));
        HookVerdict::pass()
    }
    async fn session_end(&self, _: &HookContext, reason: &str) -> HookVerdict {
        self.log(format!("SessionEnd:{reason}"));
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
            "PreToolUse:bash:sub",
            "PostToolUse:bash:false:sub",
            "SubagentStop:false:true",
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
    assert!(hooks.calls().contains(&"PreCompact:auto".to_string()));
    assert!(
        a.messages()
            .iter()
            .any(|m| m.content.contains("earlier messages compacted"))
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
