//! The events added with PermissionRequest: each one's decision column, driven through
//! `Runner` by the fake Spawner of `tests.rs`.

use super::*;

fn permission_payload() -> Payload {
    Payload::permission_request(
        Path::new("/p"),
        "s",
        "bash",
        json!({"command": "git push"}),
        "rule bash(git push*)",
    )
}

/// One hook of `dialect` on PermissionRequest answering `stdout` with `status`.
async fn permission(
    dialect: Dialect,
    status: ExitStatus,
    stdout: &str,
    stderr: &str,
) -> EventReport {
    let spawner = Arc::new(FakeSpawner::default().with("h", status, stdout, stderr));
    let h = Hook {
        dialect,
        ..hook(Event::PermissionRequest, 0, "h")
    };
    let runner = runner_over(HookSet::from_hooks(vec![h]), spawner);
    runner.fire(permission_payload()).await
}

#[tokio::test]
async fn permission_request_allows_or_denies_in_each_spelling() {
    use Dialect::{Claude, Codex, Native};
    let allow = r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}"#;
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not today"}}}"#;
    for d in [Native, Claude, Codex] {
        let r = permission(d, ExitStatus::Exited(0), allow, "").await;
        assert!(r.allow, "{d}");
        assert_eq!(
            (r.decision, r.hooks[0].outcome),
            (Decision::Pass, Outcome::Allow)
        );
        let r = permission(d, ExitStatus::Exited(0), deny, "").await;
        assert!(!r.allow);
        assert_eq!(
            (r.decision, r.reason.as_deref(), r.hooks[0].outcome),
            (Decision::Block, Some("not today"), Outcome::Block),
            "{d}"
        );
    }
    // hookhost's own spelling.
    let r = permission(Native, ExitStatus::Exited(0), r#"{"decision":"allow"}"#, "").await;
    assert!(r.allow);
    let r = permission(
        Native,
        ExitStatus::Exited(0),
        r#"{"decision":"deny","reason":"no"}"#,
        "",
    )
    .await;
    assert_eq!(
        (r.decision, r.reason.as_deref()),
        (Decision::Block, Some("no"))
    );
    // Claude Code's top-level `decision` is no permission answer: an allow there is ignored.
    let r = permission(
        Claude,
        ExitStatus::Exited(0),
        r#"{"decision":"approve"}"#,
        "",
    )
    .await;
    assert!(!r.allow);
    // Nothing said: the user is asked, as without hooks.
    let r = permission(Native, ExitStatus::Exited(0), "", "").await;
    assert_eq!((r.decision, r.allow), (Decision::Pass, false));
}

#[tokio::test]
async fn permission_request_column_exit_2_denies_failures_leave_it_to_the_prompt() {
    for d in [Dialect::Native, Dialect::Claude] {
        let r = permission(d, ExitStatus::Exited(2), "", "pushes wait for review").await;
        assert_eq!(
            (r.decision, r.reason.as_deref(), r.allow),
            (Decision::Block, Some("pushes wait for review"), false),
            "{d}"
        );
        for status in [
            ExitStatus::Exited(1),
            ExitStatus::TimedOut,
            ExitStatus::SpawnFailed("gone".into()),
        ] {
            let r = permission(d, status.clone(), "", "").await;
            assert_eq!((r.decision, r.allow), (Decision::Pass, false), "{status:?}");
        }
    }
    // `onError: "block"` denies on a failure.
    let spawner = Arc::new(FakeSpawner::default().with("h", ExitStatus::TimedOut, "", ""));
    let h = Hook {
        on_error: OnError::Block,
        ..hook(Event::PermissionRequest, 0, "h")
    };
    let r = runner_over(HookSet::from_hooks(vec![h]), spawner)
        .fire(permission_payload())
        .await;
    assert_eq!(r.decision, Decision::Block);
    // Codex: exit 2 without stderr is no deny.
    let r = permission(Dialect::Codex, ExitStatus::Exited(2), "", "").await;
    assert_eq!(r.decision, Decision::Pass);
}

