//! [`Ticker`]: the thread that advances the engines' epochs every [`EPOCH_TICK`], which is what
//! makes a running guest yield to the async runtime and check its wall-clock deadline. One
//! thread ticks both tiers: the optimising engine, and the baseline engine once it exists.
//!
//! The ticker is owned: dropping it (with the spawner that holds it) stops the thread at once,
//! not a tick later, and joins it, so no thread outlives the engine it ticks.
//!
//! Not here: what a guest does on a tick (the deadline callback is `run.rs`).

use super::load::Loader;
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the ticker advances the engine epoch; a running guest yields to the async
/// runtime and checks its deadline on every tick.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

/// A thread calling `tick` every period until dropped.
pub(super) struct Ticker {
    /// Dropped to stop the thread: its wait ends on the disconnect, not on the next tick.
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Ticker {
    /// Advances the epoch of `loader`'s optimising engine, and of its baseline engine once it
    /// was made, every [`EPOCH_TICK`]. If the thread cannot be started, a warning says so and
    /// wasm deadlines rely on the async timeout only.
    pub fn for_loader(loader: Arc<Loader>) -> Self {
        Self::start(EPOCH_TICK, move || {
            loader.optimised.engine.increment_epoch();
            if let Some(baseline) = loader.baseline_engine() {
                baseline.increment_epoch();
            }
        })
    }

    /// Calls `tick` every `period` on a thread of its own.
    pub fn start(period: Duration, mut tick: impl FnMut() + Send + 'static) -> Self {
        let (stop, stopped) = mpsc::channel::<()>();
        let spawned = std::thread::Builder::new()
            .name("hookhost-epoch".into())
            .spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(period) {
                    tick();
                }
            });
        match spawned {
            Ok(thread) => Ticker {
                stop: Some(stop),
                thread: Some(thread),
            },
            Err(e) => {
                tracing::warn!(error = %e, "cannot start the epoch ticker; wasm deadlines rely on the async timeout only");
                Ticker {
                    stop: None,
                    thread: None,
                }
            }
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            // The thread only waits and ticks: it ends as soon as it sees the disconnect.
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::Instant;

    #[test]
    fn ticks_until_dropped_then_the_thread_is_gone() {
        let ticks = Arc::new(AtomicU64::new(0));
        let counter = ticks.clone();
        let ticker = Ticker::start(Duration::from_millis(1), move || {
            counter.fetch_add(1, Ordering::Relaxed);
        });
        let started = Instant::now();
        while ticks.load(Ordering::Relaxed) < 3 {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the ticker never ticked"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        drop(ticker);
        // Joined: the closure (and its clone of the counter) went with the thread.
        assert_eq!(Arc::strong_count(&ticks), 1);
        let after = ticks.load(Ordering::Relaxed);
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(ticks.load(Ordering::Relaxed), after, "ticks after the drop");
    }

    #[test]
    fn drop_does_not_wait_for_the_next_tick() {
        let ticker = Ticker::start(Duration::from_secs(3600), || {});
        let started = Instant::now();
        drop(ticker);
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
