//! `hookhost check`: every problem of both config files, every wasm module compiled (and so
//! cached: the first real event is then fast), and each shell command whose program the shell
//! will not run (missing, not executable, a bare name not on PATH): an error on events whose
//! hooks decide (PreToolUse, Stop, SubagentStop), a warning elsewhere. Exit 1 on any error;
//! warnings do not change the exit status.

use clap::Args;
use hookhost::hooks::EventClass;
use hookhost::hooks::config::{self, ConfigError, ConfigPaths, Handler, Hook};
use hookhost::hooks::preflight::shell_program_problem;
use hookhost::hooks::spawner::{WasmEngineConfig, WasmSpawner};
use serde::Serialize;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Project directory (default: the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print JSON: {"errors": [...], "warnings": [...], "hooks": N}.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    errors: Vec<ConfigError>,
    warnings: Vec<ConfigError>,
    hooks: usize,
    files: Vec<PathBuf>,
    /// The managed file that allows only managed hooks, when one does.
    #[serde(rename = "managedOnly")]
    managed_only: Option<PathBuf>,
}

fn problem(hook: &Hook, message: String) -> ConfigError {
    ConfigError {
        file: hook.file.clone(),
        hook: Some(hook.label()),
        message,
    }
}

/// A pinned hook package: its store copy must be there and intact (else an error naming
/// `hookhost fetch`); what its manifest asks beyond the config's grants is a warning (the
/// config wins).
fn package_problems(
    module: &std::path::Path,
    digest: &hookhost::package::Digest,
    limits: &hookhost::hooks::config::WasmLimits,
    timeout: std::time::Duration,
) -> Result<Vec<String>, String> {
    use hookhost::package::{Store, manifest::Grants};
    let root = module
        .parent()
        .and_then(std::path::Path::parent)
        .unwrap_or(module);
    let bytes = Store::at(root.to_path_buf())
        .get(digest)
        .map_err(|e| e.to_string())?;
    let Ok(Some(manifest)) = hookhost::package::manifest_of(&bytes) else {
        return Ok(Vec::new());
    };
    let grants = Grants {
        fs: limits.fs,
        env: limits.env.clone(),
        memory: limits.memory_mib,
        timeout: u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
        fuel: limits.fuel,
    };
    Ok(manifest
        .capabilities
        .exceeds(&grants)
        .into_iter()
        .map(|m| {
            format!(
                "hook package {} {m}; the config's limit applies",
                manifest.name
            )
        })
        .collect())
}

pub async fn check(a: CheckArgs) -> anyhow::Result<u8> {
    let project = super::project_dir(a.project)?;
    let (set, mut errors) = config::load_lenient(&ConfigPaths::for_project(&project));
    // What other agents' files say that hookhost accepts but does not implement.
    let mut warnings = set.warnings.clone();
    let mut wasm = None;
    for hook in set.all() {
        if !hook.cwd.is_dir() {
            errors.push(problem(
                hook,
                format!(
                    "working directory {} does not exist; fix `cwd` (it is relative to the project root)",
                    hook.cwd.display()
                ),
            ));
            continue;
        }
        match &hook.handler {
            Handler::Wasm { module, limits, .. } => {
                if let Some(digest) = hookhost::package::store::digest_of_path(module) {
                    match package_problems(module, &digest, limits, hook.timeout) {
                        Ok(excess) => warnings.extend(excess.into_iter().map(|m| problem(hook, m))),
                        Err(e) => {
                            errors.push(problem(hook, e));
                            continue;
                        }
                    }
                }
                if wasm.is_none() {
                    // On-demand allocation, as `hookhost run`: the same engine, so the cache
                    // folder `run` reads is the one warmed here.
                    wasm = Some(WasmSpawner::new(WasmEngineConfig {
                        pooling: false,
                        ..WasmEngineConfig::default()
                    })?);
                }
                if let Some(w) = &wasm
                    && let Err(e) = w.prepare_file(module).await
                {
                    errors.push(problem(hook, e));
                }
            }
            Handler::Shell { command } => {
                if let Some(msg) = shell_program_problem(command, &hook.cwd) {
                    // On an event whose hooks decide, a hook that cannot start blocks every
                    // call (or forces nothing): an error. Elsewhere it only warns.
                    if hook.event.class() == EventClass::Observing {
                        warnings.push(problem(hook, msg));
                    } else {
                        errors.push(problem(hook, msg));
                    }
                }
            }
            Handler::Http { .. } => {}
        }
    }
    match hookhost::hooks::TrustStore::load(dirs::home_dir().as_deref()) {
        Ok(store) => {
            let paths = ConfigPaths::for_project(&project);
            for change in store.assess(&paths, &set).changes {
                warnings.push(ConfigError {
                    file: change.file.clone(),
                    hook: Some(hookhost::hooks::trust::join_ids(&change.hooks)),
                    message: format!(
                        "untrusted ({} since last `hookhost trust`); review it, then run `hookhost trust`",
                        change.change
                    ),
                });
            }
        }
        Err(e) => errors.push(ConfigError {
            file: dirs::home_dir()
                .unwrap_or_default()
                .join(".coding-agent/trusted.json"),
            hook: None,
            message: e.to_string(),
        }),
    }
    if let Some(managed) = &set.managed_only {
        warnings.push(ConfigError {
            file: managed.clone(),
            hook: None,
            message: managed_only_note(),
        });
    }
    // The files read: hookhost's own two always, other agents' only when present.
    let paths = ConfigPaths::for_project(&project);
    let files = set
        .files
        .iter()
        .filter(|f| {
            set.file_hashes.contains_key(*f)
                || **f == paths.project_file
                || paths.global_file.as_ref() == Some(*f)
        })
        .cloned()
        .collect();
    let report = Report {
        errors,
        warnings,
        hooks: set.len(),
        files,
        managed_only: set.managed_only.clone(),
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        for e in &report.errors {
            println!("error: {e}");
        }
        for w in &report.warnings {
            println!("warning: {w}");
        }
        println!(
            "checked {} hook{} in {}: {} error{}, {} warning{}",
            report.hooks,
            if report.hooks == 1 { "" } else { "s" },
            report
                .files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(" and "),
            report.errors.len(),
            if report.errors.len() == 1 { "" } else { "s" },
            report.warnings.len(),
            if report.warnings.len() == 1 { "" } else { "s" },
        );
    }
    Ok(if report.errors.is_empty() { 0 } else { 1 })
}

/// What `check` and `list` say when the managed file turns the other files off.
pub(crate) fn managed_only_note() -> String {
    "the machine-wide managed file allows only managed hooks (`allowManagedHooksOnly`, or it could not be read, which counts as the same): the project's and the user's hooks files are not read".into()
}
