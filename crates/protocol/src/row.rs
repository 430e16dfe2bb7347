//! The words of the decision table (DESIGN §4) as data: its rows ([`Condition`]: how a hook
//! ended), its cells ([`Cell`]: what a row means in an event's column), and [`Row`]: which row
//! a judgement came from, set by the engine's `judge` as it decides (never re-derived
//! afterwards), and what refined it ([`Via`]: an exit 0's answer, a cell's condition that did
//! not hold, `continue: false`), shown as the decision log's `row`.
//!
//! The tables themselves and judging are the engine's (`judge/`: `mod.rs` and `rules.rs`).

use std::fmt;

/// The rows of DESIGN §4: how a hook ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// Exit 0 (the JSON protocol may refine it).
    Exit0,
    /// Exit 2.
    Exit2,
    /// Any other non-zero exit, or a crash (signal, wasm trap).
    OtherExit,
    /// Timed out.
    Timeout,
    /// Missing file, bad module, cwd gone, shell exit 126/127, refused connection.
    SpawnFailure,
}

/// A cell of a decision table: what a row means in a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// Pass (exit 0: the JSON answer is read).
    Pass,
    /// Block (PermissionRequest: deny), with stderr, else stdout, else a default as the
    /// reason (a failure: its message).
    Block,
    /// Warn: logged, no decision.
    Warn,
    /// Stop/SubagentStop exit 2: force when stdout is non-empty, else warn.
    ForceIfStdout,
    /// Warn, unless the hook says `onError: "block"` (then block).
    WarnOrBlock,
    /// Block with stderr as the reason (Claude Code's exit 2 on PreToolUse).
    BlockStderr,
    /// Block the prompt with stderr as the reason (exit 2 on UserPromptSubmit).
    BlockPrompt,
    /// Warn, and stderr goes to the model (exit 2 on PostToolUse).
    Feedback,
    /// Force with stderr as the message when there is one, else warn (exit 2 on Stop).
    ForceStderr,
}

/// Where a judgement came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    /// The hook ran: how it ended (the table's row), the cell of that row in the event's
    /// column, what refined the cell, and whether trust (or a re-run) dropped effects.
    Table {
        /// How the hook ended.
        condition: Condition,
        /// The cell of the dialect's table for that row at the event's column.
        cell: Cell,
        /// What made the judgement from the cell.
        via: Via,
        /// Its trust level (or a second run on a rewritten call) dropped some effects.
        reduced: bool,
    },
    /// An untrusted project hook the trust policy did not run; `blocks`: under `block` it
    /// blocks the call.
    Untrusted {
        /// The policy is `block` (the call is blocked).
        blocks: bool,
    },
    /// A command hook that must run sandboxed (its grants, or managed `requireSandbox`) and
    /// could not be (no sandbox on this system, or `"sandbox": false` against the policy): not
    /// run; `blocks` on a blocking event (a guard that cannot run fails closed).
    NoSandbox {
        /// The event blocks (the call is blocked).
        blocks: bool,
    },
}

/// What made a judgement from its cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// The cell as it stands (an exit 0 with nothing on stdout is a plain pass).
    Cell,
    /// The cell's condition did not hold (exit 2 with no stderr where one is needed, no
    /// stdout to force with, `onError` not `block`): a warning.
    Fallback,
    /// Exit 0 with plain text on stdout.
    PlainText,
    /// Exit 0 with a JSON answer, read.
    Json,
    /// Exit 0 with an answer that starts like JSON but cannot be read (fails closed where the
    /// hook can block).
    UnreadableJson,
    /// Exit 0 with a JSON answer that is ignored with a warning.
    IgnoredJson,
    /// `continue: false` on PreToolUse: the call is blocked too.
    ContinueFalse,
}

impl Row {
    /// The row of a hook that ended as `condition`, judged by `cell` alone.
    pub fn table(condition: Condition, cell: Cell) -> Self {
        Row::Table {
            condition,
            cell,
            via: Via::Cell,
            reduced: false,
        }
    }

    /// The same row, refined by `how`.
    #[must_use]
    pub fn via(self, how: Via) -> Self {
        match self {
            Row::Table {
                condition,
                cell,
                reduced,
                ..
            } => Row::Table {
                condition,
                cell,
                via: how,
                reduced,
            },
            other => other,
        }
    }

    /// The same row, with effects dropped by trust or a re-run.
    #[must_use]
    pub fn reduced(self) -> Self {
        match self {
            Row::Table {
                condition,
                cell,
                via,
                ..
            } => Row::Table {
                condition,
                cell,
                via,
                reduced: true,
            },
            other => other,
        }
    }
}

impl Condition {
    /// The row's name in DESIGN §4.
    pub fn as_str(self) -> &'static str {
        match self {
            Condition::Exit0 => "exit 0",
            Condition::Exit2 => "exit 2",
            Condition::OtherExit => "other exit or crash",
            Condition::Timeout => "timeout",
            Condition::SpawnFailure => "spawn failure",
        }
    }
}

impl Cell {
    /// What the cell says, in the table's words.
    pub fn as_str(self) -> &'static str {
        match self {
            Cell::Pass => "pass",
            Cell::Block => "block",
            Cell::Warn => "warn",
            Cell::ForceIfStdout => "force if stdout (stdout is the message)",
            Cell::WarnOrBlock => "warn (block if onError: block)",
            Cell::BlockStderr => "block (stderr is the reason)",
            Cell::BlockPrompt => "block the prompt (stderr is the reason)",
            Cell::Feedback => "warn (stderr is feedback for the model)",
            Cell::ForceStderr => "force (stderr is the message)",
        }
    }
}

impl Via {
    fn suffix(self) -> &'static str {
        match self {
            Via::Cell => "",
            Via::Fallback => ", its condition not met: warn",
            Via::PlainText => ", plain stdout",
            Via::Json => ", JSON answer",
            Via::UnreadableJson => ", unreadable JSON answer",
            Via::IgnoredJson => ", JSON answer ignored",
            Via::ContinueFalse => ", JSON answer: continue false blocks the call",
        }
    }
}

/// `exit 2: block (stderr is the reason)`, `exit 0: pass, JSON answer`, `timeout: block`,
/// `untrusted: not run (trust policy skip)`: the `row` of the decision log.
impl fmt::Display for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Row::Table {
                condition,
                cell,
                via,
                reduced,
            } => {
                write!(
                    f,
                    "{}: {}{}",
                    condition.as_str(),
                    cell.as_str(),
                    via.suffix()
                )?;
                if *reduced {
                    f.write_str(" (reduced: effects dropped by trust or a re-run)")?;
                }
                Ok(())
            }
            Row::Untrusted { blocks: false } => {
                f.write_str("untrusted: not run (trust policy skip)")
            }
            Row::Untrusted { blocks: true } => {
                f.write_str("untrusted: not run, blocks (trust policy block)")
            }
            Row::NoSandbox { blocks: false } => f.write_str("not run: cannot run sandboxed"),
            Row::NoSandbox { blocks: true } => {
                f.write_str("not run: cannot run sandboxed, blocks (fails closed)")
            }
        }
    }
}
