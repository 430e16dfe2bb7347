//! [`Agent`]: the loop, with every trigger point of DESIGN §7.
//!
//! ```text
//! setup(trigger): Setup (once, when asked: `hookhost demo` sets its project up)
//! run(input): SessionStart (first run) -> UserPromptSubmit -> for turn < max_turns:
//!   maybe_compact (PreCompact, PostCompact) -> model (an error: StopFailure)
//!     -> no tool calls: TodoGuard, then Stop hooks (force = continue)
//!     -> tool calls: PreToolUse -> permission checker -> tool -> PostToolUse (+ PostToolUseFailure)
//!                                  an ask: PermissionRequest (allow / deny) -> Notification -> prompt
//!                                  a refusal: PermissionDenied (retry)
//!                                  a hook file changed: ConfigChange (a block undoes it)
//!                                  a file tool wrote a file: FileChanged
//!        then, once per turn: PostToolBatch (a block ends the run)
//! ```
//!
//! The core never changes its working directory (each shell call starts at the project root,
//! the file tools resolve against it), never switches models and loads no instruction files:
//! it fires no CwdChanged, Pre/PostModelSwitch or InstructionsLoaded (they pass through `hookhost
//! hook` and `run`).
//!
//! The loop sees hooks only through [`ToolHooks`]. A `task` call fires SubagentStart and runs
//! a subagent: its hooks are [`SubsetHooks`] over the parent's (so only the tool-call events
//! and Notification run, marked `isSubagent`), and its final answer fires the parent's
//! SubagentStop.

#[cfg(test)]
use super::model::ScriptedModel;
use super::model::{Message, Model, ModelTurn, Role, ToolCall, ToolSpec};
use super::permission::{DenyPrompter, Permission, PermissionChecker, Prompter};
use super::todo::{TodoGuard, TodoList};
use super::tool_hooks::{BatchCall, HookContext, HookVerdict, SubsetHooks, ToolHooks, Verdict};
use super::tools::{self, ToolOutput};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Limits of the loop.
#[derive(Debug, Clone)]
pub struct AgentConfig {
    /// Model turns allowed per [`Agent::run`] (default 50); the run then returns
    /// "(stopped after N turns)" instead of a final answer.
    pub max_turns: usize,
    /// Consecutive forced continuations (TodoGuard + Stop hooks) allowed in one run.
    pub max_forced: usize,
    /// Compact when the conversation has more messages than this.
    pub compact_after: usize,
    /// Messages kept (besides the first) when compacting.
    pub keep_after_compact: usize,
    /// The project's hook files, relative to it, each with the `source` ConfigChange reports
    /// (default [`HOOK_FILES`]): a change of one during a tool call fires ConfigChange.
    pub hook_files: Vec<(PathBuf, String)>,
}

/// The project's hook files the core watches across its tool calls (hookhost's own and the
/// agents' it reads), with ConfigChange's `source` (Claude Code's names).
pub const HOOK_FILES: &[(&str, &str)] = &[
    (".coding-agent/hooks.json", "project_settings"),
    (".claude/settings.json", "project_settings"),
    (".claude/settings.local.json", "local_settings"),
    (".gemini/settings.json", "project_settings"),
    (".codex/hooks.json", "project_settings"),
    (".codex/config.toml", "project_settings"),
    (".cursor/hooks.json", "project_settings"),
    (".ling/hooks.json", "project_settings"),
];

impl Default for AgentConfig {
    fn default() -> Self {
        AgentConfig {
            max_turns: 50,
            max_forced: 8,
            compact_after: 200,
            keep_after_compact: 20,
            hook_files: HOOK_FILES
                .iter()
                .map(|(p, source)| (PathBuf::from(p), source.to_string()))
                .collect(),
        }
    }
}

