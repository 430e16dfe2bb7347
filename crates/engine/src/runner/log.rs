//! The decision log's side of firing an event: what the runner knows of it beyond its report
//! (the configured hooks that did not run, and why) made into one [`EventRecord`] and
//! appended, and the same record exported as spans (`telemetry`, the `otel` feature) so the
//! two never disagree. Only when a log or spans are configured: nothing here is on the path
//! of a runner without either.

use super::{Runner, Snapshot};
use crate::decision_log::record::EventFacts;
use crate::decision_log::{EventRecord, NotRun, NotRunWhy};
use crate::payload::Payload;
use crate::report::EventReport;
use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// What `fire` keeps for the log while the event runs.
pub(super) struct Pending {
    start: Instant,
    /// The wall-clock start: the record's `start_ms` and id, and the spans' start time.
    start_wall: SystemTime,
    payload: Value,
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

impl Runner {
    /// The start of an event's record: `None` when no log and no spans are configured (then
    /// nothing is copied).
    pub(super) fn log_start(&self, payload: &Payload) -> Option<Pending> {
        if self.decision_log.is_none() && !self.exports_spans() {
            return None;
        }
        Some(Pending {
            start: Instant::now(),
            start_wall: SystemTime::now(),
            payload: Value::Object(payload.as_map().clone()),
        })
    }

    /// Appends the event's record; `not_started`: the configured hooks whose `if` did not hold.
    pub(super) fn log_finish(
        &self,
        pending: Option<Pending>,
        snapshot: &Snapshot,
        payload: &Payload,
        report: &EventReport,
        not_started: impl FnOnce() -> Vec<String>,
    ) {
        let Some(p) = pending else {
            return;
        };
        let not_started = &not_started()[..];
        let known = payload.known();
        let start_ms = p
            .start_wall
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        let facts = EventFacts {
            id: format!(
                "{:x}-{:x}-{:x}",
                start_ms,
                std::process::id(),
                COUNTER.fetch_add(1, Ordering::Relaxed)
            ),
            start_ms,
            payload: &p.payload,
            session: known.session_id,
            tool: payload.tool_name().map(str::to_string),
            agent: self
                .agent_env
                .as_ref()
                .map(|a| crate::decision_log::record::name_of(&a.dialect)),
            project: self.project_dir.clone(),
            duration_ms: p.start.elapsed().as_secs_f64() * 1000.0,
            not_run: not_run(snapshot, payload, report, not_started),
        };
        let full = self.decision_log.as_ref().is_some_and(|l| l.full());
        // Made whole here only for spans (the `otel` feature).
        #[cfg_attr(not(feature = "otel"), allow(unused_mut))]
        let mut record = EventRecord::unfinished(report, facts, full);
        #[cfg_attr(not(feature = "otel"), allow(unused_mut))]
        let mut unfinished = Some((p.payload, start_ms));
        // Spans need the whole record now; the log finishes it itself, on its writer thread
        // when it writes there (the payload's hash is a serialisation).
        #[cfg(feature = "otel")]
        if let Some(t) = &self.telemetry {
            record = crate::decision_log::writer::finished(record, unfinished.take());
            t.export(&record, p.start_wall);
        }
        if let Some(log) = &self.decision_log {
            log.append(record, unfinished);
        }
    }

    /// Waits until every record this runner's decision log was handed is written (a log
    /// written in the background, the default of a long-lived process: `decision_log::writer`).
    pub fn flush_decision_log(&self) {
        if let Some(log) = &self.decision_log {
            log.flush();
        }
    }

    fn exports_spans(&self) -> bool {
        #[cfg(feature = "otel")]
        return self.telemetry.is_some();
        #[cfg(not(feature = "otel"))]
        false
    }
}

/// The configured hooks of the event that took no part in it, and why.
fn not_run(
    snapshot: &Snapshot,
    payload: &Payload,
    report: &EventReport,
    not_started: &[String],
) -> Vec<NotRun> {
    let event = payload.event();
    let subject = super::fire::subject(payload);
    let matched: Vec<_> = snapshot.hooks.matching(event, subject).collect();
    let ran = |label: &str| report.hooks.iter().any(|h| h.hook == *label);
    let mut out = Vec::new();
    for hook in snapshot.hooks.all().filter(|h| h.event == event) {
        let label = hook.label();
        if ran(&label) {
            continue;
        }
        let (why, detail) = if !matched.iter().any(|m| std::sync::Arc::ptr_eq(m, hook)) {
            (NotRunWhy::Matcher, hook.match_source.clone())
        } else if matched
            .iter()
            .take_while(|m| !std::sync::Arc::ptr_eq(m, hook))
            .any(|m| hook.same_handler(m))
        {
            (NotRunWhy::Duplicate, None)
        } else if not_started.contains(&label) {
            (
                NotRunWhy::If,
                hook.condition.as_ref().map(ToString::to_string),
            )
        } else if hook.is_async {
            (NotRunWhy::Async, None)
        } else {
            (NotRunWhy::ShortCircuit, None)
        };
        out.push(NotRun {
            hook: label,
            file: Some(hook.file.clone()),
            why,
            detail,
        });
    }
    for d in snapshot
        .hooks
        .disabled
        .iter()
        .filter(|d| d.hook.event == event)
    {
        out.push(NotRun {
            hook: d.hook.label(),
            file: Some(d.hook.file.clone()),
            why: NotRunWhy::Disabled,
            detail: Some(format!("disabled in {}: {}", d.by.display(), d.why)),
        });
    }
    out
}
