//! One run of a prepared guest: a fresh `Store` with the run's memory budget, fuel and epoch
//! deadline, instantiation, the call of each guest shape (`_start` of a p1 module, `run` of a
//! p2 command, `handle` of a `hook`-world component), the wall-clock backstop, and how the
//! call ended mapped onto an [`ExitStatus`] ([`classify`], [`classify_instantiation`]: the
//! table in the `wasm` module docs).
//!
//! Not here: what the guest may reach (`sandbox.rs` builds the WASI context handed in), how
//! memory is charged (`limiter.rs`), where the guest came from (`load.rs`).

use super::hook_world;
use super::limiter::MemoryBudget;
use super::load::Prepared;
use super::state::{Limited, P1State, P2State};
use crate::hooks::spawner::{Capture, CapturedStream, ExitStatus, SpawnRequest};
use std::path::Path;
use std::time::Instant;
use wasmtime::component::ResourceTable;
use wasmtime::{Engine, InstancePre, Store, Trap, UpdateDeadline};
use wasmtime_wasi::p2::bindings::CommandPre;
use wasmtime_wasi::{I32Exit, WasiCtxBuilder};

/// Per-run settings shared by every guest shape.
pub(super) struct RunSetup {
    /// `None` when the engine does not meter fuel.
    pub fuel: Option<u64>,
    pub deadline: Instant,
}

impl RunSetup {
    fn apply<T: 'static>(&self, store: &mut Store<T>) -> Result<(), String> {
        if let Some(fuel) = self.fuel {
            store.set_fuel(fuel).map_err(|e| e.to_string())?;
        }
        store.set_epoch_deadline(1);
        let deadline = self.deadline;
        store.epoch_deadline_callback(move |_| {
            if Instant::now() >= deadline {
                Ok(UpdateDeadline::Interrupt)
            } else {
                Ok(UpdateDeadline::Yield(1))
            }
        });
        Ok(())
    }
}

/// What every run needs besides its guest: the engine, limits, the module path (for
/// messages), the request and the capture buffers the sandbox writes into.
pub(super) struct Run<'a> {
    pub engine: &'a Engine,
    pub setup: RunSetup,
    pub memory: MemoryBudget,
    pub path: &'a Path,
    pub req: &'a SpawnRequest,
    pub capture: &'a Capture,
}

impl Run<'_> {
    /// Runs `prepared` with the WASI context of `wasi`, stopped at the deadline even if it is
    /// blocked in a host call.
    pub async fn run(&self, prepared: Prepared, mut wasi: WasiCtxBuilder) -> ExitStatus {
        let p2 = |ctx| P2State {
            ctx,
            table: ResourceTable::new(),
            limits: self.memory.clone(),
        };
        let running = async {
            match prepared {
                Prepared::Module(pre) => {
                    let state = P1State {
                        wasi: wasi.build_p1(),
                        limits: self.memory.clone(),
                    };
                    self.module(pre, state).await
                }
                Prepared::Command(pre) => self.command(pre, p2(wasi.build())).await,
                Prepared::Hook(pre) => self.hook_world(pre, p2(wasi.build())).await,
            }
        };
        // The backstop for guests blocked in host calls (sleeping, waiting on stdin).
        tokio::time::timeout_at(self.setup.deadline.into(), running)
            .await
            .unwrap_or(ExitStatus::TimedOut)
    }

    /// A fresh store with the run's memory cap, fuel and deadline.
    fn store<T: Limited>(&self, data: T) -> Result<Store<T>, ExitStatus> {
        let mut store = Store::new(self.engine, data);
        store.limiter(|s| s.limits());
        self.setup
            .apply(&mut store)
            .map_err(ExitStatus::SpawnFailed)?;
        Ok(store)
    }

    /// A preview 1 command module: `_start`.
    async fn module(&self, pre: InstancePre<P1State>, state: P1State) -> ExitStatus {
        let mut store = match self.store(state) {
            Ok(s) => s,
            Err(status) => return status,
        };
        let instance = match pre.instantiate_async(&mut store).await {
            Ok(i) => i,
            Err(e) => return classify_instantiation(e, self.path),
        };
        let Ok(start) = instance.get_typed_func::<(), ()>(&mut store, "_start") else {
            return ExitStatus::SpawnFailed(format!(
                "{} exports no `_start` function: a hook must be a WASI command (a program with `main`), not a library",
                self.path.display()
            ));
        };
        classify(start.call_async(&mut store, ()).await, &self.capture.stderr)
    }

    /// A preview 2 command component: `wasi:cli/run`.
    async fn command(&self, pre: CommandPre<P2State>, state: P2State) -> ExitStatus {
        let mut store = match self.store(state) {
            Ok(s) => s,
            Err(status) => return status,
        };
        let command = match pre.instantiate_async(&mut store).await {
            Ok(c) => c,
            Err(e) => return classify_instantiation(e, self.path),
        };
        match command.wasi_cli_run().call_run(&mut store).await {
            Ok(Ok(())) => ExitStatus::Exited(0),
            Ok(Err(())) => ExitStatus::Exited(1),
            Err(e) => classify(Err(e), &self.capture.stderr),
        }
    }

    /// A `hook`-world component: `handle(payload)`, its response answered like a process.
    async fn hook_world(&self, pre: hook_world::HookPre<P2State>, state: P2State) -> ExitStatus {
        let mut store = match self.store(state) {
            Ok(s) => s,
            Err(status) => return status,
        };
        let hook = match pre.instantiate_async(&mut store).await {
            Ok(h) => h,
            Err(e) => return classify_instantiation(e, self.path),
        };
        let payload = hook_world::Payload {
            event: self.req.event.as_str().to_string(),
            json: String::from_utf8_lossy(&self.req.stdin).into_owned(),
        };
        match hook.call_handle(&mut store, &payload).await {
            Ok(response) => hook_world::as_process(response, self.capture),
            Err(e) => classify(Err(e), &self.capture.stderr),
        }
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
