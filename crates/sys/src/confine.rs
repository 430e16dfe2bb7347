//! Confining paths a config names to the project directory.
//!
//! A hook's `cwd` (for project hooks and every wasm hook) and a project hook's module path
//! must name something inside the project. "Inside" is decided once, on the canonical path
//! (symlinks followed, `..` resolved), against the canonical project root: a symlinked
//! directory that leads out, an absolute path, or `..` are refused. A path that does not
//! exist yet cannot be canonicalised; it is accepted only if it is lexically inside (relative,
//! no `..`), and the spawner checks the real path again when it runs (see
//! [`confined_dir`]), so a symlink planted after loading is caught there.

use std::path::{Component, Path, PathBuf};

/// Why a path is not acceptable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Escape {
    /// It resolves (symlinks followed) to a place outside the project.
    #[error("resolves to {}, outside the project {}", resolved.display(), project.display())]
    Outside {
        /// Where it really points.
        resolved: PathBuf,
        /// The canonical project root.
        project: PathBuf,
    },
    /// It does not exist and is not lexically inside the project (absolute, or has `..`).
    #[error(
        "does not exist and is not a plain relative path inside the project (no `..`, not absolute)"
    )]
    NotLexicallyInside,
}

/// `path` (absolute, or relative to `base`) resolved against the canonical project root.
/// Returns the canonical path when it exists, else the joined path when it is lexically
/// inside.
pub fn resolve_inside(project: &Path, base: &Path, path: &Path) -> Result<PathBuf, Escape> {
    let project = canonical_or_same(project);
    let joined = base.join(path);
    match joined.canonicalize() {
        Ok(real) if real.starts_with(&project) => Ok(real),
        Ok(real) => Err(Escape::Outside {
            resolved: real,
            project,
        }),
        Err(_) => {
            let rel_to_project = joined.strip_prefix(&project).ok();
            let plain = |p: &Path| {
                p.components()
                    .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
            };
            match rel_to_project {
                Some(rel) if plain(rel) => Ok(joined),
                _ => Err(Escape::NotLexicallyInside),
            }
        }
    }
}

/// The canonical project root and working directory of one wasm run: what the sandbox
/// preopens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confined {
    /// The canonical project root.
    pub root: PathBuf,
    /// The canonical working directory, inside `root`.
    pub cwd: PathBuf,
}

/// At run time: the canonical forms of `project` and of `dir`, which must exist, be a
/// directory and lie inside the project. The common case, a hook running in the project root,
/// costs one path resolution.
pub fn confine_run(project: &Path, dir: &Path) -> Result<Confined, CwdError> {
    let root = canonical_or_same(project);
    let cwd = if dir == project {
        root.clone()
    } else {
        confined_dir(&root, dir)?
    };
    Ok(Confined { root, cwd })
}

/// At run time: the canonical form of `dir`, which must exist, be a directory and lie inside
/// the canonical `project`.
pub fn confined_dir(project: &Path, dir: &Path) -> Result<PathBuf, CwdError> {
    let project = canonical_or_same(project);
    let real = dir.canonicalize().map_err(|source| CwdError::Unusable {
        dir: dir.to_path_buf(),
        source,
    })?;
    if !real.starts_with(&project) {
        return Err(CwdError::Outside {
            dir: dir.to_path_buf(),
            resolved: real,
            project,
        });
    }
    if !real.is_dir() {
        return Err(CwdError::NotADirectory(dir.to_path_buf()));
    }
    Ok(real)
}

/// Why a working directory cannot be used for a run.
#[derive(Debug, thiserror::Error)]
pub enum CwdError {
    /// It cannot be resolved (gone, unreadable).
    #[error("working directory {} is not usable ({source}); fix the hook's `cwd` (relative to the project root)", dir.display())]
    Unusable {
        /// The directory.
        dir: PathBuf,
        /// Why it cannot be resolved.
        source: std::io::Error,
    },
    /// It resolves to a place outside the project.
    #[error("working directory {} resolves to {}, outside the project {}; a wasm hook runs only inside the project (a symlink leading out is refused)", dir.display(), resolved.display(), project.display())]
    Outside {
        /// The directory.
        dir: PathBuf,
        /// Where it really is.
        resolved: PathBuf,
        /// The canonical project root.
        project: PathBuf,
    },
    /// It is not a directory.
    #[error("working directory {} is not a directory; fix the hook's `cwd`", .0.display())]
    NotADirectory(PathBuf),
}

/// The canonical form of `p`, or `p` itself when it cannot be canonicalised.
pub fn canonical_or_same(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

/// Whether two paths name the same file: the same path, or both exist (symlinks followed)
/// and are one file (device and inode). Two `stat`s, not two canonicalising walks of a
/// `readlink` per component: config loading asks this for every agent's file of every event.
pub fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (a.metadata(), b.metadata()) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        canonical_or_same(a) == canonical_or_same(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_outside_and_missing_paths() {
        let root = tempfile::tempdir().unwrap();
        let project = root.path().canonicalize().unwrap().join("p");
        std::fs::create_dir_all(project.join("sub")).unwrap();
        let ok = resolve_inside(&project, &project, Path::new("sub")).unwrap();
        assert_eq!(ok, project.join("sub"));
        assert!(matches!(
            resolve_inside(&project, &project, Path::new("..")),
            Err(Escape::Outside { .. })
        ));
        assert!(matches!(
            resolve_inside(&project, &project, Path::new("/")),
            Err(Escape::Outside { .. })
        ));
        assert_eq!(
            resolve_inside(&project, &project, Path::new("later/dir")).unwrap(),
            project.join("later/dir")
        );
        assert_eq!(
            resolve_inside(&project, &project, Path::new("../missing")),
            Err(Escape::NotLexicallyInside)
        );
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/", project.join("root")).unwrap();
            assert!(matches!(
                resolve_inside(&project, &project, Path::new("root")),
                Err(Escape::Outside { .. })
            ));
            assert!(confined_dir(&project, &project.join("root")).is_err());
            assert!(confined_dir(&project, &project.join("sub")).is_ok());
        }
    }
}
