//! The decision table and short-circuit rules, driven through `Runner` by a fake Spawner.

use super::background::ASYNC_RECORDS_KEPT;
use super::*;
use crate::Dialect;
use crate::agent::{self, HookContext};
use crate::config::{Handler, OnError, WasmLimits};
use crate::config::{Hook, Scope};
use crate::event::Event;
use crate::judge::{self, Condition};
use crate::payload::Payload;
use crate::report::{Decision, EventReport, ToVerdict};
use crate::spawner::{ExitStatus, SpawnOutput, SpawnRequest};
use crate::{HookKind, Outcome};
use async_trait::async_trait;
use serde_json::Value;
use serde_json::json;
use std::collections::HashMap;
use std::time::Duration;

/// Answers each command with a scripted output and records the stdin each one saw.
#[derive(Default)]
struct FakeSpawner {
    script: HashMap<String, SpawnOutput>,
    seen: Mutex<Vec<(String, Value)>>,
}

impl FakeSpawner {
    fn with(mut self, command: &str, status: ExitStatus, stdout: &str, stderr: &str) -> Self {
        self.script.insert(
            command.to_string(),
            SpawnOutput {
                status,
                stdout: stdout.as_bytes().to_vec(),
                stderr: stderr.as_bytes().to_vec(),
                truncated: false,
                duration: Duration::from_millis(1),
                model: None,
            },
        );
        self
    }

    fn calls(&self) -> Vec<String> {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .map(|(c, _)| c.clone())
            .collect()
    }

    fn stdin_of(&self, command: &str) -> Value {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .find(|(c, _)| c == command)
            .map(|(_, v)| v.clone())
            .expect("command ran")
    }
}

#[async_trait]
impl Spawner for FakeSpawner {
    async fn spawn(&self, req: SpawnRequest) -> SpawnOutput {
        let command = req.handler.display().to_string();
        let stdin: Value = serde_json::from_slice(&req.stdin).unwrap();
        self.seen.lock().unwrap().push((command.clone(), stdin));
        self.script
            .get(&command)
            .cloned()
            .unwrap_or_else(|| panic!("unscripted command {command}"))
    }
}

/// A project command hook on PreToolUse (for the sandbox plan's tests).
pub(super) fn hook_for_sandbox() -> Hook {
    hook(Event::PreToolUse, 0, "./guard.sh")
}

fn hook(event: Event, index: usize, command: &str) -> Hook {
    Hook {
        event,
        index,
        scope: Scope::Project,
        file: PathBuf::from("/p/.coding-agent/hooks.json"),
        handler: Handler::Shell {
            command: command.to_string(),
            shell: Default::default(),
        },
        matcher: None,
        match_source: None,
        description: None,
        timeout: Duration::from_millis(500),
        cwd: PathBuf::from("/p"),
        is_async: false,
        on_error: OnError::Warn,
        dialect: Dialect::Native,
        source: 0,
        condition: None,
        switch_id: None,
        status_message: None,
        once: false,
        async_rewake: false,
        sandbox: crate::config::SandboxMode::Default,
        plugin_env: None,
    }
}

fn claude_hook(event: Event, index: usize, command: &str) -> Hook {
    Hook {
        dialect: Dialect::Claude,
        ..hook(event, index, command)
    }
}

fn wasm_hook(event: Event, index: usize, command: &str) -> Hook {
    Hook {
        handler: Handler::Wasm {
            command: command.to_string(),
            module: crate::config::ModuleSource::File(PathBuf::from(command)),
            argv: vec![command.to_string()],
            limits: WasmLimits::default(),
        },
        ..hook(event, index, command)
    }
}

fn payload(event: Event) -> Payload {
    let p = Path::new("/p");
    match event {
        Event::PreToolUse => Payload::pre_tool_use(p, "s", "bash", json!({"command": "ls"})),
        Event::PostToolUse => {
            Payload::post_tool_use(p, "s", "bash", json!({"command": "ls"}), json!("ok"), false)
        }
        other => Payload::neutral(other, p, "s"),
    }
}

/// A runner over exactly `hooks`, run by `spawner`, in project `/p`.
fn runner_over(hooks: HookSet, spawner: Arc<dyn Spawner>) -> Runner {
    Runner::builder("/p")
        .hooks(hooks)
        .spawner(spawner)
        .no_decision_log()
        .build()
        .unwrap()
}

async fn fire(
    hooks: Vec<Hook>,
    spawner: FakeSpawner,
    event: Event,
) -> (EventReport, Arc<FakeSpawner>) {
    let spawner = Arc::new(spawner);
    let runner = runner_over(HookSet::from_hooks(hooks), spawner.clone());
    let report = runner.fire(payload(event)).await;
    (report, spawner)
}

/// One cell: a single hook with `status`/`stdout`/`stderr` on `event`.
async fn cell(
    event: Event,
    status: ExitStatus,
    stdout: &str,
    stderr: &str,
) -> (Decision, Outcome, EventReport) {
    let spawner = FakeSpawner::default().with("h", status, stdout, stderr);
    let (report, _) = fire(vec![hook(event, 0, "h")], spawner, event).await;
    (report.decision, report.hooks[0].outcome, report)
}

// PreCompact gates since Claude Code 2.1.105 (a block keeps the conversation whole).
const OBSERVING: [Event; 9] = [
    Event::SessionStart,
    Event::UserPromptSubmit,
    Event::PostToolUse,
    Event::PostToolUseFailure,
    Event::Notification,
    Event::SubagentStart,
    Event::PostCompact,
    Event::StopFailure,
    Event::SessionEnd,
];
const FORCING: [Event; 2] = [Event::Stop, Event::SubagentStop];

