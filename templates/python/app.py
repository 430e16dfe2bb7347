"""{{name}}: a PreToolUse guard for the `bash` tool, a component of the typed `hook` world
(wit/hook.wit) built with componentize-py. hookhost calls `handle` with the event name and
the payload JSON; the returned decision is the answer. Destructive commands are blocked; a
payload that cannot be parsed is blocked too (fail closed); everything else passes.
"""
import json

import wit_world
from wit_world.imports.types import Decision_Block, Decision_Pass, Payload, Response

# Patterns that destroy data, with the reason the model is shown.
DANGEROUS = [
    ("rm -rf /", "deletes the whole filesystem"),
    ("rm -fr /", "deletes the whole filesystem"),
    ("rm -rf ~", "deletes the home directory"),
    ("mkfs", "formats a disk"),
]


def answer(decision) -> Response:
    return Response(decision=decision, updated_input=None, additional_context=None)


class WitWorld(wit_world.WitWorld):
    def handle(self, payload: Payload) -> Response:
        try:
            p = json.loads(payload.json)
        except ValueError:
            return answer(Decision_Block("{{name}}: cannot parse the payload; blocking to be safe"))
        if not isinstance(p, dict):
            return answer(Decision_Block("{{name}}: the payload is not a JSON object; blocking to be safe"))
        if payload.event != "PreToolUse" or p.get("toolName") != "bash":
            return answer(Decision_Pass())
        args = p.get("toolArgs")
        command = args.get("command", "") if isinstance(args, dict) else ""
        # Collapse runs of whitespace so `rm  -rf   /` is caught too.
        normalized = " ".join(str(command).split())
        for pattern, why in DANGEROUS:
            if pattern in normalized:
                return answer(Decision_Block(f"{{name}}: `{pattern}` {why}; use a safer command"))
        return answer(Decision_Pass())
