"""The dangerous-bash guard in Python: a component of the `hook` world (wit/hook.wit),
built with componentize-py. `handle` gets the event name and the payload JSON, and answers
with a typed decision. It fails closed: a payload it cannot read is blocked.

Build: componentize-py -d ../../wit -w hook componentize app -o ../out/bash-guard-py.wasm
"""
import json
import re
from itertools import accumulate

import wit_world
from wit_world.imports.types import (
    Decision_Block,
    Decision_Pass,
    Payload,
    Response,
)

DANGEROUS = ["rm -rf /", "rm -rf ~", "mkfs", "git push --force"]
MAX_DEPTH = 100
STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
NOT_BRACKETS = re.compile(r"[^][{}]+")
DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def depth(text: str) -> int:
    """How deep `text` nests, counted without recursion: json.loads recurses in C, and a
    deep enough payload overflows the wasm stack, a trap no `except` can catch."""
    brackets = NOT_BRACKETS.sub("", STRINGS.sub("", text))
    return max(accumulate(map(DEPTH_STEP.__getitem__, brackets)), default=0)


def answer(decision) -> Response:
    return Response(decision=decision, updated_input=None, additional_context=None)


class WitWorld(wit_world.WitWorld):
    def handle(self, payload: Payload) -> Response:
        if payload.event != "PreToolUse":
            return answer(Decision_Pass())
        # Fail closed: an exception escaping handle() traps, and a trap only warns (the call
        # would go through). A payload this guard cannot read is blocked instead.
        try:
            if depth(payload.json) > MAX_DEPTH:
                raise ValueError(f"nested more than {MAX_DEPTH} levels")
            return check(json.loads(payload.json))
        except Exception as e:  # anything unreadable blocks
            why = f"cannot read the payload ({type(e).__name__}: {e}); blocking to fail closed"
            return answer(Decision_Block(f"python guard: {why}"))


def check(p: dict) -> Response:
    if p.get("toolName") != "bash":
        return answer(Decision_Pass())
    command = " ".join(str(p.get("toolArgs", {}).get("command", "")).split())
    for d in DANGEROUS:
        if d in command:
            return answer(Decision_Block(f"python guard: `{d}` is destructive"))
    return answer(Decision_Pass())
