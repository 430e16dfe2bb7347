//! Agents wired by a plugin file of hookhost's instead of settings entries (opencode: hookhost's
//! opencode plugin, `plugins/opencode/hookhost.js`, copied to `~/.config/opencode/plugins/`).
//! The file is hookhost's when it starts with the plugin's first line; install writes the
//! plugin this hookhost ships (replacing an older copy of it), uninstall removes a copy, and
//! a file of that name that is not hookhost's is never touched.

use super::edit::{Action, Change};
use super::file::{self, FileError};
use super::table::AgentRow;
use std::path::Path;

/// hookhost's opencode plugin, as this hookhost ships it.
pub const OPENCODE_PLUGIN: &str = include_str!("../../assets/plugins/opencode/hookhost.js");

/// A plugin file larger than this is not hookhost's (and is not read whole).
const FILE_LIMIT: u64 = 1 << 20;

/// What is at a plugin file's place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Nothing.
    Missing,
    /// The plugin this hookhost ships.
    Current,
    /// Another version of hookhost's plugin.
    Other,
    /// A file that is not hookhost's plugin.
    Foreign,
}

/// The first line of the plugin `text`: what every version of it starts with.
fn mark(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

/// What is at `path`, for the plugin `ours`.
pub fn state(path: &Path, ours: &str) -> Result<State, FileError> {
    match hookhost::files::read_bounded(path, FILE_LIMIT) {
        Err(e) if e.is_not_found() => Ok(State::Missing),
        Err(e) => Err(FileError::Read {
            file: path.into(),
            why: e.to_string(),
        }),
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            Ok(if text == ours {
                State::Current
            } else if mark(&text) == mark(ours) {
                State::Other
            } else {
                State::Foreign
            })
        }
    }
}

/// What installing (or uninstalling) the plugin `ours` at `path` does: the change per event
/// of `row`, and the new text (`None`: the file goes; unchanged when the changes are all
/// `Kept` or empty).
pub fn plan(
    row: &AgentRow,
    path: &Path,
    ours: &str,
    uninstall: bool,
) -> Result<(Vec<Change>, Option<Option<String>>), FileError> {
    let now = state(path, ours)?;
    if now == State::Foreign {
        return Err(FileError::Shape {
            file: path.into(),
            why: format!(
                "it is not hookhost's plugin (its first line is not `{}`); move it away if hookhost should {} its plugin there",
                mark(ours),
                if uninstall { "remove" } else { "write" }
            ),
        });
    }
    let each = |action: Action| -> Vec<Change> {
        row.events()
            .into_iter()
            .map(|e| Change {
                event: e.to_string(),
                action: action.clone(),
            })
            .collect()
    };
    Ok(match (uninstall, now) {
        (true, State::Missing) => (Vec::new(), None),
        (true, _) => (each(Action::Removed { entries: 1 }), Some(None)),
        (false, State::Current) => (each(Action::Kept), None),
        (false, State::Missing) => (each(Action::Added), Some(Some(ours.to_string()))),
        (false, _) => (
            each(Action::Updated {
                was: "another version of hookhost's plugin".into(),
            }),
            Some(Some(ours.to_string())),
        ),
    })
}

/// Carries out a plan's change: writes (atomically) or removes `path`.
pub fn apply(path: &Path, change: Option<&str>) -> Result<(), FileError> {
    match change {
        Some(text) => file::write_own(path, text),
        None => file::remove(path),
    }
}
