//! The kernel sandbox of a command hook (docs/sandbox.md): what a sandboxed shell or
//! exec-form hook may touch, and the platform code that enforces it in the child before it
//! runs the hook's program.
//!
//! The runner decides *whether* a hook runs sandboxed and with which [`Grants`] (an
//! untrusted project hook: the reduced ones; a hook that declares grants: exactly those;
//! managed `requireSandbox`: every command hook); this module only enforces a [`Sandbox`] it
//! is handed. On Linux that is Landlock (ABI 3 or later: Linux 6.2) for the file system and
//! TCP ports, a seccomp filter for sockets and the calls no hook needs, `no_new_privs`, its
//! own session and rlimits (`linux.rs`); on macOS a `sandbox-exec` profile made from the
//! same grants (`macos.rs`, not tested in CI); elsewhere there is none, and a hook that must
//! run sandboxed does not run ([`support`] says why).

#[cfg(target_os = "linux")]
mod linux;
mod macos;

#[cfg(target_os = "linux")]
use linux as platform;
#[cfg(target_os = "macos")]
use macos as platform;

/// No sandbox for command hooks here.
#[cfg(not(any(target_os = "linux", target_os = "macos")))]
mod platform {
    use super::Sandbox;
    use std::path::Path;

    pub(super) fn support() -> Result<String, String> {
        Err(format!(
            "hookhost has no sandbox for command hooks on {}",
            std::env::consts::OS
        ))
    }

    pub(super) fn confine(
        _cmd: tokio::process::Command,
        _sandbox: &Sandbox,
        _project: &Path,
        _tmp: &Path,
        _timeout: std::time::Duration,
    ) -> Result<tokio::process::Command, String> {
        Err(support().unwrap_err())
    }
}

use crate::config::Grants;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The variables every sandboxed hook gets from hookhost's environment (when set), besides
/// those its grants name and hookhost's own (`HOOK_EVENT`, `HOOK_PROJECT_DIR`, the agent's
/// per dialect). Everything else, the user's tokens included, stays out.
pub const FIXED_ENV: &[&str] = &[
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "TZ",
];

/// Directories a sandboxed hook may read and run programs from, whatever its grants (the
/// system's programs and libraries, and the configuration they read). Those that do not exist
/// are left out.
pub const SYSTEM_READ: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/opt",
    "/nix/store",
];

/// A command hook to run sandboxed: its grants, and the files outside the project it must
/// read to run at all (its script, the program of the exec form and that program's install
/// directory, the `hooks/` folder beside a user's config file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sandbox {
    /// What it may do.
    pub grants: Grants,
    /// Files and directories it may read and execute besides the project and the system's.
    pub read: Vec<PathBuf>,
}

/// Why a sandbox cannot be set up here: the platform has none, or the kernel lacks what it
/// needs. Its text says what is missing.
pub fn support() -> Result<&'static str, &'static str> {
    static SUPPORT: std::sync::OnceLock<Result<String, String>> = std::sync::OnceLock::new();
    match SUPPORT.get_or_init(platform::support) {
        Ok(what) => Ok(what.as_str()),
        Err(why) => Err(why.as_str()),
    }
}

/// The environment of a sandboxed hook: [`FIXED_ENV`] and the granted names from hookhost's
/// own, `TMPDIR` pointing at its private temporary directory, then `own` (hookhost's
/// `HOOK_*` and the dialect's variables), which win.
pub(crate) fn environment(
    grants: &Grants,
    tmp: &Path,
    own: &[(String, String)],
) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = FIXED_ENV
        .iter()
        .copied()
        .chain(grants.env.iter().map(String::as_str))
        .filter_map(|name| std::env::var_os(name).map(|v| (OsString::from(name), v)))
        .collect();
    env.push(("TMPDIR".into(), tmp.as_os_str().to_owned()));
    for (k, v) in own {
        env.retain(|(name, _)| name != k.as_str());
        env.push((k.into(), v.into()));
    }
    env
}

