//! Where a hook may declare `secrets` (values the host injects into a wasm hook's HTTP
//! requests, docs/wasm.md): on a wasm hook, in the user's or the managed file, each host of a
//! secret also in the hook's `net`. A project file may not: it would choose which of the
//! user's variables go to which host.
//!
//! Not here: reading the object (phase 1, `raw/values.rs`) or injecting a value
//! (`spawner/wasm/http.rs`).

use crate::config::raw::RawGrants;
use crate::config::types::{HookKind, NetTarget, Scope};

/// Every problem with `secrets` on a hook of `kind` in a file of `scope`.
pub(super) fn check(
    scope: Scope,
    kind: Option<HookKind>,
    RawGrants { secrets, net, .. }: &RawGrants,
    problems: &mut Vec<String>,
) {
    if secrets.is_empty() {
        return;
    }
    if kind.is_some_and(|k| k != HookKind::Wasm) {
        problems.push(
            "`secrets` applies to wasm hooks only (the host puts them into the hook's HTTP requests); remove it".into(),
        );
        return;
    }
    if !matches!(scope, Scope::Global | Scope::Managed) {
        problems.push(
            "`secrets` is accepted only in your own ~/.coding-agent/hooks.json or the managed file: a project file would choose which of your environment variables are sent to which host; move the hook to ~/.coding-agent/hooks.json (with an absolute or ~/ module path)".into(),
        );
        return;
    }
    for secret in secrets {
        for host in &secret.hosts {
            if !net.iter().any(|t| t.host == *host) {
                problems.push(format!(
                    "secret `{}` may go to {host}, which is not in `net`; add \"{}\" to `net` (the hook can reach only the hosts `net` lists)",
                    secret.name,
                    NetTarget {
                        host: host.clone(),
                        port: 443
                    }
                ));
            }
        }
    }
}
