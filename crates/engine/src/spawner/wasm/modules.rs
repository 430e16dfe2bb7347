//! [`Modules`]: what is known in memory of each module file, and the rule that a file is
//! compiled once per edit, one compile at a time.
//!
//! Each file has a slot: empty, compiling (runs that need it wait for that one compile, each
//! at most its compile bound, while a compile a run gave up on goes on in the background and
//! fills the caches), or ready (a pre-linked guest, reused while the file's [`FileStamp`] is
//! unchanged). A first compile that takes long is announced, since it is not a hang.
//! [`WasmStats`] counts how modules were obtained.
//!
//! Tiering (`Tiering`, `engine.rs`): a big module whose first load came from the baseline tier
//! is made optimised after the runs waiting for it got their answer: in-process, by the same
//! blocking task, which compiles it with cranelift, caches it and swaps the slot to the
//! optimised code (runs already started keep the baseline code they hold); deferred, by
//! listing the file for the caller ([`Modules::take_deferred`]).
//!
//! Not here: turning a file into a guest (`load.rs`), the on-disk cache (`cache.rs`).

use super::engine::{COMPILE_TIMEOUT_ENV, Tiering};
use super::load::{Loaded, Loader, Prepared, Tier, missing_file_io};
use super::stamp::FileStamp;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A first compile taking longer than this is announced on stderr (it is not a hang).
const COMPILE_NOTICE_AFTER: Duration = Duration::from_secs(1);

/// Counters of how modules were obtained, for tests, `check` and benchmarks.
#[derive(Debug, Default)]
pub struct WasmStats {
    /// Modules compiled from their bytes.
    pub compiled: AtomicU64,
    /// Modules loaded from the disk cache.
    pub disk_hits: AtomicU64,
    /// Runs that reused an in-memory pre-linked module.
    pub memory_hits: AtomicU64,
    /// Runs that called an instance made ahead of their event (`WasmEngineConfig::prewarm`).
    pub made_ahead: AtomicU64,
    /// Big modules compiled by the baseline tier (winch) for a first run.
    pub baseline_compiled: AtomicU64,
    /// Big modules loaded from the baseline tier's disk cache (their optimised build was not
    /// cached yet).
    pub baseline_disk_hits: AtomicU64,
    /// Optimised builds made in-process that replaced a baseline module in memory.
    pub tiered_up: AtomicU64,
    /// Baseline modules whose optimised build was left to the caller (`Tiering::Deferred`).
    pub deferred: AtomicU64,
}

/// A module compiled from a file with this stamp (its stores come from the engine its
/// `prepared` code belongs to), the SHA-256 of the bytes it was compiled from (what a trust
/// pin is compared with) and its tier.
#[derive(Clone)]
pub(super) struct Ready {
    stamp: FileStamp,
    pub prepared: Prepared,
    pub sha256: String,
    pub tier: Tier,
}

impl Ready {
    fn new(stamp: FileStamp, l: Loaded) -> Self {
        Ready {
            stamp,
            prepared: l.prepared,
            sha256: l.sha256,
            tier: l.tier,
        }
    }
}

/// What is known of one module file.
#[derive(Default)]
enum SlotState {
    #[default]
    Empty,
    /// A compile is running (in the blocking pool); waiters watch for its result.
    Compiling {
        stamp: FileStamp,
        done: tokio::sync::watch::Receiver<Option<Result<Ready, String>>>,
    },
    Ready(Ready),
}

type Slot = Arc<Mutex<SlotState>>;

/// The prepared modules of one engine, by path.
pub(super) struct Modules {
    loader: Arc<Loader>,
    stats: Arc<WasmStats>,
    slots: Mutex<HashMap<PathBuf, Slot>>,
    /// Files whose optimised build is left to the caller (`Tiering::Deferred`).
    deferred: Arc<Mutex<Vec<PathBuf>>>,
}

impl Modules {
    pub fn new(loader: Arc<Loader>) -> Self {
        Modules {
            loader,
            stats: Arc::default(),
            slots: Mutex::default(),
            deferred: Arc::default(),
        }
    }

    pub fn loader(&self) -> &Loader {
        &self.loader
    }

    pub fn stats(&self) -> &WasmStats {
        &self.stats
    }

    /// The files that ran from the baseline tier and whose optimised build is the caller's
    /// to make, each once; empties the list.
    pub fn take_deferred(&self) -> Vec<PathBuf> {
        std::mem::take(&mut *crate::agent::sync::lock(&self.deferred))
    }

    /// The pre-linked module for `path` and the SHA-256 of the bytes it came from, compiling
    /// or loading it if the file changed. One compile per file at a time: concurrent runs
    /// wait for the same one, each at most `bound`; a compile a run gave up on goes on in
    /// the background and fills the caches.
    pub async fn prepared(&self, path: &Path, bound: Option<Duration>) -> Result<Ready, String> {
        let slot = {
            let mut slots = crate::agent::sync::lock(&self.slots);
            slots.entry(path.to_path_buf()).or_default().clone()
        };
        let stamp = FileStamp::of(path).map_err(|e| missing_file_io(path, e))?;
        let done = {
            let mut state = crate::agent::sync::lock(&slot);
            match &*state {
                SlotState::Ready(r) if r.stamp == stamp => {
                    self.stats.memory_hits.fetch_add(1, Ordering::Relaxed);
                    return Ok(r.clone());
                }
                SlotState::Compiling { stamp: s, done } if *s == stamp => done.clone(),
                _ => {
                    let (tx, rx) = tokio::sync::watch::channel(None);
                    *state = SlotState::Compiling {
                        stamp,
                        done: rx.clone(),
                    };
                    let job = Compile {
                        loader: self.loader.clone(),
                        stats: self.stats.clone(),
                        slot: slot.clone(),
                        path: path.to_path_buf(),
                        stamp,
                        deferred: self.deferred.clone(),
                    };
                    tokio::task::spawn_blocking(move || job.run(tx));
                    rx
                }
            }
        };
        wait_for(done, path, bound).await
    }
}

