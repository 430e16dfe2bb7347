//! `"once": true`: a hook that runs at most once per session (Claude Code's `once`, which it
//! honours in skill frontmatter). The agent's adapter is one process per event, so the mark
//! that it ran is kept in hookhost's own per-session state (`SessionEnv::claim_once`: under
//! the settled cache root, protected from the agent), keyed by the session id and the hook's
//! identity: its file, place and handler, so an edited hook is a new one and runs again.
//!
//! The mark is claimed when the hook starts (whatever it then does: Claude Code removes such
//! a hook once it ran). A skipped untrusted hook did not run and claims nothing; a call's
//! second pass (a rewritten call judged again) is the same run for a hook that judged it
//! before, and a first run (claiming the mark) for one whose `if` holds only now. An event with no session id
//! has no session to remember it in: the hook runs, as when no mark can be written.

use super::Runner;
use crate::config::Hook;
use crate::payload::Payload;

impl Runner {
    /// Whether a `once` hook has run in this payload's session already (claiming the run
    /// when it has not).
    pub(super) fn ran_once_already(&self, hook: &Hook, payload: &Payload) -> bool {
        if !hook.once {
            return false;
        }
        let Some(session) = payload.known().session_id.filter(|s| !s.is_empty()) else {
            return false;
        };
        match self.session_env.claim_once(&session, &once_key(hook)) {
            Ok(first) => !first,
            Err(why) => {
                tracing::warn!(hook = %hook.label(), "`once` cannot be kept, the hook runs: {why}");
                false
            }
        }
    }
}

impl Runner {
    /// Whether `step`, about to run for the first time in this event (in the second pass:
    /// its `if` holds only on the rewritten call), is a `once` hook that ran earlier in the
    /// session (claiming its run when it has not).
    pub(super) fn once_gone(&self, step: &super::fire::Step<'_>, payload: &Payload) -> bool {
        matches!(step, super::fire::Step::Configured(hook) if self.ran_once_already(hook, payload))
    }
}

/// The hook's identity for its mark: a digest of its file, scope, event, place and handler.
pub(super) fn once_key(hook: &Hook) -> String {
    let id = hook.id();
    let identity = format!(
        "{}\n{}\n{}\n{}\n{}\n{}\n{:?}",
        hook.file.display(),
        id.scope.rank(),
        id.source,
        id.event,
        id.index,
        hook.handler.display(),
        hook.handler.shell(),
    );
    crate::files::sha256_hex(identity.as_bytes())[..32].to_string()
}
