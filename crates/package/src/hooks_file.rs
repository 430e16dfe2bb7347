//! A `hooks.json` on disk: read as JSON (bounded), written atomically (temporary file and
//! rename, the old permissions kept), and the project's own file never read or written
//! through a symlink. What the entries in it mean is `pins.rs`'s.

use hookhost::files::{CONFIG_LIMIT, read_bounded, read_bounded_nofollow};
use serde_json::{Value, json};
use std::path::Path;

/// Why a `hooks.json` cannot be edited.
#[derive(Debug, thiserror::Error)]
#[error("{}: {message}", file.display())]
pub struct PinsError {
    /// The file.
    pub file: std::path::PathBuf,
    /// What is wrong.
    pub message: String,
}

/// Reads a `hooks.json` as JSON (a missing file is `{"hooks": {}}`).
pub fn read_doc(file: &Path) -> Result<Value, PinsError> {
    let err = |message: String| PinsError {
        file: file.to_path_buf(),
        message,
    };
    let bytes = match read_bounded(file, CONFIG_LIMIT) {
        Ok(b) => b,
        Err(e) if e.is_not_found() => return Ok(json!({"hooks": {}})),
        Err(e) => return Err(err(e.to_string())),
    };
    parse_doc(file, &bytes)
}

fn parse_doc(file: &Path, bytes: &[u8]) -> Result<Value, PinsError> {
    let err = |message: String| PinsError {
        file: file.to_path_buf(),
        message,
    };
    let doc: Value = serde_json::from_slice(bytes).map_err(|e| {
        err(format!(
            "not valid JSON ({e}); fix it first (`hookhost check` says where)"
        ))
    })?;
    if !doc.is_object() || doc.get("hooks").is_some_and(|h| !h.is_object()) {
        return Err(err(
            "not a hooks file ({\"hooks\": {...}}); fix it first".into()
        ));
    }
    Ok(doc)
}

/// Writes `doc` to `file` atomically (temporary file and rename), keeping the old file's
/// permissions, creating the directory if needed.
pub fn write_doc(file: &Path, doc: &Value) -> Result<(), PinsError> {
    let err = |message: String| PinsError {
        file: file.to_path_buf(),
        message,
    };
    let dir = file.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| err(format!("cannot create its directory: {e}")))?;
    let text = serde_json::to_string_pretty(doc).unwrap_or_default() + "\n";
    let mut tmp = tempfile::Builder::new()
        .prefix(".hooks-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| err(e.to_string()))?;
    std::io::Write::write_all(&mut tmp, text.as_bytes()).map_err(|e| err(e.to_string()))?;
    let perms = std::fs::metadata(file).map(|m| m.permissions()).ok();
    #[cfg(unix)]
    let perms = perms.or_else(|| {
        use std::os::unix::fs::PermissionsExt;
        Some(std::fs::Permissions::from_mode(0o644))
    });
    if let Some(p) = perms {
        std::fs::set_permissions(tmp.path(), p).map_err(|e| err(e.to_string()))?;
    }
    tmp.persist(file).map_err(|e| err(e.error.to_string()))?;
    Ok(())
}

/// The project's `.coding-agent` directory name and the file in it.
const PROJECT_DIR: &str = ".coding-agent";
const PROJECT_FILE: &str = "hooks.json";

/// Refuses a symlink at `path` (the project's `.coding-agent` or its `hooks.json`): a
/// cloned repository can ship one leading to the user's own `~/.coding-agent`, and writing
/// through it would turn the project's entries into the user's global, trusted ones.
fn refuse_symlink(path: &Path) -> Result<(), PinsError> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            let target = std::fs::read_link(path)
                .map(|t| format!(" (to {})", t.display()))
                .unwrap_or_default();
            let fix = if path.ends_with(PROJECT_DIR) {
                "replace it with a real directory (`rm .coding-agent && mkdir .coding-agent`), or edit your own file with --global"
            } else {
                "replace it with a real file (`rm .coding-agent/hooks.json`), or edit your own file with --global"
            };
            Err(PinsError {
                file: path.to_path_buf(),
                message: format!(
                    "is a symlink{target}; refusing to read or write the project's hooks through it: it may lead out of the project, e.g. into your own ~/.coding-agent. {fix}"
                ),
            })
        }
        _ => Ok(()),
    }
}

