"""The ``hookhost`` command line, shipped in the wheel: the real binary in ``hookhost/bin``.

The launcher is an agent's hook, and a project's agent settings (``env``) set variables for
every hook process: no variable chooses the binary (a ``HOOKHOST_BINARY`` there would make the
clone's script the guard, or ``/bin/true`` would switch every guard off; one that is set is
ignored, said on stderr), and neither does ``PATH``. The binary is the one the user named in
``~/.coding-agent/hookhost-binary`` (the account's home from the password database, a file of
theirs no one else can write), else the wheel's own.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Callable, Mapping, Optional

#: Where a user names another ``hookhost`` binary, under their home directory.
USER_BINARY_FILE = Path(".coding-agent") / "hookhost-binary"

_HOW = (
    f"write its absolute path into ~/{USER_BINARY_FILE} "
    "(a file of yours only you can write)"
)


def account_home() -> Optional[Path]:
    """The home directory of this account from the password database, never ``$HOME``."""
    try:
        import pwd

        return Path(pwd.getpwuid(os.getuid()).pw_dir)
    except (ImportError, KeyError, AttributeError):
        return None


def _not_private(path: Path) -> Optional[str]:
    if not hasattr(os, "getuid"):
        return None
    st = path.stat()
    if st.st_uid != os.getuid():
        return f"{path} belongs to uid {st.st_uid}, not to you"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"{path} is writable by group or others (mode {st.st_mode & 0o777:o})"
    return None


def user_binary(home: Optional[Path]) -> Optional[str]:
    """The binary named in ``<home>/.coding-agent/hookhost-binary``, or ``None`` when there is
    no such file; ``RuntimeError`` when the file is not the user's alone or does not name an
    absolute path."""
    if home is None:
        return None
    file = Path(home) / USER_BINARY_FILE
    if not file.is_file():
        return None
    why = _not_private(file) or _not_private(file.parent)
    if why:
        raise RuntimeError(f"hookhost: not using {file}: {why}; `chmod go-w` it if it is yours")
    chosen = file.read_text(encoding="utf-8").strip()
    if not os.path.isabs(chosen):
        raise RuntimeError(
            f"hookhost: {file} must hold the absolute path of a hookhost binary, got {chosen!r}"
        )
    return chosen


def binary(
    env: Optional[Mapping[str, str]] = None,
    home: Optional[Path] = None,
    warn: Callable[[str], None] = lambda m: print(m, file=sys.stderr),
) -> str:
    """The user's chosen binary, else the wheel's own; never a variable's."""
    env = os.environ if env is None else env
    chosen = user_binary(account_home() if home is None else home)
    for name in ("HOOKHOST_BINARY", "HOOKHOST_BIN"):
        if env.get(name) and env.get(name) != chosen:
            warn(
                f"hookhost: note: ignoring ${name}={env[name]} (a project's agent settings can "
                f"set it); to run another hookhost binary, {_HOW}"
            )
    if chosen:
        return chosen
    bundled = Path(__file__).parent / "bin" / "hookhost"
    if bundled.is_file():
        return str(bundled)
    raise FileNotFoundError(f"no hookhost binary in the package; to use another one, {_HOW}")


def main() -> None:
    try:
        exe = binary()
    except (RuntimeError, FileNotFoundError) as e:
        print(str(e), file=sys.stderr)
        sys.exit(1)
    if not os.access(exe, os.X_OK) and exe.startswith(str(Path(__file__).parent)):
        os.chmod(exe, 0o755)
    os.execv(exe, [exe] + sys.argv[1:])
