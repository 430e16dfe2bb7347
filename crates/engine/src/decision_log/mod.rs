//! The decision log: one JSON line per event fired through a [`Runner`](crate::Runner), what
//! each hook did and why a configured hook did not run (docs/observability.md).
//!
//! [`record`] is the line's typed, versioned shape (`schema/decision-log.schema.json`) and
//! the draft an event hands over (its facts, copied, not formatted), `line` writes a draft's
//! line without making the record, [`writer`] appends lines (one `O_APPEND` write, no fsync,
//! opened lazily, private, never a symlink; off the event's path on a writer thread in a
//! long-lived process), and [`rotate`] bounds the file by size. Writing never fails an event:
//! the first error warns once through `tracing` and the log goes quiet.

mod line;
pub mod record;
pub mod rotate;
pub mod writer;

#[doc(no_inline)]
pub use hookhost_protocol::decision_log::{
    EventRecord, HookEntry, NotRun, NotRunWhy, RECORD_VERSION,
};
pub use writer::{Capture, DecisionLog, LOG_DIR_ENV, LOG_ENV, write_in_background};
