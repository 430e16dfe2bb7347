//! [`ToolHooks`]: what the agent loop calls at each lifecycle event.

pub use super::effects::{HookVerdict, Verdict};
use async_trait::async_trait;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Who is asking: the session, its working directory, and whether this is a subagent.
#[derive(Debug, Clone)]
pub struct HookContext {
    /// The session (`sessionId` in payloads).
    pub session_id: String,
    /// The project directory (`cwd` in payloads).
    pub cwd: PathBuf,
    /// Set inside a subagent (`"isSubagent": true` in payloads).
    pub is_subagent: bool,
    /// Inside a subagent: its type (the `task` tool's `subagent`, as SubagentStart named it),
    /// which SubagentStop reports (`agentType`) and Claude Code's matchers match.
    pub agent_type: Option<String>,
}

/// One call of a model turn's batch, as PostToolBatch reports it once every call resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchCall {
    /// The tool call's id, as the model gave it.
    pub id: String,
    /// The tool.
    pub tool: String,
    /// The arguments it ran with (a hook's rewrite included).
    pub args: Value,
    /// What the model sees as its result.
    pub result: Value,
    /// Whether it failed (or did not run: blocked, denied).
    pub is_error: bool,
}

/// The hooks the agent loop fires. Every method defaults to "pass", so an implementation
/// overrides only the events it cares about.
#[async_trait]
pub trait ToolHooks: Send + Sync {
    /// SessionStart, at the first run; `source` is `startup` or `resume`.
    async fn session_start(&self, _cx: &HookContext, _source: &str) -> HookVerdict {
        HookVerdict::pass()
    }
    /// UserPromptSubmit, before `prompt` is appended to the conversation.
    async fn user_prompt_submit(&self, _cx: &HookContext, _prompt: &str) -> HookVerdict {
        HookVerdict::pass()
    }
    /// PreToolUse, before the permission check: may block the call or rewrite `args`.
    async fn pre_tool_use(&self, _cx: &HookContext, _tool: &str, _args: &Value) -> HookVerdict {
        HookVerdict::pass()
    }
    /// PostToolUse, after the tool ran (`is_error` when it failed): may add feedback for
    /// the model.
    async fn post_tool_use(
        &self,
        _cx: &HookContext,
        _tool: &str,
        _args: &Value,
        _result: &Value,
        _is_error: bool,
    ) -> HookVerdict {
        HookVerdict::pass()
    }
    /// PreCompact, before compaction; `trigger` is `auto` or `manual`.
    async fn pre_compact(&self, _cx: &HookContext, _trigger: &str) -> HookVerdict {
        HookVerdict::pass()
    }
    /// Stop, at a final answer: may force the agent on; `stop_hook_active` when a Stop hook
    /// already forced this run.
    async fn stop(&self, _cx: &HookContext, _stop_hook_active: bool) -> HookVerdict {
        HookVerdict::pass()
    }
    /// SubagentStop, at a subagent's final answer (fired on the parent's hooks); as
    /// [`stop`](Self::stop).
    async fn subagent_stop(&self, _cx: &HookContext, _stop_hook_active: bool) -> HookVerdict {
        HookVerdict::pass()
    }
    /// SessionEnd; `reason` says why the session ended.
    async fn session_end(&self, _cx: &HookContext, _reason: &str) -> HookVerdict {
        HookVerdict::pass()
    }
    /// PermissionRequest: the permission checker would ask the user about `tool` with `args`
    /// (`reason`: the rule or hook that asks). May allow the call without asking
    /// ([`HookVerdict::allow`]) or deny it (a block); only ever fired for a call the checker
    /// asks about, never for one it denies.
    async fn permission_request(
        &self,
        _cx: &HookContext,
        _tool: &str,
        _args: &Value,
        _reason: &str,
    ) -> HookVerdict {
        HookVerdict::pass()
    }
    /// PostToolUseFailure, after a tool call that failed (besides PostToolUse, which fires
    /// for every call); `error` is the failure as text.
    async fn post_tool_use_failure(
        &self,
        _cx: &HookContext,
        _tool: &str,
        _args: &Value,
        _error: &str,
    ) -> HookVerdict {
        HookVerdict::pass()
    }
    /// Notification: the agent tells the user something (`kind`: `permission_prompt` when
    /// it is about to ask for a permission).
    async fn notification(&self, _cx: &HookContext, _message: &str, _kind: &str) -> HookVerdict {
        HookVerdict::pass()
    }
    /// SubagentStart, before a subagent runs (fired on the parent's hooks); its context goes
    /// to the subagent.
    async fn subagent_start(
        &self,
        _cx: &HookContext,
        _agent_type: &str,
        _prompt: &str,
    ) -> HookVerdict {
        HookVerdict::pass()
    }
    /// PostCompact, after compaction; `summary` is what replaced the compacted messages
    /// (empty when nothing was compacted).
    async fn post_compact(&self, _cx: &HookContext, _trigger: &str, _summary: &str) -> HookVerdict {
        HookVerdict::pass()
    }
    /// StopFailure: the turn ended by an error of the model (or its API); `error` as text.
    async fn stop_failure(&self, _cx: &HookContext, _error: &str) -> HookVerdict {
        HookVerdict::pass()
    }
    /// Setup, when the agent is set up for a project ([`Agent::setup`](crate::Agent::setup));
    /// `trigger` is `init` or `maintenance`.
    async fn setup(&self, _cx: &HookContext, _trigger: &str) -> HookVerdict {
        HookVerdict::pass()
    }
    /// PostToolBatch: every call of one model turn resolved, before the next model request; a
    /// block (or a stop) ends the run there.
    async fn post_tool_batch(&self, _cx: &HookContext, _calls: &[BatchCall]) -> HookVerdict {
        HookVerdict::pass()
    }
    /// PermissionDenied: the permission checker (or the user at the prompt) refused the call
    /// of `tool` with `args`; `reason` says what refused it. A hook's `retry` tells the model
    /// it may try again.
    async fn permission_denied(
        &self,
        _cx: &HookContext,
        _tool: &str,
        _args: &Value,
        _reason: &str,
    ) -> HookVerdict {
        HookVerdict::pass()
    }
    /// FileChanged: a file tool wrote `path` (absolute); `change` is `add` (it did not exist)
    /// or `change`.
    async fn file_changed(&self, _cx: &HookContext, _path: &Path, _change: &str) -> HookVerdict {
        HookVerdict::pass()
    }
    /// ConfigChange: a hook file of the project changed during the session (`source`:
    /// `project_settings`, or `local_settings` for `.claude/settings.local.json`); a block
    /// undoes the change.
    async fn config_change(&self, _cx: &HookContext, _source: &str, _path: &Path) -> HookVerdict {
        HookVerdict::pass()
    }
}

