//! `hookhost-warm`: the thin client. Takes the arguments of `hookhost` (`hookhost-warm hook
//! --for claude`), forwards them with the payload to the warm engine (`hookhost_warm::client`)
//! and exits with its answer; when no engine answers (or on a platform without one), runs the
//! `hookhost` next to it (else on `PATH`) in its place, so the answer is the same either way.
//! It is small on purpose: it starts in about the time `sh -c true` takes.

use std::ffi::OsString;
use std::process::ExitCode;

fn main() -> ExitCode {
    let me = std::env::current_exe().unwrap_or_default();
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let Some(exe) = hookhost_exe(&me) else {
        eprintln!(
            "hookhost-warm: cannot find the `hookhost` executable next to {} or on PATH; install hookhost, or put it on PATH",
            me.display()
        );
        return ExitCode::from(1);
    };
    run(&exe, &args)
}

#[cfg(unix)]
fn hookhost_exe(me: &std::path::Path) -> Option<std::path::PathBuf> {
    hookhost_warm::client::hookhost_exe(me)
}

#[cfg(unix)]
fn run(exe: &std::path::Path, args: &[OsString]) -> ExitCode {
    use hookhost_warm::client::{self, Forwarded, Mode, NO_WARM_FLAG, WARM_START_FLAG};
    let (flag, stdin) = match client::forward(Mode::from_env(), exe, args) {
        Forwarded::Answered(code) => return ExitCode::from(code),
        Forwarded::NotUsed => (NO_WARM_FLAG, None),
        // `hookhost` runs it, and starts an engine if the user's switch allows.
        Forwarded::NoEngine(_) => (WARM_START_FLAG, None),
        Forwarded::Returned(stdin) => (NO_WARM_FLAG, stdin),
    };
    let e = client::run_in_place(exe, flag, args, stdin);
    eprintln!("hookhost-warm: cannot run {}: {e}", exe.display());
    ExitCode::from(1)
}

#[cfg(not(unix))]
fn hookhost_exe(me: &std::path::Path) -> Option<std::path::PathBuf> {
    let sibling = me.with_file_name("hookhost.exe");
    sibling.is_file().then_some(sibling)
}

#[cfg(not(unix))]
fn run(exe: &std::path::Path, args: &[OsString]) -> ExitCode {
    match std::process::Command::new(exe).args(args).status() {
        Ok(s) => ExitCode::from(u8::try_from(s.code().unwrap_or(1)).unwrap_or(1)),
        Err(e) => {
            eprintln!("hookhost-warm: cannot run {}: {e}", exe.display());
            ExitCode::from(1)
        }
    }
}
