//! Where every command takes the user's home and the cache and store roots from
//! (`hookhost::locations`, through the engine's one set-up, `hookhost::setup`): one rule for
//! all of them, the adapter's. The home is `--home`, else the account's from the password
//! database, never `$HOME` (a project's agent settings `env` can set it, and `run`, `trust`,
//! `doctor`, `log` and the adapter must all see the same files). The directory variables are
//! vetted against the project and the roots settled once for the process; what they refuse
//! is said on stderr here.

use hookhost::config::ConfigPaths;
use hookhost::locations;
use hookhost::setup::{Home, Setup};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The user's home directory of one command: `--home` (made absolute), else the account's;
/// resolved on first use, when a `$HOME` naming another directory is said once on stderr.
/// One per invocation, not per process: the warm engine serves invocations with different
/// `--home` flags.
#[derive(Debug, Default)]
pub struct UserHome {
    flag: Option<PathBuf>,
    dir: OnceLock<Option<PathBuf>>,
}

impl UserHome {
    /// The home `--home` names, or the account's when `flag` is `None`.
    pub fn new(flag: Option<PathBuf>) -> Self {
        UserHome {
            flag,
            dir: OnceLock::new(),
        }
    }

    /// `--home` as given (`None`: the account's home is used).
    pub fn flag(&self) -> Option<&Path> {
        self.flag.as_deref()
    }

    /// The directory (`None`: no `--home` and no home for this account).
    pub fn dir(&self) -> Option<PathBuf> {
        self.dir
            .get_or_init(|| {
                let home = locations::runner_home(self.flag.clone(), "--home");
                if let Some(note) = &home.note {
                    eprintln!("{note}");
                }
                home.dir
            })
            .clone()
    }

    /// The set-up of a command on `project`: the user's files under this home (with the
    /// managed files), the cache and store roots settled for `project`.
    pub fn setup(&self, project: &Path) -> Setup {
        shown(Setup::new(project, Home::Given(self.dir())))
    }

    /// The config paths of a command on `project` ([`UserHome::setup`]).
    pub fn paths(&self, project: &Path) -> ConfigPaths {
        self.setup(project).paths().clone()
    }
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

/// Whether the user's switch lets a warm engine serve this user's events: `"warmEngine"` of
/// the managed file, else of the user's own file under `flag`'s home (on when neither says).
/// Never a variable: every variable may come from a project's agent settings.
#[cfg(unix)]
pub fn warm_engine_on(flag: Option<PathBuf>) -> bool {
    let home = locations::runner_home(flag, "--home").dir;
    // Only the managed and the user's file count: no project to find (the root stands in,
    // so no working directory is canonicalised on the engine's per-event path).
    hookhost::config::warm_engine(&ConfigPaths::for_project_with_home(Path::new("/"), home)).on
}
