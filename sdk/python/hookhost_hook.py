"""hookhost's Python guest SDK: one function is a hook.

    from hookhost_hook import WitWorld, block, hook  # WitWorld: componentize-py looks for it

    @hook
    def guard(payload: dict):
        if "rm -rf /" in payload.get("toolArgs", {}).get("command", ""):
            return block("deletes everything")

The function gets the payload (DESIGN §2) as a dict, with its "event" key, and returns
`block(reason)`, `force(message)`, `update_input({...})`, `context(text)` or nothing (pass).
Build (componentize-py, `pip install componentize-py`), with this file next to app.py and the
hook world's WIT in ./wit:

    componentize-py -d wit -w hook componentize app -o guard.wasm

It fails closed: a payload that cannot be parsed, or an exception escaping the function,
answers `block` (which blocks a PreToolUse and is only a warning elsewhere) instead of
trapping. A trap would only warn, letting the tool call through.
"""
import json
import re
from itertools import accumulate

import wit_world
from wit_world.imports.types import (
    Decision_Block,
    Decision_Force,
    Decision_Pass,
    Payload,
    Response,
)

__all__ = ["WitWorld", "hook", "block", "force", "update_input", "context"]

MAX_DEPTH = 100
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKETS = re.compile(r"[^][{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_handler = None


def hook(fn):
    """Makes `fn(payload: dict)` the hook's function (one per hook)."""
    global _handler
    _handler = fn
    return fn


def block(reason: str) -> Response:
    """PreToolUse: do not run the tool; `reason` goes to the model."""
    return Response(decision=Decision_Block(str(reason)), updated_input=None, additional_context=None)


def force(message: str) -> Response:
    """Stop/SubagentStop: keep the agent working; `message` becomes a user message."""
    return Response(decision=Decision_Force(str(message)), updated_input=None, additional_context=None)


def update_input(args: dict) -> Response:
    """PreToolUse: run the tool with `args` instead of its arguments."""
    return Response(decision=Decision_Pass(), updated_input=json.dumps(args), additional_context=None)


def context(text: str) -> Response:
    """Text added to the model's context (UserPromptSubmit, SessionStart, PostToolUse)."""
    return Response(decision=Decision_Pass(), updated_input=None, additional_context=str(text))


def _depth(text: str) -> int:
    """How deep `text` nests, counted without recursion: json.loads recurses in C, and a deep
    enough payload overflows the wasm stack, a trap no `except` can catch."""
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


class WitWorld(wit_world.WitWorld):
    def handle(self, payload: Payload) -> Response:
        try:
            if _handler is None:
                raise RuntimeError("no function is marked @hook")
            if _depth(payload.json) > MAX_DEPTH:
                raise ValueError(f"the payload nests more than {MAX_DEPTH} levels")
            p = json.loads(payload.json)
            if not isinstance(p, dict):
                raise ValueError("the payload is not a JSON object")
            p.setdefault("event", payload.event)
            answer = _handler(p)
        except Exception as e:  # fail closed: anything unexpected blocks
            return block(f"{getattr(_handler, '__name__', 'hook')}: {type(e).__name__}: {e}; blocking to fail closed")
        if answer is None:
            return Response(decision=Decision_Pass(), updated_input=None, additional_context=None)
        if not isinstance(answer, Response):
            return block(f"the hook returned {type(answer).__name__}; return block(), force(), update_input(), context() or None")
        return answer
