//! The client: [`forward`] one invocation of `hookhost hook ...` / `hookhost run ...` to the
//! warm engine of its key, and say what became of it. Whatever goes wrong before the engine
//! answers (no engine, another user at the socket, a declined request, a broken connection)
//! leaves the invocation to the caller, who runs it as a fresh process would: the warm
//! engine can make an event cheaper, never answer it differently.

use crate::frame::{Reply, Request};
use crate::place;
use std::ffi::{OsStr, OsString};
use std::io::{self, IsTerminal, Read, Write};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `HOOKHOST_DAEMON`: unset, empty, `1` or `on`: use the warm engine (the default, unless
/// the user's own file says `"warmEngine": false`); `0` or `off`: not for this process (a
/// project's agent settings can set it: it can only make events slower, never answer them
/// differently); `wait`: also wait for a just-started engine to answer this event (tests).
/// Whether an engine may be started at all is the user's switch, never this variable.
pub const DAEMON_ENV: &str = "HOOKHOST_DAEMON";
/// `HOOKHOST_DAEMON_IDLE_MS`: how long an engine waits for its next request before it exits
/// (default ten minutes).
pub const IDLE_ENV: &str = "HOOKHOST_DAEMON_IDLE_MS";
/// The hidden global flag that makes `hookhost` run in-process without asking an engine (the
/// client passes it when it hands an invocation back to the real executable).
pub const NO_WARM_FLAG: &str = "--no-warm";
/// The hidden global flag with which the client hands an invocation to `hookhost` when no
/// engine answered: run it in-process, and start an engine if the user's switch allows.
pub const WARM_START_FLAG: &str = "--warm-start";
/// The hidden subcommand that runs the engine: `hookhost warm-serve --socket PATH`.
pub const SERVE_COMMAND: &str = "warm-serve";

/// Variables under which no warm engine is used: spans are exported when a process ends,
/// and an engine's process does not end with the event.
pub const UNSERVED_WITH: [&str; 2] = [
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
];

/// The first of [`UNSERVED_WITH`] that is set (not empty), if any.
pub fn unserved_env() -> Option<&'static str> {
    UNSERVED_WITH
        .into_iter()
        .find(|v| std::env::var_os(v).is_some_and(|x| !x.is_empty()))
}

/// How long `wait` waits for a just-started engine.
const WAIT_FOR_START: Duration = Duration::from_secs(5);

/// Whether and how to use a warm engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Never.
    Off,
    /// When one is running; when none is, the invocation runs in-process and starts one (if
    /// the user's switch allows).
    On,
    /// As `On`, and wait for a just-started one to answer.
    Wait,
}

impl Mode {
    /// The mode `$HOOKHOST_DAEMON` asks for: on unless it says `0`/`off`.
    pub fn from_env() -> Mode {
        match std::env::var_os(DAEMON_ENV)
            .as_deref()
            .and_then(OsStr::to_str)
            .map(str::trim)
        {
            Some("0" | "off" | "false" | "no") => Mode::Off,
            Some("wait") => Mode::Wait,
            _ => Mode::On,
        }
    }
}

/// What became of an invocation.
#[derive(Debug)]
pub enum Forwarded {
    /// The engine ran it; its output is written: exit with this code.
    Answered(u8),
    /// Not sent: run it in-process, stdin untouched.
    NotUsed,
    /// No engine answers at this socket: run it in-process, stdin untouched, and start one
    /// there (if the user's switch allows: [`start`]).
    NoEngine(PathBuf),
    /// Sent but not run (declined, or the connection broke): run it in-process with these
    /// bytes as stdin (already read from it), `None` when it takes no stdin.
    Returned(Option<Vec<u8>>),
}

/// Forwards `args` (without the program name) to the warm engine of `exe` (the `hookhost`
/// executable that would run it), per `mode`. Never starts one: when none answers, the
/// caller runs the invocation and starts one ([`Forwarded::NoEngine`]).
pub fn forward(mode: Mode, exe: &Path, args: &[OsString]) -> Forwarded {
    if mode == Mode::Off || !served(args) {
        return Forwarded::NotUsed;
    }
    let Some(socket) = socket_for(exe) else {
        return Forwarded::NotUsed;
    };
    match connect(&socket, exe) {
        Connected::Yes(stream) => send(stream, args),
        Connected::Nobody => Forwarded::NoEngine(socket),
        Connected::NotOurs => Forwarded::NotUsed,
    }
}

