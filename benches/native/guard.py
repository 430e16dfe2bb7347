#!/usr/bin/env python3
"""The dangerous-bash guard as a plain python3 script run through a shell hook: the baseline
the Python component is measured against (scripts/bench-report). Same logic as
guest-examples/python/app.py."""
import json
import sys

DANGEROUS = ["rm -rf /", "rm -rf ~", "mkfs", "git push --force"]

try:
    p = json.load(sys.stdin)
except ValueError as e:
    print(f"python guard: cannot read the payload ({e}); blocking to fail closed", file=sys.stderr)
    sys.exit(2)
if p.get("event") == "PreToolUse" and p.get("toolName") == "bash":
    args = p.get("toolArgs")
    command = " ".join(str(args.get("command", "") if isinstance(args, dict) else "").split())
    for d in DANGEROUS:
        if d in command:
            print(f"python guard: `{d}` is destructive", file=sys.stderr)
            sys.exit(2)
