//! Which directory is the project: `--project`, else the nearest project root at or above
//! the current directory (as git and cargo find theirs, and as the adapter finds the project
//! of an agent's payload), else the current directory itself, said on stderr. Every command
//! but `hook` (which reads the agent's own names for it first) takes its project here.

use std::path::{Path, PathBuf};

/// The project directory: `--project` (made absolute), else the nearest directory at or
/// above the current one that [`find_project`] marks, else the current directory; a project
/// found above the current directory, or none found, is said on stderr.
pub(crate) fn project_dir(
    arg: Option<PathBuf>,
    home: &crate::env::UserHome,
) -> anyhow::Result<PathBuf> {
    if let Some(dir) = arg {
        return usable(dir);
    }
    let cwd = usable(std::env::current_dir()?)?;
    match find_project(&cwd, home.dir().as_deref()) {
        Some(found) if found == cwd => Ok(cwd),
        Some(found) => {
            eprintln!(
                "hookhost: using the project at {} (found above the current directory); pass --project DIR to choose another",
                found.display()
            );
            Ok(found)
        }
        None => {
            eprintln!(
                "hookhost: note: no project at or above {} (no {} there or above it, below your home directory): using it as the project; pass --project DIR to choose one",
                cwd.display(),
                PROJECT_MARKERS.join(", ")
            );
            Ok(cwd)
        }
    }
}

/// `dir` made absolute and canonical, or an error saying how to name another.
fn usable(dir: PathBuf) -> anyhow::Result<PathBuf> {
    std::fs::canonicalize(&dir).map_err(|e| {
        anyhow::anyhow!(
            "project directory {} is not usable: {e}; pass an existing directory with --project",
            dir.display()
        )
    })
}

/// What makes a directory a project root for [`find_project`]: hookhost's own directory, a
/// git checkout (`.git` is a file in a worktree or submodule), or an agent's project
/// settings.
pub(crate) const PROJECT_MARKERS: [&str; 6] = [
    ".coding-agent",
    ".git",
    ".claude",
    ".codex",
    ".gemini",
    ".cursor",
];

/// The nearest directory at or above `start` that holds one of [`PROJECT_MARKERS`]
/// (`.git` a directory or a file, the others directories). The search stops below the home
/// directory (whose `~/.claude/` and `~/.coding-agent/` are the user's own files, not a
/// project's) and below `/`: `None` when it reaches either first.
pub(crate) fn find_project(start: &Path, home: Option<&Path>) -> Option<PathBuf> {
    let start = std::fs::canonicalize(start).ok()?;
    let home = home.and_then(|h| std::fs::canonicalize(h).ok());
    for dir in start.ancestors() {
        if Some(dir) == home.as_deref() || dir.parent().is_none() {
            return None;
        }
        let marked = PROJECT_MARKERS.iter().any(|m| {
            let p = dir.join(m);
            if *m == ".git" {
                p.symlink_metadata().is_ok()
            } else {
                p.is_dir()
            }
        });
        if marked {
            return Some(dir.to_path_buf());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_marked_directory_below_home_is_the_project() {
        let root = tempfile::tempdir().unwrap();
        let root = root.path().canonicalize().unwrap();
        let home = root.join("home");
        let repo = home.join("repo");
        std::fs::create_dir_all(repo.join("src/deep")).unwrap();
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        // Nothing marked below home: none (home and what is above it are not searched).
        assert_eq!(find_project(&repo.join("src/deep"), Some(&home)), None);
        // Without a home in the way, the search goes on up to the nearest marker (here the
        // directory's `.claude/`, then the `.git` above it).
        assert_eq!(find_project(&repo.join("src"), None), Some(home.clone()));
        assert_eq!(find_project(&root, None), Some(root.clone()));
        std::fs::write(repo.join(".git"), "gitdir: elsewhere\n").unwrap();
        assert_eq!(
            find_project(&repo.join("src/deep"), Some(&home)),
            Some(repo.clone())
        );
        std::fs::create_dir_all(repo.join("src/.codex")).unwrap();
        assert_eq!(
            find_project(&repo.join("src/deep"), Some(&home)),
            Some(repo.join("src"))
        );
        // A file named like a settings directory is no marker.
        std::fs::write(repo.join("src/deep/.claude"), "").unwrap();
        assert_eq!(
            find_project(&repo.join("src/deep"), Some(&home)),
            Some(repo.join("src"))
        );
    }
}
