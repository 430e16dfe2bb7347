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
//!
//! It also takes a model the user's file pins (`"model": {"name": ...}`, not Gemini CLI's
//! `auto`): with `auto`, Gemini CLI first asks a small model which model should answer,
//! sending it the prompt as the user typed it in a request no hook sees (its router's
//! classifier). A project's file or `$GEMINI_MODEL` (which a project's `.env` can set) naming
//! an `auto` model takes it away, as they come before the user's file in Gemini CLI's order
//! (`-m` on the command line, which comes first, is the user's own).

use crate::files::read_bounded;
use serde_json::Value;
use std::path::Path;

/// A settings file larger than this is not read: 4 MiB.
const SETTINGS_LIMIT: u64 = 4 << 20;

/// Where the user is told to wire the adapter.
pub const GEMINI_BEFORE_MODEL_FIX: &str = "in ~/.gemini/settings.json, add {\"hooks\": [{\"type\": \"command\", \"command\": \"hookhost hook --for gemini\"}]} to \"hooks\": {\"BeforeModel\": [...]} and pin a model (\"model\": {\"name\": \"gemini-2.5-pro\"}, not \"auto\")";

/// `Ok` when the user's Gemini CLI settings under `home` run the adapter on BeforeModel and
/// pin a model, and neither the project at `project` nor `env_model` (`$GEMINI_MODEL` as
/// Gemini CLI passed it) takes that away; `Err` says why not.
pub fn gemini_before_model_wiring(
    home: &Path,
    project: &Path,
    env_model: Option<&str>,
) -> Result<(), String> {
    let user_file = home.join(".gemini/settings.json");
    let user = match settings(&user_file)? {
        Some(v) => v,
        None => return Err(format!("{} does not exist", user_file.display())),
    };
    let mut disabled = disabled_names(&user);
    // The project's file only takes away (a file that cannot be read takes nothing away,
    // as Gemini CLI then starts without it).
    let project_settings = if project == home {
        None
    } else {
        settings(&project.join(".gemini/settings.json"))
            .ok()
            .flatten()
    };
    if let Some(p) = &project_settings {
        disabled.extend(disabled_names(p));
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
    pinned_model(&user, project_settings.as_ref(), env_model)
        .map_err(|why| format!("{why}: Gemini CLI's \"auto\" routing first sends the prompt as typed to a small model, in a request no hook sees"))
}

/// The user's file pins a model and nothing before it in Gemini CLI's order names an
/// `auto` one.
fn pinned_model(
    user: &Value,
    project: Option<&Value>,
    env_model: Option<&str>,
) -> Result<(), String> {
    let name = |v: &Value| {
        v.pointer("/model/name")
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    match name(user) {
        Some(m) if !is_auto(&m) => {}
        Some(m) => return Err(format!("~/.gemini/settings.json names the model {m:?}")),
        None => return Err("~/.gemini/settings.json pins no model".into()),
    }
    if let Some(m) = project.and_then(name).filter(|m| is_auto(m)) {
        return Err(format!(
            "the project's .gemini/settings.json names the model {m:?}"
        ));
    }
    if let Some(m) = env_model.filter(|m| !m.trim().is_empty() && is_auto(m)) {
        return Err(format!("$GEMINI_MODEL is {m:?}"));
    }
    Ok(())
}

/// Gemini CLI 0.61's models that route each prompt (`auto`, `auto-gemini-3`, ...; an empty
/// name is its default, `auto`).
fn is_auto(model: &str) -> bool {
    let m = model.trim();
    m.is_empty() || m == "auto" || m.starts_with("auto-")
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
        wiring_with(user, project, None)
    }

    fn wiring_with(
        user: Option<&str>,
        project: Option<&str>,
        env_model: Option<&str>,
    ) -> Result<(), String> {
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
        gemini_before_model_wiring(home.path(), &project_dir, env_model)
    }

    const WIRED: &str = r#"{
      // the user's own
      "model": {"name": "gemini-2.5-pro"},
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
        let star = r#"{"model": {"name": "flash"}, "hooks": {"BeforeModel": [{"matcher": "*", "hooks": [{"type": "command", "command": "hookhost hook --for=gemini"}]}]}}"#;
        assert_eq!(wiring(Some(star), None), Ok(()));
        let off = r#"{"hooksConfig": {"enabled": false}, "hooks": {"BeforeModel": [{"hooks": [{"type": "command", "command": "hookhost hook --for gemini"}]}]}}"#;
        assert!(wiring(Some(off), None).unwrap_err().contains("enabled"));
    }

    #[test]
    fn a_project_can_take_the_wiring_away_but_not_give_it() {
        let named = r#"{"model": {"name": "gemini-2.5-pro"}, "hooks": {"BeforeModel": [{"hooks": [{"type": "command", "name": "hh", "command": "hookhost hook --for gemini"}]}]}}"#;
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

    #[test]
    fn an_auto_model_is_no_wiring() {
        let unpinned = WIRED.replace(r#""model": {"name": "gemini-2.5-pro"},"#, "");
        let e = wiring(Some(&unpinned), None).unwrap_err();
        assert!(e.contains("pins no model") && e.contains("routing"), "{e}");
        let auto = WIRED.replace("gemini-2.5-pro", "auto-gemini-3");
        assert!(
            wiring(Some(&auto), None)
                .unwrap_err()
                .contains("auto-gemini-3")
        );
        // What comes before the user's file in Gemini CLI's order can take it away.
        let e = wiring(Some(WIRED), Some(r#"{"model": {"name": "auto"}}"#)).unwrap_err();
        assert!(e.contains("project's"), "{e}");
        let e = wiring_with(Some(WIRED), None, Some("auto")).unwrap_err();
        assert!(e.contains("$GEMINI_MODEL"), "{e}");
        assert_eq!(
            wiring_with(Some(WIRED), None, Some("gemini-2.5-flash")),
            Ok(())
        );
        assert_eq!(wiring_with(Some(WIRED), None, Some("")), Ok(()));
    }
}
