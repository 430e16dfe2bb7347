//! One headless run of a real agent in a throwaway home and project, against its own
//! scripted model server; what each canary call did.

use super::agents::Headless;
use super::judge::{CANARY_REASON, Seen};
use super::server::script::{Probe, Script, Turn, marker};
use super::server::{Request, Server};
use super::setup::{self, Variant, Wired};
use crate::install::table::AgentRow;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// An agent run is killed (with everything it started) after this long.
pub const RUN_LIMIT: Duration = Duration::from_secs(150);

/// What one agent is proven with.
pub struct Subject<'a> {
    pub row: &'static AgentRow,
    pub headless: &'static Headless,
    pub binary: PathBuf,
    pub wiring: &'a [Wired],
}

/// What a run showed.
pub struct Observed {
    pub seen: Vec<(Probe, Seen)>,
    /// Every tool the agent offered its model.
    pub tools: Vec<String>,
    /// How many requests of its loop reached the model.
    pub main: usize,
    /// One line: exit status, time, model requests, the last line of stderr.
    pub summary: String,
}

/// Runs the agent once with the wiring of `variant` and the canary calls of `probes`, under
/// `root/NAME`.
pub fn run(
    s: &Subject,
    variant: Variant,
    probes: &[Probe],
    root: &Path,
) -> std::io::Result<Observed> {
    let name = format!("{}-{variant:?}", s.row.dialect).to_lowercase();
    let dir = root.join(name);
    let (home, project, tmp) = (dir.join("home"), dir.join("project"), dir.join("tmp"));
    for d in [&home, &project, &tmp] {
        std::fs::create_dir_all(d)?;
    }
    let token = token();
    let log = setup::canary_guard(&home, &token)?;
    let server = Server::start(Script {
        token: token.clone(),
        project: project.clone(),
        probes: probes.to_vec(),
    })?;
    let url = server.url();
    let base = (s.headless.setup)(&home, &project, &url)?;
    let unit = s.headless.timeout_per_second;
    let doc = setup::settings(s.row, base, s.wiring, variant, &home, unit)?;
    let file = s.row.file(&home);
    if let Some(parent) = file.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(&file, serde_json::to_string_pretty(&doc)?)?;
    let start = Instant::now();
    let code = spawn_and_wait(s, &home, &project, &tmp, &url, &dir)?;
    let requests = server.requests();
    drop(server);
    // What the model was asked, for a look with --keep.
    let lines: Vec<String> = requests.iter().map(|r| r.body.to_string()).collect();
    std::fs::write(dir.join("requests.jsonl"), lines.join("\n"))?;
    let guard_log = std::fs::read_to_string(&log).unwrap_or_default();
    let told = requests
        .iter()
        .any(|r| r.body.to_string().contains(CANARY_REASON));
    let seen = probes
        .iter()
        .map(|&p| {
            let file = marker(&project, p, &token);
            let name = file
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let seen = Seen {
                asked: asked(&requests, p),
                ran: file.exists(),
                guarded: guard_log.contains(&name),
                told,
            };
            (p, seen)
        })
        .collect();
    let stderr = std::fs::read_to_string(dir.join("stderr")).unwrap_or_default();
    let last = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default();
    let main = requests
        .iter()
        .filter(|r| matches!(r.turn, Some(Turn::Call { .. } | Turn::Text(_))))
        .count();
    let mut tools: Vec<String> = requests.iter().flat_map(|r| r.tools.clone()).collect();
    tools.sort_unstable();
    tools.dedup();
    Ok(Observed {
        seen,
        tools,
        main,
        summary: format!(
            "{} after {:.0}s, {main} model requests; last stderr line: {:?}",
            code.map_or("killed at the time limit".into(), |c| format!("exit {c}")),
            start.elapsed().as_secs_f64(),
            last.chars().take(200).collect::<String>()
        ),
    })
}

/// Whether the model asked for `probe`'s call.
fn asked(requests: &[Request], probe: Probe) -> bool {
    requests
        .iter()
        .any(|r| matches!(&r.turn, Some(Turn::Call { probe: p, .. }) if *p == probe))
}

/// A fresh canary token: letters and digits only (it goes into a `case` pattern).
fn token() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("hhcanary{:x}{:x}", nanos, std::process::id())
}

/// Runs the agent with nothing of the caller's environment but `PATH` (to find its runtime)
/// and the user's name; its output goes to `dir/stdout` and `dir/stderr`. The exit code
/// (`None`: killed at [`RUN_LIMIT`]).
fn spawn_and_wait(
    s: &Subject,
    home: &Path,
    project: &Path,
    tmp: &Path,
    url: &str,
    dir: &Path,
) -> std::io::Result<Option<i32>> {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(&s.binary);
    cmd.args((s.headless.args)(project))
        .current_dir(project)
        .env_clear()
        .env(
            "PATH",
            std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into()),
        )
        .env("HOME", home)
        .env(
            "USER",
            std::env::var_os("USER").unwrap_or_else(|| "user".into()),
        )
        .env("LANG", "C.UTF-8")
        .env("TERM", "dumb")
        .env("NO_COLOR", "1")
        .env("TMPDIR", tmp)
        .envs((s.headless.env)(url, home))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(dir.join("stdout"))?)
        .stderr(std::fs::File::create(dir.join("stderr"))?)
        .process_group(0);
    let mut child = cmd.spawn()?;
    let pid = child.id().cast_signed();
    let deadline = Instant::now() + RUN_LIMIT;
    let code = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status.code().unwrap_or(-1));
        }
        if Instant::now() > deadline {
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    // The agent's group, with whatever it left running (a background shell, a stuck hook).
    // SAFETY: sends a signal to the process group this function started; no memory involved.
    #[allow(unsafe_code)]
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
    let _ = child.wait();
    Ok(code)
}
