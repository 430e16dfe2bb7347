//! The `run --json` object (DESIGN §8, §10), also serve's `fire` result and the Python
//! package's report: [`EventReport`](crate::EventReport) with its
//! [`HookRecord`](crate::HookRecord)s, serialised as they are (report.rs). This file holds
//! the schema side of the engine types those carry (a hook's id, scope, kind and outcome, a
//! config error), which are defined with the config and the decision table: each mirror
//! below is checked against the real type by an exhaustive match, so a new variant there
//! does not compile until it is named here too.

#![cfg_attr(not(test), allow(dead_code))]

use crate::config::{ConfigError, HookKind, Scope};
use crate::judge::Outcome;
use schemars::JsonSchema;
use std::path::PathBuf;

/// A hook as `Event[index]` (its event and position in its file), or `Event[fn index]` for
/// an in-process hook.
#[derive(JsonSchema)]
#[schemars(
    rename = "HookId",
    extend("pattern" = r"^[A-Za-z]+\[(fn )?[0-9]+\]$")
)]
pub(crate) struct HookIdSchema(#[allow(dead_code)] String);

/// Where a hook comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, JsonSchema, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "Scope")]
pub(crate) enum ScopeSchema {
    /// The managed file.
    Managed,
    /// The project's files.
    Project,
    /// The user's files.
    Global,
    /// Registered in-process.
    #[serde(rename = "in-process")]
    InProcess,
}

/// The kind of handler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, JsonSchema, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "HookKind")]
pub(crate) enum KindSchema {
    /// `sh -c`.
    Shell,
    /// A WebAssembly module or component.
    Wasm,
    /// An HTTP endpoint.
    Http,
    /// An in-process function.
    Fn,
}

/// What one hook did for the event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, JsonSchema, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "Outcome")]
pub(crate) enum OutcomeSchema {
    /// Exit 0 and no decision.
    Pass,
    /// This hook blocked the call.
    Block,
    /// This hook forced the agent on.
    Force,
    /// This hook allowed the call without the permission prompt (PermissionRequest).
    Allow,
    /// A failure that did not decide.
    Warn,
    /// It timed out.
    Timeout,
    /// It could not start.
    Error,
    /// Not run (untrusted).
    Skipped,
}

/// One problem in a config file.
#[derive(JsonSchema)]
#[schemars(rename = "ConfigError")]
#[allow(dead_code)]
pub(crate) struct ConfigErrorSchema {
    /// The file.
    file: PathBuf,
    /// `PreToolUse[2]`, or `null` for a problem of the whole file.
    hook: Option<String>,
    /// What is wrong and how to fix it.
    message: String,
}

/// The mirror of a scope (exhaustive: a new scope must be named in the schema).
pub(crate) fn scope(s: Scope) -> ScopeSchema {
    match s {
        Scope::Managed => ScopeSchema::Managed,
        Scope::Project => ScopeSchema::Project,
        Scope::Global => ScopeSchema::Global,
        Scope::InProcess => ScopeSchema::InProcess,
    }
}

/// The mirror of a kind.
pub(crate) fn kind(k: HookKind) -> KindSchema {
    match k {
        HookKind::Shell => KindSchema::Shell,
        HookKind::Wasm => KindSchema::Wasm,
        HookKind::Http => KindSchema::Http,
        HookKind::Fn => KindSchema::Fn,
    }
}

/// The mirror of an outcome.
pub(crate) fn outcome(o: Outcome) -> OutcomeSchema {
    match o {
        Outcome::Pass => OutcomeSchema::Pass,
        Outcome::Block => OutcomeSchema::Block,
        Outcome::Force => OutcomeSchema::Force,
        Outcome::Allow => OutcomeSchema::Allow,
        Outcome::Warn => OutcomeSchema::Warn,
        Outcome::Timeout => OutcomeSchema::Timeout,
        Outcome::Error => OutcomeSchema::Error,
        Outcome::Skipped => OutcomeSchema::Skipped,
    }
}

/// The mirror of a config error's fields (destructured: a new field does not compile until
/// the schema has it).
pub(crate) fn config_error(e: &ConfigError) -> ConfigErrorSchema {
    let ConfigError {
        file,
        hook,
        message,
    } = e;
    ConfigErrorSchema {
        file: file.clone(),
        hook: hook.clone(),
        message: message.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::to_value;

    #[test]
    fn the_mirrors_serialise_as_the_engine_types() {
        for s in [
            Scope::Managed,
            Scope::Project,
            Scope::Global,
            Scope::InProcess,
        ] {
            assert_eq!(to_value(s).unwrap(), to_value(scope(s)).unwrap());
        }
        for k in [
            HookKind::Shell,
            HookKind::Wasm,
            HookKind::Http,
            HookKind::Fn,
        ] {
            assert_eq!(to_value(k).unwrap(), to_value(kind(k)).unwrap());
        }
        for o in [
            Outcome::Pass,
            Outcome::Block,
            Outcome::Force,
            Outcome::Allow,
            Outcome::Warn,
            Outcome::Timeout,
            Outcome::Error,
            Outcome::Skipped,
        ] {
            assert_eq!(to_value(o).unwrap(), to_value(outcome(o)).unwrap());
        }
        let e = ConfigError {
            file: "/p/hooks.json".into(),
            hook: Some("Stop[0]".into()),
            message: "m".into(),
        };
        let ConfigErrorSchema {
            file,
            hook,
            message,
        } = config_error(&e);
        assert_eq!((file, hook, message), (e.file, e.hook, e.message));
    }
}