/// The socket of the engine that would serve this process's invocations of `exe`; `None`
/// when no engine may serve it: stderr is a terminal (run by hand), spans are exported at
/// its end, it runs under a seccomp filter (place.rs), or there is no private directory.
pub fn socket_for(exe: &Path) -> Option<PathBuf> {
    if io::stderr().is_terminal() || unserved_env().is_some() || place::self_filtered() {
        return None;
    }
    let dir = place::dir().ok()?;
    let cwd = std::env::current_dir().ok()?;
    let env: Vec<(OsString, OsString)> = std::env::vars_os().collect();
    let exe_id = place::exe_identity(exe);
    Some(dir.join(format!(
        "{}.sock",
        place::key(
            &env,
            &cwd,
            place::umask(),
            &exe_id,
            &place::namespaces("self")
        )
    )))
}

/// After [`start`] under [`Mode::Wait`]: waits for the engine of `exe` at `socket` to listen,
/// then forwards `args` to it.
pub fn wait_and_forward(exe: &Path, socket: &Path, args: &[OsString]) -> Forwarded {
    let deadline = Instant::now() + WAIT_FOR_START;
    while Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
        match connect(socket, exe) {
            Connected::Yes(stream) => return send(stream, args),
            Connected::Nobody => {}
            Connected::NotOurs => break,
        }
    }
    Forwarded::NotUsed
}

/// Sends one invocation over `stream` and writes what the engine answered.
fn send(mut stream: UnixStream, args: &[OsString]) -> Forwarded {
    let Ok(cwd) = std::env::current_dir() else {
        return Forwarded::NotUsed;
    };
    let env: Vec<(OsString, OsString)> = std::env::vars_os().collect();
    let umask = place::umask();
    let stdin = match read_stdin(args) {
        Ok(s) => s,
        Err(_) => return Forwarded::NotUsed,
    };
    let request = Request {
        args: args.to_vec(),
        env,
        cwd,
        umask,
        stdin,
    };
    match exchange(&mut stream, &request) {
        Ok(Reply::Ran {
            code,
            stdout,
            stderr,
        }) => {
            // What the command wrote; a closed stdout or stderr is the agent's business, as
            // it would be for a fresh process.
            let _ = io::stdout()
                .write_all(&stdout)
                .and_then(|()| io::stdout().flush());
            let _ = io::stderr().write_all(&stderr);
            Forwarded::Answered(code)
        }
        Ok(Reply::Declined(_)) | Err(_) => Forwarded::Returned(request.stdin),
    }
}

/// Whether the engine serves these arguments: `hook ...` or `run ...`, first.
fn served(args: &[OsString]) -> bool {
    matches!(args.first().and_then(|a| a.to_str()), Some("hook" | "run"))
}

/// What connecting to an engine's socket found.
enum Connected {
    /// An engine of this user.
    Yes(UnixStream),
    /// No engine listens there.
    Nobody,
    /// Something else: another user's socket, a process that is not `exe` listening there,
    /// or an error other than "not there".
    NotOurs,
}

/// A connection to the engine at `socket`, whose peer is this user running `exe` itself (an
/// agent's tool call that bound a listener of its own there could answer "allow" to every
/// event: it is never asked).
fn connect(socket: &Path, exe: &Path) -> Connected {
    match UnixStream::connect(socket) {
        Ok(s) => match place::peer(&s) {
            Ok((uid, pid)) if uid == place::euid() && place::runs_exe(pid, exe) => {
                Connected::Yes(s)
            }
            _ => Connected::NotOurs,
        },
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::ConnectionRefused
            ) =>
        {
            Connected::Nobody
        }
        Err(_) => Connected::NotOurs,
    }
}

