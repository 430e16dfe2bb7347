//! Appending to the decision log: [`DecisionLog`]. The file is opened on the first event
//! (never at start-up), with `O_APPEND | O_NOFOLLOW`, mode 0600 in a 0700 directory; a
//! directory or file that is a symlink, not ours, or open to others is refused. Lines are
//! appended whole, without fsync: one `write` per event, or per batch of events on the writer
//! thread. Any error warns once and never fails an event.
//!
//! Where the line is written: in a long-lived process (an embedder's `Runner`, the default),
//! off the event's path, by one writer thread of the process, which writes the lines of the
//! drafts events hand it and hands the drafts back for reuse; [`DecisionLog::flush`] (and
//! dropping the log) waits until every draft handed over is written. A process that fires one
//! event (the CLI: [`write_in_background`]`(false)`) writes in place, which costs less than
//! starting a thread.

use super::record::{Draft, EventRecord};
use super::rotate;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, mpsc};

/// `HOOKHOST_LOG`: `off` (no log), `on` (the default) or `full` (payloads and hook output too).
pub const LOG_ENV: &str = "HOOKHOST_LOG";
/// `HOOKHOST_LOG_DIR`: an absolute directory for the log instead of `<user cache>/hookhost/log`.
pub const LOG_DIR_ENV: &str = "HOOKHOST_LOG_DIR";
/// The log's file name in its directory.
pub const FILE_NAME: &str = "decisions.jsonl";

/// What a line keeps of payloads and hook output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Capture {
    /// A short hash of each, and the reason text (the default).
    #[default]
    Hashes,
    /// The payload and every hook's stdout and stderr (`HOOKHOST_LOG=full`).
    Full,
}

/// A decision log: where it is, its bound and what it keeps. Share it through an `Arc`.
#[derive(Debug)]
pub struct DecisionLog {
    sink: Arc<Sink>,
    capture: Capture,
    /// The records kept in memory too (`run --explain`); `None`: not kept.
    kept: Option<Mutex<Vec<EventRecord>>>,
    /// Whether records go to the file at `path` (not for [`DecisionLog::in_memory`]).
    to_file: bool,
    /// Whether lines are written by the process's writer thread.
    background: bool,
}

/// The file side of a log: what the writer needs (shared with the writer thread).
#[derive(Debug)]
struct Sink {
    path: PathBuf,
    max_bytes: u64,
    file: Mutex<Option<File>>,
    warned: AtomicBool,
}

/// Whether logs made from now on write in the background (default true).
static BACKGROUND: AtomicBool = AtomicBool::new(true);

/// Whether the logs this process makes from now on write their lines on the writer thread
/// (`true`, the default: off the event's path) or in place (`false`: for a process that fires
/// one event, where starting the thread costs more than the write).
pub fn write_in_background(on: bool) {
    BACKGROUND.store(on, Ordering::Relaxed);
}

/// What the writer thread is handed.
enum Job {
    /// An event's facts, to make into a line and write.
    Write(Entry),
    /// Answer once every job before this one is done.
    Flush(mpsc::SyncSender<()>),
}

/// An event's draft and the log it goes to. Handed back once written, with both kept: the
/// next event fills the draft's buffers, and the log is most often the same one (no count
/// of references goes back and forth between the threads).
struct Entry {
    sink: Arc<Sink>,
    draft: Box<Draft>,
}

/// How long the writer, once awake, waits for more before it writes what it has, and how
/// many such rounds without a job it stays awake: under a stream of events no event pays a
/// wake-up (a futex call, the largest part of handing a record over), and an idle process
/// has no thread waking up.
const BATCH_WAIT: std::time::Duration = std::time::Duration::from_millis(10);
const AWAKE_ROUNDS: u32 = 100;

/// The jobs handed to the writer thread.
struct Queue {
    jobs: Mutex<Vec<Job>>,
    /// Drafts written, handed back to be reused by the next events: what a draft holds is
    /// then freed (or reused) by a thread that fires events, as it was allocated, never by the
    /// writer (a thread freeing another's memory contends with it for the allocator's lock:
    /// glibc's arena lock was a third of what logging cost an event).
    spent: Mutex<Vec<Entry>>,
    wake: std::sync::Condvar,
    /// The writer waits with no timeout: a job must wake it.
    asleep: AtomicBool,
}

