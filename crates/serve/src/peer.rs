//! The other end of one connection as the server sees it: messages go out through one
//! writer queue, and calls the server makes (a client hook's `hook` call) wait here for the
//! client's answer. [`ClientFn`] is a client hook: an [`FnHook`] whose body is a call to the
//! client, so the client's function goes through the same decision table as every hook.

use super::memory::Charge;
use super::protocol::{self, HOOK_FAILED, RpcError};
use async_trait::async_trait;
use hookhost::{FnHook, HookError, HookResult, Payload, typed_answer};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::{mpsc, oneshot};

/// Where a call's answer goes, with the memory charge of the parsed answer (held until the
/// answer has been read).
type Waiter = oneshot::Sender<(Result<Value, RpcError>, Option<Charge>)>;

/// One connected client.
pub struct Peer {
    out: mpsc::Sender<Value>,
    pending: Mutex<HashMap<u64, Waiter>>,
    next_id: AtomicU64,
}

/// Removes a call's waiter when the call ends or is dropped (a hook's timeout).
struct PendingGuard<'a>(&'a Peer, u64);

impl Drop for PendingGuard<'_> {
    fn drop(&mut self) {
        self.0.lock().remove(&self.1);
    }
}

impl Peer {
    /// A peer whose outgoing messages go to `out`.
    pub fn new(out: mpsc::Sender<Value>) -> Self {
        Peer {
            out,
            pending: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Waiter>> {
        hookhost::agent::sync::lock(&self.pending)
    }

    /// Sends a message; false when the connection is gone.
    pub async fn send(&self, message: Value) -> bool {
        self.out.send(message).await.is_ok()
    }

    /// Calls `method` on the client and waits for its answer (and the memory charge it
    /// holds: drop it once the answer is used).
    pub async fn call(
        &self,
        method: &str,
        params: Value,
    ) -> (Result<Value, RpcError>, Option<Charge>) {
        let n = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.lock().insert(n, tx);
        let _guard = PendingGuard(self, n);
        if !self
            .send(protocol::request(
                Value::String(format!("s{n}")),
                method,
                params,
            ))
            .await
        {
            return (
                Err(RpcError::new(HOOK_FAILED, "the client disconnected")),
                None,
            );
        }
        rx.await.unwrap_or_else(|_| {
            (
                Err(RpcError::new(HOOK_FAILED, "the client disconnected")),
                None,
            )
        })
    }

    /// Routes the client's answer to the call waiting for it; false when none is (unknown
    /// or late id: dropped).
    pub fn answer(&self, id: &Value, outcome: Result<Value, RpcError>, charge: Charge) -> bool {
        let n = id
            .as_str()
            .and_then(|s| s.strip_prefix('s'))
            .and_then(|s| s.parse::<u64>().ok());
        match n.and_then(|n| self.lock().remove(&n)) {
            Some(waiter) => waiter.send((outcome, Some(charge))).is_ok(),
            None => false,
        }
    }

    /// Fails every call still waiting (the client went away).
    pub fn close(&self) {
        self.lock().clear();
    }
}

/// The params of a `hook` call to the client: which of its hooks, and the event's payload.
#[derive(serde::Serialize)]
struct HookCall<'a> {
    id: &'a str,
    payload: &'a serde_json::Map<String, Value>,
}

/// A hook whose function lives in the client: each event is a `hook` call to it.
pub struct ClientFn {
    peer: Weak<Peer>,
    id: String,
}

impl ClientFn {
    /// The client hook `id` of `peer`.
    pub fn new(peer: &Arc<Peer>, id: &str) -> Self {
        ClientFn {
            peer: Arc::downgrade(peer),
            id: id.to_string(),
        }
    }
}

/// A client hook that failed (disconnected, answered an error or a malformed answer) is a
/// crash, like a process that died: the decision table applies `onError`.
#[async_trait]
impl FnHook for ClientFn {
    async fn call(&self, payload: &Payload) -> HookResult {
        let Some(peer) = self.peer.upgrade() else {
            return Err(HookError::new("the client that registered it disconnected"));
        };
        let params = HookCall {
            id: &self.id,
            payload: payload.as_map(),
        };
        // Plain data: serialising it cannot fail.
        let params = serde_json::to_value(params).unwrap_or_default();
        let (outcome, _held) = peer.call("hook", params).await;
        match outcome {
            Ok(v) => typed_answer(&v).map_err(HookError::new),
            Err(e) => Err(HookError::new(format!(
                "the client hook failed: {}",
                e.message
            ))),
        }
    }
}
