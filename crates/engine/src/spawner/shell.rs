//! [`ShellSpawner`]: runs a command hook as a process: the shell form as `sh -c COMMAND`
//! (Windows without `sh`: `cmd /C`; `"shell": "bash"`: `bash -c`; `"shell": "powershell"`:
//! `pwsh -NoProfile -Command`), the exec form (`args`) as its program with those arguments,
//! no shell (`program.rs` finds both).
//!
//! The hook gets its own process group so that a timeout kills it and everything it started.
//! The payload is written to stdin while stdout and stderr are read, so neither side can
//! deadlock on a full pipe; a hook that never reads stdin is fine (the broken pipe is
//! ignored). Once the hook itself has exited, the pipes get a short grace period to drain and
//! are then abandoned, so a background grandchild holding stdout open cannot hold the engine.

use super::capture::{Capture, drain_pipe};
use super::program;
use super::{ExitStatus, SpawnOutput, SpawnRequest, Spawner};
use crate::config::Handler;
use async_trait::async_trait;
use hookhost_core::process::kill_group;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::process::Command;
use tokio::time::{Instant, timeout_at};

/// How long the pipes may keep draining after the hook exited or was killed.
const DRAIN_GRACE: Duration = Duration::from_millis(50);

/// Hook processes that may run at once; further hooks wait for one to end (the wait is not
/// charged to their timeout). Keeps 1,000 concurrent events from forking 1,000 shells.
pub const MAX_PROCESSES: usize = 64;

/// Runs shell-command hooks as child processes.
#[derive(Debug, Clone)]
pub struct ShellSpawner {
    slots: std::sync::Arc<tokio::sync::Semaphore>,
}

impl Default for ShellSpawner {
    fn default() -> Self {
        Self::with_max_processes(MAX_PROCESSES)
    }
}

impl ShellSpawner {
    /// A spawner that runs at most `n` hooks at once (at least 1; the default is 64);
    /// the others wait for a slot.
    pub fn with_max_processes(n: usize) -> Self {
        ShellSpawner {
            slots: std::sync::Arc::new(tokio::sync::Semaphore::new(n.max(1))),
        }
    }
}

/// `sh -c command`, or `cmd /C command` on Windows when no `sh` is on PATH.
fn shell_command(command: &str) -> Command {
    #[cfg(windows)]
    {
        let has_sh = std::env::var_os("PATH")
            .is_some_and(|paths| std::env::split_paths(&paths).any(|p| p.join("sh.exe").is_file()));
        if !has_sh {
            // Verbatim: cmd.exe does not read the backslash-escaped quotes of the C runtime's
            // argument rules that `arg` writes, so a command holding quotes would reach it
            // mangled. `/S /C "..."` strips exactly the outer pair and runs the rest as typed.
            let mut c = Command::new("cmd");
            c.raw_arg(format!("/S /C \"{command}\""));
            return c;
        }
    }
    let mut c = Command::new("sh");
    c.arg("-c").arg(command);
    c
}

/// The process a command hook runs, or why it cannot start (a spawn failure that says what
/// to fix).
fn process_for(req: &SpawnRequest) -> Result<Command, String> {
    let path = req
        .env
        .iter()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| std::ffi::OsString::from(v))
        .or_else(|| std::env::var_os("PATH"));
    match &req.handler {
        Handler::Shell { command, shell } => match program::interpreter(*shell) {
            None => Ok(shell_command(command)),
            Some((name, leading)) => {
                let found =
                    program::find_program(name, &req.cwd, path.as_deref()).map_err(|_| {
                        program::ProgramError::NoShell {
                            shell: shell.as_str(),
                            program: name,
                        }
                        .to_string()
                    })?;
                let mut c = Command::new(found);
                c.args(leading).arg(command);
                Ok(c)
            }
        },
        Handler::Exec { program, args, .. } => {
            let value = |name: &str| match name {
                "HOOK_PROJECT_DIR" => req.project_dir.to_str(),
                _ => req
                    .env
                    .iter()
                    .find(|(k, _)| k == name)
                    .map(|(_, v)| v.as_str()),
            };
            let program = program::fill_placeholders(program, value);
            let found = program::find_program(&program, &req.cwd, path.as_deref())
                .map_err(|e| e.to_string())?;
            let mut c = Command::new(found);
            c.args(args.iter().map(|a| program::fill_placeholders(a, value)));
            Ok(c)
        }
        _ => Err("the process spawner got a hook that is not a command".into()),
    }
}

