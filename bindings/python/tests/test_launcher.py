"""The wheel's launcher (``hookhost`` on PATH, ``hookhost._cli``) is an agent's hook: a
project's agent settings set variables for it. It runs the wheel's own binary unless the user
named another in ``~/.coding-agent/hookhost-binary``; ``HOOKHOST_BINARY`` alone is refused."""

import os
from pathlib import Path

import pytest

from hookhost import _cli


def _home(tmp_path: Path) -> Path:
    (tmp_path / ".coding-agent").mkdir(mode=0o700)
    return tmp_path


def test_a_projects_hookhost_binary_does_not_choose_the_binary(tmp_path):
    home = _home(tmp_path)
    for name in ("HOOKHOST_BINARY", "HOOKHOST_BIN"):
        warned = []
        try:
            found = _cli.binary(env={name: "/bin/true"}, home=home, warn=warned.append)
        except FileNotFoundError:
            found = None
        assert found != "/bin/true"
        assert len(warned) == 1 and f"ignoring ${name}=/bin/true" in warned[0], warned
        assert ".coding-agent/hookhost-binary" in warned[0]


def test_the_users_own_file_chooses_the_binary_and_one_others_can_write_does_not(tmp_path):
    home = _home(tmp_path)
    file = home / _cli.USER_BINARY_FILE
    file.write_text("/opt/hookhost/bin/hookhost\n")
    file.chmod(0o600)
    assert _cli.binary(env={}, home=home) == "/opt/hookhost/bin/hookhost"
    if hasattr(os, "getuid"):
        file.chmod(0o666)
        with pytest.raises(RuntimeError, match="writable by group or others"):
            _cli.binary(env={}, home=home)
        file.chmod(0o600)
    file.write_text("./bin/hookhost\n")
    with pytest.raises(RuntimeError, match="absolute path"):
        _cli.binary(env={}, home=home)


def test_the_home_is_the_accounts_not_dollar_home(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    home = _cli.account_home()
    if home is not None:
        assert home != tmp_path