/// Something that happened in the loop, for a trace.
#[derive(Debug, Clone, PartialEq)]
pub enum AgentEvent {
    /// The user's input, as appended to the conversation (after UserPromptSubmit).
    UserPrompt(String),
    /// A UserPromptSubmit hook replaced the user's input (`updatedPrompt`) with this text,
    /// which is what the conversation gets (the next event is its [`UserPrompt`](Self::UserPrompt)).
    PromptReplaced {
        /// What the user wrote.
        original: String,
    },
    /// The text of a model turn, when not empty.
    ModelText(String),
    /// The model asked for a tool call (before any hook or permission check).
    ToolCall {
        /// The tool's name.
        name: String,
        /// The arguments as the model gave them.
        args: Value,
    },
    /// A PreToolUse hook blocked the call; the tool did not run.
    Blocked {
        /// The tool's name.
        name: String,
        /// The hook's reason, also given to the model as the tool result.
        reason: String,
    },
    /// The permission checker, or the user at the prompt, refused the call; the tool did not run.
    PermissionDenied {
        /// The tool's name.
        name: String,
        /// What refused it: `denied by <rule>` or `the user did not allow it (<why>)`.
        why: String,
    },
    /// A tool ran (or a subagent answered): its result before any PostToolUse feedback.
    ToolResult {
        /// The tool's name.
        name: String,
        /// The result as text.
        output: String,
        /// Whether the tool failed (the model sees the output either way).
        is_error: bool,
    },
    /// A hook's `additionalContext`, added to the conversation as a system message.
    HookContext(String),
    /// A hook's `systemMessage`: for the user, not added to the conversation.
    SystemMessage(String),
    /// A PostToolUse hook replaced what the model sees as the tool's result
    /// (`updatedToolOutput`).
    ToolOutputReplaced {
        /// The tool's name.
        name: String,
        /// What the model sees instead, as text.
        output: String,
    },
    /// TodoGuard turned down a final answer with open todos; the text is the continue message.
    TodoGuard(String),
    /// A Stop (or SubagentStop) hook forced the agent on; the text becomes the next user message.
    Forced(String),
    /// The conversation was compacted (after the PreCompact hooks ran).
    Compacted {
        /// Messages before compacting.
        before: usize,
        /// Messages after compacting.
        after: usize,
    },
    /// A PermissionRequest hook allowed a call the permission checker would have asked about.
    PermissionAllowed {
        /// The tool's name.
        name: String,
        /// What would have asked (the rule, or a PreToolUse hook).
        why: String,
    },
    /// A `task` call started the subagent of this name.
    SubagentStart(String),
    /// The subagent of this name finished, with an answer or an error.
    SubagentEnd(String),
    /// The final answer of a run (or the note that `max_turns` ran out).
    Final(String),
    /// A UserPromptSubmit hook blocked the prompt: it was not added to the conversation.
    PromptBlocked(String),
    /// A hook stopped the agent (`continue: false`); the text is its `stopReason`.
    Stopped(String),
    /// A ConfigChange hook blocked the change of a hook file: the file is as it was before.
    ConfigChangeUndone {
        /// The file (absolute).
        path: PathBuf,
        /// The hook's reason.
        reason: String,
    },
    /// A PostToolBatch hook ended the run after a turn's tool calls; the text is its reason.
    BatchBlocked(String),
    /// A PreCompact hook blocked the compaction: the conversation stays as it was (no
    /// PostCompact); the text is its reason.
    CompactBlocked(String),
}

/// Receives the loop's events; `depth` is 0 for the main agent, 1 inside a subagent.
pub trait Observer: Send + Sync {
    /// Called for each event as it happens.
    fn on(&self, depth: usize, event: &AgentEvent);
}

/// Discards events.
pub struct Silent;
impl Observer for Silent {
    fn on(&self, _: usize, _: &AgentEvent) {}
}

