"""hookhost: hooks for coding agents, from Python.

``Runner(project)`` runs the project's hooks (``.coding-agent/hooks.json`` and
``~/.coding-agent/hooks.json``: shell commands, sandboxed wasm modules, HTTP endpoints) inside
this process, plus Python callables registered with ``register(event, match, fn)``, all
through one decision table. ``Client`` does the same through a ``hookhost serve`` process.

    from hookhost import Runner, block
    runner = Runner(".")
    runner.register("PreToolUse", "write_file",
                    lambda p: block("secrets") if p["toolArgs"]["path"].endswith(".env") else None)
    r = runner.pre_tool_use("write_file", {"path": ".env"})
    assert r.blocked and r.reason == "secrets"
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Callable, Dict, List, Optional, Union

from ._hookhost import Engine as _Engine
from ._types import Answer, HookRecord, Report, allow, answer_json, block, force, pass_, context

__all__ = [
    "Runner",
    "Client",
    "ServeError",
    "Report",
    "HookRecord",
    "Answer",
    "block",
    "force",
    "allow",
    "pass_",
    "context",
    "EVENTS",
]

EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "Notification",
    "SubagentStart",
    "PreCompact",
    "PostCompact",
    "Stop",
    "StopFailure",
    "SubagentStop",
    "SessionEnd",
    "Setup",
    "InstructionsLoaded",
    "UserPromptExpansion",
    "MessageDisplay",
    "PostToolBatch",
    "PermissionDenied",
    "TaskCreated",
    "TaskCompleted",
    "TeammateIdle",
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "Elicitation",
    "ElicitationResult",
    "PreModelSwitch",
    "PostModelSwitch",
    "PreSkillShellCommand",
)

Hook = Callable[[Dict[str, Any]], Union[None, Answer, Dict[str, Any]]]


class _EventMethods:
    """One method per event, on top of ``fire_sync(event, **fields)``."""

    def fire_sync(self, event: str, **fields: Any) -> Report:  # pragma: no cover
        raise NotImplementedError

    def session_start(self, source: str = "startup", **kw: Any) -> Report:
        return self.fire_sync("SessionStart", payload={"source": source}, **kw)

    def user_prompt_submit(self, prompt: str, **kw: Any) -> Report:
        return self.fire_sync("UserPromptSubmit", prompt=prompt, **kw)

    def pre_tool_use(self, name: str, args: Optional[Dict[str, Any]] = None, **kw: Any) -> Report:
        return self.fire_sync("PreToolUse", tool=name, args=args or {}, **kw)

    def post_tool_use(
        self,
        name: str,
        args: Optional[Dict[str, Any]] = None,
        result: Any = None,
        error: bool = False,
        **kw: Any,
    ) -> Report:
        return self.fire_sync(
            "PostToolUse", payload={"toolError": bool(error)}, tool=name, args=args or {},
            result=result, **kw,
        )

    def pre_compact(self, trigger: str = "manual", **kw: Any) -> Report:
        return self.fire_sync("PreCompact", payload={"trigger": trigger}, **kw)

    def stop(self, stop_hook_active: bool = False, **kw: Any) -> Report:
        return self.fire_sync("Stop", payload={"stopHookActive": bool(stop_hook_active)}, **kw)

    def subagent_stop(self, stop_hook_active: bool = False, **kw: Any) -> Report:
        return self.fire_sync(
            "SubagentStop", payload={"stopHookActive": bool(stop_hook_active)}, **kw
        )

    def session_end(self, reason: str = "other", **kw: Any) -> Report:
        return self.fire_sync("SessionEnd", payload={"reason": reason}, **kw)

    def permission_request(
        self, name: str, args: Optional[Dict[str, Any]] = None, reason: str = "", **kw: Any
    ) -> Report:
        """Fire only for a call your permission checker would ask about: ``allow`` in the
        report runs it without asking, a block denies it; never for a call it denies."""
        return self.fire_sync(
            "PermissionRequest", payload={"reason": reason}, tool=name, args=args or {}, **kw
        )

    def post_tool_use_failure(
        self, name: str, args: Optional[Dict[str, Any]] = None, error: str = "", **kw: Any
    ) -> Report:
        return self.fire_sync(
            "PostToolUseFailure", payload={"toolError": str(error)}, tool=name,
            args=args or {}, **kw,
        )

    def notification(self, message: str, kind: str = "", **kw: Any) -> Report:
        return self.fire_sync("Notification", payload={"message": message, "kind": kind}, **kw)

    def subagent_start(self, agent_type: str = "default", prompt: str = "", **kw: Any) -> Report:
        return self.fire_sync(
            "SubagentStart", payload={"agentType": agent_type, "prompt": prompt}, **kw
        )

    def post_compact(self, trigger: str = "manual", summary: str = "", **kw: Any) -> Report:
        return self.fire_sync(
            "PostCompact", payload={"trigger": trigger, "summary": summary}, **kw
        )

    def stop_failure(self, error: str = "", **kw: Any) -> Report:
        return self.fire_sync("StopFailure", payload={"error": error}, **kw)


def _params(event: str, fields: Dict[str, Any]) -> Dict[str, Any]:
    params = {"event": event}
    for k, v in fields.items():
        if v is not None:
            params[k] = v
    return params


class Runner(_EventMethods):
    """The hooks of one project, run in this process.

    ``trust``: what to do with project hooks not pinned by ``hookhost trust``: "skip" (the
    default: untrusted shell and HTTP hooks do not run, untrusted wasm hooks can only pass or
    block), "block" (also fail closed on PreToolUse) or "all" (run them, answers in full).
    ``home``: the home directory whose ``.coding-agent/`` to read (default: the account's, from
    the password database; never ``$HOME``, which a project's settings can set).
    ``cache_dir``: the compiled-wasm cache (default: the user's).
    """

    def __init__(
        self,
        project: str = ".",
        *,
        trust: str = "skip",
        home: Optional[str] = None,
        cache_dir: Optional[str] = None,
        session: Optional[str] = None,
    ) -> None:
        self._engine = _Engine(str(project), trust, home, cache_dir)
        self.session = session

    def register(
        self,
        event: str,
        match: Optional[str],
        fn: Hook,
        *,
        name: Optional[str] = None,
        timeout_ms: Optional[int] = None,
        on_error: str = "warn",
    ) -> str:
        """Run ``fn(payload) -> None | Answer | dict`` at ``event`` (for tools whose whole name
        matches the regex ``match``, on PreToolUse/PostToolUse), after the configured hooks.
        Its answer goes through the same decision table as a shell hook's: ``block(reason)``,
        ``force(message)``, ``pass_(updated_input=..., additional_context=...)``, or None.
        An exception is a crash (a warning, or a block with ``on_error="block"``). Returns
        the hook's id."""

        def call(payload_json: str) -> Optional[str]:
            return answer_json(fn(json.loads(payload_json)))

        return self._engine.register(
            event, match, call, name or getattr(fn, "__name__", None), timeout_ms, on_error
        )

    def unregister(self, hook_id: str) -> bool:
        """Removes a registered hook; False when there is none."""
        return self._engine.unregister(hook_id)

    def fire_sync(self, event: str, **fields: Any) -> Report:
        """Fires ``event``. Fields: ``payload`` (a whole payload dict), ``tool``, ``args``,
        ``result``, ``prompt``, ``session``; as ``hookhost run`` takes them."""
        if self.session and "session" not in fields:
            fields["session"] = self.session
        raw = self._engine.fire(json.dumps(_params(event, fields)))
        return Report.from_json(json.loads(raw))

    async def fire(self, event: str, **fields: Any) -> Report:
        """``fire_sync`` on a worker thread: the event loop goes on while hooks run."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, lambda: self.fire_sync(event, **fields))

    def list(self) -> List[Dict[str, Any]]:
        """The effective hooks in run order (as ``hookhost list --json``)."""
        return json.loads(self._engine.list())["hooks"]

    def reload(self) -> None:
        """Re-read the config files before the next event."""
        self._engine.reload()

    def wait_async(self) -> None:
        """Wait for every ``async`` hook started so far."""
        self._engine.wait_async()


from .client import Client, ServeError, _add_event_methods  # noqa: E402

_add_event_methods()
