#!/usr/bin/env python3
"""The plugins scenario of the real-agents tier: hookhost's plugin for each agent (plugins/),
installed the agent's own way into a fresh HOME, is the only wiring; a project
`.coding-agent/hooks.json` guard (the bash-guard wasm example, untrusted: it still may block)
must then stop `rm -rf *` in the real agent. Closes with `N passed, N failed in Xs`.

Usage: plugins.py --hookhost /abs/hookhost --bin DIR --guard /abs/bash-guard.wasm
       [--agents claude,codex,gemini] [--keep]
The plugins call `hookhost` by name: the directory of --hookhost goes first on PATH.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from model_server import Server  # noqa: E402
from run_agents import AGENT_TIMEOUT_S, Claude, Codex, Gemini, Opencode, Results, Run, tool_results, write_json  # noqa: E402

PLUGINS = Path(__file__).resolve().parents[2] / "plugins"
INSTALL_TIMEOUT_S = 120
BLOCKED = "blocked by the untrusted project wasm hook PreToolUse[0]"


def install(cmd: list[str], home: Path, extra_env: dict) -> None:
    """Runs one of the agent's own install commands; raises with its output on failure."""
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "LANG": "C.UTF-8", "TERM": "dumb", "NO_COLOR": "1",
           **extra_env}
    p = subprocess.run(cmd, env=env, cwd=home, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=INSTALL_TIMEOUT_S)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[1:])} exited {p.returncode}: {p.stdout[-400:]} {p.stderr[-400:]}")


def cache_env(home: Path) -> dict:
    # The adapter without --home finds the project's config; its compiled-code cache stays in the temp HOME.
    return {"HOOKHOST_CACHE_DIR": str(home / ".cache" / "hookhost" / "wasm")}


class ClaudePlugin(Claude):
    def setup(self, home, project):
        write_json(home / ".claude" / "settings.json", {})  # no hooks: the plugin is the only wiring
        env = self.env(home)
        install([str(self.path), "plugin", "marketplace", "add", str(PLUGINS)], home, env)
        install([str(self.path), "plugin", "install", "hookhost@hookhost"], home, env)

    def env(self, home):
        return {**super().env(home), **cache_env(home)}


class CodexPlugin(Codex):
    def setup(self, home, project):
        super().setup(home, project)
        (home / ".codex" / "hooks.json").unlink()  # no hooks: the plugin is the only wiring
        env = self.env(home)
        install([str(self.path), "plugin", "marketplace", "add", str(PLUGINS)], home, env)
        install([str(self.path), "plugin", "add", "hookhost@hookhost"], home, env)

    def env(self, home):
        return {**super().env(home), **cache_env(home)}


class GeminiPlugin(Gemini):
    def setup(self, home, project):
        super().setup(home, project)
        settings = home / ".gemini" / "settings.json"
        s = json.loads(settings.read_text())
        del s["hooks"]  # no hooks: the extension is the only wiring
        write_json(settings, s)
        # `extensions install` asks whether to trust the extension's folder; the project too (--yolo).
        write_json(home / ".gemini" / "trustedFolders.json",
                   {str(project): "TRUST_FOLDER", str(PLUGINS / "gemini"): "TRUST_FOLDER"})
        install([str(self.path), "extensions", "install", str(PLUGINS / "gemini"), "--consent"], home,
                self.env(home))

    def env(self, home):
        return {**super().env(home), **cache_env(home)}


class OpencodePlugin(Opencode):
    """The plugin copied into ~/.config/opencode/plugins/ (docs/plugins.md), calling `hookhost`
    from PATH as a user's would (no --home: the project's config is what it reads)."""

    def env(self, home):
        return {**super().env(home), **cache_env(home)}


AGENTS = {a.name: a for a in (ClaudePlugin, CodexPlugin, GeminiPlugin, OpencodePlugin)}


def scenario(agent, server: Server, work: Path, guard: Path, r: Results) -> None:
    a = agent.name
    root = Path(tempfile.mkdtemp(prefix=f"{a}-plugin-", dir=work))
    project_hooks = {"PreToolUse": [{"command": ".coding-agent/guard.wasm", "match": "bash"}]}
    (root / "project" / ".coding-agent").mkdir(parents=True)
    shutil.copy(guard, root / "project" / ".coding-agent" / "guard.wasm")
    x = Run(agent, server, root, [{"shell": "rm -rf *"}, {"text": "The hook blocked it."}], {}, project_hooks)
    print(f"     {a} plugin: {x.summary()} [{root.name}]", flush=True)
    r.check(f"{a} plugin: victim/ and canary.txt still exist after `rm -rf *`",
            (x.project / "victim" / "keep.txt").is_file() and (x.project / "canary.txt").is_file(), x.summary())
    # This is the check that can tell: Claude Code refuses `rm -rf *` of its workspace by itself
    # ("Dangerous rm operation detected"), so the files survive without the plugin too.
    # An untrusted wasm hook may block, with hookhost's fixed reason (its own is withheld until `hookhost trust`).
    said = x.next_request is not None and BLOCKED in tool_results(x.next_request)
    r.check(f"{a} plugin: the model's next request says the project's guard blocked the call", said,
            "no next request" if x.next_request is None else tool_results(x.next_request)[:300])
    if a == "codex":
        failed = [ln for ln in x.stderr.splitlines() if ln.startswith("hook: ") and ln.endswith(" Failed")]
        r.check(f"{a} plugin: Codex accepted every hookhost answer (no `hook: ... Failed`)", not failed,
                "; ".join(failed))


