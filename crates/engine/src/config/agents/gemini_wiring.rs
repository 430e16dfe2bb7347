//! Whether Gemini CLI runs hookhost's adapter before each model request: the condition for
//! `hookhost hook --for gemini` to let a prompt a hook replaced through (it then rewrites the
//! request at BeforeModel; elsewhere the original is blocked).
//!
//! Only the user's own `~/.gemini/settings.json` counts as wiring: a project's
//! `.gemini/settings.json` is the repository's, and a wiring it claimed could be false (a
//! BeforeModel entry Gemini CLI never runs, in a folder it does not trust), which would let the
//! original prompt reach the model. A project's file can only take the wiring away:
//! `hooksConfig.disabled` naming the entry, as Gemini CLI merges that list from every file.
//! The entry counts when its group has no matcher (or `""`, `"*"`), it is a `command` hook
//! running `hookhost hook --for gemini`, and neither file disables it (`hooksConfig.enabled:
//! false` in the user's file, `hooksConfig.disabled` naming it: by `name`, else by command,
//! as Gemini CLI 0.61 names a hook).

use crate::files::read_bounded;
use serde_json::Value;
use std::path::Path;

/// A settings file larger than this is not read: 4 MiB.
const SETTINGS_LIMIT: u64 = 4 << 20;

/// Where the user is told to wire the adapter.
pub const GEMINI_BEFORE_MODEL_FIX: &str = "add {\"hooks\": [{\"type\": \"command\", \"command\": \"hookhost hook --for gemini\"}]} to \"hooks\": {\"BeforeModel\": [...]} in ~/.gemini/settings.json";

/// `Ok` when the user's Gemini CLI settings under `home` run the adapter on BeforeModel and
/// the project at `project` does not disable it; `Err` says why not.
pub fn gemini_before_model_wiring(home: &Path, project: &Path) -> Result<(), String> {
    let user_file = home.join(".gemini/settings.json");
    let user = match settings(&user_file)? {
        Some(v) => v,
        None => return Err(format!("{} does not exist", user_file.display())),
    };
    let mut disabled = disabled_names(&user);
    // The project's file only takes away (a file that cannot be read takes nothing away,
    // as Gemini CLI then starts without it).
    if project != home
        && let Ok(Some(p)) = settings(&project.join(".gemini/settings.json"))
    {
        disabled.extend(disabled_names(&p));
    }
    if user.pointer("/hooksConfig/enabled") == Some(&Value::Bool(false)) {
        return Err(format!(
            "{} turns Gemini CLI's hooks off (\"hooksConfig\": {{\"enabled\": false}})",
            user_file.display()
        ));
    }
    let entries = before_model_adapters(&user);
    if entries.is_empty() {
        return Err(format!(
            "{} runs no `hookhost hook --for gemini` on BeforeModel (with no matcher)",
            user_file.display()
        ));
    }
    if entries.iter().all(|name| disabled.contains(name)) {
        return Err(format!(
            "its BeforeModel entry in {} is listed in \"hooksConfig\".\"disabled\" (there or in the project's .gemini/settings.json)",
            user_file.display()
        ));
    }
    Ok(())
}

/// The file as JSON with comments (as Gemini CLI reads it); `None` when it does not exist.
fn settings(file: &Path) -> Result<Option<Value>, String> {
    match read_bounded(file, SETTINGS_LIMIT) {
        Err(e) if e.is_not_found() => Ok(None),
        Err(e) => Err(e.to_string()),
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            serde_json::from_str(&crate::jsonc::strip_comments(&text))
                .map(Some)
                .map_err(|e| format!("{} is not valid JSON: {e}", file.display()))
        }
    }
}

