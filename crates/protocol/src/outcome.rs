//! [`Outcome`]: what one hook did for its event, as `run --json` and the decision log name it.
//! Deciding it is the engine's `judge`; this is only the word.

use schemars::JsonSchema;
use serde::Serialize;

/// The outcome of one hook, as `run --json` reports it (DESIGN §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(description = "What one hook did for the event.")]
#[non_exhaustive]
pub enum Outcome {
    /// Exit 0 and no decision.
    Pass,
    /// This hook blocked the tool call.
    #[schemars(description = "This hook blocked the call.")]
    Block,
    /// This hook forced the agent to continue.
    #[schemars(description = "This hook forced the agent on.")]
    Force,
    /// This hook allowed the call without the permission prompt (PermissionRequest).
    Allow,
    /// A non-zero exit or crash that did not decide.
    #[schemars(description = "A failure that did not decide.")]
    Warn,
    /// It timed out (on PreToolUse the call is blocked too).
    #[schemars(description = "It timed out.")]
    Timeout,
    /// It could not be started (on PreToolUse the call is blocked too).
    #[schemars(description = "It could not start.")]
    Error,
    /// Not run: an untrusted project hook under the `skip` or `block` trust policy.
    #[schemars(description = "Not run (untrusted).")]
    Skipped,
}

impl Outcome {
    /// The name `run --json` prints: `pass`, `block`, `force`, `allow`, `warn`, `timeout`,
    /// `error` or `skipped`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Block => "block",
            Outcome::Force => "force",
            Outcome::Allow => "allow",
            Outcome::Warn => "warn",
            Outcome::Timeout => "timeout",
            Outcome::Error => "error",
            Outcome::Skipped => "skipped",
        }
    }
}
