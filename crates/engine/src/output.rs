//! Reading a hook's stdout: the JSON protocol of DESIGN §4.
//!
//! Plain text is always fine. Stdout that is a JSON object is read for `decision`/`reason`,
//! `blocked`/`blockReason` (the TypeScript agent's spelling), `updatedInput` (alias
//! `modifiedParams`), `updatedToolOutput`, `additionalContext`, `systemMessage`, and Claude
//! Code's `hookSpecificOutput` shape. Unknown keys beside known ones are ignored so hooks written
//! for other agents keep working; an answer with keys but none hookhost understands is
//! reported (a protocol mismatch is never silent); a known key with the wrong type, or two
//! spellings of one field that disagree, is a protocol error.

pub use hookhost_protocol::wire::StatedDecision;
use hookhost_protocol::wire::{Behavior, HookAnswer, SpecificOutput};
use serde::Deserialize;
use serde_json::{Map, Value};

/// Bytes of a hook's stdout and stderr kept, each (1 MiB): what every spawner captures and
/// the most of an answer this module reads.
pub const OUTPUT_CAP: usize = 1 << 20;

/// What a hook asked for through JSON on stdout.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HookResponse {
    /// The `decision` (or `permissionDecision`); `None` when the answer states none.
    pub decision: Option<JsonDecision>,
    /// `reason` (or `permissionDecisionReason`): the block reason or the force message.
    pub reason: Option<String>,
    /// `updatedInput` (alias `modifiedParams`): new tool arguments.
    pub updated_input: Option<Value>,
    /// `additionalContext`: text for the model.
    pub additional_context: Option<String>,
    /// `updatedToolOutput` (PostToolUse): what the model sees as the tool's result.
    pub updated_tool_output: Option<Value>,
    /// `updatedPrompt` (UserPromptSubmit): the prompt to send instead of the user's.
    pub updated_prompt: Option<String>,
    /// The top-level `decision` as written (`"allow"` and `"approve"` stay apart: dialects
    /// differ on which are valid).
    pub stated_decision: Option<StatedDecision>,
    /// Keys given only at the top level in hookhost's own spelling that Claude Code's family
    /// reads only inside `hookSpecificOutput` (`additionalContext`, `updatedToolOutput`).
    pub top_level_only: Vec<&'static str>,
    /// `systemMessage`: text for the user.
    pub system_message: Option<String>,
    /// `"continue": false`: stop the agent, with `stopReason` (or a default) as the reason.
    pub stop: Option<String>,
    /// `suppressOutput` (accepted; hookhost never puts a hook's stdout in a transcript).
    pub suppress_output: bool,
    /// Gemini CLI's `hookSpecificOutput.tool_input`: merged into the tool's arguments.
    pub tool_input_patch: Option<Value>,
    /// The decision as `hookSpecificOutput.permissionDecision` stated it (Codex's rules
    /// differ by spelling).
    pub permission_decision: Option<JsonDecision>,
    /// PermissionRequest: `hookSpecificOutput.decision` (`behavior` allow or deny).
    pub permission_request: Option<PermissionAnswer>,
    /// The answer's keys when it has some but none that hookhost understands (sorted, at
    /// most ten): a hook speaking another protocol, which the engine reports.
    pub unrecognized: Vec<String>,
    /// Cursor's `followup_message`: on Stop and SubagentStop, the agent goes on with it.
    pub followup: Option<String>,
    /// PermissionDenied: `hookSpecificOutput.retry`.
    pub retry: bool,
    /// WorktreeCreate: `hookSpecificOutput.worktreePath`.
    pub worktree_path: Option<String>,
    /// Elicitation, ElicitationResult: `hookSpecificOutput.action` and `content`.
    pub elicitation: Option<(String, Option<Value>)>,
    /// CwdChanged, FileChanged: `hookSpecificOutput.watchPaths`.
    pub watch_paths: Option<Vec<String>>,
}

