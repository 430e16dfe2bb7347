//! Async hooks (`"async": true`): started, never waited for by the event, their records kept
//! (boundedly) for [`Runner::wait_async`].

use super::Runner;
use super::step::{facts, spawn_and_judge};
use crate::config::Hook;
use crate::report::{HookRecord, log_record, record};
use crate::spawner::SpawnRequest;
use crate::trust::TrustLevel;
use std::sync::Arc;

/// Async hook records kept for `wait_async` before finished ones are dropped.
pub(super) const ASYNC_RECORDS_KEPT: usize = 256;

impl Runner {
    /// Waits for every async hook started so far (each bounded by its own timeout) and
    /// returns their records (of the last 256 or so: older finished ones are dropped, having
    /// been logged, so an agent that never calls this does not accumulate them).
    pub async fn wait_async(&self) -> Vec<HookRecord> {
        let mut set = std::mem::take(&mut *crate::agent::sync::lock(&self.background));
        let mut records = Vec::new();
        while let Some(r) = set.join_next().await {
            if let Ok(r) = r {
                records.push(r);
            }
        }
        records
    }

    /// Fire-and-forget: never delays or changes the decision; failures are logged.
    pub(super) fn start_async(&self, hook: Arc<Hook>, request: SpawnRequest, level: TrustLevel) {
        let spawner = self.spawner.clone();
        let event = hook.event;
        let mut set = crate::agent::sync::lock(&self.background);
        // A long-lived agent may never call `wait_async`: beyond a bound, drop the records
        // of finished hooks (they were logged when they ended) so memory stays flat.
        if set.len() >= ASYNC_RECORDS_KEPT {
            while set.try_join_next().is_some() {}
        }
        set.spawn(async move {
            let facts = facts(&hook, request.timeout, level);
            // An async hook's env file is not read: it takes no part in the event.
            let (output, judgement) = spawn_and_judge(&*spawner, &hook, request, facts, None).await;
            let record = record(&hook, &output, &judgement, true);
            log_record(event, &record);
            record
        });
    }
}
