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