/// A PermissionRequest answer (`hookSpecificOutput.decision`), as the engine weighs it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PermissionAnswer {
    /// `behavior: "allow"` (else deny).
    pub allow: bool,
    /// A deny's `message`.
    pub message: Option<String>,
    /// A deny's `interrupt: true`: stop the agent too.
    pub interrupt: bool,
    /// An allow that also rewrites the call or the permission rules.
    pub rewrites: bool,
}

/// Every top-level key of a JSON answer that hookhost reads: the fields of
/// [`HookAnswer`] (a unit test holds the two together).
pub const KNOWN_ANSWER_KEYS: &[&str] = &[
    "decision",
    "reason",
    "blocked",
    "blockReason",
    "updatedInput",
    "modifiedParams",
    "updatedToolOutput",
    "updatedPrompt",
    "additionalContext",
    "systemMessage",
    "hookSpecificOutput",
    "continue",
    "stopReason",
    "suppressOutput",
    "permission",
    "user_message",
    "agent_message",
    "followup_message",
    "permissionDecision",
    "permissionDecisionReason",
    "modifiedArgs",
    "cancel",
    "errorMessage",
    "contextModification",
];

/// The decision a hook's JSON answer states (`decision`, or Claude Code's
/// `hookSpecificOutput.permissionDecision`). Not to be confused with the agent's permission
/// rules (`agent::Permission`): this is what a hook asks for, which the decision table then
/// weighs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonDecision {
    /// `"decision": "block"` or `permissionDecision: "deny"`.
    Block,
    /// `"allow"`/`"approve"`: the same as passing. Hooks can block, never bypass: the
    /// permission checker still runs.
    Allow,
    /// `permissionDecision: "ask"`: hand the call to the permission prompt.
    Ask,
    /// `permissionDecision: "defer"` (Claude Code): no decision; the permission checker
    /// decides, or the agent hookhost answers for.
    Defer,
}

/// Parses stdout. `Ok(None)`: plain text (after an optional UTF-8 byte-order mark and
/// whitespace, it does not start with `{`). `Err`: it starts like a JSON answer but cannot be
/// read exactly: cut at the output cap (`truncated`), not UTF-8, not one well-formed JSON
/// object (trailing text, a second object, a NUL, nesting past 128 levels), a key given
/// twice, or a known field of the wrong type. The engine fails closed on such an answer where
/// a hook can block: an answer that cannot be read is never taken for a pass.
pub fn parse_stdout(stdout: &[u8], truncated: bool) -> Result<Option<HookResponse>, String> {
    let body = stdout.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(stdout);
    let start = body
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(body.len());
    if body.get(start) != Some(&b'{') {
        return Ok(None);
    }
    if truncated {
        return Err(format!(
            "the JSON answer was cut at the {} MiB output cap and cannot be read; answer with less",
            OUTPUT_CAP >> 20
        ));
    }
    let text = std::str::from_utf8(body)
        .map_err(|e| format!("the JSON answer is not valid UTF-8 ({e})"))?;
    let Strict(value) = serde_json::from_str::<Strict>(text)
        .map_err(|e| format!("the answer starts like JSON but is not one JSON object: {e}"))?;
    let Value::Object(obj) = value else {
        return Err("the answer starts like JSON but is not one JSON object".into());
    };
    let keys = obj.len();
    let answer = HookAnswer::deserialize(Value::Object(obj)).map_err(|e| e.to_string())?;
    let mut r = top_level(&answer)?;
    if keys > 0 && answer.other.len() == keys {
        r.unrecognized = answer.other.keys().take(10).cloned().collect();
    }
    if let Some(hso) = &answer.hook_specific_output {
        specific(hso, &mut r)?;
    }
    Ok(Some(r))
}