/// The wrapper that runs a background (`asyncRewake`) hook detached: `$1` is the job's
/// directory; the rest is the hook's own command line. The payload comes from `in`, stdout
/// and stderr go to `out` and `err`, and the exit code is written to `status` last (renamed
/// into place, so a reader never sees half of it).
#[cfg(unix)]
const DETACHED: &str = r#"d=$1; shift; "$@" <"$d/in" >"$d/out" 2>"$d/err"; echo $? >"$d/status.tmp"; mv "$d/status.tmp" "$d/status""#;

/// Starts a command hook detached from this process (its own process group, no pipes to
/// it), to outlive the event: the payload is `dir/in`, and `dir/out`, `dir/err` and
/// `dir/status` are what it leaves (`runner/rewake.rs` reads them). Nothing waits for it
/// here, and no timeout applies (as Claude Code does not enforce one on a background hook).
/// `Err`: it could not start (a missing program or `shell` says so, as when run in the
/// foreground).
#[cfg(unix)]
pub(crate) fn start_detached(req: &SpawnRequest, dir: &std::path::Path) -> Result<(), String> {
    if req.sandbox.is_some() {
        return Err(
            "a hook that runs sandboxed cannot run in the background (`asyncRewake`): nothing would enforce its timeout; remove `asyncRewake`, or trust the hook and give it no grants".into(),
        );
    }
    if let Some(failed) = req.missing_cwd(std::time::Instant::now()) {
        return Err(match failed.status {
            ExitStatus::SpawnFailed(why) => why,
            other => format!("{other:?}"),
        });
    }
    let hook = process_for(req)?;
    let hook = hook.as_std();
    std::fs::write(dir.join("in"), &*req.stdin)
        .map_err(|e| format!("cannot write {}: {e}", dir.join("in").display()))?;
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg(DETACHED)
        .arg("hookhost-rewake")
        .arg(dir)
        .arg(hook.get_program())
        .args(hook.get_args())
        .current_dir(&req.cwd)
        .env("HOOK_EVENT", req.event.as_str())
        .env("HOOK_PROJECT_DIR", &req.project_dir);
    for name in &req.env_unset {
        cmd.env_remove(name);
    }
    cmd.envs(req.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start the background hook: {e}"))?;
    // Reaped when it ends (a long-lived runner must not keep zombies); a one-event process
    // that exits first leaves it to init.
    std::thread::spawn(move || child.wait());
    Ok(())
}

/// The hook's process with its environment: hookhost's own with the dialect's variables, in
/// its own process group; or, sandboxed, wrapped to enter the sandbox and with the
/// sandbox's environment (the guard holds its temporary directory). `Err`: it must run
/// sandboxed and cannot (never run unconfined instead).
fn environment(
    mut cmd: Command,
    req: &SpawnRequest,
) -> Result<(Command, Option<super::sandbox::Guard>), String> {
    let Some(sandbox) = &req.sandbox else {
        cmd.env("HOOK_EVENT", req.event.as_str())
            .env("HOOK_PROJECT_DIR", &req.project_dir);
        for name in &req.env_unset {
            cmd.env_remove(name);
        }
        cmd.envs(req.env.iter().map(|(k, v)| (k, v)));
        #[cfg(unix)]
        cmd.process_group(0);
        return Ok((cmd, None));
    };
    let own = own_env(req);
    super::sandbox::confine(cmd, sandbox, &req.project_dir, req.timeout, &own)
        .map(|(cmd, guard)| (cmd, Some(guard)))
        .map_err(|why| format!("the hook must run sandboxed and cannot: {why}"))
}

/// hookhost's own variables for a sandboxed hook (its environment is otherwise the
/// sandbox's): `HOOK_EVENT`, `HOOK_PROJECT_DIR` and the dialect's.
fn own_env(req: &SpawnRequest) -> Vec<(String, String)> {
    let mut own = vec![
        ("HOOK_EVENT".to_string(), req.event.as_str().to_string()),
        (
            "HOOK_PROJECT_DIR".to_string(),
            req.project_dir.to_string_lossy().into_owned(),
        ),
    ];
    own.extend(req.env.iter().cloned());
    own
}

fn describe_status(status: std::process::ExitStatus) -> ExitStatus {
    if let Some(code) = status.code() {
        return ExitStatus::Exited(code);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return ExitStatus::Crashed(format!("killed by signal {sig}"));
        }
    }
    ExitStatus::Crashed(format!("ended without an exit code ({status})"))
}

