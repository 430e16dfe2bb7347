//! The pinned entries of a `hooks.json`: what `hookhost add` writes, what `update` moves and
//! `remove` deletes, with the rest of the file kept as it was (its other keys and hooks, in
//! order; the file is re-indented and, within each object, keys come out sorted).
//!
//! A pinned entry is an ordinary hook whose `package` names the module by digest:
//! `{"package": {"ref": "oci://ghcr.io/you/guard:1.0", "digest": "sha256:..."}, "match":
//! "bash", "fs": "none", "memory": 64, "timeout": 5000}`. Its grants (`fs`, `env`, `memory`,
//! `timeout`, `fuel`) are the manifest's requests as the user approved them; from then on
//! they are the config's, and the config wins.

use super::manifest::{Manifest, fs_name};
use hookhost::Event;
use hookhost::files::{CONFIG_LIMIT, read_bounded, read_bounded_nofollow};
use hookhost::store::Digest;
use serde_json::{Map, Value, json};
use std::path::Path;

/// One pinned hook found in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pinned {
    /// Its event.
    pub event: String,
    /// Its index in the event's list.
    pub index: usize,
    /// `package.ref`.
    pub reference: String,
    /// `package.digest`.
    pub digest: Digest,
}

/// The hook entries that run `manifest`'s module (pinned to `digest`, recorded as coming
/// from `reference`): one per event it names, with its default `match` on tool events and
/// its capabilities as grants.
pub fn entries_for(manifest: &Manifest, reference: &str, digest: &Digest) -> Vec<(String, Value)> {
    manifest
        .events
        .iter()
        .map(|event| {
            let mut e = Map::new();
            e.insert(
                "package".into(),
                json!({"ref": reference, "digest": digest.to_string()}),
            );
            if let Some(d) = &manifest.description {
                e.insert("description".into(), json!(d));
            }
            let tool = event.parse::<Event>().is_ok_and(Event::takes_tool_matcher);
            if let (Some(m), true) = (&manifest.matcher, tool) {
                e.insert("match".into(), json!(m));
            }
            grant(&mut e, manifest);
            (event.clone(), Value::Object(e))
        })
        .collect()
}

