//! What `hookhost list --json` and `hookhost check --json` print, made of the config files, so
//! that `serve`'s `list` and `check` answer exactly the same objects. It reads and compiles;
//! it runs no hook. The objects' shapes ([`ListReport`], [`CheckReport`]) are
//! `hookhost_protocol::inspect`'s, re-exported here.

use crate::config::{self, ConfigPaths, Handler, Hook, HookSet};
use crate::preflight::shell_program_problem;
use crate::spawner::{WasmEngineConfig, WasmSpawner};
#[doc(no_inline)]
pub use hookhost_protocol::inspect::{
    CheckReport, DuplicateOf, ListReport, ListedHook, WasmOptions,
};
use hookhost_protocol::{ConfigError, EventClass};
use serde_json::Value;

/// `{"hooks": [...], "disabled": [...], "files": [...], "managedOnly": FILE|null}`: the
/// effective hooks in run order, with their source file and dialect (and, for an identical
/// handler listed again, `duplicateOf`: the hook that runs instead when both match), the
/// hooks a switch turned off (with `disabledBy` and `why`), and the files read.
pub fn list_report(set: &HookSet) -> ListReport {
    let hooks = set
        .all()
        .map(|h| ListedHook {
            duplicate_of: set.duplicate_of(h).map(|first| DuplicateOf {
                hook: first.label(),
                file: first.file.clone(),
            }),
            ..listed(h)
        })
        .collect();
    let disabled = set
        .disabled
        .iter()
        .map(|d| ListedHook {
            disabled_by: Some(d.by.clone()),
            why: Some(d.why.clone()),
            ..listed(&d.hook)
        })
        .collect();
    ListReport {
        hooks,
        disabled,
        files: set.files.clone(),
        managed_only: set.managed_only.clone(),
        errors: None,
    }
}

/// [`list_report`] as JSON: what serve's `list` and the Python package answer.
pub fn list_json(set: &HookSet) -> Value {
    // Plain data: serialising it cannot fail.
    serde_json::to_value(list_report(set)).unwrap_or_default()
}

/// One hook as `list --json` shows it.
fn listed(h: &Hook) -> ListedHook {
    ListedHook {
        event: h.event,
        hook: h.label(),
        kind: h.handler.kind(),
        command: h.handler.display().to_string(),
        matcher: h.match_source.clone(),
        condition: h
            .condition
            .as_ref()
            .map(|rule| config::PermissionRule::as_str(rule).to_string()),
        description: h.description.clone(),
        status_message: h.status_message.clone(),
        program: match &h.handler {
            Handler::Exec { program, .. } => Some(program.clone()),
            _ => None,
        },
        args: match &h.handler {
            Handler::Exec { args, .. } => Some(args.clone()),
            _ => None,
        },
        shell: h
            .handler
            .shell()
            .filter(|s| *s != config::ShellKind::Sh)
            .map(|s| s.as_str().to_string()),
        once: h.once,
        async_rewake: h.async_rewake,
        timeout_ms: u64::try_from(h.timeout.as_millis()).unwrap_or(u64::MAX),
        cwd: h.cwd.clone(),
        is_async: h.is_async,
        on_error: h.on_error,
        source: h.scope,
        file: h.file.clone(),
        dialect: h.dialect,
        wasm: match &h.handler {
            Handler::Wasm { limits, module, .. } => Some(WasmOptions {
                module: module.path().to_path_buf(),
                fuel: limits.fuel,
                memory: limits.memory_mib,
                fs: limits.fs,
                env: limits.env.clone(),
                net: limits.net.clone(),
            }),
            _ => None,
        },
        sandbox: h.sandbox.describe(),
        duplicate_of: None,
        disabled_by: None,
        why: None,
    }
}

