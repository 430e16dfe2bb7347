//! The macOS sandbox: a `sandbox-exec` profile made from the same grants as Linux's
//! Landlock rules (the system's directories readable, the project as granted, a private
//! temporary directory, no network or the granted ports). **Not tested in CI** (no macOS
//! runner here): the profile is built and unit-tested on every platform, and only macOS runs
//! it. `sandbox-exec` is deprecated by Apple but still shipped and used by the tools that
//! sandbox on macOS; when it is missing, hooks that must run sandboxed do not run.

#![cfg_attr(not(target_os = "macos"), allow(dead_code))]

use super::{SYSTEM_READ, Sandbox};
use crate::config::FsAccess;
use std::path::Path;

/// Where the tool lives.
pub(super) const SANDBOX_EXEC: &str = "/usr/bin/sandbox-exec";

/// The macOS system directories a hook reads besides [`SYSTEM_READ`].
const MACOS_READ: &[&str] = &[
    "/System",
    "/Library",
    "/private/etc",
    "/private/var/db",
    "/Applications/Xcode.app",
    "/opt/homebrew",
    "/usr/local",
];

/// A profile string literal: `"` and `\` escaped.
fn quoted(path: &Path) -> String {
    let text = path.to_string_lossy();
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The SBPL profile for `sandbox` in `project`, with `tmp` as its private temporary
/// directory.
pub(super) fn profile(sandbox: &Sandbox, project: &Path, tmp: &Path) -> String {
    let mut p = String::from(
        "(version 1)\n(deny default)\n(allow process-fork)\n(allow process-exec)\n(allow signal (target same-sandbox))\n(allow sysctl-read)\n(allow mach-lookup)\n(allow file-read-metadata)\n",
    );
    let mut read = |path: &Path| {
        p.push_str(&format!("(allow file-read* (subpath {}))\n", quoted(path)));
    };
    for dir in SYSTEM_READ.iter().chain(MACOS_READ) {
        read(Path::new(dir));
    }
    for path in &sandbox.read {
        read(path);
    }
    if sandbox.grants.fs != FsAccess::None {
        read(project);
    }
    p.push_str(&format!(
        "(allow file-read* file-write* (subpath {}))\n",
        quoted(tmp)
    ));
    if sandbox.grants.fs == FsAccess::Write {
        p.push_str(&format!(
            "(allow file-write* (subpath {}))\n",
            quoted(project)
        ));
    }
    p.push_str("(allow file-read* file-write-data (literal \"/dev/null\") (literal \"/dev/zero\") (literal \"/dev/urandom\") (literal \"/dev/random\"))\n");
    for target in &sandbox.grants.net {
        p.push_str(&format!(
            "(allow network-outbound (remote tcp \"*:{}\"))\n",
            target.port
        ));
    }
    if !sandbox.grants.net.is_empty() {
        p.push_str("(allow network-outbound (remote udp \"*:53\"))\n(allow system-socket)\n");
    }
    p
}

/// Whether `sandbox-exec` is there.
pub(super) fn support() -> Result<String, String> {
    if Path::new(SANDBOX_EXEC).is_file() {
        Ok("sandbox-exec".to_string())
    } else {
        Err(format!(
            "{SANDBOX_EXEC} is missing, so command hooks cannot run sandboxed here"
        ))
    }
}

/// `cmd` (the hook's program and arguments) made to run under `sandbox-exec` with the
/// profile of `sandbox`.
#[cfg(target_os = "macos")]
pub(super) fn confine(
    cmd: tokio::process::Command,
    sandbox: &Sandbox,
    project: &Path,
    tmp: &Path,
    _timeout: std::time::Duration,
) -> Result<tokio::process::Command, String> {
    let hook = cmd.as_std();
    let mut wrapped = tokio::process::Command::new(SANDBOX_EXEC);
    wrapped
        .arg("-p")
        .arg(profile(sandbox, project, tmp))
        .arg(hook.get_program())
        .args(hook.get_args());
    Ok(wrapped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{FsAccess, Grants, NetTarget};

    #[test]
    fn the_profile_follows_the_grants() {
        let mut sandbox = Sandbox {
            grants: Grants::default(),
            read: vec!["/h/hooks/x \"q\".sh".into()],
        };
        let p = profile(&sandbox, Path::new("/p"), Path::new("/tmp/t"));
        assert!(p.starts_with("(version 1)\n(deny default)"));
        assert!(p.contains("(allow file-read* (subpath \"/p\"))"));
        assert!(!p.contains("(allow file-write* (subpath \"/p\"))"));
        assert!(p.contains("(subpath \"/h/hooks/x \\\"q\\\".sh\")"), "{p}");
        assert!(!p.contains("network-outbound"));
        sandbox.grants.fs = FsAccess::Write;
        sandbox.grants.net = vec![NetTarget::parse("api.example.com:443").unwrap()];
        let p = profile(&sandbox, Path::new("/p"), Path::new("/tmp/t"));
        assert!(p.contains("(allow file-write* (subpath \"/p\"))"));
        assert!(p.contains("(remote tcp \"*:443\")"));
        sandbox.grants.fs = FsAccess::None;
        let p = profile(&sandbox, Path::new("/p"), Path::new("/tmp/t"));
        assert!(!p.contains("\"/p\""));
    }
}
