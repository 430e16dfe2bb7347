//! `hookhost warm-serve --socket PATH` (hidden): the warm per-user engine, on by default
//! (`"warmEngine": false` in the user's own file turns it off). `hookhost`, run in-process
//! when no engine answered (directly, or handed over by the thin client `hookhost-warm`),
//! starts it detached with its own environment and working directory; clients send it invocations of
//! `hook ...` and `run ...` with the same environment, directory, umask and confinement
//! (namespaces, cgroup, seccomp, capabilities), which it runs exactly as a fresh process
//! would: the same command code, the config and trust files and modules read anew for each
//! (only compiled code and the wasmtime engine are kept between invocations, and a module is
//! re-checked by stat and its digest re-pinned at every run), its descriptors 0-2 pointed at
//! the payload and at two anonymous files for the time of the command. It answers with the
//! command's exit code and output, or declines (the client then runs the command itself)
//! when anything differs from what it was started with, or while it is busy with another
//! invocation for longer than [`BUSY_WAIT`] (one at a time: descriptors 0-2 are the
//! process's).
//!
//! It refuses to listen anywhere but in a private directory of its user, serves only peers
//! of its user (`SO_PEERCRED`) whose whole confinement equals its own (namespaces, cgroup,
//! ids, supplementary groups, capabilities, every resource limit, and no seccomp filter:
//! `hookhost_warm::place` says why a filter is never taken as equal), takes a lock so one runs
//! per socket, and exits after `$HOOKHOST_DAEMON_IDLE_MS` (default ten minutes) without a
//! request, or after a panic. The decline says what differed.
//!
//! No client delays another: the accepting thread only accepts, checks the peer's user and
//! hands the connection to a thread of its own, which reads the request within
//! [`REQUEST_TIMEOUT`] in all (a client that sends nothing, or a byte at a time, is dropped
//! when it is up). At most [`MAX_IN_FLIGHT`] connections are read at once; one past that is
//! declined at once (it runs cold).

use clap::Args;
use hookhost_warm::client::{IDLE_ENV, anonymous_file, dup_onto};
use hookhost_warm::frame::{Reply, Request};
use hookhost_warm::place;
use std::collections::HashMap;
use std::ffi::OsString;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct WarmServeArgs {
    /// The socket to listen on, in the private per-user directory.
    #[arg(long)]
    socket: PathBuf,
}

/// The default idle time before the engine exits.
const IDLE: Duration = Duration::from_secs(600);
/// How long a connected client may take to send its whole request, and to take its reply.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);
/// The most connections whose requests are read at once (each on its own thread).
const MAX_IN_FLIGHT: usize = 32;

/// What a request must match: what this engine was started with.
struct Origin {
    env: Vec<(OsString, OsString)>,
    cwd: PathBuf,
    umask: u32,
    confinement: Vec<String>,
}

/// One invocation the engine took: its connection, and the command parsed from it (with its
/// global flags: `--home`).
type Job = (UnixStream, Request, (super::Global, super::Command));

