//! Who runs sandboxed (docs/sandbox.md): the one place that decides whether a command hook
//! runs in the kernel sandbox, and with which grants. The spawner only enforces it.
//!
//! - An untrusted project command hook (trust policy `skip`, and `block` but on a blocking
//!   event, where `block` blocks) runs sandboxed with the reduced grants (read the project,
//!   no writes, no network, no inherited secrets) and its answer reduced like an untrusted
//!   wasm hook's, instead of not running; where no sandbox can be set up, or it says
//!   `"sandbox": false`, it is not run, as before.
//! - A hook that declares grants (`fs`, `env`, `net`, `memory`, or `"sandbox": true`) runs
//!   sandboxed with exactly those, trusted or not.
//! - Managed `"requireSandbox": true` sandboxes every command hook (with its own grants or
//!   the defaults) and refuses `"sandbox": false`.
//!
//! A hook that must run sandboxed and cannot is never run unconfined: it is not run, and a
//! trusted one blocks a blocking event (a guard that cannot run fails closed).

use crate::config::{Grants, Handler, Hook, HookKind, SandboxMode, Scope};
use crate::spawner::program;
use crate::spawner::sandbox::{self, Sandbox};
use crate::trust::TrustPolicy;
use std::path::{Path, PathBuf};

/// What the rules make of one hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Plan {
    /// Runs as the user (a trusted hook with no grants; not a command hook).
    Unconfined,
    /// Runs sandboxed with these grants.
    Sandboxed(Grants),
    /// Must run sandboxed and cannot: not run, for this reason.
    Refused(String),
}

/// The plan for `hook`: `untrusted` (a project hook not trusted now) under `policy`, with
/// `require` the managed file that says `"requireSandbox": true`, if one does.
pub(super) fn plan(
    hook: &Hook,
    untrusted: bool,
    policy: TrustPolicy,
    require: Option<&Path>,
) -> Plan {
    if hook.handler.kind() != HookKind::Shell {
        return Plan::Unconfined;
    }
    let declared = match &hook.sandbox {
        SandboxMode::On(grants) => Some(grants.clone()),
        _ => None,
    };
    if untrusted && policy != TrustPolicy::All {
        if hook.sandbox == SandboxMode::Off {
            return Plan::Refused(
                "it says `\"sandbox\": false`, which only a trusted hook may: an untrusted project hook runs sandboxed or not at all".into(),
            );
        }
        return match sandbox::support() {
            Ok(_) => Plan::Sandboxed(declared.unwrap_or_default().reduced()),
            Err(why) => Plan::Refused(format!("it would run sandboxed, and {why}")),
        };
    }
    if let Some(file) = require {
        if hook.sandbox == SandboxMode::Off {
            return Plan::Refused(format!(
                "{} requires every command hook to run sandboxed (\"requireSandbox\": true), and this one says `\"sandbox\": false`; remove it (give the hook the grants it needs instead)",
                file.display()
            ));
        }
        return match sandbox::support() {
            Ok(_) => Plan::Sandboxed(declared.unwrap_or_default()),
            Err(why) => Plan::Refused(format!(
                "{} requires every command hook to run sandboxed, and {why}",
                file.display()
            )),
        };
    }
    match declared {
        None => Plan::Unconfined,
        Some(grants) => match sandbox::support() {
            Ok(_) => Plan::Sandboxed(grants),
            Err(why) => Plan::Refused(format!(
                "it declares grants (`fs`, `env`, `net` or `memory`), which only a sandbox enforces, and {why}; remove them to run it unsandboxed as a trusted hook"
            )),
        },
    }
}

/// The sandbox of `hook` with `grants` (`user_grants`: the user's own, not an untrusted
/// hook's reduced ones): besides the project and the system's directories, the files it
/// must read to run (`sandbox::reads_of`).
pub(super) fn sandbox_of(
    hook: &Hook,
    (grants, user_grants): (Grants, bool),
    home: Option<&Path>,
    env: &[(String, String)],
) -> Sandbox {
    let path = env
        .iter()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| std::ffi::OsString::from(v))
        .or_else(|| std::env::var_os("PATH"));
    let (words, first) = match &hook.handler {
        Handler::Shell { command, .. } => {
            let words = shlex::split(command)
                .unwrap_or_else(|| command.split_whitespace().map(str::to_string).collect());
            let first = words.first().cloned();
            (words, first)
        }
        Handler::Exec { program, args, .. } => (args.clone(), Some(program.clone())),
        _ => (Vec::new(), None),
    };
    let program: Option<PathBuf> =
        first.and_then(|p| program::find_program(&p, &hook.cwd, path.as_deref()).ok());
    let config_hooks = (hook.scope != Scope::Project)
        .then(|| hook.file.parent().map(|d| d.join("hooks")))
        .flatten();
    Sandbox {
        grants,
        read: sandbox::reads_of(
            &words,
            program.as_deref(),
            (&hook.cwd, home),
            config_hooks.as_deref(),
            user_grants,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::FsAccess;

    fn hook(sandbox: SandboxMode) -> Hook {
        let mut h = super::super::tests::hook_for_sandbox();
        h.sandbox = sandbox;
        h
    }

    #[test]
    fn a_trusted_hook_without_grants_runs_as_the_user() {
        let plan = plan(&hook(SandboxMode::Default), false, TrustPolicy::Skip, None);
        assert_eq!(plan, Plan::Unconfined);
    }

    #[test]
    fn sandbox_false_is_refused_for_an_untrusted_hook_and_under_require() {
        let off = hook(SandboxMode::Off);
        assert!(matches!(
            plan(&off, true, TrustPolicy::Skip, None),
            Plan::Refused(why) if why.contains("only a trusted hook")
        ));
        assert!(matches!(
            plan(&off, false, TrustPolicy::Skip, Some(Path::new("/etc/m.json"))),
            Plan::Refused(why) if why.contains("/etc/m.json") && why.contains("requireSandbox")
        ));
        // Trusted, no policy: its choice.
        assert_eq!(plan(&off, false, TrustPolicy::Skip, None), Plan::Unconfined);
    }

    #[test]
    fn an_untrusted_hook_keeps_only_the_reduced_grants() {
        let declared = Grants {
            fs: FsAccess::Write,
            env: vec!["TOKEN".into()],
            net: vec![crate::config::NetTarget::parse("a.example:443").unwrap()],
            memory_mib: Some(4096),
        };
        let h = hook(SandboxMode::On(declared.clone()));
        match plan(&h, true, TrustPolicy::Skip, None) {
            Plan::Sandboxed(g) => {
                assert_eq!(g.fs, FsAccess::Read);
                assert!(g.env.is_empty() && g.net.is_empty());
                assert!(g.memory_mib.unwrap() < 4096);
            }
            Plan::Refused(why) => assert!(sandbox::support().is_err(), "{why}"),
            Plan::Unconfined => panic!("an untrusted hook ran unconfined"),
        }
        // Trusted with grants: exactly those.
        match plan(&h, false, TrustPolicy::Skip, None) {
            Plan::Sandboxed(g) => assert_eq!(g, declared),
            Plan::Refused(_) => assert!(sandbox::support().is_err()),
            Plan::Unconfined => panic!("a hook with grants ran unconfined"),
        }
        // `all` runs an untrusted hook as configured: with its grants.
        assert!(!matches!(
            plan(&h, true, TrustPolicy::All, None),
            Plan::Unconfined
        ));
    }
}