/// What the top-level fields ask for, the spellings checked against each other.
fn top_level(a: &HookAnswer) -> Result<HookResponse, String> {
    let mut r = HookResponse {
        decision: a.decision.map(JsonDecision::from),
        stated_decision: a.decision,
        reason: a.reason.clone(),
        ..HookResponse::default()
    };
    if let Some(b) = a.blocked {
        let d = if b {
            JsonDecision::Block
        } else {
            JsonDecision::Allow
        };
        if r.decision.is_some_and(|top| top != d) {
            return Err("`decision` and `blocked` disagree; give one".into());
        }
        r.decision = Some(d);
    }
    if let Some(why) = &a.block_reason {
        if r.reason.as_ref().is_some_and(|top| top != why) {
            return Err("`reason` and `blockReason` disagree; give one".into());
        }
        r.reason = Some(why.clone());
    }
    other_agents_decisions(a, &mut r)?;
    r.updated_input = one_input(&a.updated_input, &a.modified_params)?;
    if let Some(args) = one_input(&a.modified_args, &None)? {
        if r.updated_input.as_ref().is_some_and(|u| *u != args) {
            return Err("`updatedInput` and `modifiedArgs` disagree; give one".into());
        }
        r.updated_input = Some(args);
    }
    r.additional_context = a
        .additional_context
        .clone()
        .or_else(|| a.context_modification.clone().filter(|c| !c.is_empty()));
    r.updated_tool_output.clone_from(&a.updated_tool_output);
    r.updated_prompt.clone_from(&a.updated_prompt);
    let nested = a.hook_specific_output.as_ref();
    if a.additional_context.is_some() && nested.is_none_or(|h| h.additional_context.is_none()) {
        r.top_level_only.push("additionalContext");
    }
    if a.updated_tool_output.is_some() && nested.is_none_or(|h| h.updated_tool_output.is_none()) {
        r.top_level_only.push("updatedToolOutput");
    }
    // Cursor's and Copilot's own spellings (`modifiedArgs`, `modifiedParams`) are theirs at the
    // top level; hookhost's `updatedInput` is Claude Code's only inside `hookSpecificOutput`.
    if a.updated_input.is_some()
        && a.modified_params.is_none()
        && a.modified_args.is_none()
        && nested.is_none_or(|h| h.updated_input.is_none())
    {
        r.top_level_only.push("updatedInput");
    }
    r.system_message = match (&a.system_message, &a.user_message) {
        (Some(s), Some(u)) if s != u => Some(format!("{s}\n{u}")),
        (s, u) => s.clone().or_else(|| u.clone()),
    };
    if a.continue_ == Some(false) {
        r.stop = Some(
            a.stop_reason
                .clone()
                .or_else(|| a.user_message.clone())
                .filter(|s| !s.trim().is_empty())
                .unwrap_or_else(|| "a hook stopped the agent (continue: false)".into()),
        );
    }
    r.suppress_output = a.suppress_output.unwrap_or(false);
    r.followup = a.followup_message.clone().filter(|f| !f.trim().is_empty());
    Ok(r)
}

/// Cursor's `permission` and Copilot CLI's top-level `permissionDecision` are `decision`
/// spelt their way (all given must agree); `permissionDecisionReason`, then Cursor's
/// `agent_message`, then Cline's `errorMessage`, are the reason when `reason` is absent;
/// Cline's `cancel: true` is a block.
fn other_agents_decisions(a: &HookAnswer, r: &mut HookResponse) -> Result<(), String> {
    // Cline's `cancel: true` blocks; its `false` decides nothing (it is no allow).
    let cancel = (a.cancel == Some(true)).then_some(StatedDecision::Block);
    for (key, stated) in [
        ("permission", a.permission),
        ("permissionDecision", a.permission_decision),
        ("cancel", cancel),
    ] {
        let Some(d) = stated.map(JsonDecision::from) else {
            continue;
        };
        if r.decision.is_some_and(|top| top != d) {
            return Err(format!(
                "`{key}` disagrees with the answer's other decision (`decision`, `blocked`, `permission` or `permissionDecision`); give one"
            ));
        }
        r.decision = Some(d);
    }
    if r.reason.is_none() {
        r.reason = a
            .permission_decision_reason
            .clone()
            .or_else(|| a.agent_message.clone())
            .or_else(|| a.error_message.clone().filter(|m| !m.trim().is_empty()));
    }
    Ok(())
}