/// The names in a file's `hooksConfig.disabled`.
fn disabled_names(root: &Value) -> Vec<String> {
    root.pointer("/hooksConfig/disabled")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// Gemini CLI's name of each BeforeModel entry that runs the adapter for Gemini CLI in a
/// group without a matcher: its `name`, else its command.
fn before_model_adapters(root: &Value) -> Vec<String> {
    let groups = root
        .pointer("/hooks/BeforeModel")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    groups
        .iter()
        .filter(|g| {
            matches!(g.get("matcher"), None | Some(Value::Null))
                || matches!(g.get("matcher").and_then(Value::as_str), Some("" | "*"))
        })
        .filter_map(|g| g.get("hooks").and_then(Value::as_array))
        .flatten()
        .filter(|h| h.get("type").and_then(Value::as_str) == Some("command"))
        .filter_map(|h| {
            let command = h.get("command").and_then(Value::as_str)?;
            runs_adapter_for_gemini(command).then(|| {
                h.get("name")
                    .and_then(Value::as_str)
                    .filter(|n| !n.is_empty())
                    .unwrap_or(command)
                    .to_string()
            })
        })
        .collect()
}

/// `hookhost hook --for gemini` (or `--for=gemini`), as [`super::is_adapter`] recognises the
/// adapter's command.
fn runs_adapter_for_gemini(command: &str) -> bool {
    if !super::is_adapter(command) {
        return false;
    }
    let words = shlex::split(command).unwrap_or_default();
    words.iter().any(|w| w == "--for=gemini")
        || words
            .windows(2)
            .any(|w| w[0] == "--for" && w[1] == "gemini")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wiring(user: Option<&str>, project: Option<&str>) -> Result<(), String> {
        let home = tempfile::tempdir().unwrap();
        let project_dir = home.path().join("p");
        std::fs::create_dir_all(project_dir.join(".gemini")).unwrap();
        std::fs::create_dir_all(home.path().join(".gemini")).unwrap();
        if let Some(u) = user {
            std::fs::write(home.path().join(".gemini/settings.json"), u).unwrap();
        }
        if let Some(p) = project {
            std::fs::write(project_dir.join(".gemini/settings.json"), p).unwrap();
        }
        gemini_before_model_wiring(home.path(), &project_dir)
    }

    const WIRED: &str = r#"{
      // the user's own
      "hooks": {"BeforeModel": [{"hooks": [{"type": "command", "command": "/usr/local/bin/hookhost hook --for gemini --home /h"}]}]}}"#;

    #[test]
    fn only_the_users_own_wiring_counts() {
        assert_eq!(wiring(Some(WIRED), None), Ok(()));
        // The same entry in the project's file does not count.
        let e = wiring(Some("{}"), Some(WIRED)).unwrap_err();
        assert!(
            e.contains("runs no `hookhost hook --for gemini` on BeforeModel"),
            "{e}"
        );
        assert!(
            wiring(None, Some(WIRED))
                .unwrap_err()
                .contains("does not exist")
        );
    }

    #[test]
    fn a_matcher_another_agent_or_a_switch_is_no_wiring() {
        for user in [
            r#"{"hooks": {"BeforeModel": [{"matcher": "x", "hooks": [{"type": "command", "command": "hookhost hook --for gemini"}]}]}}"#,
            r#"{"hooks": {"BeforeModel": [{"hooks": [{"type": "command", "command": "hookhost hook --for claude"}]}]}}"#,
            r#"{"hooks": {"BeforeModel": [{"hooks": [{"type": "command", "command": "hookhost hook --for gemini; true"}]}]}}"#,
            r#"{"hooks": {"BeforeAgent": [{"hooks": [{"type": "command", "command": "hookhost hook --for gemini"}]}]}}"#,
        ] {
            assert!(wiring(Some(user), None).is_err(), "{user}");
        }
        let star = r#"{"hooks": {"BeforeModel": [{"matcher": "*", "hooks": [{"type": "command", "command": "hookhost hook --for=gemini"}]}]}}"#;
        assert_eq!(wiring(Some(star), None), Ok(()));
        let off = r#"{"hooksConfig": {"enabled": false}, "hooks": {"BeforeModel": [{"hooks": [{"type": "command", "command": "hookhost hook --for gemini"}]}]}}"#;
        assert!(wiring(Some(off), None).unwrap_err().contains("enabled"));
    }

    #[test]
    fn a_project_can_take_the_wiring_away_but_not_give_it() {
        let named = r#"{"hooks": {"BeforeModel": [{"hooks": [{"type": "command", "name": "hh", "command": "hookhost hook --for gemini"}]}]}}"#;
        let e = wiring(
            Some(named),
            Some(r#"{"hooksConfig": {"disabled": ["hh"]}}"#),
        )
        .unwrap_err();
        assert!(e.contains("disabled"), "{e}");
        let by_command = wiring(
            Some(WIRED),
            Some(
                r#"{"hooksConfig": {"disabled": ["/usr/local/bin/hookhost hook --for gemini --home /h"]}}"#,
            ),
        );
        assert!(by_command.is_err());
        // A project's list that names another hook takes nothing away.
        assert_eq!(
            wiring(
                Some(named),
                Some(r#"{"hooksConfig": {"disabled": ["other"]}}"#)
            ),
            Ok(())
        );
    }
}
