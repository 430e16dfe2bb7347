//! One run of a prepared guest, in two steps. [`Instance::new`] makes a fresh `Store` (on the
//! engine that compiled the guest) with the run's memory budget, fuel and epoch deadline, and
//! instantiates the guest in it: at the event, or ahead of it (`warm.rs`). [`Instance::call`]
//! gives it the payload and calls it (`_start` of a p1 module, `run` of a p2 command, `handle`
//! of a `hook`-world component) under the event's wall-clock deadline. How either step ended
//! is mapped onto an [`ExitStatus`] ([`classify`], [`classify_instantiation`]: the table in
//! the `wasm` module docs). Fuel spent instantiating counts against the call's budget, as if
//! both happened at the event: the same hook on the same input times out the same way.
//!
//! Not here: what the guest may reach (`sandbox.rs` builds the WASI context handed in), how
//! memory is charged (`limiter.rs`), where the guest came from (`load.rs`).

use super::hook_world;
use super::http::{HttpGrant, OutgoingPolicy};
use super::limiter::MemoryBudget;
use super::load::Prepared;
use super::pipes::GuestInput;
use super::state::{Limited, P1State, P2State};
use crate::Event;
use crate::spawner::{Capture, CapturedStream, ExitStatus};
use std::path::Path;
use std::time::Instant;
use tokio::sync::OwnedSemaphorePermit;
use wasmtime::component::ResourceTable;
use wasmtime::{Engine, Store, Trap, TypedFunc, UpdateDeadline};
use wasmtime_wasi::p2::bindings::Command;
use wasmtime_wasi::{I32Exit, WasiCtxBuilder};

/// Per-instance settings shared by every guest shape.
pub(super) struct RunSetup {
    /// `None` when the engine does not meter fuel.
    pub fuel: Option<u64>,
    /// When instantiating gives up (a start function blocked in a host call).
    pub deadline: Instant,
    pub memory: MemoryBudget,
    /// What a component's HTTP requests may do.
    pub http: std::sync::Arc<HttpGrant>,
}

/// Interrupts the store's guest at the next epoch tick past `deadline`.
fn set_deadline<T: 'static>(store: &mut Store<T>, deadline: Instant) {
    store.set_epoch_deadline(1);
    store.epoch_deadline_callback(move |_| {
        if Instant::now() >= deadline {
            Ok(UpdateDeadline::Interrupt)
        } else {
            Ok(UpdateDeadline::Yield(1))
        }
    });
}

/// A fresh store on `engine` with the memory cap, fuel and deadline of `setup`.
fn store<T: Limited>(engine: &Engine, data: T, setup: &RunSetup) -> Result<Store<T>, ExitStatus> {
    let mut store = Store::new(engine, data);
    store.limiter(|s| s.limits());
    if let Some(fuel) = setup.fuel {
        store
            .set_fuel(fuel)
            .map_err(|e| ExitStatus::SpawnFailed(e.to_string()))?;
    }
    set_deadline(&mut store, setup.deadline);
    Ok(store)
}

/// An instantiated guest in its own store, by shape, with what its call needs.
enum Guest {
    Module(Store<P1State>, TypedFunc<(), ()>),
    Command(Store<P2State>, Command),
    Hook(Store<P2State>, hook_world::Hook),
}

/// A guest instantiated in a store of its own, not yet called. Dropping it frees the store
/// (and its pool slot).
pub(super) struct Instance {
    guest: Guest,
    capture: Capture,
    stdin: GuestInput,
    /// The instance slot it occupies (the pool's size when pooling).
    _permit: OwnedSemaphorePermit,
}

