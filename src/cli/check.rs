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
}

fn problem(hook: &Hook, message: String) -> ConfigError {
    ConfigError {
        file: hook.file.clone(),
        hook: Some(hook.label()),
        message,
    }
}

pub async fn check(a: CheckArgs) -> anyhow::Result<u8> {
    let project = super::project_dir(a.project)?;
    let (set, mut errors) = config::load_lenient(&ConfigPaths::for_project(&project));
    let mut warnings = Vec::new();
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
            Handler::Wasm { module, .. } => {
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
    let report = Report {
        errors,
        warnings,
        hooks: set.len(),
        files: set.files.clone(),
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
