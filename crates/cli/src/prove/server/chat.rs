//! OpenAI Chat Completions (`POST …/chat/completions`), as Qwen Code calls its `openai`
//! provider with `OPENAI_BASE_URL`: one `chat.completion`, or server-sent chunks when
//! `"stream": true` (the delta with the message, one with `finish_reason`, one with `usage`,
//! then `data: [DONE]`). A side request that asks for JSON (`response_format`, Qwen Code's
//! next-speaker check) gets a JSON object.

use super::script::Turn;
use super::{Api, Ids};
use serde_json::{Value, json};

pub const API: Api = Api {
    tools,
    results,
    answer,
};

/// `tools[].function.name`.
fn tools(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
        .collect()
}

/// The `"role": "tool"` messages.
fn results(body: &Value) -> usize {
    body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "tool")
        .count()
}

fn answer(turn: &Turn, body: &Value, ids: &Ids) -> (&'static str, Vec<u8>) {
    let (message, delta, finish) = match turn {
        Turn::Call { name, args, .. } => {
            let call = json!({"id": ids.next("call"), "type": "function",
                "function": {"name": name, "arguments": args.to_string()}});
            let mut indexed = call.clone();
            indexed["index"] = json!(0);
            (
                json!({"role": "assistant", "content": null, "tool_calls": [call]}),
                json!({"role": "assistant", "content": null, "tool_calls": [indexed]}),
                "tool_calls",
            )
        }
        Turn::Text(text) => text_message(text),
        Turn::Side if wants_json(body) => text_message(r#"{"reasoning": "scripted"}"#),
        Turn::Side => text_message("scripted"),
    };
    let usage = json!({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15});
    let head = json!({"id": ids.next("chatcmpl"), "created": 0,
        "model": body["model"].as_str().unwrap_or("scripted")});
    let with = |object: &str, extra: Value| {
        let mut v = head.clone();
        v["object"] = json!(object);
        if let (Value::Object(m), Value::Object(e)) = (&mut v, extra) {
            m.extend(e);
        }
        v
    };
    if body["stream"] != true {
        let whole = with(
            "chat.completion",
            json!({"usage": usage, "choices": [{"index": 0, "message": message, "finish_reason": finish}]}),
        );
        return ("application/json", whole.to_string().into_bytes());
    }
    let chunks = [
        json!({"choices": [{"index": 0, "delta": delta, "finish_reason": null}]}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}),
        json!({"choices": [], "usage": usage}),
    ];
    let mut out = String::new();
    for c in chunks {
        out.push_str(&format!("data: {}\n\n", with("chat.completion.chunk", c)));
    }
    out.push_str("data: [DONE]\n\n");
    ("text/event-stream", out.into_bytes())
}

/// Whether the request asks for a JSON answer (`response_format` of a JSON type).
fn wants_json(body: &Value) -> bool {
    body["response_format"]["type"]
        .as_str()
        .is_some_and(|t| t.to_ascii_lowercase().contains("json"))
}

fn text_message(text: &str) -> (Value, Value, &'static str) {
    let m = json!({"role": "assistant", "content": text});
    (m.clone(), m, "stop")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prove::server::script::Probe;

    fn data(bytes: &[u8]) -> Vec<Value> {
        String::from_utf8_lossy(bytes)
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .filter(|d| *d != "[DONE]")
            .map(|d| serde_json::from_str(d).unwrap())
            .collect()
    }

    #[test]
    fn a_tool_call_streams_as_one_indexed_delta() {
        let body = json!({"stream": true, "model": "m",
            "tools": [{"type": "function", "function": {"name": "run_shell_command"}}],
            "messages": [{"role": "user", "content": "go"},
                {"role": "tool", "tool_call_id": "c", "content": "x"}]});
        assert_eq!(tools(&body), ["run_shell_command"]);
        assert_eq!(results(&body), 1);
        let turn = Turn::Call {
            probe: Probe::Shell,
            name: "run_shell_command".into(),
            args: json!({"command": "ls"}),
        };
        let (kind, bytes) = answer(&turn, &body, &Ids::default());
        assert_eq!(kind, "text/event-stream");
        assert!(String::from_utf8_lossy(&bytes).ends_with("data: [DONE]\n\n"));
        let chunks = data(&bytes);
        let call = &chunks[0]["choices"][0]["delta"]["tool_calls"][0];
        assert_eq!(call["index"], 0);
        assert_eq!(call["function"]["name"], "run_shell_command");
        let args: Value =
            serde_json::from_str(call["function"]["arguments"].as_str().unwrap()).unwrap();
        assert_eq!(args["command"], "ls");
        assert_eq!(chunks[1]["choices"][0]["finish_reason"], "tool_calls");
        assert_eq!(chunks[0]["object"], "chat.completion.chunk");
    }

    #[test]
    fn side_requests_get_text_or_the_json_they_ask_for() {
        let (kind, bytes) = answer(&Turn::Side, &json!({}), &Ids::default());
        assert_eq!(kind, "application/json");
        let whole: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(whole["choices"][0]["message"]["content"], "scripted");
        assert_eq!(whole["choices"][0]["finish_reason"], "stop");
        let body = json!({"response_format": {"type": "json_object"}});
        let (_, bytes) = answer(&Turn::Side, &body, &Ids::default());
        let whole: Value = serde_json::from_slice(&bytes).unwrap();
        let content = whole["choices"][0]["message"]["content"].as_str().unwrap();
        assert!(serde_json::from_str::<Value>(content).is_ok(), "{content}");
    }
}
