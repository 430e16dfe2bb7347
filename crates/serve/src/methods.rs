//! What each method of the protocol does (docs/serve-protocol.md): `fire`, `list`, `check`,
//! `register`, `unregister`, `reload`, `shutdown` (the last one is handled by the server,
//! which owns the shutdown). Each takes named params and answers a JSON value or an error
//! that says which param was wrong and how to fix it.

use hookhost::setup::{ClientHook, HookTable, report_json};
use super::peer::{ClientFn, Peer};
use super::protocol::{INTERNAL_ERROR, METHOD_NOT_FOUND, RpcError, param, string_param};
use hookhost::{Event, Payload};
use serde_json::{Value, json};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// What a method needs of its connection.
pub struct Client {
    /// The connection's in-process hooks and its runner.
    pub table: Mutex<HookTable>,
    /// The other end, for client hooks.
    pub peer: Arc<Peer>,
    /// Client hook ids handed out so far.
    pub next_hook: std::sync::atomic::AtomicU64,
}

impl Client {
    fn table(&self) -> std::sync::MutexGuard<'_, HookTable> {
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Runs one method (all but `shutdown`).
pub async fn call(client: &Client, method: &str, params: &Value) -> Result<Value, RpcError> {
    match method {
        "fire" => fire(client, params).await,
        "list" => {
            let runner = client.table().runner().map_err(internal)?;
            Ok(hookhost::inspect::list_json(&runner.hooks()))
        }
        "check" => {
            let paths = client.table().engine().paths().clone();
            let report = hookhost_package::check(&paths).await.map_err(internal)?;
            serde_json::to_value(report).map_err(internal)
        }
        "register" => register(client, params),
        "unregister" => {
            let id = string_param(params, "id")?
                .ok_or_else(|| RpcError::params("`id` is required: the id `register` answered"))?;
            Ok(json!({"removed": client.table().unregister(id)}))
        }
        "reload" => {
            let engine = client.table().engine().clone();
            Ok(json!({"generation": engine.config_changed()}))
        }
        other => Err(RpcError::new(
            METHOD_NOT_FOUND,
            format!(
                "no method {other:?}; the methods are fire, list, check, register, unregister, reload, shutdown"
            ),
        )),
    }
}

fn internal(e: impl std::fmt::Display) -> RpcError {
    RpcError::new(INTERNAL_ERROR, e.to_string())
}

fn event_param(params: &Value) -> Result<Event, RpcError> {
    let name = string_param(params, "event")?.ok_or_else(|| {
        RpcError::params("`event` is required: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PreCompact, Stop, SubagentStop or SessionEnd")
    })?;
    Event::parse_loose(name).map_err(|e| RpcError::params(e.to_string()))
}

/// The payload of a `fire`: `payload` (a whole object) or neutral defaults, then `tool`,
/// `args`, `result` and `prompt` over it, as `hookhost run` does with its flags.
pub fn payload_of(params: &Value, cwd: &Path) -> Result<Payload, RpcError> {
    let event = event_param(params)?;
    let session = string_param(params, "session")?
        .map(str::to_string)
        .unwrap_or_else(|| format!("serve-{}", std::process::id()));
    let mut payload = match param(params, "payload") {
        None => Payload::neutral(event, cwd, &session),
        // Any agent's payload, told by its shape, as `run --payload` takes it.
        Some(v) => Payload::from_object(
            event,
            hookhost::dialect::to_native(v.clone()),
            cwd,
            &session,
        )
        .map_err(|e| RpcError::params(format!("`payload`: {e}")))?,
    };
    let tool_event = event.takes_tool_matcher();
    let only = |name: &str, ok: bool, events: &str| -> Result<(), RpcError> {
        if ok {
            Ok(())
        } else {
            Err(RpcError::params(format!(
                "`{name}` applies to {events}, not {event}"
            )))
        }
    };
    if let Some(tool) = string_param(params, "tool")? {
        only("tool", tool_event, "PreToolUse and PostToolUse")?;
        payload.set("toolName", Value::String(tool.to_string()));
    }
    if let Some(args) = param(params, "args") {
        only("args", tool_event, "PreToolUse and PostToolUse")?;
        if !args.is_object() {
            return Err(RpcError::params(
                "`args` must be an object like {\"command\":\"ls\"}",
            ));
        }
        payload.set_tool_args(args.clone());
    }
    if let Some(result) = param(params, "result") {
        only("result", event == Event::PostToolUse, "PostToolUse")?;
        payload.set("toolResult", result.clone());
    }
    if let Some(prompt) = string_param(params, "prompt")? {
        only(
            "prompt",
            event == Event::UserPromptSubmit,
            "UserPromptSubmit",
        )?;
        payload.set("prompt", Value::String(prompt.to_string()));
    }
    Ok(payload)
}

async fn fire(client: &Client, params: &Value) -> Result<Value, RpcError> {
    let runner = client.table().runner().map_err(internal)?;
    let payload = payload_of(params, runner.project_dir())?;
    let report = runner.fire(payload).await;
    Ok(report_json(&report))
}

fn register(client: &Client, params: &Value) -> Result<Value, RpcError> {
    let event = event_param(params)?;
    let matcher = string_param(params, "match")?.map(str::to_string);
    if matcher.is_some() && !event.takes_tool_matcher() {
        return Err(RpcError::params(format!(
            "`match` applies to PreToolUse and PostToolUse, not {event}"
        )));
    }
    let timeout_ms = match param(params, "timeoutMs") {
        None => None,
        Some(v) => Some(v.as_u64().filter(|&ms| ms > 0).ok_or_else(|| {
            RpcError::params("`timeoutMs` must be a positive integer (milliseconds)")
        })?),
    };
    let on_error_block = match string_param(params, "onError")? {
        None | Some("warn") => false,
        Some("block") => true,
        Some(other) => {
            return Err(RpcError::params(format!(
                "`onError` must be \"warn\" or \"block\", got {other:?}"
            )));
        }
    };
    let n = client
        .next_hook
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let id = match string_param(params, "name")? {
        Some(name) => format!("{name}#{n}"),
        None => format!("client#{n}"),
    };
    let hook = ClientHook::new(
        id.clone(),
        event,
        matcher,
        Arc::new(ClientFn::new(&client.peer, &id)),
        timeout_ms,
        on_error_block,
    );
    client
        .table()
        .register(hook)
        .map_err(|e| RpcError::params(e.to_string()))?;
    Ok(json!({"id": id}))
}
