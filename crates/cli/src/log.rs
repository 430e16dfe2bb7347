//! `hookhost log`: the recent events of the decision log, filtered, as text or JSON lines,
//! and `--follow` to watch new ones (docs/observability.md). Text output shows every field
//! terminal-safe (a log is a file, and its fields hold what projects and hooks put in them);
//! JSON output is the record as JSON, whose strings escape control characters themselves.

use anyhow::Context;
use clap::Args;
use hookhost::decision_log::{EventRecord, rotate, writer};
use std::io::{BufRead, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `hookhost log` arguments.
#[derive(Args, Debug)]
pub struct LogArgs {
    /// Only this session's events.
    #[arg(long)]
    pub session: Option<String>,
    /// Only this event (`PreToolUse`, ...).
    #[arg(long, value_parser = crate::shell::events(), hide_possible_values = true)]
    pub event: Option<String>,
    /// Only events where this hook (`PreToolUse[0]`, or part of its file path) ran or did not.
    #[arg(long)]
    pub hook: Option<String>,
    /// Only events with a hook of this outcome, or of this decision (`block`, `pass`, ...).
    #[arg(long)]
    pub outcome: Option<String>,
    /// How many of the latest matching events (default 20).
    #[arg(short = 'n', long, default_value_t = 20)]
    pub lines: usize,
    /// Print each record as its JSON line.
    #[arg(long)]
    pub json: bool,
    /// Keep printing new events as they are logged.
    #[arg(long)]
    pub follow: bool,
    /// Only this project's events (the log holds every project's; each line names its own).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// The log file (default: the decision log of this user).
    #[arg(long)]
    pub file: Option<PathBuf>,
}

/// The decision log's path: `--file`, else where the runner writes it for the user of
/// `home` (the same home every command takes, so `log` reads what `run` and the adapter
/// wrote).
pub fn log_path(file: Option<PathBuf>, home: &crate::env::UserHome) -> anyhow::Result<PathBuf> {
    if let Some(f) = file {
        return Ok(f);
    }
    let project = std::env::current_dir().context("cannot read the current directory")?;
    writer::default_dir(&project, home.dir().as_deref())
        .map(|d| d.join(writer::FILE_NAME))
        .context("no cache directory for the decision log (set HOOKHOST_LOG_DIR)")
}

/// Every record of the log at `path`, oldest first (a line that does not parse is skipped).
pub fn read_all(path: &Path) -> Vec<EventRecord> {
    rotate::files(path)
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .flat_map(|text| {
            text.lines()
                .filter_map(|l| serde_json::from_str(l).ok())
                .collect::<Vec<_>>()
        })
        .collect()
}

pub fn log(mut a: LogArgs, home: &crate::env::UserHome) -> anyhow::Result<u8> {
    let path = log_path(a.file.clone(), home)?;
    // The runner logs the canonical project directory.
    if let Some(p) = &a.project {
        a.project = Some(std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()));
    }
    let all = read_all(&path);
    let kept: Vec<&EventRecord> = all.iter().filter(|r| matches(&a, r)).collect();
    let home = home.dir();
    let mut out = std::io::stdout().lock();
    for r in &kept[kept.len().saturating_sub(a.lines)..] {
        print_record(&mut out, r, a.json, home.as_deref())?;
    }
    out.flush()?;
    drop(out);
    if a.follow {
        follow(&a, &path, home.as_deref())?;
    }
    Ok(0)
}