/// No hooks at all.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoHooks;

#[async_trait]
impl ToolHooks for NoHooks {}

/// The hooks a subagent sees: the parent's hooks of a tool call (PreToolUse,
/// PermissionRequest, PermissionDenied, PostToolUse, PostToolUseFailure) and Notification (the user is told
/// whichever loop asks), with `is_subagent` set; every other event passes without running
/// anything.
#[derive(Clone)]
pub struct SubsetHooks {
    inner: Arc<dyn ToolHooks>,
}

impl SubsetHooks {
    /// The subagent's view of `inner`, the parent's hooks.
    pub fn new(inner: Arc<dyn ToolHooks>) -> Self {
        SubsetHooks { inner }
    }
}

fn as_subagent(cx: &HookContext) -> HookContext {
    HookContext {
        is_subagent: true,
        ..cx.clone()
    }
}

#[async_trait]
impl ToolHooks for SubsetHooks {
    async fn pre_tool_use(&self, cx: &HookContext, tool: &str, args: &Value) -> HookVerdict {
        self.inner.pre_tool_use(&as_subagent(cx), tool, args).await
    }
    async fn post_tool_use(
        &self,
        cx: &HookContext,
        tool: &str,
        args: &Value,
        result: &Value,
        is_error: bool,
    ) -> HookVerdict {
        self.inner
            .post_tool_use(&as_subagent(cx), tool, args, result, is_error)
            .await
    }
    async fn permission_request(
        &self,
        cx: &HookContext,
        tool: &str,
        args: &Value,
        reason: &str,
    ) -> HookVerdict {
        self.inner
            .permission_request(&as_subagent(cx), tool, args, reason)
            .await
    }
    async fn post_tool_use_failure(
        &self,
        cx: &HookContext,
        tool: &str,
        args: &Value,
        error: &str,
    ) -> HookVerdict {
        self.inner
            .post_tool_use_failure(&as_subagent(cx), tool, args, error)
            .await
    }
    async fn notification(&self, cx: &HookContext, message: &str, kind: &str) -> HookVerdict {
        self.inner
            .notification(&as_subagent(cx), message, kind)
            .await
    }
    async fn permission_denied(
        &self,
        cx: &HookContext,
        tool: &str,
        args: &Value,
        reason: &str,
    ) -> HookVerdict {
        self.inner
            .permission_denied(&as_subagent(cx), tool, args, reason)
            .await
    }
}