#[test]
fn the_table_matches_design_section_4() {
    use crate::judge::Cell::*;
    // Columns: PreToolUse, UserPromptSubmit, PostToolUse(Failure), the other observing
    // events, Stop, PermissionRequest.
    let expect = [
        (
            Condition::Exit0,
            [Pass, Pass, Pass, Pass, Pass, Pass, Pass, Pass],
        ),
        (
            Condition::Exit2,
            [
                Block,
                Warn,
                Feedback,
                Warn,
                ForceIfStdout,
                Block,
                Block,
                Block,
            ],
        ),
        (
            Condition::OtherExit,
            [
                WarnOrBlock,
                WarnOrBlock,
                Warn,
                Warn,
                Warn,
                WarnOrBlock,
                WarnOrBlock,
                Block,
            ],
        ),
        (
            Condition::Timeout,
            [
                Block,
                WarnOrBlock,
                Warn,
                Warn,
                Warn,
                WarnOrBlock,
                WarnOrBlock,
                Block,
            ],
        ),
        (
            Condition::SpawnFailure,
            [
                Block,
                WarnOrBlock,
                Warn,
                Warn,
                Warn,
                WarnOrBlock,
                WarnOrBlock,
                Block,
            ],
        ),
    ];
    assert_eq!(crate::judge::NATIVE_TABLE, expect);
    let table = &crate::judge::rules(Dialect::Native).table;
    assert_eq!(
        judge::cell(table, Condition::Exit2, Event::PreToolUse),
        Block
    );
    assert_eq!(
        judge::cell(table, Condition::Exit2, Event::SubagentStop),
        ForceIfStdout
    );
    assert_eq!(
        judge::cell(table, Condition::Timeout, Event::SessionEnd),
        Warn
    );
}

#[tokio::test]
async fn exit_0_passes_on_every_event() {
    for event in Event::ALL {
        // WorktreeCreate's stdout is the worktree's path: "fine" is none (its own test).
        let stdout = if event == Event::WorktreeCreate {
            "/abs/worktree"
        } else {
            "fine"
        };
        let (d, o, _) = cell(event, ExitStatus::Exited(0), stdout, "").await;
        assert_eq!((d, o), (Decision::Pass, Outcome::Pass), "{event}");
    }
}

#[tokio::test]
async fn exit_2_blocks_pre_tool_use_with_stderr_else_stdout() {
    let (d, o, r) = cell(Event::PreToolUse, ExitStatus::Exited(2), "out", "err").await;
    assert_eq!((d, o), (Decision::Block, Outcome::Block));
    assert_eq!(r.reason.as_deref(), Some("err"));
    let (_, _, r) = cell(Event::PreToolUse, ExitStatus::Exited(2), "out", "").await;
    assert_eq!(r.reason.as_deref(), Some("out"));
    let (_, _, r) = cell(Event::PreToolUse, ExitStatus::Exited(2), "", "").await;
    assert!(r.reason.unwrap().contains("PreToolUse[0]"));
}

#[tokio::test]
async fn exit_2_warns_on_observing_events_and_feeds_back_on_post_tool_use() {
    for event in OBSERVING {
        let (d, o, r) = cell(event, ExitStatus::Exited(2), "", "look again").await;
        assert_eq!((d, o), (Decision::Pass, Outcome::Warn), "{event}");
        let expected: Vec<String> =
            if matches!(event, Event::PostToolUse | Event::PostToolUseFailure) {
                vec!["look again".into()]
            } else {
                vec![]
            };
        assert_eq!(r.feedback, expected, "{event}");
    }
}

#[tokio::test]
async fn exit_2_forces_stop_only_with_stdout() {
    for event in FORCING {
        let (d, o, r) = cell(event, ExitStatus::Exited(2), "run the tests\n", "").await;
        assert_eq!((d, o), (Decision::Force, Outcome::Force), "{event}");
        assert_eq!(r.reason.as_deref(), Some("run the tests"));
        let (d, o, _) = cell(event, ExitStatus::Exited(2), "  ", "only stderr").await;
        assert_eq!((d, o), (Decision::Pass, Outcome::Warn), "{event}");
    }
}

#[tokio::test]
async fn other_exits_and_crashes_warn_everywhere() {
    // But on WorktreeCreate: a hook that failed made no worktree (its own test).
    for event in Event::ALL
        .into_iter()
        .filter(|e| *e != Event::WorktreeCreate)
    {
        for status in [
            ExitStatus::Exited(1),
            ExitStatus::Crashed("signal 9".into()),
        ] {
            let (d, o, r) = cell(event, status.clone(), "", "boom").await;
            assert_eq!(
                (d, o),
                (Decision::Pass, Outcome::Warn),
                "{event} {status:?}"
            );
            assert!(r.hooks[0].message.is_some());
        }
    }
}

#[tokio::test]
async fn on_error_block_fails_closed_on_pre_tool_use_only() {
    for event in [Event::PreToolUse, Event::PostToolUse, Event::Stop] {
        let mut h = hook(event, 0, "h");
        h.on_error = OnError::Block;
        let spawner = FakeSpawner::default().with("h", ExitStatus::Crashed("segv".into()), "", "");
        let (r, _) = fire(vec![h], spawner, event).await;
        let expected = if event == Event::PreToolUse {
            (Decision::Block, Outcome::Block)
        } else {
            (Decision::Pass, Outcome::Warn)
        };
        assert_eq!((r.decision, r.hooks[0].outcome), expected, "{event}");
    }
}

#[tokio::test]
async fn timeout_blocks_pre_tool_use_and_warns_elsewhere() {
    let (d, o, r) = cell(Event::PreToolUse, ExitStatus::TimedOut, "", "").await;
    assert_eq!((d, o), (Decision::Block, Outcome::Timeout));
    assert!(r.reason.unwrap().contains("timed out after 500 ms"));
    assert_eq!(r.hooks[0].exit_code, None);
    for event in OBSERVING
        .into_iter()
        .chain(FORCING)
        .chain([Event::PermissionRequest])
    {
        let (d, o, _) = cell(event, ExitStatus::TimedOut, "", "").await;
        assert_eq!((d, o), (Decision::Pass, Outcome::Timeout), "{event}");
    }
}

#[tokio::test]
async fn spawn_failure_blocks_pre_tool_use_and_warns_elsewhere() {
    let (d, o, r) = cell(
        Event::PreToolUse,
        ExitStatus::SpawnFailed("no such file".into()),
        "",
        "",
    )
    .await;
    assert_eq!((d, o), (Decision::Block, Outcome::Error));
    assert!(r.reason.unwrap().contains("no such file"));
    for event in OBSERVING
        .into_iter()
        .chain(FORCING)
        .chain([Event::PermissionRequest])
    {
        let (d, o, _) = cell(event, ExitStatus::SpawnFailed("x".into()), "", "").await;
        assert_eq!((d, o), (Decision::Pass, Outcome::Error), "{event}");
    }
}

