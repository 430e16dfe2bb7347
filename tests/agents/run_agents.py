#!/usr/bin/env python3
"""The real-agents tier: the real Claude Code, Codex, Gemini CLI, Qwen Code, opencode and Factory Droid,
run headless and offline against the scripted model server (model_server.py), with `hookhost hook
--for <agent>` as their hook command (opencode: hookhost's plugin, which runs it). Each scenario gets a fresh HOME and project; each check prints one line;
the run closes with `N passed, N failed in Xs`. Exit status 1 on any failure.

Usage: run_agents.py --hookhost /abs/hookhost --bin DIR [--agents claude,codex,gemini,qwen,opencode,droid] [--keep]
       [--only scenarios,answers,replaced,own_files]
(DIR holds the agents' executables: `npm install --prefix CACHE` puts them in CACHE/node_modules/.bin).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from model_server import Server  # noqa: E402

AGENT_TIMEOUT_S = 150  # one agent run; a cold node start on a loaded 2-core machine takes ~20 s
REASON = "hookhost-guard: rm -rf is not allowed in this project"
STOP_REASON = "hookhost-stop: a native hook ended this session"
NOTICE = "untrusted project hook"  # from the adapter's systemMessage (respond.rs untrusted_notice)
PROMPT = "Run the command the test asks for."


class Results:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0
        self.unsupported: list[str] = []

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail and not ok else ''}", flush=True)
        return ok

    def unsupported_check(self, name: str, why: str) -> None:
        self.unsupported.append(f"{name}: {why}")
        print(f"UNSUPPORTED {name}: {why}", flush=True)


# ---------------------------------------------------------------- what the model was sent


def tool_results(body: dict) -> str:
    """Every tool result in one recorded request, as text (all three APIs)."""
    out = []
    for m in body.get("messages") or []:  # Anthropic
        if isinstance(m.get("content"), list):
            out += [c.get("content") for c in m["content"] if isinstance(c, dict) and c.get("type") == "tool_result"]
    if isinstance(body.get("input"), list):  # Responses
        out += [i.get("output") for i in body["input"]
                if isinstance(i, dict) and i.get("type") in ("function_call_output", "custom_tool_call_output")]
    for c in body.get("contents") or []:  # Gemini
        out += [p["functionResponse"] for p in (c or {}).get("parts") or [] if isinstance(p, dict) and "functionResponse" in p]
    for m in body.get("messages") or []:  # Chat Completions
        if isinstance(m, dict) and m.get("role") == "tool":
            out.append(m.get("content"))
    return json.dumps(out)


def after_first_call(server: Server) -> dict | None:
    """The first main request that carries a tool result (the model's next request)."""
    return next((r["body"] for r in server.main_requests() if r["turn"] and r["turn"] >= 1), None)


# ---------------------------------------------------------------- the agents


class Agent:
    name = ""
    exe = ""

    def __init__(self, bindir: Path, hookhost: Path, home_flag: bool, url: str):
        self.path = bindir / self.exe
        self.hookhost = hookhost
        self.home_flag = home_flag
        self.url = url
        self.home: Path | None = None

    def hook(self) -> dict:
        """The adapter as this agent's hook command: the binary's absolute path, and
        `--home` when this hookhost has it (the home then comes from the password database)."""
        cmd = f"{shlex.quote(str(self.hookhost))} hook --for {self.name}"
        if self.home_flag:
            cmd += f" --home {shlex.quote(str(self.home))}"
        return {"type": "command", "command": cmd, "timeout": self.hook_timeout}

    hook_timeout = 60  # seconds (Claude Code, Codex)

    def setup(self, home: Path, project: Path) -> None:
        raise NotImplementedError

    def command(self, project: Path) -> list[str]:
        raise NotImplementedError

    def env(self, home: Path) -> dict:
        return {}

    # Whether the agent shows a hook's systemMessage to a headless user at all (else why not).
    shows_hook_messages = True
    hidden_messages_why = ""
    # Whether a headless user sees the reason of a PreToolUse `continue: false` (else why not).
    shows_stop_reason = True
    hidden_stop_why = ""
    # Whether `continue: false` on PreToolUse ends the session (else only the deny holds, and why).
    stops_on_pretooluse = True
    no_stop_why = ""
    # Whether the agent runs a hook's rewritten tool input (else why not).
    rewrites = True
    no_rewrite_why = ""
    # Known gaps in hookhost's answer to this agent, by scenario ("rewrite", "feedback"):
    # while the gap is there the scenario prints UNSUPPORTED with this text instead of
    # failing; once hookhost closes it the scenario's own check runs (and must pass).
    gaps: dict[str, str] = {}
    # Whether the next run's user settings also wire the adapter before each model request
    # (Gemini CLI's BeforeModel: how a prompt a hook replaced reaches its model).
    before_model = False
    # The session events whose arrival at the native hooks the harmless run checks.
    lifecycle = ("UserPromptSubmit", "Stop")
    # Whether a UserPromptSubmit hook runs at all in a headless run (else why not): its
    # context and its replaced prompt are then UNSUPPORTED.
    prompt_hooks = True
    no_prompt_why = ""
    # Whether a Stop hook can keep the agent going (else why not).
    forces_stop = True
    no_force_why = ""
    # The agent's own hook file, relative to HOME, as {"hooks": {"PreToolUse": [...]}} (None:
    # hookhost reads no file of this agent; `own_files` is then UNSUPPORTED).
    own_file: str | None = None

    def shown(self, run: "Run") -> str:
        """What the user sees of a run: its stdout and stderr."""
        return run.stdout + run.stderr

    def hook_failures(self, run: "Run") -> list[str] | None:
        """The agent's own record of hook runs whose answer it could not use (it then goes on
        as if the hook had passed), or None when it keeps no such record."""
        return None

    def hook_log(self, run: "Run") -> str | None:
        """What the agent logged of its hooks' answers where it shows them to nobody (None:
        it keeps no such log)."""
        return None

    def log_cut_short(self, logged: str) -> str | None:
        """Why `logged` (from `hook_log`) cannot be read for a message: the agent exited
        before it wrote its log out. None: it is whole."""
        return None


class Claude(Agent):
    name, exe = "claude", "claude"
    own_file = ".claude/settings.json"

    def setup(self, home, project):
        events = {e: [{"hooks": [self.hook()]}] for e in ("UserPromptSubmit", "Stop")}
        for e in ("PreToolUse", "PostToolUse"):
            events[e] = [{"matcher": "*", "hooks": [self.hook()]}]
        write_json(home / ".claude" / "settings.json", {"hooks": events})

    def command(self, project):
        # stream-json shows every message and hook event, the closing line is the result.
        return [str(self.path), "-p", PROMPT, "--output-format", "stream-json", "--verbose",
                "--allowedTools", "Bash"]

    def env(self, home):
        return {"ANTHROPIC_BASE_URL": self.url, "ANTHROPIC_API_KEY": "sk-ant-fake-key",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
                "DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1"}


    def shown(self, run):
        """The stream-json messages a headless user gets: system notices (a hook's
        systemMessage is `{"type":"system","subtype":"informational"}`), tool results, the result."""
        out = []
        for line in run.stdout.splitlines():
            try:
                m = json.loads(line)
            except ValueError:
                continue
            if m.get("type") == "system" and m.get("subtype") != "init":
                out.append(str(m.get("content", "")))
            elif m.get("type") == "user":
                out.append(json.dumps(m.get("tool_use_result", "")))
            elif m.get("type") == "result":
                out.append(str(m.get("result", "")))
        return "\n".join(out) + run.stderr


class Codex(Agent):
    name, exe = "codex", "codex"
    own_file = ".codex/hooks.json"
    # `codex exec` prints `hook: PreToolUse Completed|Blocked|Failed` but no hook
    # systemMessage, neither in its human output, nor in --json events, nor in the rollout.
    shows_hook_messages = False
    hidden_messages_why = ("codex exec shows no hook systemMessage (human output, --json events and rollout "
                           "checked); Codex accepted the answer that carries it (see above)")
    # "PreToolUse hook returned unsupported continue:false": Codex cannot stop from there.
    stops_on_pretooluse = False
    no_stop_why = "Codex rejects continue:false on PreToolUse; hookhost answers the deny alone"
    rewrites = False
    no_rewrite_why = "Codex refuses updatedInput from a hook; hookhost denies the call instead (fails closed)"

    def hook_failures(self, run):
        """`codex exec` prints `hook: PreToolUse Completed|Blocked|Failed` on stderr."""
        return [ln for ln in run.stderr.splitlines() if ln.startswith("hook: ") and ln.endswith(" Failed")]

    def setup(self, home, project):
        codex_home = home / ".codex"
        codex_home.mkdir(parents=True, exist_ok=True)
        (codex_home / "config.toml").write_text(
            'model = "gpt-scripted"\n'
            'model_provider = "scripted"\n'
            "[model_providers.scripted]\n"
            'name = "scripted"\n'
            f'base_url = "{self.url}/v1"\n'
            'env_key = "SCRIPTED_API_KEY"\n'
            'wire_api = "responses"\n'
            "request_max_retries = 0\n"
            "stream_max_retries = 0\n"
        )
        events = {e: [{"hooks": [self.hook()]}] for e in ("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop")}
        write_json(codex_home / "hooks.json", {"hooks": events})

    def command(self, project):
        # User hooks still need Codex's own review (/hooks in its TUI); this flag is its
        # documented way for automation that vets its hook sources itself.
        # The human output (on stderr) names each hook run's status; --json events do not.
        return [str(self.path), "exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust",
                "--dangerously-bypass-approvals-and-sandbox", "-C", str(project), PROMPT]

    def env(self, home):
        return {"CODEX_HOME": str(home / ".codex"), "SCRIPTED_API_KEY": "fake-key"}



class Gemini(Agent):
    name, exe = "gemini", "gemini"
    own_file = ".gemini/settings.json"
    hook_timeout = 60000  # milliseconds; a hook past it is a warning and the call runs
    # A model pinned in the user's settings (None: Gemini CLI's "auto", which asks a small
    # model to route each prompt first).
    model_name: str | None = None

    def setup(self, home, project):
        events = ("BeforeAgent", "AfterAgent") + (("BeforeModel",) if self.before_model else ())
        hooks = {e: [{"hooks": [self.hook()]}] for e in events}
        for e in ("BeforeTool", "AfterTool"):
            hooks[e] = [{"matcher": ".*", "hooks": [self.hook()]}]
        write_json(home / ".gemini" / "settings.json", {
            # GOOGLE_GEMINI_BASE_URL alone selects the "gateway" auth type, which -p refuses.
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
            "privacy": {"usageStatisticsEnabled": False},
            "hooks": hooks,
            **({"model": {"name": self.model_name}} if self.model_name else {}),
        })
        # --yolo is overridden to "default" approval in an untrusted folder.
        write_json(home / ".gemini" / "trustedFolders.json", {str(project): "TRUST_FOLDER"})

    def command(self, project):
        return [str(self.path), "-p", PROMPT, "--yolo", "--output-format", "stream-json"]

    def env(self, home):
        return {"GOOGLE_GEMINI_BASE_URL": self.url, "GEMINI_API_KEY": "fake-key",
                "GEMINI_CLI_NO_RELAUNCH": "true"}



class Qwen(Agent):
    name, exe = "qwen", "qwen"
    own_file = ".qwen/settings.json"
    # Qwen Code 0.24 reads a hook's timeout in seconds, but 1000 or more in milliseconds (its
    # older unit, kept): 60000 is 60 s to Qwen Code and to hookhost's Qwen table alike.
    hook_timeout = 60000
    # `qwen -p` prints a hook's systemMessage only from a Stop hook and only with
    # `--output-format text` (on stderr); any other goes to its debug log alone.
    shows_hook_messages = False
    hidden_messages_why = ("qwen -p shows a hook's systemMessage only from a Stop hook with --output-format text; "
                           "a PreToolUse one goes to its debug log alone (checked above)")
    # Its PreToolUse `continue: false` is a deny like any other: the call gets the reason as
    # its result and the loop goes on (firePreToolUseHook's "stop" block type).
    stops_on_pretooluse = False
    no_stop_why = ("Qwen Code treats continue:false on PreToolUse as a deny (the reason is the tool result) "
                   "and asks the model again")
    # Qwen Code 0.24 reads `updatedInput` from PermissionRequest hooks only; its PreToolUse
    # takes a decision, a reason and context (firePreToolUseHook).
    rewrites = False
    no_rewrite_why = "Qwen Code drops updatedInput from a PreToolUse hook (it applies one only from PermissionRequest)"
    def setup(self, home, project):
        events = {e: [{"hooks": [self.hook()]}] for e in ("UserPromptSubmit", "Stop")}
        for e in ("PreToolUse", "PostToolUse"):
            events[e] = [{"matcher": "*", "hooks": [self.hook()]}]
        write_json(home / ".qwen" / "settings.json", {
            # The OpenAI-compatible provider (chat completions), its URL, key and model from env.
            "security": {"auth": {"selectedType": "openai"}},
            "model": {"name": "qwen-scripted"},
            "general": {"enableAutoUpdate": False},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            # Its shell tool through a pty: in a one-shot run it pipes the command and takes
            # the result at the child's exit, which can come before the output (an `ls` that
            # printed nothing one run in a few); the pty path waits for the output.
            "tools": {"shell": {"enableInteractiveShell": True}},
            "hooks": events,
        })

    def command(self, project):
        return [str(self.path), "-p", PROMPT, "--yolo", "--auth-type", "openai", "--output-format", "stream-json"]

    def env(self, home):
        # QWEN_DEBUG_LOG_FILE: its debug log (~/.qwen/debug/SESSION.txt) records each hook run,
        # the failed ones, and the systemMessages it shows nobody in a headless run.
        return {"OPENAI_BASE_URL": f"{self.url}/v1", "OPENAI_API_KEY": "fake-key", "OPENAI_MODEL": "qwen-scripted",
                "QWEN_CODE_NO_RELAUNCH": "true", "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1", "QWEN_DEBUG_LOG_FILE": "1"}

    def hook_log(self, run):
        logs = sorted((run.home / ".qwen" / "debug").glob("*.txt"))
        return "".join(f.read_text(errors="replace") for f in logs) if logs else None

    def hook_failures(self, run):
        """Its debug log's `Hook(s) [...] failed for event E` and `Hook event bus error` lines
        (the hook's answer then counts for nothing); no log at all is a failure too."""
        log = self.hook_log(run)
        if log is None:
            return [f"no debug log in {run.home / '.qwen' / 'debug'}"]
        return [ln for ln in log.splitlines() if "failed for event" in ln or "Hook event bus error" in ln]

    def shown(self, run):
        """What a headless user gets of stream-json: system notices, tool results, the
        result; and stderr."""
        out = []
        for line in run.stdout.splitlines():
            try:
                m = json.loads(line)
            except ValueError:
                continue
            if m.get("type") == "system" and m.get("subtype") != "init":
                out.append(json.dumps(m))
            elif m.get("type") == "user":
                out.append(json.dumps(m.get("message", "")))
            elif m.get("type") == "result":
                out.append(str(m.get("result", "")) + str(m.get("error", "")))
        return "\n".join(out) + run.stderr


PLUGINS = Path(__file__).resolve().parents[2] / "plugins"


class Opencode(Agent):
    """opencode has no hook commands: hookhost's plugin (plugins/opencode/hookhost.js), copied
    into `~/.config/opencode/plugins/`, runs `hookhost hook --for opencode` from PATH; here
    PATH starts with a wrapper that adds `--home HOME` (the plugin passes no home)."""

    name, exe = "opencode", "opencode"
    # The plugin hands a hook's message to opencode's log (client.app.log), which
    # `opencode run` shows nobody: ~/.local/share/opencode/log/, which the harness reads.
    shows_hook_messages = False
    hidden_messages_why = ("the plugin logs a hook's message through opencode's log (client.app.log), which "
                           "`opencode run` shows nobody (its log file has it: checked above)")
    stops_on_pretooluse = False
    no_stop_why = "an opencode plugin can fail a tool call (the reason is its result), not end the session"
    lifecycle = ("SessionStart", "Stop")  # session.created, session.idle
    prompt_hooks = False
    no_prompt_why = "hookhost's opencode plugin hands on no prompt event (UserPromptSubmit never fires)"
    forces_stop = False
    no_force_why = "opencode's session.idle cannot keep the session going"

    def setup(self, home, project):
        cfg = home / ".config" / "opencode"
        write_json(cfg / "opencode.json", {
            # An OpenAI-compatible provider (chat completions; @ai-sdk/openai-compatible is
            # bundled in opencode) on the model server, as the main and the small model.
            "provider": {"scripted": {
                "npm": "@ai-sdk/openai-compatible", "name": "Scripted",
                "options": {"baseURL": f"{self.url}/v1", "apiKey": "fake-key"},
                "models": {"scripted": {"name": "Scripted", "tool_call": True}},
            }},
            "model": "scripted/scripted",
            "small_model": "scripted/scripted",
            "autoupdate": False,
            "share": "disabled",
        })
        (cfg / "plugins").mkdir(parents=True, exist_ok=True)
        shutil.copy(PLUGINS / "opencode" / "hookhost.js", cfg / "plugins" / "hookhost.js")
        if self.home_flag:
            write_script(home.parent / "bin" / "hookhost",
                         f'exec {shlex.quote(str(self.hookhost))} "$@" --home {shlex.quote(str(home))}\n')

    def command(self, project):
        return [str(self.path), "run", "--format", "json", PROMPT]

    def env(self, home):
        path = os.environ.get("PATH", "/usr/bin:/bin")
        return {
            "PATH": f"{home.parent / 'bin'}{os.pathsep}{path}" if self.home_flag else path,
            # opencode installs @opencode-ai/plugin into each config directory in the
            # background (hookhost's plugin needs none of it): offline, npm fails at once.
            "npm_config_offline": "true",
            "OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1",
            "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1", "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
            "OPENCODE_DISABLE_SHARE": "1", "OPENCODE_DISABLE_CLAUDE_CODE": "1",
        }

    def hook_log(self, run):
        logs = sorted((run.home / ".local" / "share" / "opencode" / "log").glob("*.log"))
        return "".join(f.read_text(errors="replace") for f in logs) if logs else None

    def log_cut_short(self, logged):
        # opencode writes its log file behind the session and can exit before the rest is
        # written (seen on a 2-core machine: files ending anywhere from start-up to the
        # session's end, whatever hookhost answered). A whole one ends by disposing of the
        # instance.
        if 'message="disposing instance"' in logged:
            return None
        return (f"opencode exited before its log was written out ({len(logged.splitlines())} lines, "
                "no 'disposing instance'): there is nothing to read this time")

    def hook_failures(self, run):
        """The plugin's own errors: a call it blocked because hookhost could not answer (the
        tool's error in the json events), an after-tool or session event it could not hand
        on (`service=hookhost` at ERROR in opencode's log); no log at all is a failure too."""
        log = self.hook_log(run)
        if log is None:
            return [f"no opencode log in {run.home / '.local' / 'share' / 'opencode' / 'log'}"]
        bad = [ln for ln in log.splitlines() if "service=hookhost" in ln and "level=ERROR" in ln]
        return bad + [ln[:300] for ln in run.stdout.splitlines() if "hookhost could not decide" in ln]

    def shown(self, run):
        """What `opencode run --format json` shows: its events (a tool's error and output,
        the text), and stderr."""
        return run.stdout + run.stderr


class Droid(Agent):
    """Factory Droid's `droid exec` with a custom model (BYOK: no Factory login) on the model
    server; its hooks in `~/.factory/settings.json`."""

    name, exe = "droid", "droid"
    own_file = ".factory/settings.json"
    # `droid exec` prints neither a hook's systemMessage nor a stop reason (text, json and
    # stream-json alike); its session file records each hook run and its answer.
    shows_hook_messages = False
    hidden_messages_why = ("droid exec shows no hook systemMessage in any output format; its session file "
                           "records the answer that carries it (checked above)")
    shows_stop_reason = False
    hidden_stop_why = ("droid exec ends a session a hook stopped with an empty result and no reason; its "
                       "session file records the answer (checked above)")

    def hook_log(self, run):
        """Droid's session files (~/.factory/sessions/<project>/<id>.jsonl): each hook run
        with its command, status and stdout."""
        files = sorted((run.home / ".factory" / "sessions").glob("*/*.jsonl"))
        return "".join(f.read_text(errors="replace") for f in files) if files else None

    def hook_failures(self, run):
        """Hook runs whose `hookStatus` is not `completed` in the session file (no file at all
        is a failure too)."""
        log = self.hook_log(run)
        if log is None:
            return [f"no session file in {run.home / '.factory' / 'sessions'}"]
        bad = []
        for line in log.splitlines():
            try:
                m = json.loads(line).get("message") or {}
            except ValueError:
                continue
            if isinstance(m, dict) and "hookStatus" in m and m["hookStatus"] != "completed":
                bad.append(f"{m.get('hookEventName')}: {m['hookStatus']} {json.dumps(m.get('hookResults'))[:200]}")
        return bad
    lifecycle = ("SessionStart", "Stop")
    prompt_hooks = False
    no_prompt_why = "droid exec fires no UserPromptSubmit hook (SessionStart, the tool hooks, Stop, SessionEnd only)"

    def setup(self, home, project):
        events = {e: [{"hooks": [self.hook()]}] for e in ("SessionStart", "UserPromptSubmit", "Stop")}
        for e in ("PreToolUse", "PostToolUse"):
            events[e] = [{"matcher": "*", "hooks": [self.hook()]}]
        write_json(home / ".factory" / "settings.json", {
            # A custom model needs no Factory account; `custom:<displayName>-<index>` selects it.
            "customModels": [{"model": "scripted", "displayName": "Scripted", "baseUrl": f"{self.url}/v1",
                              "apiKey": "fake-key", "provider": "generic-chat-completion-api",
                              "maxOutputTokens": 4096}],
            "hooks": events,
        })

    def command(self, project):
        # --auto high: `rm -rf` in the project is the hook's to stop, not droid's read-only default.
        return [str(self.path), "exec", "--auto", "high", "--output-format", "stream-json",
                "--model", "custom:Scripted-0", PROMPT]

    def env(self, home):
        return {"FACTORY_DROID_AUTO_UPDATE_ENABLED": "false", "FACTORY_DISABLE_DYNAMIC_CONFIG": "1",
                "FACTORY_DISABLE_KEYRING": "1", "FACTORY_TELEMETRY_INGEST_BASE_URL": self.url}


AGENTS = {a.name: a for a in (Claude, Codex, Gemini, Qwen, Opencode, Droid)}


# ---------------------------------------------------------------- one scenario


def write_json(path: Path, value) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=1) + "\n")


