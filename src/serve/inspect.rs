//! What `hookhost list --json` and `hookhost check --json` print, as data, so that `serve`'s
//! `list` and `check` answer exactly the same objects. It reads and compiles; it runs no hook.

use crate::hooks::EventClass;
use crate::hooks::config::{self, ConfigError, ConfigPaths, Handler, Hook, HookSet};
use crate::hooks::preflight::shell_program_problem;
use crate::hooks::spawner::{WasmEngineConfig, WasmSpawner};
use serde::Serialize;
use serde_json::{Value, json};
use std::path::PathBuf;

/// `{"hooks": [...]}`: the effective hooks in run order, with their source file.
pub fn list_json(set: &HookSet) -> Value {
    let hooks: Vec<_> = set
        .all()
        .map(|h| {
            let mut v = json!({
                "event": h.event,
                "hook": h.label(),
                "kind": h.handler.kind(),
                "command": h.handler.display(),
                "match": h.match_source,
                "description": h.description,
                "timeoutMs": h.timeout.as_millis() as u64,
                "cwd": h.cwd,
                "async": h.is_async,
                "onError": h.on_error,
                "source": h.scope,
                "file": h.file,
            });
            if let Handler::Wasm { limits, module, .. } = &h.handler {
                v["module"] = json!(module);
                v["fuel"] = json!(limits.fuel);
                v["memory"] = json!(limits.memory_mib);
                v["fs"] = json!(limits.fs);
                v["env"] = json!(limits.env);
            }
            v
        })
        .collect();
    json!({ "hooks": hooks })
}

/// What `check` found: every error and warning of all config files.
#[derive(Debug, Serialize)]
pub struct CheckReport {
    /// Problems that make `check` exit 1.
    pub errors: Vec<ConfigError>,
    /// Problems that do not (a missing program on an observing event, untrusted hooks).
    pub warnings: Vec<ConfigError>,
    /// How many hooks are configured.
    pub hooks: usize,
    /// The files read.
    pub files: Vec<PathBuf>,
}

fn problem(hook: &Hook, message: String) -> ConfigError {
    ConfigError {
        file: hook.file.clone(),
        hook: Some(hook.label()),
        message,
    }
}

/// Every problem of the config files at `paths`; compiles every wasm module (into the
/// default compile cache, so the first event is fast) and finds shell commands whose
/// program the shell will not run.
pub async fn check(
    paths: &ConfigPaths,
) -> Result<CheckReport, crate::hooks::spawner::wasm::WasmError> {
    let (set, mut errors) = config::load_lenient(paths);
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
                    wasm = Some(WasmSpawner::new(WasmEngineConfig::default())?);
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
    match crate::hooks::TrustStore::load(paths.home.as_deref()) {
        Ok(store) => {
            for change in store.assess(paths, &set).changes {
                warnings.push(ConfigError {
                    file: change.file.clone(),
                    hook: Some(crate::hooks::trust::join_ids(&change.hooks)),
                    message: format!(
                        "untrusted ({} since last `hookhost trust`); review it, then run `hookhost trust`",
                        change.change
                    ),
                });
            }
        }
        Err(e) => errors.push(ConfigError {
            file: paths
                .home
                .clone()
                .unwrap_or_default()
                .join(".coding-agent/trusted.json"),
            hook: None,
            message: e.to_string(),
        }),
    }
    Ok(CheckReport {
        errors,
        warnings,
        hooks: set.len(),
        files: set.files.clone(),
    })
}
