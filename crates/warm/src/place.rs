//! Where a warm engine listens and who may talk to it: a private per-user directory (0700,
//! owned by this user, not a symlink: checked before every use, and a directory that fails a
//! check means no warm engine), one socket per *key* in it, and the peer checks both ends
//! make. The key is a digest of everything a fresh process would inherit that hookhost or a
//! hook can see: the whole environment, the working directory, the umask, the user, the
//! `hookhost` executable (path and identity) and, on Linux, the namespaces. The engine
//! compares all of those, and the peer's whole [`confinement`] (cgroup, user and group ids,
//! supplementary groups, seccomp, no-new-privileges, capabilities and every resource limit
//! too), with its own before it runs a request: the key only finds the socket.
//!
//! Seccomp filters cannot be compared: `/proc` shows only the mode and how many filters a
//! process has, and reading a filter (`PTRACE_SECCOMP_GET_FILTER`) takes `CAP_SYS_ADMIN` and
//! a ptrace attach to the client. Two processes with the same count can hold different
//! filters, so equality is established only for the one state it can be: no filter at all.
//! A client under any filter (a container's default profile, a sandboxing agent) is never
//! served: it runs every event cold ([`seccomp_filtered`]), and an engine that holds a filter
//! serves no one (its lines differ from every unfiltered client's).

use std::ffi::OsString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::os::unix::io::AsRawFd;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};

/// The per-user directory of warm engines: `$XDG_RUNTIME_DIR/hookhost` when that variable is
/// an absolute directory of this user, else `/tmp/hookhost-<uid>`; created 0700 when missing.
/// `Err` says why it cannot be used (then there is no warm engine).
pub fn dir() -> io::Result<PathBuf> {
    let uid = euid();
    let base = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute() && check_private(p, uid).is_ok());
    let dir = match base {
        Some(b) => b.join("hookhost"),
        None => PathBuf::from(format!("/tmp/hookhost-{uid}")),
    };
    match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    check_private(&dir, uid)?;
    Ok(dir)
}

/// `dir` is a real directory (not a symlink) of `uid` that no one else can enter.
pub fn check_private(dir: &Path, uid: u32) -> io::Result<()> {
    let meta = std::fs::symlink_metadata(dir)?;
    let refuse = |why: &str| {
        Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("{} {why}: no warm engine there", dir.display()),
        ))
    };
    if !meta.file_type().is_dir() {
        return refuse("is not a directory (or is a symlink)");
    }
    if meta.uid() != uid {
        return refuse("belongs to another user");
    }
    if meta.mode() & 0o077 != 0 {
        return refuse("is open to other users (want 0700)");
    }
    Ok(())
}

/// This process's effective user id.
pub fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    #[allow(unsafe_code)]
    unsafe {
        libc::geteuid()
    }
}

/// This process's umask (read by setting it and putting it back; nothing else runs yet).
pub fn umask() -> u32 {
    // SAFETY: umask has no preconditions and cannot fail; the value is restored at once.
    #[allow(unsafe_code)]
    let old = unsafe {
        let old = libc::umask(0o077);
        libc::umask(old);
        old
    };
    // mode_t is u32 on Linux and u16 on macOS.
    #[allow(clippy::useless_conversion)]
    u32::from(old)
}

/// The user id and process id of the process at the other end of `stream`.
pub fn peer(stream: &UnixStream) -> io::Result<(u32, Option<i32>)> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let mut cred = libc::ucred {
            pid: 0,
            uid: 0,
            gid: 0,
        };
        let mut len = libc::socklen_t::try_from(std::mem::size_of::<libc::ucred>())
            .map_err(|_| io::Error::other("ucred size"))?;
        // SAFETY: cred and len are valid for writes of the sizes given; the fd is open.
        #[allow(unsafe_code)]
        let rc = unsafe {
            libc::getsockopt(
                stream.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_PEERCRED,
                (&raw mut cred).cast(),
                &raw mut len,
            )
        };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok((cred.uid, Some(cred.pid)))
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let (mut uid, mut gid) = (0, 0);
        // SAFETY: uid and gid are valid for writes; the fd is open.
        #[allow(unsafe_code)]
        let rc = unsafe { libc::getpeereid(stream.as_raw_fd(), &mut uid, &mut gid) };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok((uid, None))
    }
}

