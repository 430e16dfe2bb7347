"""The ``hookhost`` command line, shipped in the wheel: the real binary in ``hookhost/bin``."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def binary() -> str:
    """The bundled ``hookhost`` binary, else one on PATH."""
    bundled = Path(__file__).parent / "bin" / "hookhost"
    if bundled.is_file():
        return str(bundled)
    found = shutil.which("hookhost")
    if found and Path(found).resolve() != Path(sys.argv[0]).resolve():
        return found
    raise FileNotFoundError("no hookhost binary in the package nor on PATH")


def main() -> None:
    exe = binary()
    if not os.access(exe, os.X_OK):
        os.chmod(exe, 0o755)
    os.execv(exe, [exe] + sys.argv[1:])
