//! The decision log's side of firing an event: its report and what the runner knows of it
//! beyond (the configured hooks that did not run, and why) copied into a draft for the log's
//! writer, and the draft's record exported as spans (`telemetry`, the `otel` feature) so the
//! two never disagree. Only when a log or spans are configured: nothing here is on the path
//! of a runner without either.

use super::{Runner, Snapshot};
use crate::config::HookId;
use crate::decision_log::record::Draft;
use crate::decision_log::{NotRun, NotRunWhy};
use crate::payload::Payload;
use crate::report::EventReport;
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// What `fire` keeps for the log while the event runs.
pub(super) struct Pending {
    start: Instant,
    /// The wall-clock start: the record's `start_ms` and id, and the spans' start time.
    start_wall: SystemTime,
    /// The payload's JSON as fired: the bytes its first hook is given (made here when no
    /// hook needs them, shared otherwise), so logging copies no payload ...
    payload: Arc<[u8]>,
    /// ... but under full capture, which keeps it whole.
    full_payload: Option<Value>,
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

impl Runner {
    /// The start of an event's record: `None` when no log and no spans are configured.
    pub(super) fn log_start(&self, payload: &Payload) -> Option<Pending> {
        if self.decision_log.is_none() && !self.exports_spans() {
            return None;
        }
        let full = self.decision_log.as_ref().is_some_and(|l| l.full());
        Some(Pending {
            start: Instant::now(),
            start_wall: SystemTime::now(),
            payload: payload.to_json_bytes(),
            full_payload: full.then(|| Value::Object(payload.as_map().clone())),
        })
    }

    /// Hands the event's facts to the log (and the spans); `not_started`: the configured
    /// hooks whose `if` did not hold.
    pub(super) fn log_finish(
        &self,
        pending: Option<Pending>,
        snapshot: &Snapshot,
        payload: &Payload,
        report: &EventReport,
        not_started: &[HookId],
    ) {
        let Some(p) = pending else {
            return;
        };
        let start_ms = p
            .start_wall
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        // Into a spent draft's buffers, most often: copying allocates nothing then.
        let fill = |d: &mut Draft| {
            d.clear();
            d.start_ms = start_ms;
            d.seq = COUNTER.fetch_add(1, Ordering::Relaxed);
            d.payload = p.payload;
            d.full_payload = p.full_payload;
            d.event = report.event.as_str();
            d.agent = self.agent_env.as_ref().map(|a| a.dialect);
            d.decision = report.decision;
            d.duration_ms = p.start.elapsed().as_secs_f64() * 1000.0;
            d.project = d.put(&self.project_dir.to_string_lossy());
            d.session = payload
                .get("sessionId")
                .and_then(Value::as_str)
                .map(|s| d.put(s));
            d.tool = payload.tool_name().map(|t| d.put(t));
            d.reason = report.reason.as_deref().map(|r| d.put(r));
            for h in &report.hooks {
                d.put_hook(h, report.untrusted.contains(&h.hook));
            }
            d.not_run = not_run(snapshot, payload, report, not_started);
            // Spans need the whole record now; the log makes its own, on its writer thread
            // when it writes there.
            #[cfg(feature = "otel")]
            if let Some(t) = &self.telemetry {
                match d.record() {
                    Ok(record) => t.export(&record, p.start_wall),
                    Err(e) => tracing::warn!("no spans for this event: {e}"),
                }
            }
        };
        match &self.decision_log {
            Some(log) => log.append(fill),
            None => fill(&mut Draft::default()),
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
    not_started: &[HookId],
) -> Vec<NotRun> {
    let event = payload.event();
    let mut matched = None;
    let mut out = Vec::new();
    for hook in snapshot.hooks.all().filter(|h| h.event == event) {
        let id = hook.id();
        if report.hooks.iter().any(|h| h.hook == id) {
            continue;
        }
        // Asked again only when a configured hook did not run (rarely: most events run all).
        let matched: &Vec<_> = matched.get_or_insert_with(|| {
            let subject = super::fire::subject(payload);
            snapshot.hooks.matching(event, subject).collect()
        });
        let (why, detail) = if !matched.iter().any(|m| std::sync::Arc::ptr_eq(m, hook)) {
            (NotRunWhy::Matcher, hook.match_source.clone())
        } else if matched
            .iter()
            .take_while(|m| !std::sync::Arc::ptr_eq(m, hook))
            .any(|m| hook.same_handler(m))
        {
            (NotRunWhy::Duplicate, None)
        } else if not_started.contains(&id) {
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
            hook: id.to_string(),
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
