//! The Linux sandbox of a command hook: its [`Sandbox`] as the paths, ports and limits of a
//! `hookhost_sys::jail` [`Spec`], and the process that enters it.
//!
//! The enforcement (Landlock ABI 3 or later, seccomp, `no_new_privs`, no capabilities, a
//! session of its own, rlimits) is `hookhost_sys::jail`; it runs in one of two places:
//! - **`hookhost-sandbox`**, the small executable installed beside `hookhost`: the hook's
//!   process is started as `hookhost-sandbox SPEC -- PROGRAM ARGS...` with `posix_spawn`,
//!   which does not copy this process's memory; the helper confines itself and execs the
//!   program. This keeps a sandboxed hook's start within a millisecond of an unsandboxed one
//!   in a long-lived runner (the warm engine, an embedding agent) whose heap is large.
//! - where there is no helper (a program that embeds the engine, with no `hookhost-sandbox`
//!   beside it), in the forked child between `fork` and `exec`: the same confinement, at the
//!   cost of a fork of this process (milliseconds for a large one).

use super::{SYSTEM_READ, Sandbox};
use crate::config::FsAccess;
use hookhost_sys::jail::{self, Access, Limits, Spec};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// How many processes a sandboxed hook may add to those the system already has (a bound on
/// a fork bomb; the kernel exempts root from it).
const PROCESS_ALLOWANCE: u64 = 256;

/// The largest file a sandboxed hook may write (`RLIMIT_FSIZE`): it cannot fill `/tmp`.
const MAX_FILE_BYTES: u64 = 1 << 30;

/// The helper's file name.
pub const HELPER: &str = "hookhost-sandbox";

/// Whether this kernel can sandbox a hook: `Ok` names what it has and how hooks enter it.
pub(super) fn support() -> Result<String, String> {
    let kernel = jail::support()?;
    Ok(match helper() {
        Some(path) => format!("{kernel}, entered through {}", path.display()),
        None => format!(
            "{kernel}, entered in a fork of this process ({HELPER} is not installed beside it: each sandboxed hook costs a copy of this process)"
        ),
    })
}

/// `hookhost-sandbox` beside this executable (or, for cargo's test and bench executables in
/// `deps/`, beside the binaries one level up), when it is an executable file. Never taken
/// from a variable: a project could set it.
pub fn helper() -> Option<&'static Path> {
    static HELPER_PATH: OnceLock<Option<PathBuf>> = OnceLock::new();
    HELPER_PATH
        .get_or_init(|| {
            let exe = std::env::current_exe().ok()?;
            let dir = exe.parent()?;
            let mut dirs = vec![dir];
            if dir.file_name().is_some_and(|n| n == "deps") {
                dirs.extend(dir.parent());
            }
            dirs.into_iter().map(|d| d.join(HELPER)).find(|p| {
                use std::os::unix::fs::PermissionsExt;
                p.metadata()
                    .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            })
        })
        .as_deref()
}

/// The processes that exist now (every thread counts against `RLIMIT_NPROC`): the total of
/// `/proc/loadavg`'s fourth field, which bounds this user's count from above.
fn processes_now() -> u64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| {
            let field = s.split_whitespace().nth(3)?;
            field.split_once('/')?.1.parse().ok()
        })
        .unwrap_or(32_768)
}

