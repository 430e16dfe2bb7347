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


NOBODY = 65534


def _foreign_server(sock_path):
    """A process of another user (nobody) listening at `sock_path`; returns its pid. The
    test must be root to be someone else."""
    import os
    import socket

    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind(sock_path)
            s.listen(4)
            os.write(w, b"1")
            while True:
                c, _ = s.accept()
                # What a fake server would do: read what the client sends, answer anything.
                c.settimeout(5)
                try:
                    got = c.recv(65536)
                    if got:
                        with open(sock_path + ".got", "ab") as f:
                            f.write(got)
                    c.sendall(b'{"jsonrpc":"2.0","id":1,"result":{"decision":"pass","hooks":[]}}\n')
                except OSError:
                    pass
        finally:
            os._exit(0)
    os.close(w)
    assert os.read(r, 1) == b"1", "the foreign server did not start"
    os.close(r)
    return pid


@pytest.mark.skipif(__import__("os").geteuid() != 0, reason="needs root to run a server as another user")
def test_x3_client_refuses_a_server_of_another_user():
    import os
    import signal
    import tempfile

    # A shared directory (like /tmp itself) where the other user bound the path first.
    shared = tempfile.mkdtemp(prefix="x3-", dir="/tmp")
    os.chmod(shared, 0o1777)
    sock = os.path.join(shared, "hookhost.sock")
    pid = _foreign_server(sock)
    try:
        with pytest.raises(ServeError) as e:
            c = Client(sock)
            c.pre_tool_use("bash", {"command": "cat ~/.ssh/id_rsa"})
        assert "another user" in str(e.value), e.value
        # Nothing was sent to it.
        assert not os.path.exists(sock + ".got")
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        __import__("shutil").rmtree(shared, ignore_errors=True)


def test_x3_client_checks_the_peer_of_a_real_server(project, tmp_path, monkeypatch):
    """The same check against a real server: accepted as ourselves, refused when our uid is
    not the server's (simulated: the client is told it runs as someone else)."""
    import hookhost.client as client_mod

    sock = str(tmp_path / "h.sock")
    server = subprocess.Popen([binary(), "serve", "--project", str(project.path), "--socket", sock],
                              env=project.env())
    try:
        for _ in range(500):
            try:
                a = Client(sock)
                break
            except (OSError, ServeError):
                time.sleep(0.01)
        assert a.stop().decision == "pass"
        monkeypatch.setattr(client_mod.os, "getuid", lambda: 12345)
        with pytest.raises(ServeError, match="another user"):
            Client(sock)
        monkeypatch.undo()
        a.shutdown()
        assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            server.kill()