#[tokio::test]
async fn shell_exit_126_and_127_are_spawn_failures_but_not_for_wasm() {
    for code in [126, 127] {
        let (d, o, r) = cell(
            Event::PreToolUse,
            ExitStatus::Exited(code),
            "",
            "sh: x: not found",
        )
        .await;
        assert_eq!((d, o), (Decision::Block, Outcome::Error), "exit {code}");
        assert_eq!(r.hooks[0].exit_code, Some(code));
        let (d, o, _) = cell(Event::PostToolUse, ExitStatus::Exited(code), "", "").await;
        assert_eq!((d, o), (Decision::Pass, Outcome::Error));
    }
    let spawner = FakeSpawner::default().with("g.wasm", ExitStatus::Exited(127), "", "");
    let (r, _) = fire(
        vec![wasm_hook(Event::PreToolUse, 0, "g.wasm")],
        spawner,
        Event::PreToolUse,
    )
    .await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Pass, Outcome::Warn)
    );
}

#[tokio::test]
async fn pre_tool_use_stops_at_the_first_block() {
    let spawner = FakeSpawner::default()
        .with("a", ExitStatus::Exited(0), "", "")
        .with("b", ExitStatus::Exited(2), "", "no")
        .with("c", ExitStatus::Exited(0), "", "");
    let hooks = vec![
        hook(Event::PreToolUse, 0, "a"),
        hook(Event::PreToolUse, 1, "b"),
        hook(Event::PreToolUse, 2, "c"),
    ];
    let (r, s) = fire(hooks, spawner, Event::PreToolUse).await;
    assert_eq!(r.decision, Decision::Block);
    assert_eq!(s.calls(), ["a", "b"]);
    assert_eq!(r.hooks.len(), 2);
}

#[tokio::test]
async fn stop_stops_at_the_first_force() {
    let spawner = FakeSpawner::default()
        .with("a", ExitStatus::Exited(2), "", "")
        .with("b", ExitStatus::Exited(2), "first", "")
        .with("c", ExitStatus::Exited(2), "second", "");
    let hooks = vec![
        hook(Event::Stop, 0, "a"),
        hook(Event::Stop, 1, "b"),
        hook(Event::Stop, 2, "c"),
    ];
    let (r, s) = fire(hooks, spawner, Event::Stop).await;
    assert_eq!(
        (r.decision, r.reason.as_deref()),
        (Decision::Force, Some("first"))
    );
    assert_eq!(s.calls(), ["a", "b"]);
}

#[tokio::test]
async fn observing_events_run_every_hook() {
    let spawner = FakeSpawner::default()
        .with("a", ExitStatus::Exited(2), "", "x")
        .with("b", ExitStatus::TimedOut, "", "")
        .with(
            "c",
            ExitStatus::Exited(0),
            r#"{"additionalContext":"ctx"}"#,
            "",
        );
    let hooks = vec![
        hook(Event::PostToolUse, 0, "a"),
        hook(Event::PostToolUse, 1, "b"),
        hook(Event::PostToolUse, 2, "c"),
    ];
    let (r, s) = fire(hooks, spawner, Event::PostToolUse).await;
    assert_eq!(s.calls(), ["a", "b", "c"]);
    assert_eq!(r.decision, Decision::Pass);
    assert_eq!(r.additional_context, ["ctx"]);
}

#[tokio::test]
async fn updated_input_chains_across_hooks_in_order() {
    let spawner = FakeSpawner::default()
        .with(
            "a",
            ExitStatus::Exited(0),
            r#"{"updatedInput":{"command":"ls -a"}}"#,
            "",
        )
        .with(
            "b",
            ExitStatus::Exited(0),
            r#"{"modifiedParams":{"command":"ls -la"}}"#,
            "",
        )
        .with("c", ExitStatus::Exited(0), "", "");
    let hooks = vec![
        hook(Event::PreToolUse, 0, "a"),
        hook(Event::PreToolUse, 1, "b"),
        hook(Event::PreToolUse, 2, "c"),
    ];
    let (r, s) = fire(hooks, spawner, Event::PreToolUse).await;
    assert_eq!(s.stdin_of("b")["toolArgs"], json!({"command": "ls -a"}));
    assert_eq!(s.stdin_of("c")["toolArgs"], json!({"command": "ls -la"}));
    assert_eq!(r.updated_args, Some(json!({"command": "ls -la"})));
    assert_eq!(r.decision, Decision::Pass);
}

#[tokio::test]
async fn json_protocol_blocks_asks_and_forces() {
    let (d, o, r) = cell(
        Event::PreToolUse,
        ExitStatus::Exited(0),
        r#"{"decision":"block","reason":"json says no"}"#,
        "",
    )
    .await;
    assert_eq!(
        (d, o, r.reason.as_deref()),
        (Decision::Block, Outcome::Block, Some("json says no"))
    );

    let claude = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"claude says no"}}"#;
    let (d, _, r) = cell(Event::PreToolUse, ExitStatus::Exited(0), claude, "").await;
    assert_eq!(
        (d, r.reason.as_deref()),
        (Decision::Block, Some("claude says no"))
    );

    let ask = r#"{"hookSpecificOutput":{"permissionDecision":"ask"}}"#;
    let (d, o, r) = cell(Event::PreToolUse, ExitStatus::Exited(0), ask, "").await;
    assert_eq!((d, o, r.ask), (Decision::Pass, Outcome::Pass, true));

    let allow = r#"{"hookSpecificOutput":{"permissionDecision":"allow"}}"#;
    let (d, _, r) = cell(Event::PreToolUse, ExitStatus::Exited(0), allow, "").await;
    assert_eq!((d, r.ask), (Decision::Pass, false));

    let (d, o, r) = cell(
        Event::Stop,
        ExitStatus::Exited(0),
        r#"{"decision":"block","reason":"one more turn"}"#,
        "",
    )
    .await;
    assert_eq!(
        (d, o, r.reason.as_deref()),
        (Decision::Force, Outcome::Force, Some("one more turn"))
    );

    let (d, o, r) = cell(
        Event::PostToolUse,
        ExitStatus::Exited(0),
        r#"{"decision":"block","reason":"lint failed"}"#,
        "",
    )
    .await;
    assert_eq!((d, o), (Decision::Pass, Outcome::Warn));
    assert_eq!(r.feedback, ["lint failed"]);
}