#[tokio::test]
async fn a_deny_beats_an_allow_and_stops_the_event() {
    let spawner = Arc::new(
        FakeSpawner::default()
            .with("yes", ExitStatus::Exited(0), r#"{"decision":"allow"}"#, "")
            .with("no", ExitStatus::Exited(2), "", "no pushes")
            .with(
                "later",
                ExitStatus::Exited(0),
                r#"{"decision":"allow"}"#,
                "",
            ),
    );
    let hooks = vec![
        hook(Event::PermissionRequest, 0, "yes"),
        hook(Event::PermissionRequest, 1, "no"),
        hook(Event::PermissionRequest, 2, "later"),
    ];
    let r = runner_over(HookSet::from_hooks(hooks), spawner.clone())
        .fire(permission_payload())
        .await;
    assert_eq!(
        (r.decision, r.reason.as_deref(), r.allow),
        (Decision::Block, Some("no pushes"), false)
    );
    assert_eq!(
        spawner.calls(),
        ["yes", "no"],
        "the first deny ends the event"
    );
}

#[tokio::test]
async fn an_allow_that_rewrites_is_not_applied_and_a_deny_may_interrupt() {
    let rewrite = r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"git push --force"}}}}"#;
    let r = permission(Dialect::Claude, ExitStatus::Exited(0), rewrite, "").await;
    assert_eq!(
        (r.decision, r.allow, r.updated_args),
        (Decision::Pass, false, None)
    );
    assert_eq!(r.hooks[0].outcome, Outcome::Warn);
    assert!(
        r.hooks[0]
            .message
            .as_deref()
            .unwrap()
            .contains("does not apply at PermissionRequest")
    );
    let interrupt = r#"{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"halt","interrupt":true}}}"#;
    let r = permission(Dialect::Claude, ExitStatus::Exited(0), interrupt, "").await;
    assert_eq!(r.decision, Decision::Block);
    assert_eq!(r.stop.map(|s| s.reason).as_deref(), Some("halt"));
    let bad = r#"{"hookSpecificOutput":{"decision":{"behavior":"maybe"}}}"#;
    let r = permission(Dialect::Claude, ExitStatus::Exited(0), bad, "").await;
    assert_eq!((r.decision, r.allow), (Decision::Pass, false));
    assert!(r.hooks[0].message.as_deref().unwrap().contains(
        "`hookSpecificOutput.decision.behavior` must be \"allow\" or \"deny\", got \"maybe\""
    ));
}

#[test]
fn an_untrusted_hook_cannot_allow() {
    use crate::config::HookId;
    use crate::trust::TrustLevel;
    let id = HookId {
        scope: Scope::Project,
        event: Event::PermissionRequest,
        index: 0,
        source: 0,
    };
    let mut facts = judge::HookFacts::new(id, HookKind::Wasm, OnError::Warn, 500);
    let out = SpawnOutput {
        status: ExitStatus::Exited(0),
        stdout: br#"{"decision":"allow"}"#.to_vec(),
        stderr: Vec::new(),
        truncated: false,
        duration: Duration::from_millis(1),
        model: None,
    };
    let rules = crate::judge::rules(Dialect::Native);
    let j = judge::judge(rules, &facts, &out);
    assert!(j.effects.allow);
    facts.trust = TrustLevel::Untrusted;
    let j = judge::judge(rules, &facts, &out);
    assert!(
        !j.effects.allow,
        "an untrusted hook keeps pass or block only"
    );
    assert_eq!(j.outcome, Outcome::Warn);
    assert!(j.message.unwrap().contains("ignored: allow"));
}

