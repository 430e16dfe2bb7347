//! `"asyncRewake": true` (Claude Code's field): a command hook that runs in the background
//! and, when it exits 2, "wakes" the agent with its output (Claude Code's hooks reference:
//! the hook's stderr, or stdout when stderr is empty, is shown to the model as a system
//! reminder so it can react to a background failure; other exit codes say nothing).
//!
//! The agent's adapter is one process per event, so the hook must outlive the event's
//! process: it is started detached (`spawner::start_detached`), its payload, output and exit
//! code in a private job directory of hookhost's own per-session state
//! (`<cache>/session-env/<session>/rewake/<job>/`, protected from the agent like the rest of
//! it). Nothing waits for it and no timeout applies, as Claude Code enforces none on a
//! background hook.
//!
//! hookhost cannot interrupt an idle agent, so the wake comes at the session's **next
//! event that can carry it**: a finished job that exited 2 is taken (renamed away first, so
//! two processes of one session never both deliver it) and its text becomes
//! - on Stop and SubagentStop, a force (the agent goes on with the text as its message:
//!   the agent that was about to stop is woken), when no hook decided already;
//! - on UserPromptSubmit, PostToolUse, PostToolUseFailure and SessionStart, additional
//!   context for the model;
//!
//! and a record in the event's report (outcome `warn` or `force`, the hook's stdout and
//! stderr). A job that exited otherwise is dropped when it is seen. Other events (PreToolUse,
//! PermissionRequest, the observing events without context) leave the jobs for a later one.
//! Without a session id, or off Unix, the hook runs as a plain `async` hook (no wake).

use super::Runner;
use super::Snapshot;
use crate::config::Hook;
use crate::event::Event;
use crate::judge::{Cell, Condition, Effects, Judgement, Outcome, Row, Verdict};
use crate::payload::Payload;
use crate::report::{EventReport, record};
use crate::spawner::{ExitStatus, OUTPUT_CAP, SpawnOutput, SpawnRequest};
use crate::trust::TrustLevel;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

impl Runner {
    /// Starts an `asyncRewake` hook detached; a plain async hook where it cannot be (no
    /// session, no state directory, not Unix).
    pub(super) fn start_rewake(
        &self,
        hook: Arc<Hook>,
        request: SpawnRequest,
        payload: &Payload,
        level: TrustLevel,
    ) {
        let session = payload.known().session_id.filter(|s| !s.is_empty());
        #[cfg(unix)]
        if let Some(session) = session {
            let name = format!(
                "{}-{}-{}",
                super::once::once_key(&hook),
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos())
                    .unwrap_or_default()
            );
            let started = self
                .session_env
                .rewake_job(&session, &name)
                .and_then(|dir| crate::spawner::start_detached(&request, &dir));
            match started {
                Ok(()) => return,
                Err(why) => {
                    tracing::warn!(hook = %hook.label(), "asyncRewake hook not started in the background: {why}");
                }
            }
        }
        #[cfg(not(unix))]
        let _ = session;
        self.start_async(hook, request, level);
    }

    /// The background hooks of this session that exited 2 since its last event that could
    /// carry them: their text folded into `effects`, a record each in `report` (nothing when
    /// a hook of the event `decided` it already).
    pub(super) fn deliver_rewakes(
        &self,
        decided: bool,
        snapshot: &Snapshot,
        payload: &Payload,
        effects: &mut Effects,
        report: &mut EventReport,
    ) {
        let event = payload.event();
        let forces = matches!(event, Event::Stop | Event::SubagentStop);
        let context = matches!(
            event,
            Event::UserPromptSubmit
                | Event::PostToolUse
                | Event::PostToolUseFailure
                | Event::SessionStart
        );
        if decided || !(context || forces && effects.verdict == Verdict::Pass) {
            return;
        }
        let Some(session) = payload.known().session_id.filter(|s| !s.is_empty()) else {
            return;
        };
        let Some(jobs) = self.session_env.rewake_jobs_started(&session) else {
            return;
        };
        for (key, output) in finished(&jobs) {
            let ExitStatus::Exited(2) = output.status else {
                continue;
            };
            let text = wake_text(&output);
            let hook = snapshot
                .hooks
                .all()
                .find(|h| h.async_rewake && super::once::once_key(h) == key);
            let message =
                "asyncRewake: exited with code 2 in the background; its output is delivered now"
                    .to_string();
            let mut judgement = if forces {
                let row = Row::table(Condition::Exit2, Cell::ForceStderr);
                Judgement::not_run(row, Outcome::Force, Verdict::Force(text.clone()), message)
            } else {
                let row = Row::table(Condition::Exit2, Cell::Feedback);
                Judgement::not_run(row, Outcome::Warn, Verdict::Pass, message)
            };
            if !forces {
                judgement.effects.additional_context.push(text.clone());
            }
            if let Some(hook) = hook {
                let mut r = record(hook, &output, &judgement, true);
                r.is_async = true;
                crate::report::log_record(event, &r);
                report.hooks.push(r);
            }
            if forces {
                effects.verdict = Verdict::Force(text);
                // One wake keeps the agent going; the others wait for its next stop.
                break;
            }
            effects.additional_context.push(text);
        }
    }
}

/// What wakes the agent: the hook's stderr, or its stdout when stderr is empty.
fn wake_text(out: &SpawnOutput) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
    if stderr.is_empty() {
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    } else {
        stderr
    }
}

/// The finished jobs in `jobs`, each taken (renamed away, so no other process delivers it)
/// and removed: the hook's key and what it did. A job still running is left.
fn finished(jobs: &Path) -> Vec<(String, SpawnOutput)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(jobs) else {
        return out;
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| !n.ends_with(".taken"))
        .collect();
    // Oldest first: the name ends with its start time.
    names.sort_by_key(|n| n.rsplit('-').next().and_then(|t| t.parse::<u128>().ok()));
    for name in names {
        let dir = jobs.join(&name);
        if !dir.join("status").is_file() {
            continue;
        }
        let taken = jobs.join(format!("{name}.taken"));
        if std::fs::rename(&dir, &taken).is_err() {
            continue;
        }
        let read = |f: &str| {
            crate::files::read_bounded_nofollow(&taken.join(f), OUTPUT_CAP as u64)
                .unwrap_or_default()
        };
        let code = String::from_utf8_lossy(&read("status"))
            .trim()
            .parse::<i32>();
        let status = match code {
            Ok(c) => ExitStatus::Exited(c),
            Err(_) => ExitStatus::Crashed("its exit code was not recorded".into()),
        };
        let output = SpawnOutput {
            status,
            stdout: read("out"),
            stderr: read("err"),
            truncated: false,
            duration: Duration::ZERO,
            model: None,
        };
        let _ = std::fs::remove_dir_all(&taken);
        let key = name.split('-').next().unwrap_or_default().to_string();
        out.push((key, output));
    }
    out
}