/// What confines process `pid` beyond its user (`"self"`: this one), one line each, each
/// line `label: value` (Linux; empty elsewhere): its namespaces, its cgroup, its user and
/// group ids (real, effective, saved, filesystem), its supplementary groups, its seccomp mode
/// and filter count, its no-new-privileges flag, its capability sets (inheritable, permitted,
/// effective, bounding, ambient) and every resource limit (soft and hard). A client in
/// another sandbox than the engine has another identity, so the engine declines it
/// ([`difference`] says what differs). Everything is read through one descriptor of
/// `/proc/<pid>`, so every line is of the same process (one that exited meanwhile reads as
/// errors, which match no engine's), and the process is looked up once, not a dozen times.
#[cfg(target_os = "linux")]
pub fn confinement(pid: &str) -> Vec<String> {
    let proc = ProcDir::open(pid);
    let mut out = proc.namespaces();
    out.push(match proc.read("cgroup") {
        Ok(c) => format!("cgroup: {}", c.trim_end().replace('\n', " ")),
        Err(e) => format!("cgroup: {e}"),
    });
    match proc.read("status") {
        Ok(status) => {
            let line = |label: &str| {
                status
                    .lines()
                    .find_map(|l| l.strip_prefix(label)?.strip_prefix(':'))
                    .map_or_else(
                        || format!("{label}: (not shown)"),
                        |v| {
                            format!(
                                "{label}: {}",
                                v.split_whitespace().collect::<Vec<_>>().join(" ")
                            )
                        },
                    )
            };
            out.extend(STATUS_LINES.iter().map(|l| line(l)));
        }
        Err(e) => out.push(format!("status: {e}")),
    }
    match proc.read("limits") {
        Ok(limits) => out.extend(limits.lines().skip(1).map(limit_line)),
        Err(e) => out.push(format!("limits: {e}")),
    }
    out
}

/// The lines of `/proc/<pid>/status` that are part of a [`confinement`].
#[cfg(target_os = "linux")]
const STATUS_LINES: [&str; 11] = [
    "Uid",
    "Gid",
    "Groups",
    "Seccomp",
    "Seccomp_filters",
    "NoNewPrivs",
    "CapInh",
    "CapPrm",
    "CapEff",
    "CapBnd",
    "CapAmb",
];

/// A line of `/proc/<pid>/limits` (`Max open files   1024   4096   files`) as
/// `limit Max open files: 1024 4096 files`: the columns are separated by two spaces or more,
/// the name's words by one.
#[cfg(target_os = "linux")]
fn limit_line(line: &str) -> String {
    let mut parts = line.split("  ").map(str::trim).filter(|p| !p.is_empty());
    let name = parts.next().unwrap_or_default();
    format!("limit {name}: {}", parts.collect::<Vec<_>>().join(" "))
}

/// What differs between two [`confinement`]s, in words (`Groups: 0 4242, not 0`), or
/// `None` when they are equal. `theirs` is the client's, `ours` the engine's.
pub fn difference(theirs: &[String], ours: &[String]) -> Option<String> {
    if theirs == ours {
        return None;
    }
    let label = |l: &str| l.split_once(':').map_or(l, |(k, _)| k).to_string();
    let mut what = Vec::new();
    for (i, t) in theirs.iter().enumerate() {
        match ours.get(i) {
            Some(o) if o == t => {}
            Some(o) if label(o) == label(t) => {
                let value = |l: &str| l.split_once(':').map_or("", |(_, v)| v).trim().to_string();
                what.push(format!("{}: {}, not {}", label(t), value(t), value(o)));
            }
            _ => what.push(format!("{} (the engine has no such line)", label(t))),
        }
    }
    if ours.len() > theirs.len() {
        what.push("fewer lines than the engine's".to_string());
    }
    Some(what.join("; "))
}

/// Why the process whose [`confinement`] is `lines` cannot be served by any engine: it
/// runs under a seccomp filter or with `no_new_privs` (maybe in a Landlock domain), or its
/// state cannot be read; neither can be compared with another process's (see the module's
/// documentation); `None` when it has neither.
pub fn seccomp_filtered(lines: &[String]) -> Option<String> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let value = |label: &str| {
        lines
            .iter()
            .find_map(|l| l.strip_prefix(label)?.strip_prefix(": "))
    };
    // `no_new_privs` is what an unprivileged Landlock domain (or seccomp filter) needs
    // first, and a Landlock domain shows nowhere in `/proc`: such a client may be confined in
    // a way no engine can compare, so it runs cold too.
    if value("NoNewPrivs") != Some("0") {
        return Some(format!(
            "no_new_privs is {}: the client may be in a Landlock domain, which cannot be read \
             to compare with the engine's, so it runs cold",
            value("NoNewPrivs").unwrap_or("unknown")
        ));
    }
    match (value("Seccomp"), value("Seccomp_filters")) {
        // Mode 0 is no filter (a kernel before 5.9 shows no count).
        (Some("0"), Some("0" | "(not shown)")) => None,
        (mode, filters) => Some(format!(
            "seccomp mode {}, {} filter(s): a filter cannot be read to compare with the \
             engine's, so a filtered client runs cold",
            mode.unwrap_or("unknown"),
            filters.unwrap_or("unknown")
        )),
    }
}

