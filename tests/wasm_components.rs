//! WASI preview 2 command components: the same guests built for wasm32-wasip2 get the same
//! exit codes, limits and sandbox as preview 1 modules.

mod common;

use common::guests::guest_p2;
use common::{Project, pre_tool};
use hookhost::{Decision, Outcome};
use serde_json::{Value, json};

fn project(hooks: Value) -> Project {
    let p = Project::new(json!({ "hooks": { "PreToolUse": hooks } }));
    std::fs::create_dir_all(p.path().join("hooks")).unwrap();
    for g in ["hostile", "bash-guard"] {
        std::fs::copy(guest_p2(g), p.path().join(format!("hooks/{g}.wasm"))).unwrap();
    }
    p
}

#[tokio::test]
async fn components_follow_the_same_outcome_table() {
    let outside = tempfile::TempDir::new().unwrap();
    let secret = outside.path().join("secret.txt");
    std::fs::write(&secret, "x").unwrap();
    let p = project(json!([
        {"command": "hooks/hostile.wasm exit 5", "match": "exit5"},
        {"command": "hooks/hostile.wasm stderr-exit 'component says no'", "match": "block"},
        {"command": "hooks/hostile.wasm loop", "match": "loop", "timeout": 500},
        {"command": "hooks/hostile.wasm sleep", "match": "sleep", "timeout": 500},
        {"command": "hooks/hostile.wasm membomb", "match": "membomb", "memory": 32},
        {"command": "hooks/hostile.wasm trap", "match": "trap"},
        {"command": format!("hooks/hostile.wasm read {}", secret.display()), "match": "outside"},
        {"command": "hooks/hostile.wasm read ../x", "match": "dotdot"},
        {"command": "hooks/hostile.wasm write new.txt", "match": "write"},
        {"command": "hooks/hostile.wasm net", "match": "net"},
        {"command": "hooks/hostile.wasm env", "match": "env"},
        {"command": "hooks/bash-guard.wasm", "match": "bash"}
    ]));
    let runner = p.runner();
    let fire = |tool: &'static str, args: Value| {
        let payload = pre_tool(&p.path(), tool, args);
        let runner = &runner;
        async move { runner.fire(payload).await }
    };
    let r = fire("exit5", json!({})).await;
    assert_eq!(
        (r.hooks[0].outcome, r.hooks[0].exit_code),
        (Outcome::Warn, Some(5)),
        "{}",
        common::summary(&r)
    );
    let r = fire("block", json!({})).await;
    assert_eq!(
        (r.decision, r.reason.as_deref()),
        (Decision::Block, Some("component says no"))
    );
    for tool in ["loop", "sleep"] {
        let r = fire(tool, json!({})).await;
        assert_eq!(
            (r.decision, r.hooks[0].outcome),
            (Decision::Block, Outcome::Timeout),
            "{tool}"
        );
    }
    for tool in ["membomb", "trap"] {
        let r = fire(tool, json!({})).await;
        assert_eq!(
            (r.hooks[0].outcome, r.hooks[0].exit_code),
            (Outcome::Warn, None),
            "{tool}: {}",
            common::summary(&r)
        );
    }
    for tool in ["outside", "dotdot", "write", "net"] {
        let r = fire(tool, json!({})).await;
        assert!(
            r.hooks[0].stdout.starts_with("err:"),
            "{tool}: {}",
            common::summary(&r)
        );
    }
    assert!(!p.path().join("new.txt").exists());
    let r = fire("env", json!({})).await;
    let mut names: Vec<&str> = r.hooks[0]
        .stdout
        .lines()
        .map(|l| l.split('=').next().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["HOOK_EVENT", "HOOK_PROJECT_DIR"]);
    let r = fire("bash", json!({"command": "rm -rf /"})).await;
    assert_eq!(r.decision, Decision::Block);
    let r = fire("bash", json!({"command": "ls"})).await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Pass, Outcome::Pass)
    );
}

#[tokio::test]
async fn hook_world_components_answer_with_typed_decisions() {
    let p = Project::new(json!({"hooks": {
        "PreToolUse": [{"command": "hooks/typed.wasm", "match": "bash"}],
        "Stop": [{"command": "hooks/typed.wasm"}]
    }}));
    std::fs::create_dir_all(p.path().join("hooks")).unwrap();
    std::fs::copy(
        guest_p2("hook_component"),
        p.path().join("hooks/typed.wasm"),
    )
    .unwrap();
    let runner = p.runner();
    let r = runner
        .fire(pre_tool(&p.path(), "bash", json!({"command": "rm  -rf /"})))
        .await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Block, Outcome::Block),
        "{}",
        common::summary(&r)
    );
    assert_eq!(
        r.reason.as_deref(),
        Some("hook-component: `rm -rf /` is destructive")
    );
    assert_eq!(r.hooks[0].kind.as_str(), "wasm");
    let r = runner
        .fire(pre_tool(&p.path(), "bash", json!({"command": "ls"})))
        .await;
    assert_eq!(r.decision, Decision::Pass);
    assert_eq!(r.updated_args, Some(json!({"command": "ls -la"})));
    assert_eq!(r.additional_context, ["hook-component rewrote ls"]);
    let r = runner
        .fire(hookhost::Payload::neutral(
            hookhost::Event::Stop,
            &p.path(),
            "s",
        ))
        .await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Pass, Outcome::Pass)
    );
}