/// What `check` and `list` say when the managed file turns the other files off.
pub fn managed_only_note() -> String {
    "the machine-wide managed file allows only managed hooks (`allowManagedHooksOnly`, or it could not be read, which counts as the same): the project's and the user's hooks files are not read".into()
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
/// program the shell will not run. A pinned package's store copy must be there and intact.
pub async fn check(paths: &ConfigPaths) -> Result<CheckReport, crate::spawner::wasm::WasmError> {
    check_with(paths, &|_, _| Vec::new()).await
}

/// What a caller adds to `check` about one pinned package hook: warnings, given the hook and
/// the package's bytes (already checked against their digest). `hookhost-package` compares
/// the package's manifest with the config's grants here.
pub type PackageWarnings<'a> = &'a (dyn Fn(&Hook, &[u8]) -> Vec<String> + Sync);

/// [`check`], with `package_warnings` asked about every pinned package hook.
pub async fn check_with(
    paths: &ConfigPaths,
    package_warnings: PackageWarnings<'_>,
) -> Result<CheckReport, crate::spawner::wasm::WasmError> {
    checked(paths, package_warnings, true).await
}

/// [`check`] without the trust warnings: only whether each hook can run (what `doctor`
/// reports as its hooks section; it reports trust on its own).
pub async fn check_hooks(
    paths: &ConfigPaths,
) -> Result<CheckReport, crate::spawner::wasm::WasmError> {
    checked(paths, &|_, _| Vec::new(), false).await
}

async fn checked(
    paths: &ConfigPaths,
    package_warnings: PackageWarnings<'_>,
    with_trust: bool,
) -> Result<CheckReport, crate::spawner::wasm::WasmError> {
    let (set, errors) = config::load_lenient(paths);
    let mut found = Found {
        errors,
        // What other agents' files say that hookhost accepts but does not implement, and
        // each native `match` that names another agent's tool (read as the core's).
        warnings: set
            .warnings
            .iter()
            .cloned()
            .chain(config::alias_notes(&set))
            .collect(),
    };
    let mut wasm = None;
    for hook in set.all() {
        found.hook(hook, &mut wasm, package_warnings).await?;
    }
    if with_trust {
        found.trust(paths, &set);
    }
    if let Some(managed) = &set.managed_only {
        found.warnings.push(ConfigError {
            file: managed.clone(),
            hook: None,
            message: managed_only_note(),
        });
    }
    // The files read: hookhost's own always, other agents' only when present.
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
    Ok(CheckReport {
        errors: found.errors,
        warnings: found.warnings,
        hooks: set.len(),
        disabled: set.disabled.len(),
        files,
        managed_only: set.managed_only.clone(),
    })
}

/// What `check` has found so far.
struct Found {
    errors: Vec<ConfigError>,
    warnings: Vec<ConfigError>,
}

impl Found {
    /// A hook whose program cannot start: on an event whose hooks decide it blocks every
    /// call (or forces nothing), an error; elsewhere it only warns.
    fn cannot_start(&mut self, hook: &Hook, msg: String) {
        if hook.event.class() == EventClass::Observing {
            self.warnings.push(problem(hook, msg));
        } else {
            self.errors.push(problem(hook, msg));
        }
    }

    /// One hook: its working directory, its wasm module (compiled; a package's store copy
    /// intact) or its shell program.
    async fn hook(
        &mut self,
        hook: &Hook,
        wasm: &mut Option<WasmSpawner>,
        package_warnings: PackageWarnings<'_>,
    ) -> Result<(), crate::spawner::wasm::WasmError> {
        if !hook.cwd.is_dir() {
            self.errors.push(problem(
                hook,
                format!(
                    "working directory {} does not exist; fix `cwd` (it is relative to the project root)",
                    hook.cwd.display()
                ),
            ));
            return Ok(());
        }
        if hook.dialect == crate::Dialect::Native
            && let Some(msg) = crate::preflight::timeout_problem(hook.timeout, timeout_blocks(hook))
        {
            self.warnings.push(problem(hook, msg));
        }
        match &hook.handler {
            Handler::Wasm { module, .. } => {
                if let Some(package) = module.package() {
                    match package.store().get(package.digest()) {
                        Ok(bytes) => self.warnings.extend(
                            package_warnings(hook, &bytes)
                                .into_iter()
                                .map(|m| problem(hook, m)),
                        ),
                        Err(e) => {
                            self.errors.push(problem(hook, e.to_string()));
                            return Ok(());
                        }
                    }
                }
                if wasm.is_none() {
                    // On-demand allocation, as `hookhost run`: the same engine, so the cache
                    // folder `run` reads is the one warmed here.
                    *wasm = Some(WasmSpawner::new(WasmEngineConfig {
                        pooling: false,
                        // `check` compiles ahead: the optimised code, never the baseline tier.
                        tiering: crate::spawner::Tiering::Off,
                        ..WasmEngineConfig::default()
                    })?);
                }
                if let Some(w) = wasm
                    && let Err(e) = w.prepare_file(module.path()).await
                {
                    self.errors.push(problem(hook, e.clone()));
                }
            }
            Handler::Exec { program, .. } => {
                // What the spawner will say; only a missing program, as written (a
                // placeholder is filled at run time).
                let path = std::env::var_os("PATH");
                if !program.contains('$')
                    && let Err(e) =
                        crate::spawner::program::find_program(program, &hook.cwd, path.as_deref())
                {
                    self.cannot_start(hook, e.to_string());
                }
            }
            Handler::Shell { command, .. } => {
                if let Some(msg) = shell_program_problem(command, &hook.cwd) {
                    self.cannot_start(hook, msg);
                }
            }
            // The key the model hook sends, when the user's file names one: not set here, the
            // hook would fail here (the agent's environment may differ: a warning).
            Handler::Model { model: Some(m), .. } => {
                if let Some(var) = &m.key_env
                    && crate::host_env::var(var, "no key").is_none()
                {
                    self.warnings.push(problem(
                        hook,
                        format!(
                            "the model's API key variable {var} (`model.keyEnv` in {}) is not set here; where it is not set when the agent runs, this hook fails: export it in the shell the agent starts from",
                            m.file.display()
                        ),
                    ));
                }
            }
            Handler::Http { .. } | Handler::Mcp { .. } | Handler::Model { .. } => {}
        }
        Ok(())
    }

    /// What is untrusted (a warning each), or why the trust file cannot be read (an error).
    fn trust(&mut self, paths: &ConfigPaths, set: &HookSet) {
        match crate::TrustStore::load(paths.home.as_deref()) {
            Ok(store) => {
                for change in store.assess(paths, set).changes {
                    self.warnings.push(ConfigError {
                        file: change.file.clone(),
                        hook: Some(crate::trust::join_ids(&change.hooks)),
                        message: format!(
                            "untrusted ({} since last `hookhost trust`); review it, then run `hookhost trust`",
                            change.change
                        ),
                    });
                }
            }
            Err(e) => self.errors.push(ConfigError {
                file: paths
                    .home
                    .clone()
                    .unwrap_or_default()
                    .join(".coding-agent/trusted.json"),
                hook: None,
                message: e.to_string(),
            }),
        }
    }
}

/// Whether a native hook's timeout blocks its event (the native table's Timeout row, with
/// `onError: "block"` where the cell leaves it to the hook).
fn timeout_blocks(hook: &Hook) -> bool {
    use crate::judge::{Cell, Condition, NATIVE_TABLE, cell};
    match cell(&NATIVE_TABLE, Condition::Timeout, hook.event) {
        Cell::Block => true,
        Cell::WarnOrBlock => hook.on_error == crate::config::OnError::Block,
        _ => false,
    }
}
