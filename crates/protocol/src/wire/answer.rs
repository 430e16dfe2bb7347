//! The JSON answer a hook prints on stdout (DESIGN §4), in any dialect: hookhost's own
//! (`decision`/`reason`, `updatedInput`, `additionalContext`, `systemMessage`), ling's
//! spelling (`blocked`, `blockReason`, `modifiedParams`), Claude Code's, Codex's and
//! Gemini CLI's (`continue`/`stopReason`, `suppressOutput`, `hookSpecificOutput`), Cursor's
//! (`permission`, `user_message`, `agent_message`, `followup_message`; cursor.com/docs/hooks)
//! and GitHub Copilot CLI's (top-level `permissionDecision`, `permissionDecisionReason`,
//! `modifiedArgs`; docs.github.com/en/copilot/reference/hooks-reference) and Cline's
//! (`cancel`, `errorMessage`, `contextModification`; docs.cline.bot, "Hook Reference"). One reader
//! for all of them: the engine's `parse_stdout` reads this type, then checks that
//! two spellings of one field agree.
//!
//! Read strictly: a known field of the wrong type is an error that names it and shows what was
//! there. Unknown fields are kept as they are in [`HookAnswer::other`] (an answer with keys but
//! none of these is a hook speaking another protocol, which the engine reports).

