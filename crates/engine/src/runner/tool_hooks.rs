//! [`ToolHooks`] over [`Runner::fire`]: each trigger point of the agent loop is one event
//! (each built by its `Payload` constructor; the events Claude Code added with their own
//! camelCase fields, docs/events.md).

use super::Runner;
use crate::agent::{BatchCall, HookContext, HookVerdict, ToolHooks};
use crate::event::Event;
use crate::payload::Payload;
use crate::report::ToVerdict;
use async_trait::async_trait;
use serde_json::{Map, Value, json};
use std::path::Path;

fn payload_for(cx: &HookContext, mut p: Payload) -> Payload {
    if cx.is_subagent {
        p.mark_subagent();
    }
    p
}

#[async_trait]
impl ToolHooks for Runner {
    async fn session_start(&self, cx: &HookContext, source: &str) -> HookVerdict {
        let p = Payload::session_start(&cx.cwd, &cx.session_id, source);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn user_prompt_submit(&self, cx: &HookContext, prompt: &str) -> HookVerdict {
        let p = Payload::user_prompt_submit(&cx.cwd, &cx.session_id, prompt);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn pre_tool_use(&self, cx: &HookContext, tool: &str, args: &Value) -> HookVerdict {
        let p = Payload::pre_tool_use(&cx.cwd, &cx.session_id, tool, args.clone());
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn post_tool_use(
        &self,
        cx: &HookContext,
        tool: &str,
        args: &Value,
        result: &Value,
        is_error: bool,
    ) -> HookVerdict {
        let p = Payload::post_tool_use(
            &cx.cwd,
            &cx.session_id,
            tool,
            args.clone(),
            result.clone(),
            is_error,
        );
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn pre_compact(&self, cx: &HookContext, trigger: &str) -> HookVerdict {
        let p = Payload::pre_compact(&cx.cwd, &cx.session_id, trigger);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn stop(&self, cx: &HookContext, active: bool) -> HookVerdict {
        let p = Payload::stop(Event::Stop, &cx.cwd, &cx.session_id, active);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn subagent_stop(&self, cx: &HookContext, active: bool) -> HookVerdict {
        let agent_type = cx.agent_type.as_deref().unwrap_or("default");
        let p = Payload::subagent_stop(&cx.cwd, &cx.session_id, active, agent_type);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn session_end(&self, cx: &HookContext, reason: &str) -> HookVerdict {
        let p = Payload::session_end(&cx.cwd, &cx.session_id, reason);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn permission_request(
        &self,
        cx: &HookContext,
        tool: &str,
        args: &Value,
        reason: &str,
    ) -> HookVerdict {
        let p = Payload::permission_request(&cx.cwd, &cx.session_id, tool, args.clone(), reason);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn post_tool_use_failure(
        &self,
        cx: &HookContext,
        tool: &str,
        args: &Value,
        error: &str,
    ) -> HookVerdict {
        let p = Payload::post_tool_use_failure(&cx.cwd, &cx.session_id, tool, args.clone(), error);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn notification(&self, cx: &HookContext, message: &str, kind: &str) -> HookVerdict {
        let p = Payload::notification(&cx.cwd, &cx.session_id, message, kind);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn subagent_start(
        &self,
        cx: &HookContext,
        agent_type: &str,
        prompt: &str,
    ) -> HookVerdict {
        let p = Payload::subagent_start(&cx.cwd, &cx.session_id, agent_type, prompt);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn post_compact(&self, cx: &HookContext, trigger: &str, summary: &str) -> HookVerdict {
        let p = Payload::post_compact(&cx.cwd, &cx.session_id, trigger, summary);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn stop_failure(&self, cx: &HookContext, error: &str) -> HookVerdict {
        let p = Payload::stop_failure(&cx.cwd, &cx.session_id, error);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn setup(&self, cx: &HookContext, trigger: &str) -> HookVerdict {
        let p = Payload::with_fields(
            Event::Setup,
            &cx.cwd,
            &cx.session_id,
            fields([("trigger", json!(trigger))]),
        );
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn post_tool_batch(&self, cx: &HookContext, calls: &[BatchCall]) -> HookVerdict {
        let calls: Vec<Value> = calls
            .iter()
            .map(|c| {
                json!({
                    "toolUseId": c.id,
                    "toolName": c.tool,
                    "toolArgs": c.args,
                    "toolResult": c.result,
                    "toolError": c.is_error,
                })
            })
            .collect();
        let p = Payload::with_fields(
            Event::PostToolBatch,
            &cx.cwd,
            &cx.session_id,
            fields([("toolCalls", Value::Array(calls))]),
        );
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn permission_denied(
        &self,
        cx: &HookContext,
        tool: &str,
        args: &Value,
        reason: &str,
    ) -> HookVerdict {
        let p = Payload::permission_denied(&cx.cwd, &cx.session_id, tool, args.clone(), reason);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn file_changed(&self, cx: &HookContext, path: &Path, change: &str) -> HookVerdict {
        let p = Payload::with_fields(
            Event::FileChanged,
            &cx.cwd,
            &cx.session_id,
            fields([
                ("filePath", json!(path.to_string_lossy())),
                ("changeType", json!(change)),
            ]),
        );
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn config_change(&self, cx: &HookContext, source: &str, path: &Path) -> HookVerdict {
        let p = Payload::with_fields(
            Event::ConfigChange,
            &cx.cwd,
            &cx.session_id,
            fields([
                ("source", json!(source)),
                ("filePath", json!(path.to_string_lossy())),
            ]),
        );
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
}

fn fields<const N: usize>(pairs: [(&str, Value); N]) -> Map<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}
