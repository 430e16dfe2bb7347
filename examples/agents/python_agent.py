#!/usr/bin/env python3
"""A minimal Claude-Code-like agent loop in Python, wired to hookhost at every trigger point.

The model is scripted (no network): it answers from a list of turns, each a tool call or a
final answer. The loop is the usual one: SessionStart, then per user prompt
UserPromptSubmit, then model turns; each tool call goes through PreToolUse (which may block
or rewrite it), runs, then PostToolUse; a final answer fires Stop (which may force the agent
on); PreCompact when the history grows; SessionEnd at the end.

    python3 examples/agents/python_agent.py PROJECT_DIR   # exits 1 if hooks did not act
"""

import json
import subprocess
import sys
from pathlib import Path

import hookhost
from hookhost import block, context

PROJECT = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
COMPACT_AFTER = 6  # messages


class ScriptedModel:
    """Answers from a script; a real agent calls an LLM here."""

    def __init__(self, turns):
        self.turns = list(turns)

    def next(self, messages):
        return self.turns.pop(0) if self.turns else {"final": "done"}


def run_tool(name, args):
    if name == "bash":
        p = subprocess.run(["sh", "-c", args["command"]], cwd=PROJECT, capture_output=True, text=True)
        return p.stdout + p.stderr, p.returncode != 0
    if name == "write_file":
        path = PROJECT / args["path"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(args["content"])
        return f"wrote {args['path']}", False
    if name == "read_file":
        return (PROJECT / args["path"]).read_text(), False
    return f"unknown tool {name}", True


def agent(runner, model, prompt, log):
    messages = []
    start = runner.session_start("startup")
    messages += [{"role": "system", "content": c} for c in start.additional_context]
    sub = runner.user_prompt_submit(prompt)
    if sub.blocked:
        log.append(("prompt-blocked", sub.reason))
        return messages
    messages += [{"role": "system", "content": c} for c in sub.additional_context]
    messages.append({"role": "user", "content": prompt})
    stop_active = False
    while True:
        if len(messages) > COMPACT_AFTER:
            runner.pre_compact("auto")
            messages = messages[-4:]
            log.append(("compacted", len(messages)))
        turn = model.next(messages)
        if "final" in turn:
            stop = runner.stop(stop_hook_active=stop_active)
            if stop.forced:
                log.append(("forced", stop.reason))
                messages.append({"role": "user", "content": stop.reason})
                stop_active = True
                continue
            log.append(("final", turn["final"]))
            break
        name, args = turn["tool"], turn["args"]
        pre = runner.pre_tool_use(name, args)
        if pre.blocked:
            log.append(("blocked", name, pre.reason))
            messages.append({"role": "tool", "content": f"blocked: {pre.reason}"})
            continue
        args = pre.updated_args or args
        output, error = run_tool(name, args)
        log.append(("ran", name, args))
        post = runner.post_tool_use(name, args, output, error=error)
        messages.append({"role": "tool", "content": output})
        messages += [{"role": "system", "content": c} for c in post.additional_context + post.feedback]
    runner.session_end("exit")
    return messages


def main():
    runner = hookhost.Runner(str(PROJECT))
    # In-process Python hooks, next to the project's configured shell and wasm hooks.
    runner.register("PreToolUse", "write_file",
                    lambda p: block("no writing secrets") if p["toolArgs"]["path"].endswith(".env") else None)
    runner.register("SessionStart", None, lambda p: context("You are in " + p["cwd"]))
    model = ScriptedModel([
        {"tool": "bash", "args": {"command": "echo hello"}},
        {"tool": "bash", "args": {"command": "rm -rf /"}},           # the wasm guard blocks it
        {"tool": "write_file", "args": {"path": ".env", "content": "KEY=1"}},  # the Python hook
        {"tool": "write_file", "args": {"path": "notes.txt", "content": "todo"}},
        {"final": "all done"},                                        # Stop forces once
        {"tool": "read_file", "args": {"path": "notes.txt"}},
        {"final": "really done"},
    ])
    log = []
    agent(runner, model, "tidy up the project", log)
    runner.wait_async()
    for entry in log:
        print(*entry)
    kinds = [e[0] for e in log]
    ok = (
        ("blocked", "bash") in [(e[0], e[1]) for e in log]
        and ("blocked", "write_file") in [(e[0], e[1]) for e in log]
        and "forced" in kinds
        and kinds[-1] == "final"
        and not (PROJECT / ".env").exists()
    )
    print("python agent:", "hooks acted at every trigger point" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
