//! The agent core over Claude Code hooks: the same effect as under Claude Code, through
//! `Runner` as `ToolHooks` (blocks, asks, Stop forces, blocked prompts, `continue: false`).

use crate::corpus::{claude_settings, project_with};
use hookhost::agent::{Agent, AgentEvent, Observer, ScriptedModel};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

#[derive(Default)]
struct Events(Mutex<Vec<AgentEvent>>);

impl Observer for Events {
    fn on(&self, _: usize, e: &AgentEvent) {
        self.0.lock().unwrap().push(e.clone());
    }
}

async fn session(prompt: &str, turns: Value) -> (String, Vec<AgentEvent>) {
    crate::common::needs::python_and_node();
    let p = project_with(".claude/settings.json", &claude_settings());
    let runner = Arc::new(p.runner());
    let events = Arc::new(Events::default());
    let model = Box::new(ScriptedModel::new(
        serde_json::from_value(json!({"turns": turns})).unwrap(),
    ));
    let mut agent = Agent::new(model, runner, &p.path(), "s1").with_observer(events.clone());
    let answer = agent.run(prompt).await.unwrap();
    let events = events.0.lock().unwrap().clone();
    (answer, events)
}

#[tokio::test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
async fn the_core_honours_claude_blocks_asks_and_stop_forces() {
    let (answer, events) = session(
        "clean up",
        json!([
            {"toolCalls": [{"name": "bash", "args": {"command": "rm -rf build"}}]},
            {"toolCalls": [{"name": "write_file", "args": {"path": "node_modules/a.js", "content": ""}}]},
            {"toolCalls": [{"name": "bash", "args": {"command": "git push"}}]},
            {"text": "done"},
            {"text": "tests pass, done"}
        ]),
    )
    .await;
    let blocked: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::Blocked { reason, .. } => Some(reason.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        blocked,
        [
            "Dangerous command blocked: rm -rf build",
            "Cannot write to node_modules"
        ],
        "{events:?}"
    );
    // "ask" reaches the permission prompt; the default prompter refuses.
    assert!(
        events
            .iter()
            .any(|e| matches!(e, AgentEvent::PermissionDenied { name, .. } if name == "bash")),
        "{events:?}"
    );
    assert!(
        events.contains(&AgentEvent::Forced(
            "Run the test suite before stopping".into()
        )),
        "{events:?}"
    );
    assert!(
        events.contains(&AgentEvent::HookContext(
            "fresh session: read TODO.md".into()
        )),
        "{events:?}"
    );
    assert_eq!(answer, "tests pass, done");
}

#[tokio::test]
#[cfg_attr(
    not(feature = "interpreters"),
    ignore = "interpreters tier: python3 and node, then --features hookhost-cli/interpreters"
)]
async fn the_core_keeps_a_blocked_prompt_out_and_stops_on_continue_false() {
    let (answer, events) =
        session("my password is hunter2", json!([{"text": "never asked"}])).await;
    assert!(
        events.contains(&AgentEvent::PromptBlocked(
            "Prompts must not contain secrets".into()
        )),
        "{events:?}"
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, AgentEvent::UserPrompt(_))),
        "{events:?}"
    );
    assert!(answer.contains("prompt blocked"), "{answer}");

    let (answer, events) = session(
        "check the disk",
        json!([
            {"toolCalls": [{"name": "bash", "args": {"command": "echo FATAL: disk full"}}]},
            {"text": "never reached"}
        ]),
    )
    .await;
    assert!(
        events.contains(&AgentEvent::Stopped(
            "a fatal tool error: stopping for a human".into()
        )),
        "{events:?}"
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, AgentEvent::ModelText(t) if t == "never reached"))
    );
    assert!(answer.contains("stopped by a hook"), "{answer}");
}
