"""The serve Client: over stdio (it starts the server) and over a shared Unix socket."""

import subprocess
import time

import pytest

from hookhost import Client, ServeError, block
from hookhost._cli import binary


def test_client_over_stdio_with_python_hooks(project):
    project.hooks({"PreToolUse": [{"command": ".coding-agent/g.wasm", "match": "bash"}]})
    project.guest("bash-guard", ".coding-agent/g.wasm")
    c = Client(project=str(project.path), home=str(project.home), env=project.env())
    assert c.pre_tool_use("bash", {"command": "rm -rf /"}).blocked
    c.register("PreToolUse", "write_file", lambda p: block("no") if p["toolArgs"]["path"] == ".env" else None)
    assert c.pre_tool_use("write_file", {"path": ".env"}).reason == "no"
    assert c.pre_tool_use("write_file", {"path": "ok"}).decision == "pass"
    with pytest.raises(ServeError) as e:
        c.fire_sync("Nope")
    assert e.value.code == -32602
    assert c.stop().decision == "pass"  # the connection stayed up
    c.shutdown()


def test_clients_share_a_socket_server(project, tmp_path):
    project.hooks({"PreToolUse": [{"command": "grep -q sudo && exit 2; exit 0"}]})
    sock = str(tmp_path / "h.sock")
    server = subprocess.Popen([binary(), "serve", "--project", str(project.path), "--socket", sock,
                               "--home", str(project.home)],
                              env=project.env())
    try:
        for _ in range(500):
            try:
                a = Client(sock)
                break
            except OSError:
                time.sleep(0.01)
        b = Client(sock)
        assert a.pre_tool_use("bash", {"command": "sudo x"}).blocked
        assert b.pre_tool_use("bash", {"command": "ls"}).decision == "pass"
        b.close()
        a.shutdown()
        assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            server.kill()
