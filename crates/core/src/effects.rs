//! [`Effects`]: everything a hook can do to the agent, as one closed type.
//!
//! A hook's answer, once judged, is an `Effects` value; the effects of an event's hooks fold
//! into one `Effects` that the loop obeys. Every kind of effect has an [`EffectKind`], so a
//! trust level can say which kinds it *keeps* ([`EffectSet`], an allowlist): a kind added here
//! is dropped for untrusted hooks until someone allows it, because [`Effects::keep`] names
//! every field and copies only the allowed ones.
//!
//! This module is the core's vocabulary: it knows nothing of config files, processes or trust.

use serde_json::Value;

/// The decision of an event's hooks, as the loop sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Verdict {
    /// Go on.
    #[default]
    Pass,
    /// PreToolUse: do not run the tool; the reason goes to the model as the tool result.
    /// UserPromptSubmit (another agent's hook): the prompt is dropped.
    Block(String),
    /// Stop/SubagentStop: do not stop; the message becomes a user turn.
    Force(String),
}

/// Everything hooks asked for: of one hook (after its judgement), or of one event (folded
/// from its hooks, in order).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Effects {
    /// Pass, block (with a reason) or force (with a message).
    pub verdict: Verdict,
    /// `continue: false`: the loop ends with this reason, shown to the user. On PreToolUse
    /// the call is blocked as well.
    pub stop: Option<String>,
    /// PreToolUse: the arguments to run the tool with (after every hook's `updatedInput`).
    pub updated_args: Option<Value>,
    /// PreToolUse: a hook asked for the permission prompt.
    pub ask: bool,
    /// Why it asked (`permissionDecisionReason`), shown at the prompt; with `ask` only.
    pub ask_reason: Option<String>,
    /// PreToolUse: a hook deferred the decision (Claude Code's `defer`). It decides nothing
    /// here: the permission checker runs as for a pass (the core has no pause-and-resume);
    /// an agent hookhost answers for (`hook --for claude`) gets `defer` back.
    pub defer: bool,
    /// PermissionRequest: a hook allowed the call without the prompt. The loop only fires
    /// PermissionRequest for a call the permission checker would ask about, so this never
    /// overrides a deny (hooks block, never bypass).
    pub allow: bool,
    /// Text to add to the model's context.
    pub additional_context: Vec<String>,
    /// Feedback for the model about a tool call (PostToolUse exit 2 stderr).
    pub feedback: Vec<String>,
    /// Text to show the user.
    pub system_messages: Vec<String>,
    /// PostToolUse: what the model sees as the tool's result instead of its output (Claude
    /// Code's `updatedToolOutput`; the last hook that gives one wins).
    pub updated_tool_output: Option<Value>,
    /// SessionStart: variables for the shell tool's later calls, in order (what a hook wrote
    /// to `CLAUDE_ENV_FILE`; a later one overrides an earlier one of the same name).
    pub env: Vec<(String, String)>,
    /// UserPromptSubmit: the prompt to send the model instead of the user's (a hook's
    /// `updatedPrompt`; each later hook sees the one before it, the last one is sent).
    pub updated_prompt: Option<String>,
    /// PermissionDenied: a hook told the model it may retry the denied call (Claude Code's
    /// `hookSpecificOutput.retry`).
    pub retry: bool,
    /// WorktreeCreate: where the hook created the worktree (an absolute path: a command
    /// hook's stdout, an HTTP hook's `hookSpecificOutput.worktreePath`; the first hook that
    /// gives one wins).
    pub worktree_path: Option<String>,
    /// Elicitation, ElicitationResult: the answer a hook gives the MCP server instead of the
    /// user's (the first hook that gives one wins; a block is a decline).
    pub elicitation: Option<ElicitationAnswer>,
}

/// A hook's answer to an MCP server's elicitation (Claude Code's `hookSpecificOutput.action`
/// and `content`).
#[derive(Debug, Clone, PartialEq)]
pub struct ElicitationAnswer {
    /// `accept`, `decline` or `cancel`.
    pub action: String,
    /// With `accept`: the form's values.
    pub content: Option<Value>,
}

/// What the hooks of one event returned to the loop: the event's folded [`Effects`].
pub type HookVerdict = Effects;

/// One kind of effect: a field of [`Effects`] (the verdict counts as two kinds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum EffectKind {
    /// Block the call (or the prompt).
    Block,
    /// Keep the agent going.
    Force,
    /// Stop the agent.
    Stop,
    /// Rewrite the tool arguments.
    Rewrite,
    /// Hand the call to the permission prompt.
    Ask,
    /// Allow a call the permission checker would ask about (PermissionRequest).
    Allow,
    /// Add text to the model's context.
    AdditionalContext,
    /// Give the model feedback about a tool call.
    Feedback,
    /// Show the user a message.
    SystemMessage,
    /// Defer the decision (to the permission checker, or the agent hookhost answers for).
    Defer,
    /// Replace what the model sees as a tool's result.
    UpdatedToolOutput,
    /// Set variables for the shell tool's later calls.
    Env,
    /// Replace the user's prompt (UserPromptSubmit).
    UpdatedPrompt,
    /// Tell the model it may retry a denied call (PermissionDenied).
    Retry,
    /// Say where a worktree was created (WorktreeCreate).
    WorktreePath,
    /// Answer an MCP server's elicitation in the user's place.
    Elicitation,
}

