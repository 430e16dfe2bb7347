//! [`TrustLevel`]: how far a hook's answer is trusted. What each level keeps of a hook's
//! effects, and which hooks are trusted, is the engine's `trust` module.

/// How far a hook's answer is trusted: what the engine's `trust::keeps` lets
/// its effects do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrustLevel {
    /// A managed, user, in-process or trusted project hook: every effect is kept.
    Trusted,
    /// An untrusted project wasm hook, run reduced: it can pass, or block with a fixed reason.
    Untrusted,
}
