//! Shell hooks end to end: real `sh`, real processes, outcomes asserted.

mod common;

use common::{Project, pre_tool};
use hookhost::{Decision, Event, Outcome, Payload};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

fn one_hook(event: &str, hook: Value) -> Project {
    Project::new(json!({ "hooks": { event: [hook] } }))
}

#[tokio::test]
async fn exit_codes_per_event_kind() {
    let cases = [
        (
            "PreToolUse",
            "echo nope >&2; exit 2",
            Decision::Block,
            Outcome::Block,
        ),
        ("PreToolUse", "exit 1", Decision::Pass, Outcome::Warn),
        ("PreToolUse", "exit 0", Decision::Pass, Outcome::Pass),
        (
            "PostToolUse",
            "echo bad >&2; exit 2",
            Decision::Pass,
            Outcome::Warn,
        ),
        ("UserPromptSubmit", "exit 2", Decision::Pass, Outcome::Warn),
        (
            "Stop",
            "echo keep going; exit 2",
            Decision::Force,
            Outcome::Force,
        ),
        ("Stop", "exit 2", Decision::Pass, Outcome::Warn),
        (
            "SubagentStop",
            "echo more; exit 2",
            Decision::Force,
            Outcome::Force,
        ),
        ("SessionEnd", "kill -9 $$", Decision::Pass, Outcome::Warn),
    ];
    for (event, command, decision, outcome) in cases {
        let p = one_hook(event, json!({ "command": command }));
        let ev: Event = event.parse().unwrap();
        let payload = match ev {
            Event::PreToolUse => pre_tool(&p.path(), "bash", json!({"command": "ls"})),
            other => Payload::neutral(other, &p.path(), "s"),
        };
        let r = p.runner().fire(payload).await;
        assert_eq!(
            (r.decision, r.hooks[0].outcome),
            (decision, outcome),
            "{event}: {command}"
        );
    }
}

#[tokio::test]
async fn block_reason_is_stderr_and_force_message_is_stdout() {
    let p = one_hook(
        "PreToolUse",
        json!({"command": "echo 'rm -rf is not allowed' >&2; exit 2"}),
    );
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(r.reason.as_deref(), Some("rm -rf is not allowed"));
    let p = one_hook(
        "Stop",
        json!({"command": "echo 'tests are failing, fix them'; exit 2"}),
    );
    let r = p
        .runner()
        .fire(Payload::neutral(Event::Stop, &p.path(), "s"))
        .await;
    assert_eq!(r.reason.as_deref(), Some("tests are failing, fix them"));
}

#[tokio::test]
async fn timeout_kills_the_whole_group_even_with_a_grandchild_holding_stdout() {
    let p = one_hook(
        "PreToolUse",
        json!({"command": "sleep 30 & echo $! > grandchild.pid; sleep 30", "timeout": 300}),
    );
    let start = Instant::now();
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    let elapsed = start.elapsed();
    assert_eq!(r.decision, Decision::Block, "{}", common::summary(&r));
    assert_eq!(r.hooks[0].outcome, Outcome::Timeout);
    assert_eq!(r.hooks[0].exit_code, None);
    // An outcome bound, not a benchmark: without the group kill this waits 30 s.
    assert!(
        elapsed < Duration::from_secs(5),
        "returned after {elapsed:?}"
    );
    let pid: u32 = p.read("grandchild.pid").trim().parse().unwrap();
    let gone = (0..40).any(|_| {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let dead = stat.is_empty() || stat.contains(") Z ");
        if !dead {
            std::thread::sleep(Duration::from_millis(50));
        }
        dead
    });
    assert!(gone, "grandchild {pid} survived the timeout");
}

#[tokio::test]
async fn a_finished_hook_is_not_held_by_a_background_grandchild() {
    let p = one_hook("PostToolUse", json!({"command": "sleep 30 & echo done"}));
    let start = Instant::now();
    let r = p
        .runner()
        .fire(Payload::neutral(Event::PostToolUse, &p.path(), "s"))
        .await;
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(r.hooks[0].outcome, Outcome::Pass);
    assert_eq!(r.hooks[0].stdout.trim(), "done");
}

#[tokio::test]
async fn large_payload_to_a_hook_that_never_reads_stdin() {
    let p = Project::new(json!({"hooks": {"UserPromptSubmit": [
        {"command": "exit 0"},
        {"command": "wc -c"}
    ]}}));
    let prompt = "x".repeat(5 << 20);
    let r = p
        .runner()
        .fire(Payload::user_prompt_submit(&p.path(), "s", &prompt))
        .await;
    assert_eq!(r.hooks[0].outcome, Outcome::Pass, "{}", r.hooks[0].stderr);
    let counted: usize = r.hooks[1].stdout.trim().parse().unwrap();
    assert!(
        counted > 5 << 20,
        "the second hook read the whole payload: {counted}"
    );
}

