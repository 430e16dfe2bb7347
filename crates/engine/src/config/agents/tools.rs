//! The tool-name alias map: the agent core's tools (`bash`, `read_file`, `write_file`,
//! `edit_file`) and their argument keys, as each other agent names them.
//!
//! | core | Claude Code, Codex | Gemini CLI | ling |
//! |---|---|---|---|
//! | `bash` {`command`, `timeout`} | `Bash` {`command`, `timeout`} | `run_shell_command` {`command`} | `bash` |
//! | `read_file` {`path`} | `Read` {`file_path`} | `read_file` {`file_path`} | `read_file` {`file_path`} |
//! | `write_file` {`path`, `content`} | `Write` {`file_path`, `content`} | `write_file` {`file_path`, `content`} | `write_file` {`file_path`, `content`} |
//! | `edit_file` {`path`, `old`, `new`} | `Edit` {`file_path`, `old_string`, `new_string`} | `replace` {`file_path`, `old_string`, `new_string`} | `edit_file` {`file_path`, `old`, `new`} |
//!
//! | core | Cursor (`preToolUse` matchers) | GitHub Copilot CLI |
//! |---|---|---|
//! | `bash` | `Shell` {`command`} | `bash` {`command`} |
//! | `read_file` | `Read` {`file_path`} | `view` {`path`} |
//! | `write_file` | `Write` {`file_path`, `content`} | `create` {`path`, `file_text`} |
//! | `edit_file` | `Edit` {`file_path`, `old_string`, `new_string`} | `edit` {`path`, `old_str`, `new_str`} |
//!
//! Cursor's tool names are its `preToolUse` matcher values (`Shell`, `Read`, `Write`, `Edit`);
//! its docs name no argument keys for them, so Claude Code's are used (Cursor loads Claude
//! Code's hooks as they are). Copilot CLI's are its documented tool names
//! (docs.github.com/en/copilot/reference/hooks-reference, "Tool names for hook matching")
//! with the argument keys Copilot CLI 1.0.102 sends (`{"command", "description"}` for
//! `bash`, captured in tests/fixtures/dialects/copilot/).
//!
//! opencode's are its built-in tools' ids (`bash` {`command`, `timeout`, `workdir`,
//! `description`}, `read` {`filePath`}, `write` {`filePath`, `content`}, `edit` {`filePath`,
//! `oldString`, `newString`}; its other tools, `grep`, `glob`, `list`, `patch`, `webfetch`,
//! `task`, `todowrite`, keep their names), as its plugins' `tool.execute.before` sees them.
//!
//! The Claude-like agents' names are their row's in `claude_like.rs`: Qwen Code's
//! `run_shell_command`/`read_file`/`write_file`/`edit`, Factory Droid's `Execute`/`Read`/
//! `Create`/`Edit`, Auggie's `launch-process`/`view`/`save-file`/`str-replace-editor`, VS
//! Code's `runTerminalCommand`, goose's `developer__shell`/`developer__write`/`developer__edit`
//! (`before`, `after`), Claude Code's for Qoder CLI and Grok CLI.
//!
//! Cline's are `execute_command`, `read_file`, `write_to_file` and `replace_in_file`, with the
//! core's keys (`path`); its edit is a `diff` of SEARCH/REPLACE blocks, not `old`/`new`.
//!
//! Any other tool keeps its name and keys. An event that already carries the agent's own
//! name (`Bash`, from a Claude Code payload) is left alone: [`to_dialect`] maps core names
//! only, [`to_core`] maps that agent's names only, so both directions are idempotent.

use crate::Dialect;
use serde_json::{Map, Value};

/// (core name, dialect name, [(core key, dialect key)]) for one dialect.
pub(crate) type Alias = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

const CLAUDE: &[Alias] = &[
    ("bash", "Bash", &[]),
    ("read_file", "Read", &[("path", "file_path")]),
    ("write_file", "Write", &[("path", "file_path")]),
    (
        "edit_file",
        "Edit",
        &[
            ("path", "file_path"),
            ("old", "old_string"),
            ("new", "new_string"),
        ],
    ),
];

