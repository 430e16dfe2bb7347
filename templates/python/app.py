"""{{name}}: a PreToolUse guard for the `bash` tool, written with hookhost's Python SDK
(hookhost_hook.py, next to this file): one function gets the payload as a dict and returns
block("why"), force("msg"), update_input({...}), context("text") or nothing (pass).
Destructive commands are blocked; a payload that cannot be parsed, or an exception in the
function, blocks too (fail closed).

Build: componentize-py -d wit -w hook componentize app -o {{name}}.wasm  (or `hookhost build`)
"""
from hookhost_hook import WitWorld, block, hook  # noqa: F401 (WitWorld: componentize-py's entry)

# Patterns that destroy data, with the reason the model is shown.
DANGEROUS = [
    ("rm -rf /", "deletes the whole filesystem"),
    ("rm -fr /", "deletes the whole filesystem"),
    ("rm -rf ~", "deletes the home directory"),
    ("mkfs", "formats a disk"),
]


@hook
def guard(payload: dict):
    if payload["event"] != "PreToolUse" or payload.get("toolName") != "bash":
        return None
    args = payload.get("toolArgs")
    command = args.get("command", "") if isinstance(args, dict) else ""
    # Collapse runs of whitespace so `rm  -rf   /` is caught too.
    normalized = " ".join(str(command).split())
    for pattern, why in DANGEROUS:
        if pattern in normalized:
            return block(f"{{name}}: `{pattern}` {why}; use a safer command")
    return None
