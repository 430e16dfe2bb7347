"""Typed results and answers: what an event decided (``Report``), what each hook did
(``HookRecord``), and what a Python hook answers (``Answer``: ``block``, ``force``, ``pass_``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


@dataclass(frozen=True)
class HookRecord:
    """One hook's run, as ``hookhost run --json`` reports it."""

    hook: str
    kind: str
    command: str
    outcome: str
    exit_code: Optional[int]
    duration_ms: float
    stdout: str
    stderr: str
    message: Optional[str]
    is_async: bool
    truncated: bool

    @staticmethod
    def from_json(h: Dict[str, Any]) -> "HookRecord":
        return HookRecord(
            hook=h.get("hook", ""),
            kind=h.get("kind", ""),
            command=h.get("command", ""),
            outcome=h.get("outcome", ""),
            exit_code=h.get("exitCode"),
            duration_ms=h.get("durationMs", 0.0),
            stdout=h.get("stdout", ""),
            stderr=h.get("stderr", ""),
            message=h.get("message"),
            is_async=bool(h.get("async", False)),
            truncated=bool(h.get("truncated", False)),
        )


@dataclass(frozen=True)
class Report:
    """What firing one event decided: ``decision`` is "pass", "block" (PreToolUse: do not run
    the tool, ``reason`` says why) or "force" (Stop: keep working, ``reason`` is the message).
    ``raw`` is the whole ``run --json`` object."""

    event: str
    decision: str
    reason: Optional[str]
    updated_args: Optional[Dict[str, Any]]
    ask: bool
    additional_context: List[str]
    system_messages: List[str]
    feedback: List[str]
    hooks: List[HookRecord]
    raw: Dict[str, Any] = field(repr=False)

    @property
    def blocked(self) -> bool:
        return self.decision == "block"

    @property
    def forced(self) -> bool:
        return self.decision == "force"

    @property
    def allowed(self) -> bool:
        """PermissionRequest: a hook allowed the call without the permission prompt."""
        return bool(self.raw.get("allow", False))

    @staticmethod
    def from_json(r: Dict[str, Any]) -> "Report":
        return Report(
            event=r["event"],
            decision=r["decision"],
            reason=r.get("reason"),
            updated_args=r.get("updatedArgs"),
            ask=bool(r.get("ask", False)),
            additional_context=list(r.get("additionalContext", [])),
            system_messages=list(r.get("systemMessages", [])),
            feedback=list(r.get("feedback", [])),
            hooks=[HookRecord.from_json(h) for h in r.get("hooks", [])],
            raw=r,
        )


@dataclass(frozen=True)
class Answer:
    """A Python hook's answer (what a process would say with its exit code and JSON)."""

    decision: str = "pass"
    reason: Optional[str] = None
    updated_input: Optional[Dict[str, Any]] = None
    additional_context: Optional[str] = None
    system_message: Optional[str] = None

    def to_json(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"decision": self.decision}
        if self.reason is not None:
            out["reason"] = self.reason
        if self.updated_input is not None:
            out["updatedInput"] = self.updated_input
        if self.additional_context is not None:
            out["additionalContext"] = self.additional_context
        if self.system_message is not None:
            out["systemMessage"] = self.system_message
        return out


def allow() -> Answer:
    """PermissionRequest: run the call without the permission prompt (elsewhere a pass)."""
    return Answer("allow")


def block(reason: str) -> Answer:
    """PreToolUse: do not run the tool, for this reason (elsewhere: a warning)."""
    return Answer("block", reason)


def force(message: str) -> Answer:
    """Stop/SubagentStop: keep working; the message becomes the next user turn."""
    return Answer("force", message)


def pass_(
    updated_input: Optional[Dict[str, Any]] = None,
    additional_context: Optional[str] = None,
    system_message: Optional[str] = None,
) -> Answer:
    """Go on, optionally with new tool arguments or text for the model or the user."""
    return Answer("pass", None, updated_input, additional_context, system_message)


def context(text: str) -> Answer:
    """Go on, adding ``text`` to the model's context."""
    return pass_(additional_context=text)


def answer_json(value: Any) -> Optional[str]:
    """A hook's return value as the JSON text the engine reads (None: pass)."""
    if value is None:
        return None
    if isinstance(value, Answer):
        return json.dumps(value.to_json())
    if isinstance(value, dict):
        return json.dumps(value)
    raise TypeError(
        f"a hook must return None, an Answer (block/force/pass_) or a dict, got {type(value).__name__}"
    )
