//! The sandbox of one wasm run, in one place to audit (DESIGN §5).
//!
//! Granted: stdin (the payload), capped stdout/stderr, argv, the environment variables
//! `HOOK_EVENT`, `HOOK_PROJECT_DIR` and those the hook lists in `env`, a wall clock and
//! randomness, and — unless `fs: "none"` — the hook's cwd preopened at `.` and the project
//! root preopened at its absolute host path, read-only unless `fs: "write"`.
//! Not granted: any other host path (wasmtime-wasi resolves every path beneath a preopen;
//! `..` and symlinks that leave it fail; the cwd itself was resolved canonically and checked
//! to lie inside the project just before, see `confine::confined_dir`), the host
//! environment, network sockets and name lookup (preview 2), inherited stdio, and creating
//! symlinks (even with `fs: "write"`: a link the guest cannot follow would still lead the
//! unsandboxed tools that run after it, `git` or the agent's own `bash`, out of the project;
//! `path_symlink` / `symlink-at` answer "not permitted").

use super::pipes::GuestOutput;
use crate::hooks::config::{FsAccess, WasmLimits};
use crate::hooks::confine::Confined;
use crate::hooks::spawner::{Capture, SpawnRequest};
use std::path::Path;
use wasmtime_wasi::p2::pipe::MemoryInputPipe;
use wasmtime_wasi::{FsPerms, WasiCtxBuilder};

/// Builds the WASI context for one run. Errors (a preopen that cannot be opened) are
/// spawn failures.
pub fn wasi_builder(
    req: &SpawnRequest,
    confined: &Confined,
    argv: &[String],
    limits: &WasmLimits,
    capture: &Capture,
) -> Result<WasiCtxBuilder, String> {
    let mut b = WasiCtxBuilder::new();
    b.stdin(MemoryInputPipe::new(bytes::Bytes::copy_from_slice(
        &req.stdin,
    )))
    .stdout(GuestOutput(capture.stdout.clone()))
    .stderr(GuestOutput(capture.stderr.clone()))
    .args(argv)
    .env("HOOK_EVENT", req.event.as_str())
    .env("HOOK_PROJECT_DIR", req.project_dir.to_string_lossy())
    // A dialect's own variables (`CLAUDE_PROJECT_DIR`, ...): the project's path again, which
    // the guest also sees as a preopen; never a host variable.
    .envs(req.env.as_slice())
    .allow_tcp(false)
    .allow_udp(false)
    .allow_ip_name_lookup(false);
    for name in &limits.env {
        if let Ok(value) = std::env::var(name) {
            b.env(name, value);
        }
    }
    let perms = match limits.fs {
        FsAccess::None => return Ok(b),
        FsAccess::Read => FsPerms::ReadOnly,
        FsAccess::Write => FsPerms::ReadWrite,
    };
    preopen(&mut b, &confined.cwd, ".", perms)?;
    let abs = req.project_dir.to_string_lossy();
    preopen(&mut b, &confined.root, &abs, perms)?;
    Ok(b)
}

/// WASI preview 1 `errno::perm`.
const ERRNO_PERM: i32 = 63;

/// Shadows preview 1's `path_symlink` with one that always answers "not permitted".
pub fn deny_symlinks_p1<T: 'static>(linker: &mut wasmtime::Linker<T>) -> wasmtime::Result<()> {
    linker.allow_shadowing(true);
    linker.func_wrap(
        "wasi_snapshot_preview1",
        "path_symlink",
        |_: wasmtime::Caller<'_, T>, _: i32, _: i32, _: i32, _: i32, _: i32| ERRNO_PERM,
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

/// Shadows preview 2's `descriptor.symlink-at` with one that always answers "not permitted".
pub fn deny_symlinks_p2<T: 'static>(
    linker: &mut wasmtime::component::Linker<T>,
) -> wasmtime::Result<()> {
    use wasmtime::component::Resource;
    use wasmtime_wasi::p2::bindings::filesystem::types::{Descriptor, ErrorCode};
    linker.allow_shadowing(true);
    linker.instance("wasi:filesystem/types@0.2.12")?.func_wrap(
        "[method]descriptor.symlink-at",
        |_, (_, _, _): (Resource<Descriptor>, String, String)| {
            Ok((Err::<(), ErrorCode>(ErrorCode::NotPermitted),))
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

fn preopen(b: &mut WasiCtxBuilder, host: &Path, guest: &str, perms: FsPerms) -> Result<(), String> {
    b.preopened_dir(host, guest, perms).map(|_| ()).map_err(|e| {
        format!(
            "cannot open {} for the guest: {e}; check the hook's `cwd` and the project directory",
            host.display()
        )
    })
}
