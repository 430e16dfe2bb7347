//! Each dialect's rules for judging its hooks, as values: the decision table it uses, and the
//! few ways its agent reads an answer differently. `judge::judge` applies them; nothing
//! here runs or decides.
//!
//! | rule | native, ling | Claude Code | Gemini CLI | Codex |
//! |---|---|---|---|---|
//! | table | [`NATIVE_TABLE`] | [`CLAUDE_TABLE`] | [`CLAUDE_TABLE`] | [`CLAUDE_TABLE`] |
//! | exit 2 without stderr | as the table says | as the table says | as the table says | not a block (warn) |
//! | plain stdout | ignored | context on SessionStart / UserPromptSubmit | a message for the user | context on SessionStart / UserPromptSubmit |
//! | JSON `decision: "block"` on UserPromptSubmit | feedback | blocks the prompt | blocks the prompt | blocks the prompt |
//! | exit 2 on Stop without stderr | as the table says (warn) | forces ("No stderr output") | warn | warn |
//! | refused PreToolUse answers | none | none | none | allow, ask, defer, `updatedInput`, a deny without a reason |
//! | answers ignored whole (invalid) | none | `decision` other than "block"/"approve" | none | `decision` other than "block" |
//! | top-level `additionalContext`, `updatedInput`, `updatedToolOutput` | read | ignored (read inside `hookSpecificOutput`) | ignored | ignored |
//! | a tool's result replaced | `updatedToolOutput` | `hookSpecificOutput.updatedToolOutput` | AfterTool deny / exit 2: "Tool result blocked: REASON" | not applied (warn) |
//! | `hookSpecificOutput.tool_input` | not read | not read | merged into the arguments | not read |
//!
//! | rule | Cursor | GitHub Copilot CLI |
//! |---|---|---|
//! | table | [`CLAUDE_TABLE`] (exit 2 = `permission: "deny"`; a failure fails open unless `failClosed`) | [`COPILOT_TABLE`] (PreToolUse fails closed on exit 2, a crash or any other exit; a timeout fails open) |
//! | plain stdout | ignored | ignored |
//! | JSON `decision: "block"` on UserPromptSubmit | feedback | feedback |
//! | stdout lines `{"type": "progress", ...}` | part of the answer | dropped before the answer is read |
//! | Claude Code's answer rules above (Stop exit 2, invalid `decision`, top-level fields) | not applied | not applied |
//! | a tool's result replaced | not applied (warn) | not applied (warn) |
//!
//! Their answers' own fields (`permission`, `user_message`, `agent_message`,
//! `followup_message`; `permissionDecision`, `modifiedArgs` at the top level) are read by the
//! one answer reader (`wire/answer.rs`), whatever the dialect.

use super::{Cell, Condition, Table};
use crate::Dialect;
use crate::output::{HookResponse, JsonDecision, StatedDecision};
use std::borrow::Cow;

/// What a dialect does with stdout that is not a JSON answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlainStdout {
    /// Nothing (it stays in the record).
    Ignored,
    /// On SessionStart and UserPromptSubmit it is context for the model.
    ContextAtStart,
    /// A message for the user, on every event.
    UserMessage,
}

/// How a dialect's hook replaces what the model sees as a tool's result (PostToolUse).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolOutput {
    /// With `updatedToolOutput` (native: top level or `hookSpecificOutput`; Claude Code: in
    /// `hookSpecificOutput`).
    Updated,
    /// Gemini CLI: a deny (JSON or exit 2) hides the result: the model sees "Tool result
    /// blocked: REASON" instead.
    DenyReplaces,
    /// It cannot (Codex 0.171): an `updatedToolOutput` is ignored with a warning.
    Unsupported,
}

