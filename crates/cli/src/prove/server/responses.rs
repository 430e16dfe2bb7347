//! OpenAI Responses (`POST …/responses`), as Codex calls a `model_providers` entry with
//! `wire_api = "responses"`: server-sent events (`response.created`, one output item added and
//! done, `response.completed`). A call of a tool the request declares `"type": "custom"`
//! (Codex's freeform `apply_patch`) is a `custom_tool_call` with the text as `input`.

use super::script::Turn;
use super::{Api, Ids, sse};
use serde_json::{Value, json};

pub const API: Api = Api {
    tools,
    results,
    answer,
};

/// `tools[].name` (or `tools[].function.name`).
fn tools(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| {
            t["name"]
                .as_str()
                .or_else(|| t["function"]["name"].as_str())
        })
        .map(str::to_string)
        .collect()
}

/// The `function_call_output` and `custom_tool_call_output` items of `input`.
fn results(body: &Value) -> usize {
    body["input"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|i| {
            matches!(
                i["type"].as_str(),
                Some("function_call_output" | "custom_tool_call_output")
            )
        })
        .count()
}

/// Whether the request declares tool `name` as a custom (freeform) tool.
fn is_custom(body: &Value, name: &str) -> bool {
    body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|t| t["name"] == name && t["type"] == "custom")
}

fn answer(turn: &Turn, body: &Value, ids: &Ids) -> (&'static str, Vec<u8>) {
    let item = match turn {
        Turn::Call { name, args, .. } if is_custom(body, name) => json!({
            "type": "custom_tool_call", "id": ids.next("ctc"), "call_id": ids.next("call"),
            "name": name, "input": args["input"].as_str().unwrap_or_default(), "status": "completed"}),
        Turn::Call { name, args, .. } => json!({
            "type": "function_call", "id": ids.next("fc"), "call_id": ids.next("call"),
            "name": name, "arguments": args.to_string(), "status": "completed"}),
        Turn::Text(text) => message(text, ids),
        Turn::Side => message("scripted", ids),
    };
    let usage = json!({"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15});
    let model = body["model"].as_str().unwrap_or("scripted");
    let response = json!({"id": ids.next("resp"), "object": "response", "status": "in_progress",
        "model": model, "output": []});
    let mut done = response.clone();
    done["status"] = json!("completed");
    done["output"] = json!([item]);
    done["usage"] = usage;
    let events = [
        (
            Some("response.created"),
            json!({"type": "response.created", "response": response}),
        ),
        (
            Some("response.output_item.added"),
            json!({"type": "response.output_item.added", "output_index": 0, "item": item}),
        ),
        (
            Some("response.output_item.done"),
            json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
        ),
        (
            Some("response.completed"),
            json!({"type": "response.completed", "response": done}),
        ),
    ];
    ("text/event-stream", sse(&events))
}

fn message(text: &str, ids: &Ids) -> Value {
    json!({"type": "message", "id": ids.next("msg"), "role": "assistant", "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}]})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prove::server::script::Probe;

    fn items(bytes: Vec<u8>) -> Vec<Value> {
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .map(|d| serde_json::from_str(d).unwrap())
            .collect()
    }

    #[test]
    fn function_and_custom_calls() {
        let body = json!({"tools": [{"type": "function", "name": "exec_command"},
            {"type": "custom", "name": "apply_patch"}],
            "input": [{"type": "function_call_output", "output": "x"}, {"type": "message"}]});
        assert_eq!(tools(&body), ["exec_command", "apply_patch"]);
        assert_eq!(results(&body), 1);
        let shell = Turn::Call {
            probe: Probe::Shell,
            name: "exec_command".into(),
            args: json!({"cmd": "ls"}),
        };
        let ev = items(answer(&shell, &body, &Ids::default()).1);
        let item = &ev[3]["response"]["output"][0];
        assert_eq!(item["type"], "function_call");
        assert_eq!(
            serde_json::from_str::<Value>(item["arguments"].as_str().unwrap()).unwrap()["cmd"],
            "ls"
        );
        let patch = Turn::Call {
            probe: Probe::Write,
            name: "apply_patch".into(),
            args: json!({"input": "*** Begin Patch"}),
        };
        let ev = items(answer(&patch, &body, &Ids::default()).1);
        assert_eq!(ev[2]["item"]["type"], "custom_tool_call");
        assert_eq!(ev[2]["item"]["input"], "*** Begin Patch");
    }
}