/// What `hookSpecificOutput` adds (Claude Code's shape), checked against the top level.
fn specific(hso: &SpecificOutput, r: &mut HookResponse) -> Result<(), String> {
    if let Some(d) = hso.permission_decision {
        let nested = JsonDecision::from(d);
        if r.decision.is_some_and(|top| top != nested) {
            return Err(
                "`decision` and `hookSpecificOutput.permissionDecision` disagree; give one".into(),
            );
        }
        r.decision = Some(nested);
        r.permission_decision = Some(nested);
    }
    if let Some(reason) = &hso.permission_decision_reason {
        r.reason = Some(reason.clone());
    }
    if let Some(u) = one_input(&hso.updated_input, &hso.modified_params)? {
        if r.updated_input.as_ref().is_some_and(|top| *top != u) {
            return Err(
                "`updatedInput` and `hookSpecificOutput.updatedInput` disagree; give one".into(),
            );
        }
        r.updated_input = Some(u);
    }
    if let Some(c) = &hso.additional_context {
        r.additional_context = Some(c.clone());
    }
    if let Some(out) = one_tool_output(&hso.updated_tool_output, &hso.updated_mcp_tool_output)? {
        if r.updated_tool_output
            .as_ref()
            .is_some_and(|top| *top != out)
        {
            return Err(
                "`updatedToolOutput` and `hookSpecificOutput.updatedToolOutput` disagree; give one"
                    .into(),
            );
        }
        r.updated_tool_output = Some(out);
    }
    if let Some(p) = &hso.updated_prompt {
        if r.updated_prompt.as_ref().is_some_and(|top| top != p) {
            return Err(
                "`updatedPrompt` and `hookSpecificOutput.updatedPrompt` disagree; give one".into(),
            );
        }
        r.updated_prompt = Some(p.clone());
    }
    r.tool_input_patch.clone_from(&hso.tool_input);
    r.permission_request = hso.decision.as_ref().map(|p| PermissionAnswer {
        allow: p.behavior == Behavior::Allow,
        message: p.message.clone(),
        interrupt: p.interrupt == Some(true),
        rewrites: p.updated_input.is_some() || p.updated_permissions.is_some(),
    });
    r.retry = hso.retry == Some(true);
    r.worktree_path = hso.worktree_path.clone().filter(|p| !p.trim().is_empty());
    if let Some(action) = &hso.action {
        if !matches!(action.as_str(), "accept" | "decline" | "cancel") {
            return Err(format!(
                "`hookSpecificOutput.action` must be \"accept\", \"decline\" or \"cancel\", got {action:?}"
            ));
        }
        r.elicitation = Some((action.clone(), hso.content.clone()));
    }
    r.watch_paths.clone_from(&hso.watch_paths);
    Ok(())
}

impl From<StatedDecision> for JsonDecision {
    fn from(d: StatedDecision) -> Self {
        match d {
            StatedDecision::Block | StatedDecision::Deny => JsonDecision::Block,
            StatedDecision::Allow | StatedDecision::Approve => JsonDecision::Allow,
            StatedDecision::Ask => JsonDecision::Ask,
            StatedDecision::Defer => JsonDecision::Defer,
        }
    }
}

/// `updatedInput`, or its alias `modifiedParams`; both given and different is an error (which
/// one the hook meant is not for the host to guess).
fn one_input(updated: &Option<Value>, modified: &Option<Value>) -> Result<Option<Value>, String> {
    match (updated, modified) {
        (Some(u), Some(m)) if u != m => {
            Err("`updatedInput` and `modifiedParams` disagree; give one".to_string())
        }
        (Some(v), _) | (None, Some(v)) => Ok(Some(v.clone())),
        (None, None) => Ok(None),
    }
}

