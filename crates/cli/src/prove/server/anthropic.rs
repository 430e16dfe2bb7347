//! Anthropic Messages (`POST /v1/messages`), as Claude Code calls it with
//! `ANTHROPIC_BASE_URL`: a JSON message, or server-sent events when `"stream": true`
//! (`message_start`, one content block, `message_delta`, `message_stop`).

use super::script::Turn;
use super::{Api, Ids, sse};
use serde_json::{Value, json};

pub const API: Api = Api {
    tools,
    results,
    answer,
};

/// `tools[].name`.
fn tools(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str().map(str::to_string))
        .collect()
}

/// The `tool_result` blocks of every message.
fn results(body: &Value) -> usize {
    body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["content"].as_array())
        .flatten()
        .filter(|c| c["type"] == "tool_result")
        .count()
}

fn answer(turn: &Turn, body: &Value, ids: &Ids) -> (&'static str, Vec<u8>) {
    let (block, delta, full, stop) = match turn {
        Turn::Call { name, args, .. } => {
            let id = ids.next("toolu");
            (
                json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
                json!({"type": "input_json_delta", "partial_json": args.to_string()}),
                json!({"type": "tool_use", "id": id, "name": name, "input": args}),
                "tool_use",
            )
        }
        Turn::Text(text) => text_blocks(text),
        Turn::Side => text_blocks("scripted"),
    };
    let usage = json!({"input_tokens": 10, "output_tokens": 5,
        "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0});
    let model = body["model"].as_str().unwrap_or("claude-scripted");
    let message = json!({"id": ids.next("msg"), "type": "message", "role": "assistant",
        "model": model, "content": [], "stop_reason": null, "stop_sequence": null, "usage": usage});
    if body["stream"] != true {
        let mut whole = message;
        whole["content"] = json!([full]);
        whole["stop_reason"] = json!(stop);
        return ("application/json", whole.to_string().into_bytes());
    }
    let events = [
        (
            Some("message_start"),
            json!({"type": "message_start", "message": message}),
        ),
        (
            Some("content_block_start"),
            json!({"type": "content_block_start", "index": 0, "content_block": block}),
        ),
        (
            Some("content_block_delta"),
            json!({"type": "content_block_delta", "index": 0, "delta": delta}),
        ),
        (
            Some("content_block_stop"),
            json!({"type": "content_block_stop", "index": 0}),
        ),
        (
            Some("message_delta"),
            json!({"type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": null}, "usage": {"output_tokens": 5}}),
        ),
        (Some("message_stop"), json!({"type": "message_stop"})),
    ];
    ("text/event-stream", sse(&events))
}

fn text_blocks(text: &str) -> (Value, Value, Value, &'static str) {
    (
        json!({"type": "text", "text": ""}),
        json!({"type": "text_delta", "text": text}),
        json!({"type": "text", "text": text}),
        "end_turn",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prove::server::script::Probe;

    #[test]
    fn a_tool_call_streams_as_one_tool_use_block() {
        let body = json!({"stream": true, "tools": [{"name": "Bash"}],
            "messages": [{"role": "user", "content": [{"type": "tool_result", "content": "x"}]}]});
        assert_eq!(tools(&body), ["Bash"]);
        assert_eq!(results(&body), 1);
        let turn = Turn::Call {
            probe: Probe::Shell,
            name: "Bash".into(),
            args: json!({"command": "ls"}),
        };
        let (kind, bytes) = answer(&turn, &body, &Ids::default());
        assert_eq!(kind, "text/event-stream");
        let text = String::from_utf8(bytes).unwrap();
        let data: Vec<Value> = text
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .map(|d| serde_json::from_str(d).unwrap())
            .collect();
        assert_eq!(data[1]["content_block"]["name"], "Bash");
        let partial: Value =
            serde_json::from_str(data[2]["delta"]["partial_json"].as_str().unwrap()).unwrap();
        assert_eq!(partial["command"], "ls");
        assert_eq!(data[4]["delta"]["stop_reason"], "tool_use");
        // Not streamed: one message.
        let (kind, bytes) = answer(&Turn::Text("hi".into()), &json!({}), &Ids::default());
        assert_eq!(kind, "application/json");
        let whole: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(whole["content"][0]["text"], "hi");
        assert_eq!(whole["stop_reason"], "end_turn");
    }
}
