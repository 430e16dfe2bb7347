//! The walks of [`ProjectSet::read`] a long-lived process remembers (the warm engine: issue
//! 43), each with the stamps of everything it relied on ([`crate::stamps`]), taken before
//! it read: every directory on the way to each start and to the home (so a start resolves
//! the same), every directory walked (so each agent's name found absent in it is still
//! absent: one `lstat` instead of nine `open`s per level), and each agent's directory and
//! file found there. A walk is used again only while every stamp is unchanged and usable; any
//! change, a racy time, a link or a FIFO anywhere means it is read again, as a fresh process
//! reads it. What it finds then is the same as that fresh read, by construction: the
//! remembered walk is only the result of the same read, not a second reader.

use super::{CODEX_TOML, COPILOT_DIR, COPILOT_FILES, DOTENV_FILES, JSON_FILES, ProjectSet, walk};
use crate::stamps::Stamps;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

/// A walk's question: its starts and the home it stops below.
type Key = (Vec<PathBuf>, Option<PathBuf>);

/// The walks remembered, at most [`MAX`] (past that, it starts over).
static WALKS: Mutex<Option<HashMap<Key, (ProjectSet, Stamps)>>> = Mutex::new(None);
const MAX: usize = 64;

/// [`ProjectSet::read`], remembered.
pub(super) fn read(starts: &[&Path], home: Option<&Path>) -> ProjectSet {
    read_since(starts, home, SystemTime::now()).0
}

/// The walk and whether it was remembered; new stamps count as racy when closer than the
/// margin to `since` (tests put it ahead).
pub(super) fn read_since(
    starts: &[&Path],
    home: Option<&Path>,
    since: SystemTime,
) -> (ProjectSet, bool) {
    let key: Key = (
        starts.iter().map(|p| p.to_path_buf()).collect(),
        home.map(Path::to_path_buf),
    );
    let mut walks = WALKS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let walks = walks.get_or_insert_with(HashMap::new);
    if let Some((set, stamps)) = walks.get(&key)
        && stamps.unchanged()
    {
        return (set.clone(), true);
    }
    walks.remove(&key);
    let (set, stamps) = stamped(starts, home, since);
    if stamps.usable() {
        if walks.len() >= MAX {
            walks.clear();
        }
        walks.insert(key, (set.clone(), stamps));
    }
    (set, false)
}

/// The walk, read after its stamps were taken.
fn stamped(starts: &[&Path], home: Option<&Path>, since: SystemTime) -> (ProjectSet, Stamps) {
    let mut stamps = Stamps::since(since);
    for start in starts.iter().copied().chain(home) {
        stamps.take_route(start);
    }
    let dirs = walk(starts, home);
    let mut set = ProjectSet::default();
    for dir in dirs {
        stamp_dir(&mut stamps, &dir);
        set.read_dir(&dir);
    }
    (set, stamps)
}