/// The agent: a model, hooks, a permission checker, tools, and the conversation.
pub struct Agent {
    model: Box<dyn Model>,
    hooks: Arc<dyn ToolHooks>,
    /// Set for subagents: the parent's hooks, which fire SubagentStop.
    parent_hooks: Option<Arc<dyn ToolHooks>>,
    permissions: Arc<PermissionChecker>,
    prompter: Arc<dyn Prompter>,
    observer: Arc<dyn Observer>,
    cx: HookContext,
    project: PathBuf,
    config: AgentConfig,
    messages: Vec<Message>,
    todos: TodoList,
    started: bool,
    depth: usize,
    /// Variables for the shell tool's calls, from SessionStart hooks (`CLAUDE_ENV_FILE`).
    shell_env: Vec<(String, String)>,
}

impl Agent {
    /// An agent working in `project` (the tools' root and the hooks' `cwd`) under `session_id`.
    /// Defaults: [`PermissionChecker::default`] (everything allowed but the system deny list),
    /// [`DenyPrompter`] (every ask refused), [`Silent`], [`AgentConfig::default`].
    pub fn new(
        model: Box<dyn Model>,
        hooks: Arc<dyn ToolHooks>,
        project: &Path,
        session_id: &str,
    ) -> Self {
        Agent {
            model,
            hooks,
            parent_hooks: None,
            permissions: Arc::new(PermissionChecker::default()),
            prompter: Arc::new(DenyPrompter),
            observer: Arc::new(Silent),
            cx: HookContext {
                session_id: session_id.to_string(),
                cwd: project.to_path_buf(),
                is_subagent: false,
                agent_type: None,
            },
            project: project.to_path_buf(),
            config: AgentConfig::default(),
            messages: Vec::new(),
            todos: TodoList::default(),
            started: false,
            depth: 0,
            shell_env: Vec::new(),
        }
    }

    /// Replaces the permission rules.
    pub fn with_permissions(mut self, p: PermissionChecker) -> Self {
        self.permissions = Arc::new(p);
        self
    }
    /// Sets who answers permission asks (default [`DenyPrompter`], which refuses).
    pub fn with_prompter(mut self, p: Arc<dyn Prompter>) -> Self {
        self.prompter = p;
        self
    }
    /// Sets who receives the loop's [`AgentEvent`]s (default [`Silent`]).
    pub fn with_observer(mut self, o: Arc<dyn Observer>) -> Self {
        self.observer = o;
        self
    }
    /// Sets the loop's limits (default [`AgentConfig::default`]).
    pub fn with_config(mut self, c: AgentConfig) -> Self {
        self.config = c;
        self
    }

    /// The conversation so far, compaction notes included.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// The model's todo list, as its last `todo_write` left it.
    pub fn todos(&self) -> &TodoList {
        &self.todos
    }

    fn emit(&self, e: AgentEvent) {
        self.observer.on(self.depth, &e);
    }

    /// Adds what every hook returns besides its decision: context for the model, messages
    /// for the user.
    fn absorb(&mut self, v: &HookVerdict) {
        for c in &v.additional_context {
            self.emit(AgentEvent::HookContext(c.clone()));
            self.messages
                .push(Message::new(Role::System, format!("[hook context] {c}")));
        }
        for m in &v.system_messages {
            self.emit(AgentEvent::SystemMessage(m.clone()));
        }
    }

    /// `Some(final text)` when a hook stopped the agent (`continue: false`).
    fn stopped(&self, v: &HookVerdict) -> Option<String> {
        let reason = v.stop.as_ref()?;
        self.emit(AgentEvent::Stopped(reason.clone()));
        Some(format!("(stopped by a hook: {reason})"))
    }

    /// Sets the agent up for its project (Setup; `trigger` is `init` or `maintenance`), before
    /// a session: hooks install what the project needs and add context for the model.
    /// `Some(reason)` when a hook stopped the agent (`continue: false`).
    pub async fn setup(&mut self, trigger: &str) -> Option<String> {
        let v = self.hooks.setup(&self.cx, trigger).await;
        self.absorb(&v);
        self.stopped(&v)
    }