/// Writes `manifest`'s capabilities as the entry's grants.
fn grant(e: &mut Map<String, Value>, manifest: &Manifest) {
    let c = &manifest.capabilities;
    e.insert("fs".into(), json!(fs_name(c.fs)));
    for (key, v) in [
        ("memory", c.memory),
        ("timeout", c.timeout),
        ("fuel", c.fuel),
    ] {
        match v {
            Some(v) => e.insert(key.into(), json!(v)),
            None => e.remove(key),
        };
    }
    if c.env.is_empty() {
        e.remove("env");
    } else {
        e.insert("env".into(), json!(c.env));
    }
}

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
    use std::ffi::CString;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    let dir_path = project.join(PROJECT_DIR);
    let file_path = dir_path.join(PROJECT_FILE);
    refuse_symlink(&dir_path)?;
    refuse_symlink(&file_path)?;
    let err = |path: &Path, message: String| PinsError {
        file: path.to_path_buf(),
        message,
    };
    let os = std::io::Error::last_os_error;
    let c = |s: &str| CString::new(s).expect("no NUL");
    let text = serde_json::to_string_pretty(doc).unwrap_or_default() + "\n";
    let root_c = CString::new(project.as_os_str().as_bytes())
        .map_err(|_| err(project, "the project path has a NUL byte".into()))?;
    // SAFETY: plain libc calls on valid C strings; every fd is owned at once.
    let root = unsafe {
        let fd = libc::open(
            root_c.as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
        );
        if fd < 0 {
            return Err(err(project, format!("cannot open the project: {}", os())));
        }
        OwnedFd::from_raw_fd(fd)
    };
    let dir_c = c(PROJECT_DIR);
    // SAFETY: as above.
    let dir = unsafe {
        if libc::mkdirat(root.as_raw_fd(), dir_c.as_ptr(), 0o755) != 0
            && std::io::Error::last_os_error().raw_os_error() != Some(libc::EEXIST)
        {
            return Err(err(&dir_path, format!("cannot create it: {}", os())));
        }
        let fd = libc::openat(
            root.as_raw_fd(),
            dir_c.as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
        );
        if fd < 0 {
            let e = os();
            if matches!(e.raw_os_error(), Some(libc::ELOOP) | Some(libc::ENOTDIR)) {
                refuse_symlink(&dir_path)?;
                return Err(err(&dir_path, "is not a directory; make it one".into()));
            }
            return Err(err(&dir_path, format!("cannot open it: {e}")));
        }
        OwnedFd::from_raw_fd(fd)
    };
    let file_c = c(PROJECT_FILE);
    // The old file's mode (never a symlink's: it is looked at, not followed).
    let mode = unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        if libc::fstatat(
            dir.as_raw_fd(),
            file_c.as_ptr(),
            &mut st,
            libc::AT_SYMLINK_NOFOLLOW,
        ) == 0
        {
            if st.st_mode & libc::S_IFMT == libc::S_IFLNK {
                refuse_symlink(&file_path)?;
                return Err(err(
                    &file_path,
                    "is a symlink; refusing to write through it".into(),
                ));
            }
            if st.st_mode & libc::S_IFMT != libc::S_IFREG {
                return Err(err(
                    &file_path,
                    "is not a regular file; refusing to replace it".into(),
                ));
            }
            st.st_mode & 0o7777
        } else {
            0o644
        }
    };
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let mut made = None;
    for attempt in 0..16u32 {
        let name = format!(".hooks-{}-{stamp:x}-{attempt}.tmp", std::process::id());
        let name_c = c(&name);
        // SAFETY: as above.
        let fd = unsafe {
            libc::openat(
                dir.as_raw_fd(),
                name_c.as_ptr(),
                libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC,
                mode as libc::c_uint,
            )
        };
        if fd >= 0 {
            // SAFETY: a fresh fd we own.
            made = Some((name_c, unsafe { std::fs::File::from_raw_fd(fd) }));
            break;
        }
        if std::io::Error::last_os_error().raw_os_error() != Some(libc::EEXIST) {
            return Err(err(
                &dir_path,
                format!("cannot create a temporary file in it: {}", os()),
            ));
        }
    }
    let Some((tmp_c, mut tmp)) = made else {
        return Err(err(
            &dir_path,
            "cannot create a temporary file in it".into(),
        ));
    };
    let cleanup = |dir: &OwnedFd| unsafe {
        libc::unlinkat(dir.as_raw_fd(), tmp_c.as_ptr(), 0);
    };
    let written = std::io::Write::write_all(&mut tmp, text.as_bytes())
        .and_then(|()| {
            use std::os::unix::fs::PermissionsExt;
            tmp.set_permissions(std::fs::Permissions::from_mode(mode))
        })
        .and_then(|()| tmp.sync_all());
    if let Err(e) = written {
        cleanup(&dir);
        return Err(err(&file_path, format!("cannot write it: {e}")));
    }
    drop(tmp);
    // SAFETY: as above; both names are relative to the directory we opened.
    if unsafe {
        libc::renameat(
            dir.as_raw_fd(),
            tmp_c.as_ptr(),
            dir.as_raw_fd(),
            file_c.as_ptr(),
        )
    } != 0
    {
        let e = os();
        cleanup(&dir);
        return Err(err(&file_path, format!("cannot replace it: {e}")));
    }
    Ok(())
}

/// Elsewhere: the checks, then the ordinary atomic write.
#[cfg(not(unix))]
pub fn write_project_doc(project: &Path, doc: &Value) -> Result<(), PinsError> {
    let dir = project.join(PROJECT_DIR);
    refuse_symlink(&dir)?;
    refuse_symlink(&dir.join(PROJECT_FILE))?;
    write_doc(&dir.join(PROJECT_FILE), doc)
}

fn hooks_mut(doc: &mut Value) -> &mut Map<String, Value> {
    if !doc.is_object() {
        *doc = json!({});
    }
    let root = doc.as_object_mut().expect("an object");
    let hooks = root.entry("hooks").or_insert_with(|| json!({}));
    if !hooks.is_object() {
        *hooks = json!({});
    }
    hooks.as_object_mut().expect("an object")
}

