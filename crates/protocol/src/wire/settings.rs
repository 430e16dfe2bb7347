//! Other agents' settings files, as far as hooks go: Claude Code's, Gemini CLI's and Codex's
//! nested `{"hooks": {Event: [{"matcher", "hooks": [...]}]}}`, ling's list of rules, and the
//! native hook object each hook becomes ([`NativeHookObject`], validated then by the native
//! config reader). Read leniently (a field of the wrong type is absent, and the reader in
//! the engine's `config/agents/` says what is wrong where it matters); the keys hookhost does not
//! implement are kept in `other`, verbatim, to be reported.

use super::fields;
use crate::dialect::Dialect;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The native hook object another agent's hook means, read then by the native config reader
/// (values are passed on as given: that reader checks them).
#[derive(Debug, Default, Serialize)]
pub struct NativeHookObject {
    pub dialect: Dialect,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<Value>,
    /// The exec form's arguments (Claude Code's `args`, Copilot CLI's `args` beside `exec`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub args: Option<Value>,
    /// Claude Code's `shell` (`"bash"`, `"powershell"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shell: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<Value>,
    /// A prompt hook's question (Claude Code's and Codex's `type: "prompt"`, Cursor's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<Value>,
    /// An agent hook's question (Claude Code's and Codex's `type: "agent"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headers: Option<Value>,
    #[serde(rename = "allowedEnv", skip_serializing_if = "Option::is_none")]
    pub allowed_env: Option<Value>,
    /// Claude Code's `statusMessage`.
    #[serde(rename = "statusMessage", skip_serializing_if = "Option::is_none")]
    pub status_message: Option<Value>,
    /// `once`: at most once per session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub once: Option<Value>,
    /// Claude Code's `asyncRewake`.
    #[serde(rename = "asyncRewake", skip_serializing_if = "Option::is_none")]
    pub async_rewake: Option<Value>,
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub matcher: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(rename = "async", skip_serializing_if = "Option::is_none")]
    pub is_async: Option<Value>,
    /// Claude Code's `if` (a permission rule on the tool call).
    #[serde(rename = "if", skip_serializing_if = "Option::is_none")]
    pub condition: Option<Value>,
    /// `false` when a switch of its own file turns it off.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// Cursor's `failClosed`, Copilot CLI's fail-closed PreToolUse, Claude Code's
    /// `onFailure`: `"block"`.
    #[serde(rename = "onError", skip_serializing_if = "Option::is_none")]
    pub on_error: Option<Value>,
    /// Copilot CLI's `cwd`; Cursor's user hooks run in `~/.cursor`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<Value>,
    /// Claude Code's and Codex's `mcp_tool` hooks: `{"server", "tool", "input"}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mcp: Option<Value>,
}

impl NativeHookObject {
    pub fn into_value(self) -> Value {
        // Plain data: serialising it cannot fail.
        serde_json::to_value(self).unwrap_or_default()
    }
}

/// The top of a Claude Code, Gemini CLI or Codex settings file, as far as hooks go.
#[derive(Debug, Default, Deserialize)]
pub struct NestedRoot {
    /// Claude Code's switch, as written (Claude Code reads any value but `false`, `"false"`
    /// and `null` as on).
    #[serde(
        rename = "disableAllHooks",
        default,
        deserialize_with = "fields::present"
    )]
    pub disable_all_hooks: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub hooks: Option<Value>,
    /// Gemini CLI's switches (`hooksConfig`).
    #[serde(rename = "hooksConfig", default, deserialize_with = "fields::present")]
    pub hooks_config: Option<Value>,
}