/// Runs the engine until it has been idle for the idle time. Exit 0 also when another engine
/// holds the socket's lock (it serves it).
pub fn serve(a: &WarmServeArgs) -> anyhow::Result<u8> {
    let dir = a.socket.parent().unwrap_or(Path::new("/"));
    place::check_private(dir, place::euid())?;
    let lock_path = a.socket.with_extension("lock");
    let Some(_lock) = lock(&lock_path)? else {
        return Ok(0);
    };
    match std::fs::remove_file(&a.socket) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
        _ => {}
    }
    let listener = UnixListener::bind(&a.socket)?;
    std::fs::set_permissions(
        &a.socket,
        std::os::unix::fs::PermissionsExt::from_mode(0o600),
    )?;
    // Each invocation settles its own roots and warnings, as a fresh process does; the
    // wasmtime engine and compiled modules are what is kept.
    hookhost::locations::settle_per_setup();
    hookhost::setup::share_spawners();
    // The agents' project files probed at every level above a project (issue 37) are read
    // again only when a stamp of what was read changed (`hookhost_sys::stamps`).
    hookhost::host_env::remember_reads();
    let origin = Arc::new(Origin {
        env: sorted(std::env::vars_os().collect()),
        cwd: std::env::current_dir()?,
        umask: place::umask(),
        confinement: place::confinement("self"),
    });
    let idle = std::env::var(IDLE_ENV)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .map_or(IDLE, Duration::from_millis);
    let busy = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Job>();
    {
        let (origin, busy) = (origin.clone(), busy.clone());
        std::thread::spawn(move || accept(&listener, &origin, &busy, &tx));
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let null = File::options().read(true).write(true).open("/dev/null")?;
    while let Ok((mut stream, request, command)) = rx.recv_timeout(idle) {
        // The user turned the engine off while it ran: this event runs cold, and the engine
        // leaves (no client starts another while the switch says off).
        if !super::env::warm_engine_on(command.0.home.clone()) {
            let _ = Reply::Declined("the user's file says \"warmEngine\": false".into())
                .write(&mut stream);
            break;
        }
        let (reply, panicked) = run(&rt, &origin, &null, request, command);
        let _ = reply.write(&mut stream);
        drop(stream);
        // Whatever a command changed of the process (a variable, the directory, the umask)
        // would reach the next invocation: an engine that drifted from what it admits for
        // leaves, and the next client starts a fresh one.
        if panicked || drifted(&origin) {
            break;
        }
        busy.store(false, Ordering::SeqCst);
    }
    // The socket goes first (a late client finds none and starts an engine), then the lock
    // file (an engine that raced for this one's lock binds a socket of its own: at worst
    // one idles out unused).
    let _ = std::fs::remove_file(&a.socket);
    let _ = std::fs::remove_file(&lock_path);
    // A blocking thread that never returns (a guest blocked opening a FIFO nobody writes,
    // after its hook timed out) must not keep the engine alive: give them a moment, as a
    // fresh process does, and leave.
    rt.shutdown_timeout(Duration::from_millis(100));
    Ok(0)
}

/// The lock at `path`, held for the engine's life; `None` when another engine holds it.
fn lock(path: &Path) -> anyhow::Result<Option<File>> {
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::io::AsRawFd;
    let file = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)?;
    // SAFETY: the descriptor is open for the call; flock has no other precondition.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if rc != 0 {
        let e = std::io::Error::last_os_error();
        if e.kind() == std::io::ErrorKind::WouldBlock {
            return Ok(None);
        }
        return Err(e.into());
    }
    Ok(Some(file))
}

fn sorted(mut env: Vec<(OsString, OsString)>) -> Vec<(OsString, OsString)> {
    env.sort();
    env
}

/// The accepting thread: checks each peer's user and hands each connection to a reader
/// thread ([`connection`]), at most [`MAX_IN_FLIGHT`] at once; it never reads from a client,
/// so a silent one delays no other. Reader threads are kept for the engine's life and take
/// the next connection when they are done (starting a thread for each connection was a
/// tenth of an event's cost). There are always at least as many readers as connections in
/// flight (queued or being read), so each queued one has a free reader.
fn accept(
    listener: &UnixListener,
    origin: &Arc<Origin>,
    busy: &Arc<AtomicBool>,
    tx: &mpsc::Sender<Job>,
) {
    let parsed = Arc::new(Mutex::new(Parsed::default()));
    let in_flight = Arc::new(AtomicUsize::new(0));
    let (to_readers, from_accept) = mpsc::channel::<Accepted>();
    let queue = Arc::new(Mutex::new(from_accept));
    let mut readers = 0;
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        let Ok((uid, pid)) = place::peer(&stream) else {
            continue;
        };
        if uid != place::euid() {
            // Not this user's: no answer at all.
            continue;
        }
        let now_in_flight = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        if now_in_flight > MAX_IN_FLIGHT {
            in_flight.fetch_sub(1, Ordering::SeqCst);
            // A short answer fits the socket's buffer; never wait for it here.
            let _ = stream.set_nonblocking(true);
            let _ = Reply::Declined(format!(
                "{MAX_IN_FLIGHT} connections are already being read"
            ))
            .write(&mut stream);
            continue;
        }
        if now_in_flight > readers {
            let (queue, origin, busy) = (queue.clone(), origin.clone(), busy.clone());
            let (parsed, tx) = (parsed.clone(), tx.clone());
            let spawned = std::thread::Builder::new()
                .name("warm-connection".into())
                .spawn(move || read_connections(&queue, &origin, &busy, &parsed, &tx));
            match spawned {
                Ok(_) => readers += 1,
                Err(_) => tracing::debug!("warm engine: cannot start a reader thread"),
            }
        }
        let slot = InFlight(in_flight.clone());
        if to_readers.send((stream, pid, slot)).is_err() {
            return;
        }
    }
}