#[tokio::test]
async fn context_and_system_messages_are_collected() {
    let out = r#"{"additionalContext":"branch is main","systemMessage":"hello user"}"#;
    let (_, _, r) = cell(Event::UserPromptSubmit, ExitStatus::Exited(0), out, "").await;
    assert_eq!(r.additional_context, ["branch is main"]);
    assert_eq!(r.system_messages, ["hello user"]);
    let claude = r#"{"hookSpecificOutput":{"additionalContext":"from claude shape"}}"#;
    let (_, _, r) = cell(Event::SessionStart, ExitStatus::Exited(0), claude, "").await;
    assert_eq!(r.additional_context, ["from claude shape"]);
}

#[tokio::test]
async fn an_unreadable_json_answer_fails_closed_where_it_can_block() {
    for bad in [
        r#"{"decision":"perhaps"}"#,
        r#"{"decision":"block"} and more"#,
        r#"{"decision":"allow","decision":"block"}"#,
        r#"{"decision":"#,
    ] {
        let (d, o, r) = cell(Event::PreToolUse, ExitStatus::Exited(0), bad, "").await;
        assert_eq!((d, o), (Decision::Block, Outcome::Error), "{bad}");
        assert!(
            r.hooks[0]
                .message
                .as_ref()
                .unwrap()
                .contains("cannot be read")
        );
        let (d, o, _) = cell(Event::PostToolUse, ExitStatus::Exited(0), bad, "").await;
        assert_eq!((d, o), (Decision::Pass, Outcome::Warn), "{bad}");
    }
}

#[tokio::test]
async fn updated_input_is_ignored_outside_pre_tool_use_and_on_block() {
    let out = r#"{"updatedInput":{"command":"x"}}"#;
    let (_, _, r) = cell(Event::PostToolUse, ExitStatus::Exited(0), out, "").await;
    assert_eq!(r.updated_args, None);
    let spawner = FakeSpawner::default()
        .with("a", ExitStatus::Exited(0), out, "")
        .with("b", ExitStatus::Exited(2), "", "no");
    let (r, _) = fire(
        vec![
            hook(Event::PreToolUse, 0, "a"),
            hook(Event::PreToolUse, 1, "b"),
        ],
        spawner,
        Event::PreToolUse,
    )
    .await;
    assert_eq!((r.decision, r.updated_args), (Decision::Block, None));
}

