//! [`ToolHooks`] over [`Runner::fire`]: each trigger point of the agent loop is one event.

use super::Runner;
use crate::agent::{HookContext, HookVerdict, ToolHooks};
use crate::event::Event;
use crate::payload::Payload;
use async_trait::async_trait;
use serde_json::Value;

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
        let p = Payload::stop(Event::SubagentStop, &cx.cwd, &cx.session_id, active);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
    async fn session_end(&self, cx: &HookContext, reason: &str) -> HookVerdict {
        let p = Payload::session_end(&cx.cwd, &cx.session_id, reason);
        self.fire(payload_for(cx, p)).await.to_verdict()
    }
}
