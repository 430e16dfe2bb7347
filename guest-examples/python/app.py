"""The dangerous-bash guard in Python, with hookhost's Python SDK (sdk/python/hookhost_hook.py):
one function gets the payload as a dict and returns block(...) or nothing.

Build: componentize-py -d ../../wit -w hook componentize app -p . -p ../../sdk/python -o ../out/bash-guard-py.wasm
"""
from hookhost_hook import WitWorld, block, hook  # noqa: F401 (WitWorld: componentize-py's entry)

DANGEROUS = ["rm -rf /", "rm -rf ~", "mkfs", "git push --force"]


@hook
def guard(p: dict):
    if p["event"] != "PreToolUse" or p.get("toolName") != "bash":
        return None
    args = p.get("toolArgs")
    command = " ".join(str(args.get("command", "") if isinstance(args, dict) else "").split())
    for d in DANGEROUS:
        if d in command:
            return block(f"python guard: `{d}` is destructive")
    return None
