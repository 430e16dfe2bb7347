#!/bin/sh
# Blocks dangerous shell commands. Reads the PreToolUse payload on stdin.
payload=$(cat)
case "$payload" in
  *'rm -rf /'*|*'rm -rf ~'*|*'mkfs'*|*':(){ :|:& };:'*)
    echo "blocked by check-bash.sh: destructive command" >&2
    exit 2 ;;
esac
exit 0
