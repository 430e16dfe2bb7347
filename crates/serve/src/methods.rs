//! What each method of the protocol does (docs/serve-protocol.md): `fire`, `list`, `check`,
//! `register`, `unregister`, `reload`, `shutdown` (the last one is handled by the server,
//! which owns the shutdown). Each takes named params and answers a JSON value or an error
//! that says which param was wrong and how to fix it.

use super::peer::{ClientFn, Peer};
use super::protocol::{INTERNAL_ERROR, METHOD_NOT_FOUND, RpcError};
use hookhost::setup::{ClientHook, HookTable, report_json};
use hookhost::{Event, FireRequest, Payload, RequestError, json_type_name};
use serde::de::{DeserializeOwned, Deserializer, Error};
use serde::{Deserialize, Serialize};
use serde_json::Value;
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
        hookhost::agent::sync::lock(&self.table)
    }
}

/// `fire`'s params (docs/serve-protocol.md); `null` is absent.
#[derive(Debug, Default, Deserialize)]
struct FireParams {
    #[serde(default, deserialize_with = "event")]
    event: Option<String>,
    #[serde(default, deserialize_with = "session")]
    session: Option<String>,
    #[serde(default)]
    payload: Option<Value>,
    #[serde(default, deserialize_with = "tool")]
    tool: Option<String>,
    #[serde(default)]
    args: Option<Value>,
    #[serde(default)]
    result: Option<Value>,
    #[serde(default, deserialize_with = "prompt")]
    prompt: Option<String>,
}

/// `register`'s params.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RegisterParams {
    #[serde(default, deserialize_with = "event")]
    event: Option<String>,
    #[serde(rename = "match", default, deserialize_with = "matcher")]
    matcher: Option<String>,
    #[serde(default, deserialize_with = "timeout_ms")]
    timeout_ms: Option<u64>,
    #[serde(default, deserialize_with = "on_error")]
    on_error: Option<String>,
    #[serde(default, deserialize_with = "name")]
    name: Option<String>,
}

/// `unregister`'s params.
#[derive(Debug, Default, Deserialize)]
struct UnregisterParams {
    #[serde(default, deserialize_with = "id")]
    id: Option<String>,
}

/// `unregister`'s answer.
#[derive(Serialize)]
struct Removed {
    removed: bool,
}

/// `reload`'s answer.
#[derive(Serialize)]
struct Reloaded {
    generation: u64,
}

/// `register`'s answer.
#[derive(Serialize)]
struct Registered {
    id: String,
}

/// A string param: `null` is absent, anything else than a string is an error naming it.
fn text<'de, D: Deserializer<'de>>(d: D, key: &str) -> Result<Option<String>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s)),
        v => Err(D::Error::custom(format!(
            "`{key}` must be a string, got {}",
            json_type_name(&v)
        ))),
    }
}

macro_rules! text_params {
    ($($name:ident = $key:literal),* $(,)?) => {$(
        fn $name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
            text(d, $key)
        }
    )*};
}

text_params! {
    event = "event",
    session = "session",
    tool = "tool",
    prompt = "prompt",
    matcher = "match",
    on_error = "onError",
    name = "name",
    id = "id",
}

fn timeout_ms<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        v => v.as_u64().filter(|&ms| ms > 0).map(Some).ok_or_else(|| {
            D::Error::custom("`timeoutMs` must be a positive integer (milliseconds)")
        }),
    }
}

/// The params each method knows, in the order docs/serve-protocol.md gives them.
const FIRE_KEYS: &[&str] = &[
    "event", "session", "payload", "tool", "args", "result", "prompt",
];
const REGISTER_KEYS: &[&str] = &["event", "match", "timeoutMs", "onError", "name"];
const UNREGISTER_KEYS: &[&str] = &["id"];
const NO_KEYS: &[&str] = &[];

/// A method's params (an object, or `null` for none). A name the method does not know is an
/// error naming it and the nearest known one: ignored, a typo (`tol`) or another API's name
/// (`toolName`) would fire the event without what the caller meant, and answer pass.
fn params<T: DeserializeOwned + Default>(
    method: &str,
    known: &[&str],
    params: &Value,
) -> Result<T, RpcError> {
    refuse_unknown(method, known, params)?;
    match params {
        Value::Null => Ok(T::default()),
        v => T::deserialize(v).map_err(|e| RpcError::params(e.to_string())),
    }
}

/// An error for the first param of `params` that `method` does not know.
fn refuse_unknown(method: &str, known: &[&str], params: &Value) -> Result<(), RpcError> {
    let Some(object) = params.as_object() else {
        return Ok(());
    };
    let Some(unknown) = object.keys().find(|k| !known.contains(&k.as_str())) else {
        return Ok(());
    };
    let listed = if known.is_empty() {
        format!("`{method}` takes no parameters")
    } else {
        format!("known: {}", known.join(", "))
    };
    let message = match nearest(unknown, known) {
        Some(near) => {
            format!(
                "unknown parameter `{unknown}` of `{method}`: did you mean `{near}`? ({listed})"
            )
        }
        None => format!("unknown parameter `{unknown}` of `{method}` ({listed})"),
    };
    Err(RpcError::params(message))
}

/// The known name nearest `word`: the same up to case, `_` and `-` (`timeout_ms`), within
/// two edits (`tol`), or the longest one it contains (`toolName`, `hook_event_name`).
fn nearest<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    let plain = |s: &str| s.to_lowercase().replace(['_', '-'], "");
    let word = plain(word);
    known
        .iter()
        .map(|k| (strsim::levenshtein(&word, &plain(k)), *k))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
        .or_else(|| {
            known
                .iter()
                .filter(|k| k.len() >= 3 && word.contains(&plain(k)))
                .max_by_key(|k| k.len())
                .copied()
        })
}