/// The stamps reading `dir`'s project files relies on: `dir` (its names), and each agent's
/// directory and file in it that is there (one found absent is covered by its directory's
/// stamp).
fn stamp_dir(stamps: &mut Stamps, dir: &Path) {
    if !stamps.take(dir).is_some_and(|s| s.is_dir()) {
        return;
    }
    let files = JSON_FILES
        .iter()
        .chain(&DOTENV_FILES)
        .chain(std::iter::once(&CODEX_TOML));
    for rel in files {
        let file = dir.join(rel);
        let parent = file.parent().unwrap_or(dir);
        if parent == dir || stamps.take_present(parent).is_some_and(|s| s.is_dir()) {
            stamps.take_present(&file);
        }
    }
    let github = dir.join(".github");
    let copilot = dir.join(COPILOT_DIR);
    if !(stamps.take_present(&github).is_some_and(|s| s.is_dir())
        && stamps.take_present(&copilot).is_some_and(|s| s.is_dir()))
    {
        return;
    }
    // Every entry that is read, and no more of them than are read (which ones past the
    // limit would be is the listing's order).
    let Ok(entries) = std::fs::read_dir(&copilot) else {
        stamps.give_up();
        return;
    };
    let entries: Vec<_> = entries.collect();
    if entries.len() > COPILOT_FILES {
        stamps.give_up();
        return;
    }
    for entry in entries {
        match entry {
            Ok(e) => {
                stamps.take_present(&e.path());
            }
            Err(_) => stamps.give_up(),
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A probed file, and its text setting one name.
    type Kind = (&'static str, fn(&str) -> String);

    /// Every kind of file the walk reads, at the project and above it: created, edited and
    /// deleted between two reads, the second read sees it; untouched, the walk is
    /// remembered.
    #[test]
    fn every_edit_creation_and_deletion_of_a_probed_file_is_seen() {
        // The walk stops below the home: /tmp above it, busy with other tests, is not walked.
        let root = tempfile::tempdir().unwrap();
        let home = root.path().to_path_buf();
        let project = root.path().join("work/repo");
        std::fs::create_dir_all(&project).unwrap();
        let ahead = || SystemTime::now() + Duration::from_secs(60);
        let read = || read_since(&[&project], Some(&home), ahead());
        let kinds: [Kind; 9] = [
            (".claude/settings.json", |n| {
                format!(r#"{{"env": {{"{n}": "1"}}}}"#)
            }),
            (".claude/settings.local.json", |n| {
                format!(r#"{{"env": {{"{n}": "1"}}}}"#)
            }),
            (".cursor/hooks.json", |n| {
                format!(r#"{{"env": {{"{n}": "1"}}}}"#)
            }),
            (".gemini/settings.json", |n| {
                format!(r#"{{"env": {{"{n}": "1"}}}}"#)
            }),
            (".codex/hooks.json", |n| {
                format!(r#"{{"env": {{"{n}": "1"}}}}"#)
            }),
            (".github/hooks/a.json", |n| {
                format!(r#"{{"env": {{"{n}": "1"}}}}"#)
            }),
            (".codex/config.toml", |n| {
                format!("[shell_environment_policy]\nset = {{ {n} = \"1\" }}\n")
            }),
            (".gemini/.env", |n| format!("{n}=1\n")),
            (".env", |n| format!("export {n}=1\n")),
        ];
        let names = |set: &ProjectSet| set.names().map(str::to_string).collect::<Vec<_>>();
        for dir in [project.clone(), project.parent().unwrap().to_path_buf()] {
            for (rel, text) in kinds {
                let file = dir.join(rel);
                assert_eq!(names(&read().0), Vec::<String>::new(), "{rel}");
                assert!(read().1, "nothing changed: remembered ({rel})");
                std::fs::create_dir_all(file.parent().unwrap()).unwrap();
                assert!(names(&read().0).is_empty(), "{rel}: its directory alone");
                std::fs::write(&file, text("HTTP_PROXY")).unwrap();
                let (set, again) = read();
                assert_eq!(names(&set), ["HTTP_PROXY"], "created {}", file.display());
                assert!(!again);
                assert!(read().1);
                std::fs::write(&file, text("NO_PROXY")).unwrap();
                assert_eq!(names(&read().0), ["NO_PROXY"], "edited {}", file.display());
                std::fs::remove_file(&file).unwrap();
                assert!(names(&read().0).is_empty(), "deleted {}", file.display());
                let top = dir.join(Path::new(rel).components().next().unwrap());
                if top != file {
                    std::fs::remove_dir_all(&top).unwrap();
                }
            }
        }
    }

    /// An attacker's moves: a project directory renamed away and another put in its place,
    /// an agent's directory swapped for a link, a file replaced by a link to another.
    #[test]
    fn swapped_directories_and_links_are_read_again() {
        let root = tempfile::tempdir().unwrap();
        let home = root.path().to_path_buf();
        let project = root.path().join("repo");
        std::fs::create_dir_all(project.join(".claude")).unwrap();
        let ahead = || SystemTime::now() + Duration::from_secs(60);
        let read = || read_since(&[&project], Some(&home), ahead());
        let names = |set: &ProjectSet| set.names().map(str::to_string).collect::<Vec<_>>();
        assert!(names(&read().0).is_empty());
        assert!(read().1);
        // Renamed away; a lookalike with a settings file takes its place.
        std::fs::rename(&project, root.path().join("old")).unwrap();
        std::fs::create_dir_all(project.join(".claude")).unwrap();
        std::fs::write(
            project.join(".claude/settings.json"),
            r#"{"env": {"HOOKHOST_TRUST": "all"}}"#,
        )
        .unwrap();
        assert_eq!(names(&read().0), ["HOOKHOST_TRUST"]);
        // `.claude` swapped for a link to a directory setting another name: read, never
        // remembered.
        let elsewhere = root.path().join("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(
            elsewhere.join("settings.json"),
            r#"{"env": {"HOOKHOST_LOG": "off"}}"#,
        )
        .unwrap();
        std::fs::remove_dir_all(project.join(".claude")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, project.join(".claude")).unwrap();
        assert_eq!(names(&read().0), ["HOOKHOST_LOG"]);
        assert!(!read().1, "a link is never remembered");
        std::fs::write(
            elsewhere.join("settings.json"),
            r#"{"env": {"XDG_CACHE_HOME": "/x"}}"#,
        )
        .unwrap();
        assert_eq!(
            names(&read().0),
            ["XDG_CACHE_HOME"],
            "its target's edit seen"
        );
        // A file that is a link, whose target is edited.
        std::fs::remove_file(project.join(".claude")).unwrap();
        std::fs::write(elsewhere.join(".env"), "A=1\n").unwrap();
        std::os::unix::fs::symlink(elsewhere.join(".env"), project.join(".env")).unwrap();
        assert_eq!(names(&read().0), ["A"]);
        std::fs::write(elsewhere.join(".env"), "B=1\n").unwrap();
        assert_eq!(names(&read().0), ["B"]);
    }

    /// Stamps taken "now" are racy: the walk is read every time until its files settle.
    #[test]
    fn a_walk_of_files_written_just_now_is_not_remembered() {
        let root = tempfile::tempdir().unwrap();
        let project = root.path().join("repo");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(project.join(".env"), "A=1\n").unwrap();
        let now = || read_since(&[&project], None, SystemTime::now());
        assert!(!now().1);
        assert!(!now().1);
    }
}
