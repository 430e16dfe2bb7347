//! Other agents' settings files, as far as hooks go: Claude Code's, Gemini CLI's and Codex's
//! nested `{"hooks": {Event: [{"matcher", "hooks": [...]}]}}`, ling's list of rules, and the
//! native hook object each hook becomes ([`NativeHookObject`], validated then by the native
//! config reader). Read leniently (a field of the wrong type is absent, and the reader in
//! `dialect/settings.rs` says what is wrong where it matters); the keys hookhost does not
//! implement are kept in `other`, verbatim, to be reported.

use super::fields;
use crate::dialect::Dialect;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The native hook object another agent's hook means, read then by the native config reader
/// (values are passed on as given: that reader checks them).
#[derive(Debug, Default, Serialize)]
pub(crate) struct NativeHookObject {
    pub(crate) dialect: Dialect,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) command: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) url: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) headers: Option<Value>,
    #[serde(rename = "allowedEnv", skip_serializing_if = "Option::is_none")]
    pub(crate) allowed_env: Option<Value>,
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub(crate) matcher: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) timeout: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
    #[serde(rename = "async", skip_serializing_if = "Option::is_none")]
    pub(crate) is_async: Option<Value>,
    /// Claude Code's `if` (a permission rule on the tool call).
    #[serde(rename = "if", skip_serializing_if = "Option::is_none")]
    pub(crate) condition: Option<Value>,
    /// `false` when a switch of its own file turns it off.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) enabled: Option<bool>,
    /// Cursor's `failClosed`, Copilot CLI's fail-closed PreToolUse: `"block"`.
    #[serde(rename = "onError", skip_serializing_if = "Option::is_none")]
    pub(crate) on_error: Option<Value>,
    /// Copilot CLI's `cwd`; Cursor's user hooks run in `~/.cursor`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) cwd: Option<Value>,
}

impl NativeHookObject {
    pub(crate) fn into_value(self) -> Value {
        // Plain data: serialising it cannot fail.
        serde_json::to_value(self).unwrap_or_default()
    }
}

/// The top of a Claude Code, Gemini CLI or Codex settings file, as far as hooks go.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct NestedRoot {
    /// Claude Code's switch, as written (Claude Code reads any value but `false`, `"false"`
    /// and `null` as on).
    #[serde(
        rename = "disableAllHooks",
        default,
        deserialize_with = "fields::present"
    )]
    pub(crate) disable_all_hooks: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) hooks: Option<Value>,
    /// Gemini CLI's switches (`hooksConfig`).
    #[serde(rename = "hooksConfig", default, deserialize_with = "fields::present")]
    pub(crate) hooks_config: Option<Value>,
}

/// Gemini CLI's `hooksConfig`: `enabled`, `disabled` (hook names, else commands) and
/// `notifications` (what its UI shows while a hook runs). Kept as written: the reader says
/// what is wrong with a value.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct GeminiSwitches {
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) enabled: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) disabled: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) notifications: Option<Value>,
    #[serde(flatten)]
    pub(crate) other: Map<String, Value>,
}

/// A matcher group; `other` holds the keys hookhost does not implement.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct NestedGroup {
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) matcher: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) hooks: Option<Value>,
    /// Gemini CLI's (not implemented: its hooks run in order anyway).
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) sequential: Option<Value>,
    #[serde(flatten)]
    pub(crate) other: Map<String, Value>,
}

/// One hook of a matcher group; `other` holds the keys hookhost does not implement.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct NestedEntry {
    #[serde(rename = "type", default, deserialize_with = "fields::string")]
    pub(crate) kind: Option<String>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) command: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) url: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) headers: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) allowed_env_vars: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) timeout: Option<Value>,
    #[serde(default, deserialize_with = "fields::string")]
    pub(crate) description: Option<String>,
    #[serde(default, deserialize_with = "fields::string")]
    pub(crate) status_message: Option<String>,
    #[serde(rename = "async", default, deserialize_with = "fields::boolean")]
    pub(crate) is_async: Option<bool>,
    #[serde(default, deserialize_with = "fields::string")]
    pub(crate) name: Option<String>,
    /// Claude Code's `if`.
    #[serde(rename = "if", default, deserialize_with = "fields::present")]
    pub(crate) condition: Option<Value>,
    #[serde(flatten)]
    pub(crate) other: Map<String, Value>,
}

/// One ling rule; `other` holds the keys hookhost does not implement.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct LingRule {
    #[serde(default, deserialize_with = "fields::string")]
    pub(crate) event: Option<String>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) matcher: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) handler: Option<Value>,
    #[serde(rename = "async", default, deserialize_with = "fields::present")]
    pub(crate) is_async: Option<Value>,
    #[serde(flatten)]
    pub(crate) other: Map<String, Value>,
}

/// A ling rule's `handler`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct LingHandler {
    #[serde(rename = "type", default, deserialize_with = "fields::string")]
    pub(crate) kind: Option<String>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) command: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) url: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) headers: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) timeout: Option<Value>,
}

/// The top of a Cursor `hooks.json` or a Copilot CLI `.github/hooks/*.json`:
/// `{"version": 1, "hooks": {event: [entry, ...]}}` (Copilot CLI: and `disableAllHooks`).
#[derive(Debug, Default, Deserialize)]
pub(crate) struct VersionedRoot {
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) version: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) hooks: Option<Value>,
    #[serde(
        rename = "disableAllHooks",
        default,
        deserialize_with = "fields::present"
    )]
    pub(crate) disable_all_hooks: Option<Value>,
    #[serde(flatten)]
    pub(crate) other: Map<String, Value>,
}

/// One hook of a Cursor `hooks.json` (cursor.com/docs/hooks); `other` holds the keys
/// hookhost does not implement.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct CursorEntry {
    #[serde(rename = "type", default, deserialize_with = "fields::present")]
    pub(crate) kind: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) command: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) timeout: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) matcher: Option<Value>,
    #[serde(rename = "failClosed", default, deserialize_with = "fields::present")]
    pub(crate) fail_closed: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) loop_limit: Option<Value>,
    #[serde(flatten)]
    pub(crate) other: Map<String, Value>,
}

/// One hook of a Copilot CLI hooks file (docs.github.com/en/copilot/reference/hooks-reference,
/// "Hook configuration format"); `other` holds the keys hookhost does not implement.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CopilotEntry {
    #[serde(rename = "type", default, deserialize_with = "fields::present")]
    pub(crate) kind: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) bash: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) powershell: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) command: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) exec: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) args: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) cwd: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) env: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) timeout_sec: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) timeout: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) matcher: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) url: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) headers: Option<Value>,
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) allowed_env_vars: Option<Value>,
    /// Copilot CLI's docs use it for notes in examples: read, so that it is not reported.
    #[allow(dead_code)]
    #[serde(default, deserialize_with = "fields::present")]
    pub(crate) comment: Option<Value>,
    #[serde(flatten)]
    pub(crate) other: Map<String, Value>,
}

/// Reads a lenient type from an object (every field is lenient: this cannot fail).
pub(crate) fn read<'a, T: Deserialize<'a> + Default>(obj: &'a Map<String, Value>) -> T {
    T::deserialize(obj).unwrap_or_default()
}