const GEMINI: &[Alias] = &[
    ("bash", "run_shell_command", &[]),
    ("read_file", "read_file", &[("path", "file_path")]),
    ("write_file", "write_file", &[("path", "file_path")]),
    (
        "edit_file",
        "replace",
        &[
            ("path", "file_path"),
            ("old", "old_string"),
            ("new", "new_string"),
        ],
    ),
];

const LING: &[Alias] = &[
    ("read_file", "read_file", &[("path", "file_path")]),
    ("write_file", "write_file", &[("path", "file_path")]),
    ("edit_file", "edit_file", &[("path", "file_path")]),
];

const CURSOR: &[Alias] = &[
    ("bash", "Shell", &[]),
    ("read_file", "Read", &[("path", "file_path")]),
    ("write_file", "Write", &[("path", "file_path")]),
    (
        "edit_file",
        "Edit",
        &[
            ("path", "file_path"),
            ("old", "old_string"),
            ("new", "new_string"),
        ],
    ),
];

const COPILOT: &[Alias] = &[
    ("read_file", "view", &[]),
    ("write_file", "create", &[("content", "file_text")]),
    (
        "edit_file",
        "edit",
        &[("old", "old_str"), ("new", "new_str")],
    ),
];

const OPENCODE: &[Alias] = &[
    ("read_file", "read", &[("path", "filePath")]),
    ("write_file", "write", &[("path", "filePath")]),
    (
        "edit_file",
        "edit",
        &[
            ("path", "filePath"),
            ("old", "oldString"),
            ("new", "newString"),
        ],
    ),
];

/// Cline's tools (docs.cline.bot, "Cline Tools Reference"): `execute_command` {`command`,
/// `requires_approval`}, `read_file` {`path`}, `write_to_file` {`path`, `content`},
/// `replace_in_file` {`path`, `diff`: SEARCH/REPLACE blocks, kept as they are}.
const CLINE: &[Alias] = &[
    ("bash", "execute_command", &[]),
    ("read_file", "read_file", &[]),
    ("write_file", "write_to_file", &[]),
    ("edit_file", "replace_in_file", &[]),
];

/// Windsurf's: its hooks name no tools, each event is a tool kind; these are the kinds'
/// names (its event names' middle part, `pre_run_command`), with its `tool_info` keys:
/// `run_command` {`command_line`, `cwd`}, `read_code` {`file_path`}, `write_code`
/// {`file_path`, `edits`: [{`old_string`, `new_string`}]} (a write and an edit alike;
/// `translate/windsurf.rs` turns `edits` into the core's `content` or `old`/`new`).
const WINDSURF: &[Alias] = &[
    ("bash", "run_command", &[("command", "command_line")]),
    ("read_file", "read_code", &[("path", "file_path")]),
    ("write_file", "write_code", &[("path", "file_path")]),
    ("edit_file", "write_code", &[("path", "file_path")]),
];

fn table(d: Dialect) -> &'static [Alias] {
    match d {
        Dialect::Native => &[],
        Dialect::Claude | Dialect::Codex => CLAUDE,
        Dialect::Gemini => GEMINI,
        Dialect::Ling => LING,
        Dialect::Cursor => CURSOR,
        Dialect::Copilot => COPILOT,
        Dialect::Opencode => OPENCODE,
        Dialect::Cline => CLINE,
        Dialect::Windsurf => WINDSURF,
        // The Claude-like agents: their row (`claude_like.rs`).
        d => super::claude_like::profile(d).map_or(&[], |p| p.tools),
    }
}

/// The dialect's name for a core tool name (unchanged when it has none).
pub fn name_to_dialect(d: Dialect, core: &str) -> String {
    table(d)
        .iter()
        .find(|(c, _, _)| *c == core)
        .map_or(core, |(_, n, _)| n)
        .to_string()
}

/// The core's name for a dialect's tool name (unchanged when it has none).
pub fn name_to_core(d: Dialect, name: &str) -> String {
    table(d)
        .iter()
        .find(|(_, n, _)| *n == name)
        .map_or(name, |(c, _, _)| c)
        .to_string()
}

