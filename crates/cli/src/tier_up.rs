//! The one-shot CLI's half of tiering (`Tiering::Deferred`): after `hookhost run` or
//! `hookhost hook` answered, each big module that ran from the baseline tier is handed to a
//! detached `hookhost compile --background -- <module>` that makes and caches its optimised
//! build, so the next run maps optimised code while this process exits at once.
//!
//! The child is this same executable with a fixed argument list (the subcommand, the flag, `--`
//! and the absolute module path: nothing a config could turn into another command), a cleared
//! environment but for `HOOKHOST_CACHE_DIR` (the cache this process used), null stdio and a
//! process group of its own (an agent killing the hook's group does not kill it, and it never
//! writes to the agent's pipes). At most one runs per module: it holds a lock file in the
//! private cache folder while it works, and a module whose lock is held is not handed off.
//! Nothing is handed off when the disk cache is disabled (the build would be lost), nor for a
//! module whose background compile failed since the file last changed (a marker in the cache
//! folder), so a module cranelift cannot build does not cost a compile on every run.
//!
//! Not here: the compile itself (`compile.rs`), the tiers (the library's `wasm` spawner).

use hookhost::spawner::{HookSpawner, TIERING_ENV, Tiering};
use std::path::Path;
use std::process::{Command, Stdio};

/// The tiering `run` and `hook` use: `$HOOKHOST_TIERING` (`off`, `in-process`, `deferred`),
/// else deferred. An unknown value is warned about and means the default.
pub fn tiering_from_env() -> Tiering {
    match std::env::var(TIERING_ENV) {
        Err(_) => Tiering::Deferred,
        Ok(v) => Tiering::parse(&v).unwrap_or_else(|| {
            eprintln!(
                "hookhost: warning: ${TIERING_ENV}={v:?} is not off, in-process or deferred; using deferred"
            );
            Tiering::Deferred
        }),
    }
}

/// Starts one background compile for each module `spawner` deferred whose optimisation no
/// other process has claimed. Failures only cost speed (the next run tiers up again).
pub fn hand_off(spawner: &HookSpawner) {
    let Some(wasm) = spawner.wasm_started() else {
        return;
    };
    let Some(root) = wasm.cache_root() else {
        return;
    };
    for module in wasm.deferred() {
        // A module cranelift could not build (or not within the CPU limit) is not retried
        // on every run: only once the file changes.
        if wasm.optimisation_failed(&module) {
            continue;
        }
        // Probe the claim: held means a compile of this module is already running.
        match wasm.claim_optimisation(&module) {
            Some(claim) => drop(claim),
            None => continue,
        }
        if let Err(e) = spawn_compile(root, &module) {
            tracing::warn!(module = %module.display(), error = %e, "cannot start the background compile of the optimised code; the next run uses the baseline tier again");
        }
    }
}

fn spawn_compile(cache_root: &Path, module: &Path) -> std::io::Result<()> {
    if !module.is_absolute() || !cache_root.is_absolute() {
        return Err(std::io::Error::other("not an absolute path"));
    }
    let exe = std::env::current_exe()?;
    let mut command = Command::new(exe);
    command
        .args(["compile", "--background", "--"])
        .arg(module)
        .env_clear()
        .env("HOOKHOST_CACHE_DIR", cache_root)
        .current_dir("/")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    // Not waited for: the child outlives this process and is reaped by init.
    command.spawn().map(drop)
}