    /// The session's start (once) and the prompt's hooks: the prompt the model gets (a
    /// hook's replacement, judged like a rewrite: only trusted hooks can replace one), or
    /// `Err` with the run's end when a hook stopped the session or blocked the prompt.
    async fn submit_prompt(&mut self, input: &str) -> Result<String, String> {
        if !self.started {
            self.started = true;
            if self.parent_hooks.is_none() {
                let v = self.hooks.session_start(&self.cx, "startup").await;
                self.absorb(&v);
                // What SessionStart hooks wrote to their env file: every later shell call.
                self.shell_env.extend(v.env.iter().cloned());
                if let Some(end) = self.stopped(&v) {
                    return Err(end);
                }
            }
        }
        let v = self.hooks.user_prompt_submit(&self.cx, input).await;
        self.absorb(&v);
        if let Some(end) = self.stopped(&v) {
            return Err(end);
        }
        if let Verdict::Block(reason) = &v.verdict {
            self.emit(AgentEvent::PromptBlocked(reason.clone()));
            return Err(format!("(prompt blocked by a hook: {reason})"));
        }
        Ok(match v.updated_prompt {
            Some(replaced) if replaced != input => {
                self.emit(AgentEvent::PromptReplaced {
                    original: input.to_string(),
                });
                replaced
            }
            _ => input.to_string(),
        })
    }

    /// One user input: runs until the model gives a final answer the hooks accept, or
    /// `max_turns`. Returns the final answer.
    pub async fn run(&mut self, input: &str) -> anyhow::Result<String> {
        let input = match self.submit_prompt(input).await {
            Ok(input) => input,
            Err(end) => return Ok(end),
        };
        let input = input.as_str();
        self.emit(AgentEvent::UserPrompt(input.to_string()));
        self.messages.push(Message::new(Role::User, input));

        let specs = tools::specs();
        // Continuations forced in this run (TodoGuard and Stop hooks; capped), and how many
        // of them Stop hooks forced (what `stopHookActive` reports).
        let mut forced = 0usize;
        let mut stop_forced = 0usize;
        for _ in 0..self.config.max_turns {
            self.maybe_compact().await;
            let turn = self.next_turn(&specs).await?;
            if !turn.text.is_empty() {
                self.emit(AgentEvent::ModelText(turn.text.clone()));
            }
            self.messages.push(Message {
                role: Role::Assistant,
                content: turn.text.clone(),
                tool_calls: turn.tool_calls.clone(),
                tool_call_id: None,
            });
            if turn.tool_calls.is_empty() {
                match self.continue_message(forced, &mut stop_forced).await {
                    Some(Err(end)) => return Ok(end),
                    Some(Ok(message)) => {
                        forced += 1;
                        self.messages.push(Message::new(Role::User, message));
                        continue;
                    }
                    _ => {
                        self.emit(AgentEvent::Final(turn.text.clone()));
                        return Ok(turn.text);
                    }
                }
            }
            let mut batch = Vec::new();
            for call in turn.tool_calls {
                let (output, stop) = self.call_tool(&call).await;
                self.messages.push(Message {
                    role: Role::Tool,
                    content: output.text(),
                    tool_calls: Vec::new(),
                    tool_call_id: Some(call.id.clone()),
                });
                if let Some(end) = stop {
                    return Ok(end);
                }
                batch.push(BatchCall {
                    id: call.id.clone(),
                    tool: call.name.clone(),
                    args: call.args.clone(),
                    result: output.content.clone(),
                    is_error: output.is_error,
                });
            }
            if let Some(end) = self.after_batch(&batch).await {
                return Ok(end);
            }
        }
        let last = format!("(stopped after {} turns)", self.config.max_turns);
        self.emit(AgentEvent::Final(last.clone()));
        Ok(last)
    }

