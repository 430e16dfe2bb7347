//! The [`Model`] trait (messages and tool specs in; text and/or tool calls out) and
//! [`ScriptedModel`], which replays a JSON transcript of model turns for the demo and tests.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

/// Who said a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The host: hook context and compaction notes.
    System,
    /// The user, or a continue message forced by TodoGuard or a Stop hook.
    User,
    /// The model.
    Assistant,
    /// A tool's result, answering one tool call.
    Tool,
}

/// One tool call the model asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// Pairs the call with its result ([`Message::tool_call_id`]); [`ScriptedModel`]
    /// numbers the calls that have none.
    #[serde(default)]
    pub id: String,
    /// The tool to call.
    pub name: String,
    /// The arguments, a JSON object (`null` when the transcript gives none).
    #[serde(default)]
    pub args: Value,
}

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Who said it.
    pub role: Role,
    /// The text; for `Role::Tool`, the tool's result as text.
    pub content: String,
    /// For `Role::Assistant`: the tool calls of that turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For `Role::Tool`: the call this answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl Message {
    /// A message without tool calls.
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        Message {
            role,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }
}

/// A tool the model may call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolSpec {
    /// The name the model calls it by.
    pub name: &'static str,
    /// What the tool does, for the model.
    pub description: &'static str,
    /// JSON schema of the arguments.
    pub parameters: Value,
}

/// What the model answered in one turn: text, tool calls, or both. No tool calls means a
/// final answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelTurn {
    /// What the model said; may be empty.
    #[serde(default)]
    pub text: String,
    /// The tools to call, in order; empty for a final answer.
    #[serde(default)]
    pub tool_calls: Vec<ToolCall>,
}

/// A language model, or anything that plays one.
#[async_trait]
pub trait Model: Send + Sync {
    /// The next turn, given the conversation so far and the tools on offer; an `Err` ends
    /// the run with that error.
    async fn next(&self, messages: &[Message], tools: &[ToolSpec]) -> anyhow::Result<ModelTurn>;

    /// The model a `task` subagent named `name` uses; `None` if there is none.
    fn subagent(&self, _name: &str) -> Option<Box<dyn Model>> {
        None
    }
}

/// A transcript: the main agent's turns and each named subagent's.
///
/// ```json
/// { "turns": [ {"text": "Let me look.", "toolCalls": [{"name": "bash", "args": {"command": "ls"}}]},
///              {"text": "Done."} ],
///   "subagents": { "tester": { "turns": [ {"text": "All tests pass."} ] } } }
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transcript {
    /// The main agent's turns, in order.
    pub turns: Vec<ModelTurn>,
    /// The transcript of each subagent a `task` call may name.
    #[serde(default)]
    pub subagents: HashMap<String, Transcript>,
}

/// Replays a [`Transcript`] turn by turn, whatever the messages say. When the turns run out
/// it gives a final answer saying so.
pub struct ScriptedModel {
    turns: Mutex<VecDeque<ModelTurn>>,
    subagents: HashMap<String, Transcript>,
    counter: Mutex<u64>,
}

impl ScriptedModel {
    /// A model that replays `transcript`.
    pub fn new(transcript: Transcript) -> Self {
        ScriptedModel {
            turns: Mutex::new(transcript.turns.into()),
            subagents: transcript.subagents,
            counter: Mutex::new(0),
        }
    }

    /// Reads a transcript from JSON text; the error says why it is not one.
    pub fn from_json(text: &str) -> anyhow::Result<Self> {
        let t: Transcript =
            serde_json::from_str(text).map_err(|e| anyhow::anyhow!("invalid transcript: {e}"))?;
        Ok(Self::new(t))
    }
}

#[async_trait]
impl Model for ScriptedModel {
    async fn next(&self, _messages: &[Message], _tools: &[ToolSpec]) -> anyhow::Result<ModelTurn> {
        let turn = crate::sync::lock(&self.turns).pop_front();
        let mut turn = turn.unwrap_or_else(|| ModelTurn {
            text: "(the script has no more turns)".into(),
            tool_calls: Vec::new(),
        });
        let mut counter = crate::sync::lock(&self.counter);
        for call in &mut turn.tool_calls {
            if call.id.is_empty() {
                *counter += 1;
                call.id = format!("call_{counter}");
            }
        }
        Ok(turn)
    }

    fn subagent(&self, name: &str) -> Option<Box<dyn Model>> {
        self.subagents
            .get(name)
            .map(|t| Box::new(ScriptedModel::new(t.clone())) as Box<dyn Model>)
    }
}
