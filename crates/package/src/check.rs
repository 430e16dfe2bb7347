//! `hookhost check` for pinned packages: what a package's manifest asks beyond the config's
//! grants is a warning (the config wins). The engine's check does the rest (the store copy,
//! compiling, the config itself) and asks this module about each pinned package.

use crate::manifest::Grants;
use hookhost::config::{ConfigPaths, Handler, Hook};
use hookhost::inspect::CheckReport;
use hookhost::spawner::wasm::WasmError;

/// Every problem of the config files at `paths` ([`hookhost::inspect::check`]), with the
/// manifest of every pinned package compared with the config's grants.
pub async fn check(paths: &ConfigPaths) -> Result<CheckReport, WasmError> {
    hookhost::inspect::check_with(paths, &grant_warnings).await
}

/// What the package in `bytes` asks beyond `hook`'s grants, one line per capability.
fn grant_warnings(hook: &Hook, bytes: &[u8]) -> Vec<String> {
    let Handler::Wasm { limits, .. } = &hook.handler else {
        return Vec::new();
    };
    let Ok(Some(manifest)) = crate::manifest_of(bytes) else {
        return Vec::new();
    };
    let grants = Grants {
        fs: limits.fs,
        env: limits.env.clone(),
        memory: limits.memory_mib,
        timeout: u64::try_from(hook.timeout.as_millis()).unwrap_or(u64::MAX),
        fuel: limits.fuel,
    };
    manifest
        .capabilities
        .exceeds(&grants)
        .into_iter()
        .map(|m| {
            format!(
                "hook package {} {m}; the config's limit applies",
                manifest.name
            )
        })
        .collect()
}