/// `hookSpecificOutput.updatedToolOutput`, or its older spelling `updatedMCPToolOutput`
/// (Claude Code still applies it to MCP tools); both given must agree.
fn one_tool_output(updated: &Option<Value>, mcp: &Option<Value>) -> Result<Option<Value>, String> {
    match (updated, mcp) {
        (Some(u), Some(m)) if u != m => Err(
            "`hookSpecificOutput.updatedToolOutput` and `hookSpecificOutput.updatedMCPToolOutput` disagree; give one"
                .to_string(),
        ),
        (Some(v), _) | (None, Some(v)) => Ok(Some(v.clone())),
        (None, None) => Ok(None),
    }
}

/// A JSON value read strictly: a key that appears twice in one object is an error (which of
/// two `decision`s a hook meant is not for the host to guess).
struct Strict(Value);

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut obj = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let Strict(v) = map.next_value()?;
            if obj.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the key `{key}` appears twice"
                )));
            }
            obj.insert(key, v);
        }
        Ok(Value::Object(obj))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_known_keys_are_the_answer_types_fields() {
        let schema = hookhost_protocol::schema::schemas()
            .into_iter()
            .find(|(name, _)| *name == "answer.schema.json")
            .unwrap()
            .1;
        let mut fields: Vec<&str> = schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut known = KNOWN_ANSWER_KEYS.to_vec();
        fields.sort_unstable();
        known.sort_unstable();
        assert_eq!(fields, known);
    }

    #[test]
    fn messages_name_the_field_and_show_the_value() {
        let err = |s: &str| parse_stdout(s.as_bytes(), false).unwrap_err();
        assert_eq!(err(r#"{"reason":5}"#), "`reason` must be a string, got 5");
        assert_eq!(
            err(r#"{"decision":null}"#),
            r#"`decision` must be "block"/"deny", "allow", "ask" or "defer", got null"#
        );
        assert_eq!(
            err(r#"{"blocked":"yes"}"#),
            r#"`blocked` must be true or false, got "yes""#
        );
        assert_eq!(
            err(r#"{"continue":1}"#),
            "`continue` must be true or false, got 1"
        );
        assert_eq!(
            err(r#"{"updatedInput":"rm"}"#),
            r#"`updatedInput` must be an object holding the new tool arguments, got "rm""#
        );
        assert_eq!(
            err(r#"{"hookSpecificOutput":[]}"#),
            "`hookSpecificOutput` must be an object"
        );
        assert_eq!(
            err(r#"{"hookSpecificOutput":{"permissionDecision":"maybe"}}"#),
            r#"`hookSpecificOutput.permissionDecision` must be "block"/"deny", "allow", "ask" or "defer", got "maybe""#
        );
        assert_eq!(
            err(r#"{"hookSpecificOutput":{"tool_input":1}}"#),
            "`hookSpecificOutput.tool_input` must be an object of arguments to merge, got 1"
        );
        assert_eq!(
            err(r#"{"updatedInput":{"a":1},"modifiedParams":{"a":2}}"#),
            "`updatedInput` and `modifiedParams` disagree; give one"
        );
        assert_eq!(
            err(r#"{"decision":"block","hookSpecificOutput":{"permissionDecision":"allow"}}"#),
            "`decision` and `hookSpecificOutput.permissionDecision` disagree; give one"
        );
        let r = parse_stdout(br#"{"continue":false,"stopReason":" ","suppressOutput":true,"hookSpecificOutput":{"tool_input":{"a":1}}}"#, false)
            .unwrap()
            .unwrap();
        assert_eq!(
            r.stop.as_deref(),
            Some("a hook stopped the agent (continue: false)")
        );
        assert!(r.suppress_output);
        assert_eq!(r.tool_input_patch, Some(json!({"a": 1})));
        let r = parse_stdout(br#"{"reason":null,"x":1}"#, false)
            .unwrap()
            .unwrap();
        assert_eq!(r.unrecognized, Vec::<String>::new());
    }

    #[test]
    fn plain_text_is_text_and_broken_json_is_an_error() {
        assert_eq!(parse_stdout(b"hello", false), Ok(None));
        assert_eq!(parse_stdout(b"", false), Ok(None));
        assert_eq!(parse_stdout(b"[1]", false), Ok(None));
        for bad in [
            &b"{not json"[..],
            b"{\"decision\":\"block\"} trailing",
            b"{\"decision\":\"block\"}{\"decision\":\"allow\"}",
            b"{\"decision\":\"block\"}\0",
            b"{\"decision\":\"block\",\"decision\":\"allow\"}",
            b"{\"reason\":\"\xff\"}",
        ] {
            assert!(
                parse_stdout(bad, false).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
        assert!(parse_stdout(b"{\"decision\":\"block\"}", true).is_err());
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let r = parse_stdout(b"\xEF\xBB\xBF {\"decision\":\"block\"}", false)
            .unwrap()
            .unwrap();
        assert_eq!(r.decision, Some(JsonDecision::Block));
    }

    #[test]
    fn reads_clines_answers() {
        let read = |s: &str| parse_stdout(s.as_bytes(), false).unwrap().unwrap();
        // tests/fixtures/agents/cline/answer-PreToolUse-deny.json
        let r = read(r#"{"cancel": true, "errorMessage": "no .js here"}"#);
        assert_eq!(r.decision, Some(JsonDecision::Block));
        assert_eq!(r.reason.as_deref(), Some("no .js here"));
        assert!(r.unrecognized.is_empty());
        // `cancel: false` decides nothing; contextModification is context.
        let r = read(r#"{"cancel": false, "contextModification": "PERFORMANCE: slow"}"#);
        assert_eq!(r.decision, None);
        assert_eq!(r.additional_context.as_deref(), Some("PERFORMANCE: slow"));
        assert!(parse_stdout(br#"{"cancel": "yes"}"#, false).is_err());
    }

    #[test]
    fn reads_cursors_and_copilots_answers() {
        let read = |s: &str| parse_stdout(s.as_bytes(), false).unwrap().unwrap();
        // tests/fixtures/dialects/cursor/answer-beforeShellExecution-deny.json
        let r = read(
            r#"{"permission": "deny", "user_message": "no rm", "agent_message": "blocked: no rm"}"#,
        );
        assert_eq!(r.decision, Some(JsonDecision::Block));
        assert_eq!(r.reason.as_deref(), Some("blocked: no rm"));
        assert_eq!(r.system_message.as_deref(), Some("no rm"));
        assert!(r.unrecognized.is_empty());
        let r = read(r#"{"continue": false, "user_message": "secret in prompt"}"#);
        assert_eq!(r.stop.as_deref(), Some("secret in prompt"));
        let r = read(r#"{"followup_message": "run the tests"}"#);
        assert_eq!(
            (r.decision, r.followup.as_deref()),
            (None, Some("run the tests"))
        );
        assert_eq!(
            read(r#"{"permission": "ask"}"#).decision,
            Some(JsonDecision::Ask)
        );
        // tests/fixtures/dialects/copilot/answer-preToolUse-deny.json
        let r = read(
            r#"{"permissionDecision": "deny", "permissionDecisionReason": "Destructive operations require approval"}"#,
        );
        assert_eq!(r.decision, Some(JsonDecision::Block));
        assert_eq!(
            r.reason.as_deref(),
            Some("Destructive operations require approval")
        );
        // Not Claude Code's nested permissionDecision (Codex's rules read that one).
        assert_eq!(r.permission_decision, None);
        let r = read(r#"{"modifiedArgs": {"command": "ls"}}"#);
        assert_eq!(r.updated_input, Some(json!({"command": "ls"})));
        let err = |s: &str| parse_stdout(s.as_bytes(), false).unwrap_err();
        assert_eq!(
            err(r#"{"permission": "maybe"}"#),
            r#"`permission` must be "block"/"deny", "allow", "ask" or "defer", got "maybe""#
        );
        assert!(err(r#"{"decision": "block", "permission": "allow"}"#).contains("disagrees"));
        assert!(
            err(r#"{"updatedInput": {"a": 1}, "modifiedArgs": {"a": 2}}"#).contains("disagree")
        );
        assert_eq!(
            err(r#"{"user_message": 1}"#),
            "`user_message` must be a string, got 1"
        );
    }

    #[test]
    fn reads_the_native_shape() {
        let r = parse_stdout(
            br#"{"decision":"block","reason":"no","systemMessage":"hi"}"#,
            false,
        )
        .unwrap()
        .unwrap();
        assert_eq!(r.decision, Some(JsonDecision::Block));
        assert_eq!(r.reason.as_deref(), Some("no"));
        assert_eq!(r.system_message.as_deref(), Some("hi"));
    }

    #[test]
    fn modified_params_is_an_alias() {
        let r = parse_stdout(br#"{"modifiedParams":{"command":"ls"}}"#, false)
            .unwrap()
            .unwrap();
        assert_eq!(r.updated_input, Some(json!({"command":"ls"})));
    }

    #[test]
    fn reads_claude_codes_shape() {
        let r = parse_stdout(
            br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"nope","updatedInput":{"a":1},"additionalContext":"ctx"}}"#,
            false,
        )
        .unwrap()
        .unwrap();
        assert_eq!(r.decision, Some(JsonDecision::Block));
        assert_eq!(r.reason.as_deref(), Some("nope"));
        assert_eq!(r.updated_input, Some(json!({"a":1})));
        assert_eq!(r.additional_context.as_deref(), Some("ctx"));
        let ask = parse_stdout(
            br#"{"hookSpecificOutput":{"permissionDecision":"ask"}}"#,
            false,
        )
        .unwrap()
        .unwrap();
        assert_eq!(ask.decision, Some(JsonDecision::Ask));
    }

    #[test]
    fn updated_prompt_at_the_top_or_nested_must_agree() {
        let r = parse_stdout(br#"{"updatedPrompt":"new"}"#, false)
            .unwrap()
            .unwrap();
        assert_eq!(r.updated_prompt.as_deref(), Some("new"));
        let nested =
            br#"{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","updatedPrompt":"new"}}"#;
        let r = parse_stdout(nested, false).unwrap().unwrap();
        assert_eq!(r.updated_prompt.as_deref(), Some("new"));
        let both = br#"{"updatedPrompt":"a","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","updatedPrompt":"b"}}"#;
        assert!(parse_stdout(both, false).unwrap_err().contains("disagree"));
        assert!(
            parse_stdout(br#"{"updatedPrompt":5}"#, false)
                .unwrap_err()
                .contains("`updatedPrompt` must be a string")
        );
    }

    #[test]
    fn defer_updated_tool_output_and_what_sits_only_at_the_top() {
        let r = parse_stdout(
            br#"{"hookSpecificOutput":{"permissionDecision":"defer","updatedToolOutput":{"stdout":"[redacted]"}}}"#,
            false,
        )
        .unwrap()
        .unwrap();
        assert_eq!(r.decision, Some(JsonDecision::Defer));
        assert_eq!(r.updated_tool_output, Some(json!({"stdout": "[redacted]"})));
        assert!(r.top_level_only.is_empty());
        let r = parse_stdout(
            br#"{"decision":"allow","additionalContext":"c","updatedToolOutput":"x"}"#,
            false,
        )
        .unwrap()
        .unwrap();
        assert_eq!(r.stated_decision, Some(StatedDecision::Allow));
        assert_eq!(r.top_level_only, ["additionalContext", "updatedToolOutput"]);
        let r = parse_stdout(br#"{"updatedInput":{"command":"ls"}}"#, false)
            .unwrap()
            .unwrap();
        assert_eq!(r.top_level_only, ["updatedInput"]);
        let r = parse_stdout(
            br#"{"updatedInput":{"command":"ls"},"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls"}}}"#,
            false,
        )
        .unwrap()
        .unwrap();
        assert!(r.top_level_only.is_empty());
        let r = parse_stdout(br#"{"updatedToolOutput":null}"#, false)
            .unwrap()
            .unwrap();
        assert_eq!(r.updated_tool_output, None);
        assert_eq!(
            parse_stdout(
                br#"{"updatedToolOutput":"a","hookSpecificOutput":{"updatedToolOutput":"b"}}"#,
                false
            )
            .unwrap_err(),
            "`updatedToolOutput` and `hookSpecificOutput.updatedToolOutput` disagree; give one"
        );
    }

    #[test]
    fn the_older_updated_mcp_tool_output_is_an_alias() {
        let r = parse_stdout(
            br#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":{"content":"[redacted]"}}}"#,
            false,
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            r.updated_tool_output,
            Some(json!({"content": "[redacted]"}))
        );
        assert!(r.top_level_only.is_empty());
        let same =
            br#"{"hookSpecificOutput":{"updatedToolOutput":"x","updatedMCPToolOutput":"x"}}"#;
        let r = parse_stdout(same, false).unwrap().unwrap();
        assert_eq!(r.updated_tool_output, Some(json!("x")));
        assert_eq!(
            parse_stdout(
                br#"{"hookSpecificOutput":{"updatedToolOutput":"a","updatedMCPToolOutput":"b"}}"#,
                false
            )
            .unwrap_err(),
            "`hookSpecificOutput.updatedToolOutput` and `hookSpecificOutput.updatedMCPToolOutput` disagree; give one"
        );
        assert_eq!(
            parse_stdout(
                br#"{"updatedToolOutput":"a","hookSpecificOutput":{"updatedMCPToolOutput":"b"}}"#,
                false
            )
            .unwrap_err(),
            "`updatedToolOutput` and `hookSpecificOutput.updatedToolOutput` disagree; give one"
        );
        let r = parse_stdout(
            br#"{"hookSpecificOutput":{"updatedMCPToolOutput":null}}"#,
            false,
        )
        .unwrap()
        .unwrap();
        assert_eq!(r.updated_tool_output, None);
    }

    #[test]
    fn wrong_types_are_protocol_errors() {
        assert!(parse_stdout(br#"{"decision":"maybe"}"#, false).is_err());
        assert!(parse_stdout(br#"{"updatedInput":"rm"}"#, false).is_err());
        assert!(parse_stdout(br#"{"reason":5}"#, false).is_err());
    }

    #[test]
    fn the_typescript_agents_spelling_blocks_and_a_foreign_answer_is_noticed() {
        let r = parse_stdout(br#"{"blocked":true,"blockReason":"no"}"#, false)
            .unwrap()
            .unwrap();
        assert_eq!(r.decision, Some(JsonDecision::Block));
        assert_eq!(r.reason.as_deref(), Some("no"));
        assert!(parse_stdout(br#"{"blocked":true,"decision":"allow"}"#, false).is_err());
        assert!(parse_stdout(br#"{"blocked":"yes"}"#, false).is_err());
        let r = parse_stdout(br#"{"ok":true,"verdict":"deny"}"#, false)
            .unwrap()
            .unwrap();
        assert_eq!(r.unrecognized, ["ok", "verdict"]);
        let r = parse_stdout(br#"{"ok":true,"reason":"x"}"#, false)
            .unwrap()
            .unwrap();
        assert!(r.unrecognized.is_empty());
    }
}
