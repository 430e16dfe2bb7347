"""The dangerous-bash guard in Python: a component of the `hook` world (wit/hook.wit),
built with componentize-py. `handle` gets the event name and the payload JSON, and answers
with a typed decision.

Build: componentize-py -d ../../wit -w hook componentize app -o ../out/bash-guard-py.wasm
"""
import json

import wit_world
from wit_world.imports.types import (
    Decision_Block,
    Decision_Pass,
    Payload,
    Response,
)

DANGEROUS = ["rm -rf /", "rm -rf ~", "mkfs", "git push --force"]


class WitWorld(wit_world.WitWorld):
    def handle(self, payload: Payload) -> Response:
        passed = Response(decision=Decision_Pass(), updated_input=None, additional_context=None)
        if payload.event != "PreToolUse":
            return passed
        p = json.loads(payload.json)
        if p.get("toolName") != "bash":
            return passed
        command = " ".join(str(p.get("toolArgs", {}).get("command", "")).split())
        for d in DANGEROUS:
            if d in command:
                return Response(
                    decision=Decision_Block(f"python guard: `{d}` is destructive"),
                    updated_input=None,
                    additional_context=None,
                )
        return passed