#[tokio::test]
async fn observing_events_run_every_hook() {
    for event in [
        Event::PostToolUseFailure,
        Event::Notification,
        Event::SubagentStart,
        Event::PostCompact,
        Event::StopFailure,
    ] {
        let spawner = Arc::new(
            FakeSpawner::default()
                .with("a", ExitStatus::Exited(2), r#""#, "first")
                .with(
                    "b",
                    ExitStatus::Exited(0),
                    r#"{"decision":"block","reason":"r"}"#,
                    "",
                )
                .with(
                    "c",
                    ExitStatus::Exited(0),
                    r#"{"additionalContext":"ctx"}"#,
                    "",
                ),
        );
        let hooks = vec![
            hook(event, 0, "a"),
            hook(event, 1, "b"),
            hook(event, 2, "c"),
        ];
        let r = runner_over(HookSet::from_hooks(hooks), spawner.clone())
            .fire(Payload::neutral(event, Path::new("/p"), "s"))
            .await;
        assert_eq!(spawner.calls(), ["a", "b", "c"], "{event}");
        assert_eq!(r.decision, Decision::Pass, "{event}");
        assert_eq!(r.additional_context, ["ctx"], "{event}");
    }
}

#[tokio::test]
async fn new_tool_events_take_a_tool_matcher() {
    let spawner = Arc::new(FakeSpawner::default().with("h", ExitStatus::Exited(0), "", ""));
    let mut h = hook(Event::PostToolUseFailure, 0, "h");
    h.matcher = Some(config::Matcher::new("bash").unwrap());
    let runner = runner_over(HookSet::from_hooks(vec![h]), spawner.clone());
    let p = Path::new("/p");
    let fail = |tool: &str| Payload::post_tool_use_failure(p, "s", tool, json!({}), "exit 1");
    runner.fire(fail("read_file")).await;
    assert!(spawner.calls().is_empty());
    runner.fire(fail("bash")).await;
    assert_eq!(spawner.stdin_of("h")["toolError"], "exit 1");
}

#[tokio::test]
async fn other_agents_match_notifications_on_their_kind() {
    let spawner = Arc::new(FakeSpawner::default().with("h", ExitStatus::Exited(0), "", ""));
    let mut h = claude_hook(Event::Notification, 0, "h");
    h.matcher = Some(config::Matcher::new("permission_prompt").unwrap());
    let runner = runner_over(HookSet::from_hooks(vec![h]), spawner.clone());
    let p = Path::new("/p");
    runner
        .fire(Payload::notification(p, "s", "idle", "idle_prompt"))
        .await;
    assert!(spawner.calls().is_empty());
    runner
        .fire(Payload::notification(p, "s", "asks", "permission_prompt"))
        .await;
    let seen = spawner.stdin_of("h");
    assert_eq!(
        (seen["notification_type"].as_str(), seen["message"].as_str()),
        (Some("permission_prompt"), Some("asks"))
    );
}

#[tokio::test]
async fn the_loop_sees_the_allow() {
    let spawner = Arc::new(FakeSpawner::default().with(
        "h",
        ExitStatus::Exited(0),
        r#"{"decision":"allow"}"#,
        "",
    ));
    let runner = runner_over(
        HookSet::from_hooks(vec![hook(Event::PermissionRequest, 0, "h")]),
        spawner,
    );
    let cx = HookContext {
        session_id: "s".into(),
        cwd: PathBuf::from("/p"),
        is_subagent: false,
        agent_type: None,
    };
    let v = agent::ToolHooks::permission_request(&runner, &cx, "bash", &json!({}), "rule").await;
    assert!(v.allow);
    assert_eq!(v.verdict, agent::Verdict::Pass);
}

#[tokio::test]
async fn an_in_process_hook_allows_like_a_script() {
    use crate::inprocess::FnResponse;
    let runner = Runner::builder("/p")
        .hooks(HookSet::default())
        .spawner(Arc::new(FakeSpawner::default()))
        .hook(
            Event::PermissionRequest,
            Some("bash"),
            "ok",
            |_: &Payload| FnResponse::allow(),
        )
        .hook(Event::PreToolUse, None, "pre", |_: &Payload| {
            FnResponse::allow()
        })
        .build()
        .unwrap();
    let r = runner.fire(permission_payload()).await;
    assert_eq!((r.allow, r.hooks[0].outcome), (true, Outcome::Allow));
    // Elsewhere an allow is a pass: hooks block, never bypass.
    let r = runner.fire(payload(Event::PreToolUse)).await;
    assert_eq!((r.decision, r.allow, r.ask), (Decision::Pass, false, false));
}
