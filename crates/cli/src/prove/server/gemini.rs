//! Gemini (`POST …/models/M:generateContent`, and `:streamGenerateContent?alt=sse` as one
//! server-sent event), as Gemini CLI calls it with `GOOGLE_GEMINI_BASE_URL`. A side request
//! that asks for JSON (`responseMimeType`: its routing and next-speaker checks) gets JSON.

use super::script::Turn;
use super::{Api, Ids, sse};
use serde_json::{Value, json};

pub const API: Api = Api {
    tools,
    results,
    answer,
};

/// `tools[].functionDeclarations[].name`.
fn tools(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["functionDeclarations"].as_array())
        .flatten()
        .filter_map(|f| f["name"].as_str().map(str::to_string))
        .collect()
}

/// The `functionResponse` parts of every content.
fn results(body: &Value) -> usize {
    body["contents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["parts"].as_array())
        .flatten()
        .filter(|p| p.get("functionResponse").is_some())
        .count()
}

fn answer(turn: &Turn, body: &Value, _ids: &Ids) -> (&'static str, Vec<u8>) {
    let part = match turn {
        Turn::Call { name, args, .. } => json!({"functionCall": {"name": name, "args": args}}),
        Turn::Text(text) => json!({"text": text}),
        Turn::Side => json!({"text": side_text(body)}),
    };
    let chunk = json!({
        "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "gemini-scripted",
    });
    if body["stream"] == true {
        return ("text/event-stream", sse(&[(None, chunk)]));
    }
    ("application/json", chunk.to_string().into_bytes())
}

/// JSON when the request asks for it (Gemini CLI's router and next-speaker checks).
fn side_text(body: &Value) -> String {
    let config = body.get("generationConfig").or_else(|| body.get("config"));
    let wants_json = config
        .and_then(|c| c["responseMimeType"].as_str())
        .is_some_and(|m| m.to_ascii_lowercase().contains("json"));
    if wants_json {
        json!({"reasoning": "scripted", "next_speaker": "user", "model_choice": "flash",
            "complexity_reasoning": "scripted", "complexity_score": 1})
        .to_string()
    } else {
        "scripted".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prove::server::script::Probe;

    #[test]
    fn calls_and_side_requests() {
        let body = json!({"tools": [{"functionDeclarations": [{"name": "run_shell_command"}]}],
            "contents": [{"parts": [{"functionResponse": {}}, {"text": "x"}]}], "stream": true});
        assert_eq!(tools(&body), ["run_shell_command"]);
        assert_eq!(results(&body), 1);
        let turn = Turn::Call {
            probe: Probe::Shell,
            name: "run_shell_command".into(),
            args: json!({"command": "ls"}),
        };
        let (kind, bytes) = answer(&turn, &body, &Ids::default());
        assert_eq!(kind, "text/event-stream");
        let text = String::from_utf8(bytes).unwrap();
        let chunk: Value =
            serde_json::from_str(text.trim().strip_prefix("data: ").unwrap()).unwrap();
        assert_eq!(
            chunk["candidates"][0]["content"]["parts"][0]["functionCall"]["args"]["command"],
            "ls"
        );
        let side = json!({"generationConfig": {"responseMimeType": "application/json"}});
        let (_, bytes) = answer(&Turn::Side, &side, &Ids::default());
        let whole: Value = serde_json::from_slice(&bytes).unwrap();
        let text = whole["candidates"][0]["content"]["parts"][0]["text"]
            .as_str()
            .unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(text).unwrap()["next_speaker"],
            "user"
        );
    }
}