/// The files a sandboxed command must read beyond the project and the system's directories,
/// each by its real path (symlinks and `..` resolved: a word's text decides nothing).
///
/// For every hook: the file of the program it starts (`program`), unless it lies under the
/// home directory and the hook is untrusted. For a hook whose grants are the user's own
/// (`user_grants`: trusted, not reduced), also: when that program lives in a `bin/`
/// directory outside the home directory, that directory's parent (a `/usr/local` or
/// `/opt/node` install holds its libraries beside `bin/`); the files the command names
/// (`./guard.sh`, `~/hooks/x.py` with `~/` expanded against `home`); and `config_hooks`, the
/// `hooks/` folder beside the config file of a hook that is not the project's. Never `/`, a
/// directory that holds a system directory, the home directory or one above it. An untrusted
/// hook's command opens nothing else: a word of it naming `~/.ssh/id_ed25519`, or a program
/// path through a symlink to `/`, grants nothing.
pub(crate) fn reads_of(
    words: &[String],
    program: Option<&Path>,
    (cwd, home): (&Path, Option<&Path>),
    config_hooks: Option<&Path>,
    user_grants: bool,
) -> Vec<PathBuf> {
    let home = home.map(|h| h.canonicalize().unwrap_or_else(|_| h.to_path_buf()));
    let under_home = |p: &Path| home.as_deref().is_some_and(|h| p.starts_with(h));
    // May this directory be granted? Not the root, not one that holds the home or a
    // system directory.
    let grantable_dir = |p: &Path| {
        p.parent().is_some()
            && !home.as_deref().is_some_and(|h| h.starts_with(p))
            && !SYSTEM_READ.iter().any(|s| Path::new(s).starts_with(p))
    };
    let mut read = Vec::new();
    if let Some(program) = program.and_then(|p| p.canonicalize().ok()) {
        if user_grants || !under_home(&program) {
            read.push(program.clone());
        }
        if user_grants
            && let Some(bin) = program.parent()
            && bin.file_name().is_some_and(|n| n == "bin")
            && let Some(prefix) = bin.parent()
            && grantable_dir(prefix)
            && !under_home(prefix)
        {
            read.push(prefix.to_path_buf());
        }
    }
    if user_grants {
        for word in words {
            let path = match (word.strip_prefix("~/"), home.as_deref()) {
                (Some(rest), Some(home)) => home.join(rest),
                _ if word.contains('/') => cwd.join(word),
                _ => continue,
            };
            if let Ok(real) = path.canonicalize()
                && real.is_file()
            {
                read.push(real);
            }
        }
        if let Some(dir) = config_hooks.and_then(|d| d.canonicalize().ok())
            && dir.is_dir()
            && grantable_dir(&dir)
        {
            read.push(dir);
        }
    }
    read.sort();
    read.dedup();
    read
}

/// One line for `run`'s trace, `explain` and the decision log: `sandboxed (fs read, env the
/// fixed set, net none, memory 1024 MiB)`.
pub fn describe(sandbox: &Sandbox) -> String {
    format!("sandboxed ({})", sandbox.grants.summary())
}

/// A temporary directory only this run of the hook may write (its `TMPDIR`): under `/tmp`
/// (never `$TMPDIR`, which a project may set), mode 0700, removed after the run.
pub(crate) fn private_tmp() -> Result<tempfile::TempDir, String> {
    tempfile::Builder::new()
        .prefix("hookhost-sandbox-")
        .tempdir_in(if cfg!(unix) {
            Path::new("/tmp")
        } else {
            Path::new(".")
        })
        .map_err(|e| format!("cannot make the sandboxed hook's temporary directory in /tmp: {e}"))
}

/// `cmd` (the hook's program and arguments, nothing else set yet) made to run in `sandbox`:
/// the platform's confinement applied before the program runs, and the environment
/// replaced. `Err`: it cannot be, and the hook must not run (the text says why). The
/// returned guard holds what must live as long as the hook (its temporary directory).
pub(crate) fn confine(
    cmd: tokio::process::Command,
    sandbox: &Sandbox,
    project: &Path,
    timeout: std::time::Duration,
    own_env: &[(String, String)],
) -> Result<(tokio::process::Command, Guard), String> {
    support().map_err(str::to_string)?;
    let tmp = private_tmp()?;
    let mut cmd = platform::confine(cmd, sandbox, project, tmp.path(), timeout)?;
    cmd.env_clear();
    cmd.envs(environment(&sandbox.grants, tmp.path(), own_env));
    Ok((cmd, Guard { _tmp: tmp }))
}

