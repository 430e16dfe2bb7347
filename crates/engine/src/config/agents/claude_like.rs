//! The agents whose hooks are Claude Code's shape with a few differences, one row each
//! ([`PROFILES`]): Qwen Code, Qoder CLI, Grok CLI, Factory Droid, Auggie, VS Code and goose.
//! Their files are `{"hooks": {Event: [{"matcher": ..., "hooks": [{"type": "command",
//! ...}]}]}}` under Claude Code's event names, read by the one reader (`reader.rs`) with
//! Claude Code's table (`format.rs`) and the row's differences: which events the agent
//! fires, its tool names and argument keys, the variables it sets for its hooks, the unit of
//! its timeouts, whether it has http hooks, where its files are, and how its payload differs
//! (VS Code's `hookEventName` and `sessionId`; goose's `event`, `message`, `working_dir`).
//! Their answers are Claude Code's (`translate/respond.rs`), goose's `{"decision": "block"}`
//! aside; their exit codes are Claude Code's (`judge/rules.rs`).
//!
//! Adding such an agent is one row here, one `Dialect` variant, and one line in each of
//! `format.rs` and `judge/rules.rs`.
//!
//! Sources (the comment above each row), read in 2026: every agent's hooks reference. What a row leaves
//! out its agent does not document (Qoder CLI, Grok CLI, Auggie and VS Code name no
//! variable for the project directory; VS Code and goose have no read tool hookhost maps).

use super::format::Unit;
use super::tools::Alias;
use crate::Dialect;
use crate::event::Event;

/// How an agent's payload differs from Claude Code's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Claude Code's snake_case payload (`hook_event_name`, `session_id`, `tool_input`).
    Claude,
    /// VS Code: `hookEventName`, `sessionId` and an ISO `timestamp`; the rest Claude Code's.
    Vscode,
    /// goose (Open Plugins): `event`, `session_id`, `tool_name`, `tool_input`, `message`
    /// (the prompt), `working_dir` (the cwd), `tool_call_id`, `last_assistant_message`.
    Goose,
}

/// One Claude-like agent.
#[derive(Debug)]
pub(crate) struct Profile {
    pub(crate) dialect: Dialect,
    /// The native events it fires, under Claude Code's names.
    pub(crate) events: &'static [Event],
    /// Its names for the core's tools and their argument keys.
    pub(crate) tools: &'static [Alias],
    /// The variables it sets to the project directory for its hooks.
    pub(crate) variables: &'static [&'static str],
    /// The unit of a hook's `timeout`.
    pub(crate) timeout_unit: Unit,
    /// It has `"type": "http"` hooks.
    pub(crate) http: bool,
    /// Its hook files, relative to the project and the home directory: (path, project only).
    pub(crate) files: &'static [(&'static str, bool)],
    /// A file read only when the file of `files` at the same index is missing (Factory
    /// Droid: `settings.json`'s `hooks` when there is no `hooks.json`).
    pub(crate) fallback: &'static [(&'static str, &'static str)],
    /// Directories whose `*.json` files are hook files (project and user).
    pub(crate) hook_dirs: &'static [&'static str],
    /// Directories of plugins, each with a `hooks/hooks.json` (project and user).
    pub(crate) plugin_dirs: &'static [&'static str],
    /// The variable a plugin's commands name its directory by (`${PLUGIN_ROOT}`).
    pub(crate) plugin_root_var: &'static str,
    /// `"disableAllHooks": true` at the top of its file turns its hooks off.
    pub(crate) disable_all_hooks: bool,
    pub(crate) payload: Shape,
}

use Event::*;

