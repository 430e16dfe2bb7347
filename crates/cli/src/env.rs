//! Where each entry point takes the user's home and the cache and store roots from
//! (`hookhost::locations`, through the engine's one set-up, `hookhost::setup`): the commands
//! a user runs (`run`, `check`, `list`, `trust`, `compile`) keep `$HOME`; the outbound adapter
//! (`hook`) and `serve` take the account's home from the password database, or `--home`.
//! Both vet the directory variables against the project and settle the roots once for the
//! process; what they refuse is said on stderr here.

use hookhost::config::ConfigPaths;
use hookhost::locations;
use hookhost::setup::{Home, Setup};
use std::path::{Path, PathBuf};

/// The set-up of a command the user runs: the home directory from `$HOME`, the cache and
/// store roots settled for `project` (refused variables warned about on stderr).
pub fn user_setup(project: &Path) -> Setup {
    shown(Setup::new(project, Home::FromEnv))
}

/// The config paths of a command the user runs ([`user_setup`]).
pub fn user_paths(project: &Path) -> ConfigPaths {
    user_setup(project).paths().clone()
}

/// The set-up of the adapter and `serve`: the user's files under `home` (from
/// [`runner_home`]), the cache and store roots settled for `project`.
pub fn runner_setup(project: &Path, home: Option<PathBuf>) -> Setup {
    shown(Setup::new(project, Home::Given(home)))
}

/// The adapter's and `serve`'s home directory: `--home`, else the account's (never `$HOME`;
/// a `$HOME` naming another directory is said once on stderr).
pub fn runner_home(home: Option<PathBuf>) -> Option<PathBuf> {
    let home = locations::runner_home(home, "--home");
    if let Some(note) = &home.note {
        eprintln!("{note}");
    }
    home.dir
}

/// `setup`, its warnings printed.
fn shown(setup: Setup) -> Setup {
    for w in setup.warnings() {
        eprintln!("{w}");
    }
    setup
}

/// Under `all`, an unreadable trust file: said, and every project hook is untrusted.
pub fn warn_trust(warning: Option<&hookhost::TrustError>) {
    if let Some(e) = warning {
        eprintln!("hookhost: warning: {e}; treating every project hook as untrusted");
    }
}

/// What the process does when its stdout is closed early (`hookhost list | head -3`): it
/// ends quietly, as a program killed by SIGPIPE does (the shell reports 141; no panic text,
/// no "Broken pipe" error). Two ways, by subcommand:
///
/// - The commands that only print (`list`, `check`, `log`, `explain`, `trust`, `inspect`,
///   `completions`, `man`) restore SIGPIPE's default action: the write that finds the pipe
///   closed ends the process, as it would end `ls` or `git log`.
/// - Every other command keeps SIGPIPE ignored (Rust's default), because it runs hooks or
///   serves clients: with the default action, writing an event's payload to a hook that
///   exits without reading it, or answering a `serve` client that left, would kill hookhost
///   and change (or lose) an agent's answer. For these, a print that finds stdout closed
///   ends the process the same quiet way (from the panic hook, after the event was run and
///   logged); `hook` treats its closed stdout as the agent having left (hook.rs).
pub(crate) fn quiet_when_stdout_closes(command: &super::Command) {
    #[cfg(unix)]
    {
        use super::Command as C;
        let only_prints = matches!(
            command,
            C::List(_)
                | C::Check(_)
                | C::Log(_)
                | C::Explain(_)
                | C::Trust(_)
                | C::Inspect(_)
                | C::Completions(_)
                | C::Man(_)
        );
        if only_prints {
            // SAFETY: sets one signal's disposition to its default; no handler of ours is
            // involved, and nothing else in the process changes SIGPIPE.
            #[allow(unsafe_code)]
            unsafe {
                libc::signal(libc::SIGPIPE, libc::SIG_DFL);
            }
            return;
        }
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if is_closed_stdout(info) {
                killed_by_sigpipe();
            }
            previous(info);
        }));
    }
    #[cfg(not(unix))]
    let _ = command;
}

/// Whether a panic is std's `println!` finding stdout closed ("failed printing to stdout:
/// Broken pipe (os error 32)"; the text is std's, in the C locale Rust runs in).
#[cfg(unix)]
fn is_closed_stdout(info: &std::panic::PanicHookInfo<'_>) -> bool {
    let message = info
        .payload()
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| info.payload().downcast_ref::<&str>().copied())
        .unwrap_or_default();
    message.starts_with("failed printing to stdout")
        && message.ends_with(&format!("(os error {})", libc::EPIPE))
}

/// Ends the process as SIGPIPE's default action would.
#[cfg(unix)]
fn killed_by_sigpipe() -> ! {
    // SAFETY: resets one signal's disposition to its default and raises it in this process,
    // which ends it; no handler of ours runs.
    #[allow(unsafe_code)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::raise(libc::SIGPIPE);
    }
    std::process::exit(128 + libc::SIGPIPE)
}