use super::fields::strict;
use schemars::JsonSchema;
use serde::de::{Deserializer, Error};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A decision as an answer states it (`decision` or `permissionDecision`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum StatedDecision {
    /// Block (PreToolUse), force (Stop), block the prompt or give feedback (Claude's family).
    Block,
    /// The same as `block`.
    Deny,
    /// The same as passing (hooks can block, never bypass).
    Allow,
    /// The same as `allow`.
    Approve,
    /// PreToolUse: hand the call to the permission prompt.
    Ask,
    /// PreToolUse (Claude Code's `permissionDecision`): no decision here; the permission
    /// checker decides (Claude Code `-p`: pause the session at the call).
    Defer,
}

/// A hook's JSON answer; `None` is absent (or `null`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    title = "a hook's JSON answer",
    description = "What a hook may print on stdout with exit 0, in any dialect hookhost reads (DESIGN §4): plain text is fine too. Two spellings of one field (`decision`/`blocked`, `reason`/`blockReason`, `updatedInput`/`modifiedParams`, and the same inside `hookSpecificOutput`) must agree; a key given twice is an error."
)]
pub struct HookAnswer {
    /// Cursor: text for the model about a decision (read as `reason` when there is none).
    #[serde(
        rename = "agent_message",
        default,
        deserialize_with = "agent_message",
        skip_serializing_if = "Option::is_none"
    )]
    pub agent_message: Option<String>,
    /// Text for the model (UserPromptSubmit, SessionStart, PostToolUse).
    #[serde(
        default,
        deserialize_with = "additional_context",
        skip_serializing_if = "Option::is_none"
    )]
    pub additional_context: Option<String>,
    /// ling's spelling of `reason`.
    #[serde(
        default,
        deserialize_with = "block_reason",
        skip_serializing_if = "Option::is_none"
    )]
    pub block_reason: Option<String>,
    /// ling's spelling of `decision`: `true` is block, `false` allow.
    #[serde(
        default,
        deserialize_with = "blocked",
        skip_serializing_if = "Option::is_none"
    )]
    pub blocked: Option<bool>,
    /// Cline: `true` blocks what the event is about (with `errorMessage`); `false` decides
    /// nothing.
    #[serde(
        default,
        deserialize_with = "cancel",
        skip_serializing_if = "Option::is_none"
    )]
    pub cancel: Option<bool>,
    /// Cline: text for the model (read as `additionalContext` when there is none).
    #[serde(
        default,
        deserialize_with = "context_modification",
        skip_serializing_if = "Option::is_none"
    )]
    pub context_modification: Option<String>,
    /// `false`: stop the agent, with `stopReason`.
    #[serde(
        rename = "continue",
        default,
        deserialize_with = "continue_",
        skip_serializing_if = "Option::is_none"
    )]
    pub continue_: Option<bool>,
    /// Block (or force a Stop, with `reason` as the message), allow, or ask.
    #[serde(
        default,
        deserialize_with = "decision",
        skip_serializing_if = "Option::is_none"
    )]
    pub decision: Option<StatedDecision>,
    /// Cline: why it cancelled (read as `reason` when there is none).
    #[serde(
        default,
        deserialize_with = "error_message",
        skip_serializing_if = "Option::is_none"
    )]
    pub error_message: Option<String>,
    /// Cursor, at `stop`: the next user message (the agent goes on, as with a forcing
    /// `decision: "block"`).
    #[serde(
        rename = "followup_message",
        default,
        deserialize_with = "followup_message",
        skip_serializing_if = "Option::is_none"
    )]
    pub followup_message: Option<String>,
    /// Claude Code's shape (also Codex's and Gemini CLI's).
    #[serde(
        default,
        deserialize_with = "hook_specific_output",
        skip_serializing_if = "Option::is_none"
    )]
    pub hook_specific_output: Option<SpecificOutput>,
    /// Copilot CLI's spelling of `updatedInput`.
    #[serde(
        default,
        deserialize_with = "modified_args",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "Option<Map<String, Value>>")]
    pub modified_args: Option<Value>,
    /// ling's spelling of `updatedInput`.
    #[serde(
        default,
        deserialize_with = "modified_params",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "Option<Map<String, Value>>")]
    pub modified_params: Option<Value>,
    /// Cursor's spelling of `decision`: `"deny"`, `"allow"` or `"ask"`.
    #[serde(
        default,
        deserialize_with = "permission",
        skip_serializing_if = "Option::is_none"
    )]
    pub permission: Option<StatedDecision>,
    /// Copilot CLI's spelling of `decision` (Claude Code's, at the top level).
    #[serde(
        default,
        deserialize_with = "top_permission_decision",
        skip_serializing_if = "Option::is_none"
    )]
    pub permission_decision: Option<StatedDecision>,
    /// Copilot CLI's spelling of `reason`.
    #[serde(
        default,
        deserialize_with = "permission_decision_reason",
        skip_serializing_if = "Option::is_none"
    )]
    pub permission_decision_reason: Option<String>,
    /// The block reason, or the force message.
    #[serde(
        default,
        deserialize_with = "reason",
        skip_serializing_if = "Option::is_none"
    )]
    pub reason: Option<String>,
    /// Why the agent stops (with `continue: false`).
    #[serde(
        default,
        deserialize_with = "stop_reason",
        skip_serializing_if = "Option::is_none"
    )]
    pub stop_reason: Option<String>,
    /// Accepted; hookhost never puts a hook's stdout in a transcript.
    #[serde(
        default,
        deserialize_with = "suppress_output",
        skip_serializing_if = "Option::is_none"
    )]
    pub suppress_output: Option<bool>,
    /// Text for the user.
    #[serde(
        default,
        deserialize_with = "system_message",
        skip_serializing_if = "Option::is_none"
    )]
    pub system_message: Option<String>,
    /// PreToolUse: the new tool arguments (later hooks see them).
    #[serde(
        default,
        deserialize_with = "updated_input",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "Option<Map<String, Value>>")]
    pub updated_input: Option<Value>,
    /// PostToolUse: what the model sees as the tool's result instead of its output (any JSON
    /// value; `null` is absent). A hook of Claude Code's family gives it inside
    /// `hookSpecificOutput`, as Claude Code reads it.
    #[serde(
        default,
        deserialize_with = "any_value",
        skip_serializing_if = "Option::is_none"
    )]
    pub updated_tool_output: Option<Value>,
    /// UserPromptSubmit: the prompt the agent sends the model instead of the user's (later
    /// hooks see it; the last one is sent). A trusted hook's only; an agent that cannot
    /// replace a prompt gets the original blocked, with the replacement in the reason.
    #[serde(
        default,
        deserialize_with = "updated_prompt",
        skip_serializing_if = "Option::is_none"
    )]
    pub updated_prompt: Option<String>,
    /// Cursor: text for the user (read as `systemMessage`; with `continue: false`, the stop
    /// reason when there is no `stopReason`).
    #[serde(
        rename = "user_message",
        default,
        deserialize_with = "user_message",
        skip_serializing_if = "Option::is_none"
    )]
    pub user_message: Option<String>,
    /// Keys hookhost does not read, as given.
    #[serde(flatten)]
    #[schemars(skip)]
    pub other: Map<String, Value>,
}

