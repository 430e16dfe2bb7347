//! What the embedder's [`TrustPolicy`] lets an untrusted project hook do: the one trust
//! decision the runner applies ([`gate`]), the minimum grants of an untrusted module
//! ([`reduce_request`]), and the judgement of a hook that was not run ([`not_run`]).

use crate::judge::{Judgement, Outcome, Row, Verdict};
use serde::Serialize;
use std::str::FromStr;

/// What to do with untrusted project hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TrustPolicy {
    /// Run them, answers in full (an explicit choice: a cloned repository's hooks then run
    /// as you).
    All,
    /// Do not run untrusted shell/http hooks; run untrusted wasm, prompt and agent hooks
    /// reduced (the default).
    #[default]
    Skip,
    /// Fail closed: an untrusted shell/http PreToolUse hook blocks the call.
    Block,
}

/// A trust policy name that is none of `all`, `skip`, `block`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown trust policy {given:?}; use all, skip or block")]
pub struct UnknownPolicy {
    /// What was given.
    pub given: String,
}

impl FromStr for TrustPolicy {
    type Err = UnknownPolicy;
    fn from_str(s: &str) -> Result<Self, UnknownPolicy> {
        match s {
            "all" => Ok(TrustPolicy::All),
            "skip" => Ok(TrustPolicy::Skip),
            "block" => Ok(TrustPolicy::Block),
            other => Err(UnknownPolicy {
                given: other.to_string(),
            }),
        }
    }
}

/// The environment variable that sets the CLI's policy when `--trust` is not given.
pub const TRUST_ENV: &str = "HOOKHOST_TRUST";

/// What the trust policy lets one hook do: the one trust decision the runner applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Gate {
    /// Trusted (or the policy runs everything): run it as configured.
    Run,
    /// An untrusted wasm hook under `skip`/`block`: run it with the minimum grants
    /// ([`reduce_request`]) and only a pass or a fixed-reason block counts
    /// (`keep`).
    RunReduced,
    /// Not run (outcome `skipped`).
    Skip,
    /// Not run; blocks the call (an untrusted shell/http PreToolUse hook under `block`).
    Block,
}

/// The longest an untrusted wasm hook may run under the `skip` and `block` policies,
/// whatever its config asks for (its fuel is derived from this too).
pub const UNTRUSTED_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// The longest an untrusted `prompt` or `agent` hook may wait on the model under the `skip`
/// and `block` policies (a model rarely answers in [`UNTRUSTED_TIMEOUT`]).
pub const UNTRUSTED_MODEL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// The gate for a hook of `kind` on `event`, untrusted or not, under `policy`.
pub(crate) fn gate(
    policy: TrustPolicy,
    untrusted: bool,
    kind: crate::config::HookKind,
    event: crate::event::Event,
) -> Gate {
    use crate::config::HookKind;
    if !untrusted {
        return Gate::Run;
    }
    match (policy, kind) {
        (TrustPolicy::All, _) => Gate::Run,
        // A model hook runs no code of the project's: only its answer is the project's to
        // steer, so it is kept like an untrusted module's (a pass, or a block).
        (_, HookKind::Wasm | HookKind::Prompt | HookKind::Agent) => Gate::RunReduced,
        (TrustPolicy::Block, _) if event.class() == crate::event::EventClass::Blocking => {
            Gate::Block
        }
        _ => Gate::Skip,
    }
}

/// The minimum grants of an untrusted module: no `fs: "write"` (read-only at most), no host
/// environment, no network (its `net` and `secrets` are dropped: every HTTP request it makes is
/// refused), at most [`UNTRUSTED_TIMEOUT`] and the fuel that buys, and no more memory than
/// the default (a cloned repository must not get 4 GiB of the user's RAM per event).
pub(crate) fn reduce_request(request: &mut crate::spawner::SpawnRequest) {
    use crate::config::{FsAccess, Handler};
    if let Handler::Wasm { limits, .. } = &mut request.handler {
        if limits.fs == FsAccess::Write {
            limits.fs = FsAccess::Read;
        }
        limits.env.clear();
        limits.net.clear();
        limits.secrets.clear();
        limits.fuel = None;
        limits.memory_mib = limits.memory_mib.min(crate::config::DEFAULT_MEMORY_MIB);
    }
    let cap = if request.kind().asks_model() {
        UNTRUSTED_MODEL_TIMEOUT
    } else {
        UNTRUSTED_TIMEOUT
    };
    request.timeout = request.timeout.min(cap);
    request.module_sha256 = None;
    request.untrusted = true;
}

/// The judgement of an untrusted hook that was not run: skipped, or (under `block`, on
/// PreToolUse) blocking the call.
/// `review` names the files new or changed since `hookhost trust` (an edited script, rather
/// than the hooks.json that names it); empty, the hook's config file.
pub(crate) fn not_run(
    hook: &crate::config::Hook,
    block: bool,
    review: &[std::path::PathBuf],
    unsandboxable: Option<&str>,
) -> Judgement {
    let files = if review.is_empty() {
        hook.file.display().to_string()
    } else {
        review
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let cannot = unsandboxable.map(|c| format!("{c}; ")).unwrap_or_default();
    let why = format!(
        "untrusted project hook {} ({}) was not run: {cannot}review {files}, then run `hookhost trust`",
        hook.label(),
        hook.handler.display(),
    );
    not_run_judgement(Row::Untrusted { blocks: block }, block, why)
}

/// The judgement of a command hook that must run sandboxed and cannot (`why`): not run;
/// it blocks a blocking event (`blocks`), as a guard that cannot run fails closed.
pub(crate) fn no_sandbox(hook: &crate::config::Hook, blocks: bool, why: &str) -> Judgement {
    let message = format!(
        "{} ({}) was not run: {why}",
        hook.label(),
        hook.handler.display()
    );
    not_run_judgement(Row::NoSandbox { blocks }, blocks, message)
}

/// A hook not run, for `why`: it blocks the call (`blocks`), else it is skipped.
fn not_run_judgement(row: Row, blocks: bool, why: String) -> Judgement {
    if blocks {
        Judgement::not_run(row, Outcome::Block, Verdict::Block(why.clone()), why)
    } else {
        Judgement::not_run(row, Outcome::Skipped, Verdict::Pass, why)
    }
}