const CLAUDE_TOOLS: &[Alias] = &[
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

const NONE: Profile = Profile {
    dialect: Dialect::Native,
    events: &[],
    tools: CLAUDE_TOOLS,
    variables: &[],
    timeout_unit: Unit::Seconds,
    http: false,
    files: &[],
    fallback: &[],
    hook_dirs: &[],
    plugin_dirs: &[],
    plugin_root_var: "",
    disable_all_hooks: false,
    payload: Shape::Claude,
};

/// One row per agent.
pub(crate) const PROFILES: &[Profile] = &[
    // https://qwenlm.github.io/qwen-code-docs/en/users/features/hooks
    Profile {
        dialect: Dialect::Qwen,
        events: &[
            PreToolUse,
            PostToolUse,
            PostToolUseFailure,
            UserPromptSubmit,
            SessionStart,
            SessionEnd,
            MessageDisplay,
            Stop,
            SubagentStart,
            SubagentStop,
            PreCompact,
            Notification,
            PermissionRequest,
            PermissionDenied,
        ],
        // Qwen Code keeps Gemini CLI's tools, its edit tool is `edit`.
        tools: &[
            ("bash", "run_shell_command", &[]),
            ("read_file", "read_file", &[("path", "file_path")]),
            ("write_file", "write_file", &[("path", "file_path")]),
            (
                "edit_file",
                "edit",
                &[
                    ("path", "file_path"),
                    ("old", "old_string"),
                    ("new", "new_string"),
                ],
            ),
        ],
        variables: &["QWEN_PROJECT_DIR"],
        timeout_unit: Unit::SecondsUnlessThousands,
        http: true,
        files: &[(".qwen/settings.json", false)],
        disable_all_hooks: true,
        ..NONE
    },
    // https://docs.qoder.com/en/cli/hooks
    Profile {
        dialect: Dialect::Qoder,
        events: &[
            PreToolUse,
            PostToolUse,
            PostToolUseFailure,
            UserPromptSubmit,
            SessionStart,
            SessionEnd,
            Stop,
            StopFailure,
            SubagentStart,
            SubagentStop,
            PreCompact,
            PostCompact,
            Notification,
            PermissionRequest,
            PermissionDenied,
        ],
        files: &[
            (".qoder/settings.json", false),
            (".qoder/settings.local.json", true),
        ],
        ..NONE
    },
    // https://docs.x.ai/build/features/hooks
    Profile {
        dialect: Dialect::Grok,
        events: &[
            SessionStart,
            SessionEnd,
            UserPromptSubmit,
            PreToolUse,
            PostToolUse,
            PostToolUseFailure,
        ],
        http: true,
        hook_dirs: &[".grok/hooks"],
        ..NONE
    },
    // https://docs.factory.ai/reference/hooks-reference
    Profile {
        dialect: Dialect::Droid,
        events: &[
            PreToolUse,
            PostToolUse,
            UserPromptSubmit,
            Notification,
            Stop,
            SubagentStop,
            PreCompact,
            SessionStart,
            SessionEnd,
        ],
        tools: &[
            ("bash", "Execute", &[]),
            ("read_file", "Read", &[("path", "file_path")]),
            ("write_file", "Create", &[("path", "file_path")]),
            (
                "edit_file",
                "Edit",
                &[
                    ("path", "file_path"),
                    ("old", "old_string"),
                    ("new", "new_string"),
                ],
            ),
        ],
        variables: &["FACTORY_PROJECT_DIR"],
        files: &[(".factory/hooks.json", false)],
        fallback: &[(".factory/hooks.json", ".factory/settings.json")],
        ..NONE
    },
    // https://docs.augmentcode.com/cli/hooks
    Profile {
        dialect: Dialect::Auggie,
        events: &[PreToolUse, PostToolUse, Stop, SessionStart, SessionEnd],
        tools: &[
            ("bash", "launch-process", &[]),
            ("read_file", "view", &[]),
            ("write_file", "save-file", &[("content", "file_content")]),
            ("edit_file", "str-replace-editor", &[]),
        ],
        timeout_unit: Unit::Milliseconds,
        files: &[
            (".augment/settings.json", false),
            (".augment/settings.local.json", true),
        ],
        ..NONE
    },
    // https://code.visualstudio.com/docs/agents/reference/hooks-reference
    Profile {
        dialect: Dialect::Vscode,
        events: &[
            PreToolUse,
            PostToolUse,
            UserPromptSubmit,
            SessionStart,
            Stop,
            SubagentStart,
            SubagentStop,
            PreCompact,
        ],
        tools: &[("bash", "runTerminalCommand", &[])],
        payload: Shape::Vscode,
        ..NONE
    },
    // https://block.github.io/goose/docs/guides/context-engineering/hooks
    Profile {
        dialect: Dialect::Goose,
        events: &[
            SessionStart,
            SessionEnd,
            Stop,
            UserPromptSubmit,
            PreToolUse,
            PostToolUse,
            PostToolUseFailure,
        ],
        tools: &[
            ("bash", "developer__shell", &[]),
            ("write_file", "developer__write", &[]),
            (
                "edit_file",
                "developer__edit",
                &[("old", "before"), ("new", "after")],
            ),
        ],
        plugin_dirs: &[".agents/plugins"],
        plugin_root_var: "PLUGIN_ROOT",
        payload: Shape::Goose,
        ..NONE
    },
];

/// The row of Claude-like dialect `d`, at compile time (`format.rs`'s tables).
pub(super) const fn row(d: Dialect) -> &'static Profile {
    let mut i = 0;
    while i < PROFILES.len() {
        if PROFILES[i].dialect as u8 == d as u8 {
            return &PROFILES[i];
        }
        i += 1;
    }
    &NONE
}

/// The row of a Claude-like dialect (`None` for the others).
pub(crate) fn profile(d: Dialect) -> Option<&'static Profile> {
    PROFILES.iter().find(|p| p.dialect == d)
}

/// Whether agent `d` fires `e` (under Claude Code's name).
pub(crate) fn fires(d: Dialect, e: Event) -> bool {
    profile(d).is_some_and(|p| p.events.contains(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_claude_like_dialect_has_one_row() {
        for d in Dialect::CLAUDE_LIKE {
            assert_eq!(PROFILES.iter().filter(|p| p.dialect == d).count(), 1, "{d}");
            let p = profile(d).unwrap();
            assert!(p.events.contains(&Event::PreToolUse), "{d}");
        }
        assert_eq!(PROFILES.len(), Dialect::CLAUDE_LIKE.len());
        assert!(profile(Dialect::Claude).is_none());
    }

    /// Qwen Code 0.24's timeouts: seconds, but 1000 and more are still milliseconds.
    #[test]
    fn qwen_timeouts_are_seconds_until_a_thousand() {
        let text = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": "a", "timeout": 30},
            {"type": "command", "command": "b", "timeout": 60000}]}]}})
        .to_string();
        let f = super::super::read_settings(Dialect::Qwen, &text);
        let ms: Vec<_> = f.hooks.iter().map(|h| h.hook["timeout"].clone()).collect();
        assert_eq!(ms, [30_000, 60_000], "{:?}", f.problems);
    }
}
