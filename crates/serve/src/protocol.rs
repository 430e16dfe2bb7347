//! JSON-RPC 2.0 messages as `serve` reads and writes them, one JSON object per line
//! (docs/serve-protocol.md). Parsing never fails the connection: what is not a valid message
//! becomes an error answer with the id when one could be read, `null` otherwise.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

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
}

/// A message as read: each member as given (`Some(null)` is present).
#[derive(Debug, Default, Deserialize)]
struct RawMessage {
    #[serde(default, deserialize_with = "present")]
    id: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    jsonrpc: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    method: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    params: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    result: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    error: Option<Value>,
}

/// An error object as read from the client (a member of the wrong type is absent).
#[derive(Debug, Default, Deserialize)]
struct ErrorIn {
    #[serde(default, deserialize_with = "lenient")]
    code: Option<i64>,
    #[serde(default, deserialize_with = "lenient")]
    message: Option<String>,
}

fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

fn lenient<'de, D: Deserializer<'de>, T: serde::de::DeserializeOwned>(
    d: D,
) -> Result<Option<T>, D::Error> {
    Ok(serde_json::from_value(Value::deserialize(d)?).ok())
}

/// A message as written.
#[derive(Debug, Serialize)]
struct Message<'a> {
    jsonrpc: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    method: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ErrorOut<'a>>,
}

#[derive(Debug, Serialize)]
struct ErrorOut<'a> {
    code: i64,
    message: &'a str,
}

impl Message<'_> {
    fn to_value(&self) -> Value {
        // Plain data: serialising it cannot fail.
        serde_json::to_value(self).unwrap_or_default()
    }
}

const MESSAGE: Message<'static> = Message {
    jsonrpc: "2.0",
    id: None,
    method: None,
    params: None,
    result: None,
    error: None,
};

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
    if !value.is_object() {
        let what = if value.is_array() {
            "batches are not supported: send one request object per line"
        } else {
            "a message must be a JSON object"
        };
        return Err((Value::Null, RpcError::new(INVALID_REQUEST, what)));
    }
    // Every member is read as it is: this cannot fail on an object.
    let m = RawMessage::deserialize(value).unwrap_or_default();
    let id = m.id;
    if let Some(id) = &id
        && !(id.is_string() || id.is_number() || id.is_null())
    {
        return Err((
            Value::Null,
            RpcError::new(INVALID_REQUEST, "`id` must be a string or a number"),
        ));
    }
    if m.jsonrpc.as_ref().and_then(Value::as_str) != Some("2.0") {
        return Err((
            id.unwrap_or(Value::Null),
            RpcError::new(INVALID_REQUEST, "`jsonrpc` must be \"2.0\""),
        ));
    }
    match m.method {
        Some(Value::String(method)) => {
            let params = m.params.unwrap_or(Value::Null);
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
            let outcome = match (m.result, m.error) {
                (Some(result), None) => Ok(result),
                (None, Some(error)) => {
                    let e = ErrorIn::deserialize(error).unwrap_or_default();
                    Err(RpcError::new(
                        e.code.unwrap_or(HOOK_FAILED),
                        e.message
                            .unwrap_or_else(|| "the client hook failed".to_string()),
                    ))
                }
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
        Ok(result) => Message {
            id: Some(id),
            result: Some(result),
            ..MESSAGE
        }
        .to_value(),
        Err(e) => Message {
            id: Some(id),
            error: Some(ErrorOut {
                code: e.code,
                message: &e.message,
            }),
            ..MESSAGE
        }
        .to_value(),
    }
}

/// A call to the peer (an answer is expected).
pub fn request(id: Value, method: &str, params: Value) -> Value {
    Message {
        id: Some(id),
        method: Some(method),
        params: Some(params),
        ..MESSAGE
    }
    .to_value()
}

/// A notification to the peer.
pub fn notification(method: &str, params: Value) -> Value {
    Message {
        method: Some(method),
        params: Some(params),
        ..MESSAGE
    }
    .to_value()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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

    #[test]
    fn messages_are_written_as_before() {
        assert_eq!(
            response(json!(1), Ok(Value::Null)).to_string(),
            r#"{"id":1,"jsonrpc":"2.0","result":null}"#
        );
        assert_eq!(
            response(Value::Null, Err(RpcError::params("bad"))).to_string(),
            r#"{"error":{"code":-32602,"message":"bad"},"id":null,"jsonrpc":"2.0"}"#
        );
        assert_eq!(
            request(json!("s1"), "hook", json!({})).to_string(),
            r#"{"id":"s1","jsonrpc":"2.0","method":"hook","params":{}}"#
        );
        assert_eq!(
            notification("n", json!({"a": 1})).to_string(),
            r#"{"jsonrpc":"2.0","method":"n","params":{"a":1}}"#
        );
        assert!(matches!(
            parse(br#"{"jsonrpc":"2.0","id":"s1","error":5}"#),
            Ok(Incoming::Response { outcome: Err(e), .. }) if e.code == HOOK_FAILED && e.message == "the client hook failed"
        ));
    }
}