/// Gemini CLI's `hooksConfig`: `enabled`, `disabled` (hook names, else commands) and
/// `notifications` (what its UI shows while a hook runs). Kept as written: the reader says
/// what is wrong with a value.
#[derive(Debug, Default, Deserialize)]
pub struct GeminiSwitches {
    #[serde(default, deserialize_with = "fields::present")]
    pub enabled: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub disabled: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub notifications: Option<Value>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// A matcher group; `other` holds the keys hookhost does not implement.
#[derive(Debug, Default, Deserialize)]
pub struct NestedGroup {
    #[serde(default, deserialize_with = "fields::present")]
    pub matcher: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub hooks: Option<Value>,
    /// Gemini CLI's (not implemented: its hooks run in order anyway).
    #[serde(default, deserialize_with = "fields::present")]
    pub sequential: Option<Value>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// One hook of a matcher group; `other` holds the keys hookhost does not implement.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NestedEntry {
    #[serde(rename = "type", default, deserialize_with = "fields::string")]
    pub kind: Option<String>,
    #[serde(default, deserialize_with = "fields::present")]
    pub command: Option<Value>,
    /// The exec form's arguments (Claude Code 2.1.139).
    #[serde(default, deserialize_with = "fields::present")]
    pub args: Option<Value>,
    /// `"bash"` or `"powershell"`.
    #[serde(default, deserialize_with = "fields::present")]
    pub shell: Option<Value>,
    /// `"block"` or `"continue"` (Claude Code 2.1.295).
    #[serde(default, deserialize_with = "fields::present")]
    pub on_failure: Option<Value>,
    /// Once per session (Claude Code honours it in skill frontmatter only).
    #[serde(default, deserialize_with = "fields::present")]
    pub once: Option<Value>,
    /// Run in the background; exit 2 wakes the agent with the hook's output.
    #[serde(default, deserialize_with = "fields::present")]
    pub async_rewake: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub url: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub headers: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub allowed_env_vars: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub timeout: Option<Value>,
    #[serde(default, deserialize_with = "fields::string")]
    pub description: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub status_message: Option<String>,
    #[serde(rename = "async", default, deserialize_with = "fields::boolean")]
    pub is_async: Option<bool>,
    #[serde(default, deserialize_with = "fields::string")]
    pub name: Option<String>,
    /// Claude Code's `if`.
    #[serde(rename = "if", default, deserialize_with = "fields::present")]
    pub condition: Option<Value>,
    /// An `mcp_tool` hook's server.
    #[serde(default, deserialize_with = "fields::present")]
    pub server: Option<Value>,
    /// An `mcp_tool` hook's tool.
    #[serde(default, deserialize_with = "fields::present")]
    pub tool: Option<Value>,
    /// An `mcp_tool` hook's arguments.
    #[serde(default, deserialize_with = "fields::present")]
    pub input: Option<Value>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// One ling rule; `other` holds the keys hookhost does not implement.
#[derive(Debug, Default, Deserialize)]
pub struct LingRule {
    #[serde(default, deserialize_with = "fields::string")]
    pub event: Option<String>,
    #[serde(default, deserialize_with = "fields::present")]
    pub matcher: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub handler: Option<Value>,
    #[serde(rename = "async", default, deserialize_with = "fields::present")]
    pub is_async: Option<Value>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// A ling rule's `handler`.
#[derive(Debug, Default, Deserialize)]
pub struct LingHandler {
    #[serde(rename = "type", default, deserialize_with = "fields::string")]
    pub kind: Option<String>,
    #[serde(default, deserialize_with = "fields::present")]
    pub command: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub url: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub headers: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub timeout: Option<Value>,
}

/// The top of a Cursor `hooks.json` or a Copilot CLI `.github/hooks/*.json`:
/// `{"version": 1, "hooks": {event: [entry, ...]}}` (Copilot CLI: and `disableAllHooks`).
#[derive(Debug, Default, Deserialize)]
pub struct VersionedRoot {
    #[serde(default, deserialize_with = "fields::present")]
    pub version: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub hooks: Option<Value>,
    #[serde(
        rename = "disableAllHooks",
        default,
        deserialize_with = "fields::present"
    )]
    pub disable_all_hooks: Option<Value>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// One hook of a Cursor `hooks.json` (cursor.com/docs/hooks); `other` holds the keys
/// hookhost does not implement.
#[derive(Debug, Default, Deserialize)]
pub struct CursorEntry {
    #[serde(rename = "type", default, deserialize_with = "fields::present")]
    pub kind: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub command: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub timeout: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub matcher: Option<Value>,
    #[serde(rename = "failClosed", default, deserialize_with = "fields::present")]
    pub fail_closed: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub loop_limit: Option<Value>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// One hook of a Copilot CLI hooks file (docs.github.com/en/copilot/reference/hooks-reference,
/// "Hook configuration format"); `other` holds the keys hookhost does not implement.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CopilotEntry {
    #[serde(rename = "type", default, deserialize_with = "fields::present")]
    pub kind: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub bash: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub powershell: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub command: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub exec: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub args: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub cwd: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub env: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub timeout_sec: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub timeout: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub matcher: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub url: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub headers: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub allowed_env_vars: Option<Value>,
    /// Copilot CLI's docs use it for notes in examples: read, so that it is not reported.
    #[allow(dead_code)]
    #[serde(default, deserialize_with = "fields::present")]
    pub comment: Option<Value>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// Reads a lenient type from an object (every field is lenient: this cannot fail).
pub fn read<'a, T: Deserialize<'a> + Default>(obj: &'a Map<String, Value>) -> T {
    T::deserialize(obj).unwrap_or_default()
}