/// Spent drafts kept for reuse, at most: about the events of one batch at full speed. Past
/// this the writer frees them (a burst's drafts, then, contend once).
const SPARE_DRAFTS: usize = 1024;

/// A spent draft whose payload, or whose text buffer, is bigger than this is freed at once
/// rather than kept (a hook printing a megabyte must not leave a thousand megabyte buffers).
const SPARE_BYTES_MAX: usize = 64 << 10;

impl Queue {
    /// An entry for `sink`: one the writer is done with, to fill again, or a new one.
    fn entry(&self, sink: &Arc<Sink>) -> Entry {
        match crate::agent::sync::lock(&self.spent).pop() {
            Some(mut e) => {
                if !Arc::ptr_eq(&e.sink, sink) {
                    e.sink = sink.clone();
                }
                e
            }
            None => Entry {
                sink: sink.clone(),
                draft: Box::default(),
            },
        }
    }

    /// Takes back entries the writer has written (those past the bound are freed).
    fn hand_back(&self, drafts: &mut Vec<Entry>) {
        let mut spent = crate::agent::sync::lock(&self.spent);
        let room = SPARE_DRAFTS.saturating_sub(spent.len());
        let keep = drafts.len().min(room);
        spent.extend(drafts.drain(..keep));
        drop(spent);
        drafts.clear();
    }

    /// Frees the spent drafts (an idle writer: the memory is not kept for nothing).
    fn forget_spent(&self) {
        let spent = std::mem::take(&mut *crate::agent::sync::lock(&self.spent));
        drop(spent);
    }

    /// Hands `job` over; wakes the writer only when it sleeps, or for a flush.
    fn push(&self, job: Job) {
        let urgent = matches!(job, Job::Flush(_));
        crate::agent::sync::lock(&self.jobs).push(job);
        if urgent || self.asleep.load(Ordering::SeqCst) {
            self.wake.notify_one();
        }
    }

    /// The writer thread's loop.
    fn run(&self) {
        let mut idle_rounds = 0;
        // The batch taken and the queue swap buffers: neither side allocates for a job.
        let mut batch = Vec::new();
        let mut lines = Lines::default();
        let mut written = Vec::new();
        loop {
            {
                let mut jobs = crate::agent::sync::lock(&self.jobs);
                if jobs.is_empty() {
                    if idle_rounds >= AWAKE_ROUNDS {
                        self.asleep.store(true, Ordering::SeqCst);
                        while jobs.is_empty() {
                            jobs = self
                                .wake
                                .wait(jobs)
                                .unwrap_or_else(std::sync::PoisonError::into_inner);
                        }
                        self.asleep.store(false, Ordering::SeqCst);
                    } else {
                        jobs = self
                            .wake
                            .wait_timeout(jobs, BATCH_WAIT)
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .0;
                    }
                }
                std::mem::swap(&mut *jobs, &mut batch);
            }
            idle_rounds = if batch.is_empty() { idle_rounds + 1 } else { 0 };
            if idle_rounds == AWAKE_ROUNDS {
                self.forget_spent();
            }
            for job in batch.drain(..) {
                match job {
                    Job::Write(entry) => {
                        lines.add(&entry.sink, &entry.draft);
                        let d = &entry.draft;
                        if d.payload.len().max(d.text.capacity()) <= SPARE_BYTES_MAX {
                            written.push(entry);
                        }
                    }
                    Job::Flush(done) => {
                        lines.write();
                        let _ = done.send(());
                    }
                }
            }
            lines.write();
            self.hand_back(&mut written);
        }
    }

    /// Waits (at most `bound`) until every job handed over before this call is done.
    fn flush(&self, bound: std::time::Duration) {
        let (done, wait) = mpsc::sync_channel(1);
        self.push(Job::Flush(done));
        let _ = wait.recv_timeout(bound);
    }
}

