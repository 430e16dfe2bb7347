//! The scripted model server of `hookhost prove`: HTTP/1.1 on 127.0.0.1 only, std threads, no
//! network beyond the loopback. It speaks just enough of four model APIs for an agent's main
//! loop, one file each: Anthropic Messages ([`anthropic`], Claude Code), OpenAI Responses
//! ([`responses`], Codex), Gemini `generateContent`/`streamGenerateContent` ([`gemini`],
//! Gemini CLI), OpenAI Chat Completions ([`chat`], Qwen Code). What the model answers is the [`script`]'s: the same in every API, from the
//! tools a request offers and the tool results already in its conversation.
//!
//! Every request is recorded ([`Server::requests`]). The server stops when dropped.

pub mod anthropic;
pub mod chat;
pub mod gemini;
pub mod http;
pub mod responses;
pub mod script;

use script::{Script, Turn};
use serde_json::Value;
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// One API's view of a request and its way of answering.
pub struct Api {
    /// The tool names the request offers the model.
    pub tools: fn(&Value) -> Vec<String>,
    /// How many tool results its conversation already holds.
    pub results: fn(&Value) -> usize,
    /// The answer to `body` that makes the model take `turn`: content type and bytes.
    pub answer: fn(&Turn, &Value, &Ids) -> (&'static str, Vec<u8>),
}

/// A recorded request.
#[derive(Debug, Clone)]
pub struct Request {
    pub body: Value,
    /// The tools it offered the model.
    pub tools: Vec<String>,
    /// The turn the script gave it (`None`: a side request, or not a model call).
    pub turn: Option<Turn>,
}

/// Fresh ids for messages and calls.
#[derive(Default)]
pub struct Ids(std::sync::atomic::AtomicU64);

impl Ids {
    pub fn next(&self, prefix: &str) -> String {
        format!("{prefix}_{:04}", self.0.fetch_add(1, Ordering::Relaxed) + 1)
    }
}

struct State {
    script: Script,
    requests: Mutex<Vec<Request>>,
    ids: Ids,
    stop: AtomicBool,
}

/// A running server; stops when dropped.
pub struct Server {
    state: Arc<State>,
    port: u16,
}

impl Server {
    /// Listens on an ephemeral port of 127.0.0.1 and serves `script`.
    pub fn start(script: Script) -> std::io::Result<Server> {
        let listener = TcpListener::bind(("127.0.0.1", 0))?;
        let port = listener.local_addr()?.port();
        let state = Arc::new(State {
            script,
            requests: Mutex::new(Vec::new()),
            ids: Ids::default(),
            stop: AtomicBool::new(false),
        });
        let accepting = Arc::clone(&state);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if accepting.stop.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let state = Arc::clone(&accepting);
                std::thread::spawn(move || serve_connection(stream, &state));
            }
        });
        Ok(Server { state, port })
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<Request> {
        self.state
            .requests
            .lock()
            .map(|r| r.clone())
            .unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.state.stop.store(true, Ordering::Relaxed);
        // Wakes the accepting thread, which then sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// Requests of one connection, in turn, until the client closes it.
fn serve_connection(mut stream: TcpStream, state: &State) {
    let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(300)));
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = std::io::BufReader::new(read_half);
    while !state.stop.load(Ordering::Relaxed) {
        let Ok(Some(req)) = http::read_from(&mut reader) else {
            return;
        };
        let (status, content_type, body) = route(state, &req);
        if http::write_response(&mut stream, status, content_type, &body).is_err() || req.close {
            return;
        }
    }
}

/// The API a path belongs to.
fn api_of(path: &str) -> Option<(&'static Api, bool)> {
    if path.ends_with("/messages") {
        Some((&anthropic::API, false))
    } else if path.ends_with("/chat/completions") {
        Some((&chat::API, false))
    } else if path.ends_with("/responses") {
        Some((&responses::API, false))
    } else if path.contains(":streamGenerateContent") {
        Some((&gemini::API, true))
    } else if path.contains(":generateContent") {
        Some((&gemini::API, false))
    } else {
        None
    }
}

