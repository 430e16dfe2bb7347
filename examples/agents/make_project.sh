#!/usr/bin/env bash
# Makes the example agents' project in DIR: a wasm guard (bash-guard, from GUEST_WASM) on
# bash, a Stop hook that forces the agent on once (until notes.txt was read), and an async
# PostToolUse audit log.
set -euo pipefail
dir="$1"; guest="$2"
mkdir -p "$dir/.coding-agent"
cp "$guest" "$dir/.coding-agent/bash-guard.wasm"
cat > "$dir/.coding-agent/hooks.json" <<'JSON'
{ "hooks": {
  "PreToolUse": [ { "command": ".coding-agent/bash-guard.wasm", "match": "bash" } ],
  "PostToolUse": [ { "command": "cat >> .coding-agent/audit.log; echo >> .coding-agent/audit.log", "async": true } ],
  "Stop": [ { "command": "grep -q '\"stopHookActive\":true' || { echo 'read notes.txt before you stop'; exit 2; }" } ]
} }
JSON
# The project's hooks are reviewed and recorded as trusted (without it the default policy,
# `skip`, would not run its shell hooks, and its wasm guard could only pass or block).
"${HOOKHOST:-hookhost}" trust --project "$dir" >/dev/null
