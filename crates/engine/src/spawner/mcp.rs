//! [`McpSpawner`]: an MCP-tool hook (`"mcp": {"server", "tool", "input"}`) calls one tool of
//! an MCP server with the official SDK (`rmcp`) and reads the tool's text result as the
//! hook's answer, the way a command hook's stdout is read.
//!
//! A stdio server is started for the call in the hook's working directory (the project root
//! unless `cwd` says otherwise) in its own process group, with the hook's environment and the
//! definition's `env`; its stderr is the hook's stderr. The hook's `timeout` covers the start,
//! the `initialize` handshake and the call; when the call ends (or the time is up) the server
//! and everything it started are killed, so no server outlives its hook. `input`'s strings may
//! reference the payload ([`fill`]). A result with `isError: true` is a failure of the hook
//! (`onError` applies); a server that cannot be started or that fails the handshake is a spawn
//! failure.
//!
//! A streamable-HTTP server is reached at its `url` with the definition's `headers`
//! (`mcp_http.rs`: the workspace's reqwest under rmcp's transport); the session ends with the
//! call.

use super::capture::{Capture, drain_pipe};
use super::{ExitStatus, SpawnOutput, SpawnRequest, Spawner};
use crate::config::Handler;
use crate::config::{McpServer, McpTransport};
use async_trait::async_trait;
use hookhost_core::process::kill_group;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use serde_json::{Map, Value};
use std::process::Stdio;
use std::time::Duration;
use tokio::process::Command;
use tokio::time::{Instant, timeout_at};

/// How long the server's stderr may keep draining after it was killed.
const DRAIN_GRACE: Duration = Duration::from_millis(50);

/// MCP servers that may run at once for hooks; further hooks wait for one to end.
pub(crate) const MAX_SERVERS: usize = 16;

/// Runs MCP-tool hooks.
#[derive(Debug, Clone)]
pub struct McpSpawner {
    slots: std::sync::Arc<tokio::sync::Semaphore>,
    http: super::mcp_http::McpHttp,
}

impl Default for McpSpawner {
    fn default() -> Self {
        McpSpawner {
            slots: std::sync::Arc::new(tokio::sync::Semaphore::new(MAX_SERVERS)),
            http: super::mcp_http::McpHttp::default(),
        }
    }
}

/// `input` with its references to the payload filled in. In every string (at any depth):
/// `$ARGUMENTS` is the whole payload as JSON text, and `${path}` the payload's field at the
/// dotted `path` (`${tool_input.command}`, `${session_id}`, `${tool_input.edits.0.path}`),
/// as text (a string as is, anything else as JSON; an absent field as the empty string). A
/// string that is exactly one `${path}` becomes the field's value itself, of any JSON type.
pub(crate) fn fill(input: &Value, payload: &Value) -> Value {
    match input {
        Value::String(s) => fill_string(s, payload),
        Value::Array(items) => Value::Array(items.iter().map(|v| fill(v, payload)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), fill(v, payload)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn lookup<'a>(payload: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(payload, |v, key| match v {
        Value::Object(m) => m.get(key),
        Value::Array(a) => key.parse::<usize>().ok().and_then(|i| a.get(i)),
        _ => None,
    })
}

fn as_text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

