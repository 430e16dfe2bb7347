#!/usr/bin/env python3
"""Capture the real agents' hook payloads as fixtures for the unit and integration tests.

Each agent runs headless and offline against the scripted model (model_server.py), with a
small capturing shell hook (not hookhost) on every event the agent documents. The first
payload of each event is written byte for byte (after the scenario's temporary paths are
replaced by stable placeholders) to `OUT/<agent>/<Event>.json`, and the variables the agent
set for that hook (beyond the harness's own) to `OUT/<agent>/<Event>.env.json`.

Usage: capture.py --bin DIR --out tests/fixtures/agents [--agents claude,codex,gemini,qwen]
Re-capture after bumping a pinned version in scripts/test-real-agents:
    scripts/test-real-agents --capture
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from model_server import Server  # noqa: E402
from run_agents import AGENTS, AGENT_TIMEOUT_S, PROMPT, Agent, Run, write_json, write_script  # noqa: E402

# Placeholders for the run's temporary paths (longest first when replaced).
HOME, PROJECT, ROOT = "/home/user", "/home/user/project", "/tmp/scenario"

# Every event each agent documents for command hooks (an unknown one would only be ignored).
EVENTS = {
    "claude": ["SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse",
               "PostToolUseFailure", "Notification", "SubagentStart", "SubagentStop", "PreCompact",
               "PostCompact", "Stop", "StopFailure", "SessionEnd"],
    "codex": ["SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "Stop"],
    "gemini": ["SessionStart", "BeforeAgent", "BeforeModel", "AfterModel", "BeforeToolSelection", "BeforeTool",
               "AfterTool", "PreCompress", "Notification", "AfterAgent", "SessionEnd"],
    # Qwen Code 0.24.4's HookEventName (packages/core/src/hooks/types.ts), all but the
    # interactive-only ones a headless run cannot reach.
    "qwen": ["SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PermissionDenied",
             "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification", "SubagentStart",
             "SubagentStop", "PreCompact", "PostCompact", "Stop", "StopFailure", "SessionEnd", "MessageDisplay",
             "InstructionsLoaded", "TodoCreated", "TodoCompleted"],
}

# The file name's prefix: the Claude-like agents' fixture directories also hold payloads from
# their docs (`doc-<Event>.json`), so the captured ones are `captured-<Event>.json` there.
PREFIX = {"qwen": "captured-"}

# Events that take a tool matcher in each agent's settings.
TOOL_EVENTS = {"PreToolUse", "PermissionRequest", "PermissionDenied", "PostToolUse", "PostToolUseFailure",
               "BeforeTool", "AfterTool"}

# The runs: a harmless call, a failing call (PostToolUseFailure), a call that needs permission
# (PermissionRequest, Notification), and a compaction where the agent can be asked for one.
RUNS = {
    "claude": [
        ("tools", [{"shell": "ls"}, {"shell": "cat missing-file"}, {"text": "Done."}], {}),
        ("permission", [{"shell": "touch made-by-the-model"}, {"text": "Done."}], {"ask": True}),
        ("compact", [], {"prompt": "/compact"}),
        ("subagent", [{"tool": ["Agent", "Task"], "input": {"description": "look around", "prompt": "List the files.",
                                                  "subagent_type": "general-purpose"}},
                      {"text": "Done."}], {}),
        ("failure", [{"error": 400}], {}),
    ],
    "codex": [
        ("tools", [{"shell": "ls"}, {"shell": "cat missing-file"}, {"text": "Done."}], {}),
        ("permission", [{"shell": "touch made-by-the-model"}, {"text": "Done."}], {"ask": True}),
    ],
    "gemini": [
        ("tools", [{"shell": "ls"}, {"shell": "cat missing-file"}, {"text": "Done."}], {}),
        ("permission", [{"shell": "touch made-by-the-model"}, {"text": "Done."}], {"ask": True}),
    ],
    "qwen": [
        ("tools", [{"shell": "ls"}, {"shell": "cat missing-file"}, {"text": "Done."}], {}),
        ("permission", [{"shell": "touch made-by-the-model"}, {"text": "Done."}], {"ask": True}),
    ],
}


def capture_hook(agent: Agent, script: str, event: str) -> dict:
    hook = {"type": "command", "command": f"{script} {event}", "timeout": agent.hook_timeout}
    entry = {"hooks": [hook]}
    if event in TOOL_EVENTS:
        entry["matcher"] = ".*" if agent.name == "gemini" else "*"
    return entry


class CaptureAgent:
    """Wraps an Agent: the same offline set-up, with capturing hooks instead of the adapter."""

    def __init__(self, agent: Agent, script: str, opts: dict):
        self.agent, self.script, self.opts = agent, script, opts
        self.name, self.hook_timeout = agent.name, agent.hook_timeout

    def __getattr__(self, name):
        return getattr(self.agent, name)

    def setup(self, home: Path, project: Path) -> None:
        self.agent.setup(home, project)
        hooks = {e: [capture_hook(self.agent, self.script, e)] for e in EVENTS[self.name]}
        if self.name == "claude":
            path = home / ".claude" / "settings.json"
        elif self.name == "gemini":
            path = home / ".gemini" / "settings.json"
        elif self.name == "qwen":
            path = home / ".qwen" / "settings.json"
        else:
            path = home / ".codex" / "hooks.json"
        settings = json.loads(path.read_text()) if path.is_file() else {}
        settings["hooks"] = hooks
        write_json(path, settings)

    def command(self, project: Path) -> list[str]:
        cmd = self.agent.command(project)
        prompt = self.opts.get("prompt")
        if prompt:
            cmd = [prompt if c == PROMPT else c for c in cmd]
        if self.opts.get("ask"):
            drop = {"--allowedTools": 1, "Bash": 0, "--yolo": 0, "--dangerously-bypass-approvals-and-sandbox": 0}
            out, skip = [], 0
            for c in cmd:
                if skip:
                    skip -= 1
                    continue
                if c in drop:
                    skip = drop[c]
                    continue
                out.append(c)
            cmd = out
            if self.name == "codex":
                cmd[2:2] = ["-c", 'approval_policy="on-request"', "-s", "read-only"]
        return cmd


def normalise(text: str, root: Path, home: Path, project: Path) -> str:
    pairs = [(str(project), PROJECT), (str(home), HOME), (str(root), ROOT),
             (str(project).replace("/", "-"), PROJECT.replace("/", "-"))]  # Claude's transcript directory
    for real, fake in sorted(pairs,
                             key=lambda p: -len(p[0])):
        text = text.replace(real, fake)
        text = text.replace(json.dumps(real)[1:-1], json.dumps(fake)[1:-1])
    return text


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--agents", default="claude,codex,gemini")
    a = p.parse_args(argv)
    out = Path(a.out).resolve()
    server = Server(deadline_s=AGENT_TIMEOUT_S * 10).start()
    work = Path(tempfile.mkdtemp(prefix="hookhost-capture-"))
    base_env = {"PATH", "HOME", "USER", "LANG", "TERM", "NO_COLOR", "TMPDIR", "PWD", "SHLVL", "_", "OLDPWD"}
    try:
        for name in a.agents.split(","):
            agent = AGENTS[name](Path(a.bin), Path("/bin/false"), False, server.url)
            raw = work / name / "raw"
            raw.mkdir(parents=True)
            script = write_script(work / "bin" / f"{name}-capture.sh",
                                  f'd={shlex.quote(str(raw))}/"$1".$$\n'
                                  'cat > "$d.json"\nenv -0 > "$d.env"\nexit 0\n')
            skip = set(base_env) | set(agent.env(Path("/")).keys())
            for run_name, turns, opts in RUNS[name]:
                root = Path(tempfile.mkdtemp(prefix=f"{name}-{run_name}-", dir=work))
                x = Run(CaptureAgent(agent, script, opts), server, root, turns, {})
                print(f"     {name} {run_name}: {x.summary()}", flush=True)
                for f in sorted(raw.glob("*.json"), key=lambda f: f.stat().st_mtime):
                    event = f.name.split(".")[0]
                    dest = out / name / f"{PREFIX.get(name, '')}{event}.json"
                    if dest.exists() and dest.stat().st_mtime > server_start:
                        f.unlink()
                        continue
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    dest.write_text(normalise(f.read_text(), root, x.home, x.project))
                    env = {}
                    for item in f.with_suffix(".env").read_bytes().split(b"\0"):
                        k, _, v = item.decode(errors="replace").partition("=")
                        if k and k not in skip and not k.startswith(("npm_", "NODE_")):
                            env[k] = "redacted" if k.endswith("_TOKEN") else normalise(v, root, x.home, x.project)
                    write_json(dest.with_suffix(".env.json"), dict(sorted(env.items())))
                    print(f"     captured {name}/{event}", flush=True)
                    f.unlink()
                for f in raw.glob("*"):
                    f.unlink()
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    for name in a.agents.split(","):
        got = sorted(f.stem.removeprefix(PREFIX.get(name, "")) for f in (out / name).glob(f"{PREFIX.get(name, '')}*.json")
                     if not f.name.endswith(".env.json"))
        missing = [e for e in EVENTS[name] if e not in got]
        print(f"{name}: captured {', '.join(got)}; not fired: {', '.join(missing) or 'none'}")
    return 0


server_start = __import__("time").time()

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
