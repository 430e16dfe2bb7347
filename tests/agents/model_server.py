"""A scripted model server for the real-agents tier: 127.0.0.1 only, stdlib only.

It speaks just enough of four model APIs for an agent's main loop:
- Anthropic Messages (`POST /v1/messages`, SSE when `"stream": true`) for Claude Code;
- OpenAI Responses (`POST .../responses`, SSE) for Codex;
- Gemini (`POST .../models/M:generateContent` and `:streamGenerateContent?alt=sse`) for Gemini CLI;
- OpenAI Chat Completions (`POST .../chat/completions`, SSE when `"stream": true`) for Qwen Code,
  opencode and Factory Droid.

A script is a list of turns, each `{"shell": "COMMAND"}` (call the agent's shell tool),
`{"text": "..."}` (a final answer), or, for Anthropic only, `{"tool": NAME or [NAMES], "input": {...}}`
(the first of these tools the request offers; else a text answer, so a subagent that is not offered
the tool ends) and `{"error": STATUS}` (an API error). Which turn a request gets is the number of tool results
already in its conversation, so a retried request or a side request never shifts the script;
past the end the answer is the text "done". Requests that offer no shell tool (titles,
classifiers, summaries) get a short text answer (JSON when the request asks for JSON) and are
recorded as side requests. Every request is recorded (`Server.requests`).

The server stops by itself at its deadline (`deadline_s`), whatever the harness does.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# The shell tool each API's agent offers, by preference.
SHELL_TOOLS = ("Bash", "run_shell_command", "shell_command", "exec_command", "shell", "bash", "Execute")
# bash: opencode; Execute: Factory Droid
FINAL = {"text": "done"}


def _tool_names_anthropic(body: dict) -> list[str]:
    return [t.get("name", "") for t in body.get("tools") or [] if isinstance(t, dict)]


def _tool_names_responses(body: dict) -> list[str]:
    names = []
    for t in body.get("tools") or []:
        if isinstance(t, dict):
            names.append(t.get("name") or (t.get("function") or {}).get("name", ""))
    return names


def _tool_names_gemini(body: dict) -> list[str]:
    names = []
    for t in body.get("tools") or []:
        for f in (t or {}).get("functionDeclarations") or []:
            names.append(f.get("name", ""))
    return names


def _tool_names_chat(body: dict) -> list[str]:
    return [(t.get("function") or {}).get("name", "") for t in body.get("tools") or [] if isinstance(t, dict)]


def _count_results_anthropic(body: dict) -> int:
    n = 0
    for m in body.get("messages") or []:
        if isinstance(m.get("content"), list):
            n += sum(1 for c in m["content"] if isinstance(c, dict) and c.get("type") == "tool_result")
    return n


def _count_results_responses(body: dict) -> int:
    items = body.get("input") or []
    if not isinstance(items, list):
        return 0
    return sum(
        1
        for i in items
        if isinstance(i, dict) and i.get("type") in ("function_call_output", "custom_tool_call_output")
    )


def _count_results_gemini(body: dict) -> int:
    n = 0
    for c in body.get("contents") or []:
        n += sum(1 for p in (c or {}).get("parts") or [] if isinstance(p, dict) and "functionResponse" in p)
    return n


def _count_results_chat(body: dict) -> int:
    return sum(1 for m in body.get("messages") or [] if isinstance(m, dict) and m.get("role") == "tool")


def _pick_shell(names: list[str]) -> str | None:
    for t in SHELL_TOOLS:
        if t in names:
            return t
    return None


def _shell_args(tool: str, command: str) -> dict:
    if tool == "shell":  # Codex's older array form
        return {"command": ["bash", "-lc", command]}
    if tool == "exec_command":
        return {"cmd": command}
    if tool == "run_shell_command":
        return {"command": command, "description": "scripted call"}
    if tool == "Execute":  # Factory Droid: all four are required
        return {"command": command, "summary": "Run the scripted command", "riskLevel": "low",
                "riskLevelReason": "A scripted test command in a throwaway directory."}
    return {"command": command, "description": "scripted call"}  # Bash, shell_command


class Server:
    """The model server: `start()` it, `set_script()` per scenario, read `requests`."""

    def __init__(self, deadline_s: float = 900.0):
        self.lock = threading.Lock()
        self.script: list[dict] = []
        self.requests: list[dict] = []
        self.deadline = time.monotonic() + deadline_s
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.ids = 0

    def start(self) -> "Server":
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
        threading.Thread(target=self._watchdog, daemon=True).start()
        return self

    def _watchdog(self) -> None:
        while time.monotonic() < self.deadline:
            time.sleep(1)
        self.stop()

    def stop(self) -> None:
        threading.Thread(target=self.httpd.shutdown, daemon=True).start()

    def set_script(self, turns: list[dict]) -> None:
        with self.lock:
            self.script = list(turns)
            self.requests = []

    def main_requests(self) -> list[dict]:
        with self.lock:
            return [r for r in self.requests if r["kind"] == "main"]

    def next_id(self, prefix: str) -> str:
        with self.lock:
            self.ids += 1
            return f"{prefix}_{self.ids:04d}"

    def _turn(self, index: int) -> dict:
        with self.lock:
            return self.script[index] if index < len(self.script) else FINAL

    def _record(self, path: str, body, kind: str, turn: int | None) -> None:
        with self.lock:
            self.requests.append({"path": path, "body": body, "kind": kind, "turn": turn, "t": time.time()})

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def _send(self, status: int, payload, content_type="application/json"):
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _sse(self, events: list[tuple[str | None, dict]]):
                chunks = []
                for name, data in events:
                    head = f"event: {name}\n" if name else ""
                    chunks.append(f"{head}data: {json.dumps(data)}\n\n")
                self._send(200, "".join(chunks).encode(), "text/event-stream")

            def do_GET(self):
                server._record(self.path, None, "get", None)
                if re.search(r"/models/?(\?|$)", self.path):
                    return self._send(200, {"data": [], "models": [], "object": "list"})
                self._send(404, {"error": {"message": "not scripted", "type": "not_found"}})

            def do_HEAD(self):
                self._send(200, b"")

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(min(length, 64 * 1024 * 1024)) if length else b""
                if self.headers.get("Content-Encoding") == "zstd" or not raw:
                    body = {}
                else:
                    try:
                        body = json.loads(raw)
                    except ValueError:
                        body = {"_raw": raw[:2000].decode("utf-8", "replace")}
                path = self.path.split("?")[0]
                if path.endswith("/messages/count_tokens"):
                    server._record(self.path, body, "side", None)
                    return self._send(200, {"input_tokens": 10})
                if path.endswith("/messages"):
                    return self.api_anthropic(body)
                if path.endswith("/responses"):
                    return self.api_responses(body)
                if path.endswith("/chat/completions"):
                    return self.api_chat(body)
                if ":countTokens" in path:
                    server._record(self.path, body, "side", None)
                    return self._send(200, {"totalTokens": 10})
                if ":generateContent" in path or ":streamGenerateContent" in path:
                    return self.api_gemini(body, stream=":streamGenerateContent" in path)
                server._record(self.path, body, "other", None)
                self._send(404, {"error": {"message": f"not scripted: {path}", "type": "not_found"}})

            # ---- Anthropic Messages ----
            def api_anthropic(self, body: dict):
                shell = _pick_shell(_tool_names_anthropic(body))
                turn_no = _count_results_anthropic(body)
                if shell is None:
                    server._record(self.path, body, "side", None)
                    turn = {"text": "scripted"}
                else:
                    server._record(self.path, body, "main", turn_no)
                    turn = server._turn(turn_no)
                model = body.get("model", "claude-scripted")
                msg_id = server.next_id("msg")
                if "error" in turn:  # an API error the agent does not retry (StopFailure)
                    return self._send(int(turn["error"]), {"type": "error", "error": {
                        "type": "invalid_request_error", "message": "scripted API error"}})
                offered = _tool_names_anthropic(body)
                names = [turn["tool"]] if isinstance(turn.get("tool"), str) else turn.get("tool") or []
                tool = next((n for n in names if n in offered), None)
                if tool:  # any other tool (a subagent's Task)
                    block = {"type": "tool_use", "id": server.next_id("toolu"), "name": tool, "input": {}}
                    delta = {"type": "input_json_delta", "partial_json": json.dumps(turn.get("input", {}))}
                    full = dict(block, input=turn.get("input", {}))
                    stop = "tool_use"
                elif "shell" in turn and shell:
                    block = {"type": "tool_use", "id": server.next_id("toolu"), "name": shell, "input": {}}
                    delta = {"type": "input_json_delta", "partial_json": json.dumps(_shell_args(shell, turn["shell"]))}
                    full = dict(block, input=_shell_args(shell, turn["shell"]))
                    stop = "tool_use"
                else:
                    block = {"type": "text", "text": ""}
                    delta = {"type": "text_delta", "text": turn.get("text", "done")}
                    full = {"type": "text", "text": turn.get("text", "done")}
                    stop = "end_turn"
                usage = {"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}
                message = {
                    "id": msg_id, "type": "message", "role": "assistant", "model": model,
                    "content": [], "stop_reason": None, "stop_sequence": None, "usage": usage,
                }
                if not body.get("stream"):
                    return self._send(200, dict(message, content=[full], stop_reason=stop))
                self._sse([
                    ("message_start", {"type": "message_start", "message": message}),
                    ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
                    ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
                    ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                    ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                       "usage": {"output_tokens": 5}}),
                    ("message_stop", {"type": "message_stop"}),
                ])

            # ---- OpenAI Responses ----
            def api_responses(self, body: dict):
                shell = _pick_shell(_tool_names_responses(body))
                turn_no = _count_results_responses(body)
                if shell is None:
                    server._record(self.path, body, "side", None)
                    turn = {"text": "scripted"}
                else:
                    server._record(self.path, body, "main", turn_no)
                    turn = server._turn(turn_no)
                resp_id = server.next_id("resp")
                if "shell" in turn and shell:
                    item = {"type": "function_call", "id": server.next_id("fc"), "call_id": server.next_id("call"),
                            "name": shell, "arguments": json.dumps(_shell_args(shell, turn["shell"])), "status": "completed"}
                else:
                    item = {"type": "message", "id": server.next_id("msg"), "role": "assistant", "status": "completed",
                            "content": [{"type": "output_text", "text": turn.get("text", "done"), "annotations": []}]}
                usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
                         "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}
                response = {"id": resp_id, "object": "response", "status": "in_progress", "model": body.get("model", "scripted"),
                            "output": []}
                self._sse([
                    ("response.created", {"type": "response.created", "response": response}),
                    ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": item}),
                    ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
                    ("response.completed", {"type": "response.completed",
                                            "response": dict(response, status="completed", output=[item], usage=usage)}),
                ])

            # ---- OpenAI Chat Completions ----
            def api_chat(self, body: dict):
                shell = _pick_shell(_tool_names_chat(body))
                turn_no = _count_results_chat(body)
                if shell is None:
                    server._record(self.path, body, "side", None)
                    fmt = body.get("response_format") or {}
                    wants_json = "json" in str(fmt.get("type", "")).lower()
                    turn = {"text": json.dumps({"reasoning": "scripted"}) if wants_json else "scripted"}
                else:
                    server._record(self.path, body, "main", turn_no)
                    turn = server._turn(turn_no)
                chat_id, model = server.next_id("chatcmpl"), body.get("model", "scripted")
                if "shell" in turn and shell:
                    call = {"id": server.next_id("call"), "type": "function",
                            "function": {"name": shell, "arguments": json.dumps(_shell_args(shell, turn["shell"]))}}
                    message = {"role": "assistant", "content": None, "tool_calls": [call]}
                    delta = {"role": "assistant", "content": None, "tool_calls": [dict(call, index=0)]}
                    finish = "tool_calls"
                else:
                    message = delta = {"role": "assistant", "content": turn.get("text", "done")}
                    finish = "stop"
                usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
                head = {"id": chat_id, "created": int(time.time()), "model": model}
                if not body.get("stream"):
                    return self._send(200, dict(head, object="chat.completion", usage=usage, choices=[
                        {"index": 0, "message": message, "finish_reason": finish}]))
                chunk = dict(head, object="chat.completion.chunk")
                events = [
                    (None, dict(chunk, choices=[{"index": 0, "delta": delta, "finish_reason": None}])),
                    (None, dict(chunk, choices=[{"index": 0, "delta": {}, "finish_reason": finish}])),
                    (None, dict(chunk, choices=[], usage=usage)),
                ]
                data = "".join(f"data: {json.dumps(e)}\n\n" for _, e in events) + "data: [DONE]\n\n"
                self._send(200, data.encode(), "text/event-stream")

            # ---- Gemini ----
            def api_gemini(self, body: dict, stream: bool):
                shell = _pick_shell(_tool_names_gemini(body))
                turn_no = _count_results_gemini(body)
                gen = body.get("generationConfig") or body.get("config") or {}
                if shell is None:
                    server._record(self.path, body, "side", None)
                    wants_json = "json" in str(gen.get("responseMimeType", "")).lower()
                    text = json.dumps({"reasoning": "scripted", "next_speaker": "user", "model_choice": "flash",
                                       "complexity_reasoning": "scripted", "complexity_score": 1}) if wants_json else "scripted"
                    turn = {"text": text}
                else:
                    server._record(self.path, body, "main", turn_no)
                    turn = server._turn(turn_no)
                if "shell" in turn and shell:
                    part = {"functionCall": {"name": shell, "args": _shell_args(shell, turn["shell"])}}
                else:
                    part = {"text": turn.get("text", "done")}
                chunk = {
                    "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
                    "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
                    "modelVersion": "gemini-scripted",
                }
                if stream:
                    return self._sse([(None, chunk)])
                self._send(200, chunk)

        return Handler


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description="Run the scripted model server standalone (for debugging).")
    p.add_argument("--script", help="JSON file: a list of turns")
    p.add_argument("--deadline", type=float, default=300.0, help="seconds until it stops by itself")
    a = p.parse_args(argv)
    s = Server(a.deadline)
    if a.script:
        with open(a.script) as f:
            s.set_script(json.load(f))
    s.start()
    print(s.url, flush=True)
    try:
        while time.monotonic() < s.deadline:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    for r in s.requests:
        print(json.dumps({k: r[k] for k in ("path", "kind", "turn")}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
