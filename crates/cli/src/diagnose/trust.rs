//! Trust: the project hooks that are new or changed since `hookhost trust`, what the policy in
//! force reduces each to ([`hookhost::trust`]'s table), and the command that trusts them.

use super::{Finding, Section};
use hookhost::config::{self, ConfigPaths, Handler, HookId, HookSet};
use hookhost::{TrustPolicy, TrustStore};

/// The `trust` section.
pub fn section(paths: &ConfigPaths, policy: TrustPolicy) -> Section {
    let mut findings = findings(paths, policy);
    findings.push(sandbox_finding());
    Section::new("trust", "Trust", findings)
}

/// Whether command hooks can run in the kernel sandbox here (docs/sandbox.md): untrusted
/// project shell hooks run sandboxed where they can, and are skipped where they cannot.
fn sandbox_finding() -> Finding {
    match hookhost::spawner::sandbox_support() {
        Ok(what) => Finding::ok(format!(
            "command hooks can run sandboxed here ({what}): untrusted project shell hooks run sandboxed, reduced"
        )),
        Err(why) => Finding::warning(format!(
            "{why}: untrusted project shell hooks are skipped, and hooks with grants (`fs`, `env`, `net`, `memory`) do not run"
        ))
        .fix("run on Linux 6.2 or later with Landlock enabled (docs/sandbox.md)"),
    }
}

fn findings(paths: &ConfigPaths, policy: TrustPolicy) -> Vec<Finding> {
    let trusted = paths
        .home
        .as_ref()
        .map(|h| h.join(".coding-agent/trusted.json"));
    let store = match TrustStore::load(paths.home.as_deref()) {
        Ok(store) => store,
        Err(e) => {
            let f = Finding::error(format!(
                "{e}; under the policy `{}` every project hook is then refused or untrusted",
                policy_name(policy)
            ))
            .fix("fix or remove the trust file, then run `hookhost trust`");
            return vec![match &trusted {
                Some(t) => f.at(t.display().to_string()),
                None => f,
            }];
        }
    };
    let (set, _) = config::load_lenient(paths);
    let changes = store.assess(paths, &set).changes;
    if changes.is_empty() {
        let project_hooks = set
            .all()
            .filter(|h| h.scope == config::Scope::Project)
            .count();
        return vec![if project_hooks == 0 {
            Finding::info("no project hooks: nothing to trust")
        } else {
            Finding::ok(format!("every project hook is trusted ({project_hooks})"))
        }];
    }
    let fix = format!(
        "review it, then `hookhost trust --project {}`",
        paths.project_dir.display()
    );
    changes
        .iter()
        .map(|c| {
            let reduced: Vec<String> = c
                .hooks
                .iter()
                .map(|id| format!("{id} {}", reduced_to(&set, id, policy)))
                .collect();
            Finding::warning(format!(
                "untrusted ({} since last `hookhost trust`): {}",
                c.change,
                reduced.join("; ")
            ))
            .at(c.file.display().to_string())
            .fix(fix.clone())
        })
        .collect()
}

/// What `policy` lets the untrusted hook `id` do (the table of [`hookhost::trust`]).
fn reduced_to(set: &HookSet, id: &HookId, policy: TrustPolicy) -> &'static str {
    let hook = set.all().find(|h| h.id() == *id);
    let wasm = hook.is_some_and(|h| matches!(h.handler, Handler::Wasm { .. }));
    let sandboxable = hookhost::spawner::sandbox_support().is_ok()
        && hook.is_some_and(|h| {
            h.handler.kind() == config::HookKind::Shell && h.sandbox != config::SandboxMode::Off
        });
    let pre_tool = hook.is_some_and(|h| h.event == hookhost::Event::PreToolUse);
    match (policy, wasm || sandboxable) {
        (TrustPolicy::All, _) => "runs in full (trust policy `all`)",
        (_, true) => "runs sandboxed; only a block counts",
        (TrustPolicy::Block, false) if pre_tool => "blocks every call it matches (policy `block`)",
        _ => "is not run (skipped)",
    }
}

/// The policy as `--trust` and `HOOKHOST_TRUST` name it.
fn policy_name(policy: TrustPolicy) -> &'static str {
    match policy {
        TrustPolicy::All => "all",
        TrustPolicy::Block => "block",
        _ => "skip",
    }
}