fn fill_string(s: &str, payload: &Value) -> Value {
    if let Some(path) = s.strip_prefix("${").and_then(|r| r.strip_suffix('}'))
        && !path.contains(['$', '{', '}'])
    {
        return lookup(payload, path)
            .cloned()
            .unwrap_or(Value::String(String::new()));
    }
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some(after) = tail.strip_prefix("$ARGUMENTS") {
            out.push_str(&payload.to_string());
            rest = after;
        } else if let Some((path, after)) = tail
            .strip_prefix("${")
            .and_then(|r| r.find('}').map(|end| (&r[..end], &r[end + 1..])))
        {
            out.push_str(&as_text(lookup(payload, path)));
            rest = after;
        } else {
            out.push('$');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    Value::String(out)
}

/// The hook's answer from a tool's result: its text blocks, joined by newlines (no text: its
/// structured content as JSON).
fn answer_text(result: &CallToolResult) -> String {
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect();
    if texts.is_empty()
        && let Some(structured) = &result.structured_content
    {
        return structured.to_string();
    }
    texts.join("\n")
}

#[async_trait]
impl Spawner for McpSpawner {
    async fn spawn(&self, req: SpawnRequest) -> SpawnOutput {
        let _slot = self.slots.acquire().await;
        let start = Instant::now();
        let Handler::Mcp {
            server,
            tool,
            input,
            ..
        } = &req.handler
        else {
            return SpawnOutput::spawn_failed("McpSpawner got a non-MCP hook", Duration::ZERO);
        };
        let payload: Value = serde_json::from_slice(&req.stdin).unwrap_or(Value::Null);
        let arguments = match fill(input, &payload) {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        match &server.transport {
            McpTransport::Stdio { command, args, env } => {
                let started = (command.as_str(), args.as_slice(), env.as_slice());
                stdio(&req, server, started, tool, arguments, start).await
            }
            McpTransport::Http { url, headers } => {
                let client = self.http.clone();
                http(&req, server, (client, url, headers), tool, arguments, start).await
            }
        }
    }
}

/// The server's process: in the hook's working directory, in its own process group, with
/// the hook's environment and the definition's `env`, every pipe captured.
fn server_command(
    req: &SpawnRequest,
    command: &str,
    args: &[String],
    env: &[(String, String)],
) -> Command {
    let mut cmd = Command::new(command);
    cmd.args(args)
        .current_dir(&req.cwd)
        .env("HOOK_EVENT", req.event.as_str())
        .env("HOOK_PROJECT_DIR", &req.project_dir);
    for var in &req.env_unset {
        cmd.env_remove(var);
    }
    cmd.envs(req.env.iter().map(|(k, v)| (k, v)))
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    #[cfg(unix)]
    cmd.process_group(0);
    cmd
}

/// Starts a stdio server, calls the tool, and kills the server.
async fn stdio(
    req: &SpawnRequest,
    server: &McpServer,
    (command, args, env): (&str, &[String], &[(String, String)]),
    tool: &str,
    arguments: Map<String, Value>,
    start: Instant,
) -> SpawnOutput {
    if let Some(failed) = req.missing_cwd(start.into_std()) {
        return failed;
    }
    let name = &server.name;
    let mut cmd = server_command(req, command, args, env);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return SpawnOutput::spawn_failed(
                format!(
                    "cannot start MCP server `{name}` ({command:?}, defined in {}): {e}; check its `command`",
                    server.defined_in.display()
                ),
                start.elapsed(),
            );
        }
    };
    let pid = child.id();
    let capture = Capture::default();
    let stderr_reader = child
        .stderr
        .take()
        .map(|e| tokio::spawn(drain_pipe(e, capture.stderr.clone())));
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        return SpawnOutput::spawn_failed("the server's pipes were not opened", start.elapsed());
    };
    let call = async {
        let client = ().serve((stdout, stdin)).await.map_err(|e| {
            format!(
                "MCP server `{name}` ({command:?}) did not complete the MCP handshake: {e}; run it by hand to see why (its stderr is in the record)"
            )
        })?;
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        let result = client.call_tool(params).await.map_err(|e| {
            format!("calling tool `{tool}` of MCP server `{name}` failed: {e}; check the tool's name (`mcp.tool`) and `mcp.input`")
        });
        drop(client);
        result
    };
    let outcome = timeout_at(start + req.timeout, call).await;
    // The server's run ends with the call, however it ended: it and everything it started.
    kill_group(pid);
    let _ = child.start_kill();
    let _ = timeout_at(Instant::now() + DRAIN_GRACE, child.wait()).await;
    if let Some(reader) = stderr_reader {
        let _ = timeout_at(Instant::now() + DRAIN_GRACE, reader).await;
    }
    let status = ended(outcome, tool, name, &capture);
    capture.finish(status, start.elapsed())
}

