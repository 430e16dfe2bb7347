"""``Client``: the same API as ``Runner``, through a ``hookhost serve`` process (over its
stdio, started by the client, or a shared Unix socket). Python hooks registered here are
called back over the connection. One request at a time per client (use one client per
thread); see docs/serve-protocol.md for the protocol."""

from __future__ import annotations

import json
import os
import socket
import stat
import struct
import subprocess
import sys
from typing import Any, Callable, Dict, List, Optional

from ._types import Report, answer_json
from ._cli import binary


class ServeError(Exception):
    """The server answered an error: ``code`` and ``message`` as in the protocol."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(f"{message} (code {code})")
        self.code = code
        self.message = message


def _peer_uid(sock: socket.socket) -> Optional[int]:
    """The uid of the process at the other end of a connected Unix socket, from the kernel:
    SO_PEERCRED on Linux, LOCAL_PEERCRED (getpeereid) on macOS and the BSDs; None where
    neither exists."""
    if hasattr(socket, "SO_PEERCRED"):
        cred = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        _pid, uid, _gid = struct.unpack("3i", cred)
        return uid
    if sys.platform == "darwin" or "bsd" in sys.platform:
        # struct xucred { u_int cr_version; uid_t cr_uid; short cr_ngroups; gid_t cr_groups[16]; }
        sol_local = getattr(socket, "SOL_LOCAL", 0)
        local_peercred = getattr(socket, "LOCAL_PEERCRED", 1)
        cred = sock.getsockopt(sol_local, local_peercred, struct.calcsize("IIh16I") + 8)
        _version, uid = struct.unpack_from("II", cred)
        return uid
    return None


def _check_path_owner(path: str) -> None:
    """Where the kernel cannot name the peer: the socket must be ours, and no other user may
    be able to replace it (every directory up to / ours or root's, and writable by no one
    else unless sticky)."""
    me = os.getuid()
    real = os.path.join(os.path.realpath(os.path.dirname(os.path.abspath(path))), os.path.basename(path))
    st = os.lstat(real)
    if not stat.S_ISSOCK(st.st_mode) or st.st_uid != me:
        raise ServeError(-32000, f"{path} is not a socket of this user (it belongs to uid {st.st_uid}): another user may have bound it first; refusing to connect")
    d = os.path.dirname(real)
    while True:
        ds = os.stat(d)
        if ds.st_uid not in (me, 0) or (ds.st_mode & 0o022 and not ds.st_mode & stat.S_ISVTX):
            raise ServeError(-32000, f"{d} is writable by others or owned by another user: the socket {path} in it could be replaced; refusing to connect")
        parent = os.path.dirname(d)
        if parent == d:
            return
        d = parent


def _connect_own(path: str) -> socket.socket:
    """Connects to `path` and makes sure the server is this user's before anything is sent:
    a server of another user that bound the path first would see every payload and could
    answer every hook."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
        uid = _peer_uid(sock)
        if uid is None:
            _check_path_owner(path)
        elif uid != os.getuid():
            raise ServeError(-32000, f"the server at {path} runs as another user (uid {uid}, not {os.getuid()}): another user may have bound the socket first; refusing to talk to it")
    except BaseException:
        sock.close()
        raise
    return sock


class Client:
    """``Client(socket="/path/hookhost.sock")`` connects to a running ``hookhost serve
    --socket`` (of this user only: a server run by another user is refused with a
    ``ServeError`` before anything is sent); ``Client(project=".")`` starts ``hookhost serve``
    on stdio for this client."""

    def __init__(
        self,
        socket_path: Optional[str] = None,
        *,
        project: Optional[str] = None,
        trust: Optional[str] = None,
        home: Optional[str] = None,
        env: Optional[Dict[str, str]] = None,
        session: Optional[str] = None,
    ) -> None:
        self._proc: Optional[subprocess.Popen] = None
        self._sock: Optional[socket.socket] = None
        if socket_path is not None:
            # The peer must be this user (see _connect_own), checked before anything is sent.
            self._sock = _connect_own(socket_path)
            self._r = self._sock.makefile("rb")
            self._w = self._sock.makefile("wb")
        else:
            args = [binary(), "serve", "--project", project or "."]
            if trust:
                args += ["--trust", trust]
            if home:
                # The server takes the account's home, never $HOME, unless told.
                args += ["--home", home]
            self._proc = subprocess.Popen(
                args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
            )
            self._r = self._proc.stdout
            self._w = self._proc.stdin
        self._next = 0
        self._hooks: Dict[str, Callable[[Dict[str, Any]], Any]] = {}
        self.notifications: List[Dict[str, Any]] = []
        self.session = session

    def _send(self, msg: Dict[str, Any]) -> None:
        self._w.write(json.dumps(msg).encode() + b"\n")
        self._w.flush()

    def call(self, method: str, params: Optional[Dict[str, Any]] = None) -> Any:
        """One request; answers the server's hook calls while waiting."""
        self._next += 1
        rid = self._next
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params or {}})
        while True:
            line = self._r.readline()
            if not line:
                raise ServeError(-32000, "the server closed the connection")
            m = json.loads(line)
            if m.get("method") == "hook":
                self._answer_hook(m)
            elif "method" in m:
                self.notifications.append(m)
            elif m.get("id") == rid:
                if "error" in m:
                    raise ServeError(m["error"]["code"], m["error"]["message"])
                return m["result"]

    def _answer_hook(self, m: Dict[str, Any]) -> None:
        fn = self._hooks.get(m["params"]["id"])
        try:
            if fn is None:
                raise LookupError(f"no hook {m['params']['id']!r} in this client")
            text = answer_json(fn(m["params"]["payload"]))
            self._send({"jsonrpc": "2.0", "id": m["id"], "result": json.loads(text) if text else None})
        except Exception as e:  # the hook's failure is a crash on the server side
            self._send({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32002, "message": repr(e)}})

    def register(self, event: str, match: Optional[str], fn: Callable, *, name: Optional[str] = None,
                 timeout_ms: Optional[int] = None, on_error: str = "warn") -> str:
        params: Dict[str, Any] = {"event": event, "onError": on_error,
                                  "name": name or getattr(fn, "__name__", "python")}
        if match is not None:
            params["match"] = match
        if timeout_ms is not None:
            params["timeoutMs"] = timeout_ms
        hook_id = self.call("register", params)["id"]
        self._hooks[hook_id] = fn
        return hook_id

    def unregister(self, hook_id: str) -> bool:
        self._hooks.pop(hook_id, None)
        return self.call("unregister", {"id": hook_id})["removed"]

    def fire_sync(self, event: str, **fields: Any) -> Report:
        if self.session and "session" not in fields:
            fields["session"] = self.session
        params = {"event": event, **{k: v for k, v in fields.items() if v is not None}}
        return Report.from_json(self.call("fire", params))

    def list(self) -> List[Dict[str, Any]]:
        return self.call("list")["hooks"]

    def check(self) -> Dict[str, Any]:
        return self.call("check")

    def shutdown(self) -> None:
        """Asks the server to stop once every running hook has ended."""
        self.call("shutdown")
        self.close()

    def close(self) -> None:
        for f in (self._w, self._r):
            try:
                f.close()
            except OSError:
                pass
        if self._sock is not None:
            self._sock.close()
        if self._proc is not None:
            self._proc.wait()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _add_event_methods() -> None:
    from . import _EventMethods

    for name, f in vars(_EventMethods).items():
        if not name.startswith("_") and callable(f) and name != "fire_sync":
            setattr(Client, name, f)