/// Reads the project's `.coding-agent/hooks.json` like [`read_doc`], refusing a symlink at
/// `.coding-agent` or at `hooks.json` (`project` is canonical: nothing above them is one).
pub fn read_project_doc(project: &Path) -> Result<Value, PinsError> {
    let dir = project.join(PROJECT_DIR);
    let file = dir.join(PROJECT_FILE);
    refuse_symlink(&dir)?;
    refuse_symlink(&file)?;
    let bytes = match read_bounded_nofollow(&file, CONFIG_LIMIT) {
        Ok(b) => b,
        Err(e) if e.is_not_found() => return Ok(json!({"hooks": {}})),
        Err(e) => {
            return Err(PinsError {
                file,
                message: e.to_string(),
            });
        }
    };
    parse_doc(&file, &bytes)
}

/// Writes `doc` to the project's `.coding-agent/hooks.json` without following a symlink
/// anywhere inside the project: the directory is opened relative to the project with
/// `O_NOFOLLOW` (created if missing), the text written to a fresh temporary file in that
/// very directory (`O_EXCL|O_NOFOLLOW`) and renamed over `hooks.json` there, so a symlink
/// planted after the check is never written through. Keeps the old file's permissions.
#[cfg(unix)]
pub fn write_project_doc(project: &Path, doc: &Value) -> Result<(), PinsError> {
    let dir_path = project.join(PROJECT_DIR);
    let file_path = dir_path.join(PROJECT_FILE);
    refuse_symlink(&dir_path)?;
    refuse_symlink(&file_path)?;
    let text = serde_json::to_string_pretty(doc).unwrap_or_default() + "\n";
    let root = nofollow::open_project(project)?;
    let dir = nofollow::open_dir(&root, &dir_path)?;
    let mode = nofollow::old_mode(&dir, &file_path)?;
    let tmp = nofollow::Temp::create(&dir, &dir_path, mode)?;
    tmp.write_over(&dir, text.as_bytes(), mode, &file_path)
}

/// The steps of [`write_project_doc`], each on a directory fd opened without following a
/// symlink.
#[cfg(unix)]
mod nofollow {
    use super::{PROJECT_DIR, PROJECT_FILE, PinsError, refuse_symlink};
    use std::ffi::CString;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    fn err(path: &Path, message: String) -> PinsError {
        PinsError {
            file: path.to_path_buf(),
            message,
        }
    }

    fn os() -> std::io::Error {
        std::io::Error::last_os_error()
    }

    /// A C string of a constant name (none has a NUL byte).
    fn c(s: &str) -> CString {
        CString::new(s).expect("no NUL")
    }

    /// The project directory (canonical: nothing above `.coding-agent` is a symlink).
    #[allow(unsafe_code)]
    pub(super) fn open_project(project: &Path) -> Result<OwnedFd, PinsError> {
        let root_c = CString::new(project.as_os_str().as_bytes())
            .map_err(|_| err(project, "the project path has a NUL byte".into()))?;
        // SAFETY: a plain libc call on a valid C string; the fd is owned at once.
        unsafe {
            let fd = libc::open(
                root_c.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
            );
            if fd < 0 {
                return Err(err(project, format!("cannot open the project: {}", os())));
            }
            Ok(OwnedFd::from_raw_fd(fd))
        }
    }

