//! Where the user's own files are when a project can set the environment.
//!
//! A project's Claude Code settings (`.claude/settings.json` `env`) set variables for every
//! hook command Claude Code runs, `hookhost hook` included: `HOME`, `XDG_CACHE_HOME` and every
//! `HOOKHOST_*` variable are values the project chooses there. No such value may move where
//! the user's guards, the trust pins, the compiled-code cache or the hook store are read from
//! (DESIGN §3). So:
//!
//! - **The home directory** of the outbound adapter and the long-lived runners (`serve`, the
//!   Python `Runner`) is the account's, from the password database ([`account_home`]), or
//!   the one given explicitly (`--home DIR`, a keyword argument): a command line the user
//!   wrote, which a settings `env` cannot change ([`runner_home`]). `$HOME` is not read; when
//!   it names another directory the entry point says so once on stderr. The CLI commands the
//!   user runs (`run`, `check`, `list`, `trust`, ...) keep `$HOME`.
//! - **A directory a variable names** (`HOOKHOST_CACHE_DIR`, `HOOKHOST_STORE_DIR`,
//!   `XDG_CACHE_HOME`) is used only when it is absolute, does not lie inside the project
//!   (compared canonically: symlinks and `..` resolved) and, when it exists, is a real
//!   directory of this user that no one else can write ([`vet_dir`], the compiled-code cache's
//!   own check, [`check_private_dir`]); else a warning says why and the default under the
//!   home directory is used. Every entry point that knows its project settles these once per
//!   process ([`settle`]); the library's defaults (the compile cache, the source index the
//!   trust store hashes through, the hook store) then read the settled roots.
//! - **A managed file a variable names** (`HOOKHOST_MANAGED_CONFIG`,
//!   `HOOKHOST_CLAUDE_MANAGED_SETTINGS`) must be root's ([`check_root_owned`]); the rules are
//!   in `config/load.rs`.

use super::confine::canonical_or_same;
use super::files::{DirError, check_private_dir};
use std::path::{Path, PathBuf};
use std::sync::RwLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// The environment variable that moves the hook store.
pub const STORE_ENV: &str = "HOOKHOST_STORE_DIR";

/// The variable naming the compiled-code cache root.
pub const CACHE_DIR_ENV: &str = "HOOKHOST_CACHE_DIR";

/// The XDG base directory of user caches (Linux and the BSDs).
pub const XDG_CACHE_HOME_ENV: &str = "XDG_CACHE_HOME";

/// The home directory of the account this process runs as (the effective user's password
/// database entry, `getpwuid_r`), never `$HOME`. `None` when there is no entry or it names
/// no absolute directory. Elsewhere than on Unix: the platform's notion (`dirs`).
#[cfg(unix)]
#[allow(unsafe_code)]
pub fn account_home() -> Option<PathBuf> {
    use std::ffi::{CStr, OsStr};
    use std::os::unix::ffi::OsStrExt;
    let uid = hookhost_core::process::effective_uid();
    let mut buf = vec![0u8; 4096];
    loop {
        // SAFETY: an all-zero `passwd` is a valid value of the plain C struct; getpwuid_r only
        // writes into it and into `buf`, of the length given; `result` is set to null or to
        // `&pwd`, whose string fields point into `buf`, which outlives their use below.
        let mut pwd: libc::passwd = unsafe { std::mem::zeroed() };
        let mut result: *mut libc::passwd = std::ptr::null_mut();
        let rc = unsafe {
            libc::getpwuid_r(
                uid,
                &mut pwd,
                buf.as_mut_ptr().cast(),
                buf.len(),
                &mut result,
            )
        };
        if rc == libc::ERANGE && buf.len() < 1 << 20 {
            buf.resize(buf.len() * 2, 0);
            continue;
        }
        if rc != 0 || result.is_null() || pwd.pw_dir.is_null() {
            return None;
        }
        // SAFETY: non-null, NUL-terminated, inside `buf` (see above).
        let dir = unsafe { CStr::from_ptr(pwd.pw_dir) };
        let dir = Path::new(OsStr::from_bytes(dir.to_bytes()));
        return dir.is_absolute().then(|| dir.to_path_buf());
    }
}

/// The home directory of this account (not on Unix: the platform's, `dirs`).
#[cfg(not(unix))]
pub fn account_home() -> Option<PathBuf> {
    dirs::home_dir()
}

/// The home directory the adapter or a long-lived runner uses, and the one line to print
/// when `$HOME` names another directory.
#[derive(Debug, Clone)]
pub struct RunnerHome {
    /// `--home`, else the account's; `None` when there is neither.
    pub dir: Option<PathBuf>,
    /// What to say once on stderr, if anything.
    pub note: Option<String>,
}