/// One request's answer: status, content type, body.
fn route(state: &State, req: &http::HttpRequest) -> (u16, &'static str, Vec<u8>) {
    let path = req.path.split('?').next().unwrap_or_default().to_string();
    let body: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
    let record = |turn: Option<Turn>, tools: Vec<String>| {
        if let Ok(mut r) = state.requests.lock() {
            r.push(Request {
                body: body.clone(),
                tools,
                turn,
            });
        }
    };
    if req.method == "GET" {
        record(None, Vec::new());
        return if path.trim_end_matches('/').ends_with("/models") {
            let list = br#"{"data": [], "models": [], "object": "list"}"#;
            (200, "application/json", list.to_vec())
        } else {
            (
                404,
                "application/json",
                br#"{"error": {"message": "not scripted"}}"#.to_vec(),
            )
        };
    }
    if path.ends_with("/count_tokens") || path.contains(":countTokens") {
        record(None, Vec::new());
        return (
            200,
            "application/json",
            br#"{"input_tokens": 10, "totalTokens": 10}"#.to_vec(),
        );
    }
    let Some((api, stream)) = api_of(&path) else {
        record(None, Vec::new());
        return (
            404,
            "application/json",
            br#"{"error": {"message": "not scripted"}}"#.to_vec(),
        );
    };
    let tools = (api.tools)(&body);
    let turn = state.script.turn(&tools, (api.results)(&body), &body);
    record(Some(turn.clone()), tools);
    let mut body = body;
    if stream && let Value::Object(m) = &mut body {
        m.insert("stream".into(), Value::Bool(true));
    }
    let (content_type, bytes) = (api.answer)(&turn, &body, &state.ids);
    (200, content_type, bytes)
}

/// Server-sent events: `event: NAME` (when named) and `data: JSON` per event.
pub fn sse(events: &[(Option<&str>, Value)]) -> Vec<u8> {
    let mut out = String::new();
    for (name, data) in events {
        if let Some(n) = name {
            out.push_str(&format!("event: {n}\n"));
        }
        out.push_str(&format!("data: {data}\n\n"));
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::script::Probe;
    use super::*;
    use std::io::{Read, Write};

    /// A real request on a real socket, keep-alive: the scripted call comes back, and the
    /// request is recorded with its turn.
    #[test]
    fn serves_and_records_over_tcp() {
        let server = Server::start(Script {
            token: "tok".into(),
            project: "/p".into(),
            probes: vec![Probe::Shell],
        })
        .unwrap();
        let mut conn = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
        let body = r#"{"tools": [{"name": "Bash"}], "messages": []}"#;
        for _ in 0..2 {
            write!(
                conn,
                "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .unwrap();
            let mut head = Vec::new();
            let mut byte = [0u8];
            while !head.ends_with(b"\r\n\r\n") {
                conn.read_exact(&mut byte).unwrap();
                head.push(byte[0]);
            }
            let head = String::from_utf8(head).unwrap();
            assert!(head.starts_with("HTTP/1.1 200"), "{head}");
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("Content-Length: "))
                .unwrap()
                .parse()
                .unwrap();
            let mut answer = vec![0; length];
            conn.read_exact(&mut answer).unwrap();
            let answer: Value = serde_json::from_slice(&answer).unwrap();
            assert_eq!(answer["content"][0]["name"], "Bash");
            assert_eq!(
                answer["content"][0]["input"]["command"],
                "touch /p/prove-shell-tok"
            );
        }
        let recorded = server.requests();
        assert_eq!(recorded.len(), 2);
        assert!(matches!(
            recorded[0].turn,
            Some(Turn::Call {
                probe: Probe::Shell,
                ..
            })
        ));
        assert_eq!(recorded[0].tools, ["Bash"]);
    }
}