/// The lines of a batch, gathered per log and written with one `write` each: lines stay
/// whole (each write appends whole lines, `O_APPEND`), and a stream of events costs the
/// writer one system call per batch, not one per event.
#[derive(Default)]
struct Lines {
    /// Each log of the batch (nearly always one) and its lines so far.
    logs: Vec<(Arc<Sink>, Vec<u8>)>,
}

impl Lines {
    fn add(&mut self, sink: &Arc<Sink>, draft: &Draft) {
        let at = match self.logs.iter().position(|(s, _)| Arc::ptr_eq(s, sink)) {
            Some(at) => at,
            None => {
                self.logs.push((sink.clone(), Vec::new()));
                self.logs.len() - 1
            }
        };
        let (sink, buf) = &mut self.logs[at];
        sink.line_into(&super::line::Line(draft), buf);
    }

    fn write(&mut self) {
        for (sink, buf) in self.logs.drain(..) {
            sink.write_lines(&buf);
        }
    }
}

/// The process's writer queue; its thread is started on the first record handed over.
static WRITER: OnceLock<Queue> = OnceLock::new();

/// The queue, its thread started; `None` when the thread cannot be started.
fn writer() -> Option<&'static Queue> {
    // The queue exists before its thread, which borrows it for the process's life.
    let queue = WRITER.get_or_init(|| Queue {
        jobs: Mutex::new(Vec::new()),
        spent: Mutex::new(Vec::new()),
        wake: std::sync::Condvar::new(),
        asleep: AtomicBool::new(false),
    });
    started().then_some(queue)
}

/// Starts the writer thread once; false when it cannot be started (then lines are written
/// in place).
fn started() -> bool {
    static STARTED: OnceLock<bool> = OnceLock::new();
    *STARTED.get_or_init(|| {
        // A payload is serialised (and dropped) recursively here, as on the thread that fired
        // it: an embedder may fire one nested thousands deep from a thread with a big stack,
        // so this one gets a big stack too (reserved, not committed, until it is used).
        let ok = std::thread::Builder::new()
            .name("hookhost-log".into())
            .stack_size(256 << 20)
            .spawn(|| {
                if let Some(queue) = WRITER.get() {
                    queue.run();
                }
            })
            .is_ok();
        if ok {
            at_exit_flush();
        }
        ok
    })
}

/// Makes the process wait, when it exits (`exit`, a return from `main`, an interpreter
/// that embeds the engine shutting down), until the writer thread has written what it was
/// handed, at most a second: a record handed over is not lost because no log was dropped.
fn at_exit_flush() {
    #[cfg(unix)]
    {
        extern "C" fn flush_at_exit() {
            if let Some(queue) = WRITER.get() {
                queue.flush(std::time::Duration::from_secs(1));
            }
        }
        // SAFETY: registering a handler has no precondition; the handler only hands a job
        // over and waits, bounded, and never unwinds.
        #[allow(unsafe_code)]
        unsafe {
            libc::atexit(flush_at_exit);
        }
    }
}

impl DecisionLog {
    /// A log at `path` (its directory is created 0700 when missing), files of at most 10 MiB.
    pub fn at(path: impl Into<PathBuf>) -> Self {
        DecisionLog {
            sink: Arc::new(Sink {
                path: path.into(),
                max_bytes: rotate::DEFAULT_MAX_BYTES,
                file: Mutex::new(None),
                warned: AtomicBool::new(false),
            }),
            capture: Capture::Hashes,
            kept: None,
            to_file: true,
            background: BACKGROUND.load(Ordering::Relaxed),
        }
    }

    /// The same log writing its lines in place (`false`) or on the writer thread (`true`).
    #[must_use]
    pub fn in_background(mut self, on: bool) -> Self {
        self.background = on;
        self
    }

    /// Waits until every record handed to the writer thread so far is written.
    pub fn flush(&self) {
        if !(self.background && self.to_file) {
            return;
        }
        if let Some(queue) = writer() {
            // Bounded: a writer stuck on a full disk must not hang the caller for ever.
            queue.flush(std::time::Duration::from_secs(10));
        }
    }

