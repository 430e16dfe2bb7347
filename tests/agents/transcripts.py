#!/usr/bin/env python3
"""Capture the real agents' own session transcripts as fixtures for `hookhost replay`.

Each agent runs headless and offline against the scripted model (model_server.py) in a fresh
HOME and project, with no hooks at all, through one short session: the prompt, a harmless shell
call (`echo hi`), a destructive one (`rm -rf build`), a file write, and a final answer. The
transcript the agent wrote is copied as written (only the run's temporary paths are replaced by
stable placeholders) into `OUT/<agent>/`:

- Claude Code: `~/.claude/projects/<slug>/<session>.jsonl` -> `claude/session.jsonl`
- Codex: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl` -> `codex/rollout.jsonl`
- Gemini CLI: every file under `~/.gemini/tmp/` -> `gemini/<name>` (its chat
  `chats/session-<time>-<id>.jsonl` -> `gemini/session.jsonl`)

The scripted model can call any tool by name for Anthropic only, so Claude writes its file with
its `Write` tool and Codex and Gemini with a shell `printf > notes.txt`.

Usage: transcripts.py --bin DIR --out tests/fixtures/transcripts [--agents claude,codex,gemini]
Re-capture after bumping a pinned version in scripts/test-real-agents:
    scripts/test-real-agents --capture-transcripts
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from capture import normalise  # noqa: E402
from model_server import Server  # noqa: E402
from run_agents import AGENTS, AGENT_TIMEOUT_S, Agent, Run  # noqa: E402

WRITE_TEXT = "written by the model\n"


def turns(agent: str) -> list[dict]:
    write = ({"tool": "Write", "input": {"file_path": "{PROJECT}/notes.txt", "content": WRITE_TEXT}}
             if agent == "claude" else {"shell": "printf 'written by the model\\n' > notes.txt"})
    return [{"shell": "echo hi"}, {"shell": "rm -rf build"}, write, {"text": "All done."}]


class Unhooked:
    """Wraps an Agent: the same offline set-up, with its hooks taken out again."""

    def __init__(self, agent: Agent):
        self.agent = agent
        self.name, self.hook_timeout = agent.name, agent.hook_timeout

    def __getattr__(self, name):
        return getattr(self.agent, name)

    def setup(self, home: Path, project: Path) -> None:
        self.agent.setup(home, project)
        (project / "build").mkdir(exist_ok=True)
        (project / "build" / "out.o").write_text("object\n")
        for path in (home / ".claude" / "settings.json", home / ".gemini" / "settings.json"):
            if path.is_file():
                settings = json.loads(path.read_text())
                settings.pop("hooks", None)
                path.write_text(json.dumps(settings, indent=1) + "\n")
        (home / ".codex" / "hooks.json").unlink(missing_ok=True)


def transcripts(agent: str, home: Path) -> list[tuple[Path, str]]:
    """(file the agent wrote, fixture name) for each transcript file of the run."""
    if agent == "claude":
        return [(f, "session.jsonl") for f in sorted((home / ".claude" / "projects").glob("*/*.jsonl"))][:1]
    if agent == "codex":
        return [(f, "rollout.jsonl") for f in sorted((home / ".codex" / "sessions").rglob("rollout-*.jsonl"))][:1]
    base = home / ".gemini" / "tmp"
    return [(f, "session.jsonl" if f.parent.name == "chats" and f.name.startswith("session-") else f.name)
            for f in sorted(base.rglob("*")) if f.is_file()]


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--agents", default="claude,codex,gemini")
    a = p.parse_args(argv)
    out = Path(a.out).resolve()
    server = Server(deadline_s=AGENT_TIMEOUT_S * 4).start()
    work = Path(tempfile.mkdtemp(prefix="hookhost-transcripts-"))
    failed = 0
    try:
        for name in a.agents.split(","):
            agent = AGENTS[name](Path(a.bin), Path("/bin/false"), False, server.url)
            root = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=work))
            script = json.loads(json.dumps(turns(name)).replace("{PROJECT}", str(root / "project")))
            x = Run(Unhooked(agent), server, root, script, {})
            print(f"     {name}: {x.summary()}", flush=True)
            files = transcripts(name, x.home)
            if not files:
                print(f"FAIL {name}: no transcript under {x.home}", flush=True)
                failed += 1
                continue
            dest = out / name
            shutil.rmtree(dest, ignore_errors=True)
            dest.mkdir(parents=True)
            for src, fixture in files:
                (dest / fixture).write_text(normalise(src.read_text(), root, x.home, x.project))
                print(f"     captured {name}/{fixture} from {src.relative_to(x.home)}", flush=True)
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
