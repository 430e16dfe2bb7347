//! `"warmEngine": false`: the user's switch for the warm per-user engine (issue 43).
//!
//! The warm engine is on by default: a hook command an agent runs is answered by a process
//! that is already running instead of a fresh 45 MB one. One switch turns it off, and only a
//! file of the user's (`~/.coding-agent/hooks.json`) or the administrator's (the machine-wide
//! managed file, whose value wins) can say it: never a project's file, and never a variable
//! (every variable of the adapter's environment may come from a project's agent settings).
//! A project's file that says it is a config error ([`super::parse`]).
//!
//! Read on its own, apart from the hooks: the adapter asks before it starts an engine, and
//! the engine asks again for each event it is sent (the switch turned off while one runs
//! takes effect at the next event).

use super::ConfigPaths;
use crate::files::{CONFIG_LIMIT, read_bounded};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The top-level key.
pub(crate) const WARM_KEY: &str = "warmEngine";

/// What the switch says, and which file said it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarmSwitch {
    /// Whether a warm engine may serve this user's events.
    pub on: bool,
    /// The file whose `"warmEngine"` decided (`None`: no file says; on by default).
    pub file: Option<PathBuf>,
}

/// The switch for `paths`' user: the managed file's `"warmEngine"` if it has one, else the
/// user's own file's, else on. A file that cannot be read or parsed, or whose value is not a
/// boolean, says nothing here (`hookhost check` reports it).
pub fn warm_engine(paths: &ConfigPaths) -> WarmSwitch {
    [paths.managed_file.as_deref(), paths.global_file.as_deref()]
        .into_iter()
        .flatten()
        .find_map(|file| {
            switch_in(file).map(|on| WarmSwitch {
                on,
                file: Some(file.to_path_buf()),
            })
        })
        .unwrap_or(WarmSwitch {
            on: true,
            file: None,
        })
}

/// `"warmEngine"` of `file`, when it is a boolean there.
fn switch_in(file: &Path) -> Option<bool> {
    let bytes = read_bounded(file, CONFIG_LIMIT).ok()?;
    match serde_json::from_slice::<Value>(&bytes)
        .ok()?
        .get(WARM_KEY)?
    {
        Value::Bool(on) => Some(*on),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(project: &Path, home: &Path, managed: Option<&Path>) -> ConfigPaths {
        ConfigPaths::with_home(project, Some(home.to_path_buf()))
            .with_managed(managed.map(Path::to_path_buf))
    }

    #[test]
    fn on_unless_the_users_or_the_managed_file_says_off() {
        let (project, home, etc) = (
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
        );
        let managed = etc.path().join("hooks.json");
        let p = paths(project.path(), home.path(), Some(&managed));
        assert_eq!(
            warm_engine(&p),
            WarmSwitch {
                on: true,
                file: None
            }
        );
        // A project's file never counts.
        std::fs::create_dir_all(project.path().join(".coding-agent")).unwrap();
        std::fs::write(
            project.path().join(".coding-agent/hooks.json"),
            r#"{"warmEngine": false}"#,
        )
        .unwrap();
        assert!(warm_engine(&p).on);
        let user = home.path().join(".coding-agent/hooks.json");
        std::fs::create_dir_all(user.parent().unwrap()).unwrap();
        std::fs::write(&user, r#"{"warmEngine": false, "hooks": {}}"#).unwrap();
        assert_eq!(
            warm_engine(&p),
            WarmSwitch {
                on: false,
                file: Some(user.clone())
            }
        );
        // The administrator's value wins, either way.
        std::fs::write(&managed, r#"{"warmEngine": true}"#).unwrap();
        assert!(warm_engine(&p).on);
        // Not a boolean, or not JSON: says nothing (check reports it).
        std::fs::write(&managed, r#"{"warmEngine": "no"}"#).unwrap();
        assert!(!warm_engine(&p).on);
        std::fs::write(&user, "{").unwrap();
        assert!(warm_engine(&p).on);
    }
}