/// The home directory for the outbound adapter and the long-lived runners: `explicit` (the
/// `--home` flag or a keyword argument) when given, else [`account_home`]; never `$HOME`.
/// `flag` is how a user names the explicit choice in the note (`--home`).
pub fn runner_home(explicit: Option<PathBuf>, flag: &str) -> RunnerHome {
    let (dir, why) = match explicit {
        Some(d) => (
            Some(std::path::absolute(&d).unwrap_or(d)),
            format!("given by {flag}"),
        ),
        None => (
            account_home(),
            "the account's, from the password database".into(),
        ),
    };
    let env = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let note = match (&dir, env) {
        (Some(d), Some(e)) if canonical_or_same(d) != canonical_or_same(&e) => Some(format!(
            "hookhost: note: using the home directory {} ({why}), not $HOME={} (a project's settings `env` can set $HOME); pass {flag} DIR to choose another",
            d.display(),
            e.display()
        )),
        (None, Some(e)) => Some(format!(
            "hookhost: note: no home directory for this account in the password database, and $HOME={} is not used (a project's settings `env` can set $HOME): no user hooks or trust pins; pass {flag} DIR to choose one",
            e.display()
        )),
        _ => None,
    };
    RunnerHome { dir, note }
}

/// `path` made canonical as far as it exists: the nearest existing ancestor resolved
/// (symlinks, `..`), the rest appended. What "inside the project" compares.
fn canonical_prefix(path: &Path) -> PathBuf {
    let mut existing = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(c) = existing.canonicalize() {
            return rest.iter().rev().fold(c, |acc, part| acc.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// Whether the directory `dir` that `var` names may be used by a process serving `project`
/// with the home directory `home`: absolute; not inside the project (canonically; unless the
/// project is the home directory itself, whose cache is the user's); and, if it exists, a
/// real directory of this user that no one else can write. `Err` says why not, for a line
/// that starts "not using $VAR=...: ".
pub fn vet_dir(var: &str, dir: &Path, project: &Path, home: Option<&Path>) -> Result<(), VetError> {
    if !dir.is_absolute() {
        return Err(VetError::Relative {
            var: var.to_string(),
        });
    }
    let project = canonical_or_same(project);
    let at_home = home.is_some_and(|h| canonical_or_same(h) == project);
    if !at_home && canonical_prefix(dir).starts_with(&project) {
        return Err(VetError::InsideProject {
            var: var.to_string(),
            project,
        });
    }
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        _ => Ok(check_private_dir(dir)?),
    }
}

/// Why a directory a variable names is not used ([`vet_dir`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VetError {
    /// A relative path, which would resolve in the project.
    #[error(
        "it is a relative path, which resolves in the project; give an absolute path (unset {var} for the default)"
    )]
    Relative {
        /// The variable.
        var: String,
    },
    /// A directory inside the project.
    #[error(
        "it lies inside the project {} (a project's settings `env` can set {var}, and the project's files are the project's to choose); give a directory of your own outside it",
        project.display()
    )]
    InsideProject {
        /// The variable.
        var: String,
        /// The canonical project root.
        project: PathBuf,
    },
    /// A directory that is not private to this user.
    #[error(transparent)]
    NotPrivate(#[from] DirError),
}

/// Why a managed file a variable names is not the administrator's ([`check_root_owned`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OwnerError {
    /// It (or its directory) belongs to another user.
    #[error("{} belongs to user {uid}, not to root", path.display())]
    NotRoot {
        /// The file or directory.
        path: PathBuf,
        /// Its owner.
        uid: u32,
    },
    /// Group or others can write to it.
    #[error("{} is writable by group or others (mode {mode:o})", path.display())]
    Writable {
        /// The file or directory.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// Its metadata cannot be read.
    #[error("cannot inspect {}: {source}", path.display())]
    Inspect {
        /// The file or directory.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
}

/// Whether the managed file `file` (named by a variable, not the machine's standard path) is
/// the administrator's: the file (if present; a symlink is followed) and the directory
/// holding it, both the link's and the target's, owned by root and writable by no one else;
/// for a missing file its nearest existing ancestor directory. `Err` says why not.
#[cfg(unix)]
pub fn check_root_owned(file: &Path) -> Result<(), OwnerError> {
    use std::os::unix::fs::MetadataExt;
    let check = |path: &Path, meta: &std::fs::Metadata| -> Result<(), OwnerError> {
        if meta.uid() != 0 {
            return Err(OwnerError::NotRoot {
                path: path.to_path_buf(),
                uid: meta.uid(),
            });
        }
        if meta.mode() & 0o022 != 0 {
            return Err(OwnerError::Writable {
                path: path.to_path_buf(),
                mode: meta.mode() & 0o777,
            });
        }
        Ok(())
    };
    let inspect = |path: &Path, source| OwnerError::Inspect {
        path: path.to_path_buf(),
        source,
    };
    let parent_of = |p: &Path| -> Result<(), OwnerError> {
        let mut dir = p.parent().filter(|d| !d.as_os_str().is_empty());
        while let Some(d) = dir {
            match std::fs::metadata(d) {
                Ok(meta) => return check(d, &meta),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => dir = d.parent(),
                Err(e) => return Err(inspect(d, e)),
            }
        }
        Ok(())
    };
    parent_of(file)?;
    match std::fs::metadata(file) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(inspect(file, e)),
        Ok(meta) => {
            check(file, &meta)?;
            let target = canonical_or_same(file);
            if target != file {
                parent_of(&target)?;
            }
            Ok(())
        }
    }
}