impl EffectKind {
    /// Every kind.
    pub const ALL: [EffectKind; 16] = [
        EffectKind::Block,
        EffectKind::Force,
        EffectKind::Stop,
        EffectKind::Rewrite,
        EffectKind::Ask,
        EffectKind::Allow,
        EffectKind::AdditionalContext,
        EffectKind::Feedback,
        EffectKind::SystemMessage,
        EffectKind::Defer,
        EffectKind::UpdatedToolOutput,
        EffectKind::Env,
        EffectKind::UpdatedPrompt,
        EffectKind::Retry,
        EffectKind::WorktreePath,
        EffectKind::Elicitation,
    ];

    /// The name used in messages: `block`, `rewrite`, `additionalContext`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            EffectKind::Block => "block",
            EffectKind::Force => "force",
            EffectKind::Stop => "stop",
            EffectKind::Rewrite => "rewrite",
            EffectKind::Ask => "ask",
            EffectKind::Allow => "allow",
            EffectKind::AdditionalContext => "additionalContext",
            EffectKind::Feedback => "feedback",
            EffectKind::SystemMessage => "systemMessage",
            EffectKind::Defer => "defer",
            EffectKind::UpdatedToolOutput => "updatedToolOutput",
            EffectKind::Env => "env",
            EffectKind::UpdatedPrompt => "updatedPrompt",
            EffectKind::Retry => "retry",
            EffectKind::WorktreePath => "worktreePath",
            EffectKind::Elicitation => "elicitation",
        }
    }
}

/// A set of [`EffectKind`]s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EffectSet(u32);

impl EffectSet {
    /// No kind.
    pub const NONE: EffectSet = EffectSet(0);
    /// Every kind.
    pub const ALL: EffectSet = EffectSet((1 << EffectKind::ALL.len()) - 1);

    /// The set of `kinds`.
    pub const fn of(kinds: &[EffectKind]) -> EffectSet {
        let mut bits = 0;
        let mut i = 0;
        while i < kinds.len() {
            bits |= 1 << kinds[i] as u8;
            i += 1;
        }
        EffectSet(bits)
    }

    /// Whether `kind` is in the set.
    pub const fn contains(self, kind: EffectKind) -> bool {
        self.0 & (1 << kind as u8) != 0
    }

    /// The kinds in both sets.
    pub const fn intersect(self, other: EffectSet) -> EffectSet {
        EffectSet(self.0 & other.0)
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kinds in the set, in [`EffectKind::ALL`] order.
    pub fn kinds(self) -> impl Iterator<Item = EffectKind> {
        EffectKind::ALL
            .into_iter()
            .filter(move |k| self.contains(*k))
    }

    fn with(self, kind: EffectKind, present: bool) -> EffectSet {
        if present {
            EffectSet(self.0 | 1 << kind as u8)
        } else {
            self
        }
    }
}

impl std::fmt::Display for EffectSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<_> = self.kinds().map(EffectKind::as_str).collect();
        f.write_str(&names.join(", "))
    }
}

impl Effects {
    /// Pass, with nothing added.
    pub fn pass() -> Self {
        Self::default()
    }

    /// The kinds of effect present.
    pub fn kinds(&self) -> EffectSet {
        let Effects {
            verdict,
            stop,
            updated_args,
            ask,
            ask_reason: _,
            defer,
            allow,
            additional_context,
            feedback,
            system_messages,
            updated_tool_output,
            env,
            updated_prompt,
            retry,
            worktree_path,
            elicitation,
        } = self;
        EffectSet::NONE
            .with(EffectKind::Block, matches!(verdict, Verdict::Block(_)))
            .with(EffectKind::Force, matches!(verdict, Verdict::Force(_)))
            .with(EffectKind::Stop, stop.is_some())
            .with(EffectKind::Rewrite, updated_args.is_some())
            .with(EffectKind::Ask, *ask)
            .with(EffectKind::Allow, *allow)
            .with(
                EffectKind::AdditionalContext,
                !additional_context.is_empty(),
            )
            .with(EffectKind::Feedback, !feedback.is_empty())
            .with(EffectKind::SystemMessage, !system_messages.is_empty())
            .with(EffectKind::Defer, *defer)
            .with(EffectKind::UpdatedToolOutput, updated_tool_output.is_some())
            .with(EffectKind::Env, !env.is_empty())
            .with(EffectKind::UpdatedPrompt, updated_prompt.is_some())
            .with(EffectKind::Retry, *retry)
            .with(EffectKind::WorktreePath, worktree_path.is_some())
            .with(EffectKind::Elicitation, elicitation.is_some())
    }