    /// PostToolBatch, once every call of a turn resolved: its context goes to the model before
    /// the next request; a block (or a stop) ends the run with its reason.
    async fn after_batch(&mut self, batch: &[BatchCall]) -> Option<String> {
        let v = self.hooks.post_tool_batch(&self.cx, batch).await;
        self.absorb(&v);
        if let Some(end) = self.stopped(&v) {
            return Some(end);
        }
        let Verdict::Block(reason) = &v.verdict else {
            return None;
        };
        self.emit(AgentEvent::BatchBlocked(reason.clone()));
        let end = format!("(stopped by a PostToolBatch hook: {reason})");
        self.emit(AgentEvent::Final(end.clone()));
        Some(end)
    }

    /// The model's next turn; a model (or API) error ends the turn: StopFailure hooks see it,
    /// then the run returns it.
    async fn next_turn(&mut self, specs: &[ToolSpec]) -> anyhow::Result<ModelTurn> {
        match self.model.next(&self.messages, specs).await {
            Ok(turn) => Ok(turn),
            Err(e) => {
                let v = self.hooks.stop_failure(&self.cx, &format!("{e:#}")).await;
                self.absorb(&v);
                Err(e)
            }
        }
    }

    /// At a final answer: TodoGuard first, then Stop (or the parent's SubagentStop) hooks.
    /// `Some(Ok(message))` means: do not stop, continue with this user message;
    /// `Some(Err(end))`: a hook stopped the agent.
    async fn continue_message(
        &mut self,
        forced: usize,
        stop_forced: &mut usize,
    ) -> Option<Result<String, String>> {
        if forced >= self.config.max_forced {
            return None;
        }
        if let Some(msg) = TodoGuard.check(&self.todos) {
            self.emit(AgentEvent::TodoGuard(msg.clone()));
            return Some(Ok(msg));
        }
        let active = *stop_forced > 0;
        let v = match &self.parent_hooks {
            Some(parent) => parent.subagent_stop(&self.cx, active).await,
            None => self.hooks.stop(&self.cx, active).await,
        };
        self.absorb(&v);
        if let Some(end) = self.stopped(&v) {
            return Some(Err(end));
        }
        match v.verdict {
            Verdict::Force(message) => {
                *stop_forced += 1;
                self.emit(AgentEvent::Forced(message.clone()));
                Some(Ok(message))
            }
            _ => None,
        }
    }

    /// PreToolUse -> permission checker (PermissionRequest, the prompt) -> tool ->
    /// PostToolUse (and PostToolUseFailure). The second value is set when a hook stopped the
    /// agent (`continue: false`): the final text of the run.
    async fn call_tool(&mut self, call: &ToolCall) -> (ToolOutput, Option<String>) {
        self.emit(AgentEvent::ToolCall {
            name: call.name.clone(),
            args: call.args.clone(),
        });
        let pre = self
            .hooks
            .pre_tool_use(&self.cx, &call.name, &call.args)
            .await;
        self.absorb(&pre);
        if let Some(end) = self.stopped(&pre) {
            return (
                ToolOutput::error(format!("Stopped by a PreToolUse hook: {end}")),
                Some(end),
            );
        }
        if let Verdict::Block(reason) = &pre.verdict {
            self.emit(AgentEvent::Blocked {
                name: call.name.clone(),
                reason: reason.clone(),
            });
            return (
                ToolOutput::error(format!("Blocked by a PreToolUse hook: {reason}")),
                None,
            );
        }
        let args = pre
            .updated_args
            .clone()
            .unwrap_or_else(|| call.args.clone());
        if let Err(refused) = self
            .permit(&call.name, &args, pre.ask, pre.ask_reason.as_deref())
            .await
        {
            return self.denied(&call.name, &args, refused).await;
        }
        let (output, stop) = if call.name == "task" {
            self.run_task(&args).await
        } else {
            self.run_tool(&call.name, &args).await
        };
        self.emit(AgentEvent::ToolResult {
            name: call.name.clone(),
            output: output.text(),
            is_error: output.is_error,
        });
        if stop.is_some() {
            return (output, stop);
        }
        self.after_tool(&call.name, &args, output).await
    }