/// How one dialect's hooks are judged.
#[derive(Debug)]
pub struct Rules {
    /// Whose rules these are (argument keys of a rewrite are mapped back from its terms).
    pub dialect: Dialect,
    /// Row by row: what each way of ending means in each event's column.
    pub table: Table,
    /// An exit 2 that gives no reason on stderr is not a block (Codex).
    pub exit2_needs_stderr: bool,
    /// What plain stdout on exit 0 is.
    pub plain_stdout: PlainStdout,
    /// JSON `decision: "block"` on UserPromptSubmit blocks the prompt (Claude's family).
    pub json_block_blocks_prompt: bool,
    /// A PreToolUse answer this dialect refuses (then ignored with a warning): why.
    pub refuses: fn(&HookResponse) -> Option<String>,
    /// `hookSpecificOutput.tool_input` is merged into the arguments (Gemini CLI).
    pub merges_tool_input: bool,
    /// Exit 2 on Stop with nothing on stderr still keeps the agent going (Claude Code:
    /// "No stderr output" is the message).
    pub stop_exit2_forces_without_stderr: bool,
    /// An answer the agent rejects whole, on any event (then ignored with a warning): why.
    pub invalid: fn(&HookResponse) -> Option<String>,
    /// hookhost's own top-level `additionalContext` and `updatedToolOutput` are read (native,
    /// ling); Claude Code's family reads them only inside `hookSpecificOutput`.
    pub reads_top_level: bool,
    /// How a hook replaces a tool's result.
    pub tool_output: ToolOutput,
    /// What of stdout is the answer (Copilot CLI drops its progress lines first).
    pub answer_of: fn(&[u8]) -> Cow<'_, [u8]>,
}

/// DESIGN §4 row by row; columns: PreToolUse, UserPromptSubmit, PostToolUse (and
/// PostToolUseFailure), the other observing events, Stop/SubagentStop/TeammateIdle,
/// PermissionRequest, the gating events, WorktreeCreate.
/// A PermissionRequest hook that fails leaves the call to the prompt (the safe default: it is
/// asked as if no hook ran), unless it says `onError: "block"`; so do a gating event's hook
/// (what it would refuse goes ahead) and a UserPromptSubmit hook (the prompt goes ahead). WorktreeCreate fails closed on every failure: the
/// hook is what makes the worktree, so a hook that did not finish made none.
pub const NATIVE_TABLE: Table = {
    use Cell::*;
    [
        (
            Condition::Exit0,
            [Pass, Pass, Pass, Pass, Pass, Pass, Pass, Pass],
        ),
        (
            Condition::Exit2,
            [
                Block,
                Warn,
                Feedback,
                Warn,
                ForceIfStdout,
                Block,
                Block,
                Block,
            ],
        ),
        (
            Condition::OtherExit,
            [
                WarnOrBlock,
                WarnOrBlock,
                Warn,
                Warn,
                Warn,
                WarnOrBlock,
                WarnOrBlock,
                Block,
            ],
        ),
        (
            Condition::Timeout,
            [
                Block,
                WarnOrBlock,
                Warn,
                Warn,
                Warn,
                WarnOrBlock,
                WarnOrBlock,
                Block,
            ],
        ),
        (
            Condition::SpawnFailure,
            [
                Block,
                WarnOrBlock,
                Warn,
                Warn,
                Warn,
                WarnOrBlock,
                WarnOrBlock,
                Block,
            ],
        ),
    ]
};

/// Claude Code's rules, shared by Gemini CLI and Codex; columns as [`NATIVE_TABLE`]. A failure
/// (other exit, crash, timeout, a command that cannot start) is a non-blocking error there;
/// `onError: "block"` (Claude Code's `onFailure: "block"`) makes it fail closed on
/// PreToolUse, UserPromptSubmit, PermissionRequest and the gating events. Exit 2 on
/// PermissionRequest denies with stderr (Claude Code's hooks reference, "exit code 2
/// behavior": PermissionRequest "denies the permission"); on the observing events Claude
/// Code added (Notification, SubagentStart, PostCompact, StopFailure) it only shows stderr
/// to the user: a warning here; on PostToolUseFailure stderr goes to the model. On the gating
/// events exit 2 refuses what the event is about with stderr (Claude Code's hooks reference,
/// "Exit code 2 behavior per event": UserPromptExpansion blocks the expansion, PostToolBatch
/// stops the loop before the next model call, TaskCreated and TaskCompleted refuse the task,
/// ConfigChange blocks the change, Elicitation and ElicitationResult decline,
/// PreModelSwitch keeps the model, and PreCompact, since Claude Code 2.1.105, keeps the
/// conversation uncompacted); on TeammateIdle it keeps the teammate working (the
/// forcing column); on WorktreeCreate any non-zero exit fails the creation.
pub const CLAUDE_TABLE: Table = {
    use Cell::*;
    [
        (
            Condition::Exit0,
            [Pass, Pass, Pass, Pass, Pass, Pass, Pass, Pass],
        ),
        (
            Condition::Exit2,
            [
                BlockStderr,
                BlockPrompt,
                Feedback,
                Warn,
                ForceStderr,
                BlockStderr,
                BlockStderr,
                Block,
            ],
        ),
        (
            Condition::OtherExit,
            [
                WarnOrBlock,
                WarnOrBlock,
                Warn,
                Warn,
                Warn,
                WarnOrBlock,
                WarnOrBlock,
                Block,
            ],
        ),
        (
            Condition::Timeout,
            [
                WarnOrBlock,
                WarnOrBlock,
                Warn,
                Warn,
                Warn,
                WarnOrBlock,
                WarnOrBlock,
                Block,
            ],
        ),
        (
            Condition::SpawnFailure,
            [
                WarnOrBlock,
                WarnOrBlock,
                Warn,
                Warn,
                Warn,
                WarnOrBlock,
                WarnOrBlock,
                Block,
            ],
        ),
    ]
};

