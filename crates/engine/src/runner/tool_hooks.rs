//! [`ToolHooks`] over [`Runner::fire`]: each trigger point of the agent loop is one event
//! (the fourteen of `event.rs`, each built by its `Payload` constructor).

use super::Runner;
use crate::agent::{HookContext, HookVerdict, ToolHooks};
use crate::event::Event;
use crate::payload::Payload;
use crate::report::ToVerdict;
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
}