/// Starts `exe warm-serve --socket SOCKET` detached: its own process group, no stdio, this
/// process's environment and working directory (which are what it serves). It takes the
/// socket's lock itself, so a second start while one runs exits at once. The caller asks
/// the user's switch first (`"warmEngine"`, read by the engine library).
pub fn start(exe: &Path, socket: &Path) -> Option<()> {
    let mut cmd = Command::new(exe);
    cmd.arg(SERVE_COMMAND)
        .arg("--socket")
        .arg(socket)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0);
    // The engine outlives this process; it is reaped by init once this one exits.
    cmd.spawn().ok().map(drop)
}

/// Sends the request and reads the reply.
fn exchange(stream: &mut UnixStream, request: &Request) -> io::Result<Reply> {
    stream.write_all(&request.encode()?)?;
    stream.shutdown(std::net::Shutdown::Write)?;
    Reply::read(&mut io::BufReader::with_capacity(1 << 16, stream))
}

/// What the command would read from stdin: all of it for `hook` (which reads it to the end),
/// and for `run` only with `--payload -`; never from a terminal (then: not forwarded).
fn read_stdin(args: &[OsString]) -> io::Result<Option<Vec<u8>>> {
    let reads = match args.first().and_then(|a| a.to_str()) {
        Some("hook") => true,
        _ => {
            args.windows(2).any(|w| w[0] == "--payload" && w[1] == "-")
                || args.iter().any(|a| a == "--payload=-")
        }
    };
    if !reads {
        return Ok(None);
    }
    if io::stdin().is_terminal() {
        return Err(io::Error::other("stdin is a terminal"));
    }
    let mut bytes = Vec::new();
    io::stdin()
        .lock()
        .take(u64::from(crate::frame::MAX_FIELD))
        .read_to_end(&mut bytes)?;
    Ok(Some(bytes))
}

/// Makes `bytes` this process's stdin again (an invocation handed back after its stdin was
/// read): an anonymous file holding them, at offset 0, duplicated onto descriptor 0 (so it
/// survives an `exec`, and a payload of any size reads whole).
pub fn restore_stdin(bytes: &[u8]) -> io::Result<()> {
    use std::io::{Seek, SeekFrom};
    let mut file = anonymous_file()?;
    file.write_all(bytes)?;
    file.seek(SeekFrom::Start(0))?;
    dup_onto(&file, 0)
}

/// A file with no name: a memfd on Linux, else a private file removed as soon as it is open.
pub fn anonymous_file() -> io::Result<std::fs::File> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::FromRawFd;
        // SAFETY: the name is a NUL-terminated string; a returned descriptor is ours to own.
        #[allow(unsafe_code)]
        let fd = unsafe { libc::memfd_create(c"hookhost-warm".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: fd was just returned by memfd_create and nothing else owns it.
        #[allow(unsafe_code)]
        Ok(unsafe { std::fs::File::from_raw_fd(fd) })
    }
    #[cfg(not(target_os = "linux"))]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = place::dir()?.join(format!("stdin-{}-{nanos}", std::process::id()));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)?;
        std::fs::remove_file(&path)?;
        Ok(file)
    }
}

/// Duplicates `fd` onto descriptor `target`.
pub fn dup_onto(fd: &impl std::os::unix::io::AsRawFd, target: i32) -> io::Result<()> {
    // SAFETY: both descriptors are open; dup2 replaces `target` atomically.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::dup2(fd.as_raw_fd(), target) };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The `hookhost` next to `me`, else on `PATH`.
pub fn hookhost_exe(me: &Path) -> Option<PathBuf> {
    let name = "hookhost";
    if let Some(sibling) = me.parent().map(|d| d.join(name))
        && sibling.is_file()
    {
        return Some(sibling);
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Replaces this process with `exe FLAG ARGS` (stdin restored first when it was read), the
/// flag [`NO_WARM_FLAG`] or [`WARM_START_FLAG`]. Returns only on failure.
pub fn run_in_place(
    exe: &Path,
    flag: &str,
    args: &[OsString],
    stdin: Option<Vec<u8>>,
) -> io::Error {
    if let Some(bytes) = stdin
        && let Err(e) = restore_stdin(&bytes)
    {
        return e;
    }
    Command::new(exe).arg(flag).args(args).exec()
}