/// `args` with the keys of `pairs` renamed (core -> dialect when `forward`). A renamed key
/// wins over a key already spelled the target way: the side that reads the result reads the
/// renamed one (Claude Code's Write reads `file_path`, never a stray `path`), so a decoy
/// spelled like the target must never replace what a guard is shown.
fn rename(args: &Value, pairs: &[(&str, &str)], forward: bool) -> Value {
    let Value::Object(map) = args else {
        return args.clone();
    };
    let renamed = |k: &str| {
        pairs
            .iter()
            .find(|(c, n)| if forward { *c == k } else { *n == k })
            .map(|(c, n)| if forward { *n } else { *c })
    };
    let mut out = Map::new();
    for (k, v) in map.iter().filter(|(k, _)| renamed(k).is_none()) {
        out.insert(k.clone(), v.clone());
    }
    for (k, v) in map {
        if let Some(key) = renamed(k) {
            out.insert(key.to_string(), v.clone());
        }
    }
    Value::Object(out)
}

/// A core tool call (name, args) as the dialect names it.
pub fn to_dialect(d: Dialect, core: &str, args: &Value) -> (String, Value) {
    match table(d).iter().find(|(c, _, _)| *c == core) {
        Some((_, name, keys)) => (name.to_string(), rename(args, keys, true)),
        None => (core.to_string(), args.clone()),
    }
}

/// A dialect's tool call (name, args) as the core names it.
pub fn to_core(d: Dialect, name: &str, args: &Value) -> (String, Value) {
    match table(d).iter().find(|(_, n, _)| *n == name) {
        Some((core, _, keys)) => (core.to_string(), rename(args, keys, false)),
        None => (name.to_string(), args.clone()),
    }
}

/// A dialect hook's `updatedInput` for the tool the event carries (`tool`, by the name the
/// event uses), in the event's argument keys: when the event carries a core name, the
/// dialect's keys are mapped back.
pub fn input_to_event(d: Dialect, tool: &str, updated: &Value) -> Value {
    match table(d).iter().find(|(c, _, _)| *c == tool) {
        Some((_, _, keys)) => rename(updated, keys, false),
        None => updated.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn core_names_map_both_ways() {
        let (n, a) = to_dialect(
            Dialect::Claude,
            "edit_file",
            &json!({"path":"a","old":"x","new":"y"}),
        );
        assert_eq!(n, "Edit");
        assert_eq!(
            a,
            json!({"file_path":"a","old_string":"x","new_string":"y"})
        );
        assert_eq!(
            to_core(Dialect::Claude, &n, &a),
            (
                "edit_file".to_string(),
                json!({"path":"a","old":"x","new":"y"})
            )
        );
        assert_eq!(
            name_to_dialect(Dialect::Gemini, "bash"),
            "run_shell_command"
        );
        assert_eq!(name_to_dialect(Dialect::Claude, "Bash"), "Bash");
        assert_eq!(name_to_core(Dialect::Claude, "bash"), "bash");
        assert_eq!(
            input_to_event(
                Dialect::Claude,
                "write_file",
                &json!({"file_path":"b","content":"c"})
            ),
            json!({"path":"b","content":"c"})
        );
        assert_eq!(
            input_to_event(Dialect::Claude, "Write", &json!({"file_path":"b"})),
            json!({"file_path":"b"})
        );
    }

    #[test]
    fn cursor_and_copilot_names() {
        assert_eq!(name_to_dialect(Dialect::Cursor, "bash"), "Shell");
        assert_eq!(name_to_core(Dialect::Cursor, "Read"), "read_file");
        assert_eq!(name_to_dialect(Dialect::Copilot, "bash"), "bash");
        let (n, a) = to_dialect(
            Dialect::Copilot,
            "edit_file",
            &json!({"path": "a", "old": "x", "new": "y"}),
        );
        assert_eq!(
            (n.as_str(), a),
            ("edit", json!({"path": "a", "old_str": "x", "new_str": "y"}))
        );
        assert_eq!(
            to_core(
                Dialect::Copilot,
                "create",
                &json!({"path": "a", "file_text": "t"})
            ),
            (
                "write_file".to_string(),
                json!({"path": "a", "content": "t"})
            )
        );
        assert_eq!(
            input_to_event(Dialect::Cursor, "read_file", &json!({"file_path": "z"})),
            json!({"path": "z"})
        );
    }
}
