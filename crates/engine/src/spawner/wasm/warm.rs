//! Instances made ahead of their event: after a hook's run, the next instance of the same
//! guest with the same grants is instantiated in the background, so the next event only calls
//! it. Every event still gets a fresh instance (nothing a guest did in one event is seen in
//! the next); what moves off the event's path is instantiation (for a componentize-py guest
//! about 0.8 ms of its start-up code and linking) and freeing the previous store.
//!
//! An instance is reused only for a run whose [`WarmKey`] is equal: the same module bytes
//! (its SHA-256, so an edited or re-trusted module is instantiated afresh), the same event,
//! the same [`Grants`] (argv, environment values, fs access, and the same directories, by
//! device and inode, at the same canonical paths), memory cap, fuel budget and timeout. Fuel
//! the instantiation spent stays spent: the call's budget is what is left, as if both had
//! happened at the event.
//!
//! Only a long-lived spawner warms (`WasmEngineConfig::prewarm`): a one-event CLI process
//! would make an instance it never uses.
//!
//! Not here: making and calling an instance (`run.rs`), what grants mean (`sandbox.rs`).

use super::limiter::MemoryBudget;
use super::load::Prepared;
use super::pipes::GuestInput;
use super::run::{Instance, RunSetup};
use super::sandbox::{self, Grants};
use crate::Event;
use crate::spawner::Capture;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// At most this many instances wait for their events at once (each holds its memory).
const MAX_WARM: usize = 64;

/// What a run needs of an instance made for another run to stand in for its own.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct WarmKey {
    pub module: PathBuf,
    pub sha256: String,
    pub event: Event,
    pub grants: Grants,
    pub memory_mib: u64,
    pub fuel: Option<u64>,
    pub timeout: Duration,
}

impl WarmKey {
    /// Instantiates `prepared` for a run with this key, holding `permit`, giving up at
    /// `deadline`.
    pub async fn instantiate(
        &self,
        prepared: Prepared,
        permit: tokio::sync::OwnedSemaphorePermit,
        deadline: Instant,
    ) -> Result<Instance, (crate::spawner::ExitStatus, Capture)> {
        let capture = Capture::default();
        let stdin = GuestInput::default();
        let wasi = sandbox::wasi_builder(&self.grants, &capture, &stdin)
            .map_err(|e| (crate::spawner::ExitStatus::SpawnFailed(e), capture.clone()))?;
        Instance::new(
            prepared,
            wasi,
            RunSetup {
                fuel: self.fuel,
                deadline,
                memory: MemoryBudget::from_mib(self.memory_mib),
                http: self.grants.http().clone(),
            },
            &self.module,
            (capture.clone(), stdin),
            permit,
        )
        .await
        .map_err(|status| (status, capture))
    }
}

/// One waiting instance per key; a slot is locked while its instance is being made, so a run
/// that comes meanwhile waits for it rather than making a second one.
type Slot = Arc<tokio::sync::Mutex<Option<Instance>>>;

/// The instances made ahead, by key.
#[derive(Default)]
pub(super) struct Warm {
    slots: Mutex<HashMap<WarmKey, Slot>>,
}

impl Warm {
    /// The instance made ahead for `key`, waiting for one being made. Instances made from
    /// other bytes of the same module file (before an edit) are dropped.
    pub async fn take(&self, key: &WarmKey) -> Option<Instance> {
        let slot = {
            let mut slots = crate::agent::sync::lock(&self.slots);
            match slots.get(key) {
                Some(slot) => slot.clone(),
                None => {
                    // The module changed: its instances from before never match again.
                    slots.retain(|k, _| k.module != key.module || k.sha256 == key.sha256);
                    return None;
                }
            }
        };
        slot.lock().await.take()
    }

    /// Frees `spent` and makes the next instance for `key` in the background. Does nothing
    /// if one is already being made, or no instance slot is free.
    pub fn refill(
        self: &Arc<Self>,
        key: WarmKey,
        prepared: Prepared,
        spent: Instance,
        slots: &Arc<tokio::sync::Semaphore>,
    ) {
        let slot = {
            let mut map = crate::agent::sync::lock(&self.slots);
            if !map.contains_key(&key) && map.len() >= MAX_WARM {
                // Keep those being made or waiting to be taken by a run in progress.
                map.retain(|_, slot| slot.try_lock().is_err());
            }
            if !map.contains_key(&key) && map.len() >= MAX_WARM {
                return;
            }
            map.entry(key.clone()).or_default().clone()
        };
        // Locked before the task starts: a run that comes before it finishes waits for it.
        let Ok(mut guard) = slot.try_lock_owned() else {
            return;
        };
        if guard.is_some() {
            return;
        }
        let slots = slots.clone();
        tokio::spawn(async move {
            // Freeing the spent store (returning its memory to the pool) is off the event's
            // path too, and before the next one is made so that it can reuse the slot.
            drop(spent);
            let Ok(permit) = slots.try_acquire_owned() else {
                return;
            };
            let deadline = Instant::now() + key.timeout;
            match key.instantiate(prepared, permit, deadline).await {
                Ok(instance) => *guard = Some(instance),
                // The run will instantiate inline and report the failure itself.
                Err((status, _)) => {
                    tracing::debug!(module = %key.module.display(), ?status, "making an instance ahead failed");
                }
            }
        });
    }
}