/// An accepted connection, its peer's pid, and its place among those in flight (given back
/// when it has been read and handed on).
type Accepted = (UnixStream, Option<i32>, InFlight);

/// A reader thread: takes accepted connections from the queue, one at a time, for the
/// engine's life.
fn read_connections(
    queue: &Mutex<mpsc::Receiver<Accepted>>,
    origin: &Origin,
    busy: &AtomicBool,
    parsed: &Mutex<Parsed>,
    tx: &mpsc::Sender<Job>,
) {
    loop {
        let next = queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .recv();
        let Ok((stream, pid, _slot)) = next else {
            return;
        };
        connection(stream, pid, origin, busy, parsed, tx);
    }
}

/// One place among the connections in flight, given back when dropped.
struct InFlight(Arc<AtomicUsize>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Reads one connection's request (within [`REQUEST_TIMEOUT`] in all), declines what it
/// must, and hands the rest to the engine's thread.
fn connection(
    mut stream: UnixStream,
    pid: Option<i32>,
    origin: &Origin,
    busy: &AtomicBool,
    parsed: &Mutex<Parsed>,
    tx: &mpsc::Sender<Job>,
) {
    let _ = stream.set_write_timeout(Some(REQUEST_TIMEOUT));
    let deadline = Instant::now() + REQUEST_TIMEOUT;
    // Buffered: a request is hundreds of small fields, each its own read otherwise.
    let Ok(request) = Request::decode(&mut std::io::BufReader::with_capacity(
        1 << 16,
        Deadline(&stream, deadline),
    )) else {
        return;
    };
    let _ = stream.set_read_timeout(None);
    let verdict = {
        let mut parsed = parsed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        admit(origin, &mut parsed, pid, &request)
    };
    let command = match verdict {
        Ok(c) if take_turn(busy) => c,
        Ok(_) => {
            let _ = Reply::Declined("busy with another invocation".into()).write(&mut stream);
            return;
        }
        Err(why) => {
            let _ = Reply::Declined(why).write(&mut stream);
            return;
        }
    };
    if tx.send((stream, request, command)).is_err() {
        // The engine is leaving: the connection closes unanswered (the client runs cold).
        busy.store(false, Ordering::SeqCst);
    }
}

/// How long a request waits for the engine to finish the one before it before it is declined
/// (and runs cold): the engine answers, then checks it did not drift, then takes the next,
/// and an agent's next event can arrive in that gap (a busy machine stretches it).
const BUSY_WAIT: Duration = Duration::from_millis(100);

/// Whether this request may run now: the engine is free, or becomes free within
/// [`BUSY_WAIT`] (then it is this request's until its reply is written).
fn take_turn(busy: &AtomicBool) -> bool {
    let until = Instant::now() + BUSY_WAIT;
    loop {
        if !busy.swap(true, Ordering::SeqCst) {
            return true;
        }
        if Instant::now() >= until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// A stream read until a deadline: each read waits only for what is left of it, so a
/// client that sends a byte at a time cannot stretch its time.
struct Deadline<'a>(&'a UnixStream, Instant);

impl Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.1.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        self.0.set_read_timeout(Some(left))?;
        (&mut &*self.0).read(buf)
    }
}

/// The command to run for `request` from process `pid`, or why it must run elsewhere.
fn admit(
    origin: &Origin,
    parsed: &mut Parsed,
    pid: Option<i32>,
    request: &Request,
) -> Result<(super::Global, super::Command), String> {
    if sorted(request.env.clone()) != origin.env {
        return Err("another environment".into());
    }
    if request.cwd != origin.cwd {
        return Err("another working directory".into());
    }
    if request.umask != origin.umask {
        return Err("another umask".into());
    }
    if let Some(pid) = pid {
        let theirs = place::confinement(&pid.to_string());
        if let Some(why) = place::seccomp_filtered(&theirs) {
            return Err(why);
        }
        if let Some(what) = place::difference(&theirs, &origin.confinement) {
            return Err(format!("another confinement: {what}"));
        }
    }
    if hookhost_warm::client::unserved_env().is_some() {
        return Err("telemetry is exported at the end of each process".into());
    }
    match parsed.get(&request.args) {
        Some((global, command)) if global.verbose == 0 && !global.no_warm => {
            Ok((global.clone(), command.clone().into()))
        }
        _ => Err("not a command line it serves (hook or run, without -v)".into()),
    }
}

