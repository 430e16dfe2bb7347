//! One connection of the server: its messages read line by line (each charged against the
//! memory budget while it is parsed), each request run as its own task, answers written
//! through one writer, and at the end the client's hooks failed and its runner retired.

use super::{Server, stopped, write_messages};
use crate::lines::{Line, LineReader};
use crate::memory::{Budget, Charge, ParseFailure, Pool, id_of, parse_charged};
use crate::methods::{self, Client};
use crate::peer::Peer;
use crate::protocol::{self, BUSY, Incoming, PARSE_ERROR, RpcError, SHUTTING_DOWN, TOO_LARGE};
use hookhost::setup::HookTable;
use serde_json::{Value, json};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::io::{AsyncRead, AsyncWrite, BufReader};
use tokio::sync::{Semaphore, mpsc};
use tokio::task::JoinSet;

/// What a message parsed to: something to act on, or the error to answer with its id.
type Parsed = Result<Incoming, (Value, RpcError)>;

/// One connection's state while it is served.
struct Conn {
    server: Arc<Server>,
    peer: Arc<Peer>,
    client: Arc<Client>,
    /// Requests running at once ([`super::Limits::max_in_flight`]).
    permits: Arc<Semaphore>,
    budget: Budget,
    /// The requests read and not yet answered.
    jobs: JoinSet<()>,
    /// No new requests: the server is shutting down.
    closing: bool,
}