/// A method's answer as JSON.
fn answer<T: Serialize>(value: T) -> Result<Value, RpcError> {
    serde_json::to_value(value).map_err(internal)
}

/// Runs one method (all but `shutdown`).
pub async fn call(client: &Client, method: &str, params: &Value) -> Result<Value, RpcError> {
    match method {
        "fire" => fire(client, params).await,
        "list" => {
            refuse_unknown(method, NO_KEYS, params)?;
            let runner = client.table().runner().map_err(internal)?;
            Ok(hookhost::inspect::list_json(&runner.hooks()))
        }
        "check" => {
            refuse_unknown(method, NO_KEYS, params)?;
            let paths = client.table().engine().paths().clone();
            let report = hookhost_package::check(&paths).await.map_err(internal)?;
            serde_json::to_value(report).map_err(internal)
        }
        "register" => register(client, params),
        "unregister" => {
            let p: UnregisterParams = self::params(method, UNREGISTER_KEYS, params)?;
            let id = p
                .id
                .ok_or_else(|| RpcError::params("`id` is required: the id `register` answered"))?;
            answer(Removed {
                removed: client.table().unregister(&id),
            })
        }
        "reload" => {
            refuse_unknown(method, NO_KEYS, params)?;
            let engine = client.table().engine().clone();
            answer(Reloaded {
                generation: engine.config_changed(),
            })
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

fn event_of(name: Option<&str>) -> Result<Event, RpcError> {
    let name = name.ok_or_else(|| {
        RpcError::params(format!(
            "`event` is required: one of {}",
            Event::ALL.map(Event::as_str).join(", ")
        ))
    })?;
    Event::parse_loose(name).map_err(|e| RpcError::params(e.to_string()))
}

/// The payload of a `fire`: `payload` (a whole object) or neutral defaults, then `tool`,
/// `args`, `result` and `prompt` over it, as `hookhost run` does with its flags.
pub fn payload_of(params: &Value, cwd: &Path) -> Result<Payload, RpcError> {
    let p: FireParams = self::params("fire", FIRE_KEYS, params)?;
    let event = event_of(p.event.as_deref())?;
    let session = p
        .session
        .unwrap_or_else(|| format!("serve-{}", std::process::id()));
    // One function makes the payload for `run`, serve's `fire` and the Python binding.
    let request = FireRequest {
        event,
        session,
        payload: p.payload,
        tool: p.tool,
        args: p.args,
        result: p.result,
        prompt: p.prompt,
    };
    request.payload(cwd).map_err(|e| match e {
        RequestError::Payload(e) => RpcError::params(format!("`payload`: {e}")),
        RequestError::ArgsNotObject => {
            RpcError::params("`args` must be an object like {\"command\":\"ls\"}")
        }
        e => RpcError::params(e.to_string()),
    })
}

async fn fire(client: &Client, params: &Value) -> Result<Value, RpcError> {
    let runner = client.table().runner().map_err(internal)?;
    let payload = payload_of(params, runner.project_dir())?;
    let report = runner.fire(payload).await;
    Ok(report_json(&report))
}

fn register(client: &Client, params: &Value) -> Result<Value, RpcError> {
    let p: RegisterParams = self::params("register", REGISTER_KEYS, params)?;
    let event = event_of(p.event.as_deref())?;
    if p.matcher.is_some() && !event.takes_tool_matcher() {
        return Err(RpcError::params(format!(
            "`match` applies to the tool events ({}), not {event}",
            Event::tool_events()
        )));
    }
    let on_error_block = match p.on_error.as_deref() {
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
    let id = match p.name {
        Some(name) => format!("{name}#{n}"),
        None => format!("client#{n}"),
    };
    let hook = ClientHook::new(
        id.clone(),
        event,
        p.matcher,
        Arc::new(ClientFn::new(&client.peer, &id)),
        p.timeout_ms,
        on_error_block,
    );
    client
        .table()
        .register(hook)
        .map_err(|e| RpcError::params(e.to_string()))?;
    answer(Registered { id })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_known_name() {
        assert_eq!(nearest("tol", FIRE_KEYS), Some("tool"));
        assert_eq!(nearest("toolName", FIRE_KEYS), Some("tool"));
        assert_eq!(nearest("tool_input", FIRE_KEYS), Some("tool"));
        assert_eq!(nearest("hook_event_name", FIRE_KEYS), Some("event"));
        assert_eq!(nearest("Prompt", FIRE_KEYS), Some("prompt"));
        assert_eq!(nearest("timeout_ms", REGISTER_KEYS), Some("timeoutMs"));
        assert_eq!(nearest("xyz", FIRE_KEYS), None);
    }

    #[test]
    fn an_unknown_param_is_refused_and_null_or_known_ones_are_not() {
        let e = params::<FireParams>("fire", FIRE_KEYS, &serde_json::json!({"tol": "bash"}))
            .unwrap_err();
        assert_eq!(e.code, crate::protocol::INVALID_PARAMS);
        assert!(
            e.message.contains("`tol` of `fire`: did you mean `tool`?"),
            "{}",
            e.message
        );
        assert!(params::<FireParams>("fire", FIRE_KEYS, &Value::Null).is_ok());
        assert!(refuse_unknown("list", NO_KEYS, &serde_json::json!({})).is_ok());
    }
}