/// GitHub Copilot CLI's rules; columns as [`NATIVE_TABLE`] (Copilot CLI has no
/// PermissionRequest and none of the gating events or WorktreeCreate: their columns only say
/// what exit 2 would mean, and a WorktreeCreate hook that fails made no worktree). PreToolUse command hooks fail
/// closed on exit 2, a crash, any other non-zero exit and a command that cannot start ("Denied
/// by preToolUse hook (hook errored)"); a timeout fails open on every event. Elsewhere exit 2
/// is a warning (its stderr is for the user, not the model) and failures are logged and
/// skipped (docs.github.com/en/copilot/reference/hooks-reference, "Exit codes for command
/// hooks").
pub const COPILOT_TABLE: Table = {
    use Cell::*;
    [
        (
            Condition::Exit0,
            [Pass, Pass, Pass, Pass, Pass, Pass, Pass, Pass],
        ),
        (
            Condition::Exit2,
            [Block, Warn, Warn, Warn, Warn, Block, Block, Block],
        ),
        (
            Condition::OtherExit,
            [Block, Warn, Warn, Warn, Warn, Warn, Warn, Block],
        ),
        (
            Condition::Timeout,
            [Warn, Warn, Warn, Warn, Warn, Warn, Warn, Block],
        ),
        (
            Condition::SpawnFailure,
            [Block, Warn, Warn, Warn, Warn, Warn, Warn, Block],
        ),
    ]
};

fn refuses_nothing(_: &HookResponse) -> Option<String> {
    None
}

/// The top-level `decision` as written, by its JSON name.
fn stated_name(d: StatedDecision) -> &'static str {
    match d {
        StatedDecision::Block => "block",
        StatedDecision::Deny => "deny",
        StatedDecision::Allow => "allow",
        StatedDecision::Approve => "approve",
        StatedDecision::Ask => "ask",
        StatedDecision::Defer => "defer",
    }
}

/// Claude Code's top-level `decision` is "block" (or the older "approve"); "allow", "deny",
/// "ask" and "defer" belong in `hookSpecificOutput.permissionDecision`, and Claude Code
/// rejects the whole answer.
fn claude_invalid(r: &HookResponse) -> Option<String> {
    match r.stated_decision? {
        StatedDecision::Block | StatedDecision::Approve => None,
        d => Some(format!(
            "`\"decision\": \"{}\"` is not valid for Claude Code (its top-level `decision` is only \"block\"; allow, deny, ask and defer go in `hookSpecificOutput.permissionDecision`), which ignores the whole answer",
            stated_name(d)
        )),
    }
}

/// Codex's top-level `decision` is only "block".
fn codex_invalid(r: &HookResponse) -> Option<String> {
    match r.stated_decision? {
        StatedDecision::Block => None,
        d => Some(format!(
            "unsupported decision:{} (Codex's top-level `decision` is only \"block\"; Codex ignores the whole answer)",
            stated_name(d)
        )),
    }
}

fn whole_stdout(stdout: &[u8]) -> Cow<'_, [u8]> {
    Cow::Borrowed(stdout)
}

/// Copilot CLI's answer: stdout without the lines that are one complete JSON object with
/// `"type": "progress"` (its timeline's status lines); everything else as it was.
fn without_progress_lines(stdout: &[u8]) -> Cow<'_, [u8]> {
    let is_progress = |line: &[u8]| {
        let trimmed = line.trim_ascii();
        trimmed.starts_with(b"{")
            && serde_json::from_slice::<serde_json::Value>(trimmed).is_ok_and(|v| {
                v.get("type").and_then(serde_json::Value::as_str) == Some("progress")
            })
    };
    if !stdout.split(|b| *b == b'\n').any(is_progress) {
        return Cow::Borrowed(stdout);
    }
    let kept: Vec<&[u8]> = stdout
        .split(|b| *b == b'\n')
        .filter(|line| !is_progress(line))
        .collect();
    Cow::Owned(kept.join(&b'\n'))
}