    /// A log that writes no file and keeps every record in memory ([`DecisionLog::take_kept`]).
    pub fn in_memory() -> Self {
        let mut log = Self::at(PathBuf::new()).keeping();
        log.to_file = false;
        log
    }

    /// The same log keeping its records in memory too, for [`DecisionLog::take_kept`].
    #[must_use]
    pub fn keeping(mut self) -> Self {
        self.kept = Some(Mutex::new(Vec::new()));
        self
    }

    /// The records kept since the last call, oldest first (none unless [`keeping`]).
    ///
    /// [`keeping`]: DecisionLog::keeping
    pub fn take_kept(&self) -> Vec<EventRecord> {
        self.kept
            .as_ref()
            .map(|k| std::mem::take(&mut *crate::agent::sync::lock(k)))
            .unwrap_or_default()
    }

    /// The same log with each file bounded to `max_bytes`.
    #[must_use]
    pub fn max_bytes(mut self, max_bytes: u64) -> Self {
        if let Some(sink) = Arc::get_mut(&mut self.sink) {
            sink.max_bytes = max_bytes.max(1);
        }
        self
    }

    /// The same log keeping `capture`.
    #[must_use]
    pub fn capture(mut self, capture: Capture) -> Self {
        self.capture = capture;
        self
    }

    /// The log's path.
    pub fn path(&self) -> &Path {
        &self.sink.path
    }

    /// Whether payloads and output are kept.
    pub fn full(&self) -> bool {
        self.capture == Capture::Full
    }

    /// The default log for a process serving `project` as `home`: `None` under
    /// `HOOKHOST_LOG=off` or when there is no cache directory.
    pub fn from_env(project: &Path, home: Option<&Path>) -> Option<Self> {
        let mode = crate::host_env::var(LOG_ENV, "the decision log, on").unwrap_or_default();
        let capture = match mode.trim().to_ascii_lowercase().as_str() {
            "off" | "0" | "false" | "no" => return None,
            "full" => Capture::Full,
            _ => Capture::Hashes,
        };
        Some(Self::at(default_dir(project, home)?.join(FILE_NAME)).capture(capture))
    }

    /// Appends one event's line, made of the [`Draft`] `fill` completes: on the writer
    /// thread, in a draft a past event left (`fill` then reuses what its fields hold), or here.
    /// Never fails: the first error warns.
    pub(crate) fn append(&self, fill: impl FnOnce(&mut Draft)) {
        if self.to_file
            && self.background
            && self.kept.is_none()
            && let Some(queue) = writer()
        {
            let mut entry = queue.entry(&self.sink);
            fill(&mut entry.draft);
            return queue.push(Job::Write(entry));
        }
        let mut draft = Draft::default();
        fill(&mut draft);
        if self.to_file {
            let mut line = Vec::new();
            self.sink.line_into(&super::line::Line(&draft), &mut line);
            self.sink.write_lines(&line);
        }
        if let Some(kept) = &self.kept {
            match draft.record() {
                Ok(record) => crate::agent::sync::lock(kept).push(record),
                Err(e) => self.sink.warn(&e.to_string()),
            }
        }
    }
}

impl Drop for DecisionLog {
    /// What was handed to the writer thread is written before the log goes.
    fn drop(&mut self) {
        self.flush();
    }
}

impl Sink {
    /// Adds `line` to `buf`.
    fn line_into(&self, line: &impl serde::Serialize, buf: &mut Vec<u8>) {
        let at = buf.len();
        match serde_json::to_writer(&mut *buf, line) {
            Ok(()) => buf.push(b'\n'),
            Err(e) => {
                buf.truncate(at);
                self.warn(&e.to_string());
            }
        }
    }

    /// Appends whole lines (none: nothing).
    fn write_lines(&self, lines: &[u8]) {
        if lines.is_empty() {
            return;
        }
        if let Err(e) = self.append_lines(lines) {
            self.warn(&e.to_string());
        }
    }