#[async_trait]
impl Spawner for ShellSpawner {
    async fn spawn(&self, req: SpawnRequest) -> SpawnOutput {
        let _slot = self.slots.acquire().await;
        let start = Instant::now();
        if let Some(failed) = req.missing_cwd(start.into_std()) {
            return failed;
        }
        // Kept until the hook is done: a sandboxed hook's private temporary directory.
        let (mut cmd, _confined) = match process_for(&req).and_then(|c| environment(c, &req)) {
            Ok(made) => made,
            Err(why) => return SpawnOutput::spawn_failed(why, start.elapsed()),
        };
        let command = req.handler.display();
        cmd.current_dir(&req.cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => {
                return SpawnOutput::spawn_failed(
                    match &req.handler {
                        Handler::Exec { .. } => format!("cannot start {command:?}: {e}"),
                        _ => format!("cannot start the shell for {command:?}: {e}"),
                    },
                    start.elapsed(),
                );
            }
        };
        let pid = child.id();
        let deadline = start + req.timeout;

        let stdin = child.stdin.take();
        let payload = req.stdin.clone();
        let writer = tokio::spawn(async move {
            if let Some(mut stdin) = stdin {
                // A hook may exit without reading stdin: the broken pipe is not an error.
                let _ = stdin.write_all(&payload).await;
                let _ = stdin.shutdown().await;
            }
        });
        let capture = Capture::default();
        let mut readers = tokio::task::JoinSet::new();
        if let Some(stdout) = child.stdout.take() {
            readers.spawn(drain_pipe(stdout, capture.stdout.clone()));
        }
        if let Some(stderr) = child.stderr.take() {
            readers.spawn(drain_pipe(stderr, capture.stderr.clone()));
        }

        let status = match timeout_at(deadline, child.wait()).await {
            Ok(Ok(status)) => {
                if req.sandbox.is_some() {
                    // Nothing a sandboxed hook started outlives it.
                    kill_group(pid);
                }
                describe_status(status)
            }
            Ok(Err(e)) => ExitStatus::Crashed(format!("waiting for the hook failed: {e}")),
            Err(_) => {
                kill_group(pid);
                let _ = child.start_kill();
                let _ = timeout_at(Instant::now() + DRAIN_GRACE, child.wait()).await;
                ExitStatus::TimedOut
            }
        };
        // Drain what is already in the pipes; a grandchild holding them open is abandoned.
        let _ = timeout_at(Instant::now() + DRAIN_GRACE, async {
            while readers.join_next().await.is_some() {}
        })
        .await;
        readers.abort_all();
        writer.abort();

        let out = capture.finish(status, start.elapsed());
        match &out.status {
            ExitStatus::Exited(code) if req.sandbox.is_some() => {
                match super::sandbox::setup_failure(*code, &out.stderr) {
                    Some(why) => SpawnOutput::spawn_failed(
                        format!("the hook must run sandboxed and cannot: {why}"),
                        out.duration,
                    ),
                    None => out,
                }
            }
            _ => out,
        }
    }
}