    /// `.coding-agent` in `root`, created if missing, never through a symlink.
    #[allow(unsafe_code)]
    pub(super) fn open_dir(root: &OwnedFd, dir_path: &Path) -> Result<OwnedFd, PinsError> {
        let dir_c = c(PROJECT_DIR);
        // SAFETY: plain libc calls on valid C strings and an fd we own; the new fd is owned
        // at once.
        unsafe {
            if libc::mkdirat(root.as_raw_fd(), dir_c.as_ptr(), 0o755) != 0
                && std::io::Error::last_os_error().raw_os_error() != Some(libc::EEXIST)
            {
                return Err(err(dir_path, format!("cannot create it: {}", os())));
            }
            let fd = libc::openat(
                root.as_raw_fd(),
                dir_c.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            );
            if fd < 0 {
                let e = os();
                if matches!(e.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)) {
                    refuse_symlink(dir_path)?;
                    return Err(err(dir_path, "is not a directory; make it one".into()));
                }
                return Err(err(dir_path, format!("cannot open it: {e}")));
            }
            Ok(OwnedFd::from_raw_fd(fd))
        }
    }

    /// The old file's mode (never a symlink's: it is looked at, not followed); 0644 when
    /// there is none.
    #[allow(unsafe_code)]
    pub(super) fn old_mode(dir: &OwnedFd, file_path: &Path) -> Result<u32, PinsError> {
        let file_c = c(PROJECT_FILE);
        // SAFETY: an all-zero `stat` is a valid value of the plain C struct, which fstatat
        // only writes into; the name is a valid C string, the fd ours.
        unsafe {
            let mut st: libc::stat = std::mem::zeroed();
            if libc::fstatat(
                dir.as_raw_fd(),
                file_c.as_ptr(),
                &mut st,
                libc::AT_SYMLINK_NOFOLLOW,
            ) != 0
            {
                return Ok(0o644);
            }
            if st.st_mode & libc::S_IFMT == libc::S_IFLNK {
                refuse_symlink(file_path)?;
                return Err(err(
                    file_path,
                    "is a symlink; refusing to write through it".into(),
                ));
            }
            if st.st_mode & libc::S_IFMT != libc::S_IFREG {
                return Err(err(
                    file_path,
                    "is not a regular file; refusing to replace it".into(),
                ));
            }
            Ok(st.st_mode & 0o7777)
        }
    }

    /// A fresh temporary file in the directory, created `O_EXCL|O_NOFOLLOW`.
    pub(super) struct Temp {
        name: CString,
        file: std::fs::File,
    }

    impl Temp {
        #[allow(unsafe_code)]
        pub(super) fn create(dir: &OwnedFd, dir_path: &Path, mode: u32) -> Result<Temp, PinsError> {
            let stamp = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or_default();
            for attempt in 0..16u32 {
                let name = format!(".hooks-{}-{stamp:x}-{attempt}.tmp", std::process::id());
                let name = c(&name);
                // SAFETY: as above.
                let fd = unsafe {
                    libc::openat(
                        dir.as_raw_fd(),
                        name.as_ptr(),
                        libc::O_WRONLY
                            | libc::O_CREAT
                            | libc::O_EXCL
                            | libc::O_NOFOLLOW
                            | libc::O_CLOEXEC,
                        mode as libc::c_uint,
                    )
                };
                if fd >= 0 {
                    // SAFETY: a fresh fd we own.
                    let file = unsafe { std::fs::File::from_raw_fd(fd) };
                    return Ok(Temp { name, file });
                }
                if std::io::Error::last_os_error().raw_os_error() != Some(libc::EEXIST) {
                    return Err(err(
                        dir_path,
                        format!("cannot create a temporary file in it: {}", os()),
                    ));
                }
            }
            Err(err(dir_path, "cannot create a temporary file in it".into()))
        }

        /// Writes `text`, then renames the file over `hooks.json` in `dir`; removed on
        /// failure.
        #[allow(unsafe_code)]
        pub(super) fn write_over(
            self,
            dir: &OwnedFd,
            text: &[u8],
            mode: u32,
            file_path: &Path,
        ) -> Result<(), PinsError> {
            let Temp { name, mut file } = self;
            // SAFETY: both are valid: the name a C string, the fd ours.
            let cleanup = || unsafe {
                libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), 0);
            };
            let written = std::io::Write::write_all(&mut file, text)
                .and_then(|()| {
                    use std::os::unix::fs::PermissionsExt;
                    file.set_permissions(std::fs::Permissions::from_mode(mode))
                })
                .and_then(|()| file.sync_all());
            if let Err(e) = written {
                cleanup();
                return Err(err(file_path, format!("cannot write it: {e}")));
            }
            drop(file);
            let file_c = c(PROJECT_FILE);
            // SAFETY: as above; both names are relative to the directory we opened.
            if unsafe {
                libc::renameat(
                    dir.as_raw_fd(),
                    name.as_ptr(),
                    dir.as_raw_fd(),
                    file_c.as_ptr(),
                )
            } != 0
            {
                let e = os();
                cleanup();
                return Err(err(file_path, format!("cannot replace it: {e}")));
            }
            Ok(())
        }
    }
}

/// Elsewhere: the checks, then the ordinary atomic write.
#[cfg(not(unix))]
pub fn write_project_doc(project: &Path, doc: &Value) -> Result<(), PinsError> {
    let dir = project.join(PROJECT_DIR);
    refuse_symlink(&dir)?;
    refuse_symlink(&dir.join(PROJECT_FILE))?;
    write_doc(&dir.join(PROJECT_FILE), doc)
}
