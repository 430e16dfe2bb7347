//! [`MemoryBudget`]: the memory cap of one wasm run, for the whole instance.
//!
//! wasmtime's stock `StoreLimits` caps each linear memory and each table separately, so a
//! module with 16 memories gets 16 times the cap, and tables have no byte cap at all (one
//! `table.grow` reached 4 GB under a 1 MiB cap). Fuel cannot help: a grow is one
//! instruction. This limiter charges every memory and every table of the store (all the core
//! instances inside a component included) against one budget: the hook's `memory` in MiB.
//! Growth past it traps (a crash, so `onError: "block"` applies); at instantiation it is a
//! spawn failure that says to raise `memory`.

use wasmtime::ResourceLimiter;

/// Bytes in a MiB, the unit of a hook's `memory`.
pub const MIB: u64 = 1 << 20;

/// Bytes charged per table element: a function reference is a pointer plus type data in
/// wasmtime; 16 bytes over-counts rather than under-counts.
pub const TABLE_ELEMENT_BYTES: usize = 16;
/// Core instances, memories and tables one run may create (a component holds several).
const MAX_INSTANCES: usize = 256;
const MAX_MEMORIES: usize = 256;
const MAX_TABLES: usize = 1024;

/// One budget for all memories and tables of a store.
#[derive(Debug, Clone)]
pub struct MemoryBudget {
    cap: usize,
    used: usize,
}

impl MemoryBudget {
    /// A budget of `cap` bytes.
    pub fn new(cap: usize) -> Self {
        MemoryBudget { cap, used: 0 }
    }

    /// A budget of `mib` MiB (a hook's `memory`).
    pub fn from_mib(mib: u64) -> Self {
        Self::new(usize::try_from(mib.saturating_mul(MIB)).unwrap_or(usize::MAX))
    }

    fn grow(&mut self, current: usize, desired: usize, what: &str) -> wasmtime::Result<bool> {
        let extra = desired.saturating_sub(current);
        let after = self.used.saturating_add(extra);
        if after > self.cap {
            return Err(wasmtime::Error::msg(format!(
                "memory cap of {} MiB reached: growing a {what} would use {} MiB in all (every memory and table of the hook counts); raise the hook's `memory`",
                self.cap >> 20,
                after.div_ceil(1 << 20)
            )));
        }
        self.used = after;
        Ok(true)
    }
}

impl ResourceLimiter for MemoryBudget {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        self.grow(current, desired, "linear memory")
    }

    fn table_growing(
        &mut self,
        current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        self.grow(
            current.saturating_mul(TABLE_ELEMENT_BYTES),
            desired.saturating_mul(TABLE_ELEMENT_BYTES),
            "table",
        )
    }

    fn instances(&self) -> usize {
        MAX_INSTANCES
    }

    fn memories(&self) -> usize {
        MAX_MEMORIES
    }

    fn tables(&self) -> usize {
        MAX_TABLES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_memory_and_table_counts_against_one_budget() {
        let mut b = MemoryBudget::new(4 << 20);
        assert!(b.memory_growing(0, 2 << 20, None).unwrap());
        assert!(b.memory_growing(0, 2 << 20, None).unwrap());
        assert!(
            b.memory_growing(0, 1, None).is_err(),
            "a third memory is over"
        );
        let mut b = MemoryBudget::new(1 << 20);
        assert!(b.table_growing(0, 1000, None).unwrap());
        assert!(b.table_growing(1000, 1 << 20, None).is_err());
    }
}
