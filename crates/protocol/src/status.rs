//! [`ExitStatus`]: how a hook ended, whatever ran it (a process, a wasm instance, an HTTP
//! request). Running it is the engine's `spawner`; judging it is the engine's `judge`.

/// How a hook ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExitStatus {
    /// It exited with this code (for HTTP: 0 on a 2xx answer).
    Exited(i32),
    /// It crashed: killed by a signal, or a wasm trap. The text says how.
    Crashed(String),
    /// It ran past its timeout (or fuel budget) and was stopped.
    TimedOut,
    /// It could not be started: missing file, bad module, cwd gone, refused connection...
    SpawnFailed(String),
}