/// Not on Unix: no owner to check.
#[cfg(not(unix))]
pub fn check_root_owned(_file: &Path) -> Result<(), OwnerError> {
    Ok(())
}

/// The roots one process settled on (see [`settle`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Roots {
    /// The compiled-code cache root; `None` disables the disk cache.
    pub cache: Option<PathBuf>,
    /// The hook store root; `None` when there is no user cache directory.
    pub store: Option<PathBuf>,
}

static SETTLED: RwLock<Option<Roots>> = RwLock::new(None);
/// Whether every set-up installs its own roots ([`settle_per_setup`]).
static PER_SETUP: AtomicBool = AtomicBool::new(false);

/// The roots this process settled on, if an entry point called [`settle`].
pub fn settled() -> Option<Roots> {
    SETTLED
        .read()
        .map_or_else(|p| p.into_inner().clone(), |g| g.clone())
}

/// Makes every later [`settle`] and [`install`] replace the roots, as if each set-up were a
/// fresh process: for a process that runs one invocation after another (the warm engine,
/// `hookhost warm-serve`), so no invocation keeps another's roots or misses its warnings.
pub fn settle_per_setup() {
    PER_SETUP.store(true, Ordering::SeqCst);
}

/// The user's cache directory for `home`: `$XDG_CACHE_HOME` where the platform reads it (and
/// [`vet_dir`] accepts it), else `~/.cache` (`~/Library/Caches` on macOS; elsewhere than on
/// Unix, the platform's).
fn user_cache_dir(
    project: &Path,
    home: Option<&Path>,
    warnings: &mut Vec<String>,
) -> Option<PathBuf> {
    if cfg!(target_os = "macos") {
        return home.map(|h| h.join("Library/Caches"));
    }
    if !cfg!(unix) {
        return dirs::cache_dir();
    }
    if let Some(xdg) = env_dir(XDG_CACHE_HOME_ENV, project, home, warnings) {
        return Some(xdg);
    }
    home.map(|h| h.join(".cache"))
}

/// The user's cache directory for a process serving `project` as `home` (see
/// [`choose`]); a refused `$XDG_CACHE_HOME` falls back to the default silently.
pub fn user_cache(project: &Path, home: Option<&Path>) -> Option<PathBuf> {
    user_cache_dir(project, home, &mut Vec::new())
}

/// The directory `var` names, if set, not empty and accepted by [`vet_dir`]; a refusal is
/// added to `warnings`.
fn env_dir(
    var: &str,
    project: &Path,
    home: Option<&Path>,
    warnings: &mut Vec<String>,
) -> Option<PathBuf> {
    let dir = PathBuf::from(crate::host_env::var_os(
        var,
        "the default under the home directory",
    )?);
    match vet_dir(var, &dir, project, home) {
        Ok(()) => Some(dir),
        Err(why) => {
            warnings.push(format!(
                "hookhost: warning: not using ${var}={}: {why}",
                dir.display()
            ));
            None
        }
    }
}

/// Chooses the compiled-code cache root (`$HOOKHOST_CACHE_DIR`, else
/// `<user cache>/hookhost/wasm`) and the hook store root (`$HOOKHOST_STORE_DIR`, else
/// `<user cache>/hookhost/store`) for a process serving `project` with the home directory
/// `home`, each variable vetted by [`vet_dir`]; installs them as this process's defaults (the
/// first call wins: later calls return what is installed) and returns them with one warning
/// line per variable refused.
pub fn settle(project: &Path, home: Option<&Path>) -> (Roots, Vec<String>) {
    if !PER_SETUP.load(Ordering::SeqCst)
        && let Some(roots) = settled()
    {
        return (roots, Vec::new());
    }
    let (roots, warnings) = choose(project, home);
    let warnings = if install(roots) { warnings } else { Vec::new() };
    (settled().unwrap_or_default(), warnings)
}

