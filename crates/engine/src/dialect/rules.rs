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
//! | refused PreToolUse answers | none | none | none | allow, ask, `updatedInput`, a deny without a reason |
//! | `hookSpecificOutput.tool_input` | not read | not read | merged into the arguments | not read |

use super::Dialect;
use crate::decision::{Cell, Condition, Table};
use crate::output::{HookResponse, JsonDecision};

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
}

/// DESIGN §4 row by row; columns: PreToolUse, UserPromptSubmit, PostToolUse (and
/// PostToolUseFailure), the other observing events, Stop/SubagentStop, PermissionRequest.
/// A PermissionRequest hook that fails leaves the call to the prompt (the safe default: it is
/// asked as if no hook ran), unless it says `onError: "block"`.
pub const NATIVE_TABLE: Table = {
    use Cell::*;
    [
        (Condition::Exit0, [Pass, Pass, Pass, Pass, Pass, Pass]),
        (
            Condition::Exit2,
            [Block, Warn, Feedback, Warn, ForceIfStdout, Block],
        ),
        (
            Condition::OtherExit,
            [WarnOrBlock, Warn, Warn, Warn, Warn, WarnOrBlock],
        ),
        (
            Condition::Timeout,
            [Block, Warn, Warn, Warn, Warn, WarnOrBlock],
        ),
        (
            Condition::SpawnFailure,
            [Block, Warn, Warn, Warn, Warn, WarnOrBlock],
        ),
    ]
};

/// Claude Code's rules, shared by Gemini CLI and Codex; columns as [`NATIVE_TABLE`]. A failure
/// (other exit, crash, timeout, a command that cannot start) is a non-blocking error there;
/// `onError: "block"` makes it fail closed on PreToolUse and PermissionRequest. Exit 2 on
/// PermissionRequest denies with stderr (Claude Code's hooks reference, "exit code 2
/// behavior": PermissionRequest "denies the permission"); on the observing events Claude
/// Code added (Notification, SubagentStart, PostCompact, StopFailure) it only shows stderr
/// to the user: a warning here; on PostToolUseFailure stderr goes to the model.
pub const CLAUDE_TABLE: Table = {
    use Cell::*;
    [
        (Condition::Exit0, [Pass, Pass, Pass, Pass, Pass, Pass]),
        (
            Condition::Exit2,
            [
                BlockStderr,
                BlockPrompt,
                Feedback,
                Warn,
                ForceStderr,
                BlockStderr,
            ],
        ),
        (
            Condition::OtherExit,
            [WarnOrBlock, Warn, Warn, Warn, Warn, WarnOrBlock],
        ),
        (
            Condition::Timeout,
            [WarnOrBlock, Warn, Warn, Warn, Warn, WarnOrBlock],
        ),
        (
            Condition::SpawnFailure,
            [WarnOrBlock, Warn, Warn, Warn, Warn, WarnOrBlock],
        ),
    ]
};

fn refuses_nothing(_: &HookResponse) -> Option<String> {
    None
}

/// What Codex refuses in a PreToolUse answer: `permissionDecision` "allow" or "ask", an
/// `updatedInput`, a deny without a reason.
fn codex_refuses(r: &HookResponse) -> Option<String> {
    match r.permission_decision {
        Some(JsonDecision::Allow) => return Some("unsupported permissionDecision:allow".into()),
        Some(JsonDecision::Ask) => return Some("unsupported permissionDecision:ask".into()),
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
};

const GEMINI: Rules = Rules {
    dialect: Dialect::Gemini,
    plain_stdout: PlainStdout::UserMessage,
    merges_tool_input: true,
    ..CLAUDE
};

const CODEX: Rules = Rules {
    dialect: Dialect::Codex,
    exit2_needs_stderr: true,
    refuses: codex_refuses,
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
