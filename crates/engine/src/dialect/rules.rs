//! Each dialect's rules for judging its hooks, as values: the decision table it uses, and the
//! few ways its agent reads an answer differently. `decision::judge` applies them; nothing
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
//! | top-level `additionalContext`, `updatedToolOutput` | read | ignored (read inside `hookSpecificOutput`) | ignored | ignored |
//! | a tool's result replaced | `updatedToolOutput` | `hookSpecificOutput.updatedToolOutput` | AfterTool deny / exit 2: "Tool result blocked: REASON" | not applied (warn) |
//! | `hookSpecificOutput.tool_input` | not read | not read | merged into the arguments | not read |

use super::Dialect;
use crate::decision::{Cell, Condition, Table};
use crate::output::{HookResponse, JsonDecision, StatedDecision};

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
}

/// DESIGN §4 row by row; columns: PreToolUse, UserPromptSubmit, PostToolUse, the other
/// observing events, Stop/SubagentStop.
pub const NATIVE_TABLE: Table = {
    use Cell::*;
    [
        (Condition::Exit0, [Pass, Pass, Pass, Pass, Pass]),
        (
            Condition::Exit2,
            [Block, Warn, Feedback, Warn, ForceIfStdout],
        ),
        (Condition::OtherExit, [WarnOrBlock, Warn, Warn, Warn, Warn]),
        (Condition::Timeout, [Block, Warn, Warn, Warn, Warn]),
        (Condition::SpawnFailure, [Block, Warn, Warn, Warn, Warn]),
    ]
};

/// Claude Code's rules, shared by Gemini CLI and Codex; columns as [`NATIVE_TABLE`]. A failure
/// (other exit, crash, timeout, a command that cannot start) is a non-blocking error there;
/// `onError: "block"` makes it fail closed on PreToolUse.
pub const CLAUDE_TABLE: Table = {
    use Cell::*;
    [
        (Condition::Exit0, [Pass, Pass, Pass, Pass, Pass]),
        (
            Condition::Exit2,
            [BlockStderr, BlockPrompt, Feedback, Warn, ForceStderr],
        ),
        (Condition::OtherExit, [WarnOrBlock, Warn, Warn, Warn, Warn]),
        (Condition::Timeout, [WarnOrBlock, Warn, Warn, Warn, Warn]),
        (
            Condition::SpawnFailure,
            [WarnOrBlock, Warn, Warn, Warn, Warn],
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

/// The rules hooks of dialect `d` are judged by.
pub fn rules(d: Dialect) -> &'static Rules {
    match d {
        Dialect::Native => &NATIVE,
        Dialect::Ling => &LING,
        Dialect::Claude => &CLAUDE,
        Dialect::Gemini => &GEMINI,
        Dialect::Codex => &CODEX,
    }
}
