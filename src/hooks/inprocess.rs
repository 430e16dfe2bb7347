//! In-process hooks: Rust closures or trait objects that a library user registers on a
//! [`Runner`](super::Runner) for an event. They need no isolation, answer with the same
//! decisions as any hook, run after the configured hooks of their event, and appear as kind
//! `fn`. A panic in one is caught and treated as a crash; a hook still running after its
//! timeout (default 10 s) is a timeout, as for every other kind.

use super::config::{HookKind, OnError, Scope};
use super::decision::{Judgement, Outcome, Verdict};
use super::event::{Event, EventClass};
use super::payload::Payload;
use super::runner::{HookRecord, duration_ms};
use async_trait::async_trait;
use regex::Regex;
use serde_json::Value;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

/// What an in-process hook answers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FnResponse {
    pub decision: FnDecision,
    /// PreToolUse: new tool arguments.
    pub updated_input: Option<Value>,
    pub additional_context: Option<String>,
    pub system_message: Option<String>,
}

/// The decision of an in-process hook.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum FnDecision {
    #[default]
    Pass,
    /// PreToolUse: block with this reason (elsewhere: a warning, the reason is feedback).
    Block(String),
    /// Stop/SubagentStop: continue with this message (elsewhere: a warning).
    Force(String),
}

impl FnResponse {
    pub fn pass() -> Self {
        Self::default()
    }
    pub fn block(reason: impl Into<String>) -> Self {
        FnResponse {
            decision: FnDecision::Block(reason.into()),
            ..Self::default()
        }
    }
    pub fn force(message: impl Into<String>) -> Self {
        FnResponse {
            decision: FnDecision::Force(message.into()),
            ..Self::default()
        }
    }
    pub fn update_input(args: Value) -> Self {
        FnResponse {
            updated_input: Some(args),
            ..Self::default()
        }
    }
    pub fn context(text: impl Into<String>) -> Self {
        FnResponse {
            additional_context: Some(text.into()),
            ..Self::default()
        }
    }
}

/// A hook that runs inside the host process.
#[async_trait]
pub trait FnHook: Send + Sync {
    async fn call(&self, payload: &Payload) -> FnResponse;
}

/// Any `Fn(&Payload) -> FnResponse` closure is a hook.
#[async_trait]
impl<F> FnHook for F
where
    F: Fn(&Payload) -> FnResponse + Send + Sync,
{
    async fn call(&self, payload: &Payload) -> FnResponse {
        self(payload)
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
                .map(|s| s.to_string())
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

    /// Runs the hook and judges its answer like any other hook's.
    pub async fn run(&self, payload: &Payload) -> (HookRecord, Judgement) {
        let start = Instant::now();
        // Polled inline (no task hop: an in-process hook costs what its code costs); a panic
        // is caught at each poll and becomes a crash.
        let call = CatchPanic(self.hook.call(payload));
        let answer = tokio::time::timeout(self.timeout, call).await;
        let class = self.event.class();
        let mut j = Judgement::default();
        match answer {
            Ok(Ok(resp)) => {
                j.outcome = Some(Outcome::Pass);
                j.additional_context = resp.additional_context;
                j.system_message = resp.system_message;
                match (resp.decision, class) {
                    (FnDecision::Block(r), EventClass::Blocking) => {
                        j.verdict = Verdict::Block(r);
                        j.outcome = Some(Outcome::Block);
                    }
                    (FnDecision::Force(m), EventClass::Forcing) => {
                        j.verdict = Verdict::Force(m);
                        j.outcome = Some(Outcome::Force);
                    }
                    (FnDecision::Pass, _) => {
                        if class == EventClass::Blocking {
                            j.updated_input = resp.updated_input;
                        }
                    }
                    (FnDecision::Block(r) | FnDecision::Force(r), _) => {
                        j.outcome = Some(Outcome::Warn);
                        j.message = Some(format!("decision not applicable to {}", self.event));
                        j.feedback = Some(r);
                    }
                }
            }
            Ok(Err(panic)) => {
                let why = format!("in-process hook panicked: {panic}");
                self.failed(&mut j, Outcome::Warn, why);
            }
            Err(_) => {
                let why = format!("timed out after {} ms", self.timeout.as_millis());
                self.failed(&mut j, Outcome::Timeout, why);
            }
        }
        let record = HookRecord {
            hook: format!("{}[fn {}]", self.event, self.index),
            source: Scope::Project,
            command: self.name.clone(),
            kind: HookKind::Fn,
            outcome: j.outcome.unwrap_or(Outcome::Pass),
            exit_code: None,
            duration_ms: duration_ms(start.elapsed()),
            stdout: String::new(),
            stderr: String::new(),
            truncated: false,
            is_async: false,
            message: j.message.clone(),
        };
        (record, j)
    }

    /// A crash or timeout: DESIGN §4 (block on PreToolUse for a timeout, or with onError: block).
    fn failed(&self, j: &mut Judgement, outcome: Outcome, why: String) {
        j.outcome = Some(outcome);
        let blocks = self.event.class() == EventClass::Blocking
            && (outcome == Outcome::Timeout || self.on_error == OnError::Block);
        if blocks {
            j.verdict = Verdict::Block(format!("hook {} {why}", self.name));
            if outcome != Outcome::Timeout {
                j.outcome = Some(Outcome::Block);
            }
        }
        j.message = Some(why);
    }
}
