//! JSON-RPC 2.0 messages as `serve` reads and writes them, one JSON object per line
//! (docs/serve-protocol.md). Parsing never fails the connection: what is not a valid message
//! becomes an error answer with the id when one could be read, `null` otherwise.

use serde_json::{Map, Value, json};

/// Invalid JSON.
pub const PARSE_ERROR: i64 = -32700;
/// Valid JSON that is not a request (or a batch, which is not supported).
pub const INVALID_REQUEST: i64 = -32600;
/// No such method.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// The params are wrong; the message says which and how.
pub const INVALID_PARAMS: i64 = -32602;
/// The server could not do it (a trust file it must not ignore, an engine error).
pub const INTERNAL_ERROR: i64 = -32603;
/// The server is shutting down and takes no new requests.
pub const SHUTTING_DOWN: i64 = -32000;
/// The line was longer than the server's limit; it was skipped.
pub const TOO_LARGE: i64 = -32001;
/// Too many requests of this connection are waiting, or they hold the memory the server
/// allows; wait for answers first.
pub const BUSY: i64 = -32003;
/// A client hook's code failed (its answer was an error).
pub const HOOK_FAILED: i64 = -32002;

/// An error answer.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// One of the codes above.
    pub code: i64,
    /// What was wrong and how to fix it.
    pub message: String,
}

impl RpcError {
    /// An error with this code and message.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
        }
    }
    /// Wrong params.
    pub fn params(message: impl Into<String>) -> Self {
        Self::new(INVALID_PARAMS, message)
    }
    fn to_json(&self) -> Value {
        json!({"code": self.code, "message": self.message})
    }
}

/// One message read from the peer.
#[derive(Debug)]
pub enum Incoming {
    /// A call that wants an answer.
    Request {
        /// Its id, echoed in the answer.
        id: Value,
        /// The method.
        method: String,
        /// The params (an object, or `null` when absent).
        params: Value,
    },
    /// A call without an id: no answer.
    Notification {
        /// The method.
        method: String,
    },
    /// The answer to one of our calls (a client hook).
    Response {
        /// The id we sent.
        id: Value,
        /// The result or the error.
        outcome: Result<Value, RpcError>,
    },
}

/// Reads one line. `Err` is the error answer to send (with the id, when one was readable).
pub fn parse(line: &[u8]) -> Result<Incoming, (Value, RpcError)> {
    let value: Value = serde_json::from_slice(line).map_err(|e| {
        (
            Value::Null,
            RpcError::new(PARSE_ERROR, format!("not valid JSON: {e}")),
        )
    })?;
    interpret(value)
}

/// Reads one parsed message (the server parses with a memory bound first).
pub fn interpret(value: Value) -> Result<Incoming, (Value, RpcError)> {
    let Value::Object(mut m) = value else {
        let what = if value.is_array() {
            "batches are not supported: send one request object per line"
        } else {
            "a message must be a JSON object"
        };
        return Err((Value::Null, RpcError::new(INVALID_REQUEST, what)));
    };
    let id = m.remove("id");
    if let Some(id) = &id
        && !(id.is_string() || id.is_number() || id.is_null())
    {
        return Err((
            Value::Null,
            RpcError::new(INVALID_REQUEST, "`id` must be a string or a number"),
        ));
    }
    if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err((
            id.unwrap_or(Value::Null),
            RpcError::new(INVALID_REQUEST, "`jsonrpc` must be \"2.0\""),
        ));
    }
    match m.remove("method") {
        Some(Value::String(method)) => {
            let params = m.remove("params").unwrap_or(Value::Null);
            if !(params.is_object() || params.is_null()) {
                return Err((
                    id.unwrap_or(Value::Null),
                    RpcError::params("`params` must be an object (named params)"),
                ));
            }
            Ok(match id {
                Some(id) => Incoming::Request { id, method, params },
                None => Incoming::Notification { method },
            })
        }
        Some(_) => Err((
            id.unwrap_or(Value::Null),
            RpcError::new(INVALID_REQUEST, "`method` must be a string"),
        )),
        None => {
            let id = id.unwrap_or(Value::Null);
            let outcome = match (m.remove("result"), m.remove("error")) {
                (Some(result), None) => Ok(result),
                (None, Some(error)) => Err(RpcError::new(
                    error
                        .get("code")
                        .and_then(Value::as_i64)
                        .unwrap_or(HOOK_FAILED),
                    error
                        .get("message")
                        .and_then(Value::as_str)
                        .unwrap_or("the client hook failed")
                        .to_string(),
                )),
                _ => {
                    return Err((
                        Value::Null,
                        RpcError::new(
                            INVALID_REQUEST,
                            "a message needs `method` (a request) or exactly one of `result`/`error` (an answer)",
                        ),
                    ));
                }
            };
            Ok(Incoming::Response { id, outcome })
        }
    }
}

/// The answer to request `id`.
pub fn response(id: Value, outcome: Result<Value, RpcError>) -> Value {
    match outcome {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(e) => json!({"jsonrpc": "2.0", "id": id, "error": e.to_json()}),
    }
}

/// A call to the peer (an answer is expected).
pub fn request(id: Value, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// A notification to the peer.
pub fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

/// A named param of `params` (an object or null).
pub fn param<'a>(params: &'a Value, name: &str) -> Option<&'a Value> {
    params
        .as_object()
        .and_then(|m: &Map<String, Value>| m.get(name))
        .filter(|v| !v.is_null())
}

/// A string param, or an error naming it.
pub fn string_param<'a>(params: &'a Value, name: &str) -> Result<Option<&'a str>, RpcError> {
    match param(params, name) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(v) => Err(RpcError::params(format!(
            "`{name}` must be a string, got {}",
            hookhost::json_type_name(v)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_requests_notifications_and_answers() {
        assert!(matches!(
            parse(br#"{"jsonrpc":"2.0","id":1,"method":"list"}"#),
            Ok(Incoming::Request { method, .. }) if method == "list"
        ));
        assert!(matches!(
            parse(br#"{"jsonrpc":"2.0","method":"x"}"#),
            Ok(Incoming::Notification { .. })
        ));
        assert!(matches!(
            parse(br#"{"jsonrpc":"2.0","id":"s1","result":{}}"#),
            Ok(Incoming::Response { outcome: Ok(_), .. })
        ));
        assert!(matches!(
            parse(br#"{"jsonrpc":"2.0","id":"s1","error":{"code":1,"message":"boom"}}"#),
            Ok(Incoming::Response { outcome: Err(e), .. }) if e.message == "boom"
        ));
    }

    #[test]
    fn malformed_messages_get_the_right_codes() {
        let code = |line: &[u8]| parse(line).unwrap_err().1.code;
        assert_eq!(code(b"{nope"), PARSE_ERROR);
        assert_eq!(code(b"[]"), INVALID_REQUEST);
        assert_eq!(code(br#"{"id":1,"method":"x"}"#), INVALID_REQUEST);
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}"#),
            INVALID_PARAMS
        );
        let (id, _) = parse(br#"{"jsonrpc":"1.0","id":7,"method":"x"}"#).unwrap_err();
        assert_eq!(id, json!(7));
    }
}