def manifests(r: Results) -> None:
    """The plugin files agree with the engine: each wires exactly its agent's events of
    crates/engine/src/config/agents/events.rs (Claude Code's but the two worktree events), and
    carries the workspace version."""
    root = PLUGINS.parent
    table = (root / "crates/engine/src/config/agents/events.rs").read_text()
    rows = re.findall(r'\(\s*Dialect::(\w+),\s*"(\w+)",\s*Event::\w+,?\s*\)', table)
    version = re.search(r'(?m)^\[workspace\.package\][^\[]*?^version = "([^"]+)"',
                        (root / "Cargo.toml").read_text()).group(1)
    for agent, dialect, manifest in (("claude", "Claude", "claude/.claude-plugin/plugin.json"),
                                     ("codex", "Codex", "codex/.codex-plugin/plugin.json"),
                                     ("gemini", "Gemini", "gemini/gemini-extension.json")):
        # Claude Code's WorktreeCreate/WorktreeRemove hooks replace its own `git worktree`
        # (docs/plugins.md): the plugin leaves them to the user to wire.
        not_wired = {"WorktreeCreate", "WorktreeRemove"} if agent == "claude" else set()
        want = sorted(n for d, n in rows if d == dialect and n not in not_wired)
        hooks = json.loads((PLUGINS / agent / "hooks" / "hooks.json").read_text())["hooks"]
        commands = {h["command"] for entries in hooks.values() for e in entries for h in e["hooks"]}
        # The wired command (`adapter_command` in crates/engine/src/config/agents/mod.rs): the
        # static client when it is on PATH, else `hookhost` itself.
        wired = (f"command -v hookhost-warm >/dev/null 2>&1 && exec hookhost-warm hook --for {agent}"
                 f" || exec hookhost hook --for {agent}")
        r.check(f"{agent} plugin files: every event of events.rs is wired to `hookhost-warm hook --for {agent}` (else `hookhost`)",
                want != [] and sorted(hooks) == want and commands == {wired},
                f"events.rs {want}, hooks.json {sorted(hooks)}, commands {commands}")
        got = json.loads((PLUGINS / manifest).read_text()).get("version")
        r.check(f"{agent} plugin files: {manifest} has the workspace version {version}", got == version, str(got))


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hookhost", required=True)
    p.add_argument("--bin", required=True)
    p.add_argument("--guard", required=True, help="the bash-guard example's .wasm")
    p.add_argument("--agents", default="claude,codex,gemini")
    p.add_argument("--keep", action="store_true")
    a = p.parse_args(argv)
    start = time.monotonic()
    r = Results()
    hookhost = Path(a.hookhost).resolve()
    os.environ["PATH"] = f"{hookhost.parent}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"
    server = Server(deadline_s=AGENT_TIMEOUT_S * 2 * len(AGENTS) + 120).start()
    work = Path(tempfile.mkdtemp(prefix="hookhost-plugins-"))
    manifests(r)
    try:
        for name in a.agents.split(","):
            if name not in AGENTS:  # an agent of the tier for which plugins/ has no plugin yet
                r.unsupported_check(f"{name} plugin", "plugins/ has no plugin for this agent")
                continue
            agent = AGENTS[name](Path(a.bin), hookhost, False, server.url)
            if not agent.path.exists():
                r.check(f"{name}: installed", False, f"{agent.path} is missing")
                continue
            try:
                scenario(agent, server, work, Path(a.guard), r)
            except Exception as e:  # an agent whose plugin cannot be installed fails loudly, the others go on
                r.check(f"{name} plugin: installed and ran", False, f"{type(e).__name__}: {e}")
    finally:
        server.stop()
        if not a.keep and r.failed == 0:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"     scenario directories kept in {work}", flush=True)
    print(f"{r.passed} passed, {r.failed} failed in {time.monotonic() - start:.1f}s", flush=True)
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
