//! Trust pinning of project hooks (a cloned repository must not run code just because it
//! ships a `.coding-agent/hooks.json`).
//!
//! `~/.coding-agent/trusted.json` records, per project directory, the SHA-256 of its
//! hooks.json and of every wasm module it names. A project hook is trusted when the config
//! and (for a wasm hook) its module still have the recorded hashes; global hooks, which the
//! user wrote, are always trusted. `hookhost trust` shows what is new or changed and records
//! it. What an untrusted hook may do is the embedder's [`TrustPolicy`]:
//!
//! | policy | untrusted shell / http hook | untrusted wasm, prompt or agent hook |
//! |---|---|---|
//! | `skip` (the default) | not run (`skipped`), named with the command that reviews it | runs sandboxed (a model hook: asks the user's model); only a block counts |
//! | `all` (explicit) | runs (the CLI warns once per hook) | runs, its answer used in full |
//! | `block` | PreToolUse: blocks the call; elsewhere skipped | runs sandboxed; only a block counts |
//!
//! Why wasm hooks still run: the sandbox keeps them from touching anything outside the
//! project or the network, and under `skip`/`block` their answer keeps only what
//! [`keeps`] allows for [`TrustLevel::Untrusted`] (an allowlist: pass, or block with a fixed
//! reason), so an untrusted module can neither rewrite a tool call, nor stop the agent, nor
//! inject text into the model's context, nor force the agent on. Blocking is the
//! conservative direction.
//!
//! Pins are checked at every event, not only when a runner is built: a trusted shell hook
//! whose script changed since `hookhost trust` is untrusted from its next event on
//! ([`ScriptPins::still_hold`]), in long-lived runners too.
//!
//! Where each part is: the policy and what it lets an untrusted hook do (`policy.rs`), how
//! far an answer is trusted (the judge's `keep.rs`), the trust file (`store.rs`), comparing a project
//! with it (`assess.rs`), package approvals (`grant.rs`), the scripts a shell hook runs
//! (`scripts.rs`, reading command lines with `shell_words.rs`, pinning files with `pin.rs`
//! and, for programs that read files no word names, `program_files.rs`), and programs whose
//! whole tree is code (`unpinned.rs`).

mod assess;
mod grant;
mod pin;
mod policy;
mod program_files;
mod scripts;
mod shell_words;
mod store;
mod unpinned;

pub use crate::judge::{REJUDGE_KEEPS, keeps};
pub use assess::{ChangeKind, TrustAssessment, TrustChange, join_ids};
pub use grant::PackageGrant;
#[doc(no_inline)]
pub use hookhost_protocol::TrustLevel;
pub(crate) use policy::{Gate, gate, no_sandbox, not_run, reduce_request};
pub use policy::{
    TRUST_ENV, TrustPolicy, UNTRUSTED_MODEL_TIMEOUT, UNTRUSTED_TIMEOUT, UnknownPolicy,
};
pub use scripts::ScriptPins;
pub use store::{TrustError, TrustStore};
pub use unpinned::unpinned_programs;