/// The command lines parsed so far (an agent starts the same few, event after event): what
/// the parser made of each. Parsing is a function of the arguments alone (the environment,
/// which clap could read, is the engine's own and never changes), so a line seen before is
/// not parsed again. Bounded: past [`Parsed::MAX`] lines it starts over.
#[derive(Default)]
struct Parsed(HashMap<Vec<OsString>, Option<(super::Global, super::HotCommand)>>);

impl Parsed {
    const MAX: usize = 64;

    fn get(&mut self, args: &[OsString]) -> &Option<(super::Global, super::HotCommand)> {
        if !self.0.contains_key(args) {
            if self.0.len() >= Self::MAX {
                self.0.clear();
            }
            let argv = std::iter::once(OsString::from("hookhost")).chain(args.iter().cloned());
            self.0.insert(args.to_vec(), super::parse_served(argv));
        }
        &self.0[args]
    }
}

/// Runs one command with descriptors 0-2 pointed at its stdin and two anonymous files, as
/// a fresh process would have run it; and whether it panicked.
fn run(
    rt: &tokio::runtime::Runtime,
    origin: &Origin,
    null: &File,
    request: Request,
    (global, command): (super::Global, super::Command),
) -> (Reply, bool) {
    let files = (|| -> std::io::Result<(File, File, File)> {
        let stdin = anonymous_file()?;
        let (mut stdin, stdout, stderr) = (stdin, anonymous_file()?, anonymous_file()?);
        if let Some(bytes) = &request.stdin {
            stdin.write_all(bytes)?;
            stdin.seek(SeekFrom::Start(0))?;
        }
        Ok((stdin, stdout, stderr))
    })();
    let Ok((stdin, mut stdout, mut stderr)) = files else {
        return (Reply::Declined("cannot make its descriptors".into()), false);
    };
    let pointed = match &request.stdin {
        Some(_) => dup_onto(&stdin, 0),
        None => dup_onto(null, 0),
    }
    .and_then(|()| dup_onto(&stdout, 1))
    .and_then(|()| dup_onto(&stderr, 2));
    if pointed.is_err() {
        restore(null);
        return (
            Reply::Declined("cannot point its descriptors".into()),
            false,
        );
    }
    // Which variables a project sets is found anew by each invocation, as in a fresh process.
    hookhost::host_env::forget();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        super::finish(rt.block_on(super::dispatch(command, &global)))
    }));
    super::tier_up::reap();
    let _ = std::io::stdout().flush();
    restore(null);
    // The adapter marks the hooks it runs in the process environment: put the variable back
    // as the engine was started with it (set or not), so the next invocation starts from the
    // environment it was admitted for (a recursion marker set by the caller stays set).
    // SAFETY of set_var/remove_var: the command is over; the engine's other threads (the
    // runtime's idle blocking threads, the epoch ticker) do not read the environment, and
    // the accepting and connection threads read it only through `std::env` (which holds
    // std's environment lock, as set_var does), never through libc's getenv.
    #[allow(unsafe_code)]
    unsafe {
        match origin_value(origin, super::hook::ADAPTER_ENV) {
            Some(v) => std::env::set_var(super::hook::ADAPTER_ENV, v),
            None => std::env::remove_var(super::hook::ADAPTER_ENV),
        }
    }
    let read = |f: &mut File| -> Vec<u8> {
        let mut v = Vec::new();
        let _ = f
            .seek(SeekFrom::Start(0))
            .and_then(|_| f.read_to_end(&mut v));
        v
    };
    let (out, err) = (read(&mut stdout), read(&mut stderr));
    match outcome {
        Ok(code) => (
            Reply::Ran {
                code,
                stdout: out,
                stderr: err,
            },
            false,
        ),
        // A panicking process exits 101 with the message on stderr (captured above).
        Err(_) => (
            Reply::Ran {
                code: 101,
                stdout: out,
                stderr: err,
            },
            true,
        ),
    }
}

/// Whether the process no longer is what it was started as.
fn drifted(origin: &Origin) -> bool {
    sorted(std::env::vars_os().collect()) != origin.env
        || std::env::current_dir().ok().as_ref() != Some(&origin.cwd)
        || place::umask() != origin.umask
}

/// The value of `name` in the environment the engine was started with.
fn origin_value<'a>(origin: &'a Origin, name: &str) -> Option<&'a OsString> {
    origin.env.iter().find(|(k, _)| k == name).map(|(_, v)| v)
}

/// Points descriptors 0-2 back at /dev/null.
fn restore(null: &File) {
    for fd in 0..3 {
        let _ = dup_onto(null, fd);
    }
}