/// Whether this process runs under a seccomp filter (or cannot tell): then no engine will
/// serve it ([`seccomp_filtered`]), and the client neither asks nor starts one.
#[cfg(target_os = "linux")]
pub fn self_filtered() -> bool {
    std::fs::read_to_string("/proc/self/status").map_or(true, |status| {
        let is_zero = |label: &str| {
            status
                .lines()
                .filter_map(|l| l.strip_prefix(label))
                .any(|v| v.trim() == "0")
        };
        !(is_zero("Seccomp:") && is_zero("NoNewPrivs:"))
    })
}

/// No seccomp where there is no `/proc` to read it from.
#[cfg(not(target_os = "linux"))]
pub fn self_filtered() -> bool {
    false
}

/// The namespaces of process `pid`, one line each (Linux; empty elsewhere): the part of
/// [`confinement`] a client puts in its key (cheap to read; the engine compares all of it).
#[cfg(target_os = "linux")]
pub fn namespaces(pid: &str) -> Vec<String> {
    ProcDir::open(pid).namespaces()
}

/// Nothing to compare where there is no `/proc` (see the Linux [`confinement`]).
#[cfg(not(target_os = "linux"))]
pub fn confinement(_pid: &str) -> Vec<String> {
    Vec::new()
}

/// Nothing to compare where there is no `/proc` (see the Linux [`namespaces`]).
#[cfg(not(target_os = "linux"))]
pub fn namespaces(_pid: &str) -> Vec<String> {
    Vec::new()
}

/// `/proc/<pid>`, opened once (or why it could not be: every read then says so).
#[cfg(target_os = "linux")]
struct ProcDir(io::Result<std::os::fd::OwnedFd>);

#[cfg(target_os = "linux")]
impl ProcDir {
    const NAMESPACES: [&str; 7] = ["mnt", "pid", "net", "user", "ipc", "uts", "cgroup"];

    fn open(pid: &str) -> ProcDir {
        use std::os::unix::fs::OpenOptionsExt;
        ProcDir(
            std::fs::File::options()
                .read(true)
                .custom_flags(libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC)
                .open(format!("/proc/{pid}"))
                .map(std::os::fd::OwnedFd::from),
        )
    }

    fn namespaces(&self) -> Vec<String> {
        Self::NAMESPACES
            .into_iter()
            .map(|ns| {
                self.link(&format!("ns/{ns}"))
                    .unwrap_or_else(|e| format!("{ns}: {e}"))
            })
            .collect()
    }

    fn fd(&self) -> io::Result<i32> {
        match &self.0 {
            Ok(fd) => Ok(fd.as_raw_fd()),
            Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
        }
    }

    /// The target of the link `name` under the directory.
    fn link(&self, name: &str) -> io::Result<String> {
        let dir = self.fd()?;
        let name = std::ffi::CString::new(name).map_err(io::Error::other)?;
        let mut buf = [0u8; 256];
        // SAFETY: `dir` is an open descriptor, `name` is NUL-terminated and `buf` is writable
        // for its length; readlinkat writes at most that many bytes.
        #[allow(unsafe_code)]
        let n = unsafe { libc::readlinkat(dir, name.as_ptr(), buf.as_mut_ptr().cast(), buf.len()) };
        let n = usize::try_from(n).map_err(|_| io::Error::last_os_error())?;
        Ok(String::from_utf8_lossy(&buf[..n.min(buf.len())]).into_owned())
    }

