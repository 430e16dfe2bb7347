//! `hookhost-sandbox`: the sandbox helper of command hooks. hookhost starts a sandboxed hook
//! as `hookhost-sandbox --jail-v1 SPEC... -- PROGRAM ARGS...` (with the hook's environment,
//! working directory and pipes already set); it confines itself to the spec
//! (`hookhost_sys::jail`: Landlock, seccomp, no new privileges, no capabilities, its own
//! session, rlimits) and then runs the program in its place. When it cannot, it exits 125
//! with one line on stderr saying why, which hookhost reports as the hook's spawn failure:
//! the program never runs unconfined.
//!
//! It exists so that the engine starts a hook with `posix_spawn` rather than a fork of
//! itself (docs/sandbox.md); it is not meant to be run by hand.

use hookhost_sys::jail;
use std::ffi::OsString;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    match run(&args) {
        Ok(never) => match never {},
        Err(why) => {
            eprintln!("{}{why}", jail::FAILURE_PREFIX);
            ExitCode::from(jail::SETUP_FAILED)
        }
    }
}

#[cfg(target_os = "linux")]
fn run(args: &[OsString]) -> Result<std::convert::Infallible, String> {
    use std::os::unix::process::CommandExt;
    let inv = jail::parse_args(args).map_err(|e| e.to_string())?;
    let prepared = jail::prepare(&inv.spec)?;
    prepared
        .enter()
        .map_err(|e| format!("cannot enter the sandbox: {e}"))?;
    let err = std::process::Command::new(&inv.program)
        .args(&inv.args)
        .exec();
    Err(format!(
        "cannot start {}: {err}",
        std::path::Path::new(&inv.program).display()
    ))
}

#[cfg(not(target_os = "linux"))]
fn run(args: &[OsString]) -> Result<std::convert::Infallible, String> {
    jail::parse_args(args).map_err(|e| e.to_string())?;
    Err(jail::support().unwrap_err())
}
