"""A temporary project with its own HOME and compile cache, and the example wasm guests
(built by `cargo test` into $CARGO_TARGET_DIR/guests, or $HOOKHOST_TEST_GUESTS)."""

import json
import os
import shutil
from pathlib import Path

import pytest


def guests_dir() -> Path:
    explicit = os.environ.get("HOOKHOST_TEST_GUESTS")
    if explicit:
        return Path(explicit)
    target = os.environ.get("CARGO_TARGET_DIR") or str(Path(__file__).parents[3] / "target")
    return Path(target) / "guests" / "wasm32-wasip1" / "release"


class Project:
    def __init__(self, root: Path) -> None:
        self.path = root / "project"
        self.home = root / "home"
        self.cache = root / "cache"
        for d in (self.path, self.home, self.cache):
            d.mkdir()

    def hooks(self, config: dict) -> None:
        d = self.path / ".coding-agent"
        d.mkdir(exist_ok=True)
        (d / "hooks.json").write_text(json.dumps({"hooks": config}))

    def guest(self, name: str, rel: str) -> None:
        src = guests_dir() / f"{name}.wasm"
        assert src.is_file(), f"guest {src} is missing: run `cargo test` first (it builds the guests)"
        dst = self.path / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, dst)

    def runner(self, **kw):
        import hookhost

        # These tests exercise hooks, not trust: the project's hooks run as written. Tests of
        # the default policy (untrusted shell hooks skipped) pass trust="skip" or nothing to
        # `hookhost.Runner` themselves.
        kw.setdefault("trust", "all")
        return hookhost.Runner(str(self.path), home=str(self.home), cache_dir=str(self.cache), **kw)

    def env(self) -> dict:
        env = dict(os.environ)
        env["HOME"] = str(self.home)
        env["HOOKHOST_CACHE_DIR"] = str(self.cache)
        # As `runner`: hooks run as written (the default would skip untrusted shell hooks).
        env["HOOKHOST_TRUST"] = "all"
        return env


@pytest.fixture
def project(tmp_path):
    return Project(tmp_path)