/// One compile of a module file, run in the blocking pool.
struct Compile {
    loader: Arc<Loader>,
    stats: Arc<WasmStats>,
    slot: Slot,
    path: PathBuf,
    stamp: FileStamp,
    deferred: Arc<Mutex<Vec<PathBuf>>>,
}

impl Compile {
    /// Loads the module, fills the slot, sends the result to the runs waiting for it, and
    /// then (in-process tiering) makes the optimised build of a baseline module.
    fn run(self, tx: tokio::sync::watch::Sender<Option<Result<Ready, String>>>) {
        let Compile {
            loader,
            stats,
            slot,
            path,
            stamp,
            deferred,
        } = self;
        let tiering = loader.tiering();
        let result = loader
            .load(&path, stamp.size, tiering != Tiering::Off, &stats)
            .map(|l| Ready::new(stamp, l));
        {
            let mut state = crate::agent::sync::lock(&slot);
            if matches!(&*state, SlotState::Compiling { stamp: s, .. } if *s == stamp) {
                *state = match &result {
                    Ok(r) => SlotState::Ready(r.clone()),
                    Err(_) => SlotState::Empty,
                };
            }
        }
        let baseline = matches!(&result, Ok(r) if r.tier == Tier::Baseline);
        let sha256 = result.as_ref().map(|r| r.sha256.clone()).ok();
        // Listed before the run is released: the CLI hands the list off right after
        // answering, and a module listed late would never be optimised.
        if baseline && tiering == Tiering::Deferred && loader.optimised.disk.dir().is_some() {
            stats.deferred.fetch_add(1, Ordering::Relaxed);
            let absolute = std::path::absolute(&path).unwrap_or(path.clone());
            crate::agent::sync::lock(&deferred).push(absolute);
        }
        let _ = tx.send(Some(result));
        // The optimised build, after the run was released (not delaying it).
        if let (true, Some(sha256), Tiering::InProcess) = (baseline, sha256, tiering) {
            tier_up(&loader, &stats, &slot, &path, stamp, &sha256);
        }
    }
}

/// Waits for the compile of `path` that `done` reports, at most `bound`; a first compile
/// that takes long is announced (it is not a hang).
async fn wait_for(
    mut done: tokio::sync::watch::Receiver<Option<Result<Ready, String>>>,
    path: &Path,
    bound: Option<Duration>,
) -> Result<Ready, String> {
    let started = Instant::now();
    let wait = async {
        let mut announced = false;
        loop {
            if let Some(result) = done.borrow_and_update().clone() {
                return result;
            }
            let tick = tokio::time::sleep(COMPILE_NOTICE_AFTER);
            tokio::select! {
                changed = done.changed() => if changed.is_err() {
                    return Err(format!("compiling {} was interrupted", path.display()));
                },
                _ = tick, if !announced => {
                    announced = true;
                    tracing::warn!(
                        "compiling {} for the first time (not charged to the hook's timeout; later runs use the compile cache; `hookhost check` compiles every configured module ahead)",
                        path.display()
                    );
                }
            }
        }
    };
    match bound {
        None => wait.await,
        Some(bound) => tokio::time::timeout(bound, wait).await.unwrap_or_else(|_| {
            Err(format!(
                "{} was still compiling after {:.1} s (the compile bound; the compile goes on in the background and is cached when done): run `hookhost check` to compile it ahead, or raise ${COMPILE_TIMEOUT_ENV}",
                path.display(),
                started.elapsed().as_secs_f64()
            ))
        }),
    }
}

/// Compiles `path` with the optimising compiler (caching it) and, if the slot still holds the
/// baseline build of the same file and the bytes are the same, swaps the optimised code in.
/// Blocking; a failure leaves the baseline code in place (it is logged).
fn tier_up(
    loader: &Loader,
    stats: &WasmStats,
    slot: &Slot,
    path: &Path,
    stamp: FileStamp,
    sha256: &str,
) {
    let optimised = match loader.load(path, stamp.size, false, stats) {
        Ok(l) if l.sha256 == sha256 => l,
        Ok(_) => return,
        Err(e) => {
            tracing::warn!(path = %path.display(), error = %e, "optimising a module that runs from the baseline tier failed; it keeps the baseline code");
            return;
        }
    };
    let mut state = crate::agent::sync::lock(slot);
    if matches!(&*state, SlotState::Ready(r) if r.stamp == stamp && r.tier == Tier::Baseline) {
        *state = SlotState::Ready(Ready::new(stamp, optimised));
        stats.tiered_up.fetch_add(1, Ordering::Relaxed);
    }
}
