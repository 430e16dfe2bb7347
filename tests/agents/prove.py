#!/usr/bin/env python3
"""`hookhost prove` against the pinned real agents (run by scripts/test-real-agents).

1. A fresh home where `hookhost install --for AGENT` wired each agent: `hookhost prove --json`
   reports the shell path enforced for each, exits 0, and changes nothing in that home.
2. The same home with the wiring deliberately broken (Claude Code, Gemini CLI and Qwen Code:
   the PreToolUse / BeforeTool entry removed; Codex: the hook command points at a hookhost
   that does not exist):
   prove reports the shell path bypassed for each and exits 1.

Each check prints `PASS`/`FAIL name`; the run closes with `N passed, N failed in Xs`.

Usage: prove.py --hookhost /abs/hookhost --bin DIR [--agents claude,codex,gemini,qwen]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROVE_TIMEOUT_S = 600


def snapshot(root: Path) -> dict:
    """Every file under root: its sha256 and mode."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink():
            out[str(p.relative_to(root))] = (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mode)
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hookhost", required=True)
    p.add_argument("--bin", required=True)
    p.add_argument("--agents", default="claude,codex,gemini,qwen")
    a = p.parse_args(argv)
    start = time.monotonic()
    passed = failed = 0

    def check(name: str, ok: bool, detail: str = "") -> None:
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail and not ok else ''}", flush=True)

    # The agents this hookhost proves (`prove --help` lists them); the tier's others are noted.
    usage = subprocess.run([a.hookhost, "prove", "--help"], capture_output=True, text=True, timeout=60).stdout
    listed = re.search(r"--for <([a-z|]+)>", usage)
    # No list (no `prove` at all): every agent, so that its absence fails below.
    proved = listed.group(1).split("|") if listed else a.agents.split(",")
    agents = [x for x in a.agents.split(",") if x in proved]
    for x in a.agents.split(","):
        if x not in proved:
            print(f"UNSUPPORTED {x} prove: `hookhost prove` does not run this agent yet", flush=True)
    if not agents:
        print("0 passed, 0 failed in 0.0s (no agent to prove)", flush=True)
        return 0
    work = Path(tempfile.mkdtemp(prefix="hookhost-prove-test-"))
    home = work / "home"
    home.mkdir()
    env = dict(os.environ, PATH=f"{a.bin}:{os.environ.get('PATH', '/usr/bin:/bin')}")

    def hh(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([a.hookhost, "--home", str(home), *args], env=env, capture_output=True, text=True,
                              timeout=PROVE_TIMEOUT_S, stdin=subprocess.DEVNULL)

    def prove() -> tuple[subprocess.CompletedProcess, dict]:
        t = time.monotonic()
        out = hh("prove", "--json")
        print(f"     prove: exit {out.returncode} in {time.monotonic() - t:.0f}s", flush=True)
        try:
            return out, {x["agent"]: x for x in json.loads(out.stdout)["agents"]}
        except (ValueError, KeyError) as e:
            check("prove printed its JSON report", False, f"{e}: {out.stdout[-300:]} {out.stderr[-300:]}")
            return out, {}

    def shell(report: dict, agent: str) -> dict:
        paths = report.get(agent, {}).get("paths", [])
        return next((x for x in paths if x["path"] == "shell"), {"status": "missing", "detail": json.dumps(report.get(agent))[:400]})

    try:
        for agent in agents:
            r = hh("install", "--for", agent)
            check(f"{agent}: hookhost install", r.returncode == 0, r.stderr[-300:])
        before = snapshot(home)
        out, report = prove()
        for agent in agents:
            s = shell(report, agent)
            check(f"{agent} prove: the shell path is enforced", s["status"] == "enforced", f"{s['status']}: {s['detail']}")
        check("prove: exit 0 when nothing is bypassed", out.returncode == 0, out.stdout[-500:] + out.stderr[-300:])
        check("prove: nothing in the user's home changed", snapshot(home) == before,
              json.dumps(sorted(set(snapshot(home).items()) ^ set(before.items())))[:400])

        # Broken wirings: Claude Code, Gemini CLI and Qwen Code without the tool-gating entry, Codex's
        # command pointing at a hookhost that is not there. (Gemini CLI with a missing binary
        # blocks every prompt at BeforeAgent: nothing reaches the model, nothing to bypass.)
        for agent, rel, event in (("claude", ".claude/settings.json", "PreToolUse"),
                                  ("gemini", ".gemini/settings.json", "BeforeTool"),
                                  ("qwen", ".qwen/settings.json", "PreToolUse")):
            if agent in agents:
                f = home / rel
                doc = json.loads(f.read_text())
                del doc["hooks"][event]
                f.write_text(json.dumps(doc, indent=2))
        if "codex" in agents:
            f = home / ".codex" / "hooks.json"
            f.write_text(f.read_text().replace(a.hookhost, str(work / "gone" / "hookhost")))
        out, report = prove()
        for agent in agents:
            s = shell(report, agent)
            check(f"{agent} prove (broken wiring): the shell path is bypassed", s["status"] == "bypassed",
                  f"{s['status']}: {s['detail']}")
        check("prove (broken wiring): exit 1", out.returncode == 1, out.stderr[-300:])
    finally:
        if failed == 0:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"     kept {work}", flush=True)
    print(f"{passed} passed, {failed} failed in {time.monotonic() - start:.1f}s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