/// What Codex refuses in a PreToolUse answer: `permissionDecision` "allow" or "ask", an
/// `updatedInput`, a deny without a reason.
fn codex_refuses(r: &HookResponse) -> Option<String> {
    match r.permission_decision {
        Some(JsonDecision::Allow) => return Some("unsupported permissionDecision:allow".into()),
        Some(JsonDecision::Ask) => return Some("unsupported permissionDecision:ask".into()),
        Some(JsonDecision::Defer) => return Some("unsupported permissionDecision:defer".into()),
        Some(JsonDecision::Block) if r.reason.as_deref().is_none_or(|s| s.trim().is_empty()) => {
            return Some(
                "permissionDecision:deny without a non-empty permissionDecisionReason".into(),
            );
        }
        _ => {}
    }
    r.updated_input
        .as_ref()
        .map(|_| "unsupported updatedInput".to_string())
}

const NATIVE: Rules = Rules {
    dialect: Dialect::Native,
    table: NATIVE_TABLE,
    exit2_needs_stderr: false,
    plain_stdout: PlainStdout::Ignored,
    json_block_blocks_prompt: false,
    refuses: refuses_nothing,
    merges_tool_input: false,
    stop_exit2_forces_without_stderr: false,
    invalid: refuses_nothing,
    reads_top_level: true,
    tool_output: ToolOutput::Updated,
    answer_of: whole_stdout,
};

const LING: Rules = Rules {
    dialect: Dialect::Ling,
    ..NATIVE
};

const CLAUDE: Rules = Rules {
    dialect: Dialect::Claude,
    table: CLAUDE_TABLE,
    exit2_needs_stderr: false,
    plain_stdout: PlainStdout::ContextAtStart,
    json_block_blocks_prompt: true,
    refuses: refuses_nothing,
    merges_tool_input: false,
    stop_exit2_forces_without_stderr: true,
    invalid: claude_invalid,
    reads_top_level: false,
    tool_output: ToolOutput::Updated,
    answer_of: whole_stdout,
};

const GEMINI: Rules = Rules {
    dialect: Dialect::Gemini,
    plain_stdout: PlainStdout::UserMessage,
    merges_tool_input: true,
    stop_exit2_forces_without_stderr: false,
    invalid: refuses_nothing,
    tool_output: ToolOutput::DenyReplaces,
    ..CLAUDE
};

const CODEX: Rules = Rules {
    dialect: Dialect::Codex,
    exit2_needs_stderr: true,
    refuses: codex_refuses,
    stop_exit2_forces_without_stderr: false,
    invalid: codex_invalid,
    tool_output: ToolOutput::Unsupported,
    ..CLAUDE
};

/// Cursor: Claude Code's table (exit 2 blocks, "equivalent to returning `permission:
/// \"deny\"`"; other failures fail open unless the hook says `failClosed`, which becomes
/// `onError: "block"`); stdout is JSON or nothing.
const CURSOR: Rules = Rules {
    dialect: Dialect::Cursor,
    plain_stdout: PlainStdout::Ignored,
    json_block_blocks_prompt: false,
    // Claude Code's answer rules are not Cursor's.
    stop_exit2_forces_without_stderr: false,
    invalid: refuses_nothing,
    reads_top_level: true,
    tool_output: ToolOutput::Unsupported,
    ..CLAUDE
};

const COPILOT: Rules = Rules {
    dialect: Dialect::Copilot,
    table: COPILOT_TABLE,
    exit2_needs_stderr: false,
    plain_stdout: PlainStdout::Ignored,
    json_block_blocks_prompt: false,
    refuses: refuses_nothing,
    merges_tool_input: false,
    answer_of: without_progress_lines,
    stop_exit2_forces_without_stderr: false,
    invalid: refuses_nothing,
    reads_top_level: true,
    tool_output: ToolOutput::Unsupported,
};

