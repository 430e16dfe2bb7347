//! Agents that run one executable per event from a hooks directory (Cline:
//! `~/Documents/Cline/Hooks/PreToolUse`). Install writes, per event, a shell script whose one
//! command runs the adapter (`exec CMD`); a file of that event's name that is not such a
//! script is the user's own hook, which the agent runs in place of any other: it is kept, and
//! said. Uninstall removes hookhost's scripts only.

use super::edit::{Action, Change};
use super::file::{self, FileError};
use super::table::AgentRow;
use hookhost::dialect::script_adapter;
use std::path::{Path, PathBuf};

/// A hook file larger than this is the user's (and is not read whole).
const FILE_LIMIT: u64 = 64 << 10;

/// The script install writes for `command`.
pub fn script(command: &str) -> String {
    format!(
        "#!/bin/sh\n# hookhost's hook (`hookhost install` wrote it; `hookhost install --uninstall` removes it).\nexec {command}\n"
    )
}

/// The hook file of `event` in `dir`, and its text (`None`: no such file).
pub fn read(dir: &Path, event: &str) -> Result<(PathBuf, Option<String>), FileError> {
    let path = dir.join(event);
    match hookhost::files::read_bounded(&path, FILE_LIMIT) {
        Err(e) if e.is_not_found() => Ok((path, None)),
        Err(e) => Err(FileError::Read {
            file: path,
            why: e.to_string(),
        }),
        Ok(bytes) => Ok((path, Some(String::from_utf8_lossy(&bytes).into_owned()))),
    }
}

/// One event's change: what it is, and what to write (`Some(None)`: remove the file).
pub type Step = (Change, Option<(PathBuf, Option<String>)>);

/// What install (`command`) or uninstall (`None`) does in `dir`, event by event; notes for
/// the user's own hook files that stay.
pub fn plan(
    row: &AgentRow,
    dir: &Path,
    command: Option<&str>,
) -> Result<(Vec<Step>, Vec<String>), FileError> {
    let mut steps = Vec::new();
    let mut notes = Vec::new();
    for event in row.events() {
        let (path, text) = read(dir, event)?;
        let ours = text.as_deref().and_then(script_adapter).map(str::to_string);
        let change = |action| Change {
            event: event.to_string(),
            action,
        };
        match (command, text.is_some(), ours) {
            (Some(cmd), false, _) => steps.push((
                change(Action::Added),
                Some((path, Some(script(cmd)))),
            )),
            (Some(cmd), true, Some(was)) if was == cmd => steps.push((change(Action::Kept), None)),
            (Some(cmd), true, Some(was)) => {
                steps.push((change(Action::Updated { was }), Some((path, Some(script(cmd))))));
            }
            (Some(cmd), true, None) => notes.push(format!(
                "{} is your own {event} hook, which {} runs instead of any other: kept, so hookhost does not see that event (make it run `{}` too, or move it away and run this again)",
                path.display(),
                row.dialect.agent(),
                cmd,
            )),
            (None, true, Some(_)) => steps.push((
                change(Action::Removed { entries: 1 }),
                Some((path, None)),
            )),
            (None, _, None) | (None, false, Some(_)) => {}
        }
    }
    Ok((steps, notes))
}

/// Carries out the steps: each script written atomically and made executable, or removed.
pub fn apply(steps: &[Step]) -> Result<(), FileError> {
    for (_, write) in steps {
        match write {
            Some((path, Some(text))) => {
                file::write_own(path, text)?;
                make_executable(path)?;
            }
            Some((path, None)) => file::remove(path)?,
            None => {}
        }
    }
    Ok(())
}

#[cfg(unix)]
fn make_executable(path: &Path) -> Result<(), FileError> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).map_err(|e| {
        FileError::Write {
            file: path.into(),
            why: e.to_string(),
        }
    })
}

#[cfg(not(unix))]
fn make_executable(_: &Path) -> Result<(), FileError> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_script_that_just_runs_the_adapter_is_hookhosts() {
        let cmd = "/usr/bin/hookhost-warm hook --for cline";
        assert_eq!(script_adapter(&script(cmd)), Some(cmd));
        assert_eq!(
            script_adapter("hookhost hook --for cline\n"),
            Some("hookhost hook --for cline")
        );
        assert_eq!(script_adapter("#!/bin/sh\n./guard.sh\n"), None);
        assert_eq!(script_adapter(&format!("{}echo hi\n", script(cmd))), None);
        assert_eq!(script_adapter(""), None);
    }
}