def write_script(path: Path, body: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return shlex.quote(str(path))


class Run:
    """One agent run in a fresh HOME and project, bounded by AGENT_TIMEOUT_S."""

    def __init__(self, agent: Agent, server: Server, root: Path, turns: list[dict], native: dict,
                 project_hooks: dict | None = None):
        self.home, self.project = root / "home", root / "project"
        (self.project / "victim").mkdir(parents=True)
        (self.project / "victim" / "keep.txt").write_text("still here\n")
        (self.project / "canary.txt").write_text("canary\n")
        agent.home = self.home
        agent.setup(self.home, self.project)
        write_json(self.home / ".coding-agent" / "hooks.json", {"hooks": native})
        if project_hooks is not None:
            write_json(self.project / ".coding-agent" / "hooks.json", {"hooks": project_hooks})
        server.set_script(turns)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "USER": os.environ.get("USER", "root"),
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "NO_COLOR": "1",
            "TMPDIR": str(root / "tmp"),
        }
        (root / "tmp").mkdir()
        env.update(agent.env(self.home))
        start = time.monotonic()
        self.timed_out = False
        with open(root / "stdout", "wb") as out, open(root / "stderr", "wb") as err:
            p = subprocess.Popen(agent.command(self.project), cwd=self.project, env=env, stdin=subprocess.DEVNULL,
                                 stdout=out, stderr=err, start_new_session=True)
            try:
                self.rc = p.wait(timeout=AGENT_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.timed_out = True
                os.killpg(p.pid, signal.SIGKILL)
                self.rc = p.wait(timeout=10)
        # Leftover children (a background shell the agent started) go with the group.
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.seconds = time.monotonic() - start
        self.stdout = (root / "stdout").read_text(errors="replace")
        self.stderr = (root / "stderr").read_text(errors="replace")
        self.next_request = after_first_call(server)
        self.requests = len(server.main_requests())

    def summary(self) -> str:
        lines = [ln for ln in self.stderr.strip().splitlines() if not ln.strip().isdigit()]
        tail = (lines or [""])[-1][:300]
        return (f"exit {self.rc}{' (timed out)' if self.timed_out else ''} after {self.seconds:.0f}s, "
                f"{self.requests} model requests; last stderr line: {tail!r}")


def scenarios(agent: Agent, server: Server, work: Path, r: Results) -> None:
    a = agent.name
    log = work / f"{a}-pre.log"
    guard = write_script(work / "bin" / f"{a}-guard.sh",
                         f'payload=$(cat)\nprintf "%s\\n" "$payload" >> {shlex.quote(str(log))}\n'
                         f'case "$payload" in *"rm -rf"*) echo {shlex.quote(REASON)} >&2; exit 2;; esac\nexit 0\n')
    events_log = work / f"{a}-events.log"
    logger = write_script(work / "bin" / f"{a}-events.sh",
                          f"cat >> {shlex.quote(str(events_log))}\necho >> {shlex.quote(str(events_log))}\n")
    stopper = write_script(work / "bin" / f"{a}-stop.sh", "cat > /dev/null\n"
                           f"echo {shlex.quote(json.dumps({'continue': False, 'stopReason': STOP_REASON}))}\n")

    def run(name: str, turns, native, project_hooks=None) -> Run:
        root = Path(tempfile.mkdtemp(prefix=f"{a}-{name}-", dir=work))
        res = Run(agent, server, root, turns, native, project_hooks)
        print(f"     {a} {name}: {res.summary()} [{root.name}]", flush=True)
        failed = agent.hook_failures(res)  # a hook whose answer the agent cannot read is a failure it goes past
        if failed is not None:
            r.check(f"{a} {name}: the agent accepted every hookhost answer (no hook failure logged)", not failed,
                    "; ".join(failed)[:600])
        return res

    def kept(x: Run) -> bool:
        return (x.project / "victim" / "keep.txt").is_file()

    # 1. A native guard blocks `rm -rf` with exit 2 and a reason.
    x = run("guard", [{"shell": "rm -rf victim"}, {"text": "The hook blocked it."}],
            {"PreToolUse": [{"command": guard, "match": "bash"}]})
    r.check(f"{a} guard: the native guard saw the call through the adapter",
            log.is_file() and "rm -rf victim" in log.read_text(), x.summary())
    r.check(f"{a} guard: victim/ still exists after `rm -rf victim`", kept(x), x.summary())
    seen = x.next_request is not None and REASON in tool_results(x.next_request)
    r.check(f"{a} guard: the model's next request has the block reason as the tool result", seen,
            "no next request" if x.next_request is None else tool_results(x.next_request)[:300])

    # 2. `{"continue": false}` on PreToolUse must deny the call too. `rm -r`, not `rm -rf`:
    # Codex's own exec policy rejects `rm -f` style commands, which would hide the hook's part.
    x = run("stop", [{"shell": "rm -r victim"}, {"text": "Should not get here."}],
            {"PreToolUse": [{"command": stopper}]})
    r.check(f"{a} stop: victim/ still exists after continue:false", kept(x), x.summary())
    if agent.shows_stop_reason:
        r.check(f"{a} stop: the stop reason is shown to the user", STOP_REASON in agent.shown(x), x.summary())
    else:
        logged = agent.hook_log(x)
        if logged is not None and (short := agent.log_cut_short(logged)):
            r.unsupported_check(f"{a} stop: reading its log", short)
        elif logged is not None:
            r.check(f"{a} stop: the agent read the stop reason (its own log has it)", STOP_REASON in logged,
                    x.summary())
        r.unsupported_check(f"{a} stop: showing the stop reason", agent.hidden_stop_why)
    if agent.stops_on_pretooluse:
        r.check(f"{a} stop: the session ended (no model request after the stopped call)", x.next_request is None,
                x.summary())
    else:
        r.unsupported_check(f"{a} stop: ending the session from PreToolUse", agent.no_stop_why)

    # 3. An untrusted project shell hook runs in the kernel sandbox (it cannot write the
    #    project) or not at all, and the user is told.
    marker = "untrusted-hook-ran"
    x = run("untrusted", [{"shell": "ls"}, {"text": "Listed."}], {},
            {"PreToolUse": [{"command": f"touch {marker}"}]})
    r.check(f"{a} untrusted: the project's shell hook did not write the project", not (x.project / marker).exists(), x.summary())
    r.check(f"{a} untrusted: the call itself still ran",
            x.next_request is not None and "canary.txt" in tool_results(x.next_request), x.summary())
    if agent.shows_hook_messages:
        r.check(f"{a} untrusted: the user is shown hookhost's systemMessage", NOTICE in agent.shown(x), x.summary())
    else:
        logged = agent.hook_log(x)
        if logged is not None and (short := agent.log_cut_short(logged)):
            r.unsupported_check(f"{a} untrusted: reading its log", short)
        elif logged is not None:
            r.check(f"{a} untrusted: the agent read hookhost's systemMessage (its own log has it)",
                    NOTICE in logged, x.summary())
        r.unsupported_check(f"{a} untrusted: showing hookhost's systemMessage", agent.hidden_messages_why)

    # 4. A harmless call passes the guard and runs; the prompt and stop events reach the native hooks.
    log.unlink(missing_ok=True)
    x = run("harmless", [{"shell": "ls"}, {"text": "Listed."}],
            {"PreToolUse": [{"command": guard, "match": "bash"}], **{e: [{"command": logger}] for e in agent.lifecycle}})
    r.check(f"{a} harmless: the guard saw `ls`", log.is_file() and '"ls"' in log.read_text(), x.summary())
    seen = x.next_request is not None and "canary.txt" in tool_results(x.next_request)
    r.check(f"{a} harmless: `ls` ran (its output is the tool result)", seen,
            "no next request" if x.next_request is None else tool_results(x.next_request)[:300])
    ev = events_log.read_text() if events_log.is_file() else ""
    r.check(f"{a} harmless: {' and '.join(agent.lifecycle)} reached the native hooks",
            all(f'"{e}"' in ev for e in agent.lifecycle), ev[:300] or "no event logged")

    # 5. The agent cannot rewrite its own guards: its shell write of the user's hooks.json is
    # denied by hookhost's protected-state guard (the user's guard would have let it through),
    # and the file still holds the guard.
    x = run("protected", [{"shell": "echo '{}' > ~/.coding-agent/hooks.json"}, {"text": "Denied."}],
            {"PreToolUse": [{"command": guard, "match": "bash"}]})
    hooks = x.home / ".coding-agent" / "hooks.json"
    r.check(f"{a} protected: the user's hooks.json still holds the guard after the agent's write",
            hooks.is_file() and guard in hooks.read_text(), x.summary())
    seen = x.next_request is not None and "protected" in tool_results(x.next_request)
    r.check(f"{a} protected: the model's next request has hookhost's protected-state reason", seen,
            "no next request" if x.next_request is None else tool_results(x.next_request)[:300])


CTX = "hookhost-context-7f3a: the project uses tabs"
FORCE = "hookhost-force-51c2: also say GOODBYE"
FEEDBACK = "hookhost-feedback-9d0e: that listing was checked"
REWRITTEN = "hookhost-rewritten-c4b8"


def body_has(x: Run, text: str, server_requests: list[dict]) -> bool:
    """Whether any main request the model got in this run carries `text` anywhere."""
    return any(text in json.dumps(r["body"]) for r in server_requests)


def answers(agent: Agent, server: Server, work: Path, r: Results) -> None:
    """What a native hook's answer does to the real agent: context injection, a forced stop,
    PostToolUse feedback, a rewritten call."""
    a = agent.name

    def run(name: str, turns, native) -> tuple[Run, list[dict]]:
        root = Path(tempfile.mkdtemp(prefix=f"{a}-{name}-", dir=work))
        res = Run(agent, server, root, turns, native)
        print(f"     {a} {name}: {res.summary()} [{root.name}]", flush=True)
        return res, server.main_requests()

    # 5. Context: a UserPromptSubmit hook's additionalContext reaches the model.
    ctx = write_script(work / "bin" / f"{a}-ctx.sh",
                       f"cat > /dev/null\necho {shlex.quote(json.dumps({'additionalContext': CTX}))}\n")
    if agent.prompt_hooks:
        x, reqs = run("context", [{"text": "Noted."}], {"UserPromptSubmit": [{"command": ctx}]})
        r.check(f"{a} context: UserPromptSubmit additionalContext reaches the model", body_has(x, CTX, reqs),
                x.summary())
    else:
        r.unsupported_check(f"{a} context: UserPromptSubmit additionalContext", agent.no_prompt_why)

    # 6. Stop force: exit 2 with a message once keeps the agent going, with the message.
    marker = work / f"{a}-forced"
    force = write_script(work / "bin" / f"{a}-force.sh",
                         f"cat > /dev/null\nif [ -e {shlex.quote(str(marker))} ]; then exit 0; fi\n"
                         f"touch {shlex.quote(str(marker))}\necho {shlex.quote(FORCE)}\nexit 2\n")
    x, reqs = run("force", [{"text": "First answer."}], {"Stop": [{"command": force}]})
    r.check(f"{a} force: the Stop hook ran", marker.exists(), x.summary())
    if agent.forces_stop:
        r.check(f"{a} force: the agent went on with the hook's message", body_has(x, FORCE, reqs), x.summary())
    else:
        r.unsupported_check(f"{a} force: going on with the Stop hook's message", agent.no_force_why)

    # 7. PostToolUse feedback: exit 2 on PostToolUse shows stderr to the model.
    fb = write_script(work / "bin" / f"{a}-feedback.sh", f"cat > /dev/null\necho {shlex.quote(FEEDBACK)} >&2\nexit 2\n")
    x, reqs = run("feedback", [{"shell": "ls"}, {"text": "Listed."}], {"PostToolUse": [{"command": fb, "match": "bash"}]})
    reached = body_has(x, FEEDBACK, reqs)
    if reached or "feedback" not in agent.gaps:
        r.check(f"{a} feedback: the PostToolUse feedback reaches the model", reached, x.summary())
    else:
        r.unsupported_check(f"{a} feedback: the PostToolUse feedback reaches the model", agent.gaps["feedback"])

    # 8. Rewrite: updatedInput replaces the command the agent runs.
    rw = write_script(work / "bin" / f"{a}-rewrite.sh",
                      'case "$(cat)" in *"echo original"*) echo '
                      + shlex.quote(json.dumps({"updatedInput": {"command": f"echo {REWRITTEN}"}}))
                      + ";; esac\nexit 0\n")
    x, reqs = run("rewrite", [{"shell": "echo original"}, {"text": "Echoed."}],
                  {"PreToolUse": [{"command": rw, "match": "bash"}]})
    ran = x.next_request is not None and REWRITTEN in tool_results(x.next_request)
    if agent.rewrites:
        r.check(f"{a} rewrite: the agent ran the rewritten command", ran,
                "no next request" if x.next_request is None else tool_results(x.next_request)[:300])
    else:
        said = x.next_request is not None and "cannot apply" in tool_results(x.next_request)
        if said or "rewrite" not in agent.gaps:
            r.check(f"{a} rewrite: the call is denied, saying the agent cannot apply the rewrite", said,
                    "no next request" if x.next_request is None else tool_results(x.next_request)[:300])
            r.unsupported_check(f"{a} rewrite: running a rewritten command", agent.no_rewrite_why)
        else:
            r.unsupported_check(f"{a} rewrite: running a rewritten command",
                                f"{agent.no_rewrite_why}; {agent.gaps['rewrite']}")


REPLACED = "hookhost-replaced-9d1e: say hello and nothing else"
REPLACED_CTX = "hookhost-replaced-context-2b7f"


def resume(agent: Agent, x: Run, prompt: str) -> int:
    """Gemini CLI resuming the last session of run `x` (same HOME and project) with `prompt`:
    its exit code."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(x.home),
           "USER": os.environ.get("USER", "root"), "LANG": "C.UTF-8", "TERM": "dumb", "NO_COLOR": "1",
           "TMPDIR": str(x.home.parent / "tmp")}
    env.update(agent.env(x.home))
    cmd = [str(agent.path), "--resume", "latest", "-p", prompt, "--yolo", "--output-format", "stream-json"]
    try:
        return subprocess.run(cmd, cwd=x.project, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=AGENT_TIMEOUT_S).returncode
    except subprocess.TimeoutExpired:
        return -1


def replaced_prompt(agent: Agent, server: Server, work: Path, r: Results) -> None:
    """A UserPromptSubmit hook's `updatedPrompt`: Gemini CLI's model gets the replacement, never
    the original, when the user's settings wire the adapter on BeforeModel; otherwise (and in
    the agents whose prompt hooks cannot replace a prompt) the original is blocked and the
    user is shown the replacement."""
    a = agent.name
    if not agent.prompt_hooks:
        r.unsupported_check(f"{a} replaced: a UserPromptSubmit hook's updatedPrompt", agent.no_prompt_why)
        return
    # With context too: Gemini CLI puts it after the prompt in the same message. Only the
    # test's prompt is replaced (a later prompt of a resumed session is not).
    answer = {"updatedPrompt": REPLACED, "additionalContext": REPLACED_CTX}
    hook = write_script(work / "bin" / f"{a}-replace.sh",
                        f'case "$(cat)" in *"Run the command"*) echo {shlex.quote(json.dumps(answer))};; esac\n')
    native = {"UserPromptSubmit": [{"command": hook}]}

    def run(name: str, turns=({"text": "Hello."},)) -> tuple[Run, list[dict]]:
        root = Path(tempfile.mkdtemp(prefix=f"{a}-{name}-", dir=work))
        res = Run(agent, server, root, list(turns), native)
        print(f"     {a} {name}: {res.summary()} [{root.name}]", flush=True)
        with server.lock:
            return res, list(server.requests)

    if a == "gemini":
        agent.before_model = True
        try:
            # A pinned model: no routing request, so nothing but the main requests, which
            # BeforeModel rewrites (a tool call in between: the history is rewritten again).
            agent.model_name = "gemini-3.8-flash"
            x, reqs = run("replaced", [{"shell": "ls"}, {"text": "Hello."}])
            # The session resumed: its history (with the original) goes out again, rewritten.
            server.set_script([{"text": "Again."}])
            resumed = resume(agent, x, "and now?")
            with server.lock:
                again = [q for q in server.requests if q["kind"] == "main"]
            agent.model_name = None
            y, auto = run("replaced-auto", [{"text": "Hello."}])
        finally:
            agent.before_model, agent.model_name = False, None
        r.check(f"{a} replaced, resumed (--resume latest): the history carries the replacement, not the original",
                resumed == 0 and bool(again) and all(REPLACED in json.dumps(q["body"])
                                                     and PROMPT not in json.dumps(q["body"]) for q in again),
                f"exit {resumed}, {len(again)} model requests")
        main = [q for q in reqs if q["kind"] == "main"]
        r.check(f"{a} replaced: every model request carries the replacement and the hook's context",
                len(main) >= 2 and all(REPLACED in json.dumps(q["body"]) and REPLACED_CTX in json.dumps(q["body"])
                                       for q in main), x.summary())
        r.check(f"{a} replaced: no request to the model carries the original prompt",
                bool(reqs) and not any(PROMPT in json.dumps(q["body"]) for q in reqs), x.summary())
        # Gemini CLI's "auto" model first asks a small model to route the prompt, in a request
        # no hook sees: the adapter then blocks the original, as where BeforeModel is not wired.
        r.check(f"{a} replaced (model auto): the original never reaches the model",
                not any(PROMPT in json.dumps(q["body"]) for q in auto), y.summary())
        r.check(f"{a} replaced (model auto): the user is told to pin a model",
                "pin a model" in agent.shown(y) and REPLACED in agent.shown(y), y.summary())
    x, reqs = run("replaced-unwired")
    why = "BeforeModel not wired" if a == "gemini" else "no prompt hook of this agent can replace one"
    r.check(f"{a} replaced ({why}): the original never reaches the model",
            not any(PROMPT in json.dumps(q["body"]) for q in reqs), x.summary())
    if agent.shows_hook_messages:
        r.check(f"{a} replaced ({why}): the user is shown the replacement",
                REPLACED in agent.shown(x), x.summary())
    elif a == "qwen":
        r.unsupported_check(f"{a} replaced: showing the user the replacement",
                            "qwen -p ends a run whose prompt a hook blocked with an empty result and no reason")


def own_files(agent: Agent, hookhost: Path, work: Path, r: Results) -> None:
    """Hooks in the agent's own settings file, seen through hookhost's list/check/run."""
    a = agent.name
    if agent.own_file is None:
        r.unsupported_check(f"{a} own files", "hookhost reads no file of this agent (it has no hook file)")
        return
    root = Path(tempfile.mkdtemp(prefix=f"{a}-ownfiles-", dir=work))
    home, project = root / "home", root / "project"
    project.mkdir(parents=True)
    guard = write_script(root / "guard.sh", f'case "$(cat)" in *"rm -rf"*) echo {shlex.quote(REASON)} >&2; exit 2;; esac\n')
    matcher = {"gemini": "run_shell_command", "qwen": "run_shell_command", "droid": "Execute"}.get(a, "Bash")
    entry = {"matcher": matcher, "hooks": [{"type": "command", "command": guard, "timeout": agent.hook_timeout}]}
    event = "BeforeTool" if a == "gemini" else "PreToolUse"
    write_json(home / agent.own_file, {"hooks": {event: [entry]}})
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LANG": "C.UTF-8"}

    def hh(*args: str) -> subprocess.CompletedProcess:
        # hookhost never takes the home from $HOME (a project's settings can set it): the
        # scenario's home is named the way a user names one, with --home.
        return subprocess.run([str(hookhost), "--home", str(home), *args], cwd=project, env=env, capture_output=True, text=True,
                              timeout=60, stdin=subprocess.DEVNULL)

    listed = hh("list")
    r.check(f"{a} own files: `hookhost list` shows the agent's hook", "guard.sh" in listed.stdout,
            listed.stdout[-300:] + listed.stderr[-300:])
    checked = hh("check")
    r.check(f"{a} own files: `hookhost check` passes", checked.returncode == 0, checked.stdout[-300:] + checked.stderr[-300:])
    blocked = hh("run", "PreToolUse", "--tool", "bash", "--args", json.dumps({"command": "rm -rf /"}))
    r.check(f"{a} own files: `hookhost run` blocks with the agent's hook", blocked.returncode == 2 and REASON in
            blocked.stdout + blocked.stderr, f"exit {blocked.returncode}: {blocked.stdout[-200:]} {blocked.stderr[-200:]}")
    passed = hh("run", "PreToolUse", "--tool", "bash", "--args", json.dumps({"command": "ls"}))
    r.check(f"{a} own files: `hookhost run` passes a harmless call", passed.returncode == 0,
            f"exit {passed.returncode}: {passed.stderr[-300:]}")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hookhost", required=True, help="absolute path of the hookhost binary")
    p.add_argument("--bin", required=True, help="directory with the agents' executables")
    p.add_argument("--agents", default=",".join(AGENTS))
    p.add_argument("--keep", action="store_true", help="keep the scenario directories")
    p.add_argument("--only", help="run only these groups (scenarios,answers,replaced,own_files)")
    a = p.parse_args(argv)
    start = time.monotonic()
    r = Results()
    hookhost = Path(a.hookhost).resolve()
    helptext = subprocess.run([str(hookhost), "hook", "--help"], capture_output=True, text=True, timeout=30).stdout
    # Every run of every agent at its timeout, and then some: the server stops by itself.
    server = Server(deadline_s=AGENT_TIMEOUT_S * 8 * len(AGENTS) + 120).start()
    work = Path(tempfile.mkdtemp(prefix="hookhost-agents-"))
    try:
        for name in a.agents.split(","):
            cls = AGENTS[name]
            agent = cls(Path(a.bin), hookhost, "--home" in helptext, server.url)
            if not agent.path.exists():
                r.check(f"{name}: installed", False, f"{agent.path} is missing")
                continue
            groups = {
                "scenarios": lambda: scenarios(agent, server, work, r),
                "answers": lambda: answers(agent, server, work, r),
                "replaced": lambda: replaced_prompt(agent, server, work, r),
                "own_files": lambda: own_files(agent, hookhost, work, r),
            }
            only = a.only.split(",") if a.only else list(groups)
            try:
                for g in only:
                    groups[g]()
            except Exception as e:  # an agent that cannot be run at all fails loudly, the others go on
                r.check(f"{name}: its scenarios ran", False, f"{type(e).__name__}: {e}")
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