/// `hookSpecificOutput`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpecificOutput {
    /// Text for the model.
    #[serde(
        default,
        deserialize_with = "additional_context",
        skip_serializing_if = "Option::is_none"
    )]
    pub additional_context: Option<String>,
    /// PermissionRequest (Claude Code, Codex): allow or deny the call the agent would ask
    /// about.
    #[serde(
        default,
        deserialize_with = "permission_behavior",
        skip_serializing_if = "Option::is_none"
    )]
    pub decision: Option<PermissionBehavior>,
    /// The event answered (not read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook_event_name: Option<Value>,
    /// ling's spelling of `updatedInput`.
    #[serde(
        default,
        deserialize_with = "modified_params",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "Option<Map<String, Value>>")]
    pub modified_params: Option<Value>,
    /// Deny (block), allow, or ask.
    #[serde(
        default,
        deserialize_with = "permission_decision",
        skip_serializing_if = "Option::is_none"
    )]
    pub permission_decision: Option<StatedDecision>,
    /// Why.
    #[serde(
        default,
        deserialize_with = "permission_decision_reason",
        skip_serializing_if = "Option::is_none"
    )]
    pub permission_decision_reason: Option<String>,
    /// Gemini CLI: arguments merged into the call's.
    #[serde(
        rename = "tool_input",
        default,
        deserialize_with = "tool_input",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "Option<Map<String, Value>>")]
    pub tool_input: Option<Value>,
    /// The new tool arguments.
    #[serde(
        default,
        deserialize_with = "updated_input",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "Option<Map<String, Value>>")]
    pub updated_input: Option<Value>,
    /// PostToolUse (Claude Code 2.1.121+): what the model sees as the tool's result instead
    /// of its output (any JSON value; `null` is absent).
    #[serde(
        default,
        deserialize_with = "any_value",
        skip_serializing_if = "Option::is_none"
    )]
    pub updated_tool_output: Option<Value>,
    /// PostToolUse: Claude Code's older spelling of `updatedToolOutput` (once for MCP tools
    /// only), read as the same field; both given must agree.
    #[serde(
        rename = "updatedMCPToolOutput",
        default,
        deserialize_with = "any_value",
        skip_serializing_if = "Option::is_none"
    )]
    pub updated_mcp_tool_output: Option<Value>,
    /// UserPromptSubmit: the prompt to send instead of the user's (as the top-level
    /// `updatedPrompt`; both given must agree).
    #[serde(
        default,
        deserialize_with = "updated_prompt",
        skip_serializing_if = "Option::is_none"
    )]
    pub updated_prompt: Option<String>,
    /// PermissionDenied (Claude Code): `true` tells the model it may retry the denied call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry: Option<bool>,
    /// WorktreeCreate (Claude Code's HTTP hooks): where the hook created the worktree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worktree_path: Option<String>,
    /// Elicitation, ElicitationResult (Claude Code): `accept`, `decline` or `cancel`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// Elicitation, ElicitationResult: with `accept`, the form's values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Value>,
    /// CwdChanged, FileChanged (Claude Code): paths to watch for FileChanged (not applied by
    /// hookhost, whose core fires FileChanged for the files its tools write).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watch_paths: Option<Vec<String>>,
}

/// `hookSpecificOutput.decision` on PermissionRequest (Claude Code's hooks reference,
/// "PermissionRequest decision control"; Codex 0.171's `permission-request.command.output`
/// schema).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PermissionBehavior {
    /// Allow the call without the prompt, or deny it.
    pub behavior: Behavior,
    /// Deny: why (shown to the model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Deny: `true` also stops the agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupt: Option<bool>,
    /// Allow: new tool arguments (not applied by hookhost: the user is asked instead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Value>,
    /// Allow: permission rules to add (not applied by hookhost: the user is asked instead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_permissions: Option<Value>,
}