#[tokio::test]
async fn output_is_truncated_at_one_mib_per_stream() {
    let p = one_hook(
        "PostToolUse",
        json!({"command": "head -c 8388608 /dev/zero | tr '\\0' a; head -c 8388608 /dev/zero | tr '\\0' b >&2"}),
    );
    let r = p
        .runner()
        .fire(Payload::neutral(Event::PostToolUse, &p.path(), "s"))
        .await;
    let h = &r.hooks[0];
    assert_eq!(h.outcome, Outcome::Pass);
    assert!(h.truncated);
    assert_eq!(h.stdout.len(), 1 << 20);
    assert_eq!(h.stderr.len(), 1 << 20);
    assert!(h.stdout.bytes().all(|b| b == b'a'));
}

#[tokio::test]
async fn a_missing_command_blocks_pre_tool_use_as_a_spawn_failure() {
    let p = one_hook(
        "PreToolUse",
        json!({"command": "./.coding-agent/hooks/missing.sh"}),
    );
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(r.decision, Decision::Block);
    assert_eq!(r.hooks[0].outcome, Outcome::Error);
    assert_eq!(r.hooks[0].exit_code, Some(127));
    assert!(r.reason.unwrap().contains("could not run"));
}

#[tokio::test]
async fn every_payload_field_reaches_the_hook() {
    let mut hooks = serde_json::Map::new();
    for event in Event::ALL {
        hooks.insert(
            event.to_string(),
            json!([{ "command": format!("cat > {event}.json") }]),
        );
    }
    let p = Project::new(json!({ "hooks": hooks }));
    let runner = p.runner();
    let root = p.path();
    let args = json!({"command": "ls -la"});
    let payloads = [
        Payload::session_start(&root, "sid", "resume"),
        Payload::user_prompt_submit(&root, "sid", "fix the bug"),
        Payload::pre_tool_use(&root, "sid", "bash", args.clone()),
        Payload::post_tool_use(
            &root,
            "sid",
            "bash",
            args.clone(),
            json!({"stdout": "x"}),
            true,
        ),
        Payload::pre_compact(&root, "sid", "auto"),
        Payload::stop(Event::Stop, &root, "sid", true),
        Payload::stop(Event::SubagentStop, &root, "sid", false),
        Payload::session_end(&root, "sid", "logout"),
    ];
    // First: a skill's shell command is put to the PreToolUse hooks too (as the tool call it
    // is), so the PreToolUse below writes its file last.
    let skill = Payload::pre_skill_shell_command(&root, "sid", "Bash", args.clone());
    for payload in std::iter::once(skill)
        .chain(payloads)
        .chain(new_event_payloads(&root, &args))
    {
        runner.fire(payload).await;
    }
    let read = |e: &str| -> Value { serde_json::from_str(&p.read(&format!("{e}.json"))).unwrap() };
    for event in Event::ALL {
        let v = read(event.as_str());
        assert_eq!(v["event"], json!(event.as_str()));
        assert_eq!(v["cwd"], json!(root.to_string_lossy()));
        assert_eq!(v["sessionId"], json!("sid"));
    }
    assert_eq!(read("SessionStart")["source"], json!("resume"));
    assert_eq!(read("UserPromptSubmit")["prompt"], json!("fix the bug"));
    assert_eq!(read("PreToolUse")["toolName"], json!("bash"));
    assert_eq!(read("PreToolUse")["toolArgs"], args);
    let post = read("PostToolUse");
    assert_eq!(post["toolResult"], json!({"stdout": "x"}));
    assert_eq!(post["toolError"], json!(true));
    assert_eq!(post["toolArgs"], args);
    assert_eq!(read("PreCompact")["trigger"], json!("auto"));
    assert_eq!(read("Stop")["stopHookActive"], json!(true));
    assert_eq!(read("SubagentStop")["stopHookActive"], json!(false));
    assert_eq!(read("SessionEnd")["reason"], json!("logout"));
    new_event_fields(&read, &args);
}

/// Payloads of the events added for the real agents.
fn new_event_payloads(root: &std::path::Path, args: &Value) -> Vec<Payload> {
    vec![
        Payload::permission_request(root, "sid", "bash", args.clone(), "rule bash(ls *)"),
        Payload::post_tool_use_failure(root, "sid", "bash", args.clone(), "exit 2"),
        Payload::notification(
            root,
            "sid",
            "bash needs your permission",
            "permission_prompt",
        ),
        Payload::subagent_start(root, "sid", "scout", "look around"),
        Payload::post_compact(root, "sid", "auto", "[4 earlier messages compacted]"),
        Payload::stop_failure(root, "sid", "API error: 529 overloaded"),
        Payload::permission_denied(root, "sid", "bash", args.clone(), "denied by bash(*)"),
    ]
    .into_iter()
    .chain(claude_added_payloads(root))
    .collect()
}

