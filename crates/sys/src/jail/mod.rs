//! A process confining itself before it runs a program: the enforcement half of the command
//! hooks' sandbox (the engine's `spawner/sandbox` decides what a hook may do and hands a
//! [`Spec`] here).
//!
//! The same [`Spec`] is applied in one of two places, with the same code ([`Prepared::enter`]):
//! - in the small `hookhost-sandbox` executable, which the engine starts with `posix_spawn`
//!   (no copy of the engine's memory) and which confines itself and then runs the hook's
//!   program: a spec travels to it as arguments ([`Spec::to_args`], [`parse_args`]);
//! - in a forked child of the caller between `fork` and `exec`, where no such executable is
//!   installed (an embedding program). That costs a fork of the caller, which for a
//!   long-lived process with a large heap is milliseconds.
//!
//! Only Linux enforces a spec (`linux.rs`: Landlock, seccomp, `no_new_privs`, dropped
//! capabilities, a session of its own, rlimits); elsewhere [`support`] says there is none.

#[cfg(target_os = "linux")]
mod bpf;
#[cfg(target_os = "linux")]
mod linux;

#[cfg(target_os = "linux")]
pub use linux::{Prepared, prepare, support};

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

/// The exit code of `hookhost-sandbox` when it cannot confine itself or start the program;
/// its stderr then holds one line starting with [`FAILURE_PREFIX`].
pub const SETUP_FAILED: u8 = 125;

/// How `hookhost-sandbox` starts the line that says why it could not run the program.
pub const FAILURE_PREFIX: &str = "hookhost-sandbox: ";

/// The first argument of `hookhost-sandbox`: the version of this argument format, so that a
/// helper left over from another hookhost refuses rather than misreads a spec.
pub const ARGS_VERSION: &str = "--jail-v1";

/// What a path of a [`Spec`] may be used for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Read files and directories, run programs (the system's directories, the project of a
    /// read-only hook, its script).
    ReadExec,
    /// Read files and list directories, nothing else (`/proc`).
    ReadOnly,
    /// Read and write an existing file, nothing else (`/dev/null` and the like).
    Device,
    /// Everything but making device nodes and device `ioctl`s (the hook's own temporary
    /// directory).
    Private,
    /// Everything (the project of a hook with a write grant).
    All,
}

impl Access {
    const ALL: [(Access, &'static str); 5] = [
        (Access::ReadExec, "--rx"),
        (Access::ReadOnly, "--ro"),
        (Access::Device, "--dev"),
        (Access::Private, "--private"),
        (Access::All, "--rw"),
    ];

    fn flag(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(a, _)| *a == self)
            .map_or("--rx", |(_, f)| f)
    }
}

/// The resource limits of a confined process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// `RLIMIT_NPROC`: processes (threads) of the user, all of them.
    pub processes: u64,
    /// `RLIMIT_CPU`, seconds.
    pub cpu_seconds: u64,
    /// `RLIMIT_DATA`, bytes.
    pub data_bytes: u64,
    /// `RLIMIT_FSIZE`, bytes: the largest file it may write.
    pub file_bytes: u64,
}

/// What a confined process may do: the paths it may use and how, the TCP ports it may
/// connect to, whether it may open sockets at all and change files' metadata, its limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// Each path and what it may be used for (one that does not exist is skipped).
    pub paths: Vec<(PathBuf, Access)>,
    /// TCP ports it may connect to (with `net`).
    pub ports: Vec<u16>,
    /// Whether it may open TCP and UDP sockets (never any other kind).
    pub net: bool,
    /// Whether it may change modes, owners and times of files (`chmod`, `chown`, `utime`).
    pub metadata: bool,
    /// Its resource limits.
    pub limits: Limits,
}

impl Spec {
    /// The arguments of `hookhost-sandbox` that carry this spec, [`ARGS_VERSION`] first; the
    /// program and its arguments follow a `--`.
    pub fn to_args(&self) -> Vec<OsString> {
        let mut out: Vec<OsString> = vec![ARGS_VERSION.into()];
        for (path, access) in &self.paths {
            out.push(access.flag().into());
            out.push(path.clone().into_os_string());
        }
        for port in &self.ports {
            out.push("--port".into());
            out.push(port.to_string().into());
        }
        if self.net {
            out.push("--net".into());
        }
        if self.metadata {
            out.push("--metadata".into());
        }
        let l = &self.limits;
        for (flag, value) in [
            ("--nproc", l.processes),
            ("--cpu", l.cpu_seconds),
            ("--data", l.data_bytes),
            ("--fsize", l.file_bytes),
        ] {
            out.push(flag.into());
            out.push(value.to_string().into());
        }
        out.push("--".into());
        out
    }
}

/// A spec and the command line to run in it, read back from `hookhost-sandbox`'s arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// What the program may do.
    pub spec: Spec,
    /// The program (a path, or a name looked up on the `PATH` of the environment).
    pub program: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
}