#[tokio::test]
async fn updated_prompt_chains_across_hooks_and_a_block_wins() {
    // Each later hook judges the prompt the one before it made; the last one is sent.
    let spawner = FakeSpawner::default()
        .with("a", ExitStatus::Exited(0), r#"{"updatedPrompt":"first"}"#, "")
        .with(
            "b",
            ExitStatus::Exited(0),
            r#"{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","updatedPrompt":"second"}}"#,
            "",
        );
    let (r, spawner) = fire(
        vec![
            hook(Event::UserPromptSubmit, 0, "a"),
            hook(Event::UserPromptSubmit, 1, "b"),
        ],
        spawner,
        Event::UserPromptSubmit,
    )
    .await;
    assert_eq!(r.decision, Decision::Pass);
    assert_eq!(r.updated_prompt.as_deref(), Some("second"));
    assert_eq!(spawner.stdin_of("b")["prompt"], "first");
    // A later block (Claude Code's exit 2 on a prompt) drops the prompt, replaced or not.
    let spawner = FakeSpawner::default()
        .with(
            "a",
            ExitStatus::Exited(0),
            r#"{"updatedPrompt":"first"}"#,
            "",
        )
        .with("b", ExitStatus::Exited(2), "", "no");
    let (r, _) = fire(
        vec![
            hook(Event::UserPromptSubmit, 0, "a"),
            claude_hook(Event::UserPromptSubmit, 1, "b"),
        ],
        spawner,
        Event::UserPromptSubmit,
    )
    .await;
    assert_eq!((r.decision, r.updated_prompt), (Decision::Block, None));
    // Elsewhere it replaces nothing, and the hook's record says so.
    let (_, outcome, r) = cell(
        Event::Stop,
        ExitStatus::Exited(0),
        r#"{"updatedPrompt":"x"}"#,
        "",
    )
    .await;
    assert_eq!((outcome, r.updated_prompt), (Outcome::Warn, None));
    assert!(
        r.hooks[0]
            .message
            .as_deref()
            .unwrap_or_default()
            .contains("only a UserPromptSubmit answer replaces the prompt"),
        "{:?}",
        r.hooks[0]
    );
}

#[tokio::test]
async fn matchers_match_whole_tool_names() {
    let mut h = hook(Event::PreToolUse, 0, "h");
    h.matcher = Some(config::Matcher::new("bash|shell").unwrap());
    let spawner = FakeSpawner::default().with("h", ExitStatus::Exited(2), "", "no");
    let spawner = Arc::new(spawner);
    let runner = runner_over(HookSet::from_hooks(vec![h]), spawner.clone());
    let p = |tool: &str| Payload::pre_tool_use(Path::new("/p"), "s", tool, json!({}));
    assert_eq!(runner.fire(p("bash")).await.decision, Decision::Block);
    assert_eq!(runner.fire(p("shell")).await.decision, Decision::Block);
    assert_eq!(runner.fire(p("bash2")).await.decision, Decision::Pass);
    assert_eq!(runner.fire(p("mybash")).await.decision, Decision::Pass);
    assert_eq!(spawner.calls().len(), 2);
}

#[tokio::test]
async fn async_hooks_never_change_the_decision_and_are_collected() {
    let mut a = hook(Event::PostToolUse, 0, "slow-fail");
    a.is_async = true;
    let spawner = FakeSpawner::default()
        .with("slow-fail", ExitStatus::Exited(2), "", "broken")
        .with("ok", ExitStatus::Exited(0), "", "");
    let (r, s) = {
        let spawner = Arc::new(spawner);
        let runner = runner_over(
            HookSet::from_hooks(vec![a, hook(Event::PostToolUse, 1, "ok")]),
            spawner.clone(),
        );
        let mut r = runner.fire(payload(Event::PostToolUse)).await;
        assert_eq!(
            r.hooks.len(),
            1,
            "only the synchronous hook is in the report"
        );
        r.hooks.extend(runner.wait_async().await);
        (r, spawner)
    };
    assert_eq!(r.decision, Decision::Pass);
    assert!(r.feedback.is_empty());
    assert_eq!(r.hooks.len(), 2);
    assert!(r.hooks[1].is_async);
    assert_eq!(r.hooks[1].outcome, Outcome::Warn);
    assert_eq!(s.calls().len(), 2);
}

#[tokio::test]
async fn tool_hooks_trait_marks_subagents_and_subset_hides_other_events() {
    use crate::agent::{SubsetHooks, ToolHooks};
    let spawner = Arc::new(
        FakeSpawner::default()
            .with("pre", ExitStatus::Exited(0), "", "")
            .with("stop", ExitStatus::Exited(2), "continue", ""),
    );
    let runner = Arc::new(runner_over(
        HookSet::from_hooks(vec![
            hook(Event::PreToolUse, 0, "pre"),
            hook(Event::Stop, 0, "stop"),
        ]),
        spawner.clone(),
    ));
    let cx = HookContext {
        session_id: "s".into(),
        cwd: PathBuf::from("/p"),
        is_subagent: false,
        agent_type: None,
    };
    let sub = SubsetHooks::new(runner.clone());
    sub.pre_tool_use(&cx, "bash", &json!({})).await;
    assert_eq!(spawner.stdin_of("pre")["isSubagent"], json!(true));
    assert_eq!(sub.stop(&cx, false).await.verdict, agent::Verdict::Pass);
    assert_eq!(spawner.calls(), ["pre"], "a subagent never runs Stop hooks");
    let v = runner.stop(&cx, true).await;
    assert_eq!(v.verdict, agent::Verdict::Force("continue".into()));
    assert_eq!(spawner.stdin_of("stop")["stopHookActive"], json!(true));
}

mod in_process {
    use super::*;
    use crate::inprocess::FnResponse;

    fn builder() -> RunnerBuilder {
        Runner::builder("/p")
            .hooks(HookSet::default())
            .spawner(Arc::new(FakeSpawner::default()))
    }

    fn runner_with(
        event: Event,
        f: impl Fn(&Payload) -> FnResponse + Send + Sync + 'static,
    ) -> Runner {
        builder()
            .hook(event, Some("bash"), "guard", f)
            .build()
            .unwrap()
    }

    #[tokio::test]
    async fn blocks_forces_and_passes_like_any_hook() {
        let r = runner_with(Event::PreToolUse, |_| FnResponse::block("fn says no"));
        let rep = r.fire(payload(Event::PreToolUse)).await;
        assert_eq!(
            (rep.decision, rep.reason.as_deref()),
            (Decision::Block, Some("fn says no"))
        );
        assert_eq!(
            (rep.hooks[0].kind, rep.hooks[0].outcome),
            (HookKind::Fn, Outcome::Block)
        );
        assert_eq!(rep.hooks[0].command, "guard");

        let r = builder()
            .hook(Event::Stop, None, "more", |_: &Payload| {
                FnResponse::force("one more")
            })
            .build()
            .unwrap();
        let rep = r.fire(payload(Event::Stop)).await;
        assert_eq!(
            (rep.decision, rep.reason.as_deref()),
            (Decision::Force, Some("one more"))
        );

        let r = runner_with(Event::PostToolUse, |_| FnResponse::block("lint failed"));
        let rep = r.fire(payload(Event::PostToolUse)).await;
        assert_eq!(
            (rep.decision, rep.hooks[0].outcome),
            (Decision::Pass, Outcome::Warn)
        );
        assert_eq!(rep.feedback, ["lint failed"]);
    }

    #[tokio::test]
    async fn updates_input_adds_context_and_respects_the_matcher() {
        let r = runner_with(Event::PreToolUse, |p| {
            let mut args = p.tool_args().cloned().unwrap();
            args["command"] = json!("ls -la");
            FnResponse {
                additional_context: Some("ctx".into()),
                ..FnResponse::update_input(args)
            }
        });
        let rep = r.fire(payload(Event::PreToolUse)).await;
        assert_eq!(rep.updated_args, Some(json!({"command": "ls -la"})));
        assert_eq!(rep.additional_context, ["ctx"]);
        let other = Payload::pre_tool_use(Path::new("/p"), "s", "bash2", json!({}));
        assert!(r.fire(other).await.hooks.is_empty());
    }

    #[tokio::test]
    async fn runs_after_configured_hooks_and_sees_their_updates() {
        let spawner = FakeSpawner::default().with(
            "a",
            ExitStatus::Exited(0),
            r#"{"updatedInput":{"command":"x"}}"#,
            "",
        );
        let r = Runner::builder("/p")
            .hooks(HookSet::from_hooks(vec![hook(Event::PreToolUse, 0, "a")]))
            .spawner(Arc::new(spawner))
            .hook(Event::PreToolUse, None, "check", |p: &Payload| {
                if p.tool_args().unwrap()["command"] == "x" {
                    FnResponse::block("saw x")
                } else {
                    FnResponse::pass()
                }
            })
            .build()
            .unwrap();
        let rep = r.fire(payload(Event::PreToolUse)).await;
        assert_eq!(rep.hooks.len(), 2);
        assert_eq!(rep.reason.as_deref(), Some("saw x"));
    }

    #[tokio::test]
    async fn a_panic_is_a_crash_and_a_slow_hook_times_out() {
        let r = runner_with(Event::PreToolUse, |_| panic!("bug in hook"));
        let rep = r.fire(payload(Event::PreToolUse)).await;
        assert_eq!(
            (rep.decision, rep.hooks[0].outcome),
            (Decision::Pass, Outcome::Warn)
        );
        assert!(
            rep.hooks[0]
                .message
                .as_ref()
                .unwrap()
                .contains("bug in hook")
        );

        let r = builder()
            .hook_with(
                Event::PreToolUse,
                None,
                "bug",
                Arc::new(|_: &Payload| -> FnResponse { panic!("bug") }),
                crate::FnOptions {
                    on_error: OnError::Block,
                    ..Default::default()
                },
            )
            .build()
            .unwrap();
        assert_eq!(
            r.fire(payload(Event::PreToolUse)).await.decision,
            Decision::Block
        );

        struct Slow;
        #[async_trait]
        impl crate::FnHook for Slow {
            async fn call(&self, _: &Payload) -> crate::HookResult {
                tokio::time::sleep(Duration::from_secs(30)).await;
                Ok(FnResponse::pass())
            }
        }
        let r = builder()
            .hook_with(
                Event::PreToolUse,
                None,
                "slow",
                Arc::new(Slow),
                crate::FnOptions {
                    timeout: Duration::from_millis(50),
                    ..Default::default()
                },
            )
            .build()
            .unwrap();
        let rep = r.fire(payload(Event::PreToolUse)).await;
        assert_eq!(
            (rep.decision, rep.hooks[0].outcome),
            (Decision::Block, Outcome::Timeout)
        );
    }

    #[tokio::test]
    async fn an_error_is_a_crash_that_on_error_block_turns_into_a_block() {
        let failing = |_: &Payload| -> crate::HookResult { Err("the backend is down".into()) };
        let r = builder()
            .hook(Event::PreToolUse, None, "fails", failing)
            .build()
            .unwrap();
        let rep = r.fire(payload(Event::PreToolUse)).await;
        assert_eq!(
            (rep.decision, rep.hooks[0].outcome),
            (Decision::Pass, Outcome::Warn)
        );
        assert_eq!(
            rep.hooks[0].message.as_deref(),
            Some("crashed: in-process hook failed: the backend is down")
        );
        let r = builder()
            .hook_with(
                Event::PreToolUse,
                None,
                "fails",
                Arc::new(failing),
                crate::FnOptions {
                    on_error: OnError::Block,
                    ..Default::default()
                },
            )
            .build()
            .unwrap();
        let rep = r.fire(payload(Event::PreToolUse)).await;
        assert_eq!(
            (rep.decision, rep.hooks[0].outcome),
            (Decision::Block, Outcome::Block)
        );
        assert!(rep.reason.unwrap().contains("the backend is down"));
    }
}

#[tokio::test]
async fn finished_async_records_do_not_pile_up() {
    let mut a = hook(Event::PostToolUse, 0, "bg");
    a.is_async = true;
    let spawner = Arc::new(FakeSpawner::default().with("bg", ExitStatus::Exited(0), "", ""));
    let runner = runner_over(HookSet::from_hooks(vec![a]), spawner.clone());
    for _ in 0..3 * ASYNC_RECORDS_KEPT {
        runner.fire(payload(Event::PostToolUse)).await;
        tokio::task::yield_now().await;
    }
    assert_eq!(
        spawner.calls().len(),
        3 * ASYNC_RECORDS_KEPT,
        "every async hook ran"
    );
    let kept = runner.wait_async().await.len();
    assert!(kept <= ASYNC_RECORDS_KEPT + 1, "{kept} records kept");
}

#[tokio::test]
async fn the_typescript_agents_block_answer_blocks_and_a_foreign_answer_warns() {
    // `block-node-modules.sh` of the TypeScript agent's design answers like this.
    let ling = r#"{"blocked": true, "blockReason": "Cannot write to node_modules"}"#;
    let (d, o, r) = cell(Event::PreToolUse, ExitStatus::Exited(0), ling, "").await;
    assert_eq!((d, o), (Decision::Block, Outcome::Block));
    assert_eq!(r.reason.as_deref(), Some("Cannot write to node_modules"));
    // An answer in a protocol hookhost does not speak is never silent.
    let foreign = r#"{"allow": false, "message": "nope"}"#;
    let (d, o, r) = cell(Event::PreToolUse, ExitStatus::Exited(0), foreign, "").await;
    assert_eq!((d, o), (Decision::Pass, Outcome::Warn));
    let message = r.hooks[0].message.as_deref().unwrap();
    assert!(
        message.contains("no field hookhost understands"),
        "{message}"
    );
    assert!(
        message.contains("allow, message") && message.contains("decision"),
        "{message}"
    );
}

// Dialects: each hook is judged by its own agent's rules (DESIGN §10).

async fn claude_cell(
    dialect: Dialect,
    event: Event,
    status: ExitStatus,
    stdout: &str,
    stderr: &str,
) -> EventReport {
    let spawner = FakeSpawner::default().with("h", status, stdout, stderr);
    let h = Hook {
        dialect,
        ..hook(event, 0, "h")
    };
    fire(vec![h], spawner, event).await.0
}

#[tokio::test]
async fn claude_exit_2_blocks_a_prompt_and_forces_a_stop_with_stderr() {
    let r = claude_cell(
        Dialect::Claude,
        Event::UserPromptSubmit,
        ExitStatus::Exited(2),
        "",
        "no secrets",
    )
    .await;
    assert_eq!(
        (r.decision, r.reason.as_deref()),
        (Decision::Block, Some("no secrets"))
    );
    let r = claude_cell(
        Dialect::Claude,
        Event::Stop,
        ExitStatus::Exited(2),
        "",
        "run the tests",
    )
    .await;
    assert_eq!(
        (r.decision, r.reason.as_deref()),
        (Decision::Force, Some("run the tests"))
    );
    // Native: the same exit 2 on UserPromptSubmit only warns.
    let (d, o, _) = cell(Event::UserPromptSubmit, ExitStatus::Exited(2), "", "no").await;
    assert_eq!((d, o), (Decision::Pass, Outcome::Warn));
}

#[tokio::test]
async fn claude_failures_do_not_block_unless_on_error_block() {
    for status in [
        ExitStatus::TimedOut,
        ExitStatus::Exited(127),
        ExitStatus::Exited(1),
    ] {
        let r = claude_cell(Dialect::Claude, Event::PreToolUse, status.clone(), "", "").await;
        assert_eq!(r.decision, Decision::Pass, "{status:?}");
    }
    let spawner = FakeSpawner::default().with("h", ExitStatus::TimedOut, "", "");
    let h = Hook {
        on_error: OnError::Block,
        ..claude_hook(Event::PreToolUse, 0, "h")
    };
    assert_eq!(
        fire(vec![h], spawner, Event::PreToolUse).await.0.decision,
        Decision::Block
    );
}

#[tokio::test]
async fn continue_false_stops_the_agent_and_later_hooks_do_not_run() {
    let spawner = FakeSpawner::default()
        .with(
            "a",
            ExitStatus::Exited(0),
            r#"{"continue": false, "stopReason": "budget spent"}"#,
            "",
        )
        .with("b", ExitStatus::Exited(0), "", "");
    let (r, s) = fire(
        vec![
            hook(Event::PostToolUse, 0, "a"),
            hook(Event::PostToolUse, 1, "b"),
        ],
        spawner,
        Event::PostToolUse,
    )
    .await;
    assert_eq!(
        r.stop.as_ref().map(|s| s.reason.as_str()),
        Some("budget spent")
    );
    assert_eq!(s.calls(), ["a"]);
    assert_eq!(r.to_verdict().stop.as_deref(), Some("budget spent"));
}

#[tokio::test]
async fn claude_hooks_get_the_claude_payload_and_plain_stdout_is_context() {
    let spawner = FakeSpawner::default().with("h", ExitStatus::Exited(0), "", "");
    let (_, s) = fire(
        vec![claude_hook(Event::PreToolUse, 0, "h")],
        spawner,
        Event::PreToolUse,
    )
    .await;
    let stdin = s.stdin_of("h");
    assert_eq!(
        (
            stdin["tool_name"].as_str(),
            stdin["tool_input"]["command"].as_str()
        ),
        (Some("Bash"), Some("ls"))
    );
    let r = claude_cell(
        Dialect::Claude,
        Event::SessionStart,
        ExitStatus::Exited(0),
        "branch main",
        "",
    )
    .await;
    assert_eq!(r.additional_context, ["branch main"]);
}

#[tokio::test]
async fn a_claude_matcher_matches_the_core_tool_by_its_alias_and_rewrites_come_back() {
    let spawner = FakeSpawner::default().with(
        "h",
        ExitStatus::Exited(0),
        r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"file_path": "b.txt", "content": "x"}}}"#,
        "",
    );
    let h = Hook {
        matcher: Some(config::Matcher::new("Write|Edit").unwrap()),
        ..claude_hook(Event::PreToolUse, 0, "h")
    };
    let spawner = Arc::new(spawner);
    let runner = runner_over(HookSet::from_hooks(vec![h]), spawner.clone());
    let p = Payload::pre_tool_use(
        Path::new("/p"),
        "s",
        "write_file",
        json!({"path": "a.txt", "content": "x"}),
    );
    let r = runner.fire(p).await;
    assert_eq!(
        r.updated_args,
        Some(json!({"path": "b.txt", "content": "x"}))
    );
}