/// The other events Claude Code added, each with one field of its own (`toolCalls` for
/// PostToolBatch; WorktreeCreate's hook prints no path, so it blocks: fine here).
fn claude_added_payloads(root: &std::path::Path) -> Vec<Payload> {
    use hookhost::Event as E;
    [
        (E::Setup, "trigger", json!("init")),
        (E::InstructionsLoaded, "loadReason", json!("session_start")),
        (E::UserPromptExpansion, "commandName", json!("deploy")),
        (E::MessageDisplay, "message", json!("done")),
        (E::PostToolBatch, "toolCalls", json!([])),
        (E::TaskCreated, "taskId", json!("1")),
        (E::TaskCompleted, "taskId", json!("1")),
        (E::TeammateIdle, "teammateName", json!("tester")),
        (E::ConfigChange, "source", json!("project_settings")),
        (E::CwdChanged, "newCwd", json!("/tmp")),
        (E::DirectoryAdded, "directory", json!("/srv")),
        (E::FileChanged, "changeType", json!("add")),
        (E::WorktreeCreate, "name", json!("x")),
        (E::WorktreeRemove, "worktreePath", json!("/w")),
        (E::Elicitation, "mcpServerName", json!("m")),
        (E::ElicitationResult, "action", json!("accept")),
        (E::PreModelSwitch, "toModel", json!("haiku")),
        (E::PostModelSwitch, "toModel", json!("haiku")),
    ]
    .into_iter()
    .map(|(e, k, v)| {
        let mut fields = serde_json::Map::new();
        fields.insert(k.to_string(), v);
        Payload::with_fields(e, root, "sid", fields)
    })
    .collect()
}

/// The fields of the events added for the real agents, as their hooks saw them.
fn new_event_fields(read: &dyn Fn(&str) -> Value, args: &Value) {
    let asked = read("PermissionRequest");
    assert_eq!(
        (&asked["toolName"], &asked["toolArgs"], &asked["reason"]),
        (&json!("bash"), args, &json!("rule bash(ls *)"))
    );
    let failed = read("PostToolUseFailure");
    assert_eq!(
        (&failed["toolName"], &failed["toolError"]),
        (&json!("bash"), &json!("exit 2"))
    );
    let n = read("Notification");
    assert_eq!(
        (&n["message"], &n["kind"]),
        (
            &json!("bash needs your permission"),
            &json!("permission_prompt")
        )
    );
    let sub = read("SubagentStart");
    assert_eq!(
        (&sub["agentType"], &sub["prompt"]),
        (&json!("scout"), &json!("look around"))
    );
    let compacted = read("PostCompact");
    assert_eq!(
        (&compacted["trigger"], &compacted["summary"]),
        (&json!("auto"), &json!("[4 earlier messages compacted]"))
    );
    assert_eq!(
        read("StopFailure")["error"],
        json!("API error: 529 overloaded")
    );
}

#[tokio::test]
async fn hooks_get_their_env_and_cwd() {
    let p = Project::new(json!({"hooks": {"PreCompact": [
        {"command": "echo \"$HOOK_EVENT|$HOOK_PROJECT_DIR|$(pwd)\""},
        {"command": "pwd", "cwd": "sub/dir"},
        {"command": "pwd", "cwd": "gone"}
    ]}}));
    std::fs::create_dir_all(p.path().join("sub/dir")).unwrap();
    let r = p
        .runner()
        .fire(Payload::neutral(Event::PreCompact, &p.path(), "s"))
        .await;
    let root = p.path().to_string_lossy().to_string();
    assert_eq!(
        r.hooks[0].stdout.trim(),
        format!("PreCompact|{root}|{root}")
    );
    assert_eq!(r.hooks[1].stdout.trim(), format!("{root}/sub/dir"));
    assert_eq!(r.hooks[2].outcome, Outcome::Error);
    assert!(
        r.hooks[2]
            .message
            .as_ref()
            .unwrap()
            .contains("does not exist")
    );
}

#[tokio::test]
async fn global_hooks_run_before_project_hooks() {
    let p = Project::new(json!({"hooks": {"PostToolUse": [
        {"command": "echo project-0 >> order.txt"},
        {"command": "echo project-1 >> order.txt"}
    ]}}));
    p.write_global(json!({"hooks": {"PostToolUse": [
        {"command": "echo global-0 >> order.txt"}
    ]}}));
    let r = p
        .runner()
        .fire(Payload::neutral(Event::PostToolUse, &p.path(), "s"))
        .await;
    // By rank: the user's hooks judge first (and again after a project's rewrite).
    assert_eq!(p.read("order.txt"), "global-0\nproject-0\nproject-1\n");
    let sources: Vec<_> = r.hooks.iter().map(|h| format!("{:?}", h.source)).collect();
    assert_eq!(sources, ["Global", "Project", "Project"]);
}

#[tokio::test]
async fn updated_input_from_a_real_hook_reaches_the_next_one() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "echo '{\"updatedInput\":{\"command\":\"ls -la\"}}'", "match": "bash"},
        {"command": "cat > seen.json", "match": "bash"}
    ]}}));
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({"command": "ls"})))
        .await;
    assert_eq!(r.updated_args, Some(json!({"command": "ls -la"})));
    let seen: Value = serde_json::from_str(&p.read("seen.json")).unwrap();
    assert_eq!(seen["toolArgs"], json!({"command": "ls -la"}));
}