    /// The text of the file `name` under the directory.
    fn read(&self, name: &str) -> io::Result<String> {
        use std::io::Read;
        use std::os::fd::FromRawFd;
        let dir = self.fd()?;
        let name = std::ffi::CString::new(name).map_err(io::Error::other)?;
        // SAFETY: `dir` is an open descriptor and `name` is NUL-terminated.
        #[allow(unsafe_code)]
        let fd = unsafe { libc::openat(dir, name.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: fd was just returned by openat and nothing else owns it.
        #[allow(unsafe_code)]
        let mut file = unsafe { std::fs::File::from_raw_fd(fd) };
        // Room for the whole file at once: the kernel renders a /proc file for each read
        // that finds its buffer used up, and these are a few hundred bytes to a few KiB.
        let mut text = String::with_capacity(8192);
        file.read_to_string(&mut text)?;
        Ok(text)
    }
}

/// Whether the process `pid` (a peer's, from [`peer`]) runs the executable `exe` itself (the
/// same file: device and inode of `/proc/<pid>/exe`). Anything else listening at an engine's
/// socket, a script of the same user's that took the socket's place, is not an engine: its
/// answers are never taken. Where the executable cannot be read (no `/proc`), `true`.
pub fn runs_exe(pid: Option<i32>, exe: &Path) -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    let (Some(pid), Ok(ours)) = (pid, std::fs::metadata(exe)) else {
        return false;
    };
    std::fs::metadata(format!("/proc/{pid}/exe"))
        .is_ok_and(|theirs| (theirs.dev(), theirs.ino()) == (ours.dev(), ours.ino()))
}

/// The executable's identity: its path and, when it can be read, device, inode, size and
/// modification time (a rebuilt or replaced binary gets another engine).
pub fn exe_identity(exe: &Path) -> String {
    match std::fs::metadata(exe) {
        Ok(m) => format!(
            "{}:{}:{}:{}:{}.{}",
            exe.display(),
            m.dev(),
            m.ino(),
            m.size(),
            m.mtime(),
            m.mtime_nsec()
        ),
        Err(_) => exe.display().to_string(),
    }
}

/// The key of an invocation (see the module's documentation): 16 hex digits.
pub fn key(
    env: &[(OsString, OsString)],
    cwd: &Path,
    umask: u32,
    exe: &str,
    confinement: &[String],
) -> String {
    let mut h = Fnv::default();
    let mut sorted: Vec<_> = env.iter().collect();
    sorted.sort();
    for (k, v) in sorted {
        h.field(k.as_bytes());
        h.field(v.as_bytes());
    }
    h.field(cwd.as_os_str().as_bytes());
    h.field(&umask.to_le_bytes());
    h.field(&euid().to_le_bytes());
    h.field(exe.as_bytes());
    for c in confinement {
        h.field(c.as_bytes());
    }
    format!("{:016x}", h.0)
}

/// FNV-1a, 64 bits: stable across builds (the client and the engine may be built apart),
/// and only ever a lookup key, never a check.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn field(&mut self, bytes: &[u8]) {
        for b in u64::try_from(bytes.len()).unwrap_or(u64::MAX).to_le_bytes() {
            self.byte(b);
        }
        for &b in bytes {
            self.byte(b);
        }
    }

    fn byte(&mut self, b: u8) {
        self.0 ^= u64::from(b);
        self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn only_a_private_directory_of_this_user_is_used() {
        let t = tempfile::tempdir().unwrap();
        let uid = euid();
        let d = t.path().join("d");
        std::fs::create_dir(&d).unwrap();
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o700)).unwrap();
        check_private(&d, uid).unwrap();
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755)).unwrap();
        let e = check_private(&d, uid).unwrap_err();
        assert!(e.to_string().contains("open to other users"), "{e}");
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o700)).unwrap();
        let link = t.path().join("link");
        std::os::unix::fs::symlink(&d, &link).unwrap();
        let e = check_private(&link, uid).unwrap_err();
        assert!(e.to_string().contains("symlink"), "{e}");
        let e = check_private(&d, uid.wrapping_add(1)).unwrap_err();
        assert!(e.to_string().contains("another user"), "{e}");
    }

    #[test]
    fn the_key_changes_with_anything_a_fresh_process_would_see() {
        let env = vec![(OsString::from("A"), OsString::from("1"))];
        let base = key(&env, Path::new("/p"), 0o022, "exe", &[]);
        assert_eq!(base.len(), 16);
        let reordered = vec![
            (OsString::from("B"), OsString::from("2")),
            (OsString::from("A"), OsString::from("1")),
        ];
        let mut both = env.clone();
        both.push(("B".into(), "2".into()));
        assert_eq!(
            key(&reordered, Path::new("/p"), 0o022, "exe", &[]),
            key(&both, Path::new("/p"), 0o022, "exe", &[])
        );
        for other in [
            key(&both, Path::new("/p"), 0o022, "exe", &[]),
            key(&env, Path::new("/q"), 0o022, "exe", &[]),
            key(&env, Path::new("/p"), 0o077, "exe", &[]),
            key(&env, Path::new("/p"), 0o022, "exe2", &[]),
            key(&env, Path::new("/p"), 0o022, "exe", &["mnt:[1]".into()]),
            key(
                &[(OsString::from("A"), OsString::from("2"))],
                Path::new("/p"),
                0o022,
                "exe",
                &[],
            ),
        ] {
            assert_ne!(other, base);
        }
    }

    #[test]
    fn the_peer_of_a_socket_pair_is_this_process() {
        let (a, _b) = UnixStream::pair().unwrap();
        let (uid, pid) = peer(&a).unwrap();
        assert_eq!(uid, euid());
        if cfg!(target_os = "linux") {
            assert_eq!(pid, i32::try_from(std::process::id()).ok());
            assert_eq!(
                confinement("self"),
                confinement(&std::process::id().to_string())
            );
        }
    }

    #[test]
    fn a_difference_names_what_differs_and_a_filter_is_never_equal() {
        let ours: Vec<String> = [
            "mnt:[1]",
            "Groups: 0",
            "limit Max open files: 1024 4096 files",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(difference(&ours, &ours), None);
        let mut theirs = ours.clone();
        theirs[1] = "Groups: 0 4242".into();
        theirs[2] = "limit Max open files: 1023 4096 files".into();
        let what = difference(&theirs, &ours).unwrap();
        assert!(what.contains("Groups: 0 4242, not 0"), "{what}");
        assert!(
            what.contains("limit Max open files: 1023 4096 files, not 1024"),
            "{what}"
        );
        assert!(difference(&ours[..2], &ours).is_some());
        if cfg!(target_os = "linux") {
            let line = |s: &str| s.to_string();
            let none = [
                line("Seccomp: 0"),
                line("Seccomp_filters: 0"),
                line("NoNewPrivs: 0"),
            ];
            assert_eq!(seccomp_filtered(&none), None);
            let filtered = [
                line("Seccomp: 2"),
                line("Seccomp_filters: 1"),
                line("NoNewPrivs: 0"),
            ];
            let why = seccomp_filtered(&filtered).unwrap();
            assert!(why.contains("mode 2, 1 filter(s)"), "{why}");
            // no_new_privs alone: maybe a Landlock domain, which /proc does not show.
            let nnp = [
                line("Seccomp: 0"),
                line("Seccomp_filters: 0"),
                line("NoNewPrivs: 1"),
            ];
            let why = seccomp_filtered(&nnp).unwrap();
            assert!(why.contains("Landlock"), "{why}");
            assert!(seccomp_filtered(&[]).is_some(), "unreadable is filtered");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_confinement_is_read_whole_and_a_gone_process_matches_nothing() {
        let me = confinement("self");
        // Seven namespaces, the cgroup, eleven lines of the status and sixteen limits.
        assert_eq!(me.len(), 7 + 1 + 11 + 16, "{me:?}");
        assert!(me[0].starts_with("mnt:["), "{me:?}");
        assert!(me.iter().any(|l| l.starts_with("CapEff: ")), "{me:?}");
        assert!(me.iter().any(|l| l.starts_with("Groups:")), "{me:?}");
        assert!(
            me.iter().any(|l| l.starts_with("limit Max open files: ")),
            "{me:?}"
        );
        assert!(!me.iter().any(|l| l.contains("(not shown)")), "{me:?}");
        // A process that is not there (pid_max is at most 2^22) reads as errors, never as
        // this one's confinement.
        let gone = confinement("4194305");
        assert_ne!(gone, me);
        assert!(gone[0].starts_with("mnt: "), "{gone:?}");
        // A child in a namespace of its own reads differently from its parent.
        let child = std::process::Command::new("unshare")
            .args(["--user", "--map-root-user", "sleep", "5"])
            .spawn();
        if let Ok(mut child) = child {
            std::thread::sleep(std::time::Duration::from_millis(200));
            let theirs = confinement(&child.id().to_string());
            // Only a child still running tells (unshare may be refused here).
            let running = matches!(child.try_wait(), Ok(None));
            let _ = child.kill();
            let _ = child.wait();
            if running {
                assert_ne!(theirs[..7], me[..7], "its namespaces differ");
                assert!(theirs[1].starts_with("pid:["), "{theirs:?}");
            }
        }
    }
}