/// How a call ended: its text result on stdout, or why it failed.
fn ended(
    outcome: Result<Result<CallToolResult, String>, tokio::time::error::Elapsed>,
    tool: &str,
    name: &str,
    capture: &Capture,
) -> ExitStatus {
    match outcome {
        Err(_) => ExitStatus::TimedOut,
        Ok(Err(why)) => ExitStatus::SpawnFailed(why),
        Ok(Ok(result)) => {
            let text = answer_text(&result);
            if result.is_error == Some(true) {
                ExitStatus::Crashed(format!(
                    "tool `{tool}` of MCP server `{name}` answered with an error (isError): {}",
                    text.trim()
                ))
            } else {
                capture.stdout.push(text.as_bytes());
                ExitStatus::Exited(0)
            }
        }
    }
}

/// Calls the tool of a streamable-HTTP server; the session ends with the call.
async fn http(
    req: &SpawnRequest,
    server: &McpServer,
    (client, url, headers): (super::mcp_http::McpHttp, &str, &[(String, String)]),
    tool: &str,
    arguments: Map<String, Value>,
    start: Instant,
) -> SpawnOutput {
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    let name = &server.name;
    let mut custom = std::collections::HashMap::new();
    for (header, value) in headers {
        let parsed = (
            reqwest::header::HeaderName::from_bytes(header.as_bytes()),
            reqwest::header::HeaderValue::from_str(value),
        );
        let (Ok(h), Ok(v)) = parsed else {
            return SpawnOutput::spawn_failed(
                format!(
                    "MCP server `{name}` (defined in {}): header `{header}` is not a valid HTTP header name and value; fix it in the definition",
                    server.defined_in.display()
                ),
                start.elapsed(),
            );
        };
        custom.insert(h, v);
    }
    let mut config = StreamableHttpClientTransportConfig::with_uri(url);
    config.custom_headers = custom;
    let transport = StreamableHttpClientTransport::with_client(client, config);
    let call = async {
        let client = ().serve(transport).await.map_err(|e| {
            format!(
                "MCP server `{name}` ({url}) did not complete the MCP handshake: {e}; check its `url` and that it speaks streamable HTTP"
            )
        })?;
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        let result = client.call_tool(params).await.map_err(|e| {
            format!("calling tool `{tool}` of MCP server `{name}` failed: {e}; check the tool's name (`mcp.tool`) and `mcp.input`")
        });
        drop(client);
        result
    };
    let outcome = timeout_at(start + req.timeout, call).await;
    let capture = Capture::default();
    let status = ended(outcome, tool, name, &capture);
    capture.finish(status, start.elapsed())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fills_references_from_the_payload() {
        let payload = json!({"tool_input": {"command": "rm -rf /", "n": 3}, "session_id": "s1"});
        let input = json!({
            "cmd": "${tool_input.command}",
            "n": "${tool_input.n}",
            "text": "run ${tool_input.command} in ${session_id}; $5 ${missing}",
            "all": "$ARGUMENTS",
            "nested": ["${session_id}", {"k": "${tool_input.n}!"}],
            "keep": 7
        });
        let filled = fill(&input, &payload);
        assert_eq!(filled["cmd"], "rm -rf /");
        assert_eq!(filled["n"], 3);
        assert_eq!(filled["text"], "run rm -rf / in s1; $5 ");
        assert_eq!(
            serde_json::from_str::<Value>(filled["all"].as_str().unwrap()).unwrap(),
            payload
        );
        assert_eq!(filled["nested"], json!(["s1", {"k": "3!"}]));
        assert_eq!(filled["keep"], 7);
    }
}
