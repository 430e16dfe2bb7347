//! The decision log as the runner writes it: one line per event, what ran and what did not
//! and why, no payload value unless full capture, rotation and a private file.

use super::*;
use crate::decision_log::{Capture, DecisionLog, EventRecord, NotRunWhy};

fn lines(path: &Path) -> Vec<EventRecord> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn logged_runner(hooks: Vec<Hook>, spawner: FakeSpawner, log: DecisionLog) -> Runner {
    Runner::builder("/p")
        .hooks(HookSet::from_hooks(hooks))
        .spawner(Arc::new(spawner))
        .decision_log(log)
        .build()
        .unwrap()
}

#[tokio::test]
async fn one_line_per_event_with_what_ran_and_why_the_rest_did_not() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log/decisions.jsonl");
    let spawner = FakeSpawner::default()
        .with("a", ExitStatus::Exited(0), "", "")
        .with("b", ExitStatus::Exited(2), "", "no secrets")
        .with("c", ExitStatus::Exited(0), "", "");
    let mut edit_only = hook(Event::PreToolUse, 3, "d");
    edit_only.matcher = Some(crate::config::Matcher::new("^edit$").unwrap());
    edit_only.match_source = Some("edit".into());
    let hooks = vec![
        hook(Event::PreToolUse, 0, "a"),
        hook(Event::PreToolUse, 1, "b"),
        hook(Event::PreToolUse, 2, "c"),
        edit_only,
    ];
    let runner = logged_runner(hooks, spawner, DecisionLog::at(&path).in_background(false));
    let p = Payload::pre_tool_use(
        Path::new("/p"),
        "sess-1",
        "bash",
        json!({"command": "cat TOPSECRETVALUE"}),
    );
    let report = runner.fire(p).await;
    assert_eq!(report.decision, Decision::Block);
    let recs = lines(&path);
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    assert_eq!(
        (r.v, r.event.as_str(), r.decision.as_str()),
        (1, "PreToolUse", "block")
    );
    assert_eq!(r.session.as_deref(), Some("sess-1"));
    assert_eq!(r.tool.as_deref(), Some("bash"));
    assert_eq!(r.reason.as_deref(), Some("no secrets"));
    let outcomes: Vec<_> = r
        .hooks
        .iter()
        .map(|h| (h.hook.as_str(), h.outcome.as_str()))
        .collect();
    assert_eq!(
        outcomes,
        [("PreToolUse[0]", "pass"), ("PreToolUse[1]", "block")]
    );
    assert_eq!(r.hooks[1].row, "exit 2: block");
    assert_eq!(r.hooks[1].output_sha256.len(), 12);
    let why: Vec<_> = r.not_run.iter().map(|n| (n.hook.as_str(), n.why)).collect();
    assert_eq!(
        why,
        [
            ("PreToolUse[2]", NotRunWhy::ShortCircuit),
            ("PreToolUse[3]", NotRunWhy::Matcher)
        ]
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains("TOPSECRETVALUE"), "{text}");
    assert!(r.payload.is_none() && r.hooks[0].stdout.is_none());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(path.parent().unwrap()), 0o700);
    }
}

#[tokio::test]
async fn full_capture_keeps_the_payload_and_output() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.jsonl");
    let spawner = FakeSpawner::default().with("a", ExitStatus::Exited(0), "said-this", "");
    let log = DecisionLog::at(&path)
        .in_background(false)
        .capture(Capture::Full);
    let runner = logged_runner(vec![hook(Event::PreToolUse, 0, "a")], spawner, log);
    runner.fire(payload(Event::PreToolUse)).await;
    let r = &lines(&path)[0];
    assert!(
        r.payload.as_ref().unwrap().to_string().contains("\"ls\""),
        "{:?}",
        r.payload
    );
    assert_eq!(r.hooks[0].stdout.as_deref(), Some("said-this"));
}

/// Written in place or in batches on the writer thread, the log rotates before the line that
/// would cross its bound: no file is over it, and every line is whole.
#[tokio::test]
async fn rotates_by_size_into_two_files() {
    for background in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.jsonl");
        let spawner = FakeSpawner::default().with("a", ExitStatus::Exited(0), "", "");
        let log = DecisionLog::at(&path)
            .in_background(background)
            .max_bytes(1500);
        let runner = logged_runner(vec![hook(Event::PreToolUse, 0, "a")], spawner, log);
        for _ in 0..12 {
            runner.fire(payload(Event::PreToolUse)).await;
        }
        runner.flush_decision_log();
        let rotated = crate::decision_log::rotate::rotated(&path);
        for file in [&path, &rotated] {
            let len = std::fs::metadata(file).unwrap().len();
            assert!(len <= 1500, "{background}: {} {len}", file.display());
        }
        let total = lines(&path).len() + lines(&rotated).len();
        assert!((2..12).contains(&total), "{background}: {total}");
    }
}

#[cfg(unix)]
#[tokio::test]
async fn a_planted_symlink_is_refused_and_the_event_still_decides() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("victim");
    std::fs::write(&target, "keep").unwrap();
    let logdir = dir.path().join("log");
    std::fs::create_dir(&logdir).unwrap();
    std::fs::set_permissions(&logdir, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    let path = logdir.join("d.jsonl");
    std::os::unix::fs::symlink(&target, &path).unwrap();
    let spawner = FakeSpawner::default().with("b", ExitStatus::Exited(2), "", "no");
    let runner = logged_runner(
        vec![hook(Event::PreToolUse, 0, "b")],
        spawner,
        DecisionLog::at(&path).in_background(false),
    );
    let report = runner.fire(payload(Event::PreToolUse)).await;
    assert_eq!(report.decision, Decision::Block);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
}

