//! [`McpHttp`]: the HTTP side of rmcp's streamable-HTTP client transport, over the
//! workspace's reqwest (no second HTTP client or TLS stack), configured like HTTP hooks:
//! no redirects followed, the proxy only as `host_env` allows it.
//!
//! Each POST carries one JSON-RPC message; the server answers with one JSON message, an SSE
//! stream of them, or 202 for a notification. A JSON answer is capped at the output cap. The
//! standalone GET stream (server-initiated messages) is not opened: a hook only calls a tool.

use crate::output::OUTPUT_CAP;
use futures::StreamExt;
use futures::stream::BoxStream;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_client::{
    HttpStatusError, SseError, StreamableHttpClient, StreamableHttpError,
    StreamableHttpPostResponse,
};
use sse_stream::{Sse, SseStream};
use std::collections::HashMap;
use std::sync::Arc;

/// The header a streamable-HTTP server names its session in.
const SESSION_HEADER: &str = "mcp-session-id";

/// A failure of the HTTP exchange itself (connection, body).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct McpHttpError(String);

/// reqwest, as rmcp's streamable-HTTP client transport needs it.
#[derive(Debug, Clone)]
pub struct McpHttp {
    client: reqwest::Client,
}

impl Default for McpHttp {
    fn default() -> Self {
        McpHttp {
            client: super::http::hook_client(),
        }
    }
}

type Failed = StreamableHttpError<McpHttpError>;

fn client_error(e: &reqwest::Error) -> Failed {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    StreamableHttpError::Client(McpHttpError(text))
}

fn request(
    builder: reqwest::RequestBuilder,
    session_id: Option<Arc<str>>,
    auth_header: Option<String>,
    custom_headers: HashMap<HeaderName, HeaderValue>,
) -> reqwest::RequestBuilder {
    let mut builder = builder;
    if let Some(session) = session_id {
        builder = builder.header(SESSION_HEADER, session.as_ref());
    }
    if let Some(token) = auth_header {
        builder = builder.bearer_auth(token);
    }
    for (name, value) in custom_headers {
        builder = builder.header(name, value);
    }
    builder
}

/// The body of `response` as a stream of chunks, ending at its first error.
fn chunks(
    response: reqwest::Response,
) -> impl futures::Stream<Item = Result<bytes::Bytes, McpHttpError>> + Send {
    futures::stream::unfold(Some(response), |state| async move {
        let mut response = state?;
        match response.chunk().await {
            Ok(Some(chunk)) => Some((Ok(chunk), Some(response))),
            Ok(None) => None,
            Err(e) => Some((Err(McpHttpError(e.to_string())), None)),
        }
    })
}

impl StreamableHttpClient for McpHttp {
    type Error = McpHttpError;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Failed> {
        let body = serde_json::to_vec(&message)?;
        let builder = self
            .client
            .post(uri.as_ref())
            .header(ACCEPT, "application/json, text/event-stream")
            .header(CONTENT_TYPE, "application/json")
            .body(body);
        let response = request(builder, session_id, auth_header, custom_headers)
            .send()
            .await
            .map_err(|e| client_error(&e))?;
        let status = response.status();
        if status == reqwest::StatusCode::ACCEPTED || status == reqwest::StatusCode::NO_CONTENT {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if !status.is_success() {
            return Err(StreamableHttpError::HttpStatus(HttpStatusError::new(
                status.as_u16(),
                None,
            )));
        }
        let session = response
            .headers()
            .get(SESSION_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase();
        if content_type.starts_with("text/event-stream") {
            let events: BoxStream<'static, Result<Sse, SseError>> =
                SseStream::from_bytes_stream(chunks(response)).boxed();
            Ok(StreamableHttpPostResponse::Sse(events, session))
        } else if content_type.starts_with("application/json") {
            let mut body = Vec::new();
            let mut stream = std::pin::pin!(chunks(response));
            while let Some(chunk) = stream.next().await {
                let chunk = chunk.map_err(StreamableHttpError::Client)?;
                if body.len() + chunk.len() > OUTPUT_CAP {
                    return Err(StreamableHttpError::ResponseBodyTooLarge {
                        max_size: OUTPUT_CAP,
                    });
                }
                body.extend_from_slice(&chunk);
            }
            let message: ServerJsonRpcMessage = serde_json::from_slice(&body)?;
            Ok(StreamableHttpPostResponse::Json(message, session))
        } else {
            Err(StreamableHttpError::UnexpectedContentType(Some(
                content_type,
            )))
        }
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), Failed> {
        let builder = self.client.delete(uri.as_ref());
        // Best effort: the session ends with the hook either way.
        let _ = request(builder, Some(session_id), auth_header, custom_headers)
            .send()
            .await;
        Ok(())
    }

    async fn get_stream(
        &self,
        _uri: Arc<str>,
        _session_id: Option<Arc<str>>,
        _last_event_id: Option<String>,
        _auth_header: Option<String>,
        _custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, Failed> {
        Err(StreamableHttpError::ServerDoesNotSupportSse)
    }
}