impl Server {
    /// One connection: reads messages, runs each request as a task, writes answers through
    /// one writer. Ends at the client's EOF, or at shutdown once its requests are answered.
    pub(super) async fn connection<R, W>(self: Arc<Self>, reader: R, writer: W)
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        self.connections.fetch_add(1, Ordering::AcqRel);
        let (tx, rx) = mpsc::channel::<Value>(256);
        let writer = tokio::spawn(write_messages(writer, rx));
        let mut conn = Conn::new(self.clone(), Arc::new(Peer::new(tx)));
        let mut lines = LineReader::new(
            BufReader::new(reader),
            self.limits.max_message,
            conn.budget.clone(),
        );
        let mut shutdown = self.shutdown.subscribe();
        let mut notes = self.notes.subscribe();
        loop {
            if conn.closing && conn.jobs.is_empty() {
                break;
            }
            tokio::select! {
                line = lines.next() => {
                    if conn.line(line).await.is_break() {
                        break;
                    }
                }
                Some(_) = conn.jobs.join_next(), if !conn.jobs.is_empty() => {}
                _ = stopped(&mut shutdown), if !conn.closing => { conn.closing = true; }
                note = notes.recv() => {
                    if let Ok(note) = note { conn.peer.send(note).await; }
                }
            }
        }
        conn.close().await;
        let _ = writer.await;
        self.connections.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Conn {
    fn new(server: Arc<Server>, peer: Arc<Peer>) -> Conn {
        let client = Arc::new(Client {
            table: std::sync::Mutex::new(HookTable::new(server.engine.clone())),
            peer: peer.clone(),
            next_hook: AtomicU64::new(1),
        });
        let limits = server.limits;
        Conn {
            budget: Budget::new(Pool::new(limits.max_queued_bytes), server.memory.clone()),
            permits: Arc::new(Semaphore::new(limits.max_in_flight)),
            jobs: JoinSet::new(),
            closing: server.shutting_down(),
            server,
            peer,
            client,
        }
    }

    /// What the reader gave: a message acted on, a line refused with an error answer, or
    /// the end of the connection (`Break`).
    async fn line(&mut self, line: std::io::Result<Line>) -> ControlFlow<()> {
        let limits = self.server.limits;
        let (line, line_charge) = match line {
            Ok(Line::Message(line, charge)) => (line, charge),
            Ok(Line::TooLong(n)) => {
                let e = RpcError::new(
                    TOO_LARGE,
                    format!(
                        "a message of {n}+ bytes is over the limit of {} bytes; it was skipped",
                        limits.max_message
                    ),
                );
                self.peer
                    .send(protocol::response(Value::Null, Err(e)))
                    .await;
                return ControlFlow::Continue(());
            }
            Ok(Line::NoRoom(n)) => {
                let e = self.server.no_room(
                    &self.budget,
                    usize::try_from(n).unwrap_or(usize::MAX),
                    false,
                );
                self.peer
                    .send(protocol::response(Value::Null, Err(e)))
                    .await;
                return ControlFlow::Continue(());
            }
            Ok(Line::Eof) | Err(_) => return ControlFlow::Break(()),
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            return ControlFlow::Continue(());
        }
        let (parsed, charge) = self.parse(&line);
        drop((line, line_charge));
        self.dispatch(parsed, charge).await;
        ControlFlow::Continue(())
    }

    /// Parses `line` against the memory budget: what the value holds is charged as it is
    /// built, and the request keeps that charge until it is answered.
    fn parse(&self, line: &[u8]) -> (Parsed, Charge) {
        let mut charge = self.budget.charge();
        let parsed = match parse_charged(line, &mut charge) {
            Ok(value) => protocol::interpret(value),
            Err(ParseFailure::Invalid(e)) => Err((
                Value::Null,
                RpcError::new(PARSE_ERROR, format!("not valid JSON: {e}")),
            )),
            Err(ParseFailure::NoRoom { needed }) => {
                let never = charge.never_fits(needed);
                // What the partial value held is given back before answering.
                charge = self.budget.charge();
                let e = self.server.no_room(&self.budget, line.len(), never);
                Err((id_of(line), e))
            }
        };
        (parsed, charge)
    }

    /// Acts on one parsed message.
    async fn dispatch(&mut self, parsed: Parsed, charge: Charge) {
        match parsed {
            Err((id, e)) => {
                self.peer.send(protocol::response(id, Err(e))).await;
            }
            Ok(Incoming::Response { id, outcome }) => {
                self.peer.answer(&id, outcome, charge);
            }
            Ok(Incoming::Notification { method }) => {
                tracing::debug!(method, "ignored a notification");
            }
            Ok(Incoming::Request { id, method, params }) => {
                self.request(id, method, params, charge).await;
            }
        }
    }

    /// Starts one request as its own task, unless the server is closing or too many wait.
    async fn request(&mut self, id: Value, method: String, params: Value, charge: Charge) {
        if self.closing {
            let e = RpcError::new(SHUTTING_DOWN, "the server is shutting down");
            self.peer.send(protocol::response(id, Err(e))).await;
            return;
        }
        // Requests past the in-flight limit wait for a slot inside their task, so reading
        // goes on (a running request may be waiting for this client's answer to a hook
        // call). What waits is bounded in count and in memory (its charge, above); beyond,
        // the request is refused.
        let max_queued = self.server.limits.max_queued;
        if self.jobs.len() >= max_queued {
            let e = RpcError::new(
                BUSY,
                format!(
                    "too many requests waiting on this connection (at most {max_queued}); wait for answers before sending more"
                ),
            );
            self.peer.send(protocol::response(id, Err(e))).await;
            return;
        }
        let permits = self.permits.clone();
        let (server, client, peer) = (self.server.clone(), self.client.clone(), self.peer.clone());
        let guard = (method != "shutdown").then(|| self.server.in_flight.enter());
        self.jobs.spawn(async move {
            let permit = permits.acquire_owned().await;
            let outcome = if method == "shutdown" {
                server.begin_shutdown();
                server.drain().await;
                Ok(json!({"ok": true}))
            } else {
                methods::call(&client, &method, &params).await
            };
            drop(params);
            peer.send(protocol::response(id, outcome)).await;
            drop((guard, permit, charge));
        });
    }

    /// The client is gone (or we are closing): its pending hook calls fail, its requests
    /// still running end (client hooks fail as crashes), its runner is retired so its async
    /// hooks run to their end.
    async fn close(mut self) {
        self.peer.close();
        while self.jobs.join_next().await.is_some() {}
        hookhost::agent::sync::lock(&self.client.table).invalidate();
    }
}
