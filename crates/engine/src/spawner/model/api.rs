//! The two APIs a model hook speaks, as one [`Conversation`]: Anthropic's Messages API and an
//! OpenAI-compatible chat completions endpoint. A conversation makes each request's body,
//! reads each response into a [`Turn`] (the final text, or the tool calls of an `agent`
//! hook), and takes the tools' results back. Only JSON here: sending is `mod.rs`'s.

use super::answer::SYSTEM;
use crate::config::ModelApi;
use serde_json::{Value, json};

/// The most tokens an answer may take (a verdict is short; an agent's tool calls too).
const MAX_TOKENS: u32 = 1024;

/// The Anthropic API version sent with every request.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

/// One tool a model asked to call.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The API's id of the call, sent back with its result.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// Its input.
    pub input: Value,
}

/// What one response says.
#[derive(Debug, Clone, PartialEq)]
pub enum Turn {
    /// The model answered: its text.
    Answer(String),
    /// The model asked for tools (an `agent` hook).
    Tools(Vec<ToolCall>),
}

/// A response that is not the API's shape.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the endpoint's response is not {api} API's shape: {why}; check `model.api` and `model.url` in your file"
)]
pub struct UnexpectedResponse {
    /// `anthropic` or `openai`.
    pub api: &'static str,
    /// What is missing.
    pub why: String,
}

/// A tool the model may call: name, what it does, its input schema.
pub type ToolSpec = (&'static str, &'static str, Value);

/// The exchange with the model of one hook run.
#[derive(Debug, Clone)]
pub struct Conversation {
    api: ModelApi,
    model: String,
    messages: Vec<Value>,
    tools: Vec<ToolSpec>,
    /// The turn cap is reached: tools stay declared (the history holds calls of them) but
    /// may not be called.
    last: bool,
}

impl Conversation {
    /// A conversation that asks `question` of `model`, offering `tools` (none: a `prompt`
    /// hook).
    pub fn new(api: ModelApi, model: &str, question: &str, tools: Vec<ToolSpec>) -> Self {
        let mut messages = Vec::new();
        if api == ModelApi::OpenAi {
            messages.push(json!({"role": "system", "content": SYSTEM}));
        }
        messages.push(json!({"role": "user", "content": question}));
        Conversation {
            api,
            model: model.to_string(),
            messages,
            tools,
            last: false,
        }
    }

    /// The body of the next request.
    pub fn body(&self) -> Value {
        let mut body = json!({
            "model": self.model,
            "max_tokens": MAX_TOKENS,
            "messages": self.messages,
        });
        match self.api {
            ModelApi::Anthropic => {
                body["system"] = json!(SYSTEM);
                if !self.tools.is_empty() {
                    body["tools"] = self
                        .tools
                        .iter()
                        .map(|(name, description, schema)| {
                            json!({"name": name, "description": description, "input_schema": schema})
                        })
                        .collect();
                    if self.last {
                        body["tool_choice"] = json!({"type": "none"});
                    }
                }
            }
            ModelApi::OpenAi => {
                if !self.tools.is_empty() {
                    body["tools"] = self
                        .tools
                        .iter()
                        .map(|(name, description, schema)| {
                            json!({"type": "function", "function": {"name": name, "description": description, "parameters": schema}})
                        })
                        .collect();
                    if self.last {
                        body["tool_choice"] = json!("none");
                    }
                }
            }
        }
        body
    }

