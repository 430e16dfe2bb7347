//! The sandbox of one wasm run, in one place to audit (DESIGN §5).
//!
//! Granted ([`Grants`]): stdin (the payload), capped stdout/stderr, argv, the environment variables
//! `HOOK_EVENT`, `HOOK_PROJECT_DIR` and those the hook lists in `env`, a wall clock and
//! randomness, and — unless `fs: "none"` — the hook's cwd preopened at `.` and the project
//! root preopened at its absolute host path, read-only unless `fs: "write"`; for a component
//! whose hook has `net`, HTTP requests to exactly those `host:port`s, with its `secrets` filled
//! in by the host (the policy is `http.rs`; this file only carries the grant).
//! Not granted: any other host path (wasmtime-wasi resolves every path beneath a preopen;
//! `..` and symlinks that leave it fail; the cwd itself was resolved canonically and checked
//! to lie inside the project just before, see `confine::confined_dir`), the host
//! environment, network sockets and name lookup (preview 2: only `wasi:http`, which the
//! host performs, reaches the network), inherited stdio, and creating
//! symlinks (even with `fs: "write"`: a link the guest cannot follow would still lead the
//! unsandboxed tools that run after it, `git` or the agent's own `bash`, out of the project;
//! `path_symlink` / `symlink-at` answer "not permitted").

use super::http::HttpGrant;
use super::pipes::{GuestInput, GuestOutput};
use crate::config::{FsAccess, WasmLimits};
use crate::confine::Confined;
use crate::spawner::{Capture, SpawnRequest};
use std::path::{Path, PathBuf};
use wasmtime_wasi::{FsPerms, WasiCtxBuilder};

/// Everything a guest of one hook is granted, resolved for one event: two runs with equal
/// grants get the same sandbox, which is what lets an instance made ahead of its event
/// (`warm.rs`) stand in for one made at the event.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grants {
    argv: Vec<String>,
    /// `HOOK_EVENT`, `HOOK_PROJECT_DIR`, a dialect's variables, then the host variables the
    /// hook lists in `env` with their values as read for this event.
    env: Vec<(String, String)>,
    fs: FsAccess,
    /// The guest's `.` and the project root, canonical and checked to lie inside the project.
    cwd: PathBuf,
    root: PathBuf,
    /// The project root as the guest sees it (its absolute host path).
    project: String,
    /// Which directories those paths named when resolved (device, inode): a directory
    /// swapped in since is another directory, so an instance made before is not reused.
    dirs: Option<[(u64, u64); 2]>,
    /// Where its HTTP requests may go and which secrets they may carry (names only).
    http: std::sync::Arc<HttpGrant>,
}

impl Grants {
    /// The grants of `req`'s run in `confined`, reading the host variables the hook passes
    /// through now.
    pub fn of(
        req: &SpawnRequest,
        confined: &Confined,
        argv: &[String],
        limits: &WasmLimits,
    ) -> Grants {
        let mut env = vec![
            ("HOOK_EVENT".to_string(), req.event.as_str().to_string()),
            (
                "HOOK_PROJECT_DIR".to_string(),
                req.project_dir.to_string_lossy().into_owned(),
            ),
        ];
        // A dialect's own variables (`CLAUDE_PROJECT_DIR`, the session id, ...): values
        // hookhost knows, or under `hookhost hook --for X` the ones agent X set for it under
        // X's own names (`dialect::agent_variables`); no other host variable.
        env.extend(req.env.iter().cloned());
        for name in &limits.env {
            if let Ok(value) = std::env::var(name) {
                env.push((name.clone(), value));
            }
        }
        Grants {
            argv: argv.to_vec(),
            env,
            fs: limits.fs,
            cwd: confined.cwd.clone(),
            root: confined.root.clone(),
            project: req.project_dir.to_string_lossy().into_owned(),
            dirs: dir_id(&confined.cwd)
                .zip(dir_id(&confined.root))
                .map(|(a, b)| [a, b]),
            http: std::sync::Arc::new(HttpGrant {
                net: limits.net.clone(),
                secrets: limits.secrets.clone(),
            }),
        }
    }

    /// Where the guest's HTTP requests may go, and with which secrets.
    pub fn http(&self) -> &std::sync::Arc<HttpGrant> {
        &self.http
    }
}

#[cfg(unix)]
fn dir_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn dir_id(_: &Path) -> Option<(u64, u64)> {
    None
}

/// Builds the WASI context of `grants`, writing into `capture` and reading `stdin`. Errors
/// (a preopen that cannot be opened) are spawn failures.
pub fn wasi_builder(
    grants: &Grants,
    capture: &Capture,
    stdin: &GuestInput,
) -> Result<WasiCtxBuilder, String> {
    let mut b = WasiCtxBuilder::new();
    b.stdin(stdin.clone())
        .stdout(GuestOutput(capture.stdout.clone()))
        .stderr(GuestOutput(capture.stderr.clone()))
        .args(&grants.argv)
        .envs(&grants.env)
        .allow_tcp(false)
        .allow_udp(false)
        .allow_ip_name_lookup(false);
    let perms = match grants.fs {
        FsAccess::None => return Ok(b),
        FsAccess::Read => FsPerms::ReadOnly,
        FsAccess::Write => FsPerms::ReadWrite,
    };
    preopen(&mut b, &grants.cwd, ".", perms)?;
    preopen(&mut b, &grants.root, &grants.project, perms)?;
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
