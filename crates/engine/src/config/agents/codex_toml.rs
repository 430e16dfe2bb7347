//! Codex's `config.toml` (`.codex/config.toml`, `~/.codex/config.toml`), as far as hooks go:
//! its inline `[[hooks.<Event>]]` tables (one matcher group each, `[[hooks.<Event>.hooks]]`
//! one handler: the shape of its `hooks.json`, read by the same reader), and Codex's
//! switches: `[features] hooks = false` (or the older `codex_hooks`) turns every Codex hook
//! off, and `[hooks.state."<key>"] enabled = false` one hook, by the key Codex gives it
//! ([`codex_state_key`]); Codex reads `hooks.state` from the user's file only. Everything
//! else in the file (model providers, profiles, ...) is none of hookhost's business.

use super::{AgentSwitch, ForeignFile, format, reader};
use crate::event::Event;
use serde_json::{Value, json};
use std::path::Path;

/// Reads the hooks and switches of a Codex `config.toml`.
pub(super) fn read_codex_config(text: &str) -> ForeignFile {
    let mut f = ForeignFile::default();
    let mut root = match toml::from_str::<toml::Table>(text) {
        Ok(root) => root,
        Err(e) => {
            let (line, column) = e.span().map_or((1, 1), |s| line_column(text, s.start));
            f.problems.push((
                None,
                format!(
                    "invalid TOML at line {line}, column {column}: {}; fix the file (it is Codex's config; hookhost reads its [hooks] tables)",
                    e.message().trim_end()
                ),
            ));
            return f;
        }
    };
    f.switches.extend(feature_switch(&root));
    let Some(hooks) = root.remove("hooks") else {
        return f;
    };
    let hooks = match hooks {
        toml::Value::Table(mut table) => {
            if let Some(state) = table.remove("state") {
                let switch = state_switch(&state, &mut f);
                f.switches.extend(switch);
            }
            toml::Value::Table(table)
        }
        other => other,
    };
    // Plain data: a TOML value always has a JSON form (dates become strings).
    let hooks = serde_json::to_value(&hooks).unwrap_or(Value::Null);
    reader::read_hooks(&format::CODEX, &json!({ "hooks": hooks }), &mut f);
    f
}

/// `[features] hooks = false` (`codex_hooks`: Codex's older name).
fn feature_switch(root: &toml::Table) -> Option<AgentSwitch> {
    let features = root.get("features")?.as_table()?;
    let key = ["hooks", "codex_hooks"]
        .into_iter()
        .find(|k| features.get(*k).and_then(toml::Value::as_bool) == Some(false))?;
    Some(AgentSwitch {
        names: None,
        why: format!("`[features] {key} = false`"),
        user_only: false,
    })
}

/// `[hooks.state."<key>"] enabled = false`: the hooks Codex's user config turns off.
fn state_switch(state: &toml::Value, f: &mut ForeignFile) -> Option<AgentSwitch> {
    let Some(state) = state.as_table() else {
        f.warnings.push((
            Some("hooks.state".into()),
            "`[hooks.state]` must be a table of hook keys; ignored".into(),
        ));
        return None;
    };
    let names: Vec<String> = state
        .iter()
        .filter(|(_, v)| v.get("enabled").and_then(toml::Value::as_bool) == Some(false))
        .map(|(k, _)| k.clone())
        .collect();
    (!names.is_empty()).then(|| AgentSwitch {
        why: "`enabled = false` in `[hooks.state]`".into(),
        names: Some(names),
        user_only: true,
    })
}

/// The key Codex's `[hooks.state]` names a hook by: its file, its event in snake case, its
/// matcher group and its place in the group (`/p/.codex/hooks.json:pre_tool_use:0:0`).
pub fn codex_state_key(file: &Path, event: Event, group: usize, handler: usize) -> String {
    let mut label = String::new();
    for (i, c) in event.as_str().chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            label.push('_');
        }
        label.push(c.to_ascii_lowercase());
    }
    format!("{}:{label}:{group}:{handler}", file.display())
}

/// 1-based line and column of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn inline_tables_are_codex_hooks() {
        let f = read_codex_config(
            r#"
model = "o3"
[model_providers.local]
base_url = "http://127.0.0.1:1"

[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "./guard.sh"
timeout = 5

[hooks.state."/p/.codex/hooks.json:pre_tool_use:0:0"]
enabled = false
trusted_hash = "sha256:00"
"#,
        );
        assert!(f.problems.is_empty() && f.warnings.is_empty(), "{f:?}");
        assert_eq!(
            f.hooks[0].hook,
            json!({"dialect": "codex", "command": "./guard.sh", "match": "Bash", "timeout": 5000})
        );
        assert_eq!(f.hooks[0].position, (0, 0));
        assert_eq!(
            f.switches,
            [AgentSwitch {
                names: Some(vec!["/p/.codex/hooks.json:pre_tool_use:0:0".into()]),
                why: "`enabled = false` in `[hooks.state]`".into(),
                user_only: true,
            }]
        );
    }

    #[test]
    fn the_features_switch_and_a_broken_file() {
        let f = read_codex_config("[features]\nhooks = false\n");
        assert_eq!(f.switches[0].names, None);
        let f = read_codex_config("[features]\ncodex_hooks = false\n");
        assert!(f.switches[0].why.contains("codex_hooks"));
        let f = read_codex_config("model = \"o3\"\n[[hooks.PreToolUse]\n");
        assert!(f.problems[0].1.contains("invalid TOML at line 2"), "{f:?}");
    }

    #[test]
    fn state_keys_are_codexs() {
        assert_eq!(
            codex_state_key(
                Path::new("/p/.codex/config.toml"),
                Event::UserPromptSubmit,
                1,
                2
            ),
            "/p/.codex/config.toml:user_prompt_submit:1:2"
        );
    }
}