    /// A call the permission checker (or the user) refused: PermissionDenied, whose `retry`
    /// is told to the model.
    async fn denied(
        &mut self,
        tool: &str,
        args: &Value,
        refused: Refusal,
    ) -> (ToolOutput, Option<String>) {
        self.emit(AgentEvent::PermissionDenied {
            name: tool.to_string(),
            why: refused.why.clone(),
        });
        let mut output = ToolOutput::error(format!("Permission denied: {}", refused.why));
        if refused.stop.is_some() {
            return (output, refused.stop);
        }
        let v = self
            .hooks
            .permission_denied(&self.cx, tool, args, &refused.why)
            .await;
        self.absorb(&v);
        if v.retry {
            append_feedback(
                &mut output,
                "PermissionDenied",
                &["you may retry this call".to_string()],
            );
        }
        let stop = self.stopped(&v);
        (output, stop)
    }

    /// A built-in tool other than `task`, then ConfigChange for each project hook file it
    /// changed and FileChanged for the file a file tool wrote.
    async fn run_tool(&mut self, tool: &str, args: &Value) -> (ToolOutput, Option<String>) {
        let before = self.hook_files();
        let written = written_file(tool, args, &self.project);
        let existed = written.as_ref().is_some_and(|p| p.exists());
        let mut output =
            tools::run_with_env(tool, args, &self.project, &mut self.todos, &self.shell_env).await;
        let (stop, undone) = self.config_changes(before, &mut output).await;
        match (stop, written) {
            (Some(end), _) => (output, Some(end)),
            // A write a ConfigChange hook undid changed nothing.
            (None, Some(path)) if !output.is_error && !undone.contains(&path) => {
                let change = if existed { "change" } else { "add" };
                let stop = self.file_changed(&path, change).await;
                (output, stop)
            }
            (None, _) => (output, None),
        }
    }

    /// The project's hook files as they are now: `(path, source, content)`, `None` when a file
    /// is absent.
    fn hook_files(&self) -> Vec<(PathBuf, String, Option<Vec<u8>>)> {
        self.config
            .hook_files
            .iter()
            .map(|(rel, source)| {
                let path = self.project.join(rel);
                let content = std::fs::read(&path).ok();
                (path, source.clone(), content)
            })
            .collect()
    }

    /// ConfigChange for each hook file a tool call changed; a hook's block puts the file
    /// back as it was (the model is told). `Some(final text)` when a hook stopped the agent,
    /// and the files put back.
    async fn config_changes(
        &mut self,
        before: Vec<(PathBuf, String, Option<Vec<u8>>)>,
        output: &mut ToolOutput,
    ) -> (Option<String>, Vec<PathBuf>) {
        let mut undone_paths = Vec::new();
        for (path, source, was) in before {
            if std::fs::read(&path).ok() == was {
                continue;
            }
            let v = self.hooks.config_change(&self.cx, &source, &path).await;
            self.absorb(&v);
            if let Verdict::Block(reason) = &v.verdict {
                let undone = match &was {
                    Some(bytes) => std::fs::write(&path, bytes),
                    None => std::fs::remove_file(&path),
                };
                if undone.is_ok() {
                    undone_paths.push(path.clone());
                }
                let note = match undone {
                    Ok(()) => format!("the change to {} was undone: {reason}", path.display()),
                    Err(e) => format!(
                        "the change to {} was refused ({reason}) but could not be undone: {e}",
                        path.display()
                    ),
                };
                self.emit(AgentEvent::ConfigChangeUndone {
                    path: path.clone(),
                    reason: reason.clone(),
                });
                append_feedback(output, "ConfigChange", &[note]);
            }
            if let Some(end) = self.stopped(&v) {
                return (Some(end), undone_paths);
            }
        }
        (None, undone_paths)
    }

    /// FileChanged for a file a file tool wrote. `Some(final text)` when a hook stopped the
    /// agent.
    async fn file_changed(&mut self, path: &Path, change: &str) -> Option<String> {
        let v = self.hooks.file_changed(&self.cx, path, change).await;
        self.absorb(&v);
        self.stopped(&v)
    }