#[tokio::test]
async fn codex_refuses_allow_and_rewrites_and_gemini_merges_tool_input() {
    let r = claude_cell(
        Dialect::Codex,
        Event::PreToolUse,
        ExitStatus::Exited(0),
        r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}"#,
        "",
    )
    .await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Pass, Outcome::Warn)
    );
    let r = claude_cell(
        Dialect::Codex,
        Event::PreToolUse,
        ExitStatus::Exited(2),
        "",
        "",
    )
    .await;
    assert_eq!(r.decision, Decision::Pass);
    let r = claude_cell(
        Dialect::Gemini,
        Event::PreToolUse,
        ExitStatus::Exited(0),
        r#"{"hookSpecificOutput": {"tool_input": {"timeout": 5}}}"#,
        "",
    )
    .await;
    assert_eq!(r.updated_args, Some(json!({"command": "ls", "timeout": 5})));
    let r = claude_cell(
        Dialect::Gemini,
        Event::PreToolUse,
        ExitStatus::Exited(0),
        r#"{"decision": "deny", "reason": "no"}"#,
        "",
    )
    .await;
    assert_eq!(
        (r.decision, r.reason.as_deref()),
        (Decision::Block, Some("no"))
    );
}

#[tokio::test]
async fn other_agents_match_session_start_on_source_and_pre_compact_on_trigger() {
    let spawner = Arc::new(FakeSpawner::default().with("h", ExitStatus::Exited(0), "", ""));
    let mut h = claude_hook(Event::PreCompact, 0, "h");
    h.matcher = Some(config::Matcher::new("auto").unwrap());
    let runner = runner_over(HookSet::from_hooks(vec![h]), spawner.clone());
    let p = Path::new("/p");
    runner.fire(Payload::pre_compact(p, "s", "manual")).await;
    assert!(spawner.calls().is_empty());
    runner.fire(Payload::pre_compact(p, "s", "auto")).await;
    assert_eq!(spawner.calls(), ["h"]);
    assert_eq!(spawner.stdin_of("h")["trigger"], "auto");
}

