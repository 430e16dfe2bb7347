//! Embedding hookhost in an agent: a `Runner` over a project's hooks.json (here with a wasm
//! hook) plus an in-process Rust hook, fired directly and through the `ToolHooks` trait.
//!
//!     cargo run --example embed

use hookhost::agent::{HookContext, ToolHooks, Verdict};
use hookhost::{Event, FnResponse, Payload, Runner};
use serde_json::json;
use std::sync::Arc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // A throwaway project with one configured wasm hook (the demo's force-push guard).
    let project = tempfile::tempdir()?;
    let root = project.path().canonicalize()?;
    std::fs::create_dir_all(root.join(".coding-agent/hooks"))?;
    let guard = wat::parse_str(include_str!("../crates/cli/src/demo/guard.wat"))?;
    std::fs::write(root.join(".coding-agent/hooks/guard.wasm"), guard)?;
    std::fs::write(
        root.join(".coding-agent/hooks.json"),
        json!({"hooks": {"PreToolUse": [
            {"command": ".coding-agent/hooks/guard.wasm", "match": "bash", "timeout": 1000}
        ]}})
        .to_string(),
    )?;

    // Load the project's (and the user's) hooks, then add an in-process hook.
    let runner = Runner::builder(&root)
        .hook(
            Event::PreToolUse,
            Some("write_file|edit_file"),
            "no-env-writes",
            |p: &Payload| {
                let path = p.tool_args().and_then(|a| a["path"].as_str()).unwrap_or("");
                if path.ends_with(".env") {
                    FnResponse::block(format!("{path} holds secrets; do not write it"))
                } else {
                    FnResponse::pass()
                }
            },
        )
        .build()?;
    let runner = Arc::new(runner);

    // Fire events directly...
    for (tool, args) in [
        ("bash", json!({"command": "git push --force"})),
        ("bash", json!({"command": "git push"})),
        ("write_file", json!({"path": ".env", "content": "X=1"})),
    ] {
        let report = runner
            .fire(Payload::pre_tool_use(&root, "embed", tool, args.clone()))
            .await;
        let kinds: Vec<_> = report
            .hooks
            .iter()
            .map(|h| format!("{}:{}", h.kind.as_str(), h.outcome.as_str()))
            .collect();
        println!(
            "{tool} {args} -> {:?} {} [{}]",
            report.decision,
            report.reason.unwrap_or_default(),
            kinds.join(", ")
        );
    }

    // ...or through the trait an agent loop calls.
    let hooks: Arc<dyn ToolHooks> = runner;
    let cx = HookContext {
        session_id: "embed".into(),
        cwd: root.clone(),
        is_subagent: false,
        agent_type: None,
    };
    let verdict = hooks
        .pre_tool_use(&cx, "bash", &json!({"command": "git push --force"}))
        .await;
    assert!(matches!(verdict.verdict, Verdict::Block(_)));
    println!("through ToolHooks: {:?}", verdict.verdict);
    Ok(())
}