/// Prints the records appended to `path` from now on, across a rotation: the file is kept
/// open, so what was appended before it was renamed is still read; then the new file at
/// `path` (another inode) is read from its start.
fn follow(a: &LogArgs, path: &Path, home: Option<&Path>) -> anyhow::Result<()> {
    let mut current = Tail::open(path, true);
    loop {
        if let Some(t) = current.as_mut() {
            t.print_new(a, home)?;
        }
        let replaced = match (&current, identity(path)) {
            (Some(t), Some(now)) => t.id != now,
            (None, Some(_)) => true,
            (_, None) => false,
        };
        if replaced {
            if let Some(t) = current.as_mut() {
                t.print_new(a, home)?; // the last lines of the renamed file
            }
            current = Tail::open(path, false);
            continue;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The file `hookhost log --follow` reads: an open handle, what it is, how far it was read.
struct Tail {
    reader: std::io::BufReader<std::fs::File>,
    id: (u64, u64),
    partial: String,
}

impl Tail {
    /// `path` opened at its end (`at_end`) or its start; `None` when there is no file yet.
    fn open(path: &Path, at_end: bool) -> Option<Tail> {
        let mut f = std::fs::File::open(path).ok()?;
        let meta = f.metadata().ok()?;
        if at_end {
            f.seek(std::io::SeekFrom::End(0)).ok()?;
        }
        Some(Tail {
            reader: std::io::BufReader::new(f),
            id: file_id(&meta),
            partial: String::new(),
        })
    }

    /// Prints every whole line appended since the last call (a line still being written
    /// is kept until its end arrives).
    fn print_new(&mut self, a: &LogArgs, home: Option<&Path>) -> anyhow::Result<()> {
        let mut out = std::io::stdout().lock();
        while self.reader.read_line(&mut self.partial)? > 0 {
            if !self.partial.ends_with('\n') {
                break;
            }
            if let Ok(r) = serde_json::from_str::<EventRecord>(&self.partial)
                && matches(a, &r)
            {
                print_record(&mut out, &r, a.json, home)?;
            }
            self.partial.clear();
        }
        out.flush()?;
        Ok(())
    }
}

/// What file is at `path` now (device and inode), `None` when there is none.
fn identity(path: &Path) -> Option<(u64, u64)> {
    std::fs::metadata(path).ok().map(|m| file_id(&m))
}

#[cfg(unix)]
fn file_id(m: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (m.dev(), m.ino())
}

#[cfg(not(unix))]
fn file_id(m: &std::fs::Metadata) -> (u64, u64) {
    (
        0,
        m.created()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as u64),
    )
}

fn matches(a: &LogArgs, r: &EventRecord) -> bool {
    let hook_named = |h: &str| {
        r.hooks.iter().any(|e| {
            e.hook == h
                || e.file
                    .as_ref()
                    .is_some_and(|f| f.to_string_lossy().contains(h))
        }) || r.not_run.iter().any(|n| n.hook == h)
    };
    a.session
        .as_ref()
        .is_none_or(|s| r.session.as_deref() == Some(s))
        && a.project.as_ref().is_none_or(|p| r.project == *p)
        && a.event
            .as_ref()
            .is_none_or(|e| r.event.eq_ignore_ascii_case(e))
        && a.hook.as_deref().is_none_or(hook_named)
        && a.outcome
            .as_ref()
            .is_none_or(|o| r.decision == *o || r.hooks.iter().any(|h| h.outcome == *o))
}

fn print_record(
    out: &mut impl Write,
    r: &EventRecord,
    json: bool,
    home: Option<&Path>,
) -> anyhow::Result<()> {
    if json {
        writeln!(out, "{}", serde_json::to_string(r)?)?;
        return Ok(());
    }
    let safe = hookhost::terminal_safe;
    writeln!(
        out,
        "{} {} {}{} -> {}{}  [{}, {} hook(s), {:.1} ms, session {}, id {}]",
        safe(&r.time),
        safe(&r.event),
        r.tool
            .as_deref()
            .map(|t| format!("({})", safe(t)))
            .unwrap_or_default(),
        r.agent
            .as_deref()
            .map(|a| format!(" for {}", safe(a)))
            .unwrap_or_default(),
        safe(&r.decision),
        r.reason
            .as_deref()
            .map(|x| format!(": {}", safe(x)))
            .unwrap_or_default(),
        safe(&project_shown(&r.project, home)),
        r.hooks.len(),
        r.duration_ms,
        r.session.as_deref().map_or("-".into(), safe),
        safe(&r.id),
    )?;
    Ok(())
}

/// A record's project as a line shows it: under the home directory as `~/...`.
pub fn project_shown(project: &Path, home: Option<&Path>) -> String {
    match home.and_then(|h| project.strip_prefix(h).ok()) {
        Some(rest) if rest.as_os_str().is_empty() => "~".into(),
        Some(rest) => format!("~/{}", rest.display()),
        None => project.display().to_string(),
    }
}