    /// Whether a call may run, on its final arguments (hooks can block, never bypass): the
    /// permission checker's verdict; for an ask, the PermissionRequest hooks (which can allow
    /// or deny it), then Notification and the prompt. A deny of the checker never reaches a
    /// hook.
    async fn permit(
        &mut self,
        tool: &str,
        args: &Value,
        hook_asked: bool,
        ask_reason: Option<&str>,
    ) -> Result<(), Refusal> {
        let why = match self.permissions.check(tool, args, hook_asked) {
            Permission::Allow => return Ok(()),
            Permission::Deny(why) => return Err(Refusal::new(format!("denied by {why}"))),
            // The hook's own reason, when it asked with one.
            Permission::Ask(why) => match ask_reason.filter(|r| hook_asked && !r.trim().is_empty())
            {
                Some(reason) => format!("{why}: {reason}"),
                None => why,
            },
        };
        let v = self
            .hooks
            .permission_request(&self.cx, tool, args, &why)
            .await;
        self.absorb(&v);
        if let Some(end) = self.stopped(&v) {
            return Err(Refusal {
                why: format!("a PermissionRequest hook stopped the agent ({end})"),
                stop: Some(end),
            });
        }
        if let Verdict::Block(reason) = &v.verdict {
            return Err(Refusal::new(format!(
                "denied by a PermissionRequest hook: {reason}"
            )));
        }
        if v.allow {
            self.emit(AgentEvent::PermissionAllowed {
                name: tool.to_string(),
                why,
            });
            return Ok(());
        }
        let message = format!("{tool} needs your permission ({why})");
        let n = self
            .hooks
            .notification(&self.cx, &message, "permission_prompt")
            .await;
        self.absorb(&n);
        if let Some(end) = self.stopped(&n) {
            return Err(Refusal {
                why: format!("a Notification hook stopped the agent ({end})"),
                stop: Some(end),
            });
        }
        if self.prompter.confirm(tool, args, &why).await {
            Ok(())
        } else {
            Err(Refusal::new(format!("the user did not allow it ({why})")))
        }
    }

    /// PostToolUse for every call, then PostToolUseFailure for a failed one: their feedback
    /// is appended to what the model sees.
    async fn after_tool(
        &mut self,
        tool: &str,
        args: &Value,
        mut output: ToolOutput,
    ) -> (ToolOutput, Option<String>) {
        let post = self
            .hooks
            .post_tool_use(&self.cx, tool, args, &output.content, output.is_error)
            .await;
        self.absorb(&post);
        // A hook's replacement of the result (`updatedToolOutput`): what the model sees.
        if let Some(replaced) = &post.updated_tool_output {
            output.content = replaced.clone();
            self.emit(AgentEvent::ToolOutputReplaced {
                name: tool.to_string(),
                output: output.text(),
            });
        }
        append_feedback(&mut output, "PostToolUse", &post.feedback);
        if let Some(end) = self.stopped(&post) {
            return (output, Some(end));
        }
        if !output.is_error {
            return (output, None);
        }
        let error = output.text();
        let failed = self
            .hooks
            .post_tool_use_failure(&self.cx, tool, args, &error)
            .await;
        self.absorb(&failed);
        append_feedback(&mut output, "PostToolUseFailure", &failed.feedback);
        let stop = self.stopped(&failed);
        (output, stop)
    }

