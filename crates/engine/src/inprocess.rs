//! In-process hooks: Rust closures or trait objects that a library user registers on a
//! [`Runner`](super::Runner) for an event. They need no isolation, answer with the same
//! decisions as any hook, run after the configured hooks of their event, and appear as kind
//! `fn`. Their answer is converted to what a process would have produced
//! ([`TypedAnswer::as_process`](super::answer::TypedAnswer)) and judged by the same table as
//! every other hook; an error it returns ([`HookError`]) or a panic is a crash and a hook still running after its timeout (default
//! 10 s) is a timeout, as for every other kind. This module runs the function; it decides
//! nothing.

use super::answer::TypedAnswer;
use super::config::{OnError, Scope};
use super::event::Event;
use super::payload::Payload;
use super::spawner::{ExitStatus, SpawnOutput};
use crate::judge::{HookFacts, Verdict};
use async_trait::async_trait;
use regex::Regex;
use serde_json::Value;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

/// What an in-process hook answers: the same pass / block / force as any hook
/// ([`Verdict`]), plus what a JSON answer could carry.
pub type FnResponse = TypedAnswer;

impl TypedAnswer {
    /// Go on.
    pub fn pass() -> Self {
        Self::default()
    }
    /// PreToolUse: block with this reason (elsewhere: a warning, like a script's exit 2).
    pub fn block(reason: impl Into<String>) -> Self {
        TypedAnswer {
            verdict: Verdict::Block(reason.into()),
            ..Self::default()
        }
    }
    /// Stop/SubagentStop: continue with this message.
    pub fn force(message: impl Into<String>) -> Self {
        TypedAnswer {
            verdict: Verdict::Force(message.into()),
            ..Self::default()
        }
    }
    /// PreToolUse: run the tool with these arguments instead.
    pub fn update_input(args: Value) -> Self {
        TypedAnswer {
            updated_input: Some(args),
            ..Self::default()
        }
    }
    /// PermissionRequest: run the call without the permission prompt (the agent asks
    /// PermissionRequest only about a call its checker would ask about; elsewhere a pass).
    pub fn allow() -> Self {
        TypedAnswer {
            allow: true,
            ..Self::default()
        }
    }
    /// Add this text to the model's context.
    pub fn context(text: impl Into<String>) -> Self {
        TypedAnswer {
            additional_context: Some(text.into()),
            ..Self::default()
        }
    }
    /// PostToolUse: the model sees `output` as the tool's result instead of its own.
    pub fn replace_tool_output(output: Value) -> Self {
        TypedAnswer {
            updated_tool_output: Some(output),
            ..Self::default()
        }
    }
}

/// Why an in-process hook could not answer. The runner treats it as a crash, like a process
/// that died: the hook's `onError` applies (a warning, or on PreToolUse with `on_error:
/// Block` a block), and the message is in its record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct HookError {
    message: String,
}

impl HookError {
    /// A failure saying `message` (what went wrong, for the user who reads the record).
    pub fn new(message: impl Into<String>) -> Self {
        HookError {
            message: message.into(),
        }
    }

    /// What went wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl From<String> for HookError {
    fn from(message: String) -> Self {
        HookError::new(message)
    }
}

impl From<&str> for HookError {
    fn from(message: &str) -> Self {
        HookError::new(message)
    }
}

/// What an in-process hook's call gives: its answer, or why it has none.
pub type HookResult = Result<FnResponse, HookError>;

impl From<TypedAnswer> for HookResult {
    fn from(answer: TypedAnswer) -> Self {
        Ok(answer)
    }
}

/// A hook that runs inside the host process.
#[async_trait]
pub trait FnHook: Send + Sync {
    /// Answers one event. `Err` counts as a crash (so does a panic); running past the
    /// timeout as a timeout.
    async fn call(&self, payload: &Payload) -> HookResult;
}