#[cfg(unix)]
#[tokio::test]
async fn a_directory_open_to_others_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let logdir = dir.path().join("log");
    std::fs::create_dir(&logdir).unwrap();
    std::fs::set_permissions(&logdir, std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
    let path = logdir.join("d.jsonl");
    let spawner = FakeSpawner::default().with("a", ExitStatus::Exited(0), "", "");
    let runner = logged_runner(
        vec![hook(Event::PreToolUse, 0, "a")],
        spawner,
        DecisionLog::at(&path).in_background(false),
    );
    runner.fire(payload(Event::PreToolUse)).await;
    assert!(!path.exists());
}

#[tokio::test]
async fn in_the_background_every_record_is_written_by_flush_and_by_drop() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log/decisions.jsonl");
    let spawner = FakeSpawner::default().with("a", ExitStatus::Exited(0), "", "");
    let runner = logged_runner(
        vec![hook(Event::PreToolUse, 0, "a")],
        spawner,
        DecisionLog::at(&path).in_background(true),
    );
    let p = Payload::pre_tool_use(Path::new("/p"), "s", "bash", json!({"command": "ls"}));
    for _ in 0..50 {
        runner.fire(p.clone()).await;
    }
    runner.flush_decision_log();
    assert_eq!(lines(&path).len(), 50, "flushed while the runner lives");
    for _ in 0..25 {
        runner.fire(p.clone()).await;
    }
    drop(runner);
    assert_eq!(lines(&path).len(), 75, "written before the log went");
}

/// The lines of the log at `path`, as JSON.
fn json_lines(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The same without what differs between two runs of an event: its id, time and durations.
fn timeless(path: &Path) -> Vec<Value> {
    let mut lines = json_lines(path);
    for v in &mut lines {
        for key in ["id", "time", "duration_ms"] {
            v.as_object_mut().unwrap().remove(key);
        }
        for h in v["hooks"].as_array_mut().unwrap() {
            h.as_object_mut().unwrap().remove("duration_ms");
        }
    }
    lines
}

/// A kept record is its line read back, whole, and the writer thread writes the same line as
/// an event written in place: for every shape of event (hooks that pass, block with a
/// message, print output with escapes and non-ASCII text, a hook that did not run, a
/// rewritten call, under both captures), but for the id, the time and the durations.
#[tokio::test]
async fn the_background_line_is_the_record_line() {
    for capture in [Capture::Hashes, Capture::Full] {
        let dir = tempfile::tempdir().unwrap();
        let (fore, back) = (dir.path().join("fore.jsonl"), dir.path().join("back.jsonl"));
        let spawner = || {
            FakeSpawner::default()
                .with("a", ExitStatus::Exited(0), "{\"x\": \"é\\u0001\"}\n", "")
                .with(
                    "w",
                    ExitStatus::Exited(0),
                    r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls -a"}}}"#,
                    "",
                )
                .with("b", ExitStatus::Exited(2), "", "no \"secrets\"\ttab ✓")
        };
        let mut later = hook(Event::PreToolUse, 3, "c");
        later.matcher = Some(crate::config::Matcher::new("^edit$").unwrap());
        later.match_source = Some("edit".into());
        let hooks = || {
            vec![
                hook(Event::PreToolUse, 0, "a"),
                hook(Event::PreToolUse, 1, "w"),
                hook(Event::PreToolUse, 2, "b"),
                later.clone(),
            ]
        };
        let log = |path: &Path, background: bool| {
            DecisionLog::at(path)
                .in_background(background)
                .capture(capture)
        };
        // Keeping its records makes the first log write in place.
        let kept_log = Arc::new(log(&fore, false).keeping());
        let runners = [
            Runner::builder("/p")
                .hooks(HookSet::from_hooks(hooks()))
                .spawner(Arc::new(spawner()))
                .shared_decision_log(kept_log.clone())
                .build()
                .unwrap(),
            logged_runner(hooks(), spawner(), log(&back, true)),
        ];
        for runner in &runners {
            for tool in ["bash", "edit"] {
                let p =
                    Payload::pre_tool_use(Path::new("/p"), "sé", tool, json!({"command": "ls"}));
                runner.fire(p).await;
            }
            runner.flush_decision_log();
        }
        let kept: Vec<Value> = kept_log
            .take_kept()
            .iter()
            .map(|r| serde_json::to_value(r).unwrap())
            .collect();
        assert_eq!(kept, json_lines(&fore), "{capture:?}");
        let (f, b) = (timeless(&fore), timeless(&back));
        assert_eq!(f.len(), 2);
        assert_eq!(f, b, "{capture:?}");
        assert_eq!(f[0]["hooks"].as_array().unwrap().len(), 3, "{}", f[0]);
        assert_eq!(f[0]["not_run"][0]["why"], "matcher", "{}", f[0]);
        assert_eq!(f[0]["reason"], "no \"secrets\"\ttab ✓", "{}", f[0]);
        // The line holds the payload as fired, not as rewritten.
        if capture == Capture::Full {
            assert_eq!(f[0]["payload"]["toolArgs"]["command"], "ls", "{}", f[0]);
        }
    }
}