/// The Claude-like agents (`config::agents::claude_like`): Claude Code's rules, documented
/// by each (exit 2 blocks with stderr, `hookSpecificOutput.permissionDecision`, other exits
/// are non-blocking errors).
const QWEN: Rules = Rules {
    dialect: Dialect::Qwen,
    ..CLAUDE
};
const QODER: Rules = Rules {
    dialect: Dialect::Qoder,
    ..CLAUDE
};
const GROK: Rules = Rules {
    dialect: Dialect::Grok,
    ..CLAUDE
};
const DROID: Rules = Rules {
    dialect: Dialect::Droid,
    ..CLAUDE
};
const AUGGIE: Rules = Rules {
    dialect: Dialect::Auggie,
    ..CLAUDE
};
const VSCODE: Rules = Rules {
    dialect: Dialect::Vscode,
    ..CLAUDE
};
/// goose: exit 2 (stderr) or `{"decision": "block", "reason"}` blocks a PreToolUse or keeps
/// a Stop going; stdout is the decision channel only (plain text is no context); any other
/// end is no decision (fails open unless `on_failure: "block"`, the native `onError`).
const GOOSE: Rules = Rules {
    dialect: Dialect::Goose,
    plain_stdout: PlainStdout::Ignored,
    json_block_blocks_prompt: false,
    stop_exit2_forces_without_stderr: false,
    invalid: refuses_nothing,
    reads_top_level: false,
    tool_output: ToolOutput::Unsupported,
    ..CLAUDE
};

/// opencode: no hook file and no hook command of its own (its hooks are JS plugins; a hook
/// object cannot say `"dialect": "opencode"`, `config::raw`): hookhost's own rules, were one
/// ever judged.
const OPENCODE: Rules = Rules {
    dialect: Dialect::Opencode,
    ..NATIVE
};

/// Cline's rules; columns as [`NATIVE_TABLE`]. Only an answer's `cancel: true` stops
/// anything: any exit, a timeout or a crash is a hook failure that does not (docs.cline.bot,
/// "Hook Reference", "Error Handling"), so exit 2 is a warning like any other failure, and a
/// failure blocks only where a native `onError: "block"` says so (Cline has no such switch).
pub const CLINE_TABLE: Table = {
    use Cell::*;
    [
        (
            Condition::Exit0,
            [Pass, Pass, Pass, Pass, Pass, Pass, Pass, Pass],
        ),
        (
            Condition::Exit2,
            [
                WarnOrBlock,
                WarnOrBlock,
                Warn,
                Warn,
                Warn,
                WarnOrBlock,
                WarnOrBlock,
                Block,
            ],
        ),
        (
            Condition::OtherExit,
            [
                WarnOrBlock,
                WarnOrBlock,
                Warn,
                Warn,
                Warn,
                WarnOrBlock,
                WarnOrBlock,
                Block,
            ],
        ),
        (
            Condition::Timeout,
            [
                WarnOrBlock,
                WarnOrBlock,
                Warn,
                Warn,
                Warn,
                WarnOrBlock,
                WarnOrBlock,
                Block,
            ],
        ),
        (
            Condition::SpawnFailure,
            [
                WarnOrBlock,
                WarnOrBlock,
                Warn,
                Warn,
                Warn,
                WarnOrBlock,
                WarnOrBlock,
                Block,
            ],
        ),
    ]
};

/// Cline reads only the last JSON object of stdout: lines before it are logging.
fn last_json_object(stdout: &[u8]) -> Cow<'_, [u8]> {
    let starts = stdout
        .split(|b| *b == b'\n')
        .scan(0usize, |at, line| {
            let start = *at;
            *at += line.len() + 1;
            Some((start, line))
        })
        .filter(|(_, line)| line.trim_ascii_start().starts_with(b"{"))
        .map(|(start, _)| start);
    // The last line that starts an object and, from there, is one JSON value.
    let found = starts.collect::<Vec<_>>().into_iter().rev().find(|&start| {
        serde_json::from_slice::<serde_json::Value>(&stdout[start..]).is_ok_and(|v| v.is_object())
    });
    match found {
        Some(start) if start > 0 => Cow::Borrowed(&stdout[start..]),
        _ => Cow::Borrowed(stdout),
    }
}

/// Cline: [`CLINE_TABLE`]; stdout is JSON (its last object) or nothing; `cancel: true`
/// blocks (read by the one answer reader), `contextModification` is context for the model.
const CLINE: Rules = Rules {
    dialect: Dialect::Cline,
    table: CLINE_TABLE,
    exit2_needs_stderr: false,
    plain_stdout: PlainStdout::Ignored,
    json_block_blocks_prompt: true,
    refuses: refuses_nothing,
    merges_tool_input: false,
    stop_exit2_forces_without_stderr: false,
    invalid: refuses_nothing,
    reads_top_level: false,
    tool_output: ToolOutput::Unsupported,
    answer_of: last_json_object,
};