/// Any `Fn(&Payload) -> FnResponse` closure is a hook, and so is one that can fail,
/// `Fn(&Payload) -> Result<FnResponse, HookError>`.
#[async_trait]
impl<F, R> FnHook for F
where
    F: Fn(&Payload) -> R + Send + Sync,
    R: Into<HookResult>,
{
    async fn call(&self, payload: &Payload) -> HookResult {
        self(payload).into()
    }
}

/// Polls a future, turning a panic in it into an error carrying the panic message.
struct CatchPanic<F>(F);

impl<F: Future + Unpin> Future for CatchPanic<F> {
    type Output = Result<F::Output, String>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = &mut self.0;
        match std::panic::catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(v)) => Poll::Ready(Ok(v)),
            Err(panic) => Poll::Ready(Err(panic
                .downcast_ref::<&str>()
                .map(std::string::ToString::to_string)
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a non-string panic".into()))),
        }
    }
}

/// A registered in-process hook with its event and matcher.
pub struct FnHookEntry {
    event: Event,
    matcher: Option<Regex>,
    name: String,
    hook: Arc<dyn FnHook>,
    pub timeout: Duration,
    pub on_error: OnError,
    index: usize,
}

impl FnHookEntry {
    pub fn new(event: Event, matcher: Option<Regex>, name: &str, hook: Arc<dyn FnHook>) -> Self {
        FnHookEntry {
            event,
            matcher,
            name: name.to_string(),
            hook,
            timeout: Duration::from_millis(super::config::DEFAULT_TIMEOUT_MS),
            on_error: OnError::Warn,
            index: 0,
        }
    }

    pub fn event(&self) -> Event {
        self.event
    }

    pub(crate) fn set_index(&mut self, index: usize) {
        self.index = index;
    }

    /// Whether this hook runs for `event` and `tool` (the matcher is anchored at both ends).
    pub fn applies(&self, event: Event, tool: Option<&str>) -> bool {
        self.event == event
            && match (&self.matcher, tool) {
                (None, _) => true,
                (Some(re), Some(t)) => re.is_match(t),
                (Some(_), None) => false,
            }
    }

    /// The name it was registered with.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its identity, shown as `PreToolUse[fn 0]`.
    pub fn id(&self) -> super::config::HookId {
        super::config::HookId {
            scope: Scope::InProcess,
            event: self.event,
            index: self.index,
            source: 0,
        }
    }

    /// What the decision table needs to know of it.
    pub fn facts(&self) -> HookFacts<'static> {
        HookFacts::new(
            self.id(),
            super::config::HookKind::Fn,
            self.on_error,
            self.timeout.as_millis(),
        )
    }

    /// Calls the function and returns what a process answering the same would have
    /// produced: an error or a panic is a crash, running past `timeout` a timeout (also when the function
    /// blocked its thread and answered after the timeout: the answer is not used).
    pub async fn call(&self, payload: &Payload) -> SpawnOutput {
        let start = Instant::now();
        // Polled inline (no task hop: an in-process hook costs what its code costs); a panic
        // is caught at each poll and becomes a crash.
        let call = CatchPanic(self.hook.call(payload));
        let status = match tokio::time::timeout(self.timeout, call).await {
            // A hook that blocks its thread instead of awaiting (a Python function, a
            // closure that sleeps) is polled once and answers whenever it returns: the
            // timer never got a chance to fire. Past its timeout it is a timeout whatever it
            // answered (or panicked), as a process answering that late would have been
            // killed first.
            Ok(_) if start.elapsed() > self.timeout => ExitStatus::TimedOut,
            Ok(Ok(Ok(answer))) => {
                let (status, stdout, stderr) = answer.as_process();
                return SpawnOutput {
                    status,
                    stdout,
                    stderr,
                    truncated: false,
                    duration: start.elapsed(),
                    model: None,
                };
            }
            Ok(Ok(Err(failed))) => ExitStatus::Crashed(format!("in-process hook failed: {failed}")),
            Ok(Err(panic)) => ExitStatus::Crashed(format!("in-process hook panicked: {panic}")),
            Err(_) => ExitStatus::TimedOut,
        };
        SpawnOutput::bare(status, start.elapsed())
    }
}