    /// Reads a response: the model's turn, kept in the conversation when it calls tools.
    pub fn read(&mut self, response: &Value) -> Result<Turn, UnexpectedResponse> {
        let wrong = |why: &str| UnexpectedResponse {
            api: self.api.as_str(),
            why: why.to_string(),
        };
        match self.api {
            ModelApi::Anthropic => {
                let content = response
                    .get("content")
                    .and_then(Value::as_array)
                    .ok_or_else(|| wrong("no `content` list"))?;
                let mut text = String::new();
                let mut calls = Vec::new();
                for block in content {
                    match block.get("type").and_then(Value::as_str) {
                        Some("text") => {
                            text.push_str(block.get("text").and_then(Value::as_str).unwrap_or(""));
                        }
                        Some("tool_use") => calls.push(ToolCall {
                            id: string(block, "id"),
                            name: string(block, "name"),
                            input: block.get("input").cloned().unwrap_or(Value::Null),
                        }),
                        _ => {}
                    }
                }
                if calls.is_empty() || self.tools.is_empty() || self.last {
                    return Ok(Turn::Answer(text));
                }
                self.messages
                    .push(json!({"role": "assistant", "content": content}));
                Ok(Turn::Tools(calls))
            }
            ModelApi::OpenAi => {
                let message = response
                    .pointer("/choices/0/message")
                    .ok_or_else(|| wrong("no `choices[0].message`"))?;
                let calls: Vec<ToolCall> = message
                    .get("tool_calls")
                    .and_then(Value::as_array)
                    .map(|calls| {
                        calls
                            .iter()
                            .map(|c| ToolCall {
                                id: string(c, "id"),
                                name: c
                                    .pointer("/function/name")
                                    .and_then(Value::as_str)
                                    .unwrap_or_default()
                                    .to_string(),
                                // The arguments are a JSON text; a broken one is no input.
                                input: c
                                    .pointer("/function/arguments")
                                    .and_then(Value::as_str)
                                    .and_then(|a| serde_json::from_str(a).ok())
                                    .unwrap_or(Value::Null),
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                if calls.is_empty() || self.tools.is_empty() || self.last {
                    let text = message
                        .get("content")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    return Ok(Turn::Answer(text.to_string()));
                }
                self.messages.push(message.clone());
                Ok(Turn::Tools(calls))
            }
        }
    }

    /// Gives the model the results of its tool calls, in the order it made them.
    pub fn tool_results(&mut self, results: Vec<(String, String)>) {
        match self.api {
            ModelApi::Anthropic => {
                let blocks: Vec<Value> = results
                    .into_iter()
                    .map(|(id, text)| json!({"type": "tool_result", "tool_use_id": id, "content": text}))
                    .collect();
                self.messages
                    .push(json!({"role": "user", "content": blocks}));
            }
            ModelApi::OpenAi => {
                for (id, text) in results {
                    self.messages
                        .push(json!({"role": "tool", "tool_call_id": id, "content": text}));
                }
            }
        }
    }

    /// Asks for the final answer without tool calls (the turn cap is reached).
    pub fn last_call(&mut self, note: &str) {
        self.last = true;
        match self.api {
            // A tool_result turn must answer every call: the note joins the last user turn.
            ModelApi::Anthropic => {
                if let Some(Value::Array(blocks)) =
                    self.messages.last_mut().and_then(|m| m.get_mut("content"))
                {
                    blocks.push(json!({"type": "text", "text": note}));
                }
            }
            ModelApi::OpenAi => self.messages.push(json!({"role": "user", "content": note})),
        }
    }
}

fn string(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anthropic_tool_use_then_answer() {
        let tools = vec![("read_file", "reads", json!({"type": "object"}))];
        let mut c = Conversation::new(ModelApi::Anthropic, "m", "q", tools);
        let body = c.body();
        assert_eq!(body["system"], json!(SYSTEM));
        assert_eq!(body["tools"][0]["name"], "read_file");
        let turn = c
            .read(&json!({"content": [{"type": "tool_use", "id": "t1", "name": "read_file", "input": {"path": "a"}}]}))
            .unwrap();
        assert_eq!(
            turn,
            Turn::Tools(vec![ToolCall {
                id: "t1".into(),
                name: "read_file".into(),
                input: json!({"path": "a"})
            }])
        );
        c.tool_results(vec![("t1".into(), "text".into())]);
        let body = c.body();
        assert_eq!(body["messages"][2]["content"][0]["tool_use_id"], "t1");
        let turn = c
            .read(&json!({"content": [{"type": "text", "text": "{\"ok\": true}"}]}))
            .unwrap();
        assert_eq!(turn, Turn::Answer("{\"ok\": true}".into()));
    }

    #[test]
    fn the_last_call_forbids_tools_and_reads_any_calls_as_the_answer() {
        let tools = vec![("grep", "greps", json!({"type": "object"}))];
        let mut c = Conversation::new(ModelApi::Anthropic, "m", "q", tools.clone());
        c.read(
            &json!({"content": [{"type": "tool_use", "id": "t1", "name": "grep", "input": {}}]}),
        )
        .unwrap();
        c.tool_results(vec![("t1".into(), "x".into())]);
        c.last_call("answer now");
        let body = c.body();
        assert_eq!(body["tool_choice"], json!({"type": "none"}));
        assert_eq!(body["tools"][0]["name"], "grep");
        assert_eq!(body["messages"][2]["content"][1]["text"], "answer now");
        let turn = c
            .read(&json!({"content": [{"type": "text", "text": "{}"}, {"type": "tool_use", "id": "t2", "name": "grep", "input": {}}]}))
            .unwrap();
        assert_eq!(turn, Turn::Answer("{}".into()));
        let mut c = Conversation::new(ModelApi::OpenAi, "m", "q", tools);
        c.last_call("answer now");
        assert_eq!(c.body()["tool_choice"], "none");
    }

    #[test]
    fn openai_tool_calls_then_answer() {
        let tools = vec![("grep", "greps", json!({"type": "object"}))];
        let mut c = Conversation::new(ModelApi::OpenAi, "m", "q", tools);
        assert_eq!(c.body()["messages"][0]["role"], "system");
        assert_eq!(c.body()["tools"][0]["function"]["name"], "grep");
        let turn = c
            .read(&json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "grep", "arguments": "{\"pattern\":\"x\"}"}}
            ]}}]}))
            .unwrap();
        assert!(
            matches!(turn, Turn::Tools(ref calls) if calls[0].input == json!({"pattern": "x"}))
        );
        c.tool_results(vec![("c1".into(), "none".into())]);
        assert_eq!(c.body()["messages"][3]["tool_call_id"], "c1");
        assert!(c.read(&json!({"nope": 1})).is_err());
    }
}