    /// The `task` tool: SubagentStart on the parent's hooks (its context goes to the
    /// subagent), then a subagent with the parent's tool-call hooks only.
    async fn run_task(&mut self, args: &Value) -> (ToolOutput, Option<String>) {
        let prompt = args.get("prompt").and_then(Value::as_str).unwrap_or("");
        let name = args
            .get("subagent")
            .and_then(Value::as_str)
            .unwrap_or("default");
        let Some(model) = self.model.subagent(name) else {
            return (
                ToolOutput::error(format!("no subagent named `{name}`")),
                None,
            );
        };
        let start = self.hooks.subagent_start(&self.cx, name, prompt).await;
        if let Some(end) = self.stopped(&start) {
            let output = ToolOutput::error(format!("Stopped by a SubagentStart hook: {end}"));
            return (output, Some(end));
        }
        let mut sub = Agent {
            model,
            hooks: Arc::new(SubsetHooks::new(self.hooks.clone())),
            parent_hooks: Some(self.hooks.clone()),
            permissions: self.permissions.clone(),
            prompter: self.prompter.clone(),
            observer: self.observer.clone(),
            cx: HookContext {
                is_subagent: true,
                agent_type: Some(name.to_string()),
                ..self.cx.clone()
            },
            project: self.project.clone(),
            config: self.config.clone(),
            messages: Vec::new(),
            todos: TodoList::default(),
            started: true,
            depth: self.depth + 1,
            shell_env: self.shell_env.clone(),
        };
        self.emit(AgentEvent::SubagentStart(name.to_string()));
        sub.absorb(&start);
        let result = Box::pin(sub.run(prompt)).await;
        self.emit(AgentEvent::SubagentEnd(name.to_string()));
        let output = match result {
            Ok(answer) => ToolOutput::ok(Value::String(answer)),
            Err(e) => ToolOutput::error(format!("subagent failed: {e:#}")),
        };
        (output, None)
    }

    async fn maybe_compact(&mut self) {
        if self.messages.len() > self.config.compact_after {
            self.compact("auto").await;
        }
    }

    /// Compacts the conversation (PreCompact first, PostCompact after): keeps the first
    /// message and the last `keep_after_compact`, replacing the middle with a note (the
    /// `summary` PostCompact hooks see; empty when there was nothing to compact). A PreCompact
    /// hook that blocks keeps the conversation whole, as Claude Code does since 2.1.105.
    pub async fn compact(&mut self, trigger: &str) {
        let v = self.hooks.pre_compact(&self.cx, trigger).await;
        if let Verdict::Block(reason) = &v.verdict {
            self.emit(AgentEvent::CompactBlocked(reason.clone()));
            self.absorb(&v);
            return;
        }
        let before = self.messages.len();
        let keep = self.config.keep_after_compact;
        let mut summary = String::new();
        if before > keep + 1 {
            let tail = self.messages.split_off(before - keep);
            self.messages.truncate(1);
            summary = format!("[{} earlier messages compacted]", before - keep - 1);
            self.messages
                .push(Message::new(Role::System, summary.clone()));
            self.messages.extend(tail);
        }
        self.absorb(&v);
        self.emit(AgentEvent::Compacted {
            before,
            after: self.messages.len(),
        });
        let after = self.hooks.post_compact(&self.cx, trigger, &summary).await;
        self.absorb(&after);
    }

    /// Ends the session (SessionEnd).
    pub async fn end(&mut self, reason: &str) {
        let v = self.hooks.session_end(&self.cx, reason).await;
        self.absorb(&v);
    }
}

/// Why a call did not get permission, and whether a hook stopped the agent meanwhile.
struct Refusal {
    why: String,
    stop: Option<String>,
}

impl Refusal {
    fn new(why: String) -> Self {
        Refusal { why, stop: None }
    }
}

/// The file a file tool writes (absolute), for FileChanged.
fn written_file(tool: &str, args: &Value, project: &Path) -> Option<PathBuf> {
    if !matches!(tool, "write_file" | "edit_file") {
        return None;
    }
    let path = args.get("path")?.as_str()?;
    Some(project.join(path))
}

/// Appends an event's feedback to the tool result the model sees.
fn append_feedback(output: &mut ToolOutput, event: &str, feedback: &[String]) {
    if feedback.is_empty() {
        return;
    }
    let mut text = output.text();
    for f in feedback {
        text.push_str(&format!("\n[{event} hook feedback] {f}"));
    }
    output.content = Value::String(text);
}

#[cfg(test)]
#[path = "loop_tests.rs"]
mod tests;