/// Answers by a function of the command and the payload it saw; records every call.
struct DynSpawner {
    answer: fn(&str, &Value) -> (i32, String),
    calls: Mutex<Vec<(String, Value)>>,
}

#[async_trait]
impl Spawner for DynSpawner {
    async fn spawn(&self, req: SpawnRequest) -> SpawnOutput {
        let command = req.handler.display().to_string();
        let stdin: Value = serde_json::from_slice(&req.stdin).unwrap();
        let (code, stdout) = (self.answer)(&command, &stdin);
        self.calls.lock().unwrap().push((command, stdin));
        SpawnOutput {
            status: ExitStatus::Exited(code),
            stdout: stdout.into_bytes(),
            stderr: if code == 2 {
                b"no rm".to_vec()
            } else {
                Vec::new()
            },
            truncated: false,
            duration: Duration::from_millis(1),
            model: None,
        }
    }
}

/// `guard` blocks any command with `rm` in it; `rewriter` turns every command into `rm -rf ~`
/// (a non-idempotent rewriter appends ` again` to whatever it sees).
fn guard_and_rewriters(command: &str, stdin: &Value) -> (i32, String) {
    let seen = stdin["toolArgs"]["command"].as_str().unwrap_or_default();
    match command {
        "guard" if seen.contains("rm") => (2, String::new()),
        "rewriter" => (0, r#"{"updatedInput":{"command":"rm -rf ~"}}"#.into()),
        "appender" => (
            0,
            json!({"updatedInput": {"command": format!("{seen} again")}}).to_string(),
        ),
        _ => (0, String::new()),
    }
}

async fn fire_dyn(hooks: Vec<Hook>) -> (EventReport, Vec<String>) {
    let spawner = Arc::new(DynSpawner {
        answer: guard_and_rewriters,
        calls: Mutex::new(Vec::new()),
    });
    let runner = runner_over(HookSet::from_hooks(hooks), spawner.clone());
    let report = runner.fire(payload(Event::PreToolUse)).await;
    let calls = spawner
        .calls
        .lock()
        .unwrap()
        .iter()
        .map(|(c, _)| c.clone())
        .collect();
    (report, calls)
}

#[tokio::test]
async fn a_rewritten_call_is_judged_again_by_the_guard_that_ran_before() {
    let managed = Hook {
        scope: Scope::Managed,
        ..hook(Event::PreToolUse, 0, "guard")
    };
    let (r, calls) = fire_dyn(vec![managed, hook(Event::PreToolUse, 0, "rewriter")]).await;
    assert_eq!(
        r.decision,
        Decision::Block,
        "{}",
        serde_json::to_string(&r).unwrap()
    );
    assert_eq!(r.reason.as_deref(), Some("no rm"));
    assert_eq!(r.updated_args, None);
    // The guard blocks the final call in the second pass: nothing runs after it.
    assert_eq!(calls, ["guard", "rewriter", "guard"]);
    assert_eq!(
        r.hooks.iter().map(|h| h.rejudged).collect::<Vec<_>>(),
        [false, false, true]
    );
}

#[tokio::test]
async fn each_hook_runs_at_most_twice_and_a_second_rewrite_is_not_obeyed() {
    // Two appenders that are not identical handlers (another cwd): both run.
    let (r, calls) = fire_dyn(vec![
        hook(Event::PreToolUse, 0, "appender"),
        Hook {
            cwd: PathBuf::from("/p/sub"),
            ..hook(Event::PreToolUse, 1, "appender")
        },
        hook(Event::PreToolUse, 2, "guard"),
    ])
    .await;
    assert_eq!(r.decision, Decision::Pass);
    // The call the hooks judged: the second appender's rewrite, not the first one's second.
    assert_eq!(r.updated_args, Some(json!({"command": "ls again again"})));
    // The guard saw the final call already and the second appender made it; only the first
    // appender, which judged `ls`, runs once more.
    assert_eq!(calls, ["appender", "appender", "guard", "appender"]);
    let last = r.hooks.last().unwrap();
    assert!(last.rejudged && last.hook.index == 0, "{last:?}");
    assert!(
        last.message.as_deref().unwrap().contains("rewrite"),
        "{last:?}"
    );
}

#[tokio::test]
async fn a_lone_rewriter_is_not_asked_about_its_own_rewrite() {
    let (r, calls) = fire_dyn(vec![hook(Event::PreToolUse, 0, "appender")]).await;
    assert_eq!(calls, ["appender"]);
    assert_eq!(r.updated_args, Some(json!({"command": "ls again"})));
}

#[tokio::test]
async fn a_rewrite_to_the_same_arguments_costs_no_second_pass() {
    fn same(command: &str, _: &Value) -> (i32, String) {
        match command {
            "same" => (0, r#"{"updatedInput":{"command":"ls"}}"#.into()),
            _ => (0, String::new()),
        }
    }
    let spawner = Arc::new(DynSpawner {
        answer: same,
        calls: Mutex::new(Vec::new()),
    });
    let runner = runner_over(
        HookSet::from_hooks(vec![
            hook(Event::PreToolUse, 0, "guard"),
            hook(Event::PreToolUse, 1, "same"),
        ]),
        spawner.clone(),
    );
    let r = runner.fire(payload(Event::PreToolUse)).await;
    assert_eq!((r.decision, r.hooks.len()), (Decision::Pass, 2));
    assert_eq!(r.updated_args, None);
}

fn with_if(h: Hook, rule: &str) -> Hook {
    let base = config::RuleBase {
        project_dir: Path::new("/p"),
        home: None,
    };
    Hook {
        condition: Some(config::PermissionRule::parse(rule, base).unwrap()),
        ..h
    }
}

#[tokio::test]
async fn an_identical_handler_in_two_files_runs_once_at_the_higher_rank() {
    let managed = Hook {
        scope: Scope::Managed,
        file: PathBuf::from("/etc/coding-agent/hooks.json"),
        ..hook(Event::PreToolUse, 0, "guard")
    };
    let (r, calls) = fire_dyn(vec![managed, hook(Event::PreToolUse, 0, "guard")]).await;
    assert_eq!(calls, ["guard"]);
    assert_eq!(r.hooks[0].hook.scope, Scope::Managed);
    // Not identical: another dialect gets another payload, so both run.
    let (_, calls) = fire_dyn(vec![
        hook(Event::PreToolUse, 0, "guard"),
        claude_hook(Event::PreToolUse, 1, "guard"),
    ])
    .await;
    assert_eq!(calls, ["guard", "guard"]);
}

#[tokio::test]
async fn a_hook_whose_if_fails_is_not_started() {
    let (r, calls) = fire_dyn(vec![with_if(
        hook(Event::PreToolUse, 0, "guard"),
        "Bash(rm *)",
    )])
    .await;
    assert!(calls.is_empty() && r.hooks.is_empty(), "{calls:?}");
    let (_, calls) = fire_dyn(vec![with_if(
        hook(Event::PreToolUse, 0, "guard"),
        "Bash(ls *)",
    )])
    .await;
    assert_eq!(calls, ["guard"]);
}

#[tokio::test]
async fn a_rewrite_that_makes_a_guards_if_hold_is_judged_by_that_guard() {
    // `ls` does not start the managed guard; the project's rewriter turns it into `rm -rf ~`,
    // which the guard's `if` covers: the guard judges the final call.
    let guard = Hook {
        scope: Scope::Managed,
        ..with_if(hook(Event::PreToolUse, 0, "guard"), "Bash(rm *)")
    };
    let (r, calls) = fire_dyn(vec![guard, hook(Event::PreToolUse, 0, "rewriter")]).await;
    assert_eq!(calls, ["rewriter", "guard"]);
    assert_eq!(
        (r.decision, r.reason.as_deref()),
        (Decision::Block, Some("no rm"))
    );
}

#[path = "event_tests.rs"]
mod new_events;

mod decision_log;