/// Windsurf's rules; columns as [`NATIVE_TABLE`]. Exit 2 blocks what a pre-hook is about (a
/// tool call, a prompt), with stderr (else stdout) as the reason; any other exit is a hook
/// error that is "logged but the action still proceeds" (docs.windsurf.com, "Cascade Hooks",
/// "Exit Codes"), and so are a timeout and a failure to start (Windsurf documents neither):
/// they block only where a native `onError: "block"` says so. A post-hook cannot change what
/// happened, `post_cascade_response` cannot keep Cascade going.
pub const WINDSURF_TABLE: Table = {
    use Cell::*;
    const FAILS_OPEN: [Cell; 8] = [
        WarnOrBlock,
        WarnOrBlock,
        Warn,
        Warn,
        Warn,
        WarnOrBlock,
        WarnOrBlock,
        Block,
    ];
    [
        (
            Condition::Exit0,
            [Pass, Pass, Pass, Pass, Pass, Pass, Pass, Pass],
        ),
        (
            Condition::Exit2,
            [Block, BlockPrompt, Warn, Warn, Warn, Block, Block, Block],
        ),
        (Condition::OtherExit, FAILS_OPEN),
        (Condition::Timeout, FAILS_OPEN),
        (Condition::SpawnFailure, FAILS_OPEN),
    ]
};

/// Windsurf reads no answer from stdout: exit codes only.
fn no_answer(_stdout: &[u8]) -> Cow<'_, [u8]> {
    Cow::Borrowed(&[])
}

/// Windsurf: [`WINDSURF_TABLE`]; stdout, JSON or not, decides nothing.
const WINDSURF: Rules = Rules {
    dialect: Dialect::Windsurf,
    table: WINDSURF_TABLE,
    exit2_needs_stderr: false,
    plain_stdout: PlainStdout::Ignored,
    json_block_blocks_prompt: false,
    refuses: refuses_nothing,
    merges_tool_input: false,
    stop_exit2_forces_without_stderr: false,
    invalid: refuses_nothing,
    reads_top_level: false,
    tool_output: ToolOutput::Unsupported,
    answer_of: no_answer,
};

/// The rules hooks of dialect `d` are judged by.
pub fn rules(d: Dialect) -> &'static Rules {
    match d {
        Dialect::Native => &NATIVE,
        Dialect::Ling => &LING,
        Dialect::Claude => &CLAUDE,
        Dialect::Gemini => &GEMINI,
        Dialect::Codex => &CODEX,
        Dialect::Cursor => &CURSOR,
        Dialect::Copilot => &COPILOT,
        Dialect::Qwen => &QWEN,
        Dialect::Qoder => &QODER,
        Dialect::Grok => &GROK,
        Dialect::Droid => &DROID,
        Dialect::Auggie => &AUGGIE,
        Dialect::Vscode => &VSCODE,
        Dialect::Goose => &GOOSE,
        Dialect::Opencode => &OPENCODE,
        Dialect::Cline => &CLINE,
        Dialect::Windsurf => &WINDSURF,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cline_reads_the_last_json_object() {
        let out = b"Processing hook...\nTool: x\n{\"cancel\": true}\n";
        assert_eq!(&*last_json_object(out), b"{\"cancel\": true}\n");
        let pretty = b"log\n{\n  \"cancel\": false\n}\n";
        assert_eq!(&*last_json_object(pretty), b"{\n  \"cancel\": false\n}\n");
        assert_eq!(&*last_json_object(b"plain"), b"plain");
    }

    #[test]
    fn copilot_progress_lines_are_not_the_answer() {
        let out = b"{\"type\": \"progress\", \"message\": \"Checking...\"}\n{\"permissionDecision\": \"deny\"}\n";
        assert_eq!(
            &*without_progress_lines(out),
            b"{\"permissionDecision\": \"deny\"}\n"
        );
        // A pretty-printed progress object is not a progress line (Copilot CLI keeps it too).
        let multi = b"{\n\"type\": \"progress\"\n}\n";
        assert_eq!(&*without_progress_lines(multi), multi);
        assert!(matches!(without_progress_lines(b"plain"), Cow::Borrowed(_)));
    }
}