/// Why `hookhost-sandbox`'s arguments cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgsError {
    /// The first argument is not [`ARGS_VERSION`]: another hookhost's helper, or a person.
    #[error(
        "this is hookhost's sandbox helper, which hookhost starts itself; its arguments are not in the format of this version ({ARGS_VERSION}): reinstall hookhost so that hookhost and hookhost-sandbox come from the same release"
    )]
    Version,
    /// A flag this version does not know.
    #[error("unknown argument {0:?}")]
    Unknown(String),
    /// A flag without its value, or a value that is not a number.
    #[error("{flag} needs a value{}", if .got.is_empty() { String::new() } else { format!(", got {:?}", .got) })]
    Value {
        /// The flag.
        flag: String,
        /// What followed it.
        got: String,
    },
    /// No program after `--`.
    #[error("no program to run after `--`")]
    NoProgram,
}

/// Reads `hookhost-sandbox`'s arguments (without its own name).
pub fn parse_args(args: &[OsString]) -> Result<Invocation, ArgsError> {
    let mut it = args.iter();
    if it.next().map(OsString::as_os_str) != Some(OsStr::new(ARGS_VERSION)) {
        return Err(ArgsError::Version);
    }
    let mut spec = Spec {
        paths: Vec::new(),
        ports: Vec::new(),
        net: false,
        metadata: false,
        limits: Limits {
            processes: 0,
            cpu_seconds: 0,
            data_bytes: 0,
            file_bytes: 0,
        },
    };
    while let Some(arg) = it.next() {
        let flag = arg.to_string_lossy();
        let mut value = || {
            it.next().cloned().ok_or_else(|| ArgsError::Value {
                flag: flag.to_string(),
                got: String::new(),
            })
        };
        let number = |v: OsString| {
            v.to_str()
                .and_then(|s| s.parse::<u64>().ok())
                .ok_or_else(|| ArgsError::Value {
                    flag: flag.to_string(),
                    got: v.to_string_lossy().into_owned(),
                })
        };
        if let Some((access, _)) = Access::ALL.iter().find(|(_, f)| *f == flag) {
            spec.paths.push((PathBuf::from(value()?), *access));
            continue;
        }
        match flag.as_ref() {
            "--" => break,
            "--net" => spec.net = true,
            "--metadata" => spec.metadata = true,
            "--port" => {
                let v = value()?;
                let port = number(v.clone())?;
                spec.ports
                    .push(u16::try_from(port).map_err(|_| ArgsError::Value {
                        flag: flag.to_string(),
                        got: v.to_string_lossy().into_owned(),
                    })?);
            }
            "--nproc" => spec.limits.processes = number(value()?)?,
            "--cpu" => spec.limits.cpu_seconds = number(value()?)?,
            "--data" => spec.limits.data_bytes = number(value()?)?,
            "--fsize" => spec.limits.file_bytes = number(value()?)?,
            other => return Err(ArgsError::Unknown(other.to_string())),
        }
    }
    let program = it.next().cloned().ok_or(ArgsError::NoProgram)?;
    Ok(Invocation {
        spec,
        program,
        args: it.cloned().collect(),
    })
}

/// Where no kernel sandbox exists.
#[cfg(not(target_os = "linux"))]
pub fn support() -> Result<String, String> {
    Err(format!(
        "hookhost has no kernel sandbox for command hooks on {}",
        std::env::consts::OS
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> Spec {
        Spec {
            paths: vec![
                ("/usr".into(), Access::ReadExec),
                ("/proc".into(), Access::ReadOnly),
                ("/dev/null".into(), Access::Device),
                ("/tmp/x y".into(), Access::Private),
                ("/p".into(), Access::All),
            ],
            ports: vec![443, 8080],
            net: true,
            metadata: true,
            limits: Limits {
                processes: 300,
                cpu_seconds: 3,
                data_bytes: 1 << 30,
                file_bytes: 1 << 30,
            },
        }
    }

    #[test]
    fn a_spec_survives_the_command_line() {
        let mut args = spec().to_args();
        args.extend(["sh".into(), "-c".into(), "echo --rx".into()]);
        let got = parse_args(&args).unwrap();
        assert_eq!(got.spec, spec());
        assert_eq!(got.program, "sh");
        assert_eq!(got.args, vec![OsString::from("-c"), "echo --rx".into()]);
    }

    #[test]
    fn bad_command_lines_are_refused() {
        let parse =
            |args: &[&str]| parse_args(&args.iter().map(OsString::from).collect::<Vec<_>>());
        assert_eq!(parse(&["--rx", "/", "--", "sh"]), Err(ArgsError::Version));
        assert_eq!(parse(&[]), Err(ArgsError::Version));
        assert_eq!(
            parse(&[ARGS_VERSION, "--bogus", "--", "sh"]),
            Err(ArgsError::Unknown("--bogus".into()))
        );
        assert!(matches!(
            parse(&[ARGS_VERSION, "--port", "70000", "--", "sh"]),
            Err(ArgsError::Value { .. })
        ));
        assert!(matches!(
            parse(&[ARGS_VERSION, "--rx"]),
            Err(ArgsError::Value { .. })
        ));
        assert_eq!(parse(&[ARGS_VERSION, "--"]), Err(ArgsError::NoProgram));
    }
}
