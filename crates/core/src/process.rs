//! Process-group control and user ids, shared by the two places that start shells: the engine's shell
//! hooks (`hookhost::spawner::shell`) and the agent core's `bash` tool. Both start the child in
//! a process group of its own, so that a timeout can kill everything it started.

/// Sends SIGKILL to the process group led by `pid` (a child spawned with
/// `process_group(0)`, so its pid is its group id). No-op without a pid or off Unix.
#[cfg(unix)]
#[allow(unsafe_code)] // one libc call, no memory-safety preconditions (below)
pub fn kill_group(pid: Option<u32>) {
    if let Some(pid) = pid.and_then(|p| i32::try_from(p).ok()) {
        // SAFETY: killpg has no memory-safety preconditions; the group id is the child's pid
        // because it was spawned with process_group(0).
        unsafe {
            libc::killpg(pid, libc::SIGKILL);
        }
    }
}

/// The effective user id of this process (whose files and sockets it may trust).
#[cfg(unix)]
#[allow(unsafe_code)] // geteuid cannot fail and has no preconditions
#[must_use]
pub fn effective_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and always succeeds.
    unsafe { libc::geteuid() }
}

/// The real user id of this process (who started it).
#[cfg(unix)]
#[allow(unsafe_code)] // getuid cannot fail and has no preconditions
#[must_use]
pub fn real_uid() -> u32 {
    // SAFETY: getuid has no preconditions and always succeeds.
    unsafe { libc::getuid() }
}

/// Off Unix there are no process groups to kill; the child itself is killed on drop.
#[cfg(not(unix))]
pub fn kill_group(_pid: Option<u32>) {}