/// The `package.ref` of an entry.
fn ref_of(entry: &Value) -> Option<&str> {
    entry.get("package")?.get("ref")?.as_str()
}

/// Every pinned entry of `doc`, in file order.
pub fn pinned(doc: &Value) -> Vec<Pinned> {
    let mut out = Vec::new();
    let Some(hooks) = doc.get("hooks").and_then(Value::as_object) else {
        return out;
    };
    for (event, list) in hooks {
        for (index, entry) in list.as_array().into_iter().flatten().enumerate() {
            let digest = entry
                .get("package")
                .and_then(|p| p.get("digest"))
                .and_then(Value::as_str)
                .and_then(|d| Digest::parse(d).ok());
            if let (Some(reference), Some(digest)) = (ref_of(entry), digest) {
                out.push(Pinned {
                    event: event.clone(),
                    index,
                    reference: reference.to_string(),
                    digest,
                });
            }
        }
    }
    out
}

/// Adds `entries`, first removing the entries already pinned from `reference` (adding a
/// package again replaces it). Returns how many entries were replaced.
pub fn add(doc: &mut Value, reference: &str, entries: Vec<(String, Value)>) -> usize {
    let replaced = remove(doc, |r| r == reference);
    let hooks = hooks_mut(doc);
    for (event, entry) in entries {
        let list = hooks.entry(event).or_insert_with(|| json!([]));
        if !list.is_array() {
            *list = json!([]);
        }
        list.as_array_mut().expect("an array").push(entry);
    }
    replaced
}

/// Removes every entry whose `package.ref` satisfies `which`; returns how many. Events left
/// with no hooks are removed.
pub fn remove(doc: &mut Value, which: impl Fn(&str) -> bool) -> usize {
    let hooks = hooks_mut(doc);
    let mut removed = 0;
    for list in hooks.values_mut() {
        if let Some(items) = list.as_array_mut() {
            let before = items.len();
            items.retain(|e| !ref_of(e).is_some_and(&which));
            removed += before - items.len();
        }
    }
    if removed > 0 {
        hooks.retain(|_, list| list.as_array().is_none_or(|a| !a.is_empty()));
    }
    removed
}