/// Why the sandbox could not run the hook's program, when that is how it ended (the Linux
/// helper's own exit code and message); `None` for an ordinary ending.
pub(crate) fn setup_failure(code: i32, stderr: &[u8]) -> Option<String> {
    #[cfg(target_os = "linux")]
    return linux::helper_failure(code, stderr);
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (code, stderr);
        None
    }
}

/// What lives as long as a sandboxed hook: its private temporary directory, removed when the
/// guard goes, even where the hook took the permissions off a directory of it.
#[derive(Debug)]
pub(crate) struct Guard {
    _tmp: tempfile::TempDir,
}

impl Drop for Guard {
    fn drop(&mut self) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fn open_up(dir: &Path) {
                let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
                for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                    // Not followed through a symlink (`file_type` does not follow).
                    if entry.file_type().is_ok_and(|t| t.is_dir()) {
                        open_up(&entry.path());
                    }
                }
            }
            open_up(self._tmp.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_is_the_fixed_set_the_grants_and_hookhosts_own() {
        let grants = Grants {
            env: vec!["HOOKHOST_SANDBOX_TEST_GRANTED".into()],
            ..Grants::default()
        };
        // SAFETY-free: a test-only variable no other test reads.
        let own = vec![("HOOK_EVENT".to_string(), "PreToolUse".to_string())];
        let env = environment(&grants, Path::new("/tmp/x"), &own);
        let names: Vec<_> = env
            .iter()
            .map(|(k, _)| k.to_string_lossy().into_owned())
            .collect();
        assert!(names.contains(&"TMPDIR".to_string()));
        assert!(names.contains(&"HOOK_EVENT".to_string()));
        for (k, _) in std::env::vars_os() {
            let k = k.to_string_lossy().into_owned();
            if !FIXED_ENV.contains(&k.as_str()) && k != "HOOK_EVENT" && k != "TMPDIR" {
                assert!(!names.contains(&k), "{k} leaked into a sandboxed hook");
            }
        }
    }

    #[test]
    fn reads_cover_the_script_the_program_and_its_install() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let home = root.join("home");
        let bin = root.join("opt/node/bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(home.join(".ssh")).unwrap();
        std::fs::write(home.join(".ssh/id"), "").unwrap();
        std::fs::write(bin.join("node"), "").unwrap();
        std::fs::write(root.join("guard.sh"), "").unwrap();
        let words: Vec<String> = ["sh", "./guard.sh", "./missing.sh", "~/.ssh/id"]
            .map(String::from)
            .to_vec();
        let at = (root.as_path(), Some(home.as_path()));
        let read = reads_of(&words, Some(&bin.join("node")), at, None, true);
        assert!(read.contains(&root.join("guard.sh")), "{read:?}");
        assert!(read.contains(&bin.join("node")));
        assert!(read.contains(&root.join("opt/node")), "{read:?}");
        assert!(!read.iter().any(|p| p.ends_with("missing.sh")));
        // An untrusted hook's words open nothing, nor its program's install: only the program.
        let read = reads_of(&words, Some(&bin.join("node")), at, None, false);
        assert_eq!(read, vec![bin.join("node")]);
        // A program under the home directory: itself (trusted), not its install.
        let cargo_bin = home.join(".cargo/bin");
        std::fs::create_dir_all(&cargo_bin).unwrap();
        std::fs::write(cargo_bin.join("tool"), "").unwrap();
        let read = reads_of(&[], Some(&cargo_bin.join("tool")), at, None, true);
        assert_eq!(read, vec![cargo_bin.join("tool")]);
        assert!(reads_of(&[], Some(&cargo_bin.join("tool")), at, None, false).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_program_path_through_a_link_to_the_root_grants_no_directory() {
        // `./r/bin/sh` with `r -> /`, or `/usr/../bin/sh`: the real program, never `/`.
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::os::unix::fs::symlink("/", root.join("r")).unwrap();
        let at = (root.as_path(), None);
        for program in [root.join("r/bin/sh"), PathBuf::from("/usr/../bin/sh")] {
            for trusted in [false, true] {
                let read = reads_of(&[], Some(&program), at, None, trusted);
                assert!(
                    read.iter().all(|p| p.is_file()),
                    "{program:?} (trusted: {trusted}) granted a directory: {read:?}"
                );
            }
        }
    }
}
