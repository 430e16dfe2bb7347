//! Where each entry point takes the user's home and the cache and store roots from
//! (`hookhost::locations`): the commands a user runs (`run`, `check`, `list`, `trust`,
//! `compile`) keep `$HOME`; the outbound adapter (`hook`) and `serve` take the account's home
//! from the password database, or `--home`. Both vet the directory variables against the
//! project and settle the roots once for the process.

use hookhost::config::ConfigPaths;
use hookhost::locations;
use std::path::{Path, PathBuf};

/// The config paths of a command the user runs: the home directory from `$HOME`, the cache
/// and store roots settled for `project` (refused variables warned about on stderr).
pub fn user_paths(project: &Path) -> ConfigPaths {
    let paths = ConfigPaths::for_project(project);
    settle(project, paths.home.as_deref());
    paths
}

/// The config paths of the adapter and `serve`: the user's files under `home` (from
/// [`runner_home`]), the cache and store roots settled for `project`.
pub fn runner_paths(project: &Path, home: Option<PathBuf>) -> ConfigPaths {
    let paths = ConfigPaths::for_project_with_home(project, home);
    settle(project, paths.home.as_deref());
    paths
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

fn settle(project: &Path, home: Option<&Path>) {
    let (_, warnings) = locations::settle(project, home);
    for w in warnings {
        eprintln!("{w}");
    }
}