    /// Appends `lines` with one write when they fit the bound; else one line at a time,
    /// rotating before the line that would cross it.
    fn append_lines(&self, lines: &[u8]) -> std::io::Result<()> {
        let mut guard = crate::agent::sync::lock(&self.file);
        let file = self.opened(&mut guard)?;
        let fits = file.metadata()?.len().saturating_add(lines.len() as u64) <= self.max_bytes;
        if fits {
            return file.write_all(lines);
        }
        for line in lines.split_inclusive(|&b| b == b'\n') {
            let file = self.opened(&mut guard)?;
            if rotate::due(file.metadata()?.len(), line.len(), self.max_bytes) {
                *guard = None;
                rotate::rotate(&self.path)?;
                self.opened(&mut guard)?.write_all(line)?;
            } else {
                file.write_all(line)?;
            }
        }
        Ok(())
    }

    /// The open file, opened when it is not.
    fn opened<'a>(&self, file: &'a mut Option<File>) -> std::io::Result<&'a mut File> {
        match file {
            Some(f) => Ok(f),
            None => Ok(file.insert(open_private(&self.path)?)),
        }
    }

    fn warn(&self, why: &str) {
        if !self.warned.swap(true, Ordering::Relaxed) {
            tracing::warn!(log = %self.path.display(), "decision log not written: {why} (set HOOKHOST_LOG=off to silence)");
        }
    }
}

/// `$HOOKHOST_LOG_DIR` when absolute and vetted, else `<user cache>/hookhost/log`.
pub fn default_dir(project: &Path, home: Option<&Path>) -> Option<PathBuf> {
    if let Some(dir) = crate::host_env::var_os(LOG_DIR_ENV, "the default log directory") {
        let dir = PathBuf::from(dir);
        match crate::locations::vet_dir(LOG_DIR_ENV, &dir, project, home) {
            Ok(()) => return Some(dir),
            Err(why) => tracing::warn!("not using ${LOG_DIR_ENV}={}: {why}", dir.display()),
        }
    }
    crate::locations::user_cache(project, home).map(|c| c.join("hookhost").join("log"))
}

/// Opens `path` for appending, private: its directory made 0700 and checked (not a link,
/// ours, closed to others), the file created 0600 without following a link, and checked.
fn open_private(path: &Path) -> std::io::Result<File> {
    let dir = path.parent().unwrap_or(Path::new("."));
    make_private_dir(dir)?;
    let mut options = std::fs::OpenOptions::new();
    options.append(true).create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
    }
    let file = options.open(path).map_err(|e| {
        std::io::Error::new(
            e.kind(),
            format!("cannot open {}: {e} (a symlink is refused)", path.display()),
        )
    })?;
    check_private(&file.metadata()?, path, false)?;
    Ok(file)
}

fn make_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)?;
    let meta = std::fs::symlink_metadata(dir)?;
    if meta.file_type().is_symlink() {
        return Err(refused(dir, "is a symlink"));
    }
    check_private(&meta, dir, true)
}

#[cfg(unix)]
fn check_private(meta: &std::fs::Metadata, path: &Path, dir: bool) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    if dir != meta.is_dir() || (!dir && !meta.is_file()) {
        return Err(refused(path, "is not a regular file or directory"));
    }
    // SAFETY: geteuid has no preconditions and cannot fail.
    #[allow(unsafe_code)]
    let me = unsafe { libc::geteuid() };
    if meta.uid() != me {
        return Err(refused(path, "belongs to another user"));
    }
    // A file readable by others, or a directory others can write (plant or swap a file in).
    let open = if dir { 0o022 } else { 0o077 };
    if meta.mode() & open != 0 {
        return Err(refused(path, "is open to other users (want 0600 / 0700)"));
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_private(_: &std::fs::Metadata, _: &Path, _: bool) -> std::io::Result<()> {
    Ok(())
}

fn refused(path: &Path, why: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::PermissionDenied,
        format!("{} {why}; refusing to log there", path.display()),
    )
}