    /// Only the effects whose kind is in `allowed`, and the kinds that were dropped. Every
    /// field is named here: a field added to [`Effects`] does not compile until it is given a
    /// kind, and a kind is kept only where an allowlist names it.
    pub fn keep(self, allowed: EffectSet) -> (Effects, EffectSet) {
        let dropped = EffectSet(self.kinds().0 & !allowed.0);
        let Effects {
            verdict,
            stop,
            updated_args,
            ask,
            ask_reason,
            defer,
            allow,
            additional_context,
            feedback,
            system_messages,
            updated_tool_output,
            env,
            updated_prompt,
            retry,
            worktree_path,
            elicitation,
        } = self;
        let list = |kind, items: Vec<_>| {
            if allowed.contains(kind) {
                items
            } else {
                Vec::new()
            }
        };
        let verdict = match verdict {
            Verdict::Block(r) if allowed.contains(EffectKind::Block) => Verdict::Block(r),
            Verdict::Force(m) if allowed.contains(EffectKind::Force) => Verdict::Force(m),
            _ => Verdict::Pass,
        };
        let kept = Effects {
            verdict,
            stop: stop.filter(|_| allowed.contains(EffectKind::Stop)),
            updated_args: updated_args.filter(|_| allowed.contains(EffectKind::Rewrite)),
            ask: ask && allowed.contains(EffectKind::Ask),
            ask_reason: ask_reason.filter(|_| ask && allowed.contains(EffectKind::Ask)),
            defer: defer && allowed.contains(EffectKind::Defer),
            allow: allow && allowed.contains(EffectKind::Allow),
            additional_context: list(EffectKind::AdditionalContext, additional_context),
            feedback: list(EffectKind::Feedback, feedback),
            system_messages: list(EffectKind::SystemMessage, system_messages),
            updated_tool_output: updated_tool_output
                .filter(|_| allowed.contains(EffectKind::UpdatedToolOutput)),
            env: if allowed.contains(EffectKind::Env) {
                env
            } else {
                Vec::new()
            },
            updated_prompt: updated_prompt.filter(|_| allowed.contains(EffectKind::UpdatedPrompt)),
            retry: retry && allowed.contains(EffectKind::Retry),
            worktree_path: worktree_path.filter(|_| allowed.contains(EffectKind::WorktreePath)),
            elicitation: elicitation.filter(|_| allowed.contains(EffectKind::Elicitation)),
        };
        (kept, dropped)
    }

    /// One effect of `kind` (with placeholder text), for tests of allowlists.
    pub fn only(kind: EffectKind) -> Effects {
        let text = || format!("{} effect", kind.as_str());
        let mut e = Effects::default();
        match kind {
            EffectKind::Block => e.verdict = Verdict::Block(text()),
            EffectKind::Force => e.verdict = Verdict::Force(text()),
            EffectKind::Stop => e.stop = Some(text()),
            EffectKind::Rewrite => e.updated_args = Some(Value::Object(Default::default())),
            EffectKind::Ask => e.ask = true,
            EffectKind::Allow => e.allow = true,
            EffectKind::AdditionalContext => e.additional_context.push(text()),
            EffectKind::Feedback => e.feedback.push(text()),
            EffectKind::SystemMessage => e.system_messages.push(text()),
            EffectKind::Defer => e.defer = true,
            EffectKind::UpdatedToolOutput => e.updated_tool_output = Some(Value::String(text())),
            EffectKind::Env => e.env.push(("EFFECT".into(), text())),
            EffectKind::UpdatedPrompt => e.updated_prompt = Some(text()),
            EffectKind::Retry => e.retry = true,
            EffectKind::WorktreePath => e.worktree_path = Some("/worktree".into()),
            EffectKind::Elicitation => {
                e.elicitation = Some(ElicitationAnswer {
                    action: "decline".into(),
                    content: None,
                });
            }
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_seen_and_kept_only_when_allowed() {
        for kind in EffectKind::ALL {
            let e = Effects::only(kind);
            assert_eq!(e.kinds(), EffectSet::of(&[kind]), "{kind:?}");
            let (kept, dropped) = e.clone().keep(EffectSet::ALL);
            assert_eq!((kept, dropped), (e.clone(), EffectSet::NONE), "{kind:?}");
            let (kept, dropped) = e.keep(EffectSet::NONE);
            assert_eq!(kept, Effects::pass(), "{kind:?}");
            assert_eq!(dropped, EffectSet::of(&[kind]));
        }
        assert_eq!(EffectSet::ALL, EffectSet::of(&EffectKind::ALL));
    }

    #[test]
    fn keep_drops_what_is_not_listed() {
        let mut e = Effects::only(EffectKind::Block);
        e.updated_args = Some(serde_json::json!({"command": "rm -rf ~"}));
        e.stop = Some("halt".into());
        let (kept, dropped) = e.keep(EffectSet::of(&[EffectKind::Block]));
        assert_eq!(kept, Effects::only(EffectKind::Block));
        assert_eq!(dropped.to_string(), "stop, rewrite");
    }
}