/// `behavior` of a PermissionRequest decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Behavior {
    /// Run the call without asking.
    Allow,
    /// Do not run the call.
    Deny,
}

fn permission_behavior<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<PermissionBehavior>, D::Error> {
    let key = "hookSpecificOutput.decision";
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        Value::Object(o) => {
            match o.get("behavior") {
                Some(Value::String(b)) if b == "allow" || b == "deny" => {}
                other => {
                    return Err(D::Error::custom(format!(
                        "`{key}.behavior` must be \"allow\" or \"deny\", got {}",
                        other.map_or("nothing".to_string(), Value::to_string)
                    )));
                }
            }
            let field = |k: &str| o.get(k).filter(|v| !v.is_null());
            if let Some(v) = field("message").filter(|v| !v.is_string()) {
                return Err(D::Error::custom(format!(
                    "`{key}.message` must be a string, got {v}"
                )));
            }
            if let Some(v) = field("interrupt").filter(|v| !v.is_boolean()) {
                return Err(D::Error::custom(format!(
                    "`{key}.interrupt` must be true or false, got {v}"
                )));
            }
            PermissionBehavior::deserialize(Value::Object(o))
                .map(Some)
                .map_err(|e| D::Error::custom(format!("`{key}`: {e}")))
        }
        v => Err(D::Error::custom(format!(
            "`{key}` must be an object like {{\"behavior\": \"allow\"}}, got {v}"
        ))),
    }
}

strict! {
    string agent_message = "agent_message",
    string followup_message = "followup_message",
    arguments modified_args = "modifiedArgs",
    string user_message = "user_message",
    string additional_context = "additionalContext",
    string block_reason = "blockReason",
    bool blocked = "blocked",
    bool continue_ = "continue",
    bool cancel = "cancel",
    string context_modification = "contextModification",
    string error_message = "errorMessage",
    arguments modified_params = "modifiedParams",
    string reason = "reason",
    string stop_reason = "stopReason",
    bool suppress_output = "suppressOutput",
    string system_message = "systemMessage",
    arguments updated_input = "updatedInput",
    string updated_prompt = "updatedPrompt",
    string permission_decision_reason = "permissionDecisionReason",
}

fn stated<E: Error>(v: &Value, key: &str) -> Result<StatedDecision, E> {
    StatedDecision::deserialize(v).map_err(|_| {
        E::custom(format!(
            "`{key}` must be \"block\"/\"deny\", \"allow\", \"ask\" or \"defer\", got {v}"
        ))
    })
}

/// Any value: `null` is absent.
fn any_value<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Ok(Some(Value::deserialize(d)?).filter(|v| !v.is_null()))
}

/// `decision`: present means stated (`null` is not a decision).
fn decision<'de, D: Deserializer<'de>>(d: D) -> Result<Option<StatedDecision>, D::Error> {
    stated(&Value::deserialize(d)?, "decision").map(Some)
}

fn permission<'de, D: Deserializer<'de>>(d: D) -> Result<Option<StatedDecision>, D::Error> {
    stated(&Value::deserialize(d)?, "permission").map(Some)
}

fn top_permission_decision<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<StatedDecision>, D::Error> {
    stated(&Value::deserialize(d)?, "permissionDecision").map(Some)
}

fn permission_decision<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<StatedDecision>, D::Error> {
    stated(
        &Value::deserialize(d)?,
        "hookSpecificOutput.permissionDecision",
    )
    .map(Some)
}

fn hook_specific_output<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<SpecificOutput>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        v @ Value::Object(_) => SpecificOutput::deserialize(v)
            .map(Some)
            .map_err(|e| D::Error::custom(e.to_string())),
        _ => Err(D::Error::custom("`hookSpecificOutput` must be an object")),
    }
}

fn tool_input<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        v @ Value::Object(_) => Ok(Some(v)),
        v => Err(D::Error::custom(format!(
            "`hookSpecificOutput.tool_input` must be an object of arguments to merge, got {v}"
        ))),
    }
}