/// The jail spec of `sandbox` for a hook in `project` with `tmp` as its own directory.
fn spec(sandbox: &Sandbox, project: &Path, tmp: &Path, timeout: std::time::Duration) -> Spec {
    let mut paths: Vec<(PathBuf, Access)> = SYSTEM_READ
        .iter()
        .map(|d| (PathBuf::from(d), Access::ReadExec))
        .collect();
    paths.push(("/proc".into(), Access::ReadOnly));
    for dev in [
        "/dev/null",
        "/dev/zero",
        "/dev/full",
        "/dev/random",
        "/dev/urandom",
    ] {
        paths.push((dev.into(), Access::Device));
    }
    paths.push((tmp.to_path_buf(), Access::Private));
    match sandbox.grants.fs {
        FsAccess::Write => paths.push((project.to_path_buf(), Access::All)),
        FsAccess::Read => paths.push((project.to_path_buf(), Access::ReadExec)),
        FsAccess::None => {}
    }
    paths.extend(sandbox.read.iter().map(|p| (p.clone(), Access::ReadExec)));
    let memory = sandbox
        .grants
        .memory_mib
        .unwrap_or(crate::config::SANDBOX_MEMORY_MIB);
    Spec {
        paths,
        ports: sandbox.grants.net.iter().map(|t| t.port).collect(),
        net: !sandbox.grants.net.is_empty(),
        metadata: sandbox.grants.fs == FsAccess::Write,
        limits: Limits {
            processes: processes_now() + PROCESS_ALLOWANCE,
            cpu_seconds: timeout.as_secs() + 1,
            data_bytes: memory.saturating_mul(1024 * 1024),
            file_bytes: MAX_FILE_BYTES,
        },
    }
}

/// `cmd` (the hook's program and arguments) made to run confined to `sandbox`: through the
/// helper when it is installed, else confined in the forked child.
pub(super) fn confine(
    cmd: tokio::process::Command,
    sandbox: &Sandbox,
    project: &Path,
    tmp: &Path,
    timeout: std::time::Duration,
) -> Result<tokio::process::Command, String> {
    let spec = spec(sandbox, project, tmp, timeout);
    if let Some(helper) = helper() {
        let hook = cmd.as_std();
        let mut wrapped = tokio::process::Command::new(helper);
        wrapped
            .args(spec.to_args())
            .arg(hook.get_program())
            .args(hook.get_args());
        return Ok(wrapped);
    }
    let prepared = jail::prepare(&spec)?;
    let mut cmd = cmd;
    // SAFETY: `enter` makes only async-signal-safe system calls and allocates nothing
    // (hookhost_sys::jail).
    #[allow(unsafe_code)]
    unsafe {
        cmd.pre_exec(move || prepared.enter());
    }
    Ok(cmd)
}

/// The helper's account of why it could not run the hook (its exit code and first stderr
/// line), as the text of a spawn failure; `None` for any other ending.
pub(super) fn helper_failure(code: i32, stderr: &[u8]) -> Option<String> {
    if code != i32::from(jail::SETUP_FAILED) || helper().is_none() {
        return None;
    }
    let text = String::from_utf8_lossy(stderr);
    let line = text.lines().next()?;
    line.strip_prefix(jail::FAILURE_PREFIX).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_process_count_is_read() {
        assert!(processes_now() > 0);
    }

    #[test]
    fn a_spec_grants_the_project_as_the_grants_say() {
        let mut sandbox = Sandbox {
            grants: crate::config::Grants::default(),
            read: vec!["/opt/tool/bin/x".into()],
        };
        let project = Path::new("/p");
        let at = |s: &Spec| s.paths.iter().find(|(p, _)| p == project).map(|(_, a)| *a);
        sandbox.grants.fs = FsAccess::Read;
        let s = spec(
            &sandbox,
            project,
            Path::new("/tmp/t"),
            std::time::Duration::from_secs(2),
        );
        assert_eq!(at(&s), Some(Access::ReadExec));
        assert!(!s.net && !s.metadata && s.ports.is_empty());
        assert_eq!(s.limits.cpu_seconds, 3);
        assert!(
            s.paths
                .contains(&("/opt/tool/bin/x".into(), Access::ReadExec))
        );
        assert!(s.paths.contains(&("/tmp/t".into(), Access::Private)));
        sandbox.grants.fs = FsAccess::Write;
        let s = spec(
            &sandbox,
            project,
            Path::new("/tmp/t"),
            std::time::Duration::from_secs(2),
        );
        assert_eq!(at(&s), Some(Access::All));
        assert!(s.metadata);
        sandbox.grants.fs = FsAccess::None;
        let s = spec(
            &sandbox,
            project,
            Path::new("/tmp/t"),
            std::time::Duration::from_secs(2),
        );
        assert_eq!(at(&s), None);
    }
}