/// Moves the entries pinned from `reference` to `manifest`'s module at `digest`: the digest
/// and the grants change; `match`, `description`, `cwd`, `args` and the rest stay as the
/// user left them. Events the new manifest drops lose their entries; events it adds get new
/// ones.
pub fn update(doc: &mut Value, reference: &str, manifest: &Manifest, digest: &Digest) {
    let hooks = hooks_mut(doc);
    let mut seen = Vec::new();
    for (event, list) in hooks.iter_mut() {
        let Some(items) = list.as_array_mut() else {
            continue;
        };
        let keep = manifest.events.contains(event);
        items.retain(|e| keep || ref_of(e) != Some(reference));
        for entry in items.iter_mut().filter(|e| ref_of(e) == Some(reference)) {
            if let Some(p) = entry.get_mut("package").and_then(Value::as_object_mut) {
                p.insert("digest".into(), json!(digest.to_string()));
            }
            if let Some(e) = entry.as_object_mut() {
                grant(e, manifest);
            }
            seen.push(event.clone());
        }
    }
    hooks.retain(|_, list| list.as_array().is_none_or(|a| !a.is_empty()));
    let fresh: Vec<_> = entries_for(manifest, reference, digest)
        .into_iter()
        .filter(|(event, _)| !seen.contains(event))
        .collect();
    for (event, entry) in fresh {
        let list = hooks.entry(event).or_insert_with(|| json!([]));
        if let Some(items) = list.as_array_mut() {
            items.push(entry);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(events: &[&str], fs: &str) -> Manifest {
        Manifest::from_json(
            json!({"name": "g", "version": "1", "events": events, "match": "bash",
                   "capabilities": {"fs": fs, "memory": 64}})
            .to_string()
            .as_bytes(),
        )
        .unwrap()
    }

    #[test]
    fn add_keeps_the_rest_and_replaces_itself() {
        let mut doc = json!({"$schema": "x", "hooks": {"PreToolUse": [{"command": "./a.sh"}]}});
        let d1 = Digest::of(b"1");
        let m = manifest(&["PreToolUse", "Stop"], "none");
        assert_eq!(
            add(&mut doc, "oci://r/g:1", entries_for(&m, "oci://r/g:1", &d1)),
            0
        );
        assert_eq!(
            add(&mut doc, "oci://r/g:1", entries_for(&m, "oci://r/g:1", &d1)),
            2
        );
        assert_eq!(doc["$schema"], "x");
        assert_eq!(doc["hooks"]["PreToolUse"][0]["command"], "./a.sh");
        assert_eq!(doc["hooks"]["PreToolUse"][1]["match"], "bash");
        assert!(doc["hooks"]["Stop"][0].get("match").is_none());
        assert_eq!(pinned(&doc).len(), 2);
        // The entry reads back as a valid hook.
        let paths = hookhost::config::ConfigPaths::with_home(Path::new("/tmp"), None);
        let (hooks, errors) = hookhost::config::parse_file(
            &doc.to_string(),
            Path::new("/tmp/.coding-agent/hooks.json"),
            hookhost::config::Scope::Project,
            &paths,
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(hooks.len(), 3);
    }

    #[cfg(unix)]
    #[test]
    fn project_writes_never_follow_a_symlink() {
        let project = tempfile::TempDir::new().unwrap();
        let project = project.path().canonicalize().unwrap();
        let elsewhere = tempfile::TempDir::new().unwrap();
        let doc = json!({"hooks": {"Stop": []}});
        // A missing directory is created; the file is written and read back.
        write_project_doc(&project, &doc).unwrap();
        assert_eq!(read_project_doc(&project).unwrap(), doc);
        let file = project.join(".coding-agent/hooks.json");
        std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o600))
            .unwrap();
        write_project_doc(&project, &json!({"hooks": {}})).unwrap();
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(&file).unwrap().permissions(),
        );
        assert_eq!(mode & 0o777, 0o600);
        // A symlinked hooks.json.
        let victim = elsewhere.path().join("hooks.json");
        std::fs::write(&victim, "{}").unwrap();
        std::fs::remove_file(&file).unwrap();
        std::os::unix::fs::symlink(&victim, &file).unwrap();
        let e = write_project_doc(&project, &doc).unwrap_err().to_string();
        assert!(e.contains("symlink") && e.contains("hooks.json"), "{e}");
        assert!(
            read_project_doc(&project)
                .unwrap_err()
                .to_string()
                .contains("symlink")
        );
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "{}");
        // A symlinked .coding-agent.
        std::fs::remove_dir_all(project.join(".coding-agent")).unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), project.join(".coding-agent")).unwrap();
        let e = write_project_doc(&project, &doc).unwrap_err().to_string();
        assert!(e.contains("symlink") && e.contains(".coding-agent"), "{e}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "{}");
        assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 1);
    }

    #[test]
    fn update_moves_the_digest_and_keeps_user_edits() {
        let mut doc = json!({"hooks": {}});
        let (d1, d2) = (Digest::of(b"1"), Digest::of(b"2"));
        add(
            &mut doc,
            "oci://r/g:1",
            entries_for(&manifest(&["PreToolUse"], "none"), "oci://r/g:1", &d1),
        );
        doc["hooks"]["PreToolUse"][0]["match"] = json!("bash|sh");
        update(
            &mut doc,
            "oci://r/g:1",
            &manifest(&["PreToolUse", "Stop"], "write"),
            &d2,
        );
        let e = &doc["hooks"]["PreToolUse"][0];
        assert_eq!(
            (e["match"].as_str(), e["fs"].as_str()),
            (Some("bash|sh"), Some("write"))
        );
        assert_eq!(e["package"]["digest"], d2.to_string());
        assert_eq!(doc["hooks"]["Stop"][0]["package"]["digest"], d2.to_string());
        assert_eq!(remove(&mut doc, |r| r == "oci://r/g:1"), 2);
        assert_eq!(doc, json!({"hooks": {}}));
    }
}
