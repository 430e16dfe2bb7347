//! The one-shot CLI's half of tiering (`Tiering::Deferred`): after `hookhost run` or
//! `hookhost hook` answered, each big module that ran from the baseline tier is handed to a
//! detached `hookhost compile --background -- <module>` that makes and caches its optimised
//! build, so the next run maps optimised code while this process exits at once.
//!
//! The child is this same executable with a fixed argument list (the subcommand, the flag, `--`
//! and the absolute module path: nothing a config could turn into another command), a cleared
//! environment but for `HOOKHOST_CACHE_DIR` (the cache this process used), null stdio and a
//! process group of its own (an agent killing the hook's group does not kill it, and it never
//! writes to the agent's pipes). At most one runs per module per cache: this process takes
//! the module's lock file in the private cache folder (`flock`) *before* starting the child
//! and hands the locked descriptor down as fd 3 (`--claimed`), so the claim never lapses
//! between the probe and the child, a module whose lock is held is not handed off, and no
//! child is started only to find the lock taken and exit (the `<defunct>` processes a busy
//! machine with a non-reaping PID 1 collected). The child is reaped by this process if it
//! is already done when this process ends, else by init once this process has exited.
//! Nothing is handed off when the disk cache is disabled (the build would be lost), nor for a
//! module whose background compile failed since the file last changed (a marker in the cache
//! folder), so a module cranelift cannot build does not cost a compile on every run.
//!
//! Not here: the compile itself (`compile.rs`), the tiers (the library's `wasm` spawner).

use hookhost::spawner::{HookSpawner, TIERING_ENV, Tiering};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;

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
        // Held means a compile of this module is already running. Else the claim goes to
        // the child, which keeps it until its compile is done.
        let Some(claim) = wasm.claim_optimisation(&module) else {
            continue;
        };
        match spawn_compile(root, &module, claim.file()) {
            Ok(child) => started().push(child),
            Err(e) => {
                tracing::warn!(module = %module.display(), error = %e, "cannot start the background compile of the optimised code; the next run uses the baseline tier again");
            }
        }
    }
}

/// The background compiles this process started, for [`reap`].
static STARTED: Mutex<Vec<Child>> = Mutex::new(Vec::new());

/// Collects the background compiles this process started that have already ended (a child
/// that outlives this process is reaped by whoever inherits it), so that none stays a
/// zombie of a process that lives on. Called as the command returns.
pub fn reap() {
    started().retain_mut(|c| matches!(c.try_wait(), Ok(None)));
}

fn started() -> std::sync::MutexGuard<'static, Vec<Child>> {
    STARTED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The descriptor number a background compile finds its claim at (`compile --claimed`).
#[cfg(unix)]
pub const CLAIM_FD: i32 = 3;

#[allow(unsafe_code)]
fn spawn_compile(
    cache_root: &Path,
    module: &Path,
    claim: &std::fs::File,
) -> std::io::Result<Child> {
    if !module.is_absolute() || !cache_root.is_absolute() {
        return Err(std::io::Error::other("not an absolute path"));
    }
    let exe = std::env::current_exe()?;
    let mut command = Command::new(exe);
    command
        .args(["compile", "--background"])
        .args(cfg!(unix).then_some("--claimed"))
        .arg("--")
        .arg(module)
        .env_clear()
        .env("HOOKHOST_CACHE_DIR", cache_root)
        .current_dir("/")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        use std::os::unix::process::CommandExt;
        command.process_group(0);
        let fd = claim.as_raw_fd();
        // SAFETY: between fork and exec only async-signal-safe calls (dup2, fcntl) on
        // descriptors of this process. dup2 leaves the copy open across exec; when the lock
        // already is fd 3, its close-on-exec flag is cleared instead.
        unsafe {
            command.pre_exec(move || {
                let r = if fd == CLAIM_FD {
                    libc::fcntl(fd, libc::F_SETFD, 0)
                } else {
                    libc::dup2(fd, CLAIM_FD)
                };
                if r == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    #[cfg(not(unix))]
    let _ = claim;
    command.spawn()
}
