//! Reading a hook's stdout: the JSON protocol of DESIGN §4.
//!
//! Plain text is always fine. Stdout that is a JSON object is read for `decision`/`reason`,
//! `updatedInput` (alias `modifiedParams`), `additionalContext`, `systemMessage`, and Claude
//! Code's `hookSpecificOutput` shape. Unknown keys are ignored so hooks written for other
//! agents keep working; a known key with the wrong type is a protocol error the engine
//! reports (never silently dropped).

use serde_json::{Map, Value};

/// What a hook asked for through JSON on stdout.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HookResponse {
    pub permission: Option<Permission>,
    pub reason: Option<String>,
    pub updated_input: Option<Value>,
    pub additional_context: Option<String>,
    pub system_message: Option<String>,
}

/// The decision a hook's JSON states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permission {
    /// `"decision": "block"` or `permissionDecision: "deny"`.
    Block,
    /// `"allow"`/`"approve"`: the same as passing. Hooks can block, never bypass: the
    /// permission checker still runs.
    Allow,
    /// `permissionDecision: "ask"`: hand the call to the permission prompt.
    Ask,
}

/// Parses stdout. `Ok(None)`: not a JSON object (plain text). `Err`: a JSON object whose
/// known fields are malformed; the message says which and how.
pub fn parse_stdout(stdout: &[u8]) -> Result<Option<HookResponse>, String> {
    let text = String::from_utf8_lossy(stdout);
    let trimmed = text.trim();
    if !trimmed.starts_with('{') {
        return Ok(None);
    }
    let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(trimmed) else {
        return Ok(None);
    };
    let mut r = HookResponse::default();
    if let Some(d) = obj.get("decision") {
        r.permission = Some(permission(d, "decision")?);
    }
    r.reason = string(&obj, "reason")?;
    r.updated_input = input(&obj)?;
    r.additional_context = string(&obj, "additionalContext")?;
    r.system_message = string(&obj, "systemMessage")?;

    match obj.get("hookSpecificOutput") {
        None | Some(Value::Null) => {}
        Some(Value::Object(hso)) => {
            if let Some(d) = hso.get("permissionDecision") {
                r.permission = Some(permission(d, "hookSpecificOutput.permissionDecision")?);
            }
            if let Some(reason) = string(hso, "permissionDecisionReason")? {
                r.reason = Some(reason);
            }
            if let Some(u) = input(hso)? {
                r.updated_input = Some(u);
            }
            if let Some(c) = string(hso, "additionalContext")? {
                r.additional_context = Some(c);
            }
        }
        Some(_) => return Err("`hookSpecificOutput` must be an object".into()),
    }
    Ok(Some(r))
}

fn permission(v: &Value, key: &str) -> Result<Permission, String> {
    match v.as_str() {
        Some("block" | "deny") => Ok(Permission::Block),
        Some("allow" | "approve") => Ok(Permission::Allow),
        Some("ask") => Ok(Permission::Ask),
        _ => Err(format!(
            "`{key}` must be \"block\"/\"deny\", \"allow\" or \"ask\", got {v}"
        )),
    }
}

fn string(obj: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(v) => Err(format!("`{key}` must be a string, got {v}")),
    }
}

fn input(obj: &Map<String, Value>) -> Result<Option<Value>, String> {
    for key in ["updatedInput", "modifiedParams"] {
        match obj.get(key) {
            None | Some(Value::Null) => {}
            Some(v @ Value::Object(_)) => return Ok(Some(v.clone())),
            Some(v) => {
                return Err(format!(
                    "`{key}` must be an object holding the new tool arguments, got {v}"
                ));
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plain_text_and_broken_json_are_text() {
        assert_eq!(parse_stdout(b"hello"), Ok(None));
        assert_eq!(parse_stdout(b"{not json"), Ok(None));
        assert_eq!(parse_stdout(b""), Ok(None));
    }

    #[test]
    fn reads_the_native_shape() {
        let r = parse_stdout(br#"{"decision":"block","reason":"no","systemMessage":"hi"}"#)
            .unwrap()
            .unwrap();
        assert_eq!(r.permission, Some(Permission::Block));
        assert_eq!(r.reason.as_deref(), Some("no"));
        assert_eq!(r.system_message.as_deref(), Some("hi"));
    }

    #[test]
    fn modified_params_is_an_alias() {
        let r = parse_stdout(br#"{"modifiedParams":{"command":"ls"}}"#)
            .unwrap()
            .unwrap();
        assert_eq!(r.updated_input, Some(json!({"command":"ls"})));
    }

    #[test]
    fn reads_claude_codes_shape() {
        let r = parse_stdout(
            br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"nope","updatedInput":{"a":1},"additionalContext":"ctx"}}"#,
        )
        .unwrap()
        .unwrap();
        assert_eq!(r.permission, Some(Permission::Block));
        assert_eq!(r.reason.as_deref(), Some("nope"));
        assert_eq!(r.updated_input, Some(json!({"a":1})));
        assert_eq!(r.additional_context.as_deref(), Some("ctx"));
        let ask = parse_stdout(br#"{"hookSpecificOutput":{"permissionDecision":"ask"}}"#)
            .unwrap()
            .unwrap();
        assert_eq!(ask.permission, Some(Permission::Ask));
    }

    #[test]
    fn wrong_types_are_protocol_errors() {
        assert!(parse_stdout(br#"{"decision":"maybe"}"#).is_err());
        assert!(parse_stdout(br#"{"updatedInput":"rm"}"#).is_err());
        assert!(parse_stdout(br#"{"reason":5}"#).is_err());
    }
}
