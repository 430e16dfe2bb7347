//! The data a run's `Store` carries, one type per WASI flavour: the guest's WASI context and
//! its [`MemoryBudget`], and for a component its `wasi:http` context and request policy. The linkers (`engine.rs`) and the pre-linked modules (`load.rs`) are
//! typed by these; a run (`run.rs`) fills them.
//!
//! Not here: what the WASI context grants (`sandbox.rs`), what a request may do (`http.rs`)
//! or how the budget is charged (`limiter.rs`).

use super::http::OutgoingPolicy;
use super::limiter::MemoryBudget;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};
use wasmtime_wasi_http::{WasiHttpCtx, WasiHttpCtxView, WasiHttpView};

/// Store data of a preview 1 module.
pub(super) struct P1State {
    pub wasi: WasiP1Ctx,
    pub limits: MemoryBudget,
}

/// Store data of a preview 2 component (a command or a `hook`-world component).
pub(super) struct P2State {
    pub ctx: WasiCtx,
    pub table: ResourceTable,
    pub limits: MemoryBudget,
    pub http: WasiHttpCtx,
    /// What its outgoing HTTP requests may do (nothing without a `net` grant).
    pub policy: OutgoingPolicy,
}

impl WasiHttpView for P2State {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        WasiHttpCtxView {
            ctx: &mut self.http,
            table: &mut self.table,
            hooks: &mut self.policy,
        }
    }
}

impl WasiView for P2State {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.ctx,
            table: &mut self.table,
        }
    }
}

/// Store data that carries the run's memory limits.
pub(super) trait Limited: Send + 'static {
    fn limits(&mut self) -> &mut MemoryBudget;
}

impl Limited for P1State {
    fn limits(&mut self) -> &mut MemoryBudget {
        &mut self.limits
    }
}

impl Limited for P2State {
    fn limits(&mut self) -> &mut MemoryBudget {
        &mut self.limits
    }
}