impl Instance {
    /// Instantiates `prepared` with the WASI context of `wasi` (which writes into `capture`
    /// and reads `stdin`), stopped at `setup.deadline` even if a start function is blocked in
    /// a host call.
    pub async fn new(
        prepared: Prepared,
        mut wasi: WasiCtxBuilder,
        setup: RunSetup,
        path: &Path,
        (capture, stdin): (Capture, GuestInput),
        permit: OwnedSemaphorePermit,
    ) -> Result<Instance, ExitStatus> {
        let p2 = |ctx| P2State {
            ctx,
            table: ResourceTable::new(),
            limits: setup.memory.clone(),
            http: wasmtime_wasi_http::WasiHttpCtx::new(),
            policy: OutgoingPolicy::new(setup.http.clone(), capture.stderr.clone(), setup.deadline),
        };
        let instantiating = async {
            match prepared {
                Prepared::Module(pre) => {
                    let state = P1State {
                        wasi: wasi.build_p1(),
                        limits: setup.memory.clone(),
                    };
                    let mut store = store(pre.module().engine(), state, &setup)?;
                    let instance = pre
                        .instantiate_async(&mut store)
                        .await
                        .map_err(|e| classify_instantiation(e, path))?;
                    let start = instance
                        .get_typed_func::<(), ()>(&mut store, "_start")
                        .map_err(|_| ExitStatus::SpawnFailed(format!(
                            "{} exports no `_start` function: a hook must be a WASI command (a program with `main`), not a library",
                            path.display()
                        )))?;
                    Ok(Guest::Module(store, start))
                }
                Prepared::Command(pre) => {
                    let mut store = store(pre.engine(), p2(wasi.build()), &setup)?;
                    let command = pre
                        .instantiate_async(&mut store)
                        .await
                        .map_err(|e| classify_instantiation(e, path))?;
                    Ok(Guest::Command(store, command))
                }
                Prepared::Hook(pre) => {
                    let mut store = store(pre.engine(), p2(wasi.build()), &setup)?;
                    let hook = pre
                        .instantiate_async(&mut store)
                        .await
                        .map_err(|e| classify_instantiation(e, path))?;
                    Ok(Guest::Hook(store, hook))
                }
            }
        };
        let guest = tokio::time::timeout_at(setup.deadline.into(), instantiating)
            .await
            .unwrap_or(Err(ExitStatus::TimedOut))?;
        Ok(Instance {
            guest,
            capture,
            stdin,
            _permit: permit,
        })
    }

    /// What the guest wrote, so far.
    pub fn capture(&self) -> &Capture {
        &self.capture
    }

    /// Runs the guest on `payload` for `event`, stopped at `deadline` even if it is blocked in
    /// a host call (sleeping, waiting on stdin).
    pub async fn call(&mut self, event: Event, payload: &[u8], deadline: Instant) -> ExitStatus {
        self.stdin.give(bytes::Bytes::copy_from_slice(payload));
        let stderr = &self.capture.stderr;
        let capture = &self.capture;
        let running = async {
            match &mut self.guest {
                Guest::Module(store, start) => {
                    set_deadline(store, deadline);
                    classify(start.call_async(&mut *store, ()).await, stderr)
                }
                Guest::Command(store, command) => {
                    set_deadline(store, deadline);
                    store.data_mut().policy.set_deadline(deadline);
                    match command.wasi_cli_run().call_run(&mut *store).await {
                        Ok(Ok(())) => ExitStatus::Exited(0),
                        Ok(Err(())) => ExitStatus::Exited(1),
                        Err(e) => classify(Err(e), stderr),
                    }
                }
                Guest::Hook(store, hook) => {
                    set_deadline(store, deadline);
                    store.data_mut().policy.set_deadline(deadline);
                    let payload = hook_world::Payload {
                        event: event.as_str().to_string(),
                        json: String::from_utf8_lossy(payload).into_owned(),
                    };
                    match hook.call_handle(&mut *store, &payload).await {
                        Ok(response) => hook_world::as_process(response, capture),
                        Err(e) => classify(Err(e), stderr),
                    }
                }
            }
        };
        tokio::time::timeout_at(deadline.into(), running)
            .await
            .unwrap_or(ExitStatus::TimedOut)
    }
}

/// Maps how a guest's call ended onto an exit status (the table in the module docs).
fn classify(result: wasmtime::Result<()>, stderr: &CapturedStream) -> ExitStatus {
    let Err(e) = result else {
        return ExitStatus::Exited(0);
    };
    if let Some(exit) = e.downcast_ref::<I32Exit>() {
        return ExitStatus::Exited(exit.0);
    }
    if let Some(Trap::OutOfFuel | Trap::Interrupt) = e.downcast_ref::<Trap>() {
        return ExitStatus::TimedOut;
    }
    let message = format!("wasm trap: {e:#}");
    stderr.push(format!("\n{message}\n").as_bytes());
    ExitStatus::Crashed(message)
}

/// Instantiation failed: out of fuel is a timeout; anything else means the hook never ran.
fn classify_instantiation(e: wasmtime::Error, path: &Path) -> ExitStatus {
    if let Some(Trap::OutOfFuel | Trap::Interrupt) = e.downcast_ref::<Trap>() {
        return ExitStatus::TimedOut;
    }
    ExitStatus::SpawnFailed(format!(
        "instantiating {} failed: {e:#}; if it mentions memory, raise the hook's `memory` (MiB)",
        path.display()
    ))
}