/// Installs `roots` as this process's defaults unless some are already installed (the first
/// call wins); true when these were installed.
pub fn install(roots: Roots) -> bool {
    let mut settled = SETTLED
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if settled.is_some() && !PER_SETUP.load(Ordering::SeqCst) {
        return false;
    }
    *settled = Some(roots);
    true
}

/// [`settle`] without installing anything: the roots for `project` and `home` (for an
/// embedder with several projects in one process).
pub fn choose(project: &Path, home: Option<&Path>) -> (Roots, Vec<String>) {
    let mut warnings = Vec::new();
    let user_cache = user_cache_dir(project, home, &mut warnings);
    let mut root = |var: &str, leaf: &str| {
        let default = user_cache.as_ref().map(|c| c.join("hookhost").join(leaf));
        env_dir(var, project, home, &mut warnings).or_else(|| {
            if let (Some(last), Some(d)) = (warnings.last_mut(), &default)
                && last.contains(&format!("${var}="))
            {
                last.push_str(&format!("; using {}", d.display()));
            }
            default
        })
    };
    let cache = root(CACHE_DIR_ENV, "wasm");
    let store = root(STORE_ENV, "store");
    (Roots { cache, store }, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_inside_the_project_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let project = root.path().join("p");
        std::fs::create_dir_all(project.join("cache")).unwrap();
        let home = root.path().join("home");
        std::fs::create_dir_all(&home).unwrap();
        let v = |d: &Path| vet_dir("V", d, &project, Some(&home));
        assert!(
            v(&project.join("cache"))
                .unwrap_err()
                .to_string()
                .contains("inside the project")
        );
        // Not yet there, or reached through `..` or a symlink: still inside.
        assert!(v(&project.join("new/deep")).is_err());
        assert!(v(&home.join("../p/cache")).is_err());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&project, home.join("link")).unwrap();
            assert!(v(&home.join("link/cache")).is_err());
        }
        assert!(
            v(Path::new("relative"))
                .unwrap_err()
                .to_string()
                .contains("relative")
        );
        // Outside, private: fine; missing: fine (it is made 0700 when used).
        let mine = home.join("cache");
        crate::files::private_dir(&mine).unwrap();
        assert!(v(&mine).is_ok());
        assert!(v(&home.join("missing")).is_ok());
        // A project at the home directory: its cache is the user's.
        assert!(vet_dir("V", &mine, &home, Some(&home)).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_others_can_write_or_another_user_owns_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let project = root.path().join("p");
        let open = root.path().join("open");
        std::fs::create_dir_all(&open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(vet_dir("V", &open, &project, None).is_err());
        if hookhost_core::process::effective_uid() == 0 {
            let theirs = root.path().join("theirs");
            std::fs::create_dir_all(&theirs).unwrap();
            std::fs::set_permissions(&theirs, std::fs::Permissions::from_mode(0o700)).unwrap();
            std::os::unix::fs::chown(&theirs, Some(65534), Some(65534)).unwrap();
            assert!(vet_dir("V", &theirs, &project, None).is_err());
        }
    }

    #[cfg(unix)]
    #[test]
    fn the_account_has_a_home_and_the_flag_wins() {
        let home = account_home().expect("an account with a home directory");
        assert!(home.is_absolute());
        // The flag wins; the note names both and the flag.
        let r = runner_home(Some("/nonexistent-home-for-test".into()), "--home");
        assert_eq!(
            r.dir.as_deref(),
            Some(Path::new("/nonexistent-home-for-test"))
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_managed_override_must_be_roots_and_private() {
        use std::os::unix::fs::PermissionsExt;
        if hookhost_core::process::effective_uid() != 0 {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let file = dir.path().join("hooks.json");
        assert!(
            check_root_owned(&file).is_ok(),
            "missing, in root's directory"
        );
        std::fs::write(&file, "{}").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(check_root_owned(&file).is_ok());
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o646)).unwrap();
        assert!(check_root_owned(&file).is_err());
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::os::unix::fs::chown(&file, Some(65534), None).unwrap();
        assert!(check_root_owned(&file).is_err());
        std::os::unix::fs::chown(&file, Some(0), None).unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o775)).unwrap();
        assert!(
            check_root_owned(&file).is_err(),
            "a group-writable directory"
        );
        assert!(check_root_owned(&dir.path().join("missing/hooks.json")).is_err());
    }
}
