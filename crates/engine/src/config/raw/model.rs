//! Phase 1 of the top-level `"model"` block: the model `prompt` and `agent` hooks ask,
//! `{"api": "anthropic" | "openai", "url": "...", "name": "...", "keyEnv": "NAME"}`, read and
//! checked value by value. Whether the file may hold one at all (only the user's or the
//! managed file) is the loader's question.

use super::closest;
use crate::config::types::ModelApi;
use crate::payload::json_type_name;
use serde_json::Value;

/// The keys of the block.
const MODEL_KEYS: &[&str] = &["api", "url", "name", "keyEnv"];

/// An example block, for the messages.
pub(in crate::config) const MODEL_EXAMPLE: &str = r#""model": {"api": "anthropic", "url": "https://api.anthropic.com/v1/messages", "name": "claude-haiku-4-5", "keyEnv": "ANTHROPIC_API_KEY"}"#;

/// The `model` block, read: every value present and of its type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::config) struct RawModel {
    pub api: ModelApi,
    pub url: String,
    pub name: String,
    pub key_env: Option<String>,
}

/// Reads the block: the model, or every problem with it.
pub(super) fn read_model(v: &Value) -> Result<RawModel, Vec<String>> {
    let Value::Object(m) = v else {
        return Err(vec![format!(
            "\"model\" is {}, expected an object like {{{MODEL_EXAMPLE}}}",
            json_type_name(v)
        )]);
    };
    let mut problems = Vec::new();
    for key in m.keys() {
        if !MODEL_KEYS.contains(&key.as_str()) {
            let hint = closest(key, MODEL_KEYS)
                .map(|k| format!("did you mean `{k}`?"))
                .unwrap_or_else(|| format!("allowed keys: {}", MODEL_KEYS.join(", ")));
            problems.push(format!("\"model\": unknown key `{key}`; {hint}"));
        }
    }
    let api = required(
        m.get("api"),
        "api",
        "\"anthropic\" or \"openai\"",
        &mut problems,
    )
    .and_then(|v| api(v, &mut problems));
    let url = required(
        m.get("url"),
        "url",
        "the endpoint's full URL",
        &mut problems,
    )
    .and_then(|v| url(v, &mut problems));
    let name = required(
        m.get("name"),
        "name",
        "the model's name as the endpoint knows it",
        &mut problems,
    )
    .and_then(|v| name(v, &mut problems));
    let key_env = m.get("keyEnv").and_then(|v| key_env(v, &mut problems));
    match (api, url, name, problems.is_empty()) {
        (Some(api), Some(url), Some(name), true) => Ok(RawModel {
            api,
            url,
            name,
            key_env,
        }),
        _ => Err(problems),
    }
}

/// A key the block needs: its value, or a problem saying what it is.
fn required<'v>(
    v: Option<&'v Value>,
    key: &str,
    what: &str,
    problems: &mut Vec<String>,
) -> Option<&'v Value> {
    if v.is_none() {
        problems.push(format!(
            "\"model\" needs `{key}`, {what}; e.g. {MODEL_EXAMPLE}"
        ));
    }
    v
}

fn api(v: &Value, problems: &mut Vec<String>) -> Option<ModelApi> {
    match v.as_str() {
        Some("anthropic") => Some(ModelApi::Anthropic),
        Some("openai") => Some(ModelApi::OpenAi),
        _ => {
            problems.push(format!(
                "\"model.api\" must be \"anthropic\" (the Messages API) or \"openai\" (an OpenAI-compatible chat completions endpoint), got {v}"
            ));
            None
        }
    }
}

fn url(v: &Value, problems: &mut Vec<String>) -> Option<String> {
    match v.as_str() {
        Some(u) if u.starts_with("http://") || u.starts_with("https://") => Some(u.to_string()),
        _ => {
            problems.push(format!(
                "\"model.url\" must be the endpoint's full URL starting with http:// or https:// (e.g. https://api.anthropic.com/v1/messages), got {v}"
            ));
            None
        }
    }
}

fn name(v: &Value, problems: &mut Vec<String>) -> Option<String> {
    match v.as_str() {
        Some(n) if !n.trim().is_empty() => Some(n.to_string()),
        _ => {
            problems.push(format!(
                "\"model.name\" must be the model's name as the endpoint knows it (e.g. \"claude-haiku-4-5\"), got {v}"
            ));
            None
        }
    }
}

fn key_env(v: &Value, problems: &mut Vec<String>) -> Option<String> {
    let valid = |s: &str| {
        !s.is_empty()
            && !s.starts_with(|c: char| c.is_ascii_digit())
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    match v.as_str() {
        Some(k) if valid(k) => Some(k.to_string()),
        _ => {
            problems.push(format!(
                "\"model.keyEnv\" must name the environment variable that holds the API key (e.g. \"ANTHROPIC_API_KEY\"), got {v}"
            ));
            None
        }
    }
}
